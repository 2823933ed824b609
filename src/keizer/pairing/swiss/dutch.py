"""The bracket search of the FIDE Dutch system (C.04.3, rules of 2025/2026) for one round.

Input: the players to pair, each an :class:`Entrant` (score, colours, floats,
bye eligibility, effective pairing number), and who may not meet.  Output:
the pairs with colours and the pairing-allocated bye.  ``docs/swiss.md``
explains how each criterion maps to the search; in short:

* Players are ranked by score, then pairing number, and split into
  scoregroups.  Brackets are paired from the top: a bracket is the players
  moved down from above (MDPs) plus one scoregroup (the residents).
* Every decision is a maximum-weight matching whose integer weight packs the
  criteria, most important first, in fields that cannot overflow into each
  other: that the whole round can still be completed (C.4) with a legal bye
  (C.2), the pairs made in the bracket (C.5) and their scores (C.6), the pairs
  and scores of the next bracket (C.7, C.8), the unplayed games of the bye
  (C.9), the colour criteria for topscorers (C.10, C.11) and everyone (C.12,
  C.13), and the repeated floats (C.14-C.21).
* The order of the Dutch candidates (Article 4: which MDPs, their opponents,
  exchanges between S1 and S2, transpositions) is then fixed one choice at a
  time: a small bonus on one player's edges asks whether an optimal
  matching exists with that choice, and the choice is made final.

The matching is kept between these steps (:class:`~keizer.pairing.matching.WeightedMatching`
is incremental), so each step costs one or two augmenting searches.  Its graph is
the bracket (and the next scoregroup when more than one player floats); the
players below are asked only whether they can take who is left, and the bracket
is searched with every player still to pair when they cannot — the rules' own
formulation, which ``whole=True`` uses throughout (the tests compare the two).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import add
from typing import Callable, Iterable, Mapping, Sequence

from keizer.pairing.matching import WeightedMatching, augment, first_exposable, maximum_matching

WHITE, BLACK, NO_COLOUR = 0, 1, -1
BRACKET, NEXT, WHOLE = 0, 1, 2  # what a bracket's graph holds: itself, the next scoregroup too, everyone left
DOWN, UP = "down", "up"


@dataclass(frozen=True)
class Entrant:
    """One player to be paired, as the Dutch rules see him before the round."""

    number: int                   # pairing number, as reported
    rank: int                     # effective pairing number (0-based) among this round's players
    score: int                    # in the tournament's smallest score unit
    colours: tuple[int, ...]      # WHITE/BLACK of the games played, oldest first
    float1: str | None            # DOWN, UP or None in the previous round
    float2: str | None            # ... and in the round before that
    played: int                   # games played (C.9: the bye goes to the fewest unplayed games)
    eligible: bool                # may receive the pairing-allocated bye (C.2)
    topscorer: bool = False       # more than half the maximum score, when the last round is paired


class NoPairing(Exception):
    """No pairing meets the absolute criteria."""


@dataclass(frozen=True)
class Outcome:
    """The round: (white, black) pairing numbers, and the pairing-allocated bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


class _Player:
    __slots__ = ("i", "e", "score", "pref", "imbalance", "repeated", "absolute", "strong", "f1", "f2",
                 "eligible", "top")

    def __init__(self, i: int, e: Entrant):
        self.i, self.e, self.score = i, e, e.score
        whites = sum(1 for c in e.colours if c == WHITE)
        blacks = len(e.colours) - whites
        fewer = BLACK if whites > blacks else WHITE
        run, last = 0, NO_COLOUR
        for c in e.colours:
            run = run + 1 if c == last else 1
            last = c
        self.imbalance = abs(whites - blacks)
        if self.imbalance > 1:
            self.pref = fewer
        elif run > 1:
            self.pref = 1 - last
        elif self.imbalance:
            self.pref = fewer
        elif run:
            self.pref = 1 - last
        else:
            self.pref = NO_COLOUR
        self.repeated = last if run > 1 else NO_COLOUR
        self.absolute = self.imbalance > 1 or self.repeated != NO_COLOUR
        self.strong = not self.absolute and self.imbalance > 0
        self.f1, self.f2 = e.float1, e.float2
        self.eligible = e.eligible
        self.top = e.topscorer


def assess(entrants: Iterable[Entrant], avoid: Mapping[int, Iterable[int]], last_round: bool,
           played_rounds: int, pairs: Iterable[tuple[int, int]]) -> list[tuple[int, list[tuple[str, int]]]]:
    """The Dutch criteria of a given round pairing, bracket by bracket (see :meth:`_Round.assess`)."""
    return _Round(list(entrants), avoid, last_round, played_rounds, True).assess(pairs)


def possible(entrants: Iterable[Entrant], avoid: Mapping[int, Iterable[int]], last_round: bool,
             played_rounds: int) -> bool:
    """Whether the round has a pairing that meets the absolute criteria (a maximum matching
    and a lawful bye: what :func:`pair` checks first)."""
    try:
        _Round(list(entrants), avoid, last_round, played_rounds, True).prepare()
    except NoPairing:
        return False
    return True


def pair(entrants: Iterable[Entrant], avoid: Mapping[int, Iterable[int]], last_round: bool,
         played_rounds: int, initial_white: bool = True, whole: bool = False, plain: bool = True) -> Outcome:
    """Pair one round.  ``avoid[n]``: the pairing numbers player n may not meet (those he
    played, a forbidden pair — both ways); ``last_round`` switches on the
    topscorer exceptions; ``played_rounds`` is the number of rounds before this one;
    ``whole`` searches every bracket with all players still to pair (slow: for tests);
    ``plain=False`` searches even the brackets whose pairing the rules give directly
    (:meth:`_Round.plain`; for tests)."""
    return _Round(list(entrants), avoid, last_round, played_rounds, initial_white, whole, plain).run()


def _bits(x: int) -> int:
    return max(1, x.bit_length()) + 1


