"""Team events in the season database: teams, schedules, line-ups, match results,
standings with team tie-breaks, TRF26 export and the site — through the `keizer` command."""

from __future__ import annotations

import json
import re

import html5lib
import pytest

from test_cli import bad, run
from keizer.formats.trf import dump, parse
from keizer.publish import publish
from keizer.store import Store
from keizer.operations.teams_trf import team_tournament
from keizer.tiebreaks import rank

#: Four teams of two boards and a reserve each: (team, board 1, board 2, reserve).
TEAMS = [("Alfa", "Anna", "Bert", "Carl"), ("Beta", "Dora", "Emil", "Fien"),
         ("Gamma", "Gijs", "Hans", "Ilse"), ("Delta", "Jan", "Kees", "Lies")]


def ok(capsys, db, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def as_json(capsys, db, *args: str):
    return json.loads(ok(capsys, db, *args, "--format", "json"))


def event(tmp_path, capsys, *options: str, teams=TEAMS, file: str = "teams.db"):
    """A team event "Viertal" with the given teams; every player is a club member first."""
    db = tmp_path / file
    for _, *people in teams:
        for person in people:
            ok(capsys, db, "member", "add", person, "--rating", str(2000 - 10 * len(person)))
    ok(capsys, db, "competition", "create", "Viertal", "--system", "team", *options)
    for team, *people in teams:
        boards = [x for p in people[:-1] for x in ("--board", p)]
        ok(capsys, db, "team", "add", team, *boards, "--reserve", people[-1])
    return db


@pytest.fixture
def four(tmp_path, capsys):
    return event(tmp_path, capsys, "--boards", "2")


def boards(capsys, db, r: int) -> list[tuple[int, str, str]]:
    return [(p["board"], p["white"], p["black"]) for p in as_json(capsys, db, "pairings", "--round", str(r))["pairs"]]


def play_four(capsys, db) -> None:
    """The 4-team round-robin of the tests, with a reserve in rounds 2 and 3.

    Berger, 4 teams: R1 Alfa–Delta, Beta–Gamma; R2 Delta–Gamma, Alfa–Beta;
    R3 Beta–Delta, Gamma–Alfa.  The first team has White on each match's first board.
    Scores (first team first): R1 1½–½, 2–0; R2 1½–½, ½–1½; R3 1–1, 1–1.
    """
    ok(capsys, db, "team", "schedule", "--first-date", "2026-09-01")
    ok(capsys, db, "result", "--round", "1", "1=1-0", "2=½-½", "3=1-0", "4=0-1")  # global board numbers
    ok(capsys, db, "team", "lineup", "2", "Alfa", "Anna", "Carl")  # Carl in for Bert on board 2
    ok(capsys, db, "team", "result", "2", "1", "1-0", "½-½")
    ok(capsys, db, "team", "result", "2", "2", "½-½", "1-0")
    ok(capsys, db, "team", "lineup", "3", "alfa", "Carl", "Anna")  # the reserve on board 1
    ok(capsys, db, "team", "result", "3", "1", "1-0", "1-0")
    ok(capsys, db, "team", "result", "3", "2", "0-1", "0-1")


def test_four_team_round_robin_hand_computed(four, capsys):
    teams = as_json(capsys, four, "team", "list")
    assert [(t["start_no"], t["name"], [m["name"] for m in t["boards"]], [m["name"] for m in t["reserves"]])
            for t in teams] == [(k, team, [b1, b2], [r]) for k, (team, b1, b2, r) in enumerate(TEAMS, 1)]
    out = ok(capsys, four, "team", "schedule", "--first-date", "2026-09-01", "--every", "14")
    assert "3 rounds scheduled" in out and "2026-09-29" in out
    # Boards run on through the round; the first team has White on its first board.
    assert boards(capsys, four, 1) == [(1, "Anna", "Jan"), (2, "Kees", "Bert"), (3, "Dora", "Gijs"),
                                       (4, "Hans", "Emil")]
    matches = as_json(capsys, four, "team", "matches", "--round", "2")
    assert [(m["match"], m["first"], m["second"], [b["board"] for b in m["boards"]]) for m in matches] == [
        (1, "Delta", "Gamma", [1, 2]), (2, "Alfa", "Beta", [3, 4])]

    play_four(capsys, four)
    assert boards(capsys, four, 2)[2:] == [(3, "Anna", "Dora"), (4, "Emil", "Carl")]
    assert boards(capsys, four, 3)[2:] == [(3, "Gijs", "Carl"), (4, "Anna", "Hans")]
    matches = as_json(capsys, four, "team", "matches")
    assert [m["score"] for m in matches] == [[1.5, 0.5], [2, 0], [1.5, 0.5], [0.5, 1.5], [1, 1], [1, 1]]

    rows = as_json(capsys, four, "team", "standings")
    # Match points 2/1/0: Beta W W D = 5; Alfa W L D = 3, Delta L W D = 3; Gamma L L D = 1.
    # Game points: Beta 2 + 1½ + 1, Alfa 1½ + ½ + 1, Delta ½ + 1½ + 1, Gamma 0 + ½ + 1.
    # Alfa and Delta tie on both; EDE: Alfa beat Delta 1½–½.  EMGSB = Σ opponent's MP × own GP:
    # Beta 1·2 + 3·1½ + 3·1 = 9½; Alfa 3·1½ + 5·½ + 1·1 = 8; Delta 3·½ + 1·1½ + 5·1 = 8;
    # Gamma 5·0 + 3·½ + 3·1 = 4½.
    assert [(r["rank"], r["team"], r["match_points"], r["game_points"], r["matches"], r["wins"], r["draws"],
             r["losses"], r["tiebreaks"]) for r in rows] == [
        (1, "Beta", 5, 4.5, 3, 2, 1, 0, {"MPVGP": 4.5, "EDE": None, "EMGSB": 9.5}),
        (2, "Alfa", 3, 3, 3, 1, 1, 1, {"MPVGP": 3, "EDE": 1, "EMGSB": 8}),
        (3, "Delta", 3, 3, 3, 1, 1, 1, {"MPVGP": 3, "EDE": 2, "EMGSB": 8}),
        (4, "Gamma", 1, 1.5, 3, 0, 1, 2, {"MPVGP": 1.5, "EDE": None, "EMGSB": 4.5}),
    ]
    after_one = as_json(capsys, four, "team", "standings", "--round", "1")
    assert [(r["team"], r["match_points"], r["game_points"]) for r in after_one] == [
        ("Beta", 2, 2), ("Alfa", 2, 1.5), ("Delta", 0, 0.5), ("Gamma", 0, 0)]
    assert as_json(capsys, four, "standings") == rows  # `keizer standings` shows the team standing
    table = ok(capsys, four, "team", "standings")
    assert "standing after round 3" in table and re.search(r"1\s+Beta\s+5\s+4\.5", table)


def test_team_result_names_the_score(four, capsys):
    ok(capsys, four, "team", "schedule")
    ok(capsys, four, "result", "--round", "1", "3=1-0")
    bad(capsys, four, "team", "result", "1", "2", "1-0", "0-1", match="board 3 of round 1 already has 1-0")
    # Board 3: Dora (Beta, White) draws; board 4: Emil (Beta, Black) wins.
    out = ok(capsys, four, "team", "result", "1", "2", "½-½", "0-1", "--correct")
    assert "round 1 match 2: Beta – Gamma 1½–½" in out


def test_crepaux_three_teams_of_four(tmp_path, capsys):
    teams = [(t, f"{t}1", f"{t}2", f"{t}3", f"{t}4", f"{t}R") for t in ("A", "B", "C")]
    db = event(tmp_path, capsys, "--boards", "4", "--schedule", "crepaux", teams=teams)
    out = ok(capsys, db, "team", "schedule")
    assert "2 rounds scheduled" in out
    # The seed example, White first by docs/crepaux.md, boards numbered through the round.
    assert [f"{w}-{b}" for _, w, b in boards(capsys, db, 1)] == ["A1-B1", "B2-A2", "C1-B3", "B4-C2", "A3-C3",
                                                                "C4-A4"]
    assert [f"{w}-{b}" for _, w, b in boards(capsys, db, 2)] == ["B3-A3", "A4-B4", "B1-C1", "C2-B2", "C3-A1",
                                                                "A2-C4"]
    matches = as_json(capsys, db, "team", "matches", "--round", "1")
    assert [(m["match"], m["first"], m["second"], [b["board"] for b in m["boards"]]) for m in matches] == [
        (1, "A", "B", [1, 2]), (2, "C", "B", [3, 4]), (3, "A", "C", [5, 6])]

    ok(capsys, db, "team", "result", "1", "1", "1-0", "½-½")   # A1 beats B1, A2–B2 drawn
    ok(capsys, db, "team", "result", "1", "2", "0-1", "½-½")   # B3 beats C1
    ok(capsys, db, "team", "result", "1", "3", "1-0", "1-0")   # A3 beats C3, C4 beats A4
    # After one evening no pairing of teams has played its four boards: nothing counts yet.
    assert [(r["match_points"], r["matches"]) for r in as_json(capsys, db, "team", "standings")] == [(0, 0)] * 3
    ok(capsys, db, "result", "--round", "2", "1=½-½", "2=1-0", "3=½-½", "4=½-½", "5=½-½", "6=½-½")
    # Each pair of teams is one match on four boards: A–B 3–1, B–C 2½–1½, A–C 2–2.
    # MP: A 2 + 1 = 3, B 0 + 2 = 2, C 0 + 1 = 1.  EMGSB: A 2·3 + 1·2 = 8; B 3·1 + 1·2½ = 5½; C 2·1½ + 3·2 = 9.
    rows = as_json(capsys, db, "team", "standings")
    assert [(r["rank"], r["team"], r["match_points"], r["game_points"], r["matches"], r["tiebreaks"]["EMGSB"])
            for r in rows] == [(1, "A", 3, 5, 2, 8), (2, "B", 2, 3.5, 2, 5.5), (3, "C", 1, 3.5, 2, 9)]
    bad(capsys, db, "export", "--format", "trf", match="a Crepaux event cannot be written as TRF")


def test_lineup_with_a_reserve_keeps_the_seats(tmp_path, capsys):
    teams = [(t, f"{t}1", f"{t}2", f"{t}3", f"{t}4", f"{t}R") for t in ("A", "B", "C")]
    db = event(tmp_path, capsys, "--boards", "4", "--schedule", "crepaux", teams=teams)
    ok(capsys, db, "team", "schedule")
    out = ok(capsys, db, "team", "lineup", "2", "C", "C1", "C2", "CR", "C4")
    assert "C plays 1 C1, 2 C2, 3 CR, 4 C4" in out
    # C3's seat in round 2 (against A1, White) goes to the reserve; round 1 is untouched.
    assert [f"{w}-{b}" for _, w, b in boards(capsys, db, 2)][4] == "CR-A1"
    assert [f"{w}-{b}" for _, w, b in boards(capsys, db, 1)][4] == "A3-C3"


def test_bad_input_is_one_line_and_changes_nothing(four, tmp_path, capsys):
    bad(capsys, four, "team", "lineup", "1", "Alfa", "Anna", "Bert", match="round 1 is not scheduled")
    ok(capsys, four, "member", "add", "Zoë")
    bad(capsys, four, "team", "add", "Epsilon", "--board", "Zoë", "--board", "Anna",
        match="Anna plays for Alfa already; a player is in one team only")
    bad(capsys, four, "team", "add", "Epsilon", "--board", "Zoë", match="give --board at least 2 times")
    bad(capsys, four, "team", "add", "Alfa", "--board", "Zoë", "--board", "Zoë", match="named twice")
    bad(capsys, four, "team", "add", "Epsilon", "--board", "Zoë", "--board", "Nobody", match="no member matches")
    ok(capsys, four, "team", "schedule")
    bad(capsys, four, "team", "add", "Epsilon", "--board", "Zoë", "--board", "Zoë", match="scheduled already")
    bad(capsys, four, "team", "lineup", "1", "Omega", "Anna", "Bert", match="no team matches 'Omega'")
    bad(capsys, four, "team", "lineup", "1", "Alfa", "Anna", "Dora", match="Dora is not in team Alfa")
    bad(capsys, four, "team", "lineup", "1", "Alfa", "Anna", match="name 2 players for Alfa")
    bad(capsys, four, "team", "result", "1", "3", "1-0", "0-1", match="round 1 has no match 3")
    bad(capsys, four, "team", "result", "1", "1", "1-0", match="has 2 boards and 1 results were given")
    bad(capsys, four, "team", "result", "1", "1", "1-0", "2-0", match="unknown result")
    ok(capsys, four, "team", "result", "1", "1", "1-0", "0-1")
    bad(capsys, four, "team", "lineup", "1", "Alfa", "Carl", "Anna", match="match 1 of round 1 has results already")
    bad(capsys, four, "team", "schedule", match="results have been entered already")
    bad(capsys, four, "team", "standings", "--round", "2", match="round 2 has not been played")

    crepaux = event(tmp_path, capsys, "--boards", "2", "--schedule", "crepaux", file="c.db")
    bad(capsys, crepaux, "team", "schedule", match="the Crepaux system is for exactly three teams and this event has 4")
    odd = event(tmp_path, capsys, "--boards", "3", "--schedule", "crepaux", file="o.db", teams=[
        (t, f"{t}1", f"{t}2", f"{t}3", f"{t}R") for t in ("A", "B", "C")])
    bad(capsys, odd, "team", "schedule", match="needs an even number of boards")

    three = event(tmp_path, capsys, "--boards", "2", teams=TEAMS[:3], file="t.db")
    ok(capsys, three, "team", "schedule")
    matches = as_json(capsys, three, "team", "matches", "--round", "1")
    assert [(m["first"], m["second"], m["boards"]) for m in matches][1] == ("Alfa", None, [])
    bad(capsys, three, "team", "result", "1", "2", "1-0", "1-0", match="match 2 of round 1 is the bye of Alfa")
    bad(capsys, three, "team", "lineup", "1", "Alfa", "Anna", "Bert", match="Alfa has a bye in round 1")

    keizer = tmp_path / "k.db"
    ok(capsys, keizer, "member", "add", "Anna")
    ok(capsys, keizer, "competition", "create", "Interne")
    bad(capsys, keizer, "team", "add", "Alfa", "--board", "Anna", match="cannot add a team in this keizer competition")


def test_undo_reverts_a_schedule(four, capsys):
    ok(capsys, four, "team", "schedule")
    assert "team schedule" in ok(capsys, four, "undo")
    assert as_json(capsys, four, "team", "matches") == []


def test_three_team_round_robin_bye_scores_nothing(tmp_path, capsys):
    db = event(tmp_path, capsys, "--boards", "2", teams=TEAMS[:3])
    ok(capsys, db, "team", "schedule")
    # R1 Beta–Gamma (Alfa free), R2 Alfa–Beta (Gamma free), R3 Gamma–Alfa (Beta free).
    for r, results in ((1, ("1-0", "1-0")), (2, ("1-0", "½-½")), (3, ("0-1", "½-½"))):
        ok(capsys, db, "team", "result", str(r), "1", *results)
    # Beta–Gamma 1–1, Alfa–Beta 1½–½, Gamma–Alfa ½–1½; the free rounds add nothing.  Beta and Gamma
    # stay level on everything: game points 1 + ½, their own match drawn, EMGSB 1·1 + 4·½ = 3.
    rows = as_json(capsys, db, "team", "standings")
    assert [(r["rank"], r["team"], r["match_points"], r["game_points"], r["matches"]) for r in rows] == [
        (1, "Alfa", 4, 3, 2), (2, "Beta", 1, 1.5, 2), (2, "Gamma", 1, 1.5, 2)]
    # TRF26 keeps the free rounds (record 320, worth 0 match and 0 game points) and ranks alike.
    path = tmp_path / "three.trf"
    ok(capsys, db, "export", "--format", "trf", "-o", str(path))
    assert "320  0.0  0.0   1   3   2" in path.read_text(encoding="utf-8")
    theirs = as_json(capsys, db, "trf", "standings", str(path))
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs] == \
           [(r["rank"], r["team"], r["match_points"], r["tiebreaks"]) for r in rows]


