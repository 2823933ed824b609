"""Entering results, for the command line and the app's results grid alike: reading
``BOARD=RESULT`` items and results files, the grid's one-key notation, and what to
tell the user afterwards (the boards still open, the warning after a correction of a
round when a later round is paired already).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from keizer import limits, systems
from keizer.model import Result, Season
from keizer.refusals import Message
from keizer.store import Store, StoreError
from keizer.systems import open_round

#: A line of a results file: the board, then '=', ';', ',' or spaces, then the result.
RESULT_LINE = re.compile(r"([0-9]+)(?:\s*[=;,]\s*|\s+)(\S.*?)")

#: The grid's one-key notation (the officer types a key per board); anything else is
#: read as ``keizer result`` reads it (1-0, ½-½, +-, …).
GRID_KEYS: dict[str, str] = {
    "1": Result.WHITE_WIN.value, "0": Result.BLACK_WIN.value, "=": Result.DRAW.value, "½": Result.DRAW.value,
    "+": Result.WHITE_FORFEIT_WIN.value, "-": Result.BLACK_FORFEIT_WIN.value, "−": Result.BLACK_FORFEIT_WIN.value,
    "--": Result.DOUBLE_FORFEIT.value,
}

#: The short form of each result for the grid (what typing it would give).
GRID_SHORT: dict[str, str] = {"1-0": "1", "0-1": "0", "1/2-1/2": "½", "+-": "+", "-+": "-", "--": "--"}


def file_items(name: str, text: str) -> list[str]:
    """The ``BOARD=RESULT`` items of a results file's lines ('3 1-0', '3=1-0', '3;1-0',
    '3 =' for a draw; '#' starts a comment)."""
    items = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        found = RESULT_LINE.fullmatch(line)
        if not found:
            raise StoreError("%(name)s line %(line)s: write 'BOARD RESULT', e.g. '3 1-0'", name=name, line=line_no)
        items.append(f"{found[1]}={found[2]}")
    return items


def parse_items(items: Iterable[str]) -> dict[int, str]:
    """``BOARD=RESULT`` items as {board: result text}; each board once.

    >>> parse_items(["1=1-0", " 2 = ½-½"])
    {1: '1-0', 2: '½-½'}
    >>> parse_items(["1-0"])
    Traceback (most recent call last):
    ...
    keizer.store.StoreError: '1-0': write BOARD=RESULT, e.g. 1=1-0
    """
    items = list(items)
    if not items:
        raise StoreError("no results given", hint="ev_results_syntax")
    parsed: dict[int, str] = {}
    for item in items:
        board_text, sep, text = item.partition("=")
        if not sep or not re.fullmatch(r"\s*[0-9]+\s*", board_text):
            raise StoreError("%(item)s: write BOARD=RESULT, e.g. 1=1-0", item=repr(item[:40]))
        board = parse_board(board_text)
        if board in parsed:
            raise StoreError("board %(board)s is given twice", board=board)
        parsed[board] = text.strip()
    return parsed


def parse_board(text: str) -> int:
    """A board number (1 … the most boards a round can have), refused as
    :func:`keizer.limits.whole_number` words it."""
    try:
        return limits.whole_number(text, "board", 1, limits.MAX_BOARDS)
    except ValueError:
        text = text.strip()
        shown = text if len(text) <= 30 else text[:27] + "..."
        if re.fullmatch(r"[+-]?[0-9]+", text):
            raise StoreError("board %(board)s is out of range (1 to %(high)s)", board=shown,
                             high=limits.MAX_BOARDS) from None
        raise StoreError("board %(board)s is not a whole number", board=repr(shown)) from None


def grid_text(typed: str) -> str:
    """What a grid cell means as a result item: its one-key notation spelled
    out, 'clear' for an emptied cell, anything else as typed (``enter_results`` reads
    it, or refuses it with the CLI's message).

    >>> [grid_text(t) for t in ("1", " = ", "½", "+", "-", "--", "", "0-1", "2")]
    ['1-0', '1/2-1/2', '1/2-1/2', '+-', '-+', '--', 'clear', '0-1', '2']
    """
    text = typed.strip()
    if not text:
        return "clear"
    return GRID_KEYS.get(text, text)


def normal(typed: str) -> str:
    """A grid cell in the stored notation ('' when empty; an unknown text as typed).

    >>> normal("½"), normal("½-½"), normal(" "), normal("x")
    ('1/2-1/2', '1/2-1/2', '', 'x')
    """
    text = grid_text(typed)
    if text == "clear":
        return ""
    try:
        return Result.parse(text).value
    except ValueError:
        return text


def changed_cells(cells: Mapping[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """The grid's boards whose cell says something else than it showed: {board: (typed, shown)}."""
    return {board: cell for board, cell in sorted(cells.items()) if normal(cell[0]) != normal(cell[1])}


@dataclass(frozen=True)
class Entered:
    """What is said after entering results."""

    round: int
    count: int
    said: Message  # "round 5: 2 results entered; boards still open: 3", worded by each view
    warning: Message | None  # a correction while a later round is paired already
    open_boards: tuple[int, ...]

    @property
    def message(self) -> str:
        """What was done, in English (as the command line prints it)."""
        return str(self.said)


def report(season: Season, number: int, count: int, correct: bool, cleared: int = 0) -> Entered:
    """What is said after entering results, from the season as it is after the change:
    ``count`` boards changed, ``cleared`` of them emptied.

    >>> from keizer.model import Game, Result, Round, Season
    >>> from keizer.settings import Settings
    >>> s = Season("x", Settings(), (), (Round(1, games=(Game(1, 1, "a", "b", Result.DRAW), Game(1, 2, "c", "d"))),))
    >>> report(s, 1, 2, False, cleared=1).message
    'round 1: 1 result entered, 1 cleared; boards still open: 2'
    """
    rnd = season.rounds[number - 1]
    missing = tuple(g.board for g in rnd.games if g.result is None)
    state = Message("boards still open: %(boards)s", boards=", ".join(map(str, missing))) if missing \
        else Message("round complete")
    later = [r.number for r in season.rounds[number:] if r.games or r.byes]
    warning: Message | None = None
    if correct and later:
        warning = Message("round %(round)s was paired before this correction; every standing is recomputed, "
                          "the pairing stays", hint="ev_repair_unplayed", round=later[-1])
    entered = count - cleared
    done = Message("%(n)s result entered", n=entered) if entered == 1 else Message("%(n)s results entered", n=entered)
    if cleared:
        done = Message("%(entered)s, %(n)s cleared", entered=done, n=cleared) if entered \
            else Message("%(n)s cleared", n=cleared)
    return Entered(number, count, Message("round %(n)s: %(done)s; %(state)s", n=number, done=done, state=state),
                   warning, missing)


def enter(store: Store, comp_id: int, results: Mapping[int, str], round_no: int | None = None,
          correct: bool = False) -> Entered:
    """Enter results and say what happened."""
    number = enter_results(store, comp_id, results, round_no, correct)
    cleared = sum(text.strip().lower() == "clear" for text in results.values())
    return report(store.load_season(comp_id), number, len(results), correct, cleared)


def enter_grid(store: Store, comp_id: int, number: int, cells: Mapping[int, tuple[str, str]]) -> Entered:
    """Enter a round's grid: per board (typed, shown before).  Only the boards whose cell
    changed are entered; a board that showed a result is corrected (and cleared when
    emptied), a board that showed none is entered as new (refused, as on the CLI, when
    someone else entered its result meanwhile).  One transaction is the caller's."""
    changed = changed_cells(cells)
    if not changed:
        raise StoreError("round %(n)s: no result was changed", n=number)
    corrected = False
    for board, (typed, shown) in changed.items():
        was = bool(normal(shown))
        enter_results(store, comp_id, {board: grid_text(typed)}, number, correct=was)
        corrected = corrected or was
    cleared = sum(grid_text(typed) == "clear" for typed, _ in changed.values())
    return report(store.load_season(comp_id), number, len(changed), corrected, cleared)


#: How the grid shows a stored result (what a user can type back in).
SHOWN: dict[str, str] = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "+-": "+-", "-+": "-+", "--": "--"}


