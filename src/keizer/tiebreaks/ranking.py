"""Ranking by an ordered tie-break list (C.07 4.2), and the values of each tie-break.

Participants are ordered by their primary score (points; match points or
game points for teams).  Each tie-break in turn splits every group still tied:
value tie-breaks by their value, type A ones (DE, EDE, BC, TBR, BBE) by
comparing the group's members among themselves.  What remains tied shares a
rank, unless a seed for the drawing of lots is given: the lots are a seeded
shuffle of the start numbers, so the same seed always draws the same order
(``LOT`` places the drawing in the list; otherwise it comes after the list).

>>> from keizer.tiebreaks.model import Code, Player, RoundResult, Tournament
>>> R = RoundResult
>>> t = Tournament((Player(1, "A", results=(R(Code.DRAW, 2), R(Code.WIN, 3))),
...                 Player(2, "B", results=(R(Code.DRAW, 1), R(Code.PAB))),
...                 Player(3, "C", results=(R(Code.PAB), R(Code.LOSS, 1)))), rounds=2)
>>> [(s.rank, s.id, s.values["BH"]) for s in rank(t, "BH")]
[(1, 1, Fraction(5, 2)), (1, 2, Fraction(5, 2)), (3, 3, Fraction(5, 2))]
>>> [(s.rank, s.id) for s in rank(t, "BH", lots_seed=1)]
[(1, 2), (2, 1), (3, 3)]
"""

from __future__ import annotations

import gc
import math
import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import compress, groupby, repeat
from operator import attrgetter, floordiv, gt, is_, mul, neg
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, cast

from keizer.tiebreaks import individual as ind
from keizer.tiebreaks.codes import TieBreak, TieBreakError, parse_list
from keizer.tiebreaks.direct import Split, by_boards, direct_encounter
from keizer.tiebreaks.fields import Field, player_field, team_field
from keizer.tiebreaks.model import Tournament
from keizer.tiebreaks.team import ESB, extended_sonneborn_berger, sssc
from keizer.tiebreaks.unplayed import Edition, Unplayed, unplayed

Value = Fraction | int | None
Codes = str | Iterable[str | TieBreak]
T = TypeVar("T")

_EDE_BOARDS = {"EDE": (), "EDET": ("TBR",), "EDEB": ("BBE",), "EDEBT": ("BC", "TBR"), "EDEBB": ("BC", "BBE")}


@dataclass(frozen=True)
class Standing:
    """One line of a ranking; ``id`` is the start number (team number for teams).

    ``values`` maps each tie-break's label (see :func:`labels`) to its value,
    in list order.  A type A tie-break's value is the place it gave within the
    group it was applied to (1 = first), None where the participant was not
    tied at that point.
    """

    rank: int
    id: int
    name: str
    points: Fraction
    values: Mapping[str, Value]


def rank(t: Tournament, tiebreaks: Codes, edition: Edition = Edition.FIDE_2026, *, rounds: int | None = None,
         primary: str | None = None, lots_seed: int | None = None,
         primary_scores: Mapping[int, Fraction] | None = None) -> tuple[Standing, ...]:
    """The ranking of ``t`` after ``rounds`` rounds (default: all played) by the ordered ``tiebreaks``.

    ``primary_scores`` ranks by scores of another system (a Keizer score) instead of
    points; the tie-breaks still measure the games (direct encounter: game points).
    """
    with _collector_paused():
        return _rank(t, tiebreaks, edition, rounds, primary, lots_seed, primary_scores)


def _rank(t: Tournament, tiebreaks: Codes, edition: Edition, rounds: int | None, primary: str | None,
          lots_seed: int | None, primary_scores: Mapping[int, Fraction] | None) -> tuple[Standing, ...]:
    ctx = _Context(t, edition, rounds, _primary(t, primary), lots_seed)
    tbs = _parsed(tiebreaks, t)
    scores = dict(primary_scores) if primary_scores is not None else ctx.field(ctx.primary).scores
    groups = _split(sorted(scores), scores, False)
    values: dict[str, Mapping[int, Value]] = {}
    tied = None
    for tb, label in zip(tbs, labels(tbs)):
        groups, values[label], tied = ctx.apply(tb, groups, tied)
    if lots_seed is not None and not any(tb.name == "LOT" for tb in tbs):
        lots = _lots(scores, lots_seed)
        groups = [part for g in groups for part in _split(g, lots, True)]
    names = {team.number: team.name for team in t.teams} if t.is_team else {p.start_no: p.name for p in t.players}
    order = [i for g in groups for i in sorted(g)]
    positions = [position for position, size in zip(_starts(groups), map(len, groups)) for _ in range(size)]
    # each tie-break's values in the order of the ranking, then a row per participant: no loop in Python per value
    rows = zip(*(map(found.get, order) for found in values.values())) if values else ((),) * len(order)
    keys = list(values)
    return tuple(Standing(position, i, names.get(i, ""), scores[i], dict(zip(keys, row)))
                 for position, i, row in zip(positions, order, rows))


