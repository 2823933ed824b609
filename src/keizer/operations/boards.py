"""Result entry at the board: each board of the round being played gets a short link
(printed on its result slip with a QR code), and its two players report the result
from a phone; the officer confirms it, or two agreeing reports enter it at once.

* A link is a random code of :data:`CODE_LENGTH` letters from :data:`ALPHABET` (no
  look-alikes: no 0/O, 1/I), 40 bits.  Only its SHA-256 is stored, so a copy of the
  database does not give the codes away and the printed slips are the only copies: the
  codes are made when the slips are printed (:func:`make_codes`) and shown that once.
* A code reaches one board of one round: only while that round is the open round and
  the board has no result.  A code of a board whose pairing changed (swap, latecomer,
  no-show, re-pairing) dies with it (:meth:`Store.forget_boards`).  Everything else is
  refused with the same line, :data:`REFUSED`, which tells a guesser nothing.
* A report is one per side (white, black); a second one from the same side replaces it.
* The competition's ``reports_confirm`` (in its system settings): ``officer`` (default,
  the officer confirms each board) or ``both`` (two agreeing reports enter the result).

Everything writes in the caller's transaction (``store.change``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, Mapping

from keizer import systems
from keizer.model import Result
from keizer.operations.results import enter_results
from keizer.operations.seasons import refuse_closed
from keizer.store import Store, StoreError
from keizer.systems import open_round

#: 32 letters and digits without look-alikes (no 0, 1, I, O).
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 8
#: What a player can report (a forfeit is the officer's call).
REPORTABLE = (Result.WHITE_WIN.value, Result.DRAW.value, Result.BLACK_WIN.value)
SIDES = ("white", "black")
#: Who enters a reported result: the officer after looking, or two agreeing reports.
CONFIRM_MODES = ("officer", "both")
#: The one answer to every link that does not lead to a board open for its result.
REFUSED = "this link is not valid (any more)"


class LinkRefused(StoreError):
    """A board link that is wrong, of another round, or of a board that has its result."""

    def __init__(self) -> None:
        super().__init__(REFUSED)


def new_code() -> str:
    """A fresh random code.

    >>> code = new_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """A code as typed (any case, with spaces or dashes), or None when it cannot be one.

    >>> normal_code(" abcd-efgh "), normal_code("ABCDEFG0"), normal_code("x" * 500)
    ('ABCDEFGH', None, None)
    """
    code = text.strip().replace("-", "").replace(" ", "").upper()[:CODE_LENGTH + 1]
    if len(code) != CODE_LENGTH or not set(code) <= set(ALPHABET):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def confirm_mode(store: Store, comp_id: int) -> str:
    mode = store.system_settings(comp_id).get("reports_confirm", "officer")
    return mode if mode in CONFIRM_MODES else "officer"


def set_confirm_mode(store: Store, comp_id: int, mode: str) -> None:
    """``officer``: the officer confirms each reported result; ``both``: two agreeing
    reports enter it at once."""
    if mode not in CONFIRM_MODES:
        raise StoreError("reports_confirm must be officer or both, not %(mode)s", mode=repr(mode[:20]))
    _require_system(store, comp_id)
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "reports_confirm": mode})


#: The systems without rounds of boards, as a refusal names them (the views translate them).
def _require_system(store: Store, comp_id: int) -> str:
    system = store.system(comp_id)
    if not systems.of(system).weekly:
        raise StoreError("a %(system)s competition has no result links: they are for a round of boards "
                         "(Keizer, Swiss, round-robin)", system=systems.SYSTEM_WORDS[system])
    return system


# -- making links (when the slips are printed) -----------------------------------


def linkable_round(store: Store, comp_id: int) -> int | None:
    """The round whose boards can have links: the open round once paired (else None)."""
    if not systems.of(store.system(comp_id)).weekly:
        return None
    target = open_round(store.load_season(comp_id))
    return target.number if target.paired else None


