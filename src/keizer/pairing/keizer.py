"""Keizer pairing of one round (the rules in ``docs/pairing.md``) as a pure function.

Hand-fixed pairs are taken as given (a rule they break is still reported).
With an odd number present the bye is chosen next: the policy lists the
candidates — ``fewest-byes``: fewest pairing byes first, bottom-up within a
count; ``lowest``: bottom-up; ``random``:
``random.Random(f"{bye_seed}:{round}").sample(candidates, len(candidates))``
over the candidates in ranking order — and the first whose absence leaves a
pairing without bent rules gets it; if none does, the policy's first choice.
Players in fixed pairs are no candidates.  Then the others are matched so that

1. no rule is bent when that is possible.  The rules, most important first:
   forbidden pairs, ``max_meetings``, the rematch window (``rematch_gap``; a
   forfeit is not a meeting), ``category_pairing`` (players without a category
   may meet anyone) and — when ``colour_limit`` is on — the colour limit (a
   pair breaks it when neither colour allocation keeps both players within
   |whites − blacks| ≤ 2 and below three of a colour in a row);
2. otherwise the rules are bent as little as possible, compared rule by rule in
   that order: fewest forbidden pairs, then fewest pairs over
   ``max_meetings``, then fewest rematches and among those the least recent
   (a rematch from k rounds ago weighs ``rematch_gap − k + 1``), then fewest
   category breaks, then fewest colour-limit breaks;
3. among the matchings that bend exactly as little, the top-down closest: the
   best-ranked player gets the nearest opponent (in the ranking of present
   players) that still allows such a matching of the rest, then the
   best-ranked player left, and so on — the lexicographically first matching,
   which is what a depth-first search with backtracking (KeizerForClubs)
   finds.  When nothing bites this is 1–2, 3–4, 5–6 …  Since everyone above the
   player being paired is already paired, nearer always means lower-ranked and
   distances never tie.

Colours are decided per pair afterwards: fewer net whites (whites − blacks over
games played on the board) gets White; if equal and the two met on the board,
their last game's colours are reversed; otherwise ``colour_tiebreak``.  With
``colour_limit`` an allocation that breaks the limit is swapped when the other
one does not.

How (exact in both cases):

* clean case — a maximum-cardinality matching of the graph of allowed pairs
  (Edmonds' blossom search, :mod:`keizer.pairing.matching`) is made lexicographically first by fixing
  partners top-down: a candidate nearer than the current partner is accepted
  only if an augmenting path re-pairs the two players it leaves alone, an
  incremental feasibility check that leaves the matching perfect;
* otherwise — the exact maximum-weight matching of :mod:`keizer.pairing.matching` on all
  pairs with the tiered integer costs (``docs/pairing.md``: each rule tier weighs more than
  all lower tiers together can) gives the fewest bends; then partners are fixed top-down
  among the least-bent matchings (see :func:`_least_bent`).

>>> p = pair_round(PairingRequest(round=1, ranking=("ann", "bob", "cor", "dan", "eva")))
>>> [(b.white, b.black) for b in p.boards], p.bye, p.bent
([('bob', 'ann'), ('dan', 'cor')], 'eva', ())
>>> p.boards[1].reason
'cor (3) v dan (4): nearest available in the ranking of present players; dan has White as the lower-ranked player (equal net whites 0, no game between them)'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import attrgetter
from typing import Callable, Sequence

from keizer.model import Colour, Game
from keizer.pairing.matching import WeightedMatching, augment, maximum_matching
from keizer.pairing.request import Board as Board
from keizer.pairing.request import Pairing as Pairing
from keizer.pairing.request import PairingError as PairingError
from keizer.pairing.request import PairingRequest as PairingRequest
from keizer.pairing.request import check
from keizer.refusals import Message

#: The rules a pairing can bend, most important first.
RULES = ("forbidden", "max_meetings", "rematch", "category", "colour")

_Ok = Callable[[int, int], bool]
_Cost = tuple[int, int, int, int, int, int]


def pair_round(request: PairingRequest) -> Pairing:
    """Pair one round; never fails when two or more players are present.

    >>> from keizer.model import Result
    >>> met = (Game(4, 1, "ann", "bob", Result.DRAW),)
    >>> p = pair_round(PairingRequest(5, ("ann", "bob", "cor", "dan"), met))
    >>> [(b.white, b.black) for b in p.boards]
    [('cor', 'ann'), ('bob', 'dan')]
    >>> p.boards[0].reason.split(";")[0]
    'ann (1) could not play bob (2): met in round 4'
    """
    check(request)
    rules = _Rules(request)
    rank = rules.rank
    in_fixed = {p for pair in request.fixed for p in pair}
    pool = tuple(p for p in request.ranking if p not in in_fixed)

    bye: str | None = None
    bye_why: Message | None = None
    if len(request.ranking) % 2:
        bye, bye_why = _choose_bye(request, pool, rules)
        pool = tuple(p for p in pool if p != bye)

    ok = rules.allowed(pool)
    mate = _perfect_matching(len(pool), ok)
    clean = mate is not None
    if mate is None:
        clean_pair = (0, 0, 0, 0, 0, 0)
        mate = _least_bent(len(pool), lambda i, j: clean_pair if ok(i, j) else rules.cost(pool[i], pool[j]),
                           request.settings.rematch_gap)
    else:
        _make_top_down(mate, ok)

    made: list[tuple[int, str, str, Message, list[_Bend], bool]] = []
    for white, black in request.fixed:
        bends = rules.bends(white, black) + rules.colour_bends(white, black)
        made.append((min(rank[white], rank[black]), white, black,
                     Message("fixed by hand (colours as given)"), bends, True))
    for i, j in enumerate(mate):
        if i < j:
            hi, lo = pool[i], pool[j]
            white, black, colour_why, colour_bends = _colours(hi, lo, rules)
            why = _opponent_reason(i, mate, pool, rules, clean)
            made.append((rank[hi], white, black, Message("%(opponent)s; %(colours)s", opponent=why, colours=colour_why),
                         rules.bends(hi, lo) + colour_bends, False))
    made.sort(key=lambda row: row[0])  # by the pair's best-ranked player

    boards: list[Board] = []
    bent: list[tuple[int, int, Message]] = []
    for number, (_, white, black, reason, bends, by_hand) in enumerate(made, 1):
        boards.append(Board(number, white, black, str(reason), reason))
        bent.extend((RULES.index(b.rule), number,
                     Message("%(bend)s (fixed by hand)", bend=b.sentence) if by_hand else b.sentence)
                    for b in bends)
    return Pairing(
        round=request.round,
        boards=tuple(boards),
        bye=bye,
        bye_why=bye_why,
        bent_why=tuple(sentence for _, _, sentence in sorted(bent, key=lambda row: (row[0], row[1], str(row[2])))),
    )


# --- facts ---------------------------------------------------------------


@dataclass(frozen=True)
class _Bend:
    rule: str  # one of RULES
    short: Message  # for a board's reason: "met in round 5"
    sentence: Message  # for Pairing.bent: "rematch: ann–bob met in round 5 (gap 4)"
    weight: int = 1  # rematches: gap − rounds ago + 1, so recent ones weigh more


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


class _Rules:
    """What the history and the request say about pairs of present players."""

    def __init__(self, req: PairingRequest) -> None:
        s = req.settings
        self.round = req.round
        self.settings = s
        self.names = req.names
        self.places = req.places
        self.rank = {p: k + 1 for k, p in enumerate(req.ranking)}
        present = set(req.ranking)
        # Games played on the board, in round order: meetings and colours.
        self.meetings: dict[tuple[str, str], list[Game]] = {}
        self.net: dict[str, int] = {}
        last: dict[str, Colour] = {}
        self.streak: dict[str, Colour] = {}  # colour of a player's last two games, if the same
        # A player meets nobody twice in a round, so the order within a round is irrelevant.
        for g in sorted(req.history, key=attrgetter("round")):
            if not g.played_on_board:
                continue
            if g.white in present and g.black in present:
                self.meetings.setdefault(_key(g.white, g.black), []).append(g)
            for p, colour, step in ((g.white, Colour.WHITE, 1), (g.black, Colour.BLACK, -1)):
                if p in present:
                    self.net[p] = self.net.get(p, 0) + step
                    if last.get(p) is colour:
                        self.streak[p] = colour
                    else:
                        self.streak.pop(p, None)
                    last[p] = colour
        self.forbidden = {_key(a, b) for a, b in req.forbidden}
        # Category rule: players a, b clash when both have a category and their
        # indices differ by more than `reach`; None = any pairing allowed.
        self.categories = req.categories
        self.reach: int | None = {"same": 0, "adjacent": 1}.get(s.category_pairing)
        order = req.category_order if s.category_pairing == "adjacent" else tuple(
            sorted(set(req.categories.values())))
        self.category_index = {p: order.index(c) for p, c in req.categories.items()
                               if p in present}
        # The sparse pair rules (forbidden, max_meetings, rematch) as blocked pairs.
        self.blocked = {pair for pair in set(self.meetings) | self.forbidden if self.bends(*pair)}

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def who(self, player: str) -> str:
        """'Anna (3)': name and rank (in the standing when the request gives it, else among
        the players present)."""
        return f"{self.name(player)} ({self.places.get(player, self.rank[player])})"

    def bends(self, a: str, b: str) -> list[_Bend]:
        """The rules a–b would bend, colours aside (they depend on the allocation)."""
        s = self.settings
        na, nb = self.name(a), self.name(b)
        found: list[_Bend] = []
        pair = _key(a, b)
        if pair in self.forbidden:
            found.append(_Bend("forbidden", Message("a forbidden pair"),
                               Message("forbidden: %(a)s–%(b)s is a forbidden pair", a=na, b=nb)))
        games = self.meetings.get(pair, [])
        if s.max_meetings is not None and len(games) >= s.max_meetings:
            found.append(_Bend(
                "max_meetings", Message("already met %(n)s times (max %(max)s)", n=len(games), max=s.max_meetings),
                Message("max_meetings: %(a)s–%(b)s have already met %(n)s times (max %(max)s)",
                        a=na, b=nb, n=len(games), max=s.max_meetings)))
        if games and games[-1].round >= self.round - s.rematch_gap:
            last = games[-1].round
            found.append(_Bend("rematch", Message("met in round %(round)s", round=last),
                               Message("rematch: %(a)s–%(b)s met in round %(round)s (gap %(gap)s)",
                                       a=na, b=nb, round=last, gap=s.rematch_gap),
                               s.rematch_gap - (self.round - last) + 1))
        if self._categories_clash(a, b):
            ca, cb = self.categories[a], self.categories[b]
            sentence = (Message("category: %(a)s (%(ca)s)–%(b)s (%(cb)s) are not in the same category",
                                a=na, ca=ca, b=nb, cb=cb) if self.reach == 0 else
                        Message("category: %(a)s (%(ca)s)–%(b)s (%(cb)s) are not in the same or adjacent categories",
                                a=na, ca=ca, b=nb, cb=cb))
            found.append(_Bend("category", Message("categories %(a)s and %(b)s", a=ca, b=cb), sentence))
        return found

    def _categories_clash(self, a: str, b: str) -> bool:
        ca, cb = self.category_index.get(a), self.category_index.get(b)
        return self.reach is not None and ca is not None and cb is not None and abs(ca - cb) > self.reach

    def colour_problem(self, player: str, colour: Colour) -> Message | None:
        """Why `player` may not have `colour` under the colour limit (None: may)."""
        if self.streak.get(player) is colour:
            return Message("a third White in a row") if colour is Colour.WHITE else Message("a third Black in a row")
        net = self.net.get(player, 0) + (1 if colour is Colour.WHITE else -1)
        if abs(net) > 2:
            return Message("whites − blacks at %(net)s", net=_signed(net))
        return None

    def colour_bends(self, white: str, black: str) -> list[_Bend]:
        """Colour-limit breaks of this allocation (none when the limit is off)."""
        if not self.settings.colour_limit:
            return []
        found = []
        for p, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
            problem = self.colour_problem(p, colour)
            if problem is not None:
                said = Message("%(player)s gets %(problem)s", player=self.name(p), problem=problem)
                found.append(_Bend("colour", said, Message("colour: %(bend)s", bend=said)))
        return found

    def colour_legal(self, white: str, black: str) -> bool:
        return not self.colour_bends(white, black)

    def cost(self, a: str, b: str) -> _Cost:
        """Bends of a–b per tier: forbidden, max_meetings, rematches, their
        recency, category, colour (1 when no allocation keeps the limit): what
        :meth:`bends` and :meth:`colour_bends` say, counted without their words (a
        pairing that must bend asks it of every pair)."""
        s = self.settings
        pair = _key(a, b)
        games = self.meetings.get(pair, ())
        last = games[-1].round if games else None
        rematch = last is not None and last >= self.round - s.rematch_gap
        colour = s.colour_limit and not (self._may(a, Colour.WHITE) and self._may(b, Colour.BLACK) or
                                         self._may(b, Colour.WHITE) and self._may(a, Colour.BLACK))
        return (int(pair in self.forbidden), int(s.max_meetings is not None and len(games) >= s.max_meetings),
                int(rematch), s.rematch_gap - (self.round - last) + 1 if rematch and last is not None else 0,
                int(self._categories_clash(a, b)), int(colour))

    def _may(self, player: str, colour: Colour) -> bool:
        """Whether the colour limit lets ``player`` have ``colour`` (see :meth:`colour_problem`)."""
        net = self.net.get(player, 0) + (1 if colour is Colour.WHITE else -1)
        return self.streak.get(player) is not colour and abs(net) <= 2

    def allowed(self, pool: Sequence[str]) -> _Ok:
        """ok(i, j): may pool[i] meet pool[j] without bending any rule?"""
        index = {p: k for k, p in enumerate(pool)}
        blocked: list[set[int]] = [set() for _ in pool]
        for a, b in self.blocked:
            if a in index and b in index:
                blocked[index[a]].add(index[b])
                blocked[index[b]].add(index[a])
        reach = self.reach
        cats = [self.category_index.get(p) for p in pool]
        limit = self.settings.colour_limit
        may_white = [self.colour_problem(p, Colour.WHITE) is None for p in pool]
        may_black = [self.colour_problem(p, Colour.BLACK) is None for p in pool]

        def ok(i: int, j: int) -> bool:
            if j in blocked[i]:
                return False
            if reach is not None:
                ci, cj = cats[i], cats[j]
                if ci is not None and cj is not None and abs(ci - cj) > reach:
                    return False
            return not limit or (may_white[i] and may_black[j]) or (may_white[j] and may_black[i])

        return ok


# --- bye ----------------------------------------------------------------------


def _bye_order(req: PairingRequest, pool: Sequence[str]) -> list[str]:
    """The policy's candidates, first choice first.

    ``random``: ``random.Random(f"{bye_seed}:{round}").sample(pool, len(pool))``
    with the pool in ranking order — string seeds are hashed by SHA-512, so
    the draw is the same on every run and machine.
    """
    policy = req.settings.bye_policy
    if policy == "random":
        return random.Random(f"{req.settings.bye_seed}:{req.round}").sample(list(pool), len(pool))
    bottom_up = list(reversed(pool))
    if policy == "lowest":
        return bottom_up
    return sorted(bottom_up, key=lambda p: req.byes.get(p, 0))  # stable: bottom-up per count


def _choose_bye(req: PairingRequest, pool: Sequence[str], rules: _Rules) -> tuple[str, Message]:
    """The bye and why: the first candidate in policy order whose absence
    leaves a pairing without bent rules, else the policy's first choice."""
    if req.bye is not None:
        return req.bye, Message("%(player)s: bye chosen by hand", player=rules.who(req.bye))
    s = req.settings
    order = _bye_order(req, pool)

    def policy_says(p: str) -> Message:
        if s.bye_policy == "random":
            return Message("%(player)s was drawn at random (seed %(seed)s, round %(round)s)",
                           player=rules.who(p), seed=s.bye_seed, round=req.round)
        if s.bye_policy == "lowest":
            return Message("%(player)s is the lowest-ranked player available", player=rules.who(p))
        return Message("%(player)s is the lowest-ranked of the players with the fewest byes (%(byes)s)",
                       player=rules.who(p), byes=req.byes.get(p, 0))

    rest = [p for p in pool if p != order[0]]
    if _perfect_matching(len(rest), rules.allowed(rest)) is not None:
        return order[0], policy_says(order[0])  # the usual case, and the quickest check
    # A vertex can be left out of a perfect matching of the rest exactly when
    # some maximum matching leaves it exposed: the even vertices of Edmonds'
    # search from the one exposed vertex (Gallai–Edmonds).
    ok = rules.allowed(pool)
    mate = maximum_matching(len(pool), ok)
    exposed = [v for v, partner in enumerate(mate) if partner == -1]
    spare: set[str] = set()
    if len(exposed) == 1:
        _, even = augment(exposed[0], mate, range(len(pool)), ok)
        spare = {pool[v] for v, e in enumerate(even) if e}
    for k, p in enumerate(order):
        if p in spare:  # never order[0]: that was ruled out above
            passed = _listing([rules.who(q) for q in order[:k]])
            if s.bye_policy == "fewest-byes":
                return p, Message("%(player)s is next in the %(policy)s order (%(byes)s byes so far): a bye for"
                                  " %(passed)s would leave no pairing without bending rules", player=rules.who(p),
                                  policy=s.bye_policy, byes=req.byes.get(p, 0), passed=passed)
            return p, Message("%(player)s is next in the %(policy)s order: a bye for %(passed)s would leave"
                              " no pairing without bending rules", player=rules.who(p), policy=s.bye_policy,
                              passed=passed)
    return order[0], Message("%(why)s; no choice of bye avoids bending rules", why=policy_says(order[0]))


