"""A club evening's round: ``attend``, ``attendance``, ``pair``, ``unpair``, ``swap``,
``late``, ``noshow``, ``pairings`` and ``result``.

A thin view over :mod:`keizer.operations.competition`, :mod:`keizer.operations.rounds`
and :mod:`keizer.operations.results`.
"""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from keizer import systems
from keizer.cli.base import Context, DryRun, confirm_leaving, format_option, leave_fide_options, pass_ctx, writing
from keizer.cli.params import BOARD, DATE, ROUND
from keizer.cli.words import say
from keizer.formats.errors import FormatError
from keizer.operations import competition as comp_ops
from keizer.operations import rounds as rounds_ops
from keizer.output import number, render
from keizer.refusals import Message
from keizer.store import Store, StoreError

if TYPE_CHECKING:
    from keizer.model import Season
    from keizer.pairing.keizer import Pairing


# -- attendance ---------------------------------------------------------------


@click.command()
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
def attend(ctx: Context, present: tuple[str, ...], excused: tuple[str, ...], unexcused: tuple[str, ...],
           club: tuple[str, ...], external: tuple[str, ...], withdrawn: tuple[str, ...], round_no: int | None,
           date: datetime | None, force: bool) -> None:
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
    with writing(ctx, "attend", Message("attendance")) as store:
        comp_id = ctx.comp(store)["id"]
        number, counts = comp_ops.mark_attendance(store, comp_id, marks, ext, withdrawn, round_no,
                                                  date.date().isoformat() if date else None, force)
        store.describe(Message("attendance round %(round)s", round=number))
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    click.echo(f"round {number}: {summary}")


@click.command()
@click.option("--round", "round_no", type=ROUND, help="Round (default: the open one).")
@format_option
@pass_ctx
def attendance(ctx: Context, round_no: int | None, fmt: str) -> None:
    """Who is present, excused, on club duty … in a round."""
    store = ctx.store()
    _number, rows = rounds_ops.attendance_rows(store, ctx.comp(store)["id"], round_no)
    click.echo(render(rows, ["start_no", "name", "status"], fmt))


# -- pairing ------------------------------------------------------------------


@click.command()
@click.option("--dry-run", is_flag=True, help="Show the pairing without storing it.")
@click.option("--explain", is_flag=True, help="Say why each pair was made.")
@click.option("--fix", nargs=2, multiple=True, metavar="WHITE BLACK", help="Fix a pair by hand (repeatable).")
@click.option("--bye", "bye", metavar="PLAYER", help="Give the bye to this player.")
@click.option("--again", is_flag=True, help="Re-pair the open round (no results yet).")
@click.option("--keep", type=BOARD, multiple=True, metavar="BOARD", help="With --again: keep this board (repeatable).")
@format_option
@pass_ctx
def pair(ctx: Context, dry_run: bool, explain: bool, fix: tuple[tuple[str, str], ...], bye: str | None, again: bool,
         keep: tuple[int, ...], fmt: str) -> None:
    """Pair the next round from the players marked present."""
    if keep and not again:
        raise StoreError("--keep only works with --again")
    try:
        # The competition is looked up inside the transaction: another process may remove
        # it (keizer undo) between a lookup before and the write.
        with writing(ctx, "pair", Message("pairing")) as store:
            comp_id = ctx.comp(store)["id"]
            pairing = comp_ops.make_pairing(store, comp_id, fix, bye, keep, again,
                                            tell=lambda line: click.echo(say(line), err=True))
            store.describe(Message("pair round %(round)s", round=pairing.round))
            season = store.load_season(comp_id)
            swiss = systems.of(store.system(comp_id)).score_groups
            if dry_run:
                raise DryRun()
    except DryRun:
        pass
    if swiss and not explain and fmt != "json":  # the Swiss pairing list
        _pairing_list(store, comp_id, season, pairing.round, fmt)
        return
    _show_pairing(season, pairing, explain, fmt)


