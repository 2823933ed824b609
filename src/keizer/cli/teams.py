"""``keizer team …``: team events — teams, the schedule, line-ups, match results, standings.

Registered in ``keizer.cli.commands`` (``_Commands.lazy``); this module imports the
context helpers from :mod:`keizer.cli.base`.  User errors are :class:`StoreError` lines,
and every command that writes runs inside ``writing`` (one undoable transaction).
"""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from typing import Any

import click

from keizer.operations import teamevent as ops
from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.cli.params import BOARD, DATE, ROUND, ROUND_OR_ZERO, Whole
from keizer.cli.words import say
from keizer.operations import teams_read
from keizer.output import json_number, number, render
from keizer.pairing.teams import points_text
from keizer.refusals import Message
from keizer.store import Store, StoreError
from keizer.systems.team import stored_rules


@click.group("team")
def team() -> None:
    """Team events: teams with ordered boards, a round-robin, Crepaux, Swiss or knock-out schedule."""


@team.command("add")
@click.argument("name")
@click.option("--board", "boards", multiple=True, metavar="PLAYER",
              help="A player, board 1 first (repeat for every board).")
@click.option("--reserve", "reserves", multiple=True, metavar="PLAYER", help="A reserve (repeatable).")
@pass_ctx
def team_add(ctx: Context, name: str, boards: tuple[str, ...], reserves: tuple[str, ...]) -> None:
    """Add a team; members not yet in the event are entered in it.

    PLAYER is a name (or part of it), a player id, #start-number, or a club member.
    """
    with writing(ctx, "team add", Message("add team %(name)s", name=name)) as store:
        comp_id = ctx.comp(store)["id"]
        team_id = ops.add_team(store, comp_id, name, boards, reserves)
        row = next(t for t in store.teams(comp_id) if t["id"] == team_id)
    click.echo(f"added team #{row['start_no']} {row['name']}: {_members(row, reserve=False)}"
               + (f"; reserves {_members(row, reserve=True)}" if reserves else ""))


def _members(row: dict[str, Any], reserve: bool) -> str:
    return ", ".join(m["name"] for m in row["members"] if bool(m["reserve"]) == reserve)


@team.command("list")
@format_option
@pass_ctx
def team_list(ctx: Context, fmt: str) -> None:
    """The teams in start order, with their boards and reserves."""
    store = ctx.store()
    teams = store.teams(ctx.comp(store)["id"])
    if fmt == "json":
        click.echo(json.dumps([
            {"start_no": t["start_no"], "name": t["name"],
             **{kind: [{"board": m["board"], "id": m["key"], "name": m["name"], "rating": m["rating"]}
                       for m in t["members"] if bool(m["reserve"]) == (kind == "reserves")]
                for kind in ("boards", "reserves")}} for t in teams], ensure_ascii=False, indent=2))
        return
    rows = [{"no": t["start_no"], "team": t["name"], "boards": _members(t, reserve=False),
             "reserves": _members(t, reserve=True)} for t in teams]
    click.echo(render(rows, ["no", "team", "boards", "reserves"], fmt))


@team.command("schedule")
@click.option("--first-date", type=DATE, help="Date of round 1; later rounds follow.")
@click.option("--every", type=Whole(1, 365), default=7, show_default=True, help="Days between rounds.")
@pass_ctx
def team_schedule(ctx: Context, first_date: datetime | None, every: int) -> None:
    """Store every round: the matches and their boards (again: until the first result).

    A knock-out event stores round 1 of the bracket (teams seeded in start order), a
    Swiss event pairs round 1 (teams seeded by mean rating); 'keizer team next' stores
    the later rounds.
    """
    with writing(ctx, "team schedule", Message("team schedule")) as store:
        comp_id = ctx.comp(store)["id"]
        rounds = ops.schedule_team_event(store, comp_id, first_date.date() if first_date else None, every)
        event = teams_read.load_event(store, comp_id)
    if event.rules.schedule == "swiss":
        click.echo(f"round 1 of {rounds} paired (Swiss, FIDE Dutch; teams seeded by mean rating); enter the results, "
                   "then 'keizer team next'")
        click.echo(render([{"match": m.number, "white_on_board_1": m.first, "black_on_board_1": m.second or "(bye)"}
                           for m in event.round_matches(1)], ["match", "white_on_board_1", "black_on_board_1"],
                          "table"))
        return
    if event.rules.schedule == "knockout":
        click.echo(f"round 1 of {rounds} scheduled (knock-out, teams seeded in start order); enter the results, "
                   "then 'keizer team next'")
        click.echo(render([{"match": m.number, "top": m.first, "bottom": m.second or "(bye)"}
                           for m in event.round_matches(1)], ["match", "top", "bottom"], "table"))
        return
    click.echo(f"{rounds} rounds scheduled")
    dates = {r.number: r.date for r in event.season.rounds}
    rows = [{"round": r, "date": dates[r], "matches": ", ".join(
        f"{m.first} – {m.second}" if m.second else f"bye: {m.first}" for m in event.round_matches(r))}
        for r in range(1, rounds + 1)]
    click.echo(render(rows, ["round", "date", "matches"], "table"))


