"""A tournament seen through one score: what every tie-break is computed on.

An individual tournament has one score (points); a team tournament two, match
points (MP) and game points (GP).  A :class:`Field` holds, per participant
and round, the code, the opponent and the points of one score, so Buchholz,
Sonneborn-Berger & co. are written once and serve players and teams alike.

>>> from keizer.tiebreaks.model import Player, RoundResult, Tournament
>>> t = Tournament((Player(1, results=(RoundResult(Code.WIN, 2),)),
...                 Player(2, results=(RoundResult(Code.LOSS, 1), RoundResult(Code.HPB)))), rounds=2)
>>> f = player_field(t)
>>> f.scores, f.slots[1][1].code
({1: Fraction(1, 1), 2: Fraction(1, 2)}, <Code.ZPB: 'Z'>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Iterable, Mapping

from keizer.model import Colour
from keizer.tiebreaks.codes import TieBreakError
from keizer.tiebreaks.model import Code, System, Tournament


@dataclass(frozen=True)
class Slot:
    """One participant's round in one score."""

    code: Code
    opponent: int | None
    colour: Colour | None
    points: Fraction


@dataclass(frozen=True)
class Field:
    """Per participant (start or team number) the slots of rounds 1…``rounds``.

    ``win``/``draw``/``loss`` are the points of a won/drawn/lost game (or
    match) in this score; ``step`` is the "half point" a Koya limit moves by.
    """

    slots: Mapping[int, tuple[Slot, ...]]
    rounds: int
    win: Fraction
    draw: Fraction
    loss: Fraction
    step: Fraction
    system: System
    ratings: Mapping[int, int | None]

    @cached_property
    def scores(self) -> dict[int, Fraction]:
        return {i: total(s.points for s in slots) for i, slots in self.slots.items()}

    def complement(self, points: Fraction) -> Fraction:
        """The points an opponent gets when this side gets ``points`` (a draw stays a draw)."""
        return self.draw if points == self.draw else self.win + self.loss - points

    def foreseen(self) -> "Field":
        """The field Fore Buchholz uses: every paired last-round game or forfeit drawn (C.07 8.3)."""
        last = self.rounds - 1
        slots = {}
        for i, rounds in self.slots.items():
            s = rounds[last] if rounds else None
            if s is not None and s.opponent is not None and (s.code.is_game or s.code.is_forfeit):
                rounds = rounds[:last] + (replace(s, code=Code.DRAW, points=self.draw),)
            slots[i] = rounds
        return replace(self, slots=slots)


def total(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum, on integers over a common denominator (far faster than adding Fractions).

    >>> total([Fraction(1, 2), Fraction(3, 4), 2])
    Fraction(13, 4)
    """
    num, den = 0, 1
    for v in values:
        n, d = v.numerator, v.denominator
        if d == den:
            num += n
        else:
            common = math.lcm(den, d)
            num, den = num * (common // den) + n * (common // d), common
    return Fraction(num, den)


def player_field(t: Tournament, rounds: int | None = None) -> Field:
    """The players of ``t`` after ``rounds`` rounds (default: all played); missing rounds are zero-point byes."""
    n = _rounds(t, rounds)
    s = t.scoring
    points = {code: s.points(code) for code in Code}
    absent = Slot(Code.ZPB, None, None, s.zpb)
    slots = {}
    for p in t.players:
        line = [Slot(res.code, res.opponent, res.colour, points[res.code]) for res in p.results[:n]]
        slots[p.start_no] = tuple(line) + (absent,) * (n - len(line))
    ratings = {p.start_no: p.rating for p in t.players}
    return _checked(Field(slots, n, s.win, s.draw, s.loss, s.draw, t.system, ratings), "player")


def team_field(t: Tournament, score: str, rounds: int | None = None) -> Field:
    """The teams of ``t`` seen through match points (``"MP"``) or game points (``"GP"``)."""
    if not t.is_team:
        raise TieBreakError(f"{score}: the tournament has no teams")
    if score == "GP" and t.boards < 1:
        raise TieBreakError("GP: the number of boards per match is not known")
    n = _rounds(t, rounds)
    ms = t.match_scoring
    slots = {}
    for team in t.teams:
        line = []
        for r in range(n):
            m = team.matches[r] if r < len(team.matches) else None
            code = m.code if m else Code.ZPB
            points = (m.game_points if m else Fraction(0)) if score == "GP" else ms.points(code)
            line.append(Slot(code, m.opponent if m else None, m.colour if m else None, points))
        slots[team.number] = tuple(line)
    ratings = {team.number: team.rating for team in t.teams}
    if score == "GP":
        boards = Fraction(t.boards)
        field = Field(slots, n, boards, boards / 2, Fraction(0), Fraction(1, 2), t.system, ratings)
    else:
        field = Field(slots, n, ms.win, ms.draw, ms.loss, ms.draw, t.system, ratings)
    return _checked(field, "team")


def _rounds(t: Tournament, rounds: int | None) -> int:
    if rounds is None:
        return t.played_rounds
    if not 0 <= rounds <= t.rounds:
        raise TieBreakError(f"round {rounds}: the tournament has {t.rounds} rounds")
    return rounds


def _checked(field: Field, what: str) -> Field:
    """Every opponent must be a participant whose same round names this one back."""
    for i, line in field.slots.items():
        for r, s in enumerate(line, start=1):
            if s.opponent is None:
                continue
            back = field.slots.get(s.opponent)
            if back is None:
                raise TieBreakError(f"{what} {i} round {r}: opponent {s.opponent} is not in the tournament")
            if back[r - 1].opponent != i:
                raise TieBreakError(f"{what} {i} round {r}: opponent {s.opponent} has another opponent")
    return field
