"""A tournament as tie-breaks see it: who played whom, with which result, under which scoring.

Frozen dataclasses only.  Players are identified by their start number, teams
by their team number; every participant has one :class:`RoundResult` (players)
or :class:`Match` (teams) per round, unplayed rounds included.  The codes are
the result letters of FIDE's TRF, so a file maps onto the model one to one.

>>> alyx = Player(1, "Alyx", 2200, (RoundResult(Code.WIN, 2, Colour.WHITE), RoundResult(Code.HPB)))
>>> Scoring().points(alyx.results[1].code)
Fraction(1, 2)
>>> Code.FORFEIT_WIN.is_forfeit, Code.PAB.is_bye, Code.QUICK_DRAW.is_game
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from keizer.colour import Colour


class Code(str, Enum):
    """What a participant's round was, written as TRF writes it.

    For team matches WIN/DRAW/LOSS mean the match was won/drawn/lost.
    """

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    QUICK_WIN = "W"  # TRF: played but not rated (e.g. less than one move)
    QUICK_DRAW = "D"
    QUICK_LOSS = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAB = "U"  # pairing-allocated bye
    FPB = "F"  # full-point bye
    HPB = "H"  # half-point bye
    ZPB = "Z"  # zero-point bye: absent, not paired, withdrawn

    @property
    def is_game(self) -> bool:
        """Played over the board against an opponent."""
        return self in _GAMES

    @property
    def is_forfeit(self) -> bool:
        return self in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)

    @property
    def is_bye(self) -> bool:
        return self in _BYES

    @property
    def outcome(self) -> Fraction | None:
        """1, ½ or 0 for a game or forfeit (the share of the point); None for a bye."""
        return _OUTCOME.get(self)


_GAMES = frozenset({Code.WIN, Code.DRAW, Code.LOSS, Code.QUICK_WIN, Code.QUICK_DRAW, Code.QUICK_LOSS})
_BYES = frozenset({Code.PAB, Code.FPB, Code.HPB, Code.ZPB})
_OUTCOME = {
    Code.WIN: Fraction(1), Code.QUICK_WIN: Fraction(1), Code.FORFEIT_WIN: Fraction(1),
    Code.DRAW: Fraction(1, 2), Code.QUICK_DRAW: Fraction(1, 2),
    Code.LOSS: Fraction(0), Code.QUICK_LOSS: Fraction(0), Code.FORFEIT_LOSS: Fraction(0),
}


class System(str, Enum):
    """How pairings are made; pre-determined pairings change how forfeits count (C.07 15.2)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    KNOCKOUT = "knock-out"

    @property
    def predetermined(self) -> bool:
        return self is not System.SWISS


@dataclass(frozen=True)
class Scoring:
    """Points for each kind of round (TRF26 record 162, JaVaFo ``XXS``).

    The default is 1-½-0 with a pairing-allocated bye worth a win.

    >>> Scoring.matches().points(Code.WIN), Scoring.matches().points(Code.PAB)
    (Fraction(2, 1), Fraction(1, 1))
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    pab: Fraction = Fraction(1)
    fpb: Fraction = Fraction(1)
    hpb: Fraction = Fraction(1, 2)
    zpb: Fraction = Fraction(0)

    @classmethod
    def matches(cls) -> "Scoring":
        """Team match points 2-1-0; a team bye is worth a drawn match (C.04.6 default)."""
        return cls(Fraction(2), Fraction(1), Fraction(0), Fraction(2), Fraction(0),
                   Fraction(1), Fraction(2), Fraction(1), Fraction(0))

    def points(self, code: Code) -> Fraction:
        return {
            Code.WIN: self.win, Code.QUICK_WIN: self.win,
            Code.DRAW: self.draw, Code.QUICK_DRAW: self.draw,
            Code.LOSS: self.loss, Code.QUICK_LOSS: self.loss,
            Code.FORFEIT_WIN: self.forfeit_win, Code.FORFEIT_LOSS: self.forfeit_loss,
            Code.PAB: self.pab, Code.FPB: self.fpb, Code.HPB: self.hpb, Code.ZPB: self.zpb,
        }[code]


@dataclass(frozen=True)
class RoundResult:
    """One round of one player: the code, the (scheduled) opponent's start number, the colour."""

    code: Code
    opponent: int | None = None
    colour: Colour | None = None


@dataclass(frozen=True)
class Player:
    """A player.  ``points`` and ``rank`` are what a file declared (None: not given)."""

    start_no: int
    name: str = ""
    rating: int | None = None
    results: tuple[RoundResult, ...] = ()
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: Fraction | None = None
    rank: int | None = None


@dataclass(frozen=True)
class Match:
    """One round of one team.

    ``game_points`` is what the team was awarded (board points, or the
    provision for an unplayed match); ``boards`` the points per board from
    board 1 down, and ``lineup`` the start numbers on those boards (0: empty)
    when known.
    """

    code: Code
    opponent: int | None = None
    colour: Colour | None = None
    game_points: Fraction = Fraction(0)
    boards: tuple[Fraction, ...] = ()
    lineup: tuple[int, ...] = ()


@dataclass(frozen=True)
class Team:
    """A team: its members' start numbers in board order and one :class:`Match` per round.

    ``points``, ``game_points`` and ``rank`` are what a file declared.
    """

    number: int
    name: str = ""
    members: tuple[int, ...] = ()
    matches: tuple[Match, ...] = ()
    nickname: str = ""
    rating: int | None = None
    points: Fraction | None = None
    game_points: Fraction | None = None
    rank: int | None = None


@dataclass(frozen=True)
class Tournament:
    """An individual tournament, or a team tournament when ``teams`` is not empty.

    ``match_scoring`` gives the match points of team rounds, ``boards`` the
    number of boards per match.  ``tiebreaks`` is the declared list (TRF26
    record 202); ``dates`` the rounds' dates (ISO, record 132); ``info`` holds
    the other lines of a TRF file verbatim, so an export writes them back.
    """

    players: tuple[Player, ...] = ()
    rounds: int = 0
    system: System = System.SWISS
    scoring: Scoring = Scoring()
    teams: tuple[Team, ...] = ()
    match_scoring: Scoring = field(default_factory=Scoring.matches)
    boards: int = 0
    name: str = ""
    tiebreaks: tuple[str, ...] = ()
    info: tuple[str, ...] = ()
    dates: tuple[str | None, ...] = ()

    @property
    def is_team(self) -> bool:
        return bool(self.teams)

    @property
    def played_rounds(self) -> int:
        """The last round with any result other than a zero-point bye (a file may announce more)."""
        lines = [team.matches for team in self.teams] if self.is_team else [p.results for p in self.players]
        last, zpb = 0, Code.ZPB
        for line in lines:
            for n in range(len(line), last, -1):  # from the end, down to the last round found so far
                x = line[n - 1]
                if x.code is not zpb or x.opponent is not None:
                    last = n
                    break
        return last

    def player(self, start_no: int) -> Player:
        for p in self.players:
            if p.start_no == start_no:
                return p
        raise KeyError(start_no)
