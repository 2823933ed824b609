"""The week's mail, end to end: the officer sets the club's mail server, gives members an
address (or their opt-out), looks at the preview and sends; a real SMTP server (aiosmtpd)
started here on 127.0.0.1 receives one mail per member, in the club's language, each with
the member's board and their own working personal link; the log says what went to whom.
STARTTLS and implicit TLS with a certificate made here, a login, and the refusals (no mail
server, the server down, no password) in one line with the file unchanged."""

from __future__ import annotations

import html
import re
import socket
import ssl
from contextlib import contextmanager
from email import message_from_bytes, policy
from typing import Iterator

import pytest

pytest.importorskip("aiosmtpd")
from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import AuthResult, LoginPassword  # noqa: E402

from keizer.operations.printing import pairing_sheet  # noqa: E402
from keizer.store import Store  # noqa: E402
from test_cli import run  # noqa: E402
from upload_servers import self_signed_certificate  # noqa: E402
from web_helpers import client_with_csrf, digest, post, sample_app, text  # noqa: E402

USER, PASSWORD = "club@example.nl", "mail pass 123"


class Inbox:
    """What the server received: (envelope recipients, parsed message) per mail."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], object]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.original_content or envelope.content,
                                                                       policy=policy.default)))
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
        if address.endswith("@refused.example"):
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _login(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (USER.encode(),
                                                                                            PASSWORD.encode())
    return AuthResult(success=ok, handled=False)


@contextmanager
def smtp_server(security: str = "plain", cert=None, login: bool = False) -> Iterator[tuple[int, Inbox]]:
    """An SMTP server on 127.0.0.1: plain, STARTTLS required, or implicit TLS (with ``cert``),
    with a login (over TLS only, but for plain) when asked."""
    inbox = Inbox()
    port = free_port()
    options: dict = {}
    if security != "plain":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert)
        options = {"tls_context": context, "require_starttls": True} if security == "starttls" else \
            {"ssl_context": context}
    if login:
        options.update(authenticator=_login, auth_require_tls=security != "plain")
    controller = Controller(inbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


def trusted_cert(tmp_path, monkeypatch):
    """A certificate for 127.0.0.1 made here, which this process's TLS clients trust."""
    cert = self_signed_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    return cert


