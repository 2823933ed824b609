"""Benchmark: Keizer standings (every round) in-process, and `keizer standings` wall-clock.

    python bench/bench_scoring.py

Sizes: the shipped sample club (its Keizer competition: 41 players, 30 rounds), a realistic
club (60 players, 40 rounds) and ten times that (600 players, 52 rounds),
for each recalculation model: every standing from scratch, and a kept standing
(``keizer.kept``) after one result changes in the last round and in the middle one, which
goes on from that round (issue 25; goal: the fixed-point model under 0.5 s at 600 × 52).
Then the CLI on the shipped sample club.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import synthetic_season  # noqa: E402

from dataclasses import replace  # noqa: E402

from keizer.kept import Kept  # noqa: E402
from keizer.model import Result, Season  # noqa: E402
from keizer.scoring import compute_standings  # noqa: E402
from keizer.store import Store  # noqa: E402
from timing import median_cpu_ms, median_ms  # noqa: E402  (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parents[1]




def one_result_changed(season: Season, number: int, k: int) -> Season:
    """``season`` with board 1 of round ``number`` given another result (the k-th of three)."""
    rnd = season.rounds[number - 1]
    result = (Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN)[k % 3]
    games = (replace(rnd.games[0], result=result),) + rnd.games[1:]
    return replace(season, rounds=season.rounds[:number - 1] + (replace(rnd, games=games),) + season.rounds[number:])


def kept_ms(season: Season, number: int, runs: int) -> tuple[float, float]:
    """A kept standing after one result of round ``number`` changed (the median of ``runs`` changes)."""
    kept = Kept()
    kept.standing(season)
    edits = iter(range(1, runs * 2))
    return median_cpu_ms(lambda: kept.standing(one_result_changed(season, number, next(edits))), runs)


def sample_season(model: str) -> Season:
    """The sample club's Keizer competition, under ``model``."""
    store = Store.open(ROOT / "sample_club.db")
    try:
        season = store.load_season(store.competitions()[0]["id"])
    finally:
        store.close()
    return replace(season, settings=replace(season.settings, recalculation=model))


def main() -> None:
    for model in ("per-round", "frozen", "fixed-point"):
        season = sample_season(model)
        wall, cpu = median_cpu_ms(lambda: compute_standings(season), 21)
        print(f"standings sample club ({len(season.players)} players {season.completed_rounds()} rounds) {model:<11}: "
              f"{wall:9.1f} ms, cpu {cpu:7.1f} ms (median of 21)")
    for players, rounds, runs in ((60, 40, 21), (600, 52, 5)):
        for model in ("per-round", "frozen", "fixed-point"):
            season = synthetic_season(players, rounds, recalculation=model)
            wall, cpu = median_cpu_ms(lambda: compute_standings(season), runs)
            goal = "   (goal < 500 ms)" if model == "fixed-point" and players == 600 else ""
            print(f"standings {players:>4} players {rounds} rounds {model:<11}: {wall:9.1f} ms, cpu {cpu:7.1f} ms "
                  f"(median of {runs}){goal}")
            for number in (rounds, rounds // 2):
                wall, cpu = kept_ms(season, number, max(runs, 5))
                print(f"  kept, one result of round {number:>2} changed          : {wall:9.1f} ms, cpu {cpu:7.1f} ms")
    cmd = [sys.executable, "-m", "keizer", "--db", str(ROOT / "sample_club.db"), "standings"]
    ms = median_ms(lambda: subprocess.run(cmd, check=True, capture_output=True), 11)
    print(f"CLI 'keizer standings' on sample_club.db (wall clock):  {ms:9.1f} ms (median of 11)")


if __name__ == "__main__":
    main()
