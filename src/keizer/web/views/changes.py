"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("changes", __name__)


@bp.route("/log")
def index() -> Any:
    return "to be written"
