"""``keizer competition …``, ``player …``, ``presets``, ``timecontrol`` and ``forbid``:
setting a competition up — its system and settings, its players, its time controls.

A thin view over :mod:`keizer.operations.setup` and :mod:`keizer.operations.competition`.
"""

from __future__ import annotations

import json
from typing import Any

import click

from keizer import systems
from keizer.cli.base import Context, confirm_leaving, format_option, leave_fide_options, pass_ctx, writing
from keizer.cli.words import say
from keizer.cli.params import CATEGORY, ROUND, SEED, TIME_CONTROL, Whole
from keizer.operations import competition as comp_ops
from keizer.operations import rounds as rounds_ops
from keizer.output import render
from keizer.refusals import Message, Word
from keizer.settings import PRESETS
from keizer.store import StoreError


@click.group()
def competition() -> None:
    """Competitions of the season."""


@competition.command("create")
@click.argument("name")
@click.option("--system", type=click.Choice(["keizer", "roundrobin", "swiss", "knockout", "team"]), default="keizer",
              show_default=True,
              help="keizer; roundrobin (a group, meerkamp); swiss (FIDE Dutch); knockout (a cup); team (a team event).")
@click.option("--preset", type=click.Choice(list(PRESETS)), default="classic", show_default=True)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a Keizer setting (repeatable).")
@click.option("--double", is_flag=True, help="Round-robin (players or teams): two cycles, colours reversed.")
@click.option("--swap-last-two", is_flag=True, help="Round-robin: swap the last two rounds of the first cycle (FIDE).")
@click.option("--tiebreaks", help="Tie-break list, e.g. 'DE,SB,WIN' (default: FIDE's recommendation).")
@click.option("--edition", default="2026", show_default=True, help="Tie-break rule edition.")
@click.option("--lots", type=SEED, help="Round-robin: seed of the drawing of lots for ties the list leaves.")
@click.option("--stages", help="Knock-out: the games of a match, stage by stage (regular, rapid, blitz, "
              "armageddon); a cup's default regular:2,rapid:2,blitz:2,armageddon:1. Team knock-out: the tie-break "
              "stages after the match, boards each, e.g. rapid:4,armageddon:1 (default none).")
@click.option("--boards", type=Whole(1, 20), default=4, show_default=True, help="Team event: boards per match.")
@click.option("--schedule", type=click.Choice(["roundrobin", "crepaux", "knockout", "swiss"]), default="roundrobin",
              show_default=True,
              help="Team event: a team round-robin, the Crepaux system (three teams), a knock-out, or a Swiss.")
@click.option("--rounds", type=Whole(1, 99), help="Swiss (players or teams): the planned number of rounds.")
@click.option("--bye-points", help="Swiss: points of the pairing-allocated bye (default 1).")
@click.option("--excused-points", help="Swiss: points of a requested bye, an excused absence (default ½).")
@click.option("--initial-colour", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="Swiss: the colour of the top-ranked player in round 1 (drawn by lot before the event).")
@click.option("--acceleration", type=click.Choice(["none", "baku"]), default="none", show_default=True,
              help="Swiss: accelerated pairings by FIDE's Baku method (C.04.7).")
@click.option("--fide-mode/--no-fide-mode", "fide_mode", default=None,
              help="Swiss, round-robin: run it by the FIDE rules, refusing what leaves them unless confirmed "
                   "(default: FIDE mode when its settings are FIDE's).")
@click.option("--pairing", type=click.Choice(["dutch", "dubov", "burstein", "lim"]), default="dutch",
              show_default=True, help="Swiss: the pairing system, FIDE's Dutch system (C.04.3), the Dubov (C.04.4.1), "
                                      "the Burstein (C.04.4.2) or the Lim system (C.04.4.3).")
@click.option("--all-members", is_flag=True, help="Register every member as a player.")
@click.option("--season", help="The season it belongs to, e.g. 2026-2027 (default: the club's season, else "
              "the August–July season of today); it decides the folder of its pages on the site.")
