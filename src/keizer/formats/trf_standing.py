"""The standing a TRF file states, checked against keizer's (``keizer trf check``).

A file states one total (001 columns 81–84) and one rank (86–89) per player: those after
the last round it holds.  :func:`check_standing` computes keizer's standing after that round
from the round records and compares:

* **totals**: the points of the player's round records under the file's scoring (162,
  ``XXS``) against his total; a total that counts entries the file already holds for a
  later round (a half-point bye asked for the next round) agrees too;
* **ranks**: when a tie-break list is known (the file's 202 record, or one given), keizer's
  rank by it against the player's rank, each difference with its reason
  (:class:`~keizer.formats.trf_import.RankDifference`: the file's total, a rank the file
  shares, a tie-break of the list that orders the two otherwise, …); a rank column that
  repeats the start numbers (as some programs write it) is no standing and is not compared.

>>> from keizer.tiebreaks import Code, Player, RoundResult, Tournament
>>> a = Player(1, "A", results=(RoundResult(Code.WIN, 2),), points=Fraction(1), rank=2)
>>> b = Player(2, "B", results=(RoundResult(Code.LOSS, 1),), points=Fraction(1, 2), rank=1)
>>> found = check_standing(Tournament((a, b), rounds=1), 1, "DE")
>>> [(d.start_no, str(d.declared), str(d.computed)) for d in found.totals]
[(2, '1/2', '0')]
>>> [(d.start_no, d.theirs, d.ours) for d in found.ranks]
[(1, 2, 1), (2, 1, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from keizer.formats.trf_import import RankDifference, rank_differences, ranks_are_start_numbers
from keizer.tiebreaks import labels, rank
from keizer.tiebreaks.fields import player_field
from keizer.tiebreaks.model import Tournament
from keizer.tiebreaks.ranking import Codes
from keizer.tiebreaks.unplayed import Edition


@dataclass(frozen=True)
class TotalDifference:
    """A player whose total in the file is not the sum of his round records."""

    start_no: int
    name: str
    declared: Fraction
    computed: Fraction


@dataclass(frozen=True)
class StandingCheck:
    """The standing after ``round``: totals and ranks that differ from keizer's.  ``tiebreaks``
    are the labels ranked by (empty: no list known, ranks not compared)."""

    round: int
    tiebreaks: tuple[str, ...]
    totals: tuple[TotalDifference, ...]
    ranks: tuple[RankDifference, ...]
    ranks_compared: bool = True  # False: the file's rank column repeats the start numbers

    @property
    def differs(self) -> bool:
        return bool(self.totals or self.ranks)


def check_standing(t: Tournament, upto: int, tiebreaks: Codes | None,
                   edition: Edition = Edition.FIDE_2026) -> StandingCheck:
    """Compare ``t``'s stated totals and ranks with keizer's standing after ``upto`` rounds,
    ranked by ``tiebreaks`` (None: ranks not compared).  Raises
    :class:`~keizer.tiebreaks.TieBreakError` for a list the tournament cannot be ranked by."""
    after = player_field(t, upto).scores
    every = player_field(t).scores  # entries ahead of the round (byes asked) counted too
    totals = tuple(TotalDifference(p.start_no, p.name, p.points, after[p.start_no]) for p in t.players
                   if p.points is not None and p.points not in (after[p.start_no], every[p.start_no]))
    if tiebreaks is None:
        return StandingCheck(upto, (), totals, ())
    if ranks_are_start_numbers(t):  # not a standing: nothing to compare the ranks with
        return StandingCheck(upto, labels(tiebreaks), totals, (), ranks_compared=False)
    names = labels(tiebreaks)
    rows = [{"id": str(s.id), "rank": s.rank, "points": s.points, "tiebreaks": dict(s.values)}
            for s in rank(t, tiebreaks, edition, rounds=upto)]
    # a total stated after every entry of the file is the player's total: ranks are compared on it
    stated = replace(t, players=tuple(replace(p, points=after[p.start_no]) if p.points == every[p.start_no]
                                      else p for p in t.players))
    return StandingCheck(upto, names, totals, rank_differences(stated, rows))
