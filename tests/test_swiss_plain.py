"""The Dutch brackets paired without a search (every pairing of them weighs the same: round 1,
alike scoregroups) and the bye's lowest score found by one augmenting path per candidate:
the same pairings as the full search, on hand-worked rounds and random fields."""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import examples
from keizer.pairing.matching import augment, first_exposable, maximum_matching
from keizer.pairing.swiss.dutch import DOWN, UP, Entrant, NoPairing, pair

from test_swiss import played_inputs


def field(n: int, **kind: object) -> list[Entrant]:
    """n players alike (round 1 unless told), numbered and ranked 1..n."""
    base = dict(score=0, colours=(), float1=None, float2=None, played=0, eligible=True)
    base.update(kind)
    return [Entrant(number=k + 1, rank=k, **base) for k in range(n)]  # type: ignore[arg-type]


def both(entrants: list[Entrant], avoid: dict[int, set[int]], played: int) -> tuple[object, object]:
    """The round paired with and without the shortcut (NoPairing as a value)."""
    out = []
    for plain in (True, False):
        try:
            got = pair(list(entrants), avoid, False, played, True, plain=plain)
            out.append((set(got.pairs), got.bye))
        except NoPairing:
            out.append("no pairing")
    return out[0], out[1]


def test_round_one_is_the_upper_half_against_the_lower_and_the_last_has_the_bye():
    got = pair(field(7), {}, False, 0)
    assert sorted(tuple(sorted(p)) for p in got.pairs) == [(1, 4), (2, 5), (3, 6)]
    assert got.bye == 7
    got = pair(field(8), {}, False, 0)
    assert sorted(tuple(sorted(p)) for p in got.pairs) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert got.bye is None
    assert got.pairs == pair(field(8), {}, False, 0, plain=False).pairs


def test_a_forbidden_pair_or_a_player_without_the_bye_is_searched():
    # 1-4 forbidden: not every pairing weighs the same, the search transposes (1-5, 2-4 …)
    plain, searched = both(field(8), {1: {5}, 5: {1}}, 0)
    assert plain == searched and (1, 5) not in plain[0] and (5, 1) not in plain[0]  # type: ignore[index]
    # the last player may not have the bye: the one above him takes it
    players = field(7)
    players[6] = Entrant(7, 6, 0, (), None, None, 0, eligible=False)
    plain, searched = both(players, {}, 0)
    assert plain == searched and plain[1] == 6  # type: ignore[index]


kinds = st.tuples(st.sampled_from([0, 2]), st.sampled_from([(), (0,), (1,), (0, 1), (1, 1)]),
                  st.sampled_from([None, DOWN, UP]), st.booleans())


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 22), st.lists(kinds, min_size=1, max_size=2), st.randoms(use_true_random=False),
       st.integers(0, 6))
def test_the_shortcut_pairs_as_the_search_does(n, pool, rnd, forbid):
    """Random fields of players drawn from one or two kinds (so that whole scoregroups are
    alike), some of them without the bye, a few pairs kept apart: the same round either way."""
    entrants = []
    for k in range(n):
        score, colours, float1, eligible = pool[rnd.randrange(len(pool))]
        entrants.append(Entrant(k + 1, k, score, colours, float1, None, len(colours),
                                eligible or rnd.random() < 0.5))
    avoid: dict[int, set[int]] = {}
    for _ in range(forbid):
        a, b = rnd.sample(range(1, n + 1), 2)
        avoid.setdefault(a, set()).add(b)
        avoid.setdefault(b, set()).add(a)
    played = max(len(e.colours) for e in entrants)
    plain, searched = both(entrants, avoid, played)
    assert plain == searched


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 24), st.integers(3, 7), st.integers(0, 10_000))
def test_every_round_of_a_played_tournament_pairs_the_same_without_the_shortcut(n, rounds, seed):
    for r, inputs, got in played_inputs(n, rounds, seed):
        searched = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True, plain=False)
        assert (set(searched.pairs), searched.bye) == (set(got.pairs), got.bye), f"round {r + 1}"


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 8).map(lambda k: 2 * k + 1), st.randoms(use_true_random=False), st.integers(0, 90))
def test_the_first_exposable_vertex_is_the_first_even_one_of_the_whole_tree(n, rnd, density):
    """On random odd graphs with a near-perfect matching: the first vertex of a random order that
    some maximum matching leaves exposed, by one path per candidate (and by the whole tree
    after a few failures), is the first the whole alternating tree marks even."""
    edges = {frozenset(p) for p in combinations(range(n), 2) if rnd.randrange(100) < density}
    ok = lambda a, b: frozenset((a, b)) in edges  # noqa: E731
    mate = maximum_matching(n, ok)
    exposed = [v for v in range(n) if mate[v] == -1]
    if len(exposed) != 1:
        return
    order = rnd.sample(range(n), rnd.randrange(n + 1))
    _, even = augment(exposed[0], mate[:], range(n), ok)
    expected = next((v for v in order if even[v]), None)
    for tries in (0, 1, 4, n):
        assert first_exposable(exposed[0], mate, range(n), ok, order, tries) == expected


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 20).map(lambda k: 2 * k + 1), st.integers(2, 6), st.integers(0, 10_000))
def test_final_pairs_kept_in_their_blossoms_pair_as_before(n, rounds, seed):
    """Odd fields (one exposed vertex: the chains of blossoms of the bye's bracket), every round
    of a played tournament: final pairs lifted out of their blossoms (and held read through the
    blossoms' duals) pair as dissolving the blossoms and searching again did."""
    from keizer.pairing.matching import WeightedMatching
    for r, inputs, got in played_inputs(n, rounds, seed):
        WeightedMatching.keep_blossoms = False
        try:
            old = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True)
        finally:
            WeightedMatching.keep_blossoms = True
        assert (set(old.pairs), old.bye) == (set(got.pairs), got.bye), f"round {r + 1}"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 20).map(lambda k: 2 * k + 1), st.integers(2, 6), st.integers(0, 10_000), st.booleans())
