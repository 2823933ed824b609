"""The site from the kept standings (issue 25): publishing takes a Keizer competition's standings
from what the process keeps (``operations.standings.kept``, as the app does) and keys its pages
by their values written down (``keizer.publish.written``: every object written in full, never
as a reference to one written before): a kept standing shares its entries with the standings
before it, and is written exactly as the same standing computed from scratch.  Whatever the edits between two runs, the site published
run after run is byte for byte the site a process that keeps nothing publishes."""

from __future__ import annotations

import pickle
import random
import shutil
import sqlite3
from dataclasses import replace
from itertools import count
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.kept import Kept
from keizer.model import Result
from keizer.operations import competition as ops
from keizer.operations.changes import last_change, undo
from keizer.publish import publish
from keizer.publish.written import written
from keizer.scoring import compute_standings
from keizer.store import Store
from test_scoring import random_season
from test_site_incremental import edit as site_edit, small_club, snapshot

_fresh = count()


def test_a_kept_standing_is_written_as_the_one_computed_from_scratch():
    """The kept standings after a correction share their earlier entries with the standings kept
    before; pickled as Python does by default, they are other bytes than the same standings
    computed anew (the pages were all made again); written from their values, the same."""
    rng = random.Random(11)
    season = random_season(rng, 8, 5)
    kept = Kept()
    kept.standings(season)
    last = season.rounds[4]
    game = last.games[0]
    corrected = replace(season, rounds=season.rounds[:4] + (replace(last, games=(replace(
        game, result=Result.DRAW if game.result != Result.DRAW else Result.WHITE_WIN),) + last.games[1:]),))
    ours, scratch = kept.standings(corrected), compute_standings(corrected)
    assert ours == scratch
    assert written(ours) == written(scratch)
    assert pickle.dumps(ours) != pickle.dumps(scratch)  # why written() writes no references


def test_written_sees_values_only():
    entry = compute_standings(random_season(random.Random(2), 4, 2))[-1].entries[0]
    assert written((entry, entry)) == written((entry, replace(entry)))
    assert written(entry) != written(replace(entry, score=entry.score + 1))
    assert written({"a": [entry]}) != written({"a": [entry, entry]})
    assert written(["1", 1]) != written([1, "1"]) and written([True]) != written([1])


def fresh_site(store: Store, folder: Path) -> dict[str, bytes]:
    """The site published by a process that keeps nothing of this file: a copy under a new
    name (no kept rounds, no kept standings), into an empty folder."""
    n = next(_fresh)
    copy = folder / f"copy-{n}.db"
    shutil.copy(store.path, copy)
    other = Store.open(copy)
    try:
        publish(other, folder / f"fresh-{n}")
    finally:
        other.close()
    return snapshot(folder / f"fresh-{n}")


def edit(store: Store, comp: int, what: str, k: int) -> None:
    """The site's edits (test_site_incremental), an undo, and another program's plain SQL."""
    if what == "undo":
        last = last_change(store)
        if last["command"] != "setup":
            undo(store, last["id"])
    elif what == "other program":
        with sqlite3.connect(store.path) as conn:
            conn.execute("UPDATE games SET result = ? WHERE competition_id = ? AND round = 1 AND board = 2",
                         (("0-1", "1/2-1/2", "1-0")[k % 3], comp))
        conn.close()
    else:
        site_edit(store, comp, what, k)


EDITS = st.lists(st.sampled_from(["result", "result", "round", "correct", "undo", "other program", "attendance",
                                  "setting"]), min_size=1, max_size=4)


def published_as_from_scratch(folder: Path, edits: list[str]) -> None:
    """The small club published after each of ``edits``, into one folder run after run: each
    time the site a process that keeps nothing publishes."""
    store, comp = small_club(folder / "club.db")
    publish(store, folder / "site")
    for k, what in enumerate(edits):
        edit(store, comp, what, k)
        publish(store, folder / "site")
        assert snapshot(folder / "site") == fresh_site(store, folder), (edits, k)


@pytest.mark.slow  # a few edit sequences, each site published twice after every edit
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_published_from_what_is_kept_is_published_from_scratch(tmp_path_factory, edits):
    published_as_from_scratch(tmp_path_factory.mktemp("club"), edits)


def test_a_correction_then_a_result_publish_what_a_fresh_process_publishes(tmp_path):
    """By hand: a correction in a complete round (the kept standings go on from it), a result of
    the round being played, another program's write, an undo."""
    published_as_from_scratch(tmp_path, ["correct", "round", "result", "other program", "undo"])
