"""Nobody gets in who should not: the attacks of the security review, each through the real
server (`keizer serve`, waitress on 127.0.0.1) as a hostile web page, a stranger on the
internet or a member of the club would make them, and each refused in one line with the
database as it was.  docs/web.md ("Who may do what") is the threat model these follow."""

from __future__ import annotations

import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from keizer.store import Store
from served import ReverseProxy, Served, free_port, sample_copy
from test_web import PASSWORD, with_users
from web_helpers import digest

EVIL = "evil.example"


def users(db: Path) -> list[str]:
    store = Store.open(db)
    try:
        return [u["name"] for u in store.users()]
    finally:
        store.close()


def origins(db: Path) -> list[str]:
    store = Store.open(db)
    try:
        return [c["origin"] for c in store.changes(5)]
    finally:
        store.close()


@contextmanager
def recording_ftp() -> Iterator[tuple[int, list[str]]]:
    """Enough of an FTP server (RFC 959: USER, then PASS) to be sent a password: it records every
    line it is told and refuses every login.  Yields (port, lines)."""
    told: list[str] = []
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(30)

    def serve() -> None:
        try:
            while True:
                conn, _ = listener.accept()
                with conn, conn.makefile("rwb") as f:
                    f.write(b"220 hello\r\n")
                    f.flush()
                    for line in f:
                        told.append(line.decode("latin-1").strip())
                        f.write(b"331 password please\r\n" if line.upper().startswith(b"USER") else b"530 no\r\n")
                        f.flush()
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield listener.getsockname()[1], told
    finally:
        listener.close()


# -- One server for many tests ----------------------------------------------------------------
#
# Starting `keizer serve` costs half a second of CPU, and these tests once started one each.
# Tests that need the same server (the same options, the same accounts) now share one per
# module (per worker under pytest-xdist), and each starts from the same database: before it,
# the file is restored through SQLite's backup (a write like any other program's: the server,
# which opens the file per request, sees it) and whatever a test left beside it is removed.
# Each test makes its own browsers (cookies); the server's memory (the login throttle) is
# shared, which no test of a group relies on.


class Shared:
    """``keizer serve ARGS`` over the sample club (``prepare`` adds what the group needs),
    for every test of a group; :meth:`fresh` gives a test the database as the group began."""

    def __init__(self, folder: Path, *args: str, prepare: Callable[[Path], None] = lambda db: None,
                 env: dict[str, str] | None = None) -> None:
        self.folder = folder / "club"
        self.folder.mkdir(parents=True)
        self.db = sample_copy(self.folder)
        prepare(self.db)
        self.app = Served(self.db, *args, env=env, log=folder / "server.log")
        self.pristine = folder / "pristine.db"  # taken once the server started (and upgraded the file)
        with closing(sqlite3.connect(self.db)) as source, closing(sqlite3.connect(self.pristine)) as copy:
            source.backup(copy)

    def fresh(self) -> Served:
        with closing(sqlite3.connect(self.pristine)) as source, closing(sqlite3.connect(self.db)) as served:
            source.backup(served)
        for path in self.folder.iterdir():
            if path != self.db:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        return self.app

    def stop(self) -> None:
        errors = self.app.errors()
        assert "Traceback" not in errors, errors  # no test of a group expects the server to fail


@pytest.fixture(scope="module")
def _no_accounts(tmp_path_factory) -> Iterator[Shared]:
    shared = Shared(tmp_path_factory.mktemp("no-accounts"))
    yield shared
    shared.stop()


@pytest.fixture
def open_club(_no_accounts) -> Served:
    """The sample club with no accounts, served (so whoever is at this computer is the officer)."""
    return _no_accounts.fresh()


@pytest.fixture(scope="module")
def _anna(tmp_path_factory) -> Iterator[Shared]:
    shared = Shared(tmp_path_factory.mktemp("anna"), "--host-name", "schaak.test",
                    prepare=lambda db: with_users(db, ("anna", "officer")))
    yield shared
    shared.stop()


