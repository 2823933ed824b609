"""Time Swiss (FIDE Dutch) pairings: a club rapid tournament and ten times its size.

Usage (from the repository root)::

    PYTHONPATH=src python bench/bench_swiss.py [--runs N]

Plays a random tournament round by round with the engine (fixed seed: results
30 % draws) and prints the median time to pair round 1, the middle round and
the last round, for 30 players × 7 rounds (a club's rapid tournament) and
300 players × 9 rounds (a large open).
"""

from __future__ import annotations

import argparse
import random

from keizer.model import Colour
from keizer.pairing.swiss import pair_swiss
from keizer.tiebreaks import Code, Player, RoundResult, Tournament
from timing import median_ms  # noqa: E402  (bench/ is the script's folder)


def history(players: int, rounds: int, seed: int = 2026) -> list[Tournament]:
    """The tournament before each round, paired by the engine with random results."""
    rnd = random.Random(seed)
    results: dict[int, list[RoundResult]] = {k: [] for k in range(1, players + 1)}
    before = []
    for r in range(rounds):
        t = Tournament(tuple(Player(k, results=tuple(v)) for k, v in results.items()), rounds=r)
        before.append(t)
        got = pair_swiss(t, rounds, upto=r)
        for white, black in got.pairs:
            x = rnd.random()
            mine, theirs = (Code.DRAW, Code.DRAW) if x < 0.3 else (Code.WIN, Code.LOSS) if x < 0.65 \
                else (Code.LOSS, Code.WIN)
            results[white].append(RoundResult(mine, black, Colour.WHITE))
            results[black].append(RoundResult(theirs, white, Colour.BLACK))
        if got.bye:
            results[got.bye].append(RoundResult(Code.PAB))
    return before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for players, rounds in ((30, 7), (300, 9)):
        before = history(players, rounds)
        for r in (0, rounds // 2, rounds - 1):
            t = before[r]
            ms = median_ms(lambda: pair_swiss(t, rounds, upto=r), args.runs)
            print(f"{players:4d} players, pair round {r + 1} of {rounds}: {ms:9.1f} ms")


if __name__ == "__main__":
    main()
