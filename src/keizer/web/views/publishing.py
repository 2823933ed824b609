"""The publish page (officer only): the club website in one click, and what changed.

The site is written into a folder on the server, as ``keizer publish OUTDIR`` does:
the club's site folder (kept in the database's meta table as ``publish_folder``: set with
``keizer club --site-folder``, or by the last publish from this page), else a folder ``site``
next to the database file.  The page may name another folder only inside the database's
folder (a relative one is taken from there): an officer's account reaches no other folder
of the server.  Publishing writes files, not the database; only a new folder is
remembered (one logged change).

With *Send it to the club's web host* the site goes on as ``keizer publish OUTDIR --upload
URL`` sends it (``keizer.publish.upload``); the address is the club's upload setting and a
new one is remembered after a good upload.  The password comes from the form (used for this
upload only), else, for the club's own upload address only, from ``$KEIZER_UPLOAD_PASSWORD``
or the system keyring of the server.  A folder on the server as the address is, again, the
club's own or one inside the database's folder.

The site generator (:mod:`keizer.publish`, a third of what the app's modules took to import)
is imported when this page publishes or a result is entered in a club that publishes live
(:func:`after_result`), not when ``keizer serve`` starts (tests/test_serve_start.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, request

from keizer.operations.club import PASSWORD_TARGET, SITE_FOLDER, club_settings, live_target, set_club
from keizer.formats.targets import parse_target
from keizer.refusals import Message
from keizer.store import StoreError
from keizer.web.context import _, render, store, writing

bp = Blueprint("publishing", __name__)

#: How many changed pages the page lists by name.
SHOWN = 60


def _database_folder() -> Path:
    return Path(current_app.config["KEIZER_DB"]).resolve().parent


def default_folder() -> Path:
    kept = store().get_meta(SITE_FOLDER)
    return Path(kept) if kept else _database_folder() / "site"


def _below_database(folder: Path) -> bool:
    """Whether ``folder`` lies inside the database's folder (links followed: a link out leads out)."""
    try:
        base, resolved = _database_folder(), folder.resolve()
    except (OSError, ValueError, RuntimeError):  # not a name this computer can use: not inside either
        return False
    return resolved != base and resolved.is_relative_to(base)


def _folder(text: str) -> Path:
    """The folder the form names: the club's site folder (set in a terminal with ``keizer club
    --site-folder``, or here before), or a new one inside the database's folder.  The app writes
    nowhere else: an officer's account does not give the server's other folders away."""
    text = text.strip()
    if not text:
        return default_folder()
    try:
        folder = Path(text).expanduser()
        folder = folder if folder.is_absolute() else _database_folder() / folder
        chosen = folder.resolve() == default_folder().resolve() or _below_database(folder)
        folder.is_dir()  # a name the system cannot take (a NUL, too long) fails here, before anything is written
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a loop of links
        raise StoreError("%(folder)s is not a folder name this computer can use; choose another",
                         folder=repr(text[:80])) from None
    if not chosen:
        raise StoreError("the app publishes only into the club's site folder (%(site)s) or a folder inside "
                         "%(folder)s; choose one there", site=str(default_folder()), folder=str(_database_folder()))
    return folder


def after_result() -> None:
    """A result was entered: the site is published again and sent to the club's web host in the
    background, when the club has an upload address the app may use by itself (keizer.publish.live)."""
    if live_target(store()) is None:
        return
    from keizer.publish import live

    live.result_entered(store(), Path(current_app.config["KEIZER_DB"]))


@bp.route("/publish", methods=["GET", "POST"])
def index() -> Any:
    target = club_settings(store())["upload"]
    if request.method == "GET":
        return render("app/publish.html", title=_("Publish"), nav="publish", folder=str(default_folder()), result=None,
                      target=target, sent=None)
    from keizer.publish import publish as publish_site
    from keizer.publish.files import read_manifest
    from keizer.publish.upload import upload

    folder = _folder(request.form.get("folder", ""))
    wanted = request.form.get("target", "").strip() if request.form.get("upload") == "on" else None
    host = parse_target(wanted) if wanted else None  # a bad address is refused before anything is written
    if request.form.get("upload") == "on" and host is None:
        raise StoreError("no web host given: fill in its address (e.g. ftps://user@host/public_html) or untick the box")
    if host is not None and host.kind in ("folder", "git") and host.url != target \
            and not _below_database(Path(host.path)):
        raise StoreError("the app uploads into a folder on this computer only when it is the club's upload "
                         "address or lies inside %(folder)s; choose one there", folder=str(_database_folder()))
    typed = request.form.get("password") or None  # used for this upload only, never kept
    trusted = host is not None and host.url == (store().get_meta(PASSWORD_TARGET) or None)
    if host is not None and host.kind in ("ftp", "ftps") and host.user and not trusted and typed is None:
        raise StoreError("type the password of %(account)s: the server's own password goes only to the club's "
                         "upload address", account=host.account)
    before = set(read_manifest(folder)) if folder.is_dir() else set()
    published = publish_site(store(), folder)
    removed = sorted(before - set(read_manifest(folder)))
    if str(folder) != (store().get_meta(SITE_FOLDER) or ""):
        with writing("publish", Message("publish into %(folder)s", folder=folder)) as s:
            s.set_meta(SITE_FOLDER, str(folder))
    pages = [p for p in published.written if p.endswith(".html")]
    result = {"seasons": published.seasons, "written": len(published.written), "unchanged": published.unchanged,
              "removed": removed, "pages": pages[:SHOWN], "more": max(0, len(pages) - SHOWN),
              "other": len(published.written) - len(pages), "index": str(folder / "index.html")}
    sent = None
    if host is not None:
        # The server's own password ($KEIZER_UPLOAD_PASSWORD, the keyring) goes only to the address
        # a terminal gave: any other needs its password typed, also after the app remembered it.
        done = upload(folder, host, ask=lambda: typed, stored_password=trusted, replace=request.form.get("replace") == "on")
        sent = {"where": done.where, "sent": len(done.sent), "removed": len(done.removed), "kept": list(done.kept),
                "unchanged": done.unchanged, "commit": done.commit}
        if host.url != target:
            with writing("publish", Message("upload target %(url)s", url=host.url)) as s:
                set_club(s, upload=host.url)
            target = host.url
    return render("app/publish.html", title=_("Publish"), nav="publish", folder=str(folder), result=result,
                  target=target, sent=sent)
