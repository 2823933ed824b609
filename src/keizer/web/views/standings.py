"""Standings, crosstable and a player's history, as ``keizer standings`` and ``keizer
history`` show them (``?round=N``: after round N).  Read-only.

A knock-out cup shows its bracket and a team event its team standing (as ``keizer
standings`` does), with a link to their own pages.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for

from keizer import limits, systems
from keizer.i18n import CELL_LETTERS, CELL_WORDS, COLOUR_LETTERS
from keizer.operations import standings as standings_ops
from keizer.readmodel import cell_legend
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, competition, render, store

bp = Blueprint("standings", __name__)


@bp.route("/c/<int:comp_id>/standings")
@arbiter
def index(comp_id: int) -> Any:
    comp = competition(comp_id)
    category = request.args.get("category") or None
    standing = standings_ops.standing_view(store(), comp_id, _round_arg(request.args.get("round")), category,
                                           provisional=request.args.get("provisional") == "1")
    if request.args.get("part") == "table":  # the results page reloads this as results arrive
        return render("app/standing_table.html", comp=comp, standing=standing)
    return render("app/standings.html", comp=comp, tab="standings", nav="competitions",
                  title=f"{_('Standings')} · {comp['name']}", standing=standing, category=category)


@bp.route("/c/<int:comp_id>/crosstable")
@arbiter
def crosstable(comp_id: int) -> Any:
    comp = competition(comp_id)
    table = None
    standing = None
    if not systems.of(comp["system"]).player_table:  # no crosstable of players: the bracket or team standing
        standing = standings_ops.standing_view(store(), comp_id)
    else:
        table = standings_ops.crosstable(store(), comp_id, _round_arg(request.args.get("round")))
    return render("app/crosstable.html", comp=comp, tab="crosstable", nav="competitions",
                  title=f"{_('Crosstable')} · {comp['name']}", table=table, standing=standing,
                  **(cell_words(table, systems.of(comp["system"]).standing_kind == "ladder") if table else {}))


def cell_words(table: dict[str, Any], ladder: bool) -> dict[str, Any]:
    """The crosstable's letters in the club's language (``letters``: a kind of cell or a
    colour's first letter, w or b → its letter) and, for a Keizer table (``ladder``), its ``legend``:
    (letter, meaning) for exactly the letters its cells show (a Swiss table's note names its
    colours, and a round without a game shows points, not letters)."""
    letters = {kind: _(letter) for kind, letter in CELL_LETTERS.items()}
    letters.update({colour[0]: _(letter) for colour, letter in COLOUR_LETTERS.items()})
    cells = [c for r in table["rows"] for c in r["cells"]] if ladder else []
    shown = {**letters, "white": letters["w"], "black": letters["b"], "out": "–"}
    return {"letters": letters, "legend": [(shown[key], _(CELL_WORDS[key])) for key in cell_legend(cells)]}


@bp.route("/c/<int:comp_id>/player/<int:player_id>")
@bp.route("/c/<int:comp_id>/player/<key>")
@arbiter
def player(comp_id: int, player_id: int | None = None, key: str | None = None) -> Any:
    """A player's rounds (``keizer history``), by the player's number in the database or key."""
    comp = competition(comp_id)
    if player_id is not None:
        players = [p for p in store().players(comp_id) if p["id"] == player_id]
        if not players:
            raise StoreError("there is no player %(id)s in %(name)s", id=player_id, name=comp["name"])
        key = players[0]["key"]
    assert key is not None
    system = systems.of(comp["system"])
    if not system.player_table:  # no history of rounds: the player's matches are on its own page
        found = store().find_player(comp_id, key)
        return render("app/player.html", comp=comp, tab="standings", nav="competitions",
                      title=f"{found['name']} · {comp['name']}", history=None, name=found["name"],
                      own_page=url_for("cups.index" if system.standing_kind == "bracket" else "teams.index",
                                       comp_id=comp_id))
    history = standings_ops.player_history(store(), comp_id, key, _round_arg(request.args.get("round"), 0))
    return render("app/player.html", comp=comp, tab="standings", nav="competitions",
                  title=f"{history['name']} · {comp['name']}", history=history, name=history["name"],
                  own_page=None)


def _round_arg(text: str | None, low: int = 0) -> int | None:
    if text is None or not text.strip():
        return None
    return forms.whole(text, Word("round"), low, limits.MAX_ROUNDS)
