"""Members (officer only): the list with a filter, add a member (``keizer member add``),
edit one (``keizer member edit``), and import a member list (``keizer member import``: a
CSV file or a KeizerForClubs players file) or a rating list (``keizer ratings import``:
the KNSB's or FIDE's) with a preview of what changes before anything is written.

The uploaded file waits in a temporary folder of the app under a random token kept in
the session (never a path from the form); "Apply" plans again from it and writes only
when the plan is still the one the preview showed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, flash, redirect, request, session, url_for
from werkzeug.utils import secure_filename

from keizer.operations import members as member_ops
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.context import _, back, render, say, store, writing

bp = Blueprint("members", __name__)

_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
_SESSION = "member_import"


@bp.route("/members")
def index() -> Any:
    return render("app/members.html", title=_("Members"), nav="members", members=store().members())


def _rating(form: Any, key: str, what: Word) -> int | None:
    text = form.get(key, "").strip()
    if not text:
        return None
    return forms.whole(text, what, 0, 4000)


def _number(form: Any, key: str, what: Word, low: int, high: int) -> int | None:
    text = form.get(key, "").strip()
    return forms.whole(text, what, low, high) if text else None


def _fields(form: Any) -> dict[str, Any]:
    return {"name": form.get("name", ""), "rating": _rating(form, "rating", Word("rating")),
            "fed_id": form.get("fed_id", ""), "fide_id": form.get("fide_id", ""),
            "fide_rating": _rating(form, "fide_rating", Word("FIDE rating"))}


@bp.route("/members/add", methods=["POST"])
def add() -> Any:
    """``keizer member add NAME [--rating] [--fed-id] [--fide-id] [--fide-rating] [--allow-duplicate]``."""
    fields = _fields(request.form)
    with writing("member add", Message("add member %(name)s", name=fields['name'])) as s:
        added = member_ops.add_member(s, fields["name"], fields["rating"], fields["fed_id"] or None,
                                      fields["fide_id"] or None, fields["fide_rating"],
                                      request.form.get("allow_duplicate") == "on")
    flash(_("added member #%(id)s %(name)s", id=added["id"], name=added["name"]), "ok")
    return back(url_for("members.index"))


@bp.route("/members/<int:member_id>/edit", methods=["GET", "POST"])
def edit(member_id: int) -> Any:
    """``keizer member edit #ID --name … --rating …``: every field of the form; an empty
    rating or id field clears it."""
    if request.method == "GET":
        member = store().member(member_id)
        return render("app/members_edit.html", title=_("Edit %(name)s", name=member["name"]), nav="members", member=member,
                      mail=store().member_mail(member_id).get(member_id, {"email": None, "opt_out": 0}))
    fields = _fields(request.form)
    if "birth_year" in request.form:  # the edit form's own fields: what K depends on, the site's career page
        fields.update(birth_year=_number(request.form, "birth_year", Word("year of birth"), 1900, 2100),
                      fide_k=_number(request.form, "fide_k", Word("FIDE K"), 1, 40),
                      career_public=request.form.get("no_career") != "on")
    with writing("member edit", Message("edit member #%(member_id)s", member_id=member_id)) as s:
        new, changed = member_ops.edit_member(s, f"#{member_id}", fields,
                                              request.form.get("allow_duplicate") == "on")
        if "email" in request.form:  # the week's mail: the address and the opt-out
            from keizer.operations.mail import set_member_mail

            if set_member_mail(s, member_id, request.form.get("email", ""), request.form.get("no_mail") == "on"):
                more = Message("e-mail changed")
                changed = more if changed.text == "nothing changed" else Message("%(said)s; %(more)s", said=changed,
                                                                                  more=more)
                s.describe(Message("edit member #%(id)s %(name)s: %(changed)s", id=new["id"], name=new["name"],
                                   changed=changed))
    flash(_("#%(id)s %(name)s: %(changed)s", id=new["id"], name=new["name"], changed=say(changed)), "ok")
    return back(url_for("members.index"))


# -- importing a list ------------------------------------------------------------------


def _uploads() -> Path:
    """The app's folder of uploaded files waiting for "Apply" (removed with the process' temp files)."""
    folder = current_app.extensions.get("keizer_uploads")
    if folder is None or not Path(folder).is_dir():
        folder = tempfile.mkdtemp(prefix="keizer-uploads-")
        current_app.extensions["keizer_uploads"] = folder
    return Path(folder)


def _pending() -> tuple[dict[str, Any], Path]:
    """The upload this session previewed, and its file; refused when there is none."""
    pending = session.get(_SESSION)
    sent = request.form.get("token", "")
    if not pending or not _TOKEN.fullmatch(str(pending.get("token", ""))) or not secrets.compare_digest(
            sent, pending["token"]):
        raise StoreError("there is no previewed import to apply (it was applied, cancelled or has expired); "
                         "upload the file again")
    folder = _uploads() / pending["token"]
    files = [p for p in folder.iterdir()] if folder.is_dir() else []
    if len(files) != 1:
        raise StoreError("the uploaded file is gone (the server restarted?); upload it again")
    return pending, files[0]


def _discard(pending: dict[str, Any] | None) -> None:
    session.pop(_SESSION, None)
    if pending and _TOKEN.fullmatch(str(pending.get("token", ""))):
        shutil.rmtree(_uploads() / pending["token"], ignore_errors=True)


def _plan(pending: dict[str, Any], path: Path) -> Any:
    members = store().members()
    if pending["kind"] == "ratings":
        with path.open("rb") as stream:
            found = member_ops.read_rating_list(stream, pending["name"], members, pending["match_names"])
        return member_ops.plan_rating_import(found, members, pending["name"], pending["match_names"])
    return member_ops.plan_member_import(members, path, pending["update_names"], pending["allow_duplicate"],
                                         file_name=pending["name"])


def _fingerprint(todo: Any) -> str:
    lines = todo.changed + (todo.added if isinstance(todo, member_ops.MemberImport) else [])
    return hashlib.sha256("\n".join(map(str, [todo.summary, *lines])).encode()).hexdigest()


def _preview_page(pending: dict[str, Any], todo: Any) -> Any:
    ratings = isinstance(todo, member_ops.RatingImport)
    return render("app/members_import.html", title=_("Import preview"), nav="members", pending=pending, todo=todo,
                  ratings=ratings, added=[] if ratings else [say(line) for line in todo.added],
                  changed=[say(line) for line in todo.changed], counts=say(todo.counts),
                  not_found=[say(line) for line in todo.plan.not_found] if ratings else [],
                  without_id=list(todo.plan.without_id) if ratings else [],
                  names_kept=0 if ratings else todo.plan.names_kept,
                  changes=bool(todo.plan.updates if ratings else todo.plan.changes))


@bp.route("/members/import", methods=["GET", "POST"])
def upload() -> Any:
    """Step 1: the file is kept under a new token and the changes are shown; nothing is written."""
    if request.method == "GET":  # back from a refused "Apply": the members page
        return redirect(url_for("members.index"), code=303)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise StoreError("choose the file to import")
    kind = request.form.get("kind", "members")
    if kind not in ("members", "ratings"):
        raise StoreError("unknown kind of list %(kind)s: a member list or a rating list", kind=repr(kind[:20]))
    _discard(session.get(_SESSION))  # one pending import per session
    token = secrets.token_urlsafe(24)
    name = secure_filename(upload.filename) or "upload"
    shown = "".join(ch for ch in upload.filename.replace("\\", "/").rsplit("/", 1)[-1] if ch.isprintable())[:80]
    folder = _uploads() / token
    folder.mkdir()
    path = folder / name
    upload.save(path)
    pending = {"token": token, "kind": kind, "name": shown or name,
               "update_names": request.form.get("update_names") == "on",
               "allow_duplicate": request.form.get("allow_duplicate") == "on",
               "match_names": request.form.get("match_names") == "on"}
    session[_SESSION] = pending
    try:
        todo = _plan(pending, path)
        with member_ops.trial(store()) as s:  # meets every refusal the real import would meet
            if kind == "ratings":
                member_ops.write_rating_import(s, todo)
            else:
                member_ops.write_member_import(s, todo)
    except BaseException:
        _discard(pending)
        raise
    session[_SESSION] = {**pending, "fingerprint": _fingerprint(todo)}
    return _preview_page(pending, todo)


@bp.route("/members/import/apply", methods=["POST"])
def apply() -> Any:
    """Step 2: plan again from the kept file and write it in one transaction, if the plan is
    still the one the preview showed."""
    pending, path = _pending()
    todo = _plan(pending, path)
    if _fingerprint(todo) != pending.get("fingerprint"):
        session[_SESSION] = {**pending, "fingerprint": _fingerprint(todo)}
        flash(_("the members changed since the preview; this is what the import does now"), "warning")
        return _preview_page(pending, todo)
    if pending["kind"] == "ratings":
        if todo.plan.updates:
            with writing("ratings import", todo.summary) as s:
                member_ops.write_rating_import(s, todo)
        message = _("%(list)s rating list: %(counts)s", list=_(todo.list_name), counts=say(todo.counts))
    else:
        if todo.plan.changes:
            with writing("member import", todo.summary) as s:
                member_ops.write_member_import(s, todo)
        message = say(todo.counts)
    _discard(pending)
    flash(message, "ok")
    return back(url_for("members.index"))


@bp.route("/members/import/cancel", methods=["POST"])
def cancel() -> Any:
    _discard(session.get(_SESSION))
    flash(_("import cancelled; nothing was written"), "info")
    return back(url_for("members.index"))
