"""The database under stress: a full disk, a busy file, undo of someone else's work,
backups made while others write, and imports that stay linear in the size of the file."""

from __future__ import annotations

import gc
import getpass
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from keizer.operations import competition as ops
from keizer.formats.season_json import dump
from keizer.model import Game, Player, Result, Round, Season
from keizer.settings import Settings
from keizer.store import Store, StoreError
from test_cli import digest, run

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_V1 = Path(__file__).resolve().parent / "data" / "schema-v1.db"


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def no_journal(db: Path) -> bool:
    return not any(Path(f"{db}{suffix}").exists() for suffix in ("-journal", "-wal", "-shm"))


def big_season(players: int, rounds: int = 3, name: str = "Groot") -> Season:
    """``players`` players, every one paired in each of ``rounds`` rounds."""
    roster = tuple(Player(f"p{i}", f"Speler {i}", 2400 - i % 1000, start_no=i) for i in range(1, players + 1))
    built = []
    for r in range(1, rounds + 1):
        order = [p.id for p in roster[r - 1:]] + [p.id for p in roster[:r - 1]]
        games = tuple(Game(r, k // 2 + 1, order[k], order[k + 1], Result.WHITE_WIN)
                      for k in range(0, players - 1, 2))
        built.append(Round(r, None, games, {}, {}))
    return Season(name, Settings.from_preset("classic"), roster, tuple(built))


def season_file(folder: Path, players: int, name: str = "Groot") -> Path:
    path = folder / f"{name}-{players}.json"
    path.write_text(json.dumps(dump(big_season(players, name=name), "classic")), encoding="utf-8")
    return path


@pytest.fixture
def club(tmp_path, capsys) -> Path:
    db = tmp_path / "club.db"
    for name in ("Anna de Vries", "Bram Jansen", "Gé 🐴 Paard", "Dirk O'Neill"):
        assert run(capsys, db, "member", "add", name, "--rating", "1800")[0] == 0
    assert run(capsys, db, "competition", "create", "Interne", "--all-members")[0] == 0
    return db


# -- a full disk ----------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs of our own, to fill up (needs root, as in CI)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this machine cannot mount a tmpfs: {' '.join(done.stderr.split())}")
    yield mount
    gc.collect()  # close connections the failed commands left to the garbage collector
    subprocess.run(["umount", "-l", str(mount)], check=False)


def leave_free(mount: Path, kib: int) -> None:
    """Fill the file system up to ``kib`` KiB of free space."""
    filler = mount / "filler"
    filler.unlink(missing_ok=True)
    stat = os.statvfs(mount)
    fill = stat.f_bavail * stat.f_frsize - kib * 1024
    if fill > 0:
        with open(filler, "wb") as f:
            f.write(b"\0" * fill)


def fill_sweep(capsys, mount: Path, original: Path | None, args: list[str]) -> int:
    """Run ``keizer args`` with ever more free space (8 KiB more each time) until it
    succeeds; every failure must be the one line about the disk, with the database as it
    was (or, made by the command, absent) and no journal.  Returns the failures seen."""
    db = mount / "club.db"
    failures = 0
    for kib in range(0, 2048, 8):
        gc.collect()  # connections of earlier failed runs must not keep deleted files on the disk
        for leftover in mount.iterdir():
            leftover.unlink()
        if original is not None:
            shutil.copyfile(original, db)
            before = digest(db)
        leave_free(mount, kib)
        code, _, err = run(capsys, db, *args)
        if code == 0:
            return failures
        failures += 1
        assert one_line(err) == (f"error: the disk is full: free space on {mount} and run the command again; "
                                 "nothing was changed"), (kib, err)
        if original is None:
            assert not db.exists(), kib
        else:
            assert digest(db) == before, kib
        assert no_journal(db), (kib, sorted(p.name for p in mount.iterdir()))
    raise AssertionError("the command never succeeded on the small disk")


@pytest.mark.slow  # 4 s: the import run on a disk ever less full
def test_full_disk_import_changes_nothing_and_leaves_no_journal(small_disk, club, tmp_path, capsys):
    imported = season_file(tmp_path, 120)
    assert fill_sweep(capsys, small_disk, club, ["import", str(imported)]) > 0
    assert "Groot" in run(capsys, small_disk / "club.db", "competition", "list")[1]


@pytest.mark.slow  # 2-3.5 s: the command run on a disk ever less full
def test_full_disk_while_upgrading_an_old_file(small_disk, capsys):
    # The upgrade of schema 1 and the command commit together, at the very end.
    assert fill_sweep(capsys, small_disk, SCHEMA_V1, ["member", "add", "Xavier"]) > 0


@pytest.mark.slow  # 3.5-4.5 s: the command run on a disk ever less full
def test_full_disk_creating_a_new_file_leaves_no_file(small_disk, capsys):
    assert fill_sweep(capsys, small_disk, None, ["member", "add", "Xavier"]) > 0


def test_sqlite_full_inside_a_change_rolls_back(club):
    """SQLITE_FULL provoked deterministically: the file may not grow by a page."""
    before = digest(club)
    store = Store.open(club)
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError, match=r"^the disk is full: free space on .* nothing was changed$"):
        with store.change("member add", "many members"):
            for i in range(2000):
                store.add_member(f"Lid {i} " + "x" * 150)
    assert not store.conn.in_transaction
    store.close()
    assert digest(club) == before and no_journal(club)


