"""Team knock-out events in the season database: the bracket of team matches, decided by
game points, then board count (BC), then bottom-board elimination (BBE), then an award."""

from __future__ import annotations

import json

import html5lib

from test_cli import bad, run
from keizer.publish import publish
from keizer.store import Store

#: Three teams of two boards: (team, board 1, board 2).  Seeds in start order: Alfa 1, Beta 2, Gamma 3.
TEAMS = [("Alfa", "Anna", "Bert"), ("Beta", "Dora", "Emil"), ("Gamma", "Gijs", "Hans")]


def ok(capsys, db, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def knockout(tmp_path, capsys, teams=TEAMS, boards: int = 2, stages: str | None = None):
    db = tmp_path / "ko.db"
    for _, *people in teams:
        for person in people:
            ok(capsys, db, "member", "add", person)
    ok(capsys, db, "competition", "create", "Bekerteams", "--system", "team", "--boards", str(boards),
       "--schedule", "knockout", *(["--stages", stages] if stages else []))
    for team, *people in teams:
        ok(capsys, db, "team", "add", team, *[x for p in people for x in ("--board", p)])
    return db


def bracket(capsys, db):
    rows = json.loads(ok(capsys, db, "team", "standings", "--format", "json"))
    return {(r["round"], r["match"]): (r["top"], r["bottom"], r["score"], r["winner"], r["how"]) for r in rows}


def matches(capsys, db, r: int):
    return [(m["match"], m["first"], m["second"], [(b["board"], b["white"], b["black"]) for b in m["boards"]])
            for m in json.loads(ok(capsys, db, "team", "matches", "--round", str(r), "--format", "json"))]


def test_three_teams_from_schedule_to_award(tmp_path, capsys):
    db = knockout(tmp_path, capsys)
    out = ok(capsys, db, "team", "schedule", "--first-date", "2026-10-01")
    assert "round 1 of 2 scheduled" in out
    # 3 teams in 4 places: seed 1 (Alfa) has the bye in slot 1; slot 2 is Beta (top) – Gamma.
    # Beta has White on board 1, Gamma on board 2; boards numbered from 1 (the bye has none).
    assert matches(capsys, db, 1) == [(1, "Alfa", None, []),
                                      (2, "Beta", "Gamma", [(1, "Dora", "Gijs"), (2, "Hans", "Emil")])]
    bad(capsys, db, "team", "next", match="round 1 match 2 (Beta – Gamma) has results missing")

    # Game points: Dora wins board 1 (1-0), Emil wins board 2 with Black (0-1): Beta 2–0.
    ok(capsys, db, "result", "--round", "1", "1=1-0", "2=0-1")
    assert bracket(capsys, db)[(1, 2)] == ("Beta", "Gamma", [2, 0], "Beta", "regular 2–0")
    # Level on game points, split by board count: Beta wins board 1, Gamma board 2 (Hans with White).
    # BC = Σ board × points, lower wins: Beta 1·1 = 1, Gamma 2·1 = 2.
    ok(capsys, db, "team", "result", "1", "2", "1-0", "1-0", "--correct")
    assert bracket(capsys, db)[(1, 2)] == ("Beta", "Gamma", [1, 1], "Beta",
                                           "regular 1–1, board count 1 v 2 (lower wins)")
    assert bracket(capsys, db)[(2, 1)] == ("Alfa", "Beta", None, None, "to play")

    out = ok(capsys, db, "team", "next")
    assert out.strip() == "round 2 match 1: Alfa – Beta"
    # The final: Alfa on top, White on board 1.
    assert matches(capsys, db, 2) == [(1, "Alfa", "Beta", [(1, "Anna", "Dora"), (2, "Emil", "Bert")])]
    bad(capsys, db, "team", "next", match="results missing")
    ok(capsys, db, "team", "lineup", "2", "Alfa", "Bert", "Anna")  # Alfa swaps its boards
    assert matches(capsys, db, 2)[0][3] == [(1, "Bert", "Dora"), (2, "Emil", "Anna")]
    # Level on everything: two draws (game points 1–1, BC 1½ v 1½, board 1 ½–½).
    ok(capsys, db, "team", "result", "2", "1", "½-½", "½-½")
    assert bracket(capsys, db)[(2, 1)][3:] == (None, "level 1–1 after the regular games, also on board count "
                                               "and bottom-board elimination: the arbiter decides (an award)")
    bad(capsys, db, "team", "next", match="level after game points, board count and bottom-board elimination")
    bad(capsys, db, "team", "award", "2", "1", "Gamma", match="Gamma does not play in match 1 of round 2")
    bad(capsys, db, "team", "award", "2", "5", "Alfa", match="no match 5 in round 2")
    assert ok(capsys, db, "team", "award", "2", "1", "beta").strip() == "round 2 match 1 awarded to Beta"
    assert bracket(capsys, db)[(2, 1)] == ("Alfa", "Beta", [1, 1], "Beta", "awarded by the arbiter")
    bad(capsys, db, "team", "next", match="Beta won the final")
    # `keizer standings` shows the bracket as well.
    table = ok(capsys, db, "standings")
    assert "knock-out bracket" in table and "awarded by the arbiter" in table and "(bye)" in table
    assert json.loads(ok(capsys, db, "standings", "--format", "json")) == json.loads(
        ok(capsys, db, "team", "standings", "--format", "json"))


def test_bottom_board_elimination(tmp_path, capsys):
    # With two boards BBE can never decide (equal game points and equal BC mean equal boards),
    # so four boards.  Alfa scores 1, 0, 0, 1 by board; Beta 0, 1, 1, 0.  Game points 2–2;
    # BC Alfa 1 + 4 = 5, Beta 2 + 3 = 5; boards 1–3: Alfa 1, Beta 2 → Beta.
    teams = [("Alfa", "Anna", "Bert", "Carl", "Dirk"), ("Beta", "Dora", "Emil", "Fien", "Gijs")]
    db = knockout(tmp_path, capsys, teams, boards=4)
    ok(capsys, db, "team", "schedule")
    assert matches(capsys, db, 1)[0][3] == [(1, "Anna", "Dora"), (2, "Emil", "Bert"), (3, "Carl", "Fien"),
                                            (4, "Gijs", "Dirk")]
    ok(capsys, db, "team", "result", "1", "1", "1-0", "1-0", "0-1", "0-1")
    assert bracket(capsys, db)[(1, 1)] == ("Alfa", "Beta", [2, 2], "Beta",
                                           "regular 2–2, bottom-board elimination: boards 1–3 1–2")
    bad(capsys, db, "team", "next", match="Beta won the final")


def test_bad_input(tmp_path, capsys):
    db = knockout(tmp_path, capsys, TEAMS[:1])
    bad(capsys, db, "team", "schedule", match="at least two teams")
    bad(capsys, db, "team", "next", match="not been scheduled")
    rr = tmp_path / "rr.db"
    ok(capsys, rr, "competition", "create", "Viertal", "--system", "team", "--boards", "2")
    bad(capsys, rr, "team", "next", match="only a knock-out event")


def test_bracket_page(tmp_path, capsys):
    db = knockout(tmp_path, capsys)
    site = tmp_path / "site"
    publish(Store.open(db), site)  # before the schedule
    assert "not been scheduled" in next(site.rglob("bekerteams/index.html")).read_text(encoding="utf-8")
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "team", "result", "1", "2", "1-0", "1-0")
    ok(capsys, db, "team", "next")
    publish(Store.open(db), site)
    page = next(site.rglob("bekerteams/index.html"))
    html5lib.HTMLParser(strict=True).parse(page.read_bytes())
    text = page.read_text(encoding="utf-8")
    assert "Semi-finals" in text and "Final" in text and "board count 1 v 2" in text
    assert "Dora" in text and "Hans" in text  # the board results of the semi-final
    for html in site.rglob("*.html"):  # the season's front page shows the event too
        html5lib.HTMLParser(strict=True).parse(html.read_bytes())


