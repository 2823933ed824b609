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
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from keizer.ladder import ladder_values
from keizer.model import Absence, Colour, ExternalResult, Game, Result, Season
from keizer.settings import Settings

if TYPE_CHECKING:
    from keizer.tiebreaks import Tournament

# Kinds of a player's round, as shown in histories; "pending": a game of the round in
# progress whose result is not in yet (a provisional standing counts it as nothing yet).
GAME, FORFEIT, BYE, EXCUSED, UNEXCUSED, CLUB, EXTERNAL, LATE, WITHDRAWN, PENDING = (
    "game", "forfeit", "bye", "excused", "unexcused", "club", "external", "late", "withdrawn", "pending",
)


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


@dataclass(frozen=True)
class _Item:
    """A player's round reduced to what it earns: factor × value of ``priced``."""

    kind: str
    priced: str | None  # whose value prices it (None: earns nothing)
    factor: Fraction
    game: Game | None = None
    external: ExternalResult | None = None


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
    season: Season, standing: Standing, players: Iterable[str] | None = None
) -> dict[str, tuple[RoundScore, ...]]:
    """:func:`round_scores` for several players (default: everyone on the ladder) at once."""
    items = _items(season, season.settings, standing.off_ladder, standing.round)
    result = {}
    for player in players if players is not None else items:
        lines = []
        for r, item in enumerate(items[player], start=1):
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


_last_items: list[tuple[Season, Settings, frozenset[str], int, dict[str, list[_Item]]]] = []


def _items(
    season: Season, settings: Settings, off: frozenset[str], upto: int
) -> dict[str, list[_Item]]:
    """Every ladder player's rounds 1…upto as (kind, whose value, factor).

    The last answer is kept: a standing and then its histories (the site, ``keizer
    history``) ask for the same items of the same immutable season."""
    if _last_items:
        was_season, was_settings, was_off, was_upto, found = _last_items[0]
        if was_season is season and was_settings is settings and was_off == off and was_upto == upto:
            return found
    found = _compute_items(season, settings, off, upto)
    _last_items[:] = [(season, settings, off, upto, found)]
    return found


def _compute_items(
    season: Season, settings: Settings, off: frozenset[str], upto: int
) -> dict[str, list[_Item]]:
    players = {p.id: p for p in season.players if p.id not in off}
    items: dict[str, list[_Item]] = {p: [] for p in players}
    excused_seen = dict.fromkeys(players, 0)
    club_seen = dict.fromkeys(players, 0)
    absences_seen = dict.fromkeys(players, 0)
    for rnd in season.rounds[:upto]:
        by_player: dict[str, Game] = {}
        for g in rnd.games:
            by_player[g.white] = g
            by_player[g.black] = g
        for pid, player in players.items():
            game = by_player.get(pid)
            if not player.active_in(rnd.number):
                kind = LATE if rnd.number < player.joined else WITHDRAWN
                factor = settings.late if kind == LATE else Fraction(0)
                items[pid].append(_Item(kind, pid, factor))
            elif game is not None and game.result is None:
                items[pid].append(_Item(PENDING, None, Fraction(0), game=game))
            elif game is not None:
                items[pid].append(_game_item(settings, pid, game, off))
            elif pid in rnd.external:
                ext = rnd.external[pid]
                factor = {
                    ExternalResult.WIN: settings.external_win,
                    ExternalResult.DRAW: settings.external_draw,
                    ExternalResult.LOSS: settings.external_loss,
                }[ext]
                items[pid].append(_Item(EXTERNAL, pid, factor, external=ext))
            else:
                why = rnd.absent.get(pid, Absence.UNEXCUSED)
                if why is Absence.CLUB:
                    club_seen[pid] += 1
                    if settings.max_club is not None and club_seen[pid] > settings.max_club:
                        why = Absence.EXCUSED  # and so counts towards max_excused
                if why is Absence.EXCUSED:
                    excused_seen[pid] += 1
                    if settings.max_excused is not None and excused_seen[pid] > settings.max_excused:
                        why = Absence.UNEXCUSED
                factor = {
                    Absence.EXCUSED: settings.excused,
                    Absence.UNEXCUSED: settings.unexcused,
                    Absence.CLUB: settings.club,
                    Absence.BYE: settings.bye,
                }[why]
                if why in (Absence.EXCUSED, Absence.UNEXCUSED) and settings.absence_decay:
                    factor /= 2 ** absences_seen[pid]
                    absences_seen[pid] += 1
                items[pid].append(_Item(why.value, pid, factor))
    return items


def _game_item(settings: Settings, pid: str, game: Game, off: frozenset[str]) -> _Item:
    result = game.result
    assert result is not None
    points = game.points_of(pid)
    if result.is_forfeit:
        factor = settings.forfeit_win if points == 1 else Fraction(0)
    elif points == 1:
        factor = settings.win
    elif points == 0:
        factor = settings.loss
    else:
        factor = settings.draw
    kind = FORFEIT if result.is_forfeit else GAME
    opponent = game.opponent_of(pid)
    if opponent in off:
        # withdrawn_opponent: priced at that fraction of one's own value.
        assert settings.withdrawn_opponent is not None
        return _Item(kind, pid, settings.withdrawn_opponent * factor, game=game)
    return _Item(kind, opponent, factor, game=game)


