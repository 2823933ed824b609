"""The shortcuts of issue 25's speed-up give what the plain computations they replaced gave.

Each reference below is the algorithm as it was before (kept here, out of src/): the cut of a
Buchholz with voluntary unplayed rounds one round at a time, the perfect performance bisected
over the whole range of ratings, and a TRF file read round by round by the full checks, without
sharing a round's result between the lines that hold it.
"""

from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence
from unittest.mock import patch

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import examples
from keizer.colour import Colour
from keizer.formats import trf
from keizer.formats.trf import _Reader, dump, parse
from keizer.tiebreaks import Code, Edition, Player, RoundResult, TieBreakError, Tournament, compute, rank
from keizer.tiebreaks.fide_tables import expected
from keizer.tiebreaks.fields import player_field
from keizer.tiebreaks.individual import perfect_performance
from keizer.tiebreaks.unplayed import cut_sum
from test_tiebreaks import tournaments


def cut_one_at_a_time(values: Sequence[int], voluntary: Sequence[bool], low: int, high: int,
                      voluntary_first: bool, keys: Sequence[int] | None = None) -> int:
    """C.07 art. 14 and 16.5 as written: each low cut takes the least significant round, or the
    smallest voluntary unplayed one unless that adds less; then each high cut the most significant."""
    significance = values.__getitem__ if keys is None else (lambda k: (keys[k], values[k]))
    left = list(range(len(values)))
    for _ in range(low):
        if not left:
            break
        least = min(left, key=significance)
        vurs = [k for k in left if voluntary[k]] if voluntary_first else []
        if vurs:
            smallest = min(vurs, key=values.__getitem__)
            if values[smallest] >= values[least]:
                least = smallest
        left.remove(least)
    for _ in range(high):
        if not left:
            break
        left.remove(max(left, key=significance))
    return sum(values[k] for k in left)


@st.composite
def cut_cases(draw: st.DrawFn, shortcut: bool = False) -> tuple[list[int], list[bool], int, int, bool,
                                                                 list[int] | None]:
    """Values to cut; with ``shortcut`` only the cases the shortcuts take: voluntary rounds cut
    first, one of them at least, and a Buchholz's cuts or Sonneborn-Berger's /C1."""
    n = draw(st.integers(1 if shortcut else 0, 12))
    values = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    voluntary = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    keys = draw(st.none() | st.lists(st.integers(0, 10), min_size=n, max_size=n))
    low, high, first = draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.booleans())
    if shortcut:
        voluntary[draw(st.integers(0, n - 1))] = True
        first = True
        if keys is not None:
            low, high = 1, 0
    return values, voluntary, low, high, first, keys


@hsettings(max_examples=examples(400), deadline=None)
@given(cut_cases() | cut_cases(shortcut=True))
def test_cut_sum_is_the_cut_one_round_at_a_time(case):
    values, voluntary, low, high, voluntary_first, keys = case
    assert cut_sum(values, voluntary, low, high, voluntary_first, keys) == \
        cut_one_at_a_time(values, voluntary, low, high, voluntary_first, keys)


def ptp_over_the_whole_range(ratings: Sequence[int], halves: int) -> int:
    """PTP as bisected before: the first rating from lowest - 800 to highest + 800 whose
    expected score reaches the score (highest + 800 when none does)."""
    needed = halves * 50
    lo, hi = min(ratings) - 800, max(ratings) + 800
    while lo < hi:
        mid = (lo + hi) // 2
        if sum(expected(mid - r) for r in ratings) >= needed:
            hi = mid
        else:
            lo = mid + 1
    return lo


@hsettings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.integers(1000, 2900), st.sampled_from([Code.WIN, Code.DRAW, Code.LOSS])),
                min_size=1, max_size=11),
       st.integers(0, 2) | st.integers(1000, 2900))
def test_perfect_performance_is_the_bisection_over_every_rating(games, spread):
    """One player meets opponents of any ratings (one game each, in rounds of their own)."""
    back = {Code.WIN: Code.LOSS, Code.DRAW: Code.DRAW, Code.LOSS: Code.WIN}
    rounds = len(games)
    players = [Player(1, rating=1500, results=tuple(RoundResult(code, k + 2, Colour.WHITE)
                                                    for k, (_, code) in enumerate(games)))]
    for k, (rating, code) in enumerate(games):
        line = [RoundResult(Code.ZPB)] * rounds
        line[k] = RoundResult(back[code], 1, Colour.BLACK)
        players.append(Player(k + 2, rating=max(1000, rating - spread * k % 1900), results=tuple(line)))
    t = Tournament(tuple(players), rounds)
    ratings = [p.rating or 0 for p in players[1:]]
    halves = sum({Code.WIN: 2, Code.DRAW: 1, Code.LOSS: 0}[code] for _, code in games)
    assert perfect_performance(player_field(t), Edition.FIDE_2026)[1] == ptp_over_the_whole_range(ratings, halves)


class _Forgetful(dict[str, RoundResult]):
    """A memory of rounds read that never remembers: every round is read from its columns."""

    def get(self, key, default=None):  # type: ignore[override]
        return default


@hsettings(max_examples=examples(150), deadline=None)
@given(tournaments(max_players=16, max_rounds=9), st.booleans())
def test_a_round_read_once_per_file_reads_as_every_round_read_anew(t, every_round):
    """The reader shares one result among the lines whose round has the same eight columns, and
    reads the usual colours and results from a table; reading every round from its columns by
    the full checks (nothing shared, no table) gives the same tournament."""
    text = dump(t, every_round=every_round)
    lines = text.lstrip("\ufeff").splitlines()
    shared = parse(text)
    with patch.dict(trf._KINDS, clear=True):
        assert shared == _Reader(lines, seen=_Forgetful()).tournament()
    assert [p.results[:t.rounds] for p in shared.players] == [p.results for p in t.players]


def test_the_collector_runs_again_after_a_ranking():
    """rank and compute pause Python's cyclic collector while they run (threads share one
    pause) and leave it as they found it, after a refusal too."""
    t = Tournament((Player(1, results=(RoundResult(Code.WIN, 2, Colour.WHITE),)),
                    Player(2, results=(RoundResult(Code.LOSS, 1, Colour.BLACK),))), 1)
    assert gc.isenabled()
    assert [s.id for s in rank(t, "BH,SB")] == [1, 2] and gc.isenabled()
    with pytest.raises(TieBreakError):
        compute(t, "XYZ")
    assert gc.isenabled()
    with ThreadPoolExecutor(4) as pool:
        assert all(r[0].id == 1 for r in pool.map(lambda _: rank(t, "BH,SB,PS"), range(40)))
    assert gc.isenabled()
    gc.disable()
    try:
        rank(t, "BH")
        assert not gc.isenabled()  # switched off before: left off
    finally:
        gc.enable()
