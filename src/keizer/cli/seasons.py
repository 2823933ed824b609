"""``keizer season …``: the next season, the list of seasons, closing and reopening one.

Registered in ``keizer.cli`` (``_Commands.lazy``); the work is done in
:mod:`keizer.operations.seasons`, each command in one ``writing`` transaction (logged, undoable).
"""

from __future__ import annotations

import json

import click

from keizer.operations import seasons as ops
from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.output import render
from keizer.refusals import Message


@click.group("season")
def season() -> None:
    """Seasons: start the next one from the last, list them, close and reopen them."""


@season.command("new")
@click.argument("name_of_season", metavar="SEASON")
@click.option("--from", "source", required=True, metavar="COMPETITION",
              help="Last season's Keizer competition, e.g. \"Interne 2025-2026\".")
@click.option("--name", help="Name of the new competition (default: the source's, with the season replaced).")
@click.option("--order", type=click.Choice(list(ops.ORDERS)), default="standing", show_default=True,
              help="Initial order: " + "; ".join(f"{k}: {v}" for k, v in ops.ORDERS.items()) + ".")
@click.option("--with-withdrawn", is_flag=True, help="Also carry over players who withdrew last season.")
@click.option("--all-members", is_flag=True, help="Also enter every member who did not play last season.")
@pass_ctx
def season_new(ctx: Context, name_of_season: str, source: str, name: str | None, order: str,
               with_withdrawn: bool, all_members: bool) -> None:
    """Start SEASON's Keizer competition with last season's players and settings.

    Last season's competition stays as it was (close it with 'keizer season close').
    """
    with writing(ctx, "season new", Message("new season %(season)s from %(source)s",
                                            season=name_of_season, source=source)) as store:
        made = ops.new_season(store, source, name_of_season, name, order, with_withdrawn, all_members)
        store.describe(Message("new season %(season)s: %(name)s from %(source)s", season=made.season, name=made.name, source=source))
    click.echo(f"created {made.name} (season {made.season}) with the settings of {source}")
    click.echo(f"players: {len(made.carried)} carried over"
               + (f", {len(made.newcomers)} newcomers" if made.newcomers else ""))
    if made.left_out:
        click.echo(f"left out, withdrawn last season: {', '.join(made.left_out)} "
                   "(add with 'keizer player add', or use --with-withdrawn)")
    if made.not_entered:
        click.echo(f"not entered: {made.not_entered} members who did not play last season "
                   "(add with 'keizer player add', or use --all-members)")
    click.echo(f"initial order {made.order}: {ops.ORDERS[order]}")
    click.echo("see it with 'keizer competition order'; it can change until round 1 is paired")


@season.command("list")
@format_option
@pass_ctx
def season_list(ctx: Context, fmt: str) -> None:
    """The seasons, newest first: their competitions, which is current, which are closed."""
    rows = ops.season_rows(ctx.store())
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    flat = [{**row, "current": "yes" if row["current"] else "",
             "competitions": ", ".join(c["name"] + (" (closed)" if c["closed"] and row["status"] != "closed" else "")
                                       for c in row["competitions"])} for row in rows]
    click.echo(render(flat, ["season", "current", "status", "competitions"], fmt))


@season.command("close")
@click.argument("name_of_season", metavar="[SEASON]", required=False)
@pass_ctx
def season_close(ctx: Context, name_of_season: str | None) -> None:
    """Close SEASON (default: the season of the competition in use): its competitions take
    no more results, attendance, pairings, settings or player changes.  Undo with
    'keizer season reopen SEASON' (or 'keizer undo')."""
    with writing(ctx, "season close", Message("close season %(season)s", season=name_of_season)) as store:
        chosen = name_of_season if name_of_season is not None else store.competition(ctx.competition_ref)["season"]
        names = ops.close_season(store, chosen)
        store.describe(Message("close season %(season)s", season=chosen))
        unplayed = ops.unplayed(store, chosen)
    click.echo(f"closed season {chosen}: {', '.join(names)}; their standings are final "
               f"('{ops.reopen_hint(chosen)}' reopens them)")
    if unplayed:  # closing the new season by mistake, instead of last season's
        click.echo(f"warning: {', '.join(unplayed)} had no round played yet; was it last season you meant to close?",
                   err=True)


@season.command("reopen")
@click.argument("name_of_season", metavar="SEASON")
@pass_ctx
def season_reopen(ctx: Context, name_of_season: str) -> None:
    """Reopen a closed SEASON: its competitions can be changed again."""
    with writing(ctx, "season reopen", Message("reopen season %(season)s", season=name_of_season)) as store:
        names = ops.reopen_season(store, name_of_season)
    click.echo(f"reopened season {name_of_season}: {', '.join(names)}")
