"""FIDE Tournament Report Files (TRF16 and TRF-2026) ⇄ :class:`~keizer.tiebreaks.model.Tournament`.

``parse(text)`` reads a file into the model, ``dump(tournament)`` writes one;
``parse(dump(t)) == t``.  Layouts follow FIDE C.04 Annex 2 (TRF16) and
TRF26 (FIDE Council 12/05/2025; FIDE Handbook C.04 Annex 2, TRF-2026).

Read: players (001) with all round results and codes; rounds (142, ``XXR``);
scoring (162, ``XXS``); the tie-break list (202); team scoring (362); teams
(310, or 013 in TRF16 files); team byes (240, 320), forfeited matches (330)
and line-ups (300).  Team matches are derived from the players' games on
their boards.  Every other line (022…132, 092/192, 212, 222, 352, 801, NRS
records, ``###`` comments) is kept verbatim in ``Tournament.info``.

Real files vary; accepted: CR, LF or CRLF line ends, a byte-order mark,
Latin-1 text, lower-case codes and colours, a blank result (zero-point bye),
a blank opponent (0000), ``-`` or blank as the colour of byes and forfeits (a pairing
with a colour on one side only gets the opposite colour on the other; ``-`` on both sides
stays without a colour),
decimal commas, rating 0 for unrated, lines that stop after their last round,
one-letter titles, any date format, both 013 and 310 team records (310 wins),
a team bye listed in both 240 and 320 (the PAB wins), and ``0000 - -`` for a
team's reserve who did not play.  Anything else that does not fit raises
:class:`TrfError` naming the line and columns.

A line's columns, the round dates (132) and the team records with their matches are read
by :mod:`keizer.formats.trf_records`; :mod:`keizer.formats.trf_import` reads a file for
``keizer import`` (the round a club is in, dummy players, what was read).

>>> t = parse('''012 Club cup
... 001    1      Anna                              1850                             1.0          2 w 1
... 001    2      Bram                              1700                             0.0          1 b 0''')
>>> t.name, t.rounds, t.players[1].results[0]
('Club cup', 1, RoundResult(code=<Code.LOSS: '0'>, opponent=1, colour=<Colour.BLACK: 'black'>))
>>> parse(dump(t)) == t
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING, Iterable

from keizer.formats.trf_records import TrfError as TrfError  # the refusal of a file, named here as before
from keizer.formats.trf_records import (MAX_NUMBER, _boards_of, _complete_teams, _dates, _default_lineup,
                                        _DIGITS, _Line, _shown, _team013, _team310, team_matches)
from keizer.limits import MAX_ROUNDS, is_digits
from keizer.colour import Colour
from keizer.refusals import Message, Word
from keizer.tiebreaks.model import Code, Player, RoundResult, Scoring, System, Team, Tournament

if TYPE_CHECKING:
    from pathlib import Path

TRF16, TRF26 = "TRF16", "TRF26"


def read(path: str | Path) -> Tournament:
    """Parse a file: UTF-8 (with or without BOM), else Latin-1 as older programs write."""
    return parse(text_of(path))


def text_of(path: str | Path) -> str:
    """A file's text: UTF-8 (with or without BOM), else Latin-1 as older programs write."""
    with open(path, "rb") as f:  # not pathlib, nor the utf-8-sig codec: `keizer trf pair` imports neither
        data = f.read()
    try:
        return (data[3:] if data[:3] == b"\xef\xbb\xbf" else data).decode("utf-8")  # one BOM, as utf-8-sig
    except UnicodeDecodeError:
        return data.decode("latin-1")


