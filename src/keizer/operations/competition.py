"""The weekly loop on a stored competition: attendance, pairing, results.

Each function reads what it needs from the :class:`~keizer.store.Store`, asks
the engines (scoring, pairing) for decisions, and writes the outcome back.
Callers wrap them in ``store.change(...)`` so that a command is one
transaction; every rule that can refuse raises :class:`StoreError` with a
one-line message before anything is written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from keizer import systems
from keizer.model import Result, Round, Season
from keizer.scoring import Standing, standing_after
from keizer.settings import Settings
from keizer.limits import fold_name
from keizer.store import Store, StoreError
from keizer.systems import Open, open_round
from keizer.systems.points import POINTS_DEFAULTS

if TYPE_CHECKING:
    from keizer.pairing.keizer import Pairing, PairingRequest

#: Attendance marks a user can give, and the stored status for each.
MARKS = ("present", "excused", "unexcused", "club", "external")


def require_unpaired(season: Season, target: Open) -> None:
    """Refuse to pair the open round when it is paired already (or its results are half in)."""
    if not target.paired:
        return
    rnd = season.rounds[target.number - 1]
    waiting = [str(g.board) for g in rnd.games if g.result is None]
    if waiting and len(waiting) < len(rnd.games):
        raise StoreError(f"round {target.number} still waits for results (boards {', '.join(waiting)}); "
                         "enter them with 'keizer result' before pairing the next round")
    raise StoreError(f"round {target.number} is already paired; 'keizer unpair' first, or 'keizer pair --again'")


def current_standing(season: Season, upto: int | None = None) -> Standing:
    return standing_after(season, upto)


def mark_attendance(
    store: Store,
    comp_id: int,
    marks: Mapping[str, str],
    external: Mapping[str, str] | None = None,
    withdrawn: Iterable[str] = (),
    round_no: int | None = None,
    date: str | None = None,
    force: bool = False,
) -> tuple[int, dict[str, int]]:
    """Mark players for a round; the rest of an unpaired round get their default.

    ``marks`` maps a player reference to present / excused / unexcused / club;
    ``external`` a reference to win / draw / loss.  Returns the round and how
    many players ended up with each status.
    """
    system = require_weekly(store, comp_id, "mark attendance")
    kind = systems.of(system)
    season = store.load_season(comp_id)
    settings = season.settings
    target = open_round(season)
    number = round_no if round_no is not None else target.number
    if number < 1:
        raise StoreError(f"round {number} does not exist: rounds count from 1")
    # A Swiss player may ask ahead for a bye in a later round (a requested bye, or notice of absence).
    ahead = kind.marks_ahead and number > target.number
    if number > target.number and not ahead:
        raise StoreError(f"round {number} cannot be marked yet: the next round is {target.number}")
    planned = store.system_settings(comp_id).get("rounds") if kind.planned_rounds else None
    if planned and number > planned:
        raise StoreError(f"the tournament has {planned} rounds; plan more with 'keizer swiss rounds N'")
    if ahead and (external or list(withdrawn) or any(m not in ("excused", "unexcused") for m in marks.values())):
        raise StoreError(f"round {number} is not the next round ({target.number}): only requested byes (-e) and "
                         "notice of absence (-u) can be marked ahead")
    paired = number < target.number or target.paired
    players = {r["key"]: r for r in store.players(comp_id)}
    chosen: dict[str, tuple[str, str | None]] = {}

    def claim(ref: str, status: str, result: str | None = None) -> None:
        row = store.find_player(comp_id, ref)
        if row["key"] in chosen:
            raise StoreError(f"{row['name']} is marked twice in one command; mark each player once")
        chosen[row["key"]] = (status, result)

    for ref, status in marks.items():
        if status not in MARKS[:-1]:
            raise StoreError(f"unknown attendance {status!r}: use present, excused, unexcused or club")
        if status not in kind.marks:
            raise StoreError("a Swiss tournament has no club-duty absence: mark the player excused (a half-point bye)")
        claim(ref, status)
    if external and "external" not in kind.marks:
        raise StoreError("a Swiss tournament has no external games: mark the player excused or unexcused")
    for ref, result in (external or {}).items():
        if result not in ("win", "draw", "loss"):
            raise StoreError(f"external game of {ref}: result must be win, draw or loss, not {result!r}")
        claim(ref, "external", result)
    leaving = [store.find_player(comp_id, ref) for ref in withdrawn]
    for row in leaving:
        if row["key"] in chosen:
            raise StoreError(f"{row['name']} is both marked and withdrawn; choose one")

    season_players = {p.id: p for p in season.players}
    for key, (status, _) in chosen.items():
        if not season_players[key].active_in(number):
            raise StoreError(f"{players[key]['name']} does not take part in round {number} (not joined yet, or withdrawn)")

    if date is not None and not force:
        check_round_date(season, number, date)
    for earlier in range(len(season.rounds) + 1, number):  # rounds are made in order
        store.ensure_round(comp_id, earlier)
    store.ensure_round(comp_id, number, date)
    if paired:
        in_game = _players_in_games(store, comp_id, number)
        for key, (status, _) in chosen.items():
            if players[key]["id"] in in_game:
                raise StoreError(
                    f"{players[key]['name']} has a game in round {number}; if they did not come, use 'keizer noshow' "
                    "(or 'keizer unpair' to pair the round again)")
            if status == "present":
                raise StoreError(
                    f"round {number} is already paired: {players[key]['name']} cannot be marked present now")
    for row in leaving:
        if number <= season.completed_rounds():
            raise StoreError(f"a withdrawal takes effect from the next round ({target.number}), not round {number}")
        if players[row["key"]]["id"] in _players_in_games(store, comp_id, number):
            raise StoreError(f"{row['name']} has a game in round {number}; enter the result or unpair first")
        store.update_player(row["id"], withdrawn_after=number - 1)
        for later in (n for n in store.round_numbers(comp_id) if n >= number):  # byes asked ahead lapse
            store.set_attendance(comp_id, later, row["id"], None)
        season_players[row["key"]] = replace(season_players[row["key"]], withdrawn_after=number - 1)

    existing = store.attendance(comp_id, number)
    from keizer.operations.notices import absence_marks  # a member's notice for the round's date beats the default

    noticed = absence_marks(store, comp_id, number) if not paired and not ahead else {}
    for key, player in season_players.items():
        row = players[key]
        if key in chosen:
            store.set_attendance(comp_id, number, row["id"], *chosen[key])
        elif not paired and not ahead and player.active_in(number) and row["id"] not in existing:
            default = row["default_attendance"] or ("present" if system == "swiss" else settings.default_attendance)
            store.set_attendance(comp_id, number, row["id"],
                                 noticed.get(row["id"]) or ("present" if default == "present" else "unexcused"))
    counts: dict[str, int] = {}
    for status, _ in store.attendance(comp_id, number).values():
        counts[status] = counts.get(status, 0) + 1
    return number, counts


def check_joined(store: Store, comp_id: int, player: Mapping[str, Any], joined: int) -> None:
    """Refuse a first round that would rewrite a played or paired round: one that erases
    what the player did before it, or that makes rounds played without them count as
    absences; and any change after the player's withdrawal.  The open round, while
    unpaired, is still being prepared: the player's mark there simply goes."""
    name = player["name"]
    if player["withdrawn_after"] is not None:
        raise StoreError(f"{name} withdrew after round {player['withdrawn_after']}; the first round cannot change "
                         "now ('keizer player reinstate' first)")
    target = open_round(store.load_season(comp_id))
    fixed = target.number if target.paired else target.number - 1  # rounds 1…fixed are paired or played
    if joined < player["joined"] and joined <= fixed:
        raise StoreError(f"round {joined} has been {'paired' if joined == target.number else 'played'} without "
                         f"{name}; a first round of {joined} would count it as an absence (keep {player['joined']})")
    for number in range(1, min(joined - 1, fixed) + 1):
        if player["id"] in _players_in_games(store, comp_id, number):
            raise StoreError(f"{name} has a game in round {number}; a first round of {joined} would erase it "
                             "(leave the first round as it is)")
        mark = store.attendance(comp_id, number).get(player["id"])
        if mark is not None:
            what = "a bye" if mark[0] == "bye" else f"attendance ({mark[0]})"
            raise StoreError(f"{name} has {what} in round {number}; a first round of {joined} would erase it "
                             "(leave the first round as it is)")
    if not target.paired and joined > target.number and target.exists:
        store.set_attendance(comp_id, target.number, player["id"], None)


