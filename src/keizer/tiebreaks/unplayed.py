"""Unplayed rounds — byes, forfeits, absences, withdrawals — under each rule edition.

Opponent-based tie-breaks (Buchholz, Sonneborn-Berger, Koya, ESB) need, for
every round of a participant, an opponent's score.  How a round without a
game gets one, and how a participant with unplayed rounds counts for others,
is what changed between FIDE's texts:

``2026``
    C.07 approved 02/02/2026, in force 1 March 2026 (default).  Own unplayed
    round: a dummy opponent with the participant's final score, capped at the
    scheduled opponent's adjusted score for forfeits (16.4.1) and at draw
    points × rounds otherwise (16.4.2).  For opponents a requested bye followed
    only by voluntary unplayed rounds counts as a draw (16.3).
``2024``
    C.07 approved 01/08/2023 (all rated events 1 April 2024) and 29/07/2024:
    the same without the caps — the dummy has the participant's final score.
``2012``
    C.02/C.07 until 2023: a virtual opponent with the participant's score
    before the round, the opposite result in it and draws afterwards
    (Svon = SPR + (1 − SfPR) + ½·(n − R)); every unplayed round of an
    opponent counts as a draw.
``self-draw``
    The older rule: every unplayed round counts as a draw against the player
    himself — for himself (score: his own, unplayed rounds as draws; result:
    a draw) and for his opponents.  No FIDE text was found for it; it is the
    rule club programs called "unplayed games as draws".

In 2024 and 2026 a Cut removes voluntary unplayed rounds first (16.5); the
older editions cut the least significant value.  Pre-determined pairings
(round robins) count forfeits as games (15.2), except that the 2026 text keeps
them unplayed for rating tie-breaks and forfeit losses unplayed for the
participant's own results.

Sources: the TEC exercises (IA M. Held, rev. 2403220900) for 2024, FIDE
Handbook C.07 (2012, and the 2026 text adopted by the FIDE Council) for the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property
from itertools import compress, repeat
from operator import and_, ge, is_not, mul, not_
from typing import Callable, Sequence, cast

from keizer.tiebreaks.codes import TieBreakError
from keizer.tiebreaks.fields import Field, Slot
from keizer.tiebreaks.model import Code


class Edition(str, Enum):
    FIDE_2026 = "2026"
    FIDE_2024 = "2024"
    FIDE_2012 = "2012"
    SELF_DRAW = "self-draw"

    @classmethod
    def parse(cls, text: str) -> "Edition":
        """An edition by its name or a date within it.

        >>> Edition.parse("2023"), Edition.parse("pre-2023"), Edition.parse("2026-03")
        (<Edition.FIDE_2024: '2024'>, <Edition.FIDE_2012: '2012'>, <Edition.FIDE_2026: '2026'>)
        """
        key = text.strip().lower()
        found = _EDITIONS.get(key) or _EDITIONS.get(key[:4])
        if found is None:
            raise TieBreakError("unknown rule edition %(text)s (use 2026, 2024, 2012 or self-draw)", text=repr(text))
        return found

    @property
    def dummy(self) -> bool:
        """The 2023-and-later rules: dummy opponents, voluntary unplayed rounds cut first."""
        return self in (Edition.FIDE_2026, Edition.FIDE_2024)


_EDITIONS = {
    "2026": Edition.FIDE_2026, "2025": Edition.FIDE_2024, "2024": Edition.FIDE_2024,
    "2023": Edition.FIDE_2024, "2012": Edition.FIDE_2012, "2009": Edition.FIDE_2012,
    "2022": Edition.FIDE_2012, "pre-2023": Edition.FIDE_2012, "self-draw": Edition.SELF_DRAW,
}


class Purpose(str, Enum):
    """What a round is looked at for: opponents' scores, one's own results, ratings."""

    OPPONENTS = "opponents"
    OWN = "own"
    RATING = "rating"


def counts_as_game(slot: Slot, field: Field, edition: Edition, purpose: Purpose,
                   played_forfeits: bool = False) -> bool:
    """Whether a round counts as a game against its (scheduled) opponent.

    ``played_forfeits`` is the ``/P`` modifier: forfeits as games.
    """
    if slot.opponent is None:
        return False
    if slot.code.is_game:
        return True
    if not slot.code.is_forfeit:
        return False
    if played_forfeits and purpose is Purpose.OPPONENTS:
        return True
    if not field.system.predetermined:
        return False
    if edition is Edition.FIDE_2026:  # 15.2 exceptions
        if purpose is Purpose.RATING:
            return False
        if purpose is Purpose.OWN:
            return slot.code is Code.FORFEIT_WIN
    return True


def game_flags(field: Field, edition: Edition, purpose: Purpose,
               played_forfeits: bool = False) -> dict[int, tuple[bool, ...]]:
    """:func:`counts_as_game` for every round of every participant, computed once per field."""
    if not field.system.predetermined and not (played_forfeits and purpose is Purpose.OPPONENTS):
        # a Swiss: exactly the games over the board count, for every purpose (the common case, made cheap)
        def games() -> dict[int, tuple[bool, ...]]:
            codes, opponents = field.codes, field.opponents
            return {i: tuple(map(and_, map(_IS_GAME, line), map(is_not, opponents[i], repeat(None))))
                    for i, line in codes.items()}
        return field.memo("games", games)
    return field.memo(("games", edition, purpose, played_forfeits),
                      lambda: {i: tuple([counts_as_game(s, field, edition, purpose, played_forfeits) for s in line])
                               for i, line in field.slots.items()})


_IS_GAME = {code: code.is_game for code in Code}.__getitem__


def categories(codes: Sequence[Code], counted: Sequence[bool]) -> tuple[int, ...]:
    """The C.07 16.2 category of each round (by its code); 0 for a round counted as a game.

    1 PAB or full-point bye, 2 forfeit win, 3 requested bye followed by a round
    that is not voluntarily unplayed, 4 forfeit loss, 5 requested bye followed
    only by voluntarily unplayed rounds (withdrawals end here).

    >>> categories([Code.ZPB, Code.PAB, Code.ZPB, Code.ZPB], [False] * 4)
    (3, 1, 5, 5)
    >>> categories([Code.HPB, Code.WIN, Code.HPB, Code.FORFEIT_LOSS], [False, True, False, False])
    (3, 0, 5, 4)
    """
    n = len(codes)
    cats = [0] * n
    last_game = n - 1 - counted[::-1].index(True) if True in counted else -1
    only_voluntary_after = True
    # the rounds not counted as games, from the last: a line has few, and the games between them only matter
    # as "a game comes later"
    for r in reversed(list(compress(range(n), map(not_, counted)))):
        if r < last_game:
            only_voluntary_after = False
        c = _CATEGORY.get(codes[r]) or (5 if only_voluntary_after else 3)  # else a requested bye: HPB, ZPB…
        cats[r] = c
        if c < 3:
            only_voluntary_after = False
    return tuple(cats)


_CATEGORY = {Code.PAB: 1, Code.FPB: 1, Code.FORFEIT_WIN: 2, Code.FORFEIT_LOSS: 4}


@dataclass(frozen=True)
class Unplayed:
    """The edition's view of a whole field: adjusted scores and every participant's rounds.

    Numerators over ``den`` (the field's common denominator), per participant:
    ``adjusted_nums`` its score as it counts for its opponents (16.3); per
    round, ``scores`` the score of the opponent it faced as it counts
    (adjusted, dummy or virtual), ``points`` what it scored, ``voluntary``
    whether the round is a voluntary unplayed round a Cut removes first.
    """

    den: int
    adjusted_nums: dict[int, int]
    scores: dict[int, tuple[int, ...]]
    points: dict[int, tuple[int, ...]]
    voluntary: dict[int, tuple[bool, ...]]

    @cached_property
    def ordered(self) -> dict[int, list[int]]:
        """Each participant's faced scores, least first: what a Buchholz cuts from (shared by its cuts)."""
        return dict(zip(self.scores, map(sorted, self.scores.values())))

    @cached_property
    def with_voluntary(self) -> frozenset[int]:
        """The participants with a voluntary unplayed round (a Cut may take it first, 16.5)."""
        return frozenset(i for i, line in self.voluntary.items() if True in line)

    @cached_property
    def voluntary_apart(self) -> dict[int, tuple[list[int], list[int]]]:
        """For the participants with a voluntary unplayed round: its faced scores, the voluntary rounds'
        least first and the others (what each Buchholz cut of 16.5 starts from)."""
        return {i: voluntary_apart(self.scores[i], self.voluntary[i]) for i in self.with_voluntary}

    @cached_property
    def products(self) -> tuple[dict[int, tuple[int, ...]], dict[int, int]]:
        """Per participant each round's faced score × points scored, and their sum (Sonneborn-Berger's)."""
        points = self.points
        products = {i: tuple(map(mul, line, points[i])) for i, line in self.scores.items()}
        return products, dict(zip(products, map(sum, products.values())))

    @cached_property
    def adjusted(self) -> dict[int, Fraction]:
        """Each participant's score as it counts for its opponents (16.3), in Fractions."""
        return {i: Fraction(n, self.den) for i, n in self.adjusted_nums.items()}


def unplayed(field: Field, edition: Edition, played_forfeits: bool = False) -> Unplayed:
    """Adjusted scores (16.3) and faced opponents (16.4) of every participant of ``field``."""
    counted = game_flags(field, edition, Purpose.OPPONENTS, played_forfeits)
    nums, own, opponents = field.nums, field.totals, field.opponents
    draw, rounds, dummy = field.num(field.draw), field.rounds, edition.dummy
    cats: dict[int, tuple[int, ...]] = {}  # only participants with a round not counted as a game
    adjusted = dict(own)
    as_draw = 5 if dummy else 1  # the least category that counts as a draw for the opponents
    for i, codes in field.codes.items():
        if False in counted[i]:
            line_cats = cats[i] = categories(codes, counted[i])
            line = nums[i]
            adjusted[i] += sum([draw - line[r] for r, c in enumerate(line_cats) if c >= as_draw])
    cap = draw * rounds
    win_loss = field.num(field.win) + field.num(field.loss)
    fide_2024, fide_2026, fide_2012 = (edition is Edition.FIDE_2024, edition is Edition.FIDE_2026,
                                       edition is Edition.FIDE_2012)
    scores, points, voluntary = {}, {}, {}
    adjusted_of, none_voluntary = adjusted.__getitem__, (False,) * rounds
    adjusted_or_none = cast("Callable[[int | None], int | None]", adjusted.get)
    for i, line in nums.items():
        opps = opponents[i]
        if i not in cats:  # every round a game: the opponents' adjusted scores
            scores[i] = tuple(map(adjusted_of, opps))  # type: ignore[arg-type]
            points[i] = line
            voluntary[i] = none_voluntary if len(line) == rounds else (False,) * len(line)
            continue
        line_cats = cats[i]
        faced = list(map(adjusted_or_none, opps))  # games: set; the others below
        scored = list(line)
        for r in compress(range(len(line_cats)), line_cats):
            c, o = line_cats[r], opps[r]
            if fide_2024:
                faced[r] = own[i]
            elif fide_2026:
                limit = adjusted[o] if c in (2, 4) and o is not None else cap
                faced[r] = min(own[i], limit)
            elif fide_2012:
                p = line[r]
                complement = draw if p == draw else win_loss - p
                faced[r] = sum(line[:r]) + complement + draw * (rounds - r - 1)
            else:
                faced[r] = adjusted[i]
                scored[r] = draw
        scores[i], points[i] = tuple(faced), tuple(scored)  # type: ignore[arg-type]
        voluntary[i] = tuple(map(ge, line_cats, repeat(3))) if dummy else (False,) * len(line)
    return Unplayed(field.den, adjusted, scores, points, voluntary)


def cut_sum(values: Sequence[int], voluntary: Sequence[bool], low: int, high: int, voluntary_first: bool,
            keys: Sequence[int] | None = None) -> int:
    """Σ ``values`` after dropping the ``low`` least and then the ``high`` most significant (C.07 art. 14).

    Significance is the value itself, or ``keys`` first and then the value.
    With ``voluntary_first`` (16.5) each low cut removes the smallest
    voluntary unplayed round instead, unless it adds less than the least
    significant value does.

    >>> cut_sum([3, 1, 2], [False, False, True], 1, 0, True), cut_sum([3, 1, 2], [False] * 3, 1, 0, False)
    (4, 5)
    """
    if not low and not high:
        return sum(values)
    if not (voluntary_first and True in voluntary):
        # no voluntary round to prefer: cut the ends of the values in order of significance
        return ends_cut(sorted(values) if keys is None else [v for _, v in sorted(zip(keys, values))], low, high)
    if keys is None:
        return voluntary_cut(*voluntary_apart(values, voluntary), low, high)
    if low == 1 and not high:  # the usual /C1: the smallest voluntary round, unless the least adds less
        least, smallest = min(zip(keys, values))[1], min(compress(values, voluntary))
        return sum(values) - (smallest if smallest >= least else least)
    ranked_by: Sequence[int] = keys
    significance = (lambda k: (ranked_by[k], values[k]))  # noqa: E731
    left = list(range(len(values)))
    for _ in range(low):
        if not left:
            break
        least = min(left, key=significance)
        vurs = [k for k in left if voluntary[k]]
        if vurs:
            smallest = min(vurs, key=values.__getitem__)
            if values[smallest] >= values[least]:
                least = smallest
        left.remove(least)
    for _ in range(high):
        if not left:
            break
        left.remove(max(left, key=significance))
    return sum(values[k] for k in left)


def voluntary_apart(values: Sequence[int], voluntary: Sequence[bool]) -> tuple[list[int], list[int]]:
    """The values of the voluntary unplayed rounds, least first, and the others."""
    return sorted(compress(values, voluntary)), list(compress(values, map(not_, voluntary)))


def voluntary_cut(chosen: list[int], others: list[int], low: int, high: int) -> int:
    """:func:`cut_sum` of values significant by themselves, voluntary rounds first: ``chosen`` the
    voluntary rounds' values least first, ``others`` the other values.

    The least value never adds more than the smallest voluntary round, so the low cuts take the
    voluntary rounds first, smallest first, then the least values.
    """
    first = min(low, len(chosen))
    return ends_cut(sorted(chosen[first:] + others), low - first, high)


def ends_cut(ordered: Sequence[int], low: int, high: int) -> int:
    """Σ ``ordered`` (least significant first) without its ``low`` first and then ``high`` last values."""
    n = len(ordered)
    first = min(low, n)
    return sum(ordered[first:n - min(high, n - first)])
