"""Knock-out cups in the season database: draw, tie-break stages, awards, the bracket page."""

from __future__ import annotations

import json

import html5lib
import pytest

from test_cli import bad, run
from keizer.publish import publish
from keizer.store import Store


@pytest.fixture
def cup(tmp_path, capsys):
    db = tmp_path / "cup.db"
    for name, rating in (("Anna", "2000"), ("Bram", "1900"), ("Cor", "1800"), ("Dirk", "1700"), ("Eva", "1600")):
        assert run(capsys, db, "member", "add", name, "--rating", rating)[0] == 0
    code, _, err = run(capsys, db, "competition", "create", "Beker", "--system", "knockout",
                       "--stages", "regular:2,armageddon:1", "--all-members")
    assert code == 0, err
    return db


def bracket(capsys, db):
    code, out, err = run(capsys, db, "knockout", "bracket", "--format", "json")
    assert code == 0, err
    return {(m["round"], m["match"]): m for m in json.loads(out)}


def boards(capsys, db, r):
    code, out, _ = run(capsys, db, "pairings", "--round", str(r), "--format", "json")
    return [(p["board"], p["white"], p["black"]) for p in json.loads(out)["pairs"]]


def test_a_cup_from_draw_to_winner(cup, capsys):
    code, out, _ = run(capsys, cup, "knockout", "draw")
    assert code == 0
    state = bracket(capsys, cup)
    # 5 entrants in 8 places: seeds 1–3 have byes; 4 (Dirk) plays 5 (Eva); 2 and 3 meet in round 2.
    assert [(k, m["top"], m["bottom"], m["how"]) for k, m in sorted(state.items()) if k[0] == 1] == [
        ((1, 1), "Anna", "", "bye"), ((1, 2), "Dirk", "Eva", "to play"),
        ((1, 3), "Bram", "", "bye"), ((1, 4), "Cor", "", "bye")]
    assert boards(capsys, cup, 1) == [(1, "Dirk", "Eva"), (2, "Eva", "Dirk")]
    assert boards(capsys, cup, 2) == [(1, "Bram", "Cor"), (2, "Cor", "Bram")]
    run(capsys, cup, "result", "--round", "1", "1=½-½", "2=0-1")     # Dirk 1½–½
    run(capsys, cup, "result", "--round", "2", "1=1-0", "2=1-0")     # Bram–Cor 1–1
    code, out, _ = run(capsys, cup, "knockout", "next")
    assert "Anna – Dirk, 2 regular" in out and "Bram – Cor, 1 armageddon" in out
    assert boards(capsys, cup, 2)[2:] == [(3, "Anna", "Dirk"), (4, "Dirk", "Anna"), (5, "Bram", "Cor")]
    # Armageddon: a draw counts for Black.
    run(capsys, cup, "result", "--round", "2", "5=½-½", "3=1-0", "4=½-½")
    state = bracket(capsys, cup)
    assert state[(2, 2)]["winner"] == "Cor" and state[(2, 1)]["winner"] == "Anna"
    assert run(capsys, cup, "knockout", "next")[0] == 0
    assert boards(capsys, cup, 3) == [(1, "Anna", "Cor"), (2, "Cor", "Anna")]
    run(capsys, cup, "result", "--round", "3", "1=½-½", "2=½-½")
    run(capsys, cup, "knockout", "next")
    run(capsys, cup, "result", "--round", "3", "3=1-0")
    assert bracket(capsys, cup)[(3, 1)]["winner"] == "Anna"
    # The standings command shows the bracket too.
    code, out, _ = run(capsys, cup, "standings")
    assert "Anna" in out and "armageddon" in out


def test_arbiter_award_and_bad_input(cup, capsys):
    run(capsys, cup, "knockout", "draw", "Eva", "Dirk", "Cor", "Bram", "Anna")  # seeds by hand
    state = bracket(capsys, cup)
    assert state[(1, 2)]["top"] == "Bram" and state[(1, 2)]["bottom"] == "Anna"
    bad(capsys, cup, "knockout", "award", "1", "2", "Cor", match="does not play")
    bad(capsys, cup, "knockout", "award", "1", "9", "Cor", match="no match 9")
    assert run(capsys, cup, "knockout", "award", "1", "2", "Anna")[0] == 0   # Bram withdrew
    assert bracket(capsys, cup)[(1, 2)]["winner"] == "Anna"
    run(capsys, cup, "result", "--round", "1", "1=1-0")
    bad(capsys, cup, "knockout", "draw", match="cannot change")
    bad(capsys, cup, "pair", match="knockout draw")


def test_bad_stages(tmp_path, capsys):
    db = tmp_path / "x.db"
    run(capsys, db, "init")
    bad(capsys, db, "competition", "create", "C", "--system", "knockout", "--stages", "rapid:2", match="regular")
    bad(capsys, db, "competition", "create", "C", "--system", "knockout", "--stages", "regular:2,armageddon:1,rapid:2",
        match="armageddon")
    bad(capsys, db, "competition", "create", "C", "--system", "knockout", "--stages", "regular:x", match="KIND:GAMES")


def test_bracket_page(cup, capsys, tmp_path):
    out = tmp_path / "site"
    store = Store.open(cup)
    publish(store, out)  # before the draw
    assert "not been drawn" in next(out.rglob("beker/index.html")).read_text(encoding="utf-8")
    run(capsys, cup, "knockout", "draw")
    run(capsys, cup, "result", "--round", "1", "1=1-0", "2=0-1")
    publish(Store.open(cup), out)
    page = next(out.rglob("beker/index.html"))
    html5lib.HTMLParser(strict=True).parse(page.read_bytes())
    text = page.read_text(encoding="utf-8")
    assert "Quarter-finals" in text and "Semi-finals" in text and "Final" in text and "Dirk" in text
    front = (out / "index.html").read_text(encoding="utf-8")
    assert "Matches to play" in front


def test_a_correction_that_no_longer_fits_the_bracket_is_refused(cup, capsys):
    run(capsys, cup, "knockout", "draw")
    assert run(capsys, cup, "result", "--round", "1", "1=1-0", "2=0-1")[0] == 0   # Dirk 2–0 Eva
    code, out, err = run(capsys, cup, "knockout", "next")
    assert code == 0, err                                                          # Anna – Dirk stored
    bad(capsys, cup, "result", "--round", "1", "--correct", "1=0-1", "2=1-0", match="'keizer undo' back to before")
    assert run(capsys, cup, "result", "--round", "1", "1=½-½", "2=½-½", "--correct")[0] != 0
