"""``keizer member …``: the club's members, shared by all competitions.

A thin view over :mod:`keizer.operations.members`; ``keizer ratings`` (rating lists)
lives in :mod:`keizer.cli.ratings`.
"""

from __future__ import annotations

from pathlib import Path

import click

from keizer.cli.base import Context, DryRun, format_option, pass_ctx, writing
from keizer.cli.words import say
from keizer.cli.params import RATING
from keizer.output import render
from keizer.refusals import Message
from keizer.store import Store, StoreError


@click.group()
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

    with writing(ctx, "member add", Message("add member %(name)s", name=name), create=True) as store:
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
    counts = say(todo.counts)
    if todo.plan.changes:
        store = store or ctx.store(create=True)
        try:
            with store.change("member import", todo.summary):
                write_member_import(store, todo)
                for line in todo.lines:  # listed before the commit, so a refusal above lists nothing
                    click.echo(say(line))
                if dry_run:
                    raise DryRun()
        except DryRun:
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
    columns = ["id", "name", "rating", "fed_id", "fide_id", "fide_rating"]
    click.echo(render([{k: m[k] for k in columns} for m in ctx.store().members()], columns, fmt))


@member.command("edit")
@click.argument("member_ref")
@click.option("--name", help="New name.")
@click.option("--rating", type=RATING, help="New rating (0–4000).")
@click.option("--fed-id", help="New federation id.")
@click.option("--fide-id", help="New FIDE id.")
@click.option("--fide-rating", type=RATING, help="New FIDE rating (0–4000).")
@click.option("--birth-year", type=click.IntRange(1900, 2100), help="Year of birth (FIDE's K 40 for juniors).")
@click.option("--fide-k", type=click.IntRange(1, 40), help="K of FIDE's list (40, 20 or 10).")
@click.option("--career/--no-career", "career", default=None,
              help="Whether the site publishes the member's career page (default: it does).")
@_allow_duplicate
@pass_ctx
def member_edit(ctx: Context, member_ref: str, name: str | None, rating: int | None, fed_id: str | None,
                fide_id: str | None, fide_rating: int | None, birth_year: int | None, fide_k: int | None,
                career: bool | None, allow_duplicate: bool) -> None:
    """Change a member's name, ratings, ids, year of birth, FIDE K, or whether the site
    publishes the member's career (the member by name, #id or federation id)."""
    fields = {k: v for k, v in dict(name=name, rating=rating, fed_id=fed_id, fide_id=fide_id,
                                    fide_rating=fide_rating, birth_year=birth_year, fide_k=fide_k,
                                    career_public=career).items() if v is not None}
    if not fields:
        raise StoreError("nothing to change: give --name, --rating, --fed-id, --fide-id, --fide-rating, "
                         "--birth-year, --fide-k or --career/--no-career")
    from keizer.operations.members import edit_member

    with writing(ctx, "member edit", Message("edit member %(member)s", member=member_ref)) as store:
        new, changed = edit_member(store, member_ref, fields, allow_duplicate)
    click.echo(f"#{new['id']} {new['name']}: {say(changed)}")


COMMANDS = (member,)
