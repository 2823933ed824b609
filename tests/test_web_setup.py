"""A new club without a terminal (issue 20): ``keizer serve`` on a file that does not exist.

Only who holds the link the server printed on its terminal may create the club; everyone else
(a stranger on the network, a page elsewhere, a replay of the link) is refused and nothing is
written.  Every test here goes through the real server (waitress on 127.0.0.1)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from served import Served
from web_helpers import digest

FORM = {"name": "SV Caïssa", "language": "nl", "colour": "#004080", "competition": "Interne 2026-2027",
        "preset": "knsb-sixths", "officer": "Anna", "password": "correct horse", "password2": "correct horse"}


def setup_link(server: Served) -> str:
    """The one-time link ``keizer serve`` printed on its terminal (the path of it)."""
    assert server.process.stdout is not None
    for _ in range(5):
        line = server.process.stdout.readline()
        found = re.search(r"http://[^/]+(/setup/\S+)", line)
        if found:
            return found.group(1)
    raise AssertionError("keizer serve printed no link to create the club")


def _send(client, form: dict[str, str]):
    """The setup form as its page sends it (with the form token of that page)."""
    return client.post("/setup", {**form, "csrf": client.csrf("/setup")})


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def new_club(tmp_path):
    db = tmp_path / "club.db"
    with Served(db) as server:
        yield server, db, setup_link(server)


def test_a_stranger_without_the_link_creates_nothing(new_club, tmp_path):
    server, db, link = new_club
    stranger = server.client()
    assert stranger.get("/").location.endswith("/setup")  # every page leads to the form …
    assert stranger.get("/members").location.endswith("/setup")
    page = stranger.get("/setup")
    assert page.status == 403  # … which, without the link, says where the link is
    assert "open the link it printed when it started" in page.text()
    assert 'name="officer"' not in page.body
    assert 'name="csrf"' not in page.body  # not even a form token to send anything with
    wrong = link[:-4] + ("aaaa" if not link.endswith("aaaa") else "bbbb")
    assert stranger.get(wrong).status == 404
    assert stranger.get("/setup").status == 403  # a guessed link gave that browser nothing
    assert stranger.post("/members/add", {"name": "Mallory"}, csrf=False).status == 400
    for public in ("/login", "/m/abcdefgh", "/b/ABCDEFGH"):  # the pages without a login lead there too
        assert stranger.get(public).location.endswith("/setup"), public
    assert stranger.post("/login", {"name": "Anna", "password": "x"}, csrf=False).status == 400
    assert stranger.post("/setup", FORM, csrf=False).status == 400  # no form token: refused before anything
    assert not db.exists() and _files(tmp_path) == []
    assert "Traceback" not in server.errors()


def test_a_page_elsewhere_cannot_use_the_link(new_club, tmp_path):
    server, db, link = new_club
    rebound = server.client(host="evil.example")  # DNS rebinding: the link through another name
    assert rebound.get(link).status == 400
    assert "keizer_session" not in rebound.cookies
    assert not db.exists()


def test_the_link_creates_the_club_once_and_logs_its_officer_in(new_club, tmp_path):
    server, db, link = new_club
    officer = server.client()
    assert officer.get(link).location.endswith("/setup")
    form = officer.get("/setup")
    assert form.status == 200 and 'name="officer"' in form.body
    assert "7/20 of own value" in form.text()  # the presets' table, in words
    done = _send(officer, FORM)
    assert done.status == 303 and done.location.endswith("/members")
    assert db.exists() and _files(tmp_path) == ["club.db"]  # made aside, linked into place, nothing left over
    members = officer.get("/members")
    assert members.status == 200 and "SV Caïssa" in members.text() and "Anna (wedstrijdleider)" in members.text()
    assert "de club SV Caïssa is aangemaakt" in members.text()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT name, role FROM users").fetchall() == [("Anna", "officer")]
        assert conn.execute("SELECT name, preset FROM competitions").fetchall() == [("Interne 2026-2027", "knsb-sixths")]
        assert dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'club_%'").fetchall())["club_language"] == "nl"
        assert conn.execute("SELECT command FROM changes").fetchall() == [("club create",)]
    assert int.from_bytes(db.read_bytes()[24:28], "big") == 1  # the schema and the club: one transaction
    before = digest(db)
    # The link is spent: not for this browser, not for another, not by a replayed form.
    assert officer.get(link).status == 404
    other = server.client()
    assert other.get(link).status == 404
    assert other.get("/").location.startswith("/login")  # the club's app now asks for a login
    assert officer.post("/setup", {**FORM, "officer": "Mallory"}).location.endswith("/")  # the club exists: home
    assert digest(db) == before
    assert "Traceback" not in server.errors()


def test_a_refused_form_writes_nothing_and_keeps_the_link(new_club, tmp_path):
    server, db, link = new_club
    officer = server.client()
    officer.get(link)
    english = {**FORM, "language": "en"}
    short = _send(officer, {**english, "password": "short", "password2": "short"})
    assert short.status == 400
    assert "error: the password is too short: use at least 10 characters" in short.text()
    assert 'value="SV Caïssa"' in short.body  # what was typed stays
    differ = _send(officer, {**english, "password2": "another horse"})
    assert "the two passwords differ" in differ.text()
    bad_colour = _send(officer, {**english, "colour": "blue"})
    assert "colour must be a colour like #1f4e79" in bad_colour.text()
    dutch = _send(officer, {**FORM, "password": "short", "password2": "short"})
    assert "fout: " in dutch.text() and "Chess club" not in dutch.text()  # the language chosen, at once
    assert not db.exists() and _files(tmp_path) == []
    assert _send(officer, FORM).status == 303  # the link still works after a refusal
    assert db.exists()


def test_serve_on_a_missing_folder_says_so(tmp_path, capsys):
    from test_cli import run

    code, _out, err = run(capsys, tmp_path / "nowhere" / "club.db", "serve", "--port", "1")
    assert code != 0 and "there is no folder" in err and "Traceback" not in err


def test_a_form_with_a_session_but_without_the_link_is_refused(tmp_path):
    """Even a browser holding a form token (of a session of its own) creates nothing without the link."""
    from keizer.web import create_app
    from web_helpers import client_with_csrf, post

    db = tmp_path / "club.db"
    app = create_app(db, local=True, secret_key="test", setup_token="the-token")
    client = client_with_csrf(app)
    refused = post(client, "/setup", FORM, follow=False)
    assert refused.status_code == 403 and not db.exists()
    assert client.get("/setup/not-the-token").status_code == 404
    assert post(client, "/setup", FORM, follow=False).status_code == 403 and not db.exists()
    assert client.get("/setup/the-token").status_code == 303
    assert post(client, "/setup", FORM, follow=False).status_code == 303 and db.exists()
