"""``keizer trf …``: tie-break standings of a FIDE TRF file.

Register with ``cli.add_command(trf)``.  User errors raise :class:`TrfUsageError`
(a :class:`FormatError`), which ``keizer.cli.main`` prints as one line.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import click

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
    """FIDE Tournament Report Files (TRF16, TRF26): standings with tie-breaks."""


@trf.command("standings")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--tiebreaks", "-t", "codes",
              help='Ordered tie-break codes, e.g. "BH/C1,BH,SB" (default: the file\'s 202 record, '
                   "else the recommended list).")
@click.option("--edition", type=click.Choice([e.value for e in Edition]), default="2026", show_default=True,
              help="Rule edition for unplayed rounds.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Output format.")
@click.option("--round", "upto", type=int, help="Standings after this round (default: the last played).")
@click.option("--primary", type=click.Choice(["MP", "GP"]), help="Team files: rank by match or game points.")
@click.option("--system", type=click.Choice([s.value for s in System]),
              help="Override the pairing system the file declares (092/192).")
@click.option("--lots", type=int, help="Seed of the drawing of lots for ties the list leaves.")
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
