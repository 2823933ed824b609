"""``keizer import club.s3db``: a KeizerForClubs tournament as a new competition.

Called by ``keizer import`` when the file is an SQLite database.  Prints what was
read, each option mapped, each thing without an equivalent, and the check of our
standings against the numbers KeizerForClubs stored (``docs/switching.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import click

from keizer.operations import competition as comp_ops
from keizer.formats import kfc
from keizer.formats.errors import FormatError
from keizer.refusals import Message
from keizer.store import Store


def import_kfc(ctx: Any, file: Path, name: str | None,
               writing: Callable[..., AbstractContextManager[Store]], verb: str = "imported") -> int:
    try:
        imp = kfc.read(file)
    except FormatError as e:
        text = str(e)
        raise FormatError(text if text.startswith(file.name) else f"{file.name}: {text}") from None
    season = imp.season
    added: list[str] = []
    with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
        comp_id = comp_ops.import_season(store, season, name, "keizerforclubs", tell=added.append)
    withdrawn = sum(p.withdrawn_after is not None for p in season.players)
    late = sum(p.joined > 1 for p in season.players)
    click.echo(f"{verb} {name or season.name} from KeizerForClubs: {len(season.players)} players "
               f"({withdrawn} withdrawn, {late} late entrants), {len(season.rounds)} rounds, "
               f"{imp.games} games, {imp.absences} byes and absences")
    for line in added:
        click.echo(line)
    click.echo("mapped:")
    for line in imp.mapped:
        click.echo(f"  {line}")
    click.echo("not mapped:" if imp.unmapped else "not mapped: nothing")
    for line in imp.unmapped:
        click.echo(f"  {line}")
    checked, diffs = kfc.compare(imp)
    if diffs:
        click.echo(f"checked against KeizerForClubs' stored numbers: {len(diffs)} of {checked} differ:")
        for line in diffs:
            click.echo(f"  {line}")
    elif checked:
        click.echo(f"checked against KeizerForClubs' stored numbers: all {checked} equal "
                   "(totals, ranks, values, every round's points)")
    return comp_id
