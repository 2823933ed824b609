"""Benchmark: `keizer import season.json` wall-clock, at 600 and 2,000 players.

    python bench/bench_import.py

Each season has 10 complete rounds (bench/seasons.py: ~75% present, absences of every
kind), written as season JSON and imported into a new database by the installed command,
as a club would.  The import should grow linearly with the number of players.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import synthetic_season  # noqa: E402

from keizer.formats.season_json import dump  # noqa: E402
from timing import median_ms  # noqa: E402  (bench/ is the script's folder)

ROUNDS = 10


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for players, runs in ((600, 3), (2000, 3)):
            season = folder / f"season-{players}.json"
            season.write_text(json.dumps(dump(synthetic_season(players, ROUNDS), "classic"), ensure_ascii=False),
                              encoding="utf-8")
            db = folder / f"club-{players}.db"

            def import_once() -> None:
                db.unlink(missing_ok=True)
                subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "import", str(season)],
                               check=True, capture_output=True)

            ms = median_ms(import_once, runs)
            print(f"keizer import {players:>4} players {ROUNDS} rounds (wall clock): {ms:9.0f} ms (median of {runs})")


if __name__ == "__main__":
    main()
