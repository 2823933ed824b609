"""What the app's cup and team event pages show: read models over
:mod:`keizer.operations.cup` and :mod:`keizer.operations.teamevent` (read-only).
"""

from __future__ import annotations

from typing import Any

from keizer.store import Store


def round_kind(number: int, rounds: int) -> str:
    """final, semi, quarter or round (the templates translate it)."""
    return {0: "final", 1: "semi", 2: "quarter"}.get(rounds - number, "round")


def _stages(games: list[Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """A match's games grouped by stage, in stage order."""
    found: dict[str, list[Any]] = {}
    for g in sorted(games, key=lambda g: g.board):
        found.setdefault(g.stage or "regular:0", []).append(g)
    return [{"kind": stage.partition(":")[0], "games": [
        {"board": g.board, "white": names[g.white], "black": names[g.black],
         "result": g.result.value if g.result else None} for g in found[stage]]}
            for stage in sorted(found, key=lambda s: int(s.rpartition(":")[2] or 0))]


def cup_overview(store: Store, comp_id: int) -> dict[str, Any]:
    """A cup: its stages, entrants, seeds once drawn, and the bracket round by round with
    each match's games per stage."""
    from keizer.operations.cup import cup_state

    settings = store.system_settings(comp_id)
    players = store.players(comp_id)
    names = {p["key"]: p["name"] for p in players}
    data: dict[str, Any] = {"stages": settings.get("stages") or [], "drawn": bool(settings.get("seeds")),
                            "entrants": [{"name": p["name"], "rating": p["rating"]} for p in players],
                            "seeds": [names.get(k, k) for k in settings.get("seeds") or []], "rounds": [],
                            "results": False}
    if not data["drawn"]:
        return data
    bracket, states, season = cup_state(store, comp_id)
    names = {p.id: p.name for p in season.players}
    data["results"] = any(g.result is not None for r in season.rounds for g in r.games)
    dates = {r.number: r.date for r in season.rounds}
    games = {r.number: r.games for r in season.rounds}
    for number in range(1, bracket.rounds + 1):
        matches = []
        for m in states:
            if m.round != number:
                continue
            mine = [g for g in games.get(number, ()) if g.match == m.index]
            matches.append({"index": m.index, "top": names.get(m.top), "bottom": names.get(m.bottom),
                            "top_id": m.top, "bottom_id": m.bottom, "winner": names.get(m.winner), "how": m.how,
                            "stages": _stages(mine, names),
                            "open": any(g.result is None for g in mine),
                            "undecided": m.winner is None and m.top is not None and m.bottom is not None})
        data["rounds"].append({"number": number, "kind": round_kind(number, bracket.rounds),
                               "date": dates.get(number), "matches": matches})
    return data


def team_overview(store: Store, comp_id: int) -> dict[str, Any]:
    """A team event: its rules, teams with boards and reserves, every round's matches with
    their games per stage, the standing (or, for a knock-out, the bracket rows)."""
    from keizer.operations.teams_read import knockout_rows, load_event, standing, tiebreak_labels

    event = load_event(store, comp_id)
    names = {p.id: p.name for p in event.season.players}
    rules = event.rules
    knockout = rules.schedule == "knockout"
    states = {(r["round"], r["match"]): r for r in knockout_rows(event)} if knockout and event.matches else {}
    rounds = []
    for rnd in event.season.rounds:
        matches = []
        for m in event.round_matches(rnd.number):
            state = states.get((m.round, m.number))
            matches.append({"number": m.number, "first": m.first, "second": m.second, "score": m.score(),
                            "stages": _stages(list(m.games), names),
                            "open": any(g.result is None for g in m.games),
                            "results": any(g.result is not None for g in m.games),
                            "winner": state["winner"] if state else None, "how": state["how"] if state else None})
        rounds.append({"number": rnd.number, "date": rnd.date, "matches": matches})
    return {
        "boards": rules.boards, "schedule": rules.schedule, "rounds_planned": rules.rounds,
        "teams": [{"start_no": t["start_no"], "name": t["name"],
                   "boards": [m["name"] for m in t["members"] if not m["reserve"]],
                   "reserves": [m["name"] for m in t["members"] if m["reserve"]],
                   "members": [{"id": m["key"], "name": m["name"]} for m in t["members"]]} for t in event.teams],
        "scheduled": bool(event.matches), "results": any(g.result is not None for r in event.season.rounds
                                                         for g in r.games),
        "rounds": rounds, "played": event.played,
        "standing": [] if knockout or not event.matches else standing(event),
        "tiebreaks": tiebreak_labels(event) if not knockout else (),
        "bracket": list(states.values()),
    }
