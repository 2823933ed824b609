"""A FIDE TRF tournament as a Keizer season (``keizer import x.trf --system keizer``).

Games and forfeits carry over as they are.  TRF's rounds without a game have no exact
Keizer equivalent; each becomes the nearest absence and is listed (one line per player,
naming the rounds), so the officer can check it and mark it otherwise with ``keizer attend --round N``:

* ``U`` (pairing-allocated bye), or ``+`` with no opponent (how older programs wrote it):
  the round's ``bye``;
* ``H`` (half-point bye, requested): ``excused``;
* ``F`` (full-point bye, given by the organiser): ``club``, the full-value absence that is
  not the pairing's odd-number bye;
* ``Z`` (zero-point bye, or a round the player's line stops before) and ``-`` with no
  opponent: ``unexcused``.

A file written by ``keizer export --format trf`` (record 092 names a Keizer competition)
wrote ``U`` for the bye and ``H`` for an excused absence and nothing else, so those come
back exactly and only its ``Z`` rounds are listed: they were an unexcused absence, club
duty, an external game, or a round before the player joined or after they withdrew.

>>> from keizer.formats.trf import parse
>>> t = parse('''012 Club
... 001    1      Anna                              1850                             1.0          2 w 1  0000 - H
... 001    2      Bram                              1700                             0.0          1 b 0  0000 - U''')
>>> imp = keizer_season(t, Settings())
>>> [dict(r.absent) for r in imp.season.rounds][1]
{'1': <Absence.EXCUSED: 'excused'>, '2': <Absence.BYE: 'bye'>}
>>> imp.notes
('Anna (#1): round 2 H (half-point bye) → excused', 'Bram (#2): round 2 U (pairing-allocated bye) → bye')

The rounds to check are listed one line per player, with every round of one kind together
(``Cor (#3): rounds 3, 5 Z (zero-point bye or no entry) → unexcused; round 4 H …``).

A game whose colours the file leaves open (``-`` on both sides: TRF allows it for a
forfeit, whose colours nobody knows or needs) is kept as paired, with the lower start
number written first, and named in the notes rather than given a colour silently; when
one side has a colour, :func:`keizer.formats.trf.parse` gives the other the opposite.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from keizer.formats.trf_import import ImportedTournament, notes_of, season_of
from keizer.model import Absence, Season
from keizer.settings import Settings
from keizer.tiebreaks.model import Code, Tournament

#: Record 092 as ``keizer export --format trf`` writes it for a Keizer competition.
KEIZER_092 = "Individual: Keizer"

#: A TRF round without a game → the Keizer absence it becomes, and how TRF names the code.
_MAPPED = {
    Code.PAB: (Absence.BYE, "U (pairing-allocated bye)"),
    Code.FORFEIT_WIN: (Absence.BYE, "+ without an opponent (a bye)"),
    Code.HPB: (Absence.EXCUSED, "H (half-point bye)"),
    Code.FPB: (Absence.CLUB, "F (full-point bye)"),
    Code.ZPB: (Absence.UNEXCUSED, "Z (zero-point bye or no entry)"),
    Code.FORFEIT_LOSS: (Absence.UNEXCUSED, "- without an opponent"),
}
#: A FIDE id: digits only, as the rating list has them.
_FIDE_ID = re.compile(r"[1-9][0-9]{0,10}")


@dataclass(frozen=True)
class TrfSeason:
    season: Season
    #: Player id → the FIDE id the file gives (valid ones only), for the member's federation id.
    fide_ids: dict[str, str]
    #: One line per round the season cannot hold exactly, and per value left out.
    notes: tuple[str, ...]
    from_keizer: bool


def is_keizer_export(t: Tournament) -> bool:
    """Whether keizer itself wrote the file from a Keizer competition (its record 092)."""
    return any(line[:3] == "092" and line[4:].strip().startswith(KEIZER_092) for line in t.info)


def keizer_season(t: Tournament, settings: Settings, name: str | None = None) -> TrfSeason:
    """The rounds of ``t`` as a Keizer season scored with ``settings`` (players keyed by start number)."""
    base = season_of(t)  # games, forfeits and dates; its absences are replaced below
    opened = t.open_round if isinstance(t, ImportedTournament) else None
    own = is_keizer_export(t)
    names = {p.id: f"{p.name} (#{p.start_no})" for p in base.players}
    inexact: dict[str, list[tuple[int, str, Absence]]] = {}  # player → (round, TRF code, mark) to check
    rounds = []
    for rnd in base.rounds:
        absent: dict[str, Absence] = {}
        for p in sorted(t.players, key=lambda p: p.start_no):
            pid = str(p.start_no)
            if pid not in rnd.absent:
                continue
            if opened is not None and rnd.number == opened.number:  # the open round's entries
                code = opened.entries.get(p.start_no, Code.ZPB)
            else:
                code = p.results[rnd.number - 1].code if rnd.number <= len(p.results) else Code.ZPB
            became, what = _MAPPED.get(code, (Absence.UNEXCUSED, code.value))
            absent[pid] = became
            if not own or code is Code.ZPB:
                inexact.setdefault(pid, []).append((rnd.number, what, became))
        rounds.append(replace(rnd, absent=absent))
    hint = " (or club duty, an external game, not yet joined, withdrawn)" if own else ""
    notes = [f"{names[pid]}: {_rounds_line(marks)}{hint}"
             for pid, marks in sorted(inexact.items(), key=lambda item: int(item[0]))]
    notes.extend(_colourless(t, base, names))
    notes.extend(map(str, notes_of(t)))
    fide_ids = {}
    for p in t.players:
        if p.fide_id and _FIDE_ID.fullmatch(p.fide_id):
            fide_ids[str(p.start_no)] = p.fide_id
        elif p.fide_id and p.fide_id.strip("0"):
            notes.append(f"{names[str(p.start_no)]}: FIDE id {p.fide_id!r} is not a number; not stored")
    season = Season(name or base.name, settings, base.players, tuple(rounds))
    return TrfSeason(season, fide_ids, tuple(notes), own)


def _rounds_line(marks: list[tuple[int, str, Absence]]) -> str:
    """One player's rounds to check, the rounds of one TRF code together, in round order:
    ``rounds 3, 5 Z (…) → unexcused; round 4 H (half-point bye) → excused``."""
    groups: dict[tuple[str, Absence], list[int]] = {}
    for number, what, became in marks:
        groups.setdefault((what, became), []).append(number)
    parts = []
    for (what, became), numbers in groups.items():
        label = "round" if len(numbers) == 1 else "rounds"
        parts.append(f"{label} {', '.join(map(str, numbers))} {what} → {became.value}")
    return "; ".join(parts)


def _colourless(t: Tournament, base: Season, names: dict[str, str]) -> list[str]:
    """A note for each game whose colours the file leaves open (``-`` on both sides, as
    TRF allows for a forfeit).  The game is kept, written with the lower start number
    first (as White), and named: the file does not say who had White.  A forfeit counts
    for nobody's colours; a played game does, so its note asks to check it."""
    by_no = {p.start_no: p for p in t.players}
    notes = []
    for rnd in base.rounds:
        for g in rnd.games:
            white = by_no[int(g.white)].results[rnd.number - 1]
            black = by_no[int(g.black)].results[rnd.number - 1]
            if white.opponent is None:  # the open round's pairing: its colours are the file's
                continue
            if white.colour is not None or black.colour is not None:
                continue
            if g.is_forfeit:
                what = (f"forfeit {white.code.value}/{black.code.value} without colours in the file ('-'): "
                        f"kept as paired, {names[g.white]} listed first; a forfeit counts for nobody's colours")
            else:
                what = (f"game without colours in the file ('-'): kept, {names[g.white]} taken as White; "
                        "check it, colours count for the pairing")
            notes.append(f"round {rnd.number}, {names[g.white]} – {names[g.black]}: {what}")
    return notes
