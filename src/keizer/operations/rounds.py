"""A round as the officer sees it: who attends, the pairing list, a pairing proposed but not
stored, forbidden pairs.  Shared by the command line (the attendance, the pairing list, a
pairing looked at without storing it, forbidden pairs) and the web app's attendance and
pairing pages.

Everything here reads, except :func:`forbid_pair` (the caller's transaction) and
:func:`propose_pairing` (its own transaction, always rolled back: nothing is written).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from keizer import systems
from keizer.limits import name_order
from keizer.model import Season
from keizer.operations.attendance import MARKS, default_mark, unmarked_marks
from keizer.operations.pairing import make_pairing
from keizer.operations.seasons import refuse_closed
from keizer.output import json_number
from keizer.refusals import Message, Word
from keizer.store import Store, StoreError
from keizer.systems import open_round, stored_points_rules
from keizer.systems.base import ALL_MARKS

#: The attendance choices a form can offer, in the order shown (a withdrawal is an action of its own).
CHOICES = MARKS
#: Why a player is not playing, as the pairing list says it (the views translate the words).
_ABSENCE_WORDS = {"excused": Word("excused"), "unexcused": Word("unexcused"), "club": Word("club")}
_RESULT_WORDS = {"win": Word("win"), "draw": Word("draw"), "loss": Word("loss")}


# -- attendance ---------------------------------------------------------------


def attendance_rows(store: Store, comp_id: int, round_no: int | None = None) -> tuple[int, list[dict[str, Any]]]:
    """Each player's attendance status in a round (default: the open one), in start order."""
    season = store.load_season(comp_id)
    number = round_no if round_no is not None else min(open_round(season).number, len(season.rounds))
    if not 1 <= number <= len(season.rounds):
        raise StoreError("round %(n)s has no attendance yet", hint="ev_mark_it", n=number)
    rnd = season.rounds[number - 1]
    in_game = {p for g in rnd.games for p in (g.white, g.black)}
    unpaired = systems.of(store.system(comp_id)).from_attendance and not (rnd.games or rnd.byes)
    later = number > open_round(season).number
    marked = set(store.attendance(comp_id, number)) if later or unpaired else None
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    rows = []
    for p in sorted(season.players, key=lambda p: p.start_no):
        if marked is not None and ids[p.id] not in marked and p.active_in(number):
            status = "not marked yet"  # a round not paired yet: the default comes at the pairing
        elif p.id in in_game:
            status = "game"
        elif p.id in rnd.present:
            status = "present"
        elif p.id in rnd.external:
            status = f"external ({rnd.external[p.id].value})"
        elif p.id in rnd.absent:
            status = rnd.absent[p.id].value
        elif not p.active_in(number):
            status = "not joined" if number < p.joined else "withdrawn"
        else:
            status = "unexcused"
        rows.append({"start_no": p.start_no, "id": p.id, "name": p.name, "status": status})
    return number, rows


@dataclass(frozen=True)
class SheetRow:
    """One player on the attendance form."""

    key: str
    start_no: int
    name: str
    status: str  # what is recorded now, as ``keizer attendance`` says it
    default: str  # present or absent: what an unmarked player gets
    choices: tuple[str, ...]  # what the form offers ("" keeps the player as they are); () nothing
    selected: str
    result: str | None  # an external game's result
    board: int | None  # the board the player is paired on
    bye: bool
    late: bool  # may come in as a latecomer (``keizer late``)
    noshow: bool  # may be taken out as a no-show (``keizer noshow``)
    notice: str | None = None  # unmarked, and the member sent notice for the evening: what it counts as

    @property
    def counted(self) -> str:
        """The heading the row counts under: its selected mark, else what it holds (game, bye …)."""
        if self.choices and self.selected:
            return self.selected
        if self.board is not None:
            return "game"
        return "external" if self.status.startswith("external") else self.status


