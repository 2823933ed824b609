"""The club rating: Glicko-2 over the club's games, one rating period per round.

Games in, ratings out, nothing read or written: the caller chooses the games that count
(which competitions, which seasons, rapid and classical apart by each round's time control),
groups them into rating periods in the order they were played (by default one period per
round: :func:`periods`), and gives the starting ratings it wants (a national or FIDE rating,
or none: then everyone starts at the same value). The same games and options give the same
ratings, bit for bit: within a period every game is rated against the ratings before the
period (Glicko-2's rule), players are updated in sorted order, and nothing depends on the
order of the games inside a period.

A player joins the pool at the first game; from then on every period without a game widens
the rating deviation (Glicko-2 step 6), never beyond ``max_deviation`` (350, an unrated
player's, as in Glickman's Glicko step 1). Why Glicko-2 and not Elo: docs/ratings.md.

The club rating is the club's own measure, provisional, not official.

>>> ps = periods([("R1", ClubGame("ann", "bob", Fraction(1))), ("R1", ClubGame("cor", "dan", Fraction(1, 2))),
...               ("R2", ClubGame("ann", "cor", Fraction(0)))])
>>> [p.label for p in ps], [len(p.games) for p in ps]
(['R1', 'R2'], [2, 1])
>>> final = club_ratings(ps, Options(start={"ann": 1800}))
>>> sorted(final.ratings), final.periods
(['ann', 'bob', 'cor', 'dan'], 2)
>>> round(final.ratings["ann"].rating), round(final.ratings["bob"].rating), round(final.ratings["cor"].rating)
(1619, 1415, 1742)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from keizer.rating import glicko2
from keizer.rating.glicko2 import Rating, Result

_SCORES = (Fraction(0), Fraction(1, 2), Fraction(1))

Start = Literal["national", "fide", "fixed"]
PeriodKind = Literal["round", "evening", "month"]
#: The choices of the club rating (the CLI's and the app's options are these): where each
#: member starts (the national or FIDE rating on record, or one fixed value for all) and what
#: one rating period is (a round, a club evening, a month).
STARTS: tuple[Start, ...] = ("national", "fide", "fixed")
PERIODS: tuple[PeriodKind, ...] = ("round", "evening", "month")


@dataclass(frozen=True)
class ClubGame:
    """A game that counts: the two players' ids and White's score (1, 1/2 or 0)."""

    white: str
    black: str
    score: Fraction

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"{self.white} cannot play against themself")
        if self.score not in _SCORES:
            raise ValueError(f"a game scores 1, 1/2 or 0, not {self.score}")


@dataclass(frozen=True)
class Period:
    """One rating period: its label (a round, an evening) and its games."""

    label: str
    games: tuple[ClubGame, ...]


def periods(games: Iterable[tuple[Hashable, ClubGame]]) -> tuple[Period, ...]:
    """Games in playing order, each with its period's key (a round's key: season, competition
    and round, or the round's date to put a club evening's competitions in one period),
    grouped into periods: consecutive games with the same key form one. A key that comes
    back after another is a new period (the keys are labels, not a sort order).

    >>> [p.label for p in periods([(1, ClubGame("a", "b", Fraction(1))), (2, ClubGame("a", "b", Fraction(0))),
    ...                           (1, ClubGame("a", "b", Fraction(1, 2)))])]
    ['1', '2', '1']
    """
    found: list[Period] = []
    key: Hashable = None
    current: list[ClubGame] = []
    for k, game in games:
        if current and k != key:
            found.append(Period(str(key), tuple(current)))
            current = []
        key = k
        current.append(game)
    if current:
        found.append(Period(str(key), tuple(current)))
    return tuple(found)


@dataclass(frozen=True)
class Options:
    """How the club rating is computed.

    ``start``: a starting rating per player id (a national or FIDE rating); everyone else
    starts at ``default_start``. Every newcomer starts with ``start_deviation`` and
    ``volatility``; ``tau`` is Glicko-2's system constant.
    """

    start: Mapping[str, float] = field(default_factory=dict)
    default_start: float = glicko2.START_RATING
    start_deviation: float = glicko2.START_DEVIATION
    volatility: float = glicko2.START_VOLATILITY
    tau: float = glicko2.TAU
    max_deviation: float = glicko2.START_DEVIATION

    def newcomer(self, player: str) -> Rating:
        return Rating(float(self.start.get(player, self.default_start)), self.start_deviation, self.volatility)


@dataclass(frozen=True)
class State:
    """The club rating after some periods: every player in the pool and the periods rated."""

    ratings: Mapping[str, Rating] = field(default_factory=lambda: MappingProxyType({}))
    periods: int = 0


def rate_period(state: State, period: Period, options: Options) -> State:
    """The state after one more period.

    >>> s = rate_period(State(), Period("R1", (ClubGame("a", "b", Fraction(1)),)), Options())
    >>> round(s.ratings["a"].rating, 1), round(s.ratings["b"].rating, 1), round(s.ratings["a"].deviation, 1)
    (1662.3, 1337.7, 290.3)
    >>> t = rate_period(s, Period("R2", (ClubGame("b", "c", Fraction(1, 2)),)), Options())
    >>> round(t.ratings["a"].rating, 1), t.ratings["a"].deviation > s.ratings["a"].deviation
    (1662.3, True)
    """
    before = dict(state.ratings)
    for game in period.games:
        for player in (game.white, game.black):
            if player not in before:
                before[player] = options.newcomer(player)
    results: dict[str, list[Result]] = {}
    for game in period.games:
        results.setdefault(game.white, []).append(Result(before[game.black], game.score))
        results.setdefault(game.black, []).append(Result(before[game.white], 1 - game.score))
    after: dict[str, Rating] = {}
    for player in sorted(before):
        # The opponents' order inside a period does not change the sums beyond rounding;
        # sorting makes the result independent of the order of the games.
        games = sorted(results.get(player, []), key=_result_key)
        new = glicko2.update(before[player], games, options.tau)
        if new.deviation > options.max_deviation:
            new = Rating(new.rating, options.max_deviation, new.volatility)
        after[player] = new
    return State(MappingProxyType(after), state.periods + 1)


def _result_key(r: Result) -> tuple[float, float, float, float]:
    return (r.opponent.rating, r.opponent.deviation, r.opponent.volatility, float(r.score))


def club_ratings(all_periods: Sequence[Period], options: Options, state: State | None = None) -> State:
    """The club rating after every period, in order, from ``state`` (default: nobody rated).

    Computing in one pass or period by period, carrying the state, gives the same ratings.
    """
    current = state if state is not None else State()
    for period in all_periods:
        current = rate_period(current, period, options)
    return current


@dataclass(frozen=True)
class Point:
    """A player's club rating after one period in which the player is in the pool."""

    label: str
    rating: Rating
    played: bool


