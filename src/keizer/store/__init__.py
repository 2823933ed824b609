"""The season database: the only module that speaks SQL.

One SQLite file holds members, competitions, players, rounds, attendance and
games.  Every write goes through :meth:`Store.change`, one transaction that
also records what changed: triggers log the SQL that reverts each row change
(the technique of sqlite.org's "Automatic Undo/Redo Using SQLite"), so
``keizer undo`` can revert the last command exactly.

>>> store = Store.memory()
>>> with store.change("member add", "add Anna"):
...     anna = store.add_member("Anna de Vries", rating=1850)
>>> store.member(anna)["name"]
'Anna de Vries'
>>> store.undo()
'add Anna'
>>> store.members()
[]
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import sqlite_utils

from keizer.limits import clean_text, is_digits
from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.settings import Settings, SettingsError
from keizer.store.changes import Changes
from keizer.store.database import (StoreError, _busy, _code, _connect, _require_file, _rowid,
                                   busy_timeout, explain, generation)
from keizer.store.members import Members
from keizer.store.names import _clean_name, _id_number, pick_by_name
from keizer.store.web import WebApp

#: What the rest of keizer imports from the store.
__all__ = ["APPLICATION_ID", "MIGRATIONS", "SCHEMA_VERSION", "SYSTEMS", "Store", "StoreError", "backup", "explain",
           "generation", "pick_by_name"]

#: PRAGMA application_id of a keizer database ("KZR1").
APPLICATION_ID = 0x4B5A5231
SCHEMA_VERSION = 9
ATTENDANCE = ("present", "excused", "unexcused", "club", "external", "bye")

_SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    rating INTEGER CHECK (rating IS NULL OR rating BETWEEN 0 AND 4000),
    fed_id TEXT
);
CREATE TABLE competitions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    system TEXT NOT NULL DEFAULT 'keizer',
    preset TEXT NOT NULL,
    overrides TEXT NOT NULL DEFAULT '{}',
    settings TEXT NOT NULL,
    initial_order TEXT NOT NULL DEFAULT '[]',
    created TEXT NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    member_id INTEGER NOT NULL REFERENCES members(id),
    key TEXT NOT NULL,
    start_no INTEGER NOT NULL,
    joined INTEGER NOT NULL DEFAULT 1 CHECK (joined >= 1),
    withdrawn_after INTEGER,
    category TEXT,
    default_attendance TEXT CHECK (default_attendance IN ('present', 'absent')),
    UNIQUE (competition_id, key),
    UNIQUE (competition_id, member_id)
);
CREATE TABLE rounds (
    competition_id INTEGER NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    date TEXT,
    PRIMARY KEY (competition_id, number)
);
CREATE TABLE attendance (
    competition_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('present','excused','unexcused','club','external','bye')),
    external_result TEXT CHECK (external_result IN ('win','draw','loss')),
    PRIMARY KEY (competition_id, round, player_id),
    FOREIGN KEY (competition_id, round) REFERENCES rounds(competition_id, number) ON DELETE CASCADE
);
CREATE TABLE games (
    competition_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL CHECK (board >= 1),
    white INTEGER NOT NULL REFERENCES players(id),
    black INTEGER NOT NULL REFERENCES players(id),
    result TEXT CHECK (result IN ('1-0','0-1','1/2-1/2','+-','-+','--')),
    PRIMARY KEY (competition_id, round, board),
    FOREIGN KEY (competition_id, round) REFERENCES rounds(competition_id, number) ON DELETE CASCADE,
    CHECK (white <> black)
);
CREATE TABLE pairing_rules (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('forbid')),
    a INTEGER NOT NULL REFERENCES players(id),
    b INTEGER NOT NULL REFERENCES players(id),
    UNIQUE (competition_id, kind, a, b)
);
CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    command TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE undo_log (
    seq INTEGER PRIMARY KEY,
    change_id INTEGER REFERENCES changes(id) ON DELETE CASCADE,
    sql TEXT NOT NULL
);
CREATE INDEX games_by_round ON games (competition_id, round);
CREATE INDEX attendance_by_player ON attendance (player_id);
"""

#: Tables whose every row change is logged for undo.
_TRACKED = ("meta", "members", "competitions", "players", "rounds", "attendance", "games", "pairing_rules",
            "teams", "team_members", "team_matches", "users", "member_links", "notices", "board_links",
            "board_reports")

