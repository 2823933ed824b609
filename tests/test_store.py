"""The season database: schema, versions, change log and undo, loading the model."""

from __future__ import annotations

import sqlite3

import pytest

from keizer.operations import competition as ops
from keizer.store import schema
from keizer.model import Absence, ExternalResult, Result
from keizer.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data"


def make(tmp_path, n=4):
    store = Store.open(tmp_path / "s.db", create=True)
    with store.change("setup", "setup"):
        comp = store.create_competition("C", "classic", {"top": 10})
        for i in range(1, n + 1):
            store.register(comp, store.add_member(f"Player {i}", 2000 - i * 10))
    return store, comp


def test_new_database_has_identity_and_version(tmp_path):
    store, _ = make(tmp_path)
    conn = sqlite3.connect(tmp_path / "s.db")
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_foreign_keys_are_enforced(tmp_path):
    store, comp = make(tmp_path)
    with pytest.raises(sqlite3.IntegrityError):
        with store.change("x", "x"):
            store.conn.execute("INSERT INTO players (competition_id, member_id, key, start_no) VALUES (?, 999, 'k', 9)",
                               (comp,))


def test_a_failed_change_writes_nothing(tmp_path):
    store, comp = make(tmp_path)
    before = (tmp_path / "s.db").read_bytes()
    with pytest.raises(StoreError):
        with store.change("x", "x"):
            store.add_member("Someone")
            raise StoreError("refused")
    assert (tmp_path / "s.db").read_bytes() == before
    assert [m["name"] for m in store.members()] == [f"Player {i}" for i in range(1, 5)]


def test_undo_reverts_inserts_updates_and_deletes(tmp_path):
    store, comp = make(tmp_path)
    with store.change("attend", "attend"):
        ops.mark_attendance(store, comp, {"Player 1": "excused"})
    with store.change("pair", "pair"):
        ops.make_pairing(store, comp)
    snapshot = store.load_season(comp)
    with store.change("edit", "edit member and unpair"):
        store.update_member(1, rating=1234, name="Renamed")
        ops.unpair(store, comp)
    assert store.load_season(comp) != snapshot
    assert store.undo() == "edit member and unpair"
    assert store.load_season(comp) == snapshot
    assert store.member(1)["name"] == "Player 1"
    assert [c["summary"] for c in store.changes()] == ["pair", "attend", "setup"]
    store.undo(), store.undo(), store.undo()
    assert store.members() == [] and store.competitions() == []
    with pytest.raises(StoreError, match="nothing to undo"):
        store.undo()


def test_a_version_1_file_is_upgraded(tmp_path, capsys):
    """tests/data/schema-v1.db was written by keizer with schema version 1."""
    import json
    import shutil

    from keizer.cli import main

    db = tmp_path / "old.db"
    shutil.copy(DATA / "schema-v1.db", db)
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == 1
    with _no_exit():
        main(["--db", str(db), "standings", "--format", "json"])
    out = capsys.readouterr().out
    assert json.loads(out) == json.loads((DATA / "schema-v1-standings.json").read_text())
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "time_control" in [r[1] for r in conn.execute("PRAGMA table_info(rounds)")]
    store = Store.open(db)
    comp = store.competition()["id"]
    with store.change("tc", "tc"):
        store.plan_time_control(comp, 1, None, "rapid 15+5")
    assert store.load_season(comp).rounds[0].time_control == "rapid 15+5"
    store.undo()
    assert store.load_season(comp).rounds[0].time_control is None



def test_an_older_change_log_upgrades_and_keeps_its_text(tmp_path):
    """Schema 10 adds the messages of a change (``said``); an entry logged before keeps its
    text, a new one keeps both (the text for 'keizer log', the messages for the app)."""
    from keizer.refusals import Message, Word

    store, _ = make(tmp_path)
    store.conn.execute("ALTER TABLE changes DROP COLUMN said")
    store.conn.execute("PRAGMA user_version = 9")
    store.conn.commit()
    store.close()
    store = Store.open(tmp_path / "s.db")
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.origin = lambda: Message("%(user)s on %(computer)s", user="anna", computer=Word("an unnamed computer"))
    with store.change("member add", Message("add member %(name)s", name="Zoë")):
        store.add_member("Zoë", None)
    new, old = store.changes(2, said=True)
    assert (old["summary"], old["origin"], old["said"]) == ("setup", old["origin"], {})
    assert (new["summary"], new["origin"]) == ("add member Zoë", "anna on an unnamed computer")
    assert new["said"] == {"summary": Message("add member %(name)s", name="Zoë"),
                           "origin": Message("%(user)s on %(computer)s", user="anna",
                                             computer=Word("an unnamed computer"))}
    assert list(store.changes(1)[0]) == ["id", "at", "command", "summary", "origin"]

