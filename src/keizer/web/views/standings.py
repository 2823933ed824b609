"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("standings", __name__)


@bp.route("/c/<int:comp_id>/standings")
def index(comp_id: int) -> Any:
    return "to be written"


@bp.route("/c/<int:comp_id>/crosstable")
def crosstable(comp_id: int) -> Any:
    return "to be written"
