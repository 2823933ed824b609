"""``keizer import`` of another program's TRF as a Keizer season, and of a rounds CSV.

Called by ``keizer import`` (``docs/switching.md``).  Reading and mapping live in
:mod:`keizer.formats.trf_keizer` and :mod:`keizer.formats.rounds_csv`; this module
only matches members, writes in one transaction and prints the report.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from keizer.operations import competition as comp_ops
from keizer.operations.importing import near_names
from keizer.formats.errors import FormatError
from keizer.model import Season
from keizer.limits import fold_name
from keizer.refusals import Message
from keizer.settings import Settings
from keizer.store import Store, StoreError

if TYPE_CHECKING:
    from keizer.formats.trf_import import RankDifference

Writing = Callable[..., AbstractContextManager[Store]]


def import_trf_keizer(ctx: Any, file: Path, t: Any, name: str | None, preset: str,
                      overrides: Mapping[str, str], writing: Writing, verb: str = "imported") -> int:
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
    click.echo(f"{verb} {season.name} (keizer, preset {preset}) from {origin}: {len(season.players)} players, "
               f"{len(season.rounds)} rounds, {games} games, {absences} byes and absences, "
               f"{stored} FIDE ids stored")
    for line in added:
        click.echo(line)
    notes = [*imp.notes, *skipped]
    if not notes:
        click.echo("to check: nothing, every round came over as it is")
    else:
        click.echo(f"to check ({len(notes)}; mark a round otherwise with 'keizer attend --round N'):")
    for line in notes:
        click.echo(f"  {line}")
    if any(p.rank is not None for p in t.players):
        click.echo("the file's ranks are not compared: they rank by points, a Keizer competition by its Keizer "
                   "score")
    return comp_id


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
                  overrides: Mapping[str, str], dry_run: bool, writing: Writing, new_members: bool = False) -> int:
    """A rounds CSV (one row per game or absence) as a new Keizer competition.  A name that
    is no member but close to one ('Anne de Vries' beside 'Anna de Vries') is refused
    unless ``new_members``; the dry run (into a copy of the database) asks "did you mean"."""
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
    near = {n: near_names(n, [m["name"] for m in members]) for n in new}
    near = {n: close for n, close in near.items() if close}
    if near and not new_members and not dry_run:
        first, close = next(iter(near.items()))
        more = f" (and {len(near) - 1} more; see them with --dry-run)" if len(near) > 1 else ""
        raise FormatError(f"{file.name}: {first!r} is no member; did you mean {_or(close)}?{more} spell the name "
                          "as the member's in the file, or add --new-members to add it as a new member")
    games = sum(len(r.games) for r in season.rounds)
    absences = sum(len(r.absent) + len(r.external) for r in season.rounds)
    counts = (f"{len(season.players)} players ({len(season.players) - len(new)} members, {len(new)} new), "
              f"{len(season.rounds)} rounds, {games} games, {absences} absences")
    with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
        comp_id = comp_ops.import_season(store, season, None, preset)
    if dry_run:
        click.echo(f"would import {season.name} (keizer, preset {preset}): {counts}; nothing written (--dry-run)")
    else:
        click.echo(f"imported {season.name} (keizer, preset {preset}): {counts}")
    if new:
        click.echo(f"new members ({len(new)}; not in the member list{' yet' if dry_run else ', added'}):")
        for player_name in new:
            asked = "" if player_name not in near else (f" (did you mean {_or(near[player_name])}?)" if dry_run else
                                                        f" (close to {_or(near[player_name])})")
            click.echo(f"  {player_name}{asked}")
        if near and dry_run and not new_members:
            click.echo(f"{len(near)} of them close to a member: the import refuses them unless the file spells "
                       "them as the member, or --new-members adds them as new members")
    if imp.report:
        click.echo(f"to check ({len(imp.report)}; mark a round otherwise with 'keizer attend --round N'):")
        for line in imp.report:
            click.echo(f"  {line}")
    return comp_id


def _or(names: list[str]) -> str:
    return " or ".join(repr(n) for n in names[:3])


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


def refuse_options(kind: str, system: str | None, preset: str | None, sets: tuple[str, ...],
                   new_members: bool = False) -> None:
    """``keizer import``'s options that do not apply to this kind of file (trf, csv, json, kfc)."""
    what = {"trf": "a TRF file", "csv": "a rounds CSV", "json": "a season JSON file",
            "kfc": "a KeizerForClubs database"}[kind]
    if new_members and kind != "csv":
        raise StoreError(f"--new-members is for a rounds CSV (round;date;white;black;result), not {what}: {what} "
                         "adds every player who is no member as a new one")
    if system is not None and kind != "trf":
        raise StoreError(f"--system is for a TRF file; {what} always becomes a Keizer competition")
    if (preset or sets) and kind in ("json", "kfc"):
        raise StoreError(f"--preset and --set are for a TRF or rounds CSV; {what} brings its own settings")


# -- a dry run -----------------------------------------------------------------------


