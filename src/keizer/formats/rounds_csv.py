"""A season kept on paper or in a spreadsheet: one CSV row per game or absence.

The first line names the columns, in any order and case (Dutch names work too)::

    round;date;white;black;result          ronde;datum;wit;zwart;uitslag

``date`` may be left out; a round's date is written ``2026-09-08``, ``8-9-2026``,
``8/9/2026`` or ``8.9.2026``.  A game's result is ``1-0``, ``0-1``, ``½-½`` (``1/2-1/2``,
``=``), ``+-``, ``-+`` or ``--``, or a word officers type (``remise``, ``½``, ``gewonnen``,
``lost``: :func:`game_result`); only the last round may have games without a result (paired,
not yet played).  A row with ``black`` empty is an absence of the player in ``white``, its
``result`` the status: ``excused`` (``afgemeld``), ``unexcused`` (``afwezig``), ``club``
(``clubtaak``), ``bye`` (``oneven``, ``vrij``), or ``external win``, ``external draw``,
``external loss`` (``extern winst``, ``extern remise``, ``extern verlies``).

Semicolons or commas, UTF-8 or Windows-1252 (see :mod:`keizer.formats.members_csv`).
A player takes part from the first round the file names them in; a later round without a
row for them is an unexcused absence, listed in the report.  Anything that does not fit is
refused with the line it is on.

>>> imp = parse("ronde;datum;wit;zwart;uitslag\\n1;8-9-2026;Anna;Bram;1-0\\n1;;Cor;;afgemeld\\n"
...             "2;15-9-2026;Bram;Cor;½-½\\n", Settings(), "Interne")
>>> [(p.name, p.joined) for p in imp.season.players]
[('Anna', 1), ('Bram', 1), ('Cor', 1)]
>>> imp.season.rounds[1].date, imp.report
('2026-09-15', ('round 2, Anna: no row → unexcused',))
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from dataclasses import dataclass

from keizer.formats.members_csv import _records, _shown
from keizer.formats.text import decode
from keizer.formats.errors import FormatError
from keizer.limits import MAX_NAME, MAX_PLAYERS, MAX_ROUNDS, LimitError, clean_text, fold_name
from keizer.model import RESULT_NOTATIONS, Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.refusals import Word
from keizer.settings import Settings

#: Column → the header names that mean it.
COLUMNS = {
    "round": ("round", "ronde", "rnd"),
    "date": ("date", "datum"),
    "white": ("white", "wit"),
    "black": ("black", "zwart"),
    "result": ("result", "uitslag", "status"),
}
_NEEDED = ("round", "white", "black", "result")
_MEMBER_LIST = ("name", "naam", "rating", "elo", "relatienummer")
_STATUS: dict[str, Absence | ExternalResult] = {
    "excused": Absence.EXCUSED, "afgemeld": Absence.EXCUSED, "verontschuldigd": Absence.EXCUSED,
    "unexcused": Absence.UNEXCUSED, "afwezig": Absence.UNEXCUSED, "onverontschuldigd": Absence.UNEXCUSED,
    "club": Absence.CLUB, "clubtaak": Absence.CLUB,
    "bye": Absence.BYE, "oneven": Absence.BYE, "vrij": Absence.BYE,
    "external win": ExternalResult.WIN, "extern winst": ExternalResult.WIN,
    "external draw": ExternalResult.DRAW, "extern remise": ExternalResult.DRAW,
    "external loss": ExternalResult.LOSS, "extern verlies": ExternalResult.LOSS,
}
#: A game's result as officers type it, from White's side (the first name of the row): the
#: notations every part of keizer reads (:data:`keizer.model.RESULT_NOTATIONS`), and the words
#: and shorthands of spreadsheets in Dutch, German and English.  Keys are folded (lower case, no
#: accents), a colon read as a dash and the spaces around a dash taken out (``1 : 0`` is ``1-0``,
#: ``+:-`` is ``+--``).
_WORDS: dict[Result, tuple[str, ...]] = {
    Result.WHITE_WIN: ("1", "won", "win", "wins", "white wins", "whitewins", "gewonnen", "winst", "wint",
                       "wit wint", "sieg", "gewinnt", "weiss gewinnt", "w"),
    Result.BLACK_WIN: ("0", "lost", "loss", "loses", "black wins", "verloren", "verlies", "verliest",
                       "zwart wint", "niederlage", "verliert", "schwarz gewinnt", "l"),
    Result.DRAW: ("½", "1/2", "0.5", "0,5", "draw", "drawn", "remise", "rem", "remis", "gelijk", "unentschieden", "d"),
    Result.WHITE_FORFEIT_WIN: ("+/-", "+--", "1-0r", "1-0 reglementair", "white wins by forfeit"),
    Result.BLACK_FORFEIT_WIN: ("-/+", "--+", "0-1r", "0-1 reglementair", "black wins by forfeit"),
    Result.DOUBLE_FORFEIT: ("-/-", "---", "0-0", "0-0r"),
}


def _key(text: str) -> str:
    folded = fold_name(text).replace("–", "-").replace("—", "-").replace("−", "-").replace(":", "-")
    return re.sub(r"\s*-\s*", "-", folded).replace("+/-", "+-")


_RESULTS = {_key(word): result for word, result in RESULT_NOTATIONS.items()} | \
    {_key(word): result for result, words in _WORDS.items() for word in words}


def game_result(text: str) -> Result | None:
    """The result a spreadsheet cell holds, from White's side; None for one it is not.

    >>> [game_result(x).value for x in ("remise", "Rem", "½", "Draw", "1 : 0", "gewonnen", "Lost", "0-1")]
    ['1/2-1/2', '1/2-1/2', '1/2-1/2', '1/2-1/2', '1-0', '1-0', '0-1', '0-1']
    >>> game_result("2-0") is None
    True
    """
    return _RESULTS.get(_key(text))


_DATE = (re.compile(r"(?P<y>[0-9]{4})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})"),
         re.compile(r"(?P<d>[0-9]{1,2})[-/.](?P<m>[0-9]{1,2})[-/.](?P<y>[0-9]{4})"))


class MemberListError(FormatError):
    """The file is a member list, for ``keizer member import``."""


@dataclass(frozen=True)
class RoundsFile:
    season: Season
    #: Lines for the officer: rounds a player has no row in, scored as unexcused.
    report: tuple[str, ...]


def header_kind(text: str) -> str | None:
    """``rounds`` for a rounds file's header line, ``members`` for a member list's, else None."""
    first = re.split(r"[\r\n]", text.lstrip("\ufeff"), maxsplit=1)[0]
    cells = {c.strip().strip('"').lower() for c in re.split(r"[;,]", first)}
    if all(cells & set(COLUMNS[c]) for c in ("round", "white")):
        return "rounds"
    if cells & set(_MEMBER_LIST):
        return "members"
    return None


def read(data: bytes, settings: Settings, name: str) -> RoundsFile:
    """The season in the file's bytes (UTF-8 or Windows-1252)."""
    return parse(decode(data), settings, name)


