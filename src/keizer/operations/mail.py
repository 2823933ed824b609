"""The week's mail: the pairing, the standing and each member's personal absence link, one
mail per member, in the club's language, in one click of the officer.

* **Who gets it**: the competition's players who take part in the round, by their member's
  e-mail address (:meth:`Store.set_member_mail`); a member without an address, or who
  opted out, is listed instead.
* **The link**: only a fingerprint of a personal link is stored, so every mail carries a
  new one; it replaces the member's link of the previous mail (a link the officer made and
  handed over stays in force).  A link is made only for a mail that went out.
* **Settings** (the club's, in the meta table): the mail server's host, port, security
  (``starttls``, ``tls`` for implicit TLS, ``plain`` for a local test server only), the
  user name and the sender's address.  Never a password: it is typed for one sending, or
  (for the account set from a terminal, :data:`PASSWORD_ACCOUNT`)
  comes from the server's ``$KEIZER_MAIL_PASSWORD`` or keyring, as the upload password does.
* **Sending** (:func:`send_week_mail`) writes the links and the log (``mail_log``, kept out
  of the change log: an undo does not call a mail back) in the caller's transaction; the
  mails go through a :class:`Postman` the caller (the app, the shell) opens: this module
  speaks no SMTP and words no mail.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from keizer.limits import is_digits, name_order
from keizer.operations.notices import token_hash
from keizer.refusals import Message
from keizer.store import Store, StoreError

#: setting → meta key; the defaults are those of a submission port with STARTTLS.
SETTINGS = {"host": "club_mail_host", "port": "club_mail_port", "security": "club_mail_security",
            "user": "club_mail_user", "sender": "club_mail_sender"}
SECURITY = ("starttls", "tls", "plain")
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "plain": 25}
#: The meta key of the mail account (``user@host:port``) the server's own password may go to:
#: the one set from a terminal (the command line's club settings); the app's page never sets it.
PASSWORD_ACCOUNT = "mail_password_account"
_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.[^@\s<>()\[\],;:\"]+")
_HOST = re.compile(r"[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]")


class MailError(StoreError):
    """A mail that could not go (the server down, a login or an address refused)."""


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int
    security: str
    user: str
    sender: str

    @property
    def account(self) -> str:
        """``user@host:port``: whose password the server's own may be."""
        return f"{self.user}@{self.host}:{self.port}"


@dataclass(frozen=True)
class Recipient:
    """A member who gets the week's mail, and their board in the round."""

    member_id: int
    name: str
    address: str
    board: int | None  # None: a bye or not playing
    colour: str | None  # white or black
    opponent: str | None


@dataclass(frozen=True)
class WeekMail:
    """What the week's mail of a competition holds and who gets it (nothing is written)."""

    comp_id: int
    competition: str
    round: int
    pairing: dict[str, Any]  # keizer.operations.printing.pairing_sheet
    standing: dict[str, Any]  # keizer.operations.standings.standing_view
    recipients: tuple[Recipient, ...]
    no_address: tuple[str, ...]
    opted_out: tuple[str, ...]


@dataclass(frozen=True)
class Letter:
    """One mail as its view worded it."""

    subject: str
    body: str


@dataclass(frozen=True)
class Delivery:
    name: str
    address: str
    reason: str | None = None  # why it did not go


@dataclass(frozen=True)
class MailSent:
    """What sending the week's mail did."""

    round: int
    sent: tuple[Delivery, ...]
    failed: tuple[Delivery, ...]
    no_address: tuple[str, ...]
    opted_out: tuple[str, ...]

    @property
    def said(self) -> Message:
        return Message("the week's mail of round %(n)s: %(sent)s sent, %(failed)s not sent", n=self.round,
                       sent=len(self.sent), failed=len(self.failed))


class Postman(Protocol):
    """Sends one mail; raises :class:`MailError` when it cannot."""

    def send(self, to: str, subject: str, body: str) -> None: ...


# -- settings -------------------------------------------------------------------


def mail_settings(store: Store) -> MailSettings | None:
    """The club's mail settings, or None before a mail server is set."""
    host = store.get_meta(SETTINGS["host"])
    if not host:
        return None
    security = store.get_meta(SETTINGS["security"]) or "starttls"
    port = store.get_meta(SETTINGS["port"])
    return MailSettings(host, int(port) if port else DEFAULT_PORTS[security], security,
                        store.get_meta(SETTINGS["user"]) or "", store.get_meta(SETTINGS["sender"]) or "")


def server_password_allowed(store: Store, kept: MailSettings | None) -> bool:
    """Whether the server's own password (environment, keyring) may go to ``kept``'s account:
    only to the account a terminal set; any other needs its password typed."""
    return kept is not None and kept.account == store.get_meta(PASSWORD_ACCOUNT)


def require_recipients(week: WeekMail) -> None:
    """Refuse a week's mail nobody would get (before a server is called)."""
    if not week.recipients:
        raise StoreError("nobody to mail: no player of %(competition)s has an e-mail address and wants the mail",
                         competition=week.competition)


