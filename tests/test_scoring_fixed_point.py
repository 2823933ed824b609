"""The fast fixed point (``keizer.scoring``: scores packed into one integer, a pass changing
them by the players who moved) is the plain one (``fixed_point_reference.py``: every score
summed again each pass), standing for standing — ranks, exact scores, values, pricing,
passes and cycles — on random seasons under every setting that touches the iteration."""

from __future__ import annotations

import random
from dataclasses import fields, replace

from hypothesis import given, settings as hsettings, strategies as st

from conftest import examples, season
from fixed_point_reference import ReferenceChain, reference_standings
from keizer.earned import Item, compute_items
from keizer.packed import pack, slot_width, unpack, widen
from keizer.scoring import StandingEntry, _Chain, compute_standings
from keizer.settings import Settings
from test_scoring import random_season

EXTRAS = [{}, {"own_value": "start"}, {"own_value": "none"}, {"top": 2, "own_value": "none"}, {"top": 3},
          {"max_iterations": 1}, {"max_iterations": 3}, {"ladder": "range"}, {"tiebreaks": "wins,rating"},
          {"tiebreaks": "DE,SB,rating"}, {"withdrawn_opponent": "1/2"}, {"loss": "1/6", "absence_decay": True},
          # factors over large denominators: slots wider than a machine integer
          {"draw": "499/997", "excused": "1/991", "club": "3/983", "bye": "7/977", "unexcused": "1/971", "ladder": "range"}]


@hsettings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 24), rounds=st.integers(1, 6),
       preset=st.sampled_from(["classic", "keizerforclubs", "knsb-sixths", "sharly"]),
       extra=st.sampled_from(EXTRAS), withdrawn=st.booleans())
def test_the_fast_fixed_point_is_the_plain_one(seed, n, rounds, preset, extra, withdrawn):
    rng = random.Random(seed)
    s = random_season(rng, n, rounds)
    s = replace(s, settings=Settings.from_preset(preset, {"rematch_gap": 0, "recalculation": "fixed-point", **extra}))
    if withdrawn:
        players = list(s.players)
        k = rng.randrange(n)
        players[k] = replace(players[k], withdrawn_after=rng.randrange(rounds + 1))
        s = replace(s, players=tuple(players))
    assert compute_standings(s) == reference_standings(s)


def test_a_cycle_and_a_cap_are_the_plain_ones():
    draw = season(n=2, rounds=[{"games": [("p1", "p2", "½-½")]}],
                  settings={"top": 2, "own_value": "none", "recalculation": "fixed-point"})
    fast, plain = compute_standings(draw), reference_standings(draw)
    assert fast == plain and fast[1].cycle == 2
    capped = replace(draw, settings=replace(draw.settings, max_iterations=1))
    fast, plain = compute_standings(capped), reference_standings(capped)
    assert fast == plain and fast[1].iterations == 1


def test_a_kept_chain_whose_slots_changed_width_packs_its_columns_again():
    rng = random.Random(7)
    s = random_season(rng, 12, 5, recalculation="fixed-point")
    before = _Chain(s, s.settings, frozenset(), 5)
    before.width += 8  # as if the season before had needed wider slots: its columns cannot be taken over
    rounds = list(s.rounds)
    rounds[3] = replace(rounds[3], games=tuple(replace(g, result=rng.choice(list(type(g.result))))
                                               if g.result is not None else g for g in rounds[3].games))
    edited = replace(s, rounds=tuple(rounds))
    went_on = _Chain(edited, edited.settings, frozenset(), 5, before, 4)
    assert [went_on.standing(r) for r in range(6)] == [ReferenceChain(edited, edited.settings, frozenset(), 5).standing(r)
                                                       for r in range(6)]


def test_a_standings_entries_are_those_its_constructor_makes():
    s = random_season(random.Random(3), 8, 3, recalculation="fixed-point")
    for standing in compute_standings(s):
        for e in standing.entries:
            made = StandingEntry(*(getattr(e, f.name) for f in fields(StandingEntry)))
            assert e == made and hash(e) == hash(made) and repr(e) == repr(made) and vars(e) == vars(made)


@hsettings(max_examples=examples(200), deadline=None)
@given(a=st.lists(st.integers(0, 2**70), max_size=40), seed=st.integers(0, 10**6))
def test_packed_vectors_add_as_their_slots_do(a, seed):
    rng = random.Random(seed)
    b = [rng.randrange(0, 2**70) for _ in a]
    width = slot_width(max([*a, *b], default=0) * 2)
    total = [x + y for x, y in zip(a, b)]
    assert unpack(pack(a, width) + pack(b, width), len(a), width) == total
    wider = width + 8 * rng.randint(0, 3)
    assert unpack(widen(pack(total, width), len(a), width, wider), len(a), wider) == total
    d = rng.randint(-5, 5)  # any integer combination, signs in between, as long as the slots end in range
    assert unpack(pack(total, width) + d * pack(b, width) - d * pack(b, width), len(a), width) == total


def test_the_items_a_season_earns_are_those_their_constructor_makes():
    s = random_season(random.Random(5), 9, 4, withdrawn_opponent="1/2", absence_decay=True)
    players = list(s.players)
    players[2] = replace(players[2], withdrawn_after=2)
    players[3] = replace(players[3], joined=3)
    s = replace(s, players=tuple(players))
    for its in compute_items(s, s.settings, frozenset({players[2].id}), 4).items.values():
        for it in its:
            made = Item(*(getattr(it, f.name) for f in fields(Item)))
            assert it == made and hash(it) == hash(made) and repr(it) == repr(made) and vars(it) == vars(made)