# -- a busy database ------------------------------------------------------------------


class Holder:
    """Another program holding the database's write lock (``IMMEDIATE``: others may
    still read) or every lock (``EXCLUSIVE``, as while a writer commits)."""

    def __init__(self, db: Path, mode: str) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.conn.execute(f"BEGIN {mode}")
        self.conn.execute("UPDATE meta SET value = value")

    def release(self, after: float = 0.0) -> None:
        time.sleep(after)
        self.conn.execute("ROLLBACK")
        self.conn.close()


BUSY = ("error: {db} is busy: another keizer command (or program) is writing to it; waited 0.3 s; "
        "try again when it has finished")


@pytest.mark.parametrize("args", [["member", "add", "Eva"], ["undo", "--yes"], ["attend", "-e", "Anna"]])
def test_a_writer_waits_then_reports_busy(club, capsys, monkeypatch, args):
    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "0.3")
    before = digest(club)
    holder = Holder(club, "IMMEDIATE")
    start = time.monotonic()
    code, _, err = run(capsys, club, *args)
    waited = time.monotonic() - start
    holder.release()
    assert code == 1 and one_line(err) == BUSY.format(db=club)
    assert waited >= 0.3
    assert digest(club) == before and no_journal(club)


def test_a_locked_file_is_busy_not_foreign(club, capsys, monkeypatch):
    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "0.3")
    holder = Holder(club, "EXCLUSIVE")
    code, _, err = run(capsys, club, "standings")
    holder.release()
    assert code == 1 and one_line(err) == BUSY.format(db=club)
    assert run(capsys, club, "standings")[0] == 0


def test_a_writer_waits_for_another_to_finish(club, capsys, monkeypatch):
    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "20")
    holder = Holder(club, "EXCLUSIVE")
    threading.Thread(target=holder.release, args=(0.5,)).start()
    code, out, err = run(capsys, club, "member", "add", "Eva")
    assert code == 0 and "Eva" in out, err


def test_the_default_wait_suits_a_long_command(club, monkeypatch):
    monkeypatch.delenv("KEIZER_BUSY_TIMEOUT", raising=False)
    store = Store.open(club)
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 10_000
    store.close()


def test_a_bad_busy_timeout_is_one_line(club, capsys, monkeypatch):
    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "soon")
    code, _, err = run(capsys, club, "standings")
    assert code == 1 and "KEIZER_BUSY_TIMEOUT='soon'" in one_line(err)


def test_an_empty_file_is_empty_not_missing(tmp_path, capsys):
    db = tmp_path / "club.db"
    db.write_bytes(b"")
    # Writing commands that would create a new file do not replace an empty one either: it
    # may be a lost season, to be restored from a backup.
    for args in (["standings"], ["undo"], ["backup", str(tmp_path / "copy.db")], ["member", "add", "Anna"],
                 ["competition", "create", "Interne"]):
        code, _, err = run(capsys, db, *args)
        assert code == 1 and one_line(err) == (f"error: {db} is empty (0 bytes), not a keizer database: restore "
                                               "it from a backup, or run 'keizer init' to start a new season in it")
        assert db.exists() and db.stat().st_size == 0
    assert not (tmp_path / "copy.db").exists()
    assert run(capsys, db, "init")[0] == 0 and run(capsys, db, "member", "add", "Anna")[0] == 0


def test_a_file_that_is_not_sqlite_is_still_called_so(tmp_path, capsys):
    db = tmp_path / "club.db"
    db.write_text("name;rating\nAnna;1800\n" * 100, encoding="utf-8")
    code, _, err = run(capsys, db, "standings")
    assert code == 1 and one_line(err) == f"error: {db} is not a keizer database (not an SQLite file)"


# -- undo of someone else's work ----------------------------------------------------


def test_undo_says_what_it_reverted(club, capsys):
    assert run(capsys, club, "member", "add", "Eva Müller")[0] == 0
    code, out, _ = run(capsys, club, "undo")
    assert code == 0
    assert out.startswith("undone: 'member add' of 20") and out.rstrip().endswith(": add member Eva Müller")
    assert "Eva" not in run(capsys, club, "member", "list")[1]


