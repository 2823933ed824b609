"""The FIDE Lim system (Handbook C.04.4.3, in force from 1 February 2026) for one round.

The same input and output as the Dutch engine (:func:`keizer.pairing.swiss.dutch.pair`):
each player an :class:`~keizer.pairing.swiss.dutch.Entrant`, who may not meet
(``avoid``), and back come the (white, black) pairs and the pairing-allocated bye.
``docs/swiss.md`` ("Lim (C.04.4.3)") maps each article to the code; in short:

* 1.1: the bye goes to the lowest ranked player of the lowest scoregroup who may
  have it (C.04.1: not a second bye) and whose absence leaves a pairable round.
* 2.1: two players are *compatible* when they have not met (nor are a forbidden
  pair) and some colour gives neither a third colour in a row nor a colour
  difference beyond 2.
* 2.2: the scoregroups above the Median Scoregroup (score = half of what the rounds
  played can give) are paired from the top down, those below it from the bottom
  up, and the Median Scoregroup last, downward.  A floater moves to the next group
  in that order; the Median Scoregroup takes the floaters of both sides.
* 2.3: a scoregroup floats only the players it cannot pair (too few compatible
  opponents, or an odd number); the floater is chosen by type (3.9: one that did
  not float in already and has a compatible opponent in the next group first), then
  not one who floated in the round before (3.10), then one due the colour more of
  the group are due (3.2.2), then the lowest ranked when pairing downward, the
  highest ranked when upward.
* 2.4, 4.1-4.3: the proposed pairings are top half against bottom half; the
  first player (#1 downward, the last upward) takes the first compatible opponent
  in the exchange order (the bottom half in order, then the top half from the
  bottom up), and the rest is proposed again the same way.  Incoming floaters are
  paired first (3.8).  Among the complete pairings, the one giving most players
  their due colour is taken (2.5, Article 5: exchanges for alternation and
  equalisation of colours), the first of them in that order.
* Article 5: colours alternate (and equalise after an even number of rounds); ties
  go by colour history, then rank (5.4).  Article 6: in the last round two players
  of one score may meet beyond the colour limits.

Where the text pairs a group and only later finds that the Median Scoregroup is
blocked (2.6: it then undoes pairings made before), keizer looks ahead instead:
every choice above is taken only if the players still to pair can all be paired
(one maximum matching of :mod:`keizer.pairing.matching` says so), so the round is
complete whenever a pairing that meets the absolute criteria exists.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from keizer.pairing.matching import WeightedMatching, maximum_matching
from keizer.pairing.swiss.dutch import BLACK, NO_COLOUR, WHITE, Entrant, NoPairing, Outcome

DOWN, UP = True, False


class _Card:
    """One player's colour facts (C.04.1 f-h, Lim 2.1 and 5)."""

    __slots__ = ("e", "number", "score", "rank", "diff", "repeated", "due", "eligible", "i")

    def __init__(self, e: Entrant):
        self.e, self.number, self.score, self.rank = e, e.number, e.score, e.rank
        self.i = 0  # place in the round's ranking
        whites = sum(1 for c in e.colours if c == WHITE)
        self.diff = whites - (len(e.colours) - whites)
        self.repeated = e.colours[-1] if len(e.colours) >= 2 and e.colours[-1] == e.colours[-2] else NO_COLOUR
        if self.repeated != NO_COLOUR:
            self.due = 1 - self.repeated          # two in a row: the other colour (5.1)
        elif abs(self.diff) > 1:
            self.due = BLACK if self.diff > 0 else WHITE   # equalisation (after an even number of games)
        elif e.colours:
            self.due = 1 - e.colours[-1]          # alternation (5: which equalises when the colours are level)
        else:
            self.due = NO_COLOUR
        self.eligible = e.eligible

    def may_have(self, colour: int) -> bool:
        """Not a third colour in a row, nor three more of one colour than the other (2.1)."""
        return colour != self.repeated and abs(self.diff + (1 if colour == WHITE else -1)) <= 2


def pair(entrants: Iterable[Entrant], avoid: Mapping[int, Iterable[int]], last_round: bool,
         played_rounds: int, initial_white: bool = True, whole: bool = False, *,
         median: int | None = None) -> Outcome:
    """Pair one round by the Lim system.  The arguments are the Dutch engine's
    (``whole`` changes nothing here; in the ``last_round`` the colour limits give way for
    two players of one score, Article 6), and ``median``: the score of the Median Scoregroup in the entrants'
    score units — half of what ``played_rounds`` rounds can give (default: the
    score of the middle player of the ranking).

    >>> from keizer.pairing.swiss.dutch import Entrant
    >>> field = [Entrant(n, n - 1, 0, (), None, None, 0, True) for n in range(1, 8)]
    >>> pair(field, {}, False, 0)     # round 1: 1-4, 2-5, 3-6; the bye to 7 (1.1)
    Outcome(pairs=((1, 4), (5, 2), (3, 6)), bye=7)
    """
    return _Round(list(entrants), avoid, played_rounds, initial_white, median, last_round).run()


