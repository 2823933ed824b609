"""``keizer ratings``: import the KNSB's or FIDE's rating list into the members."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any

import click

from keizer.cli.base import Context, format_option, pass_ctx
from keizer.cli.words import say
from keizer.formats.rating_lists import RatingList
from keizer.rating.club import PERIODS, STARTS
from keizer.rating.fide import CHAPTERS


@click.group("ratings")
def ratings() -> None:
    """Rating lists: the KNSB's (national) and FIDE's."""


@ratings.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Show the changes without writing them.")
@click.option("--match-names", is_flag=True,
              help="Give a member without an id of the list the id of the one player of that name in it.")
@pass_ctx
def ratings_import(ctx: Context, file: Path, dry_run: bool, match_names: bool) -> None:
    """Update the members' ratings from a rating list, zipped or not.

    The KNSB list (CSV) sets the national rating of each member with that
    federation id (relatienummer); FIDE's list (TXT or XML) sets the FIDE rating of
    each member with that FIDE id.  Members the list does not hold are listed, and
    a member without an id is matched by name only with --match-names.  Which
    rating orders a competition: 'keizer competition settings --set rating_list=fide'.
    """
    from keizer.operations.members import plan_rating_import, write_rating_import

    store = ctx.store()
    members = store.members()
    with file.open("rb") as stream:
        found = _read_with_progress(stream, file, members, match_names)
    todo = plan_rating_import(found, members, file.name, match_names)
    for line in todo.changed:
        click.echo(say(line))
    for missing in todo.plan.not_found:
        click.echo(f"not found: {say(missing)}")
    if todo.plan.without_id:
        shown = ", ".join(todo.plan.without_id[:10]) + (", …" if len(todo.plan.without_id) > 10 else "")
        hint = "" if match_names else " (set it with 'keizer member edit', or use --match-names)"
        click.echo(f"without a {todo.id_label}: {shown}{hint}")
    if todo.plan.skipped:
        lines = ", ".join(map(str, todo.plan.skipped[:10])) + (", …" if len(todo.plan.skipped) > 10 else "")
        many = len(todo.plan.skipped) > 1
        click.echo(f"skipped: {len(todo.plan.skipped)} row{'s' * many} without a {todo.id_label} (line{'s' * many} "
                   f"{lines}); --match-names matches {'them' if many else 'it'} by name")
    if todo.plan.updates and not dry_run:
        with store.change("ratings import", todo.summary):
            write_rating_import(store, todo)
    elif dry_run:
        store.rollback_upgrade()  # an older file is not upgraded either
    click.echo(("dry run, nothing written: " if dry_run else "") + f"{todo.list_name} rating list: {say(todo.counts)}")


@ratings.command("club")
@click.option("--only", "competitions", multiple=True, metavar="COMPETITION",
              help="Count only this competition's games (repeat for more; default: every competition).")
@click.option("--time-control", "chapter", type=click.Choice(CHAPTERS),
              help="Count only rounds of this kind, by each round's time control (default: all games in one rating).")
@click.option("--start", type=click.Choice(STARTS), default="national", show_default=True,
              help="Starting rating: the member's national or FIDE rating on record (else --start-rating), "
                   "or --start-rating for everyone.")
@click.option("--start-rating", type=click.IntRange(100, 3000), default=1500, show_default=True,
              help="The starting rating of a member without one (everyone's with --start fixed).")
@click.option("--period", type=click.Choice(PERIODS), default="round", show_default=True,
              help="The rating period: each round, each club evening (date), or each month.")
@format_option
@pass_ctx
def ratings_club(ctx: Context, competitions: tuple[str, ...], chapter: str | None, start: str, start_rating: int,
                 period: str, fmt: str) -> None:
    """The club rating (Glicko-2) over every game of every season, round by round,
    from the club's file alone: provisional, not official."""
    from keizer.cli.careers import show_club_rating
    from keizer.operations.careers import Choice, club_rating

    choice = Choice(competitions, chapter, start, start_rating, period)  # type: ignore[arg-type]  # click's choices
    show_club_rating(club_rating(ctx.store(), choice), fmt)


def _read_with_progress(stream: IO[bytes], file: Path, members: list[dict[str, Any]],
                        match_names: bool) -> RatingList:
    """Read the list, with a progress bar on a terminal (FIDE's full list takes seconds).
    The bar follows the position in the file itself, which a zipped list is read from too."""
    from keizer.operations.members import read_rating_list

    if not sys.stderr.isatty():
        return read_rating_list(stream, file.name, members, match_names)
    with click.progressbar(length=file.stat().st_size, label=f"reading {file.name}", file=sys.stderr) as bar:
        return read_rating_list(stream, file.name, members, match_names,
                                lambda _read: bar.update(stream.tell() - bar.pos))
