"""Maximum-weight matching with exact integer weights, and maximum matchings.

:class:`WeightedMatching` is Edmonds' primal-dual blossom method, written for
dense graphs (a weight matrix, 0 meaning "no edge") with arbitrary Python
integers as weights, so lexicographic criteria packed into one big integer are
compared exactly.  It is *incremental*: after :meth:`~WeightedMatching.set_weights`
or :meth:`~WeightedMatching.remove` only the vertices whose optimality was
disturbed are re-examined, which is what the Dutch bracket search needs (many
small changes, each followed by a new optimum).

The method (Galil, "Efficient algorithms for finding maximum matching in
graphs", ACM Computing Surveys 18, 1986): vertex duals ``y`` and blossom duals
``z`` with every edge's slack ``y_u + y_v + z(blossoms holding both) - w >= 0``,
matched edges tight, and — for a maximum-weight (not necessarily perfect)
matching — exposed vertices at ``y = 0``.  A stage grows alternating trees
from the exposed vertices whose dual is still positive along tight edges,
shrinks odd cycles into blossoms, and changes the duals by the largest step
that keeps them feasible, until it finds an augmenting path or the roots' duals
reach zero.  Duals are stored doubled so that every step stays an integer.

A warm start changes edges of one vertex: the blossoms around it are dissolved
(their dual is handed to their vertices, which keeps every slack), the vertex's
dual is raised to cover its new edges, and a matched edge that is no longer
tight is undone; the vertices left exposed with a positive dual are the roots
of the next stages.  A root whose dual exceeds that of a matched vertex in its
tree is handled by swapping along the even path to that vertex (it gains
weight) — the case a cold start never meets.

:func:`maximum_matching` is the unweighted version (Edmonds' blossom search
with a greedy start), for feasibility questions: it lives in :mod:`keizer.pairing.cardinality`,
with :func:`augment` and :func:`first_exposable`, and is re-exported here.

>>> m = WeightedMatching([[0, 5, 1, 0], [5, 0, 4, 2], [1, 4, 0, 6], [0, 2, 6, 0]])
>>> m.solve(); m.mate
[1, 0, 3, 2]
>>> m.set_weights(0, {1: 1, 2: 9}); m.solve(); m.mate
[2, 3, 0, 1]
>>> m.weight()
11
"""

from __future__ import annotations

from collections import deque
from itertools import chain, compress, repeat
from operator import itemgetter, sub
from typing import Callable, Iterable, Iterator, Mapping

from keizer.pairing.cardinality import augment, first_exposable, maximum_matching

__all__ = ["WeightedMatching", "augment", "first_exposable", "maximum_matching"]


