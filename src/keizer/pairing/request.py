"""The question and the answer of a Keizer pairing (:mod:`keizer.pairing.keizer`): the
request, the boards with their reasons, and the refusal of a request that cannot be
paired as asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from keizer.model import Game
from keizer.refusals import Message, Refusal, Word
from keizer.settings import Settings


@dataclass(frozen=True)
class PairingRequest:
    """Everything the pairing of one round depends on.

    ``ranking`` lists the players present, best first (the current Keizer
    standing); ``history`` holds the games of earlier rounds; ``byes`` counts
    the pairing-allocated byes so far.  ``fixed`` pairs are (white, black) and
    kept as given; ``forbidden`` pairs are unordered; ``bye`` overrides the
    bye policy.  ``names`` only makes the sentences of the result readable.
    """

    round: int
    ranking: tuple[str, ...]
    history: tuple[Game, ...] = ()
    byes: Mapping[str, int] = field(default_factory=dict)
    settings: Settings = Settings()
    categories: Mapping[str, str] = field(default_factory=dict)
    category_order: tuple[str, ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()
    forbidden: tuple[tuple[str, str], ...] = ()
    bye: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # for reasons and `bent` (missing: the id)
    # Each player's rank in the standing, as the pairing list shows it, for the reasons (missing:
    # the place among the players present, which is what the pairing itself goes by).
    places: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Board:
    """A board and why this opponent and why these colours: ``reason`` in English (``keizer
    pair --explain``), ``why`` the same as a message the app words in the club's language."""

    board: int
    white: str
    black: str
    reason: str
    why: Message | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Pairing:
    """A paired round: boards in order of their best-ranked player, the bye and why, and
    one message per rule that had to be bent (empty when the pairing is clean)."""

    round: int
    boards: tuple[Board, ...]
    bye: str | None
    bye_why: Message | None
    bent_why: tuple[Message, ...]

    @property
    def bye_reason(self) -> str | None:
        """Why this bye, in English."""
        return None if self.bye_why is None else str(self.bye_why)

    @property
    def bent(self) -> tuple[str, ...]:
        """The rules bent, in English."""
        return tuple(map(str, self.bent_why))


class PairingError(Refusal, ValueError):
    """The request cannot be paired as asked (too few players, unknown ids …)."""


def check(req: PairingRequest) -> None:
    present = set(req.ranking)

    def n(p: str) -> str:  # a player as people know them
        return req.names.get(p, p)

    if len(req.ranking) < 2:
        raise PairingError("fewer than two players present: %(players)s",
                           players=", ".join(map(n, req.ranking)) or Word("none"))
    if len(present) != len(req.ranking):
        twice = sorted({p for p in req.ranking if req.ranking.count(p) > 1})
        raise PairingError("player(s) twice in the ranking: %(players)s", players=", ".join(map(n, twice)))
    seen: set[str] = set()
    for white, black in req.fixed:
        if white == black:
            raise PairingError("fixed pair %(white)s–%(black)s: a player cannot play themselves",
                               white=n(white), black=n(black))
        for p in (white, black):
            if p not in present:
                raise PairingError("fixed pair %(white)s–%(black)s: %(player)s is not present",
                                   white=n(white), black=n(black), player=n(p))
            if p in seen:
                raise PairingError("%(player)s is in more than one fixed pair", player=n(p))
            seen.add(p)
    for a, b in req.forbidden:
        for p in (a, b):
            if p not in present:
                raise PairingError("forbidden pair %(a)s–%(b)s: %(player)s is not present",
                                   a=n(a), b=n(b), player=n(p))
    if req.bye is not None:
        if req.bye not in present:
            raise PairingError("bye: %(player)s is not present", player=n(req.bye))
        if req.bye in seen:
            raise PairingError("bye: %(player)s is in a fixed pair", player=n(req.bye))
        if len(req.ranking) % 2 == 0:
            raise PairingError("bye: %(player)s chosen by hand, but an even number (%(n)s) is present",
                               player=n(req.bye), n=len(req.ranking))
    for g in req.history:
        if g.round >= req.round:
            raise PairingError("history holds a game of round %(game)s, not before round %(round)s",
                               game=g.round, round=req.round)
    if req.settings.category_pairing == "adjacent":
        for p in req.ranking:
            cat = req.categories.get(p)
            if cat is not None and cat not in req.category_order:
                raise PairingError("category %(category)s of %(player)s is not in category_order %(order)s",
                                   category=repr(cat), player=n(p), order=req.category_order)
