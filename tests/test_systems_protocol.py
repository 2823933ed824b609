"""The competition systems' protocol (keizer.systems): what each system says of itself, that
no code outside keizer/systems/ compares a system's name, and that the registry is cheap to
import (the pairing engines and tie-break rules load only when a competition needs them)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import sources
from keizer import systems
from keizer.store.competitions import FROZEN_ORDER, SYSTEMS

SRC = Path(__file__).resolve().parent.parent / "src" / "keizer"
#: The names a competition stores, and the words a comparison of them would use.
NAMES = {"keizer", "swiss", "roundrobin", "round-robin", "knockout", "cup", "team"}


def _name_comparisons(path: Path) -> int:
    """Comparisons of a system (or kind) with a system's name, as tools/metrics.py counts them."""
    found = 0
    for node in sources.nodes(path):
        if isinstance(node, ast.Compare):
            names = [x for x in ast.walk(node) if isinstance(x, ast.Constant) and isinstance(x.value, str)
                     and x.value.lower() in NAMES]
            if names and ("system" in (text := ast.unparse(node).lower()) or "kind" in text):
                found += 1
    return found


def test_no_code_outside_the_systems_compares_a_systems_name():
    counts = {p.relative_to(SRC).as_posix(): _name_comparisons(p) for p in SRC.rglob("*.py")
              if "systems" not in p.relative_to(SRC).parts}
    found = {m: n for m, n in counts.items() if n}
    assert found == {}, "ask systems.of(name) instead"


def test_every_stored_system_is_registered_in_the_order_pages_list_them():
    assert sorted(s.name for s in systems.ALL) == sorted(SYSTEMS)
    assert [s.name for s in systems.ALL] == ["keizer", "swiss", "roundrobin", "knockout", "team"]
    assert systems.find("keizer") is systems.of("keizer") and systems.find("chess960") is None


def test_the_store_freezes_the_initial_order_of_the_systems_that_have_one():
    """The store is below the systems and keeps its own list; the two stay equal."""
    assert {s.name for s in systems.ALL if s.has_initial_order} == set(FROZEN_ORDER)


@pytest.mark.parametrize("system", systems.ALL, ids=lambda s: s.name)
def test_what_a_system_says_of_itself_fits_together(system):
    assert system.standing_kind in ("ladder", "points", "bracket", "matches")
    assert system.points == (system.standing_kind == "points")
    assert system.player_table == system.weekly == (system.standing_kind in ("ladder", "points"))
    assert system.from_attendance <= system.weekly and system.all_play_all <= system.weekly
    assert not (system.from_attendance and system.all_play_all)  # paired round by round, or drawn at once
    assert system.score_groups <= system.from_attendance and system.unmarked_present <= system.from_attendance
    assert system.has_initial_order <= (system.standing_kind == "ladder")
    assert system.run_hint.startswith("ev_run_") and system.created and system.options
    assert set(system.options_for("swiss")) <= set(system.options) and "edition" not in system.options[:-1]
    assert systems.SYSTEM_WORDS[system.name]


def test_the_attributes_as_each_system_has_them():
    table = {s.name: (s.standing_kind, s.player_table, s.preset_settings, s.has_initial_order, s.all_play_all,
                      s.score_groups, s.numbered, s.fills_attendance) for s in systems.ALL}
    assert table == {
        "keizer": ("ladder", True, True, True, False, False, False, True),
        "swiss": ("points", True, False, False, False, True, True, False),
        "roundrobin": ("points", True, False, False, True, False, False, False),
        "knockout": ("bracket", False, False, False, False, False, False, False),
        "team": ("matches", False, False, False, False, False, False, False),
    }


def test_a_team_events_creation_options_follow_its_schedule():
    team = systems.of("team")
    assert team.options_for("roundrobin") == ("boards", "schedule", "double", "swap_last_two", "tiebreaks", "edition")
    assert "rounds" in team.options_for("swiss") and "initial_colour" in team.options_for("swiss")
    assert team.options_for("knockout")[-2:] == ("stages", "edition")
    assert systems.of("swiss").options_for("anything") == systems.of("swiss").options


def test_what_was_created_is_said_with_its_preset_or_rounds():
    said = {s.name: s.created % {"preset": "classic", "n": 7} for s in systems.ALL}
    assert said == {"keizer": "competition (preset classic)", "swiss": "Swiss tournament (7 rounds)",
                    "roundrobin": "round-robin", "knockout": "knock-out cup", "team": "team event"}


def test_the_points_rules_are_as_before():
    from keizer.points import ROUND_ROBIN_SCORING
    from keizer.tiebreaks import Scoring
    from keizer.tiebreaks import System as Pairings

    rr, swiss = systems.of("roundrobin").rules({}), systems.of("swiss").rules({})
    assert (rr.system, rr.scoring) == (Pairings.ROUND_ROBIN, ROUND_ROBIN_SCORING)
    assert (swiss.system, swiss.scoring) == (Pairings.SWISS, Scoring())
    assert systems.of("swiss").rules({"scoring": {"pab": "1/2"}}).scoring.pab == Scoring(pab=1).pab / 2


def test_the_team_scorings_are_made_when_asked_for():
    from dataclasses import replace
    from fractions import Fraction

    from keizer.systems import team
    from keizer.tiebreaks import Scoring

    assert team.MATCH_SCORING == replace(Scoring.matches(), pab=Fraction(0))
    assert team.SWISS_MATCH_SCORING == Scoring.matches()
    with pytest.raises(AttributeError):
        team.NO_SUCH_THING  # noqa: B018


def test_the_registry_loads_no_engine():
    """`keizer pair` in a Keizer competition needs neither the tie-break rules nor the cup and team engines."""
    heavy = ("keizer.tiebreaks", "keizer.points", "keizer.pairing.knockout", "keizer.pairing.teams",
             "keizer.pairing.swiss")
    code = f"import sys, keizer.systems; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