def _listing(items: list[str], most: int = 3) -> str | Message:
    if len(items) <= most:
        return ", ".join(items)
    return Message("%(names)s and %(n)s more", names=", ".join(items[:most]), n=len(items) - most)


# --- matching -----------------------------------------------------------------
# Vertices are indices into the pool (ranking order); mate[v] is v's partner or -1.


def _perfect_matching(m: int, ok: _Ok) -> list[int] | None:
    mate = maximum_matching(m, ok)
    return None if -1 in mate else mate


def _make_top_down(mate: list[int], ok: _Ok) -> None:
    """Turn a perfect matching of allowed pairs into the lexicographically first one.

    For the best-ranked player i not yet fixed, a candidate j nearer than its
    partner a works iff the rest without i and j still has a perfect matching:
    unpair i–a and j–b, pair i–j, and search an augmenting path a … b among
    the players not yet fixed.
    """
    m = len(mate)
    fixed = [False] * m
    for i in range(m):
        if fixed[i]:
            continue
        a = mate[i]
        for j in range(i + 1, a):
            if fixed[j] or not ok(i, j):
                continue
            b = mate[j]
            mate[a] = mate[b] = mate[i] = mate[j] = -1
            rest = [v for v in range(i + 1, m) if not fixed[v] and v != j]
            if augment(a, mate, rest, ok)[0]:
                mate[i], mate[j] = j, i
                break
            mate[i], mate[a], mate[j], mate[b] = a, i, b, j
        fixed[i] = fixed[mate[i]] = True


