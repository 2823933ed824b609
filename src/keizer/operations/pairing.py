"""Pairing the open round (Keizer or Swiss, by its system), and changing a pairing made:
unpairing, a latecomer, a no-show, two players swapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from keizer import systems
from keizer.model import Round, Season
from keizer.operations.attendance import prepare_attendance
from keizer.operations.outcomes import Change
from keizer.operations.state import current_standing, require_unpaired, require_weekly
from keizer.refusals import Message, Word
from keizer.store import Store, StoreError
from keizer.systems import open_round

if TYPE_CHECKING:
    from keizer.pairing.keizer import Pairing, PairingRequest


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
        raise StoreError("fewer than two players are present for round %(n)s", hint="ev_mark_present", n=target.number)
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
                 tell: Callable[[Message], None] | None = None) -> Pairing:
    """Pair the open round and store it.  ``again`` re-pairs an unplayed pairing,
    keeping the boards in ``keep`` as they are.  ``tell`` hears what was assumed
    (attendance nobody marked)."""
    from keizer.pairing.keizer import pair_round

    fixed, keep = list(fixed), set(keep)
    kind = systems.of(require_weekly(store, comp_id, Word("pair a round")))
    if kind.score_groups:
        if fixed or bye is not None or keep:
            raise StoreError("a Swiss round follows the Dutch rules", hint="ev_swiss_swap_after")
    if again:
        season = store.load_season(comp_id)
        target = open_round(season)
        if not target.paired:
            raise StoreError("round %(n)s has not been paired yet", hint="ev_use_pair", n=target.number)
        rnd = season.rounds[target.number - 1]
        boards = {g.board for g in rnd.games}
        missing = keep - boards
        if missing:
            raise StoreError("round %(n)s has no board %(board)s", n=target.number, board=min(missing))
        for g in rnd.games:
            if g.result is not None:
                raise StoreError("board %(board)s of round %(n)s has a result already; clear it before re-pairing",
                                 hint="ev_clear_board", board=g.board, n=target.number)
            if g.board in keep:
                fixed.append((g.white, g.black))
        unpair(store, comp_id)
    elif kind.fills_attendance:  # a Swiss pairs everyone not marked absent
        note = prepare_attendance(store, comp_id)
        if note and tell:
            tell(note)
    if kind.score_groups:
        from keizer.operations.swiss import pair_next

        return pair_next(store, comp_id)
    request = pairing_request(store, comp_id, fixed, bye)
    pairing = pair_round(request)  # its PairingError is a refusal of its own
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    for b in pairing.boards:
        store.add_game(comp_id, request.round, b.board, ids[b.white], ids[b.black])
    if pairing.bye is not None:
        store.set_attendance(comp_id, request.round, ids[pairing.bye], "bye")
    return pairing


def unpair(store: Store, comp_id: int) -> int:
    """Remove the open round's pairing (games without results); returns the round."""
    require_weekly(store, comp_id, Word("remove a pairing"))
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError("round %(n)s has no pairing to remove", n=target.number)
    rnd = season.rounds[target.number - 1]
    if any(g.result is not None for g in rnd.games):
        raise StoreError("round %(n)s has results already", hint="ev_correct_results", n=target.number)
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    store.delete_games(comp_id, target.number)
    store.unfreeze(comp_id)  # round 1 unpaired: ratings and the initial order may change again
    for g in rnd.games:
        store.set_attendance(comp_id, target.number, ids[g.white], "present")
        store.set_attendance(comp_id, target.number, ids[g.black], "present")
    for p in rnd.byes:
        store.set_attendance(comp_id, target.number, ids[p], "present")
    return target.number


def _paired_round(store: Store, comp_id: int, action: Word) -> tuple[Season, Round]:
    """The open round of a competition paired from attendance, refused until it is paired."""
    require_weekly(store, comp_id, action)
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError("round %(n)s is not paired yet", hint="ev_attend_and_pair", n=target.number)
    return season, season.rounds[target.number - 1]


def _pair_two(store: Store, comp_id: int, season: Season, number: int, a: str, b: str,
              board: int) -> tuple[str, str, tuple[Message, ...]]:
    """Store a game between a and b, colours by the pairing rules; returns White, Black and any rule bent."""
    from keizer.pairing.keizer import pair_round

    pairing = pair_round(_request(store, comp_id, season, number, (a, b)))
    white, black = pairing.boards[0].white, pairing.boards[0].black
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    store.add_game(comp_id, number, board, ids[white], ids[black])
    for key in (a, b):
        store.set_attendance(comp_id, number, ids[key], "present")
    return white, black, pairing.bent_why


