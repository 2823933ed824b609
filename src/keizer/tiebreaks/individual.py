"""The C.07 tie-breaks of arts. 7–10, computed for every participant of a :class:`Field`.

They serve individual tournaments and, on match or game points, team
tournaments (C.07 art. 11).  Each function returns ``{participant: value}``;
a value is None where the tie-break is undefined (e.g. a rating average
without games).  Articles are those of C.07 2024/2026.

A player who beat 2 and had a half-point bye, while 2 beat 3, under the 2026 rules:

>>> from keizer.tiebreaks.model import Code, Player, RoundResult, Tournament
>>> from keizer.tiebreaks.fields import player_field
>>> from keizer.tiebreaks.unplayed import Edition, unplayed
>>> R = RoundResult
>>> f = player_field(Tournament((Player(1, results=(R(Code.WIN, 2), R(Code.HPB))),
...                              Player(2, results=(R(Code.LOSS, 1), R(Code.WIN, 3))),
...                              Player(3, results=(R(Code.PAB), R(Code.LOSS, 2)))), rounds=2))
>>> u = unplayed(f, Edition.FIDE_2026)
>>> buchholz(u)[1], sonneborn_berger(u)[1]    # 1 (player 2) + the HPB dummy: own 1.5 capped at ½ × 2
(Fraction(2, 1), Fraction(3, 2))
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import partial
from fractions import Fraction
from itertools import compress, repeat
from operator import and_, eq, ge, getitem, gt, mul, truth
from typing import Callable, Iterable, Mapping, cast

from keizer.tiebreaks.fide_tables import expected, half_up, rating_difference
from keizer.tiebreaks.fields import Field, fractions
from keizer.tiebreaks.model import Code
from keizer.tiebreaks.unplayed import Edition, Purpose, Unplayed, cut_sum, ends_cut, game_flags, voluntary_cut

Values = dict[int, Fraction | int | None]


# -- Buchholz family and Sonneborn-Berger (arts. 8–9), on faced opponents ------------------

def buchholz(u: Unplayed, low: int = 0, high: int = 0, voluntary_first: bool = False) -> dict[int, Fraction]:
    """BH (8.1): the sum of the opponents' scores, after ``low``/``high`` cuts."""
    fraction = fractions(u.den)
    if not low and not high:
        return dict(zip(u.scores, map(fraction, map(sum, u.scores.values()))))
    # the cuts of a line without voluntary unplayed rounds to take first are the ends of its sorted scores:
    # a slice, when every line is long enough to have both ends
    ordered = u.ordered
    if min(map(len, ordered.values()), default=0) >= low + high:
        kept = map(getitem, ordered.values(), repeat(slice(low, -high or None)))
        sums = dict(zip(ordered, map(sum, kept)))
    else:
        sums = {i: ends_cut(line, low, high) for i, line in ordered.items()}
    for i, (chosen, others) in u.voluntary_apart.items() if voluntary_first else ():
        sums[i] = voluntary_cut(chosen, others, low, high)
    return dict(zip(sums, map(fraction, sums.values())))


def sonneborn_berger(u: Unplayed, low: int = 0, high: int = 0, voluntary_first: bool = False,
                     points: Unplayed | None = None, scale: Fraction = Fraction(1)) -> dict[int, Fraction]:
    """SB (9.1): Σ opponent's score × points scored against them.

    The least significant opponent is the lowest score, then the lowest
    product (TEC Ex. 13).  ``points`` takes the points from another score's
    rounds (the team ESB variants), multiplied by ``scale``.
    """
    own = points if points is not None else u
    factor, fraction = scale.numerator, fractions(u.den * own.den * scale.denominator)
    if own is u and factor == 1:
        products, totals = u.products  # shared by SB and its cuts
    else:
        products = {i: tuple([s * p * factor for s, p in zip(scores, own.points[i])])
                    for i, scores in u.scores.items()}
        totals = dict(zip(products, map(sum, products.values())))
    if not low and not high:
        return dict(zip(totals, map(fraction, totals.values())))
    first, scores, voluntary = u.with_voluntary if voluntary_first else frozenset(), u.scores, u.voluntary
    result = {}
    for i, line in products.items():
        if low == 1 and not high and i not in first:  # the usual /C1: the least significant round's product
            result[i] = fraction(totals[i] - min(zip(scores[i], line))[1] if line else 0)
        else:
            result[i] = fraction(cut_sum(line, voluntary[i], low, high, voluntary_first, scores[i]))
    return result