@pytest.fixture
def anna_served(_anna) -> Served:
    """The sample club with one account (anna, officer), served under its own names and schaak.test."""
    return _anna.fresh()


SECRET = "the server's own secret"


@pytest.fixture(scope="module")
def _with_secret(tmp_path_factory) -> Iterator[Shared]:
    shared = Shared(tmp_path_factory.mktemp("secret"), env={"KEIZER_UPLOAD_PASSWORD": SECRET})
    yield shared
    shared.stop()


@pytest.fixture
def secret_served(_with_secret) -> Served:
    """The sample club with no accounts, served with $KEIZER_UPLOAD_PASSWORD set on the server."""
    return _with_secret.fresh()


# -- DNS rebinding: the Host names served ----------------------------------------------------


def test_a_page_elsewhere_that_rebinds_its_name_to_the_laptop_gets_nothing(open_club):
    """The review's attack: with no accounts, a page at evil.example (rebound to 127.0.0.1)
    read a CSRF token and made itself an officer.  Now every request naming another host is 400."""
    app, db = open_club, open_club.db
    evil = app.client(host=f"{EVIL}:{app.port}")
    login = evil.get("/login")
    assert login.status == 400
    assert 'name="csrf"' not in login.body and EVIL in login.text()
    before = digest(db)
    forged = evil.post("/users/add", {"csrf": "T", "name": "Mallory", "role": "officer",
                                      "password": "mallorypass1", "password2": "mallorypass1"}, csrf=False)
    assert forged.status == 400 and "Mallory" not in users(db) and digest(db) == before
    for page in ("/", "/static/app.css", "/c/1/venue.json", "/m/whatever", "/b/ZZZZZZZZ"):
        assert evil.get(page).status == 400, page
    # The names a browser on this computer uses for it are served, with or without the port.
    for name in (f"127.0.0.1:{app.port}", f"localhost:{app.port}", f"[::1]:{app.port}", "localhost",
                 f"LOCALHOST.:{app.port}"):
        assert app.client(host=name).get("/").status == 200, name


def test_with_accounts_only_the_names_given_are_served(anna_served):
    app = anna_served
    assert app.client(host="schaak.test").get("/login").status == 200
    assert app.client(host=f"schaak.test:{app.port}").get("/login").status == 200
    assert app.client(host=f"{EVIL}:{app.port}").get("/login").status == 400
    assert app.client(host="schaak.test.evil.example").get("/login").status == 400


def test_behind_a_proxy_the_public_name_must_be_given(tmp_path, capsys):
    from test_cli import bad

    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"))
    bad(capsys, db, "serve", "--behind-proxy", match="--host-name")


# -- Behind a reverse proxy: the client's address, the scheme, the name ----------------------


@pytest.fixture
def proxied(tmp_path):
    """The sample club with an officer and an arbiter, served behind a reverse proxy on 127.0.0.1
    that the app was told to trust, under the public name schaak.test."""
    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"), ("bob", "arbiter"))
    with Served(db, "--behind-proxy", "--host-name", "schaak.test") as app, ReverseProxy(app.port) as proxy:
        yield db, app, proxy


@pytest.mark.slow  # 17 s: a server and a proxy, 70 logins and more
def test_behind_the_proxy_the_app_sees_each_client_and_the_scheme(proxied):
    """The review found every client was 127.0.0.1 behind the proxy (waitress dropped the
    proxy's headers): 30 wrong logins from anywhere locked the officer out, the change log said
    'from 127.0.0.1' and links came out as http://.  Clients here come from 127.0.0.2 and .3."""
    db, app, proxy = proxied
    guesser = proxy.client(host="schaak.test", source="127.0.0.3")
    refused = [guesser.login(f"name{k}", "wrong password!").status for k in range(35)]
    assert refused.count(401) == 30 and refused[-1] == 429
    # What a client says of itself does not count: its X-Forwarded-For is replaced by the proxy.
    forger = proxy.client(host="schaak.test", source="127.0.0.4")
    for k in range(35):
        forger.post("/login", {"name": f"other{k}", "password": "wrong password!"},
                    headers={"X-Forwarded-For": "127.0.0.2"})
    anna = proxy.client(host="schaak.test", source="127.0.0.2")
    assert anna.login("anna", PASSWORD).status == 303  # another address is not held up
    made = anna.post("/members/links/new", {"member": "1"})
    assert made.status == 200
    assert re.search(r"https://schaak\.test/m/[\w-]{20,}", made.body), "a member's link names the public address"
    assert origins(db)[0] == "web: anna (officer) from 127.0.0.2"
    slips = anna.post("/c/3/print/slips", {"which": "missing"})
    assert re.search(r"https://schaak\.test/b/[A-Z2-9]{8}", slips.body)


