"""What the printed pages of a weekly competition show (the app's Print pages): the
pairing list for the notice board, result slips and score sheets per board, the
attendance sheet to sign (the standing is ``keizer standings``'s:
:func:`keizer.operations.standings.standing_view`).  Read-only; exact numbers (the app
formats them in the club's language).  The pairing list is the one the pairing page shows
(:func:`keizer.operations.rounds.pairing_list`).
"""

from __future__ import annotations

from typing import Any

from keizer import systems
from keizer.limits import name_order
from keizer.operations.rounds import pairing_list, pairings_round
from keizer.store import Store, StoreError
from keizer.systems import open_round

def require_weekly(store: Store, comp_id: int) -> str:
    """The competition's system, refused when it has no pairing list to print."""
    system = store.system(comp_id)
    if not systems.of(system).weekly:
        raise StoreError("a %(system)s competition has no pairing list: print its page from the browser instead",
                         system=systems.SYSTEM_WORDS[system])
    return system


def paired_rounds(store: Store, comp_id: int) -> list[int]:
    season = store.load_season(comp_id)
    return [r.number for r in season.rounds if r.games or r.byes]


def pairing_sheet(store: Store, comp_id: int, round_no: int | None = None) -> dict[str, Any]:
    """A round's pairing list (default: the round :func:`~keizer.operations.rounds.pairings_round` picks): ``round``,
    ``date``, ``time_control``, ``rows`` (board, white, black, result; Swiss and round-robin
    also white_no/black_no and white_points/black_points before the round; Keizer
    white_rank/black_rank and white_value/black_value), ``byes`` (names), ``not_playing``
    (text), ``numbers`` (whether rows carry pairing numbers), ``ranks`` (Keizer ranks and values)."""
    system = require_weekly(store, comp_id)
    season = store.load_season(comp_id)
    number = pairings_round(season, round_no)
    listed = pairing_list(store, comp_id, season, number)
    return {**listed, "byes": [listed["names"][p] for p in listed["byes"]], "numbers": systems.of(system).points,
            "ranks": systems.of(system).standing_kind == "ladder"}


def attendance_list(store: Store, comp_id: int, round_no: int | None = None) -> dict[str, Any]:
    """The sheet players sign at the door: every player active in the round (default: the
    one being prepared), ordered by name."""
    season = store.load_season(comp_id)
    last = max(len(season.rounds), open_round(season).number)
    number = round_no if round_no is not None else open_round(season).number
    if not 1 <= number <= last:
        raise StoreError("round %(n)s is not planned yet: the next round is %(next)s", n=number,
                         next=open_round(season).number)
    date = season.rounds[number - 1].date if number <= len(season.rounds) else None
    players = sorted((p for p in season.players if p.active_in(number)), key=lambda p: (name_order(p.name), p.start_no))
    return {"round": number, "date": date, "last": last,
            "rows": [{"start_no": p.start_no, "name": p.name, "rating": p.rating} for p in players]}
