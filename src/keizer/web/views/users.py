"""The users page (officer only): the app's accounts, as ``keizer user add/role/password/remove``.

Each form calls the operation the CLI command calls (:mod:`keizer.operations.accounts`)
in one logged transaction; a refusal (a short password, the last officer) is the
CLI's one line and changes nothing.  A password hash is never shown.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, request

from keizer.operations import accounts
from keizer.refusals import Message, Word
from keizer.store import StoreError
from keizer.web.auth import login_as
from keizer.web.context import _, back, render, store, writing

bp = Blueprint("users", __name__)


@bp.route("/users")
def index() -> Any:
    return render("app/users.html", title=_("Users"), nav="users", users=store().users(), roles=accounts.ROLES,
                  min_password=accounts.MIN_PASSWORD)


def _password() -> str:
    """The new password, typed twice on the form."""
    password = request.form.get("password", "")
    if password != request.form.get("password2", ""):
        raise StoreError("the two passwords differ; type the same password twice")
    return password


@bp.route("/users/add", methods=["POST"])
def add() -> Any:
    name, role = request.form.get("name", ""), request.form.get("role", "")
    accounts.check_new_user(store(), name, role)
    password = _password()
    with writing("user add", Message("user %(name)s (%(role)s)",
                                     name=name, role=Word("officer") if role == "officer" else Word("arbiter"))) as s:
        made = accounts.add_user(s, name, role, password)
    flash(_("added %(name)s (%(role)s)", name=made["name"], role=_(made["role"])), "ok")
    return back("/users")


@bp.route("/users/role", methods=["POST"])
def role() -> Any:
    name, role = request.form.get("name", ""), request.form.get("role", "")
    with writing("user role", Message("%(name)s is %(role)s",
                                      name=name, role=Word("officer") if role == "officer" else Word("arbiter"))) as s:
        accounts.set_role(s, name, role)
    flash(_("%(name)s is now %(role)s", name=name, role=_(role)), "ok")
    return back("/users")


@bp.route("/users/password", methods=["POST"])
def password() -> Any:
    name = request.form.get("name", "")
    accounts.find_user(store(), name)
    new = _password()
    with writing("user password", Message("password of %(name)s", name=name)) as s:
        accounts.set_password(s, name, new)  # ends every session of the account
    if g.user and not g.user["open"] and g.user["name"].casefold() == name.strip().casefold():
        login_as(accounts.find_user(store(), name))  # this browser stays logged in, with a new session
    flash(_("password of %(name)s changed", name=name), "ok")
    return back("/users")


@bp.route("/users/remove", methods=["POST"])
def remove() -> Any:
    name = request.form.get("name", "")
    with writing("user remove", Message("remove user %(name)s", name=name)) as s:
        gone = accounts.remove_user(s, name)
    flash(_("removed %(name)s", name=gone["name"]), "ok")
    return back("/users")
