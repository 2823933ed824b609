"""The ECF results submission file: what a club sends the English Chess Federation for rating.

The file is a sequence of fields ``#NAME=value`` (or ``#NAME`` alone) in four parts: ``#EVENT
DETAILS`` (the event and who answers for it), ``#PLAYER LIST`` (one ``#PIN=n`` per player with
their ``NAME`` and ``ECF CODE``, or a ``CLUB CODE`` for a player new to the ECF), one or more
result parts (here ``#SECTION RESULTS``, a tournament's games: ``PIN1``, ``PIN2``, ``SCORE``,
``COLOUR``, ``ROUND``, ``GAME DATE``) and ``#FINISH#``. Field names ignore case and spaces; a
newline before a ``#`` is only layout.

Sources (read December 2026; what each says is in docs/ratings.md): the field names of the
ECF's specification (ecfrating.org.uk/doc/spec/field_def.html, 15 April 2022) as the public
editor ``ecfformat`` (R. Marsh, 2022) lists them, with the fields the event details require
and the time-limit combinations it checks; scores ``10``, ``01`` and ``55`` (white wins, black
wins, draw: ``chessvalidate``'s game results, the same author); dates ``DD/MM/YYYY`` and
``#PIN1=…#PIN2=…#SCORE=…#COLOUR=WHITE#GAME DATE=…`` records as a club's own export writes them
(Wallasey Chess Club); ECF codes of six digits and a check letter from ``ABCDEFGHJKL``
(``ecfformat``'s validation). The ECF's own checker (a Windows program the rating team hands
to graders) and the check letter's formula are not public: :func:`check` makes the field checks
the sources above establish, no more.

>>> sub = Submission(Event("XY12345", 1, "Club Championship", date(2026, 1, 8), date(2026, 1, 15),
...                        "A Officer", ("1 High Street",), "A Treasurer", ("t@example.org",), 90, 30),
...                  (EcfPlayer(1, "Smith, Ann", "123456A"), EcfPlayer(2, "Jones, Bob", None, "CODE")),
...                  (Section("Club Championship", (EcfGame(1, 2, "10", "white", 1, date(2026, 1, 8)),)),))
>>> text = dump(sub)
>>> print(text)  # doctest: +NORMALIZE_WHITESPACE
#EVENT DETAILS
#EVENT CODE=XY12345
#SUBMISSION INDEX=1
#EVENT NAME=Club Championship
#EVENT DATE=08/01/2026
#FINAL RESULT DATE=15/01/2026
#RESULTS OFFICER=A Officer
#RESULTS OFFICER ADDRESS=1 High Street
#TREASURER=A Treasurer
#TREASURER ADDRESS=t@example.org
#MINUTES FOR GAME=90
#SECONDS PER MOVE=30
#PLAYER LIST
#PIN=1#NAME=Smith, Ann#ECF CODE=123456A
#PIN=2#NAME=Jones, Bob#CLUB CODE=CODE
#SECTION RESULTS=Club Championship
#PIN1=1#PIN2=2#SCORE=10#COLOUR=WHITE#ROUND=1#GAME DATE=08/01/2026
#FINISH#
>>> parse(text) == sub
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from keizer.formats.errors import FormatError
from keizer.refusals import Refusal, Words

#: SCORE: the first player's result (PIN1) against the second's.
SCORES = ("10", "01", "55")
#: COLOUR: the colour of PIN1.
COLOURS = ("white", "black")
#: An ECF code (formerly a grading code): six digits and a check letter.
ECF_CODE = re.compile(r"[0-9]{6}[A-HJ-L]")
#: The event details every file needs (besides a time limit), in the order written.
REQUIRED = ("EVENT CODE", "SUBMISSION INDEX", "EVENT NAME", "EVENT DATE", "FINAL RESULT DATE", "RESULTS OFFICER",
            "RESULTS OFFICER ADDRESS", "TREASURER", "TREASURER ADDRESS")


@dataclass(frozen=True)
class Event:
    """``#EVENT DETAILS``: the event's code (the grader's two-letter prefix and their own
    number), the submission index (1, then higher for a file that replaces an earlier one),
    name, first and last date, the results officer and the treasurer with their addresses
    (lines), and the time limit: ``MINUTES FOR GAME`` with ``SECONDS PER MOVE`` (an increment),
    the one combination keizer writes."""

    code: str
    index: int
    name: str
    start: date | None
    end: date | None
    officer: str
    officer_address: tuple[str, ...]
    treasurer: str
    treasurer_address: tuple[str, ...]
    minutes: int | None
    seconds_per_move: int | None = None


@dataclass(frozen=True)
class EcfPlayer:
    """A ``#PIN`` of the player list: the number the results use, the name, the ECF code
    (None: a player new to the ECF, who needs the club's ``CLUB CODE``) and the FIDE id."""

    pin: int
    name: str
    ecf_code: str | None
    club_code: str | None = None
    fide_no: str | None = None


@dataclass(frozen=True)
class EcfGame:
    """A game of a result part: PIN1 against PIN2, the score (``10``, ``01``, ``55``), PIN1's
    colour, the round and the date played."""

    pin1: int
    pin2: int
    score: str
    colour: str | None
    round: int | None
    played: date | None


@dataclass(frozen=True)
class Section:
    """``#SECTION RESULTS=name``: a tournament's games."""

    name: str
    games: tuple[EcfGame, ...]


@dataclass(frozen=True)
class Submission:
    event: Event
    players: tuple[EcfPlayer, ...]
    sections: tuple[Section, ...]


def _day(d: date | None) -> str:
    return "" if d is None else d.strftime("%d/%m/%Y")


def _clean(text: str) -> str:
    """A value as a field can hold it: no ``#`` (it ends a field) and no newline."""
    return " ".join(text.replace("#", " ").split())


def dump(sub: Submission) -> str:
    """The file's text: one line per event detail, per player and per game."""
    e = sub.event
    lines = ["#EVENT DETAILS", f"#EVENT CODE={_clean(e.code)}", f"#SUBMISSION INDEX={e.index}",
             f"#EVENT NAME={_clean(e.name)}", f"#EVENT DATE={_day(e.start)}", f"#FINAL RESULT DATE={_day(e.end)}",
             f"#RESULTS OFFICER={_clean(e.officer)}",
             *(f"#RESULTS OFFICER ADDRESS={_clean(a)}" for a in e.officer_address or ("",)),
             f"#TREASURER={_clean(e.treasurer)}",
             *(f"#TREASURER ADDRESS={_clean(a)}" for a in e.treasurer_address or ("",))]
    if e.minutes is not None:
        lines.append(f"#MINUTES FOR GAME={e.minutes}")
    if e.seconds_per_move:
        lines.append(f"#SECONDS PER MOVE={e.seconds_per_move}")
    lines.append("#PLAYER LIST")
    for p in sub.players:
        fields = [f"#PIN={p.pin}", f"#NAME={_clean(p.name)}"]
        fields += [f"#ECF CODE={p.ecf_code}"] if p.ecf_code else []
        fields += [f"#CLUB CODE={_clean(p.club_code)}"] if p.club_code and not p.ecf_code else []
        fields += [f"#FIDE NO={p.fide_no}"] if p.fide_no else []
        lines.append("".join(fields))
    for s in sub.sections:
        lines.append(f"#SECTION RESULTS={_clean(s.name)}")
        for g in s.games:
            fields = [f"#PIN1={g.pin1}", f"#PIN2={g.pin2}", f"#SCORE={g.score}"]
            fields += [f"#COLOUR={g.colour.upper()}"] if g.colour else []
            fields += [f"#ROUND={g.round}"] if g.round is not None else []
            fields += [f"#GAME DATE={_day(g.played)}"] if g.played else []
            lines.append("".join(fields))
    lines.append("#FINISH#")
    return "\n".join(lines) + "\n"


# -- reading -------------------------------------------------------------------------------------


def fields(text: str) -> list[tuple[str, str | None]]:
    """The file's fields in order: the name (upper case, spaces removed, as the ECF compares
    names) and the value (None for a field without ``=``); empty ``##`` are skipped.

    >>> fields("#EVENT DETAILS\\n#event code = XY1#\\n#FINISH#")
    [('EVENTDETAILS', None), ('EVENTCODE', 'XY1'), ('FINISH', None)]
    """
    found: list[tuple[str, str | None]] = []
    for chunk in text.replace("\r", "").split("#")[1:]:
        chunk = chunk.replace("\n", "")
        if not chunk.strip():
            continue
        name, sep, value = chunk.partition("=")
        found.append(("".join(name.split()).upper(), value.strip() if sep else None))
    return found


def _parse_day(field: str, value: str | None) -> date | None:
    if not value:
        return None
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", value)
    try:
        if m:
            return date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
    except ValueError:
        pass
    raise FormatError("the ECF file's %(field)s cannot be %(value)s", field=field, value=repr(value))


def _number(field: str, value: str | None) -> int:
    if value is None or not value.strip().isdigit():
        raise FormatError("the ECF file's %(field)s cannot be %(value)s", field=field, value=repr(value))
    return int(value)


def _unexpected(name: str, expected: str) -> FormatError:
    return FormatError("the ECF file has %(what)s where %(expected)s is expected", what=name, expected=expected)


def parse(text: str) -> Submission:
    """Read a submission file written by :func:`dump` or by another program, as far as the
    fields keizer writes go (other player fields are skipped; other result parts are read as
    sections). Refuses (``FormatError``) a file out of order or with a date, number or score it
    cannot read."""
    items = fields(text)
    if not items or items[0][0] != "EVENTDETAILS":
        raise _unexpected(items[0][0] if items else "nothing", "EVENT DETAILS")
    event: dict[str, list[str]] = {}
    i = 1
    while i < len(items) and items[i][0] not in ("PLAYERLIST", "FINISH"):
        event.setdefault(items[i][0], []).append(items[i][1] or "")
        i += 1
    players: list[EcfPlayer] = []
    sections: list[Section] = []
    if i < len(items) and items[i][0] == "PLAYERLIST":
        i += 1
        while i < len(items) and items[i][0] == "PIN":
            pin = _number("PIN", items[i][1])
            own: dict[str, str] = {}
            i += 1
            while i < len(items) and items[i][0] not in ("PIN", "FINISH") and not items[i][0].endswith("RESULTS"):
                own[items[i][0]] = items[i][1] or ""
                i += 1
            players.append(EcfPlayer(pin, own.get("NAME", ""), own.get("ECFCODE") or None, own.get("CLUBCODE") or None,
                                     own.get("FIDENO") or None))
    while i < len(items) and items[i][0].endswith("RESULTS"):
        name = items[i][1] or ""
        games: list[EcfGame] = []
        i += 1
        while i < len(items) and items[i][0] == "PIN1":
            game: dict[str, str | None] = {"PIN1": items[i][1]}
            i += 1
            while i < len(items) and items[i][0] not in ("PIN1", "FINISH") and not items[i][0].endswith("RESULTS"):
                game[items[i][0]] = items[i][1]
                i += 1
            rnd = game.get("ROUND")
            games.append(EcfGame(_number("PIN1", game["PIN1"]), _number("PIN2", game.get("PIN2")),
                                 (game.get("SCORE") or "").strip(), (game.get("COLOUR") or "").lower() or None,
                                 None if rnd is None else _number("ROUND", rnd),
                                 _parse_day("GAME DATE", game.get("GAMEDATE"))))
        sections.append(Section(name, tuple(games)))
    if i >= len(items) or items[i][0] != "FINISH":
        raise _unexpected(items[i][0] if i < len(items) else "the end", "FINISH")

    def one(key: str) -> str:
        return (event.get(key) or [""])[0]

    minutes, spm = one("MINUTESFORGAME"), one("SECONDSPERMOVE")
    index = one("SUBMISSIONINDEX")
    return Submission(Event(one("EVENTCODE"), _number("SUBMISSION INDEX", index) if index else 0, one("EVENTNAME"),
                            _parse_day("EVENT DATE", one("EVENTDATE")),
                            _parse_day("FINAL RESULT DATE", one("FINALRESULTDATE")), one("RESULTSOFFICER"),
                            tuple(event.get("RESULTSOFFICERADDRESS", ())), one("TREASURER"),
                            tuple(event.get("TREASURERADDRESS", ())),
                            _number("MINUTES FOR GAME", minutes) if minutes else None,
                            _number("SECONDS PER MOVE", spm) if spm else None),
                      tuple(players), tuple(sections))


# -- the checks ----------------------------------------------------------------------------------


def check(sub: Submission) -> list[Refusal]:
    """What the sources establish a submission must have, each a refusal (empty: none found):
    every event detail and a time limit; a NAME and an ECF code of the right form, or a CLUB
    CODE, for every player; distinct PINs; games between two listed, different players with a
    score the ECF reads, a colour ``white`` or ``black``, and a date within the event's dates.

    >>> e = Event("", 1, "X", date(2026, 1, 8), date(2026, 1, 8), "O", ("a",), "T", ("b",), None)
    >>> [str(r) for r in check(Submission(e, (EcfPlayer(1, "A", "12345"),), ()))]
    ['the ECF file needs EVENT CODE', 'the ECF file needs MINUTES FOR GAME', "A's ECF code must be six digits and a check letter (A–H, J, K, L), not '12345'", 'the ECF file has no played game']
    """
    e = sub.event
    problems: list[Refusal] = []
    given = {"EVENT CODE": e.code, "SUBMISSION INDEX": str(e.index) if e.index > 0 else "", "EVENT NAME": e.name,
             "EVENT DATE": _day(e.start), "FINAL RESULT DATE": _day(e.end), "RESULTS OFFICER": e.officer,
             "RESULTS OFFICER ADDRESS": "".join(e.officer_address), "TREASURER": e.treasurer,
             "TREASURER ADDRESS": "".join(e.treasurer_address)}
    problems += [FormatError("the ECF file needs %(field)s", hint="ecf_details", field=f)
                 for f in REQUIRED if not given[f].strip()]
    if e.minutes is None or e.minutes <= 0:
        problems.append(FormatError("the ECF file needs %(field)s", hint="ecf_details", field="MINUTES FOR GAME"))
    if e.start and e.end and e.end < e.start:
        problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="FINAL RESULT DATE",
                                    value=_day(e.end)))
    pins: set[int] = set()
    for p in sub.players:
        if p.pin in pins or p.pin <= 0:
            problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="PIN", value=str(p.pin)))
        pins.add(p.pin)
        if not p.name.strip():
            problems.append(FormatError("the ECF file needs %(field)s", hint="ecf_details", field="NAME"))
        if p.ecf_code and not ECF_CODE.fullmatch(p.ecf_code):
            problems.append(FormatError("%(name)s's ECF code must be six digits and a check letter (A–H, J, K, L), "
                                        "not %(value)s", hint="ratings_set_id", name=p.name, value=repr(p.ecf_code),
                                        label=Words(("federation id",))))
        if not p.ecf_code and not (p.club_code or "").strip():
            problems.append(FormatError("%(name)s has neither an ECF code nor a CLUB CODE", hint="ecf_club_code",
                                        name=p.name))
    games = [g for s in sub.sections for g in s.games]
    if not games:
        problems.append(FormatError("the ECF file has no played game"))
    for g in games:
        for field, value in (("PIN1", g.pin1), ("PIN2", g.pin2)):
            if value not in pins:
                problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field=field,
                                            value=str(value)))
        if g.pin1 == g.pin2:
            problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="PIN2", value=str(g.pin2)))
        if g.score not in SCORES:
            problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="SCORE",
                                        value=repr(g.score)))
        if g.colour is not None and g.colour not in COLOURS:
            problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="COLOUR",
                                        value=repr(g.colour)))
        if g.played and e.start and e.end and not e.start <= g.played <= e.end:
            problems.append(FormatError("the ECF file's %(field)s cannot be %(value)s", field="GAME DATE",
                                        value=_day(g.played)))
    return problems
