"""The parts of TRF reading that :mod:`keizer.formats.trf` builds on: a line read by its
columns (with the refusal naming line and columns), the round dates of record 132, and the
team records (013, 310) with the matches their players' games make.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from keizer.formats.errors import FormatError
from keizer.colour import Colour
from keizer.pairing.swiss.forbidden import ForbiddenGroup
from keizer.refusals import Message, Word
from keizer.tiebreaks.model import Code, Match, Player, RoundResult, Team


class TrfError(FormatError):
    """A TRF file that cannot be read; the message names the line and columns."""


_DIGITS = re.compile(r"[0-9]+")
#: The largest number any record holds (start ranks have four digits, rounds and teams three).
MAX_NUMBER = 9999


@dataclass
class _Line:
    number: int
    text: str

    def cols(self, first: int, last: int) -> str:
        """Columns ``first``…``last`` (1-based, inclusive), blank where the line is shorter."""
        return self.text[first - 1:last].ljust(last - first + 1)

    def error(self, first: int, last: int, why: Message) -> TrfError:
        where = (Message("column %(n)s", n=first) if first == last
                 else Message("columns %(first)s-%(last)s", first=first, last=last))
        return TrfError("line %(n)s, %(where)s: %(why)s", n=self.number, where=where, why=why)

    def integer(self, first: int, last: int, what: Word | str, blank: int | None = None,
                high: int = MAX_NUMBER) -> int | None:
        raw = self.cols(first, last).strip()
        if not raw:
            return blank
        if not _DIGITS.fullmatch(raw):  # ASCII only: '²'.isdigit() holds but int('²') fails
            raise self.error(first, last, Message("%(what)s %(raw)s is not a number", what=what, raw=_shown(raw)))
        if len(raw.lstrip("0")) > len(str(high)) or int(raw) > high:
            raise self.error(first, last, Message("%(what)s %(raw)s is more than %(high)s", what=what, raw=_shown(raw),
                                                  high=high))
        return int(raw)

    def decimal(self, first: int, last: int, what: Word) -> Fraction | None:
        raw = self.cols(first, last).strip().replace(",", ".")
        if not raw:
            return None
        value = _DECIMALS.get(raw)
        if value is None:
            if not _DECIMAL.fullmatch(raw):
                raise self.error(first, last, Message("%(what)s %(raw)s is not a number", what=what, raw=repr(raw)))
            value = Fraction(raw)
            if len(_DECIMALS) < 1000:  # the few values a file repeats (points: 0.0 … 11.0), each made once
                _DECIMALS[raw] = value
        return value


_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")
_DECIMALS: dict[str, Fraction] = {}


def _shown(text: str) -> str:
    """Text of the file in an error message: at most one short line."""
    return repr(text) if len(text) <= 20 else repr(text[:17] + "...")


# -- round dates (132) ----------------------------------------------------------------------

def _dates(line: _Line) -> tuple[str | None, ...]:
    """Record 132: a round's date as YY/MM/DD in columns 92–99, 102–109, … (ISO dates out).
    A line whose dates do not fit those columns (one column off, as some programs write it)
    is read by the fields it holds, when every field is a date (``dates_off_columns`` says
    which line was read so)."""
    try:
        return _dates_by_columns(line)
    except TrfError:
        found = _dates_by_fields(line)
        if found is None:
            raise
        return found


def _dates_by_columns(line: _Line) -> tuple[str | None, ...]:
    dates: list[str | None] = []
    for first in range(92, len(line.text) + 1, 10):
        raw = line.cols(first, first + 7).strip()
        if not raw:
            dates.append(None)
            continue
        dates.append(_date(line, first, raw))
    while dates and dates[-1] is None:
        dates.pop()
    return tuple(dates)


def _date(line: _Line, first: int, raw: str) -> str:
    found = re.fullmatch(r"([0-9]{2})[/.-]([0-9]{2})[/.-]([0-9]{2})", raw)
    if not found:
        raise line.error(first, first + 7, Message("round date %(raw)s is not YY/MM/DD", raw=repr(raw)))
    import datetime  # here: reading a tournament without dates (and pairing it) does not import it

    yy, mm, dd = (int(x) for x in found.groups())
    try:
        day = datetime.date(2000 + yy if yy < 70 else 1900 + yy, mm, dd)
    except ValueError:
        raise line.error(first, first + 7, Message("round date %(raw)s is not a date (YY/MM/DD)",
                                                    raw=repr(raw))) from None
    return day.isoformat()


def _dates_by_fields(line: _Line) -> tuple[str | None, ...] | None:
    """The dates of a 132 line by its fields after column 91, if each is a valid YY/MM/DD."""
    fields = line.text[87:].split()  # from column 88: a date a few columns off either way
    if not fields or line.text[3:87].strip():
        return None
    try:
        return tuple(_date(line, 92, raw) for raw in fields)
    except TrfError:
        return None


def dates_off_columns(text: str) -> int | None:
    """The line of record 132 whose round dates were read by their fields, not their columns."""
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if raw[:3] == "132":
            line = _Line(number, raw.rstrip())
            try:
                _dates_by_columns(line)
            except TrfError:
                return number if _dates_by_fields(line) is not None else None
    return None


# -- teams (013, 310) and their matches ------------------------------------------------------

def _complete_teams(teams: list[Team], info: list[str], players: list[Player]) -> bool:
    """Whether the team records make a team event (a file with none of the records only a
    team event has: 240, 300, 320, 330): record 092 does not call the tournament individual,
    there are two teams at least, and every player with a game is in one."""
    if any(x[:3] == "092" and x[4:].strip().upper().startswith("INDIVIDUAL") for x in info):
        return False
    members = {m for team in teams for m in team.members}
    return len(teams) >= 2 and all(p.start_no in members for p in players
                                   if any(res.opponent is not None for res in p.results))


def _team310(line: _Line) -> Team:
    number = line.integer(5, 7, Word("team number"))
    if not number:
        raise line.error(5, 7, Message("team number is missing"))
    members = tuple(line.integer(74 + 5 * k, 77 + 5 * k, Word("player"), blank=0) or 0
                    for k in range((len(line.text) - 73 + 4) // 5))
    return Team(number, line.cols(9, 40).strip(), members, (), line.cols(42, 46).strip(),
                line.integer(48, 53, Word("strength")) or None, line.decimal(55, 60, Word("match points")),
                line.decimal(62, 67, Word("game points")), line.integer(69, 71, Word("rank")))


def _team013(line: _Line, number: int) -> Team:
    members = tuple(line.integer(37 + 5 * k, 40 + 5 * k, Word("player"), blank=0) or 0
                    for k in range((len(line.text) - 36 + 4) // 5))
    return Team(number, line.cols(5, 36).strip(), members)


def _boards_of(info: list[str], lineups: dict[tuple[int, int], tuple[int, ...]], teams: list[Team],
               players: dict[int, Player]) -> int:
    """Boards per match: record 352's colour sequence, else the longest line-up."""
    for text in info:
        if text[:3] == "352" and text[4:].strip():
            return len(text[4:].strip())
    longest = max((len(x) for x in lineups.values()), default=0)
    for team in teams:
        for r in range(1, max((len(p.results) for p in players.values()), default=0) + 1):
            longest = max(longest, len(_default_lineup(team, r, players)))
    return longest


