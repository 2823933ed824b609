"""Team events: line-ups, board pairings, match and game points, team
round-robins on the Berger tables, tie-breaks of a single match, and the
Crepaux system for three teams.

Colours in a team match: the first-named team has White on the odd boards
(1, 3, …) and Black on the even ones.  This is the usual convention
(chessbio.com, "Team match": "Team A has White on odd boards and Black on even
boards"; TRF-2026 record 352 stores the board colour sequence, ``WBWB`` in its
example); the research found no FIDE text that prescribes it, so it is the
convention here, not a cited rule.  In a team round-robin the first-named team
is the one the Berger table gives White (``keizer.pairing.roundrobin``).

A single match that ends level on game points is split, when a competition
asks for it (knock-outs), by FIDE C.07 art. 12: board count BC (12.1, Σ board number × game points
on that board, lower is better), then bottom-board elimination BBE (12.3:
game points without the last board, then without the last two, …).

The Crepaux system
------------------

Three teams A, B, C of 2k boards meet in two rounds instead of three; every
player plays two games and every pair of teams still meets on 2k boards.
Each team is split into a top half (boards 1…k) and a bottom half (k+1…2k);
in a mini-match between two halves the i-th board of one half plays the i-th
board of the other.  The mini-matches, in the order of the example this
module reproduces (for k = 2)::

    round 1: A-top v B-top, B-bottom v C-top, C-bottom v A-bottom
             A1-B1, A2-B2, B3-C1, B4-C2, C3-A3, C4-A4
    round 2: A-bottom v B-bottom, C-top v B-top, C-bottom v A-top
             A3-B3, A4-B4, C1-B1, C2-B2, C3-A1, C4-A2

No written rule for the system was found and
the example's listing order cannot be its colour rule (team B would have
Black six times out of eight), so the colours are this module's choice
(``docs/crepaux.md``): the six halves form one cycle of mini-matches,

    A-top → B-top → C-top → B-bottom → A-bottom → C-bottom → A-top,

and in every mini-match the half that comes first in the cycle has White on
the odd positions of the half (its 1st, 3rd, … board), the other half on the
even ones.  Each half is first in exactly one of its two mini-matches, so
every player has one White and one Black, every team has White in exactly
half of its 4k games, and in the 2k games between any two teams each has
White k times.  (For 4 boards: A1, A3, B2, B4, C1, C4 have White in round 1.)
With k even this holds in each round too; with k odd team A has k + 1 Whites
in round 1 and k − 1 in round 2, B the reverse (for two boards this follows
from every player having one of each colour).  Any even number of boards
works this way; an odd number cannot be split into equal halves and is
refused.

>>> [str(g) for g in crepaux_schedule(["A", "B", "C"])[0].games]
['A1-B1', 'B2-A2', 'C1-B3', 'B4-C2', 'A3-C3', 'C4-A4']
>>> TeamMatchResult("A", "B", (Result.WHITE_WIN, Result.DRAW, Result.WHITE_WIN, Result.DRAW)).game_points
(Fraction(3, 1), Fraction(1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Collection, Sequence

from keizer.model import Game, Result
from keizer.pairing.outcome import How, Part
from keizer.pairing.roundrobin import berger_schedule, require_unique


@dataclass(frozen=True)
class Team:
    """A team: its players in board order (board 1 first), then reserves in
    the order they come in.

    >>> Team("SV A", ("ann", "bob", "cor", "dan"), reserves=("eva", "fem")).lineup(absent={"bob"})
    ('ann', 'cor', 'dan', 'eva')
    """

    name: str
    boards: tuple[str, ...]
    reserves: tuple[str, ...] = ()

    def lineup(self, absent: Collection[str] = ()) -> tuple[str | None, ...]:
        """Who plays a match: the players present, keeping the registered order
        (regulars, then reserves), on as many boards as the team has.  Everyone
        present moves up in that order, so missing players leave the lowest
        boards empty (None).

        >>> Team("B", ("x", "y", "z")).lineup(absent={"x", "z"})
        ('y', None, None)
        """
        size = len(self.boards)
        playing = [p for p in self.boards + self.reserves if p not in absent][:size]
        return tuple(playing) + (None,) * (size - len(playing))


@dataclass(frozen=True)
class BoardPairing:
    """One board of a team match; None is an empty board (a forfeit)."""

    board: int
    white: str | None
    black: str | None


def first_has_white(board: int) -> bool:
    """Whether the first-named team has White on this board (1, 2, …).

    >>> [first_has_white(b) for b in (1, 2, 3, 4)]
    [True, False, True, False]
    """
    return board % 2 == 1


def board_pairings(first: Sequence[str | None], second: Sequence[str | None]) -> tuple[BoardPairing, ...]:
    """The boards of a match between two line-ups (first-named team first).

    >>> board_pairings(("a1", "a2"), ("b1", None))
    (BoardPairing(board=1, white='a1', black='b1'), BoardPairing(board=2, white=None, black='a2'))
    """
    if len(first) != len(second):
        raise ValueError(f"line-ups of different length: {len(first)} and {len(second)} boards")
    return tuple(
        BoardPairing(board, a, b) if first_has_white(board) else BoardPairing(board, b, a)
        for board, (a, b) in enumerate(zip(first, second), 1)
    )


def result_points(result: Result) -> tuple[Fraction, Fraction]:
    """Game points of (White, Black); a forfeit counts as the result it gives.

    >>> result_points(Result.BLACK_FORFEIT_WIN)
    (Fraction(0, 1), Fraction(1, 1))
    """
    game = Game(round=0, board=0, white="w", black="b", result=result)
    return game.points_of("w"), game.points_of("b")


def points_text(points: Fraction) -> str:
    """Points as written on a score sheet.

    >>> points_text(Fraction(5, 2)), points_text(Fraction(1, 2)), points_text(Fraction(3))
    ('2½', '½', '3')
    """
    whole = int(points)
    if points == whole:
        return str(whole)
    if points - whole == Fraction(1, 2):
        return f"{whole or ''}½"
    return str(points)


@dataclass(frozen=True)
class MatchScoring:
    """Match points for a won, drawn and lost match (FIDE's default 2/1/0)."""

    win: int = 2
    draw: int = 1
    loss: int = 0

    def __post_init__(self) -> None:
        if not self.win >= self.draw >= self.loss:
            raise ValueError("match points must not rise from win to loss:"
                             f" {self.win}/{self.draw}/{self.loss}")


@dataclass(frozen=True)
class TeamMatchResult:
    """A played team match: the results as written on each board (White's
    result first), board 1 first, colours by the odd-board convention.

    >>> m = TeamMatchResult("A", "B", (Result.DRAW, Result.WHITE_WIN))
    >>> m.board_points[1], m.match_points(), m.match_points(MatchScoring(3, 1, 0))
    ((Fraction(0, 1), Fraction(1, 1)), (0, 2), (0, 3))
    """

    first: str
    second: str
    results: tuple[Result, ...]

    @property
    def board_points(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """Per board: (first team's points, second team's points)."""
        out = []
        for board, result in enumerate(self.results, 1):
            white, black = result_points(result)
            out.append((white, black) if first_has_white(board) else (black, white))
        return tuple(out)

    @property
    def game_points(self) -> tuple[Fraction, Fraction]:
        return (sum((a for a, _ in self.board_points), Fraction(0)),
                sum((b for _, b in self.board_points), Fraction(0)))

    def match_points(self, scoring: MatchScoring = MatchScoring()) -> tuple[int, int]:
        """Match points of (first, second): more game points wins the match."""
        a, b = self.game_points
        if a == b:
            return scoring.draw, scoring.draw
        return (scoring.win, scoring.loss) if a > b else (scoring.loss, scoring.win)


def board_count(points: Sequence[Fraction]) -> Fraction:
    """FIDE C.07 12.1: Σ board number × game points on that board; lower is better.

    >>> board_count([Fraction(1), Fraction(1, 2), Fraction(1, 2), Fraction(0)])  # TEC: Koalas
    Fraction(7, 2)
    """
    return sum((board * p for board, p in enumerate(points, 1)), Fraction(0))


def compare_boards(first: Sequence[Fraction], second: Sequence[Fraction]) -> tuple[int, How]:
    """Who wins a match of board points (board 1 first): +1 the first team, −1
    the second, 0 still level; with how.  Game points, then board count BC,
    then bottom-board elimination BBE.

    >>> one, half, nil = Fraction(1), Fraction(1, 2), Fraction(0)
    >>> compare_boards([one, half, half, nil], [nil, half, half, one])
    (1, 'board count 3½ v 6½ (lower wins)')
    >>> compare_boards([half] * 4, [half] * 4)
    (0, 'level on game points, board count and bottom-board elimination')
    """
    if len(first) != len(second):
        raise ValueError(f"board points of different length: {len(first)} and {len(second)}")
    a, b = sum(first, Fraction(0)), sum(second, Fraction(0))
    if a != b:
        return _sign(a - b), How(Part("game_points", (points_text(a), points_text(b))))
    bc_a, bc_b = board_count(first), board_count(second)
    if bc_a != bc_b:
        return _sign(bc_b - bc_a), How(Part("board_count", (points_text(bc_a), points_text(bc_b))))
    for last in range(len(first) - 1, 0, -1):
        a, b = sum(first[:last], Fraction(0)), sum(second[:last], Fraction(0))
        if a != b:
            if last == 1:
                return _sign(a - b), How(Part("elimination_first", (points_text(a), points_text(b))))
            return _sign(a - b), How(Part("elimination", (str(last), points_text(a), points_text(b))))
    return 0, How(Part("level_all"))


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


@dataclass(frozen=True)
class TeamRound:
    """A round of a team round-robin: (first-named, second-named) teams."""

    round: int
    matches: tuple[tuple[str, str], ...]
    bye: str | None


def team_round_robin(teams: Sequence[str], double: bool = False,
                     swap_last_two: bool = False) -> tuple[TeamRound, ...]:
    """A team round-robin on the Berger tables; teams in start-number order.

    The first-named team of each match is the table's White, so it has White
    on the odd boards.

    >>> [(r.matches, r.bye) for r in team_round_robin(["Ajax", "Bok", "Cas"])]
    [((('Bok', 'Cas'),), 'Ajax'), ((('Ajax', 'Bok'),), 'Cas'), ((('Cas', 'Ajax'),), 'Bok')]
    """
    require_unique(teams)
    rounds = []
    for r in berger_schedule(len(teams), double, swap_last_two):
        bye = r.bye
        rounds.append(TeamRound(r.round, tuple((teams[w - 1], teams[b - 1]) for w, b in r.pairs if b),
                                teams[bye - 1] if bye else None))
    return tuple(rounds)


# --- Crepaux --------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A team's board: ``Seat("A", 3)`` is A3."""

    team: str
    board: int

    def __str__(self) -> str:
        return f"{self.team}{self.board}"


@dataclass(frozen=True)
class SeatGame:
    white: Seat
    black: Seat

    def __str__(self) -> str:
        return f"{self.white}-{self.black}"


@dataclass(frozen=True)
class CrepauxRound:
    round: int
    games: tuple[SeatGame, ...]


# A half is (team index, 0 top / 1 bottom).  The mini-matches in the example's
# order, then the cycle that decides the colours (module docstring).
_CREPAUX_ROUNDS = (
    (((0, 0), (1, 0)), ((1, 1), (2, 0)), ((2, 1), (0, 1))),
    (((0, 1), (1, 1)), ((2, 0), (1, 0)), ((2, 1), (0, 0))),
)
_CREPAUX_CYCLE = ((0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1))


def crepaux_schedule(teams: Sequence[str], boards: int = 4) -> tuple[CrepauxRound, CrepauxRound]:
    """The two rounds of the Crepaux system for three teams of ``boards``
    boards (an even number), games in the example's order, White first.

    >>> [str(g) for g in crepaux_schedule(["A", "B", "C"])[1].games]
    ['B3-A3', 'A4-B4', 'B1-C1', 'C2-B2', 'C3-A1', 'A2-C4']
    >>> [str(g) for g in crepaux_schedule(["A", "B", "C"], boards=2)[0].games]
    ['A1-B1', 'C1-B2', 'A2-C2']
    >>> crepaux_schedule(["A", "B", "C"], boards=5)
    Traceback (most recent call last):
    ...
    ValueError: the Crepaux system needs an even number of boards (2, 4, 6, …) to split each team into equal halves, not 5
    """
    if len(teams) != 3:
        raise ValueError(f"the Crepaux system is for three teams, not {len(teams)}")
    require_unique(teams)
    if boards < 2 or boards % 2:
        raise ValueError("the Crepaux system needs an even number of boards (2, 4, 6, …)"
                         f" to split each team into equal halves, not {boards}")
    k = boards // 2
    follows = {half: _CREPAUX_CYCLE[(i + 1) % 6] for i, half in enumerate(_CREPAUX_CYCLE)}

    def seat(half: tuple[int, int], i: int) -> Seat:
        team, bottom = half
        return Seat(teams[team], bottom * k + i + 1)

    rounds = []
    for number, minis in enumerate(_CREPAUX_ROUNDS, 1):
        games = []
        for x, y in minis:
            lead, other = (x, y) if follows[x] == y else (y, x)
            for i in range(k):
                white, black = (lead, other) if i % 2 == 0 else (other, lead)  # odd positions: 1st, 3rd, …
                games.append(SeatGame(seat(white, i), seat(black, i)))
        rounds.append(CrepauxRound(number, tuple(games)))
    return rounds[0], rounds[1]


@dataclass(frozen=True)
class PlannedMatch:
    """A match of the schedule: who sits on each board, White first, in board order."""

    first: str
    second: str | None  # None: ``first`` has a bye
    games: tuple[SeatGame, ...] = ()


def plan_event(teams: Sequence[str], boards: int, schedule: str = "roundrobin", double: bool = False,
               swap_last_two: bool = False) -> tuple[tuple[PlannedMatch, ...], ...]:
    """Every round's matches, teams in start order.  A bye comes after the matches.

    >>> [[(m.first, m.second, [str(g) for g in m.games]) for m in r] for r in plan_event("ABC", 2)][0]
    [('B', 'C', ['B1-C1', 'C2-B2']), ('A', None, [])]
    >>> [(m.first, m.second, [str(g) for g in m.games]) for m in plan_event("ABC", 4, "crepaux")[0]]
    [('A', 'B', ['A1-B1', 'B2-A2']), ('C', 'B', ['C1-B3', 'B4-C2']), ('A', 'C', ['A3-C3', 'C4-A4'])]

    Raises ValueError for a schedule the engines cannot make (e.g. Crepaux with four teams).
    """
    if schedule == "crepaux":
        half = boards // 2
        rounds = []
        for rnd in crepaux_schedule(teams, boards):
            minis = [rnd.games[i:i + half] for i in range(0, len(rnd.games), half)]
            # The half that leads a mini-match has White on its first board: it is named first.
            rounds.append(tuple(PlannedMatch(m[0].white.team, m[0].black.team, tuple(m)) for m in minis))
        return tuple(rounds)
    rounds = []
    for planned in team_round_robin(teams, double, swap_last_two):
        matches = [PlannedMatch(a, b, tuple(seat_game(Seat(a, k), Seat(b, k)) for k in range(1, boards + 1)))
                   for a, b in planned.matches]
        if planned.bye is not None:
            matches.append(PlannedMatch(planned.bye, None))
        rounds.append(tuple(matches))
    return tuple(rounds)


def seat_game(first: Seat, second: Seat) -> SeatGame:
    """The game of two seats of the same board, White first."""
    return SeatGame(first, second) if first_has_white(first.board) else SeatGame(second, first)
