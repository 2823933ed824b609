"""The systems' own commands: ``keizer swiss …``, ``keizer roundrobin …`` and
``keizer knockout …`` (planned rounds, pairing numbers, Berger tables, draws, a cup's
matches).  Rounds are paired, played and shown with the everyday commands.

A thin view over :mod:`keizer.operations.competition`, :mod:`keizer.operations.swiss`
and :mod:`keizer.operations.cup`.
"""

from __future__ import annotations

import json
from datetime import datetime

import click

from keizer import systems
from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.cli.params import BOARD, DATE, ROUND, SEED, Whole
from keizer.cli.standings import show_bracket
from keizer.cli.words import say
from keizer.operations import competition as comp_ops
from keizer.output import FORMATS, render
from keizer.refusals import Message
from keizer.store import StoreError


@click.group()
def swiss() -> None:
    """Swiss tournaments (FIDE Dutch system): pair each round with 'keizer pair'."""


@swiss.command("rounds")
@click.argument("rounds", type=Whole(1, 99))
@pass_ctx
def swiss_rounds(ctx: Context, rounds: int) -> None:
    """Change the planned number of rounds (the last round pairs top scorers differently).
    Also for a Swiss team event."""
    with writing(ctx, "swiss rounds", Message("%(rounds)s rounds planned", rounds=rounds)) as store:
        comp_id = ctx.comp(store)["id"]
        if "rounds" not in systems.of(store.system(comp_id)).settings:  # a Swiss, or a team event (a Swiss one)
            comp_ops.require_system(store, comp_id, "swiss", "plan rounds")
        comp_ops.change_system_settings(store, comp_id, {"rounds": str(rounds)})
    click.echo(f"{rounds} rounds planned")


@swiss.command("numbers")
@format_option
@pass_ctx
def swiss_numbers(ctx: Context, fmt: str) -> None:
    """The pairing numbers (TPN): by rating before round 1, late entrants placed by rating.

    Numbers are given when a round is paired; until then this shows what they will be."""
    from keizer.operations.swiss import tpn_order

    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    comp_ops.require_system(store, comp_id, "swiss", "number players")
    numbered = tpn_order(store, comp_id)
    rows = {r["key"]: r for r in store.players(comp_id)}
    click.echo(render([{"tpn": k, "name": rows[key]["name"], "rating": rows[key]["rating"]}
                       for k, key in enumerate(numbered, 1)], ["tpn", "name", "rating"], fmt))


# -- round-robin groups ---------------------------------------------------------


@click.group()
def roundrobin() -> None:
    """Round-robin groups (meerkampen): FIDE's Berger tables."""


@roundrobin.command("schedule")
@click.argument("players", type=Whole(2, 1000))
@click.option("--double", is_flag=True, help="Two cycles, colours reversed in the second.")
@click.option("--swap-last-two", is_flag=True, help="Swap the last two rounds of the first cycle (FIDE's advice).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
def roundrobin_schedule(players: int, double: bool, swap_last_two: bool, fmt: str) -> None:
    """The Berger schedule for PLAYERS players: white first, start numbers, 0 = bye."""
    from keizer.pairing.roundrobin import berger_schedule, schedule_json

    try:
        schedule = berger_schedule(players, double, swap_last_two)
    except ValueError as e:
        raise StoreError(str(e)) from None
    if fmt == "json":
        click.echo(json.dumps(schedule_json(schedule)))
        return
    rows = [{"round": r.round, "pairs": "  ".join(f"{w}-{b}" for w, b in r.pairs)} for r in schedule]
    click.echo(render(rows, ["round", "pairs"], fmt))


@roundrobin.command("draw")
@click.argument("order", nargs=-1)
@click.option("--seed", type=SEED, help="Seed of the lot (recorded; the same seed draws the same numbers).")
@click.option("--first-date", type=DATE, help="Date of round 1; later rounds follow.")
@click.option("--every", type=Whole(1, 365), default=7, show_default=True, help="Days between rounds.")
@pass_ctx
def roundrobin_draw(ctx: Context, order: tuple[str, ...], seed: int | None, first_date: datetime | None,
                    every: int) -> None:
    """Draw the start numbers by lot (or give ORDER: every player, number 1 first) and store all rounds."""
    with writing(ctx, "roundrobin draw", Message("round-robin draw")) as store:
        comp_id = ctx.comp(store)["id"]
        numbered, used = comp_ops.draw_round_robin(store, comp_id, seed, order,
                                                   first_date.date() if first_date else None, every)
        rounds = len(store.round_numbers(comp_id))
        names = {r["key"]: r["name"] for r in store.players(comp_id)}
    how = f"by lot (seed {used})" if used is not None else "by hand"
    click.echo(f"numbers {how}; {rounds} rounds scheduled")
    click.echo(render([{"no": k, "name": names[key]} for k, key in enumerate(numbered, 1)], ["no", "name"], "table"))


# -- knock-out cups -------------------------------------------------------------


@click.group()
def knockout() -> None:
    """Knock-out cups: seeding, matches with tie-break stages, the bracket."""


@knockout.command("draw")
@click.argument("order", nargs=-1)
@pass_ctx
def knockout_draw(ctx: Context, order: tuple[str, ...]) -> None:
    """Seed the entrants by rating (or ORDER: every entrant, seed 1 first) and create round 1."""
    from keizer.operations import cup

    with writing(ctx, "knockout draw", Message("cup draw")) as store:
        comp_id = ctx.comp(store)["id"]
        seeds = cup.draw_cup(store, comp_id, order)
        names = {r["key"]: r["name"] for r in store.players(comp_id)}
    click.echo(render([{"seed": k, "name": names[key]} for k, key in enumerate(seeds, 1)], ["seed", "name"], "table"))
    click.echo("round 1 created; enter results with 'keizer result --round 1 BOARD=RESULT', then 'keizer knockout next'")


@knockout.command("next")
@pass_ctx
def knockout_next(ctx: Context) -> None:
    """Create what can be played next: tie-break games of level matches, and the next round's matches."""
    from keizer.operations import cup

    with writing(ctx, "knockout next", Message("cup: next games")) as store:
        created = cup.advance(store, ctx.comp(store)["id"])
    click.echo("\n".join(map(say, created)) if created else "nothing to create: results are missing, or the cup is decided")


@knockout.command("award")
@click.argument("round_no", type=ROUND)
@click.argument("match", type=BOARD)
@click.argument("winner")
@pass_ctx
def knockout_award(ctx: Context, round_no: int, match: int, winner: str) -> None:
    """The arbiter decides a match (withdrawal, or a lot when every stage is level)."""
    from keizer.operations import cup

    with writing(ctx, "knockout award", Message("award round %(round)s match %(match)s to %(winner)s",
                                                round=round_no, match=match, winner=winner)) as store:
        cup.award(store, ctx.comp(store)["id"], round_no, match, winner)
    click.echo(f"round {round_no} match {match} awarded to {winner}")


@knockout.command("bracket")
@format_option
@pass_ctx
def knockout_bracket(ctx: Context, fmt: str) -> None:
    """Every match of the cup: the sides, how it stands, the winner."""
    store = ctx.store()
    show_bracket(store, ctx.comp(store)["id"], fmt)


COMMANDS = (swiss, roundrobin, knockout)
