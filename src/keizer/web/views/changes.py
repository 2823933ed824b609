"""The change log (``keizer log``), newest first, and undo (``keizer undo``) with a
confirmation that says exactly which change is reverted.  The confirmation sends that
change's id: if another change came in meanwhile, nothing is undone (:meth:`Store.undo`).
An arbiter may read the log; only an officer may undo."""

from __future__ import annotations

import datetime
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for

from keizer.operations import changes as change_ops
from keizer.refusals import Word
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, render, store

bp = Blueprint("changes", __name__)

#: Changes shown per page unless ?n= says otherwise.
SHOWN = 50


@bp.route("/log")
@arbiter
def index() -> Any:
    limit = forms.whole(request.args.get("n", str(SHOWN)), Word("n"), 1, 10_000)
    rows = _shown(store().changes(limit))
    return render("app/log.html", title=_("Change log"), nav="log", changes=rows, limit=limit,
                  last=rows[0] if rows else None)


def when(at: str) -> str:
    """A change's moment (stored in UTC) as the clock at the club shows it: ``2026-03-31 20:15``."""
    try:
        moment = datetime.datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return str(at).replace("T", " ")
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def _shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**row, "when": when(row["at"])} for row in rows]


@bp.route("/log/undo", methods=["GET", "POST"])
def undo() -> Any:
    if request.method == "GET":
        last = change_ops.last_change(store())
        rows = _shown(store().changes(SHOWN))
        return render("app/log.html", title=_("Undo"), nav="log", changes=rows, limit=SHOWN, last=last,
                      confirm={"id": last["id"], "what": last["summary"], "when": when(last["at"]),
                               "by": last["origin"] or "", "command": last["command"]})
    change_id = forms.whole(request.form.get("change", ""), Word("change"), 1, 2**62)
    what = change_ops.undo(store(), change_id)
    flash(_("undone: %(what)s", what=what), "ok")
    return redirect(url_for("changes.index"), code=303)