def undo_at_a_terminal(db: Path, answer: str, *extra: str) -> tuple[int, str]:
    """``keizer undo`` with a terminal (a pseudo-terminal) as its input."""
    leader, follower = os.openpty()
    try:
        os.write(leader, answer.encode())
        done = subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "undo", *extra], stdin=follower,
                              capture_output=True, text=True, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    return done.returncode, done.stdout + done.stderr


def test_undo_at_a_terminal_asks_first(club, capsys):
    assert run(capsys, club, "member", "add", "Eva Müller")[0] == 0
    before = digest(club)
    code, shown = undo_at_a_terminal(club, "n\n")
    assert code == 1 and "the last change is 'member add' of " in shown and "add member Eva Müller" in shown
    assert "undo it? [y/N]" in shown and "aborted: nothing was changed" in shown
    assert f" by {getpass.getuser()} on {socket.gethostname()}: add member" in shown  # whose work it is
    assert digest(club) == before
    code, shown = undo_at_a_terminal(club, "y\n")
    assert code == 0 and "undone: 'member add'" in shown
    assert "Eva" not in run(capsys, club, "member", "list")[1]


def test_undo_yes_does_not_ask(club, capsys):
    assert run(capsys, club, "member", "add", "Eva Müller")[0] == 0
    code, shown = undo_at_a_terminal(club, "", "--yes")
    assert code == 0 and "undo it?" not in shown and "undone: 'member add'" in shown


def test_undo_refuses_when_the_log_moved_on(club):
    store = Store.open(club)
    shown = store.last_change()
    with store.change("member add", "add member Eva"):  # another command, while the user decided
        store.add_member("Eva")
    with pytest.raises(StoreError, match="another command wrote to the database meanwhile"):
        store.undo(shown["id"])
    assert store.last_change()["summary"] == "add member Eva"
    store.close()


# -- backups --------------------------------------------------------------------------


def test_backup_copies_a_database_that_opens(club, tmp_path, capsys):
    copy = tmp_path / "copy.db"
    code, out, _ = run(capsys, club, "backup", str(copy))
    assert code == 0 and str(copy) in out
    assert run(capsys, copy, "standings", "--format", "json")[1] == run(capsys, club, "standings", "--format", "json")[1]
    assert run(capsys, copy, "log")[1] == run(capsys, club, "log")[1]


def test_backup_refuses_to_overwrite_without_force(club, tmp_path, capsys):
    copy = tmp_path / "copy.db"
    copy.write_text("last week's backup", encoding="utf-8")
    code, _, err = run(capsys, club, "backup", str(copy))
    assert code == 1 and one_line(err) == (f"error: {copy} exists already: choose another file name, "
                                           "or pass --force to replace it")
    assert copy.read_text(encoding="utf-8") == "last week's backup"
    assert run(capsys, club, "backup", str(copy), "--force")[0] == 0
    assert run(capsys, copy, "member", "list")[0] == 0


def test_backup_refuses_what_is_not_a_keizer_database(tmp_path, capsys):
    foreign = tmp_path / "other.db"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    code, _, err = run(capsys, foreign, "backup", str(tmp_path / "copy.db"))
    assert code == 1 and "is not a keizer database" in one_line(err)
    assert [p.name for p in tmp_path.iterdir()] == ["other.db"]


def test_backup_leaves_out_what_another_writer_has_not_committed(club, tmp_path, capsys):
    holder = Holder(club, "IMMEDIATE")
    holder.conn.execute("INSERT INTO members (name) VALUES ('Uncommitted')")
    copy = tmp_path / "copy.db"
    assert run(capsys, club, "backup", str(copy))[0] == 0
    holder.release()
    assert "Uncommitted" not in run(capsys, copy, "member", "list")[1]


def test_backup_of_a_locked_file_gives_up_like_a_writer(club, tmp_path, capsys, monkeypatch):
    """Another writer starts committing between the check of the file and the copy."""
    from keizer.store import backups

    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "0.3")
    holders = []
    check = backups._check

    def check_then_lock(path: Path):
        found = check(path)
        if path == club:
            holders.append(Holder(club, "EXCLUSIVE"))
        return found

    monkeypatch.setattr(backups, "_check", check_then_lock)
    copy = tmp_path / "copy.db"
    code, _, err = run(capsys, club, "backup", str(copy))
    holders[0].release()
    assert code == 1 and one_line(err) == BUSY.format(db=club)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db"]


