"""What each round earns each player of a Keizer ladder, before it is priced: the engine
under :mod:`keizer.scoring`.

A player's round is reduced to an :class:`Item` — its kind, whose value prices it and the
fraction of that value it earns — and to the count it adds (a win, an excused absence…).
A round's items depend on that round and the rounds before it only (the absence limits
count earlier absences), never on a later one: what lets a kept standing
(:mod:`keizer.kept`) recompute only from the round that changed.

>>> from keizer.model import Game, Player, Result, Round, Season
>>> from keizer.settings import Settings
>>> s = Season("S", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C")),
...            (Round(1, games=(Game(1, 1, "a", "b", Result.DRAW),), absent={"c": Absence.EXCUSED}),))
>>> [(i.kind, i.priced, i.factor, i.field) for i in items(s, s.settings, frozenset(), 1)["a"]]
[('game', 'b', Fraction(1, 2), 'draws')]
>>> [(i.kind, i.priced, i.field) for i in items(s, s.settings, frozenset(), 1)["c"]]
[('excused', 'c', 'excused')]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Absence, ExternalResult, Game, Result, Season
from keizer.settings import Settings

# Kinds of a player's round, as shown in histories; "pending": a game of the round in
# progress whose result is not in yet (a provisional standing counts it as nothing yet).
GAME, FORFEIT, BYE, EXCUSED, UNEXCUSED, CLUB, EXTERNAL, LATE, WITHDRAWN, PENDING = (
    "game", "forfeit", "bye", "excused", "unexcused", "club", "external", "late", "withdrawn", "pending",
)


@dataclass(frozen=True)
class Item:
    """A player's round reduced to what it earns: factor × value of ``priced``; ``field``: the
    count of :class:`Stats` it adds to (None: none)."""

    kind: str
    priced: str | None  # whose value prices it (None: earns nothing)
    factor: Fraction
    game: Game | None = None
    external: ExternalResult | None = None
    field: str | None = None


_new, _fill = object.__new__, object.__setattr__


def _item(kind: str, priced: str | None, factor: Fraction, game: Game | None = None,
          external: ExternalResult | None = None, field: str | None = None) -> Item:
    """``Item(kind, priced, factor, game, external, field)`` without the frozen dataclass's
    __init__ (an object.__setattr__ per field): the same object, filled in at once, in a
    third of the time (31,200 items at 600 players × 52 rounds)."""
    item = _new(Item)
    _fill(item, "__dict__", {"kind": kind, "priced": priced, "factor": factor, "game": game, "external": external,
                             "field": field})
    return item


@dataclass
class Earned:
    """Every ladder player's rounds as items, and after each round the absence counts the
    limits look back on (``seen[r]``: after round r), so that a later state of the
    competition can go on from any round."""

    items: dict[str, list[Item]]
    seen: list[tuple[dict[str, int], dict[str, int], dict[str, int]]]


_last_items: list[tuple[Season, Settings, frozenset[str], int, Earned]] = []


def items(season: Season, settings: Settings, off: frozenset[str], upto: int) -> dict[str, list[Item]]:
    """Every ladder player's rounds 1…upto as (kind, whose value, factor)."""
    return earned(season, settings, off, upto).items


def earned(season: Season, settings: Settings, off: frozenset[str], upto: int,
           previous: Earned | None = None, first: int = 1) -> Earned:
    """:func:`items` with the counts behind them.  The last answer is kept: a standing and then
    its histories (the site, ``keizer history``) ask for the same items of the same immutable
    season.  ``previous``: the items of an earlier state whose rounds before ``first`` are this
    season's; they are taken over, and only rounds ``first``… are worked out."""
    if _last_items:
        was_season, was_settings, was_off, was_upto, found = _last_items[0]
        if was_season is season and was_settings is settings and was_off == off and was_upto == upto:
            return found
    found = compute_items(season, settings, off, upto, previous, first)
    _last_items[:] = [(season, settings, off, upto, found)]
    return found


def _game_kinds(settings: Settings) -> dict[tuple[Result, bool], tuple[str, Fraction, str]]:
    """(result, white?) → kind, factor and count of a game with a result: worked out once per
    table, not once per game."""
    table = {}
    for result in Result:
        for white in (True, False):
            game = Game(0, 0, "w", "b", result)
            points = game.points_of("w" if white else "b")
            if result.is_forfeit:
                factor = settings.forfeit_win if points == 1 else Fraction(0)
                field = "forfeit_wins" if points == 1 else "forfeit_losses"
            else:
                factor = settings.win if points == 1 else settings.loss if points == 0 else settings.draw
                field = "wins" if points == 1 else "losses" if points == 0 else "draws"
            table[result, white] = (FORFEIT if result.is_forfeit else GAME, factor, field)
    return table