@dataclass(frozen=True)
class Sheet:
    """The attendance of one round of a competition, as a form."""

    system: str
    number: int
    open_number: int
    date: str | None
    paired: bool  # the round has (had) its pairing: nobody can be marked present any more
    ahead: bool  # a Swiss round after the next one: requested byes only
    editable: bool  # marks can be given (a round-robin's come from its schedule)
    rounds: tuple[int, ...]  # the rounds the form can show
    rows: tuple[SheetRow, ...]
    counts: dict[str, int] = field(default_factory=dict)
    why_not: str | None = None  # why nothing can be marked
    withdraw: bool = False  # a player may withdraw from this round on (its own action, asked first)
    suggested_date: str | None = None  # a round without a date: a week after the last dated round


def attendance_sheet(store: Store, comp_id: int, round_no: int | None = None) -> Sheet:
    """The attendance form of a round (default: the open one): each player's status and the marks
    ``keizer attend`` accepts for them, the one selected being what the round holds or will get."""
    comp = store.competition_by_id(comp_id)
    system = comp["system"]
    kind = systems.of(system)
    season = store.load_season(comp_id)
    target = open_round(season)
    planned = store.system_settings(comp_id).get("rounds") if kind.planned_rounds else None
    # The rounds the form reaches: up to the next one; a Swiss's planned rounds (byes asked ahead);
    # a round-robin's schedule.
    last = max(target.number, len(season.rounds))
    if kind.marks_ahead and planned:
        last = max(planned, len(season.rounds))
    elif kind.all_play_all:
        last = len(season.rounds)
    number = round_no if round_no is not None else min(target.number, max(last, 1))
    if not 1 <= number <= max(last, 1):
        raise StoreError("round %(n)s cannot be marked yet: the next round is %(next)s", n=number, next=target.number)
    exists = number <= len(season.rounds)
    rnd = season.rounds[number - 1] if exists else None
    ahead = kind.marks_ahead and number > target.number
    paired = number < target.number or (number == target.number and target.paired)
    editable, why_not = True, None
    if not kind.from_attendance:
        editable = False
        why_not = "its pairings come from the Berger table: every player plays every round"
    elif is_closed(comp):
        editable, why_not = False, "the competition is closed"
    statuses = dict((r["id"], r["status"]) for r in attendance_rows(store, comp_id, number)[1]) if exists else {}
    stored = store.attendance(comp_id, number) if exists else {}
    players = {r["key"]: r for r in store.players(comp_id)}
    in_game = {p: g.board for g in (rnd.games if rnd else ()) for p in (g.white, g.black)}
    byes = set(rnd.byes) if rnd else set()
    offered = [c for c in CHOICES if c in kind.marks or c not in ALL_MARKS or not kind.from_attendance]
    if paired:
        offered.remove("present")
    if ahead:
        offered = ["excused", "unexcused"]
    after_pairing = kind.from_attendance and number == target.number and target.paired and editable
    from keizer.operations.notices import round_notices  # the members' notices for the evening, date saved or not

    day = rnd.date if rnd and rnd.date else next_date(season, number)
    noticed = {} if paired or ahead or not editable else \
        {n["player"]: n["status"] for n in round_notices(store, comp_id, number, day)}
    rows = []
    for p in sorted(season.players, key=lambda p: p.start_no):
        row = players[p.id]
        mark, result = stored.get(row["id"], (None, None))
        default = default_mark(row, system, season.settings.default_attendance)
        status = statuses.get(p.id) or ("not marked yet" if p.active_in(number) else
                                        "not joined" if number < p.joined else "withdrawn")
        choices: tuple[str, ...] = ()
        selected = ""
        if editable and p.active_in(number) and p.id not in in_game and p.id not in byes:
            selected = mark or ""  # unmarked stays unmarked: the default comes at the pairing
            choices = tuple(offered)
            if selected not in choices:
                choices, selected = ("", *choices), ""
        rows.append(SheetRow(
            key=p.id, start_no=p.start_no, name=p.name, status=status, default=default, choices=choices,
            selected=selected, result=result, board=in_game.get(p.id), bye=p.id in byes,
            late=after_pairing and p.active_in(number) and p.id not in in_game and p.id not in byes,
            noshow=after_pairing and (p.id in byes or (p.id in in_game and _unplayed(rnd, p.id))),
            notice=noticed.get(p.id) if mark is None else None))
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.counted] = counts.get(r.counted, 0) + 1
    rounds = tuple(range(1, max(last, 1) + 1))
    return Sheet(system=system, number=number, open_number=target.number, date=rnd.date if rnd else None,
                 paired=paired, ahead=ahead, editable=editable, rounds=rounds, rows=tuple(rows), counts=counts,
                 why_not=why_not, suggested_date=None if rnd and rnd.date else next_date(season, number),
                 withdraw=editable and number == target.number and not ahead)


