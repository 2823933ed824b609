"""Careers kept from one publishing to the next (issue 25): after any sequence of edits the
kept careers are the careers computed from scratch, and after a result only the careers of
its two players are made again."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import examples
from keizer.operations.careers import Choice, careers
from keizer.operations.kept_careers import CareersKept
from test_publish_kept import EDITS, edit
from test_site_incremental import small_club


def kept_as_from_scratch(folder: Path, edits: list[str], choice: Choice = Choice()) -> None:
    store, comp = small_club(folder / "club.db")
    kept = CareersKept()
    assert kept.careers(store, choice) == careers(store, None, choice)
    for k, what in enumerate(edits):
        edit(store, comp, what, k)
        assert kept.careers(store, choice) == careers(store, None, choice), (edits, k)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_kept_careers_are_the_careers_computed_from_scratch(tmp_path_factory, edits):
    kept_as_from_scratch(tmp_path_factory.mktemp("club"), edits)


def test_by_hand_a_correction_a_result_another_program_an_undo(tmp_path):
    kept_as_from_scratch(tmp_path, ["correct", "round", "result", "other program", "undo", "setting", "attendance"])


@pytest.mark.parametrize("choice", [Choice(period="evening"), Choice(period="month"), Choice(start="fixed"),
                                    Choice(chapter="standard"), Choice(competitions=("Interne",))])
def test_kept_with_every_choice(tmp_path, choice):
    kept_as_from_scratch(tmp_path, ["result", "round", "result", "correct", "undo", "other program"], choice)


def test_a_result_makes_only_its_players_careers_again(tmp_path):
    store, comp = small_club(tmp_path / "club.db")
    kept = CareersKept()
    before = kept.careers(store)
    assert kept.made == len(before)
    assert kept.careers(store) == before and kept.made == 0  # nothing changed: nothing made
    again = kept.careers(store)
    assert all(again[m] is before[m] or again[m].rating != before[m].rating for m in before)
    edit(store, comp, "round", 0)  # a round to play
    kept.careers(store)
    edit(store, comp, "result", 1)
    after = kept.careers(store)
    assert kept.made == 2 and after == careers(store)
    assert sum(after[m].games != before[m].games for m in before) == 2