def koya(field: Field, u: Unplayed, limit: int = 0) -> dict[int, Fraction]:
    """KS (9.2): points scored against opponents with at least half the maximum score.

    ``limit`` moves that threshold by half points (14.5): KS/L-1 is the
    extended Koya's first step.
    """
    threshold = (Fraction(field.win * field.rounds, 2) + limit * field.step) * u.den
    least = -(-threshold.numerator // threshold.denominator)  # the least numerator that reaches it
    fraction = fractions(u.den)
    points, reaching = u.points, partial(map, ge)  # reaching(scores, repeat(least)): the rounds that count
    return {i: fraction(sum(compress(points[i], reaching(scores, repeat(least))))) for i, scores in u.scores.items()}


def opponents_buchholz(field: Field, bh: Mapping[int, Fraction], edition: Edition, average: bool) -> Values:
    """AOB (8.2): the mean Buchholz of the opponents met over the board, to 2 decimals (TEC §3.3).

    With ``average`` False: their sum (Swiss-Manager's "sum of Buchholz", BHs).
    """
    d, nums = _numerators(bh)
    hundredths, fraction = fractions(100), fractions(d)
    result: Values = {}
    for i, met in _met(field, edition, Purpose.OPPONENTS).items():
        if not met:
            result[i] = None if average else fraction(0)
            continue
        total = sum(map(nums.__getitem__, met))
        result[i] = hundredths(half_up(total * 100, d * len(met))) if average else fraction(total)
    return result


def _met(field: Field, edition: Edition, purpose: Purpose) -> dict[int, tuple[int, ...]]:
    """Per participant the opponents of its rounds counted as games for ``purpose``, computed once per field."""
    counted = game_flags(field, edition, purpose)  # one dict for every purpose in a Swiss

    def make() -> dict[int, tuple[int, ...]]:
        opponents = cast("dict[int, tuple[int, ...]]", field.opponents)  # a round counted as a game has one
        return {i: tuple(compress(line, counted[i])) for i, line in opponents.items()}
    # the field keeps `counted` as long as this: its id names it
    return field.memo(("met", id(counted)), make)


# -- the participant's own results (art. 7) -------------------------------------------------

def progressive(field: Field, low: int = 0) -> dict[int, Fraction]:
    """PS (7.5): the sum of the running scores after each round; a Cut drops the first ones.

    >>> from keizer.tiebreaks.fields import player_field
    >>> from keizer.tiebreaks.model import Player, RoundResult, Tournament
    >>> line = (RoundResult(Code.WIN),) * 8 + (RoundResult(Code.LOSS),)
    >>> progressive(player_field(Tournament((Player(1, results=line),), 9)))[1]
    Fraction(44, 1)
    """
    n = field.rounds
    # Σ of running scores = Σ over rounds of points × (rounds still to add it to)
    weights = [n - max(r, low) for r in range(max(map(len, field.nums.values()), default=0))]
    fraction = fractions(field.den)
    nums = field.nums
    weighted = map(map, repeat(mul), nums.values(), repeat(weights))  # each line's points × weights, lazily
    return dict(zip(nums, map(fraction, map(sum, weighted))))


def wins(field: Field) -> dict[int, int]:
    """WIN (7.1): rounds that scored a win's points, played or not (PAB, forfeit, FPB)."""
    win = field.num(field.win)
    return {i: line.count(win) for i, line in field.nums.items()}


def games_won(field: Field, edition: Edition, black: bool = False) -> dict[int, int]:
    """WON (7.2), or BWG (7.4) with ``black``: games won over the board."""
    own, codes = game_flags(field, edition, Purpose.OWN), field.codes
    if black:
        blacks = field.blacks
        return {i: sum(map(and_, map(and_, own[i], blacks[i]), map(_IS_WON, line))) for i, line in codes.items()}
    return {i: sum(map(and_, own[i], map(_IS_WON, line))) for i, line in codes.items()}


def black_games(field: Field, edition: Edition) -> dict[int, int]:
    """BPG (7.3): games played over the board with Black."""
    own, blacks = game_flags(field, edition, Purpose.OWN), field.blacks
    return {i: sum(map(and_, own[i], line)) for i, line in blacks.items()}


def rounds_elected(field: Field, edition: Edition) -> dict[int, int]:
    """REP, formerly GE (7.6): rounds minus half- and zero-point byes and forfeit losses."""
    own = game_flags(field, edition, Purpose.OWN)
    # a round is skipped when it is not counted as a game and its code is one of _SKIPPED: skipped > counted
    return {i: field.rounds - sum(map(gt, map(_IS_SKIPPED, line), own[i])) for i, line in field.codes.items()}


def standard_points(field: Field) -> dict[int, Fraction]:
    """STD (7.7, 2026): 1 per round scoring more than the scheduled opponent, ½ per equal round.

    A round without opponent compares with a draw's points.
    """
    nums, draw, half = field.nums, field.num(field.draw), fractions(2)
    drawn, rounds = (draw,) * field.rounds, range(field.rounds)
    line_of = cast("Callable[[int | None, tuple[int, ...]], tuple[int, ...]]", nums.get)
    result = {}
    for i, line in field.opponents.items():
        mine = nums[i]
        # what each round's opponent scored in it (a draw's points where there is none), read as a column
        theirs = tuple(map(getitem, map(line_of, line, repeat(drawn)), rounds))
        result[i] = half(2 * sum(map(gt, mine, theirs)) + sum(map(eq, mine, theirs)))
    return result


_IS_WON = {code: code.outcome == 1 for code in Code}.__getitem__
_IS_SKIPPED = {code: code in (Code.HPB, Code.ZPB, Code.FORFEIT_LOSS) for code in Code}.__getitem__


# -- ratings (art. 10) ----------------------------------------------------------------------

def average_rating(field: Field, edition: Edition, low: int = 0, high: int = 0,
                   unrated: int | None = None) -> Values:
    """ARO (10.1): the mean rating of the opponents met over the board, rounded half up.

    ``low``/``high`` cut the lowest/highest ratings; None when nothing is left
    (ARO-C1 after a single game, TEC Ex. 18).
    """
    result: Values = {}
    for i, (ratings, _) in _rated_games(field, edition, unrated).items():
        kept = sorted(ratings)[low:len(ratings) - high]
        result[i] = half_up(sum(kept), len(kept)) if kept else None
    return result


def performance(field: Field, edition: Edition, unrated: int | None = None, cap: int | None = None) -> Values:
    """TPR (10.2): ARO + dp(p), p = points per game over the board to 2 decimals (TEC Ex. 19–20).

    ``cap`` applies the old rating-difference rule (350, later 400 points):
    an opponent more than ``cap`` points away counts as exactly ``cap`` away.
    """
    result: Values = {}
    for i, (ratings, halves) in _rated_games(field, edition, unrated).items():
        if not ratings:
            result[i] = None
            continue
        own = field.ratings.get(i)
        if cap is not None and own:
            ratings = tuple(min(max(r, own - cap), own + cap) for r in ratings)
        n = len(ratings)
        result[i] = half_up(sum(ratings), n) + rating_difference(half_up(halves * 100, 2 * n))
    return result


def perfect_performance(field: Field, edition: Edition, unrated: int | None = None) -> Values:
    """PTP (10.3): the lowest rating whose expected score (B.02 8.1.2, no 400 cap) reaches the score.

    A zero score gives the lowest opponent − 800.
    """
    games = _rated_games(field, edition, unrated)
    everyone = [r for ratings, _ in games.values() for r in ratings]
    span = max(everyone) - min(everyone) + 800 if everyone else 0
    table = [expected(d) for d in range(-span, span + 1)]  # expected score by difference, offset by span
    result: Values = {}
    for i, (ratings, halves) in games.items():
        if not ratings:
            result[i] = None
            continue
        needed, n = halves * 50, len(ratings)
        offsets = [span - r for r in ratings]
        low, high = min(ratings), max(ratings)
        lo, hi = low - 800, high + 800
        # d: the least difference whose expected score reaches the score per game. Below lowest + d
        # every game expects less than that, from highest + d on every game at least that much
        d = bisect_left(table, -(-needed // n)) - span
        if d <= span:
            hi = max(min(hi, high + d), lo)
        lo = min(max(lo, low + d), hi)
        while lo < hi:  # the expected score grows with the rating: bisect for the first that suffices
            mid = (lo + hi) // 2
            if sum([table[mid + o] for o in offsets]) >= needed:
                hi = mid
            else:
                lo = mid + 1
        result[i] = lo
    return result


def opponents_average(field: Field, edition: Edition, of: Mapping[int, Fraction | int | None]) -> Values:
    """APRO (10.4) or APPO (10.5): the mean of the opponents' TPR or PTP, rounded half up."""
    result: Values = {}
    value_of = of.get
    for i, met in _met(field, edition, Purpose.RATING).items():
        known = cast("list[int]", [v for v in map(value_of, met) if v is not None])  # TPR, PTP: ints
        result[i] = half_up(sum(known), len(known)) if known else None
    return result


def _rated_games(field: Field, edition: Edition, unrated: int | None) -> dict[int, tuple[tuple[int, ...], int]]:
    """Per participant: the ratings of the opponents met over the board, and the half points scored against them.

    Games against unrated opponents are left out unless ``unrated`` gives them a rating.
    """
    def make() -> dict[int, tuple[tuple[int, ...], int]]:
        counted, codes = game_flags(field, edition, Purpose.RATING), field.codes
        rating_of = cast("Callable[[int], int | None]", field.ratings.get)
        result = {}
        for i, met in _met(field, edition, Purpose.RATING).items():  # columns read with map: no loop in Python
            ratings = tuple(map(rating_of, met))
            halves: Iterable[int] = map(_HALVES, compress(codes[i], counted[i]))  # the games counted, as met
            if unrated:
                ratings = tuple([r or unrated for r in ratings])
            elif not all(ratings):  # unrated opponents: their games are left out
                kept = tuple(map(truth, ratings))
                ratings, halves = tuple(compress(ratings, kept)), compress(halves, kept)
            result[i] = (ratings, sum(halves))
        return result  # type: ignore[return-value]  # every rating left is an int
    return field.memo(("rated games", edition, unrated), make)


_HALVES = {code: 0 if code.outcome is None else int(2 * code.outcome) for code in Code}.__getitem__


def _numerators(values: Mapping[int, Fraction]) -> tuple[int, dict[int, int]]:
    """A common denominator of ``values`` and each value's numerator over it."""
    d = math.lcm(*(v.denominator for v in values.values()))
    return d, {i: v.numerator * (d // v.denominator) for i, v in values.items()}