def test_a_client_that_skips_the_proxy_cannot_pretend_to_be_another(tmp_path):
    """Straight to the app (not through the trusted proxy), X-Forwarded-* headers are dropped:
    the address is the connection's own, and https is not believed."""
    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"))
    with Served(db, "--behind-proxy", "--host-name", "schaak.test", "--trusted-proxy", "127.0.0.9") as app:
        direct = app.client(host="schaak.test", source="127.0.0.5")
        forged = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": EVIL}
        assert direct.get("/login", headers=forged).status == 200  # the forged host did not count either
        direct.login("anna", PASSWORD)
        direct.post("/members/links/new", {"member": "1"}, headers=forged)
        assert origins(db)[0] == "web: anna (officer) from 127.0.0.5"


def test_wrong_board_codes_from_the_clubs_wifi_hold_no_right_code_up(proxied):
    """A club's Wi-Fi is one address: five wrong codes from it blocked every phone of the club."""
    db, app, proxy = proxied
    anna = proxy.client(host="schaak.test", source="127.0.0.2")
    anna.login("anna", PASSWORD)
    codes = re.findall(r"/b/([A-Z2-9]{8})</p>", anna.post("/c/3/print/slips", {"which": "missing"}).body)
    assert len(codes) == 3
    wifi = proxy.client(host="schaak.test", source="127.0.0.7")
    for _ in range(6):
        assert wifi.get("/b/ZZZZZZZZ").status == 404
    assert wifi.get(f"/b/{codes[0]}").status == 200
    assert wifi.post(f"/b/{codes[0]}", {"side": "white", "result": "1-0"}).status == 200


# -- Logins: throttled in one step, sessions that end ----------------------------------------


@pytest.mark.slow  # 3-4 s: a server, 24 logins at once
def test_many_wrong_logins_at_once_are_held_to_the_limit(tmp_path):
    """24 wrong logins for one name at the same moment let 11 through the limit of 5."""
    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"))
    with Served(db, "--threads", "16") as app:
        browsers = [app.client() for _ in range(24)]
        for b in browsers:
            b.csrf()
        statuses: list[int] = []
        start = threading.Barrier(len(browsers))

        def guess(b) -> None:
            start.wait()
            statuses.append(b.post("/login", {"name": "anna", "password": "a wrong guess"}).status)

        threads = [threading.Thread(target=guess, args=(b,)) for b in browsers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(statuses) == 24 and statuses.count(401) == 5 and statuses.count(429) == 19


@pytest.mark.slow  # 3-6 s: a server, a second keizer process, 4 logins
def test_a_copied_session_cookie_is_worth_nothing_after_logout_or_a_new_password(tmp_path):
    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"), ("bob", "arbiter"))
    with Served(db) as app:
        anna = app.client()
        assert anna.login("anna", PASSWORD).status == 303 and anna.get("/").status == 200
        stolen = app.client(cookies=dict(anna.cookies))
        assert stolen.get("/").status == 200  # a copy works while the login lasts ...
        anna.post("/logout", {"csrf": anna.csrf("/")})
        assert stolen.get("/").status == 303 and "/login" in stolen.get("/").location  # ... not after it
        # A new password (here from a terminal, beside the running app) ends every login of the account.
        bob = app.client()
        assert bob.login("bob", PASSWORD).status == 303
        copy = app.client(cookies=dict(bob.cookies))
        changed = subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "user", "password", "bob"],
                                 env={**os.environ, "KEIZER_PASSWORD": "another long password"},
                                 capture_output=True, text=True)
        assert changed.returncode == 0, changed.stderr
        for browser in (bob, copy):
            assert browser.get("/c/1/standings").status == 303
        assert bob.login("bob", "another long password").status == 303 and bob.get("/").status == 200


