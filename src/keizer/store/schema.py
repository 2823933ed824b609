"""The schema of a season database: the tables of version 1 and the migrations since, the
triggers that log each row change for undo, and opening a file (checking it is keizer's,
then creating or upgrading its schema)."""

from __future__ import annotations

import functools
import os
import re

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Self

import sqlite_utils

from keizer.limits import is_digits
from keizer.store.competitions import Competitions, season_of
from keizer.store.database import StoreError, _code, _connect, _require_file, explained, read_between_commits

#: PRAGMA application_id of a keizer database ("KZR1").
APPLICATION_ID = 0x4B5A5231
SCHEMA_VERSION = 14

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
            "board_reports", "member_mail", "mail_links", "checkins")

#: The key the venue's check-in codes are made with, random for each database (schema 11).
_CHECKIN_KEY = "INSERT OR IGNORE INTO app_secrets (name, value) VALUES ('checkin', lower(hex(randomblob(16))))"

_ADD_COLUMN = re.compile(r"\s*ALTER TABLE (?P<table>\w+) ADD COLUMN (?P<column>\w+) ", re.IGNORECASE)

#: MIGRATIONS[v] upgrades a database from schema version v to v+1.  A new database is made
#: with the statements of one made at version 1 and upgraded (see :func:`_today`), so every
#: step is exercised by each process that makes one.
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
    # The change log in the club's language: a change's summary and origin also as messages
    # (JSON: id and values), which the app words; the English text stays for 'keizer log'
    # and for the entries made before.
    9: "ALTER TABLE changes ADD COLUMN said TEXT",
    # Members help themselves: an e-mail address and an opt-out of the week's mail
    # (member_mail); the member links made for a mail (mail_links: the next mail's link
    # replaces it, the officer's link stays); the check-ins of members at the venue (a
    # check-in counts as present when the round's attendance is prepared); the log of the
    # mails sent and the key the venue's check-in codes are made with (both kept out of the
    # change log: what went out went out, and an undo never changes a printed code).  Tables
    # of their own, made only if missing: the step can run again on a file that has them.
    10: """
    CREATE TABLE IF NOT EXISTS member_mail (
        member_id INTEGER PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        address TEXT,
        opt_out INTEGER NOT NULL DEFAULT 0 CHECK (opt_out IN (0, 1))
    );
    CREATE TABLE IF NOT EXISTS mail_links (
        link_id INTEGER PRIMARY KEY REFERENCES member_links(id) ON DELETE CASCADE
    );
    CREATE TABLE IF NOT EXISTS checkins (
        competition_id INTEGER NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        PRIMARY KEY (competition_id, round, player_id)
    );
    CREATE TABLE IF NOT EXISTS mail_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        competition_id INTEGER,
        round INTEGER,
        member_id INTEGER,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        subject TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
        reason TEXT
    );
    CREATE TABLE IF NOT EXISTS app_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    """ + _CHECKIN_KEY,
    # Careers and K: a member's year of birth and the K of FIDE's list (what FIDE's K 40 for
    # newcomers and juniors depends on, B.02 8.3.3), and whether the member's career across
    # seasons may be published on the site (a member may say no: no career page, no link).
    11: """
    ALTER TABLE members ADD COLUMN birth_year INTEGER CHECK (birth_year IS NULL OR birth_year BETWEEN 1900 AND 2100);
    ALTER TABLE members ADD COLUMN fide_k INTEGER CHECK (fide_k IS NULL OR fide_k BETWEEN 1 AND 40);
    ALTER TABLE members ADD COLUMN career_public INTEGER NOT NULL DEFAULT 1 CHECK (career_public IN (0, 1))
    """,
    # A stamp per round (issue 25): a random value that every write to the round's games or
    # attendance, and making or removing the round, replaces (the triggers are _STAMPS, made
    # with the undo triggers), so a reader reads again only the rounds whose stamp it has not
    # seen (keizer.store.rounds_read).  Not in the change log: an undo's writes stamp anew.
    # Every round there is gets a stamp now.
    12: """
    CREATE TABLE IF NOT EXISTS round_stamps (
        competition_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        stamp BLOB NOT NULL,
        PRIMARY KEY (competition_id, round)
    );
    INSERT OR REPLACE INTO round_stamps (competition_id, round, stamp)
        SELECT competition_id, number, randomblob(8) FROM rounds
    """,
    # The undo entries by change: each change finds its own (those with no change yet) three
    # times, and an undo those of the change it reverts; without it each scanned the whole log
    # (45,000 entries after a 600-player 52-round season: 4 ms of every change; docs/database.md).
    13: "CREATE INDEX IF NOT EXISTS undo_log_by_change ON undo_log (change_id)",
}

