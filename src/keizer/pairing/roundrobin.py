"""Round-robin schedules exactly as FIDE's Berger tables (Handbook C.05, Annex 1).

Players are start numbers 1…n; every pair is (white, black), and the boards
of a round are in the table's order.  With an odd n the table for n + 1 is
used and whoever meets n + 1 is free ("the highest number counts as a bye"):
that pair is written (player, 0) and put after the games, so the games keep
FIDE's order on boards 1, 2, ….

The tables are built by a closed form (below) of FIDE's Berger tables
(Handbook C.05 Annex 1), which reproduces FIDE's published tables for n = 4…16 in pairs, colours and
board order.  For N players (N even, m = N − 1) in round r = 1…m:

* board 1: ((r + 1)/2, N) if r is odd, (N, N/2 + r/2) if r is even;
* boards 2…N/2: White are m-consecutive numbers (taken in 1…m) starting at
  s_r, with s_1 = 2 and s_(r+1) = s_r + N/2 (mod m); White a meets the b with
  a + b ≡ r + 1 (mod m).

A double round-robin repeats the first cycle with colours reversed.  FIDE
recommends swapping the last two rounds of the first cycle "to avoid three
consecutive games with the same colour" (``swap_last_two``); the second cycle
stays the plain table reversed — swapping there too gives n = 4 a run of three
again (§3.3).

>>> [r.pairs for r in berger_schedule(4)]
[((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))]
>>> berger_schedule(3)[1]
RoundPairs(round=2, pairs=((1, 2), (3, 0)))
>>> [r.pairs for r in berger_schedule(4, double=True, swap_last_two=True)][2:5]
[((4, 3), (1, 2)), ((4, 1), (3, 2)), ((3, 4), (2, 1))]
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class RoundPairs:
    """One round: (white, black) start numbers in board order; (p, 0) is p's bye."""

    round: int
    pairs: tuple[tuple[int, int], ...]

    @property
    def bye(self) -> int | None:
        """The start number without an opponent this round, if any.

        >>> RoundPairs(2, ((1, 2), (3, 0))).bye
        3
        """
        return next((w for w, b in self.pairs if b == 0), None)


def berger_schedule(n: int, double: bool = False, swap_last_two: bool = False) -> tuple[RoundPairs, ...]:
    """The FIDE Berger schedule for n ≥ 2 players: n − 1 rounds (n even) or n
    rounds (n odd) per cycle.

    ``swap_last_two`` exchanges the last two rounds of the first cycle of a
    double round-robin (FIDE's recommendation); it needs ``double`` and at least
    two rounds per cycle.

    >>> [r.pairs for r in berger_schedule(2, double=True)]
    [((1, 2),), ((2, 1),)]
    >>> berger_schedule(5)[3].pairs
    ((1, 4), (2, 3), (5, 0))
    >>> berger_schedule(4, swap_last_two=True)
    Traceback (most recent call last):
    ...
    ValueError: swap_last_two applies to a double round-robin only
    """
    if n < 2:
        raise ValueError(f"a round-robin needs at least 2 players, not {n}")
    if swap_last_two and not double:
        raise ValueError("swap_last_two applies to a double round-robin only")
    size = n + n % 2
    table = _table(size)
    if swap_last_two:
        if len(table) < 2:
            raise ValueError("swap_last_two needs at least two rounds per cycle (3 or more players)")
        first = table[:-2] + [table[-1], table[-2]]
    else:
        first = table
    cycles = [first]
    if double:
        cycles.append([[(b, w) for w, b in pairs] for pairs in table])
    rounds = [pairs for cycle in cycles for pairs in cycle]
    return tuple(RoundPairs(number, _with_bye(pairs, n, size))
                 for number, pairs in enumerate(rounds, 1))


def _table(size: int) -> list[list[tuple[int, int]]]:
    """The first cycle for an even number of players, by the closed form above."""
    m = size - 1
    half = size // 2
    start = 2
    rounds = []
    for r in range(1, m + 1):
        pairs = [((r + 1) // 2, size) if r % 2 else (size, half + r // 2)]
        for k in range(half - 1):
            white = (start - 1 + k) % m + 1
            pairs.append((white, (r - white) % m + 1))  # ≡ r + 1 − white, in 1…m
        rounds.append(pairs)
        start = (start - 1 + half) % m + 1
    return rounds


def _with_bye(pairs: list[tuple[int, int]], n: int, size: int) -> tuple[tuple[int, int], ...]:
    if n == size:
        return tuple(pairs)
    games = tuple(p for p in pairs if size not in p)
    free = next(w if b == size else b for w, b in pairs if size in (w, b))
    return games + ((free, 0),)


def schedule_json(schedule: Sequence[RoundPairs]) -> list[dict[str, object]]:
    """The schedule as JSON-ready data.

    >>> schedule_json(berger_schedule(3)[:1])
    [{'round': 1, 'pairs': [[2, 3], [1, 0]]}]
    """
    return [{"round": r.round, "pairs": [[w, b] for w, b in r.pairs]} for r in schedule]


def draw_numbers(players: Sequence[str], seed: int) -> tuple[str, ...]:
    """Start numbers drawn by lot: the players in the order of their numbers.

    The lot is a permutation that depends only on the seed and the number of
    players, so anyone can redo it: every position k = 1…n of the list as
    given gets the key SHA-256 of the text ``"<seed>:<k>"`` (hex digest), and
    start number 1 goes to the player whose key sorts first, 2 to the next, and
    so on.  Pass the players in a fixed order (registration, alphabetical) so
    the draw can be repeated.  (SHA-256 rather than :mod:`random`, whose
    shuffles may change between Python versions.)

    >>> [hashlib.sha256(f"2026:{k}".encode()).hexdigest()[:4] for k in range(1, 5)]
    ['3abf', '6c2e', '6322', '47c4']
    >>> draw_numbers(["Anna", "Bram", "Cor", "Dirk"], seed=2026)
    ('Anna', 'Dirk', 'Cor', 'Bram')
    """
    require_unique(players)
    keys = {k: hashlib.sha256(f"{seed}:{k}".encode()).hexdigest() for k in range(1, len(players) + 1)}
    return tuple(players[k - 1] for k in sorted(keys, key=keys.__getitem__))


def numbers_by_hand(numbers: Mapping[str, int]) -> tuple[str, ...]:
    """Start numbers set by hand: the players in the order of their numbers,
    which must be 1…n, each once.

    >>> numbers_by_hand({"Anna": 2, "Bram": 1})
    ('Bram', 'Anna')
    >>> numbers_by_hand({"Anna": 1, "Bram": 3})
    Traceback (most recent call last):
    ...
    ValueError: start numbers must be 1…2, each once; got 1, 3
    """
    given = sorted(numbers.values())
    if given != list(range(1, len(numbers) + 1)):
        raise ValueError(f"start numbers must be 1…{len(numbers)}, each once;"
                         f" got {', '.join(map(str, given))}")
    return tuple(sorted(numbers, key=numbers.__getitem__))


def require_unique(names: Sequence[str]) -> None:
    """Refuse a list that names someone twice.

    >>> require_unique(["Anna", "Bram", "Anna"])
    Traceback (most recent call last):
    ...
    ValueError: listed more than once: Anna
    """
    twice = sorted(p for p, count in Counter(names).items() if count > 1)
    if twice:
        raise ValueError(f"listed more than once: {', '.join(twice)}")
