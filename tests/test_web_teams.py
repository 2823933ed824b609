"""The team event page: teams, schedule, line-ups, board results, the standing and the
next round — the same database as ``keizer team …`` gives, and the CLI's refusals."""

from __future__ import annotations

import json
import re
import shutil

from test_cli import run
from web_helpers import client_with_csrf, digest, post, sample_app, text

TEAMS = [("<script>alert(1)</script>", "Anna", "Bert", "Carl"), ("Beta 🐴", "Dora", "Emil", "Fien"),
         ("Gamma \"G\"", "Gijs", "Hans", "Ilse"), ("Delta's", "Jan", "Kees", "Lies")]


def ok(capsys, db, *args):
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def team_event(capsys, db, *options: str, schedule: bool = True) -> int:
    """A team event of four teams of two boards (and a reserve) on a copy of the sample; its id."""
    for _, *people in TEAMS:
        for person in people:
            ok(capsys, db, "member", "add", f"{person} Teamlid", "--rating", str(1500 + 10 * len(person)))
    ok(capsys, db, "competition", "create", "Viertal", "--system", "team", "--boards", "2", *options)
    comp = next(c["id"] for c in json.loads(ok(capsys, db, "competition", "list", "--format", "json"))
                if c["name"] == "Viertal")
    for team, *people in TEAMS:
        ok(capsys, db, "-c", str(comp), "team", "add", team, "--board", f"{people[0]} Teamlid",
           "--board", f"{people[1]} Teamlid", "--reserve", f"{people[2]} Teamlid")
    if schedule:
        ok(capsys, db, "-c", str(comp), "team", "schedule", "--first-date", "2026-09-01")
    return comp


def as_json(capsys, db, comp, *args):
    return json.loads(ok(capsys, db, "-c", str(comp), *args, "--format", "json"))


def test_page_shows_teams_schedule_and_escapes_names(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db)
    page = client_with_csrf(app).get(f"/c/{comp}/teams")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "Beta 🐴" in body and "Gamma &#34;G&#34;" in body and "Delta&#39;s" in body
    for m in as_json(capsys, db, comp, "team", "matches"):
        for b in m["boards"]:
            assert b["white"] in text(page)


def test_results_lineup_and_standing_as_on_the_cli(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db)
    cli_db = tmp_path / "cli.db"
    shutil.copy(db, cli_db)
    client = client_with_csrf(app)
    url = f"/c/{comp}/teams"
    boards = [p["board"] for p in as_json(capsys, db, comp, "pairings", "--round", "1")["pairs"]]
    page = post(client, f"{url}/result", {"round": "1", f"b{boards[0]}": "1-0", f"b{boards[1]}": "1/2-1/2",
                                          f"b{boards[2]}": "0-1", f"b{boards[3]}": "+-", "back": url})
    assert "round 1: 4 results entered; round complete" in text(page)
    ok(capsys, cli_db, "-c", str(comp), "team", "result", "1", "1", "1-0", "½-½")
    ok(capsys, cli_db, "-c", str(comp), "team", "result", "1", "2", "0-1", "+-")
    # A reserve moves in for round 2 (by player id, as the form's menu sends).
    alfa = next(t for t in as_json(capsys, db, comp, "team", "list") if t["name"] == TEAMS[0][0])
    page = post(client, f"{url}/lineup", {"round": "2", "team": TEAMS[0][0], "player": [
        alfa["reserves"][0]["id"], alfa["boards"][0]["id"]], "back": url})
    assert "round 2: " in text(page) and "plays 1 Carl Teamlid, 2 Anna Teamlid" in text(page)
    ok(capsys, cli_db, "-c", str(comp), "team", "lineup", "2", TEAMS[0][0], "Carl Teamlid", "Anna Teamlid")
    for args in (("team", "standings"), ("team", "matches")):
        assert as_json(capsys, db, comp, *args) == as_json(capsys, cli_db, comp, *args)
    assert TEAMS[0][0] not in client.get(url).get_data(as_text=True)  # escaped in the standing too


def test_refusals_leave_the_file_as_it_was(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db)
    client = client_with_csrf(app)
    url = f"/c/{comp}/teams"
    before = digest(db)
    cases = [
        (f"{url}/result", {"round": "1", "b1": "2-0"}, ("result", "--round", "1", "1=2-0")),
        (f"{url}/result", {"round": "1", "b9": "1-0"}, ("result", "--round", "1", "9=1-0")),
        (f"{url}/lineup", {"round": "2", "team": "Beta 🐴", "player": ["Anna Teamlid", "Dora Teamlid"]},
         ("team", "lineup", "2", "Beta 🐴", "Anna Teamlid", "Dora Teamlid")),
        (f"{url}/next", {}, ("team", "next")),
        (f"{url}/award", {"round": "1", "match": "1", "team": "Beta 🐴"}, ("team", "award", "1", "1", "Beta 🐴")),
    ]
    for form_url, form, args in cases:
        code, _, err = run(capsys, db, "-c", str(comp), *args)
        assert code == 1 and err.startswith("error: "), args
        page = post(client, form_url, {**form, "back": url})
        # the app says the CLI's refusal, with its own pages where the CLI names a command
        said = re.split(r" \(|, |; ", err.strip())[0] if "'keizer " in err else err.strip()
        assert said in text(page), (args, text(page)[:400])
        assert digest(db) == before


def test_swiss_event_built_and_continued_from_the_page(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db, "--schedule", "swiss", "--rounds", "3", schedule=False)
    client = client_with_csrf(app)
    url = f"/c/{comp}/teams"
    assert client.get(url).status_code == 200
    page = post(client, f"{url}/schedule", {"first_date": "2026-09-01", "every": "7", "back": url})
    assert "scheduled" in text(page)
    pairs = as_json(capsys, db, comp, "pairings", "--round", "1")["pairs"]
    post(client, f"{url}/result", {"round": "1", **{f"b{p['board']}": "1-0" for p in pairs}, "back": url})
    page = post(client, f"{url}/next", {"date": "2026-09-08", "back": url})
    assert "round 2 match 1" in text(page)
    assert len(as_json(capsys, db, comp, "team", "matches", "--round", "2")) == 2
    assert client.get(url).status_code == 200 and client.get(f"/c/{comp}/venue").status_code == 200


def test_knockout_event_and_award(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db, "--schedule", "knockout")
    client = client_with_csrf(app)
    url = f"/c/{comp}/teams"
    assert client.get(url).status_code == 200
    pairs = as_json(capsys, db, comp, "pairings", "--round", "1")["pairs"]
    post(client, f"{url}/result", {"round": "1", **{f"b{p['board']}": "1-0" for p in pairs}, "back": url})
    page = post(client, f"{url}/award", {"round": "1", "match": "1", "team": TEAMS[0][0], "back": url})
    assert "awarded to" in text(page)
    rows = as_json(capsys, db, comp, "team", "standings")
    assert next(r for r in rows if (r["round"], r["match"]) == (1, 1))["winner"] == TEAMS[0][0]
    assert client.get(url).status_code == 200
    assert client.get(f"/c/{comp}/venue.json").status_code == 200


def test_other_systems_have_no_team_page(tmp_path):
    app, _ = sample_app(tmp_path)
    assert client_with_csrf(app).get("/c/1/teams").status_code == 404
