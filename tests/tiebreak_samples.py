"""Seeded random tournaments for the tie-break regression vectors, and the vectors' writer.

``tests/data/tiebreaks/regression.json`` holds every tie-break value and ranking that
keizer's engine gave on these tournaments before it was rewritten for speed (issue 13);
``test_tiebreak_regression.py`` checks that the engine still gives exactly those, value
and type (an ``int`` stays an ``int``, a ``Fraction`` a ``Fraction``).

    python tests/tiebreak_samples.py      # rewrite the vectors (only when a value is meant to change)

The tournaments cover every kind of round (games, quick games, forfeits both ways and
double, PAB, FPB, HPB, ZPB, withdrawals, late entries), unrated players, other scorings
(3-1-0, a draw worth a third, a half-point PAB), the three pairing systems, and team
tournaments with board points.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

from keizer.model import Colour
from keizer.tiebreaks import (Code, Edition, Match, Player, RoundResult, Scoring, System, Team, TieBreakError,
                              Tournament, compute, labels, parse, rank)

VECTORS = Path(__file__).resolve().parent / "data" / "tiebreaks" / "regression.json"

INDIVIDUAL = ("PTS,BH,BH/C1,BH/C2,BH/M1,BH/M2,BH/P,BH/C1/P,FB,FB/C1,FB/M1,AOB,AOB/F,BHS,BHS/F,SB,SB/C1,SB/C2,"
              "SB/P,SB/C1/P,KS,KS/L+1,KS/L-2,KS/P,ARO,ARO/C1,ARO/M1,ARO/U1000,TPR,TPR/U1000,TPR/D400,"
              "TPR/D350/U1200,PTP,PTP/U1000,APRO,APRO/U1000,APPO,APPO/U1000,WIN,WON,BPG,BWG,REP,STD,PS,PS/C1,"
              "PS/C2,RTNG,RTNG/R,TPN,TPN/R,DE,DE/P")
TEAM = ("MP,GP,MPVGP,BH:MP,BH:GP,BH:MP/C1,BH:GP/C1,BH:GP/M1,BH:MP/P,FB:MP,FB:GP/C1,AOB:MP,AOB:GP/F,BHS:GP,"
        "EMMSB,EMGSB,EGMSB,EGGSB,WSB,USB,EMMSB/C1,EGGSB/C1/P,SSSC,SSSC/F,SSSC/K3,SSSC/P,KS:MP,KS:GP/L-1,"
        "WIN:MP,WIN:GP,WON:MP,REP,STD:MP,STD:GP,PS:MP,PS:GP/C1,TPN,TPN/R,DE,DE/P,EDE,EDET,EDEB,EDEBT,EDEBB,"
        "BC,TBR,BBE")
#: Ranking lists: each applied in order, the lots drawn with a seed.
INDIVIDUAL_RANKINGS = ("BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB", "DE,SB,KS,WIN", "PS,BH/M1,STD,TPR,REP,LOT,TPN")
TEAM_RANKINGS = ("MPVGP,EDE,EMGSB,BH:MP/C1", "EDEBT,SSSC,BC,TBR,BBE")


def individual(seed: int, players: int, rounds: int, system: System = System.SWISS,
               scoring: Scoring = Scoring()) -> Tournament:
    """Random pairings (a Swiss-like top-down pairing by score) with every kind of round."""
    rng = random.Random(seed)
    ratings = {n: rng.choice([None, rng.randint(1000, 2800), rng.randint(1000, 2800)]) for n in range(1, players + 1)}
    results: dict[int, list[RoundResult]] = {n: [] for n in ratings}
    score = dict.fromkeys(ratings, Fraction(0))
    withdrawn: set[int] = set()
    late = {n: rng.randint(2, rounds) for n in ratings if rounds > 1 and rng.random() < 0.05}
    met: set[tuple[int, int]] = set()
    for r in range(1, rounds + 1):
        out: dict[int, RoundResult] = {}
        for n in ratings:
            if n in withdrawn or late.get(n, 0) > r:
                out[n] = RoundResult(Code.ZPB)
            elif rng.random() < 0.06:
                out[n] = RoundResult(rng.choice((Code.HPB, Code.ZPB, Code.FPB, Code.HPB)))
            elif rng.random() < 0.02:
                withdrawn.add(n)
                out[n] = RoundResult(Code.ZPB)
        active = sorted((n for n in ratings if n not in out), key=lambda n: (-score[n], -(ratings[n] or 0), n))
        if len(active) % 2:
            out[active.pop()] = RoundResult(Code.PAB)
        while active:
            a = active.pop(0)
            b = next((x for x in active if (a, x) not in met), active[0])
            active.remove(b)
            met |= {(a, b), (b, a)}
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            kind = rng.choices(("1", "=", "0", "+", "-", "--", "W", "D", "L"), (30, 25, 30, 3, 3, 1, 1, 1, 1))[0]
            codes = {"1": (Code.WIN, Code.LOSS), "=": (Code.DRAW, Code.DRAW), "0": (Code.LOSS, Code.WIN),
                     "+": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS), "-": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
                     "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS), "W": (Code.QUICK_WIN, Code.QUICK_LOSS),
                     "D": (Code.QUICK_DRAW, Code.QUICK_DRAW), "L": (Code.QUICK_LOSS, Code.QUICK_WIN)}[kind]
            forfeit = codes[0].is_forfeit
            out[white] = RoundResult(codes[0], black, None if forfeit and rng.random() < 0.5 else Colour.WHITE)
            out[black] = RoundResult(codes[1], white, out[white].colour and Colour.BLACK)
        for n, res in out.items():
            results[n].append(res)
            score[n] += scoring.points(res.code)
    return Tournament(tuple(Player(n, f"Player {n}", ratings[n], tuple(results[n])) for n in ratings),
                      rounds, system, scoring)


def teams(seed: int, count: int, rounds: int, boards: int = 4) -> Tournament:
    """Random team matches with board points, byes, forfeited matches and repeat meetings."""
    rng = random.Random(seed)
    lines: dict[int, list[Match]] = {n: [] for n in range(1, count + 1)}
    for _ in range(rounds):
        ids = list(lines)
        rng.shuffle(ids)
        if len(ids) % 2 or rng.random() < 0.2:
            n = ids.pop()
            code = rng.choice((Code.PAB, Code.HPB, Code.ZPB))
            lines[n].append(Match(code, game_points=Fraction({Code.PAB: boards, Code.HPB: boards // 2}.get(code, 0))))
        while len(ids) >= 2:
            a, b = ids.pop(), ids.pop()
            if rng.random() < 0.05:
                lines[a].append(Match(Code.FORFEIT_WIN, b, None, Fraction(boards)))
                lines[b].append(Match(Code.FORFEIT_LOSS, a, None, Fraction(0)))
                continue
            mine = tuple(Fraction(rng.choice((0, 1, 2)), 2) for _ in range(boards))
            theirs = tuple(1 - p for p in mine)
            gp_a, gp_b = sum(mine, Fraction(0)), sum(theirs, Fraction(0))
            code_a = Code.WIN if gp_a > gp_b else Code.DRAW if gp_a == gp_b else Code.LOSS
            code_b = {Code.WIN: Code.LOSS, Code.DRAW: Code.DRAW, Code.LOSS: Code.WIN}[code_a]
            lines[a].append(Match(code_a, b, Colour.WHITE, gp_a, mine))
            lines[b].append(Match(code_b, a, Colour.BLACK, gp_b, theirs))
        for n in ids:
            lines[n].append(Match(Code.ZPB))
    return Tournament(teams=tuple(Team(n, f"Team {n}", rating=rng.choice((None, rng.randint(1500, 2400))),
                                       matches=tuple(m)) for n, m in lines.items()),
                      rounds=rounds, boards=boards, match_scoring=Scoring.matches())


def samples() -> dict[str, tuple[Tournament, str, tuple[str, ...]]]:
    """name → (tournament, its tie-break list, its ranking lists)."""
    three_one = Scoring(Fraction(3), Fraction(1), Fraction(0), Fraction(3), Fraction(0), Fraction(3), Fraction(3),
                        Fraction(1), Fraction(0))
    thirds = Scoring(draw=Fraction(1, 3), pab=Fraction(1, 2), hpb=Fraction(1, 3))
    found = {
        "swiss-12x5": (individual(1, 12, 5), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "swiss-31x7": (individual(2, 31, 7), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "swiss-80x9": (individual(3, 80, 9), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "swiss-150x11": (individual(4, 150, 11), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "swiss-3-1-0-30x7": (individual(5, 30, 7, scoring=three_one), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "swiss-thirds-25x6": (individual(6, 25, 6, scoring=thirds), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "round-robin-10x9": (individual(7, 10, 9, System.ROUND_ROBIN), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "knock-out-16x4": (individual(8, 16, 4, System.KNOCKOUT), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "one-round-2": (individual(9, 2, 1), INDIVIDUAL, INDIVIDUAL_RANKINGS),
        "teams-14x7": (teams(10, 14, 7), TEAM, TEAM_RANKINGS),
        "teams-9x5-6boards": (teams(11, 9, 5, 6), TEAM, TEAM_RANKINGS),
        "teams-20x9": (teams(12, 20, 9), TEAM, TEAM_RANKINGS),
    }
    return found


def show(value: object) -> str:
    """A value as the vectors write it: ``7`` an int, ``7/1`` a Fraction, ``-`` None."""
    if value is None:
        return "-"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if type(value) is int:
        return str(value)
    raise TypeError(f"unexpected value {value!r}")


def values(t: Tournament, codes: str, rankings: tuple[str, ...]) -> dict[str, object]:
    """Everything the vectors record for one tournament: per edition, each code's values and rankings.

    A ranking is written as "rank start-number" per line, with the places type A tie-breaks gave
    (the other tie-breaks' values are those of ``compute``).
    """
    out: dict[str, object] = {}
    primaries = ("MP", "GP") if t.is_team else (None,)
    last = t.played_rounds
    size = len(t.teams or t.players)
    for edition in Edition:
        for primary in primaries:
            for rounds in (None, last - 2) if last > 2 and size <= 40 else (None,):
                key = f"{edition.value} {primary or 'PTS'} {rounds or 'all'}"
                entry: dict[str, object] = {}
                got = compute(t, codes, edition, primary=primary, rounds=rounds, lots_seed=3)
                entry["values"] = {code: " ".join(show(v) for v in found.values()) for code, found in got.items()}
                entry["ranks"] = {}
                for order in rankings:
                    try:
                        standing = rank(t, order, edition, primary=primary, rounds=rounds, lots_seed=7)
                    except TieBreakError as e:
                        entry["ranks"][order] = f"error: {e}"
                        continue
                    group = [label for label in labels(order) if parse(label.partition("#")[0]).kind.group]
                    entry["ranks"][order] = ", ".join(
                        " ".join([str(s.rank), str(s.id)] + [show(s.values[label]) for label in group])
                        for s in standing)
                out[key] = entry
    return out


def main() -> None:
    VECTORS.parent.mkdir(parents=True, exist_ok=True)
    data = {name: values(t, codes, rankings) for name, (t, codes, rankings) in samples().items()}
    VECTORS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
