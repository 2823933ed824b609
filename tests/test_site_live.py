"""The evening as it happens (issue 24): a result entered in the app is on the club's web host
moments later — the round's page says "Provisional: 1 of 15 results in" with the provisional
standing, the front page "provisional, 1 of 15 results in" — published and uploaded in the
background to the club's upload address (here a real FTP server on 127.0.0.1), only what
changed; read back from the FTP server.  A club without an upload address publishes nothing.
"""

from __future__ import annotations

import ftplib
import io
import json
from pathlib import Path

import pytest

from keizer.publish import live
from keizer.publish.slugs import slugify
from keizer.store import Store
from test_site_member import KEIZER, keizer
from upload_servers import PASSWORD, USER, ftp_server
from web_helpers import TOKEN, client_with_csrf, sample_app

pytestmark = pytest.mark.slow  # two publishes and uploads of the sample club: some 10 s on a busy machine

ROUND = f"2025-2026/{slugify(KEIZER)}/round-31.html"


def read_back(port: int, path: str) -> str:
    """A file as the FTP server serves it."""
    data = io.BytesIO()
    with ftplib.FTP() as ftp:
        ftp.connect("127.0.0.1", port, timeout=10)
        ftp.login(USER, PASSWORD)
        ftp.retrbinary(f"RETR site/{path}", data.write)
    return data.getvalue().decode("utf-8")


def enter(client, board: int, typed: str):
    reply = client.post("/c/1/results", data={"csrf": TOKEN, "round": "31", f"r{board}": typed, f"was{board}": ""},
                        headers={"X-Requested-With": "keizer"})
    assert reply.status_code == 200, reply.get_data(as_text=True)
    return reply.get_json()


def test_a_result_entered_in_the_app_is_on_the_club_site_moments_later(tmp_path, monkeypatch):
    app, db = sample_app(tmp_path)
    keizer(db, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(db, "-c", "1", "pair")
    host = tmp_path / "host"
    host.mkdir()
    with ftp_server(host) as (port, counter):
        keizer(db, "club", "--upload", f"ftp://{USER}@127.0.0.1:{port}/site")  # set in a terminal: the app may use it
        monkeypatch.setenv("KEIZER_UPLOAD_PASSWORD", PASSWORD)
        client = client_with_csrf(app)
        assert enter(client, 1, "1")["ok"] == ("round 31: 1 result entered; boards still open: 2, 3, 4, 5, 6, 7, 8, 9, "
                                               "10, 11, 12, 13, 14, 15")
        assert live.wait(db, 120) == 1
        page = read_back(port, ROUND)
        assert "Provisional: 1 of 15 results in" in page
        assert "<h2>Provisional standing after round 31, 1 of 15 results in</h2>" in page
        assert '<td class="center key">1–0</td>' in page
        assert "provisional, 1 of 15 results in" in read_back(port, "index.html")
        first = counter.stored

        # The next result: only the pages that show it are sent again.
        enter(client, 2, "=")
        assert live.wait(db, 120) == 2
        again = counter.stored - first
        manifest = json.loads(read_back(port, ".keizer-manifest.json"))
        assert 0 < again < 40 < first and len(manifest["files"]) >= first - 5
        assert "Provisional: 2 of 15 results in" in read_back(port, ROUND)
        assert "<td class=\"center key\">½–½</td>" in read_back(port, ROUND)


def test_without_an_upload_address_nothing_is_published(tmp_path):
    app, db = sample_app(tmp_path)
    keizer(db, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(db, "-c", "1", "pair")
    enter(client_with_csrf(app), 1, "1")
    assert live.wait(db, 5) == 0 and not (tmp_path / "site").exists()


def test_an_address_set_only_in_the_app_does_not_get_the_servers_password(tmp_path):
    """The club's upload address changed from the app (not a terminal): the server's own password
    may not go there, so the app does not send the site by itself."""
    from keizer.operations.club import set_club

    _, db = sample_app(tmp_path)
    store = Store.open(db)
    try:
        with store.change("club", "club settings"):
            set_club(store, upload="ftp://someone@127.0.0.1:21/site")
        assert live.live_target(store) is None and not live.result_entered(store, db)
    finally:
        store.close()


def test_a_result_reported_from_the_board_and_confirmed_goes_up_too(tmp_path, monkeypatch):
    """A player reports from the board link on a phone, the officer confirms: the round-robin's
    round page on the host says so."""
    from test_web_boards import make_links, phone

    app, db = sample_app(tmp_path)
    codes = make_links(app)
    host = tmp_path / "host"
    host.mkdir()
    with ftp_server(host) as (port, _):
        keizer(db, "club", "--upload", f"ftp://{USER}@127.0.0.1:{port}/site")
        monkeypatch.setenv("KEIZER_UPLOAD_PASSWORD", PASSWORD)
        client = client_with_csrf(app)
        reported = phone(app).post(f"/b/{codes[3]}", data={"csrf": TOKEN, "side": "black", "result": "0-1"})
        assert reported.status_code == 200 and live.wait(db, 5) == 0  # a report alone is not a result
        done = client.post("/c/3/reports/confirm", data={"csrf": TOKEN, "round": "5", "board": "3", "result": "0-1"})
        assert done.status_code == 303  # back to the reports page
        assert live.wait(db, 120) == 1
        page = read_back(port, "2025-2026/meerkamp-a/round-5.html")
        assert "Provisional: 1 of 3 results in" in page and '<td class="center key">0–1</td>' in page
