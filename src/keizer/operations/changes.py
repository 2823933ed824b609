"""The change log and undo: what the last change was, and reverting exactly that one.

``keizer undo`` and the web app's undo page say the same: "'pair' of 2026-03-10 20:15:02
by web: anna (officer) from 10.0.0.5: pair round 31".
"""

from __future__ import annotations

from typing import Any, Mapping

from keizer.store import Store, StoreError


def describe(change: Mapping[str, Any]) -> str:
    """A change as one line: command, when, by whom, and its summary."""
    by = f" by {change['origin']}" if change["origin"] else ""
    return f"'{change['command']}' of {change['at'].replace('T', ' ')}{by}: {change['summary']}"


def last_change(store: Store) -> dict[str, Any]:
    """The change an undo would revert; refused when there is none."""
    last = store.last_change()
    if last is None:
        raise StoreError("nothing to undo: the change log is empty")
    return last


def undo(store: Store, change_id: int) -> str:
    """Revert change ``change_id`` if it is still the last one (else nothing is undone);
    returns its description."""
    last = last_change(store)
    what = describe(last)
    store.undo(change_id)
    return what