def test_an_officer_who_changes_their_own_password_stays_logged_in_in_that_browser(anna_served):
    app = anna_served
    laptop, phone = app.client(), app.client()
    laptop.login("anna", PASSWORD)
    phone.login("anna", PASSWORD)
    laptop.post("/users/password", {"name": "anna", "password": "a brand new one", "password2": "a brand new one",
                                    "csrf": laptop.csrf("/users")})
    assert laptop.get("/users").status == 200
    assert phone.get("/users").status == 303


# -- Redirects stay on this site --------------------------------------------------------------


@pytest.mark.parametrize("target", ["/%09/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/",
                                    "/%0d%0aSet-Cookie:%20x=1", "/%20/evil.example", "/%E2%80%8B/evil.example"])
def test_after_login_and_after_a_form_the_app_stays_on_its_own_site(anna_served, target):
    app = anna_served
    anna = app.client()
    page = anna.get(f"/login?next={target}")
    assert page.status == 200
    fields = {"name": "anna", "password": PASSWORD, "next": urllib.parse.unquote(target)}
    answer = anna.post("/login", fields)
    assert answer.status == 303 and _same_site(answer.location), answer.location
    assert "set-cookie: x" not in str(answer.headers).lower()
    back = anna.post("/members/links/settings", {"back": urllib.parse.unquote(target), "deadline": "nonsense"})
    assert back.status in (303, 400) and _same_site(back.location), back.location


def _same_site(location: str) -> bool:
    parts = urllib.parse.urlsplit(location)
    cleaned = "".join(ch for ch in location if ch.isprintable() and not ch.isspace())
    return (not parts.netloc or parts.netloc.startswith("127.0.0.1")) and not cleaned.startswith("//") \
        and "evil.example" not in urllib.parse.urlsplit(cleaned).netloc


# -- Writes only where they belong ---------------------------------------------------------


def test_the_app_publishes_only_into_the_clubs_folder_or_beside_the_database(open_club):
    app, db = open_club, open_club.db
    club, elsewhere = db.parent, db.parent.parent / "elsewhere"
    shutil.rmtree(elsewhere, ignore_errors=True)
    elsewhere.mkdir()
    officer = app.client()
    before = digest(db)
    for field, value in (("folder", str(elsewhere)), ("folder", "../elsewhere")):
        refused = officer.post("/publish", {field: value, "csrf": officer.csrf("/publish")})
        assert refused.status == 303
        assert "publishes only into" in officer.get("/publish").text()
    upload = officer.post("/publish", {"folder": "", "upload": "on", "target": str(elsewhere),
                                       "csrf": officer.csrf("/publish")})
    assert upload.status == 303 and "uploads into a folder" in officer.get("/publish").text()
    assert list(elsewhere.iterdir()) == [] and digest(db) == before and not (club / "site").exists()
    done = officer.post("/publish", {"folder": "www", "csrf": officer.csrf("/publish")})
    assert done.status == 200 and (club / "www" / "index.html").is_file()


def test_the_servers_upload_password_goes_only_to_the_clubs_own_web_host(secret_served):
    """With $KEIZER_UPLOAD_PASSWORD set on the server, the publish form named an FTP server of
    the attacker's and the password went there."""
    app, secret = secret_served, SECRET
    with recording_ftp() as (port, told):
        officer = app.client()
        answer = officer.post("/publish", {"folder": "", "upload": "on", "target": f"ftp://x@127.0.0.1:{port}/",
                                           "csrf": officer.csrf("/publish")})
        assert answer.status == 303 and "error:" in officer.get("/publish").text()
    assert not any(secret in line for line in told), told


# -- Server errors that were: each a one-line refusal now ---------------------------------------


HUGE = "99999999999999999999"


