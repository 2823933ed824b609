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

>>> from keizer.tiebreaks.fields import player_field
>>> from keizer.tiebreaks.model import Code, Player, RoundResult as R, Tournament
>>> from keizer.tiebreaks.unplayed import Edition
>>> f = player_field(Tournament((Player(1, results=(R(Code.WIN, 2), R(Code.WIN, 3))),
...                              Player(2, results=(R(Code.LOSS, 1), R(Code.PAB))),
...                              Player(3, results=(R(Code.PAB), R(Code.LOSS, 1)))), rounds=2))
>>> direct_encounter([1, 2, 3], f, Edition.FIDE_2026)    # 1 is certain first; 2 and 3 never met
[[1], [2, 3]]
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import compress
from typing import Callable, Sequence

from keizer.tiebreaks.fields import Field
from keizer.tiebreaks.team import board_count, bottom_boards, top_boards
from keizer.tiebreaks.unplayed import Edition, Purpose, game_flags

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
    counted = game_flags(field, edition, Purpose.OPPONENTS, played_forfeits)
    met: dict[tuple[int, int], list[int]] = {}  # points as numerators over field.den
    opponents, nums = field.opponents, field.nums
    for i in group:
        if members.isdisjoint(compress(opponents[i], counted[i])):
            continue  # met nobody of the group, seen without a loop in Python
        for o, p in compress(zip(opponents[i], nums[i]), counted[i]):  # the games counted only
            if o in members:
                met.setdefault((i, o), []).append(p)
    # games between the same two are averaged (6.1.2): scores over field.den × every count of games
    repeats = math.lcm(*(len(results) for results in met.values()))
    score = dict.fromkeys(group, 0)
    missing = dict.fromkeys(group, len(group) - 1)
    for (i, _), results in met.items():
        score[i] += sum(results) * (repeats // len(results))
        missing[i] -= 1
    ordered = sorted(group, key=lambda i: (-score[i], i))
    if not any(missing.values()):
        parts = _groups(ordered, score)
        return parts if len(parts) > 1 else None
    win = field.num(field.win) * repeats
    placed: Split = []
    rest = ordered
    while len(rest) > 1:
        top, others = rest[0], rest[1:]
        if all(score[top] > score[q] + missing[q] * win for q in others):
            placed.append([top])
            rest = others
        else:
            break
    return placed + [rest] if placed else None


def _groups(ordered: list[int], score: dict[int, int]) -> Split:
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