def _starts(groups: Split) -> Iterator[int]:
    """The place of each group's first member."""
    position = 1
    for g in groups:
        yield position
        position += len(g)


def compute(t: Tournament, tiebreaks: Codes, edition: Edition = Edition.FIDE_2026, *, rounds: int | None = None,
            primary: str | None = None, lots_seed: int | None = None) -> dict[str, dict[int, Value]]:
    """The value of each tie-break for every participant, as if each were the only one.

    Type A tie-breaks are applied to each group of equal primary score and
    give places within it, as the TEC exercises present them.

    >>> from keizer.tiebreaks.model import Code, Player, RoundResult, Tournament
    >>> t = Tournament((Player(1, results=(RoundResult(Code.WIN, 2),)),
    ...                 Player(2, results=(RoundResult(Code.LOSS, 1),))), rounds=1)
    >>> compute(t, "WIN,PS")
    {'WIN': {1: 1, 2: 0}, 'PS': {1: Fraction(1, 1), 2: Fraction(0, 1)}}
    """
    with _collector_paused():
        ctx = _Context(t, edition, rounds, _primary(t, primary), lots_seed)
        scores = ctx.field(ctx.primary).scores
        ids = sorted(scores)
        groups = _split(ids, scores, False)
        result = {}
        for tb in _parsed(tiebreaks, t):
            found = ctx.apply(tb, groups)[1] if tb.kind.group else ctx.values(tb)
            result[tb.text] = dict(zip(ids, map(found.get, ids)))  # by start number, no loop in Python
        del ctx  # the shared columns freed before the collector runs again: it has fewer objects to walk
        return result