@pass_ctx
def competition_create(ctx: Context, name: str, system: str, preset: str, sets: tuple[str, ...], double: bool,
                       swap_last_two: bool, tiebreaks: str | None, edition: str, lots: int | None, stages: str | None,
                       boards: int, schedule: str, rounds: int | None, bye_points: str | None,
                       excused_points: str | None, initial_colour: str, acceleration: str, pairing: str,
                       fide_mode: bool | None,
                       all_members: bool, season: str | None) -> None:
    """Create a competition: Keizer (a preset plus overrides), a round-robin group, a Swiss
    tournament, a cup or a team event."""
    from keizer.operations.setup import create_competition, parse_sets, plan_competition

    new = plan_competition(name, system, preset, parse_sets(sets), double, swap_last_two, tiebreaks, edition, lots,
                           stages, boards, schedule, rounds, bye_points, excused_points, initial_colour,
                           all_members, season, acceleration, pairing, fide_mode)
    with writing(ctx, "competition create", Message("create competition %(name)s", name=name), create=True) as store:
        _comp_id, registered = create_competition(store, new)
    for w in new.warnings:
        click.echo(f"warning: {say(w)}", err=True)
    click.echo(f"created {say(new.kind)} {name}; {registered} players registered")


@competition.command("list")
@format_option
@pass_ctx
def competition_list(ctx: Context, fmt: str) -> None:
    """All competitions."""
    click.echo(render(ctx.store().competitions(), ["id", "name", "system", "preset", "created"], fmt))


@competition.command("order")
@click.argument("players", nargs=-1)
@click.option("--by", type=click.Choice(["rating", "standing", "hand"]),
              help="Set the order: by rating, by another competition's standing (--from), or by hand (PLAYERS).")
@click.option("--from", "source", metavar="COMPETITION", help="With --by standing: e.g. last season's competition.")
@format_option
@pass_ctx
def competition_order(ctx: Context, players: tuple[str, ...], by: str | None, source: str | None, fmt: str) -> None:
    """Show the initial order (the ranking that prices round 1), or set it before round 1.

    Players not placed follow by rating.  The order freezes when round 1 is paired; a
    later entrant comes after it, by the rating they have when entered.
    """
    if players and by is None:
        by = "hand"
    if by is not None:
        if players and by != "hand":
            raise StoreError("players are listed only with --by hand")
        if source is not None and by != "standing":
            raise StoreError("--from goes with --by standing")
        with writing(ctx, "competition order", Message("initial order")) as store:
            how = comp_ops.set_initial_order(store, ctx.comp(store)["id"], by, players, source)
            store.describe(Message("initial order %(how)s", how=how))
    store = ctx.store()
    rows, heading = comp_ops.initial_order_rows(store, ctx.comp(store)["id"])
    if fmt == "table":
        click.echo(str(heading))
    click.echo(render(rows, ["position", "start_no", "name", "rating", "placed"], fmt))


@competition.command("season")
@click.argument("season")
@pass_ctx
def competition_season(ctx: Context, season: str) -> None:
    """Move the competition to another season (e.g. one created in July for the next season).

    Its pages are published in that season's folder from the next 'keizer publish' on.
    """
    with writing(ctx, "competition season", Message("season %(season)s", season=season)) as store:
        row = ctx.comp(store)
        store.set_season(row["id"], season)
        moved = store.competition(str(row["id"]))
    click.echo(f"{moved['name']} belongs to season {moved['season']}")
    if row["season"] != moved["season"]:
        click.echo(f"note: pages published before stay in the {row['season']} folder as an archived season; "
                   "delete them there if they were published", err=True)


@competition.command("use")
@click.argument("name")
@pass_ctx
def competition_use(ctx: Context, name: str) -> None:
    """Make a competition the default for later commands."""
    with writing(ctx, "competition use", Message("use competition %(name)s", name=name)) as store:
        row = store.competition(name)
        store.set_meta("current_competition", str(row["id"]))
    click.echo(f"using {row['name']}")


