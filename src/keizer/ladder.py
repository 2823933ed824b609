"""The value ladder of a Keizer competition: what each position of the ranking is worth.

Rank k is worth ``top − (k−1)·step`` ("position", with ``top`` given or computed from
the ratio of first to last value) or a linear spread from ``range_top`` to
``range_bottom`` ("range"); ``docs/scoring.md`` gives the formulas and the sources.
"""

from __future__ import annotations

import math
from fractions import Fraction

from keizer.settings import Settings

__all__ = ["auto_top", "ladder_values"]


def ladder_values(settings: Settings, n: int) -> list[Fraction]:
    """The value of each position 1…n.

    >>> ladder_values(Settings(), 6)          # auto top: 5·3/2 = 7.5 → 8 (half up)
    [Fraction(8, 1), Fraction(7, 1), Fraction(6, 1), Fraction(5, 1), Fraction(4, 1), Fraction(3, 1)]
    >>> ladder_values(Settings(ladder="range"), 3)
    [Fraction(200, 1), Fraction(150, 1), Fraction(100, 1)]
    """
    if n <= 0:
        return []
    if settings.ladder == "range":
        if n == 1:
            return [settings.range_top]
        gap = (settings.range_top - settings.range_bottom) / (n - 1)
        return [settings.range_top - k * gap for k in range(n)]
    top = Fraction(settings.top) if settings.top is not None else Fraction(auto_top(settings, n))
    # A value below zero would make beating someone cost points: the ladder stops at 0.
    return [max(top - k * settings.step, Fraction(0)) for k in range(n)]


def auto_top(settings: Settings, n: int) -> int:
    """``(n−1)·ratio/(ratio−1)``, rounded as the settings say (at least 1).

    >>> [auto_top(Settings(top_rounding=r), 10) for r in ("half-up", "half-even", "down")]
    [14, 14, 13]
    """
    exact = Fraction(n - 1) * settings.ratio / (settings.ratio - 1)
    if settings.top_rounding == "down":
        top = math.floor(exact)
    elif settings.top_rounding == "half-even":
        top = round(exact)  # Fraction.__round__ rounds half to even
    else:
        top = math.floor(exact + Fraction(1, 2))
    return max(top, 1)
