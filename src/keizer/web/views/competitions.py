"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("competitions", __name__)


@bp.route("/competitions")
def index() -> Any:
    return "to be written"


@bp.route("/c/<int:comp_id>/settings")
def settings(comp_id: int) -> Any:
    return "to be written"