def _database(conn: sqlite3.Connection | None = None) -> sqlite_utils.Database:
    """sqlite-utils over the club's connection (None: a database in memory), without its
    plugins: keizer uses none, no package installed beside it may change the club's
    connection, and looking for them (``importlib.metadata`` over every installed package)
    cost every command 20-30 ms."""
    return sqlite_utils.Database(conn, memory=conn is None, execute_plugins=False)


#: The triggers that give a round a new stamp (schema 13): by table, the rows (old, new)
#: whose round a write of each kind touches, and the column naming the round.
_STAMPS = {"games": "round", "attendance": "round", "rounds": "number"}


class Schema(Competitions):
    """Making a database and opening one: the file checked, a new schema created or an older
    one upgraded.  Built on the competitions, whose past the upgrade to schema 5 freezes."""

    @classmethod
    def open(cls, path: str | Path, create: bool = False, defer_upgrade: bool = False,
             replace_empty: bool = False) -> Self:
        """Open a keizer database; with ``create``, make it if it does not exist (and, with
        ``replace_empty``, in place of an empty file: only 'keizer init' does that, since an
        empty club.db may be a season that was lost and should be restored, not replaced).

        Refuses files that are not keizer databases, and databases written by a
        newer keizer, without changing them.  An older schema is upgraded; with
        ``defer_upgrade`` the upgrade stays uncommitted until :meth:`commit_upgrade`
        (a command that fails leaves the old file as it was: :meth:`rollback_upgrade`).
        A new schema too: with ``defer_upgrade`` the new file's schema and the command's
        change are one transaction, and a rollback leaves the file as it was before, 0 bytes
        (the caller removes a file it made; an empty file 'keizer init' was given stays).
        """
        path = Path(path)
        _wait_for_maker(path)
        if not path.exists() or path.stat().st_size == 0:
            if not create or (path.exists() and not replace_empty):
                _require_file(path)
            existed = path.exists()  # an empty file becomes the database in place: a rollback leaves it empty
            store = cls(_database(_connect(path)))
            store.path = path
            try:
                store._create(commit=not defer_upgrade, file=_identity(path))
            except _MadeMeanwhile:  # another command made it (or removed it) while this one waited
                store.close()
                return cls.open(path, create=create, defer_upgrade=defer_upgrade)
            except BaseException:  # e.g. a full disk: leave no half-made file behind
                store.close()
                if not existed:
                    path.unlink(missing_ok=True)
                raise
            store._upgrading = defer_upgrade
            store.made = not existed
            return store
        conn, version = _check(path)
        store = cls(_database(conn))
        store.path = path
        if version < SCHEMA_VERSION:
            store._migrate(version, commit=not defer_upgrade)
        return store

    @property
    def upgrading(self) -> bool:
        """An upgrade of the schema is open, waiting for commit or rollback."""
        return self._upgrading

    def commit_upgrade(self) -> None:
        """Commit the upgrade (or new schema) and what the command wrote inside it; a commit that
        fails (a full disk) is rolled back and raised as the refusal that says so."""
        if self._upgrading:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as e:
                self.rollback_upgrade()
                refusal = explained(e, self.path) if self.path is not None else None
                if refusal is not None:
                    raise refusal from None
                raise
            self._upgrading = False

    def rollback_upgrade(self) -> None:
        if self._upgrading:
            if self.conn.in_transaction:  # a failed COMMIT (disk full) may have ended it already
                self.conn.execute("ROLLBACK")
            self._upgrading = False

    @classmethod
    def memory(cls) -> Self:
        store = cls(_database())
        store._create()
        return store

    def _create(self, commit: bool = True, file: tuple[int, int] | None = None) -> None:
        """Today's schema in a new database, in one transaction: the tables, indexes and
        triggers of a database made at version 1 and upgraded (:func:`_today`, recorded once
        per process), and the rows a new database starts with (:data:`_FIRST_ROWS`).  The
        same file as making it at version 1 and upgrading it, in about half the CPU time (the
        triggers are most of what is left; tests/test_schema_today.py holds the two equal).
        ``file``: the identity of the new file as it was opened; if another command has made a
        schema in it, or removed or replaced it, by the time the writer's lock is held, nothing is
        made (:class:`_MadeMeanwhile`)."""
        objects, triggers = _today(SCHEMA_VERSION, tuple(MIGRATIONS.items()), _SCHEMA_V1)
        with self._schema_change(commit, immediate=file is not None):
            # with the writer's lock: a command that waited for another to make the file opens it instead
            if file is not None and (_identity(self.path) != file
                                     or self.conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()):
                raise _MadeMeanwhile
            for statement in (*objects, *_FIRST_ROWS, *triggers):
                self.conn.execute(statement)
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _build(self) -> None:
        """Today's schema the long way: version 1, then every migration (what :func:`_today`
        records)."""
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
    def _schema_change(self, commit: bool = True, immediate: bool = False) -> Iterator[None]:
        """One transaction around DDL (Python's sqlite3 would commit it piecemeal);
        without ``commit`` it stays open, and later changes nest inside it; ``immediate``: the
        writer's lock taken at once."""
        self.conn.isolation_level = None
        try:
            self.conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
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
            added = _ADD_COLUMN.match(statement)
            if added and version >= 11 and added["column"] in {
                    r[1] for r in self.conn.execute(f"PRAGMA table_info({added['table']})")}:
                continue  # from schema 12 a step can run again on a file that has its columns
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
        for table, column in _STAMPS.items():
            for kind, rows in (("insert", ("new",)), ("update", ("old", "new")), ("delete", ("old",))):
                self.conn.execute(f"DROP TRIGGER IF EXISTS stamp_{table}_{kind}")
                stamps = " ".join(
                    f"INSERT OR REPLACE INTO round_stamps (competition_id, round, stamp) "
                    f"VALUES ({row}.competition_id, {row}.{column}, randomblob(8));" for row in rows)
                self.conn.execute(f"CREATE TRIGGER stamp_{table}_{kind} AFTER {kind.upper()} ON {table} BEGIN {stamps} END")
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


