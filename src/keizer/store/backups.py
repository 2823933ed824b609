"""Backing up the database file: a consistent copy, checked before it takes the target's place."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from keizer.store.database import StoreError, _busy, _require_file, busy_timeout, explained, read_between_commits
from keizer.store.schema import _check



def _beside(path: Path, suffix: str) -> Path:
    """A new, empty, hidden file in ``path``'s folder, to be written and then renamed over it."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    return Path(name)


def _patient(path: Path) -> Callable[[int, int, int], None]:
    """A backup's progress callback that gives up on a locked ``path`` after the busy timeout,
    like any command that waits (Python would retry a locked source for ever)."""
    deadline = time.monotonic() + busy_timeout()

    def waiting(status: int, remaining: int, total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise _busy(path)

    return waiting

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
    try:  # the copy is made in one read (one state of the file), between a busy writer's commits
        conn.execute("BEGIN")
        read_between_commits(conn, "SELECT count(*) FROM sqlite_master")
    except sqlite3.Error as e:
        conn.close()
        raise explained(e, path) or StoreError("cannot read %(path)s: %(why)s", path=path, why=str(e)) from None
    part = _beside(target, ".part")
    waiting = _patient(path)
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


#: Meta keys only a terminal sets, which a restore keeps from the file it replaces: the server's
#: folders (where the app publishes, the templates it reads) and the upload and mail accounts the
#: server's own passwords may go to.  A backup sent to the app cannot move them (an officer's account does
#: not give the server's folders or its password away).
KEPT_ON_RESTORE = ("upload_password_target", "mail_password_account", "publish_folder", "club_templates")
#: How a file replaced by a restore is named beside the database: ``club.before-restore-…``.
BEFORE_RESTORE = ".before-restore-"


def kept_before_restore(path: Path) -> list[Path]:
    """The files restores replaced, newest first (each can be restored again: the restore taken back)."""
    return sorted(path.parent.glob(f"{path.stem}{BEFORE_RESTORE}*{path.suffix}"), reverse=True)


def restore(path: Path, source: Path) -> Path:
    """Replace the keizer database at ``path`` by the keizer database ``source`` (a backup),
    keeping the replaced one beside it (returned), so that the restore can be taken back.

    ``source`` is checked first (a keizer database of this program's schema or older, and whole);
    the current file is copied with the online backup API; then the backup is written into the
    database with the same API, in one step, while other connections wait: they see the old
    season or the new one, never a mix.  The server's own settings (:data:`KEPT_ON_RESTORE`)
    stay the replaced file's."""
    _require_file(path)
    conn, _version = _check(source)
    try:
        ok = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as e:
        ok = str(e)
    finally:
        conn.close()
    if ok != "ok":
        raise StoreError("%(path)s is damaged (%(ok)s); choose another backup", path=source.name, ok=ok)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.parent / f"{path.stem}{BEFORE_RESTORE}{stamp}{path.suffix}"
    n = 1
    while kept.exists():
        n += 1
        kept = path.parent / f"{path.stem}{BEFORE_RESTORE}{stamp}-{n}{path.suffix}"
    backup(path, kept)
    current, _ = _check(path)
    try:
        own = {key: _meta(current, key) for key in KEPT_ON_RESTORE}
    finally:
        current.close()
    part = _beside(path, ".restoring")
    waiting = _patient(path)
    try:
        copy = sqlite3.connect(str(part))
        try:
            with closing(sqlite3.connect(str(source))) as given:
                given.backup(copy)
            for key, value in own.items():  # the server's settings, not the backup's
                copy.execute("DELETE FROM meta WHERE key = ?", (key,))
                if value is not None:
                    copy.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
            copy.commit()
            with closing(sqlite3.connect(str(path), timeout=busy_timeout())) as target:
                copy.backup(target, progress=waiting)
        finally:
            copy.close()
    except sqlite3.Error as e:
        raise explained(e, path) or StoreError("cannot restore %(path)s: %(why)s", path=path, why=str(e)) from None
    finally:
        part.unlink(missing_ok=True)
    return kept


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])
