"""Our maximum-weight matching (keizer.pairing.matching): against brute force on small
graphs, against networkx's independent implementation on larger ones, through long
sequences of changes (the warm starts the Dutch engine relies on), exactly with big
integers, and with the optimality certificate (the duals) checked after every solve."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings, strategies as st

from keizer.pairing.matching import WeightedMatching, maximum_matching
from conftest import examples


def random_weights(n: int, density: float, bits: int, rng: random.Random) -> list[list[int]]:
    w = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                w[a][b] = w[b][a] = rng.randint(1, 2 ** bits)
    return w


def random_changes(rng: random.Random, alive: list[int], v: int, bits: int) -> dict[int, int]:
    """New weights for about half of v's edges (a fifth of them taken out)."""
    return {u: 0 if rng.random() < 0.2 else rng.randint(1, 2 ** bits)
            for u in alive if u != v and rng.random() < 0.5}


def random_shift(rng: random.Random, alive: list[int], bits: int) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """A shift's arguments: up to five vertices, some of their edges new weights, their duals raised."""
    some = rng.sample(alive, min(len(alive), 5))
    changes = {x: {u: rng.randint(1, 2 ** bits) for u in alive if u != x and rng.random() < 0.3} for x in some}
    return changes, {x: rng.randint(0, 2 ** bits) for x in some}


def reference(w: list[list[int]], alive: list[bool] | None = None) -> int:
    graph = nx.Graph()
    for a in range(len(w)):
        for b in range(a + 1, len(w)):
            if w[a][b] and (alive is None or alive[a] and alive[b]):
                graph.add_edge(a, b, weight=w[a][b])
    return sum(w[a][b] for a, b in nx.max_weight_matching(graph))


def brute_force(w: list[list[int]]) -> int:
    n = len(w)

    def best(free: tuple[int, ...]) -> int:
        if len(free) < 2:
            return 0
        v, rest = free[0], free[1:]
        out = best(rest)  # v stays exposed
        for k, u in enumerate(rest):
            if w[v][u]:
                out = max(out, w[v][u] + best(rest[:k] + rest[k + 1:]))
        return out

    return best(tuple(range(n)))


def certified(m: WeightedMatching) -> None:
    """LP duality: every slack non-negative, matched edges tight, exposed vertices at dual 0,
    blossoms with a positive dual full — then no matching weighs more."""
    n = m.n
    chains = []
    for v in range(n):
        chain, b = set(), m.parent[v]
        while b != -1:
            chain.add(b)
            b = m.parent[b]
        chains.append(chain)
    for a in range(n):
        if not m.alive[a]:
            continue
        assert m.dual[a] >= 0
        if m.mate[a] == -1:
            assert m.dual[a] == 0
        else:
            assert m.mate[m.mate[a]] == a and m.w[a][m.mate[a]]
        for b in range(a + 1, n):
            if m.alive[b] and m.w[a][b]:  # weights are kept doubled inside
                slack = m.dual[a] + m.dual[b] + sum(m.dual[x] for x in chains[a] & chains[b]) - m.w[a][b]
                assert slack >= 0 and (slack == 0 or m.mate[a] != b)
    for b in range(n, 2 * n):
        if m.children[b] is not None and m.dual[b] > 0:
            inside = [v for v in range(n) if b in chains[v]]
            assert sum(1 for v in inside if m.mate[v] != -1 and b in chains[m.mate[v]]) == len(inside) - 1


def test_a_hand_made_graph():
    # A triangle 0-1-2 with a pendant 3: the heaviest matching takes 0-1 and 2-3.
    w = [[0, 6, 5, 0], [6, 0, 5, 0], [5, 5, 0, 4], [0, 0, 4, 0]]
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    assert m.mate == [1, 0, 3, 2] and m.weight() == 10
    certified(m)