#: The rows a new database starts with: what the migrations write into an empty one.
_FIRST_ROWS = (_CHECKIN_KEY,)


@functools.lru_cache(maxsize=4)
def _today(version: int, migrations: tuple[tuple[int, str], ...], first: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The statements that make today's schema, read from a database in memory made at version
    1 and upgraded (``sqlite_master`` in the order it was made): the tables and indexes, and
    the triggers (made after :data:`_FIRST_ROWS`, as the upgrade makes them after the rows).
    The arguments are what it is made from (a test may change them), the key it is kept by."""
    store = Schema(_database())
    try:
        store._build()
        made = store.conn.execute("SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").fetchall()
    finally:
        store.close()
    return (tuple(sql for kind, sql in made if kind != "trigger"), tuple(sql for kind, sql in made if kind == "trigger"))


def _check(path: Path) -> tuple[sqlite3.Connection, int]:
    """A connection to the keizer database at ``path`` and its schema version; files that
    are not SQLite, not keizer's or from a newer keizer are refused without a change.  The
    file is read between a busy writer's commits (:func:`~keizer.store.database.read_between_commits`)."""
    conn = _connect(path)
    try:
        (app_id,), (version,) = read_between_commits(conn, "PRAGMA application_id", "PRAGMA user_version")
    except sqlite3.DatabaseError as e:
        conn.close()
        if _code(e) == sqlite3.SQLITE_NOTADB:
            raise StoreError("%(path)s is not a keizer database (not an SQLite file)", path=path) from None
        raise explained(e, path) or StoreError("cannot read %(path)s: %(why)s", path=path, why=str(e)) from None
    if app_id != APPLICATION_ID:
        conn.close()
        raise StoreError("%(path)s is not a keizer database", hint="store_not_keizer", path=path)
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError("%(path)s was written by a newer keizer (schema %(version)s, this program reads %(reads)s); "
                         "upgrade keizer", path=path, version=version, reads=SCHEMA_VERSION)
    return conn, version


class _MadeMeanwhile(Exception):
    """Another command made the new file's schema, or removed the file, while this one waited."""


def _identity(path: Path | None) -> tuple[int, int] | None:
    """The file at ``path`` (its device and inode), or None where there is none."""
    try:
        found = os.stat(path) if path is not None else None
    except FileNotFoundError:
        return None
    return None if found is None else (found.st_dev, found.st_ino)


def _wait_for_maker(path: Path) -> None:
    """An empty file with a journal beside it is being made by another command, whose schema and
    change are not committed yet (:meth:`Schema.open`): wait for it, up to the busy timeout, as
    for any writer, rather than call the file empty."""
    if not (path.exists() and path.stat().st_size == 0 and Path(f"{path}-journal").exists()):
        return
    conn = _connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE")  # the writer's lock, once it has committed (or rolled back)
        conn.execute("ROLLBACK")
    except sqlite3.Error as e:
        raise explained(e, path) or StoreError("cannot read %(path)s: %(why)s", path=path, why=str(e)) from None
    finally:
        conn.close()


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]

