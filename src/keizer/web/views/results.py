"""Results: a keyboard-first grid of the round's boards (``keizer result``).

One key per board (``1`` ``0`` ``=`` ``½`` ``+`` ``-`` ``--``, or the CLI's notations),
an emptied cell clears the result.  The whole grid is one plain form; with JavaScript
(``results.js``) each board is saved as it is typed and the standing beside the grid
reloads.  A cell that showed a result is a correction (with the CLI's warning when a
later round is paired already); a cell that showed none is a new result, refused as
on the CLI when someone entered it meanwhile.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, request, url_for

from keizer import limits
from keizer import systems
from keizer.operations import boards as board_ops
from keizer.operations import results as result_ops
from keizer.operations import standings as standings_ops
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.views.publishing import after_result
from keizer.web.views.standings import standing_table
from keizer.web.context import _, back, competition, render, say, store, wants_json, writing
from keizer.web.context import say  # an operation's outcome in the club's language

bp = Blueprint("results", __name__)


@bp.route("/c/<int:comp_id>/results", methods=["GET", "POST"])
@arbiter
def index(comp_id: int) -> Any:
    if request.method == "POST":
        return _enter(comp_id)
    comp = competition(comp_id)
    title = f"{_('Results')} · {comp['name']}"
    if not systems.of(comp["system"]).weekly:  # a cup or a team event enters results on its own page
        return render("app/results.html", comp=comp, tab="results", nav="competitions", title=title,
                      grid=None, standing=None, own_page=_own_page(comp))
    grid = result_ops.grid(store(), comp_id, _round_arg(request.args.get("round")))
    reports = board_ops.reports_view(store(), comp_id)  # the boards' reports waiting for the officer
    waiting = [b for b in reports["boards"] if b["state"] in ("one", "agree", "disagree")] \
        if reports["round"] == grid["round"] else []
    standing = standings_ops.standing_view(store(), comp_id, provisional=True)
    return render("app/results.html", comp=comp, tab="results", nav="competitions", title=title, grid=grid,
                  standing=standing, standing_html=standing_table(comp, standing), own_page=None, waiting=waiting)


def _own_page(comp: dict[str, Any]) -> str:
    bracket = systems.of(comp["system"]).standing_kind == "bracket"
    return url_for("cups.index" if bracket else "teams.index", comp_id=comp["id"])


def _enter(comp_id: int) -> Any:
    """One submit: the whole grid (a plain form) or one board (the script)."""
    form = request.form
    number = _round_arg(form.get("round"))
    if number is None:
        raise StoreError("no round given: reload the page and try again")
    cells: dict[int, tuple[str, str]] = {}
    for field, typed in form.items():
        if field.startswith("r") and limits.is_digits(field[1:]):
            board = result_ops.parse_board(field[1:])
            cells[board] = (typed, form.get(f"was{field[1:]}", ""))
    changed = result_ops.changed_cells(cells)
    if not changed:
        if wants_json():
            return {"ok": _("round %(n)s: nothing changed", n=number), "warning": None, "round": number,
                    "results": _results(comp_id, number)}
        flash(_("round %(n)s: nothing changed", n=number), "info")
        return back(url_for("results.index", comp_id=comp_id, round=number))
    items = " ".join(f"{board}={result_ops.grid_text(typed)}" for board, (typed, _) in changed.items())
    with writing("result", Message("results round %(round)s %(results)s", round=number, results=items)) as s:
        competition(comp_id, write=True)
        entered = result_ops.enter_grid(s, comp_id, number, cells)
    after_result()  # the site follows the evening (when the club has an upload address for it)
    warning = _("warning: %(warning)s", warning=say(entered.warning)) if entered.warning else None
    if wants_json():
        return {"ok": say(entered.said), "warning": warning, "round": number, "results": _results(comp_id, number),
                "open": list(entered.open_boards)}
    if warning:
        flash(warning, "warning")
    flash(say(entered.said), "ok")
    return back(url_for("results.index", comp_id=comp_id, round=number))


def _results(comp_id: int, number: int) -> dict[str, str]:
    """Each board's result as the grid shows it, after the change."""
    return {str(b["board"]): b["shown"] for b in result_ops.grid(store(), comp_id, number)["boards"]}


def _round_arg(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    return forms.whole(text, Word("round"), 1, limits.MAX_ROUNDS)