def test_an_alternating_cycle_of_tight_edges_swaps_partners():
    # A square of equal edges 0-1-3-2-0: both perfect matchings are optimal; asking 0 to take
    # its other neighbour turns one into the other.  On a path 0-1-2-3 no cycle exists, and on
    # a square with light sides the light edge is loose (in no optimal matching): both refused.
    square = WeightedMatching([[0, 5, 5, 0], [5, 0, 0, 5], [5, 0, 0, 5], [0, 5, 5, 0]])
    square.solve()
    other = 2 if square.mate[0] == 1 else 1
    changed = square.swap_cycle(0, other)
    assert changed is not None and sorted(changed) == [0, 1, 2, 3]
    assert square.mate[0] == other and square.mate[3] == 3 - other and square.weight() == 10
    certified(square)
    path = WeightedMatching([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    path.solve()
    assert path.mate == [1, 0, 3, 2] and path.swap_cycle(1, 2) is None and path.mate == [1, 0, 3, 2]
    light = WeightedMatching([[0, 5, 0, 1], [5, 0, 1, 0], [0, 1, 0, 5], [1, 0, 5, 0]])
    light.solve()
    assert light.mate == [1, 0, 3, 2] and light.swap_cycle(1, 2) is None and light.mate == [1, 0, 3, 2]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(4, 30), st.floats(0.3, 1.0), st.sampled_from([1, 2, 8]), st.integers(0, 10 ** 6))
def test_a_swapped_cycle_keeps_the_matching_optimal(n, density, bits, seed):
    """Whatever tight edge is asked for, a found cycle leaves a matching of the same weight
    that holds the edge and keeps every condition of optimality with the same duals."""
    rng = random.Random(seed)
    w = random_weights(n, density, bits, rng)
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    best = m.weight()
    for _ in range(10):
        v, u = rng.sample(range(n), 2)
        before = m.mate[:]
        changed = m.swap_cycle(v, u)
        if changed is None:
            assert m.mate == before
        else:
            assert m.mate[v] == u and m.weight() == best
            assert {x for x in range(n) if m.mate[x] != before[x]} <= set(changed)
        certified(m)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 9), st.floats(0.1, 1.0), st.sampled_from([1, 2, 4, 60]), st.integers(0, 10 ** 6))
def test_small_graphs_against_brute_force(n, density, bits, seed):
    w = random_weights(n, density, bits, random.Random(seed))
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    assert m.weight() == brute_force(w)
    certified(m)


def test_weights_beyond_floating_point_stay_exact():
    # Weights differ only in their lowest bits: a float would see one value.
    rng = random.Random(7)
    big = 1 << 600
    for _ in range(30):
        w = random_weights(8, 0.8, 3, rng)
        w = [[big + x if x else 0 for x in row] for row in w]
        m = WeightedMatching([row[:] for row in w])
        m.solve()
        assert m.weight() == brute_force(w)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(10, 45), st.floats(0.1, 1.0), st.sampled_from([1, 2, 8, 100]), st.integers(0, 10 ** 6))