def check_entry(store: Store, comp_id: int, joined: int) -> None:
    """A new player of a weekly competition joins the round being prepared or a later one."""
    if store.system(comp_id) not in ("keizer", "swiss"):
        return
    target = open_round(store.load_season(comp_id))
    if joined < target.number:
        raise StoreError(f"round {joined} has been played; a new player joins from round {target.number} on")


def reinstate(store: Store, comp_id: int, ref: str, missed: str = "unexcused") -> tuple[dict[str, Any], list[int]]:
    """Undo a player's withdrawal.  Rounds played since then are marked ``missed``
    (unexcused or excused), as for anyone who did not come; returns the player and them."""
    require_weekly(store, comp_id, "reinstate a player")
    if missed not in ("unexcused", "excused"):
        raise StoreError(f"missed rounds count as unexcused or excused, not {missed!r}")
    row = store.find_player(comp_id, ref)
    last = row["withdrawn_after"]
    if last is None:
        raise StoreError(f"{row['name']} has not withdrawn")
    target = open_round(store.load_season(comp_id))
    gone = [n for n in store.round_numbers(comp_id) if n > last and (n < target.number or target.paired)]
    store.update_player(row["id"], withdrawn_after=None)
    for number in gone:
        store.set_attendance(comp_id, number, row["id"], missed)
    if target.exists and not target.paired and store.attendance(comp_id, target.number):
        default = row["default_attendance"] or ("present" if systems.of(store.system(comp_id)).unmarked_present
                                                else store.settings(comp_id).default_attendance)
        store.set_attendance(comp_id, target.number, row["id"], "present" if default == "present" else "unexcused")
    return row, gone


