"""Schema 14: the undo entries are found by change through an index (``undo_log_by_change``).

Each change looks for its own entries (those with no change yet) three times, and an undo for
those of the change it reverts; without the index each look scanned the whole log (45,000
entries after a 600-player 52-round season, 4 ms of every change: bench/bench_undo_log.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from keizer.store import Store

SCHEMA_V1 = Path(__file__).parent / "data" / "schema-v1.db"

#: The change log's look-ups (store/changes.py), with the plan SQLite makes for each.
LOOKUPS = ("DELETE FROM undo_log WHERE change_id IS NULL",
           "SELECT 1 FROM undo_log WHERE change_id IS NULL LIMIT 1",
           "UPDATE undo_log SET change_id = 1 WHERE change_id IS NULL",
           "SELECT sql FROM undo_log WHERE change_id = 1 ORDER BY seq DESC",
           "DELETE FROM undo_log WHERE change_id IS NULL OR change_id = 1")


def plans(store: Store) -> list[str]:
    return [" ".join(row[-1] for row in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in LOOKUPS]


def test_a_new_file_finds_undo_entries_by_change(tmp_path):
    store = Store.open(tmp_path / "club.db", create=True)
    assert all("undo_log_by_change" in plan and "SCAN undo_log" not in plan for plan in plans(store)), plans(store)
    store.close()


def test_an_upgraded_file_gets_the_index(tmp_path):
    db = tmp_path / "old.db"
    shutil.copyfile(SCHEMA_V1, db)
    store = Store.open(db)
    assert all("undo_log_by_change" in plan for plan in plans(store)), plans(store)
    # the log written before the upgrade is found by change too: each entry of the first change
    first = store.conn.execute("SELECT min(id) FROM changes").fetchone()[0]
    by_index = store.conn.execute("SELECT seq FROM undo_log INDEXED BY undo_log_by_change WHERE change_id = ?",
                                  (first,)).fetchall()
    scanned = store.conn.execute("SELECT seq FROM undo_log NOT INDEXED WHERE change_id = ?", (first,)).fetchall()
    assert sorted(by_index) == sorted(scanned) and by_index
    store.close()
