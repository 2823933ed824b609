"""The kept standings and careers carried from one command to the next (issue 25,
``keizer.operations.kept_file``): after any sequence of edits made by separate "processes"
(each starts with nothing kept, takes the file, computes, writes it), the standings and
careers are those computed from scratch; a damaged, truncated, foreign, older, planted or
other database's file is ignored and replaced."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import examples
from keizer.operations import kept_careers as kept_careers_module, kept_file, standings as standings_module
from keizer.operations.careers import careers
from keizer.operations.kept_careers import kept_careers
from keizer.operations.setup import change_settings
from keizer.operations.standings import kept_standings
from keizer.publish import career_pages, keys
from keizer.scoring import compute_standings
from keizer.store import Store, rounds_read
from test_publish_kept import EDITS, edit
from test_site_incremental import small_club, snapshot

VERSION = "this keizer"


def a_new_process() -> None:
    """Forget what this process keeps, as a new command starts with nothing."""
    standings_module._kept.clear()
    kept_careers_module._kept.clear()
    career_pages._digests.clear()
    keys._rounds.clear()
    kept_file._restored.clear()
    kept_file.release()
    rounds_read.forget()


def same_as_from_scratch(store: Store, comp: int) -> None:
    season = store.load_season(comp)
    assert kept_standings(store, comp, season, provisional=True) == compute_standings(season, provisional=True)
    assert kept_careers(store) == careers(store)


def command(db: Path, path: Path, comp: int, write: bool = True) -> tuple[bool, Store]:
    """One command: a new process opens the file, takes what the last one kept, computes every
    standing and career, and keeps them (``write``: always; else as publish does)."""
    a_new_process()
    store = Store.open(db)
    restored, _ = kept_file.restore(store, path, VERSION)
    same_as_from_scratch(store, comp)
    if write or kept_file.worth_keeping(store):
        assert kept_file.keep(store, path, VERSION)
    return restored, store


def through_commands(folder: Path, edits: list[str], writes: list[bool],
                     prepare: Callable[[Store, int], None] | None = None) -> None:
    store, comp = small_club(folder / "club.db")
    if prepare is not None:
        prepare(store, comp)
    store.close()
    path = folder / "kept.pickle"
    restored, store = command(folder / "club.db", path, comp)
    assert not restored
    for k, what in enumerate(edits):
        edit(store, comp, what, k)
        store.close()
        restored, store = command(folder / "club.db", path, comp, writes[k % len(writes)])
        assert restored
    store.close()
    a_new_process()


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS, writes=st.lists(st.booleans(), min_size=1, max_size=4))
def test_taken_from_the_file_after_any_edits_as_computed_from_scratch(tmp_path_factory, edits, writes):
    through_commands(tmp_path_factory.mktemp("club"), edits, writes)


def test_by_hand_results_a_correction_another_program_an_undo(tmp_path):
    through_commands(tmp_path, ["round", "result", "result", "correct", "other program", "undo", "setting",
                                "attendance", "round", "result"], [False])


def test_fide_tie_breaks_kept_too(tmp_path):
    """A standing ranked by FIDE tie-breaks keeps the tournaments they were computed on."""
    def ranked_by_tie_breaks(store: Store, comp: int) -> None:
        with store.change("setting", "setting"):
            change_settings(store, comp, {"tiebreaks": "SB,wins"})

    through_commands(tmp_path, ["result", "correct", "round", "result"], [True], ranked_by_tie_breaks)
    a_new_process()
    store = Store.open(tmp_path / "club.db")
    found = kept_file.read(store, tmp_path / "kept.pickle", VERSION)
    store.close()
    assert found is not None and any(chain._tournaments for kept in found["standings"].values()
                                     for chain, _ in kept._chains.values())


def kept_once(tmp_path: Path) -> tuple[Path, Path, int]:
    """A club whose standings and careers one command kept: the database, the file, the competition."""
    store, comp = small_club(tmp_path / "club.db")
    store.close()
    path = tmp_path / "kept.pickle"
    command(tmp_path / "club.db", path, comp)
    return tmp_path / "club.db", path, comp


def taken(db: Path, path: Path) -> bool:
    a_new_process()
    store = Store.open(db)
    try:
        return kept_file.read(store, path, VERSION) is not None
    finally:
        store.close()


def rewritten(path: Path, data: bytes, database: str | None = None, version: str = VERSION) -> None:
    """``path`` holding ``data`` as its pickle, under a header that matches it."""
    head = json.loads(path.read_bytes()[len(kept_file.MAGIC):].partition(b"\n")[0])
    head.update(length=len(data), sha256=hashlib.sha256(data).hexdigest(), version=version)
    if database is not None:
        head["database"] = database
    path.write_bytes(kept_file.MAGIC + json.dumps(head, sort_keys=True).encode() + b"\n" + data)


class _Planted:
    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))

    def __init__(self, marker: Path) -> None:
        self.marker = marker


def damaged(how: str, path: Path, tmp_path: Path) -> None:
    whole = path.read_bytes()
    head, _, data = whole[len(kept_file.MAGIC):].partition(b"\n")
    if how == "truncated":
        path.write_bytes(whole[:len(whole) // 2])
    elif how == "a byte changed":
        middle = len(whole) - len(data) // 2
        path.write_bytes(whole[:middle] + bytes([whole[middle] ^ 1]) + whole[middle + 1:])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "not ours":
        path.write_bytes(os.urandom(4000))
    elif how == "another keizer":
        rewritten(path, data, version="an older keizer")
    elif how == "another format":
        path.write_bytes(whole.replace(f'"format": {kept_file.FORMAT}'.encode(), b'"format": 0', 1))
    elif how == "code planted":
        rewritten(path, pickle.dumps({"standings": {}, "careers": None, "extra": _Planted(tmp_path / "ran"),
                                       "rounds": {}, "club_games": []}))
    elif how == "another shape":
        rewritten(path, pickle.dumps({"standings": {1: "not kept"}, "careers": None, "extra": None,
                                       "rounds": {}, "club_games": []}))
    elif how == "a function named":
        rewritten(path, pickle.dumps({"standings": {}, "careers": None, "extra": len,
                                       "rounds": {}, "club_games": []}))
    elif how == "not a fraction":
        rewritten(path, data.replace(b"_fraction", b"_fractioN"))
    elif how == "writable by others":
        path.chmod(0o666)


DAMAGES = ["truncated", "a byte changed", "empty", "not ours", "another keizer", "another format", "code planted",
           "another shape", "a function named", "not a fraction", "writable by others"]


@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_foreign_or_planted_file_is_ignored_and_replaced(tmp_path, how):
    db, path, comp = kept_once(tmp_path)
    assert taken(db, path)
    if how == "writable by others" and not hasattr(os, "getuid"):
        pytest.skip("no owner and mode to check")
    damaged(how, path, tmp_path)
    assert not taken(db, path)
    assert not (tmp_path / "ran").exists()  # the planted pickle ran nothing
    restored, store = command(db, path, comp, write=False)  # computed from scratch (checked), and the file replaced
    store.close()
    assert not restored and taken(db, path)
    a_new_process()


def test_the_unpickler_finds_keizers_data_classes_only(tmp_path):
    found = kept_file._Reader(io.BytesIO(b""))
    for module, name in [("os", "system"), ("builtins", "eval"), ("keizer.store", "Store"),
                         ("keizer.publish.upload", "upload"), ("keizer.scoring", "compute_standings"),
                         ("keizer.model", "replace"), ("keizer.model", "Season.__init__")]:
        with pytest.raises(pickle.UnpicklingError):
            found.find_class(module, name)
    assert found.find_class("keizer.model", "Season").__name__ == "Season"


def test_the_classes_named_are_those_of_the_pure_layer():
    from test_layers import PURE

    assert kept_file._PURE == PURE


def test_another_databases_file_is_not_taken(tmp_path):
    db, path, comp = kept_once(tmp_path)
    other, _ = small_club(tmp_path / "other.db")
    other.close()
    assert not taken(tmp_path / "other.db", path)


@pytest.mark.parametrize("case", ["another club copied over it", "a backup put back"])
def test_a_file_replaced_under_the_same_path_gives_the_standing_from_scratch(tmp_path, case):
    """The file keeps the path, and the kept file's header matches: what is kept is compared
    with what is read, so it costs a computation, never a wrong standing."""
    db, path, comp = kept_once(tmp_path)
    if case == "another club copied over it":
        other, other_comp = small_club(tmp_path / "other.db", season="2024-2025")
        for k, what in enumerate(["round", "result", "correct"]):
            edit(other, other_comp, what, k)
        other.close()
        shutil.copy(tmp_path / "other.db", db)
        assert other_comp == comp
    else:
        shutil.copy(db, tmp_path / "backup.db")
        store = Store.open(db)
        for k, what in enumerate(["round", "result", "correct", "result"]):
            edit(store, comp, what, k)
        store.close()
        command(db, path, comp)  # the file now holds the later state
        shutil.copy(tmp_path / "backup.db", db)
    restored, store = command(db, path, comp, write=False)
    store.close()
    assert restored
    a_new_process()


@pytest.mark.slow  # three commands in processes of their own
def test_the_command_keeps_them_for_the_next_command(tmp_path):
    """``keizer publish`` writes the file, ``keizer result`` changes a round, the next ``keizer
    publish`` (a new process) takes the file and publishes the site a process that keeps
    nothing publishes."""
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)
    store.close()
    env = {**os.environ, "KEIZER_CACHE": str(tmp_path / "cache"), "KEIZER_DB": str(tmp_path / "club.db")}

    def keizer(*args: str) -> None:
        subprocess.run([sys.executable, "-m", "keizer", *args], env=env, check=True, capture_output=True)

    keizer("publish", str(tmp_path / "site"))
    kept = list((tmp_path / "cache").glob("kept-*.pickle"))
    assert len(kept) == 1 and kept[0].stat().st_mode & 0o077 == 0
    written = kept[0].stat().st_mtime_ns
    keizer("result", "1=0-1")
    keizer("publish", str(tmp_path / "site"))
    assert kept[0].stat().st_mtime_ns == written  # behind by the last round only: not written again
    keizer("result", "2=1/2-1/2")
    keizer("publish", str(tmp_path / "site"))
    shutil.copy(tmp_path / "club.db", tmp_path / "copy.db")
    keizer("--db", str(tmp_path / "copy.db"), "publish", str(tmp_path / "fresh"))
    assert snapshot(tmp_path / "site") == snapshot(tmp_path / "fresh")
