"""FIDE rating tables (Handbook B.02 8.1.1 and 8.1.2) and the rounding C.07 prescribes.

Values are the ones printed in the TEC tie-break exercises (IA M. Held,
rev. 2403220900, Ex. 19 and §5.2); probabilities are kept in hundredths so
sums are exact.

>>> rating_difference(80), rating_difference(38), rating_difference(0)
(240, -87, -800)
>>> expected(370), expected(-80), expected(900)
(90, 39, 100)
>>> round_half_up(Fraction(7550, 4)), half_up(7550, 4)
(1888, 1888)
"""

from __future__ import annotations

import bisect
from fractions import Fraction
from typing import Literal, overload

#: B.02 8.1.1: dp for a percentage score p = 50…100 (index p − 50).
_DP = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322,
    336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)

#: B.02 8.1.2: the upper end of each rating-difference band and the higher-rated
#: player's expected score in hundredths; above 735 it is 100.
_BANDS = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
    162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344,
    357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)


def rating_difference(percent: int) -> int:
    """dp for a score of ``percent`` hundredths (0…100), negative below 50."""
    if not 0 <= percent <= 100:
        raise ValueError(f"percentage {percent} outside 0…100")
    return _DP[percent - 50] if percent >= 50 else -_DP[50 - percent]


#: The higher-rated player's expected score for each difference 0…736 (the last for all above).
_HIGH = tuple(50 + bisect.bisect_left(_BANDS, d) for d in range(737))


def expected(difference: int) -> int:
    """Expected score in hundredths of the player whose rating is ``difference`` higher."""
    high = _HIGH[min(abs(difference), 736)]
    return high if difference >= 0 else 100 - high


def half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator (> 0) rounded half up to an integer, in integers only."""
    return (2 * numerator + denominator) // (2 * denominator)


@overload
def round_half_up(value: Fraction, places: Literal[0] = 0) -> int: ...
@overload
def round_half_up(value: Fraction, places: int) -> Fraction | int: ...


def round_half_up(value: Fraction, places: int = 0) -> Fraction | int:
    """Round as the TEC exercises do (1887.5 → 1888; 0.375 → 0.38); an int when places is 0."""
    scale = 10**places
    rounded = half_up(value.numerator * scale, value.denominator)
    return rounded if places == 0 else Fraction(rounded, scale)
