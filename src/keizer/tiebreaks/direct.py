"""Type A tie-breaks: the tied participants compared among themselves.

Direct encounter (C.07 art. 6) ranks a tied group by the points its members
scored against each other, games between the same two averaged (6.1.2).  When
not all of them met, a participant is placed only if no result of the missing
games could catch up with them (6.3; "score each missing game as a win", TEC
§6).  The still-tied subgroups are ranked again among themselves (6.2).

Team EDE (13.3) does the same on match points and, where that breaks nothing,
on game points — staying on game points for the subgroups, as TEC Ex. 45
does; EDET/EDEB/EDEBT/EDEBB then compare two teams still tied by their
boards (art. 12).

>>> from keizer.tiebreaks.fields import Field, Slot
>>> from keizer.tiebreaks.model import Code, System
>>> from keizer.tiebreaks.unplayed import Edition
>>> g = lambda c, o, p: Slot(c, o, None, Fraction(p))
>>> f = Field({1: (g(Code.WIN, 2, 1), g(Code.WIN, 3, 1)),
...            2: (g(Code.LOSS, 1, 0), g(Code.PAB, None, 1)),
...            3: (g(Code.PAB, None, 1), g(Code.LOSS, 1, 0))},
...           2, Fraction(1), Fraction(1, 2), Fraction(0), Fraction(1, 2), System.SWISS, {})
>>> direct_encounter([1, 2, 3], f, Edition.FIDE_2026)    # 1 is certain first; 2 and 3 never met
[[1], [2, 3]]
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Sequence

from keizer.tiebreaks.fields import Field
from keizer.tiebreaks.team import board_count, bottom_boards, top_boards
from keizer.tiebreaks.unplayed import Edition, Purpose, counts_as_game

Split = list[list[int]]
Fallback = Callable[[list[int]], Split]


def direct_encounter(group: list[int], field: Field, edition: Edition, played_forfeits: bool = False,
                     fallback: Fallback | None = None) -> Split:
    """The tied ``group`` split into ordered subgroups; ``fallback`` gets any subgroup DE cannot split."""
    parts = _split(group, field, edition, played_forfeits)
    if parts is None:
        return fallback(group) if fallback else [group]
    result: Split = []
    for part in parts:
        if len(part) > 1:
            result.extend(direct_encounter(part, field, edition, played_forfeits, fallback))
        else:
            result.append(part)
    return result


def _split(group: list[int], field: Field, edition: Edition, played_forfeits: bool) -> Split | None:
    """One pass over the mini-table of ``group``; None when it places nobody."""
    members = set(group)
    met: dict[tuple[int, int], list[Fraction]] = {}
    for i in group:
        for s in field.slots[i]:
            if s.opponent in members and counts_as_game(s, field, edition, Purpose.OPPONENTS, played_forfeits):
                met.setdefault((i, s.opponent), []).append(s.points)
    score = {i: Fraction(0) for i in group}
    missing = {i: len(group) - 1 for i in group}
    for (i, _), results in met.items():
        score[i] += sum(results, Fraction(0)) / len(results)
        missing[i] -= 1
    ordered = sorted(group, key=lambda i: (-score[i], i))
    if not any(missing.values()):
        parts = _groups(ordered, score)
        return parts if len(parts) > 1 else None
    placed: Split = []
    rest = ordered
    while len(rest) > 1:
        top, others = rest[0], rest[1:]
        if all(score[top] > score[q] + missing[q] * field.win for q in others):
            placed.append([top])
            rest = others
        else:
            break
    return placed + [rest] if placed else None


def _groups(ordered: list[int], score: dict[int, Fraction]) -> Split:
    parts: Split = []
    for i in ordered:
        if parts and score[parts[-1][0]] == score[i]:
            parts[-1].append(i)
        else:
            parts.append([i])
    return parts


Boards = Callable[[int, int], Sequence[Fraction] | None]


def by_boards(group: list[int], boards: Boards, measure: str) -> Split:
    """BC, TBR or BBE between exactly two tied teams that met (art. 12); other groups stay tied.

    ``boards(a, b)`` gives a's points per board in its matches against b.
    """
    if len(group) != 2:
        return [group]
    a, b = group
    mine, theirs = boards(a, b), boards(b, a)
    if not mine or not theirs or len(mine) != len(theirs):
        return [group]
    def key(points: Sequence[Fraction]) -> tuple[Fraction, ...]:
        if measure == "BC":  # lower is better
            return (-board_count(points),)
        return top_boards(points) if measure == "TBR" else bottom_boards(points)

    key_a, key_b = key(mine), key(theirs)
    if key_a == key_b:
        return [group]
    return [[a], [b]] if key_a > key_b else [[b], [a]]