def parse(text: str, settings: Settings, name: str) -> RoundsFile:
    first = re.split(r"[\r\n]", text, maxsplit=1)[0]
    delimiter = ";" if ";" in first else ","
    records = _records(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    try:
        return _Builder(settings, name).build(records)
    except csv.Error as e:
        raise FormatError("line %(line)s: %(why)s (check the quotes; is the file cut off?)", line=records.start,
                          why=str(e)) from None


class _Builder:
    def __init__(self, settings: Settings, name: str) -> None:
        self.settings, self.name = settings, name
        self.ids: dict[str, str] = {}  # folded name → player id
        self.names: dict[str, str] = {}  # player id → name as first written
        self.first: dict[str, int] = {}  # player id → first round named
        self.rows: dict[int, list[tuple[int, str, str | None, Result | Absence | ExternalResult | None]]] = {}
        self.dates: dict[int, tuple[str, int]] = {}
        self.seen: dict[tuple[int, str], int] = {}  # (round, player) → line

    def build(self, records: _records) -> RoundsFile:
        header = next(records, None)
        if header is None or not any(h.strip() for h in header):
            raise FormatError("line 1: no header; the first line must name the columns: round;date;white;black;result")
        cols = self._columns([h.strip().lower().lstrip("\ufeff") for h in header])
        self.width = len(header)
        for fields in records:
            if any(f.strip() for f in fields):
                self._row(records.start, fields, cols)
        if not self.rows:
            raise FormatError("the file has no rows after its header: nothing to import")
        return self._season()

    def _columns(self, header: list[str]) -> dict[str, int]:
        cols = {}
        for col, names in COLUMNS.items():
            found = [i for i, h in enumerate(header) if h in names]
            if found:
                cols[col] = found[0]
        missing = [c for c in _NEEDED if c not in cols]
        if missing:
            if set(header) & set(_MEMBER_LIST):
                raise MemberListError("this is a member list (its header names members, not games)")
            shown = _shown(", ".join(header)[:80])
            raise FormatError("line 1: no %(columns)s column in the header (%(header)s); name the columns "
                              "round;date;white;black;result (or ronde;datum;wit;zwart;uitslag)",
                              columns=" or ".join(repr(c) for c in missing), header=shown)
        return cols

    def _row(self, line: int, fields: list[str], cols: dict[str, int]) -> None:
        if len(fields) <= max(cols.values()):
            raise FormatError("line %(line)s has %(have)s fields, the header %(needed)s; add the missing ones (empty "
                              "ones too) or remove the line", line=line, have=len(fields), needed=max(cols.values()) + 1)
        if any(f.strip() for f in fields[self.width:]):
            raise FormatError("line %(line)s has %(have)s fields, the header %(needed)s; a row shifted by a stray "
                              "separator? remove the extra ones", line=line, have=len(fields), needed=self.width)
        cell = {c: fields[i].strip() for c, i in cols.items()}
        raw_round = cell["round"]
        if not re.fullmatch(r"[0-9]{1,3}", raw_round) or not 1 <= int(raw_round) <= MAX_ROUNDS:
            raise FormatError("line %(line)s: round %(round)s is not a number from 1 to %(most)s", line=line,
                              round=repr(_shown(raw_round[:20])), most=MAX_ROUNDS)
        rnd = int(raw_round)
        if cell.get("date"):
            self._date(line, rnd, cell["date"])
        white = self._player(line, rnd, cell["white"], "white")
        if cell["black"]:
            black = self._player(line, rnd, cell["black"], "black")
            if black == white:
                raise FormatError("line %(line)s: %(name)s plays against themselves", line=line,
                                  name=_shown(cell["white"]))
            result: Result | Absence | ExternalResult | None = None
            if cell["result"]:
                result = game_result(cell["result"])
                if result is None:
                    raise FormatError("line %(line)s: unknown result %(result)s (write 1-0, 0-1, ½-½, remise, won, "
                                      "lost, +-, -+ or --)", line=line, result=repr(_shown(cell["result"][:20])))
            self.rows.setdefault(rnd, []).append((line, white, black, result))
            return
        status = _STATUS.get(" ".join(re.split(r"[^a-z]+", cell["result"].lower())).strip())
        if status is None:
            raise FormatError("line %(line)s: %(result)s is not an absence; with 'black' empty write excused, "
                              "unexcused, club, bye or external win/draw/loss", line=line,
                              result=repr(_shown(cell["result"][:30])))
        if status is Absence.BYE:
            other = next((n for n, _, b, st in self.rows.get(rnd, []) if b is None and st is Absence.BYE), None)
            if other is not None:
                raise FormatError("line %(line)s: a second bye in round %(round)s (line %(other)s has one); a round "
                                  "has one odd-number bye: write the other as excused or club", line=line, round=rnd,
                                  other=other)
        self.rows.setdefault(rnd, []).append((line, white, None, status))

    def _date(self, line: int, rnd: int, raw: str) -> None:
        for pattern in _DATE:
            found = pattern.fullmatch(raw)
            if found:
                try:
                    day = datetime.date(int(found["y"]), int(found["m"]), int(found["d"])).isoformat()
                except ValueError:
                    break
                earlier = self.dates.setdefault(rnd, (day, line))
                if earlier[0] != day:
                    raise FormatError("line %(line)s: round %(round)s on %(day)s, but on %(earlier)s in line "
                                      "%(other)s; a round has one date", line=line, round=rnd, day=day,
                                      earlier=earlier[0], other=earlier[1])
                return
        raise FormatError("line %(line)s: date %(date)s is not a date like 2026-09-08 or 8-9-2026", line=line,
                          date=repr(_shown(raw[:20])))

    def _player(self, line: int, rnd: int, raw: str, column: str) -> str:
        if not raw:
            if column == "white":
                raise FormatError("line %(line)s: the white player's name is missing", line=line)
            raise FormatError("line %(line)s: the black player's name is missing", line=line)
        try:
            name = clean_text(raw, Word("a name"), MAX_NAME)
        except LimitError as e:
            raise FormatError("line %(line)s: %(why)s", line=line, why=e) from None
        key = fold_name(name)
        pid = self.ids.get(key)
        if pid is None:
            if len(self.ids) >= MAX_PLAYERS:
                raise FormatError("line %(line)s: more than %(most)s players", line=line, most=MAX_PLAYERS)
            pid = self.ids[key] = f"r{len(self.ids) + 1}"
            self.names[pid] = name
        self.first[pid] = min(self.first.get(pid, rnd), rnd)
        earlier = self.seen.setdefault((rnd, pid), line)
        if earlier != line:
            raise FormatError("line %(line)s: %(name)s is in round %(round)s twice (line %(other)s); keep one row",
                              line=line, name=_shown(name), round=rnd, other=earlier)
        return pid

    def _season(self) -> RoundsFile:
        last = max(self.rows)
        for rnd in range(1, last):
            if rnd not in self.rows:
                later = min(r for r in self.rows if r > rnd)
                raise FormatError("line %(line)s: round %(round)s, but no row for round %(missing)s; rounds are "
                                  "numbered 1, 2, 3, … without gaps", line=self.rows[later][0][0], round=later,
                                  missing=rnd)
        report: list[str] = []
        rounds = []
        for rnd in range(1, last + 1):
            games: list[Game] = []
            absent: dict[str, Absence] = {}
            external: dict[str, ExternalResult] = {}
            for line, white, black, result in self.rows[rnd]:
                if black is not None:
                    if result is None and rnd != last:
                        raise FormatError("line %(line)s: no result; only the last round may have games without one "
                                          "(write 1-0, 0-1, ½-½, +-, -+ or --)", line=line)
                    games.append(Game(rnd, len(games) + 1, white, black, result))  # type: ignore[arg-type]
                elif isinstance(result, ExternalResult):
                    external[white] = result
                else:
                    absent[white] = result  # type: ignore[assignment]
            for pid, joined in self.first.items():
                if joined < rnd and (rnd, pid) not in self.seen:
                    absent[pid] = Absence.UNEXCUSED
                    report.append(f"round {rnd}, {_shown(self.names[pid])}: no row → unexcused")
            rounds.append(Round(rnd, self.dates.get(rnd, (None,))[0], tuple(games), absent, external))
        players = tuple(Player(pid, name, None, n, self.first[pid])
                        for n, (pid, name) in enumerate(self.names.items(), start=1))
        return RoundsFile(Season(self.name, self.settings, players, tuple(rounds)), tuple(report))
