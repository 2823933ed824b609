"""The ``keizer`` command: thin click commands over store, engines and formats.

Every command that writes runs in one transaction (``Store.change``) and is
logged, so ``keizer undo`` reverts it.  Errors a user can fix are printed as
one line on stderr with exit status 1; the database is left as it was.
"""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

import click

from keizer.cli.params import BOARD, CATEGORY, COUNT, DATE, RATING, ROUND, ROUND_OR_ZERO, SEED, TIME_CONTROL, Whole
from keizer.formats.season_json import FormatError
from keizer.operations import competition as comp_ops
from keizer.operations import rounds as rounds_ops
from keizer.operations import standings as standings_ops
from keizer.operations.seasons import refuse_closed
from keizer.output import FORMATS, json_number, number, render
from keizer.settings import PRESETS, SettingsError
from keizer.store import Store, StoreError, explain


class Context:
    def __init__(self, db: str, competition: str | None):
        self.db = Path(db)
        self.competition_ref = competition
        self._store: Store | None = None
        self.created = False
        self.writing = False  # inside writing(): the competition a command fetches is the one it writes

    def store(self, create: bool = False, replace_empty: bool = False) -> Store:
        if self._store is None:
            existed = self.db.exists() and self.db.stat().st_size > 0
            self._store = Store.open(self.db, create=create, defer_upgrade=True, replace_empty=replace_empty)
            self.created = not existed
        return self._store

    def comp(self, store: Store) -> dict[str, Any]:
        row = store.competition(self.competition_ref)
        if self.writing:  # every command writes its competition through here: a closed one is refused
            refuse_closed(row)
        return row


pass_ctx = click.make_pass_decorator(Context)
_OPENED: list[Context] = []  # for cleaning up after a failed command
format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format."
)