def test_changes_keep_the_matching_optimal(n, density, bits, seed):
    """Cold start, then edges of one vertex changed, vertices removed, or many edges and
    duals shifted at once, each followed by a solve: always networkx's optimum."""
    rng = random.Random(seed)
    w = random_weights(n, density, bits, rng)
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    assert m.weight() == reference(w)
    certified(m)
    for _ in range(10):
        alive = [v for v in range(n) if m.alive[v]]
        if len(alive) < 2:
            break
        v = rng.choice(alive)
        op = rng.random()
        if op < 0.6:
            m.set_weights(v, random_changes(rng, alive, v, bits))
        elif op < 0.8:
            m.shift(*random_shift(rng, alive, bits))
        else:
            mate = m.mate[v]
            m.remove([v] if mate == -1 or rng.random() < 0.5 else [v, mate])
        m.solve()
        current = [[x // 2 for x in row] for row in m.w]
        assert m.weight() == reference(current, m.alive)
        certified(m)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(4, 40), st.floats(0.2, 1.0), st.sampled_from([1, 2, 8]), st.integers(0, 10 ** 6))
def test_dropped_edges_keep_the_matching_optimal(n, density, bits, seed):
    """Edges taken out a vertex at a time (its mate's among them or not, inside a blossom or
    not), each followed by a solve: always networkx's optimum on what is left."""
    rng = random.Random(seed)
    w = random_weights(n, density, bits, rng)
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    for _ in range(8):
        v = rng.randrange(n)
        m.drop(v, [u for u in range(n) if u != v and m.w[v][u] and rng.random() < 0.4])
        m.solve()
        current = [[x // 2 for x in row] for row in m.w]
        assert m.weight() == reference(current)
        certified(m)


def test_preferred_first_matching_changes_nothing_but_the_work():
    rng = random.Random(3)
    w = random_weights(30, 0.9, 2, rng)
    plain = WeightedMatching([row[:] for row in w])
    plain.solve()
    guided = WeightedMatching([row[:] for row in w], prefer=[(v, range(29, -1, -1)) for v in range(30)])
    guided.solve()
    assert guided.weight() == plain.weight() == reference(w)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 30), st.floats(0.05, 1.0), st.integers(0, 10 ** 6))
def test_maximum_matching_size(n, density, seed):
    rng = random.Random(seed)
    edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < density}
    mate = maximum_matching(n, lambda a, b: (min(a, b), max(a, b)) in edges)
    graph = nx.Graph(list(edges))
    assert sum(v != -1 for v in mate) // 2 == len(nx.max_weight_matching(graph, maxcardinality=True))


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(5, 41), st.floats(0.5, 1.0), st.sampled_from([1, 2, 3]), st.integers(0, 10 ** 6))
def test_final_pairs_leave_the_blossoms_of_a_dense_graph(n, density, bits, seed):
    """Dense graphs of few weights (an odd field's one exposed vertex grows chains of blossoms):
    matched pairs inside blossoms taken out one by one, each followed by a solve — always
    networkx's optimum on what is left, the certificate holds (before the solve too when the
    removal left no root: a pair lifted out of its blossom); and ``slacks`` is ``slack``."""
    rng = random.Random(seed)
    w = random_weights(n, density, bits, rng)
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    for _ in range(n // 2):
        alive = [v for v in range(m.n) if m.alive[v]]
        v = rng.choice(alive)
        assert list(m.slacks(v, alive)) == [m.slack(v, u) for u in alive]
        inside = [x for x in alive if m.parent[x] != -1 and m.mate[x] != -1]
        pair = [v, m.mate[v]] if m.mate[v] != -1 else None
        if inside and rng.random() < 0.8:
            x = rng.choice(inside)
            pair = [x, m.mate[x]]
        if pair is None:
            break
        m.remove(pair)
        if not m.roots:
            certified(m)  # no search needed: already optimal
        m.solve()
        current = [[x // 2 for x in row] for row in m.w]
        assert m.weight() == reference(current, m.alive)
        certified(m)


def test_a_chain_of_nested_blossoms_deeper_than_the_stack_is_rotated():
    """An odd complete graph of equal weights: the search from its one exposed vertex nests a
    blossom of three in the last, about 150 deep (at 9,999 players thousands: Python's stack
    overflowed).  A new edge to the innermost vertex then rotates every blossom of the chain —
    in a loop, so with a short stack too — and the matching is networkx's optimum."""
    import sys

    core = 301
    w = [[1 if a != b and a < core and b < core else 0 for b in range(core + 1)] for a in range(core + 1)]
    m = WeightedMatching([row[:] for row in w])
    m.solve()
    deepest = max(range(core), key=lambda v: len(m._duals_above(v)))
    assert len(m._duals_above(deepest)) > 120
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)
    try:
        m.set_weights(core, {deepest: 5})
        m.solve()
    finally:
        sys.setrecursionlimit(limit)
    w[core][deepest] = w[deepest][core] = 5
    assert m.mate[core] == deepest and m.weight() == reference(w) == 5 + (core - 1) // 2
    certified(m)


class OldSearch(WeightedMatching):
    """The search as it was before its scan and least-slack lookups were made quicker (December
    2026): each edge's slack computed in full and an inner vertex's tight edge followed like any
    other; each lookup of a least-slack edge to an outer vertex reading every vertex; a shift
    reading the whole row of each vertex it touched; a blossom's vertices walked each time.
    The quicker ones must make exactly the same choices (which optimum is found depends on
    them)."""

    def _nearest_outer(self, v: int, outer: tuple[list[int], list[int]]) -> int:
        return old_nearest_outer(self, v)

    def _changes_feasible(self, changes, raise_by):  # type: ignore[no-untyped-def]
        return False  # each shifted vertex's whole row read, as before

    def _leaves(self, b: int) -> list[int]:
        return [b] if b < self.n else self._gather(b)  # every blossom walked again

    def _scan(self, v, follow):  # type: ignore[no-untyped-def]
        n, w, dual, top, mate, label = self.n, self.w, self.dual, self.top, self.mate, self._label
        reach, best2, best3, touched = self._reach, self._best2, self._best3, self._touched
        bv, yv, row = top[v], dual[v], w[v]
        for u, weight, bu in zip(range(n), row, top):
            if not weight or bu == bv:
                continue
            slack = yv + dual[u] - weight
            if slack == 0:
                matched = mate[v]
                if follow(v, u):
                    return True
                if mate[v] != matched or label[top[v]] != 1:
                    return False
                bv = top[v]
            elif label[bu] == 1:
                b3 = best3[v]
                if b3 == -1 or slack < dual[v] + dual[b3] - row[b3]:
                    best3[v] = u
                b3 = best3[u]
                if b3 == -1 or slack < dual[u] + dual[b3] - w[u][b3]:
                    best3[u] = v
            else:
                b2 = best2[u]
                if b2 == -1:
                    best2[u] = v
                    touched.append(u)
                elif slack < dual[b2] + dual[u] - w[b2][u]:
                    best2[u] = v
        return None


def old_nearest_outer(m: WeightedMatching, v: int) -> int:
    """v's least-slack edge to an outer vertex of another blossom, every vertex read in turn."""
    top, label, dual, row = m.top, m._label, m.dual, m.w[v]
    bv, yv, best, found = top[v], m.dual[v], None, -1
    for u in range(m.n):
        weight = row[u]
        if weight and top[u] != bv and label[top[u]] == 1:
            s = yv + dual[u] - weight
            if best is None or s < best:
                best, found = s, u
    return found


class CheckedLookups(WeightedMatching):
    """Every least-slack lookup compared with the old one, in the state it is made in."""
    lookups = 0

    def _nearest_outer(self, v: int, outer: tuple[list[int], list[int]]) -> int:
        got = super()._nearest_outer(v, outer)
        assert got == old_nearest_outer(self, v)
        CheckedLookups.lookups += 1
        return got


class CheckedLeaves(WeightedMatching):
    """Every blossom's vertices, kept or not, compared with a walk of the blossom as it is."""

    def _leaves(self, b: int) -> list[int]:
        got = super()._leaves(b)
        assert b < self.n or got == self._gather(b)
        return got


def same_course(n: int, density: float, bits: int, seed: int, kinds: list[type[WeightedMatching]]) -> None:
    """A cold start, then changes (edges of one vertex, many at once, removed vertices and pairs,
    dropped edges, swapped cycles), each followed by a solve, in each kind of matching: the same
    mates and duals after every step."""
    rng = random.Random(seed)
    w = random_weights(n, density, bits, rng)
    ms = [kind([row[:] for row in w]) for kind in kinds]

    def step(op: str, *args: object) -> None:
        for m in ms:
            getattr(m, op)(*args)
            m.solve()
        first = ms[0]
        for m in ms[1:]:
            assert (m.mate, m.dual) == (first.mate, first.dual), op

    step("solve")
    for _ in range(12):
        m = ms[0]
        alive = [v for v in range(n) if m.alive[v]]
        if len(alive) < 2:
            break
        v = rng.choice(alive)
        op = rng.random()
        if op < 0.35:
            step("set_weights", v, random_changes(rng, alive, v, bits))
        elif op < 0.5:
            step("shift", *random_shift(rng, alive, bits))
        elif op < 0.65:
            step("drop", v, [u for u in alive if u != v and m.w[v][u] and rng.random() < 0.4])
        elif op < 0.8:
            u = rng.choice(alive)
            if u != v and m.w[v][u]:
                for x in ms:
                    x.swap_cycle(v, u)
                step("solve")
        else:
            inside = [x for x in alive if m.parent[x] != -1 and m.mate[x] != -1]
            x = rng.choice(inside) if inside and rng.random() < 0.7 else v
            step("remove", [x] if m.mate[x] == -1 or rng.random() < 0.3 else [x, m.mate[x]])


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(3, 45), st.floats(0.3, 1.0), st.sampled_from([1, 2, 3, 8]), st.integers(0, 10 ** 6))
def test_the_quicker_scan_and_lookups_find_the_same_matching(n, density, bits, seed):
    """Dense graphs of few weights (many equal slacks: which edge is followed first decides
    which optimum is found) and sparser ones of many weights, through every kind of change:
    the search as it is and the older one reach the same mates and duals after every solve,
    every least-slack lookup equals the older one's in the state it is made in, and every
    blossom's vertices as kept equal a walk of it."""
    same_course(n, density, bits, seed, [WeightedMatching, OldSearch, CheckedLookups, CheckedLeaves])


def test_the_lookups_are_exercised():
    """The comparison above is not empty: graphs like its own make lookups of both kinds."""
    CheckedLookups.lookups = 0
    for seed in range(40):
        same_course(31, 0.9, 2, seed, [CheckedLookups])
    assert CheckedLookups.lookups > 100
