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

from conftest import examples
from keizer.kept import Kept
from keizer.model import Result
from keizer.operations.changes import last_change, undo
from keizer.publish import publish, render
from keizer.publish.slugs import slugify
from keizer.publish.written import written
from keizer.scoring import compute_standings
from keizer.settings import Settings
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
    assert sum(rel.startswith("careers/") for rel in snapshot(folder / "site")) == 7  # the careers kept too
    for k, what in enumerate(edits):
        edit(store, comp, what, k)
        publish(store, folder / "site")
        assert snapshot(folder / "site") == fresh_site(store, folder), (edits, k)


def test_after_a_result_only_the_career_pages_that_changed_are_made(tmp_path, monkeypatch):
    """The career pages are keyed by what they show (each kept career's digest taken once): after
    a result in the round being played only the careers whose page changed are made again —
    its two players' — and the site is the one a fresh process publishes."""
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)  # a round to play
    site = tmp_path / "site"
    publish(store, site)
    before = snapshot(site)
    made: list[str] = []
    real = render.render_page
    monkeypatch.setattr(render, "render_page", lambda env, page, context=None: made.append(page.path) or real(env, page, context))
    season = store.load_season(comp)
    game = next(g for g in season.rounds[-1].games if g.result is None and g.black)
    edit(store, comp, "result", 1)
    publish(store, site)
    after = snapshot(site)
    careers_made = {rel for rel in made if rel.startswith("careers/")}
    players = {f"careers/{slugify(p.name)}.html" for p in season.players if p.id in (game.white, game.black)}
    assert careers_made == players and len(players) == 2
    monkeypatch.undo()
    assert after == fresh_site(store, tmp_path)


@pytest.mark.slow  # a few edit sequences, each site published twice after every edit
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_published_from_what_is_kept_is_published_from_scratch(tmp_path_factory, edits):
    published_as_from_scratch(tmp_path_factory.mktemp("club"), edits)


def test_a_correction_then_a_result_publish_what_a_fresh_process_publishes(tmp_path):
    """By hand: a correction in a complete round (the kept standings go on from it), a result of
    the round being played, another program's write, an undo."""
    published_as_from_scratch(tmp_path, ["correct", "round", "result", "other program", "undo"])


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 9), rounds=st.integers(2, 6),
       model=st.sampled_from(["per-round", "frozen", "fixed-point"]),
       preset=st.sampled_from(["classic", "keizerforclubs", "knsb-sixths", "sharly"]),
       extra=st.sampled_from([{}, {"withdrawn_opponent": "1/2"}, {"max_excused": 1, "max_club": 1},
                              {"absence_decay": True}, {"own_value": "start"}]))
def test_the_standings_of_complete_rounds_depend_on_those_rounds_only(seed, n, rounds, model, preset, extra):
    """What the settled pages' keys rely on (``publish.keys.settled_digest`` writes the complete
    rounds, the players, the settings and the initial order, not the standings computed from
    them): the round being played, whatever its results, changes no standing before it."""
    rng = random.Random(seed)
    season = random_season(rng, n, rounds)
    season = replace(season, settings=Settings.from_preset(preset, {"rematch_gap": 0, "recalculation": model,
                                                                    **extra}))
    last = season.rounds[-1]
    if last.games:  # the last round being played: one result at least not in yet
        games = tuple(replace(g, result=None) if k == 0 or rng.random() < 0.5 else g for k, g in enumerate(last.games))
        season = replace(season, rounds=season.rounds[:-1] + (replace(last, games=games),))
    played = season.completed_rounds()
    assert compute_standings(season)[:played + 1] == \
        compute_standings(replace(season, rounds=season.rounds[:played]))[:played + 1]


def test_a_member_who_says_no_then_yes_and_a_new_name_publish_what_a_fresh_process_publishes(tmp_path):
    """``--no-career`` with the careers kept: the page goes, comes back, and a new name (in every
    opponent's record) is published as a fresh process publishes it."""
    store, comp = small_club(tmp_path / "club.db")
    site = tmp_path / "site"
    publish(store, site)
    bram = next(m["id"] for m in store.members() if m["name"] == "Bram Beer")
    for change in ({"career_public": 0}, {"career_public": 1}, {"name": "Bram Baars"}, {"rating": 1234}):
        with store.change("member", "member"):
            store.update_member(bram, **change)
        publish(store, site)
        pages = snapshot(site)
        assert ("careers/bram-beer.html" in pages) == (change == {"career_public": 1}), change
        assert pages == fresh_site(store, tmp_path), change
