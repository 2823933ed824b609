"""Which rule of the Burstein system (C.04.4.2, 2026) tells two pairings of one round apart.

The checker (``keizer trf check --system burstein``) and the comparison with bbpPairings'
Burstein engine (docs/swiss.md) ask the same question of two complete pairings of a round
after the seeding rounds: which rule, taken in the text's order, decides between them? Both
pairings are evaluated against each rule as the engine weighs it:

* **3.1** the pairing-allocated bye: C2 (allowed one), then the lowest score, then the most
  games played, then the lowest ranked;
* bracket by bracket from the top (the highest remaining scoregroup and the players left
  unpaired above it, 1.2), in the first bracket where the two pairings pair differently:
  **C5** the most pairs, **C6** the lowest scores of the outgoing floaters (the highest score
  first), **C7** the next bracket (its pairs, then the scores of the floaters it takes),
  **C8** the fewest pairs whose players share a colour preference;
* **Article 4**: the first player of the bracket, by the opposition index (1.8), whose
  opponent differs is given the lower-ranked one;
* **5.2**: the same pairs, other colours.

>>> from fractions import Fraction as F
>>> from keizer.pairing.swiss.burstein import BursteinEntrant
>>> e = [BursteinEntrant(n, 0, F(5 - n), F(0), (), True) for n in range(1, 5)]
>>> decide(e, ((1, 4), (3, 2)), None, ((1, 2), (3, 4)), None).rule
'Article 4'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from keizer.pairing.swiss.burstein import BursteinEntrant, preference


@dataclass(frozen=True)
class Bracket:
    """One bracket of a complete pairing: its level (the residents' score), its players, the pairs
    made in it, and the values of the quality criteria (each compared so that more is better)."""

    level: int
    members: frozenset[int]
    made: frozenset[frozenset[int]]
    pairs: int                       # C5
    floaters: tuple[int, ...]        # C6: per score of the bracket (highest first), minus its floaters of that score
    floating: tuple[int, ...]        # the outgoing floaters' scores, highest first
    colours: int                     # C8: minus the pairs whose players share a colour preference
    mates: dict[int, int]            # each member's opponent (in the bracket or below)


@dataclass(frozen=True)
class Verdict:
    """The first rule on which two pairings differ: ``rule`` ("3.1", "C5" … "C8", "Article 4",
    "5.2", or "" when they are the same), the bracket's level (the residents' score in the engine's
    units; None outside a bracket), ``first`` True when the first pairing is the better by it, and
    ``detail``: what the rule compared, the first pairing's value before the second's (C5 the pairs,
    C6 the outgoing floaters' scores, C7 the next bracket's pairs or else the floaters it takes,
    C8 the pairs sharing a colour preference; for 3.1 the criterion's name and the two players; for
    Article 4 the player and his two opponents; for 5.2 the boards of each)."""

    rule: str
    level: int | None = None
    first: bool = True
    detail: tuple[object, ...] = ()


#: The bye's criteria (3.1) in order, as :func:`decide` names them.
BYE_CRITERIA = ("C2 (a player allowed the bye)", "the lowest score", "the most games played", "the lowest ranked")


def brackets(entrants: Sequence[BursteinEntrant], pairs: Iterable[tuple[int, int]], bye: int | None) -> list[Bracket]:
    """The brackets of a complete pairing, from the top, as the engine forms them (1.2)."""
    es = {e.number: e for e in entrants}
    mate = {a: b for x, y in pairs for a, b in ((x, y), (y, x))}
    left = {n for n in es if n != bye}
    out: list[Bracket] = []
    level = max((es[n].score for n in left), default=0)
    while left:
        res = frozenset(n for n in left if es[n].score >= level)
        made = frozenset(frozenset((n, mate[n])) for n in res if mate.get(n) in res)
        scores = sorted({es[n].score for n in res}, reverse=True)
        floating = [es[n].score for n in res if mate.get(n) not in res]
        same = sum(1 for p in made for a, b in [tuple(p)]
                   if preference(es[a].colours)[0] == preference(es[b].colours)[0] != -1)
        out.append(Bracket(level, res, made, len(made), tuple(-floating.count(s) for s in scores),
                           tuple(sorted(floating, reverse=True)), -same,
                           {n: mate[n] for n in res if n in mate}))
        left -= {n for p in made for n in p}
        lower = [es[n].score for n in left if es[n].score < level]
        if not lower:
            break
        level = max(lower)
    return out


def _next_bracket(entrants: Sequence[BursteinEntrant], chain: list[Bracket], k: int) -> tuple[int, ...]:
    """C7 of bracket k: the next bracket's pairs, then per score of bracket k (highest first) how
    many of its floaters are paired there."""
    if k + 1 >= len(chain):
        return ()
    es = {e.number: e for e in entrants}
    here, below = chain[k], chain[k + 1]
    scores = sorted({es[n].score for n in here.members}, reverse=True)
    taken = [es[n].score for n in here.members if n in below.members and frozenset((n, below.mates.get(n))) in below.made]
    return (below.pairs, *(taken.count(s) for s in scores))


def decide(entrants: Sequence[BursteinEntrant], ours: Sequence[tuple[int, int]], our_bye: int | None,
           theirs: Sequence[tuple[int, int]], their_bye: int | None) -> Verdict:
    """The first rule of the 2026 text on which pairing ``ours`` and pairing ``theirs`` (each its
    (white, black) pairs and its bye) differ, and which of them it prefers."""
    es = {e.number: e for e in entrants}
    ranked = sorted(entrants, key=lambda e: (-e.buchholz, -e.sonneborn, e.number))    # 1.8
    place = {e.number: k for k, e in enumerate(ranked)}
    if our_bye != their_bye:
        def key(n: int | None) -> tuple[int, int, int, int]:
            e = es[n] if n is not None else None
            return (0, 0, 0, 0) if e is None else (int(not e.eligible), e.score, -len(e.colours), -place[e.number])
        a, b = key(our_bye), key(their_bye)
        what = next((k for k in range(4) if a[k] != b[k]), 3)
        return Verdict("3.1", None, a < b, (BYE_CRITERIA[what], our_bye, their_bye))
    mine, other = brackets(entrants, ours, our_bye), brackets(entrants, theirs, their_bye)
    for k, (x, y) in enumerate(zip(mine, other)):
        if x.made == y.made:
            continue
        c7, c7b = _next_bracket(entrants, mine, k), _next_bracket(entrants, other, k)
        for rule, u, v, shown in (("C5", (x.pairs,), (y.pairs,), (x.pairs, y.pairs)),
                                  ("C6", x.floaters, y.floaters, (x.floating, y.floating)),
                                  ("C7", c7, c7b, (c7[:1], c7b[:1]) if c7[:1] != c7b[:1] else (c7[1:], c7b[1:])),
                                  ("C8", (x.colours,), (y.colours,), (-x.colours, -y.colours))):
            if u != v:
                return Verdict(rule, x.level, u > v, shown)
        for n in sorted(x.members, key=place.__getitem__):   # 4: paired in the bracket before floating,
            m1, m2 = x.mates.get(n), y.mates.get(n)             # and with the lowest-ranked he can meet
            in1, in2 = m1 in x.members, m2 in x.members
            if m1 != m2 and (in1 or in2):
                lower = m1 is not None and (m2 is None or not in2 or place[m1] > place[m2])
                return Verdict("Article 4", x.level, in1 and lower, (n, m1, m2))
    if set(ours) != set(theirs):
        return Verdict("5.2", None, True, (tuple(sorted(set(ours) - set(theirs))), tuple(sorted(set(theirs) - set(ours)))))
    return Verdict("")