def history(all_periods: Sequence[Period], options: Options) -> dict[str, tuple[Point, ...]]:
    """Every player's club rating after each period since the first game (for a chart):
    the same figures :func:`club_ratings` gives, period by period.

    >>> h = history(periods([("R1", ClubGame("a", "b", Fraction(1))), ("R2", ClubGame("b", "c", Fraction(0)))]), Options())
    >>> [(p.label, round(p.rating.rating), p.played) for p in h["a"]]
    [('R1', 1662, True), ('R2', 1662, False)]
    >>> [(p.label, p.played) for p in h["c"]]
    [('R2', True)]
    """
    found: dict[str, list[Point]] = {}
    current = State()
    for period in all_periods:
        current = rate_period(current, period, options)
        played = {p for g in period.games for p in (g.white, g.black)}
        for player, rating in current.ratings.items():
            found.setdefault(player, []).append(Point(period.label, rating, player in played))
    return {player: tuple(points) for player, points in found.items()}


def interval(rating: Rating) -> tuple[int, int]:
    """The rating ± 2 RD, rounded: Glickman's 95 % interval for the player's strength.

    >>> interval(Rating(1500, 50))
    (1400, 1600)
    """
    return (math.floor(rating.rating - 2 * rating.deviation + 0.5), math.floor(rating.rating + 2 * rating.deviation + 0.5))