def team_matches(teams: list[Team], players: dict[int, Player], rounds: int, boards: int,
                 byes: list[tuple[_Line, Code, int, list[int]]], pab: tuple[_Line, Fraction, dict[int, int]] | None,
                 forfeits: list[tuple[_Line, str, int, int, int]], lineups: dict[tuple[int, int], tuple[int, ...]],
                 info: list[str]) -> list[Team]:
    """Each team's match per round: the byes (240, 320) and forfeited matches (330) the records
    give, else the match its players' games on their boards make."""
    team_of = {m: t.number for t in teams for m in t.members if m}
    known = {t.number for t in teams}
    fixed: dict[tuple[int, int], Match] = {}

    def fix(line: _Line, n: int, r: int, match: Match) -> None:
        if n not in known or not 1 <= r <= rounds:
            raise line.error(5, len(line.text), Message("team %(n)s round %(round)s: no such team or round", n=n,
                                                         round=r))
        fixed[(n, r)] = match

    for line, bye, r, numbers in byes:
        gp = {Code.FPB: Fraction(boards), Code.HPB: Fraction(boards, 2), Code.ZPB: Fraction(0)}[bye]
        for n in numbers:
            fix(line, n, r, Match(bye, game_points=gp))
    if pab:  # after 240: a team named in both got the PAB (the TEC sample's round 3)
        line, gp, per_round = pab
        for r, n in per_round.items():
            fix(line, n, r, Match(Code.PAB, game_points=gp))
    for line, marks, r, white, black in forfeits:
        for n, mark, colour, other in ((white, marks[0], Colour.WHITE, black),
                                       (black, marks[1], Colour.BLACK, white)):
            won = mark == "+"
            fix(line, n, r, Match(Code.FORFEIT_WIN if won else Code.FORFEIT_LOSS, other, colour,
                                  Fraction(boards) if won else Fraction(0)))
    by_number = {t.number: t for t in teams}
    sequence = next((x[4:].strip().upper() for x in info if x[:3] == "352"), "")
    result = []
    for team in teams:
        matches = []
        for r in range(1, rounds + 1):
            m = fixed.get((team.number, r))
            if m is None:
                m = _played(team, r, lineups, players, team_of, by_number, sequence)
            matches.append(m)
        result.append(replace(team, matches=tuple(matches)))
    return result