class _Round:
    def __init__(self, entrants: list[Entrant], avoid: Mapping[int, Iterable[int]], last_round: bool,
                 played_rounds: int, initial_white: bool, whole: bool = False, plain: bool = True):
        entrants.sort(key=lambda e: (-e.score, e.rank))
        self.players = [_Player(i, e) for i, e in enumerate(entrants)]
        self.n = n = len(entrants)
        self.played_rounds = played_rounds
        self.initial_white = initial_white
        self.whole = whole  # always search the whole remaining round (the reference; slow)
        self.use_plain = plain and not whole  # pair the brackets the rules pair directly without a search
        ps = self.players
        index = {p.e.number: p.i for p in ps}
        # Who may meet whom (C.1, C.3): everyone, but not themselves, the players they may not
        # meet, nor — outside the last round's topscorers — someone of the same absolute preference.
        self.ok: list[bytearray] = []
        ok = self.ok
        same = {WHITE: [p.i for p in ps if p.absolute and p.pref == WHITE],
                BLACK: [p.i for p in ps if p.absolute and p.pref == BLACK]}
        for p in ps:
            row = bytearray(b"\x01") * n
            row[p.i] = 0
            for number in avoid.get(p.e.number, ()):
                if number in index:
                    row[index[number]] = 0
            if p.absolute and not (last_round and p.top):
                for j in same[p.pref]:
                    if not (last_round and ps[j].top):
                        row[j] = 0
            ok.append(row)
        self.groups: list[list[int]] = []
        for p in ps:
            if self.groups and ps[self.groups[-1][0]].score == p.score:
                self.groups[-1].append(p.i)
            else:
                self.groups.append([p.i])

    # -- the round ---------------------------------------------------------------------

    def run(self) -> Outcome:
        n, ps = self.n, self.players
        if n == 0:
            return Outcome((), None)
        flag = self.prepare()
        self.final: dict[int, int] = {}
        mdps: list[int] = []
        residents = self.groups[0]
        g = 1
        while len(mdps) + len(residents) > 1 or g < len(self.groups):
            nxt = self.groups[g] if g < len(self.groups) else []
            if not residents and not nxt:
                break
            self.later = [v for group in self.groups[g + 1:] for v in group]
            # The bracket whose end decides the bye's bracket reads the whole round's matching.
            whole = self.whole or self.flag_init or bool(n % 2 and nxt and self.bye_score >= ps[nxt[0]].score)
            done = self.plain(mdps, residents, nxt, flag) if self.use_plain else None
            for mode in (() if done is not None else (WHOLE,) if whole else (BRACKET, NEXT, WHOLE)):
                done = _Bracket(self, mdps, residents, nxt, flag, mode).run()
                if done is not None:
                    break
            assert done is not None
            pairs, mdps, flag = done
            for a, b in pairs:
                self.final[a], self.final[b] = b, a
            residents = nxt
            g += 1
        left = [v for v in range(n) if v not in self.final]
        if len(left) > 1:
            raise NoPairing(tuple(ps[v].e.number for v in left))
        pairs = []
        for a, b in self.final.items():
            if a < b:
                pairs.append(self._colours(ps[a], ps[b]))
        return Outcome(tuple(pairs), ps[left[0]].e.number if left else None)

    def plain(self, mdps: list[int], residents: list[int], nxt: list[int],
              flag: bool) -> tuple[list[tuple[int, int]], list[int], bool] | None:
        """The bracket's pairing when the rules give it without a search, else None.

        A bracket of residents only, alike in everything an edge's weight reads (score,
        colour preference and history, floats, games played, bye eligibility), where anyone may
        meet anyone: every pairing of it weighs the same, so Article 4's first candidate is the
        answer — S1 (the upper half) against S2 in order.  That holds when it pairs everyone and
        the players below can still be paired (C.4), or when it is the last bracket of an odd
        round and its lowest player may have the bye.  Round 1 is such a bracket (no forbidden
        pairs), and so are many small scoregroups later."""
        size, ps, ok = len(residents), self.players, self.ok
        if mdps or size < 2 or (size % 2 and (nxt or self.later)):
            return None
        if size % 2 == 0 and (flag or self.flag_init or (self.n % 2 and nxt and self.bye_score >= ps[nxt[0]].score)):
            return None  # the bye's bracket is decided with the whole round's matching
        if size % 2 and not (self.n % 2 and self.candidate(residents[-1])):
            return None
        first = ps[residents[0]]
        like = (first.pref, first.imbalance, first.repeated, first.f1, first.f2, first.eligible, first.e.played)
        lo = residents[0]
        hi = lo + size
        if residents[-1] != hi - 1:
            return None
        for v in residents:
            p = ps[v]
            if (p.pref, p.imbalance, p.repeated, p.f1, p.f2, p.eligible, p.e.played) != like:
                return None
            if ok[v].count(0, lo, hi) != 1:  # v himself only
                return None
        if size % 2 == 0 and (nxt or self.later) and not self.completable(list(nxt)):
            return None
        half = size // 2
        return list(zip(residents[:half], residents[half:])), residents[2 * half:], False

    def prepare(self) -> bool:
        """The bye's score (C.4: the lowest that still completes the round) and whether the
        top scoregroup holds the bye; raises NoPairing when the absolute criteria cannot hold."""
        n, ps, ok = self.n, self.players, self.ok
        self.later = []  # the players below the next scoregroup
        allowed = lambda a, b: ok[a][b] == 1  # noqa: E731
        mate = maximum_matching(n, allowed)
        exposed = [v for v in range(n) if mate[v] == -1]
        self.bye_score = 0
        self.unplayed_rank: dict[int, int] = {}
        flag = False
        if n % 2:
            if len(exposed) != 1:
                raise NoPairing(tuple(ps[v].e.number for v in exposed))
            # The lowest score some maximum matching leaves exposed with an eligible player.
            lowest = first_exposable(exposed[0], mate, range(n), allowed,
                                     [v for v in range(n - 1, -1, -1) if ps[v].eligible])
            if lowest is None:
                raise NoPairing(tuple(ps[v].e.number for v in exposed))
            self.bye_score = ps[lowest].score
            counts = sorted((p.e.played for p in ps if p.score == self.bye_score), reverse=True)
            self.unplayed_rank = {c: k for k, c in enumerate(counts)}
            if self.bye_score >= ps[0].score:
                flag = self._top_pairs_inside()
        elif exposed:
            raise NoPairing(tuple(ps[v].e.number for v in exposed))
        self.flag_init = flag
        return flag

    def assess(self, pairs: Iterable[tuple[int, int]]) -> list[tuple[int, list[tuple[str, int]]]]:
        """The criteria of each bracket of a given pairing (pairing numbers), its own floaters
        making the brackets: (the bracket's score, [(criterion, value)…]) from the top, each
        value the engine's own (more is better), for a checker to compare two pairings."""
        ps = self.players
        flag = self.prepare()
        index = {p.e.number: p.i for p in ps}
        mate: dict[int, int] = {}
        for a, b in pairs:
            mate[index[a]], mate[index[b]] = index[b], index[a]
        out = []
        mdps: list[int] = []
        residents = self.groups[0]
        g = 1
        while residents:
            nxt = self.groups[g] if g < len(self.groups) else []
            self.later = [v for group in self.groups[g + 1:] for v in group]
            br = _Bracket(self, mdps, residents, nxt, flag, NEXT)
            inside = set(mdps + residents)
            total = 0
            for y in residents:
                x = mate.get(y, -1)
                if x in inside and x < y:
                    total += br.base(x, y, True)
            floaters = [v for v in mdps + residents if mate.get(v, -1) not in inside]
            later = set(floaters + nxt)
            for y in nxt:
                x = mate.get(y, -1)
                if x in later and x < y:
                    total += br.base(x, y, False)
            out.append((ps[residents[0]].score, br.decode(total)))
            flag = bool(self.n % 2 and nxt and self.bye_score >= ps[nxt[0]].score
                        and all(ps[mate[f]].score >= ps[nxt[0]].score for f in floaters + nxt if f in mate))
            mdps, residents = floaters, nxt
            g += 1
        return out

    def candidate(self, v: int) -> bool:
        """May receive the bye without making the round worse than it can be (C.2, C.4)."""
        p = self.players[v]
        return bool(self.n % 2) and p.eligible and p.score <= self.bye_score

    def bye_rank(self, v: int) -> int:
        p = self.players[v]
        return self.unplayed_rank.get(p.e.played, 0) if p.score == self.bye_score else 0

    def completable(self, exposed: list[int]) -> bool:
        """Whether these players and all below the next scoregroup can be paired, but for one
        bye candidate when their number is odd."""
        group = sorted(exposed) + self.later
        size = len(group)
        if not size:
            return True
        ok = self.ok
        odd = size % 2
        if odd:  # a dummy vertex stands for the bye: it may take any candidate
            cand = bytearray(1 if self.candidate(v) else 0 for v in group)
            if not any(cand):
                return False
        rows = [ok[v] for v in group]
        total = size + odd

        def allowed(a: int, b: int) -> bool:
            if a == size:
                return cand[b] == 1
            if b == size:
                return cand[a] == 1
            return rows[a][group[b]] == 1

        mate = [-1] * total
        for i in range(size):
            if mate[i] == -1:
                row = rows[i]
                for j in range(i + 1, size):
                    if mate[j] == -1 and row[group[j]]:
                        mate[i], mate[j] = j, i
                        break
        for v in range(total):
            if mate[v] == -1 and not augment(v, mate, range(total), allowed)[0]:
                return False
        return True

    def next_structure(self, group: list[int]) -> tuple[dict[int, int], list[int]]:
        """A maximum matching of a scoregroup, and the players some maximum matching leaves
        out (Gallai-Edmonds: those an even alternating path from an exposed player reaches)."""
        ok = self.ok
        allowed = lambda a, b: ok[group[a]][group[b]] == 1  # noqa: E731
        local = maximum_matching(len(group), allowed)
        free: set[int] = set()
        for k, q in enumerate(local):
            if q == -1 and group[k] not in free:
                _, even = augment(k, local, range(len(group)), allowed)
                free |= {group[j] for j, e in enumerate(even) if e}
        return {v: (group[q] if q != -1 else -1) for v, q in zip(group, local)}, sorted(free)

    def _top_pairs_inside(self) -> bool:
        """Whether the top scoregroup (which holds the bye) can be paired among itself but for the bye."""
        top = self.groups[0]
        if len(top) % 2 == 0:
            return False
        ok = self.ok
        members = set(top)
        rest = [v for v in range(self.n) if v not in members]
        sub = lambda a, b: ok[rest[a]][rest[b]] == 1  # noqa: E731
        if -1 in maximum_matching(len(rest), sub):
            return False
        inside = lambda a, b: ok[top[a]][top[b]] == 1  # noqa: E731
        mate = maximum_matching(len(top), inside)
        exposed = [v for v in range(len(top)) if mate[v] == -1]
        if len(exposed) != 1:
            return False
        return first_exposable(exposed[0], mate, range(len(top)), inside,
                               [k for k, v in enumerate(top) if self.players[v].eligible]) is not None

    # -- colours -----------------------------------------------------------------------

    def _colours(self, a: _Player, b: _Player) -> tuple[int, int]:
        """(white, black) pairing numbers by the colour allocation rules (Article 5)."""
        colour = _neutral(a, b)
        if colour == NO_COLOUR:
            a_higher = (a.score, -a.e.rank) > (b.score, -b.e.rank)
            higher = a if a_higher else b
            if a.pref == NO_COLOUR:  # neither has a preference: the initial colour by rank parity
                initial = WHITE if self.initial_white else BLACK
                higher_colour = initial if higher.e.rank % 2 == 0 else 1 - initial
            else:  # the same preference, the same history: the higher ranked gets his
                higher_colour = higher.pref
            colour = higher_colour if a_higher else 1 - higher_colour
        return (a.e.number, b.e.number) if colour == WHITE else (b.e.number, a.e.number)


