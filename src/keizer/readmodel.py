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

from typing import Any, Iterable, Mapping, Sequence

from keizer.model import Absence, Game, Player, Result, Round, Season
from keizer.scoring import RoundScore

#: The attendance grid's letter of each kind of absence.
ABSENCE_CODES = {"excused": "E", "unexcused": "U", "club": "C", "bye": "B"}


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


def next_game(season: Season, pid: str, played: int | None = None) -> dict[str, Any] | None:
    """What a player does in the round after the last complete one, as a member asks on the
    afternoon before: the game (board, colour, opponent, and its result once in), a bye, a
    notice of absence, club duty, an external game, no game in a paired round, or the round
    not paired yet.  None when the player takes no part in that round (withdrawn, not joined).

    >>> from keizer.model import Game, Player, Round, Season
    >>> from keizer.settings import Settings
    >>> anna, bram, cas = Player("a", "Anna", 1800, 1), Player("b", "Bram", 1700, 2), Player("c", "Cas", None, 3)
    >>> s = Season("S", Settings(), (anna, bram, cas), (Round(1, "2026-09-01", (Game(1, 1, "b", "a"),),
    ...                                                      absent={"c": Absence.EXCUSED}),))
    >>> next_game(s, "a")["kind"], next_game(s, "a")["colour"], next_game(s, "a")["opponent_id"], next_game(s, "c")["kind"]
    ('game', 'black', 'b', 'notice')
    >>> next_game(Season("S", Settings(), (anna,)), "a")
    {'kind': 'not_paired', 'round': 1, 'date': None}
    """
    if played is None:  # a caller that asks for every player knows it already (the site's 600 pages)
        played = season.completed_rounds()
    number = played + 1
    if not season.player(pid).active_in(number):
        return None
    if len(season.rounds) <= played:
        return {"kind": "not_paired", "round": number, "date": None}
    return player_round(season.rounds[played], pid)


def player_round(rnd: Round, pid: str) -> dict[str, Any]:
    """What a player did (or does) in a round: as :func:`next_game` says it, for any round (a
    member's own calendar and results feed list them all).

    >>> from keizer.model import Game
    >>> player_round(Round(2, "2026-09-08", (Game(2, 3, "a", "b", Result.DRAW),)), "a")["result"]
    '½'
    """
    found: dict[str, Any] = {"round": rnd.number, "date": rnd.date}
    for g in rnd.games:
        if pid in (g.white, g.black):
            colour = g.colour_of(pid)
            return {**found, "kind": "game", "board": g.board, "colour": colour.value,
                    "opponent_id": g.opponent_of(pid), "result": g.result.symbol(colour) if g.result else None}
    if pid in rnd.external:
        return {**found, "kind": "external"}
    why = rnd.absent.get(pid)
    if why is not None:
        return {**found, "kind": {Absence.EXCUSED: "notice", Absence.UNEXCUSED: "absent", Absence.CLUB: "club",
                                  Absence.BYE: "bye"}[why]}
    return {**found, "kind": "no_game" if rnd.games and not rnd.present else "not_paired"}


def tie_notes(rows: Sequence[tuple[Any, int, Sequence[tuple[str, Any]]]], last: str) -> list[dict[str, str] | None]:
    """Why players with the same score stand where they do, for a standing in its order.

    Each row is (score, rank, criteria): the criteria the ranking applied after the score, in
    order, as (label, value).  A row whose score no neighbour shares gets None; a row that shares
    its rank with a neighbour gets ``{"kind": "shared"}``; else what put it behind the row above
    (``{"kind": "behind", "by": label}``) or, the first of its group, ahead of the row below.
    ``last`` names what decides when every criterion is equal (start order, lot).

    >>> tie_notes([(3, 1, [("rating", 1900)]), (3, 2, [("rating", 1800)]), (2, 3, [("rating", 1)]),
    ...            (1, 4, [("SB", 2)]), (1, 4, [("SB", 2)]), (1, 6, [("SB", 2)])], "start order")
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'kind': 'ahead', 'by': 'rating'}, {'kind': 'behind', 'by': 'rating'}, None,
     {'kind': 'shared'}, {'kind': 'shared'}, {'kind': 'behind', 'by': 'start order'}]
    """
    def between(upper: tuple[Any, int, Sequence[tuple[str, Any]]], lower: tuple[Any, int, Sequence[tuple[str, Any]]]) -> str:
        for (label, a), (_, b) in zip(upper[2], lower[2]):
            if a != b:
                return label
        return last

    notes: list[dict[str, str] | None] = []
    for k, row in enumerate(rows):
        above = rows[k - 1] if k and rows[k - 1][0] == row[0] else None
        below = rows[k + 1] if k + 1 < len(rows) and rows[k + 1][0] == row[0] else None
        if (above and above[1] == row[1]) or (below and below[1] == row[1]):
            notes.append({"kind": "shared"})
        elif above:
            notes.append({"kind": "behind", "by": between(above, row)})
        elif below:
            notes.append({"kind": "ahead", "by": between(row, below)})
        else:
            notes.append(None)
    return notes