def final_ranking(store: Store, comp_id: int) -> list[int]:
    """Member ids in the order of a competition's last standing (Keizer or points)."""
    season = store.load_season(comp_id)
    system = store.system(comp_id)
    if system == "keizer":
        keys = [e.player for e in current_standing(season).entries]
    elif systems.of(system).points:
        from keizer.points import points_standing

        rules = systems.stored_points_rules(store, comp_id)
        keys = [e.player for e in points_standing(season, rules.tiebreaks, rules.edition, None, rules.lots,
                                                  system=rules.system, scoring=rules.scoring)]
    else:
        raise StoreError(f"a {system} competition has no standing to start from; choose a Keizer, Swiss or "
                         "round-robin competition")
    member = {r["key"]: r["member_id"] for r in store.players(comp_id)}
    return [member[k] for k in keys]


def initial_order_rows(store: Store, comp_id: int) -> tuple[list[dict[str, Any]], str]:
    """The ranking that prices round 1, and how it was set (and whether it is frozen)."""
    from keizer.scoring import initial_order

    require_system(store, comp_id, "keizer", "show an initial order")
    season = store.load_season(comp_id)
    rows = {r["key"]: r for r in store.players(comp_id)}
    placed = set(store.placed_order(comp_id))
    frozen = set(season.initial_order) if store.started(comp_id) else set(rows)

    def how(key: str) -> str:
        return "set" if key in placed else "rating" if key in frozen else "entered later"

    order = [{"position": k, "start_no": rows[key]["start_no"], "name": rows[key]["name"],
              "rating": rows[key]["rating"], "placed": how(key)}
             for k, key in enumerate(initial_order(season), 1)]
    how = store.system_settings(comp_id).get("initial_order", "by rating")
    state = "frozen: round 1 has been paired" if store.started(comp_id) else "can change until round 1 is paired"
    return order, f"initial order {how} ({state})"


def set_initial_order(store: Store, comp_id: int, by: str, refs: Sequence[str] = (), source: str | None = None) -> str:
    """Set the ranking that prices round 1: ``rating``, ``standing`` (of competition
    ``source``, e.g. last season's) or ``hand`` (``refs`` first, in that order).
    Players not placed follow by rating.  Refused once round 1 is paired."""
    require_system(store, comp_id, "keizer", "set an initial order")
    if store.started(comp_id):
        raise StoreError("the initial order is frozen: round 1 has been paired (undo or unpair it first)")
    rows = store.players(comp_id)
    if by == "rating":
        keys: list[str] = []
        how = "by rating"
    elif by == "standing":
        if source is None:
            raise StoreError("give the competition whose standing to start from: --from NAME")
        other = store.competition(source)
        if other["id"] == comp_id:
            raise StoreError("a competition cannot start from its own standing; name last season's")
        place = {m: k for k, m in enumerate(final_ranking(store, other["id"]))}
        keys = [r["key"] for r in sorted((r for r in rows if r["member_id"] in place),
                                         key=lambda r: place[r["member_id"]])]
        how = f"by the standing of {other['name']}"
    elif by == "hand":
        if not refs:
            raise StoreError("name the players in order: keizer competition order P1 P2 …")
        keys = []
        for ref in refs:
            row = store.find_player(comp_id, ref)
            if row["key"] in keys:
                raise StoreError(f"{row['name']} is listed twice; list each player once")
            keys.append(row["key"])
        how = "by hand"
    else:
        raise StoreError(f"unknown order {by!r}: rating, standing or hand")
    store.set_initial_order(comp_id, keys)
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "initial_order": how})
    return how


def check_round_date(season: Season, number: int, when: str) -> None:
    """Refuse a date that puts round ``number`` before an earlier round or after a later one."""
    for rnd in season.rounds:
        if rnd.date is None or rnd.number == number:
            continue
        if (rnd.number < number and rnd.date > when) or (rnd.number > number and rnd.date < when):
            raise StoreError(f"round {number} on {when} would come {'before' if rnd.number < number else 'after'} "
                             f"round {rnd.number} ({rnd.date}); check the date, or give --force if it is right")


def prepare_attendance(store: Store, comp_id: int) -> str | None:
    """Before pairing: an open round nobody marked gets each player's default attendance.

    When the competition's default is ``absent`` that would pair nobody, so it is refused:
    the officer forgot to mark the evening.  Otherwise the returned line says how many
    players were assumed present (``None`` when attendance had been marked).
    """
    season = store.load_season(comp_id)
    target = open_round(season)
    if target.exists and store.attendance(comp_id, target.number):
        return None
    if season.settings.default_attendance != "present":
        raise StoreError(f"no attendance is marked for round {target.number} and players are absent unless marked "
                         "(default_attendance=absent); mark who is here with 'keizer attend -p NAME …' first")
    mark_attendance(store, comp_id, {})
    statuses = [status for status, _ in store.attendance(comp_id, target.number).values()]
    present, active = statuses.count("present"), len(statuses)
    if present == active:
        return f"no attendance marked for round {target.number}: all {active} active players assumed present"
    return (f"no attendance marked for round {target.number}: {present} of {active} active players assumed present "
            f"(the others are absent by their own default)")


def _players_in_games(store: Store, comp_id: int, number: int) -> set[int]:
    found = set()
    for g in store.games(comp_id, number):
        found.add(g["white"])
        found.add(g["black"])
    return found


