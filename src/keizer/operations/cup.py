"""Knock-out cups in the season database: the draw, the games of each match, advancing.

A cup is a competition of system ``knockout``.  Its settings hold the match
format (``stages``: regular games, then rapid, blitz, armageddon tie-breaks)
and, once drawn, the entrants in seed order.  Each match of the bracket is a
set of games in the ``games`` table with ``match`` = the slot's index and
``stage`` = the stage kind; round r of the database is round r of the bracket.
The bracket engine (:mod:`keizer.pairing.knockout`) decides every match from
its games; this module only stores and reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from keizer.model import Game, Season
from keizer.operations.draws import entrants_for_draw
from keizer.refusals import Message, Words
from keizer.store import Store, StoreError
from keizer.systems.knockout import match_format

if TYPE_CHECKING:
    from keizer.pairing.knockout import Bracket, MatchState

def draw_cup(store: Store, comp_id: int, order: Sequence[str] = ()) -> list[str]:
    """Seed the entrants — by rating, or ``order`` by hand (seed 1 first) — and
    store the first round's games.  Allowed until the first result."""
    from keizer.pairing.knockout import make_bracket, seed_by_rating

    rows, chosen = entrants_for_draw(store, comp_id, "knockout", order)
    if chosen is not None:
        seeds = chosen
    else:
        seeds = list(seed_by_rating([r["key"] for r in rows],
                                    {r["key"]: r["rating"] for r in rows if r["rating"] is not None}))
    settings = store.system_settings(comp_id)
    for number in reversed(store.round_numbers(comp_id)):
        store.delete_round(comp_id, number)
    store.set_system_settings(comp_id, {**settings, "seeds": seeds, "awarded": {}})
    make_bracket(seeds, match_format(settings))  # checks the entrants
    advance(store, comp_id)
    return seeds


def cup_state(store: Store, comp_id: int) -> tuple[Bracket, tuple[MatchState, ...], Season]:
    """The bracket and every match's state from the stored games and awards."""
    from keizer.pairing.knockout import MatchGame, MatchRecord, bracket_state, make_bracket

    settings = store.system_settings(comp_id)
    if not settings.get("seeds"):
        raise StoreError("the cup has not been drawn yet", hint="ev_draw_cup")
    fmt = match_format(settings)
    bracket = make_bracket(settings["seeds"], fmt)
    season = store.load_season(comp_id)
    records: dict[tuple[int, int], MatchRecord] = {}
    stage_order = [s.kind.value for s in fmt.stages]
    for rnd in season.rounds:
        by_match: dict[int, list[Game]] = {}
        for g in rnd.games:
            assert g.match is not None  # every game of a cup is stored with its match
            by_match.setdefault(g.match, []).append(g)
        for match, games in by_match.items():
            stages: list[tuple[MatchGame, ...]] = []
            for k, kind in enumerate(stage_order):
                played = tuple(MatchGame(g.white, g.result) for g in games
                               if g.stage == f"{kind}:{k}" and g.result is not None)
                if not played:
                    break
                stages.append(played)
            records[(rnd.number, match)] = MatchRecord(tuple(stages))
    for key, winner in settings.get("awarded", {}).items():
        r, k = (int(x) for x in key.split(":"))
        records[(r, k)] = MatchRecord(records.get((r, k), MatchRecord()).stages, winner)
    states = bracket_state(bracket, records)
    undo = "ev_undo_knockout_next"
    for m in states:  # stored games the bracket no longer calls for (an earlier result was corrected)
        games = [g for rnd in season.rounds if rnd.number == m.round for g in rnd.games if g.match == m.index]
        record = records.get((m.round, m.index), MatchRecord())
        if m.winner is not None and record.awarded_to is None and len({g.stage for g in games}) > max(
                len(record.stages), 1):
            raise StoreError("round %(n)s match %(match)s is decided before its stored tie-break games", hint=undo,
                             n=m.round, match=m.index)
        if any({g.white, g.black} - {m.top, m.bottom} for g in games):
            raise StoreError("round %(n)s match %(match)s was stored for players the bracket no longer has there",
                             hint=undo, n=m.round, match=m.index)
    return bracket, states, season


def advance(store: Store, comp_id: int) -> list[Message]:
    """Create the games that can be played next: the following stage of a
    level match, and the matches of the next round whose sides are known.
    Returns what was created, one line each."""
    bracket, states, season = cup_state(store, comp_id)
    fmt = bracket.match_format
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    names = {p.id: p.name for p in season.players}
    created = []
    for m in states:
        if m.winner is not None or m.top is None or m.bottom is None:
            continue
        games = [g for r in season.rounds if r.number == m.round for g in r.games if g.match == m.index]
        if any(g.result is None for g in games):
            continue  # results still to come
        stage_no = len({g.stage for g in games})
        if stage_no >= len(fmt.stages):
            continue  # every stage played: the arbiter decides ('keizer knockout award')
        stage = fmt.stages[stage_no]
        store.ensure_round(comp_id, m.round)
        board = max((g["board"] for g in store.games(comp_id, m.round)), default=0)
        for j in range(stage.games):
            # The higher-placed side has White in each stage's first game; colours then alternate.
            white, black = (m.top, m.bottom) if j % 2 == 0 else (m.bottom, m.top)
            board += 1
            store.add_game(comp_id, m.round, board, ids[white], ids[black], match=m.index,
                           stage=f"{stage.kind.value}:{stage_no}")
        created.append(Message("round %(round)s match %(match)s: %(top)s – %(bottom)s, %(n)s %(kind)s game(s)",
                               round=m.round, match=m.index, top=names[m.top], bottom=names[m.bottom],
                               n=stage.games, kind=Words((stage.kind.value,))))
    return created


def award(store: Store, comp_id: int, round_no: int, match: int, player_ref: str) -> str:
    """The arbiter decides a match (a withdrawal, a lot after every stage)."""
    bracket, states, _ = cup_state(store, comp_id)
    state = next((m for m in states if (m.round, m.index) == (round_no, match)), None)
    if state is None:
        raise StoreError("the cup has no match %(match)s in round %(n)s", match=match, n=round_no)
    key = store.find_player(comp_id, player_ref)["key"]
    if key not in (state.top, state.bottom):
        raise StoreError("%(player)s does not play in match %(match)s of round %(n)s", player=player_ref, match=match,
                         n=round_no)
    settings = store.system_settings(comp_id)
    store.set_system_settings(comp_id, {**settings, "awarded": {**settings.get("awarded", {}),
                                                                f"{round_no}:{match}": key}})
    return key
