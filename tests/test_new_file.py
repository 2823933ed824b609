"""The first command on a new database file: the new schema and the command's change are ONE
transaction (as an upgrade of an older file is), so a refused, failed or interrupted first
command leaves no file behind (or the empty file 'keizer init' was given, as it was), and a
successful one leaves the database the two transactions left before.

Every command here runs as the real ``keizer`` in a process of its own; an interruption is a
real SIGINT (Ctrl-C) the process sends itself in the middle of the command's change."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from keizer.store import Store
from keizer.operations.members import add_member
from keizer.refusals import Message


def keizer(*args: str, before: str = "") -> subprocess.CompletedProcess[str]:
    """``keizer args`` in a fresh Python; ``before``: Python run first (to interrupt it)."""
    script = f"import sys\n{before}\nfrom keizer.cli.commands import main\nmain(sys.argv[1:])\n"
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60)


#: Python that makes the command's change send Ctrl-C to its own process once it has written:
#: the interrupt arrives inside the change, before anything is committed.
CTRL_C_IN = """
import os, signal, time
import {module} as _m
_real = _m.{name}
def _interrupted(*args, **kwargs):
    out = _real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    return out
_m.{name} = _interrupted
"""


def commits(db: Path) -> int:
    """SQLite's file change counter (bytes 24-27 of the header): one per committed write."""
    return int.from_bytes(db.read_bytes()[24:28], "big")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_the_first_command_is_one_transaction(tmp_path):
    db = tmp_path / "new.db"
    done = keizer("--db", str(db), "member", "add", "Anna de Vries", "--rating", "1800")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "added member #1 Anna de Vries\n"
    assert commits(db) == 1  # the schema and the member together (it was 2: the schema, then the member)
    assert leftovers(tmp_path) == ["new.db"]
    assert keizer("--db", str(db), "member", "list", "--format", "csv").stdout.splitlines()[1].startswith("1,Anna de Vries,1800")


def _contents(db: Path) -> tuple[list, dict[str, list]]:
    """The schema (in the order it was made) and every table's rows, but for what differs from
    file to file: the random check-in key and the time of the change."""
    with sqlite3.connect(db) as conn:
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY rowid").fetchall()
        pragmas = [conn.execute(f"PRAGMA {p}").fetchone() for p in ("application_id", "user_version", "page_size")]
        rows = {name: conn.execute(f'SELECT * FROM "{name}"').fetchall() for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('app_secrets', 'changes')")}
        rows["changes"] = conn.execute("SELECT id, command, summary, said FROM changes").fetchall()
        rows["app_secrets"] = conn.execute("SELECT name, length(value) FROM app_secrets").fetchall()
    return schema + pragmas, rows


def test_the_database_is_the_one_two_transactions_made(tmp_path):
    db = tmp_path / "new.db"
    assert keizer("--db", str(db), "member", "add", "Anna de Vries", "--rating", "1800").returncode == 0
    old = tmp_path / "old.db"  # as before: the schema committed, then the change
    store = Store.open(old, create=True)
    store.origin = lambda: Message("%(user)s on %(computer)s", user=os.environ.get("USER", ""), computer="")
    with store.change("member add", Message("add member %(name)s", name="Anna de Vries")):
        add_member(store, "Anna de Vries", 1800, None, None, None, False)
    store.close()
    assert commits(old) == 2
    made, before = _contents(db), _contents(old)
    assert made[0] == before[0]
    assert {k: v for k, v in made[1].items() if k != "changes"} == {k: v for k, v in before[1].items() if k != "changes"}
    assert [row[:3] for row in made[1]["changes"]] == [row[:3] for row in before[1]["changes"]]
    assert made[1]["app_secrets"] == [("checkin", 32)]


def test_a_refused_first_command_leaves_no_file(tmp_path):
    db = tmp_path / "new.db"
    for args in (["member", "add", "   "], ["competition", "create", "Interne", "--set", "bye_points=lots"],
                 ["club", "--colour", "blue"]):
        done = keizer("--db", str(db), *args)
        assert done.returncode == 1 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr, args
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert leftovers(tmp_path) == [], (args, leftovers(tmp_path))


def test_an_interrupted_first_command_leaves_no_file(tmp_path):
    db = tmp_path / "new.db"
    done = keizer("--db", str(db), "member", "add", "Anna de Vries",
                  before=CTRL_C_IN.format(module="keizer.operations.members", name="add_member"))
    assert done.returncode == 130 and done.stderr == "interrupted\n" and done.stdout == ""
    assert leftovers(tmp_path) == []  # before: the new schema stayed (committed), the member not


def test_an_interrupted_first_import_leaves_no_file(tmp_path):
    db = tmp_path / "new.db"
    tournament = Path(__file__).parent / "data" / "swiss" / "bbp-12_5_12.trf"  # a Swiss of 12 players, 5 rounds
    assert keizer("--db", str(tmp_path / "check.db"), "import", str(tournament)).returncode == 0  # it imports
    (tmp_path / "check.db").unlink()
    done = keizer("--db", str(db), "import", str(tournament),
                  before=CTRL_C_IN.format(module="keizer.operations.competition", name="import_season"))
    assert done.returncode == 130 and done.stderr == "interrupted\n"
    assert leftovers(tmp_path) == []


def test_a_fault_in_the_first_command_leaves_no_file(tmp_path):
    db = tmp_path / "new.db"
    fault = "import keizer.operations.members as m\ndef broken(*a, **k): raise RuntimeError('a bug')\nm.add_member = broken"
    done = keizer("--db", str(db), "member", "add", "Anna de Vries", before=fault)
    assert done.returncode == 1 and "RuntimeError: a bug" in done.stderr  # a bug still shows its traceback
    assert leftovers(tmp_path) == []


def test_init_interrupted_leaves_the_empty_file_as_it_was(tmp_path):
    db = tmp_path / "club.db"
    db.write_bytes(b"")
    os.chmod(db, 0o640)
    before = os.stat(db)
    done = keizer("--db", str(db), "init",
                  before=CTRL_C_IN.format(module="keizer.store.schema", name="Schema._create"))
    assert done.returncode == 130 and done.stderr == "interrupted\n"
    after = os.stat(db)
    assert leftovers(tmp_path) == ["club.db"] and after.st_size == 0
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)  # the very file, not a new one
    done = keizer("--db", str(db), "init")  # and it still becomes a database
    assert done.returncode == 0 and done.stdout == f"created {db}\n"
    assert commits(db) == 1 and os.stat(db).st_ino == before.st_ino