def pairing_request(
    store: Store,
    comp_id: int,
    fixed: Iterable[tuple[str, str]] = (),
    bye: str | None = None,
) -> PairingRequest:
    """What the pairing engine needs for the open round, once its attendance is marked."""
    season = store.load_season(comp_id)
    target = open_round(season)
    require_unpaired(season, target)
    rnd = season.rounds[target.number - 1]  # its attendance is marked (prepare_attendance)
    if len(rnd.present) < 2:
        raise StoreError(
            f"fewer than two players are present for round {target.number}; mark players present with 'keizer attend'")
    return _request(store, comp_id, season, target.number, rnd.present, fixed, bye)


def _request(store: Store, comp_id: int, season: Season, number: int, pool: Iterable[str],
             fixed: Iterable[tuple[str, str]] = (), bye: str | None = None) -> PairingRequest:
    """The pairing engine's question: pair ``pool`` in round ``number``, ranked by the standing before it."""
    from keizer.pairing.keizer import PairingRequest

    standing = current_standing(season, number - 1)
    order = {e.player: k for k, e in enumerate(standing.entries)}
    ranking = tuple(sorted(pool, key=lambda p: (order.get(p, len(order)), p)))
    present = set(ranking)
    history = tuple(g for r in season.rounds[: number - 1] for g in r.games)
    byes: dict[str, int] = {}
    for r in season.rounds[: number - 1]:
        for p in r.byes:
            byes[p] = byes.get(p, 0) + 1

    def key_of(ref: str) -> str:
        return store.find_player(comp_id, ref)["key"]

    categories = {p.id: p.category for p in season.players if p.category}
    return PairingRequest(
        round=number,
        ranking=ranking,
        history=history,
        byes=byes,
        settings=season.settings,
        categories=categories,
        category_order=tuple(sorted(set(categories.values()))),
        fixed=tuple((key_of(a), key_of(b)) for a, b in fixed),
        forbidden=tuple((a, b) for a, b in store.forbidden_pairs(comp_id) if a in present and b in present),
        bye=key_of(bye) if bye else None,
        names={p.id: p.name for p in season.players},
        places={e.player: e.rank for e in standing.entries},
    )


def make_pairing(store: Store, comp_id: int, fixed: Iterable[tuple[str, str]] = (),
                 bye: str | None = None, keep: Iterable[int] = (), again: bool = False,
                 tell: Callable[[str], None] | None = None) -> Pairing:
    """Pair the open round and store it.  ``again`` re-pairs an unplayed pairing,
    keeping the boards in ``keep`` as they are.  ``tell`` hears what was assumed
    (attendance nobody marked)."""
    from keizer.pairing.keizer import PairingError, pair_round

    fixed, keep = list(fixed), set(keep)
    if require_weekly(store, comp_id, "pair a round") == "swiss":
        if fixed or bye is not None or keep:
            raise StoreError("a Swiss round follows the Dutch rules: pair it, then move players with 'keizer swap'")
    if again:
        season = store.load_season(comp_id)
        target = open_round(season)
        if not target.paired:
            raise StoreError(f"round {target.number} has not been paired yet; use 'keizer pair'")
        rnd = season.rounds[target.number - 1]
        boards = {g.board for g in rnd.games}
        missing = keep - boards
        if missing:
            raise StoreError(f"round {target.number} has no board {min(missing)}")
        for g in rnd.games:
            if g.result is not None:
                raise StoreError(
                    f"board {g.board} of round {target.number} has a result already; clear it before re-pairing "
                    f"('keizer result {g.board}=clear')")
            if g.board in keep:
                fixed.append((g.white, g.black))
        unpair(store, comp_id)
    elif store.system(comp_id) == "keizer":  # a Swiss pairs everyone not marked absent
        note = prepare_attendance(store, comp_id)
        if note and tell:
            tell(note)
    if store.system(comp_id) == "swiss":
        from keizer.operations.swiss import pair_next

        return pair_next(store, comp_id)
    request = pairing_request(store, comp_id, fixed, bye)
    try:
        pairing = pair_round(request)
    except PairingError as e:
        raise StoreError(str(e)) from None
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    for b in pairing.boards:
        store.add_game(comp_id, request.round, b.board, ids[b.white], ids[b.black])
    if pairing.bye is not None:
        store.set_attendance(comp_id, request.round, ids[pairing.bye], "bye")
    return pairing


def unpair(store: Store, comp_id: int) -> int:
    """Remove the open round's pairing (games without results); returns the round."""
    require_weekly(store, comp_id, "remove a pairing")
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError(f"round {target.number} has no pairing to remove")
    rnd = season.rounds[target.number - 1]
    if any(g.result is not None for g in rnd.games):
        raise StoreError(f"round {target.number} has results already; correct them with 'keizer result' instead")
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    store.delete_games(comp_id, target.number)
    store.unfreeze(comp_id)  # round 1 unpaired: ratings and the initial order may change again
    for g in rnd.games:
        store.set_attendance(comp_id, target.number, ids[g.white], "present")
        store.set_attendance(comp_id, target.number, ids[g.black], "present")
    for p in rnd.byes:
        store.set_attendance(comp_id, target.number, ids[p], "present")
    return target.number