@competition.command("settings")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Change a setting (repeatable).")
@leave_fide_options
@format_option
@pass_ctx
def competition_settings(ctx: Context, sets: tuple[str, ...], leave_fide_rules: bool, yes: bool, fmt: str) -> None:
    """Show the effective settings, or change them with --set (recorded in the log)."""
    from keizer.operations.setup import change_settings, parse_sets, settings_rows

    if sets:
        overrides = parse_sets(sets)
        summary = ", ".join(f"{k}={v}" for k, v in overrides.items())
        confirm_leaving(leave_fide_rules, yes)
        with writing(ctx, "competition settings", Message("settings: %(summary)s", summary=summary)) as store:
            note = change_settings(store, ctx.comp(store)["id"], overrides, leave_fide_rules)
        if note:
            click.echo(note, err=True)
    store = ctx.store()
    row = ctx.comp(store)
    comp_id = row["id"]
    if fmt == "json":
        if not systems.of(store.system(comp_id)).preset_settings:
            view = {**comp_ops.system_settings_view(store, comp_id), "rating_list": store.rating_list(comp_id)}
            click.echo(json.dumps({"system": store.system(comp_id), **view}, ensure_ascii=False, indent=2))
        else:
            settings = {**store.settings(comp_id).to_dict(), "rating_list": store.rating_list(comp_id)}
            click.echo(json.dumps({"preset": row["preset"], **settings}, ensure_ascii=False, indent=2))
    else:
        click.echo(render(settings_rows(store, comp_id), ["setting", "value", "meaning"], fmt))


