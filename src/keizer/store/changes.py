"""The change log: every write is one transaction, logged as one change; the schema's
triggers record the SQL that reverts each row change, so :meth:`Changes.undo` (``keizer
undo``) reverts the last change exactly."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Self

from keizer.refusals import Message, Refusal, Word
from keizer.store.database import Database, StoreError, explained


#: The command of the line an undo leaves in the log ("undone: …"): never undone itself.
UNDONE = "undo"


class Changes(Database):
    """Transactions, the change log and undo."""

    @contextmanager
    def change(self, command: str, summary: str | Message) -> Iterator[Self]:
        """One transaction that is logged as one undoable change.  The summary (and the
        origin) may be a :class:`Message`: the log keeps its English text, which the CLI
        prints, and the message itself (column ``said``), which the app words.

        On any exception nothing is written (the file stays byte-identical).
        """
        self._summary = summary
        self._notes: list[Message] = []
        self.subject = None
        with self._write_transaction():
            self.conn.execute("DELETE FROM undo_log WHERE change_id IS NULL")
            yield self
            if self.conn.execute("SELECT 1 FROM undo_log WHERE change_id IS NULL LIMIT 1").fetchone() is None:
                return  # nothing was written: no entry for 'keizer undo' to revert in vain
            logged = self._log_line(command, self._logged_summary())
            self.conn.execute("UPDATE undo_log SET change_id = ? WHERE change_id IS NULL", (logged,))

    def _log_line(self, command: str, summary: str | Message) -> int | None:
        """Write a line of the change log (with who made it and when); its id."""
        origin = self.origin()
        said = {k: _encoded(v) for k, v in (("summary", summary), ("origin", origin)) if isinstance(v, Message)}
        return self.conn.execute(
            "INSERT INTO changes (at, command, summary, origin, said) VALUES (?, ?, ?, ?, ?)",
            (self.clock(), command, _text(summary), _text(origin), json.dumps(said, ensure_ascii=False) if said else None),
        ).lastrowid

    def _logged_summary(self) -> str | Message:
        """The summary as the log shows it: with the competition it is about, unless it says so,
        and the notes the change added."""
        summary = self._subject_summary()
        for note in getattr(self, "_notes", ()):
            summary = Message("%(change)s; %(note)s", change=summary, note=note)
        return summary

    def _subject_summary(self) -> str | Message:
        if self.subject and self.subject not in str(self._summary):
            if isinstance(self._summary, Message):
                return Message("%(competition)s: %(change)s", competition=self.subject, change=self._summary)
            return f"{self.subject}: {self._summary}"
        return self._summary

    def describe(self, summary: str | Message) -> None:
        """Set the summary of the change being made (shown by 'keizer log' and 'undo')."""
        self._summary = summary

    def note(self, note: Message) -> None:
        """Add to the change's summary what else it did (kept when the summary is described anew):
        the log says "settings: bye_points=1/2; left the FIDE rules: …"."""
        self._notes.append(note)

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
            refusal = explained(e, self.path) if self.path else None
            if refusal is not None:
                raise refusal from None
            raise

    def last_change(self, said: bool = False) -> dict[str, Any] | None:
        """The change ``undo`` would revert: id, at, command, summary, origin (and ``said``);
        the lines earlier undos left are passed over."""
        rows = self._changes("WHERE command != ?", (UNDONE,), 1, said)
        return rows[0] if rows else None

    def undo(self, change_id: int | None = None, keep_line: bool = False) -> str:
        """Revert the last change; returns its summary.  With ``change_id`` (the change
        the user saw and confirmed), refuse when another command has written since.
        ``keep_line``: the log keeps a line "undone: …" (who undid what, and when), itself
        never undone: the next undo reverts the change before."""
        with self._write_transaction():
            row = self.conn.execute("SELECT id, summary, said FROM changes WHERE command != ? ORDER BY id DESC LIMIT 1",
                                    (UNDONE,)).fetchone()
            if row is None:
                raise StoreError("nothing to undo: the change log is empty")
            if change_id is not None and row[0] != change_id:
                raise StoreError("another command wrote to the database meanwhile, so nothing was undone",
                                 hint="undo_again")
            change_id, summary, said = row
            statements = self.conn.execute(
                "SELECT sql FROM undo_log WHERE change_id = ? ORDER BY seq DESC", (change_id,)
            ).fetchall()
            self.conn.execute("PRAGMA defer_foreign_keys = ON")
            for (sql,) in statements:
                self.conn.execute(sql)
            self.conn.execute("DELETE FROM undo_log WHERE change_id IS NULL OR change_id = ?", (change_id,))
            self.conn.execute("DELETE FROM changes WHERE id = ?", (change_id,))
            if keep_line:
                self._log_line(UNDONE, Message("undone: %(what)s", what=_decoded_said(said).get("summary", summary)))
        return summary

    def changes(self, limit: int = 20, said: bool = False) -> list[dict[str, Any]]:
        """The newest changes: id, at, command, summary, origin as stored (what 'keizer log'
        prints); with ``said`` also the summary and origin as messages (``said``: "summary"
        and "origin" → Message, each missing where the change was logged as text only)."""
        return self._changes("", (), limit, said)

    def _changes(self, where: str, values: tuple[Any, ...], limit: int, said: bool) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            f"SELECT id, at, command, summary, origin, said FROM changes {where} ORDER BY id DESC LIMIT ?",
            (*values, limit)).fetchall()
        return [dict(id=r[0], at=r[1], command=r[2], summary=r[3], origin=r[4],
                     **({"said": _decoded_said(r[5])} if said else {})) for r in rows]


def _text(value: str | Message | None) -> str | None:
    """The English text of a summary or origin; bytes that are not UTF-8 (a file name given
    on the command line) become '?'."""
    return None if value is None else str(value).encode("utf-8", "replace").decode("utf-8")


def _encoded(message: Message | Refusal) -> dict[str, Any]:
    """A message as JSON: its id and its values (a word, a quoted message, else the raw value)."""
    text = message.text if isinstance(message, Message) else message.message
    return {"id": text, "values": {k: _encoded_value(v) for k, v in message.values.items()}}


def _encoded_value(value: Any) -> Any:
    if isinstance(value, Word):
        return {"word": value.text}
    if isinstance(value, (Message, Refusal)):
        return _encoded(value)
    if isinstance(value, str):
        return _text(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def _decoded(data: Mapping[str, Any]) -> Message:
    return Message.read_back(str(data["id"]), {k: _decoded_value(v) for k, v in data.get("values", {}).items()})


def _decoded_value(value: Any) -> Any:
    if isinstance(value, dict):
        return Word(text=str(value["word"])) if "word" in value else _decoded(value)  # a word written as a literal
    return value


def _decoded_said(said: str | None) -> dict[str, Message]:
    """The stored messages of a change; none for an entry logged as text (an older file's,
    or one whose JSON cannot be read: its text is shown instead)."""
    if not said:
        return {}
    try:
        data = json.loads(said)
        return {k: _decoded(v) for k, v in data.items() if k in ("summary", "origin")}
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}
