"""A team event: teams and their boards, the schedule, line-ups, board results, the
team standing (a knock-out: the bracket) and the next round — the operations of
``keizer team …`` and ``keizer result``.

The team event's operations are imported by the forms that write, not when ``keizer serve``
starts (tests/test_serve_start.py).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, abort, flash, request

from keizer import systems
from keizer.operations.brackets import team_overview
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.web import forms
from keizer.systems.team import stored_rules
from keizer.web.access import arbiter
from keizer.web.context import _, back, competition, render, say, store, writing
from keizer.web.views.cups import RESULTS, _whole, enter_form_results

bp = Blueprint("teams", __name__)


def _event(comp_id: int) -> dict[str, Any]:
    comp = competition(comp_id)
    if systems.of(comp["system"]).standing_kind != "matches":
        abort(404)
    return comp


@bp.route("/c/<int:comp_id>/teams")
@arbiter
def index(comp_id: int) -> Any:
    comp = _event(comp_id)
    return render("app/teams.html", title=comp["name"], nav="competitions", comp=comp, tab="teams",
                  ev=team_overview(store(), comp_id), results=RESULTS)


@bp.route("/c/<int:comp_id>/teams/add", methods=["POST"])
def add(comp_id: int) -> Any:
    from keizer.operations import teamevent as ops

    _event(comp_id)
    name = request.form.get("name", "").strip()
    boards = [x.strip() for x in request.form.get("boards", "").splitlines() if x.strip()]
    reserves = [x.strip() for x in request.form.get("reserves", "").splitlines() if x.strip()]
    with writing("team add", Message("add team %(name)s", name=name)) as s:
        comp = competition(comp_id, write=True)
        ops.add_team(s, comp["id"], name, boards, reserves)
    flash(_("added team %(name)s", name=name), "ok")
    return back()


@bp.route("/c/<int:comp_id>/teams/schedule", methods=["POST"])
@arbiter
def schedule(comp_id: int) -> Any:
    from keizer.operations import teamevent as ops

    _event(comp_id)
    first = _date("first_date")
    every = _whole("every") if request.form.get("every", "").strip() else 7
    with writing("team schedule", Message("team schedule")) as s:
        comp = competition(comp_id, write=True)
        rounds = ops.schedule_team_event(s, comp["id"], first, every)
    flash(_("%(n)s rounds scheduled", n=rounds), "ok")
    return back()


@bp.route("/c/<int:comp_id>/teams/lineup", methods=["POST"])
@arbiter
def lineup(comp_id: int) -> Any:
    from keizer.operations import teamevent as ops

    _event(comp_id)
    round_no = _whole("round")
    team = request.form.get("team", "").strip()
    players = [x for x in request.form.getlist("player") if x.strip()]
    with writing("team lineup", Message("line-up of %(team)s in round %(round)s", team=team, round=round_no)) as s:
        comp = competition(comp_id, write=True)
        row = ops.set_lineup(s, comp["id"], round_no, team, players)
        names = [s.find_player(comp["id"], ref)["name"] for ref in players]
        s.describe(Message("line-up of %(team)s in round %(round)s", team=row['name'], round=round_no))
    flash(_("round %(n)s: %(team)s plays %(players)s", n=round_no, team=row["name"],
            players=", ".join(f"{k} {n}" for k, n in enumerate(names, 1))), "ok")
    return back()


@bp.route("/c/<int:comp_id>/teams/result", methods=["POST"])
@arbiter
def result(comp_id: int) -> Any:
    _event(comp_id)
    return enter_form_results(comp_id)


@bp.route("/c/<int:comp_id>/teams/next", methods=["POST"])
@arbiter
def next_round(comp_id: int) -> Any:
    from keizer.operations import teamevent as ops

    _event(comp_id)
    when = _date("date")
    with writing("team next", Message("team event: next round")) as s:
        comp = competition(comp_id, write=True)
        step = ops.swiss_next if stored_rules(s, comp["id"]).schedule == "swiss" else ops.knockout_next
        created = step(s, comp["id"], when)
    for line in created:
        flash(say(line), "ok")
    return back()


@bp.route("/c/<int:comp_id>/teams/award", methods=["POST"])
@arbiter
def award(comp_id: int) -> Any:
    from keizer.operations import teamevent as ops

    _event(comp_id)
    round_no, match = _whole("round"), _whole("match")
    team = request.form.get("team", "").strip()
    with writing("team award", Message("award round %(round)s match %(match)s to %(winner)s",
                                       round=round_no, match=match, winner=team)) as s:
        comp = competition(comp_id, write=True)
        name = ops.award_match(s, comp["id"], round_no, match, team)
        s.describe(Message("award round %(round)s match %(match)s to %(winner)s", round=round_no, match=match, winner=name))
    flash(_("round %(n)s match %(match)s awarded to %(name)s", n=round_no, match=match, name=name), "ok")
    return back()


#: The date fields of the team event's forms, as their refusals name them.
_DATES = {"first_date": Word("the date of round 1"), "date": Word("the date")}


def _date(field: str) -> date | None:
    """A date of the form (YYYY-MM-DD, as --first-date and --date), or None."""
    text = request.form.get(field, "").strip()
    if not text:
        return None
    return forms.day(text, _DATES[field])
