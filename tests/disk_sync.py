"""The tests' SQLite commits do not wait for the disk (``PRAGMA synchronous = OFF``).

keizer leaves SQLite's default, ``synchronous = FULL``: a commit waits until the disk has the
journal and then the database (four ``fdatasync`` for a ``keizer member add``), so that a
change a user was told is made survives a power cut.  The tests commit some 6,000 times in a
quick run, and on a machine whose disk others use too each of those waits takes milliseconds.
25 database-heavy test files with ``-n 2`` on the shared machine: 30 -> 20 s and 22 -> 15 s
of wall time, 28 -> 26 s of CPU (December 2026).

Why the tests stay honest: ``synchronous`` decides only whether SQLite waits for the disk to
confirm what it wrote.  The database file is written the same, in the same order, under the
same locks; the rollback journal is written and removed as before (its header leaves the
count of its records for a reader to work out, as on a file system that appends safely), and
a reader, a second connection or a process killed in the middle of a commit (as the tests
kill one) sees the same files, since the operating system holds every write.  Only a power
cut or a crash of the operating system tells the two apart, and no test makes one.  keizer's
own setting is tested (``tests/test_robustness.py``: without this module a change commits
with ``synchronous = FULL``, and ``src/`` sets it nowhere); the processes the tests start
(``keizer serve``, a command in a fresh Python) keep it.  ``KEIZER_TEST_SYNC=full`` runs the
tests with it.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from keizer.store.changes import Changes
from keizer.store.schema import Schema

#: keizer's own transactions, as they are outside the tests: a change (``store.change``) and
#: making or upgrading a schema.
WRITE_TRANSACTION = Changes._write_transaction
SCHEMA_CHANGE = Schema._schema_change


def _without_waiting(conn: sqlite3.Connection) -> bool:
    """Set ``synchronous = OFF`` on ``conn`` if it can be at once; whether it was.  SQLite sets
    it only outside a transaction and reads the file's schema for it, so it is tried as a
    transaction begins, never waiting for another writer (keizer's own wait follows, as always,
    and a file that is not a database is refused by keizer as always)."""
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("PRAGMA synchronous = OFF")
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waits}")


def _commits_without_waiting(transaction: Callable[..., AbstractContextManager[None]]) -> Callable[..., Any]:
    @contextmanager
    def begun(self: Any, *args: Any, **kwargs: Any) -> Iterator[None]:
        if not self.conn.in_transaction and not getattr(self, "_unsynced", False):
            self._unsynced = _without_waiting(self.conn)
        with transaction(self, *args, **kwargs):
            yield
    return begun


def commit_without_waiting() -> None:
    """keizer's transactions in this process commit without waiting for the disk, unless
    ``KEIZER_TEST_SYNC=full``."""
    if os.environ.get("KEIZER_TEST_SYNC", "").strip().lower() != "full":
        Changes._write_transaction = _commits_without_waiting(WRITE_TRANSACTION)  # type: ignore[method-assign]
        Schema._schema_change = _commits_without_waiting(SCHEMA_CHANGE)  # type: ignore[method-assign]