@dataclass(frozen=True)
class Change:
    """What a change to a paired round did, for the officer."""

    round: int
    said: str
    warnings: tuple[str, ...] = ()


def _paired_round(store: Store, comp_id: int, action: str, system: str = "keizer") -> tuple[Season, Round]:
    """The open round of a Keizer competition (or ``system``), refused until it is paired."""
    require_system(store, comp_id, system, action)
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError(f"round {target.number} is not paired yet: mark attendance with 'keizer attend' and pair it")
    return season, season.rounds[target.number - 1]


def _pair_two(store: Store, comp_id: int, season: Season, number: int, a: str, b: str,
              board: int) -> tuple[str, str, tuple[str, ...]]:
    """Store a game between a and b, colours by the pairing rules; returns White, Black and any rule bent."""
    from keizer.pairing.keizer import pair_round

    pairing = pair_round(_request(store, comp_id, season, number, (a, b)))
    white, black = pairing.boards[0].white, pairing.boards[0].black
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    store.add_game(comp_id, number, board, ids[white], ids[black])
    for key in (a, b):
        store.set_attendance(comp_id, number, ids[key], "present")
    return white, black, pairing.bent


def add_latecomer(store: Store, comp_id: int, ref: str) -> Change:
    """A player who arrives after the pairing: they play whoever had the bye (on a new
    last board), or, when nobody had it, they take the bye.  Every board stays as it was.
    (A Swiss: :func:`keizer.operations.swiss.latecomer`.)"""
    swiss = store.system(comp_id) == "swiss"
    season, rnd = _paired_round(store, comp_id, "add a latecomer", "swiss" if swiss else "keizer")
    row = store.find_player(comp_id, ref)
    key, name = row["key"], row["name"]
    if any(key in (g.white, g.black) for g in rnd.games) or key in rnd.byes:
        raise StoreError(f"{name} is already paired in round {rnd.number}")
    if not season.player(key).active_in(rnd.number):
        raise StoreError(f"{name} does not take part in round {rnd.number} (not joined yet, or withdrawn)")
    if swiss:
        from keizer.operations import swiss as swiss_ops

        return swiss_ops.latecomer(store, comp_id, season, rnd, key, name)
    names = {p.id: p.name for p in season.players}
    if rnd.byes:
        other = rnd.byes[0]
        board = max((g.board for g in rnd.games), default=0) + 1
        white, black, bent = _pair_two(store, comp_id, season, rnd.number, other, key, board)
        return Change(rnd.number, f"{name} plays {names[other]} (who had the bye) on board {board}: "
                                  f"{names[white]} has White", bent)
    store.set_attendance(comp_id, rnd.number, row["id"], "bye")
    return Change(rnd.number, f"{name} gets the bye: every other player has an opponent")


def remove_noshow(store: Store, comp_id: int, ref: str, why: str = "unexcused") -> Change:
    """A paired player who does not come: they are marked absent (``why``); their
    opponent plays whoever had the bye (on the same board), or takes the bye."""
    if why not in ("unexcused", "excused"):
        raise StoreError(f"a no-show is unexcused or excused, not {why!r}")
    swiss = store.system(comp_id) == "swiss"
    season, rnd = _paired_round(store, comp_id, "remove a no-show", "swiss" if swiss else "keizer")
    row = store.find_player(comp_id, ref)
    if swiss:  # a forfeit
        from keizer.operations import swiss as swiss_ops

        return swiss_ops.noshow(store, comp_id, season, rnd, row)
    key, name = row["key"], row["name"]
    names = {p.id: p.name for p in season.players}
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    if key in rnd.byes:
        store.set_attendance(comp_id, rnd.number, row["id"], why)
        return Change(rnd.number, f"{name} is marked {why}; nobody has the bye now")
    game = next((g for g in rnd.games if key in (g.white, g.black)), None)
    if game is None:
        raise StoreError(f"{name} is not paired in round {rnd.number}")
    if game.result is not None:
        raise StoreError(f"board {game.board} has a result already; clear it first ('keizer result {game.board}=clear') "
                         f"or enter a forfeit ('keizer result {game.board}=+-' or '-+')")
    opponent = game.black if game.white == key else game.white
    store.delete_games(comp_id, rnd.number, [game.board])
    store.set_attendance(comp_id, rnd.number, row["id"], why)
    if rnd.byes:
        other = rnd.byes[0]
        white, black, bent = _pair_two(store, comp_id, season, rnd.number, opponent, other, game.board)
        return Change(rnd.number, f"{name} is marked {why}; {names[opponent]} plays {names[other]} (who had the bye) "
                                  f"on board {game.board}: {names[white]} has White", bent)
    store.set_attendance(comp_id, rnd.number, ids[opponent], "bye")
    return Change(rnd.number, f"{name} is marked {why}; {names[opponent]} gets the bye (board {game.board} is empty)")