def entered(text: str) -> dict[int, frozenset[int]]:
    """For each start rank, the rounds (0-based) whose ten columns on the player's line are
    not blank.  The model reads a blank round and ``0000 - Z`` alike (a zero-point bye);
    pairing programs do not: in the round to be paired a player with any entry
    (``0000 - H``, ``F``, ``U``, ``Z`` or ``-``) has it already, and every other player is
    paired.

    >>> line = '001    1      Anna'.ljust(91) + '    2 w 1  ' + ' ' * 10 + '0000 - H'
    >>> entered(line)   # round 1 played, round 2 blank, round 3 a half-point bye asked for
    {1: frozenset({0, 2})}
    """
    out: dict[int, frozenset[int]] = {}
    for raw in text.lstrip("\ufeff").splitlines():
        if raw[:3] != "001":
            continue
        number = raw[4:8].strip()
        if not is_digits(number):
            continue
        out[int(number)] = frozenset(r for r in range((len(raw) - 91 + 9) // 10)
                                     if raw[91 + 10 * r:99 + 10 * r].strip())
    return out


def parse(text: str) -> Tournament:
    """A tournament from TRF text (TRF16 or TRF26)."""
    return _Reader(text.lstrip("\ufeff").splitlines()).tournament()


@dataclass(frozen=True)
class Pairing:
    """A game of the file without a result yet (``   12 w  ``: an opponent, no result code)."""

    round: int  # 1-based
    player: int
    opponent: int
    colour: Colour | None
    line: int


def parse_pairings(text: str) -> tuple[Tournament, tuple[Pairing, ...]]:
    """As :func:`parse`, but a game without a result (a round paired and not yet played) is
    given back as a :class:`Pairing` instead of refused; in the tournament that round is the
    player's zero-point bye without an opponent.  Which rounds may be unfinished is the
    caller's to decide (:mod:`keizer.formats.trf_import`)."""
    reader = _Reader(text.lstrip("\ufeff").splitlines(), pending=[])
    return reader.tournament(), tuple(reader.pending or ())


# -- reading ---------------------------------------------------------------------------------

_CODES = {c.value: c for c in Code}
_POINTS = re.compile(r"-?[0-9]{1,4}(?:[.,][0-9]{1,4})?|[0-9]{1,4}/(?P<den>[0-9]{1,4})")
_COLOURS = {"w": Colour.WHITE, "b": Colour.BLACK, "-": None, " ": None}
_COLOUR_LETTER = {Colour.WHITE: "w", Colour.BLACK: "b", None: "-"}
_CODE_OF = attrgetter("code")
_COMPLEMENT = {
    Code.WIN: {Code.LOSS, Code.QUICK_LOSS}, Code.LOSS: {Code.WIN, Code.QUICK_WIN},
    Code.DRAW: {Code.DRAW, Code.QUICK_DRAW}, Code.QUICK_WIN: {Code.LOSS, Code.QUICK_LOSS},
    Code.QUICK_LOSS: {Code.WIN, Code.QUICK_WIN}, Code.QUICK_DRAW: {Code.DRAW, Code.QUICK_DRAW},
    Code.FORFEIT_WIN: {Code.FORFEIT_LOSS}, Code.FORFEIT_LOSS: {Code.FORFEIT_WIN, Code.FORFEIT_LOSS},
}
#: Records the model holds; every other line is kept verbatim.
_MODELLED = {"001", "012", "013", "132", "142", "162", "202", "240", "300", "310", "320", "330", "362", "XXR", "XXS"}
_XXS = {"WW": ("win",), "BW": ("win",), "WD": ("draw",), "BD": ("draw",), "WL": ("loss",), "BL": ("loss",),
        "W": ("win", "forfeit_win", "fpb"), "D": ("draw", "hpb"), "ZPB": ("zpb",), "HPB": ("hpb",),
        "FPB": ("fpb",), "PAB": ("pab",), "FW": ("forfeit_win",), "FL": ("forfeit_loss",)}
_162 = {"W": ("win", "forfeit_win", "fpb"), "D": ("draw", "hpb"), "L": ("loss",),
        "A": ("zpb", "forfeit_loss"), "P": ("pab",)}


@dataclass
class _Reader:
    lines: list[str]
    info: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    #: The line number of each player's record (a line is made again only to say what is wrong in it).
    player_lines: list[int] = field(default_factory=list)
    teams310: list[Team] = field(default_factory=list)
    teams013: list[Team] = field(default_factory=list)
    team_lines: list[str] = field(default_factory=list)
    byes: list[tuple[_Line, Code, int, list[int]]] = field(default_factory=list)
    pab: tuple[_Line, Fraction, dict[int, int]] | None = None
    forfeits: list[tuple[_Line, str, int, int, int]] = field(default_factory=list)
    lineups: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    name: str = ""
    rounds: int = 0
    scoring: Scoring = Scoring()
    match_scoring: Scoring = field(default_factory=Scoring.matches)
    tiebreaks: tuple[str, ...] = ()
    dates: tuple[str | None, ...] = ()
    #: Games without a result, when the caller takes them (``parse_pairings``); else refused.
    pending: list[Pairing] | None = None
    #: The rounds read so far, by their eight columns (``_player``).
    seen: dict[str, RoundResult] = field(default_factory=dict)

    def tournament(self) -> Tournament:
        for number, text in enumerate(self.lines, start=1):
            if text.strip():
                self._record(_Line(number, text.rstrip()))
        system = _system(self.info)
        teams = self.teams310 or self.teams013  # a file with both is TRF26 keeping TRF16's records
        team_only = self.byes or self.pab or self.forfeits or self.lineups  # records only a team event has
        if teams and not team_only and not _complete_teams(teams, self.info, self.players):
            teams = []  # not a team event: the records are kept as they are, as other records are
            self.info.extend(self.team_lines)
        rounds = max([self.rounds] + [len(p.results) for p in self.players])
        players = {p.start_no: p for p in self.players}
        self._check_players(players)
        players = _opposite_colours(players)
        players = {n: p if len(p.results) == rounds else replace(p, results=_padded(p.results, rounds))
                   for n, p in players.items()}
        info = [x for x in self.info if x.rstrip() != f"092 {_canonical_type(system, bool(teams))}"]
        boards = 0
        if teams:
            boards = _boards_of(info, self.lineups, teams, players)
            teams = team_matches(teams, players, rounds, boards, self.byes, self.pab, self.forfeits, self.lineups,
                                 self.info)
        return Tournament(tuple(players[n] for n in sorted(players)), rounds, system, self.scoring,
                          tuple(teams), self.match_scoring, boards, self.name, self.tiebreaks, tuple(info),
                          self.dates)

    def _record(self, line: _Line) -> None:
        code = line.text[:3].upper()
        rest = line.text[4:].strip()
        if line.text.startswith("###") or code not in _MODELLED:
            self.info.append(line.text)
        elif code == "001":
            self.players.append(_player(line, self.pending, self.seen))
            self.player_lines.append(line.number)
        elif code == "012":
            self.name = rest
        elif code in ("142", "XXR"):  # checked before anything is sized by it
            rounds = line.integer(5, max(8, len(line.text)), Word("number of rounds"), high=MAX_ROUNDS)
            self.rounds = max(self.rounds, rounds or 0)
        elif code == "162":
            self.scoring = _scoring(self.scoring, _162, re.findall(r"([A-Za-z])\s*([0-9]+(?:[.,][0-9]+)?)", rest), line)
        elif code == "XXS":
            pairs = [tuple(item.split("=", 1)) for item in rest.split() if "=" in item]
            self.scoring = _scoring(self.scoring, _XXS, pairs, line)  # type: ignore[arg-type]
        elif code == "132":
            self.dates = _dates(line)
        elif code == "202":
            self.tiebreaks = tuple(x.strip() for x in rest.split(",") if x.strip())
        elif code == "362":
            found = dict((k.upper(), v) for k, v in re.findall(r"T([WDL])\s*([0-9]+(?:[.,][0-9]+)?)", rest, re.I))
            ms = self.match_scoring
            win, draw, loss = (_points(found[k], line) if k in found else default
                               for k, default in (("W", ms.win), ("D", ms.draw), ("L", ms.loss)))
            self.match_scoring = replace(ms, win=win, draw=draw, loss=loss, forfeit_win=win, fpb=win,
                                         hpb=draw, forfeit_loss=loss)
        elif code == "310":
            self.teams310.append(_team310(line))
            self.team_lines.append(line.text)
        elif code == "013":
            self.teams013.append(_team013(line, len(self.teams013) + 1))
            self.team_lines.append(line.text)
        elif code == "240":
            bye = {"F": Code.FPB, "H": Code.HPB, "Z": Code.ZPB}.get(line.cols(5, 5).upper())
            if bye is None:
                raise line.error(5, 5, Message("bye type %(type)s is not F, H or Z", type=repr(line.cols(5, 5))))
            numbers = _numbers(line, 7)
            if not numbers:
                raise line.error(7, 9, Message("the round is missing"))
            self.byes.append((line, bye, numbers[0], numbers[1:]))
        elif code == "320":
            mp, gp = line.decimal(5, 8, Word("match points")), line.decimal(10, 13, Word("game points"))
            per_round = {}
            for k in range((len(line.text) - 14 + 3) // 4):
                team = line.integer(15 + 4 * k, 17 + 4 * k, "team")  # Word("team") is the system
                if team:
                    per_round[k + 1] = team
            self.pab = (line, gp or Fraction(0), per_round)
            self.match_scoring = replace(self.match_scoring, pab=mp or Fraction(0))
        elif code == "330":
            kind = line.cols(5, 6)
            if kind not in ("+-", "-+", "--"):
                raise line.error(5, 6, Message("forfeit %(kind)s is not +-, -+ or --", kind=repr(kind)))
            numbers = _numbers(line, 8)
            if len(numbers) != 3:
                raise line.error(8, len(line.text), Message("needs a round, a white and a black team"))
            self.forfeits.append((line, kind, numbers[0], numbers[1], numbers[2]))
        else:  # 300: an out-of-order line-up
            numbers = _numbers(line, 5)
            if len(numbers) < 3:
                raise line.error(5, len(line.text), Message("needs a round, a team and an opponent"))
            self.lineups[(numbers[0], numbers[1])] = tuple(numbers[3:])

    def _line(self, number: int) -> _Line:
        return _Line(number, self.lines[number - 1].rstrip())

    def _check_players(self, players: dict[int, Player]) -> None:
        """There are players; start ranks are unique; every pairing is named from both
        sides, with matching results and opposite colours."""
        if not self.players:
            raise TrfError("line %(n)s, column 1: no player record (001) found; this is not a TRF tournament file",
                           n=len(self.lines) + 1)
        where: dict[int, int] = {}  # the line number of each start rank
        for number, p in zip(self.player_lines, self.players):
            if p.start_no in where:
                raise self._line(number).error(5, 8, Message("start rank %(n)s is used twice (line %(line)s)",
                                                              n=p.start_no, line=where[p.start_no]))
            where[p.start_no] = number
        absent = RoundResult(Code.ZPB)
        for number, p in zip(self.player_lines, self.players):
            me = p.start_no
            for r, res in enumerate(p.results):
                o = res.opponent
                if o is None:
                    continue
                other = players.get(o)
                if other is not None and o != me:  # the usual case, checked at once; else said below
                    back = other.results[r] if r < len(other.results) else absent
                    if back.opponent == me and (res.colour is None or res.colour != back.colour) and \
                            back.code in _COMPLEMENT.get(res.code, ()):
                        continue
                line = self._line(number)
                first = 92 + 10 * r
                other = players.get(o)
                if o == p.start_no:
                    raise line.error(first, first + 3, Message("round %(round)s: player %(n)s is paired with himself",
                                                            round=r + 1, n=p.start_no))
                if other is None:
                    raise line.error(first, first + 3, Message("round %(round)s: opponent %(n)s has no 001 line",
                                                            round=r + 1, n=o))
                back = other.results[r] if r < len(other.results) else RoundResult(Code.ZPB)
                if back.opponent != p.start_no:
                    raise line.error(first, first + 3, Message(
                        "round %(round)s: player %(n)s (line %(line)s) does not name %(me)s back", round=r + 1,
                        n=o, line=where[o], me=p.start_no))
                if res.colour is not None and res.colour == back.colour:
                    raise line.error(first + 5, first + 5, Message(
                        "round %(round)s: player %(n)s (line %(line)s) has the same colour", round=r + 1,
                        n=o, line=where[o]))
                if back.code not in _COMPLEMENT.get(res.code, ()):
                    raise line.error(first + 7, first + 7, Message(
                        "round %(round)s: result %(code)s against %(back)s of player %(n)s (line %(line)s)",
                        round=r + 1, code=res.code.value, back=back.code.value, n=o,
                        line=where[o]))


def _player(line: _Line, pending: list[Pairing] | None = None,
            seen: dict[str, RoundResult] | None = None) -> Player:
    start = line.integer(5, 8, Word("start rank"))
    if not start:
        raise line.error(5, 8, Message("start rank is missing"))
    rating = line.integer(49, 52, Word("rating")) or None
    played = (len(line.text) - 91 + 9) // 10
    if played > MAX_ROUNDS:
        raise line.error(92, len(line.text), Message("%(n)s rounds; a tournament has at most %(most)s", n=played,
                                                      most=MAX_ROUNDS))
    text = line.text
    seen = {} if seen is None else seen
    results = []
    for at in range(91, 91 + 10 * played, 10):
        # a round's eight columns say all the round is: read once per file, shared (results are values)
        res = seen.get(text[at:at + 8])
        if res is None:
            res = _round(line, at, start, pending, seen)
        results.append(res)
    return Player(start, line.cols(15, 47).strip(), rating, tuple(results), line.cols(10, 10).strip(),
                  line.cols(11, 13).strip(), line.cols(54, 56).strip(), line.cols(58, 68).strip(),
                  line.cols(70, 79).strip(), line.decimal(81, 84, Word("points")), line.integer(86, 89, Word("rank")))


def _round(line: _Line, at: int, start: int, pending: list[Pairing] | None,
           seen: dict[str, RoundResult]) -> RoundResult:
    """The round whose opponent starts at index ``at`` of the line, checked; remembered in ``seen``
    by its eight columns unless it is a pending game (which the reader collects)."""
    text = line.text
    kind, digits = _KINDS.get(text[at + 4:at + 8]), text[at:at + 4].lstrip(" ")
    if kind is not None and digits.isdigit() and digits.isascii():  # the usual case: checked at once
        opponent = int(digits) or None
        if kind[2] is None or kind[2] is (opponent is not None):
            res = seen[text[at:at + 8]] = RoundResult(kind[0], opponent, kind[1])
            return res
    first, r = at + 1, (at - 91) // 10
    chunk = text[at:at + 4].strip()
    if chunk.isdigit() and chunk.isascii():  # the usual case, read at once (four digits: at most 9999)
        opponent = int(chunk) or None
    else:
        opponent = line.integer(first, first + 3, Word("opponent"), blank=0) or None
    colour_text = (text[first + 4:first + 5] or " ").lower()
    if colour_text not in _COLOURS:
        raise line.error(first + 5, first + 5, Message("colour %(colour)s is not w, b or -", colour=repr(colour_text)))
    raw = (text[first + 6:first + 7] or " ").upper()
    code = Code.ZPB if raw == " " else _CODES.get(raw)
    if code is None:
        raise line.error(first + 7, first + 7, Message("result %(raw)s is not a TRF result code", raw=repr(raw)))
    if code.is_game and opponent is None:
        raise line.error(first, first + 3, Message("round %(round)s: a game (%(raw)s) without an opponent",
                                                    round=r + 1, raw=raw))
    if raw == " " and opponent is not None and pending is not None:
        pending.append(Pairing(r + 1, start, opponent, _COLOURS[colour_text], line.number))
        return _ABSENT
    if code.is_bye and opponent is not None:
        raise line.error(first, first + 3, Message("round %(round)s: a bye (%(raw)s) with an opponent", round=r + 1,
                                                    raw=raw))
    res = seen[text[at:at + 8]] = RoundResult(code, opponent, _COLOURS[colour_text])
    return res


_ABSENT = RoundResult(Code.ZPB)
#: A round's colour and result as they stand in its last four columns (`` w 1``), with whether it
#: needs an opponent (a game), may not have one (a bye) or either (None: a forfeit).  A blank
#: result (a zero-point bye, or a pairing to be played) is read by the checks in ``_round``.
_KINDS = {f" {c} {x}": (code, _COLOURS[c.lower()], True if code.is_game else False if code.is_bye else None)
          for c in "wWbB- " for code in Code for x in {code.value, code.value.lower()}}


def _numbers(line: _Line, first: int) -> list[int]:
    out = []
    for token in line.text[first - 1:].split():
        if not _DIGITS.fullmatch(token) or len(token.lstrip("0")) > len(str(MAX_NUMBER)):
            raise line.error(first, len(line.text), Message("%(raw)s is not a number from 0 to %(most)s",
                                                             raw=_shown(token), most=MAX_NUMBER))
        out.append(int(token))
    return out


def _scoring(base: Scoring, table: dict[str, tuple[str, ...]], pairs: Iterable[tuple[str, str]],
             line: _Line) -> Scoring:
    given: dict[str, Fraction] = {}
    for key, value in pairs:
        key = key.upper()
        if key == "X":  # unknown/adjourned results: nothing to score
            continue
        if key not in table:
            raise line.error(5, len(line.text), Message("scoring code %(code)s is unknown", code=_shown(key)))
        given[key] = _points(value, line)
    for white, black in (("WW", "BW"), ("WD", "BD"), ("WL", "BL")):
        if white in given and black in given and given[white] != given[black]:
            raise line.error(5, len(line.text), Message("colour-dependent scoring is not supported"))
    found = {name: points for key, points in given.items() for name in table[key]}  # later codes win
    return replace(base, **found)


def _points(value: str, line: _Line) -> Fraction:
    """Points of a scoring record: 1, 0.5, 1,5 or 1/2, four digits at most each side."""
    found = _POINTS.fullmatch(value.strip())
    if not found or (found["den"] is not None and int(found["den"]) == 0):
        raise line.error(5, len(line.text), Message("scoring value %(value)s is not a number like 1, 0.5 or 1/2",
                                                 value=_shown(value)))
    return Fraction(value.strip().replace(",", "."))


def _opposite_colours(players: dict[int, Player]) -> dict[int, Player]:
    """A pairing with a colour on one side only (``w`` against ``-``, as some programs write
    a forfeit) gets the opposite colour on the other side: the file says it.  A pairing
    with ``-`` on both sides keeps no colour: the file does not say who had White."""
    out = {}
    for n, p in players.items():
        results = list(p.results)
        for r, res in enumerate(results):
            if res.opponent is None or res.colour is not None:
                continue
            back = players[res.opponent].results[r].colour if r < len(players[res.opponent].results) else None
            if back is not None:
                results[r] = replace(res, colour=back.opposite)
        out[n] = replace(p, results=tuple(results)) if results != list(p.results) else p
    return out


def _padded(results: tuple[RoundResult, ...], rounds: int) -> tuple[RoundResult, ...]:
    return results + (RoundResult(Code.ZPB),) * (rounds - len(results))


_SYSTEM_WORDS = ((System.ROUND_ROBIN, ("ROUND", "ROBIN", "BERGER", "RR", "SCHEVENINGEN")),
                 (System.KNOCKOUT, ("KNOCK", "KO", "CUP", "ELIMINATION")))


def _system(info: list[str]) -> System:
    """The pairing system from record 192 (ETT code), else 092 (free text); Swiss when unknown."""
    for code in ("192", "092"):
        for text in info:
            if text[:3] == code:
                words = set(re.split(r"[^A-Z]+", text[4:].upper()))
                for system, keys in _SYSTEM_WORDS:
                    if words & set(keys):
                        return system
                if words & {"SWISS", "DUTCH", "BURSTEIN", "BAKU", "LIM", "DUBOV", "MONRAD", "SYSTEM"}:
                    return System.SWISS
    return System.SWISS


def _canonical_type(system: System, team: bool) -> str:
    kind = {System.SWISS: "Swiss-System", System.ROUND_ROBIN: "Round-Robin", System.KNOCKOUT: "Knock-Out"}
    return f"{'Team' if team else 'Individual'}: {kind[system]}"


# -- writing ---------------------------------------------------------------------------------

def dump(t: Tournament, version: str = TRF26, every_round: bool = False) -> str:
    """TRF text of ``t`` (lines end with CR LF).  ``version`` TRF16 writes 013 teams and ``XXR``/``XXS``.

    A player's line stops after his last round that is not a zero-point bye, unless
    ``every_round``: then every round is written (``0000 - Z``), as pairing checkers
    want a complete file (a missing entry there may read as "to be paired").
    """
    if version not in (TRF16, TRF26):
        raise TrfError("unknown TRF version %(version)s (use %(one)s or %(other)s)", version=repr(version), one=TRF16,
                       other=TRF26)
    if t.is_team and not t.players:
        raise TrfError("a team tournament without players cannot be written: TRF derives matches from games")
    out = []
    if t.name:
        out.append(f"012 {t.name}")
    if not any(x[:3] == "092" for x in t.info):
        out.append(f"092 {_canonical_type(t.system, t.is_team)}")
    out.extend(t.info)
    out.append(f"142 {t.rounds}" if version == TRF26 else f"XXR {t.rounds}")
    out.extend(_scoring_lines(t, version))
    if any(t.dates):
        out.append(("132" + " " * 88 + "".join(f"{(d[2:].replace('-', '/') if d else ''):<10}"
                                               for d in t.dates)).rstrip())
    if t.tiebreaks and version == TRF26:
        out.append("202 " + ",".join(t.tiebreaks))
    if t.is_team and t.match_scoring != Scoring.matches() and version == TRF26:
        ms = t.match_scoring
        out.append(f"362 TW {_decimal(ms.win)}   TD {_decimal(ms.draw)}   TL {_decimal(ms.loss)}")
    played = {p.start_no: len(p.results) for p in t.players} if every_round else _last_played(t)
    value = {c: t.scoring.points(c) for c in Code}
    for p in t.players:
        out.append(_player_line(p, t, played, value))
    if t.is_team:
        out.extend(_team_lines(t, version))
    return "\r\n".join(out) + "\r\n"


def _scoring_lines(t: Tournament, version: str) -> list[str]:
    s = t.scoring
    if s == Scoring():
        return []
    fits_162 = s.win == s.forfeit_win == s.fpb and s.draw == s.hpb and s.zpb == s.forfeit_loss
    if version == TRF26 and fits_162:
        items = [("W", s.win), ("D", s.draw), ("L", s.loss), ("A", s.zpb), ("P", s.pab)]
        return ["162 " + "".join(f" {k}{_decimal(v):>4}    " for k, v in items).rstrip()]
    items = [("WW", s.win), ("BW", s.win), ("WD", s.draw), ("BD", s.draw), ("WL", s.loss), ("BL", s.loss),
             ("ZPB", s.zpb), ("HPB", s.hpb), ("FPB", s.fpb), ("PAB", s.pab), ("FW", s.forfeit_win),
             ("FL", s.forfeit_loss)]
    return ["XXS " + " ".join(f"{k}={_decimal(v)}" for k, v in items)]


def _last_played(t: Tournament) -> dict[int, int]:
    """Per player the last round that is not a zero-point bye; later rounds are left blank."""
    last, zpb = {}, Code.ZPB
    for p in t.players:
        n = 0
        for r, res in enumerate(p.results, start=1):
            if res.code is not zpb or res.opponent is not None:
                n = r
        last[p.start_no] = n
    return last


def _player_line(p: Player, t: Tournament, played: dict[int, int], value: dict[Code, Fraction] | None = None) -> str:
    if p.points is not None:
        points = p.points
    else:  # each code's points looked up once per file (``value``), and one sum of fractions
        value = value or {c: t.scoring.points(c) for c in Code}
        points = sum(map(value.__getitem__, map(_CODE_OF, p.results)), Fraction(0))
    head = (f"001 {p.start_no:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} "
            f"{p.rating or '':>4} {p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth[:10]:<10} "
            f"{_decimal(points):>4} {'' if p.rank is None else p.rank:>4}")
    if len(head) != 89:
        raise TrfError("player %(n)s: a field does not fit its TRF columns", n=p.start_no)
    rounds = []
    for res in p.results[:played[p.start_no]]:
        opponent = f"{res.opponent:>4}" if res.opponent else "0000"
        rounds.append(f"  {opponent} {_COLOUR_LETTER[res.colour]} {res.code.value}")
    return head + "".join(rounds)


def _team_lines(t: Tournament, version: str) -> list[str]:
    out = []
    for team in t.teams:
        members = " ".join(f"{m:>4}" for m in team.members)
        if version == TRF16:
            out.append(f"013 {team.name[:32]:<32}{members}")
            continue
        rank = "" if team.rank is None else team.rank
        out.append(f"310 {team.number:>3} {team.name[:32]:<32} {team.nickname[:5]:<5} {team.rating or '':>6} "
                   f"{_decimal(team.points) if team.points is not None else '':>6} "
                   f"{_decimal(team.game_points) if team.game_points is not None else '':>6} {rank:>3}  {members}")
    players = {p.start_no: p for p in t.players}
    byes: dict[tuple[str, int], list[int]] = {}
    pab: dict[int, int] = {}
    pab_gp = Fraction(0)
    forfeits = []
    lineups = []
    for team in t.teams:
        for r, m in enumerate(team.matches, start=1):
            if m.code in (Code.FPB, Code.HPB):
                byes.setdefault((m.code.value, r), []).append(team.number)
            elif m.code is Code.PAB:
                pab[r], pab_gp = team.number, m.game_points
            elif m.code.is_forfeit and m.opponent is not None and (m.colour is Colour.WHITE or (
                    m.colour is None and team.number < m.opponent)):
                other = next(x for x in t.teams if x.number == m.opponent).matches[r - 1]
                forfeits.append(f"330 {m.code.value}{other.code.value} {r:>3} {team.number:>3} {m.opponent:>3}")
            elif m.lineup and m.lineup != _default_lineup(team, r, players):
                lineups.append(f"300 {r:>3} {team.number:>3} {m.opponent or 0:>3} "
                               + " ".join(f"{n:>4}" for n in m.lineup))
    if version == TRF26:
        out.extend(f"240 {kind} {r:>3} " + " ".join(f"{n:>4}" for n in numbers)
                   for (kind, r), numbers in sorted(byes.items(), key=lambda x: (x[0][1], x[0][0])))
        if pab:
            cells = "".join(f" {pab.get(r, ''):>3}" for r in range(1, max(pab) + 1))
            out.append(f"320 {_decimal(t.match_scoring.pab):>4} {_decimal(pab_gp):>4}{cells}")
        out.extend(forfeits)
        out.extend(lineups)
    return out


def _decimal(value: Fraction) -> str:
    """A score as TRF writes it: one decimal, two when needed (``11.5``, ``17.0``, ``2.25``)."""
    for places in (1, 2):
        scaled = value * 10**places
        if scaled.denominator == 1:
            whole, frac = divmod(int(scaled), 10**places)
            return f"{whole}.{frac:0{places}d}"
    raise TrfError("score %(value)s has more than two decimals", value=value)