def test_trf26_export_round_trip(four, tmp_path, capsys):
    play_four(capsys, four)
    path = tmp_path / "teams.trf"
    ok(capsys, four, "export", "--format", "trf", "-o", str(path))
    text = path.read_text(encoding="utf-8")
    assert "310   1 Alfa" in text and "202 MPVGP,EDE,EMGSB" in text and "352 WB" in text
    assert "300   3   1   3" in text  # round 3: Alfa fields its reserve (start number 3) on board 1
    # The file ranks as the database does: `keizer trf standings` on the export.
    theirs = as_json(capsys, four, "trf", "standings", str(path))
    ours = as_json(capsys, four, "team", "standings")
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs] == \
           [(r["rank"], r["team"], r["match_points"], r["tiebreaks"]) for r in ours]
    store = Store.open(four)
    t = team_tournament(store, store.competition()["id"])
    store.close()
    back = parse(dump(t))
    assert back.teams == t.teams and back.boards == 2
    assert [(p.start_no, p.results) for p in back.players] == [(p.start_no, p.results) for p in t.players]
    assert rank(back, list(t.tiebreaks)) == rank(t, list(t.tiebreaks))


def test_team_site_pages(four, tmp_path, capsys):
    play_four(capsys, four)
    out = tmp_path / "site"
    store = Store.open(four)
    publish(store, out)
    folder = store.competition()["season"]  # the season stored when the event was created
    store.close()
    comp = out / folder / "viertal"
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    found = sorted(out.rglob("*.html"))
    for page in found:
        parser.parse(page.read_bytes())  # raises on any parse error
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"""(?:src|href)=["']([^"'#]+)["']""", text):
            assert (page.parent / target).resolve().exists(), f"{page}: {target}"
    assert {p.relative_to(comp).as_posix() for p in comp.rglob("*.html")} == {
        "index.html", "crosstable.html", "round-1.html", "round-2.html", "round-3.html",
        "teams/alfa.html", "teams/beta.html", "teams/gamma.html", "teams/delta.html"}
    index = (comp / "index.html").read_text(encoding="utf-8")
    assert re.search(r'teams/beta\.html">Beta</a></td>\s*<td class="num key">5</td><td class="num key">4\.5</td>',
                     index)
    cross = (comp / "crosstable.html").read_text(encoding="utf-8")
    assert re.search(r'alfa\.html">Alfa</a></th>\s*<td class="center self"></td><td class="center">0\.5–1\.5</td>'
                     r'<td class="center">1–1</td><td class="center">1\.5–0\.5</td>', cross)
    alfa = (comp / "teams" / "alfa.html").read_text(encoding="utf-8")
    assert "Carl <small>(reserve)</small>" in alfa
    assert '<td>Carl</td><td class="center">black</td><td>Gijs</td><td class="center">1</td>' in alfa
    season = (out / folder / "index.html").read_text(encoding="utf-8")
    assert "Results of round 3" in season and "viertal/teams/beta.html" in season
    dutch = tmp_path / "nl"
    store = Store.open(four)
    publish(store, dutch, language="nl")
    store.close()
    assert "Matchpunten" in (dutch / folder / "viertal" / "index.html").read_text(encoding="utf-8")
