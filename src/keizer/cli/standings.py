"""``keizer standings`` and ``keizer history``: what a competition's results add up to.

A thin view over :mod:`keizer.operations.standings`; a cup's standing is its bracket
(:func:`show_bracket`, also ``keizer knockout bracket``), a team event's is shown by
:mod:`keizer.cli.teams`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from keizer import systems
from keizer.cli.base import Context, format_option, pass_ctx
from keizer.cli.params import ROUND_OR_ZERO
from keizer.operations import standings as standings_ops
from keizer.output import json_number, number, render
from keizer.store import Store, StoreError

if TYPE_CHECKING:
    from keizer.model import Season


@click.command()
@click.option("--round", "round_no", type=ROUND_OR_ZERO, help="Standing after this round (default: the last played).")
@click.option("--category", help="Only players of this category.")
@click.option("--provisional", is_flag=True,
              help="While a round is being played: the standing with the results in so far.")
@format_option
@pass_ctx
def standings(ctx: Context, round_no: int | None, category: str | None, provisional: bool, fmt: str) -> None:
    """The Keizer standing: rank, value, score, games, W/D/L, percentage."""
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    season = store.load_season(comp_id)
    upto = standings_ops.checked_round(season, round_no)
    running = None
    if provisional:
        if round_no is not None:
            raise StoreError("--provisional shows the round being played; leave out --round")
        running = standings_ops.progress(season)
        if running is None:
            click.echo(f"no round is being played: round {upto} is the last complete one", err=True)
    caption = (f"provisional standing, round {running['round']} ({running['in']} of {running['of']} results in)"
               if running else f"standing after round {upto}")
    show_standing(store, comp_id, season, upto, fmt, caption, running, category, round_no)


def show_standing(store: Store, comp_id: int, season: Season, upto: int, fmt: str, caption: str | None,
                  running: dict[str, Any] | None = None, category: str | None = None,
                  round_no: int | None = None) -> None:
    """The standing table of any system (``caption`` heads a table; None: the caller said it)."""
    if systems.of(store.system(comp_id)).points:
        _points_standings(store, comp_id, season, upto, fmt, caption, running is not None)
        return
    kind = systems.of(store.system(comp_id)).standing_kind
    if kind == "bracket":
        show_bracket(store, comp_id, fmt)
        return
    if kind == "matches":
        from keizer.cli.teams import show_team_standings

        show_team_standings(store, comp_id, round_no, fmt)
        return
    standing, rows, values = standings_ops.keizer_standing(store, comp_id, season, running["round"] if running else upto,
                                                           category, provisional=running is not None)
    for row in rows:
        if values:
            row["tiebreaks"] = {k: None if v is None else json_number(Fraction(v)) for k, v in values[row["id"]].items()}
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    decimals = season.settings.decimals
    table = [
        {**r, "name": r["name"] + (" (withdrawn)" if r["withdrawn"] else ""),
         "score": number(Fraction(r["score_exact"]), decimals), "value": number(Fraction(r["value_exact"]), decimals),
         "%": number(Fraction(r["percentage_exact"]) * 100, 0) if r["percentage_exact"] else ""}
        for r in rows
    ]
    if fmt == "table" and caption:
        click.echo(f"{season.name} — {caption}")
    codes = list(next(iter(values.values()))) if values else []
    for row in table:
        row.update({code: "" if row["tiebreaks"][code] is None else number(Fraction(row["tiebreaks"][code]), 2)
                    for code in codes})
    click.echo(render(table, ["rank", "name", "value", "score", "games", "wins", "draws", "losses", "%", *codes], fmt))


def _points_standings(store: Store, comp_id: int, season: Season, upto: int, fmt: str, caption: str | None,
                      provisional: bool) -> None:
    tiebreaks: tuple[str, ...] = ()
    if provisional:
        exact = standings_ops.provisional_points_rows(store, comp_id, season)
    else:
        rules, exact = standings_ops.points_rows(store, comp_id, season, upto)
        tiebreaks = rules.tiebreaks
    rows = [{**r, "points": json_number(r["points"]),
             "tiebreaks": {k: None if v is None else json_number(Fraction(v)) for k, v in r["tiebreaks"].items()}}
            for r in exact]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = [{**{k: v for k, v in r.items() if k != "tiebreaks"}, "points": number(Fraction(r["points"]), 2),
              **{tb: "" if v is None else number(Fraction(v), 2) for tb, v in r["tiebreaks"].items()}}
             for r in rows]
    if fmt == "table" and caption:
        click.echo(f"{season.name} — {caption}")
    click.echo(render(table, ["rank", "start_no", "name", "points", "games", "wins", "draws", "losses",
                              *tiebreaks], fmt))


@click.command()
@click.argument("player_ref")
@click.option("--round", "round_no", type=ROUND_OR_ZERO, help="As priced in the standing after this round.")
@click.option("--rating", is_flag=True,
              help="What each game did to the FIDE rating (provisional, not official): the opponent's rating, "
                   "the expected score, the change, and the sum and performance rating.")
@format_option
@pass_ctx
def history(ctx: Context, player_ref: str, round_no: int | None, rating: bool, fmt: str) -> None:
    """A player's rounds: opponent, colour, result, value used and points earned."""
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    found = standings_ops.player_history(store, comp_id, player_ref, round_no, with_fide=rating)
    if rating:
        from keizer.cli.careers import show_fide

        show_fide(found["name"], found["fide"], {p["key"]: p["name"] for p in store.players(comp_id)}, fmt,
                  found["dwz"], found["ecf"])
        if found["dwz"] is not None and fmt != "json":  # the club shows the DWZ too (keizer club --national-rating)
            from keizer.cli.careers import show_dwz

            show_dwz(found["name"], found["dwz"], fmt)
        if found["ecf"] is not None and fmt != "json":  # or the ECF rating
            from keizer.cli.careers import show_ecf

            show_ecf(found["name"], found["ecf"], fmt)
        return
    if found["kind"] == "points":
        _points_history(found, fmt)
        return
    decimals = found["decimals"]
    lines = found["rounds"]
    rows = [{**line, "value_used": json_number(line["value_used"]), "factor": str(line["factor"]),
             "points": json_number(line["points"])} for line in lines]
    if fmt == "json":
        click.echo(json.dumps({"id": found["id"], "name": found["name"], "round": found["round"],
                               "rank": found["rank"], "score": json_number(found["score"]),
                               "own_value": json_number(found["own_value"]), "rounds": rows},
                              ensure_ascii=False, indent=2))
        return
    table = [{**r, "value_used": number(Fraction(l["value_used"]), decimals), "points": number(l["points"], decimals)}
             for r, l in zip(rows, lines)]
    if fmt == "table":
        click.echo(f"{found['name']} — rank {found['rank']}, score {number(found['score'], decimals)} "
                   f"after round {found['round']}")
        click.echo(f"own value {number(found['own_value'], decimals)}")
    click.echo(render(table, ["round", "kind", "opponent", "colour", "result", "value_used", "factor", "points"], fmt))


