"""The database file and the connection to it: what every part of the store stands on.

:class:`Database` holds the connection and reads rows; the functions connect to the file
(refusing a missing or empty one), wait for another writer (the busy timeout), put SQLite's
errors in words a user can act on, and tell when the file has changed (:func:`generation`).
"""

from __future__ import annotations

import getpass
import hashlib
import os
import pickle
import socket
import sqlite3
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import sqlite_utils

from keizer.model import Season
from keizer.refusals import Message, Refusal, Word


class StoreError(Refusal):
    """Something the user can fix: the message is one line saying what and how."""


# Raised and caught as keizer.store.StoreError (the package exports it), and so named in
# tracebacks and in the operations' doctests.
StoreError.__module__ = "keizer.store"


def _rowid(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT made (always one: every caller inserts a row)."""
    assert cursor.lastrowid is not None
    return cursor.lastrowid


class Database:
    """The connection to a season database, and the rows read from it; every part of the
    :class:`~keizer.store.Store` builds on it."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.conn = db.conn
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._summary: str | Message = ""
        #: The competition a change is about, named in its log entry (set by the CLI's and the
        #: app's lookup of the competition a command works on).
        self.subject: str | None = None
        self._upgrading = False
        #: This store made the file (it did not exist) and its schema: a command that fails may remove it.
        self.made = False
        #: The seasons read, each with the state of the file it was read in (Store.load_season).
        self._seasons: dict[int, tuple[tuple[int, int, int | None], Season]] = {}
        #: The file (None in memory), named in errors about it.
        self.path: Path | None = None
        #: When changes are logged; a script that builds a demo season sets its own.
        self.clock: Callable[[], str] = _now
        #: Who makes the changes (user on computer): a message the app words; the demo season sets its own too.
        self.origin: Callable[[], str | Message] = _origin

    @property
    def place(self) -> str:
        """Which database this is, for what a process keeps of it (standings, careers): its
        file's path, or this object for a database in memory."""
        return str(self.path) if self.path is not None else f"memory {id(self)}"

    def close(self) -> None:
        self.conn.close()

    def _rows(self, sql: str, params: tuple | dict = ()) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]

    def _row(self, sql: str, params: tuple | dict = ()) -> dict[str, Any] | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def file_state(self) -> tuple[int, int, int | None]:
        """What changes with every write to the file as this connection sees it: a row written
        by this connection (``total_changes``), a commit of another (``PRAGMA data_version``), a
        write rolled back (which removes the undo entries of what it reverted)."""
        data_version, last_undo = self.conn.execute(
            "SELECT (SELECT data_version FROM pragma_data_version), (SELECT max(rowid) FROM undo_log)").fetchone()
        return self.conn.total_changes, data_version, last_undo

    def contents_digest(self, leave_out: frozenset[str] = frozenset()) -> str:
        """A SHA-256 of every row of every table but those left out, read in table order:
        equal digests mean equal contents (the published site keys its unchanged check on it).
        A write by another program between two tables' reads gives a digest of no state, which
        matches no later one."""
        digest = hashlib.sha256()
        names = [r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            if name not in leave_out:
                digest.update(name.encode() + b"\0")
                digest.update(pickle.dumps(self.conn.execute(f'SELECT * FROM "{name}"').fetchall(), protocol=5))
        return digest.hexdigest()


#: Seconds a command waits for another writer to finish (``$KEIZER_BUSY_TIMEOUT`` overrides):
#: long enough for any normal command, e.g. a large import, to commit.
BUSY_TIMEOUT = 30.0


def generation(path: Path) -> tuple[int, ...]:
    """A number that changes with every committed write to the database file: SQLite's
    file change counter (bytes 24–27 of the header, raised by every commit in the
    rollback-journal mode keizer uses), with the file's modification time.  Lets a page
    that many clients poll (the venue screen) be computed once per change."""
    with open(path, "rb") as f:
        header = f.read(28)
    wal = Path(f"{path}-wal")  # another program may have switched the file to WAL mode
    extra = (wal.stat().st_mtime_ns, wal.stat().st_size) if wal.exists() else (0, 0)
    return int.from_bytes(header[24:28], "big"), os.stat(path).st_mtime_ns, *extra


def busy_timeout() -> float:
    """Seconds to wait for another writer: ``$KEIZER_BUSY_TIMEOUT``, else :data:`BUSY_TIMEOUT`."""
    text = os.environ.get("KEIZER_BUSY_TIMEOUT", "").strip()
    if not text:
        return BUSY_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86400:
        raise StoreError("KEIZER_BUSY_TIMEOUT=%(text)s: give the seconds to wait for another writer, e.g. 30",
                         text=repr(text))
    return seconds


#: Seconds between a reader's tries while a writer holds the file (:func:`read_between_commits`).
READ_TRY = 0.001


def read_between_commits(conn: sqlite3.Connection, *statements: str) -> list[tuple[Any, ...]]:
    """The first row each statement reads, each read in a moment no writer holds the file
    (SQLite's shared lock, kept to the end of a transaction begun before), trying every
    millisecond up to the busy timeout; SQLite's error (busy, not a database) if it cannot.

    SQLite's own wait tries after 1, 2, 5, 10 … ms and then every 100 ms; a writer that commits
    again and again (the app on a busy evening, a script adding members one by one) leaves the
    file free only for the moment between two commits, and those tries missed it for seconds
    (a backup waited 1.5 s on average, and longer on a busy machine; tests/test_robustness.py)."""
    deadline = time.monotonic() + busy_timeout()
    rows: list[tuple[Any, ...]] = []
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        for sql in statements:
            while True:
                try:
                    rows.append(conn.execute(sql).fetchone())
                    break
                except sqlite3.OperationalError as e:
                    if _code(e) not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or time.monotonic() > deadline:
                        raise
                time.sleep(READ_TRY)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {round(busy_timeout() * 1000)}")
    return rows


def _require_file(path: Path) -> None:
    """Refuse a missing or empty (0-byte) database file, saying how to fix it."""
    if not path.exists():
        raise StoreError("no database at %(path)s", hint="store_no_database", path=path)
    if path.stat().st_size == 0:
        raise StoreError("%(path)s is empty (0 bytes), not a keizer database: restore it from a backup",
                         hint="store_empty_database", path=path)


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path), timeout=busy_timeout())


