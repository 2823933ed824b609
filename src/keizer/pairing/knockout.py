"""Knock-out brackets: seeding, byes, match decisions and the way winners advance.

The bracket has B slots, B the smallest power of two ≥ n entrants.  Seeds are
placed in the standard order (the usual seeded draw of tennis and chess cups): start with [1]
and replace every seed s by s, 2m + 1 − s, m the current length, so for B = 8
the drawing reads 1, 8, 4, 5, 2, 7, 3, 6 from the top.  Every first-round
match then adds up to B + 1, seeds 1 and 2 can meet only in the final, seeds 1…4
not before the semi-finals, and so on, and the B − n byes fall to seeds 1…B − n:
seed s > n is an empty place.

Rounds are 1…R (R = log₂ B, round R the final) and slots 1…B/2^r from the top;
the winner of slot (r, k) goes to slot (r + 1, ⌈k/2⌉), on top when k is odd.

A match is played in stages (``MatchFormat``): the regular games, then the
tie-break stages in the order the format lists them (rapid, blitz,
armageddon).  A stage's points decide when one side leads by more than the
games still to come in it; a level stage passes the match to the next one.  In
an armageddon game a draw counts as a win for Black (the usual armageddon rule:
White has more time, Black draw odds).  In a team match (``team=True``) the games of
a stage are its boards, board 1 first, and a stage level on game points goes
on to board count BC and then bottom-board elimination BBE (FIDE C.07 arts.
12.1 and 12.3, ``keizer.pairing.teams.compare_boards``) before the next stage.
A match still level after every stage, a withdrawal, or a lot is settled by
hand: ``MatchRecord.awarded_to``.

>>> b = make_bracket(["Anna", "Bram", "Cor"])
>>> [(s.round, s.index, s.seeds, s.feeds) for s in b.slots]
[(1, 1, (1, None), (2, 1)), (1, 2, (2, 3), (2, 1)), (2, 1, None, None)]
>>> played = {(1, 2): MatchRecord(((MatchGame("Cor", Result.WHITE_WIN),),))}
>>> [(m.top, m.bottom, m.winner, m.how) for m in bracket_state(b, played)]
[('Anna', None, 'Anna', 'bye'), ('Bram', 'Cor', 'Cor', 'regular 0–1'), ('Anna', 'Cor', None, 'to play')]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Result
from keizer.pairing.roundrobin import require_unique
from keizer.pairing.outcome import How, Part
from keizer.pairing.teams import compare_boards, points_text, result_points

SlotId = tuple[int, int]  # (round, index)


class StageKind(str, Enum):
    """The kinds of stage, in the only order a format may list them."""

    REGULAR = "regular"
    RAPID = "rapid"
    BLITZ = "blitz"
    ARMAGEDDON = "armageddon"


_KINDS = list(StageKind)


@dataclass(frozen=True)
class Stage:
    kind: StageKind
    games: int  # games in the stage; boards in a team match


@dataclass(frozen=True)
class MatchFormat:
    """How a match is played: one regular stage, then tie-break stages; kinds
    may repeat (two rapid mini-matches) but not go back, and armageddon ends.

    >>> MatchFormat((Stage(StageKind.REGULAR, 2), Stage(StageKind.ARMAGEDDON, 1), Stage(StageKind.BLITZ, 2)))
    Traceback (most recent call last):
    ...
    ValueError: stage 3 (blitz) comes after armageddon
    """

    stages: tuple[Stage, ...] = (Stage(StageKind.REGULAR, 1),)
    team: bool = False

    def __post_init__(self) -> None:
        if not self.stages or self.stages[0].kind is not StageKind.REGULAR:
            raise ValueError("a match starts with its regular games")
        for number, (before, stage) in enumerate(zip(self.stages, self.stages[1:]), 2):
            if stage.kind is StageKind.REGULAR:
                raise ValueError(f"stage {number}: only the first stage is regular")
            if before.kind is StageKind.ARMAGEDDON or _KINDS.index(stage.kind) < _KINDS.index(before.kind):
                raise ValueError(f"stage {number} ({stage.kind.value}) comes after {before.kind.value}")
        if any(stage.games < 1 for stage in self.stages):
            raise ValueError("every stage has at least one game")


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: the entrant with White (in a team match: the team
    with White on this board) and the result as written (White's first)."""

    white: str
    result: Result


@dataclass(frozen=True)
class MatchRecord:
    """What has happened in a match: the games of each stage played so far,
    in the format's order, and — when the arbiter decides it (a withdrawal, a
    lot after every stage) — the entrant it is awarded to, which overrides
    the games."""

    stages: tuple[tuple[MatchGame, ...], ...] = ()
    awarded_to: str | None = None


