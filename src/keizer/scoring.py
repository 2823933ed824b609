"""Keizer scoring: the standing after every round, exactly.

After round R player *i* has (``docs/scoring.md``)::

    score(i) = a·V(i) + Σ_games f(result)·V(opponent) + Σ_rounds-not-played c(reason)·V(i)

where V is the *value* a player's position in a ranking gives.  Which ranking
supplies V is the recalculation model:

* ``per-round`` — the standing after R prices all rounds 1…R with the values of
  the standing after R−1 (KeizerForClubs, Sevilla, Sharly-Chess);
* ``fixed-point`` — from there, repeat values → scores → ranking until the
  ranking repeats.  A ranking that comes back after more than one pass is a
  cycle; it is resolved by pricing with the *average* of the values over the
  cycle (scores are linear in the values, so this equals averaging the
  scores), then ranking once more;
* ``frozen`` — each round keeps the values in force when it was played.

Arithmetic is exact: every setting is a fraction, values and factors are kept
as integers over a common denominator while ranking, and results are
:class:`~fractions.Fraction`.  Ties in score are broken by the settings'
tie-breaks and finally by the start order — never by input order.

>>> from keizer.model import Player, Round, Game, Result, Season
>>> from keizer.settings import Settings
>>> players = tuple(Player(f"p{i}", f"P{i}", 2000 - i) for i in range(1, 5))
>>> r1 = Round(1, games=(Game(1, 1, "p1", "p2", Result.BLACK_WIN),
...                      Game(1, 2, "p3", "p4", Result.DRAW)))
>>> season = Season("demo", Settings.from_preset("classic", {"top": 10}), players, (r1,))
>>> [(e.player, e.score) for e in compute_standings(season)[1].entries]
[('p2', Fraction(19, 1)), ('p3', Fraction(23, 2)), ('p4', Fraction(11, 1)), ('p1', Fraction(10, 1))]
"""

from __future__ import annotations

import math
from itertools import compress
from operator import mul, ne
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from keizer.earned import (BYE, Earned, CLUB, EXCUSED, EXTERNAL, FORFEIT, GAME, LATE, PENDING, UNEXCUSED, WITHDRAWN,
                           Item as _Item, Stats as _Stats, earned as _earned,
                           items as _items)
from keizer.ladder import ladder_values
from keizer.model import Colour, ExternalResult, Result, Season
from keizer.packed import pack, slot_width, unpack, widen
from keizer.settings import Settings

if TYPE_CHECKING:
    from keizer.tiebreaks import Tournament

#: The kinds of a player's round (:mod:`keizer.earned`), as histories show them.
KINDS = (GAME, FORFEIT, BYE, EXCUSED, UNEXCUSED, CLUB, EXTERNAL, LATE, WITHDRAWN, PENDING)

@dataclass(frozen=True)
class StandingEntry:
    """One line of a standing."""

    player: str
    rank: int
    score: Fraction
    value: Fraction  # value from this ranking, used for the next round
    value_before: Fraction  # own value this standing was priced with
    games: int  # games played on the board
    wins: int
    draws: int
    losses: int
    forfeit_wins: int
    forfeit_losses: int
    byes: int
    excused: int
    unexcused: int
    club: int
    external: int

    @property
    def game_points(self) -> Fraction:
        return Fraction(2 * self.wins + self.draws, 2)

    @property
    def percentage(self) -> Fraction | None:
        """Game points per game played on the board (None before the first game)."""
        return Fraction(2 * self.wins + self.draws, 2 * self.games) if self.games else None


_ENTRY_FIELDS = tuple(f.name for f in fields(StandingEntry))