@pytest.fixture
def club(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def edit_form(officer, member_id: int) -> dict[str, str]:
    """The member's edit form as the page fills it."""
    page = officer.get(f"/members/{member_id}/edit").get_data(as_text=True)
    return {k: html.unescape(v) for k, v in
            re.findall(r'name="(name|rating|fed_id|fide_id|fide_rating)"[^>]*?value="([^"]*)"', page)}


def members_with_mail(officer, db, opted_out: str = "Ingrid Müller") -> dict[str, str]:
    """Give three of the Keizer competition's players an address (one opts out): through the page."""
    s = Store.open(db)
    players = [p for p in s.players(1) if p["withdrawn_after"] is None and p["name"] != opted_out][:3]
    members = {p["name"]: p["member_id"] for p in players}
    ingrid = next(p["member_id"] for p in s.players(1) if p["name"] == opted_out)
    s.close()
    given = {}
    for n, (name, mid) in enumerate(members.items()):
        address = f"player{n}@example.nl"
        assert post(officer, f"/members/{mid}/edit", {**edit_form(officer, mid), "email": address}).status_code == 200
        given[name] = address
    page = post(officer, f"/members/{ingrid}/edit", {**edit_form(officer, ingrid), "email": "ingrid@example.nl",
                                                     "no_mail": "on"})
    assert "e-mail changed" in text(page) or "e-mail gewijzigd" in text(page)
    return given


def dutch(db) -> None:
    s = Store.open(db)
    with s.change("club", "nl"):
        s.set_meta("club_language", "nl")
    s.close()


def settings(officer, port: int, security: str = "plain", user: str = "") -> None:
    page = post(officer, "/club/mail", {"host": "127.0.0.1", "port": str(port), "security": security, "user": user,
                                        "sender": "wedstrijdleider@example.nl"})
    assert page.status_code == 200 and f"127.0.0.1:{port}" in text(page), text(page)


@pytest.mark.slow
def test_the_week_s_mail_reaches_each_member_in_the_club_s_language(club, tmp_path, monkeypatch):
    app, db, officer = club
    cert = trusted_cert(tmp_path, monkeypatch)
    given = members_with_mail(officer, db)
    dutch(db)
    with smtp_server("starttls", cert, login=True) as (port, inbox):
        settings(officer, port, "starttls", USER)
        preview = text(officer.get("/c/1/mail"))
        assert "3 leden krijgen een eigen mail" in preview and "Wil de mail niet: Ingrid Müller" in preview
        assert all(name in preview for name in given) and "Voorbeeld" in preview
        page = post(officer, "/c/1/mail/send", {"password": PASSWORD})
        assert page.status_code == 200 and "ronde 30: 3 mails verzonden" in text(page), text(page)
    assert sorted(r for rcpt, _ in inbox.mails for r in rcpt) == sorted(given.values())  # one each, nobody else
    s = Store.open(db)
    playing = {name for row in pairing_sheet(s, 1)["rows"] for name in (row["white"], row["black"])}
    s.close()
    links = set()
    for rcpt, mail in inbox.mails:
        name = next(n for n, a in given.items() if a == rcpt[0])
        body = mail.get_content()
        assert mail["Content-Language"] == "nl" and "ronde 30" in mail["Subject"]
        assert body.startswith(f"Hallo {name},") and "De indeling van ronde 30:" in body
        assert "De stand na ronde 30:" in body, body
        assert "  1. Lotte van der Veen  1.236\r\n" in body  # the Keizer score, written as a Dutch page writes it
        assert ("je speelt aan bord" in body) == (name in playing)
        assert "wedstrijdleider@example.nl" in mail["From"]
        link = re.search(r"http://localhost/m/([A-Za-z0-9_-]+)", body)
        assert link, body
        links.add(link.group(1))
        member_page = client_with_csrf(app).get(f"/m/{link.group(1)}")
        assert member_page.status_code == 200 and name in text(member_page)  # each mail its member's own link
    assert len(links) == 3
    log = text(officer.get("/c/1/mail"))
    assert all(a in log for a in given.values()) and log.count("verzonden") >= 3

    # The next week's mail replaces the mail's links; a link the officer handed over stays.
    with smtp_server("starttls", cert, login=True) as (port2, inbox2):
        settings(officer, port2, "starttls", USER)
        post(officer, "/c/1/mail/send", {"password": PASSWORD})
    assert len(inbox2.mails) == 3
    for token in links:
        assert client_with_csrf(app).get(f"/m/{token}").status_code == 403  # revoked by the newer mail


def test_implicit_tls_and_an_address_the_server_refuses(club, tmp_path, monkeypatch):
    app, db, officer = club
    cert = trusted_cert(tmp_path, monkeypatch)
    given = members_with_mail(officer, db)
    s = Store.open(db)
    first = next(p["member_id"] for p in s.players(1) if p["name"] == next(iter(given)))
    with s.change("test", "a refused address"):
        s.set_member_mail(first, "nobody@refused.example", False)
    s.close()
    with smtp_server("tls", cert) as (port, inbox):
        settings(officer, port, "tls")
        page = post(officer, "/c/1/mail/send")
    assert "round 30: 2 mails sent" in text(page)
    assert "not sent to" in text(page) and "nobody@refused.example" in text(page) and "550" in text(page)
    assert len(inbox.mails) == 2
    log = text(officer.get("/c/1/mail"))
    assert "not sent: the mail server refused nobody@refused.example (550 no such user here)" in log


def test_refusals_say_one_line_and_change_nothing(club, tmp_path, monkeypatch, capsys):
    app, db, officer = club
    members_with_mail(officer, db)
    before = digest(db)
    page = post(officer, "/c/1/mail/send")
    assert "no mail server is set; set it on the club's Mail page first" in text(page) and digest(db) == before
    settings(officer, free_port())  # nobody listens there
    before = digest(db)
    page = post(officer, "/c/1/mail/send")
    assert re.search(r"could not reach the mail server 127\.0\.0\.1:\d+ \([^)]+\); check the mail settings",
                     text(page)), text(page)
    assert digest(db) == before
    with smtp_server("plain", login=True) as (port, inbox):
        settings(officer, port, "plain", USER)
        before = digest(db)
        page = post(officer, "/c/1/mail/send")  # no password typed, and the account is the app's
        assert "type the password of the mail account" in text(page) and digest(db) == before
        monkeypatch.setenv("KEIZER_MAIL_PASSWORD", PASSWORD)
        page = post(officer, "/c/1/mail/send")  # the server's password goes only to a terminal's account
        assert "type the password of the mail account" in text(page) and digest(db) == before
        page = post(officer, "/c/1/mail/send", {"password": "wrong password"})
        assert "refused the login of club@example.nl" in text(page) and digest(db) == before
        code, out, err = run(capsys, db, "club", "--mail-server", f"smtp+plain://club%40example.nl@127.0.0.1:{port}",
                             "--mail-from", "wedstrijdleider@example.nl")
        assert code == 0, err
        assert f"smtp+plain://club@example.nl@127.0.0.1:{port}" in out
        page = post(officer, "/c/1/mail/send")  # now the server's own password may go there
        assert "round 30: 3 mails sent" in text(page), text(page)
    assert len(inbox.mails) == 3
    page = post(officer, "/club/mail", {"host": "mail server", "port": "25", "security": "plain", "user": "",
                                        "sender": "x@example.nl"})
    assert "is not a host name" in text(page)
    page = post(officer, "/club/mail", {"host": "smtp.example.nl", "port": "99999", "security": "tls", "user": "",
                                        "sender": "x@example.nl"})
    assert "the mail port must be a whole number from 1 to 65535" in text(page)
