"""The ECF results submission of a competition (the ECF export of each view): the games
played on the board, the players with their ECF codes, and the event details the ECF asks for,
checked as far as the format is public (keizer.formats.ecf). Nothing is written to the file:
the caller writes the text.

A player's ECF code is the member's federation id (``fed_id``); a player without one is
listed with the club's ECF club code (``club_code``), as the ECF takes a new player. Forfeits,
byes and absences are not games and are left out (the ECF rates games played). Every game
needs its round's date: the ECF rates each game in the month it was played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from keizer import systems
from keizer.formats.ecf import EcfGame, EcfPlayer, Event, Section, Submission, check, dump
from keizer.model import Result
from keizer.store import Store, StoreError

#: A time control keizer can write as MINUTES FOR GAME (and SECONDS PER MOVE): "90+30",
#: "rapid 25+10", "60 min"; a control with sessions ("40/90+30") is not read.
_PLAIN = re.compile(r"[^\d/]*?(\d+)\s*(?:min\w*)?\s*(?:\+\s*(\d+)\s*(?:s\w*)?)?\s*")


@dataclass(frozen=True)
class EcfDetails:
    """What the ECF asks that keizer does not hold: the event code (the grader's prefix and
    number), the submission index, the results officer and the treasurer with their addresses,
    the club's ECF club code for players without an ECF code, and the time limit when the
    rounds' time control does not give it."""

    event_code: str = ""
    index: int = 1
    officer: str = ""
    officer_address: tuple[str, ...] = ()
    treasurer: str = ""
    treasurer_address: tuple[str, ...] = ()
    club_code: str | None = None
    minutes: int | None = None
    seconds_per_move: int | None = None


def time_limit(controls: set[str | None]) -> tuple[int | None, int | None]:
    """MINUTES FOR GAME and SECONDS PER MOVE from the rounds' time controls, when they are one
    plain control ("90+30"); else (None, None).

    >>> time_limit({"90+30"}), time_limit({"rapid 25+10", None}), time_limit({"60"}), time_limit({"40/90+30"})
    ((90, 30), (25, 10), (60, None), (None, None))
    >>> time_limit({"90+30", "60+30"}), time_limit(set())
    ((None, None), (None, None))
    """
    known = {c.strip() for c in controls if c and c.strip()}
    if len(known) != 1:
        return None, None
    m = _PLAIN.fullmatch(known.pop().lower())
    if not m:
        return None, None
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


_SCORES = {Result.WHITE_WIN: "10", Result.BLACK_WIN: "01", Result.DRAW: "55"}


def ecf_submission(store: Store, comp_id: int, details: EcfDetails) -> Submission:
    """The competition's ECF submission, checked (:func:`keizer.formats.ecf.check`): refuses
    a team event, a played game in a round without a date, and the first problem the checks
    find."""
    system = store.system(comp_id)
    if systems.of(system).standing_kind == "matches":
        raise StoreError("the ECF file of a team event is not made by keizer")
    season = store.load_season(comp_id)
    rows = {r["key"]: r for r in store.players(comp_id)}
    members = {m["id"]: m for m in store.members()}
    played = [(rnd, g) for rnd in season.rounds for g in rnd.games if g.played_on_board and g.result in _SCORES]
    for rnd, _ in played:
        if not rnd.date:  # a cup's rounds take no date: no hint then
            raise StoreError("round %(n)s has no date; the ECF rates each game in the month it was played",
                             hint=None if systems.of(system).standing_kind == "bracket" else "ecf_round_date",
                             n=rnd.number)
    in_file = sorted({k for _, g in played for k in (g.white, g.black)},
                     key=lambda k: (rows[k]["start_no"] if k in rows else 0, k))
    pins = {k: i for i, k in enumerate(in_file, 1)}
    names = {p.id: p.name for p in season.players}
    players = []
    for key in in_file:
        member = members.get(rows[key]["member_id"]) if key in rows else None
        code = ((member or {}).get("fed_id") or "").strip().upper() or None
        fide = ((member or {}).get("fide_id") or "").strip() or None
        players.append(EcfPlayer(pins[key], names.get(key, key), code, details.club_code, fide))
    days = [date.fromisoformat(rnd.date) for rnd, _ in played if rnd.date]
    minutes, spm = (details.minutes, details.seconds_per_move) if details.minutes else \
        time_limit({rnd.time_control for rnd, _ in played})
    event = Event(details.event_code.strip(), details.index, season.name, min(days, default=None),
                  max(days, default=None), details.officer.strip(), details.officer_address, details.treasurer.strip(),
                  details.treasurer_address, minutes, spm)
    games = tuple(EcfGame(pins[g.white], pins[g.black], _SCORES[g.result], "white", rnd.number,
                          date.fromisoformat(rnd.date) if rnd.date else None)
                  for rnd, g in played if g.result is not None)
    sub = Submission(event, tuple(players), (Section(season.name, games),))
    problems = check(sub)
    if problems:
        raise problems[0]
    return sub


def ecf_text(store: Store, comp_id: int, details: EcfDetails) -> str:
    """The submission file's text."""
    return dump(ecf_submission(store, comp_id, details))