def compute_items(season: Season, settings: Settings, off: frozenset[str], upto: int,
                  previous: Earned | None = None, first: int = 1) -> Earned:
    """:func:`earned`, computed."""
    players = {p.id: p for p in season.players if p.id not in off}
    found: dict[str, list[Item]] = {p: [] for p in players}
    excused_seen = dict.fromkeys(players, 0)
    club_seen = dict.fromkeys(players, 0)
    absences_seen = dict.fromkeys(players, 0)
    seen = [(dict(excused_seen), dict(club_seen), dict(absences_seen))]
    start = 0
    if previous is not None and first > 1 and len(previous.seen) >= first:
        start = first - 1
        found = {p: its[:start] for p, its in previous.items.items()}
        seen = previous.seen[:first]
        excused_seen, club_seen, absences_seen = (dict(counts) for counts in seen[-1])
    kinds = _game_kinds(settings)
    absence_factor = {Absence.EXCUSED: settings.excused, Absence.UNEXCUSED: settings.unexcused,
                      Absence.CLUB: settings.club, Absence.BYE: settings.bye}
    external_factor = {ExternalResult.WIN: settings.external_win, ExternalResult.DRAW: settings.external_draw,
                       ExternalResult.LOSS: settings.external_loss}
    for rnd in season.rounds[start:upto]:
        by_player: dict[str, Item] = {}
        for g in rnd.games:
            for pid, opponent, white in ((g.white, g.black, True), (g.black, g.white, False)):
                if g.result is None:
                    by_player[pid] = _item(PENDING, None, Fraction(0), game=g)
                    continue
                kind, factor, field = kinds[g.result, white]
                if opponent in off:  # withdrawn_opponent: priced at that fraction of one's own value
                    assert settings.withdrawn_opponent is not None
                    by_player[pid] = _item(kind, pid, settings.withdrawn_opponent * factor, g, field=field)
                else:
                    by_player[pid] = _item(kind, opponent, factor, g, field=field)
        for pid, player in players.items():
            game_item = by_player.get(pid)
            if not player.active_in(rnd.number):
                late = rnd.number < player.joined
                found[pid].append(_item(LATE if late else WITHDRAWN, pid, settings.late if late else Fraction(0)))
            elif game_item is not None:
                found[pid].append(game_item)
            elif pid in rnd.external:
                ext = rnd.external[pid]
                found[pid].append(_item(EXTERNAL, pid, external_factor[ext], external=ext, field="external"))
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
                factor = absence_factor[why]
                if why in (Absence.EXCUSED, Absence.UNEXCUSED) and settings.absence_decay:
                    factor /= 2 ** absences_seen[pid]
                    absences_seen[pid] += 1
                found[pid].append(_item(why.value, pid, factor, field=_ABSENCE_FIELDS[why]))
        seen.append((dict(excused_seen), dict(club_seen), dict(absences_seen)))
    return Earned(found, seen)


_ABSENCE_FIELDS = {Absence.BYE: "byes", Absence.EXCUSED: "excused", Absence.UNEXCUSED: "unexcused",
                   Absence.CLUB: "club"}


class Stats:
    """Cumulative game and absence counts per player after each round."""

    # In StandingEntry's order (its entries are built from these columns by position).
    FIELDS = ("games", "wins", "draws", "losses", "forfeit_wins", "forfeit_losses",
              "byes", "excused", "unexcused", "club", "external")
    _INDEX = {name: k for k, name in enumerate(FIELDS)}

    def __init__(self, order: Sequence[str], items: Mapping[str, list[Item]], upto: int,
                 previous: Stats | None = None, first: int = 1):
        """``previous``: the counts of an earlier state whose rounds before ``first`` are these
        (the same players in the same order)."""
        self.table: list[list[tuple[int, ...]]] = []
        index = self._INDEX
        start = first - 1 if previous is not None else 0
        for k, pid in enumerate(order):
            row = previous.table[k][:first] if previous is not None else [(0,) * len(self.FIELDS)]
            counts = list(row[-1])
            for it in items[pid][start:upto]:
                field = it.field
                if field is not None:
                    counts[index[field]] += 1
                    if field in ("wins", "draws", "losses"):
                        counts[0] += 1
                row.append(tuple(counts))
            self.table.append(row)

    def counts(self, i: int, r: int) -> dict[str, int]:
        return dict(zip(self.FIELDS, self.table[i][r]))

    def get(self, i: int, r: int, field: str) -> int:
        return self.table[i][r][self._INDEX[field]]
