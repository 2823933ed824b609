"""FIDE mode (:mod:`keizer.systems.fide`) for the operations: refuse a change that leaves the
FIDE rules unless it is confirmed, record and log it when it is, and say the mode.

Called inside the caller's transaction, after the change is checked and before it is
written, so that a refusal leaves the file as it was."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from keizer import systems
from keizer.refusals import LeavesFideRules, Message
from keizer.store import Store
from keizer.systems import fide


def guard(store: Store, comp_id: int, found: Sequence[fide.Departure], round_no: int, leave: bool,
          settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The competition's system settings (``settings``: the changed ones about to be written)
    with the departures ``found`` recorded from round ``round_no`` on.

    In FIDE mode a departure is refused unless ``leave`` (the user confirmed it); once
    confirmed, the competition is out of FIDE mode for good and the change's log entry says
    so.  A competition without a mode records nothing."""
    system = store.system(comp_id)
    stored = dict(settings if settings is not None else store.system_settings(comp_id))
    if not found or not fide.has_mode(system, stored):
        return stored
    what = fide.joined([d.said for d in found])
    if fide.in_fide_mode(system, stored):
        if not leave:
            raise LeavesFideRules("the competition is in FIDE mode, and this leaves the FIDE rules: %(what)s",
                                  hint="leave_fide", what=what)
        store.note(Message("left the FIDE rules: %(what)s", what=what))
    else:
        store.note(Message("not the FIDE rules: %(what)s", what=what))
    return fide.left(stored, round_no, found)


def record(store: Store, comp_id: int, found: Sequence[fide.Departure], round_no: int, leave: bool) -> None:
    """:func:`guard`, and write the settings with the departures recorded."""
    before = store.system_settings(comp_id)
    after = guard(store, comp_id, found, round_no, leave)
    if after != before:
        store.set_system_settings(comp_id, after)


def mode_line(store: Store, comp_id: int) -> Message | None:
    """What the pairing and standing pages say of the mode (None: the competition has none)."""
    if not fide.has_mode(store.system(comp_id), store.system_settings(comp_id)):
        return None
    return fide.mode_line(store.system_settings(comp_id))


def trf_comments(store: Store, comp_id: int) -> tuple[str, ...]:
    """The ``###`` lines of the competition's TRF file that say its mode."""
    if not systems.of(store.system(comp_id)).points:
        return ()
    return fide.trf_comments(store.system_settings(comp_id))
