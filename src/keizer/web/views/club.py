"""The club page (officer only): the club's own settings, as ``keizer club`` sets them, and the
season file's backup and restore.

Each section is a form of its own, posting to its own address, so that a section can be added
without touching the others:

* *The club* (``/club``): name, language, colours (with the contrast warning of ``keizer club
  --colour``), season and logo;
* *The website* (``/club/site``): the site folder (inside the database's folder: an officer's
  account reaches no other folder of the server) and the club's upload address (the server's
  own upload password still goes only to the address a terminal gave);
* *Backup* (``/club/backup``): a consistent copy of the season file, made with SQLite's online
  backup API while others may write, downloaded;
* *Restore* (``/club/restore``): a backup sent from this browser is checked (a keizer database
  of this program or older, whole) and previewed beside the current file; restoring keeps the
  replaced file beside the database, listed here, so that a restore can be taken back.
"""

from __future__ import annotations

import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, flash, g, redirect, request, url_for

from keizer.i18n import LANGUAGES
from keizer.operations import club
from keizer.refusals import Message, Refusal
from keizer.store import Store, StoreError, backup, kept_before_restore, restore
from keizer.web.context import _, render, say, store, writing
from keizer.web.views.changes import _shown
from keizer.web.views.setup import LANGUAGE_NAMES

bp = Blueprint("club", __name__)

#: A backup sent for a restore waits beside the database under this name until it is restored
#: or cancelled: ``.club.db.restore-<16 hex digits>``.
_PENDING = re.compile(r"[0-9a-f]{16}")


def _db() -> Path:
    return Path(current_app.config["KEIZER_DB"]).resolve()


def _pending(token: str) -> Path:
    if not _PENDING.fullmatch(token):
        raise StoreError("this restore was cancelled or done already; send the backup again")
    path = _db().parent / f".{_db().name}.restore-{token}"
    if not path.exists():
        raise StoreError("this restore was cancelled or done already; send the backup again")
    return path


@bp.route("/club")
def index() -> Any:
    settings = club.club_view(store())
    logo = store().get_meta("club_logo") if settings["logo"] else None
    kind = "svg+xml" if settings["logo"] == "svg" else "jpeg" if settings["logo"] == "jpg" else settings["logo"]
    return render("app/club.html", title=_("Club"), nav="club", club=settings, languages=LANGUAGE_NAMES,
                  advice=[say(m) for m in club.colour_advice(settings["colour"], settings["accent"])],
                  logo=f"data:image/{kind};base64,{logo}" if logo else None,
                  site_default=str(_db().parent / "site"), kept_files=[p.name for p in kept_before_restore(_db())])


@bp.route("/club", methods=["POST"])
def general() -> Any:
    """``keizer club --name … --language … --colour … --accent … --season … --logo FILE``."""
    form = request.form
    sent = request.files.get("logo")
    logo = (Path(sent.filename).name, sent.read(1_000_001)) if sent is not None and sent.filename else None
    language = form.get("language")
    if language is not None and language not in LANGUAGES:
        language = language[:20]  # the operation refuses it, naming the languages
    with writing("club", Message("club settings")) as s:
        club.set_club(s, logo=logo, name=form.get("name"), language=language, colour=form.get("colour"),
                      accent=form.get("accent"), season=form.get("season"))
    g.pop("lang", None)  # a new language speaks at once
    flash(_("the club's settings are saved"), "ok")
    settings = club.club_settings(store())
    for line in club.colour_advice(settings["colour"], settings["accent"]):
        flash(_("warning: %(warning)s", warning=say(line)), "warning")
    return redirect(url_for("club.index"), code=303)


@bp.route("/club/site", methods=["POST"])
def site() -> Any:
    """``keizer club --site-folder DIR --upload URL --site URL --evening-time T --national-rating R``, the folder
    inside the database's folder."""
    folder = request.form.get("site_folder", "").strip()
    with writing("club", Message("club settings")) as s:
        club.set_site_folder(s, Path(folder) if folder else None, within=_db().parent)
        club.set_club(s, upload=request.form.get("upload", "").strip(), site=request.form.get("site", "").strip(),
                      evening_time=request.form.get("evening_time", "").strip(),
                      national_rating=request.form.get("national_rating"))
    flash(_("the club's settings are saved"), "ok")
    return redirect(url_for("club.index"), code=303)


