"""The domain as plain, immutable data: players, rounds, games and a season.

Engines (scoring, pairing) take these values and return new ones; nothing here
does I/O.  Player ids are strings: the ids of a season-JSON import, or the
store's keys for players entered through the CLI.

>>> g = Game(round=1, board=1, white="p1", black="p2", result=Result.DRAW)
>>> g.points_of("p2")
Fraction(1, 2)
>>> g.is_forfeit
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Iterator, Mapping

from keizer.colour import Colour as Colour  # the domain's colour is the board's, for all who import it here
from keizer.settings import Settings


class Result(str, Enum):
    """A game's result, written as in the season JSON."""

    WHITE_WIN = "1-0"
    BLACK_WIN = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+-"
    BLACK_FORFEIT_WIN = "-+"
    DOUBLE_FORFEIT = "--"

    @classmethod
    def parse(cls, text: str) -> "Result":
        """Read a result as people write it.

        >>> Result.parse("½-½") is Result.DRAW
        True
        >>> Result.parse("2-0")
        Traceback (most recent call last):
        ...
        ValueError: unknown result '2-0' (use 1-0, 0-1, ½-½ (or 1/2-1/2, =), +-, -+ or --)
        """
        key = text.strip().replace(" ", "").replace("–", "-")
        found = RESULT_NOTATIONS.get(key.lower())
        if found is None:
            raise ValueError(
                f"unknown result {text[:20]!r} (use 1-0, 0-1, ½-½ (or 1/2-1/2, =), +-, -+ or --)"
            )
        return found

    def symbol(self, colour: "Colour") -> str:
        """The result from one side: 1, ½, 0, + (forfeit win) or − (forfeit loss).

        >>> Result.BLACK_FORFEIT_WIN.symbol(Colour.BLACK), Result.DRAW.symbol(Colour.WHITE)
        ('+', '½')
        """
        if self is Result.DRAW:
            return "½"
        if self is Result.DOUBLE_FORFEIT:
            return "−"
        won = (self in (Result.WHITE_WIN, Result.WHITE_FORFEIT_WIN)) == (colour is Colour.WHITE)
        if self.is_forfeit:
            return "+" if won else "−"
        return "1" if won else "0"

    @property
    def is_forfeit(self) -> bool:
        return self.value in _FORFEITS


#: The forfeits' values (a set of strings: an Enum member's own hash is a Python call).
_FORFEITS = frozenset({"+-", "-+", "--"})

#: A result's notations as typed (the CLI, the app, the files keizer reads).
RESULT_NOTATIONS: dict[str, Result] = {
    "1-0": Result.WHITE_WIN,
    "0-1": Result.BLACK_WIN,
    "1/2-1/2": Result.DRAW,
    "½-½": Result.DRAW,
    "0.5-0.5": Result.DRAW,
    "0,5-0,5": Result.DRAW,
    "=": Result.DRAW,
    "+-": Result.WHITE_FORFEIT_WIN,
    "1-0f": Result.WHITE_FORFEIT_WIN,
    "+:-": Result.WHITE_FORFEIT_WIN,
    "-+": Result.BLACK_FORFEIT_WIN,
    "0-1f": Result.BLACK_FORFEIT_WIN,
    "-:+": Result.BLACK_FORFEIT_WIN,
    "--": Result.DOUBLE_FORFEIT,
    "0-0f": Result.DOUBLE_FORFEIT,
    "-:-": Result.DOUBLE_FORFEIT,
}

#: Game points of (white, black) per result; a double forfeit gives nobody anything.
_POINTS: dict[Result, tuple[Fraction, Fraction]] = {
    Result.WHITE_WIN: (Fraction(1), Fraction(0)),
    Result.BLACK_WIN: (Fraction(0), Fraction(1)),
    Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    Result.WHITE_FORFEIT_WIN: (Fraction(1), Fraction(0)),
    Result.BLACK_FORFEIT_WIN: (Fraction(0), Fraction(1)),
    Result.DOUBLE_FORFEIT: (Fraction(0), Fraction(0)),
}


class Absence(str, Enum):
    """Why a player who is in the competition has no game in a round."""

    EXCUSED = "excused"  # absent with notice
    UNEXCUSED = "unexcused"  # absent without notice
    CLUB = "club"  # club duty: arbiter, team match on club night
    BYE = "bye"  # odd number present, allocated by the pairing


