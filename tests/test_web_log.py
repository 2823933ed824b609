"""The change log and undo; and what an arbiter may not do on the officer's pages."""

from __future__ import annotations

import json
import re
import sqlite3
import shutil

import pytest

from keizer.operations import accounts
from keizer.store import Store
from keizer.web.views.changes import when
from test_cli import run
from web_helpers import TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

NASTY = "Zoë <script>alert(1)</script> \"x\" 🐴"


@pytest.fixture
def web(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def changes(db, limit=5):
    s = Store.open(db)
    try:
        return s.changes(limit)
    finally:
        s.close()


def test_the_log_newest_first_with_origin(web, capsys):
    app, db, client = web
    post(client, "/members/add", {"name": NASTY, "back": "/members"})
    assert run(capsys, db, "member", "add", "Via De Terminal")[0] == 0
    page = client.get("/log")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    shown = text(page)
    newest, older = shown.index("add member Via De Terminal"), shown.index(f"add member {NASTY}")
    assert newest < older  # newest first
    assert "web (no accounts) from 127.0.0.1" in shown and "member add" in shown
    assert len(re.findall(r"<tr>", body)) - 1 == min(len(changes(db, 1000)), 50)  # rows (minus the head)
    assert "Undo the last change" in shown
    assert "error: n 'x' is not a whole number" in text(client.get("/log?n=x"))


def test_undo_says_what_it_reverts_and_reverts_it(web, tmp_path, capsys):
    app, db, client = web
    post(client, "/members/add", {"name": NASTY, "rating": "1500", "back": "/members"})
    last = changes(db, 1)[0]
    cli = tmp_path / "cli.db"
    shutil.copy(db, cli)
    code, out, err = run(capsys, cli, "undo", "--yes")
    assert code == 0, err
    confirm = client.get("/log/undo")
    assert confirm.status_code == 200
    what = out.strip().removeprefix("undone: ")  # the CLI's "'member add' of … by …: add member …"
    assert what.startswith("'member add' of ") and " by web (no accounts) from 127.0.0.1: add member " in what
    # the page says the same change in a volunteer's words: what, when (the club's clock), by whom
    summary = " ".join(what.split(": ", 1)[1].split())
    assert summary in text(confirm) and "by web (no accounts) from 127.0.0.1" in text(confirm)
    assert "made " + when(last["at"]) in text(confirm) and "+00:00" not in text(confirm)
    assert f'name="change" value="{last["id"]}"' in confirm.get_data(as_text=True)
    assert "<script>alert" not in confirm.get_data(as_text=True)
    page = post(client, "/log/undo", {"change": str(last["id"]), "back": "/log/undo"})
    assert "undone: " + " ".join(what.split()) in text(page)
    # The same change reverted as the CLI reverts it; the app's log keeps a line saying so
    # (issue 20: an undo left no trace in the log).
    undone = changes(db, 1)[0]
    assert undone["command"] == "undo" and undone["summary"] == "undone: " + last["summary"]
    assert undone["origin"] == "web (no accounts) from 127.0.0.1"
    assert changes(db, 4)[1:] == changes(cli, 3)
    s = Store.open(db)
    try:
        assert not [m for m in s.members() if m["name"] == NASTY]
    finally:
        s.close()


def test_undo_refuses_a_stale_change_id(web, capsys):
    app, db, client = web
    post(client, "/members/add", {"name": "Eerste", "back": "/members"})
    seen = changes(db, 1)[0]["id"]
    # someone else writes meanwhile (the CLI on the same file)
    assert run(capsys, db, "member", "add", "Tweede")[0] == 0
    before = digest(db)
    page = post(client, "/log/undo", {"change": str(seen), "back": "/log/undo"})
    assert "another command wrote to the database meanwhile, so nothing was undone" in text(page)
    assert digest(db) == before
    assert "add member Tweede" in text(page)  # the confirmation now shows the change that is last
    for bad in ("", "abc", "-1"):
        assert "error: change" in text(post(client, "/log/undo", {"change": bad, "back": "/log"}))
    assert digest(db) == before


@pytest.fixture
def arbiter(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    s = Store.open(db)
    try:
        with s.change("user add", "add user"), hashed_once():
            accounts.add_user(s, "scheids", "arbiter", "een lang wachtwoord")
    finally:
        s.close()
    client = app.test_client()
    login = client.get("/login")
    assert login.status_code == 200
    token = re.search(r'name="csrf" value="([^"]+)"', login.get_data(as_text=True))
    csrf = token.group(1) if token else TOKEN
    if not token:
        with client.session_transaction() as session:
            session["csrf"] = TOKEN
    page = client.post("/login", data={"csrf": csrf, "name": "scheids", "password": "een lang wachtwoord"})
    assert page.status_code == 303
    with client.session_transaction() as session:
        session["csrf"] = TOKEN  # the forms of the test send the known token
    return app, db, client


def test_an_arbiter_may_read_the_log_but_not_write_the_officers_pages(arbiter):
    app, db, client = arbiter
    page = client.get("/log")
    assert page.status_code == 200 and "scheids (arbiter)" in text(page)
    assert "Undo the last change" not in text(page)
    for url in ("/members", "/members/17/edit", "/competitions", "/c/1/settings", "/c/1/players", "/log/undo"):
        assert client.get(url).status_code == 403, url
    before = digest(db)
    last = changes(db, 1)[0]["id"]
    for url, form in (("/members/add", {"name": "Stiekem"}),
                      ("/members/17/edit", {"name": "Stiekem"}),
                      ("/members/import/apply", {"token": "x" * 32}),
                      ("/competitions/create", {"system": "keizer", "name": "Stiekem"}),
                      ("/c/1/settings", {"s-excused": "1"}),
                      ("/c/1/order", {"by": "rating"}),
                      ("/c/1/timecontrol", {"time_control": "rapid", "rounds": "1"}),
                      ("/c/1/players/withdraw", {"player": "1"}),
                      ("/log/undo", {"change": str(last)})):
        refused = post(client, url, {**form, "back": "/log"}, follow=False)
        assert refused.status_code in (303, 403), url
        page = client.get(refused.headers["Location"]) if refused.status_code == 303 else refused
        assert "error: only an officer may do this" in text(page), url
        assert digest(db) == before, url
    upload = client.post("/members/import", data={"csrf": TOKEN, "kind": "members", "back": "/log"},
                         follow_redirects=True)
    assert "only an officer may do this" in text(upload) and digest(db) == before


def test_a_dutch_club_reads_its_log_in_dutch(web, capsys):
    """What, by whom and the command: worded from the change's messages in the club's language;
    'keizer log' prints the stored English text as it always did."""
    app, db, client = web
    assert run(capsys, db, "club", "--language", "nl")[0] == 0
    post(client, "/members/add", {"name": "Zoë Visser", "back": "/members"})
    shown = text(client.get("/log"))
    assert "lid Zoë Visser toegevoegd" in shown and "lid toevoegen" in shown
    assert "web (zonder accounts) vanaf 127.0.0.1" in shown and "web (no accounts)" not in shown
    assert "wedstrijdleider op clublaptop" in shown  # the demo season's own entries
    confirm = text(client.get("/log/undo"))
    assert "De laatste wijziging is lid Zoë Visser toegevoegd" in confirm
    assert "door web (zonder accounts) vanaf 127.0.0.1" in confirm
    last = changes(db, 1)[0]
    assert (last["summary"], last["origin"]) == ("add member Zoë Visser", "web (no accounts) from 127.0.0.1")
    code, out, _err = run(capsys, db, "log", "-n", "1", "--format", "json")
    assert code == 0 and list(json.loads(out)[0]) == ["id", "at", "command", "summary", "origin"]
    page = post(client, "/log/undo", {"change": str(last["id"]), "back": "/log/undo"})
    assert "ongedaan gemaakt: 'lid toevoegen' van " in text(page) and ": lid Zoë Visser toegevoegd" in text(page)


def test_an_entry_logged_as_text_shows_its_text(web):
    """An older file's entries have no messages: the log shows what was stored."""
    app, db, client = web
    post(client, "/members/add", {"name": "Oud Lid", "back": "/members"})
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE changes SET summary = 'an old summary', origin = 'an old origin', said = NULL "
                     "WHERE id = (SELECT max(id) FROM changes)")
    conn.close()
    shown = text(client.get("/log"))
    assert "an old summary" in shown and "an old origin" in shown and "add member Oud Lid" not in shown
    assert "De laatste" not in text(client.get("/log/undo")) and "an old summary" in text(client.get("/log/undo"))