@dataclass(frozen=True)
class Standing:
    """The ranking after ``round`` (0: the initial ranking).

    ``pricing`` holds, for each round 1…``round``, the values that priced it
    (identical for every round under ``per-round`` and ``fixed-point``); it is
    what makes every point in a history reproducible.
    """

    round: int
    entries: tuple[StandingEntry, ...]
    pricing: tuple[Mapping[str, Fraction], ...]
    own_pricing: Mapping[str, Fraction]
    off_ladder: frozenset[str]
    iterations: int = 1
    cycle: int = 0  # period of a fixed-point cycle that was averaged; 0 if none

    def entry(self, player: str) -> StandingEntry:
        for e in self.entries:
            if e.player == player:
                return e
        raise KeyError(player)

    @property
    def values(self) -> dict[str, Fraction]:
        return {e.player: e.value for e in self.entries}


@dataclass(frozen=True)
class RoundScore:
    """What one round earned one player in a standing: the line of a history."""

    round: int
    kind: str  # game, forfeit, bye, excused, unexcused, club, external, late, withdrawn
    opponent: str | None
    colour: Colour | None
    result: Result | ExternalResult | None
    value_used: Fraction  # the opponent's value, or one's own for rounds without a game
    factor: Fraction  # the fraction of value_used earned
    points: Fraction


def compute_standings(season: Season, upto: int | None = None, provisional: bool = False) -> tuple[Standing, ...]:
    """Standings after rounds 0…upto (default: the last completed round).

    ``provisional`` admits the round in progress (:meth:`Season.round_in_progress`): the
    standing after it counts the results in so far, and a board still playing earns its
    two players nothing yet.  Every other rule is the final one's, so once the last result
    is in the provisional standing is the standing.

    >>> from keizer.model import Player, Round, Game, Result, Season
    >>> from keizer.settings import Settings
    >>> players = tuple(Player(f"p{i}", f"P{i}", 2000 - i) for i in range(1, 5))
    >>> r1 = Round(1, games=(Game(1, 1, "p1", "p2", Result.BLACK_WIN), Game(1, 2, "p3", "p4")))
    >>> season = Season("demo", Settings.from_preset("classic", {"top": 10}), players, (r1,))
    >>> [(e.player, e.score) for e in compute_standings(season, 1, provisional=True)[1].entries]
    [('p2', Fraction(19, 1)), ('p1', Fraction(10, 1)), ('p3', Fraction(8, 1)), ('p4', Fraction(7, 1))]
    """
    last = season.completed_rounds()
    if provisional and season.round_in_progress() is not None:
        last += 1
    if upto is None:
        upto = last
    if not 0 <= upto <= last:
        raise ValueError(f"round {upto} has not been played (last complete round: {season.completed_rounds()})")
    settings = season.settings
    # With withdrawn_opponent set, a standing after a withdrawal is computed as if
    # the withdrawn players had never been on the ladder: one chain per set.
    chains: dict[frozenset[str], list[int]] = {}
    for r in range(upto + 1):
        chains.setdefault(_off_ladder(season, r), []).append(r)
    result: dict[int, Standing] = {}
    for off, rounds in chains.items():
        chain = _Chain(season, settings, off, max(rounds))
        for r in rounds:
            result[r] = chain.standing(r)
    return tuple(result[r] for r in range(upto + 1))


def standing_after(season: Season, upto: int | None = None, provisional: bool = False) -> Standing:
    """The standing after round ``upto`` alone: ``compute_standings(season, upto, provisional)[-1]``
    without building the standings of the rounds before it."""
    last = season.completed_rounds() + (provisional and season.round_in_progress() is not None)
    upto = last if upto is None else upto
    if not 0 <= upto <= last:
        raise ValueError(f"round {upto} has not been played (last complete round: {season.completed_rounds()})")
    return _Chain(season, season.settings, _off_ladder(season, upto), upto).standing(upto)


def round_scores(season: Season, standing: Standing, player: str) -> tuple[RoundScore, ...]:
    """Each round's contribution to ``player``'s score in ``standing``.

    The own-value term is not a round; it is ``standing.own_pricing[player]``.
    """
    return all_round_scores(season, standing, (player,))[player]


