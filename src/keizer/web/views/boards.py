"""A board's result link: the players report the result from a phone (/b/<code>, public:
the code is the key), and the officer's page of reports (/c/<comp_id>/reports) to confirm
them.  The rules live in keizer.operations.boards; the codes are made on the Print page's
result slips."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from flask import Blueprint, current_app, flash, g, make_response, request, session

from keizer import limits as _limits
from keizer.operations import boards as board_ops
from keizer.operations import results as result_ops
from keizer.refusals import Message, Word
from keizer.web import forms
from keizer.web.access import arbiter, public
from keizer.web.auth import Throttle
from keizer.web.context import _, back, competition, render, store, writing
from keizer.web.views.publishing import after_result

#: The side a phone reports for, as a word of the catalogs.
_SIDES = {"white": Word("white"), "black": Word("black")}

bp = Blueprint("boards", __name__)


#: Wrong codes from one address in the throttle's window before it waits: far more than a
#: club's typos (a club's Wi-Fi is one address for every phone), far too few to guess a code
#: (40 bits: at this rate a guess at one of 30 open boards succeeds once in ~10,000 years).
MAX_WRONG_CODES = 30


def _board_throttle() -> Throttle:
    """Wrong board codes per address: a right code never counts, so typos of other phones
    behind the same address do not hold a player up until far more of them are wrong."""
    return current_app.extensions.setdefault("keizer_board_throttle", Throttle(limit=MAX_WRONG_CODES))


def _phone() -> str:
    """Which phone sends a report: a random mark kept in its cookie, stored as a fingerprint."""
    mark = session.get("phone")
    if not isinstance(mark, str):
        mark = session["phone"] = secrets.token_urlsafe(16)
    return hashlib.sha256(mark.encode()).hexdigest()[:16]


def _board_response(page: tuple[str, int]) -> Any:
    """A board's page: never cached or indexed (its address is the board's key)."""
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _board_refused(message: str | None = None, status: int = 404) -> Any:
    """A board link refused: the same line whatever was wrong (it tells a guesser nothing)."""
    message = message or _("error: this link is not valid (any more)")
    return _board_response(render("app/board_refused.html", status=status, title=_("Result link"), message=message))


@bp.route("/b/<code>", methods=["GET", "POST"])
@public
def board(code: str) -> Any:
    """A board's result link: the board on a phone; the player says which side they
    played and the result (one report per side, a second one replaces the first)."""
    throttle = _board_throttle()
    address = request.remote_addr or "an unknown address"
    key = f"board:{address}"
    wait, stamp = throttle.attempt(key)  # counted as wrong until the code is found right
    if wait > 0:
        minutes = max(1, round(wait / 60))
        return _board_refused(_("error: too many wrong result links from this address; wait %(n)s minutes and "
                                "try again", n=minutes) if minutes > 1 else
                              _("error: too many wrong result links from this address; wait %(n)s minute and "
                                "try again", n=minutes), 429)
    if request.method == "GET":
        try:
            found = board_ops.board_for_code(store(), code)
        except board_ops.LinkRefused:
            return _board_refused()
        throttle.forgive(stamp, key)
        return _board_response(render("app/board.html", title=_("Result"), board=found, code=code))
    try:
        with writing("board report", Message("board report")) as s:
            found = board_ops.board_for_code(s, code)
            throttle.forgive(stamp, key)
            side = board_ops.parse_side(request.form.get("side", ""))
            g.origin = Message("board link: %(competition)s round %(round)s board %(board)s (%(side)s) from %(address)s",
                               competition=found.competition, round=found.round, board=found.board, side=_SIDES[side],
                               address=request.remote_addr or Word("an unknown address"))
            done = board_ops.report(s, found, side, request.form.get("result", ""), _phone())
            s.describe((Message("round %(round)s board %(board)s: %(side)s reports %(result)s; both agree: entered", round=found.round,
                               board=found.board, side=_SIDES[side], result=done.result) if done.entered else
                       Message("round %(round)s board %(board)s: %(side)s reports %(result)s", round=found.round,
                               board=found.board, side=_SIDES[side], result=done.result)))
    except board_ops.LinkRefused:
        return _board_refused()
    if done.entered:  # two agreeing reports entered the result: the site follows
        after_result()
    return _board_response(render("app/board_done.html", title=_("Result"), done=done, code=code))


@bp.route("/c/<int:comp_id>/reports")
@arbiter
def reports(comp_id: int) -> Any:
    """The officer's view of the results the players reported, board by board."""
    comp = competition(comp_id)
    return render("app/board_reports.html", comp=comp, tab="results", title=_("Reported results"),
                  view=board_ops.reports_view(store(), comp_id))


@bp.route("/c/<int:comp_id>/reports/confirm", methods=["POST"])
@arbiter
def confirm_report(comp_id: int) -> Any:
    """Enter a board's reported result (the officer's choice where the reports disagree)."""
    board_no = result_ops.parse_board(request.form.get("board", ""))
    number = forms.whole(request.form.get("round", ""), Word("round"), 1, _limits.MAX_ROUNDS)
    with writing("result", Message("results")) as s:
        competition(comp_id, write=True)
        result = board_ops.confirm(s, comp_id, number, board_no, request.form.get("result") or None)
        s.describe(Message("results %(board)s=%(result)s (reported from the board)", board=board_no, result=result))
        entered = result_ops.report(s.load_season(comp_id), number, 1, False)
    after_result()
    flash(entered.message, "ok")
    return back()


@bp.route("/c/<int:comp_id>/reports/confirm-agreeing", methods=["POST"])
@arbiter
def confirm_agreeing(comp_id: int) -> Any:
    """Enter every board whose two reports agree, in one change (the results page's button)."""
    number = forms.whole(request.form.get("round", ""), Word("round"), 1, _limits.MAX_ROUNDS)
    with writing("result", Message("results")) as s:
        competition(comp_id, write=True)
        agreed = board_ops.confirm_agreeing(s, comp_id, number)
        s.describe(Message("results %(results)s (reported from the boards)",
                           results=" ".join(f"{board}={result}" for board, result in sorted(agreed.items()))))
        entered = result_ops.report(s.load_season(comp_id), number, len(agreed), False)
    flash(entered.message, "ok")
    return back()


@bp.route("/c/<int:comp_id>/reports/setting", methods=["POST"])
def reports_setting(comp_id: int) -> Any:
    """Who enters a reported result: the officer, or two agreeing reports at once."""
    mode = request.form.get("reports_confirm", "")
    with writing("board reports", Message("reports_confirm=%(mode)s", mode=mode)) as s:
        competition(comp_id, write=True)
        board_ops.set_confirm_mode(s, comp_id, mode)
    flash(_("two agreeing reports now enter the result at once") if mode == "both"
          else _("the officer now confirms each reported result"), "ok")
    return back()
