"""The FIDE Burstein system (Handbook C.04.4.2, applied from 1 February 2026) for one round.

After the *seeding rounds* (1.6: half the rounds rounded down, or 4, whichever is lower,
paired by the Dutch system) the players of a bracket are ranked by their *opposition
index* (1.7, 1.8: Buchholz, then Sonneborn-Berger, then TPN) and the first is paired with
the last he can meet, the second with the last of those left, and so on.  Written from the
rules' text on keizer's exact matcher, as :mod:`keizer.pairing.swiss.dubov` is:

* **The bye** (3.1): to a player allowed one (C2) who leaves a complete pairing (C4), with
  the lowest score, then the most games played, then the lowest ranked.
* **Brackets** (1.2): the highest remaining scoregroup plus the players left unpaired above
  (incoming floaters); who is left unpaired floats to the next one.
* **Criteria** (2.1-2.3): absolute C1, C3 (no two players with the same absolute colour
  preference), C4 (the round completes); then C5 the most pairs, C6 the lowest scores of
  the outgoing floaters (the highest first), C7 the next bracket as good as it can be (its
  pairs, then the scores of the floaters it takes), C8 the fewest players without their
  colour preference.
* **Order** (4): the first-ranked player takes the lowest-ranked he can, and so on; one who
  floats out of the bracket is paired in the next, not while this one is ordered.
* **Colours** (5.2): as in the Dubov system, except that a player without a game has no
  preference (1.5.4).

>>> e = [BursteinEntrant(n, 0, 0, 0, (), True) for n in range(1, 5)]
>>> pair_burstein(e, {}).pairs   # no game yet: 1 meets the last, 2 the one left
((1, 4), (3, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Mapping

from keizer.pairing.matching import WeightedMatching
from keizer.pairing.swiss.compatible import ABSOLUTE, Compatible, white_by_history
from keizer.pairing.swiss.dutch import BLACK, WHITE, NoPairing, Outcome

if TYPE_CHECKING:
    from keizer.pairing.swiss import DutchInput
    from keizer.tiebreaks import Player, RoundResult, Tournament

NONE, MILD, STRONG = 0, 1, 2


def seeding_rounds(rounds: int) -> int:
    """1.6.2: half the rounds (rounded down), at most 4.

    >>> seeding_rounds(9), seeding_rounds(5), seeding_rounds(3)
    (4, 2, 1)
    """
    return min(rounds // 2, 4)


@dataclass(frozen=True)
class BursteinEntrant:
    """One player to be paired after the seeding rounds."""

    number: int                 # TPN
    score: int                  # pairing score in the tournament's smallest unit
    buchholz: Fraction
    sonneborn: Fraction
    colours: tuple[int, ...]    # WHITE/BLACK of the games played, oldest first
    eligible: bool              # may receive the pairing-allocated bye (C2)


def preference(colours: tuple[int, ...]) -> tuple[int, int]:
    """(colour, strength) by 1.5; no game yet: no preference, (-1, NONE).

    >>> preference(()) == (-1, NONE), preference((WHITE,)) == (BLACK, STRONG)
    (True, True)
    """
    if not colours:
        return -1, NONE
    whites = sum(1 for c in colours if c == WHITE)
    diff = whites - (len(colours) - whites)
    if abs(diff) > 1:
        return (BLACK if diff > 0 else WHITE), ABSOLUTE
    if len(colours) > 1 and colours[-1] == colours[-2]:
        return 1 - colours[-1], ABSOLUTE
    if diff:
        return (BLACK if diff > 0 else WHITE), STRONG
    return 1 - colours[-1], MILD


def pair_burstein(entrants: Iterable[BursteinEntrant], avoid: Mapping[int, Iterable[int]],
                  initial_white: bool = True, whole: bool = False) -> Outcome:
    """Pair a round after the seeding rounds; ``avoid[n]``: who n may not meet.  ``whole``:
    search every bracket with every player still to pair in the graph (the rules' own
    formulation), never the smaller graph first (a test compares the two)."""
    ranked = sorted(entrants, key=lambda e: (-e.buchholz, -e.sonneborn, e.number))   # 1.8
    return _Round(ranked, avoid, initial_white, whole).run()


class _Round(Compatible):
    def __init__(self, players: list[BursteinEntrant], avoid: Mapping[int, Iterable[int]], initial_white: bool,
                 whole: bool = False):
        super().__init__(avoid, {e.number: preference(e.colours) for e in players})
        self.players = players
        self.place = {e.number: k for k, e in enumerate(players)}
        self.initial_white = initial_white
        self.whole = whole

    def run(self) -> Outcome:
        left = list(self.players)
        bye = self.bye(left, lambda e: (e.score, -len(e.colours), -self.place[e.number]))
        if bye is not None:
            left.remove(bye)
        pairs: list[tuple[int, int]] = []
        level = max(e.score for e in left) if left else 0
        while left:
            made = self.near(left, level)
            made = self.bracket(left, level) if made is None else made
            pairs += [self.colours(a, b) for a, b in made]
            done = {e.number for pair in made for e in pair}
            left = [e for e in left if e.number not in done]
            lower = [e.score for e in left if e.score < level]
            level = max(lower) if lower else level
        return Outcome(tuple(pairs), bye.number if bye else None)

    def near(self, left: list[BursteinEntrant], level: int) -> list[tuple[BursteinEntrant, BursteinEntrant]] | None:
        """The bracket searched with the next scoregroup alone below it in the graph (a graph of
        everyone still to pair, once a bracket, costs the cube of the field), a player of the
        bracket who would be paired further down standing in for him: taken when the players
        left below (those included) can still be paired (C4); otherwise None, and the bracket is
        searched with everyone."""
        below = [e.score for e in left if e.score < level]
        if self.whole or not below:
            return None
        sub = [e for e in left if e.score >= max(below)]
        if len(sub) == len(left):
            return None
        mates: dict[int, int] = {}
        try:
            made = self.bracket(sub, level, mates)
        except NoPairing:
            return None
        return made if self.complete([e for e in left if e.number not in mates]) else None

    def bracket(self, left: list[BursteinEntrant], level: int,
                near: dict[int, int] | None = None) -> list[tuple[BursteinEntrant, BursteinEntrant]]:
        """Pair the players scoring ``level`` or more (residents and incoming floaters).  ``near``:
        ``left`` holds them and the next scoregroup only (:meth:`near`); the first criterion pairs
        every player of the bracket (counted per player) instead of everyone (C4), and the dict is
        filled with the matching found (each player's opponent)."""
        n = len(left)
        res = [k for k, e in enumerate(left) if e.score >= level]
        below = [e.score for e in left if e.score < level]
        nxt = max(below) if below else None
        lower = {k for k, e in enumerate(left) if e.score == nxt}
        resident = set(res)
        scores = sorted({left[k].score for k in res}, reverse=True)
        count = {s: sum(1 for k in res if left[k].score == s) for s in scores}
        r = len(res)
        narrow = (2 * n + 2).bit_length()
        low = (4 * n * n + 4).bit_length()

        def fields(i: int, j: int) -> list[tuple[int, int]]:
            ri, rj = i in resident, j in resident
            both = ri and rj
            first = int(ri) + int(rj) if near is not None else 1     # the bracket's players paired, else the pairs (C4)
            out = [(first, (2 * n + 2).bit_length()), (int(both), narrow)]               # C4; C5
            out += [(int(both) * ((left[i].score == s) + (left[j].score == s)), (2 * count[s] + 2).bit_length())
                    for s in scores]                                                      # C6, highest score first
            down = (ri or i in lower) and (rj or j in lower) and (i in lower or j in lower)
            out.append((int(down), narrow))                                               # C7: pairs below
            floater = left[i].score if ri else left[j].score if rj else None
            out += [(int(down and floater == s), (2 * count[s] + 2).bit_length()) for s in scores]   # C7: scores
            (ci, _), (cj, _) = self.pref[left[i].number], self.pref[left[j].number]
            out.append((int(both and not (ci == cj and ci != -1)), narrow))               # C8
            return out

        # near: one stand-in per player of the bracket for "paired further down", worth his being
        # paired (the first field) and nothing else: he floats past the next scoregroup
        extra = len(res) if near is not None and n > 1 else 0
        total = n + extra
        base = [[0] * total for _ in range(total)]
        for i in range(n):
            for j in range(i + 1, n):
                if self.legal(left[i], left[j]):
                    w = 0
                    for value, width in fields(i, j):
                        w = (w << width) | value
                    base[i][j] = base[j][i] = w << low
        if extra:
            stand_in = 1 << (sum(width for _, width in fields(0, 1)[1:]) + low)
            for i in res:
                for d in range(n, total):
                    base[i][d] = base[d][i] = stand_in
        m = WeightedMatching([row[:] for row in base])
        m.solve()
        ranked = sorted(res, key=lambda k: self.place[left[k].number])
        fixed: set[int] = set()
        for k, v in enumerate(ranked):   # 4: each takes the lowest-ranked he can
            if v in fixed:
                continue
            later = [u for u in ranked[k + 1:] if u not in fixed]
            m.set_weights(v, {u: base[v][u] + step + 1 for step, u in enumerate(later) if base[v][u]})
            m.solve()
            mate = m.mate[v]
            if mate == -1:
                raise NoPairing(())
            if mate not in resident:   # he floats: who meets him below is the next bracket's choice
                m.set_weights(v, {u: 0 for u in later})
                m.solve()
                fixed.add(v)
                continue
            m.set_weights(v, {u: 0 for u in range(total) if u != mate})
            m.set_weights(mate, {u: 0 for u in range(total) if u != v})
            m.solve()
            fixed |= {v, mate}
        if near is not None:
            near.update({left[v].number: left[m.mate[v]].number for v in range(n) if 0 <= m.mate[v] < n})
        return [(left[v], left[m.mate[v]]) for v in ranked
                if m.mate[v] in resident and self.place[left[v].number] < self.place[left[m.mate[v]].number]]

    def colours(self, a: BursteinEntrant, b: BursteinEntrant) -> tuple[int, int]:
        """(white, black) by 5.2; ``a`` and ``b`` in either order."""
        if self.place[b.number] < self.place[a.number]:
            a, b = b, a   # a ranks higher (1.8)
        if not a.colours and not b.colours:
            first = a if (a.score, -a.number) >= (b.score, -b.number) else b
            white = first if (first.number % 2 == 1) == self.initial_white else (b if first is a else a)
            return (white.number, (b if white is a else a).number)
        (ca, sa), (cb, sb) = self.pref[a.number], self.pref[b.number]
        if ca != -1 and cb != -1 and ca != cb:
            white_a = ca == WHITE
        elif sa != sb:
            white_a = (ca == WHITE) if sa > sb else (cb == BLACK)
        else:
            white_a = white_by_history(a.colours, b.colours, ca == WHITE)
        return (a.number, b.number) if white_a else (b.number, a.number)


def burstein_entrants(t: Tournament, upto: int, numbers: list[int], data: Mapping[int, DutchInput],
                      unit: int) -> list[BursteinEntrant]:
    """The players ``numbers`` before round ``upto + 1`` with their opposition index (1.7):
    Buchholz, the sum of the opponents' current scores, and Sonneborn-Berger, each opponent's
    score times the points scored against him; an unplayed round counts the player's own score
    (and, for Sonneborn-Berger, the points it gave), and an opponent whose rounds end in a series
    of zero-point byes has each of them counted as a draw (1.7.2)."""
    from keizer.tiebreaks import Code

    by_number = {p.start_no: p for p in t.players}

    def results(p: Player) -> list[RoundResult | None]:
        rs: list[RoundResult | None] = list(p.results[:upto])
        return rs + [None] * (upto - len(rs))

    score: dict[int, Fraction] = {}
    adjusted: dict[int, Fraction] = {}
    for p in t.players:
        rs = results(p)
        points = [t.scoring.points(res.code) if res else t.scoring.points(Code.ZPB) for res in rs]
        score[p.start_no] = sum(points, Fraction(0))
        tail = 0
        for res in reversed(rs):
            if res is None or res.code is Code.ZPB:
                tail += 1
            else:
                break
        adjusted[p.start_no] = score[p.start_no] + (t.scoring.draw - t.scoring.points(Code.ZPB)) * tail \
            if tail < len(rs) else score[p.start_no]
    out = []
    for n in numbers:
        p, d = by_number[n], data[n]
        bh = sb = Fraction(0)
        for res in results(p):
            got = t.scoring.points(res.code) if res else t.scoring.points(Code.ZPB)
            if res is not None and res.code.is_game and res.opponent is not None:
                other = adjusted[res.opponent]
            else:
                other = score[n]
            bh += other
            sb += other * got
        out.append(BursteinEntrant(n, int(d.pairing_score * unit), bh, sb,
                                   tuple(WHITE if c.value == "white" else BLACK for c in d.colours),
                                   d.bye_eligible))
    return out