def test_the_bye_place_pairs_as_one_exposed_player_did(n, rounds, seed, whole):
    """Odd fields, every round of a played tournament, the bracket graphs and the whole round's
    graph: the odd whole graph with a vertex for the bye's place (an edge of one weight to every
    player) pairs as the graph that left one player exposed, the older way."""
    from keizer.pairing.swiss.dutch import _Bracket
    for r, inputs, got in played_inputs(n, rounds, seed):
        _Bracket.bye_place = False
        try:
            old = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True, whole=whole)
        finally:
            _Bracket.bye_place = True
        new = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True, whole=whole)
        assert (set(old.pairs), old.bye) == (set(new.pairs), new.bye), f"round {r + 1}"
        if not whole:
            assert (set(new.pairs), new.bye) == (set(got.pairs), got.bye), f"round {r + 1}"


def test_the_bye_place_is_added_to_odd_whole_graphs_only():
    """The bye's place is one vertex more in an odd whole graph (round 1 of 7 searched, not
    paired directly), none in an even one; the pairing is the hand-worked one either way."""
    from keizer.pairing.swiss import dutch
    sizes = []
    run = dutch._Bracket.run

    def counting(self: dutch._Bracket) -> object:
        out = run(self)
        sizes.append((len(self.vs), self.m.n, self.dummy))
        return out

    dutch._Bracket.run = counting  # type: ignore[method-assign]
    try:
        got = pair(field(7), {}, False, 0, whole=True, plain=False)
        even = pair(field(8), {}, False, 0, whole=True, plain=False)
    finally:
        dutch._Bracket.run = run  # type: ignore[method-assign]
    assert sorted(tuple(sorted(p)) for p in got.pairs) == [(1, 4), (2, 5), (3, 6)] and got.bye == 7
    assert sorted(tuple(sorted(p)) for p in even.pairs) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert (7, 8, 7) in sizes and (8, 8, -1) in sizes


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 40), st.integers(2, 6), st.integers(0, 10_000), st.booleans())
def test_a_matrix_of_keys_added_byte_by_byte_is_the_same(n, rounds, seed, whole):
    """Every round of a played tournament, brackets and the whole round's graph: each graph's
    weight matrix built from keys added byte by byte in one number equals the one built key
    by key, and so does the pairing."""
    from keizer.pairing.swiss import dutch
    matrix = dutch._Bracket.matrix
    built: list[list[list[int]]] = []

    def kept(self: dutch._Bracket) -> list[list[int]]:
        rows = matrix(self)
        built.append([row[:] for row in rows])
        return rows

    dutch._Bracket.matrix = kept  # type: ignore[method-assign]
    try:
        for r, inputs, got in played_inputs(n, rounds, seed):
            built.clear()
            new = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True, whole=whole)
            by_bytes = built[:]
            built.clear()
            dutch._Bracket.byte_keys = False
            try:
                old = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, True, whole=whole)
            finally:
                dutch._Bracket.byte_keys = True
            assert by_bytes == built, f"round {r + 1}"
            assert (set(old.pairs), old.bye) == (set(new.pairs), new.bye), f"round {r + 1}"
    finally:
        dutch._Bracket.matrix = matrix  # type: ignore[method-assign]
