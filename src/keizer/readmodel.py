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

import re
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from keizer.model import Absence, Game, Player, Result, Round, Season
from keizer.rating import fide
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


# -- FIDE rating change per game (provisional, not official) ------------------------------

_TIME_CONTROL = re.compile(r"(\d+)\s*(?:'|min\w*)?\s*(?:\+\s*(\d+))?")


def chapter_of(time_control: str | None) -> fide.Chapter:
    """Which FIDE rating a round's time control counts for (FIDE Handbook B.02: standard
    60 minutes or more per player, rapid over 10 and under 60, blitz 10 or less, each
    counted for 60 moves, so an increment of n seconds adds n minutes). A word in the text
    (blitz, rapid, snel) decides; a text without a time is standard.

    >>> chapter_of(None), chapter_of("90+30"), chapter_of("rapid 25+10"), chapter_of("15+10")
    ('standard', 'standard', 'rapid', 'rapid')
    >>> chapter_of("3+2"), chapter_of("Blitz"), chapter_of("snelschaak"), chapter_of("50+10")
    ('blitz', 'blitz', 'rapid', 'standard')
    """
    text = (time_control or "").lower()
    if "blitz" in text or "bullet" in text:
        return "blitz"
    if "rapid" in text or "snel" in text or "schnell" in text or "kiir" in text:
        return "rapid"
    found = _TIME_CONTROL.search(text)
    if not found:
        return "standard"
    minutes = int(found.group(1)) + int(found.group(2) or 0)
    return "blitz" if minutes <= 10 else "rapid" if minutes < 60 else "standard"


@dataclass(frozen=True)
class RatedGame:
    """One game of a player as FIDE's rating would see it. ``why`` says why it does not count
    (None: it counts): ``opponent_unrated``, ``own_unrated``, ``no_date`` (the round has no
    date, so no edition of the rules), ``before_rules`` (before 1 March 2024, whose rules
    keizer does not hold), ``not_rated`` (rapid/blitz 7.3.1: 600 apart and one above 2600)."""

    round: int
    opponent: str
    opponent_name: str
    opponent_rating: int | None
    score: Fraction
    chapter: fide.Chapter
    why: str | None = None
    #: PD (table 8.1.2, after the 400-point rule) and ΔR = score − PD.
    expected: Fraction | None = None
    delta: Fraction | None = None
    #: K × ΔR: what the game did to the rating (K of the competition, below).
    change: Fraction | None = None


@dataclass(frozen=True)
class RatingChanges:
    """A player's FIDE rating changes in one competition: every game, the sum (ΣΔR and
    K × ΣΔR, not rounded, as 8.3.2 sums them) and the performance rating of the counted
    games. Provisional, not official."""

    rating: int | None
    k: int | None
    games: tuple[RatedGame, ...]
    delta: Fraction
    change: Fraction
    performance: int | None

    @property
    def counted(self) -> int:
        return sum(g.why is None for g in self.games)


def fide_changes(season: Season, ratings: Mapping[str, int | None], player: str,
                 record: fide.OnRecord = fide.OnRecord()) -> RatingChanges:
    """What each game of ``player`` did to the FIDE rating, by the rules in force on the
    round's date and for the round's time control (:func:`chapter_of`). ``ratings``: each
    player's FIDE rating as the competition started (None or 0: unrated). Forfeits and
    unplayed games are not games (B.02 5.1). K is 8.3.3's from what ``record`` knows of the
    player (the K of FIDE's list, the year of birth: :func:`keizer.rating.fide.player_on_record`;
    without them 20, or 10 from 2400), with the 700 rule over the competition's counted games.

    >>> from keizer.model import Game, Player, Result, Round
    >>> from keizer.settings import Settings
    >>> games = (Game(1, 1, "a", "b", Result.WHITE_WIN), Game(1, 2, "c", "d", Result.DRAW))
    >>> s = Season("x", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C"), Player("d", "D")),
    ...            (Round(1, "2026-01-15", games), Round(2, "2026-01-22", (Game(2, 1, "a", "c", Result.BLACK_WIN),))))
    >>> r = fide_changes(s, {"a": 2000, "b": 2092, "c": None}, "a")
    >>> [(g.opponent, g.expected, g.change, g.why) for g in r.games]
    [('b', Fraction(37, 100), Fraction(63, 5), None), ('c', None, None, 'opponent_unrated')]
    >>> r.k, r.change, r.performance, r.counted
    (20, Fraction(63, 5), 2892, 1)
    """
    own = ratings.get(player) or None
    names = {p.id: p.name for p in season.players}
    lines: list[RatedGame] = []
    rated: list[tuple[fide.Rules, int, Fraction]] = []
    for rnd in season.rounds:
        chapter = chapter_of(rnd.time_control)
        day = _day(rnd.date)
        rules = fide.rules_on(day, chapter) if day else None
        for game in rnd.games:
            if player not in (game.white, game.black) or not game.played_on_board:
                continue
            opponent = game.opponent_of(player)
            theirs = ratings.get(opponent) or None
            score = game.points_of(player)
            why = ("no_date" if day is None else "before_rules" if rules is None else
                   "own_unrated" if own is None else "opponent_unrated" if theirs is None else
                   "not_rated" if not fide.is_rated(own, theirs, rules) else None)
            lines.append(RatedGame(rnd.number, opponent, names.get(opponent, opponent), theirs, score, chapter, why))
            if why is None and rules is not None and own is not None and theirs is not None:
                rated.append((rules, theirs, score))
    if own is None or not rated:
        return RatingChanges(own, None, tuple(lines), Fraction(0), Fraction(0), None)
    first = next(d for d in map(_day, (rnd.date for rnd in season.rounds)) if d is not None)
    k = fide.period_k(fide.k_factor(fide.player_on_record(own, record, first), first), len(rated), rated[0][0])
    counted = iter(rated)
    done: list[RatedGame] = []
    for line in lines:
        if line.why is None:
            rules, theirs, score = next(counted)
            g = fide.game_change(own, theirs, score, rules)
            line = replace(line, expected=g.expected, delta=g.change, change=g.change * k)
        done.append(line)
    delta = sum((g.delta for g in done if g.delta is not None), Fraction(0))
    performance = fide.performance_rating([r for _, r, _ in rated], sum((s for _, _, s in rated), Fraction(0)))
    return RatingChanges(own, k, tuple(done), delta, delta * k, performance)


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text or "")
    except ValueError:
        return None


def next_game(season: Season, pid: str, played: int | None = None,
              player: Player | None = None) -> dict[str, Any] | None:
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
    if not (player if player is not None else season.player(pid)).active_in(number):  # (the player: found already)
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