def _least_bent(m: int, cost: Callable[[int, int], _Cost], gap: int) -> list[int]:
    """The perfect matching with the fewest bends by tier, then top-down closest.

    First the fewest bends: a maximum-weight matching (:class:`WeightedMatching`) with
    weight top − tiers(a, b), where each tier's unit exceeds what all lower tiers can add
    up to in one matching (m/2 pairs) and top exceeds every pair's tiers.  The graph is
    complete and every weight positive, so every maximum-weight matching is perfect, and
    its weight is m/2·top minus its bends: the maximum is the least bent.

    Then top-down, as :func:`_make_top_down` does for a clean pairing: the best-ranked player
    i not yet fixed takes the nearest j that some least-bent matching of the players left
    pairs with i (fixed pairs and a least-bent rest are least bent as a whole, so the rest's
    optima are among the whole's).  A candidate j is passed over at once when the edge's
    slack under the optimal duals is positive (no optimum uses it); one that bends nothing
    is tried as in the clean case, by an augmenting path over edges that bend nothing
    (which cannot add a bend, so the result is still least bent); only when that finds no
    path are the players left matched again with i–j forced, and the bends compared.
    (The order was once packed into the weights as m^(m−1−a) per step: exact, but numbers
    of m·log10(m) digits that took seconds and half a gigabyte at 600 players.)
    """
    pairs = m // 2
    bounds = (pairs, pairs, pairs, pairs * gap, pairs, pairs)  # most a tier can sum to
    tiers = [[0] * m for _ in range(m)]
    for a in range(m):
        row = tiers[a]
        for b in range(a + 1, m):
            value = 0
            for part, bound in zip(cost(a, b), bounds):
                value = value * (bound + 1) + part
            row[b] = tiers[b][a] = value
    top = max((max(row) for row in tiers), default=0) + 1
    optimum = WeightedMatching([[top - t if a != b else 0 for b, t in enumerate(row)] for a, row in enumerate(tiers)])
    optimum.solve()
    mate = list(optimum.mate)

    def clean(u: int, v: int) -> bool:
        return tiers[u][v] == 0

    fixed = [False] * m
    for i in range(m):
        if fixed[i]:
            continue
        for j in range(i + 1, mate[i]):
            if fixed[j] or optimum.slack(i, j):
                continue
            if clean(i, j) and _swap_in(i, j, mate, fixed, clean):
                break
            if _forced(i, j, mate, fixed, tiers, top):
                break
        fixed[i] = fixed[mate[i]] = True
    return mate


