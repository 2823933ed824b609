"""The FIDE Dubov system (Handbook C.04.4.1, applied from 1 February 2026) for one round.

Written from the rules' text on keizer's own exact matcher
(:class:`~keizer.pairing.matching.WeightedMatching`), in the way the Dutch engine
uses it: every decision is a maximum-weight matching whose integer weight packs
the criteria, most important first, and the order of the candidates is fixed one
choice at a time with a small bonus on one player's edges.

* **Ranking** (Article 1.3/A.2): score, then TPN.
* **The bye** (3.1): to the player allowed one (C2) who leaves a complete pairing
  of the others (C4), with the lowest score, then the most games played, then the
  largest TPN.
* **Brackets** (1.3.2): the highest remaining scoregroup (the residents) plus the
  upfloaters it needs from below (there are no downfloaters in Dubov).
* **Criteria** (2.1-2.3): absolute C1 (no rematch, no forbidden pair), C3 (no two
  players with the same absolute colour preference), C4 (the round completes);
  quality C5 (fewest upfloaters), C6 (smallest score differences, the largest
  first), C7 (fewest players without their colour preference), and except in the
  last round C8 (fewest maximum upfloaters, 1.8: MaxT = 2 + rounds // 5), C9 (the
  fewest upfloats among the maximum upfloaters chosen) and C10 (fewest upfloaters
  who upfloated in the previous round).
* **Order of the candidates** (Article 4): upfloaters by descending score, then
  ascending TPN (4.2); G1 the white seekers (first half by TPN when nobody in the
  bracket has played yet), G2 the others (3.2.3); the G1/G2 re-composition (3.2.4)
  moves players in the order of 4.3 (white seekers by ascending ARO then TPN, black
  seekers by TPN; numbered from the middle of the list, the higher position first
  when two are in the middle); S1 is G1 by ascending ARO then TPN and each S1 player
  gets the first G2 player by TPN he can (the first transposition, 4.4).
* **Colours** (5.2): both new: the higher-ranked player gets the initial colour when
  his TPN is odd; else both preferences, else the stronger, else alternate from the
  last round they had different colours, else the higher-ranked player's.

>>> e = [DubovEntrant(n, 0, 2000 - n, 0, (), 0, False, True) for n in range(1, 5)]
>>> pair_dubov(e, {}, rounds=5, played_rounds=0).pairs   # round 1: top half against bottom half
((1, 3), (4, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Mapping

from keizer.pairing.matching import WeightedMatching, maximum_matching
from keizer.pairing.swiss.compatible import ABSOLUTE, Compatible, white_by_history
from keizer.pairing.swiss.dutch import BLACK, WHITE, NoPairing, Outcome

if TYPE_CHECKING:
    from keizer.pairing.swiss import DutchInput
    from keizer.tiebreaks import Tournament

MILD, STRONG = 1, 2


@dataclass(frozen=True)
class DubovEntrant:
    """One player to be paired, as the Dubov rules see him before the round."""

    number: int                 # TPN
    score: int                  # pairing score in the tournament's smallest unit
    rating: int
    aro: int                    # average rating of the opponents met over the board (1.7), 0 before any game
    colours: tuple[int, ...]    # WHITE/BLACK of the games played, oldest first
    upfloats: int               # times paired against a higher pairing score
    upfloated_last: bool        # in the previous round
    eligible: bool              # may receive the pairing-allocated bye (C2)


def preference(colours: tuple[int, ...]) -> tuple[int, int]:
    """(colour, strength) by Article 1.6: absolute beyond ±1 or after two games of one colour,
    strong at ±1, mild (alternate) at 0; no game yet: a mild preference for Black (1.6.4).

    >>> preference((WHITE, WHITE)) == (BLACK, ABSOLUTE), preference(()) == (BLACK, MILD)
    (True, True)
    """
    whites = sum(1 for c in colours if c == WHITE)
    diff = whites - (len(colours) - whites)
    if diff:
        colour = BLACK if diff > 0 else WHITE
    elif colours:
        colour = 1 - colours[-1]
    else:
        return BLACK, MILD
    if abs(diff) > 1 or len(colours) > 1 and colours[-1] == colours[-2]:
        return (1 - colours[-1] if abs(diff) <= 1 else colour), ABSOLUTE
    return colour, STRONG if diff else MILD


def pair_dubov(entrants: Iterable[DubovEntrant], avoid: Mapping[int, Iterable[int]], rounds: int,
               played_rounds: int, initial_white: bool = True, whole: bool = False) -> Outcome:
    """Pair round ``played_rounds + 1`` of ``rounds``; ``avoid[n]``: who n may not meet.
    ``whole``: search every bracket with every player still to pair in the graph (the rules'
    own formulation), never the smaller graph first (a test compares the two)."""
    return _Round(sorted(entrants, key=lambda e: (-e.score, e.number)), avoid, rounds, played_rounds,
                  initial_white, whole).run()


class _Round(Compatible):
    def __init__(self, players: list[DubovEntrant], avoid: Mapping[int, Iterable[int]], rounds: int,
                 played_rounds: int, initial_white: bool, whole: bool = False):
        super().__init__(avoid, {e.number: preference(e.colours) for e in players})
        self.players = players
        self.last = played_rounds + 1 >= rounds
        self.max_t = 2 + rounds // 5
        self.initial_white = initial_white
        self.whole = whole

    def run(self) -> Outcome:
        left = list(self.players)
        bye = self.bye(left, lambda e: (e.score, -len(e.colours), -e.number))
        if bye is not None:
            left.remove(bye)
        pairs: list[tuple[int, int]] = []
        while left:
            made = self.near(left) or self.bracket(left)
            pairs += [self.colours(a, b) for a, b in made]
            done = {e.number for pair in made for e in pair}
            left = [e for e in left if e.number not in done]
        return Outcome(tuple(pairs), bye.number if bye else None)

    # -- one bracket -------------------------------------------------------------------

    def near(self, left: list[DubovEntrant]) -> list[tuple[DubovEntrant, DubovEntrant]] | None:
        """The bracket searched with the residents and the next scoregroup alone in the graph
        (what costs the cube of the field is a graph of everyone still to pair, once a bracket):
        its pairing is the whole search's when it upfloats no more players than the residents
        must (C5: those the residents cannot pair among themselves), all from the next
        scoregroup (C6: the smallest difference there is), and the players below can still be
        paired (C4); otherwise None, and the bracket is searched with everyone."""
        top = left[0].score
        residents = [e for e in left if e.score == top]
        below = [e for e in left if e.score != top]
        if self.whole or not below:
            return None
        following = [e for e in below if e.score == below[0].score]
        if len(residents) + len(following) == len(left):
            return None
        try:
            made = self.bracket(residents + following, near=True)
        except NoPairing:
            return None
        among = maximum_matching(len(residents), lambda i, j: self.legal(residents[i], residents[j]))
        must = sum(1 for k in among if k == -1)
        ups = sum(1 for a, b in made if (a.score == top) != (b.score == top))
        done = {e.number for pair in made for e in pair}
        if ups != must or not self.complete([e for e in left if e.number not in done]):
            return None
        return made

    def bracket(self, left: list[DubovEntrant], near: bool = False) -> list[tuple[DubovEntrant, DubovEntrant]]:
        """Pair the highest scoregroup of ``left`` with the upfloaters it needs from below; ``near``:
        ``left`` holds the residents and the next scoregroup only (:meth:`near`), and the first
        criterion pairs every resident (counted per resident) instead of everyone (C4)."""
        top = left[0].score
        residents = [e for e in left if e.score == top]
        lower = [e for e in left if e.score != top]
        n, r = len(left), len(residents)
        diffs = sorted({top - e.score for e in lower}, reverse=True)
        narrow = (2 * r + 2).bit_length()
        top_up = max((e.upfloats for e in lower), default=0) + 1
        low = (8 * n * n + 8).bit_length()

        def quality(a: DubovEntrant, b: DubovEntrant) -> list[tuple[int, int]]:
            """The fields (value, width) of a pair, a ranked above b, most important first."""
            ra, rb = a.score == top, b.score == top
            up = ra and not rb
            first = int(ra) + int(rb) if near else 1    # the residents paired, else the pairs (C4)
            fields = [(first, (2 * n + 2).bit_length()), (int(ra and rb), narrow)]   # C4; C5
            fields += [(int(up and top - b.score != d), narrow) for d in diffs]    # C6, largest difference first
            fields.append((int(ra and self.pref[a.number][0] != self.pref[b.number][0]), narrow))   # C7
            if not self.last:
                maximum = up and b.upfloats >= self.max_t
                fields.append((int(up and not maximum), narrow))                   # C8
                fields.append((top_up - b.upfloats if maximum else 0, (2 * r * top_up + 2).bit_length()))  # C9
                fields.append((int(up and not b.upfloated_last), narrow))          # C10
            return fields

        def weight(i: int, j: int) -> int:
            a, b = left[i], left[j]
            if not self.legal(a, b):
                return 0
            w = 0
            for value, width in quality(a, b):
                w = (w << width) | value
            return w << low

        base = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                base[i][j] = base[j][i] = weight(i, j)
        m = WeightedMatching([row[:] for row in base])
        m.solve()
        res = set(range(r))

        def nudge(v: int, to: Iterable[int], extra: int) -> None:
            m.set_weights(v, {u: m.w[v][u] // 2 + extra for u in to if m.w[v][u]})

        hold = (n + 1) * max((max(row) for row in base), default=0)
        # 4.2: the upfloaters, by descending score then ascending TPN
        needed = sum(1 for v in range(r, n) if m.mate[v] in res)
        chosen: list[int] = []
        for v in sorted(range(r, n), key=lambda v: (-left[v].score, left[v].number)):
            if len(chosen) == needed:
                break
            up = m.mate[v] in res
            if not up:   # is there a best pairing with him upfloated?
                nudge(v, res, 1)
                m.solve()
                up = m.mate[v] in res
                nudge(v, res, -1)
            if up:
                chosen.append(v)
                m.set_weights(v, {u: 0 for u in range(r, n) if u != v})
                if near:   # no players below in the graph to keep him upfloated (C4): a bonus above every field
                    m.set_weights(v, {u: m.w[v][u] // 2 + hold for u in res if m.w[v][u]})
            m.solve()
        members = sorted(res | set(chosen))
        inside = set(members)
        for v in members:   # the bracket pairs among itself from here on
            m.set_weights(v, {u: 0 for u in range(n) if u not in inside})
        m.solve()

        # 3.2.3: G1 the white seekers (the first half by TPN when nobody has played)
        if all(not left[v].colours for v in members):
            by_tpn = sorted(members, key=lambda v: left[v].number)
            g1 = set(by_tpn[:len(by_tpn) // 2])
        else:
            g1 = {v for v in members if self.pref[left[v].number][0] == WHITE}
        g2 = inside - g1
        for v in g1:        # 3.2.4: pairs across G1 and G2 preferred
            nudge(v, g2, 2)
        m.solve()
        if len(g1) <= len(g2):           # first from the smaller subgroup (G1 when equal), then to equal sizes
            self.shift(m, left, g1, g2, True)
        else:
            self.shift(m, left, g2, g1, False)
        if len(g1) > len(g2):
            self.shift(m, left, g1, g2, True)
        elif len(g2) > len(g1):
            self.shift(m, left, g2, g1, False)
        for v in members:   # only pairs across the final G1 and G2 remain, without the bonuses
            m.set_weights(v, {u: base[v][u] if (u in g1) != (v in g1) else 0 for u in members if u != v})
        m.solve()
        # 3.2.5 and 4.4: S1 by ascending ARO then TPN, each taking the first G2 player by TPN he can
        s1 = sorted(g1, key=lambda v: (left[v].aro, left[v].number))
        t2 = sorted(g2, key=lambda v: left[v].number)
        for v in s1:
            m.set_weights(v, {u: m.w[v][u] // 2 + len(t2) - k for k, u in enumerate(t2) if m.w[v][u]})
            m.solve()
            mate = m.mate[v]
            if mate == -1:
                raise NoPairing(())
            m.set_weights(v, {u: 0 for u in range(n) if u != mate})
            m.set_weights(mate, {u: 0 for u in range(n) if u != v})
            m.solve()
        made = []
        for v in members:
            u = m.mate[v]
            if u == -1 or u not in inside:
                raise NoPairing(())
            if v < u:
                made.append((left[v], left[u]))
        return made

    def shift(self, m: WeightedMatching, left: list[DubovEntrant], group: set[int], other: set[int],
              whites: bool) -> None:
        """3.2.4: move out of ``group`` (into ``other``), in the order of 4.3, one player of each
        pair that the best pairing must make inside it; the sets change in place."""
        count = sum(1 for v in group if m.mate[v] in group) // 2
        if not count:
            return
        order = sorted(group, key=lambda v: (left[v].aro if whites else 0, left[v].number))   # 4.3.2
        middle = (len(order) - 1) / 2
        numbered = [order[k] for k in sorted(range(len(order)), key=lambda k: (abs(k - middle), k if k > middle
                                                                                 else -k))]
        for v in numbered:
            if not count:
                return
            inside = m.mate[v] in group
            if not inside:   # is there a best pairing with him paired inside his subgroup?
                before = {u: m.w[v][u] // 2 for u in group if m.w[v][u]}
                m.set_weights(v, {u: w + 1 for u, w in before.items()})
                m.solve()
                inside = m.mate[v] in group
                m.set_weights(v, before)
            if inside:
                count -= 1
                m.set_weights(v, {u: 0 for u in other})
                group.discard(v)
                other.add(v)
            m.solve()

    # -- colours (5.2) -----------------------------------------------------------------

    def colours(self, a: DubovEntrant, b: DubovEntrant) -> tuple[int, int]:
        """(white, black); a ranks above b."""
        if not a.colours and not b.colours:
            white_a = (a.number % 2 == 1) == self.initial_white
        else:
            (ca, sa), (cb, sb) = self.pref[a.number], self.pref[b.number]
            if ca != cb:
                white_a = ca == WHITE
            elif sa != sb:
                white_a = (ca == WHITE) == (sa > sb)
            else:
                white_a = white_by_history(a.colours, b.colours, ca == WHITE)
        return (a.number, b.number) if white_a else (b.number, a.number)


def dubov_entrants(t: Tournament, upto: int, numbers: list[int], data: Mapping[int, DutchInput],
                   unit: int) -> list[DubovEntrant]:
    """The Dubov view of the players ``numbers`` before round ``upto + 1``: scores (virtual points
    included) in ``unit``-ths, ARO from the ratings (a player without one counts 0), upfloats
    by the pairing scores before each round."""
    from keizer.tiebreaks import Code

    rating = {p.start_no: p.rating or 0 for p in t.players}
    by_number = {p.start_no: p for p in t.players}
    before: dict[int, list[Fraction]] = {}
    for p in t.players:
        s, row = Fraction(0), []
        for r in range(upto):
            row.append(s)
            res = p.results[r] if r < len(p.results) else None
            s += t.scoring.points(res.code) if res else t.scoring.points(Code.ZPB)
        before[p.start_no] = row
    out = []
    for n in numbers:
        d, p = data[n], by_number[n]
        met, ups, last_up = [], 0, False
        for r in range(upto):
            res = p.results[r] if r < len(p.results) else None
            if res is None or not res.code.is_game or res.opponent is None or res.colour is None:
                last_up = False
                continue
            met.append(rating.get(res.opponent, 0))
            last_up = before[res.opponent][r] > before[n][r]
            ups += last_up
        aro = int(Fraction(sum(met), len(met)) + Fraction(1, 2)) if met else 0
        out.append(DubovEntrant(n, int(d.pairing_score * unit), rating[n], aro,
                                tuple(WHITE if c.value == "white" else BLACK for c in d.colours),
                                ups, last_up, d.bye_eligible))
    return out
