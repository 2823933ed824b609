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

from fractions import Fraction
from typing import Mapping

from keizer.model import Colour
from keizer.tiebreaks.fide_tables import expected, rating_difference, round_half_up
from keizer.tiebreaks.fields import Field, total
from keizer.tiebreaks.model import Code
from keizer.tiebreaks.unplayed import Contribution, Edition, Faced, Purpose, Unplayed, counts_as_game, cut

Values = dict[int, Fraction | int | None]


# -- Buchholz family and Sonneborn-Berger (arts. 8–9), on faced opponents ------------------

def buchholz(u: Unplayed, low: int = 0, high: int = 0, voluntary_first: bool = False) -> dict[int, Fraction]:
    """BH (8.1): the sum of the opponents' scores, after ``low``/``high`` cuts."""
    return {i: _sum(cut([Contribution(f.score, (f.score,), f.voluntary) for f in rounds],
                        low, high, voluntary_first))
            for i, rounds in u.faced.items()}


def sonneborn_berger(u: Unplayed, low: int = 0, high: int = 0, voluntary_first: bool = False,
                     points: Mapping[int, tuple[Faced, ...]] | None = None, scale: Fraction = Fraction(1),
                     ) -> dict[int, Fraction]:
    """SB (9.1): Σ opponent's score × points scored against them.

    The least significant opponent is the lowest score, then the lowest
    product (TEC Ex. 13).  ``points`` takes the points from another score's
    rounds (the team ESB variants), multiplied by ``scale``.
    """
    result = {}
    for i, rounds in u.faced.items():
        own = points[i] if points is not None else rounds
        values = []
        for f, g in zip(rounds, own):
            product = f.score * g.points * scale
            values.append(Contribution(product, (f.score, product), f.voluntary))
        result[i] = _sum(cut(values, low, high, voluntary_first))
    return result


def koya(field: Field, u: Unplayed, limit: int = 0) -> dict[int, Fraction]:
    """KS (9.2): points scored against opponents with at least half the maximum score.

    ``limit`` moves that threshold by half points (14.5): KS/L-1 is the
    extended Koya's first step.
    """
    threshold = field.win * field.rounds / 2 + limit * field.step
    return {i: total(f.points for f in rounds if f.score >= threshold) for i, rounds in u.faced.items()}


def opponents_buchholz(field: Field, bh: Mapping[int, Fraction], edition: Edition, average: bool) -> Values:
    """AOB (8.2): the mean Buchholz of the opponents met over the board, to 2 decimals (TEC §3.3).

    With ``average`` False: their sum (Swiss-Manager's "sum of Buchholz", BHs).
    """
    result: Values = {}
    for i, line in field.slots.items():
        met = [bh[s.opponent] for s in line  # type: ignore[index]
               if counts_as_game(s, field, edition, Purpose.OPPONENTS)]
        if not met:
            result[i] = None if average else Fraction(0)
        else:
            summed = total(met)
            result[i] = round_half_up(summed / len(met), 2) if average else summed
    return result


# -- the participant's own results (art. 7) -------------------------------------------------

def progressive(field: Field, low: int = 0) -> dict[int, Fraction]:
    """PS (7.5): the sum of the running scores after each round; a Cut drops the first ones.

    >>> from keizer.tiebreaks.fields import Slot
    >>> s = lambda p: Slot(Code.WIN if p else Code.LOSS, None, None, Fraction(p))
    >>> f = Field({1: tuple(s(1) for _ in range(8)) + (s(0),)}, 9, 1, Fraction(1, 2), 0, Fraction(1, 2), None, {})
    >>> progressive(f)[1]
    Fraction(44, 1)
    """
    n = field.rounds
    # Σ of running scores = Σ over rounds of points × (rounds still to add it to)
    return {i: total(s.points * (n - max(r, low)) for r, s in enumerate(line)) for i, line in field.slots.items()}


def wins(field: Field) -> dict[int, int]:
    """WIN (7.1): rounds that scored a win's points, played or not (PAB, forfeit, FPB)."""
    return {i: sum(1 for s in line if s.points == field.win) for i, line in field.slots.items()}


def games_won(field: Field, edition: Edition, black: bool = False) -> dict[int, int]:
    """WON (7.2), or BWG (7.4) with ``black``: games won over the board."""
    return {i: sum(1 for s in line if _own_game(s, field, edition) and s.code.outcome == 1
                   and (not black or s.colour is Colour.BLACK))
            for i, line in field.slots.items()}


def black_games(field: Field, edition: Edition) -> dict[int, int]:
    """BPG (7.3): games played over the board with Black."""
    return {i: sum(1 for s in line if _own_game(s, field, edition) and s.colour is Colour.BLACK)
            for i, line in field.slots.items()}


