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

#: Rounds without a game: the bye is pairing-allocated, an excused absence a requested
#: half-point bye (as TRF files say), anything else a zero-point bye.
_UNPLAYED = {Absence.BYE: Code.PAB, Absence.EXCUSED: Code.HPB}

#: A round-robin's free round (odd number of players) earns nothing.
ROUND_ROBIN_SCORING = Scoring(pab=Fraction(0))
#: Only games count: how tie-breaks see a Keizer season (its byes and absences are not points).
GAMES_ONLY = Scoring(pab=Fraction(0), fpb=Fraction(0), hpb=Fraction(0))


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
        seen: set[str] = set()
        for g in rnd.games:
            if g.result is None:
                continue
            white, black = _CODES[g.result]
            results[g.white].append(RoundResult(white, number[g.black], g.colour_of(g.white)))
            results[g.black].append(RoundResult(black, number[g.white], g.colour_of(g.black)))
            seen.update((g.white, g.black))
        for pid in results:
            if pid not in seen:
                results[pid].append(RoundResult(_UNPLAYED.get(rnd.absent.get(pid, Absence.UNEXCUSED), Code.ZPB)))
    players = tuple(Player(p.start_no, p.name, p.rating, tuple(results[p.id])) for p in season.players)
    return Tournament(players, upto, system, scoring, name=season.name)


def points_standing(season: Season, tiebreaks: Sequence[str], edition: Edition = Edition.FIDE_2026,
                    upto: int | None = None, lots_seed: int | None = None,
                    system: System = System.ROUND_ROBIN, scoring: Scoring = ROUND_ROBIN_SCORING,
                    ) -> tuple[PointsEntry, ...]:
    """The standing after round ``upto`` (default: the last complete round)."""
    upto = season.completed_rounds() if upto is None else upto
    t = tournament(season, upto, system, scoring)
    by_number = {p.start_no: p.id for p in season.players}
    counts = _counts(season, upto)
    return tuple(
        PointsEntry(by_number[s.id], s.rank, s.points, *counts[by_number[s.id]], dict(s.values))
        for s in rank(t, list(tiebreaks), edition, rounds=upto, lots_seed=lots_seed)
    )


def provisional_standing(season: Season, tiebreaks: Sequence[str], edition: Edition = Edition.FIDE_2026,
                         lots_seed: int | None = None, system: System = System.ROUND_ROBIN,
                         scoring: Scoring = ROUND_ROBIN_SCORING) -> tuple[PointsEntry, ...] | None:
    """The standing as the round in progress stands (None when no round is in progress):
    points with the results in so far — a board still playing earns nothing yet — and equal
    points in the order of the last complete standing.  Tie-breaks wait for the round's
    last result (a game still being played would count as an unplayed round), so the
    entries carry none.

    >>> from keizer.model import Game, Player, Result, Round, Season
    >>> from keizer.settings import Settings
    >>> players = tuple(Player(f"p{i}", f"P{i}", start_no=i) for i in (1, 2, 3, 4))
    >>> r1 = Round(1, games=(Game(1, 1, "p1", "p2", Result.DRAW), Game(1, 2, "p3", "p4", Result.DRAW)))
    >>> r2 = Round(2, games=(Game(2, 1, "p4", "p1"), Game(2, 2, "p2", "p3", Result.BLACK_WIN)))
    >>> [(e.player, e.points) for e in provisional_standing(Season("g", Settings(), players, (r1, r2)), ["SB"])]
    [('p3', Fraction(3, 2)), ('p1', Fraction(1, 2)), ('p2', Fraction(1, 2)), ('p4', Fraction(1, 2))]
    """
    number = season.round_in_progress()
    if number is None:
        return None
    before = {e.player: e.rank for e in points_standing(season, tiebreaks, edition, number - 1, lots_seed,
                                                          system, scoring)}
    t = tournament(season, number, system, scoring)
    by_number = {p.start_no: p.id for p in season.players}
    points = {by_number[p.start_no]: sum((scoring.points(r.code) for r in p.results), Fraction(0))
              for p in t.players}
    order = sorted(points, key=lambda pid: (-points[pid], before[pid]))
    counts = _counts(season, number)
    ranks: list[int] = []
    for k, pid in enumerate(order):
        ranks.append(ranks[-1] if k and points[pid] == points[order[k - 1]] else k + 1)
    return tuple(PointsEntry(pid, rank, points[pid], *counts[pid], {}) for pid, rank in zip(order, ranks))


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


def season_of(t: Tournament) -> Season:
    """A TRF tournament as a season (players keyed by start number), for importing it.

    Byes: pairing-allocated and full-point byes (and forfeit wins with no opponent)
    become ``bye``, half-point byes ``excused``, zero-point byes ``unexcused``; quick
    results count as games.
    """
    from keizer.model import Game, Player as SeasonPlayer, Round
    from keizer.settings import Settings

    if t.is_team:
        raise ValueError("team tournaments cannot be imported into a season yet")
    players = tuple(SeasonPlayer(str(p.start_no), p.name or f"Player {p.start_no}", p.rating or None, p.start_no)
                    for p in sorted(t.players, key=lambda p: p.start_no))
    # A file may announce more rounds than it holds (142/XXR): rounds where nobody has an entry are not rounds yet.
    held = max((r + 1 for p in t.players for r, res in enumerate(p.results)
                if res.opponent is not None or res.code is not Code.ZPB), default=0)
    rounds = []
    for r in range(held):
        games: list[Game] = []
        absent: dict[str, Absence] = {}
        for p in sorted(t.players, key=lambda p: p.start_no):
            res = p.results[r] if r < len(p.results) else RoundResult(Code.ZPB)
            if res.opponent:
                if _is_white(p.start_no, res):
                    theirs = t.player(res.opponent).results[r].code
                    games.append(Game(r + 1, len(games) + 1, str(p.start_no), str(res.opponent),
                                      _result(res.code, theirs)))
            else:
                absent[str(p.start_no)] = _ABSENCE.get(res.code, Absence.UNEXCUSED)
        rounds.append(Round(r + 1, t.dates[r] if r < len(t.dates) else None, tuple(games), absent))
    return Season(t.name or "Imported tournament", Settings(), players, tuple(rounds))


#: A round without a game in the file.  A forfeit win with no opponent named ("0000 +")
#: scores like a full-point bye, which is what the season can hold.
_ABSENCE = {Code.PAB: Absence.BYE, Code.FPB: Absence.BYE, Code.FORFEIT_WIN: Absence.BYE, Code.HPB: Absence.EXCUSED}
_SCORE = {Code.WIN: 1, Code.QUICK_WIN: 1, Code.DRAW: 0, Code.QUICK_DRAW: 0, Code.LOSS: -1, Code.QUICK_LOSS: -1}


def _is_white(me: int, res: RoundResult) -> bool:
    """The side written first: White, or for a game without colours (forfeits) the lower number."""
    from keizer.model import Colour

    if res.colour is not None:
        return res.colour is Colour.WHITE
    return me < (res.opponent or 0)


def _result(mine: Code, theirs: Code) -> Result:
    if mine.is_forfeit or theirs.is_forfeit:
        if mine is Code.FORFEIT_WIN:
            return Result.WHITE_FORFEIT_WIN
        return Result.BLACK_FORFEIT_WIN if theirs is Code.FORFEIT_WIN else Result.DOUBLE_FORFEIT
    return {1: Result.WHITE_WIN, 0: Result.DRAW, -1: Result.BLACK_WIN}[_SCORE[mine]]