def test_tie_break_stages_rapid_then_armageddon(tmp_path, capsys):
    """A match level on game points, board count and elimination goes to a rapid mini-match on
    the same boards with colours reversed, then to one armageddon game on board 1."""
    db = knockout(tmp_path, capsys, stages="rapid:2,armageddon:1")
    ok(capsys, db, "team", "schedule")
    out = ok(capsys, db, "team", "result", "1", "2", "½-½", "½-½")   # Beta – Gamma, level on everything
    assert "rapid next" in out
    assert "rapid tie-break on 2 boards" in ok(capsys, db, "team", "next")
    # The rapid boards: Gijs has White against Dora, Emil against Hans (reversed).
    assert matches(capsys, db, 1)[1][3] == [(1, "Dora", "Gijs"), (2, "Hans", "Emil"),
                                            (3, "Gijs", "Dora"), (4, "Emil", "Hans")]
    ok(capsys, db, "team", "result", "1", "2", "½-½", "½-½")           # the rapid match level too
    assert "armageddon tie-break on 1 board" in ok(capsys, db, "team", "next")
    assert matches(capsys, db, 1)[1][3][-1] == (5, "Dora", "Gijs")    # colours reversed once more
    out = ok(capsys, db, "team", "result", "1", "2", "½-½")            # a draw: Black (Gamma) goes through
    assert "Gamma goes through" in out
    assert bracket(capsys, db)[(1, 2)][3] == "Gamma"
    # The score shown is the match itself; the tie-break is in 'how'.
    assert bracket(capsys, db)[(1, 2)][2] == [1, 1]
    assert "round 2 match 1: Alfa – Gamma" in ok(capsys, db, "team", "next")


