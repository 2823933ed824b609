"""FIDE TRF files in and out of the season database."""

from __future__ import annotations

import json

import pytest

from conftest import GRANDMOMMY, TEC, external
from test_cli import ROOT, bad, run, standings_json
from keizer.formats.trf import parse

DATA = TEC


@pytest.mark.parametrize("name", ["tec2023-swiss16-5r.trf", "tec2023-roundrobin6.trf"])
def test_imported_tournament_ranks_as_the_file_does(name, tmp_path, capsys):
    db = tmp_path / "t.db"
    code, out, err = run(capsys, db, "import", str(DATA / name))
    assert code == 0, err
    ours = standings_json(capsys, db)
    code, out, _ = run(capsys, db, "trf", "standings", str(DATA / name), "--format", "json")
    theirs = json.loads(out)
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in ours] == \
           [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs]


def test_export_import_export_is_stable(tmp_path, capsys):
    db = tmp_path / "t.db"
    run(capsys, db, "import", str(DATA / "tec2023-swiss16-5r.trf"))
    first = tmp_path / "a.trf"
    assert run(capsys, db, "export", "--format", "trf", "-o", str(first))[0] == 0
    db2 = tmp_path / "u.db"
    assert run(capsys, db2, "import", str(first))[0] == 0
    second = tmp_path / "b.trf"
    run(capsys, db2, "export", "--format", "trf", "-o", str(second))
    a, b = parse(first.read_text()), parse(second.read_text())
    assert [p.results for p in a.players] == [p.results for p in b.players]
    assert standings_json(capsys, db) == standings_json(capsys, db2)
    original = parse((DATA / "tec2023-swiss16-5r.trf").read_text(encoding="utf-8"))
    assert [[r.code for r in p.results] for p in a.players] == [[r.code for r in p.results] for p in original.players]


def test_keizer_season_exports_its_games_for_a_rating_report(tmp_path, capsys):
    out = tmp_path / "club.trf"
    assert run(capsys, ROOT / "sample_club.db", "export", "--format", "trf", "-o", str(out))[0] == 0
    t = parse(out.read_text())
    rows = {r["id"]: r for r in standings_json(capsys, ROOT / "sample_club.db")}
    by_number = {p.start_no: p for p in t.players}
    code, out_json, _ = run(capsys, ROOT / "sample_club.db", "player", "list", "--format", "json")
    for p in json.loads(out_json):
        trf_player = by_number[p["start_no"]]
        games = [r for r in trf_player.results if r.code.is_game]
        assert len(games) == rows[p["key"]]["games"]
        points = sum(r.code.outcome for r in games)
        assert points == rows[p["key"]]["wins"] + rows[p["key"]]["draws"] / 2
    assert t.rounds == 30


def test_bad_trf_files(tmp_path, capsys):
    db = tmp_path / "t.db"
    f = tmp_path / "broken.trf"
    f.write_text("012 Cup\n001    1      Anna                              18x0\n")
    bad(capsys, db, "import", str(f), match="line 2")
    bad(capsys, db, "import", str(external(GRANDMOMMY)), match="board without a game")
    assert not db.exists()


def test_an_import_reuses_the_club_members_it_names(tmp_path, capsys):
    """Exporting a competition and importing the file into the same club adds no namesakes."""
    import shutil

    db = tmp_path / "club.db"
    shutil.copy(ROOT / "sample_club.db", db)
    file = tmp_path / "rapid.trf"
    assert run(capsys, db, "-c", "Rapid", "export", "--format", "trf", "-o", str(file))[0] == 0
    code, before, _ = run(capsys, db, "member", "list", "--format", "json")
    assert run(capsys, db, "import", str(file), "--name", "Rapid copy")[0] == 0
    code, after, _ = run(capsys, db, "member", "list", "--format", "json")
    assert json.loads(after) == json.loads(before)
    # The round dates travel in record 132.
    code, out, _ = run(capsys, db, "-c", "Rapid copy", "pairings", "--round", "1", "--format", "json")
    assert json.loads(out)["date"] == "2025-11-15"