def paired_rounds(season: Season) -> list[int]:
    return [r.number for r in season.rounds if r.games]


def grid(store: Store, comp_id: int, round_no: int | None = None) -> dict[str, Any]:
    """A round's boards for the results grid: by default the open round once paired, else
    the last paired round (as ``keizer pairings``).  ``round`` is None while nothing is
    paired; ``later`` is the last round paired after this one (a correction warns)."""

    season = store.load_season(comp_id)
    paired = paired_rounds(season)
    if round_no is None:
        target = open_round(season)
        round_no = target.number if target.paired and target.number in paired else (paired[-1] if paired else None)
    elif round_no not in paired:
        raise StoreError("round %(n)s has no pairing", hint="pair_first", n=round_no)
    data: dict[str, Any] = {"round": round_no, "rounds": paired, "boards": [], "byes": [], "date": None,
                            "open": [], "later": None, "complete": False}
    if round_no is None:
        return data
    names = {p.id: p.name for p in season.players}
    rnd = season.rounds[round_no - 1]
    data["date"] = rnd.date
    data["boards"] = [{"board": g.board, "white": names[g.white], "black": names[g.black], "white_id": g.white,
                       "black_id": g.black, "result": g.result.value if g.result else None,
                       "shown": SHOWN[g.result.value] if g.result else ""} for g in rnd.games]
    data["byes"] = [{"id": p, "name": names[p]} for p in rnd.byes]
    data["open"] = [g.board for g in rnd.games if g.result is None]
    data["complete"] = not data["open"]
    later = [r.number for r in season.rounds[round_no:] if r.games or r.byes]
    data["later"] = later[-1] if later else None
    return data


