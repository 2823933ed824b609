"""The web app's foundation: who may do what, CSRF, login throttling, refusals as one
line, a busy database, the CLI and the app on one file, `keizer serve` and `keizer user`."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from keizer.operations import accounts
from keizer.store import Store
from keizer.web.auth import Throttle
from test_cli import bad, run
from web_helpers import TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

PASSWORD = "correct horse battery"


def with_users(db: Path, *users: tuple[str, str]) -> None:
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        for name, role in users:
            accounts.add_user(store, name, role, PASSWORD)
    store.close()


def login(client, name: str, password: str = PASSWORD):
    return post(client, "/login", {"name": name, "password": password})


def test_local_without_accounts_the_person_at_the_computer_is_the_officer(tmp_path):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get("/")
    assert page.status_code == 200
    assert "Interne competitie 2025-2026" in text(page) and "officer at this computer" in text(page)


def test_the_home_page_says_what_to_do_next(tmp_path):
    app, _ = sample_app(tmp_path)
    page = text(app.test_client().get("/"))
    # The sample's Keizer round 31 is marked (40 players) but not paired; the round-robin waits for results.
    assert "40 of 40 marked" in page and "not paired yet" in page
    assert "0 of 3 in" in page
    assert "finished: all 5 rounds played" in page  # the Swiss played its planned five rounds


def test_not_local_nothing_but_the_login_page_without_an_account(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"))
    client = app.test_client()
    for url in ("/", "/members", "/c/1/standings", "/c/1/attendance", "/log", "/users", "/publish"):
        page = client.get(url)
        assert page.status_code == 303 and "/login" in page.headers["Location"], url
    assert client.get("/login").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_local_with_accounts_needs_a_login_too(tmp_path):
    app, db = sample_app(tmp_path, local=True)
    with_users(db, ("anna", "officer"))
    assert app.test_client().get("/").status_code == 303


def test_login_and_logout(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("Anna", "officer"))
    client = client_with_csrf(app)
    assert login(client, "anna").status_code == 200  # names are matched without case
    assert "Anna (officer)" in text(client.get("/"))
    post(client, "/logout", {"csrf": client_csrf(client)})
    assert client.get("/").status_code == 303


def client_csrf(client) -> str:
    with client.session_transaction() as session:
        return session["csrf"]


def test_a_wrong_password_is_refused_and_logins_are_throttled(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"))
    client = client_with_csrf(app)
    for _ in range(5):
        page = login(client, "anna", "wrong password!")
        assert page.status_code == 401 and "wrong name or password" in text(page)
    page = login(client, "anna")  # even the right password waits now
    assert page.status_code == 429 and "too many failed logins" in text(page)
    assert client.get("/").status_code == 303


@pytest.mark.slow  # 7-10 s: some 30 Argon2 logins
def test_a_mistyped_password_locks_out_only_that_name_on_a_shared_laptop(tmp_path):
    """Everyone at the club laptop is one address: Bob's five typos do not lock Anna out; many
    names guessed from one address, or one name from many, are throttled too."""
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"), ("bob", "arbiter"))
    client = client_with_csrf(app)
    for _ in range(5):
        assert login(client, "bob", "wrong password!").status_code == 401
    assert login(client, "bob").status_code == 429
    assert login(client, "anna").status_code in (200, 303)
    from keizer.web.auth import MAX_PER_ADDRESS

    guesser = client_with_csrf(app)  # the same address: Bob's five failures count for it too
    codes = [login(guesser, f"user{k}", "wrong password!").status_code for k in range(MAX_PER_ADDRESS)]
    assert codes == [401] * (MAX_PER_ADDRESS - 5) + [429] * 5


def test_the_throttle_forgets_after_its_window():
    now = [0.0]
    throttle = Throttle(limit=2, window=60, clock=lambda: now[0])
    throttle.fail("a")
    throttle.fail("a")
    assert throttle.wait("a") == 60 and throttle.wait("b") == 0
    now[0] = 59.0
    assert throttle.wait("a") == 1
    now[0] = 60.5
    assert throttle.wait("a") == 0


def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(tmp_path):
    app, db = sample_app(tmp_path)
    before = digest(db)
    client = client_with_csrf(app)
    page = client.post("/logout", data={}, follow_redirects=True)
    assert "this form has expired" in text(page)
    page = client.post("/logout", data={"csrf": "forged"}, follow_redirects=True)
    assert "this form has expired" in text(page)
    assert digest(db) == before


def test_the_login_form_needs_its_csrf_token_too(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"))
    client = app.test_client()
    page = client.post("/login", data={"name": "anna", "password": PASSWORD}, follow_redirects=True)
    assert "this form has expired" in text(page)
    assert client.get("/").status_code == 303  # not logged in


def test_an_open_redirect_after_login_is_not_possible(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"))
    client = client_with_csrf(app)
    page = post(client, "/login", {"name": "anna", "password": PASSWORD, "next": "//evil.example/"}, follow=False)
    assert page.headers["Location"] == "/"


def test_session_cookie_flags(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"))
    client = client_with_csrf(app)
    page = post(client, "/login", {"name": "anna", "password": PASSWORD}, follow=False)
    cookie = page.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie


def test_security_headers(tmp_path):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get("/")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_a_name_with_markup_is_shown_as_text(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    run(capsys, db, "competition", "create", "<script>alert(1)</script> \"Q\" 🎉 Zoë")
    page = app.test_client().get("/").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "🎉 Zoë" in page


def test_the_club_colours_come_as_a_stylesheet(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    run(capsys, db, "club", "--colour", "#123456")
    css = app.test_client().get("/club.css")
    assert css.mimetype == "text/css" and "--club: #123456" in css.get_data(as_text=True)


def test_a_missing_page_is_a_page_not_a_traceback(tmp_path):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get("/no/such/page")
    assert page.status_code == 404 and "there is no such page" in text(page)


def test_a_missing_database_is_one_line(tmp_path):
    from keizer.web import create_app

    page = create_app(tmp_path / "nothing.db").test_client().get("/")
    assert page.status_code == 400 and "error:" in text(page) and "Traceback" not in text(page)
    assert not (tmp_path / "nothing.db").exists()


def test_a_busy_database_gives_a_message_not_a_server_error(tmp_path, monkeypatch):
    """Another program holds the write lock: a form is refused with the busy message and a
    page still reads."""
    monkeypatch.setenv("KEIZER_BUSY_TIMEOUT", "0.2")
    app, db = sample_app(tmp_path)
    from keizer.web import context

    @app.route("/test-write", methods=["POST"])
    def test_write():
        with context.writing("test", "test"):
            context.store().set_meta("x", "y")
        return "written"

    holder = sqlite3.connect(db)
    holder.execute("BEGIN IMMEDIATE")
    try:
        client = client_with_csrf(app)
        assert client.get("/").status_code == 200
        page = client.post("/test-write", data={"csrf": TOKEN}, follow_redirects=True)
        assert "is busy" in text(page) and page.status_code == 200
    finally:
        holder.rollback()
        holder.close()


def test_user_commands(tmp_path, capsys, monkeypatch):
    db = tmp_path / "club.db"
    run(capsys, db, "init")
    monkeypatch.setenv("KEIZER_PASSWORD", PASSWORD)
    code, out, err = run(capsys, db, "user", "add", "Anna", "--role", "officer")
    assert code == 0 and "added Anna (officer)" in out, err
    run(capsys, db, "user", "add", "Bob", "--role", "arbiter")
    code, out, _ = run(capsys, db, "user", "list", "--format", "csv")
    assert out.splitlines()[0] == "name,role,created" and "Bob,arbiter" in out and "argon2" not in out
    store = Store.open(db)
    assert store.user("anna")["password_hash"].startswith("$argon2id$")
    assert PASSWORD not in db.read_bytes().decode("latin-1")
    store.close()
    monkeypatch.setenv("KEIZER_PASSWORD", "short")
    bad(capsys, db, "user", "add", "Cor", "--role", "arbiter", match="too short")
    bad(capsys, db, "user", "add", "anna", "--role", "arbiter", match="already a user")
    bad(capsys, db, "user", "remove", "Anna", match="last officer")
    bad(capsys, db, "user", "role", "Anna", "arbiter", match="last officer")
    code, out, _ = run(capsys, db, "user", "role", "Bob", "officer")
    assert code == 0
    code, out, _ = run(capsys, db, "user", "remove", "Anna")
    assert code == 0 and "removed Anna" in out
    code, out, _ = run(capsys, db, "undo", "--yes")
    assert code == 0 and "remove user Anna" in out
    assert Store.open(db).user("anna") is not None


def test_serve_refuses_another_address_without_accounts(tmp_path, capsys):
    db = tmp_path / "club.db"
    run(capsys, db, "init")
    bad(capsys, db, "serve", "--host", "0.0.0.0", match="needs accounts")
    bad(capsys, db, "serve", "--behind-proxy", match="behind a proxy needs accounts")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_keizer_serve_serves_the_sample_and_the_cli_writes_meanwhile(tmp_path, capsys):
    """The real server (waitress) on 127.0.0.1 and the CLI on the same file at the same time."""
    db = tmp_path / "club.db"
    db.write_bytes((Path(__file__).resolve().parent.parent / "sample_club.db").read_bytes())
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "keizer", "--db", str(db), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                page = urllib.request.urlopen(url, timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"the server did not start: {server.stderr.read() if server.poll() is not None else ''}")
        assert "Interne competitie 2025-2026" in page
        code, _, err = run(capsys, db, "member", "add", "Nieuw Lid")
        assert code == 0, err
        assert "Nieuw Lid" not in page
        assert urllib.request.urlopen(url, timeout=2).status == 200
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert server.stdout.read().startswith(f"keizer serves {db} at http://127.0.0.1:{port}/")


def test_a_competition_that_does_not_exist_is_not_found(tmp_path):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get("/c/999/standings")
    assert page.status_code == 404 and "error: there is no competition 999" in text(page)


def test_serving_on_a_port_in_use_is_refused_before_it_is_announced(tmp_path, capsys):
    import shutil
    import socket

    from test_cli import run
    from web_helpers import SAMPLE

    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code, out, err = run(capsys, db, "serve", "--port", str(port))
    finally:
        taken.close()
    assert code != 0 and out == ""
    assert err.strip() == (f"error: port {port} on 127.0.0.1 is in use (another 'keizer serve'?); choose another "
                           f"with --port {port + 1}")