def rounds_elected(field: Field, edition: Edition) -> dict[int, int]:
    """REP, formerly GE (7.6): rounds minus half- and zero-point byes and forfeit losses."""
    skipped = (Code.HPB, Code.ZPB, Code.FORFEIT_LOSS)
    return {i: field.rounds - sum(1 for s in line if s.code in skipped and not _own_game(s, field, edition))
            for i, line in field.slots.items()}


def standard_points(field: Field) -> dict[int, Fraction]:
    """STD (7.7, 2026): 1 per round scoring more than the scheduled opponent, ½ per equal round.

    A round without opponent compares with a draw's points.
    """
    result = {}
    for i, line in field.slots.items():
        halves = 0
        for r, s in enumerate(line):
            other = field.slots[s.opponent][r].points if s.opponent is not None else field.draw
            halves += 2 if s.points > other else 1 if s.points == other else 0
        result[i] = Fraction(halves, 2)
    return result


def _own_game(s, field: Field, edition: Edition) -> bool:
    return counts_as_game(s, field, edition, Purpose.OWN)


# -- ratings (art. 10) ----------------------------------------------------------------------

def average_rating(field: Field, edition: Edition, low: int = 0, high: int = 0,
                   unrated: int | None = None) -> Values:
    """ARO (10.1): the mean rating of the opponents met over the board, rounded half up.

    ``low``/``high`` cut the lowest/highest ratings; None when nothing is left
    (ARO-C1 after a single game, TEC Ex. 18).
    """
    result: Values = {}
    for i, games in _rated_games(field, edition, unrated).items():
        ratings = sorted(r for r, _ in games)
        kept = ratings[low:len(ratings) - high]
        result[i] = round_half_up(Fraction(sum(kept), len(kept))) if kept else None
    return result


def performance(field: Field, edition: Edition, unrated: int | None = None, cap: int | None = None) -> Values:
    """TPR (10.2): ARO + dp(p), p = points per game over the board to 2 decimals (TEC Ex. 19–20).

    ``cap`` applies the old rating-difference rule (350, later 400 points):
    an opponent more than ``cap`` points away counts as exactly ``cap`` away.
    """
    result: Values = {}
    for i, games in _rated_games(field, edition, unrated).items():
        if not games:
            result[i] = None
            continue
        own = field.ratings.get(i)
        ratings = [r if cap is None or not own else min(max(r, own - cap), own + cap) for r, _ in games]
        aro = round_half_up(Fraction(sum(ratings), len(ratings)))
        p = round_half_up(total(o for _, o in games) / len(games), 2)
        result[i] = aro + rating_difference(int(p * 100))
    return result


def perfect_performance(field: Field, edition: Edition, unrated: int | None = None) -> Values:
    """PTP (10.3): the lowest rating whose expected score (B.02 8.1.2, no 400 cap) reaches the score.

    A zero score gives the lowest opponent − 800.
    """
    result: Values = {}
    for i, games in _rated_games(field, edition, unrated).items():
        if not games:
            result[i] = None
            continue
        ratings = [r for r, _ in games]
        needed = int(total(o for _, o in games) * 100)
        lo, hi = min(ratings) - 800, max(ratings) + 800
        while lo < hi:  # the expected score grows with the rating: bisect for the first that suffices
            mid = (lo + hi) // 2
            if sum(expected(mid - r) for r in ratings) >= needed:
                hi = mid
            else:
                lo = mid + 1
        result[i] = lo
    return result


def opponents_average(field: Field, edition: Edition, of: Mapping[int, Fraction | int | None]) -> Values:
    """APRO (10.4) or APPO (10.5): the mean of the opponents' TPR or PTP, rounded half up."""
    result: Values = {}
    for i, line in field.slots.items():
        found = [of.get(s.opponent) for s in line  # type: ignore[arg-type]
                 if counts_as_game(s, field, edition, Purpose.RATING)]
        known = [int(v) for v in found if v is not None]
        result[i] = round_half_up(Fraction(sum(known), len(known))) if known else None
    return result


def _rated_games(field: Field, edition: Edition, unrated: int | None) -> dict[int, list[tuple[int, Fraction]]]:
    """Per participant: (opponent's rating, points out of 1) of each game over the board.

    Games against unrated opponents are left out unless ``unrated`` gives them a rating.
    """
    result = {}
    for i, line in field.slots.items():
        games = []
        for s in line:
            if not counts_as_game(s, field, edition, Purpose.RATING):
                continue
            rating = field.ratings.get(s.opponent) or unrated  # type: ignore[arg-type]
            if rating:
                games.append((rating, s.code.outcome or Fraction(0)))
        result[i] = games
    return result


def _sum(values: list[Contribution]) -> Fraction:
    return total(v.adds for v in values)

