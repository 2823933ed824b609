"""Swiss tournaments in the season database: pairing numbers and the next round.

A Swiss tournament is a competition of system ``swiss`` (a club's rapid
tournament, or a TRF file imported to be continued).  Its settings hold the
planned number of rounds, the initial colour and the points of byes; the
players' pairing numbers (TPNs) are their start numbers.  Each round is paired
by the FIDE Dutch system (:mod:`keizer.pairing.swiss`) from the players marked
present — an excused player takes a requested half-point bye, an unexcused one
scores nothing — and stored like any other round, so results, standings,
tie-breaks, publishing and TRF export work as for every points competition.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keizer.model import Colour, Round, Season
from keizer.operations.outcomes import Change
from keizer.operations.state import require_unpaired
from keizer.output import number
from keizer.refusals import Message
from keizer.store import Store, StoreError
from keizer.systems import PointsRules, open_round, stored_points_rules
from keizer.systems.swiss import SWISS_DEFAULTS

if TYPE_CHECKING:
    from keizer.pairing.keizer import Pairing
    from keizer.tiebreaks import Tournament


def swiss_settings(store: Store, comp_id: int) -> dict[str, Any]:
    return {**SWISS_DEFAULTS, **store.system_settings(comp_id)}


def tpn_order(store: Store, comp_id: int) -> list[str]:
    """The players' keys in pairing-number order (General Handling Rules, Initial Order).

    Until round 1 is paired: by rating, highest first, then by name.  After that a
    late entrant is placed among the numbered players by rating, and those below move
    down one; players already numbered keep their order.  Reads only.
    """
    rows = store.players(comp_id)
    by_key = {r["key"]: r for r in rows}
    started = any(store.games(comp_id, n) for n in store.round_numbers(comp_id))
    # Until round 1 is paired the list follows the ratings as they are (they may still be updated).
    numbered = [k for k in swiss_settings(store, comp_id)["numbered"] or [] if k in by_key] if started else []

    def rating(key: str) -> int:
        return by_key[key]["rating"] or 0

    newcomers = sorted((k for k in by_key if k not in numbered),
                       key=lambda k: (-rating(k), by_key[k]["name"].casefold(), by_key[k]["id"]))
    for key in newcomers:
        place = next((i for i, k in enumerate(numbered) if rating(k) < rating(key)), len(numbered))
        numbered.insert(place, key)
    return numbered


def assign_numbers(store: Store, comp_id: int) -> list[str]:
    """Store the pairing numbers of :func:`tpn_order` as start numbers (when a round is paired)."""
    numbered = tpn_order(store, comp_id)
    for tpn, row in ((numbered.index(r["key"]) + 1, r) for r in store.players(comp_id)):
        if row["start_no"] != tpn:
            store.update_player(row["id"], start_no=tpn)
    if numbered != swiss_settings(store, comp_id)["numbered"]:
        store.set_system_settings(comp_id, {**store.system_settings(comp_id), "numbered": numbered})
    return numbered


def pair_next(store: Store, comp_id: int) -> Pairing:
    """Pair the open round by the Dutch system and store it.

    Returns a :class:`keizer.pairing.keizer.Pairing` (boards with the players'
    scores as the reason) for display.
    """
    from keizer.operations.attendance import mark_attendance
    from keizer.pairing.keizer import Board, Pairing
    from keizer.pairing.swiss import SwissError, dutch_inputs, pair_swiss

    settings = swiss_settings(store, comp_id)
    if not settings["rounds"]:
        raise StoreError("set the planned number of rounds first", hint="su_swiss_rounds")
    season = store.load_season(comp_id)
    target = open_round(season)
    require_unpaired(season, target)
    if target.number > settings["rounds"]:
        raise StoreError("all %(rounds)s rounds are paired", hint="su_swiss_more_rounds", rounds=settings["rounds"])
    mark_attendance(store, comp_id, {})  # everyone not marked (a bye asked ahead stays) plays
    numbered = assign_numbers(store, comp_id)
    if target.number == 1 and settings.get("acceleration") == "baku":
        settings = fix_group_a(store, comp_id, settings, numbered)
    season = store.load_season(comp_id)
    rnd = season.rounds[target.number - 1]
    rules, t, tpn, forbidden, colour = _dutch_inputs(store, comp_id, season, settings, target.number - 1)
    virtual = virtual_points(settings, tpn)
    key_of = {p.start_no: p.id for p in season.players}
    present = [tpn[p] for p in rnd.present]
    if len(season.players) < 2:
        raise StoreError("the tournament needs at least two players", hint="su_add_players")
    if len(present) < 2:
        raise StoreError("fewer than two players are present for round %(n)s", hint="su_mark_present",
                         n=target.number)
    try:
        found = pair_swiss(t, settings["rounds"], present, target.number - 1, colour, forbidden, virtual,
                           settings.get("pairing") or "dutch")
    except SwissError as e:
        names = {p.start_no: p.name for p in season.players}
        if e.forbidden:
            raise StoreError("round %(n)s has no pairing that keeps the forbidden pairs apart: allowing %(pairs)s "
                             "would make one", n=target.number,
                             pairs=", ".join(f"{names[a]} – {names[b]}" for a, b in e.forbidden)) from None
        if not e.players:
            raise  # the engine's refusal says why
        left = ", ".join(names[n] for n in e.players)
        raise StoreError("round %(n)s has no pairing without a rematch, a second bye or a forbidden colour sequence "
                         "(%(left)s left over); end the tournament or mark players absent", n=target.number,
                         left=left) from None
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    scores = {n: d.score for n, d in dutch_inputs(t, target.number - 1).items()}
    boards = []
    for board, (white, black) in enumerate(found.pairs, 1):
        store.add_game(comp_id, target.number, board, ids[key_of[white]], ids[key_of[black]])
        points = {"white": number(scores[white], 1), "black": number(scores[black], 1)}
        why = (Message("%(white)s against %(black)s (a float)", **points) if scores[white] != scores[black]
               else Message("%(white)s against %(black)s", **points))
        boards.append(Board(board, key_of[white], key_of[black], str(why), why))
    bye = key_of[found.bye] if found.bye is not None else None
    if bye is not None:
        store.set_attendance(comp_id, target.number, ids[bye], "bye")
    bye_why = Message("pairing-allocated bye worth %(points)s", points=number(rules.scoring.pab, 1)) if bye else None
    return Pairing(target.number, tuple(boards), bye, bye_why, ())


def fix_group_a(store: Store, comp_id: int, settings: dict[str, Any], numbered: list[str]) -> dict[str, Any]:
    """Before round 1 of a Baku-accelerated Swiss (C.04.7): store the last player of group A
    (the first 2·⌈n/4⌉ of the pairing list) and GA's virtual points by round."""
    from keizer.pairing.swiss.acceleration import baku_group_a, baku_points

    fixed = {**settings, "numbered": numbered, "group_a_last": baku_group_a(numbered)[-1] if numbered else None,
             "virtual": [str(v) for v in baku_points(int(settings["rounds"]))]}
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "group_a_last": fixed["group_a_last"],
                                        "virtual": fixed["virtual"]})
    return fixed


