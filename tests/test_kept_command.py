"""What one ``keizer publish`` leaves the next in keizer's cache folder besides the kept
standings and careers (issue 25, ``keizer.operations.kept_file``): the rounds read (by their
stamps, ``keizer.store.rounds_read``) and the career pages' digests.  The next command, a new
process, reads only the rounds whose stamp changed and takes the digest of every career whose
parts are those it was taken of; after any edits, each published by a command of its own, the
site is the one a process that keeps nothing publishes."""

from __future__ import annotations

import os
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import examples
from keizer.formats.text import xml_escape, xml_quoteattr
from keizer.kept import Kept
from keizer.model import Result, Round
from keizer.scoring import all_round_scores, round_scores
from keizer.publish import career_pages, keys, publish
from keizer.store import Store
from keizer.store.competitions import Competitions
from test_kept_file import a_new_process
from test_publish_kept import EDITS, edit, fresh_site
from test_scoring import random_season
from test_site_incremental import small_club, snapshot


class _Cache:
    """``$KEIZER_CACHE`` set to a folder of the test's own while it runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self) -> None:
        self.before = os.environ.get("KEIZER_CACHE")
        os.environ["KEIZER_CACHE"] = str(self.folder)

    def __exit__(self, *_: object) -> None:
        if self.before is None:
            os.environ.pop("KEIZER_CACHE", None)
        else:
            os.environ["KEIZER_CACHE"] = self.before


def a_command(db: Path, site: Path) -> Store:
    """``keizer publish`` in a process of its own: nothing kept but what the cache folder holds."""
    a_new_process()
    store = Store.open(db)
    publish(store, site, remember=True)
    return store


@pytest.fixture
def read_rounds(monkeypatch) -> Iterator[list[int]]:
    """The numbers of the rounds read from their rows (not taken as kept)."""
    numbers: list[int] = []
    real = Competitions._read_rounds

    def counted(self, comp_id, wanted, *args):  # type: ignore[no-untyped-def]
        numbers.extend(wanted)
        return real(self, comp_id, wanted, *args)

    monkeypatch.setattr(Competitions, "_read_rounds", counted)
    yield numbers


def test_the_next_command_reads_only_the_round_that_changed(tmp_path, read_rounds):
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)  # round 3 being played
    store.close()
    with _Cache(tmp_path / "cache"):
        a_command(tmp_path / "club.db", tmp_path / "site").close()
        assert sorted(set(read_rounds)) == [1, 2, 3]
        store = Store.open(tmp_path / "club.db")
        edit(store, comp, "result", 1)
        store.close()
        read_rounds.clear()
        store = a_command(tmp_path / "club.db", tmp_path / "site")
    assert read_rounds == [3]
    assert snapshot(tmp_path / "site") == fresh_site(store, tmp_path)
    store.close()
    a_new_process()


def _written_after_one_result(tmp_path, monkeypatch, module: object, name: str) -> tuple[list[object], Store]:
    """A round begun and published by one command, its first result entered by another: what the
    next command hands to ``module.name`` (a digest's writer), and that command's store."""
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)
    store.close()
    with _Cache(tmp_path / "cache"):
        a_command(tmp_path / "club.db", tmp_path / "site").close()
        store = Store.open(tmp_path / "club.db")
        edit(store, comp, "result", 1)
        store.close()
        values: list[object] = []
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda value: values.append(value) or real(value))
        store = a_command(tmp_path / "club.db", tmp_path / "site")
        monkeypatch.undo()
    return values, store


def test_after_one_result_the_next_command_takes_every_other_careers_digest(tmp_path, monkeypatch):
    """The round being played had no result when the file was written: its first result adds a
    rating period, so every member's career gets a new point (a new career object); the career
    pages' digests are still those of the same parts, and only the two players' are taken again."""
    taken, store = _written_after_one_result(tmp_path, monkeypatch, career_pages, "written")
    # what every career page shows of the site once, the two players' careers and club ratings
    assert len(taken) == 1 + 2 + 2
    assert snapshot(tmp_path / "site") == fresh_site(store, tmp_path)
    store.close()
    a_new_process()


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_each_edit_published_by_a_command_of_its_own_is_published_from_scratch(tmp_path_factory, edits):
    """Random edits (results, new rounds, corrections, an undo, another program's SQL, attendance,
    a setting), each followed by ``keizer publish`` in a new process that takes the file."""
    folder = tmp_path_factory.mktemp("club")
    store, comp = small_club(folder / "club.db")
    store.close()
    with _Cache(folder / "cache"):
        store = a_command(folder / "club.db", folder / "site")
        for k, what in enumerate(edits):
            edit(store, comp, what, k)
            store.close()
            store = a_command(folder / "club.db", folder / "site")
            assert snapshot(folder / "site") == fresh_site(store, folder), (edits, k)
    store.close()
    a_new_process()


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 9), rounds=st.integers(1, 6),
       model=st.sampled_from(["per-round", "fixed-point"]), edits=st.integers(0, 3))
def test_the_histories_from_the_kept_items_are_those_worked_out_from_the_season(seed, n, rounds, model, edits):
    """The site's player pages take the rounds' items behind a kept standing
    (``Kept.items_of``); every player's history from them is the one worked out from the season,
    after corrections too (the chain redone from the changed round)."""
    rng = random.Random(seed)
    season = random_season(rng, n, rounds)
    season = replace(season, settings=replace(season.settings, recalculation=model))
    kept = Kept()
    for k in range(edits + 1):
        if k:  # a correction in a random round
            r = rng.randrange(len(season.rounds))
            rnd = season.rounds[r]
            if rnd.games:
                game = rnd.games[0]
                fixed = replace(game, result=Result.DRAW if game.result != Result.DRAW else Result.WHITE_WIN)
                season = replace(season, rounds=season.rounds[:r] + (replace(rnd, games=(fixed,) + rnd.games[1:]),)
                                 + season.rounds[r + 1:])
        standings = kept.standings(season)
        for standing in standings:
            items = kept.items_of(season, standing)
            assert items is not None
            for p in season.players:
                if p.id not in standing.off_ladder:
                    from_items = all_round_scores(season, standing, (p.id,), items)[p.id]
                    assert from_items == round_scores(season, standing, p.id)
    assert Kept().items_of(season, standings[-1]) is None  # nothing kept: nothing computed


@settings(max_examples=examples(200), deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab &<>\"'\n\r\t;é")))
def test_xml_text_and_attributes_are_written_as_the_standard_library_writes_them(text):
    """The feeds and logos escape with keizer.formats.text, not xml.sax.saxutils (whose imports
    every command paid for): the same characters."""
    from xml.sax.saxutils import escape, quoteattr

    assert xml_escape(text) == escape(text) and xml_quoteattr(text) == quoteattr(text)


@pytest.mark.parametrize("sql", [
    "UPDATE games SET result = '0-1' WHERE competition_id = ? AND round = 1 AND board = 1",
    "DELETE FROM games WHERE competition_id = ? AND round = 2 AND board = 3",
    "UPDATE attendance SET status = 'excused' WHERE competition_id = ? AND round = 2 AND status = 'bye'",
    "DELETE FROM attendance WHERE competition_id = ? AND round = 1 AND status = 'bye'"])
def test_another_programs_write_to_games_or_attendance_is_published(tmp_path, sql):
    """The publishing's inputs key reads the rounds' stamps for the games and attendance
    (``keys.STAMPED``): a write by another program, in plain SQL, stamps the round too, and the
    site is published again (not left as it was), as a fresh process publishes it."""
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)
    publish(store, tmp_path / "site")
    assert publish(store, tmp_path / "site").written == ()
    with sqlite3.connect(store.path) as conn:
        assert conn.execute(sql, (comp,)).rowcount == 1
    conn.close()
    published = publish(store, tmp_path / "site")
    assert published.written and snapshot(tmp_path / "site") == fresh_site(store, tmp_path)
    store.close()


def _holds_a_round(value: object) -> bool:
    if isinstance(value, Round):
        return True
    return isinstance(value, (tuple, list)) and any(_holds_a_round(v) for v in value)


def test_after_one_result_the_next_command_writes_no_complete_round_down_again(tmp_path, monkeypatch):
    """The settled pages' digest writes each complete round once (``keys._round_digest``, by the
    round object): the next command takes the digests with the rounds from the file."""
    values, store = _written_after_one_result(tmp_path, monkeypatch, keys, "_written")
    assert values and not any(_holds_a_round(v) for v in values)
    assert snapshot(tmp_path / "site") == fresh_site(store, tmp_path)
    store.close()
    a_new_process()


@pytest.mark.parametrize("change", [{"fide_k": 40}, {"birth_year": 2012}])
def test_a_members_fide_k_or_year_of_birth_is_published(tmp_path, change):
    """A player's page shows the FIDE rating change of each of his games, with the K that the
    member's record gives (the K of FIDE's list, the year of birth): its inputs hold that record,
    so a change to it makes the page again (it was left as it was)."""
    store, comp = small_club(tmp_path / "club.db")
    with store.change("fide", "fide"):
        for m in store.members():
            store.update_member(m["id"], fide_rating=2000 + 10 * m["id"])
        store.conn.execute("UPDATE rounds SET date = '2026-0' || (number + 1) || '-15'")
    publish(store, tmp_path / "site")
    with store.change("member", "member"):
        store.update_member(store.members()[0]["id"], **change)
    assert publish(store, tmp_path / "site").written
    assert snapshot(tmp_path / "site") == fresh_site(store, tmp_path)
    store.close()