def test_ids_beyond_what_sqlite_holds_are_not_found(open_club):
    app, db = open_club, open_club.db
    officer = app.client()
    for page in (f"/c/{HUGE}/standings", f"/members/{HUGE}/edit", f"/c/{HUGE}/venue.json",
                 f"/c/1/player/{HUGE}", f"/c/{HUGE}/players/{HUGE}"):
        answer = officer.get(page)
        assert answer.status == 404, (page, answer.status)
    before = digest(db)
    for form in ("/members/links/new", "/members/links/revoke"):
        answer = officer.post(form, {"member": HUGE, "csrf": officer.csrf("/members/links")})
        assert answer.status == 303, (form, answer.status)
        assert officer.get("/members/links").text().count("error:") == 1
    assert digest(db) == before


def test_a_line_break_in_next_or_back_is_no_server_error(open_club):
    app = open_club
    officer = app.client()
    assert officer.get("/login?next=/%0d%0aX-Evil:%201").status == 200
    answer = officer.post("/members/links/settings", {"back": "/\r\nX-Evil: 1", "deadline": "x"})
    assert answer.status == 303 and "x-evil" not in answer.headers


def test_a_request_too_large_is_refused_in_one_line(open_club):
    app = open_club
    officer = app.client(timeout=60)
    token = officer.csrf("/members")
    body = f"csrf={token}&back=/members/import&file=".encode() + b"x" * (70 * 1024 * 1024)
    answer = officer.request("POST", "/members/import", body,
                             {"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status == 413 and "error: the file is too large" in answer.text()


# -- Enough connections for a club evening ------------------------------------------------------


def test_phones_and_screens_keeping_their_connections_do_not_lock_others_out(open_club):
    """Browsers keep their connections open; waitress's default of 100 made the 101st client
    wait until one timed out (120 s).  150 kept connections, and a new client still gets in."""
    import http.client

    app = open_club
    kept = []
    try:
        for _ in range(150):
            conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=30)
            conn.request("GET", "/static/app.css", headers={"Host": f"127.0.0.1:{app.port}"})
            conn.getresponse().read()  # the connection stays open, as a browser's does
            kept.append(conn)
        start = time.monotonic()
        late = app.client(timeout=10).get("/c/1/venue.json")
        assert late.status == 200 and time.monotonic() - start < 5
    finally:
        for conn in kept:
            conn.close()


def test_the_server_says_what_it_listens_for(anna_served):
    """(The shared server was started as 'keizer serve --port P --host-name schaak.test'.)"""
    out, port = anna_served.said(2), anna_served.port
    assert f"at http://127.0.0.1:{port}/" in out and "schaak.test" in out


# -- Properties of the checks themselves -----------------------------------------------------------


def test_safe_path_never_leads_off_the_site_whatever_a_browser_strips():
    """For any text, the path the app goes to stays on this site as a browser reads it (WHATWG
    URL parsing drops tabs and line breaks anywhere and turns backslashes into slashes)."""
    from hypothesis import given, settings, strategies as st

    from conftest import examples

    from keizer.web.context import safe_path

    pieces = st.sampled_from(["/", "\\", "\t", "\n", "\r", " ", "evil.example", "//", ":", "@", "?", "#", "%09",
                              "https:", "\u200b", "\x00", "\x7f", ".", "c", "1", "[", "]"])

    @settings(max_examples=examples(3000), deadline=None)
    @given(st.lists(pieces | st.text(max_size=3), max_size=8).map("".join))
    def check(text: str) -> None:
        path = safe_path(text)
        as_read = re.sub(r"[\t\n\r]", "", path).replace("\\", "/")
        parts = urllib.parse.urlsplit(as_read)
        assert path == "/" or (as_read.startswith("/") and not as_read.startswith("//")
                               and not parts.scheme and not parts.netloc), repr(text)
        assert path == "/" or path == text  # a path is taken as it is, or not at all

    check()


# -- The second review: what a stranger or a member could still do ---------------------------------


@pytest.mark.slow  # 9 s and more: 40 forms of 900 kB to a server
def test_a_stranger_sending_huge_names_cannot_fill_the_servers_memory(tmp_path):
    """Each login attempt kept its typed name as a throttle key, forever: 40 names of 5 MB took
    the server from 83 to 550 MB.  Now a form is at most 1 MB, a key is short, refused attempts
    add none, and keys whose failures left the window are forgotten."""
    db = sample_copy(tmp_path)
    with_users(db, ("anna", "officer"))
    with Served(db) as app:
        status = Path(f"/proc/{app.process.pid}/status")
        if not status.exists():
            pytest.skip("needs /proc to read the server's memory")

        def resident() -> int:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read_text()).group(1))  # kB

        stranger = app.client()
        token = stranger.csrf()
        stranger.post("/login", {"csrf": token, "name": "warm up", "password": "x"})
        before = resident()
        answers = [stranger.post("/login", {"csrf": token, "name": f"{k}" + "x" * 900_000, "password": "x"}).status
                   for k in range(40)]
        big = stranger.post("/login", {"csrf": token, "name": "x" * 5_000_000, "password": "x"})
        assert set(answers) <= {401, 429} and big.status == 413
        assert resident() - before < 60_000, f"{resident() - before} kB more"


