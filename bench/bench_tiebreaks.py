"""Benchmark: every tie-break for every player of a seeded synthetic Swiss, and a full ranking.

    python bench/bench_tiebreaks.py

Sizes: a realistic open (150 players, 9 rounds), a very large one (5,000 players,
11 rounds: the size issue 13 asks to rank in under a second) and ten times that.  The tournaments have half-point and zero-point byes, forfeits and
withdrawals, so the unplayed-round rules do real work.  ``compute`` gives every
listed tie-break for every player (DE on every score group); ``rank`` applies the
list as a tie-break order.  Then the TRF round trip of the large one.  Times are CPU
milliseconds of this process (the wall clock beside them): on a machine others share, the CPU
time is what the job costs.
"""

from __future__ import annotations

import random
from itertools import islice

from keizer.formats.trf import dump, parse
from keizer.model import Colour
from keizer.tiebreaks import Code, Edition, Player, RoundResult, Tournament, compute, rank
from timing import median_cpu_ms  # noqa: E402  (bench/ is the script's folder)

FULL = ("BH/C1,BH/C2,BH/M1,BH,FB,AOB,BHS,SB,SB/C1,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO,"
        "WIN,WON,BPG,BWG,REP,STD,PS,PS/C1,RTNG,TPN,DE")


def synthetic_swiss(players: int, rounds: int, seed: int = 2026) -> Tournament:
    """A Swiss-like tournament: score groups paired top-down, results by rating, some unplayed rounds."""
    rng = random.Random(seed)
    ratings = {n: rng.randint(1200, 2700) for n in range(1, players + 1)}
    results: dict[int, list[RoundResult]] = {n: [] for n in ratings}
    score = dict.fromkeys(ratings, 0.0)
    met: set[tuple[int, int]] = set()
    withdrawn: set[int] = set()
    for _ in range(rounds):
        out = {}
        for n in ratings:
            if n in withdrawn:
                out[n] = RoundResult(Code.ZPB)
            elif rng.random() < 0.03:
                out[n] = RoundResult(rng.choice((Code.HPB, Code.ZPB)))
            elif rng.random() < 0.003:
                withdrawn.add(n)
                out[n] = RoundResult(Code.ZPB)
        active = sorted((n for n in ratings if n not in out), key=lambda n: (-score[n], -ratings[n]))
        if len(active) % 2:
            out[active.pop()] = RoundResult(Code.PAB)
        paired = [False] * len(active)
        for k, a in enumerate(active):  # the first unpaired meets the next one it has not met (else the next)
            if paired[k]:
                continue
            # a has met fewer than `rounds` players, so one of the next `rounds` unpaired is new to a
            free = list(islice((j for j in range(k + 1, len(active)) if not paired[j]), rounds))
            j = next((j for j in free if (a, active[j]) not in met), free[0])
            paired[k] = paired[j] = True
            b = active[j]
            met |= {(a, b), (b, a)}
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            if rng.random() < 0.01:
                out[white], out[black] = RoundResult(Code.FORFEIT_WIN, black), RoundResult(Code.FORFEIT_LOSS, white)
                continue
            expected_white = 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))
            x = rng.random()
            w, b_ = ((Code.WIN, Code.LOSS) if x < expected_white - 0.15 else
                     (Code.DRAW, Code.DRAW) if x < expected_white + 0.15 else (Code.LOSS, Code.WIN))
            out[white] = RoundResult(w, black, Colour.WHITE)
            out[black] = RoundResult(b_, white, Colour.BLACK)
        points = {Code.WIN: 1, Code.FORFEIT_WIN: 1, Code.PAB: 1, Code.DRAW: 0.5, Code.HPB: 0.5}
        for n, res in out.items():
            results[n].append(res)
            score[n] += points.get(res.code, 0)
    return Tournament(tuple(Player(n, f"Player {n}", ratings[n], tuple(results[n])) for n in ratings), rounds)




def main() -> None:
    print("CPU milliseconds of this process (wall clock beside them): others share the machine")
    for players, rounds, runs in ((150, 9, 11), (5000, 11, 3), (50_000, 11, 1)):
        t = synthetic_swiss(players, rounds)
        goal = "  (issue 25's goal: < 300 ms)" if players == 5000 else ""
        for edition in (Edition.FIDE_2026, Edition.FIDE_2012):
            wall, cpu = median_cpu_ms(lambda: compute(t, FULL, edition), runs)
            print(f"compute {len(FULL.split(','))} tie-breaks {players:>6} players {rounds:>2} rounds "
                  f"{edition.value:>4}: {cpu:9.1f} ms CPU, {wall:9.1f} ms wall (median of {runs}){goal}")
        wall, cpu = median_cpu_ms(lambda: rank(t, FULL), runs)
        print(f"rank by the full list     {players:>6} players {rounds:>2} rounds 2026: "
              f"{cpu:9.1f} ms CPU, {wall:9.1f} ms wall (median of {runs}){goal}")
        if players == 5000:
            text = dump(t)
            for name, job in (("dump", lambda: dump(t)), ("parse", lambda: parse(text))):
                wall, cpu = median_cpu_ms(job, 5)
                print(f"TRF {name:<5}  {players:>6} players {rounds:>2} rounds: {cpu:9.1f} ms CPU, {wall:9.1f} ms wall "
                      f"(median of 5)  (goal: < 200 ms)")


if __name__ == "__main__":
    main()