class _Round:
    def __init__(self, entrants: list[Entrant], avoid: Mapping[int, Iterable[int]], played_rounds: int,
                 initial_white: bool, median: int | None, last_round: bool = False):
        self.cards = sorted((_Card(e) for e in entrants), key=lambda c: (-c.score, c.rank))
        self.avoid = {n: set(v) for n, v in avoid.items()}
        for i, c in enumerate(self.cards):
            c.i = i
        self.last_round = last_round
        self.ok = [bytearray(self._compatible(a, b) for b in self.cards) for a in self.cards]
        self.initial_white = initial_white
        scores = [c.score for c in self.cards]
        self.median = median if median is not None else (scores[len(scores) // 2] if scores else 0)
        self.played_rounds = played_rounds

    # -- compatibility and colours -------------------------------------------------

    def compatible(self, a: _Card, b: _Card) -> bool:
        """2.1: not met (nor forbidden), and a colour for each within the limits."""
        return bool(self.ok[a.i][b.i])

    def _compatible(self, a: _Card, b: _Card) -> bool:
        if a is b or b.number in self.avoid.get(a.number, ()) or a.number in self.avoid.get(b.number, ()):
            return False
        # Article 6: in the last round, players of one score may meet beyond the colour limits
        return self.within(a, b) or (self.last_round and a.score == b.score)

    def within(self, a: _Card, b: _Card) -> bool:
        """A colour for each within the limits of 2.1 (no third in a row, no three more)."""
        return (a.may_have(WHITE) and b.may_have(BLACK)) or (a.may_have(BLACK) and b.may_have(WHITE))

    def colours(self, a: _Card, b: _Card, upper: bool) -> tuple[int, int]:
        """(white, black) pairing numbers (Article 5).  ``upper``: paired in a scoregroup at
        or above the median (rank decides for the higher ranked there, the lower below)."""
        a_white = self._a_white(a, b, upper)
        return (a.number, b.number) if a_white else (b.number, a.number)

    def _a_white(self, a: _Card, b: _Card, upper: bool) -> bool:
        can_a_white = a.may_have(WHITE) and b.may_have(BLACK)
        can_a_black = a.may_have(BLACK) and b.may_have(WHITE)
        if can_a_white != can_a_black:      # only one colour keeps the limits (2.1)
            return can_a_white
        if a.due != b.due:                  # both get their due colour, or the one who has one
            return a.due == WHITE if a.due != NO_COLOUR else b.due == BLACK
        higher, lower = (a, b) if (a.score, -a.rank) > (b.score, -b.rank) else (b, a)
        if a.due == NO_COLOUR:              # nobody has played: the initial colour by rank (round 1)
            initial = WHITE if self.initial_white else BLACK
            colour = initial if higher.rank % 2 == 0 else 1 - initial
            return (colour == WHITE) == (higher is a)
        # the same due colour: the stronger claim (two in a row, then the wider difference) ...
        claim_a, claim_b = (a.repeated != NO_COLOUR, abs(a.diff)), (b.repeated != NO_COLOUR, abs(b.diff))
        if claim_a != claim_b:
            winner = a if claim_a > claim_b else b
            return (winner.due == WHITE) == (winner is a)
        for mine, theirs in zip(reversed(a.e.colours), reversed(b.e.colours)):
            if mine != theirs:              # ... else the colour history: each alternates from the last
                return theirs == WHITE      # round in which their colours differed
        winner = higher if upper else lower  # ... else rank: the higher ranked above the median, the lower below
        return (winner.due == WHITE) == (winner is a)

    def both_due(self, a: _Card, b: _Card) -> bool:
        """Whether the pair gives both players their due colour (or one has none)."""
        return a.due == NO_COLOUR or b.due == NO_COLOUR or a.due != b.due

    # -- feasibility ---------------------------------------------------------------

    def pairable(self, players: list[_Card]) -> bool:
        """Whether ``players`` can all be paired with compatible opponents."""
        if len(players) % 2:
            return False
        mate = maximum_matching(len(players), lambda i, j: self.compatible(players[i], players[j]))
        return all(m != -1 for m in mate)

    def best(self, players: list[_Card], weight: list[list[int]]) -> tuple[int, int]:
        """(pairs, weight) of a maximum-weight matching of ``players`` under ``weight``."""
        m = WeightedMatching([row[:] for row in weight])
        m.solve()
        return sum(1 for v, u in enumerate(m.mate) if u > v), m.weight()

    # -- the round -----------------------------------------------------------------

    def run(self) -> Outcome:
        pool = list(self.cards)
        bye = None
        if len(pool) % 2:
            bye = self.choose_bye(pool)
            pool = [c for c in pool if c is not bye]
        if not self.pairable(pool):
            raise NoPairing()
        groups: dict[int, list[_Card]] = {}
        for c in pool:
            groups.setdefault(c.score, []).append(c)
        above = sorted((s for s in groups if s > self.median), reverse=True)
        below = sorted(s for s in groups if s < self.median)
        order = [(s, DOWN) for s in above] + [(s, UP) for s in below] + [(self.median, DOWN)]
        arrivals: dict[int, list[_Card]] = {s: [] for s, _ in order}
        unpaired = {c.number: c for c in pool}
        pairs: list[tuple[int, int]] = []
        for k, (score, direction) in enumerate(order):
            residents = groups.get(score, [])
            incoming = arrivals[score]
            group = sorted(residents + incoming, key=lambda c: (-c.score, c.rank))
            inside = {c.number for c in group}
            rest = [c for n, c in unpaired.items() if n not in inside]
            target = self.next_group(order, k)
            adjacent = groups.get(target, []) if target is not None else []
            floaters, made = self.pair_group(group, incoming, rest, direction, adjacent, score)
            for a, b in made:
                del unpaired[a.number], unpaired[b.number]
                pairs.append(self.colours(a, b, score >= self.median))
            if target is not None:
                arrivals[target].extend(floaters)
            elif floaters:  # the Median Scoregroup pairs everyone left: cannot happen after the look-ahead
                raise NoPairing()
        return Outcome(tuple(pairs), bye.number if bye is not None else None)

    def next_group(self, order: list[tuple[int, bool]], k: int) -> int | None:
        """Where the floaters of the k-th group go: the next group on the same side, else the median."""
        if k == len(order) - 1:
            return None
        following = order[k + 1]
        return following[0] if following[1] == order[k][1] else self.median

    def choose_bye(self, pool: list[_Card]) -> _Card:
        """1.1: the lowest ranked player of the lowest scoregroup who may have the bye
        (C.04.1 d) and leaves a round that can be paired."""
        for c in reversed(pool):
            if c.eligible and self.pairable([o for o in pool if o is not c]):
                return c
        raise NoPairing()

    # -- one scoregroup ------------------------------------------------------------

    def pair_group(self, group: list[_Card], incoming: list[_Card], rest: list[_Card], direction: bool,
                   adjacent: list[_Card], score: int) -> tuple[list[_Card], list[tuple[_Card, _Card]]]:
        """Pair the scoregroup of ``score``: (its floaters, its pairs)."""
        if not group:
            return [], []
        floaters = self.choose_floaters(group, incoming, rest, direction, adjacent)
        out = set(id(c) for c in floaters)
        staying = [c for c in group if id(c) not in out]
        return floaters, self.exchange(staying, incoming, direction, score)

    def choose_floaters(self, group: list[_Card], incoming: list[_Card], rest: list[_Card], direction: bool,
                        adjacent: list[_Card]) -> list[_Card]:
        """2.3: as few floaters as the group allows with the rest of the round still
        pairable; chosen by type (3.9), then not one who floated in the round before (3.10),
        then one due the colour more of the group are due (3.2.2), then by rank."""
        came = {id(c) for c in incoming}

        whites = sum(1 for c in group if c.due == WHITE)
        blacks = sum(1 for c in group if c.due == BLACK)
        more = WHITE if whites > blacks else BLACK if blacks > whites else NO_COLOUR

        def kind(c: _Card) -> tuple[int, bool, bool]:
            has = any(self.compatible(c, o) for o in adjacent)
            return ((2 if id(c) in came else 0) + (0 if has else 1),   # 3.9: types d, c, b, a
                    c.e.float1 is not None,                            # 3.10: not one who floated last round
                    more != NO_COLOUR and c.due != more)               # 3.2.2: one due the commoner colour

        ranked = group[::-1] if direction == DOWN else group
        candidates = sorted(ranked, key=kind)   # stable: then by rank (3.2.4, 3.3)
        if len(group) % 2 == 0 and self.pairable(group) and self.pairable(rest):
            return []
        if len(group) % 2:                  # the usual case: one floater will do
            for c in candidates:
                if self.pairable([o for o in group if o is not c]) and self.pairable(rest + [c]):
                    return [c]
        return self.more_floaters(group, rest, candidates)

    def more_floaters(self, group: list[_Card], rest: list[_Card], candidates: list[_Card]) -> list[_Card]:
        """The floaters when one is not enough: the fewest that leave the round pairable
        (a maximum-weight matching counts the pairs the group can keep), chosen one at a
        time in the order of ``candidates``."""
        everyone = group + rest
        n, g = len(everyone), len(group)
        big = n + 1
        weight = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                if self.compatible(everyone[i], everyone[j]):
                    weight[i][j] = weight[j][i] = big + (1 if i < g and j < g else 0)
        pairs, total = self.best(everyone, weight)
        if 2 * pairs != n:
            raise NoPairing()
        count = g - 2 * (total - big * pairs)
        chosen: list[_Card] = []
        index = {id(c): i for i, c in enumerate(everyone)}
        for _ in range(count):
            for c in candidates:
                if c in chosen:
                    continue
                trial = [row[:] for row in weight]
                for f in chosen + [c]:
                    i = index[id(f)]
                    for j in range(g):
                        if trial[i][j]:
                            trial[i][j] = trial[j][i] = big
                if self.best(everyone, trial) == (pairs, total):
                    chosen.append(c)
                    break
            else:
                raise NoPairing()
        return chosen

    def exchange(self, players: list[_Card], incoming: list[_Card], direction: bool,
                 score: int) -> list[tuple[_Card, _Card]]:
        """2.4-2.5 and 4.1-4.3: the first pairing in the exchange order among those giving
        the most players their due colour; incoming floaters are paired first (3.8)."""
        if not players:
            return []
        hand = _Hand(self, players)
        came = {id(c) for c in incoming}
        made: list[tuple[_Card, _Card]] = []
        left = list(players)
        # 3.8: downfloaters first (highest ranked first, to the highest ranked resident), then
        # upfloaters (lowest ranked first, to the lowest ranked resident)
        downs = [c for c in left if id(c) in came and c.score > score]
        ups = [c for c in left if id(c) in came and c.score < score][::-1]
        for f in downs + ups:
            if f not in left:
                continue
            residents = [c for c in left if c is not f and id(c) not in came]
            others = [c for c in left if c is not f and id(c) in came]
            order = (residents + others) if f in downs else (residents[::-1] + others[::-1])
            self.fix(f, order, left, made, hand)
        while left:
            line = left if direction == DOWN else left[::-1]
            half = len(line) // 2
            order = line[half:] + line[1:half][::-1]
            self.fix(line[0], order, left, made, hand)
        return made

    def fix(self, first: _Card, order: list[_Card], left: list[_Card], made: list[tuple[_Card, _Card]],
            hand: _Hand) -> None:
        """Pair ``first`` with the first of ``order`` that keeps an optimal pairing of ``left``."""
        for o in order:
            if self.compatible(first, o) and hand.take(first, o):
                made.append((first, o))
                left.remove(first)
                left.remove(o)
                return
        raise NoPairing()


class _Hand:
    """A scoregroup's best pairing — complete, and giving most players their due colour — kept
    by the incremental matcher while its pairs are made one at a time."""

    def __init__(self, rnd: _Round, players: list[_Card]):
        n = len(players)
        mid = n + 1                          # a pair within the colour limits (only the last round has others)
        big = (mid + 1) * (n + 1)            # a pair at all: the pairing is complete first
        self.at = {c.i: k for k, c in enumerate(players)}
        weight = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                a, b = players[i], players[j]
                if rnd.compatible(a, b):
                    weight[i][j] = weight[j][i] = (big + (mid if rnd.within(a, b) else 0)
                                                   + (1 if rnd.both_due(a, b) else 0))
        self.m = WeightedMatching(weight)
        self.m.solve()
        if any(u == -1 for u in self.m.mate):
            raise NoPairing()
        self.total = self.m.weight()

    def take(self, a: _Card, b: _Card) -> bool:
        """Make a-b a pair if a best pairing has it (else change nothing): a's other edges are
        taken away and the matching asked whether it still weighs as much."""
        m, va, vb = self.m, self.at[a.i], self.at[b.i]
        weight = m.w[va][vb] // 2       # the matcher keeps weights doubled
        if not weight:
            return False
        if m.mate[va] != vb:
            others = {u: w // 2 for u, w in enumerate(m.w[va]) if w and u != vb}
            m.set_weights(va, {u: 0 for u in others})
            m.solve()
            if m.weight() != self.total:
                m.set_weights(va, others)
                m.solve()
                return False
        m.remove((va, vb))
        m.solve()
        self.total -= weight
        return True
