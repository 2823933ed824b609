"""A tournament seen through one score: what every tie-break is computed on.

An individual tournament has one score (points); a team tournament two, match
points (MP) and game points (GP).  A :class:`Field` holds, per participant
and round, the code, the opponent and the points of one score, so Buchholz,
Sonneborn-Berger & co. are written once and serve players and teams alike.

The tie-breaks compute on integers: every points value of a field is a
numerator over one common denominator (:attr:`Field.den`), so sums and
comparisons are exact and cost what integer ones do; values become
Fractions only at the end.

>>> from keizer.tiebreaks.model import Player, RoundResult, Tournament
>>> t = Tournament((Player(1, results=(RoundResult(Code.WIN, 2),)),
...                 Player(2, results=(RoundResult(Code.LOSS, 1), RoundResult(Code.HPB)))), rounds=2)
>>> f = player_field(t)
>>> f.scores, f.slots[1][1].code
({1: Fraction(1, 1), 2: Fraction(1, 2)}, <Code.ZPB: 'Z'>)
>>> f.den, f.nums, f.totals
(2, {1: (2, 0), 2: (0, 1)}, {1: 2, 2: 1})
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, partial
from itertools import chain, repeat
from operator import attrgetter, getitem, is_
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, cast

from keizer.colour import Colour
from keizer.tiebreaks.codes import TieBreakError
from keizer.tiebreaks.model import Code, Match, RoundResult, Scoring, System, Tournament

T = TypeVar("T")
S = TypeVar("S")

#: One participant's round: a player's result or a team's match (its code, opponent and colour count here).
Slot = RoundResult | Match


@dataclass(frozen=True)
class Field:
    """Per participant (start or team number) its rounds 1…``rounds`` in one score.

    ``slots[i][r]`` is what participant i's round r was; ``nums[i][r]`` the
    points it brought in this score, as a numerator over ``den``, a common
    denominator of every points value of the field (``win``, ``draw``,
    ``loss`` and ``step`` included).  ``win``/``draw``/``loss`` are the points
    of a won/drawn/lost game (or match) in this score; ``step`` is the "half
    point" a Koya limit moves by.
    """

    slots: Mapping[int, tuple[Slot, ...]]
    nums: Mapping[int, tuple[int, ...]]
    den: int
    rounds: int
    win: Fraction
    draw: Fraction
    loss: Fraction
    step: Fraction
    system: System
    ratings: Mapping[int, int | None]
    _memo: dict[object, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def totals(self) -> dict[int, int]:
        """Each participant's score, as a numerator over :attr:`den`."""
        return dict(zip(self.nums, map(sum, self.nums.values())))

    @cached_property
    def opponents(self) -> dict[int, tuple[int | None, ...]]:
        """Each participant's (scheduled) opponent per round."""
        return _columns(self.slots, self.rounds, partial(map, _OPPONENT))

    @cached_property
    def codes(self) -> dict[int, tuple[Code, ...]]:
        """Each participant's code per round: a column the tie-breaks read with ``map`` (no loop in Python)."""
        return _columns(self.slots, self.rounds, partial(map, _CODE))

    @cached_property
    def blacks(self) -> dict[int, tuple[bool, ...]]:
        """Per participant and round: whether it had Black."""
        return _columns(self.slots, self.rounds, _blacks)

    @cached_property
    def scores(self) -> dict[int, Fraction]:
        """Each participant's score."""
        totals = self.totals
        return dict(zip(totals, map(fractions(self.den), totals.values())))

    def num(self, points: Fraction) -> int:
        """``points`` (a multiple of 1/:attr:`den`) as a numerator over :attr:`den`."""
        return _num(points, self.den)

    def memo(self, key: object, make: Callable[[], T]) -> T:
        """What ``make`` derives from the field, computed once: columns several tie-breaks share."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[return-value]

    def foreseen(self) -> "Field":
        """The field Fore Buchholz uses: every paired last-round game or forfeit drawn (C.07 8.3).

        Only the columns change (a round's code and points, and whether it is a game); the rounds
        themselves are drawn when asked for (:class:`_DrawnLast`): the tie-breaks read the columns.
        """
        last = self.rounds - 1
        draw = self.num(self.draw)
        nums, codes, drawn = dict(self.nums), dict(self.codes), []
        games = self._memo.get("games")  # which rounds are games, as a Swiss counts them (unplayed.game_flags)
        flags: dict[int, tuple[bool, ...]] | None = dict(games) if isinstance(games, dict) else None
        paired, opponents = _PAIRED, self.opponents
        for i, line in self.codes.items():
            if line and line[last] in paired and opponents[i][last] is not None:
                drawn.append(i)
                nums[i] = nums[i][:last] + (draw,)
                codes[i] = line[:last] + (Code.DRAW,)
                if flags is not None:
                    flags[i] = flags[i][:last] + (True,)  # a drawn game against its opponent
        fore = replace(self, slots=_DrawnLast(self.slots, frozenset(drawn), last), nums=nums)
        fore.__dict__.update(opponents=opponents, codes=codes)  # cached properties known already
        if flags is not None:
            fore._memo["games"] = flags
        return fore


class _DrawnLast(Mapping[int, tuple[Slot, ...]]):
    """A field's rounds with the last round of ``drawn`` participants drawn, each line made when read."""

    def __init__(self, slots: Mapping[int, tuple[Slot, ...]], drawn: frozenset[int], last: int) -> None:
        self._slots, self._drawn, self._last = slots, drawn, last

    def __getitem__(self, i: int) -> tuple[Slot, ...]:
        line = self._slots[i]
        if i not in self._drawn:
            return line
        s = line[self._last]
        return line[:self._last] + (RoundResult(Code.DRAW, s.opponent, s.colour) if type(s) is RoundResult else
                                    replace(s, code=Code.DRAW),)

    def __iter__(self) -> Iterator[int]:
        return iter(self._slots)

    def __len__(self) -> int:
        return len(self._slots)


_OPPONENT, _CODE, _COLOUR = attrgetter("opponent"), attrgetter("code"), attrgetter("colour")


def _columns(lines: Mapping[int, Sequence[S]], rounds: int, read: Callable[[Iterable[S]], Iterator[T]]
             ) -> dict[int, tuple[T, ...]]:
    """``read`` over every participant's line, as one column per participant.

    When every line has ``rounds`` rounds (a field's always do), ``read`` runs once over all of
    them in a row and the column is cut back into lines of ``rounds`` by ``zip``: no loop in
    Python per participant.

    >>> _columns({1: "ab", 2: "cd"}, 2, partial(map, str.upper))
    {1: ('A', 'B'), 2: ('C', 'D')}
    """
    if rounds and set(map(len, lines.values())) == {rounds}:
        return dict(zip(lines, zip(*[read(chain.from_iterable(lines.values()))] * rounds)))
    return {i: tuple(read(line)) for i, line in lines.items()}


def _blacks(slots: Iterable[Slot]) -> Iterator[bool]:
    """Whether each round was played with Black."""
    return map(is_, map(_COLOUR, slots), repeat(Colour.BLACK))


#: Codes of a paired round: a game or a forfeit.
_PAIRED = frozenset(code for code in Code if code.is_game or code.is_forfeit)


def fractions(den: int) -> Callable[[int], Fraction]:
    """``Fraction(n, den)`` for numerators ``n``, each distinct value made once and shared.

    A tie-break has few distinct values among many participants: sharing them
    saves the time and memory of a Fraction per participant.  The function is a
    dict's own look-up (a value not made yet is made by ``__missing__``), so a
    ``map`` over it runs without a call in Python per value.

    >>> half = fractions(2)
    >>> half(3), half(4), half(3) is half(3)
    (Fraction(3, 2), Fraction(2, 1), True)
    """
    return _Shared(den).__getitem__


class _Shared(dict[int, Fraction]):
    """The fractions over one denominator made so far, by numerator."""

    def __init__(self, den: int) -> None:
        super().__init__()
        self.den = den

    def __missing__(self, n: int) -> Fraction:
        value = self[n] = Fraction(n, self.den)
        return value


def player_field(t: Tournament, rounds: int | None = None) -> Field:
    """The players of ``t`` after ``rounds`` rounds (default: all played); missing rounds are zero-point byes."""
    n = _rounds(t, rounds)
    s = t.scoring
    den = _common_denominator(_values(s))
    num_of = {code: _num(s.points(code), den) for code in Code}.__getitem__
    absent = RoundResult(Code.ZPB)
    slots = {p.start_no: p.results for p in t.players}
    if set(map(len, slots.values())) - {n} or set(map(type, slots.values())) - {tuple}:
        for i, line in slots.items():  # a round more or less than the field's: cut or padded
            line = tuple(line[:n])
            slots[i] = line + (absent,) * (n - len(line))
    ratings = {p.start_no: p.rating for p in t.players}
    codes = _columns(slots, n, partial(map, _CODE))
    nums = _columns(codes, n, partial(map, num_of))
    f = Field(slots, nums, den, n, s.win, s.draw, s.loss, s.draw, t.system, ratings)
    f.__dict__["codes"] = codes  # computed on the way (a cached property, set once)
    return _checked(f, "player")


def team_field(t: Tournament, score: str, rounds: int | None = None) -> Field:
    """The teams of ``t`` seen through match points (``"MP"``) or game points (``"GP"``)."""
    if not t.is_team:
        raise TieBreakError("%(score)s: the tournament has no teams", score=score)
    if score == "GP" and t.boards < 1:
        raise TieBreakError("GP: the number of boards per match is not known")
    n = _rounds(t, rounds)
    ms = t.match_scoring
    absent = Match(Code.ZPB)
    slots = {}
    for team in t.teams:
        line = tuple(team.matches[:n])
        slots[team.number] = line + (absent,) * (n - len(line))
    ratings = {team.number: team.rating for team in t.teams}
    if score == "GP":
        boards = Fraction(t.boards)
        win, draw, loss, step = boards, boards / 2, Fraction(0), Fraction(1, 2)
        den = _common_denominator([win, draw, step, *(m.game_points for line in slots.values() for m in line)])
        nums = {i: tuple(_num(m.game_points, den) for m in line) for i, line in slots.items()}
    else:
        win, draw, loss, step = ms.win, ms.draw, ms.loss, ms.draw
        den = _common_denominator(_values(ms))
        num_of = {code: _num(ms.points(code), den) for code in Code}
        nums = {i: tuple(num_of[m.code] for m in line) for i, line in slots.items()}
    return _checked(Field(slots, nums, den, n, win, draw, loss, step, t.system, ratings), "team")


def _values(s: Scoring) -> list[Fraction]:
    return [s.points(code) for code in Code]


def _common_denominator(values: Iterable[Fraction]) -> int:
    return math.lcm(*{v.denominator for v in values})


def _num(points: Fraction, den: int) -> int:
    return points.numerator * (den // points.denominator)


def _rounds(t: Tournament, rounds: int | None) -> int:
    if rounds is None:
        return t.played_rounds
    if not 0 <= rounds <= t.rounds:
        raise TieBreakError("round %(n)s: the tournament has %(rounds)s rounds", n=rounds, rounds=t.rounds)
    return rounds


def _checked(field: Field, what: str) -> Field:
    """Every opponent must be a participant whose same round names this one back."""
    opponents = field.opponents
    nobody, rounds = (None,) * field.rounds, range(field.rounds)
    line_of = cast("Callable[[int | None, tuple[None, ...]], tuple[int | None, ...]]", opponents.get)
    for i, line in opponents.items():
        # what each round's opponent has in that round (None where there is none): i wherever line names one
        backs = tuple(map(getitem, map(line_of, line, repeat(nobody)), rounds))
        if backs.count(None) == line.count(None) and backs.count(i) + backs.count(None) == len(line):
            continue  # the usual case, checked without a loop in Python; else the loop below says what is wrong
        for r, o in enumerate(line):
            if o is None:
                continue
            back = opponents.get(o)
            if back is None and what == "team":
                raise TieBreakError("team %(i)s round %(n)s: opponent %(o)s is not in the tournament", i=i, n=r + 1, o=o)
            if back is None:
                raise TieBreakError("player %(i)s round %(n)s: opponent %(o)s is not in the tournament", i=i, n=r + 1,
                                    o=o)
            if back[r] != i and what == "team":
                raise TieBreakError("team %(i)s round %(n)s: opponent %(o)s has another opponent", i=i, n=r + 1, o=o)
            if back[r] != i:
                raise TieBreakError("player %(i)s round %(n)s: opponent %(o)s has another opponent", i=i, n=r + 1, o=o)
    return field
