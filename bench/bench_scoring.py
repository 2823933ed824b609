"""Benchmark: Keizer standings (every round) in-process, and `keizer standings` wall-clock.

    python bench/bench_scoring.py

Sizes: a realistic club (60 players, 40 rounds) and ten times that (600 players, 52 rounds),
for each recalculation model; then the CLI on the shipped sample club.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import synthetic_season  # noqa: E402

from keizer.scoring import compute_standings  # noqa: E402
from timing import median_ms  # noqa: E402  (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parents[1]




def main() -> None:
    for players, rounds, runs in ((60, 40, 21), (600, 52, 3)):
        for model in ("per-round", "frozen", "fixed-point"):
            season = synthetic_season(players, rounds, recalculation=model)
            ms = median_ms(lambda: compute_standings(season), runs)
            print(f"standings {players:>4} players {rounds} rounds {model:<11}: {ms:9.1f} ms (median of {runs})")
    cmd = [sys.executable, "-m", "keizer", "--db", str(ROOT / "sample_club.db"), "standings"]
    ms = median_ms(lambda: subprocess.run(cmd, check=True, capture_output=True), 11)
    print(f"CLI 'keizer standings' on sample_club.db (wall clock):  {ms:9.1f} ms (median of 11)")


if __name__ == "__main__":
    main()
