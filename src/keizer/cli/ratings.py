"""``keizer ratings``: import the KNSB's or FIDE's rating list into the members."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

import click

from keizer.cli.commands import Context, pass_ctx
from keizer.formats.season_json import FormatError
from keizer.formats.rating_lists import (
    COLUMNS,
    RatingList,
    name_keys,
    plan,
    read,
    wanted,
)


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
    store = ctx.store()
    members = store.members()
    names = set().union(*(name_keys(m["name"]) for m in members)) if match_names else None
    with file.open("rb") as stream:
        try:
            found = _read_with_progress(stream, file, wanted(members), names)
        except FormatError as e:  # say which file: the officer may have several lists at hand
            raise FormatError(f"{file.name}: {e}") from None
    todo = plan(found, members, match_names)
    id_label = COLUMNS[found.kind][2]
    list_name = "FIDE" if found.kind == "fide" else "national"
    counts = (f"{len(todo.updates)} members changed, {todo.unchanged} unchanged, {len(todo.not_found)} not found, "
              f"{len(todo.without_id)} without a {id_label}")
    for update in todo.updates:
        click.echo(update.report)
    for line in todo.not_found:
        click.echo(f"not found: {line}")
    if todo.without_id:
        shown = ", ".join(todo.without_id[:10]) + (", …" if len(todo.without_id) > 10 else "")
        hint = "" if match_names else " (set it with 'keizer member edit', or use --match-names)"
        click.echo(f"without a {id_label}: {shown}{hint}")
    if todo.updates and not dry_run:
        with store.change("ratings import", f"import the {list_name} rating list {file.name}: {counts}"):
            for update in todo.updates:
                store.update_member(update.member_id, **update.fields)
    elif dry_run:
        store.rollback_upgrade()  # an older file is not upgraded either
    click.echo(("dry run, nothing written: " if dry_run else "") + f"{list_name} rating list: {counts}")


def _read_with_progress(stream: IO[bytes], file: Path, ids: dict[str, set[str]],
                        names: set[str] | None) -> RatingList:
    """Read the list, with a progress bar on a terminal (FIDE's full list takes seconds).
    The bar follows the position in the file itself, which a zipped list is read from too."""
    if not sys.stderr.isatty():
        return read(stream, ids, names)
    with click.progressbar(length=file.stat().st_size, label=f"reading {file.name}", file=sys.stderr) as bar:
        return read(stream, ids, names, lambda _read: bar.update(stream.tell() - bar.pos))