@dataclass(frozen=True)
class SwissRecords:
    """What a TRF file holds for a Swiss beyond its games: virtual points (``XXA``, ``250``) and
    forbidden pairs (``XXP``, ``260``, every round's), by the players' keys."""

    virtual: dict[str, tuple[Fraction, ...]]
    forbidden: tuple[tuple[str, str], ...]

    @classmethod
    def of_file(cls, path: Path, key_of: dict[int, str]) -> SwissRecords:
        from keizer.formats.trf import text_of
        from keizer.formats.trf_records import forbidden_groups, virtual_points as read_virtual
        from keizer.pairing.swiss.forbidden import pairs_in_round

        text = text_of(path)
        virtual = {key_of[n]: v for n, v in read_virtual(text).items() if n in key_of and any(v)}
        pairs = {p for g in forbidden_groups(text) for p in pairs_in_round([g], g.first)}  # a group's pairs, any round
        return cls(virtual, tuple((key_of[a], key_of[b]) for a, b in sorted(pairs) if a in key_of and b in key_of))

    def settings(self) -> dict[str, Any]:
        """The settings that keep the virtual points (the file's, as given)."""
        return {"virtual_given": {k: [str(x) for x in v] for k, v in self.virtual.items()}} if self.virtual else {}

    def store_forbidden(self, store: Store, comp_id: int) -> None:
        for a, b in self.forbidden:
            store.forbid(comp_id, store.find_player(comp_id, a)["id"], store.find_player(comp_id, b)["id"], False)


def virtual_points(settings: dict[str, Any], tpn: dict[str, int]) -> dict[int, tuple[Fraction, ...]]:
    """Each player's virtual points by round (pairing numbers): those an imported file gave
    (``XXA``); else group A's in a Baku-accelerated Swiss — the players numbered up to the last
    one of group A, late entrants placed above him included — and nobody's otherwise."""
    from keizer.pairing.swiss.acceleration import baku_group_a

    if given := settings.get("virtual_given"):
        return {tpn[k]: tuple(Fraction(x) for x in v) for k, v in given.items() if k in tpn}
    if settings.get("acceleration") != "baku" or not settings.get("group_a_last") or not settings.get("numbered"):
        return {}
    points = tuple(Fraction(v) for v in settings.get("virtual") or ())
    group = baku_group_a(settings["numbered"], settings["group_a_last"])
    return {tpn[k]: points for k in group if k in tpn}


