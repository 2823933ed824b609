"""Team-only tie-breaks (C.07 arts. 12–13) and the weighted/unweighted Berger.

A team has two scores, match points (MP) and game points (GP); the primary
one ranks, the other is the secondary score.  Buchholz, Koya, PS & co. on
either score come from :mod:`keizer.tiebreaks.individual`; this module adds
what mixes the two or looks at boards.

The issue's seed example — beat B 3½-½, drew C 2-2, lost to D 1-3, with B, C
and D on 12.5, 16 and 21.5 game points:

>>> gp = [Fraction(7, 2), Fraction(2), Fraction(1)]
>>> opp = [Fraction(25, 2), Fraction(16), Fraction(43, 2)]
>>> sum(o * g for o, g in zip(opp, gp)), sum(o * r for o, r in zip(opp, [1, Fraction(1, 2), 0]))
(Fraction(389, 4), Fraction(41, 2))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Sequence

from keizer.tiebreaks.fields import Field
from keizer.tiebreaks.individual import sonneborn_berger
from keizer.tiebreaks.unplayed import Unplayed

#: ESB variant → (score of the opponents' totals, score of the team's own result) (13.2).
ESB = {"EMMSB": ("MP", "MP"), "EMGSB": ("MP", "GP"), "EGMSB": ("GP", "MP"), "EGGSB": ("GP", "GP"),
       "WSB": ("GP", "GP"), "USB": ("GP", "MP")}


def extended_sonneborn_berger(totals: Unplayed, own: Unplayed, low: int = 0, voluntary_first: bool = False,
                              scale: Fraction = Fraction(1)) -> dict[int, Fraction]:
    """ESB (13.2): Σ opponent's total in one score × the team's result in the other.

    Weighted Berger is EGGSB; unweighted Berger counts a match won, drawn or
    lost as 1, ½ or 0 (``scale`` = 1 / match points of a win) — the reading
    that reproduces the issue's example (97.25 and 20.50).
    """
    return sonneborn_berger(totals, low, 0, voluntary_first, points=own, scale=scale)


def sssc(primary: Field, secondary: Mapping[int, Fraction], bh: Mapping[int, Fraction], factor: int | None,
         secondary_win: Fraction) -> dict[int, Fraction]:
    """SSSC (13.4): secondary score + Buchholz on the primary score / F.

    F = ⌊maximum primary score ÷ maximum secondary score of one match⌋ unless
    the rules set it (``/Kx``); TEC Ex. 49: ⌊14 / 4⌋ = 3.
    """
    f = factor or (primary.win * primary.rounds // secondary_win) or 1
    return {i: secondary[i] + bh[i] / f for i in primary.slots}


def board_count(boards: Sequence[Fraction]) -> Fraction:
    """BC (12.1): Σ board number × points on that board; lower is better.

    >>> board_count([Fraction(1), Fraction(1, 2), Fraction(1, 2), Fraction(0)])
    Fraction(7, 2)
    """
    return sum((k * p for k, p in enumerate(boards, start=1)), Fraction(0))


def top_boards(boards: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """TBR (12.2): points on board 1, then boards 1–2, 1–3, …; compared in that order."""
    running, out = Fraction(0), []
    for p in boards:
        running += p
        out.append(running)
    return tuple(out)


def bottom_boards(boards: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """BBE (12.3): points without the last board, then without the last two, …

    >>> bottom_boards([Fraction(1), Fraction(1, 2), Fraction(1, 2), Fraction(0)])
    (Fraction(2, 1), Fraction(3, 2), Fraction(1, 1))
    """
    return tuple(sum(boards[:k], Fraction(0)) for k in range(len(boards) - 1, 0, -1))