def _played(team: Team, r: int, lineups: dict[tuple[int, int], tuple[int, ...]], players: dict[int, Player],
            team_of: dict[int, int], teams: dict[int, Team], sequence: str) -> Match:
    """A team's match in round ``r`` from its players' games (a zero-point bye if nobody played)."""
    lineup, points, opponents = _on_boards(team, r, lineups, players, team_of)
    if not opponents:
        return Match(Code.ZPB)
    if len(opponents) > 1:
        raise TrfError("team %(n)s round %(round)s: its players met several teams %(teams)s", n=team.number, round=r,
                       teams=sorted(opponents))
    other = opponents.pop()
    mine = sum(points, Fraction(0))
    theirs = sum(_on_boards(teams[other], r, lineups, players, team_of)[1], Fraction(0))
    code = Code.WIN if mine > theirs else Code.DRAW if mine == theirs else Code.LOSS
    return Match(code, other, _team_colour(lineup, r, players, sequence), mine, points, lineup)


def _team_colour(lineup: tuple[int, ...], r: int, players: dict[int, Player], sequence: str) -> Colour | None:
    """The colour of board 1: from the first board with a colour and the board colour sequence (352)."""
    for k, n in enumerate(lineup):
        colour = players[n].results[r - 1].colour if n in players else None
        if colour is not None:
            flipped = sequence[k % len(sequence)] != sequence[0] if sequence else k % 2 == 1
            return colour.opposite if flipped else colour
    return None


def _on_boards(team: Team, r: int, lineups: dict[tuple[int, int], tuple[int, ...]], players: dict[int, Player],
               team_of: dict[int, int]) -> tuple[tuple[int, ...], tuple[Fraction, ...], set[int]]:
    """Line-up, points per board and opposing teams of ``team`` in round ``r``."""
    lineup = lineups.get((r, team.number)) or _default_lineup(team, r, players)
    points, opponents = [], set()
    for n in lineup:
        res = players[n].results[r - 1] if n in players else RoundResult(Code.ZPB)
        points.append(res.code.outcome or Fraction(0))
        if res.opponent is not None and res.opponent in team_of:
            opponents.add(team_of[res.opponent])
    return tuple(lineup), tuple(points), opponents


def _default_lineup(team: Team, r: int, players: dict[int, Player]) -> tuple[int, ...]:
    """The members who played (or won by forfeit) in round ``r``, in the team's order."""
    out = []
    for m in team.members:
        p = players.get(m)
        if p is None or r > len(p.results):
            continue
        res = p.results[r - 1]
        if res.opponent is not None or res.code is Code.FORFEIT_WIN:
            out.append(m)
    return tuple(out)


# -- accelerations (XXA, 250) and forbidden pairs (XXP, 260) ---------------------------------

def virtual_points(text: str) -> dict[int, tuple[Fraction, ...]]:
    """The virtual points (accelerated pairings) of a TRF file's ``XXA`` and ``250`` records,
    by start number and round (round 1 first; a round no record gives has none).

    >>> v = virtual_points("XXA    1  1.0  1.0  0.5\\n250       1.0   1   2    2    3\\n")
    >>> [str(x) for x in v[1]], [str(x) for x in v[3]]
    (['1', '1', '1/2'], ['1', '1'])
    """
    found: dict[int, list[Fraction]] = {}
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = _Line(number, raw.rstrip())
        code = raw[:3].upper()
        if code == "XXA":
            start = line.integer(5, 8, Word("start rank"), blank=0) or 0
            row = found.setdefault(start, [])
            row[:] = [line.decimal(first, first + 3, Word("points")) or Fraction(0)
                      for first in range(10, len(line.text) + 1, 5)]
        elif code == "250":
            value = line.decimal(10, 13, Word("game points")) or Fraction(0)
            first, last = line.integer(15, 17, Word("round"), blank=1) or 1, line.integer(19, 21, Word("round"))
            low, high = line.integer(23, 26, Word("player"), blank=0) or 0, line.integer(28, 31, Word("player"))
            for start in range(low, (high or low) + 1):
                row = found.setdefault(start, [])
                end = last or first
                row.extend([Fraction(0)] * (end - len(row)))
                row[first - 1:end] = [value] * max(0, end - first + 1)
    return {n: tuple(row) for n, row in found.items() if n}


def forbidden_groups(text: str) -> list[ForbiddenGroup]:
    """The forbidden pairs of a TRF file: ``XXP`` records (start numbers separated by spaces,
    every round) and ``260`` records (rounds in columns 5-7 and 9-11, start numbers from 13).

    >>> [(g.players, g.first, g.last) for g in forbidden_groups("XXP 3 7\\n260   2   4    1    5\\n")]
    [((3, 7), 1, None), ((1, 5), 2, 4)]
    """
    found = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = _Line(number, raw.rstrip())
        code = raw[:3].upper()
        if code == "XXP":
            players, column = [], 4
            for token in line.text[3:].split():
                column = line.text.index(token, column)
                players.append(line.integer(column + 1, column + len(token), Word("player"), blank=0) or 0)
                column += len(token)
            found.append(ForbiddenGroup(tuple(players)))
        elif code == "260":
            first = line.integer(5, 7, Word("round"), blank=1) or 1
            last = line.integer(9, 11, Word("round"))
            players = [line.integer(k, k + 3, Word("player"), blank=0) or 0 for k in range(13, len(line.text) + 1, 5)]
            found.append(ForbiddenGroup(tuple(p for p in players if p), first, last))
    return found