def next_date(season: Season, number: int) -> str | None:
    """The date a round without one most likely has: a week after the last dated round before it
    (clubs play weekly), or None when no round before it has a date.

    >>> from keizer.model import Round, Season
    >>> from keizer.settings import Settings
    >>> next_date(Season("x", Settings(), (), (Round(1, "2026-09-01"), Round(2))), 2)
    '2026-09-08'
    """
    from datetime import date, timedelta

    dated = [(r.number, r.date) for r in season.rounds[:number - 1] if r.date]
    if not dated:
        return None
    last_number, last_date = dated[-1]
    try:
        last = date.fromisoformat(last_date)
    except ValueError:
        return None
    return (last + timedelta(days=7 * (number - last_number))).isoformat()


def is_closed(comp: dict[str, Any]) -> bool:
    """Whether the competition is closed (its season is over): nothing can be written to it."""
    return bool(json.loads(comp["system_settings"]).get("closed"))


def _unplayed(rnd: Any, key: str) -> bool:
    return any(g.result is None for g in rnd.games if key in (g.white, g.black))


# -- pairing lists ------------------------------------------------------------


def pairings_round(season: Season, round_no: int | None = None) -> int:
    """The round a pairing list shows: the given one, else the open round once paired,
    else the last paired round; refused when it has no pairing."""
    paired = [r.number for r in season.rounds if r.games or r.byes]
    target = open_round(season)
    number = round_no if round_no is not None else target.number if target.paired else paired[-1] if paired \
        else target.number
    if not 1 <= number <= len(season.rounds) or not (season.rounds[number - 1].games or season.rounds[number - 1].byes):
        raise StoreError("round %(n)s has not been paired yet", n=number)
    return number


def pairing_list(store: Store, comp_id: int, season: Season, number: int) -> dict[str, Any]:
    """A round's pairing list: boards, players, results; for a Swiss or a round-robin also the
    pairing numbers and the points before the round; for a Keizer competition each player's
    rank, value and score in the standing before the round (what a win against them is worth).
    Also the byes (keys), every player's name and who is not playing (sorted text)."""
    rnd = season.rounds[number - 1]
    names = {p.id: p.name for p in season.players}
    rows: list[dict[str, Any]] = [{"board": g.board, "white": names[g.white], "black": names[g.black],
                                   "white_id": g.white, "black_id": g.black,
                                   "result": g.result.value if g.result else None}
                                  for g in rnd.games]
    columns = ["board", "white", "black", "result"]
    if systems.of(store.system(comp_id)).points:  # a Swiss pairing list: numbers and points before it
        from keizer.points import points_standing

        rules = stored_points_rules(store, comp_id)
        before = {e.player: e.points for e in points_standing(season, [], rules.edition, number - 1,
                                                               system=rules.system, scoring=rules.scoring)}
        tpn = {p.id: p.start_no for p in season.players}
        for row in rows:
            row |= {"white_no": tpn[row["white_id"]], "white_points": json_number(before[row["white_id"]]),
                    "black_no": tpn[row["black_id"]], "black_points": json_number(before[row["black_id"]])}
        columns = ["board", "white_no", "white", "white_points", "result", "black_points", "black", "black_no"]
    elif systems.of(store.system(comp_id)).standing_kind == "ladder":
        from keizer.operations.standings import kept_standing

        upto = min(number - 1, season.completed_rounds())
        entry_of = {e.player: e for e in kept_standing(store, comp_id, season, upto).entries}
        for row in rows:
            for side in ("white", "black"):
                entry = entry_of.get(row[f"{side}_id"])  # None: off the ladder (withdrawn_opponent)
                row |= {f"{side}_rank": entry.rank if entry else None,
                        f"{side}_value": json_number(entry.value) if entry else None,
                        f"{side}_score": json_number(entry.score) if entry else None}
        columns = ["board", "white_rank", "white", "white_value", "result", "black_value", "black", "black_rank"]
    not_playing = [Message("%(name)s (%(why)s)", name=names[p], why=_ABSENCE_WORDS[why.value])
                   for p, why in rnd.absent.items() if why.value != "bye"]
    not_playing += [Message("%(name)s (external %(result)s)", name=names[p], result=_RESULT_WORDS[result.value])
                    for p, result in rnd.external.items()]
    return {"round": number, "date": rnd.date, "time_control": rnd.time_control, "rows": rows,
            "columns": columns, "byes": list(rnd.byes), "names": names, "not_playing": sorted(not_playing, key=str)}


