"""The publish page (officer only): the club website in one click, and what changed.

The site is written into a folder on the server, as ``keizer publish OUTDIR`` does:
by default the folder of the last publish from this page (kept in the database's meta
table as ``publish_folder``), else a folder ``site`` next to the database file.  A
relative folder is taken from the database's folder.  Publishing writes files, not
the database; only a new folder is remembered (one logged change).

With *Send it to the club's web host* the site goes on as ``keizer publish OUTDIR --upload
URL`` sends it (``keizer.publish.upload``); the address is the club's upload setting and a
new one is remembered after a good upload.  The password comes from the form (used for this
upload only), else from ``$KEIZER_UPLOAD_PASSWORD`` or the system keyring of the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, request

from keizer.publish import club_settings, set_club
from keizer.publish import publish as publish_site
from keizer.publish.files import read_manifest
from keizer.publish.transports import parse_target
from keizer.publish.upload import upload
from keizer.store import StoreError
from keizer.web.auth import officer_only
from keizer.web.context import _, render, store, writing

bp = Blueprint("publishing", __name__)

#: The meta key of the folder last published into from the app.
FOLDER_SETTING = "publish_folder"
#: How many changed pages the page lists by name.
SHOWN = 60


def _database_folder() -> Path:
    return Path(current_app.config["KEIZER_DB"]).resolve().parent


def default_folder() -> Path:
    kept = store().get_meta(FOLDER_SETTING)
    return Path(kept) if kept else _database_folder() / "site"


def _folder(text: str) -> Path:
    text = text.strip()
    if not text:
        return default_folder()
    folder = Path(text).expanduser()
    return folder if folder.is_absolute() else _database_folder() / folder


@bp.route("/publish", methods=["GET", "POST"])
@officer_only
def index() -> Any:
    target = club_settings(store())["upload"]
    if request.method == "GET":
        return render("app/publish.html", title=_("Publish"), nav="publish", folder=str(default_folder()), result=None,
                      target=target, sent=None)
    folder = _folder(request.form.get("folder", ""))
    wanted = request.form.get("target", "").strip() if request.form.get("upload") == "on" else None
    host = parse_target(wanted) if wanted else None  # a bad address is refused before anything is written
    if request.form.get("upload") == "on" and host is None:
        raise StoreError("no web host given: fill in its address (e.g. ftps://user@host/public_html) or untick the box")
    before = set(read_manifest(folder)) if folder.is_dir() else set()
    published = publish_site(store(), folder)
    removed = sorted(before - set(read_manifest(folder)))
    if str(folder) != (store().get_meta(FOLDER_SETTING) or ""):
        with writing("publish", f"publish into {folder}") as s:
            s.set_meta(FOLDER_SETTING, str(folder))
    pages = [p for p in published.written if p.endswith(".html")]
    result = {"seasons": published.seasons, "written": len(published.written), "unchanged": published.unchanged,
              "removed": removed, "pages": pages[:SHOWN], "more": max(0, len(pages) - SHOWN),
              "other": len(published.written) - len(pages), "index": str(folder / "index.html")}
    sent = None
    if host is not None:
        password = request.form.get("password") or None  # used for this upload only, never kept
        done = upload(folder, host, ask=lambda: password)
        sent = {"where": done.where, "sent": len(done.sent), "removed": len(done.removed), "kept": list(done.kept),
                "unchanged": done.unchanged, "commit": done.commit}
        if host.url != target:
            with writing("publish", f"upload target {host.url}") as s:
                set_club(s, upload=host.url)
            target = host.url
    return render("app/publish.html", title=_("Publish"), nav="publish", folder=str(folder), result=result,
                  target=target, sent=sent)