_paused = threading.Lock()
_pausing = [0, False]  # computations under way, and whether the collector ran before the first


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while tie-breaks are computed.

    A computation makes tens of thousands of short-lived tuples, lists and dicts, and no
    reference cycles that it knows of: they are freed as soon as they are no longer used,
    whatever the collector does. But each of them that outlives a young collection counts towards the
    next full one, which walks every object of the process (the tournament's own results
    first): one or two per ranking of 5,000 players, 50-100 ms of 0.4 s (issue 25). What
    the computation returns is looked at by the next collection after it, as anything else.
    Threads that rank at once share one pause; the collector runs again after the last
    (unless it had been switched off before the first).
    """
    with _paused:
        if not _pausing[0]:
            _pausing[1] = gc.isenabled()
            gc.disable()
        _pausing[0] += 1
    try:
        yield
    finally:
        with _paused:
            _pausing[0] -= 1
            if not _pausing[0] and _pausing[1]:
                gc.enable()


def labels(tiebreaks: Codes) -> tuple[str, ...]:
    """The keys of :attr:`Standing.values`: each code, a repeated DE/EDE numbered from its second use.

    >>> labels("DE,BH,DE")
    ('DE', 'BH', 'DE#2')
    """
    seen: dict[str, int] = {}
    out = []
    for tb in parse_list(tiebreaks):
        seen[tb.text] = seen.get(tb.text, 0) + 1
        out.append(tb.text if seen[tb.text] == 1 else f"{tb.text}#{seen[tb.text]}")
    return tuple(out)


def _primary(t: Tournament, primary: str | None) -> str:
    if not t.is_team:
        if primary not in (None, "PTS"):
            raise TieBreakError("primary score %(primary)s: an individual tournament ranks by points", primary=primary)
        return "PTS"
    primary = (primary or "MP").upper()
    if primary not in ("MP", "GP"):
        raise TieBreakError("primary score %(primary)s: use MP or GP", primary=primary)
    return primary


def _parsed(tiebreaks: Codes, t: Tournament) -> tuple[TieBreak, ...]:
    tbs = parse_list(tiebreaks)
    for tb in tbs:
        where = tb.kind.where
        if where == "team" and not t.is_team:
            raise TieBreakError("%(code)s: a team tie-break, and this is an individual tournament", code=tb.text)
        if where == "individual" and t.is_team:
            raise TieBreakError("%(code)s: an individual tie-break, and this is a team tournament", code=tb.text)
        if tb.score and not t.is_team:
            raise TieBreakError("%(code)s: :%(score)s needs a team tournament", code=tb.text, score=tb.score)
    return tbs


def _split(group: Sequence[int], values: Mapping[int, Value], lower_is_better: bool) -> Split:
    """``group`` ordered by value (best first, undefined last), equal values together.

    The values are compared as numerators over their common denominator: far cheaper than Fractions.
    """
    if len(group) == 2:  # the most frequent tie, compared as it is
        a, b = sorted(group)
        return _split_two(a, b, values, lower_is_better)
    if any(map(gt, group, group[1:])):
        group = sorted(group)
    got = list(map(values.get, group))
    nones: list[int] = []
    if any(map(is_, got, repeat(None))):
        nones = [i for i, v in zip(group, got) if v is None]
        group, got = [i for i, v in zip(group, got) if v is not None], [v for v in got if v is not None]
    known = cast("list[Fraction | int]", got)
    # Fraction's numerator and denominator are properties in Python: its fields are read instead, in C
    numerator, denominator = _FRACTION_PARTS if set(map(type, known)) == {Fraction} else _PARTS
    d = math.lcm(*set(map(denominator, known)))
    # each value's numerator over d, negated when higher is better: the sort key, with no loop in Python
    nums = map(numerator, known) if d == 1 else map(mul, map(numerator, known), map(floordiv, repeat(d),
                                                                                    map(denominator, known)))
    key = dict(zip(group, nums if lower_is_better else map(neg, nums))).__getitem__
    # the group in start-number order sorted stably by key: by key, then start number
    parts = [list(same) for _, same in groupby(sorted(group, key=key), key)]
    return parts + [nones] if nones else parts


_PARTS = attrgetter("numerator"), attrgetter("denominator")
_FRACTION_PARTS = (attrgetter("_numerator"), attrgetter("_denominator")) if hasattr(Fraction(1), "_denominator") \
    else _PARTS


def _split_two(a: int, b: int, values: Mapping[int, Value], lower_is_better: bool) -> Split:
    """:func:`_split` of two participants, ``a`` < ``b``."""
    x, y = values.get(a), values.get(b)
    if x == y or x is None and y is None:
        return [[a, b]]
    if x is None or y is not None and (x > y if lower_is_better else x < y):
        return [[b], [a]]
    return [[a], [b]]


def _places(parts: Split) -> dict[int, Value]:
    places: dict[int, Value] = {}
    place = 1
    for part in parts:
        for i in part:
            places[i] = place
        place += len(part)
    return places


def _lots(ids: Iterable[int], seed: int) -> dict[int, Value]:
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return {i: k for k, i in enumerate(order, start=1)}


#: Tie-breaks that need only the field, the edition and the code.
_SIMPLE: dict[str, Callable[[Field, Edition, TieBreak], Mapping[int, Value]]] = {
    "WIN": lambda f, ed, tb: ind.wins(f),
    "WON": lambda f, ed, tb: ind.games_won(f, ed),
    "BWG": lambda f, ed, tb: ind.games_won(f, ed, black=True),
    "BPG": lambda f, ed, tb: ind.black_games(f, ed),
    "REP": lambda f, ed, tb: ind.rounds_elected(f, ed),
    "STD": lambda f, ed, tb: ind.standard_points(f),
    "PS": lambda f, ed, tb: ind.progressive(f, tb.cut),
    "ARO": lambda f, ed, tb: ind.average_rating(f, ed, tb.cut, tb.top, tb.unrated),
    "TPR": lambda f, ed, tb: ind.performance(f, ed, tb.unrated, tb.cap),
    "PTP": lambda f, ed, tb: ind.perfect_performance(f, ed, tb.unrated),
    "TPN": lambda f, ed, tb: {i: i for i in f.slots},
    "RTNG": lambda f, ed, tb: {i: f.ratings.get(i) or 0 for i in f.slots},
    "PTS": lambda f, ed, tb: f.scores,
}


@dataclass
class _Context:
    """One computation: the tournament, edition and rounds, with fields and values cached."""

    t: Tournament
    edition: Edition
    rounds: int | None
    primary: str
    lots_seed: int | None = None
    _cache: dict[tuple[object, ...], object] = field(default_factory=dict)

    def _cached(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]  # type: ignore[return-value]

    def apply(self, tb: TieBreak, groups: Split, tied: Sequence[int] | None = None
              ) -> tuple[Split, Mapping[int, Value], list[int]]:
        """The tied ``groups`` split further by ``tb``, its values, and where the groups still tied are.

        ``tied`` says where the groups of more than one are (found when not given): after the
        first tie-breaks most groups are single, and only the others are looked at.
        """
        split: Split = []
        still: list[int] = []
        previous = 0
        places: dict[int, Value] = {}
        found = places if tb.kind.group else self.values(tb)
        if tied is None:  # found without a loop in Python
            tied = list(compress(range(len(groups)), map(gt, map(len, groups), repeat(1))))
        for k in tied:
            split += groups[previous:k]
            if tb.kind.group:
                parts = self.group(tb, groups[k])
                places.update(_places(parts))
            else:
                parts = _split(groups[k], found, tb.lower_is_better)
            still += [len(split) + n for n, part in enumerate(parts) if len(part) > 1]
            split += parts
            previous = k + 1
        split += groups[previous:]
        return split, found, still

    def field(self, score: str) -> Field:
        if not self.t.is_team:
            return self._cached(("field",), lambda: player_field(self.t, self.rounds))
        return self._cached(("field", score), lambda: team_field(self.t, score, self.rounds))

    def unplayed(self, score: str, played_forfeits: bool = False, fore: bool = False) -> Unplayed:
        def make() -> Unplayed:
            f = self.field(score)
            return unplayed(f.foreseen() if fore else f, self.edition, played_forfeits)
        return self._cached(("unplayed", score, played_forfeits, fore), make)

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"

    def values(self, tb: TieBreak) -> Mapping[int, Value]:
        return self._cached(("values", replace(tb, text="")), lambda: self._values(tb))

    def _values(self, tb: TieBreak) -> Mapping[int, Value]:
        name, ed = tb.name, self.edition
        score = tb.score or self.primary
        f = self.field(score)
        first = ed.dummy  # 16.5: voluntary unplayed rounds are cut first
        if name in _SIMPLE:
            return _SIMPLE[name](f, ed, tb)
        if name in ("MP", "GP"):
            return self.field(name).scores
        if name == "MPVGP":
            return self.field(self.secondary).scores
        if name == "LOT":
            if self.lots_seed is None:
                raise TieBreakError("LOT: the drawing of lots needs a seed")
            return _lots(f.slots, self.lots_seed)
        if name in ("APRO", "APPO"):
            of = TieBreak("TPR" if name == "APRO" else "PTP", unrated=tb.unrated)
            return ind.opponents_average(f, ed, self.values(of))
        if name in ("BH", "FB"):
            u = self.unplayed(score, tb.played_forfeits, fore=name == "FB")
            return ind.buchholz(u, tb.cut, tb.top, first)
        if name in ("AOB", "BHS"):
            bh = self.values(TieBreak("FB" if tb.fore else "BH", tb.score))
            return ind.opponents_buchholz(f, bh, ed, average=name == "AOB")  # type: ignore[arg-type]
        if name == "SB":
            return ind.sonneborn_berger(self.unplayed(score, tb.played_forfeits), tb.cut, tb.top, first)
        if name == "KS":
            return ind.koya(f, self.unplayed(score, tb.played_forfeits), tb.limit)
        if name in ESB:
            totals, own = ESB[name]
            scale = 1 / self.t.match_scoring.win if name == "USB" else Fraction(1)
            return extended_sonneborn_berger(self.unplayed(totals, tb.played_forfeits),
                                             self.unplayed(own, tb.played_forfeits), tb.cut, first, scale)
        if name == "SSSC":
            bh = ind.buchholz(self.unplayed(self.primary, tb.played_forfeits, fore=tb.fore))
            secondary = self.field(self.secondary)
            return sssc(self.field(self.primary), secondary.scores, bh, tb.factor, secondary.win)
        raise TieBreakError("%(code)s: not a value tie-break", code=tb.text)

    def group(self, tb: TieBreak, group: list[int]) -> Split:
        """Split a tied group with a type A tie-break."""
        ed, pf = self.edition, tb.played_forfeits
        if tb.name == "DE":
            return direct_encounter(group, self.field(self.primary), ed, pf)
        if tb.name in ("BC", "TBR", "BBE"):
            return by_boards(group, self._boards(pf), tb.name)
        measures = _EDE_BOARDS[tb.name]

        def on_boards(g: list[int]) -> Split:
            parts = [g]
            for measure in measures:
                parts = [p for part in parts for p in by_boards(part, self._boards(pf), measure)]
            return parts

        def on_secondary(g: list[int]) -> Split:
            return direct_encounter(g, self.field(self.secondary), ed, pf, on_boards if measures else None)

        return direct_encounter(group, self.field(self.primary), ed, pf, on_secondary)

    def _boards(self, played_forfeits: bool) -> Callable[[int, int], tuple[Fraction, ...] | None]:
        """a's points per board, summed over its matches against b (played, or forfeited with /P)."""
        teams = {team.number: team for team in self.t.teams}
        n = self.field(self.primary).rounds

        def boards(a: int, b: int) -> tuple[Fraction, ...] | None:
            total: list[Fraction] = []
            for m in teams[a].matches[:n]:
                if m.opponent != b or not m.boards or m.code.outcome is None:
                    continue
                if m.code.is_forfeit and not played_forfeits:
                    continue
                if total and len(total) != len(m.boards):
                    return None
                total = [x + y for x, y in zip(total, m.boards)] if total else list(m.boards)
            return tuple(total) or None
        return boards
