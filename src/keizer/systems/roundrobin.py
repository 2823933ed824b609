"""Round-robin groups (meerkampen): every player meets every other, by the Berger tables
(:mod:`keizer.pairing.roundrobin`); the schedule is drawn once, not paired round by round."""

from __future__ import annotations

from typing import Any, Mapping

from keizer.i18n import N_
from keizer.systems.base import ALL_MARKS
from keizer.systems.fide import new_mode
from keizer.systems.points import POINTS_DEFAULTS, PointsSystem
from keizer.refusals import Message


class RoundRobin(PointsSystem):
    name = "roundrobin"
    label = "Round-robin"
    marks = ALL_MARKS
    all_play_all = True
    run_hint = "ev_run_roundrobin"
    created = N_("round-robin")
    options = ("double", "swap_last_two", "tiebreaks", "lots", "fide_mode", "edition")
    family = "round-robin"  # keizer.tiebreaks.System.ROUND_ROBIN
    default_scores = {"pab": "0"}  # keizer.points.ROUND_ROBIN_SCORING: a free round scores nothing (everyone has one)
    settings = {"tiebreaks": N_("tie-break list"), "edition": N_("tie-break rule edition"),
                "lots": N_("seed of the drawing of lots for ties the list leaves")}

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """Single or double (the last two rounds swapped), the tie-breaks and the lots' seed."""
        settings = {**POINTS_DEFAULTS, "double": given.get("double", False),
                    "swap_last_two": given.get("swap_last_two", False), "edition": given.get("edition", "2026"),
                    "tiebreaks": given.get("listed"), "lots": given.get("lots")}
        settings = new_mode(self.name, settings, given.get("fide_mode"))
        return settings, self.warnings(settings)

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return super().view(stored) | {"double": stored.get("double", False),
                                       "swap_last_two": stored.get("swap_last_two", False),
                                       "lots": stored.get("lots"), "seed": stored.get("seed")}


SYSTEM = RoundRobin()
