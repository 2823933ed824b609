"""Team Swiss events: teams seeded by mean rating and paired round by round by the FIDE
Dutch rules on match points, a team's colour being that of its first board."""

from __future__ import annotations

import json

import html5lib

from test_cli import bad
from test_team_knockout import matches, ok
from keizer.formats import trf
from keizer.publish import publish
from keizer.store import Store

#: Five teams of two boards with their members' ratings; mean ratings give the seeds
#: Delta (2050) 1, Alfa (2000) 2, Echo (1900; Eva unrated is left out) 3, Beta 4, Gamma 5.
TEAMS = [("Alfa", ("Anna", 2100), ("Bert", 1900)), ("Beta", ("Dora", 1800), ("Emil", 1800)),
         ("Gamma", ("Gijs", 1700), ("Hans", 1500)), ("Delta", ("Ida", 2100), ("Jan", 2000)),
         ("Echo", ("Kees", 1900), ("Eva", None))]


def event(tmp_path, capsys, rounds: int = 3):
    db = tmp_path / "ts.db"
    for _, *people in TEAMS:
        for name, rating in people:
            ok(capsys, db, "member", "add", name, *(["--rating", str(rating)] if rating else []))
    ok(capsys, db, "competition", "create", "Teamswiss", "--system", "team", "--boards", "2",
       "--schedule", "swiss", "--rounds", str(rounds))
    for team, *people in TEAMS:
        ok(capsys, db, "team", "add", team, *[x for name, _ in people for x in ("--board", name)])
    return db


def standing(capsys, db):
    return {r["team"]: r for r in json.loads(ok(capsys, db, "team", "standings", "--format", "json"))}


def test_round_one_is_seeded_by_mean_rating_and_the_lowest_seed_has_the_bye(tmp_path, capsys):
    db = event(tmp_path, capsys)
    out = ok(capsys, db, "team", "schedule")
    assert "round 1 of 3 paired" in out
    # Seeds 1 Delta, 2 Alfa, 3 Echo, 4 Beta, 5 Gamma: 1-3 and 4-2 (seed 2 has Black), bye 5.
    # The team named first has White on board 1; board 2 swaps.
    assert matches(capsys, db, 1) == [
        (1, "Delta", "Echo", [(1, "Ida", "Kees"), (2, "Eva", "Jan")]),
        (2, "Beta", "Alfa", [(3, "Dora", "Anna"), (4, "Bert", "Emil")]),
        (3, "Gamma", None, [])]


def test_three_rounds_no_rematch_no_second_bye_and_colours_alternate(tmp_path, capsys):
    db = event(tmp_path, capsys)
    ok(capsys, db, "team", "schedule")
    bad(capsys, db, "team", "next", match="round 1 still waits for results")
    ok(capsys, db, "team", "result", "1", "1", "1-0", "1-0")   # Ida beats Kees, Eva (White) beats Jan: 1–1
    ok(capsys, db, "team", "result", "1", "2", "½-½", "½-½")   # Beta 1–1 Alfa
    rows = standing(capsys, db)
    assert (rows["Delta"]["match_points"], rows["Delta"]["game_points"]) == (1, 1)
    assert rows["Gamma"]["match_points"] == 1 and rows["Gamma"]["game_points"] == 0   # the bye: a drawn match
    ok(capsys, db, "team", "next")
    second = matches(capsys, db, 2)
    pairs = [{m[1], m[2]} for m in second]
    assert {"Delta", "Echo"} not in pairs and {"Beta", "Alfa"} not in pairs
    bye = [m[1] for m in second if m[2] is None]
    assert len(bye) == 1 and bye[0] != "Gamma"
    for k, first, second_team, boards in second:
        if second_team:
            ok(capsys, db, "team", "result", "2", str(k), "1-0", "0-1")
    ok(capsys, db, "team", "next")
    third = matches(capsys, db, 3)
    byes = bye + [m[1] for m in third if m[2] is None]
    assert len(set(byes)) == 2 and "Gamma" not in byes
    met = [frozenset(p) for p in pairs] + [frozenset({m[1], m[2]}) for m in matches(capsys, db, 1) if m[2]]
    assert all(frozenset({m[1], m[2]}) not in met for m in third if m[2])
    for k, first, second_team, boards in third:
        if second_team:
            ok(capsys, db, "team", "result", "3", str(k), "1-0", "1-0")
    bad(capsys, db, "team", "next", match="all 3 rounds are played")
    assert sum(r["matches"] for r in standing(capsys, db).values()) == 2 * 6