class _Stats:
    """Cumulative game and absence counts per player after each round."""

    # In StandingEntry's order (its entries are built from these columns by position).
    FIELDS = ("games", "wins", "draws", "losses", "forfeit_wins", "forfeit_losses",
              "byes", "excused", "unexcused", "club", "external")

    def __init__(self, order: Sequence[str], items: Mapping[str, list[_Item]], upto: int):
        self.table: list[list[tuple[int, ...]]] = []
        for pid in order:
            row = [(0,) * len(self.FIELDS)]
            counts = [0] * len(self.FIELDS)
            for it in items[pid][:upto]:
                field = self._field(pid, it)
                if field is not None:
                    counts[self.FIELDS.index(field)] += 1
                    if field in ("wins", "draws", "losses"):
                        counts[0] += 1
                row.append(tuple(counts))
            self.table.append(row)

    @staticmethod
    def _field(pid: str, it: _Item) -> str | None:
        if it.kind == PENDING:
            return None
        if it.game is not None:
            points = it.game.points_of(pid)
            if it.kind == FORFEIT:
                return "forfeit_wins" if points == 1 else "forfeit_losses"
            return "wins" if points == 1 else "losses" if points == 0 else "draws"
        return {BYE: "byes", EXCUSED: "excused", UNEXCUSED: "unexcused", CLUB: "club",
                EXTERNAL: "external"}.get(it.kind)

    def counts(self, i: int, r: int) -> dict[str, int]:
        return dict(zip(self.FIELDS, self.table[i][r]))

    def get(self, i: int, r: int, field: str) -> int:
        return self.table[i][r][self.FIELDS.index(field)]


#: The arguments of :meth:`_Chain._standing` for one round, kept until that standing is asked for.
_Parts = tuple[int, list[int], list[int], int, dict[str, Fraction], tuple[dict[str, Fraction], ...],
               dict[str, Fraction], frozenset[str], int, int]