def _swap_in(i: int, j: int, mate: list[int], fixed: list[bool], ok: _Ok) -> bool:
    """Pair i with j if an augmenting path over ``ok`` edges re-pairs their partners."""
    a, b = mate[i], mate[j]
    mate[a] = mate[b] = mate[i] = mate[j] = -1
    if augment(a, mate, [v for v in range(i + 1, len(mate)) if not fixed[v] and v != j], ok)[0]:
        mate[i], mate[j] = j, i
        return True
    mate[i], mate[a], mate[j], mate[b] = a, i, b, j
    return False


def _forced(i: int, j: int, mate: list[int], fixed: list[bool], tiers: list[list[int]], top: int) -> bool:
    """Pair i with j if the players left, matched least bent, then bend no more than now."""
    rest = [v for v in range(i + 1, len(mate)) if not fixed[v] and v != j]
    now = sum(tiers[v][mate[v]] for v in rest + [i, j]) // 2  # each pair counted from both ends
    sub = WeightedMatching([[top - tiers[u][v] if u != v else 0 for v in rest] for u in rest])
    sub.solve()
    if sum(tiers[rest[k]][rest[p]] for k, p in enumerate(sub.mate)) // 2 + tiers[i][j] != now:
        return False
    for k, p in enumerate(sub.mate):
        mate[rest[k]] = rest[p]
    mate[i], mate[j] = j, i
    return True


