"""Round-robin groups in the season database: draw, results, standings with tie-breaks, site."""

from __future__ import annotations

import json

import html5lib
import pytest

from test_cli import bad, run, standings_json
from keizer.publish import publish
from keizer.store import Store


@pytest.fixture
def group(tmp_path, capsys):
    db = tmp_path / "rr.db"
    for name, rating in (("Anna", "1900"), ("Bram", "1800"), ("Cor", "1700"), ("Dirk", "1600")):
        assert run(capsys, db, "member", "add", name, "--rating", rating)[0] == 0
    code, _, err = run(capsys, db, "competition", "create", "Meerkamp A", "--system", "roundrobin",
                       "--tiebreaks", "DE,SB", "--all-members")
    assert code == 0, err
    return db


def test_schedule_command_prints_fides_table(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path / "none.db", "roundrobin", "schedule", "6", "--format", "json")
    data = json.loads(out)
    assert data[0] == {"round": 1, "pairs": [[1, 6], [2, 5], [3, 4]]}
    assert len(data) == 5
    code, out, _ = run(capsys, tmp_path / "none.db", "roundrobin", "schedule", "5", "--double", "--format", "json")
    data = json.loads(out)
    assert len(data) == 10 and all(any(0 in p for p in r["pairs"]) for r in data)


def test_hand_computed_group(group, capsys):
    code, out, _ = run(capsys, group, "roundrobin", "draw", "Anna", "Bram", "Cor", "Dirk")
    assert code == 0 and "by hand" in out
    # Berger, 4 players: R1 1-4, 2-3; R2 4-3, 1-2; R3 2-4, 3-1.
    code, out, _ = run(capsys, group, "pairings", "--round", "2", "--format", "json")
    assert [(p["white"], p["black"]) for p in json.loads(out)["pairs"]] == [("Dirk", "Cor"), ("Anna", "Bram")]
    assert run(capsys, group, "result", "--round", "1", "1=1-0", "2=½-½")[0] == 0   # Anna beats Dirk, Bram = Cor
    assert run(capsys, group, "result", "--round", "2", "1=1-0", "2=½-½")[0] == 0   # Dirk beats Cor, Anna = Bram
    assert run(capsys, group, "result", "--round", "3", "1=1-0", "2=1-0")[0] == 0   # Bram beats Dirk, Cor beats Anna
    rows = standings_json(capsys, group)
    # Bram 2; Anna and Cor 1½ (Cor beat Anna: DE); Dirk 1.
    assert [(r["name"], r["points"]) for r in rows] == [("Bram", 2), ("Cor", 1.5), ("Anna", 1.5), ("Dirk", 1)]
    # SB: Bram ½·1½ + ½·1½ + 1·1 = 2½; Cor ½·2 + 0 + 1·1½ = 2½; Anna 1·1 + ½·2 + 0 = 2; Dirk 1·1½ = 1½.
    assert {r["name"]: r["tiebreaks"]["SB"] for r in rows} == {"Bram": 2.5, "Cor": 2.5, "Anna": 2, "Dirk": 1.5}
    assert rows[1]["tiebreaks"]["DE"] == 1 and rows[2]["tiebreaks"]["DE"] == 2
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]


def test_draw_by_lot_is_reproducible(group, capsys, tmp_path):
    assert run(capsys, group, "roundrobin", "draw", "--seed", "42")[0] == 0
    code, out, _ = run(capsys, group, "player", "list", "--format", "json")
    first = [p["name"] for p in sorted(json.loads(out), key=lambda p: p["start_no"])]
    assert run(capsys, group, "roundrobin", "draw", "--seed", "42")[0] == 0  # again: same numbers
    code, out, _ = run(capsys, group, "player", "list", "--format", "json")
    assert [p["name"] for p in sorted(json.loads(out), key=lambda p: p["start_no"])] == first
    store = Store.open(group)
    assert store.system_settings(store.competition()["id"])["seed"] == 42
    assert len(store.round_numbers(store.competition()["id"])) == 3


def test_round_robin_refuses_keizer_commands_and_late_redraws(group, capsys):
    bad(capsys, group, "roundrobin", "draw", "Anna", match="every player exactly once")
    run(capsys, group, "roundrobin", "draw", "--seed", "1")
    bad(capsys, group, "pair", match="Berger table")
    bad(capsys, group, "attend", match="Berger table")
    run(capsys, group, "result", "--round", "1", "1=1-0")
    bad(capsys, group, "roundrobin", "draw", "--seed", "2", match="cannot change")


def test_bad_round_robin_settings(tmp_path, capsys):
    db = tmp_path / "x.db"
    run(capsys, db, "init")
    bad(capsys, db, "competition", "create", "G", "--system", "roundrobin", "--tiebreaks", "BH,SB",
        match="Buchholz family in a round robin")
    bad(capsys, db, "competition", "create", "G", "--system", "roundrobin", "--swap-last-two", match="--double")
    bad(capsys, db, "competition", "create", "G", "--system", "roundrobin", "--tiebreaks", "XYZ", match="XYZ")


def test_round_robin_site(group, capsys, tmp_path):
    run(capsys, group, "roundrobin", "draw", "Anna", "Bram", "Cor", "Dirk", "--first-date", "2026-01-06")
    run(capsys, group, "result", "--round", "1", "1=1-0", "2=½-½")
    out = tmp_path / "site"
    publish(Store.open(group), out)
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    pages = sorted(out.rglob("*.html"))
    for page in pages:
        parser.parse(page.read_bytes())
    names = {p.name for p in pages}
    assert {"crosstable.html", "report.html", "round-1.html", "round-3.html", "anna.html"} <= names
    assert "attendance.html" not in names
    cross = next(p for p in pages if p.name == "crosstable.html").read_text(encoding="utf-8")
    assert "½" in cross and "Dirk" in cross
    front = (out / "index.html").read_text(encoding="utf-8")
    assert "Pairings of round 2" in front and "Results up to round 1" in front
    index = next(p for p in pages if p.name == "index.html" and p.parent.name != p.parents[1].name)
    season = (out / index.relative_to(out).parts[0] / "index.html").read_text(encoding="utf-8")
    assert ">SB</abbr>" in season and "Pairings of round 2" in season


def test_drawing_of_lots_is_reproducible(tmp_path, capsys):
    def group(db, *extra):
        for name in ("Anna", "Bram", "Cor", "Dirk"):
            run(capsys, db, "member", "add", name)
        run(capsys, db, "competition", "create", "G", "--system", "roundrobin", "--tiebreaks", "SB", *extra,
            "--all-members")
        run(capsys, db, "roundrobin", "draw", "Anna", "Bram", "Cor", "Dirk")
        for r in (1, 2, 3):  # every game drawn: everyone on 1½ with SB 2¼
            run(capsys, db, "result", "--round", str(r), "1=½-½", "2=½-½")
        return [(row["rank"], row["name"]) for row in standings_json(capsys, db)]

    plain = group(tmp_path / "a.db")
    assert [rank for rank, _ in plain] == [1, 1, 1, 1]
    first = group(tmp_path / "b.db", "--lots", "7")
    again = group(tmp_path / "c.db", "--lots", "7")
    assert [rank for rank, _ in first] == [1, 2, 3, 4] and first == again
    bad(capsys, tmp_path / "b.db", "competition", "create", "K", "--lots", "3", match="--lots is for")