def _code(error: sqlite3.Error) -> int | None:
    """The primary SQLite result code of an error (extended codes folded)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def explain(error: BaseException, path: Path) -> str | None:
    """The one line a user can act on for a database error about the file at ``path``, in
    English (see :func:`explained`); None for other errors."""
    refusal = explained(error, path)
    return None if refusal is None else str(refusal)


def explained(error: BaseException, path: Path) -> StoreError | None:
    """The refusal a user can act on for a database error about the file at ``path``:
    another writer holds it (busy) or the disk is full; None for other errors."""
    if not isinstance(error, sqlite3.Error):
        return None
    code = _code(error)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return _busy(path)
    if code == sqlite3.SQLITE_FULL:
        return StoreError("the disk is full: free space on %(where)s and run the command again; nothing was changed",
                          where=_mount_point(path))
    return None


def _busy(path: Path) -> StoreError:
    return StoreError("%(path)s is busy: another keizer command (or program) is writing to it; waited %(seconds)s s; "
                      "try again when it has finished", path=path, seconds=f"{busy_timeout():g}")


def _mount_point(path: Path) -> Path:
    """The file system (mount point) holding ``path``: the place to free space on."""
    where = Path(os.path.abspath(path)).parent
    while not os.path.ismount(where) and where != where.parent:
        where = where.parent
    return where


def _origin() -> Message:
    """The user and computer making a change, e.g. ``anna on club-laptop``."""
    user: str | Word
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name to be had (a container without a passwd entry)
        user = Word("someone")
    return Message("%(user)s on %(computer)s", user=user, computer=socket.gethostname() or Word("an unnamed computer"))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