# --- explanations and colours -------------------------------------------------


def _joined(parts: Sequence[Message]) -> Message:
    """Parts said one after the other, as "a, b, c"."""
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = Message("%(first)s, %(rest)s", first=part, rest=said)
    return said


def _opponent_reason(i: int, mate: list[int], pool: Sequence[str], rules: _Rules,
                     clean: bool) -> Message:
    """Why pool[i] plays mate[i]: the nearer players still free, and why not them."""
    j = mate[i]
    hi, lo = pool[i], pool[j]
    passed: list[Message] = []
    for k in range(i + 1, j):
        if mate[k] > i:  # still unpaired when pool[i]'s turn came
            shorts = [b.short for b in rules.bends(hi, pool[k])]
            if rules.settings.colour_limit and not (
                    rules.colour_legal(hi, pool[k]) or rules.colour_legal(pool[k], hi)):
                shorts.append(Message("no colours within the colour limit"))
            if not shorts:
                shorts.append(Message("the rest could not then be paired") if clean
                              else Message("more rules would be bent elsewhere"))
            passed.append(Message("%(player)s: %(why)s", player=rules.who(pool[k]), why=_joined(shorts)))
    if not passed:
        why = Message("%(player)s v %(opponent)s: nearest available in the ranking of present players",
                      player=rules.who(hi), opponent=rules.who(lo))
    else:
        shown = passed[:3]
        tried = shown[-1]
        for one in reversed(shown[:-1]):
            tried = Message("%(first)s; nor %(rest)s", first=one, rest=tried)
        if len(passed) > 3:
            why = Message("%(player)s could not play %(tried)s (and %(more)s more); next nearest %(opponent)s",
                          player=rules.who(hi), tried=tried, more=len(passed) - 3, opponent=rules.who(lo))
        else:
            why = Message("%(player)s could not play %(tried)s; next nearest %(opponent)s",
                          player=rules.who(hi), tried=tried, opponent=rules.who(lo))
    own = rules.bends(hi, lo)
    if own:
        why = Message("%(why)s (bending: %(bends)s)", why=why, bends=_joined([b.short for b in own]))
    return why


