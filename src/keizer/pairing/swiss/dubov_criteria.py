"""Which rule of the Dubov system (C.04.4.1, 2026) tells two pairings of one round apart.

What ``keizer trf check --system dubov`` says of a round the file pairs otherwise: both
complete pairings are evaluated against the text's rules in its order, as the engine
(:mod:`keizer.pairing.swiss.dubov`) weighs them:

* **3.1** the pairing-allocated bye: C2 (allowed one), then the lowest score, then the most
  games played, then the largest TPN;
* bracket by bracket from the top (the highest remaining scoregroup, its residents, and the
  upfloaters it takes from below, 1.3), in the first bracket the two pairings make otherwise:
  **C5** the fewest upfloaters, **C6** the smallest score differences in the pairs with an
  upfloater (the largest first), **C7** the most pairs granting both colour preferences, and
  except in the last round **C8** the fewest maximum upfloaters (1.8), **C9** the fewest
  upfloats among them, **C10** the fewest upfloaters who upfloated in the previous round;
* **Articles 3.2-4.4**: every criterion equal, the order of the candidates decided (the
  upfloaters by score then TPN, the G1/G2 shifts, S1 by ARO each taking the first G2 player
  by TPN he can);
* **5.2**: the same pairs, other colours.

>>> from keizer.pairing.swiss.dubov import DubovEntrant
>>> e = [DubovEntrant(n, 2 if n < 3 else 0, 2000, 0, (), 0, False, True) for n in range(1, 5)]
>>> decide(e, ((1, 2), (3, 4)), None, ((1, 3), (2, 4)), None, last=False).rule
'C5'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from keizer.pairing.swiss.dubov import DubovEntrant, preference

#: The bye's criteria (3.1) in order, as :func:`decide` names them.
BYE_CRITERIA = ("C2 (a player allowed the bye)", "the lowest score", "the most games played", "the largest TPN")

#: What each quality criterion counts (each value compared so that more is better).
RULES = {
    "C5": "the fewest upfloaters",
    "C6": "the smallest score differences with an upfloater, the largest first",
    "C7": "the most pairs granting both colour preferences",
    "C8": "the fewest maximum upfloaters",
    "C9": "the fewest upfloats among the maximum upfloaters",
    "C10": "the fewest upfloaters who upfloated in the previous round",
}


@dataclass(frozen=True)
class Verdict:
    """As :class:`keizer.pairing.swiss.burstein_criteria.Verdict`: ``rule`` ("3.1", "C5" … "C10",
    "Articles 3.2-4.4", "5.2", or "" when the two are the same), the bracket's level (its
    residents' score in the engine's units), ``first`` True when the first pairing is the better
    by it, ``detail`` what the rule compared (the first pairing's value, then the second's)."""

    rule: str
    level: int | None = None
    first: bool = True
    detail: tuple[object, ...] = ()


def brackets(entrants: Sequence[DubovEntrant], pairs: Iterable[tuple[int, int]], bye: int | None,
             rounds: int, last: bool) -> list[tuple[int, frozenset[frozenset[int]], dict[str, tuple[int, ...]],
                                                    dict[str, tuple[int, ...]]]]:
    """The brackets of a complete pairing from the top: (level, pairs made, each criterion's value
    to compare (more is better), and as it is shown: C5 the upfloaters, C6 their score differences
    (the largest first), C7 the pairs granting both preferences, C8 the maximum upfloaters, C9
    their upfloats, C10 the upfloaters who upfloated in the previous round)."""
    es = {e.number: e for e in entrants}
    mate = {a: b for x, y in pairs for a, b in ((x, y), (y, x))}
    left = {n for n in es if n != bye}
    max_t = 2 + rounds // 5
    out = []
    while left:
        top = max(es[n].score for n in left)
        residents = {n for n in left if es[n].score == top}
        made = frozenset(frozenset((n, mate[n])) for n in residents if n in mate)
        ups = [mate[n] for n in residents if n in mate and mate[n] not in residents]
        diffs = sorted({top - es[n].score for n in left if es[n].score != top}, reverse=True)
        values: dict[str, tuple[int, ...]] = {
            "C5": (-len(ups),),
            "C6": tuple(-sum(1 for u in ups if top - es[u].score == d) for d in diffs),
            "C7": (sum(1 for p in made for a, b in [tuple(p)]
                       if preference(es[a].colours)[0] != preference(es[b].colours)[0]),),
        }
        shown: dict[str, tuple[int, ...]] = {"C5": (len(ups),),
                                             "C6": tuple(sorted((top - es[u].score for u in ups), reverse=True)),
                                             "C7": values["C7"]}
        if not last:
            maximum = [u for u in ups if es[u].upfloats >= max_t]
            values["C8"] = (-len(maximum),)
            values["C9"] = (-sum(es[u].upfloats for u in maximum),)
            values["C10"] = (-sum(1 for u in ups if es[u].upfloated_last),)
            shown.update({k: (-values[k][0],) for k in ("C8", "C9", "C10")})
        out.append((top, made, values, shown))
        left -= {n for p in made for n in p}
        if not made:
            break
    return out


def decide(entrants: Sequence[DubovEntrant], ours: Sequence[tuple[int, int]], our_bye: int | None,
           theirs: Sequence[tuple[int, int]], their_bye: int | None, rounds: int = 9, last: bool = False) -> Verdict:
    """The first rule of the 2026 text on which pairing ``ours`` and pairing ``theirs`` (each its
    (white, black) pairs and its bye) differ, and which of them it prefers; ``last``: the round
    is the last (C8-C10 do not apply)."""
    es = {e.number: e for e in entrants}
    if our_bye != their_bye:
        def key(n: int | None) -> tuple[int, int, int, int]:
            e = es[n] if n is not None else None
            return (0, 0, 0, 0) if e is None else (int(not e.eligible), e.score, -len(e.colours), -e.number)
        a, b = key(our_bye), key(their_bye)
        what = next((k for k in range(4) if a[k] != b[k]), 3)
        return Verdict("3.1", None, a < b, (BYE_CRITERIA[what], our_bye, their_bye))
    for (level, made, mine, seen), (_, made2, other, seen2) in zip(brackets(entrants, ours, our_bye, rounds, last),
                                                                   brackets(entrants, theirs, their_bye, rounds, last)):
        if made == made2:
            continue
        for rule in RULES:
            if rule in mine and mine[rule] != other[rule]:
                return Verdict(rule, level, mine[rule] > other[rule], (seen[rule], seen2[rule]))
        return Verdict("Articles 3.2-4.4", level, True, (tuple(sorted(map(sorted, made - made2))),
                                                        tuple(sorted(map(sorted, made2 - made)))))
    if set(ours) != set(theirs):
        return Verdict("5.2", None, True, (tuple(sorted(set(ours) - set(theirs))), tuple(sorted(set(theirs) - set(ours)))))
    return Verdict("")