#: MIGRATIONS[v] upgrades a database from schema version v to v+1.  A new
#: database is made at version 1 and upgraded, so every step is always exercised.
MIGRATIONS: dict[int, str] = {
    # Time controls: a plan per competition (JSON list of {"from", "to", "time_control"})
    # and an explicit time control per round.
    1: """
    ALTER TABLE rounds ADD COLUMN time_control TEXT;
    ALTER TABLE competitions ADD COLUMN time_controls TEXT NOT NULL DEFAULT '[]'
    """,
    # Other competition systems (round-robin …) keep their own settings as JSON.
    2: "ALTER TABLE competitions ADD COLUMN system_settings TEXT NOT NULL DEFAULT '{}'",
    # Knock-out cups and team events: a game belongs to a match (a cup tie or a team
    # match) and a stage (regular, rapid, blitz, armageddon); teams with ordered boards.
    3: """
    ALTER TABLE games ADD COLUMN match INTEGER;
    ALTER TABLE games ADD COLUMN stage TEXT;
    CREATE TABLE teams (
        id INTEGER PRIMARY KEY,
        competition_id INTEGER NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        start_no INTEGER NOT NULL,
        UNIQUE (competition_id, name)
    );
    CREATE TABLE team_members (
        team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        board INTEGER NOT NULL CHECK (board >= 1),
        reserve INTEGER NOT NULL DEFAULT 0 CHECK (reserve IN (0, 1)),
        PRIMARY KEY (team_id, player_id)
    );
    CREATE TABLE team_matches (
        competition_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        number INTEGER NOT NULL CHECK (number >= 1),
        first_team INTEGER NOT NULL REFERENCES teams(id),
        second_team INTEGER REFERENCES teams(id),
        PRIMARY KEY (competition_id, round, number),
        FOREIGN KEY (competition_id, round) REFERENCES rounds(competition_id, number) ON DELETE CASCADE
    )
    """,
    # The past is frozen: a competition keeps the season it was created in (its site
    # folder), and each player keeps the rating they had when the competition started
    # (or when they entered it later), so a new rating list changes no standing.
    # _freeze_v5 fills both for existing files.
    4: """
    ALTER TABLE competitions ADD COLUMN season TEXT;
    ALTER TABLE competitions ADD COLUMN started INTEGER NOT NULL DEFAULT 0 CHECK (started IN (0, 1));
    ALTER TABLE players ADD COLUMN rating INTEGER CHECK (rating IS NULL OR rating BETWEEN 0 AND 4000)
    """,
    # Where a change came from (user and computer), so that 'keizer undo' on a shared file
    # can say whose work it is about to revert.
    5: "ALTER TABLE changes ADD COLUMN origin TEXT",
    # Rating lists: a member keeps a national and a FIDE rating side by side, and each
    # competition says which list orders it (and which one its frozen ratings come from).
    6: """
    ALTER TABLE members ADD COLUMN fide_id TEXT;
    ALTER TABLE members ADD COLUMN fide_rating INTEGER CHECK (fide_rating IS NULL OR fide_rating BETWEEN 0 AND 4000);
    ALTER TABLE competitions ADD COLUMN rating_list TEXT NOT NULL DEFAULT 'national'
        CHECK (rating_list IN ('national', 'fide'))
    """,
    # The web app: accounts (officer, arbiter) with a password hash, never the password; a
    # member's personal link and a board's link are random tokens stored as their SHA-256
    # (a copy of the file does not give them away); absence notices a member sends for a
    # club evening; results the two players of a board report from their phones.
    7: """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
        role TEXT NOT NULL CHECK (role IN ('officer', 'arbiter')),
        password_hash TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE TABLE member_links (
        id INTEGER PRIMARY KEY,
        member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL,
        revoked TEXT
    );
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY,
        member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        sent TEXT NOT NULL,
        via TEXT NOT NULL,
        UNIQUE (member_id, date)
    );
    CREATE TABLE board_links (
        competition_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        code_hash TEXT NOT NULL UNIQUE,
        PRIMARY KEY (competition_id, round, board),
        FOREIGN KEY (competition_id, round) REFERENCES rounds(competition_id, number) ON DELETE CASCADE
    );
    CREATE TABLE board_reports (
        competition_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('white', 'black')),
        result TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
        at TEXT NOT NULL,
        PRIMARY KEY (competition_id, round, board, side),
        FOREIGN KEY (competition_id, round) REFERENCES rounds(competition_id, number) ON DELETE CASCADE
    )
    """,
    # When the app's logins of an account last ended (a new password, the account removed or
    # made anew): a login that began before is refused.  Not in the change log, so that undoing
    # the change does not bring those logins back.  And which phone made a board's report (a
    # fingerprint of a random mark in its cookie): two agreeing reports from one phone are not
    # the two players agreeing.
    8: """
    CREATE TABLE logins_ended (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        at REAL NOT NULL
    );
    ALTER TABLE board_reports ADD COLUMN reporter TEXT
    """,
}

#: The rating lists a competition can be ordered by: the member column each one fills.
RATING_LISTS = {"national": "rating", "fide": "fide_rating"}
#: A player's rating in a competition (players p, members m, competitions c): frozen once the
#: competition started, else the member's rating from the competition's list.
_PLAYER_RATING = ("CASE WHEN c.started THEN p.rating WHEN c.rating_list = 'fide' THEN m.fide_rating "
                  "ELSE m.rating END")

#: Competition systems the database holds.
SYSTEMS = ("keizer", "roundrobin", "swiss", "knockout", "team")


