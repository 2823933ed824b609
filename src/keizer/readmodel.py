"""What the standings, crosstables and histories show, computed once for every view.

The app and the command line (``keizer.operations.standings``) and the published site
(``keizer.publish.plan``) draw the same tables; the facts in their cells come from here, so
the site never says of a round something other than the app does.  Each view adds only
its own wording and links (a page's address, the JSON's number format).

>>> from keizer.model import Absence, Player, Round
>>> anna, bram = Player("a", "Anna", 1800, 1, joined=2), Player("b", "Bram", 1700, 2)
>>> rnd = Round(1, "2026-09-01", absent={"b": Absence.CLUB})
>>> no_game(rnd, anna), absence_cell(rnd, anna)
('not_joined', {'kind': 'late', 'code': '–'})
>>> no_game(rnd, bram), absence_cell(rnd, bram)
('absent', {'kind': 'club', 'code': 'C'})
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from keizer.model import Absence, Game, Player, Result, Round
from keizer.scoring import RoundScore

#: The attendance grid's letter of each kind of absence.
ABSENCE_CODES = {"excused": "E", "unexcused": "U", "club": "C", "bye": "B"}


#: The order of a legend: the colours, then each kind of cell (see :func:`cell_legend`).
LEGEND_ORDER = ("white", "black", "game", "present", "bye", "excused", "unexcused", "club", "external", "out")


def cell_legend(cells: Iterable[Mapping[str, Any]]) -> list[str]:
    """What a legend under a table of cells explains: exactly the letters that occur in it, as
    keys of ``LEGEND_ORDER`` (a game's colours, each kind of absence; "out" for "–", not yet
    joined or withdrawn).  Each view words them (``keizer.i18n.CELL_LETTERS``, ``CELL_WORDS``).

    >>> cell_legend([{"kind": "game", "colour": "b"}, {"kind": "excused"}, {"kind": "late"}])
    ['black', 'excused', 'out']
    >>> cell_legend([{"kind": "game"}, {"kind": "game"}])  # the attendance grid's G, no colour
    ['game']
    """
    used: set[str] = set()
    for cell in cells:
        kind = cell["kind"]
        if kind == "game" and cell.get("colour"):
            used.add("white" if str(cell["colour"]).startswith("w") else "black")
        else:
            used.add("out" if kind in ("late", "withdrawn") else kind)
    return [key for key in LEGEND_ORDER if key in used]


def games_by_player(rounds: Iterable[Round]) -> list[dict[str, Game]]:
    """Per round: each player's game (a crosstable asks for every cell)."""
    return [{p: g for g in rnd.games for p in (g.white, g.black)} for rnd in rounds]


def absence_cell(rnd: Round, player: Player) -> dict[str, Any]:
    """Why a player of a Keizer competition had no game in a round, as the crosstable's and
    the attendance grid's cell: not joined yet or withdrawn, an external game, present
    (unpaired), or the kind of absence."""
    if not player.active_in(rnd.number):
        return {"kind": "late" if rnd.number < player.joined else "withdrawn", "code": "–"}
    if player.id in rnd.external:
        return {"kind": "external", "code": "X", "result": rnd.external[player.id].value}
    if player.id in rnd.present:
        return {"kind": "present", "code": "P"}
    why = rnd.absent.get(player.id, Absence.UNEXCUSED)
    return {"kind": why.value, "code": ABSENCE_CODES[why.value]}


def game_cell(game: Game, pid: str, rank_of: dict[str, int]) -> dict[str, Any]:
    """A Keizer crosstable's cell of a game: the opponent, their rank, the colour, the result."""
    opp = game.opponent_of(pid)
    colour = game.colour_of(pid)
    return {"kind": "game", "code": "G", "opponent_id": opp, "opponent_rank": rank_of.get(opp),
            "colour": colour.value, "result": game.result.symbol(colour) if game.result else "",
            "forfeit": game.is_forfeit}


def no_game(rnd: Round, player: Player) -> str:
    """Why a player of a Swiss or round-robin has no game in a round: bye, excused, absent,
    not joined yet, or withdrawn."""
    if rnd.number < player.joined:
        return "not_joined"
    if not player.active_in(rnd.number):
        return "withdrawn"
    return {Absence.BYE: "bye", Absence.EXCUSED: "excused"}.get(rnd.absent.get(player.id, Absence.UNEXCUSED), "absent")


def meetings(rounds: Iterable[Round]) -> dict[tuple[str, str], list[str]]:
    """A round-robin crosstable's cells: (player, opponent) → the player's results against
    them, in round order (two in a double round-robin)."""
    cells: dict[tuple[str, str], list[str]] = {}
    for rnd in rounds:
        for g in rnd.games:
            if g.result is not None:
                for side in (g.white, g.black):
                    cells.setdefault((side, g.opponent_of(side)), []).append(g.result.symbol(g.colour_of(side)))
    return cells


def history_line(line: RoundScore, names: Mapping[str, str]) -> dict[str, Any]:
    """One round of a Keizer player's history: what was played and what it earned (exact)."""
    result = line.result  # a game's Result (from this player's side), else an external one
    return {
        "round": line.round, "kind": line.kind,
        "opponent": names[line.opponent] if line.opponent else None, "opponent_id": line.opponent,
        "colour": line.colour.value if line.colour else None,
        "result": result.symbol(line.colour) if isinstance(result, Result) and line.colour else
        (result.value if result else None),
        "value_used": line.value_used, "factor": line.factor, "points": line.points,
    }