class _Commands(click.Group):
    """The command groups that live in modules of their own are imported only when
    used, so that the everyday commands start quickly."""

    lazy = {"trf": "keizer.cli.trf:trf", "team": "keizer.cli.teams:team", "season": "keizer.cli.seasons:season",
            "ratings": "keizer.cli.ratings:ratings", "serve": "keizer.cli.serve:serve",
            "user": "keizer.cli.serve:user", "member-link": "keizer.cli.links:member_link",
            "notices": "keizer.cli.links:notices"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module, attr = self.lazy[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="KEIZER_DB", default="club.db", show_default=True,
              help="Season database (default from $KEIZER_DB).")
@click.option("-c", "--competition", help="Competition name or id (default: the one used last).")
@click.version_option(package_name="keizer")
@click.pass_context
def cli(ctx: click.Context, db: str, competition: str | None) -> None:
    """Run a chess club's Keizer competition: attendance, pairings, results, standings."""
    ctx.obj = Context(db, competition)
    _OPENED.append(ctx.obj)


@contextmanager
def writing(ctx: Context, command: str, summary: str, create: bool = False) -> Iterator[Store]:
    store = ctx.store(create=create)
    # The log's summary quotes the arguments: bytes that are not UTF-8 (a file name) become '?'.
    ctx.writing = True
    try:
        with store.change(command, summary.encode("utf-8", "replace").decode("utf-8")):
            yield store
    finally:
        ctx.writing = False


# -- database -----------------------------------------------------------------


@cli.command()
@pass_ctx
def init(ctx: Context) -> None:
    """Create an empty season database."""
    if ctx.db.exists() and ctx.db.stat().st_size > 0:
        ctx.store()  # refuses foreign or newer files
        click.echo(f"{ctx.db} is already a keizer database")
        return
    ctx.store(create=True, replace_empty=True)
    click.echo(f"created {ctx.db}")


@cli.command()
@click.option("-y", "--yes", is_flag=True, help="Do not ask; undo at once.")
@pass_ctx
def undo(ctx: Context, yes: bool) -> None:
    """Revert the last change (any command that wrote to the database).

    Shows the change first (which command, when, what) and, at a terminal, asks before
    reverting it: on a shared file it may be someone else's work.  A script (input not
    a terminal) is not asked.
    """
    store = ctx.store()
    last = store.last_change()
    if last is None:
        raise StoreError("nothing to undo: the change log is empty")
    from keizer.operations.changes import describe

    what = describe(last)
    if not yes and sys.stdin.isatty():
        click.echo(f"the last change is {what}")
        click.confirm("undo it?", abort=True)
    store.undo(last["id"])
    click.echo(f"undone: {what}")


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@pass_ctx
def backup(ctx: Context, file: Path, force: bool) -> None:
    """Copy the database to FILE, consistently even while another command writes to it.

    Uses SQLite's online backup, then checks that the copy opens; an existing FILE is
    kept unless --force.  (A plain file copy made during a write can be torn.)
    """
    from keizer.store import backup as copy_database

    copy_database(ctx.db, file, overwrite=force)
    click.echo(f"backed up {ctx.db} to {file}")


@cli.command()
@click.option("-n", "--limit", type=COUNT, default=20, show_default=True, help="How many changes to show.")
@format_option
@pass_ctx
def log(ctx: Context, limit: int, fmt: str) -> None:
    """The change log, newest first."""
    rows = ctx.store().changes(limit)
    click.echo(render(rows, ["id", "at", "command", "summary", "origin"], fmt))


# -- members ------------------------------------------------------------------


@cli.group()
def member() -> None:
    """Club members (shared by all competitions)."""


_allow_duplicate = click.option(
    "--allow-duplicate", is_flag=True,
    help="Allow a name that equals another member's up to case, accents and spaces (a namesake).")


@member.command("add")
@click.argument("name")
@click.option("--rating", type=RATING, help="Rating (0–4000).")
@click.option("--fed-id", help="Federation id, e.g. the KNSB relatienummer.")
@click.option("--fide-id", help="FIDE id (a number).")
@click.option("--fide-rating", type=RATING, help="FIDE rating (0–4000); --rating is the national one.")
@_allow_duplicate
@pass_ctx
def member_add(ctx: Context, name: str, rating: int | None, fed_id: str | None, fide_id: str | None,
               fide_rating: int | None, allow_duplicate: bool) -> None:
    """Add a member (refused when one with the same name exists, unless --allow-duplicate)."""
    from keizer.operations.members import add_member

    with writing(ctx, "member add", f"add member {name}", create=True) as store:
        added = add_member(store, name, rating, fed_id, fide_id, fide_rating, allow_duplicate)
    click.echo(f"added member #{added['id']} {added['name']}")


@member.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--update-names", is_flag=True, help="Also take the file's spelling of the names of matched members.")
@_allow_duplicate
@click.option("--dry-run", is_flag=True, help="Show the changes without writing them.")
@pass_ctx
def member_import(ctx: Context, file: Path, update_names: bool, allow_duplicate: bool, dry_run: bool) -> None:
    """Add or update members from a CSV file with a header row.

    A row is the member with its federation id, else the member with its name
    (exactly so, else ignoring case, accents and spaces) that has no other
    federation id.  That member gets the file's rating and federation id, and
    with --update-names its spelling of the name; other rows are new members.
    Every change is listed.  Semicolon or comma separated, UTF-8 or
    Windows-1252 (the KNSB rating list works as it is).
    """
    from keizer.operations.members import plan_member_import, write_member_import

    exists = ctx.db.exists() and ctx.db.stat().st_size > 0
    store = ctx.store() if exists else Store.memory() if dry_run else None
    todo = plan_member_import(store.members() if store else [], file, update_names, allow_duplicate)
    counts = todo.counts
    if todo.plan.changes:
        store = store or ctx.store(create=True)
        try:
            with store.change("member import", todo.summary):
                write_member_import(store, todo)
                for line in todo.lines:  # listed before the commit, so a refusal above lists nothing
                    click.echo(line)
                if dry_run:
                    raise _DryRun()
        except _DryRun:
            pass
    if dry_run and store:
        store.rollback_upgrade()  # an older file is not upgraded either
    kept = (f"; {todo.plan.names_kept} names differ from the file's spelling (kept; --update-names takes the "
            "file's)" if todo.plan.names_kept else "")
    click.echo(("dry run, nothing written: " if dry_run else "") + counts + kept)


@member.command("list")
@format_option
@pass_ctx
def member_list(ctx: Context, fmt: str) -> None:
    """All members."""
    click.echo(render(ctx.store().members(), ["id", "name", "rating", "fed_id", "fide_id", "fide_rating"], fmt))


@member.command("edit")
@click.argument("member_ref")
@click.option("--name", help="New name.")
@click.option("--rating", type=RATING, help="New rating (0–4000).")
@click.option("--fed-id", help="New federation id.")
@click.option("--fide-id", help="New FIDE id.")
@click.option("--fide-rating", type=RATING, help="New FIDE rating (0–4000).")
@_allow_duplicate
@pass_ctx
def member_edit(ctx: Context, member_ref: str, name: str | None, rating: int | None, fed_id: str | None,
                fide_id: str | None, fide_rating: int | None, allow_duplicate: bool) -> None:
    """Change a member's name, ratings or ids (the member by name, #id or federation id)."""
    fields = {k: v for k, v in dict(name=name, rating=rating, fed_id=fed_id, fide_id=fide_id,
                                    fide_rating=fide_rating).items() if v is not None}
    if not fields:
        raise StoreError("nothing to change: give --name, --rating, --fed-id, --fide-id or --fide-rating")
    from keizer.operations.members import edit_member

    with writing(ctx, "member edit", f"edit member {member_ref}") as store:
        new, changed = edit_member(store, member_ref, fields, allow_duplicate)
    click.echo(f"#{new['id']} {new['name']}: {changed}")


# -- competitions -------------------------------------------------------------


def _parse_sets(sets: tuple[str, ...]) -> dict[str, str]:
    from keizer.operations.setup import parse_sets

    return parse_sets(sets)


@cli.group()
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
@click.option("--all-members", is_flag=True, help="Register every member as a player.")
@click.option("--season", help="The season it belongs to, e.g. 2026-2027 (default: the club's season, else "
              "the August–July season of today); it decides the folder of its pages on the site.")
@pass_ctx
def competition_create(ctx: Context, name: str, system: str, preset: str, sets: tuple[str, ...], double: bool,
                       swap_last_two: bool, tiebreaks: str | None, edition: str, lots: int | None, stages: str | None,
                       boards: int, schedule: str, rounds: int | None, bye_points: str | None,
                       excused_points: str | None, initial_colour: str, all_members: bool,
                       season: str | None) -> None:
    """Create a competition: Keizer (a preset plus overrides), a round-robin group, a Swiss
    tournament, a cup or a team event."""
    from keizer.operations.setup import create_competition, plan_competition

    new = plan_competition(name, system, preset, _parse_sets(sets), double, swap_last_two, tiebreaks, edition, lots,
                           stages, boards, schedule, rounds, bye_points, excused_points, initial_colour,
                           all_members, season)
    with writing(ctx, "competition create", f"create competition {name}", create=True) as store:
        _comp_id, registered = create_competition(store, new)
    for w in new.warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"created {new.kind} {name}; {registered} players registered")


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
        with writing(ctx, "competition order", "initial order") as store:
            how = comp_ops.set_initial_order(store, ctx.comp(store)["id"], by, players, source)
            store.describe(f"initial order {how}")
    store = ctx.store()
    rows, heading = comp_ops.initial_order_rows(store, ctx.comp(store)["id"])
    if fmt == "table":
        click.echo(heading)
    click.echo(render(rows, ["position", "start_no", "name", "rating", "placed"], fmt))


