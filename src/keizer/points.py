"""Standings by game points and tie-breaks, for competitions that are not Keizer.

A round-robin group is ranked by points (1, ½, 0), then by an ordered list of
FIDE tie-breaks.  This module turns a :class:`~keizer.model.Season` into the
tie-break engine's :class:`~keizer.tiebreaks.Tournament` and back into
standing lines; the tie-break rules themselves live in :mod:`keizer.tiebreaks`.

>>> from keizer.model import Game, Player, Result, Round, Season
>>> from keizer.settings import Settings
>>> players = tuple(Player(f"p{i}", f"P{i}", start_no=i) for i in (1, 2, 3))
>>> rounds = (Round(1, games=(Game(1, 1, "p2", "p3", Result.WHITE_WIN),), absent={"p1": Absence.BYE}),)
>>> [(e.player, e.points) for e in points_standing(Season("g", Settings(), players, rounds), ["SB"])]
[('p2', Fraction(1, 1)), ('p1', Fraction(0, 1)), ('p3', Fraction(0, 1))]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Absence, Result, Season
from keizer.tiebreaks import Code, Edition, Player, RoundResult, Scoring, System, Tournament, rank

_CODES = {  # result → (white's code, black's code)
    Result.WHITE_WIN: (Code.WIN, Code.LOSS),
    Result.BLACK_WIN: (Code.LOSS, Code.WIN),
    Result.DRAW: (Code.DRAW, Code.DRAW),
    Result.WHITE_FORFEIT_WIN: (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    Result.BLACK_FORFEIT_WIN: (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
}

#: A round-robin's free round (odd number of players) earns nothing.
ROUND_ROBIN_SCORING = Scoring(pab=Fraction(0))


@dataclass(frozen=True)
class PointsEntry:
    player: str
    rank: int
    points: Fraction
    games: int  # played on the board
    wins: int
    draws: int
    losses: int
    tiebreaks: Mapping[str, Fraction | int | None]


def tournament(season: Season, upto: int, system: System = System.ROUND_ROBIN,
               scoring: Scoring = ROUND_ROBIN_SCORING) -> Tournament:
    """The season's rounds 1…upto as the tie-break engine sees them (players by start number)."""
    number = {p.id: p.start_no for p in season.players}
    results: dict[str, list[RoundResult]] = {p.id: [] for p in season.players}
    for rnd in season.rounds[:upto]:
        seen = set()
        for g in rnd.games:
            if g.result is None:
                continue
            white, black = _CODES[g.result]
            results[g.white].append(RoundResult(white, number[g.black], g.colour_of(g.white)))
            results[g.black].append(RoundResult(black, number[g.white], g.colour_of(g.black)))
            seen.update((g.white, g.black))
        for pid in results:
            if pid not in seen:
                bye = rnd.absent.get(pid) is Absence.BYE
                results[pid].append(RoundResult(Code.PAB if bye else Code.ZPB))
    players = tuple(Player(p.start_no, p.name, p.rating, tuple(results[p.id])) for p in season.players)
    return Tournament(players, upto, system, scoring, name=season.name)


def points_standing(season: Season, tiebreaks: Sequence[str], edition: Edition = Edition.FIDE_2026,
                    upto: int | None = None, lots_seed: int | None = None) -> tuple[PointsEntry, ...]:
    """The standing after round ``upto`` (default: the last complete round)."""
    upto = season.completed_rounds() if upto is None else upto
    t = tournament(season, upto)
    by_number = {p.start_no: p.id for p in season.players}
    counts = _counts(season, upto)
    return tuple(
        PointsEntry(by_number[s.id], s.rank, s.points, *counts[by_number[s.id]], dict(s.values))
        for s in rank(t, list(tiebreaks), edition, rounds=upto, lots_seed=lots_seed)
    )


def _counts(season: Season, upto: int) -> dict[str, tuple[int, int, int, int]]:
    counts = {p.id: [0, 0, 0, 0] for p in season.players}
    for rnd in season.rounds[:upto]:
        for g in rnd.games:
            if not g.played_on_board:
                continue
            for pid in (g.white, g.black):
                score = g.points_of(pid)
                c = counts[pid]
                c[0] += 1
                c[1 if score == 1 else 2 if score else 3] += 1
    return {pid: (c[0], c[1], c[2], c[3]) for pid, c in counts.items()}
