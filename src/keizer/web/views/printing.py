"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("printing", __name__)


@bp.route("/c/<int:comp_id>/print")
def index(comp_id: int) -> Any:
    return "to be written"