def set_mail_settings(store: Store, host: str, port: str, security: str, user: str, sender: str) -> MailSettings:
    """Change the mail settings (an empty host forgets them); refuses bad values."""
    host, port, security, user, sender = (v.strip() for v in (host, port, security, user, sender))
    if not host:
        for key in SETTINGS.values():
            if store.get_meta(key):
                store.set_meta(key, "")
        return MailSettings("", 0, "starttls", "", "")
    if not _HOST.fullmatch(host) or len(host) > 253:
        raise StoreError("the mail server %(host)s is not a host name; give one like smtp.example.nl",
                         host=repr(host[:60]))
    if security not in SECURITY:
        raise StoreError("the mail security must be starttls, tls or plain, not %(value)s", value=repr(security[:20]))
    if port and not (is_digits(port) and 1 <= int(port) <= 65535):
        raise StoreError("the mail port must be a whole number from 1 to 65535, not %(value)s", value=repr(port[:20]))
    if any(ch.isspace() or ord(ch) < 32 for ch in user) or len(user) > 200:
        raise StoreError("the mail user name %(value)s holds a space or a control character", value=repr(user[:40]))
    check_address(sender)
    values = {"host": host, "port": str(int(port)) if port else "", "security": security, "user": user,
              "sender": sender}
    for name, value in values.items():
        if (store.get_meta(SETTINGS[name]) or "") != value:
            store.set_meta(SETTINGS[name], value)
    settings = mail_settings(store)
    assert settings is not None
    return settings


def parse_server(url: str) -> tuple[str, str, str, str]:
    """``smtp://user@host:587`` (STARTTLS), ``smtps://user@host`` (implicit TLS) or
    ``smtp+plain://host:1025`` (no TLS: a test server) → host, port, security, user.

    >>> parse_server("smtp://club%40example.nl@mail.example.nl:587")
    ('mail.example.nl', '587', 'starttls', 'club@example.nl')
    >>> parse_server("smtps://mail.example.nl")
    ('mail.example.nl', '', 'tls', '')
    """
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url.strip())
    security = {"smtp": "starttls", "smtps": "tls", "smtp+plain": "plain"}.get(parts.scheme)
    if security is None or not parts.hostname or parts.password or parts.path not in ("", "/"):
        raise StoreError("a mail server is smtp://user@host:587 (STARTTLS), smtps://user@host (TLS) or "
                         "smtp+plain://host:port (no encryption), without a password; not %(url)s",
                         url=repr(url[:80]))
    try:
        port = str(parts.port or "")
    except ValueError:
        raise StoreError("the mail port must be a whole number from 1 to 65535, not %(value)s",
                         value=repr(url[:80])) from None
    return parts.hostname, port, security, unquote(parts.username or "")


def check_address(address: str) -> str:
    """An e-mail address as it is kept, or refused in one line.

    >>> check_address(" anna@example.nl ")
    'anna@example.nl'
    """
    address = address.strip()
    if not _ADDRESS.fullmatch(address) or len(address) > 254:
        raise StoreError("%(address)s is not an e-mail address; give one like anna@example.nl",
                         address=repr(address[:80]))
    return address


def set_member_mail(store: Store, member_id: int, address: str, opt_out: bool) -> bool:
    """A member's e-mail address ('' removes it) and opt-out; False when both were so."""
    address = address.strip()
    return store.set_member_mail(member_id, check_address(address) if address else None, opt_out)


# -- the week's mail -------------------------------------------------------------


def week_mail(store: Store, comp_id: int) -> WeekMail:
    """The week's mail of a competition: its last paired round's pairing, the standing, and
    who gets it.  Refused for a competition that has no round paired yet."""
    from keizer.operations.printing import pairing_sheet
    from keizer.operations.standings import standing_view

    comp = store.competition_by_id(comp_id)
    pairing = pairing_sheet(store, comp_id)
    standing = standing_view(store, comp_id)
    number = int(pairing["round"])
    season = store.load_season(comp_id)
    active = {p.id for p in season.players if p.active_in(number)}
    boards: dict[str, tuple[int, str, str]] = {}
    for row in pairing["rows"]:
        boards[row["white_id"]] = (row["board"], "white", row["black"])
        boards[row["black_id"]] = (row["board"], "black", row["white"])
    mail = store.member_mail()
    recipients, no_address, opted_out = [], [], []
    for player in sorted(store.players(comp_id), key=lambda p: name_order(p["name"])):
        if player["key"] not in active:
            continue
        info = mail.get(player["member_id"], {"email": None, "opt_out": 0})
        if info["opt_out"]:
            opted_out.append(player["name"])
        elif not info["email"]:
            no_address.append(player["name"])
        else:
            board = boards.get(player["key"])
            recipients.append(Recipient(player["member_id"], player["name"], info["email"],
                                        board[0] if board else None, board[1] if board else None,
                                        board[2] if board else None))
    return WeekMail(comp_id, str(comp["name"]), number, pairing, standing, tuple(recipients), tuple(no_address),
                    tuple(opted_out))


def send_week_mail(store: Store, week: WeekMail, compose: Callable[[Recipient, str], Letter],
                   postman: Postman) -> MailSent:
    """Send each recipient their mail (``compose(recipient, token)`` words it with the token of
    their new personal link); a mail that went out gets its link stored (the member's link of
    the previous mail revoked) and a line in the mail log; one that did not, a line saying why.
    The caller has opened ``postman`` (reached the server, logged in): a server that cannot
    be reached is refused there, before anything is written."""
    require_recipients(week)
    sent: list[Delivery] = []
    failed: list[Delivery] = []
    for person in week.recipients:
        token = secrets.token_urlsafe(24)
        letter = compose(person, token)
        try:
            postman.send(person.address, letter.subject, letter.body)
        except MailError as refused:
            failed.append(Delivery(person.name, person.address, str(refused)))
            store.log_mail(week.comp_id, week.round, person.member_id, person.name, person.address, letter.subject,
                           "failed", str(refused))
            continue
        store.revoke_member_links(person.member_id, mail_only=True)
        store.add_member_link(person.member_id, token_hash(token), mail=True)
        store.log_mail(week.comp_id, week.round, person.member_id, person.name, person.address, letter.subject, "sent")
        sent.append(Delivery(person.name, person.address))
    result = MailSent(week.round, tuple(sent), tuple(failed), week.no_address, week.opted_out)
    store.describe(result.said)
    return result