def test_the_event_exports_as_a_team_swiss_trf_and_publishes(tmp_path, capsys):
    db = event(tmp_path, capsys, rounds=2)
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "team", "result", "1", "1", "1-0", "0-1")
    ok(capsys, db, "team", "result", "1", "2", "1-0", "1-0")
    text = ok(capsys, db, "export", "--format", "trf")
    t = trf.parse(text)
    assert t.is_team and t.system.value == "swiss"
    # Delta 2–0 Echo (Ida beats Kees, Jan beats Eva with Black); Beta 1–1 Alfa; Gamma the bye.
    assert {team.name: team.matches[0].code.value for team in t.teams} == {
        "Delta": "1", "Echo": "0", "Beta": "=", "Alfa": "=", "Gamma": "U"}
    site = tmp_path / "site"
    publish(Store.open(db), site)
    page = next(site.rglob("teamswiss/index.html")).read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(page)
    assert "Beta" in page and "Gamma" in page


def test_refusals(tmp_path, capsys):
    db = event(tmp_path, capsys)
    bad(capsys, db, "team", "next", match="has not started")
    bad(capsys, db, "competition", "create", "X", "--system", "team", "--schedule", "swiss", match="--rounds")
    bad(capsys, db, "competition", "create", "Y", "--system", "team", "--schedule", "swiss", "--rounds", "3",
        "--bye-points", "1", match="drawn match")
    bad(capsys, db, "team", "award", "1", "1", "Alfa", match="knock-out")


def test_later_rounds_get_their_dates(tmp_path, capsys):
    db = event(tmp_path, capsys, rounds=2)
    ok(capsys, db, "team", "schedule", "--first-date", "2026-10-01", "--every", "14")
    ok(capsys, db, "team", "result", "1", "1", "1-0", "1-0")
    ok(capsys, db, "team", "result", "1", "2", "1-0", "1-0")
    ok(capsys, db, "team", "next")
    assert json.loads(ok(capsys, db, "pairings", "--round", "2", "--format", "json"))["date"] == "2026-10-15"
    out = ok(capsys, db, "competition", "settings", "--format", "json")
    assert json.loads(out)["rounds"] == 2
    ok(capsys, db, "swiss", "rounds", "3")
    assert json.loads(ok(capsys, db, "competition", "settings", "--format", "json"))["rounds"] == 3


def test_a_team_trf_file_is_imported_and_the_swiss_continued(tmp_path, capsys):
    """Export after round 1, import the file into another database: the same standing, and
    'team next' pairs round 2 as the original does."""
    db = event(tmp_path, capsys, rounds=3)
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "team", "result", "1", "1", "1-0", "½-½")
    ok(capsys, db, "team", "result", "1", "2", "0-1", "0-1")
    file = tmp_path / "teams.trf"
    ok(capsys, db, "export", "--format", "trf", "-o", str(file))
    copy = tmp_path / "copy.db"
    out = ok(capsys, copy, "import", str(file))
    assert "team Swiss" in out and "5 teams" in out
    assert json.loads(ok(capsys, copy, "team", "standings", "--format", "json")) == \
        json.loads(ok(capsys, db, "team", "standings", "--format", "json"))
    ok(capsys, db, "team", "next")
    ok(capsys, copy, "team", "next")
    assert [m[1:3] for m in matches(capsys, copy, 2)] == [m[1:3] for m in matches(capsys, db, 2)]


def test_a_team_file_with_boards_without_games_is_refused(tmp_path, capsys):
    from conftest import GRANDMOMMY, external

    db = tmp_path / "none.db"
    bad(capsys, db, "import", str(external(GRANDMOMMY)), match="without a game")
    assert not db.exists()


def test_our_team_file_with_a_forfeited_match_is_refused(tmp_path, capsys):
    from conftest import DATA

    db = tmp_path / "none.db"
    bad(capsys, db, "import", str(DATA / "trf26-team-swiss-own.trf"),
        match="round 2: Knights – Pawns has a board without a game")
    assert not db.exists()
