"""A season is read again only where its rounds changed (issue 25, ``keizer.store.rounds_read``):
each write to a round's games or attendance gives the round a new stamp in the same
transaction (schema 13's triggers), and a new connection reads the games and attendance of
the rounds whose stamp it has not seen only.  Whatever writes — the operations, an undo, a
write rolled back, another program with plain SQL — the season read so equals the one read
from scratch, and so do the kept standings made from it."""

from __future__ import annotations

import random
import shutil
import sqlite3
from dataclasses import replace
from itertools import count
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import examples
from keizer.model import Season
from keizer.operations import standings as standings_ops
from keizer.operations.changes import last_change, undo
from keizer.operations.importing import import_season
from keizer.operations.results import enter_results
from keizer.operations.setup import withdraw_player
from keizer.scoring import compute_standings
from keizer.settings import Settings
from keizer.store import Store, StoreError
from test_scoring import random_season

RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]
_scratch = count()


def club(folder: Path, rng: random.Random, n: int, rounds: int, model: str) -> Path:
    season = random_season(rng, n, rounds)
    season = replace(season, settings=Settings.from_preset("classic", {"rematch_gap": 0, "recalculation": model}))
    db = folder / "club.db"
    store = Store.open(db, create=True)
    try:
        with store.change("import", "import"):
            import_season(store, season, name="Interne")
    finally:
        store.close()
    return db


def read(db: Path) -> Season:
    """The season as a new request reads it: a connection of its own, what the process kept."""
    store = Store.open(db)
    try:
        return store.load_season(1)
    finally:
        store.close()


def from_scratch(db: Path) -> Season:
    """The season read from nothing kept: a copy under a name this process never read."""
    copy = db.with_name(f"scratch-{next(_scratch)}.db")
    shutil.copy(db, copy)
    try:
        return read(copy)
    finally:
        copy.unlink()


def edit(rng: random.Random, db: Path) -> None:
    """One write, as the officer's app, the command line or another program makes it."""
    what = rng.choice(["result", "result", "result", "attendance", "withdraw", "undo", "rolled back",
                       "other program", "date", "last round"])
    store = Store.open(db)
    try:
        season = store.load_season(1)
        played = [r for r in season.rounds if r.games]
        rnd = rng.choice(played) if played else None
        if what in ("result", "rolled back") and rnd is not None:
            board = rng.choice(rnd.games).board
            try:
                with store.change("result", "result"):
                    enter_results(store, 1, {board: rng.choice(RESULTS)}, round_no=rnd.number, correct=True)
                    assert store.load_season(1) is not None  # read inside the transaction too
                    if what == "rolled back":
                        raise StoreError("refused")
            except StoreError:
                pass
        elif what == "attendance":
            number = rng.randrange(1, len(season.rounds) + 1)
            playing = {p for g in season.rounds[number - 1].games for p in (g.white, g.black)}
            idle = [r["id"] for r in store.players(1) if r["key"] not in playing]
            if idle:
                with store.change("attend", "attend"):
                    store.set_attendance(1, number, rng.choice(idle),
                                         rng.choice([None, "present", "excused", "unexcused", "club"]))
        elif what == "withdraw":
            try:
                with store.change("withdraw", "withdraw"):
                    withdraw_player(store, 1, rng.choice(season.players).name)
            except StoreError:
                pass
        elif what == "undo":
            last = last_change(store)
            if last["command"] != "import":  # the competition itself stays
                undo(store, last["id"])
        elif what == "date":
            with store.change("date", "date"):
                store.ensure_round(1, rng.randrange(1, len(season.rounds) + 1), f"2026-10-{rng.randrange(1, 29):02d}")
        elif what == "last round" and len(season.rounds) > 1:
            last = season.rounds[-1]
            with store.change("round", "round"):  # removed, and made anew with one game of its own
                store.delete_round(1, last.number)
                store.ensure_round(1, last.number)
                ids = [r["id"] for r in store.players(1)]
                store.add_game(1, last.number, 1, ids[0], ids[1], rng.choice(RESULTS + [None]))
        elif what == "other program" and rnd is not None:
            with sqlite3.connect(db) as conn:  # plain SQL: the triggers stamp the round all the same
                conn.execute("UPDATE games SET result = ? WHERE competition_id = 1 AND round = ? AND board = ?",
                             (rng.choice(RESULTS), rnd.number, rng.choice(rnd.games).board))
            conn.close()
    finally:
        store.close()


