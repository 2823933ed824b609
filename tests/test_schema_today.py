"""A new database is made with today's schema recorded once per process (``store/schema.py``,
``_today``) instead of schema 1 and every migration run again for each file.  It must be the
database those make, and the one an older file becomes when it is upgraded: the same tables,
indexes and triggers in the same order, the same settings of the file, the same rows, and
the same behaviour (undo, the change log, the rounds' stamps)."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils

from keizer.operations import competition as ops
from keizer.store import SCHEMA_VERSION, Store, schema

DATA = Path(__file__).resolve().parent / "data"


def made_the_long_way(path: Path) -> Store:
    """A new database made as keizer made it before: schema 1, then every migration."""
    store = Store(sqlite_utils.Database(sqlite3.connect(path)))
    store.path = path
    store._build()
    return store


def objects(conn: sqlite3.Connection) -> list[tuple]:
    """``sqlite_master`` in the order it was made.  Not the page where each table begins: that
    depends on when ``sqlite_master`` itself grew a page, earlier when the tables are made with
    today's columns than when the columns are added later (the same number of pages, none free)."""
    return conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall()


def settings(conn: sqlite3.Connection, pages: bool = True) -> dict[str, object]:
    names = ["application_id", "user_version", "page_size", "auto_vacuum", "encoding", "journal_mode",
             "foreign_keys", "recursive_triggers", "synchronous"] + (["page_count", "freelist_count"] if pages else [])
    return {name: conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names}


def rows(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """Every table's rows; a value that is random in each database (the check-in key, a round's
    stamp) as its length."""
    tables = [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    random = {"app_secrets": 1, "round_stamps": 2}
    found = {}
    for table in tables:
        got = conn.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
        if table in random:
            got = [(*row[:random[table]], len(row[random[table]])) for row in got]
        found[table] = got
    return found


def test_a_new_database_is_the_one_schema_1_and_every_migration_make(tmp_path):
    new = Store.open(tmp_path / "new.db", create=True)
    old = made_the_long_way(tmp_path / "old.db")
    assert len(objects(new.conn)) > 90  # the tables, their indexes and the 66 triggers
    assert objects(new.conn) == objects(old.conn)
    assert settings(new.conn) == settings(old.conn)
    assert settings(new.conn)["user_version"] == SCHEMA_VERSION
    assert rows(new.conn) == rows(old.conn)
    assert rows(new.conn)["app_secrets"] == [("checkin", 32)]


def test_each_new_database_has_a_check_in_key_of_its_own(tmp_path):
    keys = {Store.open(tmp_path / f"{n}.db", create=True).conn.execute(
        "SELECT value FROM app_secrets WHERE name = 'checkin'").fetchone()[0] for n in range(3)}
    keys.add(Store.memory().conn.execute("SELECT value FROM app_secrets").fetchone()[0])
    assert len(keys) == 4 and all(len(key) == 32 and int(key, 16) >= 0 for key in keys)


def tables_of(version: int) -> set[str]:
    """The tables a database of a schema version has."""
    made = schema._SCHEMA_V1 + "".join(schema.MIGRATIONS[v] for v in range(1, version))
    return set(re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", made))


def test_an_older_file_upgraded_has_the_schema_of_a_new_one(tmp_path, monkeypatch):
    """A database of every earlier version (made as the keizer of that version made it: schema 1
    and the migrations up to it, the undo triggers of its tables; in memory, upgraded as
    ``Store.open`` upgrades a file) and the committed file of schema 1, upgraded."""
    new = Store.open(tmp_path / "new.db", create=True)
    for version in range(1, SCHEMA_VERSION):
        older = Store(sqlite_utils.Database(memory=True))
        with monkeypatch.context() as m:
            m.setattr(schema, "SCHEMA_VERSION", version)
            m.setattr(schema, "_TRACKED", tuple(t for t in schema._TRACKED if t in tables_of(version)))
            older._build()
            assert settings(older.conn)["user_version"] == version
        older._migrate(version)
        assert objects(older.conn) == objects(new.conn), version
        assert settings(older.conn, pages=False) == settings(new.conn, pages=False) | {"journal_mode": "memory"}, version
        assert rows(older.conn) == rows(new.conn), version
        older.close()
    shutil.copy(DATA / "schema-v1.db", tmp_path / "committed.db")
    upgraded = Store.open(tmp_path / "committed.db")
    assert objects(upgraded.conn) == objects(new.conn)
    assert settings(upgraded.conn, pages=False) == settings(new.conn, pages=False)


def evening(store: Store) -> None:
    """The same changes in each database: members, a competition, attendance, a pairing, results,
    an edit, and undo."""
    store.clock = lambda: "2026-12-03T20:00:00+00:00"
    store.origin = lambda: "anna on club-laptop"
    with store.change("setup", "setup"):
        comp = store.create_competition("C", "classic", {"top": 10})
        for i in range(1, 6):
            store.register(comp, store.add_member(f"Player {i}", 2000 - i * 10))
    with store.change("attend", "attend"):
        ops.mark_attendance(store, comp, {"Player 1": "excused"})
    with store.change("pair", "pair"):
        ops.make_pairing(store, comp)
    with store.change("edit", "edit member and unpair"):
        store.update_member(2, rating=1234, name="Renamed")
        ops.unpair(store, comp)
    store.undo()


def test_a_new_database_behaves_as_one_made_the_long_way():
    new = Store.memory()
    old = Store(sqlite_utils.Database(memory=True))
    old._build()
    for store in (new, old):
        evening(store)
    assert rows(new.conn) == rows(old.conn)
    assert len(rows(new.conn)["undo_log"]) > 20 and len(rows(new.conn)["round_stamps"]) == 1
    assert new.load_season(1) == old.load_season(1)


def test_a_new_database_has_a_migration_added_later(tmp_path, monkeypatch):
    """Today's schema is recorded by what it is made from: a migration added (as a test adds
    one) is in the next new database, and gone again with it."""
    with monkeypatch.context() as m:
        m.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
        m.setattr(schema, "MIGRATIONS", {**schema.MIGRATIONS, SCHEMA_VERSION: "ALTER TABLE members ADD COLUMN email TEXT"})
        later = Store.open(tmp_path / "later.db", create=True)
        assert "email" in [r[1] for r in later.conn.execute("PRAGMA table_info(members)")]
        assert settings(later.conn)["user_version"] == SCHEMA_VERSION + 1
    today = Store.open(tmp_path / "today.db", create=True)
    assert "email" not in [r[1] for r in today.conn.execute("PRAGMA table_info(members)")]
    with pytest.raises(sqlite3.OperationalError):  # a file of a newer keizer is refused, not changed
        today.conn.execute("SELECT email FROM members")