class _Chain:
    """The standings 0…upto for one ladder (one set of players off the ladder).

    Internally values are integers scaled by ``dv`` and factors by ``df``, so a
    score is an integer over ``dv·df`` and comparing scores is exact and fast.
    """

    def __init__(self, season: Season, settings: Settings, off: frozenset[str], upto: int):
        self.settings = settings
        self.ids = initial_order(season, off)
        n = len(self.ids)
        index = {pid: i for i, pid in enumerate(self.ids)}
        items = _items(season, settings, off, upto)

        self.fvalues = ladder_values(settings, n)
        dv = _lcm_of(v.denominator for v in self.fvalues)
        df = _lcm_of(it.factor.denominator for its in items.values() for it in its)
        self.dv, self.scale = dv, dv * df
        self.position_values = [int(v * dv) for v in self.fvalues]
        own_factor = 0 if settings.own_value == "none" else df

        # round_terms[r-1][i]: round r earns player i Σ factor×df · value[priced].
        round_terms: list[list[list[tuple[int, int]]]] = []
        for r in range(upto):
            per_player: list[list[tuple[int, int]]] = [[] for _ in range(n)]
            for pid, its in items.items():
                it = its[r]
                if it.priced is not None and it.factor:
                    per_player[index[pid]].append(
                        (index[it.priced], int(it.factor * df))
                    )
            round_terms.append(per_player)

        players = {p.id: p for p in season.players}
        ratings = [players[pid].rating for pid in self.ids]
        self.stats = _Stats(self.ids, items, upto)
        self.tiebreaks = settings.tiebreaks
        self.ratings = [-(r if r is not None else -1) for r in ratings]
        self.fide = settings.fide_tiebreaks()
        self.season = season
        self.start_no = [players[pid].start_no for pid in self.ids]
        self._tournaments: dict[int, Tournament] = {}

        ranking = list(range(n))
        values = self._values_of(ranking)
        start_values = values
        value_maps = [self._value_map(ranking)]
        scores = [own_factor * v for v in values]
        # What each standing is made of; a Standing (one entry per player) is built only when asked for.
        self._parts: list[_Parts] = [(0, ranking, scores, self.scale, value_maps[0], (), value_maps[0], off, 1, 0)]
        self._made: dict[int, Standing] = {}
        coef: list[dict[int, int]] = [{} for _ in range(n)]  # i → {priced j: Σ factor}
        frozen_points = [0] * n
        for r in range(1, upto + 1):
            terms_r = round_terms[r - 1]
            own = start_values if settings.own_value == "start" else values
            iterations, cycle, denominator = 1, 0, self.scale
            if settings.recalculation == "frozen":
                for i, terms in enumerate(terms_r):
                    frozen_points[i] += sum(f * values[j] for j, f in terms)
                scores = [own_factor * own[i] + frozen_points[i] for i in range(n)]
                new_ranking = self._rank(scores, r)
                pricing = tuple(value_maps[:r])
                own_map = value_maps[0] if settings.own_value == "start" else value_maps[r - 1]
            else:
                for i, terms in enumerate(terms_r):
                    c = coef[i]
                    for j, f in terms:
                        c[j] = c.get(j, 0) + f
                scores = self._scores(coef, values, own, own_factor)
                new_ranking = self._rank(scores, r)
                priced = value_maps[r - 1]
                if settings.recalculation == "fixed-point":
                    new_ranking, scores, priced, iterations, cycle = self._fixed_point(
                        coef, own_factor, start_values, ranking, new_ranking, scores, r
                    )
                    denominator = self.scale * max(cycle, 1)
                pricing = (priced,) * r
                own_map = value_maps[0] if settings.own_value == "start" else priced
            if own_factor == 0:
                own_map = dict.fromkeys(self.ids, Fraction(0))
            ranking = new_ranking
            values = self._values_of(ranking)
            value_maps.append(self._value_map(ranking))
            self._parts.append((r, ranking, scores, denominator, value_maps[r - 1], pricing, own_map, off,
                                iterations, cycle))

    def standing(self, r: int) -> Standing:
        """The standing after round ``r``."""
        if r not in self._made:
            self._made[r] = self._standing(*self._parts[r])
        return self._made[r]

    def _scores(self, coef: Sequence[Mapping[int, int]], values: Sequence[int], own: Sequence[int],
                own_factor: int) -> list[int]:
        return [
            own_factor * own[i] + sum(f * values[j] for j, f in c.items())
            for i, c in enumerate(coef)
        ]

    def _fixed_point(self, coef: Sequence[Mapping[int, int]], own_factor: int, start_values: list[int],
                     previous: list[int], ranking: list[int], scores: list[int], r: int,
                     ) -> tuple[list[int], list[int], dict[str, Fraction], int, int]:
        """From the per-round pass, repeat values → scores → ranking until it repeats.

        Returns (ranking, scores, pricing map, passes, cycle period).
        """
        own_is_start = self.settings.own_value == "start"
        seen = {tuple(previous): 0, tuple(ranking): 1}
        priced_by = [previous]  # priced_by[k]: the ranking whose values priced pass k+1
        passes = 1
        while passes < self.settings.max_iterations:
            values = self._values_of(ranking)
            new_scores = self._scores(coef, values, start_values if own_is_start else values, own_factor)
            new = self._rank(new_scores, r)
            passes += 1
            priced_by.append(ranking)
            if new == ranking:
                return new, new_scores, self._value_map(ranking), passes, 0
            key = tuple(new)
            if key in seen:
                # Rankings seen[key]…now repeat: price with the mean of the values
                # that priced the passes of the cycle (kept ×period to stay integer).
                cycle = priced_by[seen[key]:]
                period = len(cycle)
                n = len(ranking)
                total = [0] * n
                for ranked in cycle:
                    for i, v in enumerate(self._values_of(ranked)):
                        total[i] += v
                own = [v * period for v in start_values] if own_is_start else total
                final_scores = self._scores(coef, total, own, own_factor)
                mean = {pid: Fraction(total[i], self.dv * period) for i, pid in enumerate(self.ids)}
                return self._rank(final_scores, r), final_scores, mean, passes, period
            seen[key] = len(seen)
            ranking, scores = new, new_scores
        return ranking, scores, self._value_map(priced_by[-1]), passes, 0

    def _rank(self, scores: Sequence[int], r: int) -> list[int]:
        if self.fide is not None:
            return self._rank_fide(scores, r, self.fide)
        stats, ratings = self.stats, self.ratings

        def key(i: int) -> tuple[int, ...]:
            extra: list[int] = []
            for tb in self.tiebreaks:
                if tb == "rating":
                    extra.append(ratings[i])
                else:
                    extra.append(-stats.get(i, r, tb))
            return (-scores[i], *extra, i)

        return sorted(range(len(scores)), key=key)

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
        return {self.ids[i]: self.fvalues[pos] for pos, i in enumerate(ranking)}

    def _standing(self, r: int, ranking: list[int], scores: list[int], denominator: int,
                  before: dict[str, Fraction], pricing: tuple[dict[str, Fraction], ...],
                  own_map: dict[str, Fraction], off: frozenset[str], iterations: int, cycle: int) -> Standing:
        ids, table = self.ids, self.stats.table  # (the counts come in StandingEntry's field order)
        entries = tuple(
            StandingEntry(ids[i], pos + 1, Fraction(scores[i], denominator), self.fvalues[pos], before[ids[i]],
                          *table[i][r])
            for pos, i in enumerate(ranking)
        )
        return Standing(r, entries, pricing, own_map, off, iterations, cycle)


def _lcm_of(numbers: Iterable[int]) -> int:
    result = 1
    for n in numbers:
        result = math.lcm(result, n)
    return result