def trf_records(store: Store, comp_id: int, season: Season) -> tuple[str, ...]:
    """A Swiss's own TRF records: its pairing system (``192 FIDE_DUBOV``), virtual points (``XXA``)
    and forbidden pairs (``XXP``)."""
    from keizer.pairing.swiss import system_lines
    from keizer.pairing.swiss.acceleration import xxa_lines
    from keizer.pairing.swiss.forbidden import xxp_lines

    tpn = {p.id: p.start_no for p in season.players}
    forbidden = [(tpn[a], tpn[b]) for a, b in store.forbidden_pairs(comp_id) if a in tpn and b in tpn]
    settings = swiss_settings(store, comp_id)
    return (system_lines(settings.get("pairing") or "dutch") + xxa_lines(virtual_points(settings, tpn))
            + xxp_lines(forbidden))


def latecomer(store: Store, comp_id: int, season: Season, rnd: Round, key: str, name: str) -> Change:
    """A player who arrives after the round is paired (checked by
    :func:`keizer.operations.pairing.add_latecomer`): they play whoever has the
    pairing-allocated bye (on a new last board, colours by the Dutch rules), unless the two
    met before or may not meet; without a bye to take over the latecomer cannot be paired."""
    from keizer.pairing.swiss import SwissError, pair_swiss

    names = {p.id: p.name for p in season.players}
    if not rnd.byes:
        raise StoreError("nobody has the pairing-allocated bye in round %(n)s, so %(name)s cannot be paired now; the "
                         "round counts as marked for them (excused: a half-point bye)", n=rnd.number, name=name)
    other = rnd.byes[0]
    settings = swiss_settings(store, comp_id)
    _, t, tpn, forbidden, colour = _dutch_inputs(store, comp_id, season, settings, rnd.number - 1)
    try:
        found = pair_swiss(t, settings["rounds"], [tpn[other], tpn[key]], rnd.number - 1, colour, forbidden,
                           virtual_points(settings, tpn), settings.get("pairing") or "dutch")
    except SwissError:
        raise StoreError("%(name)s may not play %(other)s (who has the bye): they met before or may not meet; "
                         "%(name)s cannot be paired now", name=name, other=names[other]) from None
    key_of = {n: pid for pid, n in tpn.items()}
    white, black = (key_of[n] for n in found.pairs[0])
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    board = max((g.board for g in rnd.games), default=0) + 1
    store.add_game(comp_id, rnd.number, board, ids[white], ids[black])
    for player in (other, key):
        store.set_attendance(comp_id, rnd.number, ids[player], "present")
    return Change(rnd.number, Message("%(name)s plays %(other)s (who had the bye) on board %(board)s: %(white)s has"
                                      " White", name=name, other=names[other], board=board, white=names[white]))


def noshow(store: Store, comp_id: int, season: Season, rnd: Round, row: dict[str, Any]) -> Change:
    """A paired player who does not come loses by forfeit (FIDE's rule for a Swiss); a
    player who had the pairing-allocated bye and is not there loses it (absent).  Called by
    :func:`keizer.operations.pairing.remove_noshow` on the paired open round."""
    from keizer.operations.results import enter_results

    key, name = row["key"], row["name"]
    if key in rnd.byes:
        store.set_attendance(comp_id, rnd.number, row["id"], "unexcused")
        return Change(rnd.number, Message("%(name)s is marked absent: no bye this round", name=name))
    game = next((g for g in rnd.games if key in (g.white, g.black)), None)
    if game is None:
        raise StoreError("%(name)s is not paired in round %(n)s", name=name, n=rnd.number)
    if game.result is not None:
        raise StoreError("board %(board)s has a result already", hint="su_clear_result", board=game.board)
    result = "-+" if game.white == key else "+-"
    enter_results(store, comp_id, {game.board: result}, rnd.number)
    winner = game.black if game.white == key else game.white
    return Change(rnd.number, Message("%(name)s did not come: %(winner)s wins board %(board)s by forfeit (%(result)s)",
                                      name=name, winner=season.player(winner).name, board=game.board, result=result))


def _dutch_inputs(store: Store, comp_id: int, season: Season, settings: dict[str, Any], before: int,
                  ) -> tuple[PointsRules, Tournament, dict[str, int], list[tuple[int, int]], Colour]:
    """What the Dutch engine is given for the round after ``before``: the points rules, the
    tournament so far, pairing numbers by player, forbidden pairs by number, the initial colour."""
    from keizer.points import tournament

    rules = stored_points_rules(store, comp_id)
    t = tournament(season, before, rules.system, rules.scoring)
    tpn = {p.id: p.start_no for p in season.players}
    forbidden = [(tpn[a], tpn[b]) for a, b in store.forbidden_pairs(comp_id) if a in tpn and b in tpn]
    colour = Colour.BLACK if settings["initial_colour"] == "black" else Colour.WHITE
    return rules, t, tpn, forbidden, colour
