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
from typing import Sequence

from keizer.tiebreaks.codes import TieBreakError
from keizer.tiebreaks.fields import Field, Slot, total
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
            raise TieBreakError(f"unknown rule edition {text!r} (use 2026, 2024, 2012 or self-draw)")
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


def categories(line: Sequence[Slot], counted: Sequence[bool]) -> tuple[int, ...]:
    """The C.07 16.2 category of each round; 0 for a round counted as a game.

    1 PAB or full-point bye, 2 forfeit win, 3 requested bye followed by a round
    that is not voluntarily unplayed, 4 forfeit loss, 5 requested bye followed
    only by voluntarily unplayed rounds (withdrawals end here).

    >>> z, u = Slot(Code.ZPB, None, None, Fraction(0)), Slot(Code.PAB, None, None, Fraction(1))
    >>> categories([z, u, z, z], [False] * 4)
    (3, 1, 5, 5)
    """
    cats = [0] * len(line)
    only_voluntary_after = True
    for r in range(len(line) - 1, -1, -1):
        s = line[r]
        if counted[r]:
            only_voluntary_after = False
            continue
        if s.code in (Code.PAB, Code.FPB):
            cats[r] = 1
        elif s.code is Code.FORFEIT_WIN:
            cats[r] = 2
        elif s.code is Code.FORFEIT_LOSS:
            cats[r] = 4
        else:  # HPB, ZPB and anything unplayed that is not a win: a requested bye
            cats[r] = 5 if only_voluntary_after else 3
        if cats[r] in (1, 2):
            only_voluntary_after = False
    return tuple(cats)


@dataclass(frozen=True)
class Faced:
    """One round as opponent-based tie-breaks see it.

    ``score`` is the opponent's score as it counts (adjusted, dummy or
    virtual), ``points`` what the participant scored, ``voluntary`` whether the
    round is a voluntary unplayed round a Cut removes first, ``opponent`` the
    real opponent (None for a dummy or virtual one).
    """

    score: Fraction
    points: Fraction
    voluntary: bool
    opponent: int | None


@dataclass(frozen=True)
class Unplayed:
    """The edition's view of a whole field: adjusted scores and every participant's rounds."""

    adjusted: dict[int, Fraction]
    faced: dict[int, tuple[Faced, ...]]


def unplayed(field: Field, edition: Edition, played_forfeits: bool = False) -> Unplayed:
    """Adjusted scores (16.3) and faced opponents (16.4) of every participant of ``field``."""
    counted = {i: [counts_as_game(s, field, edition, Purpose.OPPONENTS, played_forfeits) for s in line]
               for i, line in field.slots.items()}
    cats = {i: categories(line, counted[i]) for i, line in field.slots.items()}
    adjusted = {}
    for i, line in field.slots.items():
        as_draw = [c == 5 if edition.dummy else c > 0 for c in cats[i]]
        adjusted[i] = total(field.draw if d else s.points for s, d in zip(line, as_draw))
    own = field.scores
    cap = field.draw * field.rounds
    faced = {}
    for i, line in field.slots.items():
        rounds = []
        before = Fraction(0)
        for r, s in enumerate(line):
            c = cats[i][r]
            if not c:
                rounds.append(Faced(adjusted[s.opponent], s.points, False, s.opponent))  # type: ignore[index]
            elif edition is Edition.FIDE_2024:
                rounds.append(Faced(own[i], s.points, c in (3, 4, 5), None))
            elif edition is Edition.FIDE_2026:
                limit = adjusted[s.opponent] if c in (2, 4) and s.opponent is not None else cap
                rounds.append(Faced(min(own[i], limit), s.points, c in (3, 4, 5), None))
            elif edition is Edition.FIDE_2012:
                virtual = before + field.complement(s.points) + field.draw * (field.rounds - r - 1)
                rounds.append(Faced(virtual, s.points, False, None))
            else:
                rounds.append(Faced(adjusted[i], field.draw, False, None))
            before += s.points
        faced[i] = tuple(rounds)
    return Unplayed(adjusted, faced)


@dataclass(frozen=True)
class Contribution:
    """A contribution that modifiers may cut: what it adds, how significant it is, whether voluntary."""

    adds: Fraction
    significance: tuple[Fraction, ...]
    voluntary: bool = False


def cut(values: Sequence[Contribution], low: int, high: int, voluntary_first: bool) -> list[Contribution]:
    """Drop the ``low`` least and then the ``high`` most significant values (C.07 art. 14).

    With ``voluntary_first`` (16.5) each low cut removes the smallest
    voluntary unplayed round instead, unless it adds less than the least
    significant value does.

    >>> v = [Contribution(Fraction(3), (Fraction(3),)), Contribution(Fraction(1), (Fraction(1),)),
    ...      Contribution(Fraction(2), (Fraction(2),), voluntary=True)]
    >>> [x.adds for x in cut(v, 1, 0, True)], [x.adds for x in cut(v, 1, 0, False)]
    ([Fraction(3, 1), Fraction(1, 1)], [Fraction(3, 1), Fraction(2, 1)])
    """
    kept = list(values)
    for _ in range(low):
        if not kept:
            break
        least = min(kept, key=lambda v: v.significance)
        if voluntary_first:
            vurs = [v for v in kept if v.voluntary]
            if vurs:
                smallest = min(vurs, key=lambda v: v.adds)
                if smallest.adds >= least.adds:
                    least = smallest
        kept.remove(least)
    for _ in range(high):
        if not kept:
            break
        kept.remove(max(kept, key=lambda v: v.significance))
    return kept