def missing_links(store: Store, comp_id: int, number: int) -> list[int]:
    """The boards of a round without a link (yet, or any more after a change of the pairing)."""
    linked = set(store.board_links(comp_id, number))
    return [g["board"] for g in store.games(comp_id, number) if g["board"] not in linked]


def make_codes(store: Store, comp_id: int, number: int, renew: bool = False) -> dict[int, str]:
    """Codes for the boards of the open round that have none (``renew``: for every board,
    replacing the old ones, whose slips stop working); returns {board: code}, to be shown
    now: only their hashes are stored."""
    refuse_closed(store.competition_by_id(comp_id))
    _require_system(store, comp_id)
    open_number = linkable_round(store, comp_id)
    if open_number is None:
        raise StoreError("result links are made for the round being played, once it is paired; "
                         "this competition has no such round now")
    if number != open_number:
        raise StoreError("result links are made for the round being played (round %(open)s), not round %(n)s",
                         open=open_number, n=number)
    boards = [g["board"] for g in store.games(comp_id, number)] if renew else missing_links(store, comp_id, number)
    if not boards:
        raise StoreError("every board of round %(n)s has its link already; they were shown once, when made: make "
                         "new links for the round to print them again (the old ones stop working)", n=number)
    codes: dict[int, str] = {}
    for board in boards:
        code = new_code()
        while store.board_link(code_hash(code)) is not None or code in codes.values():  # 40 bits: hardly ever
            code = new_code()
        store.add_board_link(comp_id, number, board, code_hash(code))
        codes[board] = code
    return codes


# -- a player's report ------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The board a valid code leads to."""

    comp_id: int
    competition: str
    round: int
    date: str | None
    board: int
    white: str
    black: str
    reports: dict[str, str]  # side → reported result
    reporters: dict[str, str | None] = field(default_factory=dict)  # side → the phone that reported it


def board_for_code(store: Store, text: str) -> Board:
    """The board of a code, while its round is being played and it has no result;
    otherwise :class:`LinkRefused`."""
    code = normal_code(text)
    link = store.board_link(code_hash(code)) if code else None
    if link is None:
        raise LinkRefused()
    comp_id, number, board = link["competition_id"], link["round"], link["board"]
    comp = store.competition_by_id(comp_id)
    if not systems.of(comp["system"]).weekly or _closed(comp):
        raise LinkRefused()
    season = store.load_season(comp_id)
    target = open_round(season)
    if not target.paired or target.number != number:
        raise LinkRefused()
    game = next((g for g in season.rounds[number - 1].games if g.board == board), None)
    if game is None or game.result is not None:
        raise LinkRefused()
    names = {p.id: p.name for p in season.players}
    said = [r for r in store.board_reports(comp_id, number) if r["board"] == board]
    return Board(comp_id, comp["name"], number, season.rounds[number - 1].date, board, names[game.white],
                 names[game.black], {r["side"]: r["result"] for r in said}, {r["side"]: r["reporter"] for r in said})


def _closed(comp: Mapping[str, Any]) -> bool:
    try:
        refuse_closed(comp)
    except StoreError:
        return True
    return False


def parse_side(text: str) -> str:
    side = text.strip().lower()
    if side not in SIDES:
        raise StoreError("say which side you played: white or black")
    return side


def parse_reported(text: str) -> str:
    """A result a player can report: 1-0, ½-½ or 0-1."""
    try:
        result = Result.parse(text).value
    except ValueError:
        result = None
    if result not in REPORTABLE:
        raise StoreError("choose the result: 1-0, ½-½ or 0-1")
    return result


@dataclass(frozen=True)
class Reported:
    board: Board
    side: str
    result: str
    entered: bool  # both agreed and the competition lets that enter the result


