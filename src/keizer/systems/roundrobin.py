"""Round-robin groups (meerkampen): every player meets every other, by the Berger tables
(:mod:`keizer.pairing.roundrobin`); the schedule is drawn once, not paired round by round."""

from __future__ import annotations

from typing import Any, Mapping

from keizer.i18n import N_
from keizer.systems.base import ALL_MARKS
from keizer.systems.points import PointsSystem


class RoundRobin(PointsSystem):
    name = "roundrobin"
    label = "Round-robin"
    marks = ALL_MARKS
    all_play_all = True
    run_hint = "ev_run_roundrobin"
    created = N_("round-robin")
    options = ("double", "swap_last_two", "tiebreaks", "lots", "edition")
    family = "round-robin"  # keizer.tiebreaks.System.ROUND_ROBIN
    default_scores = {"pab": "0"}  # keizer.points.ROUND_ROBIN_SCORING: a free round scores nothing (everyone has one)
    settings = {"tiebreaks": N_("tie-break list"), "edition": N_("tie-break rule edition"),
                "lots": N_("seed of the drawing of lots for ties the list leaves")}

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return super().view(stored) | {"double": stored.get("double", False),
                                       "swap_last_two": stored.get("swap_last_two", False),
                                       "lots": stored.get("lots"), "seed": stored.get("seed")}


SYSTEM = RoundRobin()
