"""A member's career at the club (every competition of every season, the club rating over
time, the record against every opponent) and two members' meetings: ``keizer career`` and
``keizer head2head``. Read-only; the club rating is provisional, not official.

The careers' operations (the club rating's history) are imported with the first of these
pages, not when ``keizer serve`` starts (tests/test_serve_start.py)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from keizer.web.access import arbiter
from keizer.web.context import _, render, store

bp = Blueprint("careers", __name__)


@bp.route("/members/<int:member_id>/career")
@arbiter
def career(member_id: int) -> Any:
    from keizer.operations import careers
    from keizer.operations.kept_careers import kept_career

    found = kept_career(store(), f"#{member_id}")  # kept: made again only when it changed
    heading = _("Career")
    played = careers.rating_table(found.rating)
    return render("app/career.html", nav="members", title=f"{found.member['name']} · {heading}", career=found,
                  rating=list(reversed(played)), chart=rating_chart([p.rating.rating for p in played]))


def rating_chart(ratings: list[float], width: int = 600, height: int = 160, pad: int = 8) -> dict[str, Any] | None:
    """The club rating after each period the member played, as an SVG polyline's points (the
    text table beside it is the chart's text alternative); None with fewer than two points.

    >>> rating_chart([1500, 1600, 1550])["points"]
    '8.0,152.0 300.0,8.0 592.0,80.0'
    """
    if len(ratings) < 2:
        return None
    low, high = min(ratings), max(ratings)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / (len(ratings) - 1)
    points = " ".join(f"{pad + i * step:.1f},{pad + (high - r) / span * (height - 2 * pad):.1f}"
                      for i, r in enumerate(ratings))
    return {"points": points, "width": width, "height": height, "low": round(low), "high": round(high),
            "first": round(ratings[0]), "last": round(ratings[-1])}


@bp.route("/members/<int:member_id>/against")
@arbiter
def head2head(member_id: int) -> Any:
    """``?member=``: the other member (id or name, as ``keizer head2head`` takes it)."""
    from keizer.operations import careers

    found = careers.head_to_head(store(), f"#{member_id}", request.args.get("member", ""))
    return render("app/head2head.html", nav="members",
                  title=f"{found.first['name']} – {found.second['name']}", h2h=found)
