"""Time Swiss (FIDE Dutch) pairings: a club rapid tournament and ten times its size.

Usage (from the repository root)::

    PYTHONPATH=src python bench/bench_swiss.py [--runs N]

Plays a random tournament round by round with the engine (fixed seed: results
30 % draws) and prints the time to pair round 1, the middle round and the last
round, for 30 players × 7 rounds (a club's rapid tournament: median of N runs),
100 × 7 and 300 players × 9 rounds (a large open: one run each, as the tournament
is played; the 300-player run takes about half an hour).
"""

from __future__ import annotations

import argparse
import random
import time

from keizer.model import Colour
from keizer.pairing.swiss import pair_swiss
from keizer.tiebreaks import Code, Player, RoundResult, Tournament
from timing import median_ms  # noqa: E402  (bench/ is the script's folder)


def history(players: int, rounds: int, seed: int = 2026) -> tuple[list[Tournament], list[float]]:
    """The tournament before each round, paired by the engine with random results,
    and the milliseconds each pairing took."""
    rnd = random.Random(seed)
    results: dict[int, list[RoundResult]] = {k: [] for k in range(1, players + 1)}
    before, times = [], []
    for r in range(rounds):
        t = Tournament(tuple(Player(k, results=tuple(v)) for k, v in results.items()), rounds=r)
        before.append(t)
        start = time.perf_counter()
        got = pair_swiss(t, rounds, upto=r)
        times.append((time.perf_counter() - start) * 1000)
        for white, black in got.pairs:
            x = rnd.random()
            mine, theirs = (Code.DRAW, Code.DRAW) if x < 0.3 else (Code.WIN, Code.LOSS) if x < 0.65 \
                else (Code.LOSS, Code.WIN)
            results[white].append(RoundResult(mine, black, Colour.WHITE))
            results[black].append(RoundResult(theirs, white, Colour.BLACK))
        if got.bye:
            results[got.bye].append(RoundResult(Code.PAB))
    return before, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    before, _ = history(30, 7)
    for r in (0, 3, 6):
        ms = median_ms(lambda: pair_swiss(before[r], 7, upto=r), args.runs)
        print(f"  30 players, pair round {r + 1} of 7: {ms:9.1f} ms (median of {args.runs})", flush=True)
    for players, rounds in ((100, 7), (300, 9)):
        _, times = history(players, rounds)
        for r in (0, rounds // 2, rounds - 1):
            print(f"{players:4d} players, pair round {r + 1} of {rounds}: {times[r]:9.1f} ms (one run)", flush=True)


if __name__ == "__main__":
    main()