def test_backup_while_another_process_writes_is_consistent(club, tmp_path, capsys):
    """A writer adds members as fast as it can while backups are made: each copy passes
    SQLite's integrity check and holds a committed state (members 1…k, each change logged)."""
    stop = threading.Event()

    def write() -> None:
        store = Store.open(club)
        k = 0
        while not stop.is_set():
            k += 1
            with store.change("member add", f"add member W{k}"):
                store.add_member(f"W{k}" + " " + "x" * 150)
        store.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for n in range(5):
            copy = tmp_path / f"copy{n}.db"
            assert run(capsys, club, "backup", str(copy))[0] == 0
            conn = sqlite3.connect(copy)
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            ids = [r[0] for r in conn.execute("SELECT id FROM members ORDER BY id")]
            assert ids == list(range(1, len(ids) + 1))
            logged = conn.execute("SELECT count(*) FROM changes WHERE command = 'member add'").fetchone()[0]
            assert logged == len(ids)
            conn.close()
    finally:
        stop.set()
        writer.join()


def test_a_backup_gets_in_between_the_commits_of_a_busy_writer(club, tmp_path, capsys):
    """A writer that leaves the file free only for moments (here 2 ms after each 30 ms it holds
    it, as a writer committing again and again does): the backup reads in one of those moments.
    SQLite's own wait tries ever more seldom (after 1, 2, 5 … ms, then every 100 ms) and missed
    them for seconds (1.5 s on average for each backup here); the backup tries every
    millisecond."""
    stop = threading.Event()
    holding = threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(club, isolation_level=None)
        while not stop.is_set():
            conn.execute("BEGIN EXCLUSIVE")
            holding.set()
            time.sleep(0.030)
            conn.execute("COMMIT")
            time.sleep(0.002)
        conn.close()

    writer = threading.Thread(target=hold)
    writer.start()
    try:
        holding.wait()
        started = time.monotonic()
        for n in range(3):
            assert run(capsys, club, "backup", str(tmp_path / f"copy{n}.db"))[0] == 0
        took = time.monotonic() - started
    finally:
        stop.set()
        writer.join()
    assert took < 1.5, took
    for n in range(3):
        assert sqlite3.connect(tmp_path / f"copy{n}.db").execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_keizer_commits_wait_for_the_disk(tmp_path, monkeypatch):
    """The tests' transactions commit without waiting for the disk (tests/disk_sync.py);
    keizer's own do wait: it leaves SQLite's ``synchronous = FULL`` and a rollback journal, and
    sets neither anywhere."""
    import disk_sync
    from keizer.store.changes import Changes
    from keizer.store.schema import Schema

    monkeypatch.setattr(Changes, "_write_transaction", disk_sync.WRITE_TRANSACTION)
    monkeypatch.setattr(Schema, "_schema_change", disk_sync.SCHEMA_CHANGE)
    store = Store.open(tmp_path / "club.db", create=True)
    with store.change("member add", "add"):
        store.add_member("Anna")
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    sources = Path(__file__).resolve().parents[1] / "src" / "keizer"
    assert not [p for p in sources.rglob("*.py") if "synchronous" in p.read_text(encoding="utf-8").lower()]


# -- imports stay linear ------------------------------------------------------------


def sqlite_work(players: int) -> int:
    """SQLite's work (virtual-machine steps, in thousands) to import a season of
    ``players`` players, three rounds: a measure that does not depend on the machine."""
    store = Store.memory()
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    store.conn.set_progress_handler(count, 1000)
    with store.change("import", "import"):
        ops.import_season(store, big_season(players))
    return steps[0]


def test_an_import_is_linear_in_the_number_of_players():
    small, large = sqlite_work(300), sqlite_work(1200)
    assert large < 5 * small, (small, large)  # quadratic work would be ~16 times


def test_an_import_matches_existing_members_by_name(tmp_path):
    """A member with the same name is reused once (the same rating first, else the one of
    that name: a rating list may have changed it); a namesake in the file becomes a new
    member; a name that fits two members is refused rather than guessed."""
    store = Store.open(tmp_path / "club.db", create=True)
    with store.change("member add", "members"):
        anna = store.add_member("Anna", 1800)
        cor = store.add_member("Cor", 1650)
        store.add_member("Bram", 1700)
        store.add_member("Bram", 1700)
    roster = (Player("a", "Anna", 1800, start_no=1), Player("c", "cor", 1600, start_no=2),
              Player("a2", "Anna", 1800, start_no=3), Player("d", "Anna", 1900, start_no=4))
    told: list[str] = []
    with store.change("import", "import"):
        comp = ops.import_season(store, Season("S", Settings.from_preset("classic"), roster, ()), tell=told.append)
    players = {r["key"]: r["member_id"] for r in store.players(comp)}
    assert players["a"] == anna and players["c"] == cor
    assert len(set(players.values())) == 4 and len(store.members()) == 4 + 2
    assert told == ["new member: Anna (rating 1800)", "new member: Anna (rating 1900)"]
    with pytest.raises(StoreError, match="'Bram' in the file fits 2 members"):
        with store.change("import", "import"):
            ops.import_season(store, Season("T", Settings.from_preset("classic"), (Player("b", "Bram", 1700),), ()))