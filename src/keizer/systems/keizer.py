"""The Keizer system (:mod:`keizer.scoring`, :mod:`keizer.pairing.keizer`): the club's weekly
competition, paired each evening from who is present, scored by the values of the
opponents beaten.  Its settings are the Keizer settings (:mod:`keizer.settings`), not
system settings."""

from __future__ import annotations

from keizer.i18n import N_
from keizer.systems.base import ALL_MARKS, System


class Keizer(System):
    name = "keizer"
    label = "Keizer competition"
    weekly = True
    from_attendance = True
    marks = ALL_MARKS
    preset_settings = True
    has_initial_order = True
    run_hint = "ev_run_keizer"
    created = N_("competition (preset %(preset)s)")
    options = ("preset", "overrides")


SYSTEM = Keizer()
