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

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


_ADVICE = frozenset({"Advice", "advise", "recommended", "recommended_for"})
_CODES = frozenset({"TieBreak", "TieBreakError", "parse", "parse_list"})
_MODEL = frozenset({"Code", "Match", "Player", "RoundResult", "Scoring", "System", "Team", "Tournament"})
_RANKING = frozenset({"Standing", "compute", "labels", "rank"})


def __getattr__(name: str) -> Any:
    """The names above, each imported from its module when first asked for: a reader of TRF
    files or the Swiss pairing needs the model alone, not the ranking's machinery (a good
    part of a short command's start-up).  Module imports, so that tests/test_layers.py sees them."""
    value: Any
    if name in _ADVICE:
        from keizer.tiebreaks import advice
        value = getattr(advice, name)
    elif name in _CODES:
        from keizer.tiebreaks import codes
        value = getattr(codes, name)
    elif name in _MODEL:
        from keizer.tiebreaks import model
        value = getattr(model, name)
    elif name in _RANKING:
        from keizer.tiebreaks import ranking
        value = getattr(ranking, name)
    elif name == "Edition":
        from keizer.tiebreaks import unplayed
        value = unplayed.Edition
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
