"""A straightforward reference for the individual tie-breaks the engine computes on integers.

Fractions throughout, one player and one round at a time, straight from the
tournament's results and C.07 as ``keizer.tiebreaks`` documents it (unplayed
rounds per edition, art. 14 cuts, 16.5 voluntary rounds first).  Nothing is
shared with the engine but the model, so a property can hold the two to the
same values: ``reference(t, code, edition) == compute(t, code, edition)[code]``.
"""

from __future__ import annotations

import bisect
from fractions import Fraction
from math import floor

from keizer.model import Colour
from keizer.tiebreaks import Code, Edition, Player, RoundResult, Tournament, parse

WON = {Code.WIN, Code.QUICK_WIN, Code.FORFEIT_WIN}
GAMES = {Code.WIN, Code.DRAW, Code.LOSS, Code.QUICK_WIN, Code.QUICK_DRAW, Code.QUICK_LOSS}
SHARE = {Code.WIN: 2, Code.QUICK_WIN: 2, Code.FORFEIT_WIN: 2, Code.DRAW: 1, Code.QUICK_DRAW: 1}

# B.02 8.1.1 (dp per percentage 50…100) and 8.1.2 (upper ends of the difference bands), as printed.
DP = [0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184,
      193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470, 501,
      538, 589, 677, 800]
BANDS = [3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170, 179, 188,
         197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456, 484, 517,
         559, 619, 735]


def rounded(x: Fraction, places: int = 0) -> Fraction | int:
    v = Fraction(floor(x * 10**places + Fraction(1, 2)), 10**places)
    return int(v) if places == 0 else v


def dp(percent: int) -> int:
    return DP[percent - 50] if percent >= 50 else -DP[50 - percent]


def expected(difference: int) -> int:
    if abs(difference) > 735:
        high = 100
    else:
        high = 50 + bisect.bisect_left(BANDS, abs(difference))
    return high if difference >= 0 else 100 - high


