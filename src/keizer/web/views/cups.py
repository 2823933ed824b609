"""A knock-out cup: the draw, the bracket round by round (every match's games per
stage), entering results, the next games (tie-break stages, the next round) and the
arbiter's award — the operations of ``keizer knockout …`` and ``keizer result``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, request

from keizer import systems
from keizer.limits import is_digits
from keizer.operations import cup
from keizer.operations import results as result_ops
from keizer.operations.brackets import cup_overview
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web.access import arbiter
from keizer.web.context import _, back, competition, render, say, store, writing

bp = Blueprint("cups", __name__)

#: The results a game's menu offers, in ``keizer result`` notation.
RESULTS = ("1-0", "1/2-1/2", "0-1", "+-", "-+", "--")


def _cup(comp_id: int) -> dict[str, Any]:
    comp = competition(comp_id)
    if systems.of(comp["system"]).standing_kind != "bracket":
        abort(404)
    return comp


@bp.route("/c/<int:comp_id>/cup")
@arbiter
def index(comp_id: int) -> Any:
    comp = _cup(comp_id)
    return render("app/cup.html", title=comp["name"], nav="competitions", comp=comp, tab="cup", cup=cup_overview(store(), comp_id),
                  results=RESULTS)


@bp.route("/c/<int:comp_id>/cup/draw", methods=["POST"])
@arbiter
def draw(comp_id: int) -> Any:
    _cup(comp_id)
    order = [line.strip() for line in request.form.get("order", "").splitlines() if line.strip()]
    with writing("knockout draw", Message("cup draw")) as s:
        comp = competition(comp_id, write=True)
        seeds = cup.draw_cup(s, comp["id"], order)
    flash(_("round 1 created: %(n)s entrants seeded", n=len(seeds)), "ok")
    return back()


@bp.route("/c/<int:comp_id>/cup/next", methods=["POST"])
@arbiter
def next_games(comp_id: int) -> Any:
    _cup(comp_id)
    with writing("knockout next", Message("cup: next games")) as s:
        comp = competition(comp_id, write=True)
        created = cup.advance(s, comp["id"])
    for line in created:
        flash(say(line), "ok")
    if not created:
        flash(_("nothing to create: results are missing, or the cup is decided"), "info")
    return back()


@bp.route("/c/<int:comp_id>/cup/award", methods=["POST"])
@arbiter
def award(comp_id: int) -> Any:
    _cup(comp_id)
    round_no, match = _whole("round"), _whole("match")
    winner = request.form.get("winner", "").strip()
    with writing("knockout award", Message("award round %(round)s match %(match)s to %(winner)s",
                                           round=round_no, match=match, winner=winner)) as s:
        comp = competition(comp_id, write=True)
        cup.award(s, comp["id"], round_no, match, winner)
        name = s.find_player(comp["id"], winner)["name"]
    flash(_("round %(n)s match %(match)s awarded to %(name)s", n=round_no, match=match, name=name), "ok")
    return back()


@bp.route("/c/<int:comp_id>/cup/result", methods=["POST"])
@arbiter
def result(comp_id: int) -> Any:
    _cup(comp_id)
    return enter_form_results(comp_id)


def enter_form_results(comp_id: int) -> Any:
    """The games of a form (``b<board>`` = result, ``round``, ``correct``) entered as
    ``keizer result --round R BOARD=RESULT …`` would: only the boards whose result the
    form changes ('' on a game that has a result: cleared)."""
    number = _whole("round")
    sent = {}
    for key, value in request.form.items():
        if key.startswith("b") and is_digits(key[1:]):
            sent[result_ops.parse_board(key[1:])] = value.strip()
    stored = {g["board"]: g["result"] or "" for g in store().games(comp_id, number)}
    items = []
    for board, text in sorted(sent.items()):
        if board in stored and _same(text, stored[board]):
            continue
        items.append(f"{board}={text if text or not stored.get(board) else 'clear'}")
    if not items:
        flash(_("round %(n)s: no result was changed", n=number), "info")
        return back()
    parsed = result_ops.parse_items(items)
    correct = bool(request.form.get("correct"))
    with writing("result", Message("results %(results)s", results=' '.join(items))) as s:
        comp = competition(comp_id, write=True)
        entered = result_ops.enter(s, comp["id"], parsed, number, correct)
    if entered.warning:
        flash(_("warning: %(warning)s", warning=say(entered.warning)), "warning")
    flash(say(entered.said), "ok")
    return back()


def _same(text: str, stored: str) -> bool:
    return result_ops.normal(text) == result_ops.normal(stored)


#: The number fields of the cup's and the team event's forms, as their refusals name them.
_FIELDS = {"round": Word("round"), "match": Word("match"), "every": Word("the days between rounds")}


def _whole(field: str) -> int:
    """A round or match number of the form (the forms send them; anything else is refused)."""
    text = request.form.get(field, "").strip()
    if not is_digits(text) or not 1 <= int(text) <= 999:
        raise StoreError("%(what)s %(text)s: give a number from 1", what=_FIELDS[field], text=repr(text[:20]))
    return int(text)