def swap_players(store: Store, comp_id: int, a_ref: str, b_ref: str) -> tuple[int, list[str]]:
    """Exchange two players in the open round's pairing (one may hold the bye).

    Returns the round and warnings: pairs that met before or are forbidden (the
    arbiter's decision stands; the warning says what it costs)."""
    require_weekly(store, comp_id, "move players")
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError(f"round {target.number} has not been paired yet")
    rnd = season.rounds[target.number - 1]
    a = store.find_player(comp_id, a_ref)
    b = store.find_player(comp_id, b_ref)
    if a["key"] == b["key"]:
        raise StoreError("name two different players to swap")
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    where: dict[str, Any] = {}
    for g in rnd.games:
        if g.result is not None and {a["key"], b["key"]} & {g.white, g.black}:
            raise StoreError(f"board {g.board} has a result already; clear it first ('keizer result {g.board}=clear')")
        for side in ("white", "black"):
            where[getattr(g, side)] = (g, side)
    for p in (a, b):
        if p["key"] not in where and p["key"] not in rnd.byes:
            raise StoreError(f"{p['name']} is not in the pairing of round {target.number}")
    swap = {a["key"]: b["key"], b["key"]: a["key"]}
    for g in rnd.games:
        white, black = swap.get(g.white, g.white), swap.get(g.black, g.black)
        if (white, black) != (g.white, g.black):
            if white == black:
                raise StoreError("those two play each other already")
            store.update_game(comp_id, target.number, g.board, ids[white], ids[black])
    for pid in rnd.byes:
        if pid in swap:
            store.set_attendance(comp_id, target.number, ids[pid], "present")
            store.set_attendance(comp_id, target.number, ids[swap[pid]], "bye")
    met = {frozenset((g.white, g.black)): r.number for r in season.rounds[:target.number - 1] for g in r.games
           if g.played_on_board}
    forbidden = {frozenset(pair) for pair in store.forbidden_pairs(comp_id)}
    names = {p.id: p.name for p in season.players}
    warnings = []
    for g in rnd.games:
        white, black = swap.get(g.white, g.white), swap.get(g.black, g.black)
        pair = frozenset((white, black))
        if (white, black) == (g.white, g.black):
            continue
        if pair in met:
            warnings.append(f"{names[white]} and {names[black]} met in round {met[pair]} already")
        if pair in forbidden:
            warnings.append(f"{names[white]} and {names[black]} are a forbidden pair ('keizer forbid')")
    if store.system(comp_id) == "swiss":
        warnings += _swiss_swap_warnings(store, comp_id, season, target.number, swap, names)
    return target.number, warnings


def _swiss_swap_warnings(store: Store, comp_id: int, season: Season, number: int, swap: Mapping[str, str],
                         names: Mapping[str, str]) -> list[str]:
    """What a hand-made change costs under the Dutch rules' absolute criteria (C.2, C.3)."""
    from keizer.model import Colour
    from keizer.pairing.swiss import dutch_inputs
    from keizer.points import tournament

    rules = systems.stored_points_rules(store, comp_id)
    data = dutch_inputs(tournament(season, number - 1, rules.system, rules.scoring), number - 1)
    tpn = {p.id: p.start_no for p in season.players}
    rnd = season.rounds[number - 1]
    warnings = []
    for p in rnd.byes:
        holder = swap.get(p, p)
        if holder != p and not data[tpn[holder]].bye_eligible:
            warnings.append(f"{names[holder]} had a pairing-allocated bye or a win without playing already")
    for g in rnd.games:
        for player, colour in ((swap.get(g.white, g.white), Colour.WHITE), (swap.get(g.black, g.black), Colour.BLACK)):
            if player == (g.white if colour is Colour.WHITE else g.black):
                continue
            history = data[tpn[player]].colours + (colour,)
            whites = sum(c is Colour.WHITE for c in history)
            if len(history) >= 3 and history[-1] is history[-2] is history[-3]:
                warnings.append(f"{names[player]} gets {colour.value} a third time in a row")
            elif abs(2 * whites - len(history)) > 2:
                warnings.append(f"{names[player]} gets a colour difference beyond 2")
    return warnings


def enter_results(store: Store, comp_id: int, results: Mapping[int, str],
                  round_no: int | None = None, correct: bool = False) -> int:
    """Record results by board.  Without ``correct`` a board that already has a
    result is refused; with it, an earlier round's result may be changed."""
    season = store.load_season(comp_id)
    target = open_round(season)
    number = round_no if round_no is not None else target.number
    if not 1 <= number <= len(season.rounds) or not season.rounds[number - 1].games:
        done = season.completed_rounds()
        if round_no is None and done and number == done + 1:
            raise StoreError(f"round {number} has no pairing yet and round {done} is complete; to change a result "
                             f"there, use --round {done} --correct")
        raise StoreError(f"round {number} has no pairing; pair it with 'keizer pair' first")
    games = {g.board: g for g in season.rounds[number - 1].games}
    for board, text in results.items():
        if board not in games:
            raise StoreError(f"round {number} has no board {board} (boards 1–{max(games)})")
        if text.strip().lower() == "clear":  # back to no result, e.g. before re-pairing
            if games[board].result is None:
                raise StoreError(f"board {board} of round {number} has no result to clear")
            store.set_result(comp_id, number, board, None)
            continue
        try:
            result = Result.parse(text)
        except ValueError as e:
            raise StoreError(f"board {board}: {e}") from None
        earlier = games[board].result
        if earlier is not None and not correct:
            raise StoreError(
                f"board {board} of round {number} already has {earlier.value}; use --correct to change it")
        store.set_result(comp_id, number, board, result.value)
    _check_knockout(store, comp_id, number)
    return number