@contextmanager
def scratch(ctx: Any) -> Iterator[Any]:
    """A context on a copy of the database, in a folder of its own that goes afterwards: a
    dry run imports into the copy with the very code of the import (every refusal it would
    meet, the standing it would give) and the database itself is never opened.  The copy is
    SQLite's own backup of a read-only connection, so a file another program keeps in WAL
    mode is copied whole; a file that is no database is copied as it is (and refused by the
    import as it would be)."""
    from keizer.cli.base import Context

    folder = Path(tempfile.mkdtemp(prefix="keizer-dry-run-"))
    copy = folder / (ctx.db.name or "club.db")
    try:
        if ctx.db.exists() and ctx.db.stat().st_size > 0:
            try:
                source = sqlite3.connect(f"{ctx.db.resolve().as_uri()}?mode=ro", uri=True)
                try:
                    target = sqlite3.connect(copy)
                    source.backup(target)
                    target.close()
                finally:
                    source.close()
            except sqlite3.DatabaseError:
                copy.unlink(missing_ok=True)
                shutil.copyfile(ctx.db, copy)
        other = Context(str(copy), ctx.competition_ref)
        try:
            yield other
        finally:
            if other._store is not None:
                other._store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def ask_near_names(store: Store, members: list[dict[str, Any]]) -> None:
    """The members an import would add whose name is close to a member's: "did you mean"."""
    known = {m["id"] for m in members}
    names = [m["name"] for m in members]
    for m in store.members():
        close = near_names(m["name"], names) if m["id"] not in known else []
        if close:
            click.echo(f"did you mean {_or(close)}? the import would add {m['name']!r} as a new member "
                       "(rename the member or the player in the file first if they are one person)")


def show_standing(store: Store, comp_id: int) -> None:
    """The standing the imported competition gives (a dry run shows it), as 'keizer standings' would."""
    from keizer.cli.standings import show_standing as table
    from keizer.operations import standings as standings_ops

    season = store.load_season(comp_id)
    upto = standings_ops.checked_round(season, None)
    click.echo(f"the standing it would give, after round {upto}:")
    table(store, comp_id, season, upto, "table", None)


# -- the organiser's tie-breaks and ranks ---------------------------------------------------

_DROPPED = {"unknown": "keizer knows no tie-break of that name", "team": "a team tie-break, and this is an "
            "individual event", "individual": "an individual tie-break, and this is a team event"}


def say_tiebreaks(taken: Any, used: list[str]) -> None:
    """Which tie-break list ranks the imported standing: the file's (record 202, Swiss-Manager's
    names read as FIDE's codes), or FIDE's recommendation when the file names none."""
    for raw, code in taken.renamed:
        click.echo(f"the file's tie-break {raw!r} (Swiss-Manager's name) is read as {code}")
    for raw, why in taken.dropped:
        click.echo(f"the file's tie-break {raw!r} has no equivalent ({_DROPPED[why]}): left out")
    if taken.codes:
        click.echo(f"ranked by the file's tie-break list (record 202): {', '.join(used)}")
    else:
        click.echo(f"the file names no tie-break list (record 202): ranked by FIDE's recommendation for it, "
                   f"{', '.join(used)} ('keizer competition settings --set tiebreaks=…' to change it)")


def say_ranks(t: Any, store: Store, comp_id: int) -> None:
    """Each rank of the imported standing that differs from the rank the file states, and why."""
    from keizer.formats.trf_import import rank_differences, ranks_are_start_numbers, ties_by_start_number
    from keizer.operations import standings as standings_ops

    if not any(p.rank for p in t.players):
        return
    season = store.load_season(comp_id)
    upto = season.completed_rounds()
    if upto == 0:
        click.echo("the file's ranks are not compared: no round has been played")
        return
    _rules, rows = standings_ops.points_rows(store, comp_id, season, upto)
    diffs = rank_differences(t, rows)
    if diffs and ranks_are_start_numbers(t):
        click.echo("the file's ranks are not compared: its rank column repeats the start numbers, not a standing")
        return
    if not diffs:
        click.echo(f"the file's ranks: all {len(rows)} equal to keizer's standing after round {upto}")
        return
    click.echo(f"the file's ranks: {len(diffs)} of {len(rows)} differ from keizer's standing after round {upto}"
               + (" (the file ranks players of equal points by start number, not by a tie-break)"
                  if ties_by_start_number(t) else "") + ":")
    for d in diffs:
        click.echo(f"  #{d.start_no} {d.name}: rank {d.ours}, in the file {d.theirs}: " + rank_reason(d))


def rank_reason(d: RankDifference) -> str:
    """Why keizer ranks a player otherwise than the file (a
    :class:`~keizer.formats.trf_import.RankDifference`), in one clause."""
    from keizer.output import number

    if d.why == "points":
        return f"the file's total is {number(d.declared, 2)}, its results give {number(d.points, 2)}"
    if d.why == "shared":
        return "the file gives that rank to several players (it does not break ties)"
    if d.why == "equal":
        return ("equal on points and every tie-break of the list with another player; the file broke the tie "
                "otherwise (rating, start number or lot)")
    if d.why == "tiebreak":
        mine = "-" if d.mine is None else number(Fraction(d.mine), 2)
        other = "-" if d.other_value is None else number(Fraction(d.other_value), 2)
        return (f"tied on {number(d.points, 2)} points with #{d.other} {d.other_name}, whom the file ranks "
                f"{d.ours}: {d.code} {mine} against {other}")
    return f"the file orders the players on {number(d.points, 2)} points otherwise"