def all_round_scores(
    season: Season, standing: Standing, players: Iterable[str] | None = None,
    items: Mapping[str, Sequence[_Item]] | None = None,
) -> dict[str, tuple[RoundScore, ...]]:
    """:func:`round_scores` for several players (default: everyone on the ladder) at once.
    ``items``: the season's items up to that round or later, when the caller keeps them."""
    if items is None:
        items = _items(season, season.settings, standing.off_ladder, standing.round)
    result = {}
    for player in players if players is not None else items:
        lines = []
        for r, item in enumerate(items[player][:standing.round], start=1):
            prices = standing.pricing[r - 1]
            value = prices.get(item.priced, Fraction(0)) if item.priced else Fraction(0)
            game = item.game
            lines.append(
                RoundScore(
                    round=r,
                    kind=item.kind,
                    opponent=game.opponent_of(player) if game else None,
                    colour=game.colour_of(player) if game else None,
                    result=game.result if game else item.external,
                    value_used=value,
                    factor=item.factor,
                    points=item.factor * value,
                )
            )
        result[player] = tuple(lines)
    return result


def tiebreak_values(season: Season, standing: Standing) -> dict[str, dict[str, Any]]:
    """The FIDE tie-break values behind a standing (player → code → value), when the
    settings list FIDE tie-breaks; empty otherwise.  For showing, not for ranking:
    the ranking already used them where scores were equal."""
    codes = season.settings.fide_tiebreaks()
    if codes is None:
        return {}
    from keizer.points import GAMES_ONLY, tournament
    from keizer.tiebreaks import Edition, System, rank

    number = {p.id: p.start_no for p in season.players}
    player_of = {n: pid for pid, n in number.items()}
    primary = {number[e.player]: e.score for e in standing.entries}
    ranked = rank(tournament(season, standing.round, System.SWISS, GAMES_ONLY), list(codes),
                  Edition.parse(season.settings.tiebreak_edition), rounds=standing.round, primary_scores=primary)
    return {player_of[s.id]: dict(s.values) for s in ranked}


def initial_order(season: Season, off: frozenset[str] = frozenset()) -> list[str]:
    """The ranking before round 1: ``initial_order`` first, then rating, then start number."""
    listed = [p for p in season.initial_order if p not in off]
    seen = set(listed)
    rest = sorted(
        (p for p in season.players if p.id not in seen and p.id not in off),
        key=lambda p: (p.rating is None, -(p.rating or 0), p.start_no),
    )
    return listed + [p.id for p in rest]


def _off_ladder(season: Season, r: int) -> frozenset[str]:
    if season.settings.withdrawn_opponent is None:
        return frozenset()
    return frozenset(
        p.id for p in season.players if p.withdrawn_after is not None and p.withdrawn_after < r
    )


#: The arguments of :meth:`_Chain._standing` for one round, kept until that standing is asked for.
_Parts = tuple[int, list[int], list[int], int, dict[str, Fraction], tuple[dict[str, Fraction], ...],
               dict[str, Fraction], frozenset[str], int, int]