@competition.command("season")
@click.argument("season")
@pass_ctx
def competition_season(ctx: Context, season: str) -> None:
    """Move the competition to another season (e.g. one created in July for the next season).

    Its pages are published in that season's folder from the next 'keizer publish' on.
    """
    with writing(ctx, "competition season", f"season {season}") as store:
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
    with writing(ctx, "competition use", f"use competition {name}") as store:
        row = store.competition(name)
        store.set_meta("current_competition", str(row["id"]))
    click.echo(f"using {row['name']}")


@competition.command("settings")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Change a setting (repeatable).")
@format_option
@pass_ctx
def competition_settings(ctx: Context, sets: tuple[str, ...], fmt: str) -> None:
    """Show the effective settings, or change them with --set (recorded in the log)."""
    from keizer.operations.setup import change_settings, settings_rows

    if sets:
        overrides = _parse_sets(sets)
        summary = ", ".join(f"{k}={v}" for k, v in overrides.items())
        with writing(ctx, "competition settings", f"settings: {summary}") as store:
            note = change_settings(store, ctx.comp(store)["id"], overrides)
        if note:
            click.echo(note, err=True)
    store = ctx.store()
    row = ctx.comp(store)
    comp_id = row["id"]
    if fmt == "json":
        if store.system(comp_id) != "keizer":
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


@cli.command()
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
        with writing(ctx, "timecontrol", f"time control {text or 'cleared'} for {rounds or round_no}") as store:
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


@cli.command()
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


@cli.group()
def player() -> None:
    """Players of the competition (members entered in it)."""


@player.command("add")
@click.argument("members", nargs=-1, required=True)
@click.option("--joined", type=ROUND, help="First round the player takes part in (default: the next round).")
@click.option("--category", type=CATEGORY, help="Category (A, B, …) for category standings and pairing.")
@pass_ctx
def player_add(ctx: Context, members: tuple[str, ...], joined: int | None, category: str | None) -> None:
    """Register members (by name, #id or federation id) in the competition."""
    from keizer.operations.setup import add_players

    with writing(ctx, "player add", f"register {', '.join(members)}") as store:
        first, note = add_players(store, ctx.comp(store), members, joined, category)
    click.echo(f"registered {len(members)} player(s), from round {first}")
    if note:
        click.echo(note, err=True)


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
    fields = {k: v for k, v in dict(category=category, joined=joined, default_attendance=default).items() if v is not None}
    if not fields:
        raise StoreError("nothing to change: give --category, --joined or --default")
    with writing(ctx, "player set", f"set {player_ref}") as store:
        comp_id = ctx.comp(store)["id"]
        row = store.find_player(comp_id, player_ref)
        if joined is not None:
            comp_ops.check_joined(store, comp_id, row, joined)
        store.update_player(row["id"], **fields)
    click.echo(f"updated {row['name']}")


@player.command("withdraw")
@click.argument("player_ref")
@pass_ctx
def player_withdraw(ctx: Context, player_ref: str) -> None:
    """Withdraw a player from the next round on."""
    with writing(ctx, "player withdraw", f"withdraw {player_ref}") as store:
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
    with writing(ctx, "player reinstate", f"reinstate {player_ref}") as store:
        row, gone = comp_ops.reinstate(store, ctx.comp(store)["id"], player_ref, missed)
    since = (f"; round {gone[0]} counts as an {missed} absence" if len(gone) == 1 else
             f"; rounds {_span(gone)} count as {missed} absences" if gone else "")
    click.echo(f"{row['name']} takes part again{since}")


def _span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


@cli.command()
@click.argument("a")
@click.argument("b")
@click.option("--remove", is_flag=True, help="Allow the pair again.")
@pass_ctx
def forbid(ctx: Context, a: str, b: str, remove: bool) -> None:
    """Never pair these two players (e.g. family), unless nothing else works."""
    with writing(ctx, "forbid", f"{'allow' if remove else 'forbid'} {a} – {b}") as store:
        name_a, name_b = rounds_ops.forbid_pair(store, ctx.comp(store)["id"], a, b, remove)
    click.echo(f"{name_a} – {name_b}: {'allowed again' if remove else 'forbidden'}")


# -- attendance ---------------------------------------------------------------


@cli.command()
@click.option("-p", "--present", multiple=True, metavar="PLAYER", help="Present (repeatable).")
@click.option("-e", "--excused", multiple=True, metavar="PLAYER", help="Absent with notice.")
@click.option("-u", "--unexcused", multiple=True, metavar="PLAYER", help="Absent without notice.")
@click.option("-k", "--club", multiple=True, metavar="PLAYER", help="Club duty (arbiter, team match).")
@click.option("-x", "--external", multiple=True, metavar="PLAYER=RESULT",
              help="External game for the club: win, draw or loss.")
@click.option("-w", "--withdrawn", multiple=True, metavar="PLAYER", help="Withdraws from this round on.")
@click.option("--round", "round_no", type=ROUND, help="Round (default: the next one); earlier rounds can be corrected.")
@click.option("--date", type=DATE, help="Date of the round, e.g. 2026-09-08.")
@click.option("--force", is_flag=True, help="Accept a date out of order with the other rounds' dates.")
@pass_ctx
def attend(ctx: Context, present, excused, unexcused, club, external, withdrawn, round_no, date, force) -> None:
    """Mark attendance; unmarked players get their default (present, or absent).

    PLAYER is a name (or part of it), a player id, or #start-number.
    """
    marks: dict[str, str] = {}
    for status, refs in (("present", present), ("excused", excused), ("unexcused", unexcused), ("club", club)):
        for ref in refs:
            if ref in marks:
                raise StoreError(f"{ref!r} is marked twice in one command; mark each player once")
            marks[ref] = status
    ext: dict[str, str] = {}
    for item in external:
        if "=" not in item:
            raise StoreError(f"--external {item!r}: write PLAYER=win, PLAYER=draw or PLAYER=loss")
        ref, result = item.rsplit("=", 1)
        ext[ref.strip()] = result.strip().lower()
    with writing(ctx, "attend", "attendance") as store:
        comp_id = ctx.comp(store)["id"]
        number, counts = comp_ops.mark_attendance(store, comp_id, marks, ext, withdrawn, round_no,
                                                  date.date().isoformat() if date else None, force)
        store.describe(f"attendance round {number}")
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    click.echo(f"round {number}: {summary}")


