"""(to be written: a placeholder so that the navigation links resolve)"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("publishing", __name__)


@bp.route("/publish")
def index() -> Any:
    return "to be written"