def _colours(hi: str, lo: str, rules: _Rules) -> tuple[str, str, Message, list[_Bend]]:
    """(white, black, why, colour-limit bends) for the pair hi (better ranked) – lo."""
    net_hi, net_lo = rules.net.get(hi, 0), rules.net.get(lo, 0)
    games = rules.meetings.get(_key(hi, lo))
    if net_hi != net_lo:
        white = hi if net_hi < net_lo else lo
        why = Message("%(white)s has White: fewer net whites (%(fewer)s vs %(more)s)", white=rules.name(white),
                      fewer=_signed(min(net_hi, net_lo)), more=_signed(max(net_hi, net_lo)))
    elif games:
        white = games[-1].black
        why = Message("%(white)s has White: equal net whites (%(net)s), colours of their round-%(round)s game reversed",
                      white=rules.name(white), net=_signed(net_hi), round=games[-1].round)
    elif rules.settings.colour_tiebreak == "lower-white":
        white = lo
        why = Message("%(white)s has White as the lower-ranked player (equal net whites %(net)s, no game"
                      " between them)", white=rules.name(white), net=_signed(net_hi))
    else:
        white = hi
        why = Message("%(white)s has White as the higher-ranked player (equal net whites %(net)s, no game"
                      " between them)", white=rules.name(white), net=_signed(net_hi))
    black = lo if white == hi else hi
    if rules.settings.colour_limit and rules.colour_bends(white, black) \
            and rules.colour_legal(black, white):
        player, colour = next((p, c) for p, c in ((white, Colour.WHITE), (black, Colour.BLACK))
                              if rules.colour_problem(p, c) is not None)
        white, black = black, white
        why = Message("%(white)s has White: otherwise %(player)s would get %(problem)s (colour limit)",
                      white=rules.name(white), player=rules.name(player), problem=rules.colour_problem(player, colour))
    bends = rules.colour_bends(white, black)
    if bends:
        why = Message("%(why)s; the colour limit is bent either way: %(bends)s", why=why,
                      bends=_joined([b.short for b in bends]))
    return white, black, why, bends
