"""Reading a competition's rounds again only where they changed (issue 25).

Every write to a round's games or attendance, and the making or removal of a round, gives
the round a new random stamp in ``round_stamps`` (triggers of schema 13, in the same
transaction as the write, whoever writes: keizer's CLI, the app, another program).  A
stamp is never given twice, so a round read with a stamp is that round for as long as the
file holds the stamp — after a rollback or an undo too, which bring back either the old
stamp with the old rows (a rollback) or a new stamp (an undo replays its writes, and the
triggers fire).  The rounds read are kept in the process by file and competition
(:data:`_KEPT`): a new connection (the app opens one per request) reads the stamps, the
players and the rounds' dates, and the games and attendance only of the rounds whose stamp
it has not seen.  What a round is made of besides its rows — its date and time control,
the players' ids, keys and start numbers — is part of what is compared.

>>> kept = RoundsKept(("sig",), {1: ((b"a", None, None), "round 1")})
>>> kept.reuse(("sig",), {1: (b"a", None, None), 2: (b"b", None, None)})
({1: 'round 1'}, [2])
>>> kept.reuse(("other players",), {1: (b"a", None, None)})
({}, [1])
"""

from __future__ import annotations

from dataclasses import dataclass
from threading import Lock
from typing import Any, Hashable

#: What a round is read from besides its games and attendance: its stamp, date and time control.
RoundKey = tuple[bytes | None, str | None, str | None]


@dataclass(frozen=True)
class RoundsKept:
    """The rounds of one competition as last read: ``players`` (the ids, keys and start numbers
    they were read with) and, by number, each round's key and what was made of it."""

    players: Hashable
    rounds: dict[int, tuple[RoundKey, Any]]

    def reuse(self, players: Hashable, wanted: dict[int, RoundKey]) -> tuple[dict[int, Any], list[int]]:
        """The rounds of ``wanted`` (number → key) kept as they are, and the numbers to read."""
        if players != self.players:
            return {}, list(wanted)
        same: dict[int, Any] = {}
        read: list[int] = []
        for number, key in wanted.items():
            held = self.rounds.get(number)
            if held is not None and held[0] == key:
                same[number] = held[1]
            else:
                read.append(number)
        return same, read


#: The rounds read last, by (file, competition id): the 64 competitions read last.
_KEPT: dict[tuple[object, int], RoundsKept] = {}
_LOCK = Lock()
_MOST = 64


def kept(where: tuple[object, int]) -> RoundsKept | None:
    with _LOCK:
        return _KEPT.get(where)


def keep(where: tuple[object, int], rounds: RoundsKept) -> None:
    with _LOCK:
        _KEPT.pop(where, None)
        _KEPT[where] = rounds
        while len(_KEPT) > _MOST:
            del _KEPT[next(iter(_KEPT))]


def forget() -> None:
    """Drop every round kept (a test that wants to read from scratch)."""
    with _LOCK:
        _KEPT.clear()


def held_for(file: object) -> dict[int, RoundsKept]:
    """The rounds kept of ``file`` (a database's path), by competition, for another process of
    the same keizer to take (:func:`take`): those with a stamp only."""
    with _LOCK:
        return {comp: RoundsKept(rounds.players, {n: held for n, held in rounds.rounds.items()
                                                  if held[0][0] is not None})
                for (path, comp), rounds in _KEPT.items() if path == file}


def take(file: object, comp: int, rounds: RoundsKept) -> bool:
    """Hold ``rounds`` as the rounds read of ``file``'s competition ``comp`` (another process
    read them, :func:`held_for`), unless this process holds some already (True: taken).  A
    round is taken over only while the file holds its stamp, as a round this process read."""
    with _LOCK:
        if (file, comp) in _KEPT:
            return False
    keep((file, comp), RoundsKept(rounds.players, {n: held for n, held in rounds.rounds.items()
                                                   if held[0][0] is not None}))
    return True
