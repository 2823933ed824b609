"""Time the Keizer pairing engine on synthetic seasons.

Usage (from the repository root)::

    PYTHONPATH=src python bench/bench_pairing.py [--runs N]

Each season is seeded and played out with the engine itself: every round about
75 % of the registered players are present, they are paired by ``pair_round``
in the order of a simple running standing, and results are random (3 %
forfeits).  Then the next round is paired N times and the median printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from dataclasses import replace

from keizer.model import Game, Result
from keizer.pairing.keizer import PairingRequest, pair_round
from keizer.settings import Settings

_RESULTS = [Result.WHITE_WIN] * 37 + [Result.BLACK_WIN] * 33 + [Result.DRAW] * 27 + [
    Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT]


def season(present: int, rounds: int, seed: int, settings: Settings) -> PairingRequest:
    """The request for round `rounds + 1` of a season with `present` players present then."""
    rng = random.Random(seed)
    registered = round(present / 0.75)
    players = [f"p{k:04d}" for k in range(registered)]
    points = {p: rng.random() for p in players}  # initial order: a random "rating"
    byes: dict[str, int] = {}
    history: list[Game] = []
    for rnd in range(1, rounds + 2):
        standing = sorted(players, key=lambda p: -points[p])
        count = present if rnd == rounds + 1 else rng.randint(int(present * 0.9), int(present * 1.1))
        here = set(rng.sample(players, count))
        ranking = tuple(p for p in standing if p in here)
        request = PairingRequest(round=rnd, ranking=ranking, history=tuple(history),
                                 byes=dict(byes), settings=settings)
        if rnd == rounds + 1:
            return request
        pairing = pair_round(request)
        if pairing.bye:
            byes[pairing.bye] = byes.get(pairing.bye, 0) + 1
        for board in pairing.boards:
            game = Game(rnd, board.board, board.white, board.black, rng.choice(_RESULTS))
            history.append(game)
            for p in (game.white, game.black):
                points[p] += float(game.points_of(p))
    raise AssertionError("unreachable")


def bent_variant(request: PairingRequest) -> PairingRequest:
    """Same request with three categories of odd size and `same` pairing: no
    clean pairing exists, so the weighted (big-integer) path runs."""
    n = len(request.ranking)
    cut = [n // 3 | 1, (2 * n // 3) | 1]  # odd first and second groups (n even)
    cats = {p: "A" if k < cut[0] else "B" if k < cut[1] else "C"
            for k, p in enumerate(request.ranking)}
    settings = replace(request.settings, category_pairing="same")
    return replace(request, categories=cats, category_order=("A", "B", "C"), settings=settings)


def median_ms(request: PairingRequest, runs: int) -> tuple[float, int, float]:
    """Median milliseconds, rules bent, and the peak memory (MB) of one more run."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pairing = pair_round(request)
        times.append((time.perf_counter() - start) * 1000)
    tracemalloc.start()
    pair_round(request)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return statistics.median(times), len(pairing.bent), peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per case (60 players)")
    parser.add_argument("--big-runs", type=int, default=5, help="runs per case (600 players)")
    args = parser.parse_args()

    plain = Settings()
    strict = Settings(colour_limit=True, max_meetings=3)
    cases = [
        ("60 present, 40 rounds", season(60, 40, 1, plain), args.runs),
        ("61 present (bye), 40 rounds", season(61, 40, 2, plain), args.runs),
        ("60 present, colour_limit + max_meetings 3", season(60, 40, 3, strict), args.runs),
        ("60 present, rules must bend (categories)", bent_variant(season(60, 40, 1, plain)), args.runs),
        ("600 present, 52 rounds", season(600, 52, 4, plain), args.big_runs),
        ("601 present (bye), 52 rounds", season(601, 52, 5, plain), args.big_runs),
        ("600 present, colour_limit + max_meetings 3", season(600, 52, 6, strict), args.big_runs),
        ("200 present, rules must bend (categories)",
         bent_variant(season(200, 52, 7, plain)), args.big_runs),
    ]
    cases.append(("600 present, rules must bend (categories)",
                  bent_variant(season(600, 52, 4, plain)), args.big_runs))
    for name, request, runs in cases:
        ms, bent, peak = median_ms(request, runs)
        goal = "  (goal < 1 s, < 100 MB)" if name.startswith("600 present, rules must bend") else ""
        print(f"{name:45} median {ms:9.1f} ms over {runs} runs, peak {peak:5.1f} MB"
              f" ({len(request.history)} games of history, {bent} rules bent){goal}")


if __name__ == "__main__":
    main()