def _check_knockout(store: Store, comp_id: int, number: int) -> None:
    """A knock-out stores tie-break stages and next-round matches from earlier results;
    a correction that no longer fits them is refused (inside the transaction)."""
    system = store.system(comp_id)
    check: Callable[[], object]
    if system == "team":
        from keizer.operations.teamevent import knockout_states, load_event
        from keizer.systems.team import stored_rules

        if stored_rules(store, comp_id).schedule != "knockout":
            return
        check = lambda: knockout_states(load_event(store, comp_id))  # noqa: E731
        undo = "'keizer undo' back to before 'keizer team next'"
    elif system == "knockout":
        from keizer.operations.cup import cup_state

        check = lambda: cup_state(store, comp_id)  # noqa: E731
        undo = "'keizer undo' back to before 'keizer knockout next'"
    else:
        return
    try:
        check()
    except (StoreError, ValueError):
        raise StoreError(f"this result changes a match of round {number} whose tie-break stage or next match is "
                         f"stored already; {undo} first") from None


class MemberFinder:
    """Which club member each player of an imported file is.  The members are read once
    and indexed, and members the import adds join the index, so each player is a
    dictionary look-up: an import stays linear in the size of the file."""

    def __init__(self, store: Store, tell: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.tell = tell or (lambda line: None)
        self.exact: dict[tuple[str, int | None], list[int]] = {}
        self.folded: dict[str, list[int]] = {}
        for m in store.members():
            self._index(m["id"], m["name"], m["rating"])
        self.taken: set[int] = set()

    def _index(self, member: int, name: str, rating: int | None) -> None:
        self.exact.setdefault((name, rating), []).append(member)
        self.folded.setdefault(fold_name(name), []).append(member)

    def __call__(self, name: str, rating: int | None) -> int:
        """The member with this name and rating; else the one member with this name
        (case, accents and spaces aside: a rating list may have changed the rating since),
        else a new member.  A name that fits several members is refused: a guess could
        give one person's games to another."""
        free = [m for m in self.exact.get((name.strip(), rating), []) if m not in self.taken]
        if len(free) != 1:
            free = [m for m in self.folded.get(fold_name(name), []) if m not in self.taken]
            if len(free) > 1:
                raise StoreError(f"{name!r} in the file fits {len(free)} members (ids "
                                 f"{', '.join(map(str, free))}); give them distinct names with 'keizer member edit' "
                                 "and import again")
        if free:
            member = free[0]
        else:
            member = self.store.add_member(name, rating)
            stored = self.store.member(member)
            self._index(member, stored["name"], stored["rating"])
            self.tell(f"new member: {stored['name']}" + (f" (rating {rating})" if rating is not None else ""))
        self.taken.add(member)
        return member


def import_season(store: Store, season: Season, name: str | None = None, preset: str = "classic",
                  system: str = "keizer", system_settings: Mapping[str, Any] | None = None,
                  tell: Callable[[str], None] | None = None, rating_list: str | None = None) -> int:
    """Store a parsed season as a new competition.  Its players become the club's members
    of the same name (``tell`` hears of each member it adds), and keep the ratings the file
    gives them: those ordered its standings, whatever the members' ratings are today.
    ``rating_list`` (national or fide) is the list that ordered it, set before play is frozen."""
    comp_name = name or season.name
    overrides = season.settings.differences(Settings.from_preset(preset))
    comp_id = store.create_competition(comp_name, preset, {k: v[0] for k, v in overrides.items()}
                                       | ({"rating_list": rating_list} if rating_list else {}),
                                       system, system_settings)
    ids: dict[str, int] = {}
    member_for = MemberFinder(store, tell)
    for start_no, p in enumerate(sorted(season.players, key=lambda p: p.start_no), 1):
        member = member_for(p.name, p.rating)
        store.register(comp_id, member, p.joined, p.category, key=p.id, start_no=start_no)
        row = store.find_player(comp_id, p.id)
        if p.withdrawn_after is not None:
            store.update_player(row["id"], withdrawn_after=p.withdrawn_after)
        ids[p.id] = row["id"]
    if season.initial_order:
        store.set_initial_order(comp_id, list(season.initial_order))
    if any(r.games for r in season.rounds):
        store.start(comp_id, {ids[p.id]: p.rating for p in season.players})
    for rnd in season.rounds:
        store.ensure_round(comp_id, rnd.number, rnd.date)
        store.set_round_time_control(comp_id, rnd.number, rnd.time_control)
        marks: dict[int, tuple[str, str | None]] = {}  # a later mark of a player wins, as before
        for g in rnd.games:
            store.add_game(comp_id, rnd.number, g.board, ids[g.white], ids[g.black],
                           g.result.value if g.result else None)
            for pid in (g.white, g.black):
                marks[ids[pid]] = ("present", None)
        for pid, why in rnd.absent.items():
            marks[ids[pid]] = (why.value, None)
        for pid, ext in rnd.external.items():
            marks[ids[pid]] = ("external", ext.value)
        for pid in rnd.present:
            marks[ids[pid]] = ("present", None)
        store.set_round_attendance(comp_id, rnd.number, marks)
    return comp_id




def require_weekly(store: Store, comp_id: int, action: str) -> str:
    """The system of a competition paired round by round from attendance (Keizer or Swiss)."""
    system = store.system(comp_id)
    if not systems.of(system).from_attendance:
        require_system(store, comp_id, "keizer", action)
    return system


def require_system(store: Store, comp_id: int, system: str, action: str) -> None:
    actual = store.system(comp_id)
    if actual != system:
        hint = {"roundrobin": "its pairings come from the Berger table: use 'keizer roundrobin draw'",
                "swiss": "a Swiss tournament is paired round by round with 'keizer pair'",
                "knockout": "a cup is drawn with 'keizer knockout draw'",
                "team": "a team event is scheduled with 'keizer team schedule'",
                "keizer": "it is a Keizer competition"}[actual]
        raise StoreError(f"cannot {action} in this {actual} competition: {hint}")


def entrants_for_draw(store: Store, comp_id: int, system: str, what: str,
                      order: Sequence[str]) -> tuple[list[dict[str, Any]], list[str] | None]:
    """The players of a competition about to be drawn, and — when ``order`` is given —
    their keys in that order.  Refused once a result is in, with fewer than two
    players, or when ``order`` does not name every player exactly once."""
    require_system(store, comp_id, system, f"draw {what}")
    season = store.load_season(comp_id)
    if any(g.result is not None for r in season.rounds for g in r.games):
        raise StoreError("results have been entered already; the draw cannot change any more")
    rows = store.players(comp_id)
    if len(rows) < 2:
        raise StoreError(f"{what} needs at least two players; add them with 'keizer player add'")
    if not order:
        return rows, None
    chosen = [store.find_player(comp_id, ref)["key"] for ref in order]
    if sorted(chosen) != sorted(r["key"] for r in rows):
        raise StoreError(f"name every player exactly once to draw by hand ({len(rows)} players)")
    return rows, chosen


def draw_round_robin(store: Store, comp_id: int, seed: int | None = None, order: Sequence[str] = (),
                     first_date: date | None = None, every: int = 7) -> tuple[list[str], int | None]:
    """Give the players their Berger numbers (by lot, or ``order`` by hand) and
    store every round of the schedule.  Allowed until the first result is in.

    Returns the players in start-number order and the seed used for the lot.
    """
    from keizer.pairing.roundrobin import berger_schedule, draw_numbers

    rows, chosen = entrants_for_draw(store, comp_id, "roundrobin", "a round-robin", order)
    settings = {**POINTS_DEFAULTS, **store.system_settings(comp_id)}
    if chosen is not None:
        numbered, seed = chosen, None
    else:
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        # The lot needs a fixed input order: registration (start numbers change with each draw).
        registered = sorted(rows, key=lambda r: r["id"])
        numbered = list(draw_numbers([r["key"] for r in registered], seed))
    ids = {r["key"]: r["id"] for r in rows}
    for number in reversed(store.round_numbers(comp_id)):
        store.delete_round(comp_id, number)
    for start_no, key in enumerate(numbered, 1):
        store.update_player(ids[key], start_no=start_no)
    schedule = berger_schedule(len(numbered), settings["double"], settings["swap_last_two"])
    for rnd in schedule:
        when = (first_date + timedelta(days=every * (rnd.round - 1))).isoformat() if first_date else None
        store.ensure_round(comp_id, rnd.round, when)
        board = 0
        for white, black in rnd.pairs:
            if black == 0:
                store.set_attendance(comp_id, rnd.round, ids[numbered[white - 1]], "bye")
                continue
            board += 1
            store.add_game(comp_id, rnd.round, board, ids[numbered[white - 1]], ids[numbered[black - 1]])
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "seed": seed})
    return numbered, seed


# -- the settings of the other systems -----------------------------------------------


def system_settings_view(store: Store, comp_id: int) -> dict[str, Any]:
    """The effective settings of a competition that is not Keizer, for showing."""
    return systems.of(store.system(comp_id)).view(store.system_settings(comp_id))


def change_system_settings(store: Store, comp_id: int, overrides: Mapping[str, str]) -> None:
    """Change settings of a competition that is not Keizer; every value is checked
    before anything is written."""
    system = systems.of(store.system(comp_id))
    overrides = dict(overrides)
    if "rating_list" in overrides:  # a column of its own: every system has one
        store.set_rating_list(comp_id, overrides.pop("rating_list"))
    stored = store.system_settings(comp_id)
    allowed = system.changeable(stored)
    for name in overrides:
        if name not in allowed:
            known = ", ".join(allowed) or "none (a knock-out's stages are fixed when it is created)"
            raise StoreError(f"{name!r} is not a setting of a {system.name} competition (settings: {known})")
    season = store.load_season(comp_id)
    paired = sum(1 for r in season.rounds if r.games or r.byes)
    changed = dict(stored)
    for name, text in overrides.items():
        changed = system.change(changed, name, text, paired)
    system.check(changed)
    store.set_system_settings(comp_id, changed)
