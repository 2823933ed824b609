"""Tie-breaks for individual and team tournaments, exactly as FIDE defines them.

A pure engine: a :class:`Tournament` (players or teams with their rounds) in,
values and rankings out, under a chosen rule edition (:class:`Edition`:
2026 by default, 2024, 2012 or self-draw).  ``keizer.formats.trf`` reads and
writes tournaments as FIDE TRF files.

>>> from keizer.tiebreaks import Code, Player, RoundResult, Tournament, rank
>>> R = RoundResult
>>> t = Tournament((Player(1, "Anna", results=(R(Code.WIN, 2),)),
...                 Player(2, "Bram", results=(R(Code.LOSS, 1),))), rounds=1)
>>> [(s.rank, s.name, s.values["SB"]) for s in rank(t, "SB")]
[(1, 'Anna', Fraction(0, 1)), (2, 'Bram', Fraction(0, 1))]
"""

from keizer.tiebreaks.advice import Advice, advise, recommended, recommended_for
from keizer.tiebreaks.codes import TieBreak, TieBreakError, parse, parse_list
from keizer.tiebreaks.model import Code, Match, Player, RoundResult, Scoring, System, Team, Tournament
from keizer.tiebreaks.ranking import Standing, compute, labels, rank
from keizer.tiebreaks.unplayed import Edition

__all__ = [
    "Advice", "Code", "Edition", "Match", "Player", "RoundResult", "Scoring", "Standing", "System", "Team",
    "TieBreak", "TieBreakError", "Tournament", "advise", "compute", "labels", "parse", "parse_list", "rank",
    "recommended", "recommended_for",
]