@team.command("lineup")
@click.argument("round_no", metavar="ROUND", type=ROUND)
@click.argument("team_ref", metavar="TEAM")
@click.argument("players", metavar="PLAYER…", nargs=-1, required=True)
@pass_ctx
def team_lineup(ctx: Context, round_no: int, team_ref: str, players: tuple[str, ...]) -> None:
    """Who plays for TEAM in ROUND, board 1 first (reserves move in).  Before the match's results."""
    with writing(ctx, "team lineup", Message("line-up of %(team)s in round %(round)s",
                                             team=team_ref, round=round_no)) as store:
        comp_id = ctx.comp(store)["id"]
        row = ops.set_lineup(store, comp_id, round_no, team_ref, players)
        names = [store.find_player(comp_id, ref)["name"] for ref in players]
        store.describe(Message("line-up of %(team)s in round %(round)s", team=row['name'], round=round_no))
    click.echo(f"round {round_no}: {row['name']} plays " + ", ".join(f"{k} {n}" for k, n in enumerate(names, 1)))


@team.command("result", context_settings={"ignore_unknown_options": True})
@click.argument("round_no", metavar="ROUND", type=ROUND)
@click.argument("match", type=BOARD)
@click.argument("results", metavar="RESULT…", nargs=-1, required=True)
@click.option("--correct", is_flag=True, help="Overwrite results that were entered before.")
@pass_ctx
def team_result(ctx: Context, round_no: int, match: int, results: tuple[str, ...], correct: bool) -> None:
    """A match's results board by board, each as on its board (White first): 1-0 ½-½ 0-1 1-0.

    Forfeits: +- and -+; a double forfeit -- needs a lone -- before the results (… 1 1 -- 1-0 --).
    """
    with writing(ctx, "team result", Message("round %(round)s match %(match)s: %(results)s",
                                             round=round_no, match=match, results=' '.join(results))) as store:
        comp_id = ctx.comp(store)["id"]
        ops.enter_match_results(store, comp_id, round_no, match, results, correct)
        event = teams_read.load_event(store, comp_id)
        how = ""
        if event.rules.schedule == "knockout":  # the state of the match, tie-break stages included
            how = next(f"; {r['how']}" + (f", {r['winner']} goes through" if r["winner"] else "")
                       for r in teams_read.knockout_rows(event) if (r["round"], r["match"]) == (round_no, match))
    m = next(x for x in event.round_matches(round_no) if x.number == match)
    score = m.score()
    assert score is not None  # every board of the match was just entered
    if correct and event.rules.schedule == "swiss" and round_no < len(event.season.rounds):
        click.echo(f"warning: round {len(event.season.rounds)} was paired before this correction; the standing is "
                   "recomputed, the pairing stays", err=True)
    click.echo(f"round {round_no} match {match}: {m.first} – {m.second} "
               f"{points_text(score[0])}–{points_text(score[1])}{how}")


@team.command("next")
@click.option("--date", "when", type=DATE, help="Date of a round this creates.")
@pass_ctx
def team_next(ctx: Context, when: datetime | None) -> None:
    """Swiss: pair the next round.  Knock-out: store the next matches whose teams are decided."""
    with writing(ctx, "team next", Message("team event: next round")) as store:
        comp_id = ctx.comp(store)["id"]
        step = ops.swiss_next if stored_rules(store, comp_id).schedule == "swiss" else ops.knockout_next
        created = step(store, comp_id, when.date() if when else None)
    click.echo("\n".join(map(say, created)))


@team.command("award")
@click.argument("round_no", metavar="ROUND", type=ROUND)
@click.argument("match", type=BOARD)
@click.argument("team_ref", metavar="TEAM")
@pass_ctx
def team_award(ctx: Context, round_no: int, match: int, team_ref: str) -> None:
    """Knock-out: the arbiter gives MATCH of ROUND to TEAM (level on everything, or a withdrawal)."""
    with writing(ctx, "team award", Message("award round %(round)s match %(match)s to %(winner)s",
                                            round=round_no, match=match, winner=team_ref)) as store:
        comp_id = ctx.comp(store)["id"]
        knockout = stored_rules(store, comp_id).schedule == "knockout"
        before = next((r for r in teams_read.knockout_rows(teams_read.load_event(store, comp_id))
                       if (r["round"], r["match"]) == (round_no, match)), None) if knockout else None
        name = ops.award_match(store, comp_id, round_no, match, team_ref)
        store.describe(Message("award round %(round)s match %(match)s to %(winner)s", round=round_no, match=match, winner=name))
    if before and before["winner"] and before["winner"] != name and before["how"] != "awarded by the arbiter":
        click.echo(f"warning: the games had decided the match for {before['winner']} ({before['how']}); "
                   f"the award overrides them (a withdrawal, a forfeit)", err=True)
    click.echo(f"round {round_no} match {match} awarded to {name}")