@bp.route("/club/backup")
def download() -> Any:
    """``keizer backup FILE``, sent to the browser: a consistent copy even while others write."""
    with tempfile.TemporaryDirectory(prefix="keizer-backup-") as folder:
        copy = Path(folder) / _db().name
        backup(_db(), copy)
        data = copy.read_bytes()
    name = f"{_db().stem}-{time.strftime('%Y-%m-%d-%H%M')}{_db().suffix or '.db'}"
    return Response(data, mimetype="application/vnd.sqlite3",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@bp.route("/club/restore", methods=["POST"])
def restore_preview() -> Any:
    """A backup sent from this browser: checked and shown beside the current file; nothing is
    replaced before *Restore*."""
    sent = request.files.get("backup")
    if sent is None or not sent.filename:
        raise StoreError("choose the backup file to restore first")
    token = secrets.token_hex(8)
    path = _db().parent / f".{_db().name}.restore-{token}"
    for old in _db().parent.glob(f".{_db().name}.restore-*"):  # a preview left a day ago
        if old.stat().st_mtime < time.time() - 86400:
            old.unlink(missing_ok=True)
    sent.save(path)
    try:
        given = _contents(path, Path(sent.filename).name)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return _preview(Path(sent.filename).name, given, token=token)


@bp.route("/club/restore/kept", methods=["POST"])
def kept_preview() -> Any:
    """A file a restore replaced: shown beside the current file, to take the restore back."""
    path = _kept(request.form.get("kept", ""))
    return _preview(path.name, _contents(path, path.name), kept=path.name)


def _preview(name: str, given: club.Contents, token: str | None = None, kept: str | None = None) -> Any:
    current = club.contents(store())
    changes = [_shown([c.last_change])[0] if c.last_change else None for c in (given, current)]
    return render("app/club_restore.html", title=_("Restore a backup"), nav="club", token=token, name=name,
                  given=given, current=current, kept=kept, given_change=changes[0], current_change=changes[1])


def _kept(name: str) -> Path:
    found = [p for p in kept_before_restore(_db()) if p.name == name]
    if not found:
        raise StoreError("there is no kept file %(name)s; see the Club page", name=repr(name[:80]))
    return found[0]


def _contents(path: Path, shown: str) -> club.Contents:
    """What a backup holds, or its refusal naming the file as the officer knows it."""
    try:
        opened = Store.open(path, defer_upgrade=True)
    except Refusal as e:  # named as the officer knows the file, not by the name it waits under
        if "path" in e.values:
            e.values = {**e.values, "path": shown}
        raise
    try:
        held = club.contents(opened)
    finally:
        opened.rollback_upgrade()
        opened.close()
    if not current_app.config["KEIZER_LOCAL"] and not held.officers:
        raise StoreError("%(path)s has no officer's account, and this app is served on the network: nobody could "
                         "log in after restoring it", path=shown)
    return held


@bp.route("/club/restore/apply", methods=["POST"])
def apply() -> Any:
    """Restore the backup previewed (or a kept file): the current file is kept beside it."""
    kept_name = request.form.get("kept", "")
    source = _kept(kept_name) if kept_name else _pending(request.form.get("token", ""))
    _contents(source, source.name)  # checked again: the file may have changed since the preview
    opened = g.pop("store", None)
    if opened is not None:
        opened.close()
    replaced = restore(_db(), source)
    if not kept_name:
        source.unlink(missing_ok=True)
    flash(_("restored; the file it replaced is kept as %(name)s (take it back below)", name=replaced.name), "ok")
    return redirect(url_for("club.index"), code=303)


@bp.route("/club/restore/cancel", methods=["POST"])
def cancel() -> Any:
    token = request.form.get("token", "")
    if _PENDING.fullmatch(token):
        (_db().parent / f".{_db().name}.restore-{token}").unlink(missing_ok=True)
    flash(_("nothing was restored"), "info")
    return redirect(url_for("club.index"), code=303)
