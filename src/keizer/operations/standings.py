"""What ``keizer standings`` and ``keizer history`` show, and the crosstable, for the CLI
and the app alike.  Read-only; exact numbers (the CLI prints them with ``json_number``
or ``number``, the app in the club's language).

* A Keizer competition: rank, value, score, games, W/D/L, percentage and the FIDE
  tie-breaks the settings list; a player's rounds with the value used and the points.
* Swiss and round-robin: points and the tournament's tie-breaks; a player's rounds with
  points and running total.
* Knock-out cups and team events have their bracket and team standing elsewhere
  (:mod:`keizer.operations.cup`, :mod:`keizer.operations.teamevent`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable

from keizer import systems
from keizer.kept import Kept
from keizer.model import Colour, Game, Player, Round, Season
from keizer.operations.held import Held
from keizer.output import json_number
from keizer.rating import dwz, ecf
from keizer.rating.dwz import DwzChanges
from keizer.rating.ecf import EcfChanges
from keizer.rating.fide import OnRecord
from keizer.readmodel import (RatingChanges, absence_cell, fide_changes, game_cell, games_by_player, history_line,
                              meetings, no_game)
from keizer.scoring import Standing, tiebreak_values
from keizer.store import Store, StoreError
from keizer.systems import PointsRules, stored_points_rules

if TYPE_CHECKING:
    from keizer.points import PointsEntry


#: The ``kind`` of a standing that is a bracket of matches (a cup, a team knock-out).
BRACKET = "knockout"


#: How many competitions' standings a process keeps (the least recently asked for goes first).
KEPT_COMPETITIONS = 64
#: Each competition's kept standings, by database and competition (:func:`kept`).
_kept: Held[tuple[str, int], Kept] = Held(KEPT_COMPETITIONS)


@contextmanager
def kept(store: Store, comp_id: int) -> Iterator[Kept]:
    """The competition's kept standings (:class:`keizer.kept.Kept`), for this process: the
    app's threads and a command's steps share them, one at a time per competition.

    Not keyed by a counter of the file's writes but checked against the season the store read
    (:meth:`Store.load_season`, once per state of the file): what is kept is never stale, not
    inside a transaction not committed yet nor after a rollback or another program's write,
    and a write to another competition or table costs nothing.  A view may key what it builds
    from a standing by ``Kept.version`` (the crosstable's rows)."""
    lock, standings = _kept.entry((store.place, comp_id), Kept)
    with lock:
        yield standings


def kept_of(store: Store) -> dict[int, Kept]:
    """The kept standings this process holds of ``store``'s file, by competition (for
    :mod:`keizer.operations.kept_file`, which carries them to the next process)."""
    where = store.place
    return {comp: standings for (place, comp), standings in _kept.items() if place == where}


def adopt(store: Store, comp_id: int, standings: Kept) -> bool:
    """Hold ``standings`` as the competition's kept standings, unless this process holds some
    already (True: taken)."""
    return _kept.adopt((store.place, comp_id), standings)


def kept_standing(store: Store, comp_id: int, season: Season, upto: int | None = None,
                  provisional: bool = False) -> Standing:
    """:func:`keizer.scoring.standing_after` of a stored Keizer competition, from what is kept."""
    with kept(store, comp_id) as standings:
        return standings.standing(season, upto, provisional)


def kept_standings(store: Store, comp_id: int, season: Season, provisional: bool = False) -> tuple[Standing, ...]:
    """:func:`keizer.scoring.compute_standings` of a stored Keizer competition (every round's
    standing), from what is kept: for the site, which shows them all."""
    with kept(store, comp_id) as standings:
        return standings.standings(season, provisional)


def kept_items(store: Store, comp_id: int, season: Season, standing: Standing) -> Mapping[str, Sequence[Any]] | None:
    """The items behind a kept standing of ``season`` (:meth:`keizer.kept.Kept.items_of`), for
    its histories: None when they are not kept."""
    with kept(store, comp_id) as standings:
        return standings.items_of(season, standing)


def checked_round(season: Season, round_no: int | None) -> int:
    """The round a standing is after: ``round_no`` (0 … the last complete round), by
    default the last complete round."""
    last = season.completed_rounds()
    if round_no is not None and not 0 <= round_no <= last:
        raise StoreError("round %(n)s has not been played; the last complete round is %(last)s", n=round_no, last=last)
    return last if round_no is None else round_no


# -- Keizer ---------------------------------------------------------------------


def standing_rows(season: Season, standing: Standing, category: str | None = None) -> list[dict[str, Any]]:
    """The JSON rows of ``keizer standings`` (season-json.md), plus exact values.

    With a category, ``rank`` is the rank within it and ``overall_rank`` the ladder's.
    """
    players = {p.id: p for p in season.players}
    if category and not any(p.category == category for p in season.players):
        known = sorted({p.category for p in season.players if p.category})
        if not known:
            raise StoreError("no player has category %(category)s (categories: none)", category=repr(category))
        raise StoreError("no player has category %(category)s (categories: %(known)s)", category=repr(category),
                         known=", ".join(known))
    rows: list[dict[str, Any]] = []
    for e in standing.entries:
        p = players[e.player]
        if category and p.category != category:
            continue
        pct = e.percentage
        rows.append({
            "rank": len(rows) + 1 if category else e.rank, "overall_rank": e.rank,
            "id": e.player, "name": p.name, "rating": p.rating,
            "score": json_number(e.score), "value": json_number(e.value),
            "games": e.games, "wins": e.wins, "draws": e.draws, "losses": e.losses,
            "percentage": round(float(pct) * 100, 1) if pct is not None else None,
            "forfeit_wins": e.forfeit_wins, "forfeit_losses": e.forfeit_losses, "byes": e.byes,
            "excused": e.excused, "unexcused": e.unexcused, "club": e.club, "external": e.external,
            "value_before": json_number(e.value_before),
            "category": p.category,
            "withdrawn": p.withdrawn_after is not None and p.withdrawn_after < standing.round,
            "score_exact": str(e.score), "value_exact": str(e.value),
            "percentage_exact": str(pct) if pct is not None else None,
        })
    return rows


def keizer_standing(store: Store, comp_id: int, season: Season, upto: int, category: str | None = None,
                    provisional: bool = False) -> tuple[Standing, list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The standing after round ``upto`` (kept), its rows (:func:`standing_rows`) and each player's
    tie-break values (exact; empty when the settings list none).  ``provisional``: ``upto`` may
    be the round in progress (its open boards earn nothing yet)."""
    standing = kept_standing(store, comp_id, season, upto, provisional)
    return standing, standing_rows(season, standing, category), tiebreak_values(season, standing)


def keizer_history(store: Store, comp_id: int, season: Season, key: str, upto: int, ref: str) -> dict[str, Any]:
    """A player's rounds as priced in the standing after round ``upto``: opponent, colour,
    result, value used, factor and points (exact)."""
    with kept(store, comp_id) as standings:
        standing = standings.standing(season, upto)
        if key in standing.off_ladder:
            raise StoreError("%(player)s withdrew and is off the ladder in this standing", hint="ev_use_round",
                             player=ref)
        lines = standings.round_scores(season, standing, key)
    names = {p.id: p.name for p in season.players}
    entry = standing.entry(key)
    rows = [history_line(line, names) for line in lines]
    return {"id": key, "name": names[key], "round": standing.round, "rank": entry.rank, "score": entry.score,
            "own_value": standing.own_pricing.get(key, Fraction(0)), "value": entry.value, "rounds": rows,
            "decimals": season.settings.decimals}


# -- Swiss and round-robin --------------------------------------------------------


def points_rows(store: Store, comp_id: int, season: Season, upto: int) -> tuple[PointsRules, list[dict[str, Any]]]:
    """The tournament's rules and its standing after round ``upto``: rank, start number,
    points, games, W/D/L and the tie-breaks (exact; None where a tie-break has no value)."""
    from keizer.points import points_standing

    rules = stored_points_rules(store, comp_id)
    entries = points_standing(season, rules.tiebreaks, rules.edition, upto, rules.lots, system=rules.system,
                              scoring=rules.scoring)
    return rules, _points_rows(season, entries)


def _points_rows(season: Season, entries: Iterable[PointsEntry]) -> list[dict[str, Any]]:
    players = {p.id: p for p in season.players}
    return [{"rank": e.rank, "start_no": players[e.player].start_no, "id": e.player,
             "name": players[e.player].name, "rating": players[e.player].rating,
             "points": e.points, "games": e.games, "wins": e.wins, "draws": e.draws,
             "losses": e.losses, "tiebreaks": dict(e.tiebreaks)}
            for e in entries]


def provisional_points_rows(store: Store, comp_id: int, season: Season) -> list[dict[str, Any]]:
    """:func:`points_rows` while a round is in progress: points with the results in so far,
    no tie-breaks yet (:func:`keizer.points.provisional_standing`)."""
    from keizer.points import provisional_standing

    rules = stored_points_rules(store, comp_id)
    return _points_rows(season, provisional_standing(season, rules.tiebreaks, rules.edition, rules.lots,
                                                     system=rules.system, scoring=rules.scoring) or ())


def points_history(store: Store, comp_id: int, season: Season, key: str, upto: int) -> dict[str, Any]:
    """A round-robin or Swiss player's rounds: opponent, colour, result, points, running total."""
    from keizer.points import points_standing, tournament

    rules = stored_points_rules(store, comp_id)
    t = tournament(season, upto, rules.system, rules.scoring)
    by_number = {p.start_no: p for p in season.players}
    me = season.player(key)
    kinds = {"U": "bye", "F": "bye", "H": "half-point bye", "Z": "absent", "+": "forfeit", "-": "forfeit"}
    symbols = {"1": "1", "W": "1", "=": "½", "D": "½", "0": "0", "L": "0", "+": "+", "-": "−"}
    rows, total = [], Fraction(0)
    for r, res in enumerate(next(p for p in t.players if p.start_no == me.start_no).results[:upto], 1):
        points = rules.scoring.points(res.code)
        total += points
        opponent = by_number[res.opponent] if res.opponent else None
        kind = kinds.get(res.code.value, "game")
        if kind == "absent" and not me.active_in(r):
            kind = "not joined" if r < me.joined else "withdrawn"
        rows.append({"round": r, "kind": kind,
                     "opponent": opponent.name if opponent else None, "opponent_id": opponent.id if opponent else None,
                     "colour": res.colour.value if res.colour else None,
                     "result": symbols.get(res.code.value) if res.opponent else None,
                     "points": points, "total": total})
    entry = next(e for e in points_standing(season, rules.tiebreaks, rules.edition, upto, rules.lots,
                                            system=rules.system, scoring=rules.scoring) if e.player == key)
    return {"id": key, "name": me.name, "round": upto, "rank": entry.rank, "points": entry.points, "rounds": rows}


# -- both -------------------------------------------------------------------------


def player_history(store: Store, comp_id: int, ref: str, round_no: int | None = None,
                   with_fide: bool = True) -> dict[str, Any]:
    """``keizer history``: the player's rounds after round ``round_no`` (default: the last
    complete one); ``kind`` says which system's columns (``keizer`` or ``points``); ``fide``:
    what each game did to the FIDE rating (None unless ``with_fide``)."""
    system = store.system(comp_id)
    if not systems.of(system).player_table:
        if systems.of(system).standing_kind == "bracket":
            raise StoreError("a knockout competition has no player history", hint="ev_see_bracket")
        raise StoreError("a team competition has no player history", hint="ev_see_matches")
    season = store.load_season(comp_id)
    found = store.find_player(comp_id, ref)
    key = found["key"]
    upto = checked_round(season, round_no)
    fide = player_fide_changes(store, comp_id, season, key, upto) if with_fide else None  # provisional
    dwz = player_dwz_changes(store, comp_id, season, key, upto) if with_fide else None
    ecf_found = player_ecf_changes(store, comp_id, season, key, upto) if with_fide else None
    if systems.of(system).points:
        return {"kind": "points", **points_history(store, comp_id, season, key, upto), "fide": fide, "dwz": dwz,
                "ecf": ecf_found, "member_id": found["member_id"]}
    return {"kind": "keizer", **keizer_history(store, comp_id, season, key, upto, ref), "fide": fide, "dwz": dwz,
            "ecf": ecf_found, "member_id": found["member_id"]}


def fide_ratings(store: Store, comp_id: int, players: list[dict[str, Any]] | None = None,
                 members: list[dict[str, Any]] | None = None) -> dict[str, int | None]:
    """Each player's FIDE rating for the competition: the rating frozen when it started if
    the FIDE list orders it, else the member's FIDE rating on record (None: unrated).  A caller
    that has read the competition's ``players`` or the club's ``members`` already gives them."""
    rows = store.players(comp_id) if players is None else players
    if store.rating_list(comp_id) == "fide":
        return {r["key"]: r["rating"] for r in rows}
    fide = {m["id"]: m["fide_rating"] for m in (store.members() if members is None else members)}
    return {r["key"]: fide.get(r["member_id"]) for r in rows}


def fide_records(store: Store, comp_id: int) -> dict[str, OnRecord]:
    """What K depends on for each player of the competition, from the member's record: the K
    of FIDE's list and the year of birth (B.02 8.3.3)."""
    members = {m["id"]: m for m in store.members()}
    return {r["key"]: OnRecord(members[r["member_id"]]["fide_k"], members[r["member_id"]]["birth_year"])
            for r in store.players(comp_id) if r["member_id"] in members}


def _national(store: Store, comp_id: int, season: Season) -> tuple[dict[str, int | None], dict[str, int | None]]:
    """Each player's national rating for the competition (frozen with it if its national list
    orders it, else the member's on record) and age (the year of the last dated round minus the
    year of birth; None: unknown)."""
    rows = store.players(comp_id)
    members = {m["id"]: m for m in store.members()}
    if store.rating_list(comp_id) == "national":
        ratings = {r["key"]: r["rating"] for r in rows}
    else:
        ratings = {r["key"]: members[r["member_id"]]["rating"] for r in rows if r["member_id"] in members}
    year = max((int(r.date[:4]) for r in season.rounds if r.date and r.date[:4].isdigit()), default=None)
    ages: dict[str, int | None] = {}
    for r in rows:
        born = members[r["member_id"]]["birth_year"] if r["member_id"] in members else None
        ages[r["key"]] = year - born if year and born else None
    return ratings, ages


def dwz_changes(store: Store, comp_id: int, season: Season) -> dict[str, DwzChanges]:
    """Every player's DWZ change in the competition (the competition as one tournament), when
    the club shows the DWZ (club setting ``national_rating``); else none. The DWZ is the
    national rating (:func:`_national`)."""
    if store.get_meta("club_national_rating") != "dwz":
        return {}
    ratings, ages = _national(store, comp_id, season)
    return {key: dwz.season_changes(season, ratings, key, age) for key, age in ages.items()}


def ecf_changes(store: Store, comp_id: int, season: Season) -> dict[str, EcfChanges]:
    """Every player's ECF rating change in the competition (per game, per month, the sum),
    when the club shows the ECF rating (club setting ``national_rating``); else none. The ECF
    rating is the national rating (:func:`_national`); K 40 under 18."""
    if store.get_meta("club_national_rating") != "ecf":
        return {}
    ratings, ages = _national(store, comp_id, season)
    return {key: ecf.season_changes(season, ratings, key, age) for key, age in ages.items()}


def player_ecf_changes(store: Store, comp_id: int, season: Season, key: str, upto: int) -> EcfChanges | None:
    """What a player's games up to round ``upto`` did to the ECF rating (None: the club does not show it)."""
    shown = replace(season, rounds=tuple(r for r in season.rounds if r.number <= upto))
    return ecf_changes(store, comp_id, shown).get(key)


def player_dwz_changes(store: Store, comp_id: int, season: Season, key: str, upto: int) -> DwzChanges | None:
    """What a player's games up to round ``upto`` did to the DWZ (None: the club does not show it)."""
    shown = replace(season, rounds=tuple(r for r in season.rounds if r.number <= upto))
    return dwz_changes(store, comp_id, shown).get(key)


def player_fide_changes(store: Store, comp_id: int, season: Season, key: str, upto: int) -> RatingChanges:
    """What each of a player's games up to round ``upto`` did to the FIDE rating."""
    shown = replace(season, rounds=tuple(r for r in season.rounds if r.number <= upto))
    return fide_changes(shown, fide_ratings(store, comp_id), key, fide_records(store, comp_id).get(key, OnRecord()))


def progress(season: Season) -> dict[str, int] | None:
    """The round in progress and how many of its boards have their result (None: no round
    is in progress)."""
    number = season.round_in_progress()
    if number is None:
        return None
    games = season.rounds[number - 1].games
    return {"round": number, "in": sum(g.result is not None for g in games), "of": len(games)}


def standing_view(store: Store, comp_id: int, round_no: int | None = None,
                  category: str | None = None, provisional: bool = False) -> dict[str, Any]:
    """What ``keizer standings`` shows, for a page: ``kind`` (keizer, points, knockout,
    team, team_knockout), ``round`` (after which round), ``last`` (the last complete
    round), ``codes`` (tie-break columns) and ``rows`` (exact values).

    A Keizer standing is made once per state of the competition and shared (not to be changed);
    its ``version`` is its kept standings' (:func:`kept`).
    Keizer, Swiss and round-robin standings also say which round is ``in_progress``
    (:func:`progress`, or ``None``); with ``provisional`` (and no ``round_no``) that round's
    standing with the results in so far is shown, and ``provisional`` is its progress
    (``None`` whenever the standing shown is final)."""
    system = store.system(comp_id)
    kind = systems.of(system).standing_kind
    if kind == "bracket":
        from keizer.operations.cup import cup_state

        try:
            _, states, season = cup_state(store, comp_id)
        except StoreError as e:  # not drawn yet
            return {"kind": BRACKET, "round": None, "last": 0, "codes": [], "rows": [], "note": e}
        names: dict[str | None, str] = {p.id: p.name for p in season.players}  # None: a side not known yet
        rows: list[dict[str, Any]] = [
            {"round": m.round, "match": m.index, "top": names.get(m.top), "bottom": names.get(m.bottom),
             "winner": names.get(m.winner), "how": m.how, "top_id": m.top, "bottom_id": m.bottom,
             "winner_id": m.winner, "score": None} for m in states]
        return {"kind": BRACKET, "round": None, "last": season.completed_rounds(), "codes": [], "rows": rows,
                "note": None}
    if kind == "matches":
        from keizer.operations import teams_read

        event = teams_read.load_event(store, comp_id)
        if event.rules.schedule == "knockout":
            rows = [{**r, "top_id": None, "bottom_id": None, "winner_id": None}
                    for r in teams_read.knockout_rows(event, round_no)]
            return {"kind": BRACKET, "round": round_no, "last": event.played, "codes": [], "rows": rows,
                    "note": None}
        rows = teams_read.team_standings(store, comp_id, round_no)
        return {"kind": "team", "round": event.played if round_no is None else round_no, "last": event.played,
                "codes": list(teams_read.tiebreak_labels(event)), "rows": rows, "note": None}
    season = store.load_season(comp_id)
    upto = checked_round(season, round_no)
    in_progress = progress(season)
    running = in_progress if provisional and round_no is None else None
    if systems.of(system).points:
        if running is not None:
            return {"kind": "points", "round": running["round"], "last": season.completed_rounds(), "codes": [],
                    "rows": provisional_points_rows(store, comp_id, season), "decimals": 2, "provisional": running,
                    "in_progress": in_progress}
        rules, rows = points_rows(store, comp_id, season, upto)
        return {"kind": "points", "round": upto, "last": season.completed_rounds(), "codes": list(rules.tiebreaks),
                "rows": rows, "decimals": 2, "provisional": None, "in_progress": in_progress}
    if running is not None:
        upto = running["round"]
    with kept(store, comp_id) as standings:  # made once per state of the competition (shared: not to be changed)
        standings.update(season)
        made: dict[str, Any] | None = standings.memo.get(("standing", upto, category, running is not None))
        if made is not None:
            return made
        standing = standings.standing(season, upto, running is not None)
        values = tiebreak_values(season, standing)
        rows = standing_rows(season, standing, category)
        codes = list(next(iter(values.values()))) if values else []
        shown = [{**r, "score": Fraction(r["score_exact"]), "value": Fraction(r["value_exact"]),
                  "percentage": Fraction(r["percentage_exact"]) * 100 if r["percentage_exact"] else None,
                  "tiebreaks": {k: None if v is None else Fraction(v) for k, v in values.get(r["id"], {}).items()}}
                 for r in rows]
        made = standings.memo["standing", upto, category, running is not None] = {
            "kind": "keizer", "round": standing.round, "last": season.completed_rounds(), "codes": codes,
            "rows": shown, "decimals": season.settings.decimals, "provisional": running, "in_progress": in_progress,
            "categories": sorted({p.category for p in season.players if p.category}), "version": standings.version}
        return made


# -- crosstable ---------------------------------------------------------------------


def crosstable(store: Store, comp_id: int, round_no: int | None = None) -> dict[str, Any]:
    """The crosstable after round ``round_no`` (default: the last complete one, ``last``), as the
    published site draws it: ``kind`` keizer (by rank, per round the opponent's rank,
    the colour and the result), roundrobin (player by player, start order) or swiss (by
    rank, per round the opponent's number, colour and result)."""
    system = store.system(comp_id)
    if not systems.of(system).player_table:
        raise StoreError("a %(system)s competition has no crosstable of players; see its bracket or matches",
                         system=systems.SYSTEM_WORDS[system])
    season = store.load_season(comp_id)
    upto = checked_round(season, round_no)
    players = {p.id: p for p in season.players}
    rounds = [r for r in season.rounds if r.number <= upto]
    game_of = games_by_player(rounds)
    if systems.of(system).points:
        from keizer.points import points_standing

        rules = stored_points_rules(store, comp_id)
        after = [{e.player: e for e in points_standing(season, [] if r < upto else rules.tiebreaks, rules.edition,
                                                       r, rules.lots, system=rules.system, scoring=rules.scoring)}
                 for r in range(upto + 1)]
        final = sorted(after[upto].values(), key=lambda e: e.rank)
        if systems.of(system).all_play_all:
            order = sorted(season.players, key=lambda p: p.start_no)
            cells = meetings(rounds)
            rows: list[dict[str, Any]] = [
                {"start_no": p.start_no, "id": p.id, "name": p.name, "rank": after[upto][p.id].rank,
                 "points": after[upto][p.id].points,
                 "cells": [None if p.id == q.id else " ".join(cells.get((p.id, q.id), [])) for q in order]}
                for p in order]
            return {"kind": "roundrobin", "round": upto, "last": season.completed_rounds(),
                    "numbers": [p.start_no for p in order], "rows": rows}
        rows = []
        for e in final:
            me = players[e.player]
            swiss_cells = []
            for rnd, games in zip(rounds, game_of):
                game = games.get(e.player)
                if game is not None and game.result is not None:
                    colour = game.colour_of(e.player)
                    opp = players[game.opponent_of(e.player)]
                    swiss_cells.append({"kind": "game", "opponent_no": opp.start_no, "opponent": opp.name,
                                        "colour": "w" if colour is Colour.WHITE else "b",
                                        "result": game.result.symbol(colour)})
                else:
                    swiss_cells.append({"kind": no_game(rnd, me),
                                        "points": after[rnd.number][e.player].points
                                        - after[rnd.number - 1][e.player].points})
            rows.append({"start_no": me.start_no, "id": me.id, "name": me.name, "rank": e.rank,
                         "points": e.points, "cells": swiss_cells})
        return {"kind": "swiss", "round": upto, "last": season.completed_rounds(), "numbers": [r.number for r in rounds],
                "rows": rows}
    with kept(store, comp_id) as standings:  # made once per state of the competition (shared: not to be changed)
        standings.update(season)
        table: dict[str, Any] | None = standings.memo.get(("crosstable", upto))
        if table is None:
            standing = standings.standing(season, upto)
            rank_of = {e.player: e.rank for e in standing.entries}
            rows = [{"rank": e.rank, "id": e.player, "name": players[e.player].name, "score": e.score,
                     "value": e.value, "cells": [_keizer_cell(players, e.player, rnd, games.get(e.player), rank_of)
                                                 for rnd, games in zip(rounds, game_of)]}
                    for e in standing.entries]
            table = standings.memo["crosstable", upto] = {
                "kind": "keizer", "round": upto, "last": season.completed_rounds(),
                "numbers": [r.number for r in rounds], "rows": rows, "decimals": season.settings.decimals,
                "version": standings.version}
    return table


def _keizer_cell(players: dict[str, Player], pid: str, rnd: Round, g: Game | None,
                 rank_of: dict[str, int]) -> dict[str, Any]:
    """What a player did in a round: a game ``g`` (opponent's rank, colour, result) or why not."""
    if g is None:
        return absence_cell(rnd, players[pid])
    cell = game_cell(g, pid, rank_of)
    return {"kind": "game", "code": "G", "opponent": players[cell["opponent_id"]].name, **cell,
            "colour": cell["colour"][0]}