@team.command("standings")
@click.option("--round", "round_no", type=ROUND_OR_ZERO, help="Standing after this round (default: the last played).")
@format_option
@pass_ctx
def team_standings(ctx: Context, round_no: int | None, fmt: str) -> None:
    """The team standing: match points, game points, then the event's tie-breaks."""
    store = ctx.store()
    show_team_standings(store, ctx.comp(store)["id"], round_no, fmt)


def show_team_standings(store: Store, comp_id: int, upto: int | None, fmt: str) -> None:
    """Print a team event's standing (what ``keizer standings`` shows for a team event)."""
    event = teams_read.load_event(store, comp_id)
    if event.rules.schedule == "knockout":
        _show_bracket(event, upto, fmt)
        return
    rows = teams_read.team_standings(store, comp_id, upto)
    codes = teams_read.tiebreak_labels(event)
    if fmt == "json":
        click.echo(json.dumps([{**r, "match_points": json_number(r["match_points"]),
                                "game_points": json_number(r["game_points"]),
                                "tiebreaks": {k: _json_value(v) for k, v in r["tiebreaks"].items()}}
                               for r in rows], ensure_ascii=False, indent=2))
        return
    table = [{**r, "match_points": number(r["match_points"]), "game_points": number(r["game_points"]),
              **{k: "" if v is None else number(Fraction(v)) for k, v in r["tiebreaks"].items()}} for r in rows]
    if fmt == "table":
        click.echo(f"{event.name} — standing after round {event.played if upto is None else upto}")
    click.echo(render(table, ["rank", "team", "match_points", "game_points", "matches", "wins", "draws", "losses",
                              *codes], fmt))


def _show_bracket(event: teams_read.TeamEvent, upto: int | None, fmt: str) -> None:
    """A knock-out event's standing: every match of the bracket."""
    rows = teams_read.knockout_rows(event, upto)
    if fmt == "json":
        click.echo(json.dumps([{**r, "score": [json_number(x) for x in r["score"]] if r["score"] else None}
                               for r in rows], ensure_ascii=False, indent=2))
        return
    table = [{**r, "top": r["top"] or "", "bottom": r["bottom"] or ("(bye)" if r["how"] == "bye" else ""),
              "winner": r["winner"] or "",
              "score": _score_text([json_number(x) for x in r["score"]] if r["score"] else None)} for r in rows]
    if fmt == "table":
        click.echo(f"{event.name} — knock-out bracket")
    click.echo(render(table, ["round", "match", "top", "bottom", "score", "winner", "how"], fmt))


def _json_value(v: Fraction | int | None) -> int | float | None:
    return None if v is None else json_number(Fraction(v))


@team.command("matches")
@click.option("--round", "round_no", type=ROUND, help="Only this round.")
@format_option
@pass_ctx
def team_matches(ctx: Context, round_no: int | None, fmt: str) -> None:
    """The matches with their board results and match score."""
    store = ctx.store()
    event = teams_read.load_event(store, ctx.comp(store)["id"])
    rounds = [r.number for r in event.season.rounds]
    if round_no is not None and round_no not in rounds:
        raise StoreError(f"round {round_no} is not scheduled (rounds: {len(rounds)})")
    names = {p.id: p.name for p in event.season.players}
    matches = [m for m in event.matches if round_no is None or m.round == round_no]
    data: list[dict[str, Any]] = [
        {"round": m.round, "match": m.number, "first": m.first, "second": m.second,
         "score": [json_number(x) for x in score] if (score := m.score()) else None,
         "boards": [{"board": g.board, "white": names[g.white], "black": names[g.black],
                     "white_id": g.white, "black_id": g.black,
                     "result": g.result.value if g.result else None} for g in m.games]}
        for m in matches]
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    if fmt == "csv":
        flat = [{**{k: v for k, v in m.items() if k != "boards"}, **b,
                 "score": _score_text(m["score"])} for m in data for b in m["boards"]]
        click.echo(render(flat, ["round", "match", "first", "second", "score", "board", "white", "black",
                                 "result"], fmt))
        return
    for m in data:
        if m["second"] is None:
            click.echo(f"round {m['round']} match {m['match']}: bye {m['first']}")
            continue
        click.echo(f"round {m['round']} match {m['match']}: {m['first']} – {m['second']} {_score_text(m['score'])}")
        click.echo(render(m["boards"], ["board", "white", "black", "result"], "table"))


def _score_text(score: list[int | float] | None) -> str:
    return "" if score is None else "–".join(points_text(Fraction(x)) for x in score)
