"""``keizer trf …``: tie-break standings of a FIDE TRF file.

Register with ``cli.add_command(trf)``.  User errors raise :class:`TrfUsageError`
(a :class:`FormatError`), which ``keizer.cli.main`` prints as one line.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import click

from keizer.cli.params import ROUND, ROUND_OR_ZERO, SEED
from keizer.formats.season_json import FormatError
from keizer.formats.trf import read
from keizer.output import FORMATS, json_number, number, render
from keizer.tiebreaks import (Edition, Standing, System, TieBreakError, Tournament, advise, labels, parse_list,
                              rank, recommended_for)
from keizer.tiebreaks.fide_tables import round_half_up
from keizer.tiebreaks.fields import player_field, team_field


class TrfUsageError(FormatError):
    """A tie-break list or option that cannot be used with this file."""


@click.group("trf")
def trf() -> None:
    """FIDE Tournament Report Files (TRF16, TRF26): standings with tie-breaks, Dutch pairings."""


@trf.command("standings")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--tiebreaks", "-t", "codes",
              help='Ordered tie-break codes, e.g. "BH/C1,BH,SB" (default: the file\'s 202 record, '
                   "else the recommended list).")
@click.option("--edition", type=click.Choice([e.value for e in Edition]), default="2026", show_default=True,
              help="Rule edition for unplayed rounds.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Output format.")
@click.option("--round", "upto", type=ROUND_OR_ZERO, help="Standings after this round (default: the last played).")
@click.option("--primary", type=click.Choice(["MP", "GP"]), help="Team files: rank by match or game points.")
@click.option("--system", type=click.Choice([s.value for s in System]),
              help="Override the pairing system the file declares (092/192).")
@click.option("--lots", type=SEED, help="Seed of the drawing of lots for ties the list leaves.")
def standings(file: str, codes: str | None, edition: str, fmt: str, upto: int | None, primary: str | None,
              system: str | None, lots: int | None) -> None:
    """The ranking of FILE by its tie-breaks."""
    t = read(file)
    if system:
        t = replace(t, system=System(system))
    ed = Edition(edition)
    chosen = codes if codes is not None else ",".join(t.tiebreaks or recommended_for(t))
    try:
        tbs = parse_list(chosen)
        unrated = any(not p.rating for p in t.players)
        for a in advise(chosen, t.is_team, t.system, ed, unrated):
            if a.level == "error":
                raise TrfUsageError(a.message)
            if codes is not None:
                click.echo(f"warning: {a.message}", err=True)
        result = rank(t, tbs, ed, rounds=upto, primary=primary, lots_seed=lots)
    except TieBreakError as e:
        raise TrfUsageError(str(e)) from None
    if upto is None:
        for message in _declared_differences(t):
            click.echo(f"warning: {message}", err=True)
    names = list(labels(tbs))
    if fmt == "json":
        click.echo(render([_json_row(s, names) for s in result], [], "json"))
        return
    rows = [{"rank": s.rank, "start_no": s.id, "name": s.name, "points": number(s.points),
             **{n: _shown(s.values[n]) for n in names}} for s in result]
    click.echo(render(rows, ["rank", "start_no", "name", "points", *names], fmt))


@trf.command("pair")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_no", type=ROUND, help="Round to pair (default: the one after the last in the file).")
@click.option("--rounds", type=ROUND, help="Planned number of rounds (default: the file's 142/XXR record).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Output format.")
def pair(file: str, round_no: int | None, rounds: int | None, fmt: str) -> None:
    """Pair a round of FILE by the FIDE Dutch system (2026 rules).

    Players whose entry for that round is already a bye (H, F, Z, U) are not paired,
    as in other pairing programs; the round's existing games are ignored.
    """
    from keizer.pairing.swiss import SwissError, initial_colour_of, pair_swiss
    from keizer.tiebreaks import Code

    t = read(file)
    if t.is_team:
        raise TrfUsageError("team files cannot be paired here; a team Swiss is paired in the database "
                            "('keizer competition create NAME --system team --schedule swiss')")
    # Files may announce more rounds than they hold (142/XXR): pair after the last round with games.
    entries = [[p.results[r] if r < len(p.results) else None for p in t.players]
               for r in range(max((len(p.results) for p in t.players), default=0))]
    played = max((r + 1 for r, row in enumerate(entries) if any(e and e.opponent for e in row)), default=0)
    number_ = round_no if round_no is not None else played + 1
    if not 1 <= number_ <= played + 1:
        raise TrfUsageError(f"round {number_} cannot be paired: the file has {played} rounds")
    # The Dutch rules pair the last round differently (top scorers): the planned number must be known.
    planned = rounds or t.rounds
    if number_ > planned:
        raise TrfUsageError(f"{file} plans {planned} rounds (record 142 or XXR, else the rounds it holds); "
                            f"to pair round {number_} give the planned number with --rounds N")
    row = entries[number_ - 1] if number_ <= len(entries) else []
    started = any(e and e.code is not Code.ZPB for e in row)  # byes entered before pairing (H, F, Z)
    absent = {p.start_no for p, e in zip(t.players, row)
              if started and e is not None and e.opponent is None and e.code is not Code.PAB}
    present = [p.start_no for p in t.players if p.start_no not in absent]
    try:
        found = pair_swiss(t, planned, present, number_ - 1, initial_colour_of(t))
    except SwissError as e:
        raise TrfUsageError(f"{file}: {e}") from None
    names = {p.start_no: p.name for p in t.players}
    if fmt == "json":
        click.echo(json.dumps({"round": found.round, "pairs": [list(pair) for pair in found.pairs], "bye": found.bye}))
        return
    rows = [{"board": k, "white": w, "white_name": names[w], "black": b, "black_name": names[b]}
            for k, (w, b) in enumerate(found.pairs, 1)]
    if fmt == "csv" and found.bye is not None:  # the bye as a row of its own: Black 0, as pairing programs write it
        rows.append({"board": None, "white": found.bye, "white_name": names[found.bye], "black": 0,
                     "black_name": "(bye)"})
    if fmt == "table":
        click.echo(f"Round {found.round} (FIDE Dutch)")
    click.echo(render(rows, ["board", "white", "white_name", "black", "black_name"], fmt))
    if found.bye is not None and fmt == "table":
        click.echo(f"bye: {found.bye} {names[found.bye]}")


def _json_row(s: Standing, names: list[str]) -> dict[str, Any]:
    return {"rank": s.rank, "start_no": s.id, "name": s.name, "points": json_number(s.points),
            "tiebreaks": {n: _json_value(s.values[n]) for n in names}}


def _json_value(v: Fraction | int | None) -> int | float | None:
    """Exact for integers and half/quarter points; otherwise rounded half up to 2 decimals."""
    if v is None or isinstance(v, int):
        return v
    return json_number(round_half_up(v, 2))  # type: ignore[arg-type]


def _shown(v: Fraction | int | None) -> str:
    return "" if v is None else str(v) if isinstance(v, int) else number(v)


def _declared_differences(t: Tournament) -> list[str]:
    """Where the file's own totals disagree with its results (a missing scoring record, a typo)."""
    if t.is_team:
        mp = team_field(t, "MP").scores
        gp = team_field(t, "GP").scores if t.boards else {}
        off = [team.number for team in t.teams
               if team.points is not None and team.points != mp[team.number]
               or team.game_points is not None and gp and team.game_points != gp[team.number]]
        what = "team"
    else:
        scores = player_field(t).scores
        off = [p.start_no for p in t.players if p.points is not None and p.points != scores[p.start_no]]
        what = "player"
    if not off:
        return []
    shown = ", ".join(map(str, off[:10])) + (", …" if len(off) > 10 else "")
    return [f"the file's totals differ from its results for {len(off)} {what}{'s' if len(off) > 1 else ''} ({shown}); "
            "the standings use the results"]