def report(store: Store, board: Board, side: str, result: str, reporter: str | None = None) -> Reported:
    """Record one side's report of ``board`` (from :func:`board_for_code`), sent by the phone
    ``reporter``; with ``reports_confirm`` both, two agreeing reports enter the result at once,
    unless one phone sent both (a board's code is the board's, not a player's: one player
    could report for both sides, and then the officer confirms)."""
    side, result = parse_side(side), parse_reported(result)
    store.set_board_report(board.comp_id, board.round, board.board, side, result, reporter)
    reports = {**board.reports, side: result}
    other = board.reporters.get("black" if side == "white" else "white")
    one_phone = reporter is not None and other == reporter
    entered = False
    if (confirm_mode(store, board.comp_id) == "both" and len(reports) == 2 and len(set(reports.values())) == 1
            and not one_phone):
        enter_results(store, board.comp_id, {board.board: result}, board.round)
        entered = True
    return Reported(board, side, result, entered)


# -- the officer's view -------------------------------------------------------------


def reports_view(store: Store, comp_id: int) -> dict[str, Any]:
    """The boards of the round being played with their players' reports: per board
    ``state`` (none, one, agree, disagree, entered) and ``proposal`` (the result a
    confirmation enters without a choice: the reports' when they agree)."""
    _require_system(store, comp_id)
    number = linkable_round(store, comp_id)
    view: dict[str, Any] = {"round": number, "mode": confirm_mode(store, comp_id), "boards": [], "linked": 0,
                            "date": None}
    if number is None:
        return view
    season = store.load_season(comp_id)
    rnd = season.rounds[number - 1]
    names = {p.id: p.name for p in season.players}
    reports: dict[int, dict[str, dict[str, Any]]] = {}
    for r in store.board_reports(comp_id, number):
        reports.setdefault(r["board"], {})[r["side"]] = r
    linked = set(store.board_links(comp_id, number))
    for g in rnd.games:
        said = reports.get(g.board, {})
        results = {r["result"] for r in said.values()}
        if g.result is not None:
            state = "entered"
        elif not said:
            state = "none"
        elif len(results) > 1:
            state = "disagree"
        else:
            state = "agree" if len(said) == 2 else "one"
        view["boards"].append({
            "board": g.board, "white": names[g.white], "black": names[g.black],
            "result": g.result.value if g.result else None, "linked": g.board in linked,
            "white_report": said.get("white"), "black_report": said.get("black"), "state": state,
            "proposal": next(iter(results)) if state in ("one", "agree") else None})
    view["linked"] = len(linked)
    view["date"] = rnd.date
    return view


def confirm(store: Store, comp_id: int, number: int, board: int, chosen: str | None = None) -> str:
    """Enter a board's reported result (as results are entered by hand); returns the result.  Without
    ``chosen`` the reports must agree; a board whose reports disagree needs the officer's choice."""
    _require_system(store, comp_id)
    said = {r["side"]: r["result"] for r in store.board_reports(comp_id, number) if r["board"] == board}
    if chosen:
        try:
            result = Result.parse(chosen).value
        except ValueError as e:
            raise StoreError("board %(board)s: %(why)s", board=board, why=str(e)) from None
    elif not said:
        raise StoreError("board %(board)s of round %(n)s has no report from its players yet", board=board, n=number)
    elif len(set(said.values())) > 1:
        raise StoreError("board %(board)s of round %(n)s: the players' reports disagree (white says %(white)s, "
                         "black says %(black)s); choose the result", board=board, n=number,
                         white=_shown(said["white"]), black=_shown(said["black"]))
    else:
        result = next(iter(said.values()))
    enter_results(store, comp_id, {board: result}, number)
    return result


def confirm_agreeing(store: Store, comp_id: int, number: int) -> dict[int, str]:
    """Enter the result of every board of round ``number`` whose two reports agree (the officer's
    "confirm all that agree"); returns board → result.  Refused when there is none."""
    view = reports_view(store, comp_id)
    agreed = {b["board"]: b["proposal"] for b in view["boards"] if b["state"] == "agree"} \
        if view["round"] == number else {}
    if not agreed:
        raise StoreError("no board of round %(n)s has two reports that agree", n=number)
    enter_results(store, comp_id, agreed, number)
    return agreed


def _shown(result: str) -> str:
    return result.replace("1/2", "½")
