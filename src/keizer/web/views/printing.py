"""The Print pages of a competition: the pairing list for the notice board, result slips
(with each board's result link and QR code), score sheets, the attendance sheet to sign
and the standing.  Each is a page of its own styled for A4 (print.css); ``?round=N``
chooses the round.

Result links are made when the slips are printed: the codes are not stored (only their
hashes), so the page that makes them (a POST, one transaction) is the only place they are
shown.  See :mod:`keizer.operations.boards`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, request, url_for

from keizer import limits
from keizer import systems
from keizer.operations import boards as board_ops
from keizer.operations import printing as print_ops
from keizer.operations import standings as standing_ops
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, competition, render, say, store, writing
from keizer.web.qr import qr_svg
from keizer.web.views.checkin import venue_qr

bp = Blueprint("printing", __name__)

#: Hosts a phone at the club cannot reach: links made there are of no use on a slip.
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def _round_arg() -> int | None:
    text = request.values.get("round", "").strip()
    if not text:
        return None
    return forms.whole(text, Word("round"), 0, limits.MAX_ROUNDS)


def _page(template: str, comp: dict[str, Any], title: str, **context: Any) -> tuple[str, int]:
    return render(template, comp=comp, tab="print", title=title, say=say, **context)


@bp.route("/c/<int:comp_id>/print")
@arbiter
def index(comp_id: int) -> Any:
    comp = competition(comp_id)
    weekly = systems.of(comp["system"]).weekly
    return _page("app/print.html", comp, _("Print"), weekly=weekly,
                 rounds=print_ops.paired_rounds(store(), comp_id) if weekly else [],
                 link_round=board_ops.linkable_round(store(), comp_id))


@bp.route("/c/<int:comp_id>/print/pairings")
@arbiter
def pairings(comp_id: int) -> Any:
    comp = competition(comp_id)
    sheet = print_ops.pairing_sheet(store(), comp_id, _round_arg())
    below = [say(m) for m in sheet["not_playing"]] + [f"{_('Bye')}: {name}" for name in sheet["byes"]]
    kind = systems.of(comp["system"])
    checkin = venue_qr(comp_id, sheet["round"] + 1) if kind.weekly and kind.from_attendance and sheet["round"] else None
    return _page("app/print_pairings.html", comp, _("Pairing list"), sheet=sheet, checkin=checkin,
                 rounds=print_ops.paired_rounds(store(), comp_id), type_size=type_size(sheet["rows"], below))


#: The pairing list's type on paper, in points: the largest that fits an A4 page, not larger
#: than this (a round of three boards is read from across the room, not from the street).
LARGEST_TYPE, SMALLEST_TYPE = 32, 8
#: What an A4 page in portrait holds inside its margins (print.css: 12 mm), in points, less
#: the heading (club, competition, round: some 36 mm).
PAGE_WIDTH, PAGE_HEIGHT = 186 * 72 / 25.4, (273 - 36) * 72 / 25.4


def type_size(rows: list[dict[str, Any]], below: list[str]) -> int:
    """The type size (points) at which the pairing list fills its A4 page: as large as the
    rows (a row is some 1.9 times the type, with its padding and line) and the widest pair
    names of each colour allow (system type takes some 0.6 em a character; the board, the
    result and the small columns of numbers, with the cells' padding, some 13 em), after the
    lines under the table (byes, who does not play: 13 pt, some 90 characters a line).
    print.css has a class per size (``type-N``).

    >>> type_size([{"white": "Anna", "black": "Bram"}] * 3, [])  # as wide as the page allows
    29
    >>> type_size([{"white": "Anna de Vries-van Leeuwen", "black": "Bram"}] * 17, ["Not playing: " + "x, " * 40])
    17
    >>> type_size([{"white": "Anna", "black": "Bram"}] * 30, []), type_size([{"white": "A", "black": "B"}] * 90, [])
    (11, 8)
    """
    lines = sum(-(-max(len(text), 1) // 90) for text in below)
    height = PAGE_HEIGHT - lines * 13 * 1.5
    by_height = height / ((len(rows) + 1) * 1.9)
    widest = sum(max((len(str(r[side])) for r in rows), default=0) for side in ("white", "black"))
    by_width = PAGE_WIDTH / (0.6 * widest + 13)
    return max(SMALLEST_TYPE, min(LARGEST_TYPE, int(min(by_height, by_width))))


@bp.route("/c/<int:comp_id>/print/slips", methods=["GET", "POST"])
@arbiter
def slips(comp_id: int) -> Any:
    """GET: the slips (with links only when they are made, below), and what can be made.
    POST ``which=missing|all``: make the links (one transaction) and show the slips of
    those boards with their codes, this once."""
    comp = competition(comp_id)
    number = _round_arg()
    codes: dict[int, str] = {}
    if request.method == "POST":
        renew = request.form.get("which") == "all"
        with writing("print slips", Message("result links")) as s:
            comp = competition(comp_id, write=True)
            if number is None:
                number = board_ops.linkable_round(s, comp_id) or 0
            codes = board_ops.make_codes(s, comp_id, number, renew=renew)
            boards = f"board{'s' if len(codes) > 1 else ''} {', '.join(map(str, codes))}"
            s.describe((Message("round %(round)s: result links for %(boards)s (new for every board)", round=number, boards=boards) if renew
                        else Message("round %(round)s: result links for %(boards)s", round=number, boards=boards)))
        listed = ", ".join(map(str, codes))
        shown = _("boards %(list)s", list=listed) if len(codes) > 1 else _("board %(list)s", list=listed)
        flash(_("round %(n)s: links made for %(boards)s; print this page now: the codes are shown only this once",
                n=number, boards=shown), "ok")
    sheet = print_ops.pairing_sheet(store(), comp_id, number)
    link_round = board_ops.linkable_round(store(), comp_id)
    linkable = link_round == sheet["round"]
    rows = [r for r in sheet["rows"] if r["board"] in codes] if codes else sheet["rows"]
    slips = []
    for row in rows:
        code = codes.get(row["board"])
        url = url_for("boards.board", code=code, _external=True) if code else None
        slips.append({**row, "code": code, "url": url, "qr": qr_svg(url) if url else None})
    return _page("app/print_slips.html", comp, _("Result slips"), sheet=sheet, slips=slips, made=bool(codes),
                 rounds=print_ops.paired_rounds(store(), comp_id),
                 linkable=linkable, missing=board_ops.missing_links(store(), comp_id, sheet["round"]) if linkable else [],
                 loopback=request.host.rsplit(":", 1)[0] in LOOPBACK)


@bp.route("/c/<int:comp_id>/print/scoresheets")
@arbiter
def scoresheets(comp_id: int) -> Any:
    comp = competition(comp_id)
    sheet = print_ops.pairing_sheet(store(), comp_id, _round_arg())
    return _page("app/print_scoresheets.html", comp, _("Score sheets"), sheet=sheet, moves=range(1, 31),
                 rounds=print_ops.paired_rounds(store(), comp_id))


@bp.route("/c/<int:comp_id>/print/attendance")
@arbiter
def attendance(comp_id: int) -> Any:
    comp = competition(comp_id)
    sheet = print_ops.attendance_list(store(), comp_id, _round_arg())
    return _page("app/print_attendance.html", comp, _("Attendance sheet"), sheet=sheet,
                 rounds=list(range(1, sheet["last"] + 1)))


@bp.route("/c/<int:comp_id>/print/standings")
@arbiter
def standings(comp_id: int) -> Any:
    comp = competition(comp_id)
    table = standing_ops.standing_view(store(), comp_id, _round_arg())
    rounds = list(range(table["last"], -1, -1)) if table["kind"] != standing_ops.BRACKET else []
    return _page("app/print_standings.html", comp, _("Standing"), table=table, rounds=rounds)