class ExternalResult(str, Enum):
    """Result of a game played for the club elsewhere, scored against one's own value."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Player:
    """A player registered for one competition.

    ``joined`` is the first round the player takes part in; ``withdrawn_after``
    the last one (None: still playing).  ``start_no`` is the registration order,
    the final tie-break of every ranking.
    """

    id: str
    name: str
    rating: int | None = None
    start_no: int = 0
    joined: int = 1
    withdrawn_after: int | None = None
    category: str | None = None

    def active_in(self, round_no: int) -> bool:
        """Whether the player takes part in this round (joined and not withdrawn)."""
        if round_no < self.joined:
            return False
        return self.withdrawn_after is None or round_no <= self.withdrawn_after


@dataclass(frozen=True)
class Game:
    round: int
    board: int
    white: str
    black: str
    result: Result | None = None
    match: int | None = None  # the cup tie or team match the game belongs to
    stage: str | None = None  # knock-out: regular, rapid, blitz or armageddon

    @property
    def is_forfeit(self) -> bool:
        return self.result is not None and self.result.is_forfeit

    @property
    def played_on_board(self) -> bool:
        """A game that was actually played (it counts for colours and meetings)."""
        return self.result is not None and not self.result.is_forfeit

    def opponent_of(self, player: str) -> str:
        if player == self.white:
            return self.black
        if player == self.black:
            return self.white
        raise ValueError(f"{player} did not play in this game")

    def colour_of(self, player: str) -> Colour:
        return Colour.WHITE if player == self.white else Colour.BLACK

    def points_of(self, player: str) -> Fraction:
        if self.result is None:
            raise ValueError("game has no result yet")
        white, black = _POINTS[self.result]
        return white if player == self.white else black


@dataclass(frozen=True)
class Round:
    """Everything recorded for one round: games and why others did not play.

    ``present`` lists players marked present and not yet paired.
    """

    number: int
    date: str | None = None
    games: tuple[Game, ...] = ()
    absent: Mapping[str, Absence] = field(default_factory=dict)
    external: Mapping[str, ExternalResult] = field(default_factory=dict)
    present: tuple[str, ...] = ()
    time_control: str | None = None  # e.g. "rapid 25+10"; recorded and shown, not scored

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(p for p, why in self.absent.items() if why is Absence.BYE)

    @cached_property
    def is_complete(self) -> bool:
        """Paired, and every game has its result: the round counts in the standing.  (Worked
        out once per round: a page asks for the season's complete rounds many times.)"""
        if self.present:
            return False
        if not self.games and not self.byes:
            return False
        return all(g.result is not None for g in self.games)

    def participants(self) -> set[str]:
        """Every player this round mentions."""
        found = set(self.absent) | set(self.external) | set(self.present)
        for g in self.games:
            found.add(g.white)
            found.add(g.black)
        return found


@dataclass(frozen=True)
class Season:
    """One competition: its settings, players and rounds, in round order."""

    name: str
    settings: Settings
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    initial_order: tuple[str, ...] = ()

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def completed_rounds(self) -> int:
        """Number of the last round that counts: rounds 1…N all complete."""
        last = 0
        for rnd in self.rounds:
            if rnd.number != last + 1 or not rnd.is_complete:
                break
            last = rnd.number
        return last

    def round_in_progress(self) -> int | None:
        """The round being played: the one after the last complete round, when it is paired
        (its games made, nobody waiting to be paired) and some board still has no result."""
        number = self.completed_rounds() + 1
        if number > len(self.rounds):
            return None
        rnd = self.rounds[number - 1]
        if rnd.number != number or rnd.present or not rnd.games or rnd.is_complete:
            return None
        return number

    def board_games(self, player: str) -> Iterator[tuple[Round, Game, str]]:
        """``player``'s games played on the board (no forfeit, no bye), each with its round and
        the opponent's id, in round order: the games a rating counts."""
        for rnd in self.rounds:
            for game in rnd.games:
                if player in (game.white, game.black) and game.played_on_board:
                    yield rnd, game, game.opponent_of(player)