@dataclass(frozen=True)
class Slot:
    """A match in the drawing.  Round 1: ``seeds`` (top, bottom), bottom None
    for a bye.  Later rounds: ``fed_by`` the slots whose winners play here (top
    first).  ``feeds``: where the winner goes (None for the final)."""

    round: int
    index: int
    seeds: tuple[int, int | None] | None
    fed_by: tuple[SlotId, SlotId] | None
    feeds: SlotId | None


@dataclass(frozen=True)
class Bracket:
    """The drawing: entrants by seed (seed 1 first), the format of every match
    and the slots, round by round, top to bottom."""

    entrants: tuple[str, ...]
    match_format: MatchFormat
    size: int
    slots: tuple[Slot, ...]

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1


@dataclass(frozen=True)
class MatchState:
    """A match as far as it is known: sides (None: not yet known, or a bye),
    the winner once decided, and how (or what is awaited)."""

    round: int
    index: int
    top: str | None
    bottom: str | None
    winner: str | None
    how: How


def seeding_positions(size: int) -> tuple[int, ...]:
    """Seeds from the top of a drawing of ``size`` places (a power of two).

    >>> seeding_positions(16)
    (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a drawing has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        m = len(order)
        order = [s for seed in order for s in (seed, 2 * m + 1 - seed)]
    return tuple(order)


def seed_by_rating(entrants: Sequence[str], ratings: Mapping[str, int]) -> tuple[str, ...]:
    """Entrants in seed order: highest rating first, the unrated (missing from
    ``ratings``) last; equal ratings keep the order given.

    >>> seed_by_rating(["Anna", "Bram", "Cor", "Dirk"], {"Anna": 1800, "Cor": 2010, "Dirk": 1800})
    ('Cor', 'Anna', 'Dirk', 'Bram')
    """
    require_unique(entrants)
    return tuple(sorted(entrants, key=lambda e: (e not in ratings, -ratings.get(e, 0))))


def make_bracket(seeds: Sequence[str], match_format: MatchFormat = MatchFormat()) -> Bracket:
    """The drawing for entrants in seed order (by rating: :func:`seed_by_rating`;
    or by hand).

    >>> b = make_bracket([f"p{k}" for k in range(1, 7)])
    >>> b.size, b.rounds, [s.seeds for s in b.slots if s.round == 1]
    (8, 3, [(1, None), (4, 5), (2, None), (3, 6)])
    >>> [(s.index, s.fed_by) for s in b.slots if s.round == 2]
    [(1, ((1, 1), (1, 2))), (2, ((1, 3), (1, 4)))]
    """
    require_unique(seeds)
    n = len(seeds)
    if n < 2:
        raise ValueError(f"a knock-out needs at least 2 entrants, not {n}")
    size = 1 << (n - 1).bit_length()
    rounds = size.bit_length() - 1
    order = seeding_positions(size)
    slots = []
    for r in range(1, rounds + 1):
        for k in range(1, size // 2 ** r + 1):
            feeds = (r + 1, (k + 1) // 2) if r < rounds else None
            if r == 1:
                top, bottom = order[2 * k - 2], order[2 * k - 1]
                slots.append(Slot(r, k, (top, bottom if bottom <= n else None), None, feeds))
            else:
                slots.append(Slot(r, k, None, ((r - 1, 2 * k - 1), (r - 1, 2 * k)), feeds))
    return Bracket(tuple(seeds), match_format, size, tuple(slots))


def bracket_state(bracket: Bracket, results: Mapping[SlotId, MatchRecord]) -> tuple[MatchState, ...]:
    """Every match of the bracket given the records so far: its sides, and
    its winner where the record decides it.

    >>> regular = Stage(StageKind.REGULAR, 2)
    >>> b = make_bracket(["Anna", "Bram"], MatchFormat((regular, Stage(StageKind.ARMAGEDDON, 1))))
    >>> drawn = (MatchGame("Anna", Result.DRAW), MatchGame("Bram", Result.DRAW))
    >>> bracket_state(b, {(1, 1): MatchRecord((drawn,))})[0].how
    'level 1–1 after the regular games: armageddon next'
    >>> bracket_state(b, {(1, 1): MatchRecord((drawn, (MatchGame("Anna", Result.DRAW),)))})[0].winner
    'Bram'
    """
    known = {(s.round, s.index) for s in bracket.slots}
    stray = sorted(set(results) - known)
    if stray:
        raise ValueError(f"no such match in the bracket: {stray[0]}")
    winners: dict[SlotId, str | None] = {}
    states = []
    for slot in bracket.slots:
        key = (slot.round, slot.index)
        if slot.seeds is not None:
            top_seed, bottom_seed = slot.seeds
            top: str | None = bracket.entrants[top_seed - 1]
            bottom = bracket.entrants[bottom_seed - 1] if bottom_seed else None
        else:
            assert slot.fed_by is not None
            top, bottom = winners[slot.fed_by[0]], winners[slot.fed_by[1]]
        record = results.get(key)
        if slot.seeds is not None and bottom is None:
            if record is not None:
                raise ValueError(f"match {key} is a bye: there is nothing to record")
            winner, how = top, How(Part("bye"))
        elif top is None or bottom is None:
            if record is not None:
                raise ValueError(f"match {key}: its sides are not known yet")
            winner, how = None, How(Part("waiting"))
        else:
            winner, how = decide_match(bracket.match_format, top, bottom, record or MatchRecord())
        winners[key] = winner
        states.append(MatchState(slot.round, slot.index, top, bottom, winner, how))
    return tuple(states)


def to_play(states: Sequence[MatchState]) -> tuple[MatchState, ...]:
    """The matches whose sides are known and whose winner is not: what can be
    played next.

    >>> b = make_bracket(["Anna", "Bram", "Cor", "Dirk"])
    >>> [(m.top, m.bottom) for m in to_play(bracket_state(b, {}))]
    [('Anna', 'Dirk'), ('Bram', 'Cor')]
    """
    return tuple(m for m in states if m.top and m.bottom and m.winner is None)


def decide_match(match_format: MatchFormat, top: str, bottom: str,
                 record: MatchRecord) -> tuple[str | None, How]:
    """(winner, how) of one match from its record; winner None while open.

    >>> rapid = MatchFormat((Stage(StageKind.REGULAR, 2), Stage(StageKind.RAPID, 2)))
    >>> decide_match(rapid, "Anna", "Bram", MatchRecord(((MatchGame("Anna", Result.WHITE_WIN),
    ...     MatchGame("Bram", Result.WHITE_WIN)), (MatchGame("Bram", Result.BLACK_WIN),))))
    (None, 'rapid 1–0 after 1 of 2 games')
    """
    sides = (top, bottom)
    if record.awarded_to is not None:
        if record.awarded_to not in sides:
            raise ValueError(f"{record.awarded_to} does not play in {top} v {bottom}")
        return record.awarded_to, How(Part("awarded"))
    if len(record.stages) > len(match_format.stages):
        raise ValueError(f"{top} v {bottom}: {len(record.stages)} stages recorded,"
                         f" the format has {len(match_format.stages)}")
    winner, how, level = None, How(Part("to_play")), False
    for number, (stage, games) in enumerate(zip(match_format.stages, record.stages), 1):
        if number > 1 and not level:
            raise ValueError(f"{top} v {bottom}: stage {number} recorded, but stage {number - 1} "
                             + ("decided the match" if winner else "has not ended"))
        winner, how, level = _stage_outcome(match_format.team, stage, games, sides)
    if level:
        following = match_format.stages[len(record.stages):]
        how += How(Part("next", (following[0].kind.value,)) if following else Part("arbiter"))
    return winner, how


def _stage_outcome(team: bool, stage: Stage, games: Sequence[MatchGame],
                   sides: tuple[str, str]) -> tuple[str | None, How, bool]:
    """(winner, how, level) of one stage: level means complete and undecided."""
    if len(games) > stage.games:
        raise ValueError(f"{sides[0]} v {sides[1]}: {len(games)} games of {stage.kind.value},"
                         f" the format has {stage.games}")
    points = [_game_points(game, stage.kind, sides) for game in games]
    a = sum((p for p, _ in points), Fraction(0))
    b = sum((q for _, q in points), Fraction(0))
    how = How(Part("stage", (stage.kind.value, points_text(a), points_text(b))))
    left = stage.games - len(games)
    if abs(a - b) > left:  # the games still to come cannot make it level
        if stage.kind is StageKind.ARMAGEDDON and any(g.result is Result.DRAW for g in games):
            how += How(Part("armageddon_draw"))
        return sides[0] if a > b else sides[1], how, False
    if left:
        return None, how + How(Part("after_games", (str(len(games)), str(stage.games)))), False
    level = How(Part("level", (points_text(a), points_text(b), stage.kind.value)))
    if team:
        sign, why = compare_boards([p for p, _ in points], [q for _, q in points])
        if sign:
            return sides[0] if sign > 0 else sides[1], how + How(Part("comma")) + why, False
        level += How(Part("level_boards"))
    return None, level, True


def _game_points(game: MatchGame, kind: StageKind, sides: tuple[str, str]) -> tuple[Fraction, Fraction]:
    """Points of (top, bottom) for one game; an armageddon draw is Black's win."""
    if game.white not in sides:
        raise ValueError(f"{game.white} does not play in {sides[0]} v {sides[1]}")
    result = game.result
    if kind is StageKind.ARMAGEDDON and result is Result.DRAW:
        result = Result.BLACK_WIN
    white, black = result_points(result)
    return (white, black) if game.white == sides[0] else (black, white)