@cli.command()
@click.option("--round", "round_no", type=ROUND, help="Round (default: the open one).")
@format_option
@pass_ctx
def attendance(ctx: Context, round_no: int | None, fmt: str) -> None:
    """Who is present, excused, on club duty … in a round."""
    store = ctx.store()
    _number, rows = rounds_ops.attendance_rows(store, ctx.comp(store)["id"], round_no)
    click.echo(render(rows, ["start_no", "name", "status"], fmt))


# -- pairing ------------------------------------------------------------------


@cli.command()
@click.option("--dry-run", is_flag=True, help="Show the pairing without storing it.")
@click.option("--explain", is_flag=True, help="Say why each pair was made.")
@click.option("--fix", nargs=2, multiple=True, metavar="WHITE BLACK", help="Fix a pair by hand (repeatable).")
@click.option("--bye", "bye", metavar="PLAYER", help="Give the bye to this player.")
@click.option("--again", is_flag=True, help="Re-pair the open round (no results yet).")
@click.option("--keep", type=BOARD, multiple=True, metavar="BOARD", help="With --again: keep this board (repeatable).")
@format_option
@pass_ctx
def pair(ctx: Context, dry_run: bool, explain: bool, fix, bye, again: bool, keep, fmt: str) -> None:
    """Pair the next round from the players marked present."""
    if keep and not again:
        raise StoreError("--keep only works with --again")
    try:
        # The competition is looked up inside the transaction: another process may remove
        # it (keizer undo) between a lookup before and the write.
        with writing(ctx, "pair", "pairing") as store:
            comp_id = ctx.comp(store)["id"]
            pairing = comp_ops.make_pairing(store, comp_id, fix, bye, keep, again,
                                            tell=lambda line: click.echo(line, err=True))
            store.describe(f"pair round {pairing.round}")
            season = store.load_season(comp_id)
            swiss = store.system(comp_id) == "swiss"
            if dry_run:
                raise _DryRun()
    except _DryRun:
        pass
    if swiss and not explain and fmt != "json":  # the Swiss pairing list
        _pairing_list(store, comp_id, season, pairing.round, fmt)
        return
    _show_pairing(season, pairing, explain, fmt)


class _DryRun(Exception):
    """Raised inside the transaction so that a dry run writes nothing."""


def _show_pairing(season, pairing, explain: bool, fmt: str) -> None:
    names = {p.id: p.name for p in season.players}
    if fmt == "json":
        out = {
            "round": pairing.round,
            "pairs": [{"board": b.board, "white": b.white, "black": b.black}
                      | ({"reason": b.reason} if explain else {}) for b in pairing.boards],
            "bye": pairing.bye,
        }
        if explain:
            out["bye_reason"] = pairing.bye_reason
            out["bent"] = list(pairing.bent)
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    rows = [{"board": b.board, "white": names[b.white], "black": names[b.black], "why": b.reason}
            for b in pairing.boards]
    columns = ["board", "white", "black"] + (["why"] if explain else [])
    if fmt == "csv":  # the bye as a row of its own: no board, no Black
        bye = [{"board": None, "white": names[pairing.bye], "black": "(bye)", "why": pairing.bye_reason}]
        click.echo(render(rows + (bye if pairing.bye else []), columns, fmt))
        return
    control = season.rounds[pairing.round - 1].time_control
    click.echo(f"Round {pairing.round}" + (f" · {control}" if control else ""))
    click.echo(render(rows, columns, fmt))
    if pairing.bye:
        click.echo(f"bye: {names[pairing.bye]}" + (f" ({pairing.bye_reason})" if explain and pairing.bye_reason else ""))
    for line in pairing.bent:
        click.echo(f"rule bent: {line}")


@cli.command()
@pass_ctx
def unpair(ctx: Context) -> None:
    """Remove the open round's pairing (before any result is entered)."""
    with writing(ctx, "unpair", "remove pairing") as store:
        number = comp_ops.unpair(store, ctx.comp(store)["id"])
    click.echo(f"pairing of round {number} removed")


@cli.command()
@click.argument("a")
@click.argument("b")
@pass_ctx
def swap(ctx: Context, a: str, b: str) -> None:
    """Move players by hand: exchange two players in the open round's pairing."""
    with writing(ctx, "swap", f"swap {a} and {b}") as store:
        number, warnings = comp_ops.swap_players(store, ctx.comp(store)["id"], a, b)
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"round {number}: swapped {a} and {b}")


@cli.command()
@click.argument("player_ref", metavar="PLAYER")
@pass_ctx
def late(ctx: Context, player_ref: str) -> None:
    """A latecomer after the pairing: plays whoever had the bye, or takes the bye.

    Every other board stays as it was.
    """
    with writing(ctx, "late", f"latecomer {player_ref}") as store:
        change = comp_ops.add_latecomer(store, ctx.comp(store)["id"], player_ref)
        store.describe(f"round {change.round}: latecomer {player_ref}")
    _tell(change)