def add_latecomer(store: Store, comp_id: int, ref: str) -> Change:
    """A player who arrives after the pairing: they play whoever had the bye (on a new
    last board), or, when nobody had it, they take the bye.  Every board stays as it was.
    (A Swiss: :func:`keizer.operations.swiss.latecomer`.)"""
    swiss = systems.of(store.system(comp_id)).score_groups
    season, rnd = _paired_round(store, comp_id, Word("add a latecomer"))
    row = store.find_player(comp_id, ref)
    key, name = row["key"], row["name"]
    if any(key in (g.white, g.black) for g in rnd.games) or key in rnd.byes:
        raise StoreError("%(name)s is already paired in round %(n)s", name=name, n=rnd.number)
    if not season.player(key).active_in(rnd.number):
        raise StoreError("%(name)s does not take part in round %(n)s (not joined yet, or withdrawn)", name=name,
                         n=rnd.number)
    if swiss:
        from keizer.operations import swiss as swiss_ops

        return swiss_ops.latecomer(store, comp_id, season, rnd, key, name)
    names = {p.id: p.name for p in season.players}
    if rnd.byes:
        other = rnd.byes[0]
        board = max((g.board for g in rnd.games), default=0) + 1
        white, black, bent = _pair_two(store, comp_id, season, rnd.number, other, key, board)
        return Change(rnd.number, Message("%(name)s plays %(other)s (who had the bye) on board %(board)s: %(white)s has"
                                          " White", name=name, other=names[other], board=board, white=names[white]), bent)
    store.set_attendance(comp_id, rnd.number, row["id"], "bye")
    return Change(rnd.number, Message("%(name)s gets the bye: every other player has an opponent", name=name))


#: A colour, as a swap's warning names it.
_COLOURS = {"white": Word("white"), "black": Word("black")}

#: A no-show's absence, as the outcome says it (the views translate the words).
_NOSHOW_WORDS = {"unexcused": Word("unexcused"), "excused": Word("excused")}


def remove_noshow(store: Store, comp_id: int, ref: str, why: str = "unexcused") -> Change:
    """A paired player who does not come: they are marked absent (``why``); their
    opponent plays whoever had the bye (on the same board), or takes the bye."""
    if why not in ("unexcused", "excused"):
        raise StoreError("a no-show is unexcused or excused, not %(why)s", why=repr(why))
    swiss = systems.of(store.system(comp_id)).score_groups
    season, rnd = _paired_round(store, comp_id, Word("remove a no-show"))
    row = store.find_player(comp_id, ref)
    if swiss:  # a forfeit
        from keizer.operations import swiss as swiss_ops

        return swiss_ops.noshow(store, comp_id, season, rnd, row)
    key, name = row["key"], row["name"]
    names = {p.id: p.name for p in season.players}
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    if key in rnd.byes:
        store.set_attendance(comp_id, rnd.number, row["id"], why)
        return Change(rnd.number, Message("%(name)s is marked %(why)s; nobody has the bye now", name=name, why=_NOSHOW_WORDS[why]))
    game = next((g for g in rnd.games if key in (g.white, g.black)), None)
    if game is None:
        raise StoreError("%(name)s is not paired in round %(n)s", name=name, n=rnd.number)
    if game.result is not None:
        raise StoreError("board %(board)s has a result already", hint="ev_clear_or_forfeit", board=game.board)
    opponent = game.black if game.white == key else game.white
    store.delete_games(comp_id, rnd.number, [game.board])
    store.set_attendance(comp_id, rnd.number, row["id"], why)
    if rnd.byes:
        other = rnd.byes[0]
        white, black, bent = _pair_two(store, comp_id, season, rnd.number, opponent, other, game.board)
        return Change(rnd.number, Message(
            "%(name)s is marked %(why)s; %(opponent)s plays %(other)s (who had the bye) on board %(board)s: %(white)s"
            " has White", name=name, why=_NOSHOW_WORDS[why], opponent=names[opponent], other=names[other], board=game.board,
            white=names[white]), bent)
    store.set_attendance(comp_id, rnd.number, ids[opponent], "bye")
    return Change(rnd.number, Message("%(name)s is marked %(why)s; %(opponent)s gets the bye (board %(board)s is empty)",
                                      name=name, why=_NOSHOW_WORDS[why], opponent=names[opponent], board=game.board))


