"""A competition's Keizer standings kept from one state of it to the next, not recomputed.

The views ask for a standing many times over (a page, its crosstable, the histories, the venue
screen polled by a hundred screens), and a club evening changes one round at a time.  A
:class:`Kept` holds the standings of the last state of a competition it was shown; given a
new state, it finds the first round whose record differs and computes the standings from
that round on, taking over the ones before it.  The per-round model's standing after round
R depends on rounds 1…R only, and the fixed-point model iterates from the fixed point of the
round before, so the kept standing is the one computed from scratch (the property test
``tests/test_kept.py`` checks it after any sequence of edits).

Pure: the process-wide memory, by database and competition, is
:func:`keizer.operations.standings.kept`.

>>> from dataclasses import replace
>>> from keizer.model import Game, Player, Result, Round, Season
>>> from keizer.scoring import compute_standings
>>> from keizer.settings import Settings
>>> players = tuple(Player(f"p{i}", f"P{i}", 2000 - i, i) for i in range(1, 5))
>>> r1 = Round(1, games=(Game(1, 1, "p1", "p2", Result.BLACK_WIN), Game(1, 2, "p3", "p4", Result.DRAW)))
>>> r2 = Round(2, games=(Game(2, 1, "p2", "p3", Result.WHITE_WIN), Game(2, 2, "p1", "p4", Result.DRAW)))
>>> season = Season("demo", Settings.from_preset("classic", {"top": 10}), players, (r1, r2))
>>> kept = Kept()
>>> [e.player for e in kept.standing(season).entries], kept.standing(season) == compute_standings(season)[2]
(['p2', 'p4', 'p3', 'p1'], True)
>>> corrected = replace(season, rounds=(r1, replace(r2, games=(r2.games[0], replace(r2.games[1], result=Result.WHITE_WIN)))))
>>> first_change(season, corrected), kept.standing(corrected) == compute_standings(corrected)[2]
(2, True)
>>> kept.version > 0 and kept.memo == {}  # a new version: what views made of the old one is gone
True
"""

from __future__ import annotations

from itertools import count
from typing import Any, Hashable, Mapping, Sequence

from keizer.model import Season
from keizer.scoring import RoundScore, Standing, _Chain, _off_ladder, all_round_scores


def first_change(old: Season, new: Season) -> int | None:
    """The first round of ``new`` whose standing may differ from ``old``'s: the first round
    whose record differs (1 when the settings, the players or the initial order do); None
    when nothing a standing depends on differs."""
    if old.settings != new.settings or old.players != new.players or old.initial_order != new.initial_order:
        return 1
    for number, (a, b) in enumerate(zip(old.rounds, new.rounds), 1):
        if a is not b and a != b:
            return number
    if len(old.rounds) != len(new.rounds):
        return min(len(old.rounds), len(new.rounds)) + 1
    return None


#: Versions are numbered across every Kept of the process: a (competition, version) key never
#: comes back, even when a Kept is dropped and made again.
_versions = count(1)


def _top(season: Season) -> int:
    """The last round a standing may be after: the last complete one, or the one in progress."""
    return season.completed_rounds() + (season.round_in_progress() is not None)


class Kept:
    """The standings of one competition, kept: :meth:`standing` for any state of it.

    ``version`` changes with each state it is shown that differs from the one before; ``memo``
    holds what the views made of this version (a crosstable, its rows' HTML), emptied when it
    changes.  Not thread-safe by itself: the process-wide memory holds a lock around it."""

    def __init__(self) -> None:
        self.season: Season | None = None
        self.version = 0
        self.memo: dict[Hashable, Any] = {}
        #: Per set of players off the ladder: the chain, and the first round it must redo (None: none).
        self._chains: dict[frozenset[str], tuple[_Chain, int | None]] = {}

    def update(self, season: Season) -> None:
        """Make ``season`` the state kept: the chains redo from its first changed round on."""
        if season is self.season:
            return
        if self.season is not None:
            first = first_change(self.season, season)
            if first is None and self.season.name == season.name:
                self.season = season
                return
            if first is not None:  # (None: only the name differs; the standings stand)
                self._chains = {off: (chain, first if redo is None else min(redo, first))
                                for off, (chain, redo) in self._chains.items()}
        self.season = season
        self.version = next(_versions)
        self.memo = {}

    def standing(self, season: Season, upto: int | None = None, provisional: bool = False) -> Standing:
        """:func:`keizer.scoring.standing_after`, from what is kept."""
        self.update(season)
        last = season.completed_rounds() + (provisional and season.round_in_progress() is not None)
        upto = last if upto is None else upto
        if not 0 <= upto <= last:
            raise ValueError(f"round {upto} has not been played (last complete round: {season.completed_rounds()})")
        return self._chain(season, _off_ladder(season, upto)).standing(upto)

    def standings(self, season: Season, provisional: bool = False) -> tuple[Standing, ...]:
        """:func:`keizer.scoring.compute_standings` (every round's standing), from what is kept."""
        last = season.completed_rounds() + (provisional and season.round_in_progress() is not None)
        return tuple(self.standing(season, r, provisional) for r in range(last + 1))

    def round_scores(self, season: Season, standing: Standing, player: str) -> tuple[RoundScore, ...]:
        """:func:`keizer.scoring.round_scores` of a standing :meth:`standing` gave."""
        chain = self._chain(season, standing.off_ladder)
        return all_round_scores(season, standing, (player,), chain.earned.items)[player]

    def items_of(self, season: Season, standing: Standing) -> Mapping[str, Sequence[Any]] | None:
        """The rounds as items (:mod:`keizer.earned`) behind a standing :meth:`standing` gave of
        ``season``, as :func:`keizer.scoring.all_round_scores` takes them, when they are kept
        (None: not kept, nothing is computed)."""
        held = self._chains.get(standing.off_ladder)
        if season is not self.season or held is None or held[1] is not None or held[0].upto < standing.round:
            return None
        return held[0].earned.items

    def _chain(self, season: Season, off: frozenset[str]) -> _Chain:
        top = _top(season)
        chain, redo = self._chains.get(off, (None, 1))
        if chain is None or redo is not None or chain.upto != top:
            first = redo if redo is not None else chain.upto + 1 if chain is not None else 1
            chain = _Chain(season, season.settings, off, top, chain, min(first, top + 1))
            self._chains[off] = (chain, None)
        return chain

