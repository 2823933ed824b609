"""The ECF rating (English Chess Federation): what a month's games do to an established
player's four-digit rating, as far as the ECF's published method says.

Sources (read December 2026; see docs/ratings.md for what each says and what is missing):

* "The calculation of ECF Grades on a monthly basis" (englishchess.org.uk, the ECF's rating
  team, 2019–2020): monthly lists from 1 January 2020 (in force from September 2020); the old
  three-digit grades converted by *new = 7.5 × old + 700*; each month ``R1 = R0 + k(W − We)``
  with R0 the rating of the previous month, k 20 or 40, W the player's total score of the
  month's results and We the expected total score "based on the FIDE table 8.1b"
  (FIDE Handbook B.02, 2017 edition; the same table as 8.1.2 of the 2024 edition, which
  :func:`keizer.rating.fide.expected_score` holds).
* The ECF rating site's help, "Rating" (ecfrating.org.uk/v2/help/help_rating.php): the
  K rating above for players with a full rating; a P rating (a performance rating with a
  fictional draw against a nominal opponent) for new and partially rated players, a partial
  rating from fewer than 10 games.
* Club and county pages quoting the ECF: k is 40 for juniors and 20 for adults (Mid-Sussex
  league, mscl.crowborough.org, "English Chess Federation Ratings"; Dorset, "Your new monthly
  ECF rating explained"): an adult beating an equally rated player gains 20 × ½ = 10.

What is here: the expected score of a game (the table, no cap: the ECF text names the table
only, not FIDE's 400-point rule), K by age, the change per game k(s − PD), per month and over
a competition, and the 2020 conversion of a grade. Not here: the P rating of new, returning
and partially rated players (its formula, the nominal opponent and the 10-game threshold are
not published in full where keizer could read them), the rating categories and the list's
rounding. Fractions throughout: PD is a whole number of hundredths.

Provisional, not official: the ECF's rating database computes the official monthly ratings.

>>> game_change(1650, 1650, Fraction(1), 20)  # the published example: +10 for an adult
Fraction(10, 1)
>>> game_change(1500, 1600, Fraction(1, 2), 40)  # PD(−100) = .36: 40 × (.5 − .36)
Fraction(28, 5)
>>> from_grade(160)
Fraction(1900, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from keizer.model import Season
from keizer.rating.fide import expected_score

#: K of an adult and of a junior (under 18: keizer's reading of "junior", see docs/ratings.md).
ADULT_K = 20
JUNIOR_K = 40


def expected(difference: int) -> Fraction:
    """PD of FIDE's table 8.1b (2017) = 8.1.2 (2024) for a player rated ``difference`` above
    the opponent; the ECF's text names the table and no cap, so none is applied.

    >>> expected(0), expected(-100), expected(450)
    (Fraction(1, 2), Fraction(9, 25), Fraction(47, 50))
    """
    return expected_score(difference)


def k_factor(age: int | None) -> int:
    """k: 40 for a junior (under 18 in the year, keizer's reading), 20 for an adult or an
    unknown age.

    >>> k_factor(12), k_factor(17), k_factor(18), k_factor(None)
    (40, 40, 20, 20)
    """
    return JUNIOR_K if age is not None and age < 18 else ADULT_K


def game_change(own: int, opponent: int, score: Fraction, k: int) -> Fraction:
    """k(s − PD) of one game."""
    return k * (score - expected(own - opponent))


def from_grade(grade: int) -> Fraction:
    """The ECF's 2020 conversion of a three-digit grade to a rating: 7.5 × grade + 700.

    >>> from_grade(100), from_grade(200), from_grade(131)
    (Fraction(1450, 1), Fraction(2200, 1), Fraction(3365, 2))
    """
    return Fraction(15, 2) * grade + 700


# -- a player's games in one competition -------------------------------------------------------


@dataclass(frozen=True)
class EcfGame:
    """One game as the ECF rating sees it: ``month`` the round's month (YYYY-MM, "" without a
    date); ``expected`` and ``change`` None when it does not count (the opponent has no ECF
    rating)."""

    round: int
    month: str
    opponent: str
    opponent_name: str
    opponent_rating: int | None
    score: Fraction
    expected: Fraction | None
    change: Fraction | None


@dataclass(frozen=True)
class Month:
    """A month's counted games: W, We and k(W − We)."""

    month: str
    games: int
    score: Fraction
    expected: Fraction
    change: Fraction


@dataclass(frozen=True)
class EcfChanges:
    """A player's ECF rating change in one competition: every game, the months and the sum
    (``rating`` None: the player has no ECF rating, and nothing is computed). Provisional, not
    official."""

    rating: int | None
    k: int
    games: tuple[EcfGame, ...]
    months: tuple[Month, ...]

    @property
    def counted(self) -> int:
        return sum(g.change is not None for g in self.games)

    @property
    def score(self) -> Fraction:
        return sum((g.score for g in self.games if g.change is not None), Fraction(0))

    @property
    def expected(self) -> Fraction:
        return sum((g.expected for g in self.games if g.expected is not None), Fraction(0))

    @property
    def change(self) -> Fraction:
        return sum((g.change for g in self.games if g.change is not None), Fraction(0))


def season_changes(season: Season, ratings: Mapping[str, int | None], player: str,
                   age: int | None = None) -> EcfChanges:
    """What ``player``'s games of a competition do to the ECF rating: every game played on the
    board (forfeits and byes are not games) against an opponent with an ECF rating, k(s − PD)
    with the ratings given (``ratings``; None or 0: none), summed per month and over the
    competition. The ECF rates month by month with each month's new rating; keizer takes the
    rating given for every month (see docs/ratings.md).

    >>> from keizer.model import Game, Player, Result, Round
    >>> from keizer.settings import Settings
    >>> s = Season("x", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C")),
    ...            (Round(1, "2026-01-15", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
    ...             Round(2, "2026-02-05", (Game(2, 1, "c", "a", Result.DRAW),))))
    >>> r = season_changes(s, {"a": 1700, "b": 1600, "c": 1800}, "a")
    >>> [(g.month, g.expected, g.change) for g in r.games]
    [('2026-01', Fraction(16, 25), Fraction(36, 5)), ('2026-02', Fraction(9, 25), Fraction(14, 5))]
    >>> r.k, r.counted, r.change, [m.month for m in r.months]
    (20, 2, Fraction(10, 1), ['2026-01', '2026-02'])
    """
    own = ratings.get(player) or None
    k = k_factor(age)
    names = {p.id: p.name for p in season.players}
    games: list[EcfGame] = []
    for rnd, game, other in season.board_games(player):
        theirs = ratings.get(other) or None
        score = game.points_of(player)
        pd = expected(own - theirs) if own is not None and theirs is not None else None
        games.append(EcfGame(rnd.number, (rnd.date or "")[:7], other, names.get(other, other), theirs, score,
                             pd, None if pd is None else k * (score - pd)))
    months: dict[str, list[EcfGame]] = {}
    for g in games:
        if g.change is not None:
            months.setdefault(g.month, []).append(g)
    return EcfChanges(own, k, tuple(games), tuple(
        Month(m, len(gs), sum((g.score for g in gs), Fraction(0)),
              sum((g.expected or Fraction(0) for g in gs), Fraction(0)),
              sum((g.change or Fraction(0) for g in gs), Fraction(0)))
        for m, gs in sorted(months.items())))