@cli.command()
@click.argument("player_ref", metavar="PLAYER")
@click.option("--excused", is_flag=True, help="The player sent notice (default: unexcused).")
@pass_ctx
def noshow(ctx: Context, player_ref: str, excused: bool) -> None:
    """A paired player who did not come: the opponent plays whoever had the bye, or takes it.

    Every other board stays as it was.
    """
    with writing(ctx, "noshow", f"no-show {player_ref}") as store:
        change = comp_ops.remove_noshow(store, ctx.comp(store)["id"], player_ref,
                                        "excused" if excused else "unexcused")
        store.describe(f"round {change.round}: no-show {player_ref}")
    _tell(change)


def _tell(change: comp_ops.Change) -> None:
    for w in change.warnings:
        click.echo(f"rule bent: {w}", err=True)
    click.echo(f"round {change.round}: {change.said}")


@cli.command()
@click.option("--round", "round_no", type=ROUND, help="Round (default: the open one).")
@format_option
@pass_ctx
def pairings(ctx: Context, round_no: int | None, fmt: str) -> None:
    """The pairing of a round, with results so far."""
    store = ctx.store()
    season = store.load_season(ctx.comp(store)["id"])
    # Default: the open round once paired, else the last paired round (its results).
    number = rounds_ops.pairings_round(season, round_no)
    _pairing_list(store, ctx.comp(store)["id"], season, number, fmt)


def _pairing_list(store: Store, comp_id: int, season, number: int, fmt: str) -> None:
    """A round's pairing list: boards, players, results; for a Swiss or a round-robin also the
    pairing numbers, the points before the round and who is not playing."""
    listing = rounds_ops.pairing_list(store, comp_id, season, number)
    rnd, names, rows, columns = season.rounds[number - 1], listing["names"], listing["rows"], listing["columns"]
    if fmt == "json":
        click.echo(json.dumps({"round": number, "date": rnd.date, "time_control": rnd.time_control,
                               "pairs": rows, "bye": list(rnd.byes)}, ensure_ascii=False, indent=2))
        return
    if fmt == "csv":  # byes as rows of their own: no board, no Black
        rows += [{"board": None, "white": names[p], "black": "(bye)", "result": None} for p in rnd.byes]
        click.echo(render(rows, columns, fmt))
        return
    click.echo(" · ".join(x for x in (f"Round {number}", rnd.date, rnd.time_control) if x))
    click.echo(render([{**r, "white_points": _points_cell(r.get("white_points")),
                        "black_points": _points_cell(r.get("black_points"))} for r in rows], columns, fmt))
    for p in rnd.byes:
        click.echo(f"bye: {names[p]}")
    if listing["not_playing"]:
        click.echo("not playing: " + ", ".join(listing["not_playing"]))


def _points_cell(value: Any) -> str:
    return "" if value is None else number(Fraction(value), 1)


# -- results ------------------------------------------------------------------


@cli.command()
@click.argument("results", nargs=-1)
@click.option("--file", "file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read BOARD RESULT lines from a file.")
@click.option("--round", "round_no", type=ROUND, help="Round (default: the open one).")
@click.option("--correct", is_flag=True, help="Overwrite results that were entered before.")
@pass_ctx
def result(ctx: Context, results: tuple[str, ...], file: Path | None, round_no: int | None, correct: bool) -> None:
    """Enter results: BOARD=RESULT …, e.g. 1=1-0 2=½-½ 3=0-1 4=+- (forfeit).

    Results: 1-0, 0-1, 1/2-1/2 (½-½, =), +- and -+ (forfeit), -- (both forfeit); clear removes one.
    """
    from keizer.operations import results as result_ops

    items = list(results)
    if file is not None:
        from keizer.formats.text import decode

        try:
            text = decode(file.read_bytes())
        except FormatError as e:
            raise FormatError(f"{file.name} {e}") from None
        items += result_ops.file_items(file.name, text)  # '3 1-0', '3=1-0', '3;1-0', '3 =' (a draw)
    parsed = result_ops.parse_items(items)
    with writing(ctx, "result", f"results {' '.join(items)}") as store:
        entered = result_ops.enter(store, ctx.comp(store)["id"], parsed, round_no, correct)
    if entered.warning:
        click.echo(f"warning: {entered.warning}", err=True)
    click.echo(entered.message)


# -- standings and history ----------------------------------------------------


@cli.command()
@click.option("--round", "round_no", type=ROUND_OR_ZERO, help="Standing after this round (default: the last played).")
@click.option("--category", help="Only players of this category.")
@format_option
@pass_ctx
def standings(ctx: Context, round_no: int | None, category: str | None, fmt: str) -> None:
    """The Keizer standing: rank, value, score, games, W/D/L, percentage."""
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    season = store.load_season(comp_id)
    upto = standings_ops.checked_round(season, round_no)
    if store.system(comp_id) in comp_ops.POINTS_SYSTEMS:
        _points_standings(store, comp_id, season, upto, fmt)
        return
    if store.system(comp_id) == "knockout":
        _bracket(store, comp_id, fmt)
        return
    if store.system(comp_id) == "team":
        from keizer.cli.teams import show_team_standings

        show_team_standings(store, comp_id, round_no, fmt)
        return
    standing, rows, values = standings_ops.keizer_standing(season, upto, category)
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
    if fmt == "table":
        click.echo(f"{season.name} — standing after round {standing.round}")
    codes = list(next(iter(values.values()))) if values else []
    for row in table:
        row.update({code: "" if row["tiebreaks"][code] is None else number(Fraction(row["tiebreaks"][code]), 2)
                    for code in codes})
    click.echo(render(table, ["rank", "name", "value", "score", "games", "wins", "draws", "losses", "%", *codes], fmt))


