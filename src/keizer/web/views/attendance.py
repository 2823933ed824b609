"""Attendance: who is here tonight (``keizer attend``), and after the pairing a latecomer
(``keizer late``) or a no-show (``keizer noshow``).  A Swiss player may ask ahead for a bye
in a later round (``keizer attend --round N -e PLAYER``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, request, url_for

from keizer import limits
from keizer import systems
from keizer.operations import competition as comp_ops
from keizer.operations import rounds as rounds_ops
from keizer.operations import setup
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, back, competition, render, say, store, writing

bp = Blueprint("attendance", __name__)

@bp.route("/c/<int:comp_id>/attendance", methods=["GET", "POST"])
@arbiter
def index(comp_id: int) -> Any:
    if request.method == "POST":
        return _mark(comp_id)
    comp = competition(comp_id)
    if not systems.of(comp["system"]).weekly:
        raise StoreError("%(name)s has no weekly attendance: it is a %(system)s competition", name=comp["name"],
                         system=_(comp["system"]))
    round_no = _round_arg(request.args.get("round"))
    sheet = rounds_ops.attendance_sheet(store(), comp_id, round_no)
    return render("app/attendance.html", comp=comp, tab="attendance", nav="competitions",
                  title=f"{_('Attendance')} · {comp['name']}", sheet=sheet,
                  checked_in=_checked_in(comp_id, sheet.number))


def _checked_in(comp_id: int, number: int) -> dict[str, str]:
    """Player key → the time (HH:MM, the server's) the player checked in at the venue."""
    from datetime import datetime

    from keizer.operations.checkin import round_checkins

    return {key: f"{datetime.fromisoformat(at).astimezone():%H:%M}"
            for key, at in round_checkins(store(), comp_id, number).items()}


def _mark(comp_id: int) -> Any:
    """One submit of the form: ``keizer attend`` with every player the form marks."""
    form = request.form
    marks: dict[str, str] = {}
    external: dict[str, str] = {}
    for field, value in form.items(multi=True):
        if not field.startswith("a-") or value == "":
            continue  # "" keeps the player as they are
        ref = field[2:]
        result = form.get(f"x-{ref}", "").strip().lower()
        if value == form.get(f"w-{ref}") and (value != "external" or result == form.get(f"wx-{ref}", "")):
            continue  # as the page showed it: a mark made meanwhile elsewhere stays, an unmarked player stays so
        if ref in marks or ref in external:
            raise StoreError("%(ref)s is marked twice in one command; mark each player once", ref=repr(ref))
        if value == "external":
            if not result:
                raise StoreError("choose the result of %(name)s's external game (win, draw or loss)",
                                 name=_name(comp_id, ref))
            external[ref] = result
        elif value == "withdrawn" and (g.user is None or g.user["role"] != "officer"):
            raise StoreError("only an officer may withdraw a player; ask the competition leader")
        else:  # a withdrawal is its own action (below), never a mark: "withdrawn" is refused as one
            marks[ref] = value
    round_no = _round_arg(form.get("round"))
    date = _date(form.get("date", ""))
    if date is not None and date == form.get("was_date", ""):
        date = None  # unchanged: an out-of-order date given with --force before stays without asking again
    force = form.get("force") == "on"
    with writing("attend", Message("attendance")) as s:
        competition(comp_id, write=True)
        # Unmarked stays unmarked: each player's default (or a member's notice) comes at the pairing.
        number, counts = comp_ops.mark_attendance(s, comp_id, marks, external, (), round_no, date, force, fill=False)
        s.describe(Message("attendance round %(round)s", round=number))
    summary = ", ".join(f"{v} {_(k)}" for k, v in sorted(counts.items())) or _("nobody marked")
    flash(_("round %(n)s: %(said)s", n=number, said=summary), "ok")
    return back(url_for("attendance.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/attendance/withdraw", methods=["POST"])
def withdraw(comp_id: int) -> Any:
    """``keizer player withdraw PLAYER`` (an officer's): an action of its own, away from the marks,
    and only with its box ticked, so that no stray tap withdraws a player."""
    ref = request.form.get("player", "")
    with writing("player withdraw", Message("withdraw %(player)s", player=ref)) as s:
        competition(comp_id, write=True)
        if not ref:
            raise StoreError("choose the player who withdraws")
        name = s.find_player(comp_id, ref)["name"]
        if request.form.get("confirm") != "yes":
            raise StoreError("tick the box to confirm that %(name)s withdraws", name=name)
        last = setup.withdraw_player(s, comp_id, ref, fill=False)
        s.describe(Message("withdraw %(player)s", player=name))
    flash(_("%(name)s withdrawn after round %(n)s", name=name, n=last), "ok")
    return back(url_for("attendance.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/attendance/late", methods=["POST"])
@arbiter
def late(comp_id: int) -> Any:
    """``keizer late PLAYER``: plays whoever had the bye, or takes the bye."""
    ref = request.form.get("player", "")
    with writing("late", Message("latecomer %(player)s", player=ref)) as s:
        competition(comp_id, write=True)
        change = comp_ops.add_latecomer(s, comp_id, ref)
        s.describe(Message("%(competition)s round %(round)s: latecomer %(player)s", competition=_comp_name(comp_id),
                           round=change.round, player=_name(comp_id, ref)))
    _tell(change)
    return back(url_for("attendance.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/attendance/noshow", methods=["POST"])
@arbiter
def noshow(comp_id: int) -> Any:
    """``keizer noshow PLAYER [--excused]``: the opponent plays whoever had the bye, or takes it."""
    ref = request.form.get("player", "")
    excused = request.form.get("why") == "excused"
    with writing("noshow", Message("no-show %(player)s", player=ref)) as s:
        competition(comp_id, write=True)
        change = comp_ops.remove_noshow(s, comp_id, ref, "excused" if excused else "unexcused")
        s.describe(Message("%(competition)s round %(round)s: no-show %(player)s", competition=_comp_name(comp_id),
                           round=change.round, player=_name(comp_id, ref)))
    _tell(change)
    return back(url_for("attendance.index", comp_id=comp_id))


def _comp_name(comp_id: int) -> str:
    return store().competition_by_id(comp_id)["name"]


def _name(comp_id: int, ref: str) -> str:
    return store().find_player(comp_id, ref)["name"]


def _tell(change: comp_ops.Change) -> None:
    for w in change.warnings:
        flash(_("rule bent: %(rule)s", rule=say(w)), "warning")
    flash(_("round %(n)s: %(said)s", n=change.round, said=say(change.said)), "ok")


def _round_arg(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    return forms.whole(text, Word("round"), 1, limits.MAX_ROUNDS)


def _date(text: str) -> str | None:
    """A date as the CLI's --date takes it (YYYY-MM-DD, 1900–2999); empty: none."""
    if not text.strip():
        return None
    return forms.day(text).isoformat()