def _show_pairing(season: Season, pairing: Pairing, explain: bool, fmt: str) -> None:
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
        bye = [{"board": None, "white": names[pairing.bye], "black": "(bye)", "why": pairing.bye_reason}
               ] if pairing.bye else []
        click.echo(render(rows + bye, columns, fmt))
        return
    control = season.rounds[pairing.round - 1].time_control
    click.echo(f"Round {pairing.round}" + (f" · {control}" if control else ""))
    click.echo(render(rows, columns, fmt))
    if pairing.bye:
        click.echo(f"bye: {names[pairing.bye]}" + (f" ({pairing.bye_reason})" if explain and pairing.bye_reason else ""))
    for line in pairing.bent:
        click.echo(f"rule bent: {line}")


@click.command()
@pass_ctx
def unpair(ctx: Context) -> None:
    """Remove the open round's pairing (before any result is entered)."""
    with writing(ctx, "unpair", Message("remove pairing")) as store:
        number = comp_ops.unpair(store, ctx.comp(store)["id"])
    click.echo(f"pairing of round {number} removed")


@click.command()
@click.argument("a")
@click.argument("b")
@leave_fide_options
@pass_ctx
def swap(ctx: Context, a: str, b: str, leave_fide_rules: bool, yes: bool) -> None:
    """Move players by hand: exchange two players in the open round's pairing."""
    confirm_leaving(leave_fide_rules, yes)
    with writing(ctx, "swap", Message("swap %(a)s and %(b)s", a=a, b=b)) as store:
        number, warnings = comp_ops.swap_players(store, ctx.comp(store)["id"], a, b, leave_fide_rules)
    for w in warnings:
        click.echo(f"warning: {say(w)}", err=True)
    click.echo(f"round {number}: swapped {a} and {b}")


@click.command()
@click.argument("player_ref", metavar="PLAYER")
@pass_ctx
def late(ctx: Context, player_ref: str) -> None:
    """A latecomer after the pairing: plays whoever had the bye, or takes the bye.

    Every other board stays as it was.
    """
    with writing(ctx, "late", Message("latecomer %(player)s", player=player_ref)) as store:
        change = comp_ops.add_latecomer(store, ctx.comp(store)["id"], player_ref)
        store.describe(Message("round %(round)s: latecomer %(player)s", round=change.round, player=player_ref))
    _tell(change)


@click.command()
@click.argument("player_ref", metavar="PLAYER")
@click.option("--excused", is_flag=True, help="The player sent notice (default: unexcused).")
@pass_ctx
def noshow(ctx: Context, player_ref: str, excused: bool) -> None:
    """A paired player who did not come: the opponent plays whoever had the bye, or takes it.

    Every other board stays as it was.
    """
    with writing(ctx, "noshow", Message("no-show %(player)s", player=player_ref)) as store:
        change = comp_ops.remove_noshow(store, ctx.comp(store)["id"], player_ref,
                                        "excused" if excused else "unexcused")
        store.describe(Message("round %(round)s: no-show %(player)s", round=change.round, player=player_ref))
    _tell(change)


def _tell(change: comp_ops.Change) -> None:
    for w in change.warnings:
        click.echo(f"rule bent: {w}", err=True)
    click.echo(f"round {change.round}: {change.said}")


@click.command()
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


def _pairing_list(store: Store, comp_id: int, season: Season, number: int, fmt: str) -> None:
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
        click.echo("not playing: " + ", ".join(map(str, listing["not_playing"])))


def _points_cell(value: Any) -> str:
    return "" if value is None else number(Fraction(value), 1)


# -- results ------------------------------------------------------------------


@click.command()
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
    with writing(ctx, "result", Message("results %(results)s", results=' '.join(items))) as store:
        entered = result_ops.enter(store, ctx.comp(store)["id"], parsed, round_no, correct)
    if entered.warning:
        click.echo(f"warning: {say(entered.warning)}", err=True)
    click.echo(entered.message)


COMMANDS = (attend, attendance, pair, unpair, swap, late, noshow, pairings, result)
