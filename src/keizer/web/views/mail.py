"""The week's mail (officer only): the club's mail server (``/club/mail``), and per competition
a preview of the mail, who gets it and who does not, the log of what went to whom, and
*Send* (``/c/<comp_id>/mail``).  The rules live in :mod:`keizer.operations.mail`, the SMTP
transport in :mod:`keizer.web.mailer`; this module words each mail in the club's language.

The password is never kept: it is typed on the page for one sending, or, for the account a
terminal set (``keizer club --mail-server``), the server's ``$KEIZER_MAIL_PASSWORD`` or keyring
gives it, as with the upload password: an officer's account does not send the server's
password to a server of its choosing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import Blueprint, flash, request, url_for

from keizer.operations import mail as mail_ops
from keizer.refusals import Message
from keizer.store import StoreError
from keizer.web import mailer
from keizer.web.context import (_, back, club_or_default, competition, day, language, number, render, result_text, store,
                                 writing)

bp = Blueprint("mail", __name__)


@bp.route("/club/mail", methods=["GET", "POST"])
def settings() -> Any:
    """The club's mail server: host, port, security, user, sender (never a password)."""
    if request.method == "POST":
        fields = ("host", "port", "security", "user", "sender")
        with writing("club", Message("mail settings")) as s:
            saved = mail_ops.set_mail_settings(s, **{k: request.form.get(k, "") for k in fields})
        flash(_("mail server: %(server)s", server=f"{saved.host}:{saved.port}") if saved.host
              else _("the mail settings are removed"), "ok")
        return back(url_for("mail.settings"))
    kept = mail_ops.mail_settings(store())
    return render("app/mail_settings.html", title=_("Mail"), nav="club", mail=kept,
                  trusted=mail_ops.server_password_allowed(store(), kept),
                  ports=mail_ops.DEFAULT_PORTS)


def _standing_lines(standing: dict[str, Any]) -> list[str]:
    lines = []
    for row in standing["rows"]:
        value = row["score"] if "score" in row else row.get("points")  # Keizer: the score; else the points
        shown = number(value if isinstance(value, (Fraction, int, float)) else None, 2 if "score" in row else 1)
        lines.append(f"{row['rank']:>3}. {row['name']}  {shown}")
    return lines


def compose(week: mail_ops.WeekMail, person: mail_ops.Recipient, link: str) -> mail_ops.Letter:
    """One member's mail in the club's language: their board, the pairing, the standing, their link."""
    club = club_or_default()["name"]
    n = week.round
    lines = [_("Hello %(name)s,", name=person.name), ""]
    if person.board is not None:
        lines.append(_("Round %(n)s of %(competition)s: you play on board %(board)s with %(colour)s against "
                       "%(opponent)s.", n=n, competition=week.competition, board=person.board,
                       colour=_("white") if person.colour == "white" else _("black"), opponent=person.opponent))
    else:
        lines.append(_("Round %(n)s of %(competition)s: you have no game in this round.", n=n,
                       competition=week.competition))
    lines += ["", _("The pairing of round %(n)s:", n=n)]
    for row in week.pairing["rows"]:
        result = f"  {result_text(row['result'])}" if row.get("result") else ""
        lines.append(f"{row['board']:>3}. {row['white']} – {row['black']}{result}")
    for name in week.pairing["byes"]:
        lines.append(f"     {_('Bye')}: {name}")
    if week.standing["rows"] and week.standing.get("round"):
        lines += ["", _("The standing after round %(n)s:", n=week.standing["round"])]
        lines += _standing_lines(week.standing)
    lines += ["", _("Can you not come to a club evening? Say so with your personal link (it is yours alone; it "
                    "replaces the link of an earlier mail):"), link, "", club]
    subject = _("%(club)s: %(competition)s, round %(n)s", club=club, competition=week.competition, n=n)
    return mail_ops.Letter(subject, "\n".join(lines) + "\n")


def _link(token: str) -> str:
    return url_for("member_links.member", token=token, _external=True)


@bp.route("/c/<int:comp_id>/mail")
def index(comp_id: int) -> Any:
    """The preview: the first member's mail, who gets it, who does not, and the log."""
    comp = competition(comp_id)
    week = mail_ops.week_mail(store(), comp_id)
    sample = compose(week, week.recipients[0], _("(a new personal link for each member)")) if week.recipients else None
    kept = mail_ops.mail_settings(store())
    trusted = mail_ops.server_password_allowed(store(), kept)
    return render("app/mail.html", comp=comp, tab="mail", nav="competitions", title=f"{_('Mail')} · {comp['name']}",
                  week=week, sample=sample, mail=kept, trusted=trusted, log=_log(comp_id))


def _log(comp_id: int) -> list[dict[str, Any]]:
    """The mail log with each time as the server's clock says it."""
    from datetime import datetime

    rows = []
    for row in store().mail_log(comp_id):
        local = datetime.fromisoformat(row["at"]).astimezone()
        rows.append({**row, "when": f"{day(local.date().isoformat())} {local:%H:%M}"})
    return rows


@bp.route("/c/<int:comp_id>/mail/send", methods=["POST"])
def send(comp_id: int) -> Any:
    """Send the week's mail: one per member, then the log says what went to whom."""
    competition(comp_id, write=True)
    kept = mail_ops.mail_settings(store())
    if kept is None:
        raise StoreError("no mail server is set; set it on the club's Mail page first")
    typed = request.form.get("password") or None  # for this sending only, never kept
    allowed = mail_ops.server_password_allowed(store(), kept)
    password = typed if typed is not None else mailer.server_password(kept) if allowed else None
    if kept.user and password is None:
        raise StoreError("type the password of the mail account %(account)s: the server's own password goes only "
                         "to the mail account set in a terminal", account=f"{kept.user}@{kept.host}")
    week = mail_ops.week_mail(store(), comp_id)
    mail_ops.require_recipients(week)  # before the server is called
    with mailer.postman(kept, password, club_or_default()["name"], language()) as postman:
        with writing("mail", Message("the week's mail of round %(n)s", n=week.round)) as s:
            done = mail_ops.send_week_mail(s, week, lambda person, token: compose(week, person, _link(token)), postman)
    flash(_("round %(n)s: %(sent)s mails sent", n=done.round, sent=len(done.sent)), "ok")
    for failed in done.failed:
        flash(_("not sent to %(name)s (%(address)s): %(why)s", name=failed.name, address=failed.address,
                why=failed.reason or ""), "error")
    return back(url_for("mail.index", comp_id=comp_id))

