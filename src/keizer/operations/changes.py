"""The change log and undo: what the last change was, and reverting exactly that one.

``keizer undo`` and the web app's undo page say the same: "'pair' of 2026-03-10 20:15:02
by web: anna (officer) from 10.0.0.5: pair round 31".  A change logged with messages
(:meth:`Store.change` keeps them in ``said``) is worded by the view in the club's language;
an older entry, logged as text only, is shown as it was stored.
"""

from __future__ import annotations

from typing import Any, Mapping

from keizer.refusals import Message
from keizer.store import Store, StoreError


def describe(change: Mapping[str, Any]) -> str:
    """A change as one line: command, when, by whom, and its summary."""
    by = f" by {change['origin']}" if change["origin"] else ""
    return f"'{change['command']}' of {change['at'].replace('T', ' ')}{by}: {change['summary']}"


def summary(change: Mapping[str, Any]) -> Message | str:
    """What a change did: its message, else (an entry logged as text) its stored text."""
    said: Mapping[str, Message] = change.get("said") or {}
    return said.get("summary") or change["summary"]


def origin(change: Mapping[str, Any]) -> Message | str | None:
    """Who made a change, where: its message, else its stored text (None: not recorded)."""
    said: Mapping[str, Message] = change.get("said") or {}
    return said.get("origin") or change["origin"]


def last_change(store: Store) -> dict[str, Any]:
    """The change an undo would revert (with its messages); refused when there is none."""
    last = store.last_change(said=True)
    if last is None:
        raise StoreError("nothing to undo: the change log is empty")
    return last


def undo(store: Store, change_id: int) -> dict[str, Any]:
    """Revert change ``change_id`` if it is still the last one (else nothing is undone);
    returns that change, as :func:`last_change` gave it.  The log keeps a line "undone: …"."""
    last = last_change(store)
    store.undo(change_id, keep_line=True)
    return last
