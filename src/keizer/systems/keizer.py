"""The Keizer system (:mod:`keizer.scoring`, :mod:`keizer.pairing.keizer`): the club's weekly
competition, paired each evening from who is present, scored by the values of the
opponents beaten.  Its settings are the Keizer settings (:mod:`keizer.settings`), not
system settings."""

from __future__ import annotations

from typing import Any, Mapping

from keizer.i18n import N_
from keizer.refusals import Field, Message
from keizer.store import StoreError
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

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """None: its settings are the preset's; the other systems' options are refused."""
        if given.get("double") or given.get("swap_last_two") or given.get("tiebreaks"):
            raise StoreError("%(fields)s are not Keizer settings",
                             fields=Field("roundrobin_options"))
        return {}, []


SYSTEM = Keizer()