def _points_standings(store: Store, comp_id: int, season, upto: int, fmt: str) -> None:
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
    if fmt == "table":
        click.echo(f"{season.name} — standing after round {upto}")
    click.echo(render(table, ["rank", "start_no", "name", "points", "games", "wins", "draws", "losses",
                              *tiebreaks], fmt))


@cli.command()
@click.argument("player_ref")
@click.option("--round", "round_no", type=ROUND_OR_ZERO, help="As priced in the standing after this round.")
@format_option
@pass_ctx
def history(ctx: Context, player_ref: str, round_no: int | None, fmt: str) -> None:
    """A player's rounds: opponent, colour, result, value used and points earned."""
    store = ctx.store()
    found = standings_ops.player_history(store, ctx.comp(store)["id"], player_ref, round_no)
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


# -- Swiss tournaments ----------------------------------------------------------


@cli.group()
def swiss() -> None:
    """Swiss tournaments (FIDE Dutch system): pair each round with 'keizer pair'."""


@swiss.command("rounds")
@click.argument("rounds", type=Whole(1, 99))
@pass_ctx
def swiss_rounds(ctx: Context, rounds: int) -> None:
    """Change the planned number of rounds (the last round pairs top scorers differently).
    Also for a Swiss team event."""
    with writing(ctx, "swiss rounds", f"{rounds} rounds planned") as store:
        comp_id = ctx.comp(store)["id"]
        if store.system(comp_id) != "team":
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


@cli.group()
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
def roundrobin_draw(ctx: Context, order: tuple[str, ...], seed: int | None, first_date, every: int) -> None:
    """Draw the start numbers by lot (or give ORDER: every player, number 1 first) and store all rounds."""
    with writing(ctx, "roundrobin draw", "round-robin draw") as store:
        comp_id = ctx.comp(store)["id"]
        numbered, used = comp_ops.draw_round_robin(store, comp_id, seed, order,
                                                   first_date.date() if first_date else None, every)
        rounds = len(store.round_numbers(comp_id))
        names = {r["key"]: r["name"] for r in store.players(comp_id)}
    how = f"by lot (seed {used})" if used is not None else "by hand"
    click.echo(f"numbers {how}; {rounds} rounds scheduled")
    click.echo(render([{"no": k, "name": names[key]} for k, key in enumerate(numbered, 1)], ["no", "name"], "table"))


# -- knock-out cups -------------------------------------------------------------


@cli.group()
def knockout() -> None:
    """Knock-out cups: seeding, matches with tie-break stages, the bracket."""


@knockout.command("draw")
@click.argument("order", nargs=-1)
@pass_ctx
def knockout_draw(ctx: Context, order: tuple[str, ...]) -> None:
    """Seed the entrants by rating (or ORDER: every entrant, seed 1 first) and create round 1."""
    from keizer.operations import cup

    with writing(ctx, "knockout draw", "cup draw") as store:
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

    with writing(ctx, "knockout next", "cup: next games") as store:
        created = cup.advance(store, ctx.comp(store)["id"])
    click.echo("\n".join(created) if created else "nothing to create: results are missing, or the cup is decided")


@knockout.command("award")
@click.argument("round_no", type=ROUND)
@click.argument("match", type=BOARD)
@click.argument("winner")
@pass_ctx
def knockout_award(ctx: Context, round_no: int, match: int, winner: str) -> None:
    """The arbiter decides a match (withdrawal, or a lot when every stage is level)."""
    from keizer.operations import cup

    with writing(ctx, "knockout award", f"award round {round_no} match {match} to {winner}") as store:
        cup.award(store, ctx.comp(store)["id"], round_no, match, winner)
    click.echo(f"round {round_no} match {match} awarded to {winner}")


@knockout.command("bracket")
@format_option
@pass_ctx
def knockout_bracket(ctx: Context, fmt: str) -> None:
    """Every match of the cup: the sides, how it stands, the winner."""
    store = ctx.store()
    _bracket(store, ctx.comp(store)["id"], fmt)


def _bracket(store: Store, comp_id: int, fmt: str) -> None:
    from keizer.operations import cup

    _, states, season = cup.cup_state(store, comp_id)
    names = {p.id: p.name for p in season.players}
    rows = [{"round": m.round, "match": m.index, "top": names.get(m.top, ""), "bottom": names.get(m.bottom, ""),
             "winner": names.get(m.winner, ""), "how": m.how, "top_id": m.top, "bottom_id": m.bottom,
             "winner_id": m.winner} for m in states]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        click.echo(render(rows, ["round", "match", "top", "bottom", "winner", "how"], fmt))


# -- club website -------------------------------------------------------------


