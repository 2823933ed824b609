"""The venue screen: a full-screen page for a TV at the club.  First the boards of the
round being played, then the standing; ``venue.js`` alternates the two and fetches
``venue.json`` every 20 seconds (without JavaScript the page reloads every minute).

Anyone logged in may watch it (an arbiter too).  The data is
:func:`keizer.operations.venue.venue`; this module only formats it for the screen.
"""

from __future__ import annotations

import json
import threading
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, get_template_attribute
from markupsafe import Markup

from keizer.operations.checkin import open_for_checkin
from keizer.operations.venue import venue
from keizer.output import json_number
from keizer.store import generation
from keizer.web.access import arbiter
from keizer.web.context import competition, language, number, render, result_text as app_result, store
from keizer.web.views.checkin import venue_qr

bp = Blueprint("venue", __name__)

#: The last venue.json per (database, competition, language), with the database generation
#: it was made from: a hundred screens polling one competition cost one computation per change.
_made: dict[tuple[str, int, str], tuple[tuple[int, ...], str]] = {}
_lock = threading.Lock()
#: One lock per (database, competition, language) while its data is made: one screen makes
#: it after a change; those that poll meanwhile get the data made before (a few hundred ms
#: old on a screen that shows it for 20 s) rather than wait or all make it at once.
_making: dict[tuple[str, int, str], threading.Lock] = {}


@bp.route("/c/<int:comp_id>/venue")
@arbiter
def screen(comp_id: int) -> Any:
    competition(comp_id)  # no such competition: the one-line message
    number = open_for_checkin(store(), comp_id, date.today())
    return render("app/venue.html", d=screen_data(comp_id), checkin=None if number is None else venue_qr(comp_id, number))


@bp.route("/c/<int:comp_id>/venue.json")
@arbiter
def data(comp_id: int) -> Response:
    db = current_app.config["KEIZER_DB"]
    key = (db, comp_id, language())
    now = generation(Path(db))
    with _lock:
        made = _made.get(key)
        making = _making.setdefault(key, threading.Lock())
    if made is not None and (made[0] == now or not making.acquire(blocking=False)):
        body = made[1]  # up to date, or being made again by another screen's request
    else:
        if made is None:
            making.acquire()  # the first data of all: wait for whoever makes it
        try:
            with _lock:
                made = _made.get(key)
            if made is not None and made[0] == now:  # made meanwhile
                body = made[1]
            else:
                competition(comp_id)
                body = json.dumps(screen_data(comp_id), ensure_ascii=False, default=_number, separators=(",", ":"))
                with _lock:
                    _made[key] = (now, body)
        finally:
            making.release()
    response = current_app.response_class(body, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def _number(value: Any) -> Any:
    if isinstance(value, Fraction):
        return json_number(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _plain(markup: Any) -> str:
    """A macro's output as text (the page's script sets it as text, never as HTML)."""
    return " ".join(Markup(markup).unescape().split())


def result_text(result: str | None) -> str:
    """A result as the screen shows it: 1–0, ½–½, +–, …"""
    return app_result(result).replace("-", "–")  # the app's notation, with the typesetter's dash


def screen_data(comp_id: int) -> dict[str, Any]:
    """The operation's data, plus what the screen shows as text in the club's language:
    ``heading``, ``pairs`` (rows of the first page) and ``table`` (rows of the second)."""
    d = venue(store(), comp_id)
    num = number
    how_text = get_template_attribute("outcome.html", "how_text")
    heading = get_template_attribute("app/venue_macros.html", "heading")
    table_heading = get_template_attribute("app/venue_macros.html", "table_heading")
    pairs: list[dict[str, Any]] = []
    for m in d["matches"]:
        score = f"{num(m['score'][0])}–{num(m['score'][1])}" if m.get("score") else ""
        note = " · ".join(x for x in (score, _plain(how_text(m["how"])) if m.get("how") else "") if x)
        pairs.append({"type": "match", "top": m["top"] or "", "bottom": m["bottom"] or "", "note": note,
                      "winner": m.get("winner") or ""})
        for b in m["boards"]:
            pairs.append({"type": "board", "board": b["board"], "white": b["white"], "black": b["black"],
                          "result": result_text(b["result"]), "stage": b["stage"] if b["stage"] != "regular" else ""})
    for b in d["boards"]:
        pairs.append({"type": "board", "board": b["board"], "white": b["white"], "black": b["black"],
                      "result": result_text(b["result"]),
                      "white_points": num(b["white_points"], 1) if "white_points" in b else None,
                      "black_points": num(b["black_points"], 1) if "black_points" in b else None})
    decimals = d.get("decimals", 2)
    table: list[dict[str, Any]] = []
    for r in d["standing"]:
        if "value" in r:
            cells = [num(r["value"], decimals), num(r["score"], decimals)]
        elif "match_points" in r:
            cells = [num(r["match_points"]), num(r["game_points"])]
        else:
            cells = [num(r["points"])]
        table.append({"rank": r["rank"], "name": r["name"], "cells": cells})
    if not d["standing"]:  # a cup, a knock-out team event: the bracket's decided matches
        for m in d["bracket"]:
            if m["winner"] and m["top"] and m["bottom"]:
                table.append({"rank": m["round"], "name": f"{m['top']} – {m['bottom']}",
                              "cells": [m["winner"]]})
    d["heading"], d["table_heading"] = _plain(heading(d)), _plain(table_heading(d))
    d["pairs"], d["table"] = pairs, table
    d["bracket"] = [{**m, "how": str(m["how"])} for m in d["bracket"]]
    for m in d["matches"]:
        m["how"] = None if m.get("how") is None else str(m["how"])
    return d
