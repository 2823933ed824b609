"""Backing up the database file: a consistent copy, checked before it takes the target's place."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path

from keizer.store.database import StoreError, _busy, _require_file, busy_timeout, explained
from keizer.store.schema import _check


def backup(path: Path, target: Path, overwrite: bool = False) -> None:
    """Copy the keizer database at ``path`` to ``target`` with SQLite's online backup API:
    a consistent copy even while another process writes (a plain file copy can be torn).
    The copy is written beside ``target``, checked to open as this database, and only then
    renamed into place, so a failed backup leaves no half-written file and an existing
    ``target`` (replaced only with ``overwrite``) untouched."""
    if target.is_dir():
        raise StoreError("%(target)s is a folder: give the name of the backup file", target=target)
    if target.exists() and not overwrite:
        raise StoreError("%(target)s exists already: choose another file name", hint="store_backup_force", target=target)
    if target.exists() and target.resolve() == path.resolve():
        raise StoreError("%(target)s is the database itself: back it up to another file", target=target)
    if not target.parent.is_dir():
        raise StoreError("there is no folder %(folder)s: create it first, or back up to another folder",
                         folder=target.parent)
    _require_file(path)
    conn, version = _check(path)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    part = Path(name)
    deadline = time.monotonic() + busy_timeout()

    def waiting(status: int, remaining: int, total: int) -> None:
        # Python retries a locked source for ever; give up like any command that waits.
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise _busy(path)

    try:
        copy = sqlite3.connect(str(part))
        try:
            conn.backup(copy, progress=waiting)
        finally:
            copy.close()
        checked, copied = _check(part)
        ok = checked.execute("PRAGMA quick_check").fetchone()[0]
        checked.close()
        if ok != "ok" or copied != version:
            raise StoreError("the copy of %(path)s does not check out (%(ok)s); nothing was written to %(target)s",
                             path=path, ok=ok, target=target)
        os.chmod(part, path.stat().st_mode & 0o777)  # mkstemp made it private
        os.replace(part, target)
    except sqlite3.Error as e:  # the source is checked above: this is about writing the copy
        raise explained(e, target) or StoreError("cannot back up %(path)s: %(why)s", path=path, why=str(e)) from None
    finally:
        conn.close()
        part.unlink(missing_ok=True)