@cli.command()
@click.option("--name", help="Club name shown on every page.")
@click.option("--colour", help="Main colour, e.g. #1f4e79.")
@click.option("--accent", help="Accent colour, e.g. #c8102e.")
@click.option("--language", help="Site language: en, nl, de or et.")
@click.option("--logo", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Logo image (png, jpg, gif, svg, webp).")
@click.option("--season", help="Season (site folder) of competitions created from now on; existing ones keep "
                                "theirs (default: the August–July season of the creation date, e.g. 2025-2026).")
@click.option("--templates", type=click.Path(file_okay=False, path_type=Path), help="The club's own template folder.")
@format_option
@pass_ctx
def club(ctx: Context, name, colour, accent, language, logo, season, templates, fmt: str) -> None:
    """Show or change the club's website settings: name, colours, language, logo."""
    from keizer.publish import club_settings, set_club

    values = dict(name=name, colour=colour, accent=accent, language=language, season=season,
                  templates=str(templates.resolve()) if templates else None)
    if any(v is not None for v in values.values()) or logo is not None:
        with writing(ctx, "club", "club settings", create=True) as store:
            set_club(store, logo=logo, **values)
    store = ctx.store()
    kept = sorted({c["season"] for c in store.competitions()} - {(season or "").strip()})
    if season is not None and kept:  # the past is frozen: published folders do not move
        click.echo(f"note: existing competitions keep their season ({', '.join(kept)}); "
                   "the new one applies to competitions created from now on", err=True)
    settings = club_settings(store)
    settings["logo"] = store.get_meta("club_logo_type") and f"logo.{store.get_meta('club_logo_type')}" or ""
    click.echo(render([{"setting": k, "value": v} for k, v in settings.items()], ["setting", "value"], fmt)
               if fmt != "json" else json.dumps(settings, ensure_ascii=False, indent=2))


@cli.command()
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--templates", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of templates that override the shipped ones (any subset).")
@click.option("--language", help="Site language for this run (default: the club setting).")
@pass_ctx
def publish(ctx: Context, outdir: Path, templates: Path | None, language: str | None) -> None:
    """Write the club website (standings, rounds, crosstable, players, report) to OUTDIR."""
    from keizer.publish import publish as publish_site

    result = publish_site(ctx.store(), outdir, templates, language)
    click.echo(f"published {', '.join(result.seasons)} to {outdir}: {len(result.written)} files written, "
               f"{result.unchanged} unchanged")


# -- season JSON --------------------------------------------------------------


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Competition name (default: the file's).")
@click.option("--system", type=click.Choice(["keizer", "swiss", "roundrobin"]),
              help="TRF: import as this system (default: keizer for keizer's own export, else from the file).")
@click.option("--preset", type=click.Choice(list(PRESETS)), help="Keizer from TRF or CSV: the preset (classic).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Keizer from TRF or CSV: override a setting.")
@click.option("--dry-run", is_flag=True, help="Rounds CSV: show the plan and the new members without writing.")
@pass_ctx
def import_(ctx: Context, file: Path, name: str | None, system: str | None, preset: str | None,
            sets: tuple[str, ...], dry_run: bool) -> None:
    """Import a season JSON file, a FIDE TRF file, a rounds CSV or a KeizerForClubs
    database (.s3db) as a new competition.

    A TRF round-robin becomes a round-robin group, any other TRF tournament a Swiss
    event ranked by points and the file's tie-break list; with --system keizer (the
    default for keizer's own export of a Keizer competition) a Keizer competition.
    A CSV of rounds (round;date;white;black;result) becomes a Keizer competition.
    """
    from keizer.cli import switch as cli_switch
    from keizer.formats.rounds_csv import header_kind

    from keizer.formats.kfc import looks_like_kfc

    raw = file.read_bytes()
    if looks_like_kfc(raw, file):
        from keizer.cli.kfc import import_kfc

        cli_switch.refuse_options("kfc", system, preset, sets, dry_run)
        import_kfc(ctx, file, name, writing)
        return
    if file.suffix.lower() == ".csv" or header_kind(raw[:4096].decode("utf-8", "replace")):
        cli_switch.refuse_options("csv", system, preset, sets, dry_run)
        cli_switch.import_rounds(ctx, file, raw, name, preset or "classic", _parse_sets(sets), dry_run, writing)
        return
    if file.suffix.lower() in (".trf", ".txt") or raw.lstrip()[:3] in (b"012", b"001"):
        cli_switch.refuse_options("trf", system, preset, sets, dry_run)
        _import_trf(ctx, file, name, system, preset, _parse_sets(sets))
        return
    cli_switch.refuse_options("json", system, preset, sets, dry_run)
    from keizer.formats.season_json import decode, load_season

    try:
        data = decode(raw)
    except FormatError as e:
        raise FormatError(f"{file.name}: {e}") from None
    season = load_season(data)
    preset = data.get("settings", {}).get("preset", "classic") if isinstance(data.get("settings"), dict) else "classic"
    added: list[str] = []
    with writing(ctx, "import", f"import {file.name}", create=True) as store:
        comp_ops.import_season(store, season, name, preset, tell=added.append)
    click.echo(f"imported {name or season.name}: {len(season.players)} players, {len(season.rounds)} rounds")
    for line in added:
        click.echo(line)


def _import_trf(ctx: Context, file: Path, name: str | None, force: str | None = None, preset: str | None = None,
                overrides: dict[str, str] | None = None) -> None:
    from keizer.formats.trf import read
    from keizer.formats.trf_keizer import is_keizer_export
    from keizer.points import season_of
    from keizer.tiebreaks import Scoring, System, recommended_for

    t = read(file)
    if force == "keizer" or (force is None and not t.is_team and is_keizer_export(t)):
        from keizer.cli.switch import import_trf_keizer

        import_trf_keizer(ctx, file, t, name, preset or "classic", overrides or {}, writing)
        return
    if preset or overrides:
        raise StoreError("--preset and --set are for a Keizer competition: add --system keizer")
    if t.is_team:
        from keizer.operations.teamevent import import_team_tournament

        with writing(ctx, "import", f"import {file.name}", create=True) as store:
            import_team_tournament(store, t, name)
        kind = "team Swiss" if t.system is System.SWISS else "team event"
        click.echo(f"imported {name or t.name} ({kind}): {len(t.teams)} teams, {len(t.players)} players")
        return
    season = season_of(t)
    system = force or ("roundrobin" if t.system is System.ROUND_ROBIN else "swiss")
    scoring = None if t.scoring == Scoring() else {k: str(v) for k, v in vars(t.scoring).items()}
    # The list 'keizer trf standings' would use: the file's 202 record, else FIDE's recommendation
    # for this file (which knows whether its ratings can be relied on).
    settings = {**comp_ops.POINTS_DEFAULTS, "tiebreaks": list(t.tiebreaks or recommended_for(t)), "scoring": scoring}
    if system == "swiss":  # ready to be continued with 'keizer pair' (after 'keizer swiss rounds N' if need be)
        from keizer.pairing.swiss import initial_colour_of

        settings |= {"rounds": max(t.rounds, len(season.rounds)),
                     "initial_colour": initial_colour_of(t).value,
                     "numbered": [p.id for p in sorted(season.players, key=lambda p: p.start_no)]}
    comp_ops.points_rules(system, settings)  # refuses a list the rules forbid, before writing
    added: list[str] = []
    with writing(ctx, "import", f"import {file.name}", create=True) as store:
        comp_ops.import_season(store, season, name, system=system, system_settings=settings, tell=added.append)
    click.echo(f"imported {name or season.name} ({system}): {len(season.players)} players, {len(season.rounds)} rounds")
    for line in added:
        click.echo(line)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["json", "trf"]), default="json", show_default=True)