class WeightedMatching:
    """A maximum-weight matching of a dense graph, kept optimal through changes.

    ``weights`` is a symmetric matrix of non-negative integers (0: no edge); it is
    taken over, not copied.  Call :meth:`solve` after construction and after changes.
    """

    #: Whether a final pair leaves its blossom without dissolving it (:meth:`_lift_pair`) and
    #: callers may read the blossoms' duals (:meth:`slacks`); False: the older way, for tests.
    keep_blossoms = True

    def __init__(self, weights: list[list[int]], prefer: Iterable[tuple[int, Iterable[int]]] = (),
                 share: list[int] | None = None, doubled: bool = False):
        """``prefer``: (vertex, partners) in the order the first greedy matching should try them
        (among the edges tight at the start, so the optimum is unchanged: a good guess saves
        work); ``share``: each vertex's own part of its edges' weights, if known, in half units
        (an edge of weight w between u and v with share[u] + share[v] = 2w is split exactly);
        ``doubled``: the matrix already holds twice each weight (as it is kept: a caller that
        builds a large matrix from a few values doubles those, not every entry)."""
        n = len(weights)
        self.n = n
        # Kept doubled: every slack is then a plain sum of duals minus a weight.  A graph of
        # n players holds few distinct weights: each is doubled once, and the rows are mapped
        # through that table at C speed (equal weights stay one object).
        if not doubled:
            twice = {weight: 2 * weight for weight in set().union(*map(set, weights))}
            for row in weights:
                row[:] = map(twice.__getitem__, row)
        self.w = weights
        self.mate = [-1] * n
        self.alive = [True] * n
        # Doubled duals: vertex v at dual[v], blossom b (ids n..2n-1) at dual[b].  Each vertex
        # starts at its heaviest edge (feasible: y_u + y_v >= w), so edges heaviest for both
        # ends are tight at once.
        # A share of a weight may belong to one vertex (a bonus it has on all its edges):
        # ``share[v]`` estimates it, and the rest of each edge is split evenly.  Any estimate
        # keeps the duals feasible; a good one makes many edges tight for the greedy start.
        share = [0] * n if share is None else share
        self.dual = dual = [0] * (2 * n)
        for v, rest in enumerate(_largest_rests(weights, share)):
            sv = share[v]
            dual[v] = max(0, sv + (rest - sv + 1) // 2) if rest is not None else 0
        self.top = list(range(n))            # outermost blossom of each vertex
        self.parent = [-1] * (2 * n)          # enclosing blossom
        self.children: list[list[int] | None] = [None] * (2 * n)
        self.edges: list[list[tuple[int, int]] | None] = [None] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        # The vertices of each outermost blossom in :meth:`_leaves`' order, once gathered (a
        # chain of blossoms gathers its inner ones' again for each new one around them).
        self._ordered: dict[int, list[int]] = {}
        self.unused = list(range(2 * n - 1, n - 1, -1))
        dual, mate = self.dual, self.mate
        skip: dict[int, int] = {}  # a partner list shared by many vertices: how many of its first are matched
        for u, partners in list(prefer) + [(u, range(u + 1, n)) for u in range(n)]:
            if mate[u] == -1 and dual[u]:
                row, yu = weights[u], dual[u]
                if isinstance(partners, list):  # matched vertices stay matched here: skip them once
                    k = skip.get(id(partners), 0)
                    while k < len(partners) and mate[partners[k]] != -1:
                        k += 1
                    skip[id(partners)] = k
                    partners = partners[k:] if k else partners
                for v in partners:
                    if mate[v] == -1 and row[v] and yu + dual[v] == row[v]:
                        mate[u], mate[v] = v, u
                        break
        self.roots: set[int] = {v for v in range(n) if mate[v] == -1 and dual[v]}

    # -- the public interface ---------------------------------------------------------

    def weight(self) -> int:
        """The total weight of the matching."""
        return sum(self.w[v][m] for v, m in enumerate(self.mate) if m > v) // 2

    def slack(self, u: int, v: int) -> int:
        """The edge's slack under the current duals (doubled units).  Once solved the duals
        are optimal, and complementary slackness says every maximum-weight matching uses
        only edges of slack 0: an edge with a positive slack is in none of them."""
        parent, dual = self.parent, self.dual
        around = set()
        b = parent[u]
        while b != -1:
            around.add(b)
            b = parent[b]
        z = 0
        b = parent[v]
        while b != -1:
            if b in around:
                z += dual[b]
            b = parent[b]
        return dual[u] + dual[v] + z - self.w[u][v]

    def _duals_above(self, v: int) -> dict[int, int]:
        """Each blossom holding ``v``, mapped to the sum of its dual and those of the blossoms
        around it (what an edge of v's inside that blossom counts of them)."""
        parent, dual = self.parent, self.dual
        chain = []
        b = parent[v]
        while b != -1:
            chain.append(b)
            b = parent[b]
        above: dict[int, int] = {}
        total = 0
        for b in reversed(chain):
            total += dual[b]
            above[b] = total
        return above

    def slacks(self, v: int, others: Iterable[int]) -> Iterator[int]:
        """:meth:`slack` of the edges (v, u), u in ``others``, in turn (v's blossoms read once)."""
        parent, dual, w = self.parent, self.dual, self.w[v]
        above = self._duals_above(v)
        yv = dual[v]
        for u in others:
            yield yv + dual[u] + (_shared_duals(parent, above, u) if above else 0) - w[u]

    def set_weights(self, v: int, changes: Mapping[int, int] | Iterable[tuple[int, int]]) -> None:
        """Give the edges (v, u) new weights; :meth:`solve` restores the optimum.

        A change that keeps every slack non-negative once v's dual moves with its
        matched edge costs nothing more: the matching stays optimal."""
        items = changes.items() if isinstance(changes, Mapping) else changes
        row, w, mate, dual, top = self.w[v], self.w, self.mate, self.dual, self.top
        items = [(u, 2 * weight) for u, weight in items if row[u] != 2 * weight]
        if not items:
            return
        if top[v] == v and mate[v] not in dict(items) and all(weight < row[u] for u, weight in items):
            # Lighter edges outside blossoms, the matched one kept: every slack grows, none was
            # matched or holds a blossom together, so the matching stays optimal as it is.
            for u, weight in items:
                row[u] = w[u][v] = weight
            return
        if self.top[v] != v:
            if self._loose(v, items):
                for u, weight in items:
                    row[u] = w[u][v] = weight
                return
            self._dissolve_around(v)
        m = mate[v]
        before = row[m] if m != -1 else 0
        for u, weight in items:
            row[u] = w[u][v] = weight
        if m != -1:
            y = dual[v] + row[m] - before
            if row[m] and y >= 0 and y >= _need(row, dual):
                dual[v] = y
                return
            self._unmatch(v)
        need = max(_need(row, dual), 0)
        if need > dual[v]:
            dual[v] = need
        if mate[v] == -1 and dual[v] > 0:
            self.roots.add(v)

    def drop(self, v: int, others: list[int]) -> None:
        """Take the edges (v, u), u in ``others``, out of the graph (v stays in it): every slack
        only grows, so when v is outside blossoms and none of them is its mate the matching
        stays optimal as it is (else as :meth:`set_weights` with weight 0)."""
        if self.top[v] != v or self.mate[v] in others:
            self.set_weights(v, zip(others, repeat(0)))
            return
        row, w = self.w[v], self.w
        for u in others:
            row[u] = w[u][v] = 0

    def shift(self, changes: Mapping[int, Mapping[int, int]], raise_by: Mapping[int, int],
              doubled: bool = False) -> None:
        """Change many edges at once, each vertex v's dual rising by ``raise_by[v]`` (in weight
        units) with them: a good guess keeps most matched edges tight and every slack
        non-negative, and only the vertices where it does not are re-examined.  ``doubled``:
        the new weights are given doubled (as they are kept: equal weights stay one number)."""
        w, dual, mate, top = self.w, self.dual, self.mate, self.top
        touched = set(changes) | set(raise_by)
        for v in touched:
            if top[v] != v:
                self._dissolve_around(v)
        for v, row_changes in changes.items():
            row = w[v]
            for u, weight in row_changes.items():
                row[u] = w[u][v] = weight if doubled else 2 * weight
        for v, d in raise_by.items():
            dual[v] += 2 * d
        for v in touched:
            row, m = w[v], mate[v]
            if m != -1 and (not row[m] or dual[v] + dual[m] != row[m]):
                self._unmatch(v)
        # Every slack was non-negative before (the duals are always kept feasible) and counts no
        # blossom now, so rising duals keep the unchanged edges feasible: when the changed ones
        # are too, only a vertex whose dual is negative needs the edges of its whole row read.
        feasible = self._changes_feasible(changes, raise_by)
        for v in touched:
            row, yv = w[v], dual[v]
            if feasible and yv >= 0:
                need = 0  # every edge's slack is non-negative: the need is at most yv
            else:
                need = max(_need(row, dual), 0)
            if need > yv or yv < 0:
                dual[v] = max(need, 0)
                if mate[v] != -1:
                    self._unmatch(v)
            if mate[v] == -1 and dual[v] > 0:
                self.roots.add(v)

    def _changes_feasible(self, changes: Mapping[int, Mapping[int, int]], raise_by: Mapping[int, int]) -> bool:
        """Whether :meth:`shift`'s duals rose (none fell) and its changed edges, already written,
        have non-negative slacks."""
        w, dual = self.w, self.dual
        return (all(d >= 0 for d in raise_by.values())
                and all(_feasible(w[v], dual, v, row_changes) for v, row_changes in changes.items()))

    def _loose(self, v: int, items: list[tuple[int, int]]) -> bool:
        """Whether changing these edges of v (inside a blossom) touches no tight edge and keeps
        every slack non-negative: then the blossoms and the matching stay as they are."""
        parent, dual, row = self.parent, self.dual, self.w[v]
        above = self._duals_above(v)
        mate = self.mate[v]
        for u, weight in items:
            if u == mate:
                return False
            slack = dual[v] + dual[u] + _shared_duals(parent, above, u)
            if slack - row[u] <= 0 or slack - weight < 0:
                return False
        return True

    def remove(self, vertices: Iterable[int]) -> None:
        """Take vertices out of the graph (a pair that is final, for instance).

        A matched pair that is a blossom's two children besides its base child leaves the
        blossom without dissolving anything (:meth:`_lift_pair`); otherwise the blossoms
        around each vertex are dissolved, and the vertices they leave exposed are searched
        again."""
        gone = list(vertices)
        if self.keep_blossoms and len(gone) == 2 and self.mate[gone[0]] == gone[1]:
            self._lift_pair(gone[0], gone[1])
        for v in gone:
            if self.alive[v]:
                self._dissolve_around(v)
        for v in gone:
            if not self.alive[v]:
                continue
            m = self.mate[v]
            if m != -1:
                self.mate[m] = -1
                if self.alive[m] and m not in gone:
                    self._dissolve_around(m)
                    if self.dual[m] > 0:
                        self.roots.add(m)
            self.mate[v] = -1
            self.alive[v] = False
            self.roots.discard(v)
            row, w = self.w[v], self.w
            for u in compress(range(self.n), row):
                w[u][v] = 0
            row[:] = bytes(self.n)

    def _lift_pair(self, a: int, b: int) -> bool:
        """Take the matched pair (a, b) out of its blossoms, keeping every other slack, the
        matching and the blossoms around them as they are, when a and b are two children of
        a blossom B (one matched edge of its cycle).  When B has three children, B's dual
        moves to the third, its base child C (whose edges inside B it covered), or is dropped
        when C is one vertex (no edge inside B is left); a larger B keeps its dual and closes
        its cycle by a tight edge between the children before and after a and b.  An edge of
        a blossom around B that ends at a or b moves to another tight edge between the same
        two children.  Every slack of what is left is unchanged and every blossom with a dual
        is still full, so the matching stays optimal.  The chains of blossoms a single search
        grows in a dense graph are of this form.  Returns whether it did so (else, when no
        such tight edge is found, nothing changed)."""
        parent, children = self.parent, self.children
        self._ordered.pop(self.top[a], None)  # the outermost blossom may lose a and b
        b_ = parent[a]
        if b_ == -1 or parent[b] != b_:
            return False
        kids = children[b_]
        if kids is None or kids[0] in (a, b):
            return False
        i = kids.index(a) if kids.index(a) < kids.index(b) else kids.index(b)
        if i % 2 == 0 or kids[i + 1] not in (a, b):
            return False
        # An edge of a blossom around B that ends at a or b is moved to another tight edge
        # between the same two children (a blossom's cycle needs one, any one); the blossoms
        # holding both ends of such an edge are that blossom and those around it.
        chain = []
        x = parent[b_]
        while x != -1:
            chain.append(x)
            x = parent[x]
        dual, w = self.dual, self.w
        moves = []
        around = sum(dual[x] for x in chain)
        for x in chain:
            edges, kids_x = self.edges[x], children[x]
            assert edges is not None and kids_x is not None
            for j, (p, q) in enumerate(edges):
                if p in (a, b) or q in (a, b):
                    side, far = (j, q) if p in (a, b) else ((j + 1) % len(kids_x), p)
                    row, yf = w[far], dual[far] + around
                    v = next((v for v in self._leaves(kids_x[side])
                              if v != a and v != b and row[v] and dual[v] + yf == row[v]), -1)
                    if v == -1:
                        return False
                    moves.append((edges, j, (v, q) if p in (a, b) else (p, v)))
            around -= dual[x]
        if len(kids) > 3:
            # B stays, without a and b: its cycle closes by a tight edge between the children
            # before and after them (the blossom's own dual counts too).
            k = len(kids)
            before, after = kids[i - 1], kids[(i + 2) % k]
            z = dual[b_] + sum(dual[x] for x in chain)
            ends = next(((x, y) for x in self._leaves(before) for y in self._leaves(after)
                         if w[x][y] and dual[x] + dual[y] + z == w[x][y]), None)
            if ends is None:
                return False
            for edges, j, e in moves:
                edges[j] = e
            own = self.edges[b_]
            assert own is not None
            self.edges[b_] = own[:i - 1] + [ends] + own[i + 2:]
            children[b_] = kids[:i] + kids[i + 2:]
            for v in (a, b):
                parent[v] = -1
                self.top[v] = v
            return True
        for edges, j, e in moves:
            edges[j] = e
        c = kids[0]
        outer = parent[b_]
        parent[c] = outer
        if c >= self.n:
            self.dual[c] += self.dual[b_]
        if outer != -1:
            siblings = children[outer]
            assert siblings is not None
            siblings[siblings.index(b_)] = c
        else:
            top = self.top
            for leaf in self._leaves(c):
                top[leaf] = c
        for v in (a, b):
            parent[v] = -1
            self.top[v] = v
        children[b_] = self.edges[b_] = None
        parent[b_] = -1
        self.base[b_] = -1
        self.dual[b_] = 0
        self.unused.append(b_)
        return True

    def swap_cycle(self, v: int, u: int) -> list[int] | None:
        """Match v to u by an alternating cycle of tight edges through the other vertices
        outside blossoms, keeping the matching optimal and the duals as they are: v's mate
        must take u's mate's place.  Returns the vertices whose mate changed, or None when no
        such cycle is found (one may still exist through a blossom: the caller then searches
        the usual way)."""
        mate, dual, w, top, alive = self.mate, self.dual, self.w, self.top, self.alive
        start, goal = mate[u], mate[v]
        if start == -1 or goal == -1 or top[start] != start or top[goal] != goal:
            return None
        if w[v][u] != dual[v] + dual[u]:
            return None
        parent = {start: -1}   # outer vertex -> the inner vertex that reached it
        inner: dict[int, int] = {}  # inner vertex -> the outer vertex it was reached from
        queue = deque([start])
        while queue:
            x = queue.popleft()
            row, yx = w[x], dual[x]
            for y, weight in enumerate(row):
                if (not weight or y in inner or y in parent or y == v or y == u or y == mate[x] or not alive[y]
                        or top[y] != y or yx + dual[y] != weight):
                    continue
                inner[y] = x
                if y == goal:
                    changed = [v, u]
                    while True:  # flip: y takes x, x's former inner vertex takes x's parent ...
                        nxt = parent[x]
                        mate[x], mate[y] = y, x
                        changed += (x, y)
                        if nxt == -1:
                            break
                        y, x = nxt, inner[nxt]
                    mate[v], mate[u] = u, v
                    return changed
                z = mate[y]
                if z != -1 and z not in parent and z not in inner and top[z] == z:
                    parent[z] = y
                    queue.append(z)
        return None

    def solve(self) -> None:
        """Make the matching maximum-weight again: the exposed vertices whose dual is
        positive are the roots, those with the highest dual first (a forest needs equal
        duals at its roots; the others are free meanwhile, and may be matched by it)."""
        mate, dual, alive = self.mate, self.dual, self.alive
        roots = {r for r in self.roots if alive[r] and mate[r] == -1 and dual[r] > 0}
        self.roots = set()
        while roots:
            highest = max(dual[r] for r in roots)
            self._stage(sorted(r for r in roots if dual[r] == highest))
            roots = {r for r in roots if mate[r] == -1 and dual[r] > 0}

    # -- blossoms --------------------------------------------------------------------

    def _leaves(self, b: int) -> list[int]:
        """The vertices of b, innermost blossoms' in turn from its last child to its first
        (the order the searches read them in); an outermost blossom's kept once gathered."""
        if b < self.n:
            return [b]
        kept = self._ordered.get(b)
        return kept if kept is not None else self._gather(b)

    def _gather(self, b: int) -> list[int]:
        """:meth:`_leaves` of blossom b, its blossoms walked from the last child to the first."""
        out, stack, children = [], [b], self.children
        while stack:
            x = stack.pop()
            if x < self.n:
                out.append(x)
            else:
                stack.extend(children[x])  # type: ignore[arg-type]
        return out

    def _unmatch(self, v: int) -> None:
        """Undo v's matched edge; both ends become roots (after their blossoms dissolve)."""
        m = self.mate[v]
        self.mate[v] = -1
        if m != -1:
            self.mate[m] = -1
            self._dissolve_around(m)
            if self.dual[m] > 0:
                self.roots.add(m)
        if self.dual[v] > 0:
            self.roots.add(v)

    def _dissolve_around(self, v: int) -> None:
        """Dissolve every blossom holding v, handing each one's dual to its vertices.

        Each vertex gets half the blossom's (doubled) dual, so every slack inside
        stays and every slack leaving the blossom grows; the one matched edge that
        leaves it (at its base) is then no longer tight and is undone."""
        top, dual, mate = self.top, self.dual, self.mate
        exposed = []
        while top[v] != v:
            b = top[v]
            z = dual[b]
            if z:
                half = z // 2
                for leaf in self._leaves(b):
                    dual[leaf] += half
                dual[b] = 0
            base = self.base[b]
            self._release(b)
            if z:
                m = mate[base]
                if m != -1:
                    mate[base] = mate[m] = -1
                    exposed.append(m)
                exposed.append(base)  # exposed before or now: its dual grew
        for x in exposed:
            if top[x] != x:
                self._dissolve_around(x)
            if mate[x] == -1 and dual[x] > 0:
                self.roots.add(x)

    def _release(self, b: int) -> None:
        """Make b's children top-level (b must be top-level) and free its id."""
        kept = self._ordered.pop(b, None)
        kids = self.children[b]
        assert kids is not None
        inner = [j for j, c in enumerate(kids) if c >= self.n]
        if kept is not None and len(inner) == 1:
            # One child is a blossom (a link of a chain): its vertices, in its own order, are
            # b's but for the other children's, one each before and after them.
            j = inner[0]
            self._ordered[kids[j]] = kept[len(kids) - 1 - j:len(kept) - j]
        for c in kids:
            self.parent[c] = -1
            for leaf in self._leaves(c):
                self.top[leaf] = c
        self.children[b] = self.edges[b] = None
        self.base[b] = -1
        self.unused.append(b)

    def _rotate(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges inside blossom b so that vertex v becomes its base:
        the blossoms from v's innermost one out to b, in turn (a loop, not a recursion: a
        chain of nested blossoms may be thousands deep)."""
        self._ordered.pop(b, None)  # its vertices' order turns with it
        parent = self.parent
        t = parent[v]
        while True:
            self._rotate_one(t, v)
            if t == b:
                return
            t = parent[t]

    def _rotate_one(self, b: int, v: int) -> None:
        """:meth:`_rotate` of blossom b whose child holding v already has v as its base."""
        n, parent, mate = self.n, self.parent, self.mate
        t = v
        while parent[t] != b:
            t = parent[t]
        children, edges = self.children[b], self.edges[b]
        i = current = children.index(t)  # type: ignore[union-attr]
        for step, (a, c, nxt) in enumerate(self._walk(b, i)):
            if step % 2:  # every second edge was unmatched and becomes matched
                ca, cc = children[current], children[nxt]  # type: ignore[index]
                if ca >= n:
                    self._rotate(ca, a)
                if cc >= n:
                    self._rotate(cc, c)
                mate[a], mate[c] = c, a
            current = nxt
        self.children[b] = children[i:] + children[:i]  # type: ignore[index]
        self.edges[b] = edges[i:] + edges[:i]  # type: ignore[index]
        self.base[b] = v

    def _walk(self, b: int, i: int) -> Iterator[tuple[int, int, int]]:
        """The edges of the even alternating path inside blossom b from its child i to its base
        child: (x, y, j), x in the child reached so far, y in child j, the next one."""
        children, edges = self.children[b], self.edges[b]
        k = len(children)  # type: ignore[arg-type]
        forward = bool(i & 1)  # the matched edge at child i lies forward when i is odd
        while i != 0:
            if forward:
                x, y = edges[i]  # type: ignore[index]
                nxt = (i + 1) % k
            else:
                y, x = edges[i - 1]  # type: ignore[index]
                nxt = i - 1
            yield x, y, nxt
            i = nxt

    # -- one stage -------------------------------------------------------------------

    def _stage(self, roots: list[int]) -> None:
        """Grow a forest from the roots (equal duals) until each root is matched or its dual is 0.

        After an augmentation only the two trees it ran through are taken apart; the
        others keep their labels, so a graph with many roots is not searched again
        from the start for each of them."""
        n, w, dual, top, mate = self.n, self.w, self.dual, self.top, self.mate
        label = [0] * (2 * n)                 # top-level blossoms: 0 free, 1 S (outer), 2 T (inner)
        via: list[tuple[int, int] | None] = [None] * (2 * n)  # the edge (outside, inside) that labelled it
        owner = [-1] * (2 * n)                # the root of a labelled blossom's tree
        reach = [-1] * n                      # an S vertex with a tight edge to v inside a T blossom
        best2 = [-1] * n                      # least-slack S neighbour of a vertex not in S
        best3 = [-1] * n                      # least-slack S neighbour (other blossom) of an S vertex
        queue: deque[int] = deque()
        tree: list[int] = []                  # vertices labelled in this stage (their label may change)
        intree = bytearray(n)
        blist: list[int] = []                 # blossoms labelled in this stage
        touched: list[int] = []               # vertices given a best2
        self._label, self._via, self._queue, self._owner = label, via, queue, owner
        self._tree, self._intree, self._blist = tree, intree, blist
        self._reach, self._best2, self._best3, self._touched = reach, best2, best3, touched
        live = set()

        for r in roots:
            b = top[r]
            if label[b] == 0:
                label[b] = 1
                via[b] = None
                owner[b] = r
                live.add(r)
                self._enter(b, True)

        def done(*ends: int) -> bool:
            """An augmentation or swap reached the roots of these vertices' trees: take the
            trees apart; True when no tree is left."""
            dead = {owner[top[x]] for x in ends if x != -1}
            live.difference_update(dead)
            if live:
                self._detach(dead, best2, best3, reach, touched)
            return not live

        def follow(v: int, u: int) -> bool:
            """A tight edge from outer vertex v to u: grow the forest, shrink a blossom, or
            augment (True when that ends the stage)."""
            bu = top[u]
            lu = label[bu]
            if lu == 1:
                base = self._common_base(v, u)
                if base != -1:
                    self._add_blossom(base, v, u)
                    return False
                ends = (v, u)
                self._augment(v, u)
                self._augment(u, v)
                return done(*ends)
            if lu == 2:
                if reach[u] == -1:
                    reach[u] = v
                return False
            if mate[self.base[bu]] != -1:
                self._assign_t(u, v)
                return False
            self._augment(v, u)
            if bu >= n:
                self._rotate(bu, u)
            mate[u] = v
            return done(v)

        while live:
            while queue:
                v = queue.popleft()
                if label[top[v]] != 1:
                    continue
                ended = self._scan(v, follow)
                if ended is None:
                    continue
                if ended:
                    self._end_stage()
                    return
                if label[top[v]] == 1:
                    queue.appendleft(v)  # the scan stopped at an augmentation: finish it later

            # No tight edge left to follow: the largest dual step that keeps every slack.
            kind, step, at, other = 1, None, -1, -1
            outer: tuple[list[int], list[int]] | None = None  # the outer vertices, once a lookup needs them
            for v in tree:
                b = top[v]
                if label[b] == 1:
                    if step is None or dual[v] < step:
                        kind, step, at = 1, dual[v], v
                    u = best3[v]
                    if u != -1:
                        if top[u] == b or label[top[u]] != 1:
                            outer = outer or self._outer()
                            best3[v] = u = self._nearest_outer(v, outer)
                        if u != -1:
                            s = (dual[v] + dual[u] - w[v][u]) // 2
                            if s < step:
                                kind, step, at, other = 3, s, v, u
            for v in touched:
                if label[top[v]] == 0:
                    u = best2[v]
                    if u == -1 or label[top[u]] != 1:
                        outer = outer or self._outer()
                        best2[v] = u = self._nearest_outer(v, outer)
                        if u == -1:
                            continue
                    s = dual[u] + dual[v] - w[u][v]
                    if step is None or s < step:
                        kind, step, at, other = 2, s, v, u
            parent, children = self.parent, self.children
            for b in blist:
                if parent[b] == -1 and children[b] is not None and label[b] == 2:
                    s = dual[b] // 2
                    if step is None or s < step:
                        kind, step, at = 4, s, b
            if step is None:  # no S vertex at all (cannot happen with a root)
                break
            if step:
                seen = set()
                for v in tree:
                    lb = label[top[v]]
                    if lb == 1:
                        dual[v] -= step
                    elif lb == 2:
                        dual[v] += step
                for b in blist:
                    if b not in seen and parent[b] == -1 and children[b] is not None:
                        seen.add(b)
                        if label[b] == 1:
                            dual[b] += 2 * step
                        elif label[b] == 2:
                            dual[b] -= 2 * step
            if kind == 1:
                if mate[at] == -1 or any(dual[r] == 0 for r in live):  # the roots (equal duals) are done
                    break
                # A matched outer vertex reached dual 0 before its root: swapping the even path
                # from the root to it gains weight and leaves it exposed at dual 0.
                root = owner[top[at]]
                self._augment(at, -1)
                if done(root):
                    break
            elif kind in (2, 3):
                if follow(other, at) if kind == 2 else follow(at, other):
                    break
            else:
                self._expand_t(at, reach)
        self._end_stage()

    def _scan(self, v: int, follow: Callable[[int, int], bool]) -> bool | None:
        """Look at every edge of outer vertex v in turn: follow each tight one (an inner vertex
        only notes where it was reached from), and keep for each other end its least-slack edge
        to an outer vertex (``best2``, ``best3``: the first found among equal slacks).  None:
        every edge was seen; True: following one ended the stage; False: an augmentation changed
        v's tree, and the scan stopped there."""
        n, w, dual, top, mate, label = self.n, self.w, self.dual, self.top, self.mate, self._label
        reach, best2, best3, touched = self._reach, self._best2, self._best3, self._touched
        bv, yv, row = top[v], dual[v], w[v]
        # The duals do not change during a scan: an edge's slack less v's dual is compared (a
        # tight edge: -yv), the slack of v's best edge to another outer blossom is kept, and
        # each comparison drops the end both sides share.  Missing edges are skipped at C speed.
        b3 = best3[v]
        held = None if b3 == -1 else dual[b3] - row[b3]
        less = -yv
        for u, weight in zip(compress(range(n), row), compress(row, row)):
            bu = top[u]
            if bu == bv:
                continue
            slack = dual[u] - weight
            lu = label[bu]
            if slack == less:
                if lu == 2:  # an inner vertex: remember where it was reached from
                    if reach[u] == -1:
                        reach[u] = v
                    continue
                matched = mate[v]
                if follow(v, u):
                    return True
                if mate[v] != matched or label[top[v]] != 1:
                    return False
                bv = top[v]
            elif lu == 1:
                if held is None or slack < held:
                    best3[v], held = u, slack
                b3 = best3[u]
                if b3 == -1 or yv - weight < dual[b3] - w[u][b3]:
                    best3[u] = v
            else:
                b2 = best2[u]
                if b2 == -1:
                    best2[u] = v
                    touched.append(u)
                elif yv - weight < dual[b2] - w[b2][u]:
                    best2[u] = v
        return None

    def _detach(self, dead: set[int], best2: list[int], best3: list[int], reach: list[int],
                touched: list[int]) -> None:
        """Unlabel the trees of these roots; their vertices are free again, each with its
        least-slack edge to the outer vertices left."""
        label, via, owner, top, intree = self._label, self._via, self._owner, self.top, self._intree
        for v in self._tree:
            b = top[v]
            if label[b] and owner[b] in dead:
                label[b] = 0
                via[b] = None
                owner[b] = -1
        freed = [v for v in self._tree if not label[top[v]]]
        outer = self._outer()
        for v in freed:
            intree[v] = 0
            reach[v] = -1
            best3[v] = -1
            was = best2[v]
            best2[v] = self._nearest_outer(v, outer)
            if was == -1 and best2[v] != -1:
                touched.append(v)
        self._tree[:] = [v for v in self._tree if intree[v]]

    def _outer(self) -> tuple[list[int], list[int]]:
        """The outer vertices in increasing order and their duals, for a batch of
        :meth:`_nearest_outer` lookups between which no label or dual changes (every outer
        vertex was labelled in this stage, so it is in the stage's tree)."""
        label, top, dual = self._label, self.top, self.dual
        outer = sorted([v for v in self._tree if label[top[v]] == 1])
        return outer, [dual[v] for v in outer]

    def _nearest_outer(self, v: int, outer: tuple[list[int], list[int]]) -> int:
        """v's least-slack edge to an outer vertex of another blossom (-1: none); the lowest
        such vertex among equal slacks.  ``outer``: :meth:`_outer`, read since the last change
        (v's own dual is common to every edge, so the slacks are compared without it)."""
        top, row = self.top, self.w[v]
        bv, best, found = top[v], None, -1
        for u, du in zip(*outer):
            weight = row[u]
            if weight and top[u] != bv:
                s = du - weight
                if best is None or s < best:
                    best, found = s, u
        return found

    def _enter(self, b: int, outer: bool) -> None:
        """Record the labelled blossom b in the stage's lists (and queue it when outer)."""
        leaves = self._leaves(b)
        if b >= self.n:
            self._blist.append(b)
        intree, tree = self._intree, self._tree
        for v in leaves:
            if not intree[v]:
                intree[v] = 1
                tree.append(v)
        if outer:
            self._queue.extend(leaves)

    def _assign_t(self, u: int, s: int) -> None:
        """Label u's blossom inner (reached from outer vertex s); its base's mate becomes outer."""
        label, via, top = self._label, self._via, self.top
        b = top[u]
        label[b] = 2
        via[b] = (s, u)
        owner = self._owner
        owner[b] = owner[top[s]]
        self._enter(b, False)
        base = self.base[b]
        m = self.mate[base]
        bm = top[m]
        label[bm] = 1
        via[bm] = (base, m)
        owner[bm] = owner[b]
        self._enter(bm, True)

    def _common_base(self, v: int, u: int) -> int:
        """The base of the nearest common outer blossom of two outer vertices, -1 if in different trees."""
        top, via = self.top, self._via
        seen: set[int] = set()
        a, b = v, u
        while True:
            if a != -1:
                ba = top[a]
                if ba in seen:
                    return self.base[ba]
                seen.add(ba)
                edge = via[ba]
                a = -1 if edge is None else via[top[edge[0]]][0]  # type: ignore[index]
            if b != -1:
                a, b = b, a
            elif a == -1:
                return -1

    def _up_to(self, x: int, stop: int) -> tuple[list[int], list[tuple[int, int]]]:
        """The labelled blossoms from x up the tree to ``stop`` (not included), and the edge
        (parent side, child side) that labelled each."""
        via, top = self._via, self.top
        blossoms, edges = [], []
        while x != stop:
            blossoms.append(x)
            p, q = via[x]  # type: ignore[misc]
            edges.append((p, q))
            x = top[p]
        return blossoms, edges

    def _add_blossom(self, base: int, v: int, u: int) -> None:
        top, via, label, parent = self.top, self._via, self._label, self.parent
        bb = top[base]
        b = self.unused.pop()
        self.base[b] = base
        self.dual[b] = 0
        parent[b] = -1
        down, down_edges = self._up_to(top[v], bb)   # the cycle: bb down to v's blossom …
        up, up_edges = self._up_to(top[u], bb)       # … across (v, u), and up from u's to bb
        children = [bb] + down[::-1] + up
        edges = down_edges[::-1] + [(v, u)] + [(q, p) for p, q in up_edges]
        self.children[b] = children
        self.edges[b] = edges
        label[b] = 1
        via[b] = via[bb]
        self._owner[b] = self._owner[bb]
        self._blist.append(b)
        ordered, parts = self._ordered, []
        for c in children:
            parent[c] = b
            leaves = ordered.pop(c, None) or self._leaves(c)
            parts.append(leaves)
            if label[c] == 2:
                self._queue.extend(leaves)
            for leaf in leaves:
                top[leaf] = b
        ordered[b] = list(chain.from_iterable(reversed(parts)))  # as :meth:`_gather` walks b

    def _expand_t(self, b: int, reach: list[int]) -> None:
        """An inner blossom whose dual reached 0: its children take its place in the tree."""
        top, label, via = self.top, self._label, self._via
        self._ordered.pop(b, None)
        children = self.children[b]
        entry_edge = via[b]
        for c in children:  # type: ignore[union-attr]
            self.parent[c] = -1
            label[c] = 0
            for leaf in self._leaves(c):
                top[leaf] = c
        p, q = entry_edge  # type: ignore[misc]
        entry = top[q]
        owner = self._owner
        for c in children:  # type: ignore[union-attr]
            owner[c] = owner[b]
        j = children.index(entry)  # type: ignore[union-attr]
        label[entry] = 2
        via[entry] = (p, q)
        self._enter(entry, False)
        for step, (x, y, nxt) in enumerate(self._walk(b, j)):  # outer, inner, outer … inner (the base)
            c = children[nxt]  # type: ignore[index]
            inner = bool(step % 2)
            label[c] = 2 if inner else 1
            via[c] = (x, y)
            self._enter(c, not inner)
        for c in children:  # type: ignore[union-attr]
            if label[c]:
                continue
            for leaf in self._leaves(c):
                if reach[leaf] != -1 and label[top[reach[leaf]]] == 1:
                    self._assign_t(leaf, reach[leaf])
                    break
        self.children[b] = self.edges[b] = None
        self.base[b] = -1
        label[b] = 0
        self.unused.append(b)

    def _augment(self, s: int, j: int) -> None:
        """Match outer vertex s to j and swap along the alternating path from s to its root."""
        n, top, via, mate = self.n, self.top, self._via, self.mate
        while True:
            bs = top[s]
            if bs >= n:
                self._rotate(bs, s)
            mate[s] = j
            edge = via[bs]
            if edge is None:
                return
            x = edge[0]
            bt = top[x]
            p, t = via[bt]  # type: ignore[misc]
            if bt >= n:
                self._rotate(bt, t)
            mate[t] = p
            s, j = p, t

    def _end_stage(self) -> None:
        """Expand the outer blossoms whose dual is zero (and their zero-dual sub-blossoms)."""
        n = self.n
        for b in range(n, 2 * n):
            if self.parent[b] == -1 and self.children[b] is not None and self.dual[b] == 0:
                self._expand_zero(b)

    def _expand_zero(self, b: int) -> None:
        """Expand b and, in turn, its sub-blossoms whose dual is zero (a stack, not a recursion)."""
        stack = [b]
        while stack:
            x = stack.pop()
            children = self.children[x]
            self._release(x)
            # in the order of a recursion: each child's own sub-blossoms before its next sibling
            stack.extend(reversed([c for c in children if c >= self.n and self.dual[c] == 0]))  # type: ignore[union-attr]


def _shared_duals(parent: list[int], above: dict[int, int], u: int) -> int:
    """The duals an edge (v, u) counts of the blossoms around v (``above``: from
    :meth:`WeightedMatching._duals_above`): those of the innermost one that holds u too."""
    b = parent[u]
    while b != -1:
        if b in above:
            return above[b]
        b = parent[b]
    return 0


def _largest_rests(weights: list[list[int]], share: list[int]) -> Iterator[int | None]:
    """Each row's largest weight less the other end's share, over its edges (None: no edge).
    Shares take few values: the columns of each are gathered at C speed, and their largest
    weight (0: none of them is an edge) less that share is the group's; many values: the
    differences edge by edge."""
    groups: dict[int, list[int]] = {}
    for u, su in enumerate(share):
        groups.setdefault(su, []).append(u)
    if len(groups) > 8:
        for row in weights:
            yield max(map(sub, compress(row, row), compress(share, row)), default=None)
        return
    # (the first column twice: a gather of one column still gives a tuple)
    gathers = [(su, itemgetter(*columns, columns[0])) for su, columns in groups.items()]
    for row in weights:
        rest = None
        for su, gather in gathers:
            top = max(gather(row))
            if top and (rest is None or top - su > rest):
                rest = top - su
        yield rest


def _feasible(row: list[int], dual: list[int], v: int, others: Iterable[int]) -> bool:
    """Whether every edge (v, u), u in ``others``, has a non-negative slack (the duals of
    blossoms aside: none holds v), read at C speed."""
    keys = list(others)
    edges = list(compress(keys, map(row.__getitem__, keys)))
    least = min(map(sub, map(dual.__getitem__, edges), map(row.__getitem__, edges)), default=None)
    return least is None or dual[v] + least >= 0


def _need(row: list[int], dual: list[int]) -> int:
    """The largest weight less the other end's dual over a vertex's edges (the least dual
    that keeps them all feasible; 0 for none), at C speed: rows are long and mostly equal."""
    return max(map(sub, compress(row, row), compress(dual, row)), default=0)
