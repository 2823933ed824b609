"""Accelerated pairings: the Baku Acceleration Method (FIDE Handbook C.04.7, formerly C.04.5.1).

Before round 1 the pairing list is split in two groups.  GA holds the first half
of the players, rounded up to the nearest even number (2·⌈n/4⌉: 82 of 161); GB the
rest.  The *accelerated rounds* are the first half of the rounds, rounded up; in the
first half of them (rounded up) every GA player has one virtual point, in the rest
half a point; GB players never have any, nor does anyone after the accelerated
rounds.  A late entrant is placed in the pairing list as the General Handling Rules
say, and the last GA player stays the same player: a late entrant placed above him
is in GA (so GA may become odd).  The pairing score — points plus virtual points —
is what the pairing rules see; standings never show virtual points.

The virtual points travel in TRF files as ``XXA`` records (JaVaFo's and bbpPairings'
extension: the start number in columns 5–8, then one four-column field per round
from column 10, every five columns) or TRF-2026 ``250`` records (game points in
columns 10–13 for the rounds in 15–17 to 19–21 and the players in 23–26 to 28–31);
both are read (:func:`keizer.formats.trf_records.virtual_points`), ``XXA`` is written.

>>> groups = baku_group_a(range(1, 11))          # 10 players: GA is 2·⌈10/4⌉ = 6
>>> groups
(1, 2, 3, 4, 5, 6)
>>> [str(v) for v in baku_points(9)]             # 9 rounds: 5 accelerated, 3 with a full point
['1', '1', '1', '1/2', '1/2']
>>> xxa_lines({1: baku_points(9), 7: ()})
('XXA    1  1.0  1.0  1.0  0.5  0.5',)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping, Sequence, TypeVar

T = TypeVar("T", bound=Hashable)

#: The acceleration methods a Swiss may use (``none``: pairing scores are the scores).
METHODS = ("none", "baku")


def baku_group_size(players: int) -> int:
    """GA's size: the first half of the players rounded up to the nearest even number (2·⌈n/4⌉).

    >>> baku_group_size(161), baku_group_size(8), baku_group_size(9), baku_group_size(1)
    (82, 4, 6, 2)
    """
    return 2 * -(-players // 4)


def baku_group_a(order: Iterable[T], last: T | None = None) -> tuple[T, ...]:
    """The GA players of a pairing list ``order`` (start numbers, pairing order): up to and
    including ``last`` (the last GA player, fixed before round 1 and kept when late entrants
    are placed), by default the first 2·⌈n/4⌉ of the list."""
    order = list(order)
    if last is None or last not in order:  # none fixed, or the last GA player left: as the rule counts GA
        return tuple(order[:baku_group_size(len(order))])
    return tuple(order[:order.index(last) + 1])


def baku_rounds(rounds: int) -> tuple[int, int]:
    """(accelerated rounds, rounds of them with a full virtual point) of a tournament.

    >>> [baku_rounds(r) for r in (5, 7, 9, 11)]
    [(3, 2), (4, 2), (5, 3), (6, 3)]
    """
    accelerated = -(-rounds // 2)
    return accelerated, -(-accelerated // 2)


def baku_points(rounds: int) -> tuple[Fraction, ...]:
    """A GA player's virtual points for each accelerated round (round 1 first)."""
    accelerated, full = baku_rounds(rounds)
    return (Fraction(1),) * full + (Fraction(1, 2),) * (accelerated - full)


def baku(order: Sequence[int], rounds: int, last: int | None = None) -> dict[int, tuple[Fraction, ...]]:
    """Every player's virtual points by round (C.04.7): GA players (see :func:`baku_group_a`)
    those of :func:`baku_points`, GB players none.

    >>> v = baku([1, 2, 3, 4, 5], 5)                 # GA: 2·⌈5/4⌉ = 4 players
    >>> [str(x) for x in v[4]], v[5]
    (['1', '1', '1/2'], ())
    >>> sorted(n for n, p in baku([1, 2, 9, 3, 4, 5], 5, last=4).items() if p)   # 9 entered late, above 4
    [1, 2, 3, 4, 9]
    """
    group = set(baku_group_a(order, last))
    points = baku_points(rounds)
    return {n: points if n in group else () for n in order}


def xxa_lines(virtual: Mapping[int, Sequence[Fraction]]) -> tuple[str, ...]:
    """``XXA`` records of the players who have virtual points, by start number."""
    out = []
    for n in sorted(virtual):
        points = list(virtual[n])
        while points and not points[-1]:
            points.pop()
        if points:
            out.append(f"XXA {n:>4}" + "".join(f" {_tenths(v):>4}" for v in points))
    return tuple(out)


def _tenths(value: Fraction) -> str:
    """Points in tenths, as TRF writes them (virtual points are whole and half points)."""
    tenths = round(value * 10)
    return f"{tenths // 10}.{tenths % 10}"