@hsettings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 8), rounds=st.integers(1, 5), edits=st.integers(1, 10),
       model=st.sampled_from(["per-round", "fixed-point"]))
def test_the_season_read_again_where_it_changed_is_the_one_read_from_scratch(tmp_path_factory, seed, n, rounds,
                                                                             edits, model):
    rng = random.Random(seed)
    db = club(tmp_path_factory.mktemp("club"), rng, n, rounds, model)
    for _ in range(edits):
        edit(rng, db)
        season, scratch = read(db), from_scratch(db)
        assert season == scratch
        store = Store.open(db)
        try:
            assert standings_ops.kept_standings(store, 1, season, provisional=True) == \
                compute_standings(scratch, provisional=True)
        finally:
            store.close()


@pytest.fixture
def big(tmp_path):
    return club(tmp_path, random.Random(5), 12, 6, "per-round")


def test_one_result_reads_that_round_only(big):
    """The rounds whose stamp did not change are the very objects read before."""
    before = read(big)
    store = Store.open(big)
    try:
        with store.change("result", "result"):
            board = before.rounds[3].games[0].board
            enter_results(store, 1, {board: "1/2-1/2" if before.rounds[3].games[0].result != "1/2-1/2" else "1-0"},
                          round_no=4, correct=True)
    finally:
        store.close()
    after = read(big)
    assert [a is b for a, b in zip(after.rounds, before.rounds)] == [True, True, True, False, True, True]
    assert after == from_scratch(big) and after.rounds[3] != before.rounds[3]


def test_a_write_rolled_back_leaves_the_round_as_it_was(big):
    """Read inside a transaction that is then rolled back: the round read next is the stored one."""
    before = from_scratch(big)
    store = Store.open(big)
    try:
        with pytest.raises(StoreError), store.change("result", "result"):
            store.set_result(1, 2, before.rounds[1].games[0].board, None)
            assert store.load_season(1).rounds[1] != before.rounds[1]
            raise StoreError("refused")
    finally:
        store.close()
    assert read(big) == before


def test_every_write_to_a_round_stamps_it(big):
    """The triggers: an insert, an update and a delete of a game or an attendance mark, and
    making or removing a round, each give the round a stamp it never had."""
    conn = sqlite3.connect(big)
    try:
        def stamp(number: int) -> bytes:
            return conn.execute("SELECT stamp FROM round_stamps WHERE competition_id = 1 AND round = ?",
                                (number,)).fetchone()[0]

        seen = {stamp(n) for n in range(1, 7)}
        assert len(seen) == 6
        for sql in ("UPDATE games SET result = NULL WHERE competition_id = 1 AND round = 2",
                    "DELETE FROM attendance WHERE competition_id = 1 AND round = 2",
                    "INSERT INTO attendance (competition_id, round, player_id, status) "
                    "SELECT 1, 2, id, 'club' FROM players WHERE id NOT IN (SELECT white FROM games WHERE round = 2 "
                    "UNION SELECT black FROM games WHERE round = 2) LIMIT 1",
                    "DELETE FROM games WHERE competition_id = 1 AND round = 2 AND board = 1"):
            conn.execute(sql)
            assert stamp(2) not in seen, sql
            seen.add(stamp(2))
        conn.execute("INSERT INTO rounds (competition_id, number) VALUES (1, 7)")
        assert stamp(7) not in seen
        assert {stamp(n) for n in (1, 3, 4, 5, 6)} < seen  # the other rounds keep theirs
        conn.rollback()
    finally:
        conn.close()
