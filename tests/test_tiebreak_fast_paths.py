"""The shortcuts of issue 25's speed-up give what the plain computations they replaced gave.

Each reference below is the algorithm as it was before (kept here, out of src/): the cut of a
Buchholz with voluntary unplayed rounds one round at a time, the perfect performance bisected
over the whole range of ratings, and a TRF file read round by round by the full checks, without
sharing a round's result between the lines that hold it; then (the second pass of issue 25) a
field's columns read line by line, the categories of unplayed rounds read round by round, the
Buchholz and Sonneborn-Berger cuts by :func:`cut_sum` for each participant, Fore Buchholz's
rounds drawn one by one, and the ranking's split of a tied group sorted as tuples.
"""

from __future__ import annotations

import gc
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from fractions import Fraction
from typing import Mapping, Sequence
from unittest.mock import patch

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import examples
from keizer.colour import Colour
from keizer.formats import trf
from keizer.formats.trf import _Reader, dump, parse
from keizer.tiebreaks import Code, Edition, Player, RoundResult, TieBreakError, Tournament, compute, rank
from keizer.tiebreaks.fide_tables import expected
from keizer.tiebreaks.fields import _columns, player_field
from keizer.tiebreaks.individual import buchholz, perfect_performance, sonneborn_berger
from keizer.tiebreaks.ranking import _split
from keizer.tiebreaks.unplayed import Unplayed, categories, cut_sum, game_flags, Purpose
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


def categories_round_by_round(codes: Sequence[Code], counted: Sequence[bool]) -> tuple[int, ...]:
    """C.07 16.2's categories as computed before: every round from the last, games included."""
    kinds = {Code.PAB: 1, Code.FPB: 1, Code.FORFEIT_WIN: 2, Code.FORFEIT_LOSS: 4}
    cats = [0] * len(codes)
    only_voluntary_after = True
    for r in range(len(codes) - 1, -1, -1):
        if counted[r]:
            only_voluntary_after = False
            continue
        c = kinds.get(codes[r]) or (5 if only_voluntary_after else 3)
        cats[r] = c
        if c < 3:
            only_voluntary_after = False
    return tuple(cats)


@hsettings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(Code)), st.booleans()), max_size=12))
def test_categories_over_the_unplayed_rounds_are_those_round_by_round(line):
    codes, counted = [c for c, _ in line], [k for _, k in line]
    assert categories(codes, counted) == categories_round_by_round(codes, counted)


def split_as_tuples(group: Sequence[int], values: Mapping[int, Fraction | int | None],
                    lower_is_better: bool) -> list[list[int]]:
    """The ranking's split of a tied group as computed before: sorted by (no value, key, start number)."""
    known = [v for v in (values.get(i) for i in group) if v is not None]
    d = math.lcm(*{v.denominator for v in known})
    sign = 1 if lower_is_better else -1
    keys = {i: None if v is None else sign * v.numerator * (d // v.denominator)
            for i, v in ((i, values.get(i)) for i in group)}
    parts: list[list[int]] = []
    previous: object = object()
    for i in sorted(group, key=lambda i: (1, 0, i) if keys[i] is None else (0, keys[i], i)):
        if parts and keys[i] == previous:
            parts[-1].append(i)
        else:
            parts.append([i])
        previous = keys[i]
    return parts


VALUE = st.none() | st.integers(-3, 6) | st.fractions(-3, 6, max_denominator=4)


@hsettings(max_examples=examples(400), deadline=None)
@given(st.lists(st.integers(1, 40), unique=True, min_size=1, max_size=12).flatmap(
    lambda ids: st.tuples(st.permutations(ids), st.lists(VALUE, min_size=len(ids), max_size=len(ids)))),
    st.booleans(), st.booleans())
def test_the_split_of_a_tied_group_is_the_sort_as_tuples(case, lower_is_better, fractions_only):
    group, values = case
    found = dict(zip(sorted(group), values))
    if fractions_only:  # every value a Fraction (their fields read directly), or ints and Fractions mixed
        found = {i: None if v is None else Fraction(v) for i, v in found.items()}
    assert _split(list(group), found, lower_is_better) == split_as_tuples(group, found, lower_is_better)


@st.composite
def faced_rounds(draw: st.DrawFn) -> Unplayed:
    """Participants facing scores (numerators over 2) with points and voluntary rounds, of any lengths."""
    lines = draw(st.lists(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 2), st.booleans()), max_size=9),
                          min_size=1, max_size=8))
    return Unplayed(2, {}, {i: tuple(s for s, _, _ in line) for i, line in enumerate(lines)},
                    {i: tuple(p for _, p, _ in line) for i, line in enumerate(lines)},
                    {i: tuple(v for _, _, v in line) for i, line in enumerate(lines)})


@hsettings(max_examples=examples(300), deadline=None)
@given(faced_rounds(), st.integers(0, 3), st.integers(0, 2), st.booleans())
def test_buchholz_and_sonneborn_berger_cuts_are_cut_sum_for_each(u, low, high, first):
    """The shared sorted lines (a slice for each cut) and products give what cutting each
    participant's rounds by :func:`cut_sum` gave."""
    bh = {i: Fraction(cut_sum(line, u.voluntary[i], low, high, first), 2) for i, line in u.scores.items()}
    sb = {i: Fraction(cut_sum([s * p for s, p in zip(line, u.points[i])], u.voluntary[i], low, high, first, line), 4)
          for i, line in u.scores.items()}
    assert buchholz(u, low, high, first) == bh
    assert sonneborn_berger(u, low, high, first) == sb


@hsettings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text("abc", max_size=5), max_size=6), st.integers(0, 5))
def test_columns_read_in_one_pass_are_those_read_line_by_line(lines, rounds):
    data = dict(enumerate(lines))
    assert _columns(data, rounds, lambda xs: map(str.upper, xs)) == {i: tuple(x.upper()) for i, x in data.items()}


@hsettings(max_examples=examples(150), deadline=None)
@given(tournaments(max_players=12, max_rounds=7))
def test_a_fields_columns_and_fore_buchholz_rounds_are_those_of_each_round(t):
    """The columns a field reads at once, and the rounds of Fore Buchholz's field (drawn when read),
    against each round read on its own and the last round drawn as before."""
    f = player_field(t)
    assert f.codes == {i: tuple(s.code for s in line) for i, line in f.slots.items()}
    assert f.opponents == {i: tuple(s.opponent for s in line) for i, line in f.slots.items()}
    assert f.blacks == {i: tuple(s.colour is Colour.BLACK for s in line) for i, line in f.slots.items()}
    game_flags(f, Edition.FIDE_2026, Purpose.OPPONENTS)
    fore, last = f.foreseen(), f.rounds - 1
    drawn = {i: line[:last] + (replace(line[last], code=Code.DRAW),)
             if line and line[last].opponent is not None and (line[last].code.is_game or line[last].code.is_forfeit)
             else line
             for i, line in f.slots.items()}
    assert dict(fore.slots) == drawn
    assert fore.codes == {i: tuple(s.code for s in line) for i, line in drawn.items()}
    assert fore.nums == {i: tuple(f.num(t.scoring.points(s.code)) for s in line) for i, line in drawn.items()}
    assert game_flags(fore, Edition.FIDE_2026, Purpose.OPPONENTS) == \
        {i: tuple(s.code.is_game and s.opponent is not None for s in line) for i, line in drawn.items()}
