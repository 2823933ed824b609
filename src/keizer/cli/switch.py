"""``keizer import`` of another program's TRF as a Keizer season, and of a rounds CSV.

Called by ``keizer import`` (``docs/switching.md``).  Reading and mapping live in
:mod:`keizer.formats.trf_keizer` and :mod:`keizer.formats.rounds_csv`; this module
only matches members, writes in one transaction and prints the report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from keizer.operations import competition as comp_ops
from keizer.formats.season_json import FormatError
from keizer.model import Season
from keizer.limits import fold_name
from keizer.refusals import Message
from keizer.settings import Settings
from keizer.store import Store, StoreError

Writing = Callable[..., AbstractContextManager[Store]]


def import_trf_keizer(ctx: Any, file: Path, t: Any, name: str | None, preset: str,
                      overrides: Mapping[str, str], writing: Writing) -> None:
    """A TRF tournament (``keizer.tiebreaks.Tournament``) as a new Keizer competition."""
    from keizer.formats.trf_keizer import keizer_season

    if t.is_team:
        raise FormatError(f"{file.name}: a team tournament cannot become a Keizer competition; "
                          "import it without --system keizer")
    imp = keizer_season(t, Settings.from_preset(preset, overrides), name)
    season = imp.season
    added: list[str] = []
    with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
        comp_id = comp_ops.import_season(store, season, None, preset, tell=added.append)
        stored, skipped = _store_fide_ids(store, comp_id, imp.fide_ids)
    games = sum(len(r.games) for r in season.rounds)
    absences = sum(len(r.absent) for r in season.rounds)
    origin = "keizer's own TRF export" if imp.from_keizer else "TRF"
    click.echo(f"imported {season.name} (keizer, preset {preset}) from {origin}: {len(season.players)} players, "
               f"{len(season.rounds)} rounds, {games} games, {absences} byes and absences, "
               f"{stored} FIDE ids stored")
    for line in added:
        click.echo(line)
    notes = [*imp.notes, *skipped]
    if not notes:
        click.echo("to check: nothing, every round came over as it is")
        return
    click.echo(f"to check ({len(notes)}; mark a round otherwise with 'keizer attend --round N'):")
    for line in notes:
        click.echo(f"  {line}")


def _store_fide_ids(store: Store, comp_id: int, fide_ids: Mapping[str, str]) -> tuple[int, list[str]]:
    """Give each player's member the file's FIDE id, unless the member has an id already
    or another member has this one; those are named.  A database with a FIDE id column
    takes it there, an older one as the federation id."""
    members = {m["id"]: m for m in store.members()}
    column = "fide_id" if any("fide_id" in m for m in members.values()) else "fed_id"
    owner = {m[column]: m for m in members.values() if m[column]}
    stored, skipped = 0, []
    for row in store.players(comp_id):
        fide, have = fide_ids.get(row["key"]), members[row["member_id"]][column]
        if fide is None or have == fide:
            continue
        if have is not None or fide in owner:
            why = (f"the member has {have}" if have is not None
                   else f"member {owner[fide]['name']} (id {owner[fide]['id']}) has it")
            skipped.append(f"{row['name']} (#{row['start_no']}): FIDE id {fide} not stored, {why}")
            continue
        if column == "fide_id":
            store.update_member(row["member_id"], fide_id=fide)
        else:
            store.update_member(row["member_id"], fed_id=fide)
        owner[fide] = members[row["member_id"]]
        stored += 1
    return stored, skipped


def import_rounds(ctx: Any, file: Path, raw: bytes, name: str | None, preset: str,
                  overrides: Mapping[str, str], dry_run: bool, writing: Writing) -> None:
    """A rounds CSV (one row per game or absence) as a new Keizer competition."""
    from keizer.formats import rounds_csv

    try:
        imp = rounds_csv.read(raw, Settings.from_preset(preset, overrides), name or file.stem)
    except rounds_csv.MemberListError as e:
        raise FormatError(f"{file.name}: {e}; import it with 'keizer member import {file.name}'") from None
    except FormatError as e:
        raise FormatError(f"{file.name}: {e}") from None
    exists = ctx.db.exists() and ctx.db.stat().st_size > 0
    members = ctx.store().members() if exists else []
    season, new = _matched(imp.season, members)
    games = sum(len(r.games) for r in season.rounds)
    absences = sum(len(r.absent) + len(r.external) for r in season.rounds)
    counts = (f"{len(season.players)} players ({len(season.players) - len(new)} members, {len(new)} new), "
              f"{len(season.rounds)} rounds, {games} games, {absences} absences")
    if dry_run:
        click.echo(f"would import {season.name} (keizer, preset {preset}): {counts}; nothing written (--dry-run)")
    else:
        with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
            comp_ops.import_season(store, season, None, preset)
        click.echo(f"imported {season.name} (keizer, preset {preset}): {counts}")
    if new:
        click.echo(f"new members ({len(new)}; not in the member list{' yet' if dry_run else ', added'}):")
        for player_name in new:
            click.echo(f"  {player_name}")
    if imp.report:
        click.echo(f"to check ({len(imp.report)}; mark a round otherwise with 'keizer attend --round N'):")
        for line in imp.report:
            click.echo(f"  {line}")


def _matched(season: Season, members: list[dict[str, Any]]) -> tuple[Season, list[str]]:
    """The season with each player that is a member (same name up to case, accents and
    spaces) under the member's name and rating, so that the import takes that member;
    and the names of the others, who become new members."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for m in members:
        by_name.setdefault(fold_name(m["name"]), []).append(m)
    players, new = [], []
    for p in season.players:
        same = by_name.get(fold_name(p.name), [])
        if len(same) > 1:
            shown = ", ".join(f"{m['name']} (id {m['id']})" for m in same[:4])
            raise FormatError(f"{p.name!r} matches several members: {shown}; rename them apart "
                              "('keizer member edit') or spell the name in the file as one of them")
        if same:
            players.append(replace(p, name=same[0]["name"], rating=same[0]["rating"]))
        else:
            players.append(p)
            new.append(p.name)
    return replace(season, players=tuple(players)), new


def refuse_options(kind: str, system: str | None, preset: str | None, sets: tuple[str, ...], dry_run: bool) -> None:
    """``keizer import``'s options that do not apply to this kind of file (trf, csv, json, kfc)."""
    what = {"trf": "a TRF file", "csv": "a rounds CSV", "json": "a season JSON file",
            "kfc": "a KeizerForClubs database"}[kind]
    if dry_run and kind != "csv":
        raise StoreError(f"--dry-run is for a rounds CSV (round;date;white;black;result), not {what}")
    if system is not None and kind != "trf":
        raise StoreError(f"--system is for a TRF file; {what} always becomes a Keizer competition")
    if (preset or sets) and kind in ("json", "kfc"):
        raise StoreError(f"--preset and --set are for a TRF or rounds CSV; {what} brings its own settings")