@click.option("--trf-version", type=click.Choice(["TRF26", "TRF16"]), default="TRF26", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="File (default: stdout).")
@pass_ctx
def export(ctx: Context, fmt: str, trf_version: str, output: Path | None) -> None:
    """Export the competition as season JSON, or as a FIDE TRF file (all games, e.g. for a rating report)."""
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    season = store.load_season(comp_id)
    if fmt == "trf":
        text = _trf_text(store, comp_id, season, trf_version)
        done = season.completed_rounds()
        left = [g for r in season.rounds[done:] for g in r.games if g.result is not None]
        if left:  # TRF holds complete rounds only
            click.echo(f"warning: round {done + 1} is not complete; its {len(left)} result(s) are not in the file",
                       err=True)
    else:
        from keizer.formats.season_json import dump

        text = json.dumps(dump(season, store.preset(comp_id)), ensure_ascii=False, indent=1) + "\n"
    if output:
        output.write_text(text, encoding="utf-8", newline="")
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


def _trf_text(store: Store, comp_id: int, season, version: str) -> str:
    from dataclasses import replace as with_

    from keizer.formats.trf import dump
    from keizer.points import GAMES_ONLY, tournament
    from keizer.tiebreaks import System

    if store.system(comp_id) == "team":
        from keizer.operations.teamevent import team_trf

        return team_trf(store, comp_id, version)
    upto = season.completed_rounds()
    label: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    if store.system(comp_id) in comp_ops.POINTS_SYSTEMS:
        rules = comp_ops.stored_points_rules(store, comp_id)
        t = with_(tournament(season, upto, rules.system, rules.scoring), tiebreaks=rules.tiebreaks)
        settings = store.system_settings(comp_id)
        if settings.get("rounds"):  # a Swiss: the planned rounds (142) and the initial colour (152 / XXC)
            t = with_(t, rounds=max(int(settings["rounds"]), upto))
            black = settings.get("initial_colour") == "black"
            extra = (("152 B" if black else "152 W") if version == "TRF26" else
                     ("XXC black1" if black else "XXC white1"),)
    else:  # a Keizer season: its games scored by games only (rating reports), labelled as what it is
        t = tournament(season, upto, System.SWISS, GAMES_ONLY)
        label = ("092 Individual: Keizer (club competition; game points only)",)
    dates = sorted(r.date for r in season.rounds[:upto] if r.date)
    info = (f"042 {dates[0]}", f"052 {dates[-1]}") if dates else ()
    dated = tuple(r.date for r in season.rounds[:upto])
    return dump(with_(t, info=label + info + extra, dates=dated if any(dated) else ()), version)


# -- entry point --------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors become one line on stderr and exit status 1."""
    _OPENED.clear()
    try:
        with cli.make_context("keizer", list(sys.argv[1:] if argv is None else argv)) as ctx:
            cli.invoke(ctx)
        _finish(_OPENED)  # committing an upgrade can fail too (a full disk): handled below
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.UsageError as e:
        # One line, like every other refusal (click's usual three-line usage block is noise here).
        where = f" (see 'keizer {e.ctx.command_path.split(' ', 1)[1]} --help')" if e.ctx and " " in e.ctx.command_path else ""
        click.echo(_one_line(f"error: {e.format_message()}{where}"), err=True)
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("aborted: nothing was changed", err=True)
        sys.exit(1)
    except BrokenPipeError:
        # The reader went away (e.g. `keizer standings | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except (StoreError, FormatError, SettingsError) as e:
        _fail(f"error: {e}")
    except sqlite3.Error as e:
        where = _OPENED[-1].db if _OPENED else Path("club.db")
        _fail(f"error: {explain(e, where) or f'database problem: {e}'}")
    except UnicodeEncodeError:  # a lone surrogate: bytes of an argument that are not UTF-8
        _fail("error: an argument is not valid text (bytes that are not UTF-8); check the terminal's encoding")
    except OSError as e:
        _fail(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "))


def _fail(message: str) -> None:
    _cleanup(_OPENED)
    click.echo(_one_line(message), err=True)
    sys.exit(1)


def _one_line(message: str) -> str:
    """A refusal is one line, even when it quotes text holding line breaks."""
    return " ".join(message.splitlines())


def _finish(holder: list[Context]) -> None:
    """The command succeeded: an upgrade of an older database is kept."""
    for ctx in holder:
        if ctx._store is not None:
            ctx._store.commit_upgrade()


def _cleanup(holder: list[Context]) -> None:
    """A failed command leaves no trace: an upgrade is rolled back, and a database
    this command created is removed again.  The connection is closed: a caller that
    goes on (a test, a script calling main) keeps no lock or deleted file open."""
    for ctx in holder:
        if ctx._store is not None:
            ctx._store.rollback_upgrade()
            ctx._store.close()
        if ctx.created and ctx._store is not None:
            if os.path.exists(ctx.db):
                os.remove(ctx.db)
