"""Forbidden pairs in a Swiss: players who may not meet (family, club mates, an arbiter's decision).

A forbidden pair is an absolute criterion beside C.1: the engine leaves the pair's edge
out of every matching, exactly as for two players who met.  TRF files carry them as
JaVaFo's and bbpPairings' ``XXP`` records (``XXP 3 7``: start numbers separated by
spaces; every two of them may not meet, in every round) and as TRF-2026 ``260``
records (the first and last round in columns 5–7 and 9–11, then start numbers in
columns 13–16, 18–21, …: every two of them may not meet in those rounds).  keizer
reads both and writes ``XXP``, one line per pair, which every program that knows the
record reads.

>>> groups = (ForbiddenGroup((3, 7, 9)), ForbiddenGroup((1, 2), first=4, last=5))
>>> pairs_in_round(groups, 1)
[(3, 7), (3, 9), (7, 9)]
>>> pairs_in_round(groups, 4)[0]
(1, 2)
>>> xxp_lines([(7, 3), (1, 2)])
('XXP    1    2', 'XXP    3    7')
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable


@dataclass(frozen=True)
class ForbiddenGroup:
    """Players of whom no two may meet, in rounds ``first`` to ``last`` (None: to the end)."""

    players: tuple[int, ...]
    first: int = 1
    last: int | None = None

    def applies(self, round_no: int) -> bool:
        return self.first <= round_no and (self.last is None or round_no <= self.last)


def pairs_in_round(groups: Iterable[ForbiddenGroup], round_no: int) -> list[tuple[int, int]]:
    """The forbidden pairs (lower start number first) of round ``round_no`` (1-based)."""
    found = {(min(a, b), max(a, b)) for g in groups if g.applies(round_no)
             for a, b in combinations(g.players, 2) if a != b}
    return sorted(found)


def xxp_lines(pairs: Iterable[tuple[int, int]]) -> tuple[str, ...]:
    """``XXP`` records of forbidden pairs, one per pair, by start number."""
    return tuple(f"XXP {a:>4} {b:>4}" for a, b in sorted({(min(p), max(p)) for p in pairs}))
