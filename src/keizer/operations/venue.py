"""What the venue screen (a TV at the club) shows of a competition: the boards of the
round being played, then the standing.  Read-only; exact numbers (the web app formats
them in the club's language).

* Keizer, Swiss, round-robin: the round ``keizer pairings`` shows by default (the open
  round once paired, else the last paired one), board by board, and the standing of
  ``keizer standings`` (Keizer: value and score; Swiss and round-robin: points).
* A knock-out cup: the round of the bracket still being played (else the last one) with
  its matches and their games, and the bracket's rounds for the second page.
* A team event: the round still being played (else the last one) with its matches and
  their boards, and the team standing (a knock-out event: its bracket).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from keizer import systems
from keizer.operations.rounds import pairing_list, pairings_round
from keizer.store import Store, StoreError
from keizer.systems import stored_points_rules

#: What the screen shows of a board of the pairing list (points before the round: Swiss, round-robin).
_BOARD = ("board", "white", "black", "result", "white_points", "black_points")


def venue(store: Store, comp_id: int) -> dict[str, Any]:
    """The screen's data: name, system, round, date, and per system ``boards`` / ``byes``
    (weekly systems), ``matches`` (cups and team events), ``standing`` and ``bracket``."""
    comp = store.competition_by_id(comp_id)
    system = comp["system"]
    data: dict[str, Any] = {"id": comp_id, "name": comp["name"], "system": system, "round": None, "date": None,
                            "boards": [], "byes": [], "matches": [], "standing": [], "bracket": []}
    kind = systems.of(system).standing_kind
    if kind == "bracket":
        _cup(store, comp_id, data)
    elif kind == "matches":
        _team(store, comp_id, data)
    else:
        _weekly(store, comp_id, system, data)
    return data


def _weekly(store: Store, comp_id: int, system: str, data: dict[str, Any]) -> None:
    season = store.load_season(comp_id)
    names = {p.id: p.name for p in season.players}
    last = season.completed_rounds()
    if any(r.games or r.byes for r in season.rounds):  # the round and list `keizer pairings` shows
        listing = pairing_list(store, comp_id, season, pairings_round(season))
        data["round"], data["date"] = listing["round"], listing["date"]
        data["boards"] = [{k: row[k] for k in _BOARD if k in row} for row in listing["rows"]]
        data["byes"] = [names[p] for p in listing["byes"]]
    data["standing_round"] = last
    if systems.of(system).points:
        from keizer.points import points_standing

        rules = stored_points_rules(store, comp_id)
        entries = points_standing(season, rules.tiebreaks, rules.edition, last, rules.lots, system=rules.system,
                                  scoring=rules.scoring)
        data["standing"] = [{"rank": e.rank, "name": names[e.player], "points": e.points, "games": e.games}
                            for e in entries]
    else:
        from keizer.operations.standings import kept_standing

        standing = kept_standing(store, comp_id, season, last)
        data["decimals"] = season.settings.decimals
        data["standing"] = [{"rank": e.rank, "name": names[e.player], "value": e.value, "score": e.score,
                             "games": e.games} for e in standing.entries]


def _round_title(number: int, rounds: int) -> str:
    """final, semi, quarter, or round (the templates translate it)."""
    return {0: "final", 1: "semi", 2: "quarter"}.get(rounds - number, "round")


def _cup(store: Store, comp_id: int, data: dict[str, Any]) -> None:
    from keizer.operations.cup import cup_state

    try:
        bracket, states, season = cup_state(store, comp_id)
    except StoreError:  # not drawn yet: nothing to show
        return
    names: dict[str | None, str] = {p.id: p.name for p in season.players}  # None: a side not known yet
    playing = [m.round for m in states if m.winner is None and m.top is not None and m.bottom is not None]
    stored = [r.number for r in season.rounds if r.games]
    number = min(playing) if playing else (max(stored) if stored else 1)
    rnd = next((r for r in season.rounds if r.number == number), None)
    data["round"], data["date"] = number, rnd.date if rnd else None
    data["round_kind"] = _round_title(number, bracket.rounds)
    for m in states:
        row = {"round": m.round, "match": m.index, "top": names.get(m.top), "bottom": names.get(m.bottom),
               "winner": names.get(m.winner), "how": m.how}
        data["bracket"].append(row)
        if m.round == number and m.top is not None and m.bottom is not None:
            games = [g for g in (rnd.games if rnd else ()) if g.match == m.index]
            data["matches"].append({**row, "score": None, "boards": [
                {"board": g.board, "white": names[g.white], "black": names[g.black],
                 "result": g.result.value if g.result else None, "stage": (g.stage or "regular:0").partition(":")[0]}
                for g in games]})


def _team(store: Store, comp_id: int, data: dict[str, Any]) -> None:
    from keizer.operations.teams_read import knockout_rows, load_event, standing

    event = load_event(store, comp_id)
    names = {p.id: p.name for p in event.season.players}
    rounds = [r.number for r in event.season.rounds if any(m.round == r.number for m in event.matches)]
    open_rounds = [m.round for m in event.matches if m.second is not None and m.score() is None]
    number = min(open_rounds) if open_rounds else (max(rounds) if rounds else None)
    if number is not None:
        rnd = event.season.rounds[number - 1]
        data["round"], data["date"] = number, rnd.date
        for m in event.round_matches(number):
            data["matches"].append({"round": m.round, "match": m.number, "top": m.first, "bottom": m.second,
                                    "score": m.score(), "winner": None, "how": None, "boards": [
                                        {"board": g.board, "white": names[g.white], "black": names[g.black],
                                         "result": g.result.value if g.result else None,
                                         "stage": (g.stage or "regular:0").partition(":")[0]}
                                        for g in m.games]})
    data["standing_round"] = event.played
    if event.rules.schedule == "knockout":
        rows = knockout_rows(event)
        hows = {(r["round"], r["match"]): r for r in rows}
        for m in data["matches"]:
            r = hows.get((m["round"], m["match"]))
            if r:
                m["winner"], m["how"] = r["winner"], r["how"]
        data["bracket"] = [{"round": r["round"], "match": r["match"], "top": r["top"], "bottom": r["bottom"],
                            "winner": r["winner"], "how": r["how"], "score": r["score"]} for r in rows]
        return
    data["standing"] = [{"rank": r["rank"], "name": r["team"], "match_points": Fraction(r["match_points"]),
                         "game_points": Fraction(r["game_points"]), "matches": r["matches"]}
                        for r in standing(event)]