def test_the_throttle_keeps_few_keys_and_refused_attempts_add_none():
    from keizer.web import auth

    now = [0.0]
    throttle = auth.Throttle(limit=2, window=60, clock=lambda: now[0])
    for k in range(3 * auth.MAX_KEYS):
        throttle.attempt(f"name{k}")
        now[0] += 0.01  # the window (60 s) holds 6,000 of them at most
    assert len(throttle._failures) <= auth.MAX_KEYS + 1
    throttle.attempt("x")
    throttle.attempt("x")
    keys = len(throttle._failures)
    assert throttle.attempt("x")[0] > 0 and throttle.wait("never seen") == 0
    assert len(throttle._failures) == keys


@pytest.mark.slow  # 4-12 s: a server and a proxy, 22 logins
def test_a_stranger_cannot_lock_the_officer_out_by_guessing_her_name_from_elsewhere(proxied):
    """15 wrong logins for one name from anywhere locked the real account out everywhere; now
    that limit holds the addresses that failed, not the officer at a computer that did not."""
    db, app, proxy = proxied
    for k in range(20):
        proxy.client(host="schaak.test", source=f"127.0.1.{k + 1}").login("anna", "wrong password!")
    guesser = proxy.client(host="schaak.test", source="127.0.1.1")
    assert guesser.login("anna", "another wrong one").status == 429  # the guessers wait ...
    anna = proxy.client(host="schaak.test", source="127.0.2.1")
    assert anna.login("anna", PASSWORD).status == 303  # ... the officer gets in


