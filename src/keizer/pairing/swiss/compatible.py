"""What the Dubov and Burstein systems share: who may meet whom (no rematch or forbidden pair,
C1; no two players of one absolute colour preference, C3), whether a group can be paired whole
under them, and the colour rule of equal preferences (alternate from the last round in which
the two players' colours differed)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, TypeVar

from keizer.pairing.matching import maximum_matching
from keizer.pairing.swiss.dutch import BLACK, NoPairing

#: A colour preference's strength, as :func:`preference` functions of both systems give it.
ABSOLUTE = 3


class Numbered(Protocol):
    @property
    def number(self) -> int: ...

    @property
    def eligible(self) -> bool: ...  # may receive the pairing-allocated bye (C2)


N = TypeVar("N", bound="Numbered")


class Compatible:
    """``avoid[n]``: whom n may not meet; ``pref[n]``: n's (colour, strength)."""

    def __init__(self, avoid: Mapping[int, Iterable[int]], pref: Mapping[int, tuple[int, int]]):
        self.avoid = {n: set(v) for n, v in avoid.items()}
        self.pref = dict(pref)

    def legal(self, a: Numbered, b: Numbered) -> bool:
        if b.number in self.avoid.get(a.number, ()) or a.number in self.avoid.get(b.number, ()):
            return False
        (ca, sa), (cb, sb) = self.pref[a.number], self.pref[b.number]
        return not (sa == ABSOLUTE and sb == ABSOLUTE and ca == cb)

    def complete(self, group: Sequence[Numbered]) -> bool:
        """Whether ``group`` can be paired whole without breaking C1 or C3."""
        mate = maximum_matching(len(group), lambda i, j: self.legal(group[i], group[j]))
        return all(m != -1 for m in mate)

    def bye(self, players: Sequence[N], order: Callable[[N], Any]) -> N | None:
        """The pairing-allocated bye of an odd field: the first bye-eligible player by ``order``
        whose bye leaves the rest pairable whole (None for an even field).  Refused
        (:class:`NoPairing`) when no choice of bye, or an even field, can be paired."""
        if len(players) % 2:
            for e in sorted((e for e in players if e.eligible), key=order):
                if self.complete([p for p in players if p is not e]):
                    return e
            raise NoPairing(())
        if not self.complete(players):
            raise NoPairing(())
        return None


def white_by_history(higher: Sequence[int], lower: Sequence[int], otherwise: bool) -> bool:
    """Whether the higher-ranked player gets White when the preferences are equal: the one who had
    Black in the last round where their colours differed (``higher``, ``lower``: the colours of
    the games played, oldest first); ``otherwise`` where they never differed."""
    differ = [(x, y) for x, y in zip(reversed(higher), reversed(lower)) if x != y]
    return differ[0][0] == BLACK if differ else otherwise
