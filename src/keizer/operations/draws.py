"""Draws that fix a whole schedule before play: who takes part, and a round-robin group's
Berger numbers and rounds.
"""

from __future__ import annotations

import os
from datetime import date, timedelta
from typing import Any, Sequence

from keizer.operations.state import require_system
from keizer.refusals import Word
from keizer.store import Store, StoreError
from keizer.systems.points import POINTS_DEFAULTS


#: What is drawn, by system: the action a refusal names, and the thing drawn.
_DRAWN = {"knockout": (Word("draw a cup"), Word("a cup")),
          "roundrobin": (Word("draw a round-robin"), Word("a round-robin"))}


def entrants_for_draw(store: Store, comp_id: int, system: str,
                      order: Sequence[str]) -> tuple[list[dict[str, Any]], list[str] | None]:
    """The players of a competition about to be drawn, and — when ``order`` is given —
    their keys in that order.  Refused once a result is in, with fewer than two
    players, or when ``order`` does not name every player exactly once."""
    action, what = _DRAWN[system]
    require_system(store, comp_id, system, action)
    season = store.load_season(comp_id)
    if any(g.result is not None for r in season.rounds for g in r.games):
        raise StoreError("results have been entered already; the draw cannot change any more")
    rows = store.players(comp_id)
    if len(rows) < 2:
        raise StoreError("%(what)s needs at least two players", hint="ev_add_players", what=what)
    if not order:
        return rows, None
    chosen = [store.find_player(comp_id, ref)["key"] for ref in order]
    if sorted(chosen) != sorted(r["key"] for r in rows):
        raise StoreError("name every player exactly once to draw by hand (%(count)s players)", count=len(rows))
    return rows, chosen


def draw_round_robin(store: Store, comp_id: int, seed: int | None = None, order: Sequence[str] = (),
                     first_date: date | None = None, every: int = 7) -> tuple[list[str], int | None]:
    """Give the players their Berger numbers (by lot, or ``order`` by hand) and
    store every round of the schedule.  Allowed until the first result is in.

    Returns the players in start-number order and the seed used for the lot.
    """
    from keizer.pairing.roundrobin import berger_schedule, draw_numbers

    rows, chosen = entrants_for_draw(store, comp_id, "roundrobin", order)
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