class _Bracket:
    """One bracket: its MDPs and residents, with the next scoregroup.

    The graph holds, by ``mode``: WHOLE — every player still to pair, so that
    completion (C.4) is part of the weights, as the rules describe it; NEXT — the
    bracket and the next scoregroup, whose pairs and scores C.7 weighs; BRACKET —
    the bracket alone, each player's worth as a downfloater to the next bracket
    (C.7) known in advance, which is exact when at most one player floats.  A
    player left unmatched is one the players below must take; a result is kept
    only when they can and the floaters are as few as the mode can weigh, else the
    bracket is searched again with the next larger graph."""

    #: Whether an odd whole graph gets a vertex for the bye's place (:meth:`run`); False: the
    #: older way (one player left exposed), for the tests that compare the two.
    bye_place = True
    #: Whether :meth:`matrix` adds a row's keys byte by byte in one number (when they fit in a
    #: byte); False: one by one, for the test that compares the two.
    byte_keys = True

    def __init__(self, rnd: _Round, mdps: list[int], residents: list[int], nxt: list[int], flag: bool,
                 mode: int):
        self.r, self.mdps, self.residents, self.nxt, self.flag, self.mode = rnd, mdps, residents, nxt, flag, mode
        self.whole = mode == WHOLE
        self.members = mdps + residents + (nxt if mode != BRACKET else [])
        self.vs = self.members + (rnd.later if self.whole else [])
        self.loc = {v: k for k, v in enumerate(self.vs)}
        self.in_res = set(residents)
        self.mdp_set = set(mdps)
        if mode == BRACKET:
            self.next_mate, self.next_free = rnd.next_structure(nxt)
        self.layout()

    # -- the weights -------------------------------------------------------------------

    def layout(self) -> None:
        """Field positions, most significant first; score levels are those of the bracket and
        the next scoregroup, the lowest score at the lowest bits."""
        r, ps = self.r, self.r.players
        size = len(self.vs)
        count = _bits(size)
        offset = 0
        self.level_unit: dict[int, int] = {}
        levels: dict[int, int] = {}
        for v in self.mdps + self.residents + self.nxt:
            levels[ps[v].score] = levels.get(ps[v].score, 0) + 1
        for score in sorted(levels):
            self.level_unit[score] = 1 << offset
            offset += _bits(levels[score])
        lw = offset
        fields: list[tuple[str, int]] = [("complete", _bits(3 * size))] if self.whole else [("must", count)]
        fields += [("pairs", count), ("scores", lw), ("next_pairs", count), ("next_scores", lw),
                   ("bye", 2 * count), ("top_diff", count), ("top_three", count), ("pref", count),
                   ("strong", count)]
        if r.played_rounds >= 1:
            fields += [("down1", count), ("up1", count)]
        if r.played_rounds >= 2:
            fields += [("down2", count), ("up2", count)]
        if r.played_rounds >= 1:
            fields += [("down1_scores", lw), ("up1_scores", lw)]
        if r.played_rounds >= 2:
            fields += [("down2_scores", lw), ("up2_scores", lw)]
        big = _bits(size * size) + 2
        fields += [("low_a", big), ("low_b", big), ("low_c", big), ("low_d", big)]
        self.shift: dict[str, int] = {}
        self.fields = fields
        total = 0
        for name, width in reversed(fields):
            self.shift[name] = total
            total += width
        if not self.whole:  # a player nobody below can take must be paired here (C.4)
            later = r.later + (self.nxt if self.mode == BRACKET else [])
            self.must = {v for v in self.members
                         if not r.candidate(v) and not any(r.ok[v][u] for u in later)}
        if self.mode == BRACKET:
            self.worth = {v: self.float_worth(v) for v in self.members}
            self.worth_top = 2 * max(self.worth.values(), default=0)
        ids: dict[tuple[int | str | None, ...], int] = {}
        self.kinds = {v: ids.setdefault(self.kind(v), len(ids)) for v in self.members}
        self.weights: dict[tuple[int, int, bool], int] = {}

    def float_worth(self, v: int) -> int:
        """What v adds to the next bracket as its only downfloater (C.7): one pair more if
        it meets a player some maximum matching of the next scoregroup leaves out, else
        one pair at its own score instead of one at the next scoregroup's, if it meets
        anyone there, else nothing."""
        if not self.nxt:
            return 0
        ok, sh = self.r.ok[v], self.shift
        unit_v, unit_next = self.level_unit[self.r.players[v].score], self.level_unit[self.r.players[self.nxt[0]].score]
        if any(ok[u] for u in self.next_free):
            return (1 << sh["next_pairs"]) + (unit_v << sh["next_scores"])
        if any(ok[u] for u in self.nxt):
            return (unit_v - unit_next) << sh["next_scores"]
        return 0

    def share(self, v: int) -> int:
        """v's own part of the weight of its edges in the bracket, in half units (a hint for the
        matching's first duals: the terms of the weights that count v alone)."""
        r, sh, p = self.r, self.shift, self.r.players[v]
        own = 0
        if not self.whole and v in self.must:
            own += 1 << sh["must"]
        if self.whole and not r.candidate(v):  # completion counts each player who may not have the bye
            own += 1 << sh["complete"]
        if self.mode == BRACKET:
            own += self.worth_top // 2 - self.worth[v]
        if self.flag:
            own += r.bye_rank(v) << sh["bye"]
        unit = self.level_unit[p.score]
        if v in self.in_res:
            if r.played_rounds >= 1 and p.f1 == DOWN:
                own += (1 << sh["down1"]) + (unit << sh["down1_scores"])
            if r.played_rounds >= 2 and p.f2 == DOWN:
                own += (1 << sh["down2"]) + (unit << sh["down2_scores"])
            spread = unit
        elif v in self.mdp_set:  # an MDP's edges count its score where a resident pair counts the residents'
            spread = 2 * unit - self.level_unit[r.players[self.residents[0]].score]
        else:
            return 2 * own
        fields = ["scores"] + ["up1_scores"] * (r.played_rounds >= 1) + ["up2_scores"] * (r.played_rounds >= 2)
        return 2 * own + sum(spread << sh[name] for name in fields)

    def decode(self, total: int) -> list[tuple[str, int]]:
        """A sum of edge weights split back into its criteria (the fields never carry over)."""
        return [(name, (total >> self.shift[name]) & ((1 << width) - 1)) for name, width in self.fields
                if not name.startswith("low_") and name not in ("must", "complete")]

    def kind(self, v: int) -> tuple[int | str | None, ...]:
        """Everything an edge's weight reads of player v (so equal kinds share weights)."""
        r, p = self.r, self.r.players[v]
        return (p.score, p.pref, p.imbalance, p.repeated, p.absolute, p.strong, p.f1, p.f2,
                r.candidate(v), r.bye_rank(v) if self.flag or r.flag_init else 0,
                v in self.must if not self.whole else False,
                self.worth[v] if self.mode == BRACKET else 0)

    def cached(self, x: int, y: int, in_bracket: bool) -> int:
        """The base weight of edge (x, y), x higher, shared between equal kinds."""
        if not self.r.ok[x][y]:
            return 0
        key = (self.kinds[x], self.kinds[y], in_bracket)
        w = self.weights.get(key)
        if w is None:
            w = self.weights[key] = self.base(x, y, in_bracket)
        return w

    def top_fields(self, x: int, y: int) -> int:
        """Completion, or the players who must be paired here, and the bye's unplayed games."""
        r, sh = self.r, self.shift
        if self.whole:
            w = (1 + (not r.candidate(x)) + (not r.candidate(y))) << sh["complete"]
        else:
            w = ((x in self.must) + (y in self.must)) << sh["must"]
        return w

    def matrix(self) -> list[list[int]]:
        """The graph's weights doubled (as the matching keeps them), a row per player: the edge
        (x, y), x higher, is ``cached(x, y, y a resident)``, ``outside_weight`` beyond the bracket
        (whole graph), 0 when they may not meet and between two MDPs.  A weight depends on the
        kinds of its ends only, so each row is mapped from a table by kind at C speed (a field
        of thousands holds few kinds)."""
        r, members, vs, in_res = self.r, self.members, self.vs, self.in_res
        count, bracket_end = len(members), len(self.mdps)
        kinds = [self.kinds[x] for x in members]
        reps: dict[int, int] = {}
        for k, x in zip(kinds, members):
            reps.setdefault(k, x)
        width = 4 * (max(kinds, default=0) + 1)
        # A column's key: 4 × its kind + 2 if a resident + 1 if the row's player may meet it.
        codes = [4 * k + 2 * (x in in_res) for k, x in zip(kinds, members)]
        lows: dict[tuple[int, bool], list[int]] = {}   # row kind, resident -> the higher players' weights
        highs: dict[int, list[int]] = {}               # row kind -> the lower players' weights

        def weight(x: int, y: int, in_bracket: bool) -> int:
            key = (self.kinds[x], self.kinds[y], in_bracket)
            w = self.weights.get(key)
            if w is None:
                w = self.weights[key] = self.weigh(x, y, in_bracket)
            return w

        # Whole graph: an outside edge reads whether each end may have the bye and its rank.
        outer = [(r.candidate(v), r.bye_rank(v) if r.flag_init else 0) for v in vs] if self.whole else []
        ocodes_of = {c: k for k, c in enumerate(dict.fromkeys(outer))}
        ocodes = [2 * ocodes_of[c] for c in outer]
        otables: dict[int, list[int]] = {}

        def otable(c: int) -> list[int]:
            table = otables.get(c)
            if table is None:
                first = vs[outer.index(list(ocodes_of)[c // 2])]
                table = otables[c] = [0] * (2 * len(ocodes_of))
                for d, key in enumerate(ocodes_of):
                    table[2 * d + 1] = 2 * self.outside_weight(first, vs[outer.index(key)])
            return table

        rows = []
        first = vs[0] if vs else 0
        along = vs == list(range(first, first + len(vs)))  # the usual case: who may meet whom is a slice
        # A column's key plus the row's 0/1 of who may meet whom, all at once: the keys as the
        # bytes of one number, so the sum adds them byte by byte (no carry: each stays < 256).
        fits = self.byte_keys and width <= 256 and 2 * len(ocodes_of) <= 256
        base_key = int.from_bytes(bytes(codes + ocodes[count:]) if fits else b"", "big")
        base_okey = int.from_bytes(bytes(ocodes) if fits else b"", "big")
        inside, outside = slice(0, count), slice(count, len(vs))
        for j, y in enumerate(vs):
            ok = r.ok[y][first:first + len(vs)] if along else bytes(map(r.ok[y].__getitem__, vs))
            keys: Sequence[int]
            okeys: Sequence[int]
            if j >= count:  # beyond the bracket: outside edges only
                okeys = ((base_okey + int.from_bytes(ok, "big")).to_bytes(len(vs), "big") if fits
                         else list(map(add, ocodes, ok)))
                rows.append(list(map(otable(ocodes[j]).__getitem__, okeys)))
                continue
            if fits:
                summed = (base_key + int.from_bytes(ok, "big")).to_bytes(len(vs), "big")
                keys, okeys = summed[inside], summed[outside]
            else:
                keys, okeys = list(map(add, codes, ok[:count])), list(map(add, ocodes[count:], ok[count:]))
            ky, in_y = kinds[j], y in in_res
            high = highs.get(ky)
            if high is None:
                high = highs[ky] = [0] * width
                for k, x in reps.items():
                    high[4 * k + 1] = 2 * weight(y, x, False)
                    high[4 * k + 3] = 2 * weight(y, x, True)
            if j < bracket_end:  # MDPs do not meet each other
                row = [0] * bracket_end + list(map(high.__getitem__, keys[bracket_end:]))
            else:
                low = lows.get((ky, in_y))
                if low is None:
                    low = lows[(ky, in_y)] = [0] * width
                    for k, x in reps.items():
                        low[4 * k + 1] = low[4 * k + 3] = 2 * weight(x, y, in_y)
                row = list(map(low.__getitem__, keys[:j])) + list(map(high.__getitem__, keys[j:]))
            if count < len(vs):
                row += map(otable(ocodes[j]).__getitem__, okeys)
            rows.append(row)
        return rows

    def outside_weight(self, x: int, y: int) -> int:
        """An edge no bracket criterion looks at (whole graph only), of two players who may meet."""
        r = self.r
        w = self.top_fields(x, y)
        if r.flag_init:
            w += (r.bye_rank(x) + r.bye_rank(y)) << self.shift["bye"]
        return w

    def base(self, x: int, y: int, in_bracket: bool) -> int:
        """The edge between x (higher) and y (lower: a resident, or in the next scoregroup)."""
        if not self.r.ok[x][y]:
            return 0
        return self.weigh(x, y, in_bracket)

    def weigh(self, x: int, y: int, in_bracket: bool) -> int:
        """:meth:`base` of two players who may meet (it reads their kinds only)."""
        r, sh = self.r, self.shift
        px, py = r.players[x], r.players[y]
        w = self.top_fields(x, y)
        if self.mode == BRACKET:  # pairing x and y gives up what they were worth as floaters
            w += self.worth_top - self.worth[x] - self.worth[y]
        unit_x = self.level_unit[px.score]
        if in_bracket:
            w += (1 << sh["pairs"]) + (unit_x << sh["scores"])
        else:
            w += (1 << sh["next_pairs"]) + (unit_x << sh["next_scores"])
        if self.flag:
            w += (r.bye_rank(x) + r.bye_rank(y)) << sh["bye"]
        if not in_bracket:
            return w
        same = px.pref == py.pref
        if not (px.imbalance > 1 and py.imbalance > 1 and same):
            w += 1 << sh["top_diff"]
        if not (px.absolute and py.absolute and same):
            good = True
        elif px.imbalance == py.imbalance:
            good = py.repeated == NO_COLOUR or py.repeated != px.repeated
        else:
            loser = px if py.imbalance > px.imbalance else py
            good = loser.repeated != 1 - py.pref
        if good:
            w += 1 << sh["top_three"]
        if not same or px.pref == NO_COLOUR or py.pref == NO_COLOUR:
            w += 1 << sh["pref"]
        if ((not py.strong and not py.absolute) or (not px.strong and not px.absolute)
                or (py.absolute and px.absolute) or not same):
            w += 1 << sh["strong"]
        higher_score = px.score > py.score
        for back, fx, fy in ((1, px.f1, py.f1), (2, px.f2, py.f2))[:r.played_rounds]:
            # C.14-C.21: a repeated downfloat is one the lower player had (he gets none now) or
            # the higher player had and is spared (equal scores); an upfloat repeats when the
            # lower player floats up again.
            w += ((fy == DOWN) + (not higher_score and fx == DOWN)) << sh[f"down{back}"]
            w += (not (higher_score and fy == UP)) << sh[f"up{back}"]
            w += (((fy == DOWN) * self.level_unit[py.score]) + ((fx == DOWN) * unit_x)) << sh[f"down{back}_scores"]
            if not (fy == UP and higher_score):
                w += unit_x << sh[f"up{back}_scores"]
        return w

    def next_exposed(self, floaters: list[int]) -> list[int] | None:
        """The players of the next scoregroup (and the floater) left for those below, with the
        next scoregroup paired as the floater's worth says (None: not built)."""
        r, nxt = self.r, self.nxt
        mate = dict(self.next_mate)
        if floaters:
            f = floaters[0]
            ok = r.ok[f]
            worth = self.worth[f]
            if worth and worth >> self.shift["next_pairs"]:   # a pair more: an augmenting path from f
                group = [f] + nxt
                local = [-1] + [group.index(mate[v]) if mate[v] != -1 else -1 for v in nxt]
                allowed = lambda a, b: (r.ok[group[a]][group[b]] == 1) and not (a == 0 and b == 0)  # noqa: E731
                if not augment(0, local, range(len(group)), allowed)[0]:
                    return None
                mate = {group[k]: (group[q] if q != -1 else -1) for k, q in enumerate(local)}
            elif worth:                                      # f takes a partner's place
                n = next(u for u in nxt if ok[u])
                if mate[n] != -1:
                    mate[mate[n]] = -1
                mate[n], mate[f] = f, n
            else:
                mate[f] = -1
        return [v for v, q in mate.items() if q == -1]

    def exchange(self, index: int, pairs: int, count: int, test: int = 1) -> int:
        """The exchange criteria of a remainder pair whose higher player is at ``index``: its
        higher player in S1 (the fewest exchanges), the smallest BSN sum of the new S1 (the
        smallest difference of the exchanged BSNs), and room for testing one exchange."""
        sh = self.shift
        return ((index < pairs) << sh["low_a"]) + ((count - index) << sh["low_b"]) + (test << sh["low_c"])

    # -- the matching, in the players' own numbers ---------------------------------------

    def setw(self, v: int, changes: dict[int, int]) -> None:
        loc = self.loc
        self.m.set_weights(loc[v], {loc[u]: w for u, w in changes.items()})

    def solve(self) -> None:
        self.m.solve()
        vs, stable = self.vs, self.stable
        dummy = self.dummy  # the bye's place: its partner is left for the players below
        for k, q in enumerate(self.m.mate[:len(vs)]):
            stable[vs[k]] = vs[q] if q != -1 and q != dummy else -1

    def finalize(self, a: int, b: int) -> None:
        self.pairs.append((a, b))
        self.done.add(a)
        self.done.add(b)
        self.m.remove((self.loc[a], self.loc[b]))

    def take_highest(self, p: int, candidates: list[int], weight: Callable[[int], int], field: str) -> None:
        """Pair p, for good, with the highest-ranked of ``candidates`` (in ranking order) that
        an optimal pairing allows: each gets a bonus by rank, in the lowest field.

        The matching at hand usually shows the answer: when every higher-ranked candidate's
        edge is loose (no optimal pairing holds it) but for one that an alternating cycle of
        tight edges can give p, it is chosen without searching the matching again."""
        o = self.held(p, candidates, weight)
        if o is not None:
            self.finalize(p, o)
            return
        changes = {}
        for pos, o in enumerate(o for o in reversed(candidates) if o not in self.done):
            w = weight(o)
            if w:
                changes[o] = w + (pos << self.shift[field])
        self.setw(p, changes)
        self.solve()
        o = self.stable[p]
        assert o in changes and o not in self.done, "a player chosen to be paired lost his opponent"
        self.finalize(p, o)

    def held(self, p: int, candidates: list[int], weight: Callable[[int], int]) -> int | None:
        """The candidate :meth:`take_highest` would give p, read from the optimal matching and its
        duals (complementary slackness: an edge some optimal matching holds is tight for every
        optimal dual solution); None when that does not decide it."""
        m, loc, done = self.m, self.loc, self.done
        if m.roots:  # changes wait to be solved
            self.solve()
        w, dual, top, mate = m.w, m.dual, m.top, m.mate
        lp = loc[p]
        current = mate[lp]
        if current == -1 or current == self.dummy:  # p has the bye in this optimum: search
            return None
        inside = top[lp] != lp
        if inside and not m.keep_blossoms:
            return None
        slacks = m.slacks(lp, (loc[o] for o in candidates)) if inside else None
        for o in candidates:
            slack = next(slacks) if slacks is not None else None
            if o in done:
                continue
            lo = loc[o]
            if lo == current:
                return o if weight(o) else None
            if not w[lp][lo] or not weight(o):
                continue
            if inside:  # the blossoms' duals count: a loose edge is in no optimal matching either
                if slack:
                    continue
                return None
            if top[lo] != lo:
                return None
            if dual[lp] + dual[lo] != w[lp][lo]:
                continue  # loose: in no optimal matching
            # Tight: p may take o if o's partner can take p's by an alternating path of tight edges.
            changed = m.swap_cycle(lp, lo)
            if changed is None:
                return None
            vs, stable = self.vs, self.stable
            for k in changed:  # the cycle may pass the bye's place
                if k != self.dummy:
                    stable[vs[k]] = vs[mate[k]] if mate[k] != self.dummy else -1
            return o
        return None

    # -- the search ----------------------------------------------------------------------

    def run(self) -> tuple[list[tuple[int, int]], list[int], bool] | None:
        r, ps, sh = self.r, self.r.players, self.shift
        mdps, residents, nxt = self.mdps, self.residents, self.nxt
        in_res, members, vs, loc = self.in_res, self.members, self.vs, self.loc
        size = len(vs)
        cut: set[tuple[int, int]] = set()       # edges the search took away
        roles: dict[int, bool] = {}             # once final: S1 players only meet S2 players
        edge = self.cached

        def base(x: int, y: int) -> int:
            if (x, y) in cut or roles and x in roles and y in roles and (not roles[x] or roles[y]):
                return 0
            return edge(x, y, y in in_res)

        weights = self.matrix()
        shares = [self.share(v) for v in members] + [0] * (size - len(members))
        # An odd whole graph gets one more vertex, the bye's place: an edge of the same weight c
        # to every player.  Every matching of the players leaves one exposed, so the optimal
        # matchings are those of the players with the bye's place matched to the one left out
        # (weight c more): the same pairings.  Without it the search from the one exposed player
        # grows a chain of nested blossoms over the whole graph, and each final pair dissolves
        # it; with it the graph is even and the duals stay flat.  Its share of each edge is the
        # whole weight, so the players' first duals are as without it.
        self.dummy = -1
        if self.whole and size % 2 and self.bye_place:
            self.dummy = size
            c = max(map(max, weights), default=0) or 2
            for row in weights:
                row.append(c)
            weights.append([c] * size + [0])
            shares.append(c)
        # The first greedy matching tries the Dutch order: MDPs with the residents from the top,
        # then S1 (the upper half of the residents) with S2 from the top.
        half = len(residents) // 2
        everyone, s2 = [loc[o] for o in residents], [loc[o] for o in residents[half:]]  # one list each, shared
        prefer = [(loc[a], everyone) for a in mdps] + [(loc[p], s2) for p in residents[:half]]
        self.m = WeightedMatching(weights, prefer, shares, doubled=True)
        self.stable: dict[int, int] = {}
        self.pairs: list[tuple[int, int]] = []
        self.done: set[int] = set()
        self.solve()
        mate, done = self.stable, self.done

        def with_resident(a: int) -> bool:
            return mate[a] in in_res

        # Which MDPs are paired: the highest scores first, then the highest ranked (C.6, Article 4).
        nres = len(residents)
        bonus: dict[int, int] = {}
        chosen: set[int] = set()

        def push_mdp(a: int, value: int) -> None:
            bonus[a] = value
            self.setw(a, {o: base(a, o) + (value << sh["low_a"]) for o in residents if base(a, o)})

        k = 0
        while k < len(mdps):
            level = [a for a in mdps[k:] if ps[a].score == ps[mdps[k]].score]
            k += len(level)
            matched = sum(with_resident(a) for a in level)
            remaining = len(level)
            for a in level:
                if not matched:
                    break
                if remaining <= matched:
                    chosen.add(a)
                    continue
                remaining -= 1
                if not with_resident(a):
                    push_mdp(a, 1)
                    self.solve()
                if with_resident(a):
                    chosen.add(a)
                    matched -= 1
                    push_mdp(a, nres + 1)
        # Their opponents: each MDP in turn gets the highest resident it can (the first transposition).
        for a in mdps:
            if a in chosen:
                self.take_highest(a, residents, lambda o: base(a, o) + (bonus.get(a, 0) << sh["low_a"])
                                  if base(a, o) else 0, "low_b")

        # The remainder: S1 and S2, the fewest exchanges and the smallest difference of BSNs.
        rem = [o for o in residents if o not in done]
        at = {o: i for i, o in enumerate(rem)}
        count = len(rem)
        pairs = sum(1 for o in rem if mate[o] in at and at[mate[o]] < at[o])
        weighed = False  # whether the remainder's edges carry the exchange criteria

        def higher(p: int) -> bool:
            q = mate[p]
            return q in at and at[q] > at[p]

        def rem_weight(p: int, o: int, test: int = 1, pos: int = 0) -> int:
            w = base(p, o)
            if not w:
                return 0
            if weighed:
                w += self.exchange(at[p], pairs, count, test)
            return w + (pos << sh["low_d"])

        # The exchange criteria are met at best when every pair has its higher player in S1 (it
        # is then S1 against S2): only otherwise do they need a search.  Their weight rises
        # with the higher player; the duals rise with it (S1: its own criteria less those of
        # S2's first player, S2: those), which keeps every pair S1-S2 tight.
        if any(mate[p] not in at or at[mate[p]] < pairs for p in rem[:pairs]):
            weighed = True
            first_s2 = self.exchange(pairs, pairs, count)
            # rem_weight(p, o) of every pair, doubled as the matching keeps them and by place.  The
            # matrix still holds each pair's base weight doubled (so far only the MDPs' edges and
            # the final pairs' changed), of few values, and the exchange criteria are the higher
            # player's: each row is read from tables by base weight and place, whose numbers are
            # shared (a remainder of thousands holds no number of its own per edge).
            places = [loc[p] for p in rem]
            plus = [2 * self.exchange(k, pairs, count) for k in range(count)]
            tables: dict[int, list[int]] = {0: [0] * count}
            current = self.m.w
            changes: dict[int, dict[int, int]] = {}
            for i, o in enumerate(rem):
                olds = list(map(current[loc[o]].__getitem__, places[:i]))
                for x in set(olds).difference(tables):
                    tables[x] = [x + e for e in plus]
                changes[loc[o]] = dict(zip(places, [tables[x][k] for k, x in enumerate(olds)]))
            rises = {loc[p]: (self.exchange(i, pairs, count) - first_s2 if i < pairs else first_s2)
                     for i, p in enumerate(rem)}
            self.m.shift(changes, rises, doubled=True)
            del changes, tables
            self.solve()
        exchanges = sum(1 for p in rem[:pairs] if not higher(p))
        # Exchanged from S1: the lowest ones first.
        remaining = exchanges
        for i in range(pairs - 1, -1, -1):
            if not remaining:
                break
            p = rem[i]
            later = rem[i + 1:]
            if higher(p):
                self.setw(p, {o: rem_weight(p, o, 0) for o in later})
                self.solve()
            exchanged = not higher(p)
            remaining -= exchanged
            if exchanged:
                cut.update((p, o) for o in later)
            self.setw(p, {o: rem_weight(p, o) for o in later})
        # Exchanged from S2: the highest ones first.
        remaining = exchanges
        for i in range(pairs, count):
            if remaining <= 1:
                break
            p = rem[i]
            later = rem[i + 1:]
            already = higher(p)
            if not already:
                self.setw(p, {o: rem_weight(p, o, 2) for o in later})
                self.solve()
            if higher(p):
                remaining -= 1
                gone = {}
                for o in rem[:i]:
                    cut.add((o, p))
                    gone[o] = 0
                if self.mode != BRACKET:
                    for o in nxt:
                        cut.add((p, o))
                        gone[o] = 0
                self.setw(p, gone)
            if not already:
                self.setw(p, {o: rem_weight(p, o) for o in later})
        # The roles are final: S1 players only meet S2 players.  (The exchange criteria stay in
        # the weights: every pairing with these roles has the same.)
        was = {p: higher(p) for p in rem}
        current = self.m.w
        places, upper = [loc[o] for o in rem], [was[o] for o in rem]
        for i, p in enumerate(rem):
            row = current[loc[p]]
            after = places[i + 1:] if not was[p] else list(compress(places[i + 1:], upper[i + 1:]))
            dropped = list(compress(after, map(row.__getitem__, after)))
            if dropped:
                self.m.drop(loc[p], dropped)
        roles.update(was)
        # Transpositions: each S1 player in turn gets the highest S2 player he can.
        for i, p in enumerate(rem):
            if p not in done and roles[p]:
                self.take_highest(p, rem[i + 1:], lambda o: rem_weight(p, o), "low_d")

        floaters = [v for v in mdps + residents if v not in done]
        if self.mode == BRACKET:
            if len(floaters) > 1:
                return None  # their worth to the next bracket is not the sum of their single worths
            exposed = self.next_exposed(floaters)
            if exposed is None or not r.completable(exposed):
                return None
        elif self.mode == NEXT:
            exposed = [v for v in members if v not in done and mate[v] == -1]
            if not r.completable(exposed):
                return None
        new_flag = False
        if r.n % 2 and nxt and r.bye_score >= ps[nxt[0]].score:
            # The next bracket holds the bye if it (these floaters and the next scoregroup) pairs
            # within itself but for one player (C.9 then applies there).
            new_flag = all(mate[f] == -1 or ps[mate[f]].score >= ps[nxt[0]].score for f in floaters + nxt)
        return self.pairs, floaters, new_flag


def _neutral(a: _Player, b: _Player) -> int:
    """a's colour by every rule before rank decides (NO_COLOUR when rank must)."""
    if a.pref == NO_COLOUR or b.pref == NO_COLOUR or a.pref != b.pref:
        if a.pref != NO_COLOUR:
            return a.pref
        return 1 - b.pref if b.pref != NO_COLOUR else NO_COLOUR
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return a.pref
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return 1 - b.pref
    if a.strong and not b.strong:
        return a.pref
    if b.strong and not a.strong:
        return 1 - b.pref
    for mine, theirs in zip(reversed(a.e.colours), reversed(b.e.colours)):
        if mine != theirs:
            return theirs
    return NO_COLOUR
