"""The home page: the club evening.  For each competition the round being prepared
and the next step (attendance → pairing → results → publish), one click away."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app

from keizer.formats.contrast import LIGHT_BACKGROUND, readable, text_on
from keizer.operations.evening import evening as evening_status
from keizer.web.access import arbiter, public
from keizer.web.context import _, club_or_default, render, store

bp = Blueprint("home", __name__)


@bp.route("/")
@arbiter
def evening() -> Any:
    return render("app/home.html", title=_("Club evening"), nav="evening", evenings=evening_status(store()))


@bp.route("/club.css")
@public
def club_css() -> Response:
    """The club's colours (a stylesheet, so the page needs no inline style), made readable as
    the site makes them: text on the club colour black or white, links darkened to 4.5:1."""
    club = club_or_default()
    on, link = text_on(club["colour"]), readable(club["colour"], LIGHT_BACKGROUND)
    css = (f":root {{ --club: {club['colour']}; --accent: {club['accent']}; }}\n"
           f"a {{ color: {link}; }}\n"
           f"header.bar, header.bar a, header.bar .link, .who .note, nav.tabs a[aria-current], button.primary, "
           f".button.primary {{ color: {on}; }}\n")
    return current_app.response_class(css, mimetype="text/css")