def _setting_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ",".join(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


@click.command()
@click.argument("time_control", type=TIME_CONTROL, required=False)
@click.option("--rounds", "rounds", metavar="RANGE", help="Rounds of the plan: 3, 1-3 or 4- (from round 4 on).")
@click.option("--round", "round_no", type=ROUND, help="Only this (existing) round.")
@click.option("--clear", is_flag=True, help="Remove the time control of those rounds.")
@format_option
@pass_ctx
def timecontrol(ctx: Context, time_control: str | None, rounds: str | None, round_no: int | None, clear: bool,
                fmt: str) -> None:
    """Record the time control per round, e.g. rapid for the first rounds, classical after.

    keizer timecontrol "rapid 25+10" --rounds 1-3; keizer timecontrol "classical 90+30" --rounds 4-
    """
    from keizer.operations.setup import check_time_control, set_time_control, time_control_rows

    if time_control or clear:
        text = check_time_control(time_control, rounds, round_no, clear)
        with writing(ctx, "timecontrol", Message("time control %(text)s for %(rounds)s",
                                                 text=text or Word("cleared"), rounds=rounds or round_no)) as store:
            set_time_control(store, ctx.comp(store)["id"], text, rounds, round_no)
    elif rounds or round_no:
        raise StoreError("give the time control to set, e.g. keizer timecontrol \"rapid 25+10\" --rounds 1-3")
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    plan = time_control_rows(store, comp_id)
    season = store.load_season(comp_id)
    if fmt == "json":
        click.echo(json.dumps({"plan": plan, "rounds": [{"round": r.number, "time_control": r.time_control}
                                                        for r in season.rounds]}, ensure_ascii=False, indent=2))
    else:
        click.echo(render(plan, ["rounds", "time_control"], fmt))


@click.command()
@format_option
def presets(fmt: str) -> None:
    """The presets and how each differs from classic."""
    base = PRESETS["classic"]
    rows = []
    for name, settings in PRESETS.items():
        diff = settings.differences(base) if name != "classic" else {}
        rows.append({"preset": name, "differs_from_classic": ", ".join(f"{k}={_setting_text(v[0])}" for k, v in diff.items())})
    click.echo(render(rows, ["preset", "differs_from_classic"], fmt))


# -- players ------------------------------------------------------------------


@click.group()
def player() -> None:
    """Players of the competition (members entered in it)."""


@player.command("add")
@click.argument("members", nargs=-1, required=True)
@click.option("--joined", type=ROUND, help="First round the player takes part in (default: the next round).")
@click.option("--category", type=CATEGORY, help="Category (A, B, …) for category standings and pairing.")
@leave_fide_options
@pass_ctx
def player_add(ctx: Context, members: tuple[str, ...], joined: int | None, category: str | None,
               leave_fide_rules: bool, yes: bool) -> None:
    """Register members (by name, #id or federation id) in the competition."""
    from keizer.operations.setup import add_players

    confirm_leaving(leave_fide_rules, yes)
    with writing(ctx, "player add", Message("register %(players)s", players=', '.join(members))) as store:
        first, note = add_players(store, ctx.comp(store), members, joined, category, leave_fide_rules)
    click.echo(f"registered {len(members)} player(s), from round {first}")
    if note:
        click.echo(say(note), err=True)


@player.command("list")
@format_option
@pass_ctx
def player_list(ctx: Context, fmt: str) -> None:
    """Players with start number, rating, joined/withdrawn rounds."""
    store = ctx.store()
    rows = store.players(ctx.comp(store)["id"])
    click.echo(render(rows, ["start_no", "key", "name", "rating", "joined", "withdrawn_after", "category"], fmt))


@player.command("set")
@click.argument("player_ref")
@click.option("--category", type=CATEGORY)
@click.option("--joined", type=ROUND)
@click.option("--default", "default", type=click.Choice(["present", "absent"]),
              help="This player's attendance when not marked.")
@pass_ctx
def player_set(ctx: Context, player_ref: str, category: str | None, joined: int | None, default: str | None) -> None:
    """Change a player's category, first round or default attendance."""
    from keizer.operations.setup import set_player

    with writing(ctx, "player set", Message("set %(player)s", player=player_ref)) as store:
        name, changed = set_player(store, ctx.comp(store)["id"], player_ref, category, joined, default)
    click.echo(f"updated {name}: {', '.join(map(say, changed))}" if changed else f"{name}: nothing changed")


@player.command("withdraw")
@click.argument("player_ref")
@pass_ctx
def player_withdraw(ctx: Context, player_ref: str) -> None:
    """Withdraw a player from the next round on."""
    with writing(ctx, "player withdraw", Message("withdraw %(player)s", player=player_ref)) as store:
        from keizer.operations.setup import withdraw_player

        last = withdraw_player(store, ctx.comp(store)["id"], player_ref)
    click.echo(f"{player_ref} withdrawn after round {last}")


@player.command("reinstate")
@click.argument("player_ref")
@click.option("--missed", type=click.Choice(["unexcused", "excused"]), default="unexcused", show_default=True,
              help="How the rounds played since the withdrawal count.")
@pass_ctx
def player_reinstate(ctx: Context, player_ref: str, missed: str) -> None:
    """Undo a withdrawal: the player takes part again."""
    with writing(ctx, "player reinstate", Message("reinstate %(player)s", player=player_ref)) as store:
        row, gone = comp_ops.reinstate(store, ctx.comp(store)["id"], player_ref, missed)
    since = (f"; round {gone[0]} counts as an {missed} absence" if len(gone) == 1 else
             f"; rounds {_span(gone)} count as {missed} absences" if gone else "")
    click.echo(f"{row['name']} takes part again{since}")


def _span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--remove", is_flag=True, help="Allow the pair again.")
@pass_ctx
def forbid(ctx: Context, a: str, b: str, remove: bool) -> None:
    """Never pair these two players (e.g. family), unless nothing else works."""
    with writing(ctx, "forbid", Message("allow %(a)s – %(b)s", a=a, b=b) if remove
                                else Message("forbid %(a)s – %(b)s", a=a, b=b)) as store:
        name_a, name_b = rounds_ops.forbid_pair(store, ctx.comp(store)["id"], a, b, remove)
    click.echo(f"{name_a} – {name_b}: {'allowed again' if remove else 'forbidden'}")


COMMANDS = (competition, timecontrol, presets, player, forbid)
