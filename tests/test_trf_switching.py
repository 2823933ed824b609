"""Switching with the TRF files clubs really have (issue 21): a file exported in the middle
of a tournament, other programs' conventions, and what the import says it read.

Our own small files are in tests/data/trf-switch/ (see tests/data/SOURCES.md); the shared
corpus of other projects' files is read in place and skipped when absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import DATA
from test_cli import run

SWITCH = DATA / "trf-switch"


def _import(capsys, db: Path, path: Path, *extra: str) -> str:
    code, out, err = run(capsys, db, "import", str(path), *extra)
    assert code == 0, err
    return out


def _pairs(capsys, db: Path) -> list[tuple[str, str]]:
    code, out, err = run(capsys, db, "pair", "--format", "json")
    assert code == 0, err
    found = json.loads(out)
    return [(g["white"], g["black"]) for g in found["games"]] if isinstance(found, dict) else found


# -- 1. entries for the round to pair -----------------------------------------------------

def test_entries_for_the_round_to_pair_are_its_attendance(tmp_path, capsys):
    path = SWITCH / "open-entries.trf"
    out = _import(capsys, tmp_path / "s.db", path)
    assert "imported Open round test (swiss): 10 players, 5 rounds" in out
    assert ("round 5 is the round to pair: 2 players entered a bye or an absence (#3 H, #9 Z), "
            "the 8 others are to be paired") in out
    code, out, err = run(capsys, tmp_path / "s.db", "pair")
    assert code == 0, err
    assert "not playing: Cor Gamma (excused), Ilse Iota (unexcused)" in out
    # the same pairing as 'keizer trf pair' makes from the file (FIDE Dutch)
    code, theirs, err = run(capsys, tmp_path / "x.db", "trf", "pair", str(path), "--format", "json")
    assert code == 0, err
    boards = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    ours = [(int(b[1]), int(b[-1])) for b in boards]
    assert ours == [tuple(p) for p in json.loads(theirs)["pairs"]]


def test_entries_for_the_round_to_pair_with_system_keizer(tmp_path, capsys):
    out = _import(capsys, tmp_path / "k.db", SWITCH / "open-entries.trf", "--system", "keizer")
    assert "Cor Gamma (#3): round 5 H (half-point bye) → excused" in out
    assert "Ilse Iota (#9): round 5 Z (zero-point bye or no entry) → unexcused" in out
    code, out, err = run(capsys, tmp_path / "k.db", "pair")
    assert code == 0, err
    assert "Round 5" in out and out.count("\n") >= 6  # four boards


def test_trf_standings_agree_with_the_imported_standing(tmp_path, capsys):
    path = SWITCH / "open-entries.trf"
    db = tmp_path / "s.db"
    _import(capsys, db, path)
    code, out, err = run(capsys, db, "standings", "--format", "json")
    assert code == 0, err
    ours = json.loads(out)
    code, out, err = run(capsys, db, "trf", "standings", str(path), "--format", "json")
    assert code == 0, err
    assert "note: round 5 is the round to pair" in err
    assert "totals differ" not in err  # the file's totals are after round 4, as the standing is
    theirs = json.loads(out)
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in ours] == \
           [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs]
    assert {r["name"]: r["tiebreaks"]["BH"] for r in theirs}["Anna Alfa"] == 9  # not 13.5: round 5 is not played