# -- a pairing proposed, not stored --------------------------------------------


class _Rollback(Exception):
    """Raised inside the transaction of a proposal so that nothing is written."""


@dataclass(frozen=True)
class Proposal:
    """A proposed pairing with its reasons, in the pairing list's columns."""

    round: int
    boards: tuple[dict[str, Any], ...]  # the pairing list's rows, each with its "reason" (a Message)
    columns: tuple[str, ...]
    bye: str | None  # key
    bye_name: str | None
    bye_reason: Message | None
    bent: tuple[Message, ...]
    notes: tuple[Message, ...]  # what was assumed (attendance nobody marked)

    @property
    def fingerprint(self) -> str:
        """The pairing in one line (White-Black per board, then the bye): to see whether the
        pairing stored later is the one proposed."""
        return fingerprint([(b["white_id"], b["black_id"]) for b in self.boards], self.bye)


def fingerprint(pairs: Iterable[tuple[str, str]], bye: str | None) -> str:
    return ",".join(f"{w}-{b}" for w, b in pairs) + f"|{bye or ''}"


def propose_pairing(store: Store, comp_id: int, fixed: Iterable[tuple[str, str]] = (), bye: str | None = None,
                    keep: Iterable[int] = (), again: bool = False) -> Proposal:
    """Pair the open round as :func:`make_pairing` would, and write nothing: the pairing is made in
    a transaction of its own that is rolled back.  Refused as the pairing itself refuses."""
    found: list[Proposal] = []
    try:
        with store.change("pair", "pairing (proposal)"):
            refuse_closed(store.competition_by_id(comp_id))
            notes: list[Message] = []
            pairing = make_pairing(store, comp_id, list(fixed), bye, list(keep), again, tell=notes.append)
            listing = pairing_list(store, comp_id, store.load_season(comp_id), pairing.round)
            reasons = {b.board: b.why for b in pairing.boards}
            boards = tuple({**row, "reason": reasons.get(row["board"])} for row in listing["rows"])
            found.append(Proposal(
                round=pairing.round, boards=boards, columns=tuple(listing["columns"]), bye=pairing.bye,
                bye_name=listing["names"].get(pairing.bye) if pairing.bye else None, bye_reason=pairing.bye_why,
                bent=pairing.bent_why, notes=tuple(notes)))
            raise _Rollback()
    except _Rollback:
        pass
    return found[0]


# -- forbidden pairs ------------------------------------------------------------


def forbid_pair(store: Store, comp_id: int, a: str, b: str, remove: bool = False) -> tuple[str, str]:
    """Never pair these two (or allow them again); their names."""
    pa, pb = store.find_player(comp_id, a), store.find_player(comp_id, b)
    if pa["id"] == pb["id"]:
        raise StoreError("name two different players")
    store.forbid(comp_id, pa["id"], pb["id"], remove)
    return pa["name"], pb["name"]


def forbidden_list(store: Store, comp_id: int) -> list[dict[str, str]]:
    """The forbidden pairs, with their names."""
    names = {r["key"]: r["name"] for r in store.players(comp_id)}
    return [{"a": a, "b": b, "a_name": names[a], "b_name": names[b]} for a, b in store.forbidden_pairs(comp_id)]