class _no_exit:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is SystemExit and not value.code


def test_migrations_run_in_order_and_undo_tracks_new_columns(tmp_path, monkeypatch):
    store, comp = make(tmp_path)
    store.close()
    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {**schema.MIGRATIONS,
                                               SCHEMA_VERSION: "ALTER TABLE members ADD COLUMN email TEXT"})
    upgraded = Store.open(tmp_path / "s.db")
    assert upgraded.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    with upgraded.change("mail", "mail"):
        upgraded.conn.execute("UPDATE members SET email = 'a@b.nl' WHERE id = 1")
    upgraded.undo()
    assert upgraded.conn.execute("SELECT email FROM members WHERE id = 1").fetchone()[0] is None


def test_time_control_plan(tmp_path):
    store, comp = make(tmp_path)
    with store.change("tc", "tc"):
        store.plan_time_control(comp, 1, 3, "rapid 25+10")
        store.plan_time_control(comp, 4, None, "classical 90+30")
        for r in range(1, 6):
            ops.mark_attendance(store, comp, {})
            ops.make_pairing(store, comp)
            ops.enter_results(store, comp, {1: "1-0", 2: "½-½"})
        store.set_round_time_control(comp, 5, "blitz 5+3")
    rounds = store.load_season(comp).rounds
    assert [r.time_control for r in rounds] == ["rapid 25+10"] * 3 + ["classical 90+30", "blitz 5+3"]
    with store.change("tc", "tc"):
        store.plan_time_control(comp, 2, 4, "rapid 10+5")
        store.set_round_time_control(comp, 5, None)
    rounds = store.load_season(comp).rounds
    assert [r.time_control for r in rounds] == ["rapid 25+10"] + ["rapid 10+5"] * 3 + ["classical 90+30"]
    with store.change("tc", "tc"):
        store.plan_time_control(comp, 1, None, None)  # covers everything: the plan is cleared
    assert store.time_control_plan(comp) == []
    assert [r.time_control for r in store.load_season(comp).rounds] == [None] * 5


def test_refuses_newer_and_foreign_files_without_touching_them(tmp_path):
    store, _ = make(tmp_path)
    store.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store.close()
    before = (tmp_path / "s.db").read_bytes()
    with pytest.raises(StoreError, match="newer keizer"):
        Store.open(tmp_path / "s.db")
    assert (tmp_path / "s.db").read_bytes() == before
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="not a keizer database"):
        Store.open(other)


def test_load_season_maps_every_attendance_kind(tmp_path):
    store, comp = make(tmp_path, n=6)
    with store.change("attend", "attend"):
        ops.mark_attendance(store, comp, {"Player 2": "excused", "Player 3": "club"}, {"Player 4": "draw"})
    with store.change("pair", "pair"):
        pairing = ops.make_pairing(store, comp)
    assert pairing.bye is not None
    with store.change("result", "result"):
        ops.enter_results(store, comp, {1: "+-"})
    rnd = store.load_season(comp).rounds[0]
    assert rnd.absent == {"m2": Absence.EXCUSED, "m3": Absence.CLUB, pairing.bye: Absence.BYE}
    assert rnd.external == {"m4": ExternalResult.DRAW}
    assert rnd.games[0].result is Result.WHITE_FORFEIT_WIN and rnd.is_complete
    assert rnd.present == ()


def test_player_lookup(tmp_path):
    store, comp = make(tmp_path)
    with store.change("x", "x"):
        store.register(comp, store.add_member("Jürgen Müller"))
    assert store.find_player(comp, "muller")["name"] == "Jürgen Müller"
    assert store.find_player(comp, "#2")["name"] == "Player 2"
    assert store.find_player(comp, "m3")["name"] == "Player 3"
    with pytest.raises(StoreError, match="several"):
        store.find_player(comp, "Player")
    assert store.find_player(comp, "player 1")["name"] == "Player 1"  # exact beats partial


def test_names_are_checked(tmp_path):
    store, _ = make(tmp_path)
    for bad in ("", "   ", "a\tb", "x" * 201):
        with pytest.raises(StoreError):
            with store.change("x", "x"):
                store.add_member(bad)
    with store.change("x", "x"):
        store.add_member("<script>alert('x')</script> 🐴")
    assert any("🐴" in m["name"] for m in store.members())