def test_tie_break_stages_are_checked(tmp_path, capsys):
    db = knockout(tmp_path, capsys)
    bad(capsys, db, "competition", "create", "X", "--system", "team", "--boards", "2", "--schedule", "knockout",
        "--stages", "rapid:3", match="at most the event's 2 boards")
    bad(capsys, db, "competition", "create", "Y", "--system", "team", "--boards", "2", "--schedule", "knockout",
        "--stages", "armageddon:1,rapid:2", match="comes after armageddon")
    bad(capsys, db, "competition", "create", "Z", "--system", "team", "--boards", "2", "--stages", "rapid:2",
        match="--stages is for knock-outs")
    bad(capsys, db, "competition", "create", "K", "--stages", "rapid:2", match="--stages is for knock-outs")


def test_match_states_are_translated_on_the_site(tmp_path, capsys):
    db = knockout(tmp_path, capsys)
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "result", "--round", "1", "1=0-1", "2=0-1")   # Beta 1–1 Gamma; board count Beta 2 v Gamma 1
    site = tmp_path / "nl"
    publish(Store.open(db), site, language="nl")
    page = next(site.rglob("bekerteams/index.html")).read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(page)
    assert "regulier 1–1, bordtelling 2 tegen 1 (laagste wint)" in page
    assert "nog te spelen" in page and "to play" not in page
    english = tmp_path / "en"
    publish(Store.open(db), english)
    assert "regular 1–1, board count 2 v 1 (lower wins)" in next(english.rglob("bekerteams/index.html")).read_text(
        encoding="utf-8")


def test_a_correction_that_no_longer_fits_the_bracket_is_refused(tmp_path, capsys):
    """A result corrected after the tie-break stage or the next round was stored from it
    would break the event: refused, the database unchanged."""
    db = knockout(tmp_path, capsys, stages="rapid:2")
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "team", "result", "1", "2", "½-½", "½-½")
    ok(capsys, db, "team", "next")                                  # the rapid stage
    bad(capsys, db, "result", "--round", "1", "--correct", "1=1-0", match="'keizer undo' back to before")
    ok(capsys, db, "team", "result", "1", "2", "1-0", "1-0")         # rapid: Gamma (White on 3) and Emil
    ok(capsys, db, "team", "next")                                  # the final
    bad(capsys, db, "team", "result", "--correct", "1", "2", "0-1", "0-1", match="stored already")


def test_an_award_that_overrides_the_games_warns(tmp_path, capsys):
    db = knockout(tmp_path, capsys)
    ok(capsys, db, "team", "schedule")
    ok(capsys, db, "result", "--round", "1", "1=1-0", "2=0-1")       # Beta 2–0 Gamma
    code, out, err = run(capsys, db, "team", "award", "1", "2", "Gamma")
    assert code == 0 and "warning: the games had decided the match for Beta" in err
    bad(capsys, tmp_path / "ko.db", "team", "award", "1", "1", "Alfa", match="is a bye")
