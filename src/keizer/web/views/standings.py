"""Standings, crosstable and a player's history, as ``keizer standings`` and ``keizer
history`` show them (``?round=N``: after round N).  Read-only.

A knock-out cup shows its bracket and a team event its team standing (as ``keizer
standings`` does), with a link to their own pages.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, current_app, request, url_for
from markupsafe import Markup, escape

from keizer import limits, systems
from keizer.i18n import CELL_LETTERS, CELL_WORDS, COLOUR_LETTERS
from keizer.operations import standings as standings_ops
from keizer.readmodel import cell_legend
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, competition, language, letter, number, render, store

bp = Blueprint("standings", __name__)


@bp.route("/c/<int:comp_id>/standings")
@arbiter
def index(comp_id: int) -> Any:
    comp = competition(comp_id)
    category = request.args.get("category") or None
    standing = standings_ops.standing_view(store(), comp_id, _round_arg(request.args.get("round")), category,
                                           provisional=request.args.get("provisional") == "1")
    table = standing_table(comp, standing, category)
    if request.args.get("part") == "table":  # the results page reloads this as results arrive
        return table, 200
    return render("app/standings.html", comp=comp, tab="standings", nav="competitions",
                  title=f"{_('Standings')} · {comp['name']}", standing=standing, category=category,
                  standing_html=table)


def standing_table(comp: dict[str, Any], standing: dict[str, Any], category: str | None = None) -> Markup:
    """``app/standing_table.html`` of a standing; a Keizer standing's made once per state of the
    competition, language and address (600 rows are not drawn again for each request)."""
    if "version" not in standing:
        return Markup(render("app/standing_table.html", comp=comp, standing=standing)[0])
    key = (current_app.config["KEIZER_DB"], comp["id"], standing["version"], standing["round"], category,
           standing["provisional"] is not None, language(), request.script_root, "standing")
    with _made_lock:
        made = _made.get(key)
        if made is not None:
            _made.move_to_end(key)
            return Markup(made["html"])
    html = Markup(render("app/standing_table.html", comp=comp, standing=standing)[0])
    _keep(key, {"html": html})
    return html


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
    words: dict[str, Any] = {"rows_html": None}
    if table is not None and systems.of(comp["system"]).standing_kind == "ladder":
        words = keizer_words(comp_id, table)
    elif table is not None:
        words |= cell_words(table, False)
    return render("app/crosstable.html", comp=comp, tab="crosstable", nav="competitions",
                  title=f"{_('Crosstable')} · {comp['name']}", table=table, standing=standing, **words)


#: A Keizer crosstable's rows as HTML with its letters and legend, and a Keizer standing's table,
#: by (database, competition, version of its kept standings, round, language, the app's address…):
#: made once per state of the competition, not 31,200 template lookups per request at 600 players
#: and 52 rounds.
_made: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_made_lock = threading.Lock()
#: How many tables' rows are kept (a few languages, rounds asked for, competitions).
MADE_TABLES = 32


def keizer_words(comp_id: int, table: dict[str, Any]) -> dict[str, Any]:
    """:func:`cell_words` of a Keizer table and ``rows_html``, its body's rows."""
    key = (current_app.config["KEIZER_DB"], comp_id, table["version"], table["round"], language(),
           request.script_root)
    with _made_lock:
        made = _made.get(key)
        if made is not None:
            _made.move_to_end(key)
            return made
    made = cell_words(table, True)
    made["rows_html"] = keizer_rows(comp_id, table, made["letters"])
    _keep(key, made)
    return made


def _keep(key: tuple[Any, ...], made: dict[str, Any]) -> None:
    """Keep what was made for ``key``, dropping what was made of the competition's earlier
    states (a club evening makes a new state with every result) and the least recently used."""
    with _made_lock:
        for old in [k for k in _made if k[:2] == key[:2] and k[2] != key[2]]:
            del _made[old]
        _made[key] = made
        while len(_made) > MADE_TABLES:
            _made.popitem(last=False)


def keizer_rows(comp_id: int, table: dict[str, Any], letters: dict[str, str]) -> Markup:
    """The rows of a Keizer crosstable (as the template draws those of a Swiss one), each
    text escaped: the rank, the name with its link, per round the opponent's rank, colour and
    result or the letter of why no game, the score and the value."""
    decimals = table["decimals"]
    shown = {key: str(escape(text)) for key, text in letters.items()}
    titles: dict[str, str] = {}  # a kind's or an external result's title, translated once

    def title(kind: str, result: str | None = None) -> str:
        key = f"{kind} {result}"
        if key not in titles:
            titles[key] = str(escape(f"{_('external')} {_(result or '')}" if kind == "external" else _(kind)))
        return titles[key]

    rows: list[str] = []
    for r in table["rows"]:
        href = escape(url_for("standings.player", comp_id=comp_id, key=r["id"]))
        cells: list[str] = []
        for c in r["cells"]:
            kind = c["kind"]
            if kind == "game":
                rank = c["opponent_rank"]
                forfeit = ' class="forfeit"' if c["forfeit"] else ""
                cells.append(f'<td{forfeit} title="{escape(c["opponent"])}">'
                             f'{"" if rank is None else rank}{shown[c["colour"]]}{escape(c["result"])}</td>')
            elif kind == "external":
                cells.append(f'<td class="kind" title="{title(kind, c["result"])}">{shown["external"]}</td>')
            else:
                cells.append(f'<td class="kind" title="{title(kind)}">'
                             f'{shown[kind] if kind in shown else escape(c["code"])}</td>')
        rows.append(f'<tr><td class="num">{r["rank"]}</td>\n<td class="name"><a href="{href}">{escape(r["name"])}'
                    f'</a></td>\n{"".join(cells)}\n<td class="num">{escape(number(r["score"], decimals))}</td>'
                    f'<td class="num">{escape(number(r["value"], decimals))}</td></tr>')
    return Markup("".join(rows))


def cell_words(table: dict[str, Any], ladder: bool) -> dict[str, Any]:
    """The crosstable's letters in the club's language (``letters``: a kind of cell or a
    colour's first letter, w or b → its letter) and, for a Keizer table (``ladder``), its ``legend``:
    (letter, meaning) for exactly the letters its cells show (a Swiss table's note names its
    colours, and a round without a game shows points, not letters)."""
    letters = {kind: letter(kind) for kind in CELL_LETTERS}
    letters.update({colour[0]: _(word) for colour, word in COLOUR_LETTERS.items()})
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
