"""A new club, without a terminal: ``keizer serve`` on a database file that does not exist.

The server prints (and with ``--open`` opens) a one-time link ``/setup/<token>``; only who
opens it (the person at the computer that runs the server, who sees its terminal) may create
the club.  The link puts the token in that browser's session and leads to the form: the club's
name, language, colour and logo, its first competition with a preset, and the first officer's
account.  Creating it writes the new season file whole (made aside, then linked into place, so
no one ever sees half a file and a file that appeared meanwhile is never replaced), logs the
officer in, and from then on the app is the club's, with logins.  Until then every other page
leads to the form, which without the link says where the link is; a token guessed or replayed
after the club exists is refused, and nothing is written.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, flash, g, redirect, request, session, url_for

from keizer.i18n import LANGUAGES
from keizer.operations import accounts, club
from keizer.refusals import Message
from keizer.settings import PRESET_NOTES, PRESET_TABLE, PRESETS, preset_table
from keizer.store import Store, StoreError
from keizer.web import access
from keizer.web.auth import login_as
from keizer.web.context import _, render, say, setup_pending, store

bp = Blueprint("setup", __name__)

#: Each language by its own name (the form offers them before the club has one).
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "et": "Eesti"}


def presets_shown() -> dict[str, Any]:
    """What the pages that choose a preset show of them: a note per preset and the table of what
    each sets, in words (the creation form of a competition shows the same)."""
    return {"presets": list(PRESETS), "preset_notes": {p: _(PRESET_NOTES[p]) for p in PRESETS},
            "preset_rows": [(_(PRESET_TABLE[name]), {p: say(m) for p, m in cells.items()})
                            for name, cells in preset_table()]}


def _token_held() -> bool:
    token = current_app.config.get("KEIZER_SETUP_TOKEN") or ""
    held = session.get("setup_token")
    return bool(token) and isinstance(held, str) and hmac.compare_digest(held, token)


@bp.route("/setup/<token>")
@access.public
def start(token: str) -> Any:
    """The link ``keizer serve`` printed: it lets this browser create the club."""
    expected = current_app.config.get("KEIZER_SETUP_TOKEN") or ""
    if not setup_pending() or not expected or not hmac.compare_digest(token, expected):
        return render("app/error.html", status=404, message=_("this link to create the club is not valid (any more); "
                                                              "open the app's own address"))
    session["setup_token"] = token
    return redirect(url_for("setup.form"), code=303)


@bp.route("/setup", methods=["GET", "POST"])
@access.public
def form() -> Any:
    if not setup_pending():
        return redirect(url_for("home.evening"), code=303)
    chosen = request.values.get("language", "")
    if chosen in LANGUAGES:
        g.lang = chosen  # the form speaks the language chosen for the club
    if not _token_held():
        return render("app/setup_elsewhere.html", status=403, title=_("A new club"))
    error = None
    if request.method == "POST":
        try:
            return _create()
        except StoreError as refused:  # said on the form, which keeps what was typed
            error = _("error: %(message)s", message=say(refused))
    return render("app/setup.html", status=400 if error else 200, title=_("A new club"), error=error,
                  languages=LANGUAGE_NAMES, values=request.form, min_password=accounts.MIN_PASSWORD, **presets_shown())


def _create() -> Any:
    form = request.form
    if form.get("password", "") != form.get("password2", ""):
        raise StoreError("the two passwords differ; type the same password twice")
    logo = None
    sent = request.files.get("logo")
    if sent is not None and sent.filename:
        logo = (Path(sent.filename).name, sent.read(1_000_001))
    db = Path(current_app.config["KEIZER_DB"])
    name = form.get("name", "")
    part = db.with_name(f".{db.name}.{secrets.token_hex(6)}.new")
    made = Store.open(part, create=True, defer_upgrade=True)  # the schema and the club: one transaction
    try:
        made.origin = lambda: g.get("origin", "web")
        with made.change("club create", Message("new club %(name)s", name=name)):
            club.found_club(made, name=name, language=form.get("language", "en"), colour=form.get("colour"),
                            logo=logo, competition=form.get("competition", ""), preset=form.get("preset", "classic"),
                            officer=form.get("officer", ""), password=form.get("password", ""))
        made.commit_upgrade()
        made.close()
        _link(part, db)
    finally:
        made.close()
        part.unlink(missing_ok=True)
    current_app.config["KEIZER_SETUP_TOKEN"] = None  # the link has done its work
    session.pop("setup_token", None)
    login_as(accounts.find_user(store(), form.get("officer", "")))
    g.pop("lang", None)
    flash(_("the club %(name)s is created, and you are its officer; add its members next", name=name.strip()), "ok")
    return redirect(url_for("members.index"), code=303)


def _link(part: Path, db: Path) -> None:
    """Put the finished file in place, never over one that appeared meanwhile."""
    try:
        os.link(part, db)
    except FileExistsError:
        raise StoreError("%(path)s exists already: someone created the club meanwhile", path=db.name) from None
    except OSError:  # a file system without hard links: an exclusive create, then the bytes
        try:
            with open(db, "xb") as f:
                f.write(part.read_bytes())
        except FileExistsError:
            raise StoreError("%(path)s exists already: someone created the club meanwhile", path=db.name) from None
