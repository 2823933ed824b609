"""Maximum matchings without weights (Edmonds' blossom search), for feasibility questions:
whether a set of players can all be paired, which player some maximum matching leaves out.

:mod:`keizer.pairing.matching` holds the weighted matching and re-exports these."""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable


def maximum_matching(m: int, ok: Callable[[int, int], bool]) -> list[int]:
    """A maximum matching of vertices 0..m-1 where ``ok(a, b)`` says an edge exists:
    a greedy start, then one augmenting search per exposed vertex."""
    mate = [-1] * m
    for i in range(m):
        if mate[i] == -1:
            for j in range(i + 1, m):
                if mate[j] == -1 and ok(i, j):
                    mate[i], mate[j] = j, i
                    break
    exposed = mate.count(-1)
    for v in range(m):
        if mate[v] == -1 and exposed > 1:  # a path needs another exposed vertex to end at
            if augment(v, mate, range(m), ok)[0]:
                exposed -= 2
    return mate


def augment(root: int, mate: list[int], alive: Iterable[int], ok: Callable[[int, int], bool]) -> tuple[bool, list[bool]]:
    """Search an augmenting path from exposed ``root`` among ``alive`` vertices and flip it.

    Returns (found, even): when nothing is found, ``even[v]`` marks the vertices an
    even alternating path from the root reaches — those that could be left exposed
    instead of the root in a maximum matching."""
    alive = list(alive)
    free = [u for u in alive if mate[u] == -1 and u != root]  # no mate changes until a path is flipped
    size = len(mate)
    parent = [-1] * size
    base = list(range(size))
    even = [False] * size
    even[root] = True
    members: dict[int, list[int]] = {}
    queue = deque([root])

    def reaches_free(w: int) -> bool:
        """Augment at once when the new even vertex is next to an exposed one: in the dense
        graphs of club pairings that happens long before the whole tree is grown."""
        for u in free:
            if ok(w, u):
                parent[u] = w
                _flip(u, mate, parent)
                return True
        return False

    if reaches_free(root):
        return True, even
    while queue:
        v = queue.popleft()
        for u in alive:
            if u == v or base[u] == base[v] or mate[v] == u or not ok(v, u):
                continue
            if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
                # Both ends even: an odd cycle.  Shrink it into one blossom.
                top = _blossom_base(v, u, mate, parent, base)
                inside: set[int] = set()
                _mark_blossom(v, u, top, mate, parent, base, inside)
                _mark_blossom(u, v, top, mate, parent, base, inside)
                group = members.setdefault(top, [top])
                for old in inside:
                    for w in members.pop(old, [old]):
                        base[w] = top
                        group.append(w)
                        if not even[w]:
                            even[w] = True
                            if reaches_free(w):
                                return True, even
                            queue.append(w)
            elif parent[u] == -1 and mate[u] != -1:
                parent[u] = v
                w = mate[u]
                even[w] = True
                if reaches_free(w):
                    return True, even
                queue.append(w)
    return False, even


def first_exposable(root: int, mate: list[int], alive: Iterable[int], ok: Callable[[int, int], bool],
                    order: Iterable[int], tries: int = 4) -> int | None:
    """The first vertex of ``order`` that some maximum matching leaves exposed (None: none),
    given a maximum matching ``mate`` of the ``alive`` vertices that leaves only ``root`` exposed.

    A vertex c is such a vertex when the graph without it pairs everyone: c's mate, freed, then
    reaches the root by an augmenting path — in a dense graph at its first step.  After ``tries``
    vertices that are not, the whole alternating tree from the root is grown once instead
    (:func:`augment`'s even vertices: the same answer, in one search of every edge).
    >>> first_exposable(2, [1, 0, -1], range(3), lambda a, b: (a, b) in ((0, 1), (1, 0), (1, 2), (2, 1)), [0, 1])
    0
    """
    alive = list(alive)
    order = list(order)
    for k, c in enumerate(order):
        if c == root:
            return c
        if k >= tries:
            _, even = augment(root, mate[:], alive, ok)
            return next((c for c in order[k:] if even[c]), None)
        trial = mate[:]
        m = trial[c]
        trial[c] = trial[m] = -1
        if augment(m, trial, [u for u in alive if u != c], ok)[0]:
            return c
    return None


def _flip(u: int, mate: list[int], parent: list[int]) -> None:
    """Swap matched and unmatched edges along the path from exposed `u` to the root."""
    while u != -1:
        p = parent[u]
        after = mate[p]
        mate[u], mate[p] = p, u
        u = after


def _blossom_base(a: int, b: int, mate: list[int], parent: list[int], base: list[int]) -> int:
    """The nearest common even ancestor of two even vertices (by blossom base)."""
    path: set[int] = set()
    while True:
        a = base[a]
        path.add(a)
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if b in path:
            return b
        b = parent[mate[b]]


def _mark_blossom(v: int, child: int, top: int, mate: list[int], parent: list[int],
                  base: list[int], inside: set[int]) -> None:
    """Walk from v up to the blossom base, recording bases and re-pointing parents
    so paths through the blossom can later be flipped from either side."""
    while base[v] != top:
        inside.add(base[v])
        inside.add(base[mate[v]])
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]