def swap_players(store: Store, comp_id: int, a_ref: str, b_ref: str,
                 leave_fide: bool = False) -> tuple[int, list[Message]]:
    """Exchange two players in the open round's pairing (one may hold the bye).

    Returns the round and warnings: pairs that met before or are forbidden (the
    arbiter's decision stands; the warning says what it costs).  A pairing changed by hand
    leaves the FIDE rules: in FIDE mode it is refused unless ``leave_fide``."""
    from keizer.operations import fide
    from keizer.systems.fide import Departure

    require_weekly(store, comp_id, Word("move players"))
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired:
        raise StoreError("round %(n)s has not been paired yet", n=target.number)
    rnd = season.rounds[target.number - 1]
    a = store.find_player(comp_id, a_ref)
    b = store.find_player(comp_id, b_ref)
    if a["key"] == b["key"]:
        raise StoreError("name two different players to swap")
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    where: dict[str, Any] = {}
    for g in rnd.games:
        if g.result is not None and {a["key"], b["key"]} & {g.white, g.black}:
            raise StoreError("board %(board)s has a result already", hint="ev_clear_first", board=g.board)
        for side in ("white", "black"):
            where[getattr(g, side)] = (g, side)
    for p in (a, b):
        if p["key"] not in where and p["key"] not in rnd.byes:
            raise StoreError("%(name)s is not in the pairing of round %(n)s", name=p["name"], n=target.number)
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
    fide.record(store, comp_id, [Departure("swap", str(target.number))], target.number, leave_fide)
    met = {frozenset((g.white, g.black)): r.number for r in season.rounds[:target.number - 1] for g in r.games
           if g.played_on_board}
    forbidden = {frozenset(pair) for pair in store.forbidden_pairs(comp_id)}
    names = {p.id: p.name for p in season.players}
    warnings: list[Message] = []
    for g in rnd.games:
        white, black = swap.get(g.white, g.white), swap.get(g.black, g.black)
        pair = frozenset((white, black))
        if (white, black) == (g.white, g.black):
            continue
        if pair in met:
            warnings.append(Message("%(white)s and %(black)s met in round %(round)s already", white=names[white],
                                    black=names[black], round=met[pair]))
        if pair in forbidden:
            warnings.append(Message("%(white)s and %(black)s are a forbidden pair", hint="ev_forbidden_pair",
                                    white=names[white], black=names[black]))
    if systems.of(store.system(comp_id)).score_groups:
        warnings += _swiss_swap_warnings(store, comp_id, season, target.number, swap, names)
    return target.number, warnings


def _swiss_swap_warnings(store: Store, comp_id: int, season: Season, number: int, swap: Mapping[str, str],
                         names: Mapping[str, str]) -> list[Message]:
    """What a hand-made change costs under the Dutch rules' absolute criteria (C.2, C.3)."""
    from keizer.model import Colour
    from keizer.pairing.swiss import dutch_inputs
    from keizer.points import tournament

    rules = systems.stored_points_rules(store, comp_id)
    data = dutch_inputs(tournament(season, number - 1, rules.system, rules.scoring), number - 1)
    tpn = {p.id: p.start_no for p in season.players}
    rnd = season.rounds[number - 1]
    warnings: list[Message] = []
    for p in rnd.byes:
        holder = swap.get(p, p)
        if holder != p and not data[tpn[holder]].bye_eligible:
            warnings.append(Message("%(name)s had a pairing-allocated bye or a win without playing already",
                                    name=names[holder]))
    for g in rnd.games:
        for player, colour in ((swap.get(g.white, g.white), Colour.WHITE), (swap.get(g.black, g.black), Colour.BLACK)):
            if player == (g.white if colour is Colour.WHITE else g.black):
                continue
            history = data[tpn[player]].colours + (colour,)
            whites = sum(c is Colour.WHITE for c in history)
            if len(history) >= 3 and history[-1] is history[-2] is history[-3]:
                warnings.append(Message("%(name)s gets %(colour)s a third time in a row", name=names[player],
                                        colour=_COLOURS[colour.value]))
            elif abs(2 * whites - len(history)) > 2:
                warnings.append(Message("%(name)s gets a colour difference beyond 2", name=names[player]))
    return warnings
