"""Attendance: who plays the round being prepared, who is absent and why, who joins late
or comes back; a round nobody marked gets each player's default before it is paired.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from keizer import systems
from keizer.model import Season
from keizer.operations.state import require_weekly
from keizer.refusals import Message, Word
from keizer.store import Store, StoreError
from keizer.systems import open_round


#: Attendance marks a user can give, and the stored status for each.
MARKS = ("present", "excused", "unexcused", "club", "external")
#: A stored mark as a refusal names it (in the club's words).
_MARK_WORDS = {"present": Word("present"), "excused": Word("excused"), "unexcused": Word("unexcused"),
               "club": Word("club"), "external": Word("external")}


def default_mark(row: Mapping[str, Any], system: str, default_attendance: str) -> str:
    """What a player nobody marked is taken to be, present or absent: the player's own
    default, else the system's (a Swiss plays whoever is not marked), else the competition's."""
    own: str | None = row["default_attendance"]
    return own or ("present" if systems.of(system).unmarked_present else default_attendance)


def unmarked_marks(store: Store, comp_id: int, number: int, notices: bool = True) -> dict[int, str]:
    """Player id → the mark an unmarked player gets instead of the default: a member's notice
    for the round's date (excused / unexcused), and "present" for whoever checked in at the
    venue (which beats a notice: the player came)."""
    from keizer.operations.notices import absence_marks

    marks = absence_marks(store, comp_id, number) if notices else {}
    marks.update(dict.fromkeys(store.checkins(comp_id, number), "present"))
    return marks


def mark_attendance(
    store: Store,
    comp_id: int,
    marks: Mapping[str, str],
    external: Mapping[str, str] | None = None,
    withdrawn: Iterable[str] = (),
    round_no: int | None = None,
    date: str | None = None,
    force: bool = False,
    fill: bool = True,
) -> tuple[int, dict[str, int]]:
    """Mark players for a round; the rest of an unpaired round get their default.

    ``marks`` maps a player reference to present / excused / unexcused / club;
    ``external`` a reference to win / draw / loss.  ``fill=False`` leaves the players
    nobody marked unmarked (the app's form): they get their default when the round is
    paired (:func:`prepare_attendance`).  Returns the round and how many players ended
    up with each status.
    """
    system = require_weekly(store, comp_id, Word("mark attendance"))
    kind = systems.of(system)
    season = store.load_season(comp_id)
    settings = season.settings
    target = open_round(season)
    number = round_no if round_no is not None else target.number
    if number < 1:
        raise StoreError("round %(n)s does not exist: rounds count from 1", n=number)
    # A Swiss player may ask ahead for a bye in a later round (a requested bye, or notice of absence).
    ahead = kind.marks_ahead and number > target.number
    if number > target.number and not ahead:
        raise StoreError("round %(n)s cannot be marked yet: the next round is %(next)s", n=number, next=target.number)
    planned = store.system_settings(comp_id).get("rounds") if kind.planned_rounds else None
    if planned and number > planned:
        raise StoreError("the tournament has %(planned)s rounds", hint="ev_plan_more_rounds", planned=planned)
    if ahead and (external or list(withdrawn) or any(m not in ("excused", "unexcused") for m in marks.values())):
        raise StoreError("round %(n)s is not the next round (%(next)s)", hint="ev_marks_ahead", n=number,
                         next=target.number)
    paired = number < target.number or target.paired
    players = {r["key"]: r for r in store.players(comp_id)}
    chosen: dict[str, tuple[str, str | None]] = {}

    def claim(ref: str, status: str, result: str | None = None) -> None:
        row = store.find_player(comp_id, ref)
        if row["key"] in chosen:
            raise StoreError("%(name)s is marked twice in one command; mark each player once", name=row["name"])
        chosen[row["key"]] = (status, result)

    for ref, status in marks.items():
        if status not in MARKS[:-1]:
            raise StoreError("unknown attendance %(status)s: use present, excused, unexcused or club", status=repr(status))
        if status not in kind.marks:
            raise StoreError("a Swiss tournament has no club-duty absence: mark the player excused (a half-point bye)")
        claim(ref, status)
    if external and "external" not in kind.marks:
        raise StoreError("a Swiss tournament has no external games: mark the player excused or unexcused")
    for ref, result in (external or {}).items():
        if result not in ("win", "draw", "loss"):
            raise StoreError("external game of %(player)s: result must be win, draw or loss, not %(result)s", player=ref,
                             result=repr(result))
        claim(ref, "external", result)
    leaving = [store.find_player(comp_id, ref) for ref in withdrawn]
    for row in leaving:
        if row["key"] in chosen:
            raise StoreError("%(name)s is both marked and withdrawn; choose one", name=row["name"])

    season_players = {p.id: p for p in season.players}
    for key, (status, _) in chosen.items():
        if not season_players[key].active_in(number):
            raise StoreError("%(name)s does not take part in round %(n)s (not joined yet, or withdrawn)",
                             name=players[key]["name"], n=number)

    if date is not None and not force:
        check_round_date(season, number, date)
    for earlier in range(len(season.rounds) + 1, number):  # rounds are made in order
        store.ensure_round(comp_id, earlier)
    store.ensure_round(comp_id, number, date)
    if paired:
        in_game = _players_in_games(store, comp_id, number)
        for key, (status, _) in chosen.items():
            if players[key]["id"] in in_game:
                raise StoreError("%(name)s has a game in round %(n)s", hint="ev_use_noshow", name=players[key]["name"],
                                 n=number)
            if status == "present":
                raise StoreError("round %(n)s is already paired: %(name)s cannot be marked present now", n=number,
                                 name=players[key]["name"])
    for row in leaving:
        if number <= season.completed_rounds():
            raise StoreError("a withdrawal takes effect from the next round (%(next)s), not round %(n)s",
                             next=target.number, n=number)
        if players[row["key"]]["id"] in _players_in_games(store, comp_id, number):
            raise StoreError("%(name)s has a game in round %(n)s; enter the result or unpair first", name=row["name"],
                             n=number)
        store.update_player(row["id"], withdrawn_after=number - 1)
        for later in (n for n in store.round_numbers(comp_id) if n >= number):  # byes asked ahead lapse
            store.set_attendance(comp_id, later, row["id"], None)
        season_players[row["key"]] = replace(season_players[row["key"]], withdrawn_after=number - 1)

    existing = store.attendance(comp_id, number)
    noticed = unmarked_marks(store, comp_id, number, notices=not paired and not ahead)
    for key, player in season_players.items():
        row = players[key]
        if key in chosen:
            store.set_attendance(comp_id, number, row["id"], *chosen[key])
        elif fill and not paired and not ahead and player.active_in(number) and row["id"] not in existing:
            default = default_mark(row, system, settings.default_attendance)
            store.set_attendance(comp_id, number, row["id"],
                                 noticed.get(row["id"]) or ("present" if default == "present" else "unexcused"))
    counts: dict[str, int] = {}
    for status, _ in store.attendance(comp_id, number).values():
        counts[status] = counts.get(status, 0) + 1
    return number, counts


def _players_in_games(store: Store, comp_id: int, number: int) -> set[int]:
    found = set()
    for g in store.games(comp_id, number):
        found.add(g["white"])
        found.add(g["black"])
    return found


def check_joined(store: Store, comp_id: int, player: Mapping[str, Any], joined: int) -> None:
    """Refuse a first round that would rewrite a played or paired round: one that erases
    what the player did before it, or that makes rounds played without them count as
    absences; and any change after the player's withdrawal.  The open round, while
    unpaired, is still being prepared: the player's mark there simply goes."""
    name = player["name"]
    if player["withdrawn_after"] is not None:
        raise StoreError("%(name)s withdrew after round %(n)s; the first round cannot change now",
                         hint="ev_reinstate_first", name=name, n=player["withdrawn_after"])
    target = open_round(store.load_season(comp_id))
    fixed = target.number if target.paired else target.number - 1  # rounds 1…fixed are paired or played
    if joined < player["joined"] and joined <= fixed:
        raise StoreError("round %(n)s has been %(how)s without %(name)s; a first round of %(n)s would count it as an "
                         "absence (keep %(kept)s)", n=joined, name=name, kept=player["joined"],
                         how=Word("paired") if joined == target.number else Word("played"))
    for number in range(1, min(joined - 1, fixed) + 1):
        if player["id"] in _players_in_games(store, comp_id, number):
            raise StoreError("%(name)s has a game in round %(n)s; a first round of %(joined)s would erase it "
                             "(leave the first round as it is)", name=name, n=number, joined=joined)
        mark = store.attendance(comp_id, number).get(player["id"])
        if mark is not None:
            if mark[0] == "bye":
                raise StoreError("%(name)s has a bye in round %(n)s; a first round of %(joined)s would erase it "
                                 "(leave the first round as it is)", name=name, n=number, joined=joined)
            raise StoreError("%(name)s has attendance (%(mark)s) in round %(n)s; a first round of %(joined)s would "
                             "erase it (leave the first round as it is)", name=name, n=number, joined=joined,
                             mark=_MARK_WORDS.get(mark[0], mark[0]))
    if not target.paired and joined > target.number and target.exists:
        store.set_attendance(comp_id, target.number, player["id"], None)


def check_entry(store: Store, comp_id: int, joined: int) -> None:
    """A new player of a weekly competition joins the round being prepared or a later one."""
    if not systems.of(store.system(comp_id)).from_attendance:
        return
    target = open_round(store.load_season(comp_id))
    if joined < target.number:
        raise StoreError("round %(n)s has been played; a new player joins from round %(next)s on", n=joined,
                         next=target.number)


def reinstate(store: Store, comp_id: int, ref: str, missed: str = "unexcused") -> tuple[dict[str, Any], list[int]]:
    """Undo a player's withdrawal.  Rounds played since then are marked ``missed``
    (unexcused or excused), as for anyone who did not come; returns the player and them."""
    require_weekly(store, comp_id, Word("reinstate a player"))
    if missed not in ("unexcused", "excused"):
        raise StoreError("missed rounds count as unexcused or excused, not %(missed)s", missed=repr(missed))
    row = store.find_player(comp_id, ref)
    last = row["withdrawn_after"]
    if last is None:
        raise StoreError("%(name)s has not withdrawn", name=row["name"])
    target = open_round(store.load_season(comp_id))
    gone = [n for n in store.round_numbers(comp_id) if n > last and (n < target.number or target.paired)]
    store.update_player(row["id"], withdrawn_after=None)
    for number in gone:
        store.set_attendance(comp_id, number, row["id"], missed)
    if target.exists and not target.paired and store.attendance(comp_id, target.number):
        default = default_mark(row, store.system(comp_id), store.settings(comp_id).default_attendance)
        store.set_attendance(comp_id, target.number, row["id"], "present" if default == "present" else "unexcused")
    return row, gone


def check_round_date(season: Season, number: int, when: str) -> None:
    """Refuse a date that puts round ``number`` before an earlier round or after a later one."""
    for rnd in season.rounds:
        if rnd.date is None or rnd.number == number:
            continue
        if rnd.number < number and rnd.date > when:
            raise StoreError("round %(n)s on %(date)s would come before round %(other)s (%(other_date)s); check the "
                             "date", hint="ev_keep_date", n=number, date=when, other=rnd.number, other_date=rnd.date)
        if rnd.number > number and rnd.date < when:
            raise StoreError("round %(n)s on %(date)s would come after round %(other)s (%(other_date)s); check the "
                             "date", hint="ev_keep_date", n=number, date=when, other=rnd.number, other_date=rnd.date)


def prepare_attendance(store: Store, comp_id: int) -> Message | None:
    """Before pairing: the players of the open round nobody marked get their default attendance.

    When nobody is marked and the competition's default is ``absent`` that would pair
    nobody, so it is refused: the officer forgot to mark the evening.  Otherwise the
    returned line says how many players were assumed present (``None`` when every
    player had been marked).
    """
    season = store.load_season(comp_id)
    target = open_round(season)
    marked = store.attendance(comp_id, target.number) if target.exists else {}
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    unmarked = [p.id for p in season.players if p.active_in(target.number) and ids[p.id] not in marked]
    if not unmarked:
        return None
    if not marked and season.settings.default_attendance != "present" and not store.checkins(comp_id, target.number):
        raise StoreError("no attendance is marked for round %(n)s and players are absent unless marked "
                         "(default_attendance=absent)", hint="ev_mark_who_is_here", n=target.number)
    mark_attendance(store, comp_id, {})
    stored = store.attendance(comp_id, target.number)
    if marked:
        assumed = sum(1 for key in unmarked if stored[ids[key]][0] == "present")
        return Message("%(unmarked)s players not marked for round %(n)s got their default: %(present)s of them "
                       "assumed present", unmarked=len(unmarked), n=target.number, present=assumed)
    statuses = [status for status, _ in stored.values()]
    present, active = statuses.count("present"), len(statuses)
    if present == active:
        return Message("no attendance marked for round %(n)s: all %(active)s active players assumed present",
                       n=target.number, active=active)
    return Message("no attendance marked for round %(n)s: %(present)s of %(active)s active players assumed present "
                   "(the others are absent by their own default)", n=target.number, present=present, active=active)
