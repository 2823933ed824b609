"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("venue", __name__)


@bp.route("/c/<int:comp_id>/venue")
def screen(comp_id: int) -> Any:
    return "to be written"
