"""The DWZ (Deutsche Wertungszahl) of the Deutscher Schachbund: what a tournament does to an
established player's DWZ.

Source: the DSB's *Wertungsordnung* as published on schachbund.de (chapter 3, "Berechnungsregeln
des DWZ-Wertungssystems", and Anhang 1.2, "Die Ermittlung des Entwicklungskoeffizienten E";
read 2026). Article numbers below are that text's.

* 3.3.1: the expected score of one game is a normal distribution of the rating difference
  D = own DWZ − the opponent's, with standard deviation 200·√2 about 0: P(D) = Φ(D / (200·√2)),
  which is (1 + erf(D / 400)) / 2. There is no 400-point cap.
* 3.3.2: We = ΣP(D) over the games against opponents with a DWZ.
* 3.5.2: Rn = Ro + 800·(W − We) / (E + n), n the number of rated games.
* Anhang 1.2: E = E0·fB + SBr with E0 = (Ro / 1000)⁴ + J, J = 5 up to 20 years, 10 from 21 to
  25, 15 over 25; fB = Ro / 2000 within 0.5…1.0, only for players up to 20 with W ≥ We (else 1);
  SBr = e^((1300 − Ro) / 150) − 1, only for Ro < 1300 and W < We (else 0). E is rounded to a
  whole number, at least 5; with SBr = 0 at most 5·Index for an index up to 5, else 30; with
  SBr > 0 at most 150. A player with an equivalent rating but no DWZ counts as index 1.

Not implemented: a first DWZ (3.4, an iteration over the tournament's unrated players), the
special evaluation of 3.6.3 and the restriction to games of at least the required playing time
(the caller chooses the games). Floats, not exact fractions: P(D) is an integral; the new DWZ
is rounded to a whole number (half away from zero, as "ganzzahlig gerundet" reads).

Provisional, not official: the DSB's Wertungszentrale computes the DWZ.

>>> round(expected(0), 4), round(expected(100), 4), round(expected(-200), 4)
(0.5, 0.6382, 0.2398)
>>> c = change(Tournament(1700, ((1600, Fraction(1)), (1800, Fraction(1, 2))), age=40, index=10))
>>> round(c.we, 4), c.e, c.new, c.change
(1.0, 23, 1716, 16)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Season


def expected(difference: float) -> float:
    """P(D) of 3.3.1: the expected score of a player rated ``difference`` above the opponent."""
    return (1 + math.erf(difference / 400)) / 2


def age_constant(age: int | None) -> int:
    """J of Anhang 1.2 by the age (the year the tournament ends minus the year of birth); an
    unknown age counts as over 25, as the DSB's own calculator takes it."""
    if age is not None and age <= 20:
        return 5
    if age is not None and age <= 25:
        return 10
    return 15


def _whole(x: float) -> int:
    """Rounded to a whole number, half away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def development(ro: int, age: int | None, index: int, score: Fraction, we: float) -> int:
    """E of Anhang 1.2 (rounded, within its limits).

    >>> development(1500, 40, 10, Fraction(3), 2.0), development(1500, 40, 2, Fraction(3), 2.0)
    (20, 10)
    >>> development(1800, 16, 10, Fraction(3), 2.0), development(1800, 16, 10, Fraction(1), 2.0)  # fB = .9 when W ≥ We
    (14, 15)
    >>> development(1000, 40, 10, Fraction(1), 2.0)  # SBr = e^2 − 1 = 6.39 when W < We: 16 + 6.39
    22
    """
    e0 = (ro / 1000) ** 4 + age_constant(age)
    fb = min(1.0, max(0.5, ro / 2000)) if age is not None and age <= 20 and score >= we else 1.0
    sbr = math.exp((1300 - ro) / 150) - 1 if ro < 1300 and score < we else 0.0
    e = max(5, _whole(e0 * fb + sbr))
    if sbr > 0:
        return min(e, 150)
    index = max(index, 1)
    return min(e, 5 * index if index <= 5 else 30)


@dataclass(frozen=True)
class Tournament:
    """An established player's tournament: the DWZ before it (Ro), the rated games (the
    opponent's DWZ and the score), the age in the year it ends (None: unknown) and the DWZ's
    index (the number of evaluations so far)."""

    ro: int
    games: Sequence[tuple[int, Fraction]]
    age: int | None = None
    index: int = 6


@dataclass(frozen=True)
class Change:
    """What a tournament did: Ro, W, We, E, n, the new DWZ and the change (Rn − Ro)."""

    ro: int
    score: Fraction
    we: float
    e: int
    games: int
    new: int

    @property
    def change(self) -> int:
        return self.new - self.ro


def change(t: Tournament) -> Change:
    """The new DWZ of 3.5.2: Rn = Ro + 800·(W − We)/(E + n), rounded; no games, no change."""
    if not t.games:
        return Change(t.ro, Fraction(0), 0.0, development(t.ro, t.age, t.index, Fraction(0), 0.0), 0, t.ro)
    score = sum((s for _, s in t.games), Fraction(0))
    we = sum(expected(t.ro - r) for r, _ in t.games)
    e = development(t.ro, t.age, t.index, score, we)
    n = len(t.games)
    return Change(t.ro, score, we, e, n, t.ro + _whole(800 * (float(score) - we) / (e + n)))


# -- a player's games in one competition -------------------------------------------------------


@dataclass(frozen=True)
class DwzGame:
    """One game of a player as the DWZ sees it: ``expected`` is P(D) (None: not counted, the
    opponent has no DWZ)."""

    round: int
    opponent: str
    opponent_name: str
    opponent_rating: int | None
    score: Fraction
    expected: float | None


@dataclass(frozen=True)
class DwzChanges:
    """A player's DWZ in one competition taken as one tournament: every game and what they
    did (None without a DWZ or a counted game). Provisional, not official."""

    rating: int | None
    games: tuple[DwzGame, ...]
    result: Change | None

    @property
    def counted(self) -> int:
        return sum(g.expected is not None for g in self.games)


def season_changes(season: Season, ratings: Mapping[str, int | None], player: str, age: int | None = None,
                   index: int = 6) -> DwzChanges:
    """What ``player``'s games of a competition do to the DWZ (3.5.2), the competition taken as
    one tournament: games played on the board against opponents with a DWZ (``ratings``: each
    player's DWZ; None or 0: none); forfeits are not games.

    >>> from keizer.model import Game, Player, Result, Round
    >>> from keizer.settings import Settings
    >>> s = Season("x", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C")),
    ...            (Round(1, "2026-01-15", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
    ...             Round(2, "2026-01-22", (Game(2, 1, "c", "a", Result.DRAW),))))
    >>> r = season_changes(s, {"a": 1700, "b": 1600, "c": 1800}, "a", age=40, index=10)
    >>> [(g.opponent, round(g.expected or 0, 4)) for g in r.games], r.result.new, r.counted
    ([('b', 0.6382), ('c', 0.3618)], 1716, 2)
    """
    own = ratings.get(player) or None
    names = {p.id: p.name for p in season.players}
    games: list[DwzGame] = []
    for rnd, game, other in season.board_games(player):
        theirs = ratings.get(other) or None
        games.append(DwzGame(rnd.number, other, names.get(other, other), theirs, game.points_of(player),
                             expected(own - theirs) if own is not None and theirs is not None else None))
    rated = [(g.opponent_rating, g.score) for g in games if g.expected is not None and g.opponent_rating]
    result = change(Tournament(own, rated, age, index)) if own is not None and rated else None
    return DwzChanges(own, tuple(games), result)