def test_init_makes_a_new_file_in_one_transaction(tmp_path):
    db = tmp_path / "club.db"
    assert keizer("--db", str(db), "init").returncode == 0
    assert commits(db) == 1 and leftovers(tmp_path) == ["club.db"]
    assert keizer("--db", str(db), "init").stdout == f"{db} is already a keizer database\n"
    assert commits(db) == 1


def test_a_command_meanwhile_waits_for_the_new_file(tmp_path):
    """While the first command makes the file (nothing committed, 0 bytes and a journal), another
    command waits for it, as for any writer, and then reads what it made."""
    db = tmp_path / "new.db"
    maker = Store.open(db, create=True, defer_upgrade=True)
    with maker.change("member add", Message("add member %(name)s", name="Anna")):
        add_member(maker, "Anna", None, None, None, None, False)
    assert db.stat().st_size == 0 and (tmp_path / "new.db-journal").exists()
    reader = subprocess.Popen([sys.executable, "-m", "keizer", "--db", str(db), "member", "list", "--format", "csv"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with pytest.raises(subprocess.TimeoutExpired):  # it waits (before, it said at once: "new.db is empty")
        reader.wait(timeout=1.5)
    maker.commit_upgrade()
    maker.close()
    out, err = reader.communicate(timeout=30)
    assert reader.returncode == 0 and err == "" and out.splitlines()[1].startswith("1,Anna,")


#: Python that lets another keizer command make the file, and commit a member in it, just before
#: this command connects to a file it found missing (between its look and its opening).
ANOTHER_FIRST = """
import os, subprocess, sys
import keizer.store.schema as _m
_real = _m._connect
def _first(path):
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-m", "keizer", "--db", str(path), "member", "add", "Alice"], check=True,
                       capture_output=True)
    return _real(path)
_m._connect = _first
"""


def test_a_refused_command_never_removes_a_file_another_command_made_meanwhile(tmp_path):
    """Two first commands at once (a script adding members in parallel): the one that waited and
    is refused (Alice twice) leaves the file the other made and filled (it removed it)."""
    db = tmp_path / "club.db"
    before = ("import subprocess, sys\nfrom keizer.store import Store\n_real = Store.open.__func__\n"
              "def _open(cls, path, *a, **k):\n"
              "    subprocess.run([sys.executable, '-m', 'keizer', '--db', str(path), 'member', 'add', 'Alice'],"
              " check=True, capture_output=True)\n"
              "    return _real(cls, path, *a, **k)\n"
              "Store.open = classmethod(_open)\n")
    refused = keizer("--db", str(db), "member", "add", "Alice", before=before)
    assert refused.returncode == 1 and "already a member" in refused.stderr
    assert db.exists() and keizer("--db", str(db), "member", "list", "--format", "csv").stdout.count("Alice") == 1


def test_a_command_that_waited_for_another_to_make_the_file_writes_into_it(tmp_path):
    """The other command makes the file between this one's look (no file) and its opening: this
    one takes the writer's lock, finds a schema, and adds its member to that file."""
    db = tmp_path / "club.db"
    done = keizer("--db", str(db), "member", "add", "Bob", before=ANOTHER_FIRST)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "added member #2 Bob\n"
    names = keizer("--db", str(db), "member", "list", "--format", "csv").stdout
    assert "Alice" in names and "Bob" in names