def test_a_big_form_on_a_page_that_takes_no_file_is_refused_before_it_is_read(open_club):
    app = open_club
    stranger = app.client(timeout=60)
    body = b"a=b&" * (2 * 1024 * 1024 // 4)  # 2 MB of fields, to the public login page
    answer = stranger.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status == 413
    board = stranger.request("POST", "/b/ZZZZZZZZ", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert board.status == 413


def test_undoing_a_new_password_brings_no_ended_login_back(anna_served):
    app = anna_served
    laptop = app.client()
    laptop.login("anna", PASSWORD)
    stolen = app.client(cookies=dict(laptop.cookies))
    laptop.post("/users/password", {"name": "anna", "password": "a brand new one", "password2": "a brand new one",
                                    "csrf": laptop.csrf("/users")})
    page = laptop.get("/log/undo")
    change = re.search(r'name="change" value="(\d+)"', page.body).group(1)
    assert laptop.post("/log/undo", {"change": change, "csrf": laptop.csrf("/log/undo")}).status == 303
    assert stolen.get("/members").status == 303  # the old password is back, the old login is not
    assert app.client().login("anna", PASSWORD).status == 303


def test_a_form_from_elsewhere_leaves_nothing_in_the_session(open_club):
    """A refused cross-site POST flashed its message and kept its fields in a new session
    cookie (the officer's Settings page then showed the attacker's value filled in)."""
    app = open_club
    officer = app.client()
    officer.get("/c/1/settings")
    cookie = dict(officer.cookies)
    forged = officer.post("/c/1/settings", {"s-top": "ATTACKER-VALUE", "back": "/c/1/settings"}, csrf=False)
    assert forged.status == 400 and "set-cookie" not in forged.headers and officer.cookies == cookie
    assert "ATTACKER-VALUE" not in officer.get("/c/1/settings").body


def test_two_agreeing_reports_from_one_phone_wait_for_the_officer(open_club):
    app, db = open_club, open_club.db
    officer = app.client()
    codes = re.findall(r"/b/([A-Z2-9]{8})</p>", officer.post("/c/3/print/slips", {"which": "missing"}).body)
    officer.post("/c/3/reports/setting", {"reports_confirm": "both", "csrf": officer.csrf("/c/3/reports")})
    phone = app.client()
    phone.get(f"/b/{codes[0]}")
    for side in ("white", "black"):
        phone.post(f"/b/{codes[0]}", {"side": side, "result": "0-1", "csrf": phone.csrf(f"/b/{codes[0]}")})
    white, black = app.client(), app.client()
    for player, side in ((white, "white"), (black, "black")):
        player.post(f"/b/{codes[1]}", {"side": side, "result": "1-0", "csrf": player.csrf(f"/b/{codes[1]}")})
    store = Store.open(db)
    try:
        results = {g["board"]: g["result"] for g in store.games(3, 5)}
    finally:
        store.close()
    assert results[1] is None and results[2] == "1-0"


@pytest.mark.parametrize("route, form", [
    ("/c/4/cup/result", {"round": "²"}), ("/c/4/cup/award", {"round": "²"}), ("/c/1/players/add", {"member": "²"}),
    ("/members/links/settings", {"notice_days": "²"}), ("/members/links/settings", {"link_days": "²"}),
    ("/c/2/settings", {"s-rounds": "²"}), ("/c/3/settings", {"s-lots": "-²"}), ("/c/3/settings", {"s-lots": "--3"}),
    ("/competitions/create", {"name": "Beker 2", "system": "knockout", "stages": "regular:²"}),
    ("/publish", {"folder": "a\x00b"}), ("/publish", {"folder": "x" * 5000}),
    ("/c/3/results", {"round": "5", "r²": "1-0"}),
])
def test_odd_digits_and_names_are_refused_in_one_line(open_club, route, form):
    """'²'.isdigit() holds but int('²') fails: each of these was a server error."""
    app, db = open_club, open_club.db
    logged = len(app.written())
    officer = app.client()
    before = digest(db)
    answer = officer.post(route, form)
    assert answer.status in (200, 303), answer.status
    assert "Traceback" not in app.written()[logged:]
    assert digest(db) == before or route == "/publish"


def test_a_target_the_app_remembered_gets_no_server_password_either(secret_served, capsys):
    """The review's two steps: upload once to a new address with any password typed (the app
    remembers it as the club's), then again without one, and the server's password went there.
    Only an address a terminal gave gets it."""
    from test_cli import run

    app, db, secret = secret_served, secret_served.db, SECRET
    with recording_ftp() as (port, told):
        target = f"ftp://eve@127.0.0.1:{port}/site"
        store = Store.open(db)
        with store.change("publish", "the app remembered a target"):  # as after the first step's good upload
            store.set_meta("club_upload", target)
        store.close()
        officer = app.client()
        answer = officer.post("/publish", {"folder": "", "upload": "on", "target": target,
                                           "csrf": officer.csrf("/publish")})
        assert answer.status == 303 and "type the password of eve@127.0.0.1" in officer.get("/publish").text()
        assert not any(secret in line for line in told), told
        assert run(capsys, db, "club", "--upload", target)[0] == 0  # the officer at the server's terminal
        officer = app.client()  # the same server, which reads the club's settings on each request
        officer.post("/publish", {"folder": "", "upload": "on", "target": target, "csrf": officer.csrf("/publish")})
        assert f"PASS {secret}" in told  # now it goes there: a terminal gave that address