class _Chain:
    """The standings 0…upto for one ladder (one set of players off the ladder).

    Internally values are integers scaled by ``dv`` and factors by ``df``, so a
    score is an integer over ``dv·df`` and comparing scores is exact and fast.

    ``previous``: the chain of an earlier state of the same competition (:mod:`keizer.kept`);
    the standings before ``first_changed`` (the first round whose record differs) are its own,
    and the chain goes on from the standing after ``first_changed − 1``.  Later rounds depend
    only on earlier ones (the fixed-point model iterates from the fixed point before), so
    this is the standing computed from scratch.
    """

    off: frozenset[str]
    fvalues: list[Fraction]
    dv: int
    earned: Earned
    round_df: list[int]
    round_terms: list[list[tuple[int, int, int]]]
    stats: _Stats
    columns: list[int] | None  # fixed-point: the packed columns (:meth:`_pack`)
    width: int  # their slots' bits
    key_width: int  # the bits of a slot of sort keys
    bound: int  # no score's size exceeds it
    _carried: tuple[int, list[int], int] | None  # the last round's (number, fixed point, packed sums priced by it)

    def __init__(self, season: Season, settings: Settings, off: frozenset[str], upto: int,
                 previous: _Chain | None = None, first_changed: int = 1):
        self.settings = settings
        self.ids = initial_order(season, off)
        self.upto = upto
        n = len(self.ids)
        index = {pid: i for i, pid in enumerate(self.ids)}
        if previous is not None and (previous.ids != self.ids or previous.off != off or previous.settings != settings):
            previous = None
        first = 1 if previous is None else max(1, min(first_changed, previous.upto + 1, upto + 1))
        self.earned = _earned(season, settings, off, upto, previous.earned if previous else None, first)
        items = self.earned.items

        if previous is not None:  # the same settings and players: the same ladder
            self.fvalues, dv = previous.fvalues, previous.dv
        else:
            self.fvalues = ladder_values(settings, n)
            dv = _lcm_of({v.denominator for v in self.fvalues})
        # round_df[r-1]: the common denominator of round r's factors.
        self.round_df = previous.round_df[:first - 1] if previous else []
        self.round_df += [_lcm_of({its[r].factor.denominator for its in items.values()}) for r in range(first - 1, upto)]
        df = _lcm_of(self.round_df)
        self.dv, self.scale = dv, dv * df
        if previous is not None and previous.scale != self.scale:  # a new fraction: every integer rescaled
            previous, first = None, 1
        self.position_values = [int(v * dv) for v in self.fvalues]
        own_factor = 0 if settings.own_value == "none" else df

        # round_terms[r-1]: (i, j, f) when round r earns player i f × value[j] (f: the factor × df,
        # exactly, as df is a multiple of its denominator); at most one per player.
        self.round_terms = round_terms = previous.round_terms[:first - 1] if previous else []
        for r in range(first - 1, upto):
            terms_r = []
            for pid, its in items.items():
                it = its[r]
                factor = it.factor
                if it.priced is not None and factor:
                    terms_r.append((index[pid], index[it.priced], factor.numerator * (df // factor.denominator)))
            round_terms.append(terms_r)
        self._pack(own_factor)

        players = {p.id: p for p in season.players}
        ratings = [players[pid].rating for pid in self.ids]
        self.stats = _Stats(self.ids, items, upto, previous.stats if previous else None, first)
        self.tiebreaks = settings.tiebreaks
        self.ratings = [-(r if r is not None else -1) for r in ratings]
        self.fide = settings.fide_tiebreaks()
        self.season, self.off = season, off
        self.start_no = [players[pid].start_no for pid in self.ids]
        self._tournaments: dict[int, Tournament] = {}
        self._tie_keys: dict[int, list[int]] = {}

        ranking = list(range(n))
        values = self._values_of(ranking)
        start_values = values
        self.value_maps = value_maps = [self._value_map(ranking)]
        scores = [own_factor * v for v in values]
        # What each standing is made of; a Standing (one entry per player) is built only when asked for.
        self._parts: list[_Parts] = [(0, ranking, scores, self.scale, value_maps[0], (), value_maps[0], off, 1, 0)]
        self._made: dict[int, Standing] = {}
        self.coef: list[dict[int, int]] = [{} for _ in range(n)]  # i → {priced j: Σ factor}
        self.frozen_points = [0] * n
        if previous is not None and first > 1:
            self._go_on(previous, first)
            ranking = self._parts[-1][1]
            values = self._values_of(ranking)
        coef, frozen_points = self.coef, self.frozen_points
        for r in range(first, upto + 1):
            terms_r = round_terms[r - 1]
            own = start_values if settings.own_value == "start" else values
            iterations, cycle, denominator = 1, 0, self.scale
            if settings.recalculation == "frozen":
                for i, j, f in terms_r:
                    frozen_points[i] += f * values[j]
                scores = [own_factor * own[i] + frozen_points[i] for i in range(n)]
                new_ranking = self._rank(scores, r)
                pricing = tuple(value_maps[:r])
                own_map = value_maps[0] if settings.own_value == "start" else value_maps[r - 1]
            else:
                for i, j, f in terms_r:
                    c = coef[i]
                    c[j] = c.get(j, 0) + f
                if self.columns is not None:
                    self._add_columns(terms_r, 1)
                    new_ranking, scores, priced, iterations, cycle = self._fixed_point(
                        coef, own_factor, start_values, ranking, r
                    )
                    denominator = self.scale * max(cycle, 1)
                else:
                    scores = self._scores(coef, values, own, own_factor)
                    new_ranking = self._rank(scores, r)
                    priced = value_maps[r - 1]
                pricing = (priced,) * r
                own_map = value_maps[0] if settings.own_value == "start" else priced
            if own_factor == 0:
                own_map = dict.fromkeys(self.ids, Fraction(0))
            ranking = new_ranking
            values = self._values_of(ranking)
            value_maps.append(self._value_map(ranking))
            self._parts.append((r, ranking, scores, denominator, value_maps[r - 1], pricing, own_map, off,
                                iterations, cycle))

    def _go_on(self, previous: _Chain, first: int) -> None:
        """Take over ``previous``'s standings 0…first−1, and its sums of the rounds before
        ``first``: its final sums less what its rounds ``first``… added."""
        self._parts[1:] = previous._parts[1:first]
        self._made = {r: st for r, st in previous._made.items() if r < first}
        self._tournaments = {r: t for r, t in previous._tournaments.items() if r < first}
        self._tie_keys = {r: t for r, t in previous._tie_keys.items() if r < first}
        self.value_maps[1:] = previous.value_maps[1:first]
        self.coef = [dict(c) for c in previous.coef]
        self.frozen_points = list(previous.frozen_points)
        frozen = self.settings.recalculation == "frozen"  # (the frozen model sums points, the others factors)
        if self.columns is not None:
            if previous.columns is not None and previous.width == self.width:
                self.columns = list(previous.columns)
            else:  # the slots' width changed: the columns again, from the sums
                for i, c in enumerate(self.coef):
                    for j, f in c.items():
                        self.columns[j] += f << (self.width * i)
        for r in range(first, previous.upto + 1):
            if self.columns is not None:
                self._add_columns(previous.round_terms[r - 1], -1)
            priced_by = previous._values_of(previous._parts[r - 1][1])
            for i, j, f in previous.round_terms[r - 1]:
                if frozen:
                    self.frozen_points[i] -= f * priced_by[j]
                else:
                    c = self.coef[i]
                    c[j] -= f
                    if not c[j]:
                        del c[j]

    def standing(self, r: int) -> Standing:
        """The standing after round ``r``."""
        if r not in self._made:
            self._made[r] = self._standing(*self._parts[r])
        return self._made[r]

    def _scores(self, coef: Sequence[Mapping[int, int]], values: Sequence[int], own: Sequence[int],
                own_factor: int) -> list[int]:
        return [own_factor * own[i] + sum(f * values[j] for j, f in c.items()) for i, c in enumerate(coef)]

    def _pack(self, own_factor: int) -> None:
        """Under ``fixed-point``: a column per player j, packed (:mod:`keizer.packed`), holding in
        slot i the factor i earns j's value with (``coef``), own value included when it is
        the current one; the slots are wide enough for bound − score (:meth:`_fixed_point`)."""
        self.columns, self._carried = None, None
        if self.settings.recalculation != "fixed-point":
            return
        n = len(self.ids)
        totals = [abs(own_factor)] * n
        for terms_r in self.round_terms:
            for i, _, f in terms_r:
                totals[i] += abs(f)
        self.bound = max(totals, default=0) * max(map(abs, self.position_values), default=0)
        self.width = width = slot_width(2 * self.bound)
        self.key_width = slot_width((2 * self.bound + 1) * n)
        own = own_factor if self.settings.own_value == "current" else 0
        self.columns = [own << (width * i) for i in range(n)]

    def _add_columns(self, terms_r: Sequence[tuple[int, int, int]], sign: int) -> None:
        """Add (``sign`` 1) or take away (−1) what one round earns to the packed columns."""
        columns, width = self.columns, self.width
        assert columns is not None
        for i, j, f in terms_r:
            columns[j] += sign * f << (width * i)

    def _fixed_point(self, coef: Sequence[Mapping[int, int]], own_factor: int, start_values: list[int],
                     previous: list[int], r: int) -> tuple[list[int], list[int], dict[str, Fraction], int, int]:
        """From the standing before (``previous``), repeat values → scores → ranking until a
        ranking repeats (docs/scoring.md).  Returns (ranking, scores, pricing map, passes, cycle period).

        Packed (docs/scoring.md, "How the fixed point is computed"): ``sums`` is Σ_j value(j)·column(j)
        and slot i of ``base − sums`` is bound − score(i), never negative; a pass adds the columns of
        the players it moved, grouped by the change of their value.  A sort key is (bound − score)·n
        + the place by the tie-breaks: unique, smaller for a higher score.
        """
        n, width, bound, pv = len(previous), self.width, self.bound, self.position_values
        columns = self.columns
        assert columns is not None
        fide = self.fide
        ties = self._ties(r) if fide is None else [0] * n
        key_width = self.key_width
        packed_ties = pack(ties, key_width)
        own_is_start = self.settings.own_value == "start"
        start_term = [own_factor * v for v in start_values] if own_is_start else [0] * n
        base = pack([bound - s for s in start_term], width)
        values = self._values_of(previous)
        carried = self._carried
        if carried is not None and carried[0] == r - 1 and carried[1] == previous:
            # The fixed point before priced itself: its sums, and what round r adds priced by it.
            added = [0] * n
            for i, j, f in self.round_terms[r - 1]:
                added[i] += f * values[j]
            sums = carried[2] + pack(added, width)
        else:
            sums = sum(map(mul, values, columns))
        self._carried = None
        seen: dict[tuple[int, ...], int] = {tuple(previous): 0}
        priced_by: list[list[int]] = []  # priced_by[k]: the ranking whose values priced pass k+1
        ranking, passes = previous, 0
        while True:
            keys = unpack(n * widen(base - sums, n, width, key_width) + packed_ties, n, key_width)
            if fide is None:
                new = sorted(ranking, key=keys.__getitem__)
            else:
                new = self._rank_fide([bound - k // n for k in keys], r, fide)
            passes += 1
            priced_by.append(ranking)
            if passes > 1 and new == ranking:
                self._carried = (r, new, sums)
                return new, [bound - k // n for k in keys], self._value_map(ranking), passes, 0
            key = tuple(new)
            if passes > 1 and key in seen:
                # Rankings seen[key]…now repeat: price with the mean of the values
                # that priced the passes of the cycle (kept ×period to stay integer).
                cycle = priced_by[seen[key]:]
                period = len(cycle)
                total = [0] * n
                for ranked in cycle:
                    for i, v in enumerate(self._values_of(ranked)):
                        total[i] += v
                own = [v * period for v in start_values] if own_is_start else total
                final_scores = self._scores(coef, total, own, own_factor)
                mean = {pid: Fraction(total[i], self.dv * period) for i, pid in enumerate(self.ids)}
                return self._rank(final_scores, r), final_scores, mean, passes, period
            seen[key] = passes
            if passes >= self.settings.max_iterations:
                return new, [bound - k // n for k in keys], self._value_map(ranking), passes, 0
            moved: dict[int, list[int]] = {}  # change of value → the players whose value changed by it
            for pos in compress(range(n), map(ne, new, ranking)):
                j = new[pos]
                change = pv[pos] - values[j]
                if change:
                    values[j] = pv[pos]
                    moved.setdefault(change, []).append(j)
            for change, js in moved.items():
                sums += change * sum(map(columns.__getitem__, js[1:]), columns[js[0]])
            ranking = new

    def _ties(self, r: int) -> list[int]:
        """Each player's place by the tie-breaks of round ``r`` alone, worked out once for all its passes."""
        ties = self._tie_keys.get(r)
        if ties is None:
            n, stats = len(self.ids), self.stats
            by = [self.ratings if tb == "rating" else [-stats.get(i, r, tb) for i in range(n)] for tb in self.tiebreaks]
            order = sorted(range(n), key=list(zip(*by, range(n))).__getitem__)
            ties = self._tie_keys[r] = [0] * n
            for place, i in enumerate(order):
                ties[i] = place
        return ties

    def _rank(self, scores: Sequence[int], r: int) -> list[int]:
        if self.fide is not None:
            return self._rank_fide(scores, r, self.fide)
        n = len(scores)
        keys = [tie - score * n for score, tie in zip(scores, self._ties(r))]  # by score, then by that place: one int
        return sorted(range(n), key=keys.__getitem__)

    def _rank_fide(self, scores: Sequence[int], r: int, fide: Sequence[str]) -> list[int]:
        """Equal scores ordered by FIDE tie-breaks on the games of rounds 1…r, then start order."""
        by_score = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        if len(set(scores)) == len(scores):
            return by_score  # nothing is tied: no tie-break needs computing
        from keizer.points import GAMES_ONLY, tournament
        from keizer.tiebreaks import Edition, System, rank

        if r not in self._tournaments:
            self._tournaments[r] = tournament(self.season, r, System.SWISS, GAMES_ONLY)
        primary = {self.start_no[i]: Fraction(scores[i], self.scale) for i in range(len(scores))}
        places = {s.id: s.rank for s in rank(self._tournaments[r], list(fide),
                                             Edition.parse(self.settings.tiebreak_edition),
                                             rounds=r, primary_scores=primary)}
        return sorted(by_score, key=lambda i: (places[self.start_no[i]], i))

    def _values_of(self, ranking: Sequence[int]) -> list[int]:
        values = [0] * len(ranking)
        for pos, i in enumerate(ranking):
            values[i] = self.position_values[pos]
        return values

    def _value_map(self, ranking: Sequence[int]) -> dict[str, Fraction]:
        return dict(zip(map(self.ids.__getitem__, ranking), self.fvalues))

    def _standing(self, r: int, ranking: list[int], scores: list[int], denominator: int,
                  before: dict[str, Fraction], pricing: tuple[dict[str, Fraction], ...],
                  own_map: dict[str, Fraction], off: frozenset[str], iterations: int, cycle: int) -> Standing:
        ids, table, fvalues = self.ids, self.stats.table, self.fvalues  # (the counts come in StandingEntry's field order)
        # StandingEntry(*fields), without the frozen dataclass's __init__ (an object.__setattr__ per
        # field): the same object, filled in at once, in half the time (31,200 entries at 600 × 52).
        new, fill, names, exact = object.__new__, object.__setattr__, _ENTRY_FIELDS, Fraction
        entries: list[StandingEntry] = []
        append = entries.append
        for pos, i in enumerate(ranking):
            entry = new(StandingEntry)
            pid = ids[i]
            fill(entry, "__dict__", dict(zip(names, (pid, pos + 1, exact(scores[i], denominator), fvalues[pos],
                                                     before[pid]) + table[i][r])))
            append(entry)
        return Standing(r, tuple(entries), pricing, own_map, off, iterations, cycle)


def _lcm_of(numbers: Iterable[int]) -> int:
    result = 1
    for n in numbers:
        result = math.lcm(result, n)
    return result
