"""The ``keizer`` command: the click group, its start-up and its error handling.

Every command that writes runs in one transaction (``Store.change``) and is
logged, so ``keizer undo`` reverts it.  Errors a user can fix are printed as
one line on stderr with exit status 1; the database is left as it was.

The commands live in modules by topic, each a thin view over the operations:
``members`` (member …), ``competitions`` (competition …, player …, presets,
timecontrol, forbid), ``rounds`` (attend … result), ``standings`` (standings,
history), ``events`` (swiss …, roundrobin …, knockout …) and ``io`` (import,
export, publish, club).  This module keeps the database commands (init, undo,
backup, log).  The groups in ``_Commands.lazy`` are imported only when used.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
import sys
from pathlib import Path

import click

from keizer.cli.base import Context, format_option, pass_ctx
from keizer.cli.params import COUNT
from keizer.cli.words import say
from keizer.output import render
from keizer.refusals import Refusal

_OPENED: list[Context] = []  # for cleaning up after a failed command

#: Every command of the topic modules, imported only when used: 'keizer trf pair' loads
#: neither the store nor the operations (tests/test_startup.py keeps this list true).
TOPICS = {
    "keizer.cli.members": ("member",),
    "keizer.cli.competitions": ("competition", "timecontrol", "presets", "player", "forbid"),
    "keizer.cli.rounds": ("attend", "attendance", "pair", "unpair", "swap", "late", "noshow", "pairings", "result"),
    "keizer.cli.standings": ("standings", "history"),
    "keizer.cli.events": ("swiss", "roundrobin", "knockout"),
    "keizer.cli.io": ("club", "publish", "import", "export"),
}


class _Commands(click.Group):
    """The commands live in modules of their own, imported only when used, so that
    every command starts quickly."""

    lazy = {"trf": "keizer.cli.trf:trf", "team": "keizer.cli.teams:team", "season": "keizer.cli.seasons:season",
            "ratings": "keizer.cli.ratings:ratings", "serve": "keizer.cli.serve:serve",
            "user": "keizer.cli.serve:user", "member-link": "keizer.cli.links:member_link",
            "notices": "keizer.cli.links:notices", "head2head": "keizer.cli.careers:head2head",
            "career": "keizer.cli.careers:career"}
    topic = {name: module for module, names in TOPICS.items() for name in names}

    #: Each lazily loaded command's first sentence of help, so that 'keizer --help' lists the
    #: commands without importing their modules (tests/test_startup.py keeps these true).
    summaries = {
        "trf": "FIDE Tournament Report Files (TRF16, TRF26): standings with tie-breaks, Dutch pairings, "
               "checking, random tournaments.",
        "team": "Team events: teams with ordered boards, a round-robin, Crepaux, Swiss or knock-out schedule.",
        "season": "Seasons: start the next one from the last, list them, close and reopen them.",
        "ratings": "Rating lists: the KNSB's (national) and FIDE's.",
        "serve": "Serve the app for the club evening in a browser (Ctrl+C stops it).",
        "user": "Accounts of the web app: officers and arbiters.",
        "member-link": "Members' personal links, to send notice of absence from a phone (no password).",
        "notices": "Members' notices of absence: who cannot come on which evening, sent when, and what each "
                   "counts as (excused before the deadline, else as the setting says).",
        "head2head": "Every game two members played against each other, in every season: W/D/L, the last "
                     "meeting and each game (from the first member's side).",
        "career": "A member's career at the club: every competition of every season (rank, score, games, W/D/L), "
                  "the club rating over time and the record against every opponent.",
        "member": "Club members (shared by all competitions).",
        "competition": "Competitions of the season.",
        "timecontrol": "Record the time control per round, e.g. rapid for the first rounds, classical after.",
        "presets": "The presets and how each differs from classic.",
        "player": "Players of the competition (members entered in it).",
        "forbid": "Never pair these two players (e.g. family), unless nothing else works.",
        "attend": "Mark attendance; unmarked players get their default (present, or absent).",
        "attendance": "Who is present, excused, on club duty … in a round.",
        "pair": "Pair the next round from the players marked present.",
        "unpair": "Remove the open round's pairing (before any result is entered).",
        "swap": "Move players by hand: exchange two players in the open round's pairing.",
        "late": "A latecomer after the pairing: plays whoever had the bye, or takes the bye.",
        "noshow": "A paired player who did not come: the opponent plays whoever had the bye, or takes it.",
        "pairings": "The pairing of a round, with results so far.",
        "result": "Enter results: BOARD=RESULT …, e.g.",
        "standings": "The Keizer standing: rank, value, score, games, W/D/L, percentage.",
        "history": "A player's rounds: opponent, colour, result, value used and points earned.",
        "swiss": "Swiss tournaments (FIDE Dutch system): pair each round with 'keizer pair'.",
        "roundrobin": "Round-robin groups (meerkampen): FIDE's Berger tables.",
        "knockout": "Knock-out cups: seeding, matches with tie-break stages, the bracket.",
        "club": "Show or change the club's website settings: name, colours, language, logo, upload target.",
        "publish": "Write the club website (standings, rounds, crosstable, players, report) to OUTDIR, and with "
                   "--upload send it on to the club's web host.",
        "import": "Import a season JSON file, a FIDE TRF file, a rounds CSV or a KeizerForClubs database (.s3db) "
                  "as a new competition.",
        "export": "Export the competition as season JSON, as a FIDE TRF file (all games, e.g. for a rating "
                  "report), or as an ECF results submission file.",
    }

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands, as click writes it, from the summaries above for the commands
        not loaded yet (click's own way imports every command to ask for its help)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is None:  # a command with no summary yet is loaded to ask (the test says to add one)
                summary = self.summaries.get(name)
                command = click.Command(name, help=summary) if summary else self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy, *self.topic])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module, attr = self.lazy[name].split(":")
            return getattr(importlib.import_module(module), attr)
        if name in self.topic:
            return next(c for c in importlib.import_module(self.topic[name]).COMMANDS if c.name == name)
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
    from keizer.store import StoreError

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


# -- entry point --------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors become one line on stderr and exit status 1.  Whatever ends
    the command but success (a refusal, Ctrl-C, a fault) rolls back what it left uncommitted
    and removes a file it made (:func:`_cleanup`)."""
    _OPENED.clear()
    done = False
    try:
        _main(argv)
        done = True
    except SystemExit as e:
        done = not e.code
        raise
    finally:
        if not done:
            _cleanup(_OPENED)