def enter_results(store: Store, comp_id: int, results: Mapping[int, str],
                  round_no: int | None = None, correct: bool = False) -> int:
    """Record results by board.  Without ``correct`` a board that already has a
    result is refused; with it, an earlier round's result may be changed."""
    season = store.load_season(comp_id)
    target = open_round(season)
    number = round_no if round_no is not None else target.number
    if not 1 <= number <= len(season.rounds) or not season.rounds[number - 1].games:
        done = season.completed_rounds()
        if round_no is None and done and number == done + 1:
            raise StoreError("round %(n)s has no pairing yet and round %(done)s is complete", hint="ev_correct_there",
                             n=number, done=done)
        raise StoreError("round %(n)s has no pairing", hint="pair_first", n=number)
    games = {g.board: g for g in season.rounds[number - 1].games}
    for board, text in results.items():
        if board not in games:
            raise StoreError("round %(n)s has no board %(board)s (boards 1–%(last)s)", n=number, board=board,
                             last=max(games))
        if text.strip().lower() == "clear":  # back to no result, e.g. before re-pairing
            if games[board].result is None:
                raise StoreError("board %(board)s of round %(n)s has no result to clear", board=board, n=number)
            store.set_result(comp_id, number, board, None)
            continue
        try:
            result = Result.parse(text)
        except ValueError:
            raise StoreError("board %(board)s: unknown result %(text)s (use 1-0, 0-1, ½-½ (or 1/2-1/2, =), +-, -+ "
                             "or --)", board=board, text=repr(text[:20])) from None
        earlier = games[board].result
        if earlier is not None and not correct:
            raise StoreError("board %(board)s of round %(n)s already has %(result)s", hint="ev_use_correct", board=board,
                             n=number, result=earlier.value)
        store.set_result(comp_id, number, board, result.value)
    _check_knockout(store, comp_id, number)
    return number


def _check_knockout(store: Store, comp_id: int, number: int) -> None:
    """A knock-out stores tie-break stages and next-round matches from earlier results;
    a correction that no longer fits them is refused (inside the transaction)."""
    kind = systems.of(store.system(comp_id)).standing_kind
    check: Callable[[], object]
    if kind == "matches":
        from keizer.operations.teams_read import knockout_states, load_event
        from keizer.systems.team import stored_rules

        if stored_rules(store, comp_id).schedule != "knockout":
            return
        check = lambda: knockout_states(load_event(store, comp_id))  # noqa: E731
        undo = "ev_undo_team_next"
    elif kind == "bracket":
        from keizer.operations.cup import cup_state

        check = lambda: cup_state(store, comp_id)  # noqa: E731
        undo = "ev_undo_knockout_next_first"
    else:
        return
    try:
        check()
    except (StoreError, ValueError):
        raise StoreError("this result changes a match of round %(n)s whose tie-break stage or next match is stored "
                         "already", hint=undo, n=number) from None
