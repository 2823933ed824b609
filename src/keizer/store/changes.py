"""The change log: every write is one transaction, logged as one change; the schema's
triggers record the SQL that reverts each row change, so :meth:`Changes.undo` (``keizer
undo``) reverts the last change exactly."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Self

from keizer.store.database import Database, StoreError, explain


class Changes(Database):
    """Transactions, the change log and undo."""

    @contextmanager
    def change(self, command: str, summary: str) -> Iterator[Self]:
        """One transaction that is logged as one undoable change.

        On any exception nothing is written (the file stays byte-identical).
        """
        self._summary = summary
        self.subject = None
        with self._write_transaction():
            self.conn.execute("DELETE FROM undo_log WHERE change_id IS NULL")
            yield self
            if self.conn.execute("SELECT 1 FROM undo_log WHERE change_id IS NULL LIMIT 1").fetchone() is None:
                return  # nothing was written: no entry for 'keizer undo' to revert in vain
            cur = self.conn.execute(
                "INSERT INTO changes (at, command, summary, origin) VALUES (?, ?, ?, ?)",
                (self.clock(), command, self._logged_summary(), self.origin()),
            )
            self.conn.execute(
                "UPDATE undo_log SET change_id = ? WHERE change_id IS NULL", (cur.lastrowid,)
            )

    def _logged_summary(self) -> str:
        """The summary as the log shows it: with the competition it is about, unless it says so."""
        if self.subject and self.subject not in self._summary:
            return f"{self.subject}: {self._summary}"
        return self._summary

    def describe(self, summary: str) -> None:
        """Set the summary of the change being made (shown by 'keizer log' and 'undo')."""
        self._summary = summary

    @contextmanager
    def _write_transaction(self) -> Iterator[None]:
        """A write transaction that takes the write lock at once (BEGIN IMMEDIATE): a
        command waits for another writer at its start, up to the busy timeout, rather than
        failing halfway.  Inside an open schema upgrade it is a savepoint of that one.
        A failure rolls everything back before it is raised, so no hot journal is left;
        a busy database or a full disk becomes a :class:`StoreError` saying so."""
        if self.conn.in_transaction:
            with self.db.atomic():
                yield
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            yield
            self.conn.execute("COMMIT")
        except BaseException as e:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            message = explain(e, self.path) if self.path else None
            if message:
                raise StoreError(message) from None
            raise

    def last_change(self) -> dict[str, Any] | None:
        """The change ``undo`` would revert: id, at, command, summary."""
        rows = self.changes(1)
        return rows[0] if rows else None

    def undo(self, change_id: int | None = None) -> str:
        """Revert the last change; returns its summary.  With ``change_id`` (the change
        the user saw and confirmed), refuse when another command has written since."""
        with self._write_transaction():
            row = self.conn.execute("SELECT id, summary FROM changes ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError("nothing to undo: the change log is empty")
            if change_id is not None and row[0] != change_id:
                raise StoreError("another command wrote to the database meanwhile, so nothing was undone; "
                                 "run 'keizer undo' again to see the change that is last now")
            change_id, summary = row
            statements = self.conn.execute(
                "SELECT sql FROM undo_log WHERE change_id = ? ORDER BY seq DESC", (change_id,)
            ).fetchall()
            self.conn.execute("PRAGMA defer_foreign_keys = ON")
            for (sql,) in statements:
                self.conn.execute(sql)
            self.conn.execute("DELETE FROM undo_log WHERE change_id IS NULL OR change_id = ?", (change_id,))
            self.conn.execute("DELETE FROM changes WHERE id = ?", (change_id,))
        return summary

    def changes(self, limit: int = 20) -> list[dict[str, Any]]:
        return [
            dict(id=r[0], at=r[1], command=r[2], summary=r[3], origin=r[4])
            for r in self.conn.execute(
                "SELECT id, at, command, summary, origin FROM changes ORDER BY id DESC LIMIT ?", (limit,)
            )
        ]