def _points_history(found: dict[str, Any], fmt: str) -> None:
    """A round-robin or Swiss player's rounds: opponent, colour, result, points, running total."""
    rows = [{**r, "points": json_number(r["points"]), "total": json_number(r["total"])} for r in found["rounds"]]
    if fmt == "json":
        click.echo(json.dumps({"id": found["id"], "name": found["name"], "round": found["round"],
                               "rank": found["rank"], "points": json_number(found["points"]), "rounds": rows},
                              ensure_ascii=False, indent=2))
        return
    if fmt == "table":
        click.echo(f"{found['name']} — rank {found['rank']}, {number(found['points'])} points "
                   f"after round {found['round']}")
    table = [{**r, "points": number(Fraction(r["points"])), "total": number(Fraction(r["total"]))} for r in rows]
    click.echo(render(table, ["round", "kind", "opponent", "colour", "result", "points", "total"], fmt))


def show_bracket(store: Store, comp_id: int, fmt: str) -> None:
    from keizer.operations import cup

    _, states, season = cup.cup_state(store, comp_id)
    names: dict[str | None, str] = {p.id: p.name for p in season.players}  # None: a side not known yet
    rows = [{"round": m.round, "match": m.index, "top": names.get(m.top, ""), "bottom": names.get(m.bottom, ""),
             "winner": names.get(m.winner, ""), "how": m.how, "top_id": m.top, "bottom_id": m.bottom,
             "winner_id": m.winner} for m in states]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        click.echo(render(rows, ["round", "match", "top", "bottom", "winner", "how"], fmt))


COMMANDS = (standings, history)
