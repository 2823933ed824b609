"""Round-robin groups (meerkampen): every player meets every other, by the Berger tables
(:mod:`keizer.pairing.roundrobin`); the schedule is drawn once, not paired round by round."""

from __future__ import annotations

from typing import Any, Mapping

from keizer.i18n import N_
from keizer.points import ROUND_ROBIN_SCORING
from keizer.systems.base import ALL_MARKS
from keizer.systems.points import PointsSystem
from keizer.tiebreaks import System as Pairings


class RoundRobin(PointsSystem):
    name = "roundrobin"
    label = "Round-robin"
    marks = ALL_MARKS
    pairings = Pairings.ROUND_ROBIN
    scoring = ROUND_ROBIN_SCORING  # a free round scores nothing: everyone has one with an odd number
    settings = {"tiebreaks": N_("tie-break list"), "edition": N_("tie-break rule edition"),
                "lots": N_("seed of the drawing of lots for ties the list leaves")}

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return super().view(stored) | {"double": stored.get("double", False),
                                       "swap_last_two": stored.get("swap_last_two", False),
                                       "lots": stored.get("lots"), "seed": stored.get("seed")}


SYSTEM = RoundRobin()