# -- the pairing page -------------------------------------------------------------


def _playing(store: Store, comp_id: int, season: Season, number: int, paired: Iterable[str]) -> list[str]:
    """Who plays round ``number``: in its pairing, marked present, or not marked and what the
    pairing will make of them (checked in, or present by default without a member's notice)."""
    system = store.system(comp_id)
    found = set(paired)
    if number > len(season.rounds):
        marked: dict[int, tuple[str, str | None]] = {}
        noticed: dict[int, str] = {}
    else:
        found |= set(season.rounds[number - 1].present)
        marked, noticed = store.attendance(comp_id, number), unmarked_marks(store, comp_id, number)
    active = {p.id for p in season.players if p.active_in(number)}
    for row in store.players(comp_id):
        if row["key"] in active and row["id"] not in marked and \
                noticed.get(row["id"], default_mark(row, system, season.settings.default_attendance)) == "present":
            found.add(row["key"])
    return sorted(found)


@dataclass(frozen=True)
class PairingState:
    """Where a competition's pairing stands, and what can be done to it."""

    system: str
    number: int  # the open round
    paired: bool
    shown: int | None  # the round whose pairing list is shown (None: nothing paired yet)
    weekly: bool  # paired round by round from attendance (Keizer, Swiss): not a round-robin's schedule
    closed: bool
    finished: Message | None  # why no further round can be paired (a Swiss's planned rounds are played)
    results_in: bool  # the open round has a result already (no unpairing)
    any_result: bool  # some round has a result (a round-robin can no longer be drawn again)
    players: tuple[tuple[str, str], ...]  # (key, name) of the players active in the open round, by name
    in_pairing: tuple[tuple[str, str], ...]  # (key, name) of the players in the open round's pairing, by name
    boards: tuple[int, ...]  # the open round's boards
    present: tuple[tuple[str, str], ...] = ()  # (key, name) of who plays the open round (marked, or by default), by name


def pairing_state(store: Store, comp_id: int, round_no: int | None = None) -> PairingState:
    """The pairing page of a competition; ``round_no`` shows an earlier round's list (as
    the command line's pairing list of a round does)."""
    comp = store.competition_by_id(comp_id)
    system = comp["system"]
    season = store.load_season(comp_id)
    target = open_round(season)
    paired_any = any(r.games or r.byes for r in season.rounds)
    shown = pairings_round(season, round_no) if round_no is not None or paired_any else None
    finished = None
    planned = store.system_settings(comp_id).get("rounds") if systems.of(system).planned_rounds else None
    if systems.of(system).planned_rounds and not planned:
        finished = Message("set the planned number of rounds first", hint="reasons_set_rounds")
    elif planned and target.number > planned:
        finished = Message("all %(n)s rounds are paired", hint="reasons_add_rounds", n=planned)
    rnd = season.rounds[target.number - 1] if target.exists else None
    names = {p.id: p.name for p in season.players}

    def by_name(keys: Iterable[str]) -> tuple[tuple[str, str], ...]:
        return tuple(sorted(((k, names[k]) for k in keys), key=lambda kn: (name_order(kn[1]), kn[0])))

    pairing_keys = [p for g in (rnd.games if rnd else ()) for p in (g.white, g.black)] + list(rnd.byes if rnd else ())
    return PairingState(
        present=by_name(_playing(store, comp_id, season, target.number, pairing_keys)),
        system=system, number=target.number, paired=target.paired, shown=shown,
        weekly=systems.of(system).from_attendance, closed=is_closed(comp), finished=finished,
        results_in=bool(rnd and any(g.result is not None for g in rnd.games)),
        any_result=any(g.result is not None for r in season.rounds for g in r.games),
        players=by_name(p.id for p in season.players if p.active_in(target.number)),
        in_pairing=by_name(pairing_keys) if target.paired else (),
        boards=tuple(g.board for g in rnd.games) if rnd and target.paired else ())
