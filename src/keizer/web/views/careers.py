"""A member's career at the club (every competition of every season, the club rating over
time, the record against every opponent) and two members' meetings: ``keizer career`` and
``keizer head2head``. Read-only; the club rating is provisional, not official."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from keizer.operations import careers
from keizer.web.access import arbiter
from keizer.web.context import _, render, store

bp = Blueprint("careers", __name__)


@bp.route("/members/<int:member_id>/career")
@arbiter
def career(member_id: int) -> Any:
    found = careers.career(store(), f"#{member_id}")
    heading = _("Career")
    return render("app/career.html", nav="members", title=f"{found.member['name']} · {heading}", career=found,
                  rating=list(reversed(careers.rating_table(found.rating))))


@bp.route("/members/<int:member_id>/against/<int:other_id>")
@arbiter
def head2head(member_id: int, other_id: int) -> Any:
    found = careers.head_to_head(store(), f"#{member_id}", f"#{other_id}")
    return render("app/head2head.html", nav="members",
                  title=f"{found.first['name']} – {found.second['name']}", h2h=found)
