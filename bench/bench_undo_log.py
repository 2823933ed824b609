"""Benchmark: what the change log costs each change (``store.change``, docs/database.md).

    python bench/bench_undo_log.py

A change finds its own undo entries (``undo_log`` rows with no ``change_id`` yet) three times:
it clears those another program left, asks whether it wrote any, and marks them as its own.
Measured on the 600-player 52-round season (one import: 48,000 undo entries) and on the sample
club after a season of undoable changes, one result entered a change (the median wall-clock and
CPU milliseconds of the whole change, and of the three statements alone); then undoing it.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seasons import big_season  # noqa: E402
from timing import median_cpu_ms  # noqa: E402

from keizer.operations import competition as ops  # noqa: E402
from keizer.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIND = ("DELETE FROM undo_log WHERE change_id IS NULL",
        "SELECT 1 FROM undo_log WHERE change_id IS NULL LIMIT 1",
        "UPDATE undo_log SET change_id = 0 WHERE change_id IS NULL")


def measure(db: Path, label: str, runs: int = 40) -> None:
    store = Store.open(db)
    comp = store.competitions()[0]["id"]
    last = store.conn.execute("SELECT max(round) FROM games WHERE competition_id = ?", (comp,)).fetchone()[0]
    entries = store.conn.execute("SELECT count(*) FROM undo_log").fetchone()[0]
    boards = [b for (b,) in store.conn.execute(
        "SELECT board FROM games WHERE competition_id = ? AND round = ? ORDER BY board", (comp, last))]
    results = iter(["1-0", "0-1"] * runs)

    def one_result() -> None:
        with store.change("result", "bench"):
            ops.enter_results(store, comp, {boards[0]: next(results)}, round_no=last, correct=True)

    def statements() -> None:
        store.conn.execute("BEGIN")
        for sql in FIND:
            store.conn.execute(sql)
        store.conn.execute("ROLLBACK")

    def undo() -> None:
        store.undo()
        one_result()

    store.conn.isolation_level = None
    wall_s, cpu_s = median_cpu_ms(statements, runs)
    store.conn.isolation_level = ""  # type: ignore[assignment]
    wall, cpu = median_cpu_ms(one_result, runs)
    wall_u, cpu_u = median_cpu_ms(undo, runs // 4)
    print(f"{label}: {entries} undo entries; a change (one result) {wall:.2f} ms ({cpu:.2f} CPU), "
          f"its three look-ups {wall_s:.2f} ms ({cpu_s:.2f} CPU); undo and redo {wall_u:.2f} ms ({cpu_u:.2f} CPU)")
    plan = store.conn.execute("EXPLAIN QUERY PLAN " + FIND[1]).fetchall()
    print("   plan:", "; ".join(row[-1] for row in plan))
    store.close()


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="keizer-bench-undo-"))
    try:
        started = time.perf_counter()
        big = big_season(folder)
        print(f"600 x 52 made in {time.perf_counter() - started:.1f} s")
        measure(big, "600 x 52")
        sample = folder / "sample.db"
        shutil.copyfile(ROOT / "sample_club.db", sample)
        measure(sample, "sample club")
        with sqlite3.connect(big) as conn:
            size = conn.execute("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size").fetchone()[0]
        print(f"600 x 52 file: {size / 1e6:.1f} MB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