def _main(argv: list[str] | None) -> None:
    try:
        with cli.make_context("keizer", list(sys.argv[1:] if argv is None else argv)) as ctx:
            cli.invoke(ctx)
        _finish(_OPENED)  # committing an upgrade can fail too (a full disk): handled below
    except click.exceptions.Exit as e:
        if not e.exit_code:
            _finish(_OPENED)
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
    except KeyboardInterrupt:  # Ctrl-C: what the command had not committed is rolled back, a new file removed (main)
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (e.g. `keizer standings | head`): stop quietly, keeping what the
        # command wrote before it printed (a new file's schema and change, an upgrade).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _finish(_OPENED)
        sys.exit(0)
    except Refusal as e:  # the store's, the settings', a file's: what is wrong and what would fix it
        _fail(f"error: {say(e)}")
    except sqlite3.Error as e:
        from keizer.store import explain

        path = _OPENED[-1].db if _OPENED else Path("club.db")
        _fail(f"error: {explain(e, path) or f'database problem: {e}'}")
    except UnicodeEncodeError:  # a lone surrogate: bytes of an argument that are not UTF-8
        _fail("error: an argument is not valid text (bytes that are not UTF-8); check the terminal's encoding")
    except OSError as e:
        _fail(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "))


def _fail(message: str) -> None:
    click.echo(_one_line(message), err=True)  # main's cleanup follows the exit
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
    """A failed or interrupted command leaves no trace: an upgrade, or a new file's schema,
    is rolled back, and a database file this command created is removed again (an empty
    file 'keizer init' was given stays, empty).  The connection is closed: a caller that
    goes on (a test, a script calling main) keeps no lock or deleted file open."""
    for ctx in holder:
        if ctx._store is not None:
            ctx._store.rollback_upgrade()
            ctx._store.close()
        # rolled back, the file it made is empty again; one that holds data was committed (an
        # interrupt that came as the commit ended) and stays
        if ctx.created and ctx._store is not None and os.path.exists(ctx.db) and os.path.getsize(ctx.db) == 0:
            os.remove(ctx.db)
