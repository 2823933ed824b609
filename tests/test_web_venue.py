"""The venue screen: a page without navigation for a TV, and its JSON, for every system;
the boards and the standing are the CLI's; names are text."""

from __future__ import annotations

import json

import pytest

from test_cli import run
from test_web_teams import team_event
from web_helpers import client_with_csrf, hashed_once, post, sample_app, text


def cli_json(capsys, db, comp, *args):
    code, out, err = run(capsys, db, "-c", str(comp), *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("comp", [1, 2, 3])
def test_weekly_boards_and_standing_as_on_the_cli(tmp_path, capsys, comp):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    page = client.get(f"/c/{comp}/venue")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'class="tabs"' not in body and "main-nav" not in body  # no navigation on the TV
    assert 'http-equiv="refresh" content="60"' in body and "venue.js" in body
    data = client.get(f"/c/{comp}/venue.json")
    assert data.status_code == 200 and data.mimetype == "application/json"
    d = data.get_json()
    pairing = cli_json(capsys, db, comp, "pairings")
    assert d["round"] == pairing["round"]
    assert [(b["board"], b["white"], b["black"], b["result"]) for b in d["boards"]] == \
        [(p["board"], p["white"], p["black"], p["result"]) for p in pairing["pairs"]]
    standing = cli_json(capsys, db, comp, "standings")
    key = "value" if comp == 1 else "points"
    assert [(r["rank"], r["name"], r[key]) for r in d["standing"]] == [(r["rank"], r["name"], r[key]) for r in standing]
    assert [r["name"] for r in d["table"]] == [r["name"] for r in standing]
    shown = text(page)
    assert pairing["pairs"][0]["white"] in shown and standing[0]["name"] in shown


def test_cup_shows_the_current_round(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    assert client.get("/c/4/venue").status_code == 200
    d = client.get("/c/4/venue.json").get_json()
    bracket = cli_json(capsys, db, 4, "knockout", "bracket")
    playing = min(m["round"] for m in bracket if m["winner"] == "" and m["top"] and m["bottom"])
    assert d["round"] == playing
    assert [(m["match"], m["top"], m["bottom"]) for m in d["matches"]] == \
        [(m["match"], m["top"], m["bottom"]) for m in bracket if m["round"] == playing]
    games = cli_json(capsys, db, 4, "pairings", "--round", str(playing))["pairs"]
    assert sorted(b["board"] for m in d["matches"] for b in m["boards"]) == [g["board"] for g in games]


def test_team_event_matches_and_standing(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    comp = team_event(capsys, db)
    assert run(capsys, db, "-c", str(comp), "team", "result", "1", "1", "1-0", "½-½")[0] == 0
    assert run(capsys, db, "-c", str(comp), "team", "result", "1", "2", "0-1", "0-1")[0] == 0
    client = client_with_csrf(app)
    page = client.get(f"/c/{comp}/venue")
    assert page.status_code == 200
    d = client.get(f"/c/{comp}/venue.json").get_json()
    matches = cli_json(capsys, db, comp, "team", "matches", "--round", "2")
    assert d["round"] == 2
    assert [(m["top"], m["bottom"]) for m in d["matches"]] == [(m["first"], m["second"]) for m in matches]
    standing = cli_json(capsys, db, comp, "team", "standings")
    assert [(r["rank"], r["name"], r["match_points"]) for r in d["standing"]] == \
        [(r["rank"], r["team"], r["match_points"]) for r in standing]
    body = page.get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_awkward_names_are_text_in_html_and_json(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    evil = ['<script>alert("x")</script>', "Dirk \"Q\" O'Neill", "Gé 🐴 Paard"]
    for name in evil:
        assert run(capsys, db, "member", "add", name)[0] == 0
    assert run(capsys, db, "competition", "create", "Avond", "--system", "swiss", "--rounds", "3")[0] == 0
    comp = next(c["id"] for c in json.loads(run(capsys, db, "competition", "list", "--format", "json")[1])
                if c["name"] == "Avond")
    assert run(capsys, db, "-c", str(comp), "player", "add", *evil, "Jan Smits")[0] == 0
    assert run(capsys, db, "-c", str(comp), "attend", "-p", evil[0], "-p", evil[1], "-p", evil[2], "-p",
               "Jan Smits")[0] == 0
    assert run(capsys, db, "-c", str(comp), "pair")[0] == 0
    client = client_with_csrf(app)
    body = client.get(f"/c/{comp}/venue").get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in body
    assert "O&#39;Neill" in body and "Gé 🐴 Paard" in body
    raw = client.get(f"/c/{comp}/venue.json").get_data()
    assert "Gé 🐴 Paard".encode() in raw  # UTF-8, not escapes
    d = json.loads(raw)
    names = {b[side] for b in d["boards"] for side in ("white", "black")}
    assert set(evil) <= names | set(d["byes"])


def test_an_arbiter_may_watch(tmp_path, capsys):
    app, db = sample_app(tmp_path, local=False)
    client = client_with_csrf(app)
    assert client.get("/c/1/venue.json").status_code in (302, 303)  # login first
    from keizer.operations import accounts
    from keizer.store import Store

    s = Store.open(db)
    with s.change("user add", "arbiter"), hashed_once():
        accounts.add_user(s, "scheids", "arbiter", "een lang wachtwoord 123")
    s.close()
    post(client, "/login", {"name": "scheids", "password": "een lang wachtwoord 123"})
    assert client.get("/c/1/venue").status_code == 200
    assert client.get("/c/1/venue.json").status_code == 200


def test_the_venue_data_is_computed_once_per_change_of_the_database(tmp_path, capsys, monkeypatch):
    """Many screens poll: the JSON is made again only after a write (here the CLI's)."""
    from keizer.web.views import venue as venue_view

    app, db = sample_app(tmp_path)
    client = app.test_client()
    made = []
    real = venue_view.screen_data
    monkeypatch.setattr(venue_view, "screen_data", lambda comp_id: made.append(comp_id) or real(comp_id))
    first = client.get("/c/3/venue.json").get_json()
    assert client.get("/c/3/venue.json").get_json() == first and made == [3]
    code, _, err = run(capsys, db, "-c", "3", "result", "1=1-0")
    assert code == 0, err
    after = client.get("/c/3/venue.json").get_json()
    assert made == [3, 3] and after != first


def test_screens_polling_at_the_same_moment_after_a_change_make_the_data_once(tmp_path, capsys, monkeypatch):
    """A thousand screens poll just after a report: one of them makes the data, the others get
    the data made before, at once (the load test found every one of them making it, and the
    server out of breath)."""
    import threading
    import time

    from keizer.web.views import venue as venue_view

    app, db = sample_app(tmp_path)
    made = []
    real = venue_view.screen_data

    def slow(comp_id: int):
        made.append(comp_id)
        time.sleep(0.3)  # long enough for every screen to ask meanwhile
        return real(comp_id)

    monkeypatch.setattr(venue_view, "screen_data", slow)
    app.test_client().get("/c/3/venue.json")
    assert run(capsys, db, "-c", "3", "result", "1=1-0")[0] == 0
    answers: list[int] = []
    start = threading.Barrier(12)

    def poll() -> None:
        start.wait()
        answers.append(app.test_client().get("/c/3/venue.json").status_code)

    threads = [threading.Thread(target=poll) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert answers == [200] * 12 and made == [3, 3]