class Store(Members, WebApp, Changes):
    """A season database."""

    @classmethod
    def open(cls, path: str | Path, create: bool = False, defer_upgrade: bool = False,
             replace_empty: bool = False) -> "Store":
        """Open a keizer database; with ``create``, make it if it does not exist (and, with
        ``replace_empty``, in place of an empty file: only 'keizer init' does that, since an
        empty club.db may be a season that was lost and should be restored, not replaced).

        Refuses files that are not keizer databases, and databases written by a
        newer keizer, without changing them.  An older schema is upgraded; with
        ``defer_upgrade`` the upgrade stays uncommitted until :meth:`commit_upgrade`
        (a command that fails leaves the old file as it was: :meth:`rollback_upgrade`).
        """
        path = Path(path)
        if not path.exists() or path.stat().st_size == 0:
            if not create or (path.exists() and not replace_empty):
                _require_file(path)
            if path.exists():
                path.unlink()  # an empty file is not a database yet
            store = cls(sqlite_utils.Database(_connect(path)))
            store.path = path
            try:
                store._create()
            except BaseException:  # e.g. a full disk: leave no half-made file behind
                store.close()
                path.unlink(missing_ok=True)
                raise
            return store
        conn, version = _check(path)
        store = cls(sqlite_utils.Database(conn))
        store.path = path
        if version < SCHEMA_VERSION:
            store._migrate(version, commit=not defer_upgrade)
        return store

    @property
    def upgrading(self) -> bool:
        """An upgrade of the schema is open, waiting for commit or rollback."""
        return self._upgrading

    def commit_upgrade(self) -> None:
        if self._upgrading:
            self.conn.execute("COMMIT")
            self._upgrading = False

    def rollback_upgrade(self) -> None:
        if self._upgrading:
            if self.conn.in_transaction:  # a failed COMMIT (disk full) may have ended it already
                self.conn.execute("ROLLBACK")
            self._upgrading = False

    @classmethod
    def memory(cls) -> "Store":
        store = cls(sqlite_utils.Database(memory=True))
        store._create()
        return store

    # -- schema -------------------------------------------------------------

    def _create(self) -> None:
        with self._schema_change():
            for statement in _split_sql(_SCHEMA_V1):
                self.conn.execute(statement)
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._upgrade(1)

    def _migrate(self, version: int, commit: bool = True) -> None:
        if version < 1:
            raise StoreError("this database has no keizer schema; restore a backup or start a new file")
        with self._schema_change(commit):
            self._upgrade(version)
        self._upgrading = not commit

    def _upgrade(self, version: int) -> None:
        for v in range(version, SCHEMA_VERSION):
            self._apply_migration(v)
        if version <= 4:  # after the last migration: freezing reads the schema of today
            self._freeze_v5()
        self._install_triggers()
        self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _schema_change(self, commit: bool = True) -> Iterator[None]:
        """One transaction around DDL (Python's sqlite3 would commit it piecemeal);
        without ``commit`` it stays open, and later changes nest inside it."""
        self.conn.isolation_level = None
        try:
            self.conn.execute("BEGIN")
            yield
            if commit:
                self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # SQLite ends it itself on e.g. a full disk
                self.conn.execute("ROLLBACK")
            raise
        finally:
            self.conn.isolation_level = ""  # type: ignore[assignment]  # the default mode: typeshed lacks ""

    def _apply_migration(self, version: int) -> None:
        for statement in _split_sql(MIGRATIONS[version]):
            self.conn.execute(statement)

    def _freeze_v5(self) -> None:
        """Schema 5 on a file that has a past: the season each competition belongs to,
        named as the site named it until now (the club's season, else the years of all
        round dates), and, where play has begun, the ratings and initial order in force."""
        named = self.get_meta("club_season")
        years = sorted({int(d[:4]) for (d,) in self.conn.execute("SELECT date FROM rounds WHERE date IS NOT NULL")
                        if is_digits(d[:4])})
        spanned = (f"{years[0]}-{years[-1]}" if years[0] != years[-1] else str(years[0])) if years else None
        for comp_id, created in self.conn.execute("SELECT id, created FROM competitions").fetchall():
            self.conn.execute("UPDATE competitions SET season = ? WHERE id = ?",
                              (named or spanned or season_of(created), comp_id))
            if self.conn.execute("SELECT 1 FROM games WHERE competition_id = ? LIMIT 1", (comp_id,)).fetchone():
                self.start(comp_id)

    def _install_triggers(self) -> None:
        for table in _TRACKED:
            columns = [row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")]
            for kind in ("insert", "update", "delete"):
                self.conn.execute(f"DROP TRIGGER IF EXISTS undo_{table}_{kind}")
            quoted_old = " || ',' || ".join(f"quote(old.{c})" for c in columns)
            col_list = ", ".join(columns)
            sets = " || ', ' || ".join(f"'{c} = ' || quote(old.{c})" for c in columns)
            self.conn.execute(
                f"CREATE TRIGGER undo_{table}_insert AFTER INSERT ON {table} BEGIN "
                f"INSERT INTO undo_log (sql) VALUES ('DELETE FROM {table} WHERE rowid = ' || new.rowid); END"
            )
            self.conn.execute(
                f"CREATE TRIGGER undo_{table}_update AFTER UPDATE ON {table} BEGIN "
                f"INSERT INTO undo_log (sql) VALUES ('UPDATE {table} SET ' || {sets} || ' WHERE rowid = ' || old.rowid); END"
            )
            self.conn.execute(
                f"CREATE TRIGGER undo_{table}_delete BEFORE DELETE ON {table} BEGIN "
                f"INSERT INTO undo_log (sql) VALUES ('INSERT INTO {table} (rowid, {col_list}) VALUES (' || old.rowid || ',' || {quoted_old} || ')'); END"
            )

    # -- competitions -------------------------------------------------------

    def create_competition(self, name: str, preset: str, overrides: Mapping[str, Any],
                           system: str = "keizer", system_settings: Mapping[str, Any] | None = None,
                           season: str | None = None, current: bool = True) -> int:
        """A new competition of ``season`` (default: the club's season setting, else the
        August–July season of today); the season is kept, whatever its rounds' dates.
        ``current``: it becomes the CLI's default competition (the web app's do not: a
        terminal beside it keeps its own)."""
        name = _clean_name(name)
        season = _clean_season(season) if season is not None else None
        if system not in SYSTEMS:
            raise StoreError(f"unknown competition system {system!r} (choose from {', '.join(SYSTEMS)})")
        if self._row("SELECT id FROM competitions WHERE name = ?", (name,)):
            raise StoreError(f"a competition named {name!r} exists already; choose another name")
        overrides = dict(overrides)
        rating_list = str(overrides.pop("rating_list", "national"))  # a column of its own
        try:
            settings = Settings.from_preset(preset, overrides)
        except SettingsError as e:
            raise StoreError(str(e)) from None
        created = self.clock()
        cur = self.conn.execute(
            "INSERT INTO competitions (name, system, preset, overrides, settings, system_settings, created, season) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (name, system, preset, json.dumps(dict(overrides), default=str, ensure_ascii=False),
             json.dumps(settings.to_dict(), ensure_ascii=False),
             json.dumps(dict(system_settings or {}), ensure_ascii=False), created,
             season or self.get_meta("club_season") or season_of(created)),
        )
        self.set_rating_list(_rowid(cur), rating_list)
        if current:
            self.set_meta("current_competition", str(cur.lastrowid))
        return _rowid(cur)

    def set_season(self, comp_id: int, season: str) -> None:
        """Move a competition to another season (its site folder follows at the next publish)."""
        self.conn.execute("UPDATE competitions SET season = ? WHERE id = ?", (_clean_season(season), comp_id))

    def competitions(self) -> list[dict[str, Any]]:
        return self._rows("SELECT id, name, system, preset, created, season FROM competitions ORDER BY id")

    def competition(self, ref: str | None = None) -> dict[str, Any]:
        """A competition by name or id; without one, the current (last used) one."""
        rows = self._rows("SELECT * FROM competitions ORDER BY id")
        if not rows:
            raise StoreError("there is no competition yet: create one with 'keizer competition create NAME'")
        if ref is None:
            current = self.get_meta("current_competition")
            for row in rows:
                if str(row["id"]) == current:
                    return row
            return rows[-1]
        for row in rows:
            if row["name"] == ref or str(row["id"]) == ref:
                return row
        return pick_by_name(rows, ref, "competition", "keizer competition list")

    def competition_by_id(self, comp_id: int) -> dict[str, Any]:
        row = self._row("SELECT * FROM competitions WHERE id = ?", (comp_id,))
        if row is None:
            raise StoreError(f"there is no competition {comp_id} (it may have been undone); see the list of competitions")
        return row

    def update_settings(self, comp_id: int, overrides: Mapping[str, Any]) -> Settings:
        row = self._row("SELECT preset, overrides FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        overrides = dict(overrides)
        if "rating_list" in overrides:  # a column of its own: every system has one
            self.set_rating_list(comp_id, str(overrides.pop("rating_list")))
        merged = {**json.loads(row["overrides"]), **overrides}
        try:
            settings = Settings.from_preset(row["preset"], merged)
        except SettingsError as e:
            raise StoreError(str(e)) from None
        self.conn.execute(
            "UPDATE competitions SET overrides = ?, settings = ? WHERE id = ?",
            (json.dumps(merged, default=str, ensure_ascii=False),
             json.dumps(settings.to_dict(), ensure_ascii=False), comp_id),
        )
        return settings

    def settings(self, comp_id: int) -> Settings:
        row = self._row("SELECT settings FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return Settings.from_dict(json.loads(row["settings"]))

    def system(self, comp_id: int) -> str:
        row = self._row("SELECT system FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return row["system"]

    def system_settings(self, comp_id: int) -> dict[str, Any]:
        row = self._row("SELECT system_settings FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["system_settings"])

    def set_system_settings(self, comp_id: int, values: Mapping[str, Any]) -> None:
        self.conn.execute("UPDATE competitions SET system_settings = ? WHERE id = ?",
                          (json.dumps(dict(values), ensure_ascii=False), comp_id))

    def time_control_plan(self, comp_id: int) -> list[dict[str, Any]]:
        row = self._row("SELECT time_controls FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["time_controls"])

    def plan_time_control(self, comp_id: int, first: int, last: int | None, text: str | None) -> None:
        """Rounds first…last (None: to the end) play at ``text`` (None: no time control).

        The plan is a list of ranges in the order they were set; the last one
        covering a round decides.  Ranges the new one covers entirely are dropped.
        """
        plan = [p for p in self.time_control_plan(comp_id) if not _covers(first, last, p["from"], p["to"])]
        if text is not None or plan:
            plan.append({"from": first, "to": last, "time_control": text})
        self.conn.execute("UPDATE competitions SET time_controls = ? WHERE id = ?",
                          (json.dumps(plan, ensure_ascii=False), comp_id))

    def set_round_time_control(self, comp_id: int, number: int, text: str | None) -> None:
        self.conn.execute("UPDATE rounds SET time_control = ? WHERE competition_id = ? AND number = ?",
                          (text, comp_id, number))

    def placed_order(self, comp_id: int) -> list[str]:
        """The players the officer placed first in the initial order (keys), as set."""
        row = self._row("SELECT initial_order FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["initial_order"])

    def set_initial_order(self, comp_id: int, keys: list[str]) -> None:
        self.conn.execute("UPDATE competitions SET initial_order = ? WHERE id = ?",
                          (json.dumps(keys, ensure_ascii=False), comp_id))

    def started(self, comp_id: int) -> bool:
        """Whether play has begun: ratings and the initial order are frozen."""
        row = self._row("SELECT started FROM competitions WHERE id = ?", (comp_id,))
        return bool(row and row["started"])

    def start(self, comp_id: int, ratings: Mapping[int, int | None] | None = None) -> None:
        """Freeze each player's rating as it is now from the competition's rating list (a
        later list changes nothing), and a Keizer competition's whole initial order (a
        later entrant comes after it).  ``ratings`` (player id → rating) gives the
        ratings of an imported season instead: those ordered its standings."""
        from keizer.scoring import initial_order

        if self.started(comp_id):
            return
        self.conn.execute("UPDATE competitions SET started = 1 WHERE id = ?", (comp_id,))
        column = RATING_LISTS[self.rating_list(comp_id)]
        self.conn.execute(
            f"UPDATE players SET rating = (SELECT {column} FROM members WHERE members.id = players.member_id) "
            "WHERE competition_id = ?", (comp_id,))
        for player, rating in (ratings or {}).items():
            self.conn.execute("UPDATE players SET rating = ? WHERE id = ?", (rating, player))
        if self.system(comp_id) == "keizer":
            frozen = initial_order(self.load_season(comp_id))
            self.set_system_settings(comp_id, {**self.system_settings(comp_id), "frozen_order": frozen})

    def rating_list(self, comp_id: int) -> str:
        """Which rating list orders the competition: national (members.rating) or fide."""
        row = self._row("SELECT rating_list FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return str(row["rating_list"])

    def set_rating_list(self, comp_id: int, value: str) -> None:
        """Choose the rating list; only before play begins, since ratings freeze then."""
        value = value.strip().lower()
        if value not in RATING_LISTS:
            raise StoreError(f"rating_list must be one of {', '.join(RATING_LISTS)}, not {value[:20]!r}")
        if value == self.rating_list(comp_id):
            return
        if self.started(comp_id):
            raise StoreError(f"rating_list cannot change now: the ratings were frozen from the "
                             f"{self.rating_list(comp_id)} list when round 1 was paired")
        self.conn.execute("UPDATE competitions SET rating_list = ? WHERE id = ?", (value, comp_id))

    def unfreeze(self, comp_id: int) -> None:
        """Undo :meth:`start` once the competition has no game again (round 1 unpaired)."""
        if not self.started(comp_id) or self._row("SELECT 1 AS x FROM games WHERE competition_id = ? LIMIT 1",
                                                  (comp_id,)):
            return
        self.conn.execute("UPDATE competitions SET started = 0 WHERE id = ?", (comp_id,))
        settings = self.system_settings(comp_id)
        if "frozen_order" in settings:
            del settings["frozen_order"]
            self.set_system_settings(comp_id, settings)

    # -- players ------------------------------------------------------------

    def register(
        self, comp_id: int, member_id: int, joined: int = 1, category: str | None = None,
        key: str | None = None, start_no: int | None = None,
    ) -> str:
        """Enter a member in a competition; returns the player's key.  The start number is
        the next free one unless given (an import numbers its players itself rather than
        scan the competition for each one)."""
        if self._row("SELECT id FROM players WHERE competition_id = ? AND member_id = ?", (comp_id, member_id)):
            name = self.member(member_id)["name"]
            raise StoreError(f"{name} is already registered in this competition")
        if start_no is None:
            start_no = self.conn.execute(
                "SELECT coalesce(max(start_no), 0) + 1 FROM players WHERE competition_id = ?", (comp_id,)
            ).fetchone()[0]
        if key is None:
            key = f"m{member_id}"
        elif self._row("SELECT id FROM players WHERE competition_id = ? AND key = ?", (comp_id, key)):
            raise StoreError(f"player id {key!r} is used twice in this competition")
        rating = self.member(member_id)[RATING_LISTS[self.rating_list(comp_id)]] if self.started(comp_id) else None
        self.conn.execute(
            "INSERT INTO players (competition_id, member_id, key, start_no, joined, category, rating) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (comp_id, member_id, key, start_no, joined, category, rating),
        )
        return key

    def players(self, comp_id: int, key: str | None = None) -> list[dict[str, Any]]:
        """The competition's players in start order; with ``key``, only that one (an
        indexed look-up, so an import that finds each new player stays linear)."""
        return self._rows(
            "SELECT p.id, p.key, p.start_no, p.joined, p.withdrawn_after, p.category, p.default_attendance, "
            f"p.member_id, m.name, {_PLAYER_RATING} AS rating, m.fed_id "
            "FROM players p JOIN members m ON m.id = p.member_id JOIN competitions c ON c.id = p.competition_id "
            f"WHERE p.competition_id = ? {'' if key is None else 'AND p.key = ?'} ORDER BY p.start_no",
            (comp_id,) if key is None else (comp_id, key),
        )

    def find_player(self, comp_id: int, ref: str) -> dict[str, Any]:
        """A player by key, start number (``#3``), or name (see :func:`pick_by_name`)."""
        text = ref.strip()
        by_key = self.players(comp_id, key=text)
        if by_key:
            return by_key[0]
        rows = self.players(comp_id)
        if text.startswith("#"):
            number = _id_number(text[1:])
            for row in rows:
                if row["start_no"] == number:
                    return row
            raise StoreError(f"there is no player {text[:20]}; see 'keizer player list'")
        return pick_by_name(rows, text, "player", "keizer player list")

    def update_player(self, player_id: int, **fields: Any) -> None:
        allowed = {"joined", "withdrawn_after", "category", "default_attendance", "start_no"}
        sets = {k: v for k, v in fields.items() if k in allowed}
        if sets:
            assignments = ", ".join(f"{k} = ?" for k in sets)
            self.conn.execute(f"UPDATE players SET {assignments} WHERE id = ?", (*sets.values(), player_id))

    def forbid(self, comp_id: int, a: int, b: int, remove: bool = False) -> None:
        a, b = sorted((a, b))
        if remove:
            cur = self.conn.execute(
                "DELETE FROM pairing_rules WHERE competition_id = ? AND kind = 'forbid' AND a = ? AND b = ?",
                (comp_id, a, b))
            if cur.rowcount == 0:
                raise StoreError("that pair is not forbidden")
        else:
            self.conn.execute(
                "INSERT OR IGNORE INTO pairing_rules (competition_id, kind, a, b) VALUES (?, 'forbid', ?, ?)",
                (comp_id, a, b))

    def forbidden_pairs(self, comp_id: int) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self.conn.execute(
                "SELECT pa.key, pb.key FROM pairing_rules r JOIN players pa ON pa.id = r.a "
                "JOIN players pb ON pb.id = r.b WHERE r.competition_id = ? AND r.kind = 'forbid' ORDER BY r.id",
                (comp_id,),
            )
        ]

    # -- rounds, attendance, games -----------------------------------------

    def round_numbers(self, comp_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT number FROM rounds WHERE competition_id = ? ORDER BY number", (comp_id,))]

    def ensure_round(self, comp_id: int, number: int, date: str | None = None) -> None:
        existing = self._row("SELECT date FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))
        if existing is None:
            rounds = self.round_numbers(comp_id)
            if number != (rounds[-1] + 1 if rounds else 1):
                raise StoreError(f"round {number} cannot be created: the next round is {len(rounds) + 1}")
            self.conn.execute("INSERT INTO rounds (competition_id, number, date) VALUES (?, ?, ?)",
                              (comp_id, number, date))
        elif date is not None and existing["date"] != date:
            self.conn.execute("UPDATE rounds SET date = ? WHERE competition_id = ? AND number = ?",
                              (date, comp_id, number))

    def delete_round(self, comp_id: int, number: int) -> None:
        """Remove a round with its games and attendance."""
        for table in ("games", "attendance", "team_matches"):
            self.conn.execute(f"DELETE FROM {table} WHERE competition_id = ? AND round = ?", (comp_id, number))
        self.conn.execute("DELETE FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))

    def set_attendance(self, comp_id: int, number: int, player_id: int, status: str | None,
                       external_result: str | None = None) -> None:
        """Record (or with ``status=None`` clear) one player's attendance in a round."""
        self.conn.execute("DELETE FROM attendance WHERE competition_id = ? AND round = ? AND player_id = ?",
                          (comp_id, number, player_id))
        if status is not None:
            self.conn.execute(
                "INSERT INTO attendance (competition_id, round, player_id, status, external_result) VALUES (?, ?, ?, ?, ?)",
                (comp_id, number, player_id, status, external_result))

    def set_round_attendance(self, comp_id: int, number: int, marks: Mapping[int, tuple[str, str | None]]) -> None:
        """Record many players' attendance in a round at once, as (status, external result)
        by player id: two statements for the lot (an import of a large season)."""
        self.conn.executemany("DELETE FROM attendance WHERE competition_id = ? AND round = ? AND player_id = ?",
                              [(comp_id, number, pid) for pid in marks])
        self.conn.executemany(
            "INSERT INTO attendance (competition_id, round, player_id, status, external_result) VALUES (?, ?, ?, ?, ?)",
            [(comp_id, number, pid, status, ext) for pid, (status, ext) in marks.items()])

    def attendance(self, comp_id: int, number: int) -> dict[int, tuple[str, str | None]]:
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "SELECT player_id, status, external_result FROM attendance WHERE competition_id = ? AND round = ?",
                (comp_id, number))
        }

    def games(self, comp_id: int, number: int) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT board, white, black, result, match, stage FROM games WHERE competition_id = ? AND round = ? "
            "ORDER BY board", (comp_id, number))

    def add_game(self, comp_id: int, number: int, board: int, white: int, black: int,
                 result: str | None = None, match: int | None = None, stage: str | None = None) -> None:
        self.start(comp_id)  # the first game freezes ratings and the initial order
        self.conn.execute(
            "INSERT INTO games (competition_id, round, board, white, black, result, match, stage) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (comp_id, number, board, white, black, result, match, stage))

    # -- teams --------------------------------------------------------------

    def add_team(self, comp_id: int, name: str) -> int:
        name = _clean_name(name)
        if self._row("SELECT id FROM teams WHERE competition_id = ? AND name = ?", (comp_id, name)):
            raise StoreError(f"a team named {name!r} exists already in this competition")
        start_no = self.conn.execute(
            "SELECT coalesce(max(start_no), 0) + 1 FROM teams WHERE competition_id = ?", (comp_id,)).fetchone()[0]
        cur = self.conn.execute("INSERT INTO teams (competition_id, name, start_no) VALUES (?, ?, ?)",
                                (comp_id, name, start_no))
        return _rowid(cur)

    def set_team_members(self, team_id: int, members: list[tuple[int, int, bool]]) -> None:
        """The team's players as (player id, board, reserve), replacing earlier ones."""
        self.conn.execute("DELETE FROM team_members WHERE team_id = ?", (team_id,))
        for player_id, board, reserve in members:
            self.conn.execute("INSERT INTO team_members (team_id, player_id, board, reserve) VALUES (?, ?, ?, ?)",
                              (team_id, player_id, board, int(reserve)))

    def teams(self, comp_id: int) -> list[dict[str, Any]]:
        """Teams in start order, each with ``members``: rows of player key, name, board, reserve."""
        teams = self._rows("SELECT id, name, start_no FROM teams WHERE competition_id = ? ORDER BY start_no",
                           (comp_id,))
        for team in teams:
            team["members"] = self._rows(
                f"SELECT p.id AS player_id, p.key, m.name, {_PLAYER_RATING} AS rating, t.board, t.reserve "
                "FROM team_members t JOIN players p ON p.id = t.player_id JOIN members m ON m.id = p.member_id "
                "JOIN competitions c ON c.id = p.competition_id "
                "WHERE t.team_id = ? ORDER BY t.reserve, t.board", (team["id"],))
        return teams

    def add_team_match(self, comp_id: int, number: int, match: int, first: int, second: int | None) -> None:
        self.conn.execute(
            "INSERT INTO team_matches (competition_id, round, number, first_team, second_team) VALUES (?, ?, ?, ?, ?)",
            (comp_id, number, match, first, second))

    def team_matches(self, comp_id: int) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT round, number, first_team, second_team FROM team_matches WHERE competition_id = ? "
            "ORDER BY round, number", (comp_id,))

    def set_result(self, comp_id: int, number: int, board: int, result: str | None) -> None:
        self.conn.execute("UPDATE games SET result = ? WHERE competition_id = ? AND round = ? AND board = ?",
                          (result, comp_id, number, board))

    def delete_games(self, comp_id: int, number: int, boards: list[int] | None = None) -> None:
        if boards is None:
            self.conn.execute("DELETE FROM games WHERE competition_id = ? AND round = ?", (comp_id, number))
        else:
            for board in boards:
                self.conn.execute("DELETE FROM games WHERE competition_id = ? AND round = ? AND board = ?",
                                  (comp_id, number, board))
        self.forget_boards(comp_id, number, boards)  # the links printed for those boards die with them

    def update_game(self, comp_id: int, number: int, board: int, white: int, black: int) -> None:
        self.conn.execute(
            "UPDATE games SET white = ?, black = ? WHERE competition_id = ? AND round = ? AND board = ?",
            (white, black, comp_id, number, board))
        self.forget_boards(comp_id, number, [board])  # its printed slip names other players now

    # -- the model ----------------------------------------------------------

    def load_season(self, comp_id: int) -> Season:
        """The competition as the engines see it."""
        comp = self._row("SELECT * FROM competitions WHERE id = ?", (comp_id,))
        assert comp is not None
        settings = Settings.from_dict(json.loads(comp["settings"]))
        rows = self.players(comp_id)
        key_of = {r["id"]: r["key"] for r in rows}
        players = tuple(
            Player(r["key"], r["name"], r["rating"], r["start_no"], r["joined"], r["withdrawn_after"], r["category"])
            for r in rows
        )
        attendance: dict[int, dict[str, tuple[str, str | None]]] = {}
        for pid, number, status, ext in self.conn.execute(
            "SELECT player_id, round, status, external_result FROM attendance WHERE competition_id = ?", (comp_id,)
        ):
            attendance.setdefault(number, {})[key_of[pid]] = (status, ext)
        games: dict[int, list[Game]] = {}
        for number, board, white, black, result, match, stage in self.conn.execute(
            "SELECT round, board, white, black, result, match, stage FROM games WHERE competition_id = ? "
            "ORDER BY round, board", (comp_id,),
        ):
            games.setdefault(number, []).append(
                Game(number, board, key_of[white], key_of[black], Result(result) if result else None, match, stage))
        plan = json.loads(comp["time_controls"])
        rounds = []
        for number, date, time_control in self.conn.execute(
            "SELECT number, date, time_control FROM rounds WHERE competition_id = ? ORDER BY number", (comp_id,)
        ):
            round_games = tuple(games.get(number, ()))
            in_game = {g.white for g in round_games} | {g.black for g in round_games}
            absent: dict[str, Absence] = {}
            external: dict[str, ExternalResult] = {}
            present = []
            for key, (status, ext) in attendance.get(number, {}).items():
                if key in in_game:
                    continue
                if status == "present":
                    present.append(key)
                elif status == "external":
                    external[key] = ExternalResult(ext)
                else:
                    absent[key] = Absence(status)
            start = {p.id: p.start_no for p in players}
            rounds.append(Round(number, date, round_games, absent, external,
                                tuple(sorted(present, key=start.__getitem__)),
                                time_control or planned_time_control(plan, number)))
        frozen = json.loads(comp["system_settings"]).get("frozen_order") if comp["started"] else None
        order = frozen if frozen is not None else json.loads(comp["initial_order"])
        return Season(comp["name"], settings, players, tuple(rounds), tuple(order))

    def preset(self, comp_id: int) -> str:
        row = self._row("SELECT preset FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return row["preset"]


    def round_date(self, comp_id: int, number: int) -> str | None:
        row = self._row("SELECT date FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))
        return row["date"] if row else None

    def round_dates(self) -> list[str]:
        """Every date a round of any competition is played on, in order."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT date FROM rounds WHERE date IS NOT NULL ORDER BY date")]

def _check(path: Path) -> tuple[sqlite3.Connection, int]:
    """A connection to the keizer database at ``path`` and its schema version; files that
    are not SQLite, not keizer's or from a newer keizer are refused without a change."""
    conn = _connect(path)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        conn.close()
        if _code(e) == sqlite3.SQLITE_NOTADB:
            raise StoreError(f"{path} is not a keizer database (not an SQLite file)") from None
        raise StoreError(explain(e, path) or f"cannot read {path}: {e}") from None
    if app_id != APPLICATION_ID:
        conn.close()
        raise StoreError(f"{path} is not a keizer database; pass --db with the club's season file")
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError(
            f"{path} was written by a newer keizer (schema {version}, this program reads {SCHEMA_VERSION}); upgrade keizer"
        )
    return conn, version


def backup(path: Path, target: Path, overwrite: bool = False) -> None:
    """Copy the keizer database at ``path`` to ``target`` with SQLite's online backup API:
    a consistent copy even while another process writes (a plain file copy can be torn).
    The copy is written beside ``target``, checked to open as this database, and only then
    renamed into place, so a failed backup leaves no half-written file and an existing
    ``target`` (replaced only with ``overwrite``) untouched."""
    if target.is_dir():
        raise StoreError(f"{target} is a folder: give the name of the backup file")
    if target.exists() and not overwrite:
        raise StoreError(f"{target} exists already: choose another file name, or pass --force to replace it")
    if target.exists() and target.resolve() == path.resolve():
        raise StoreError(f"{target} is the database itself: back it up to another file")
    if not target.parent.is_dir():
        raise StoreError(f"there is no folder {target.parent}: create it first, or back up to another folder")
    _require_file(path)
    conn, version = _check(path)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    part = Path(name)
    deadline = time.monotonic() + busy_timeout()

    def waiting(status: int, remaining: int, total: int) -> None:
        # Python retries a locked source for ever; give up like any command that waits.
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise StoreError(_busy(path))

    try:
        copy = sqlite3.connect(str(part))
        try:
            conn.backup(copy, progress=waiting)
        finally:
            copy.close()
        checked, copied = _check(part)
        ok = checked.execute("PRAGMA quick_check").fetchone()[0]
        checked.close()
        if ok != "ok" or copied != version:
            raise StoreError(f"the copy of {path} does not check out ({ok}); nothing was written to {target}")
        os.chmod(part, path.stat().st_mode & 0o777)  # mkstemp made it private
        os.replace(part, target)
    except sqlite3.Error as e:  # the source is checked above: this is about writing the copy
        raise StoreError(explain(e, target) or f"cannot back up {path}: {e}") from None
    finally:
        conn.close()
        part.unlink(missing_ok=True)


def planned_time_control(plan: list[dict[str, Any]], number: int) -> str | None:
    """The time control a plan gives round ``number`` (the last matching entry wins)."""
    found = None
    for p in plan:
        if p["from"] <= number and (p["to"] is None or number <= p["to"]):
            found = p["time_control"]
    return found


def _covers(first: int, last: int | None, a_from: int, a_to: int | None) -> bool:
    """Whether rounds first…last include all of a_from…a_to (None: open-ended)."""
    return first <= a_from and (last is None or (a_to is not None and a_to <= last))


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def season_of(moment: str) -> str:
    """The club season a date falls in: seasons run from August to July.

    >>> season_of("2025-09-09T19:00:00+00:00"), season_of("2026-03-01")
    ('2025-2026', '2025-2026')
    """
    year, month = int(moment[:4]), int(moment[5:7])
    first = year if month >= 8 else year - 1
    return f"{first}-{first + 1}"


def _clean_season(season: str) -> str:
    try:
        return clean_text(season, "a season name", 50)
    except ValueError as e:
        raise StoreError(str(e)) from None