class Reference:
    """The tie-breaks of one individual tournament under one edition."""

    def __init__(self, t: Tournament, edition: Edition, rounds: int | None = None):
        self.t, self.edition = t, edition
        self.n = t.played_rounds if rounds is None else rounds
        self.line = {p.start_no: list(p.results[:self.n]) + [RoundResult(Code.ZPB)] * (self.n - len(p.results[:self.n]))
                     for p in t.players}
        self.rating = {p.start_no: p.rating for p in t.players}
        self.s = t.scoring
        self.score = {i: sum((self.s.points(r.code) for r in line), Fraction(0)) for i, line in self.line.items()}

    def points(self, r: RoundResult) -> Fraction:
        return self.s.points(r.code)

    def game(self, r: RoundResult, purpose: str, played_forfeits: bool = False) -> bool:
        """Counts as a game: played over the board; forfeits with /P, and in pre-determined pairings (15.2)."""
        if r.opponent is None or r.code not in GAMES | {Code.FORFEIT_WIN, Code.FORFEIT_LOSS}:
            return False
        if r.code in GAMES:
            return True
        if played_forfeits and purpose == "opponents":
            return True
        if not self.t.system.predetermined:
            return False
        if self.edition is Edition.FIDE_2026:
            return purpose == "opponents" or (purpose == "own" and r.code is Code.FORFEIT_WIN)
        return True

    # -- 16.2–16.4: the opponent each round faced -------------------------------------------

    def category(self, i: int, k: int, pf: bool) -> int:
        r = self.line[i][k]
        if self.game(r, "opponents", pf):
            return 0
        if r.code in (Code.PAB, Code.FPB):
            return 1
        if r.code is Code.FORFEIT_WIN:
            return 2
        if r.code is Code.FORFEIT_LOSS:
            return 4
        later = [self.category(i, j, pf) for j in range(k + 1, self.n)]
        return 5 if all(c in (3, 4, 5) for c in later) else 3

    def adjusted(self, i: int, pf: bool) -> Fraction:
        total = Fraction(0)
        for k, r in enumerate(self.line[i]):
            c = self.category(i, k, pf)
            as_draw = c == 5 if self.edition in (Edition.FIDE_2024, Edition.FIDE_2026) else c > 0
            total += self.s.draw if as_draw else self.points(r)
        return total

    def faced(self, i: int, pf: bool = False) -> list[tuple[Fraction, Fraction, bool]]:
        """(opponent's score as it counts, own points, voluntary) per round."""
        out = []
        for k, r in enumerate(self.line[i]):
            c = self.category(i, k, pf)
            mine = self.points(r)
            if c == 0:
                out.append((self.adjusted(r.opponent, pf), mine, False))
            elif self.edition is Edition.FIDE_2024:
                out.append((self.score[i], mine, c >= 3))
            elif self.edition is Edition.FIDE_2026:
                cap = self.adjusted(r.opponent, pf) if c in (2, 4) and r.opponent is not None else self.s.draw * self.n
                out.append((min(self.score[i], cap), mine, c >= 3))
            elif self.edition is Edition.FIDE_2012:
                before = sum((self.points(x) for x in self.line[i][:k]), Fraction(0))
                other = self.s.draw if mine == self.s.draw else self.s.win + self.s.loss - mine
                out.append((before + other + self.s.draw * (self.n - k - 1), mine, False))
            else:
                out.append((self.adjusted(i, pf), self.s.draw, False))
        return out

    @staticmethod
    def cut(values: list[tuple[tuple, Fraction, bool]], low: int, high: int, vur_first: bool) -> Fraction:
        """Art. 14 on (significance, value, voluntary) triples; 16.5 prefers voluntary rounds."""
        kept = list(values)
        for _ in range(low):
            if kept:
                least = min(kept, key=lambda v: v[0])
                vurs = [v for v in kept if v[2]]
                if vur_first and vurs and min(vurs, key=lambda v: v[1])[1] >= least[1]:
                    least = min(vurs, key=lambda v: v[1])
                kept.remove(least)
        for _ in range(high):
            if kept:
                kept.remove(max(kept, key=lambda v: v[0]))
        return sum((v[1] for v in kept), Fraction(0))

    # -- the tie-breaks ---------------------------------------------------------------------

    def value(self, code: str, i: int):  # noqa: C901 - one branch per tie-break, as C.07 lists them
        tb = parse(code)
        name, vur_first = tb.name, self.edition in (Edition.FIDE_2024, Edition.FIDE_2026)
        line, pf = self.line[i], tb.played_forfeits
        if name in ("BH", "FB"):
            faced = (Reference(self._foreseen(), self.edition, self.n) if name == "FB" else self).faced(i, pf)
            return self.cut([((s,), s, v) for s, _, v in faced], tb.cut, tb.top, vur_first)
        if name == "SB":
            return self.cut([((s, s * p), s * p, v) for s, p, v in self.faced(i, pf)], tb.cut, 0, vur_first)
        if name == "KS":
            threshold = self.s.win * self.n / 2 + tb.limit * self.s.draw
            return sum((p for s, p, _ in self.faced(i, pf) if s >= threshold), Fraction(0))
        if name in ("AOB", "BHS"):
            bh = Reference(self._foreseen(), self.edition, self.n) if tb.fore else self
            met = [self.cut([((s,), s, v) for s, _, v in bh.faced(r.opponent)], 0, 0, False)
                   for r in line if self.game(r, "opponents")]
            if name == "BHS":
                return sum(met, Fraction(0))
            return rounded(sum(met, Fraction(0)) / len(met), 2) if met else None
        if name == "PS":
            return sum((self.points(r) * (self.n - max(k, tb.cut)) for k, r in enumerate(line)), Fraction(0))
        if name == "WIN":
            return sum(1 for r in line if self.points(r) == self.s.win)
        if name in ("WON", "BWG", "BPG"):
            return sum(1 for r in line if self.game(r, "own") and (name == "BPG" or r.code in WON)
                       and (name == "WON" or r.colour is Colour.BLACK))
        if name == "REP":
            return self.n - sum(1 for r in line if r.code in (Code.HPB, Code.ZPB, Code.FORFEIT_LOSS)
                                and not self.game(r, "own"))
        if name == "STD":
            halves = 0
            for k, r in enumerate(line):
                other = self.points(self.line[r.opponent][k]) if r.opponent is not None else self.s.draw
                halves += 2 if self.points(r) > other else 1 if self.points(r) == other else 0
            return Fraction(halves, 2)
        games = [(self.rating.get(r.opponent) or tb.unrated, SHARE.get(r.code, 0))
                 for r in line if self.game(r, "rating")]
        games = [(rating, share) for rating, share in games if rating]
        if name == "ARO":
            kept = sorted(r for r, _ in games)[tb.cut:len(games) - tb.top]
            return rounded(Fraction(sum(kept), len(kept))) if kept else None
        if name == "TPR":
            if not games:
                return None
            own = self.rating.get(i)
            ratings = [min(max(r, own - tb.cap), own + tb.cap) if tb.cap is not None and own else r for r, _ in games]
            p = rounded(Fraction(sum(s for _, s in games), 2 * len(games)), 2)
            return rounded(Fraction(sum(ratings), len(ratings))) + dp(int(p * 100))
        if name == "PTP":
            if not games:
                return None
            needed = sum(s for _, s in games) * 50
            rating = min(r for r, _ in games) - 800
            while sum(expected(rating - r) for r, _ in games) < needed:
                rating += 1
            return rating
        if name in ("APRO", "APPO"):
            of = "TPR" if name == "APRO" else "PTP"
            suffix = f"/U{tb.unrated}" if tb.unrated else ""
            known = [v for v in (self.value(of + suffix, r.opponent) for r in line if self.game(r, "rating"))
                     if v is not None]
            return rounded(Fraction(sum(known), len(known))) if known else None
        raise ValueError(f"no reference for {code}")

    def _foreseen(self) -> Tournament:
        """Fore Buchholz's tournament: every paired last-round game or forfeit drawn (8.3)."""
        last = self.n - 1
        players = []
        for p in self.t.players:
            results = list(self.line[p.start_no])
            r = results[last] if results else None
            if r is not None and r.opponent is not None and (r.code in GAMES or r.code.is_forfeit):
                results[last] = RoundResult(Code.DRAW, r.opponent, r.colour)
            players.append(Player(p.start_no, p.name, p.rating, tuple(results)))
        return Tournament(tuple(players), self.t.rounds, self.t.system, self.t.scoring)
