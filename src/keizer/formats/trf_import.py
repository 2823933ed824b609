"""A FIDE TRF file read for ``keizer import``: the rounds played, and the round the club is in.

Other programs export a tournament in the state it is in, and a club switches over in the
middle of it.  Besides the complete rounds a file may hold:

* **entries for the round to pair**: after the last round with a game, a round whose only
  entries are byes and absences (``0000 - H``, ``Z``, ``F``, ``U``, ``-``).  As pairing
  programs read it (bbpPairings, JaVaFo, ``keizer trf pair``), a player with an entry there
  has it already and every other player is to be paired.  It becomes the open round: its
  entries as attendance, everybody else present, nothing paired yet;
* **a round paired and not finished**: the last round with games, some (or all) of them
  without a result (``   12 w  ``).  It becomes the open round with its pairing stored and
  the missing results to enter; a player with no entry there did not play it.

Either way the standing is the one after the rounds before it, as ``keizer standings``
gives it after the import (a round still to be played counts for nobody's tie-breaks).
Only the last round may be unfinished; entries beyond the open round are named and left
out.

>>> t = parse('''012 Club
... 001    1      Anna                              1850                             1.0          2 w 1  0000 - H
... 001    2      Bram                              1700                             0.0          1 b 0
... 001    3      Cor                               1600                             0.0
... 001    4      Dirk                              1500                             0.0''')
>>> t.played_rounds, t.open_round.number, dict(t.open_round.entries), t.open_round.unpaired
(1, 2, {1: <Code.HPB: 'H'>}, (2, 3, 4))
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Sequence

from keizer.formats.trf import Pairing, TrfError, entered, parse_pairings, text_of
from keizer.formats.trf_records import dates_off_columns
from keizer.model import Absence, Colour, Game, Result, Round, Season
from keizer.points import _ABSENCE, _result, season_of as played_season
from keizer.refusals import Message, Word
from keizer.tiebreaks.codes import TieBreakError
from keizer.tiebreaks.fields import player_field, team_field
from keizer.tiebreaks.model import Code, Match, Player, RoundResult, Tournament


@dataclass(frozen=True)
class OpenRound:
    """The round a file leaves open: to pair (no games) or paired with results to enter."""

    number: int
    #: (white, black, result or None) by start numbers, in the order of the white side's number.
    games: tuple[tuple[int, int, Result | None], ...] = ()
    #: Start number → the bye or absence entered for the round (H, Z, F, U, + or - without opponent).
    entries: Mapping[int, Code] = field(default_factory=dict)
    #: Players with no entry: to be paired (a round without games), or absent (a paired round).
    unpaired: tuple[int, ...] = ()
    #: A team file's line-ups of the round (record 300): team → its players in board order (0: empty board).
    lineups: Mapping[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def paired(self) -> bool:
        return bool(self.games)


@dataclass(frozen=True)
class ImportedTournament(Tournament):
    """The tournament after its complete rounds, the round it leaves open, and what the
    reading found to say (messages for the import's report)."""

    open_round: OpenRound | None = None
    notes: tuple[Message, ...] = ()
    #: Where the file's own totals disagree with its results (``declared_differences``).
    totals: tuple[Message, ...] = ()


def read(path: str | Path, individual: bool = False) -> ImportedTournament:
    """A TRF file read for importing (UTF-8 or Latin-1, as :func:`keizer.formats.trf.read`)."""
    return parse(text_of(path), individual)


def parse(text: str, individual: bool = False) -> ImportedTournament:
    """The tournament of a TRF text, its open round taken apart (see the module).

    ``individual``: the system to import as was chosen (``--system``), so a team file's
    team records are left out and its players' games are the tournament.
    """
    t, pending = parse_pairings(text)
    marks = dict(entered(text))
    notes = _unknown_records(text) + _team_notes(t, individual) + _rounds_notes(text, t)
    off = dates_off_columns(text)
    if off is not None:
        notes.append(Message("line %(n)s: the round dates are not in their columns (92-99, 102-109, …); read by "
                             "the fields the line holds: %(dates)s", n=off,
                             dates=", ".join(d or "-" for d in t.dates)))
    t, pending, dummy_notes = _without_dummies(t, pending, marks)
    notes += dummy_notes
    t, bye_notes = _forfeits_without_opponent(t)
    notes += bye_notes
    if individual and t.is_team:
        t = replace(t, teams=(), boards=0, tiebreaks=())  # a team file's tie-breaks are the teams'

    games_in = {r for p in t.players for r, res in enumerate(p.results, 1) if res.opponent is not None}
    games_in |= {x.round for x in pending}
    last = max(games_in, default=0)
    if pending:
        _check_pending(t, pending, last)
        number = last
    elif any(r >= last for rounds in marks.values() for r in rounds):
        number = last + 1
    else:
        return _imported(t, None, notes, declared_differences(t))
    opened = _open_round(t, pending, marks, number)
    if t.is_team:
        opened = replace(opened, lineups=_lineups(text, number))
        if any(len([m for m in lineup if m]) < t.boards for lineup in opened.lineups.values()):
            opened = replace(opened, games=())  # an empty board: the database keeps a match as its games
    ahead = sorted(n for n, rounds in marks.items() if any(r >= number for r in rounds))
    if t.is_team and not opened.paired:  # a team event pairs its next round itself ('team next')
        notes.append(Message("round %(round)s is not finished; a team event's unfinished round is not imported: "
                             "the event has the rounds before it", round=number))
    elif opened.paired:
        missing = sum(1 for g in opened.games if g[2] is None)
        notes.append(Message("round %(round)s is paired and not finished: %(missing)s of its %(games)s results "
                             "to enter", round=number, missing=missing, games=len(opened.games)))
    else:
        notes.append(Message("round %(round)s is the round to pair: %(entries)s players entered a bye or an "
                             "absence (%(codes)s), the %(count)s others are to be paired", round=number,
                             entries=len(opened.entries), count=len(opened.unpaired),
                             codes=", ".join(f"#{n} {c.value}" for n, c in sorted(opened.entries.items()))))
    if ahead:
        notes.append(Message("entries after round %(round)s (players %(players)s) are not imported: only the "
                             "round in progress is", round=number, players=", ".join(map(str, ahead))))
    cut = tuple(replace(p, results=p.results[:number - 1] + (RoundResult(Code.ZPB),) * (len(p.results) - number + 1))
                for p in t.players)
    played = replace(t, players=cut)
    if t.is_team:  # the open round's matches go with its games; its byes (240, 320) stay
        played = replace(played, teams=tuple(
            replace(team, matches=tuple(Match(Code.ZPB) if r >= number - 1 and m.opponent is not None else m
                                        for r, m in enumerate(team.matches)))
            for team in t.teams))
    # the file's totals may be after the rounds played or count the open round's entries
    return _imported(played, opened, notes, declared_differences(played, t))


#: Names other programs give the entry that stands for the bye (compared without case, spaces or marks).
DUMMY_NAMES = frozenset({"bye", "spielfrei", "freilos", "vrij", "pab"})
_LOST = (Code.LOSS, Code.FORFEIT_LOSS, Code.QUICK_LOSS)


def is_dummy(p: Player) -> bool:
    """An entry standing for the bye, as some programs pair it: named so (``spielfrei``,
    ``BYE``, ``Freilos``, ``vrij``), without a rating, and every game of it lost (its
    opponent's bye) — a player who scored anything is a player."""
    name = "".join(ch for ch in p.name.lower() if ch.isalpha())
    return (name in DUMMY_NAMES and not p.rating
            and all(res.opponent is None or res.code in _LOST for res in p.results))


def _without_dummies(t: Tournament, pending: tuple[Pairing, ...], marks: dict[int, frozenset[int]]
                     ) -> tuple[Tournament, tuple[Pairing, ...], list[Message]]:
    """The tournament without its dummy entries, each game against one the opponent's
    pairing-allocated bye (``U``); a pairing with one in the open round is that bye too."""
    dummies = {p.start_no: p for p in t.players if is_dummy(p)}
    if not dummies or t.is_team:
        return t, pending, []
    notes = []
    for n, p in sorted(dummies.items()):
        games = sum(1 for res in p.results if res.opponent is not None)
        games += sum(1 for x in pending if x.player == n)
        notes.append(Message("%(name)s (#%(n)s) stands for the bye, not a player: left out, its %(count)s games "
                             "are its opponents' byes (U)", name=p.name, n=n, count=games) if games else
                     Message("%(name)s (#%(n)s) stands for the bye, not a player: left out", name=p.name, n=n))
    byes = {(x.player, x.round) for x in pending if x.opponent in dummies}
    players = []
    for p in t.players:
        if p.start_no in dummies:
            marks.pop(p.start_no, None)
            continue
        results = tuple(RoundResult(Code.PAB) if res.opponent in dummies or (p.start_no, r) in byes else res
                        for r, res in enumerate(p.results, 1))
        players.append(replace(p, results=results))
    kept = tuple(x for x in pending if x.player not in dummies and x.opponent not in dummies)
    return replace(t, players=tuple(players)), kept, notes


def _forfeits_without_opponent(t: Tournament) -> tuple[Tournament, list[Message]]:
    """A forfeit without an opponent is no forfeit (nobody was paired): ``-`` is an absence,
    a zero-point bye (``Z``), as lichess writes a round a player sat out; ``+`` the bye
    (``U``), as older programs wrote it.  The import stores them so (an unexcused absence,
    the bye), and the standing of the file is ranked so too; each kind is said once."""
    if t.is_team:
        return t, []
    into = {Code.FORFEIT_LOSS: Code.ZPB, Code.FORFEIT_WIN: Code.PAB}
    found = {Code.FORFEIT_LOSS: 0, Code.FORFEIT_WIN: 0}
    players = []
    for p in t.players:
        results = []
        for res in p.results:
            if res.opponent is None and res.code in into:
                found[res.code] += 1
                res = RoundResult(into[res.code])
            results.append(res)
        players.append(replace(p, results=tuple(results)) if found else p)
    notes = []
    if found[Code.FORFEIT_LOSS]:
        notes.append(Message("%(count)s rounds '-' without an opponent (a round sat out) are read as zero-point "
                             "byes (Z)", count=found[Code.FORFEIT_LOSS]))
    if found[Code.FORFEIT_WIN]:
        notes.append(Message("%(count)s rounds '+' without an opponent are read as the pairing-allocated bye (U)",
                             count=found[Code.FORFEIT_WIN]))
    return (replace(t, players=tuple(players)) if notes else t), notes


def _team_notes(t: Tournament, individual: bool) -> list[Message]:
    """Why team records (013, 310) do not make a team event, when they do not."""
    records = sum(1 for x in t.info if x[:3] in ("013", "310"))
    if individual and t.is_team:
        return [Message("the file's team records (%(count)s) and its tie-break list are left out: it is imported "
                        "as an individual tournament, as chosen", count=len(t.teams))]
    if not records:
        return []
    if any(x[:3] == "092" and x[4:].strip().upper().startswith("INDIVIDUAL") for x in t.info):
        return [Message("the file's team records (%(count)s) are left out: record 092 says the tournament is "
                        "individual", count=records)]
    return [Message("the file's team records (%(count)s) are left out: they do not put every player who played "
                    "in one of two or more teams", count=records)]


def _imported(t: Tournament, opened: OpenRound | None, notes: list[Message],
              totals: list[Message]) -> ImportedTournament:
    values = {f.name: getattr(t, f.name) for f in fields(Tournament)}
    return ImportedTournament(**values, open_round=opened, notes=tuple(notes), totals=tuple(totals))


def declared_differences(t: Tournament, also: Tournament | None = None) -> list[Message]:
    """Where the file's own totals (001 points, 310 match and game points) disagree with its
    results (a missing scoring record, a typo); a total that agrees with ``also`` (the file
    with its open round) agrees too."""
    if t.is_team:
        try:
            mp = team_field(t, "MP").scores
            gp = team_field(t, "GP").scores if t.boards else {}
        except TieBreakError:  # matches the standings cannot score say so there
            return []
        off = [team.number for team in t.teams
               if team.points is not None and team.points != mp[team.number]
               or team.game_points is not None and gp and team.game_points != gp[team.number]]
        one, many = Word("teams"), Word("teams")
    else:
        scores = player_field(t).scores
        other = player_field(also).scores if also is not None else scores
        off = [p.start_no for p in t.players
               if p.points is not None and p.points != scores[p.start_no] and p.points != other.get(p.start_no)]
        one, many = Word("player"), Word("players")
    if not off:
        return []
    shown = ", ".join(map(str, off[:10])) + (", …" if len(off) > 10 else "")
    if t.is_team and len(off) == 1:  # the word 'team' of the catalog is the system
        return [Message("the file's totals differ from its results for 1 team (%(shown)s); the standings use the "
                        "results", shown=shown)]
    return [Message("the file's totals differ from its results for %(count)s %(what)s (%(shown)s); the standings "
                    "use the results", count=len(off), what=one if len(off) == 1 else many, shown=shown)]


#: Record codes of TRF16 and TRF-2026 (FIDE C.04 Annex 2, and the TEC's TRF-2026 sample's 260 and 299).
KNOWN_RECORDS = frozenset({"001", "012", "013", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112",
                           "122", "132", "142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250",
                           "260", "299", "300", "310", "320", "330", "342", "352", "362", "801", "802"})


def _unknown_records(text: str) -> list[Message]:
    """Numbered lines that are no TRF record (``101`` for ``001``): kept as they are by the
    reading, so nothing of them is imported; each is named."""
    out = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        code = raw[:3]
        if code.isdigit() and raw[3:4] in (" ", "") and code not in KNOWN_RECORDS:  # not a ruler '1234567890'
            out.append(Message("line %(n)s: record %(code)s is not a record keizer knows; nothing of it is imported",
                               n=number, code=code))
    return out


def _rounds_notes(text: str, t: Tournament) -> list[Message]:
    """Record 142 (or XXR) planning fewer rounds than the file holds."""
    planned = [raw[4:].strip() for raw in text.lstrip("\ufeff").splitlines() if raw[:3].upper() in ("142", "XXR")]
    numbers = [int(x) for x in planned if x.isdigit()]
    held = t.played_rounds
    if numbers and max(numbers) < held:
        return [Message("the file plans %(planned)s rounds (record 142 or XXR) and holds %(held)s: all %(held)s are "
                        "imported", planned=max(numbers), held=held)]
    return []


def _lineups(text: str, number: int) -> dict[int, tuple[int, ...]]:
    """Record 300 of round ``number``: each team's players in board order (the reading has
    checked the records already)."""
    out = {}
    for raw in text.lstrip("\ufeff").splitlines():
        fields = raw[4:].split() if raw[:3] == "300" else []
        if len(fields) >= 3 and all(x.isdigit() for x in fields) and int(fields[0]) == number:
            out[int(fields[1])] = tuple(int(x) for x in fields[3:])
    return out


def _check_pending(t: Tournament, pending: tuple[Pairing, ...], last: int) -> None:
    """Games without a result only in the last round with games, each named from both sides."""
    mine = {(x.round, x.player): x for x in pending}
    for x in pending:
        if x.round != last:
            raise _error(x, 92 + 10 * (x.round - 1), 99 + 10 * (x.round - 1), Message(
                "round %(round)s: a game without a result before round %(last)s; only the last round may be "
                "unfinished", round=x.round, last=last))
        back = mine.get((x.round, x.opponent))
        first = 92 + 10 * (x.round - 1)
        if not any(p.start_no == x.opponent for p in t.players):
            raise _error(x, first, first + 3, Message("round %(round)s: opponent %(n)s has no 001 line",
                                                      round=x.round, n=x.opponent))
        if back is None or back.opponent != x.player:
            raise _error(x, first, first + 3, Message(
                "round %(round)s: player %(n)s does not name %(me)s back", round=x.round, n=x.opponent, me=x.player))
        if x.colour is not None and x.colour == back.colour:
            raise _error(x, first + 5, first + 5, Message(
                "round %(round)s: player %(n)s (line %(line)s) has the same colour", round=x.round, n=x.opponent,
                line=back.line))


def _error(x: Pairing, first: int, last: int, why: Message) -> TrfError:
    where = Message("columns %(first)s-%(last)s", first=first, last=last) if first != last else Message(
        "column %(n)s", n=first)
    return TrfError("line %(n)s, %(where)s: %(why)s", n=x.line, where=where, why=why)


def _open_round(t: Tournament, pending: tuple[Pairing, ...], marks: Mapping[int, frozenset[int]],
                number: int) -> OpenRound:
    r = number - 1
    colour = {(x.player): x.colour for x in pending if x.round == number}
    opponent = {x.player: x.opponent for x in pending if x.round == number}
    games: list[tuple[int, int, Result | None]] = []
    entries: dict[int, Code] = {}
    unpaired: list[int] = []
    for p in sorted(t.players, key=lambda p: p.start_no):
        res = p.results[r] if r < len(p.results) else RoundResult(Code.ZPB)
        if res.opponent is not None or p.start_no in opponent:
            other = res.opponent if res.opponent is not None else opponent[p.start_no]
            mine = res.colour if res.opponent is not None else colour[p.start_no]
            white = mine is Colour.WHITE or (mine is None and p.start_no < other)
            if white:
                theirs = t.player(other).results[r].code
                games.append((p.start_no, other, _result(res.code, theirs) if res.opponent is not None else None))
        elif r in marks.get(p.start_no, ()):
            entries[p.start_no] = res.code
        else:
            unpaired.append(p.start_no)
    return OpenRound(number, tuple(games), entries, tuple(unpaired))


def season_of(t: Tournament) -> Season:
    """:func:`keizer.points.season_of`, with the open round of an :class:`ImportedTournament`:
    its games (results where the file has them), its entries as the season's absences, and
    the players to pair present."""
    base = played_season(t)
    opened = t.open_round if isinstance(t, ImportedTournament) else None
    if opened is None:
        return base
    games = tuple(Game(opened.number, k, str(w), str(b), result) for k, (w, b, result) in enumerate(opened.games, 1))
    absent = {str(n): _ABSENCE.get(code, Absence.UNEXCUSED) for n, code in opened.entries.items()}
    present: tuple[str, ...] = ()
    if opened.paired:
        absent |= {str(n): Absence.UNEXCUSED for n in opened.unpaired}
    else:
        present = tuple(str(n) for n in opened.unpaired)
    rounds = list(base.rounds[:opened.number - 1])
    rounds += [Round(n) for n in range(len(rounds) + 1, opened.number)]  # rounds nobody played, if any
    date = t.dates[opened.number - 1] if opened.number <= len(t.dates) else None
    rounds.append(Round(opened.number, date, games, dict(sorted(absent.items(), key=lambda x: int(x[0]))), {},
                        present))
    return replace(base, rounds=tuple(rounds))


def notes_of(t: Tournament, totals: bool = True) -> tuple[Message, ...]:
    """What reading the file found to say (nothing for a plain :class:`Tournament`), with
    the totals that differ from the results unless not ``totals``."""
    if not isinstance(t, ImportedTournament):
        return ()
    return t.notes + t.totals if totals else t.notes



# -- the organiser's tie-breaks and ranks ---------------------------------------------

#: Swiss-Manager's short names of its tie-breaks (the column heads of chess-results' standings,
#: its catalogue numbers 3, 34/4, 37/84, 52/85, 11, 12/68, 10/80, 60, 87/45, 1) → FIDE's codes.
SWISS_MANAGER = {"BH.": "BH", "BH": "BH", "BH1.": "BH/C1", "BH1": "BH/C1", "BHM.": "BH/M1", "BHM": "BH/M1",
                 "SB.": "SB", "RES.": "DE", "VICT": "WIN", "RTGØ": "ARO", "RATØ": "ARO", "RP": "TPR", "RATP": "TPR",
                 "KOYA": "KS", "PTS.": "PTS", "WE": "WON"}


#: A team event's tie-breaks do not rank individuals, nor the other way round.
_OTHER_SIDE = {False: "team", True: "individual"}


@dataclass(frozen=True)
class TieBreakList:
    """The tie-break list a file states, as keizer takes it over."""

    #: The codes taken over (FIDE's, as record 202 writes them), in the file's order.
    codes: tuple[str, ...]
    #: (as written, FIDE's code) for names read as Swiss-Manager names them.
    renamed: tuple[tuple[str, str], ...] = ()
    #: (as written, why) for each one keizer has no equivalent for.
    dropped: tuple[tuple[str, str], ...] = ()


def tiebreak_list(t: Tournament) -> TieBreakList:
    """The file's tie-break list (record 202) as keizer ranks by it: FIDE's codes as they
    are, Swiss-Manager's short names (``BH1.``, ``Res.``, ``vict``) as their FIDE codes,
    and the ones keizer has no equivalent for (an unknown name, a team tie-break in an
    individual event) left out and named.

    >>> from keizer.tiebreaks.model import Tournament
    >>> tiebreak_list(Tournament((), 0, tiebreaks=("BH1.", "Res.", "SB", "XYZ", "EDET/P")))
    ... # doctest: +NORMALIZE_WHITESPACE
    TieBreakList(codes=('BH/C1', 'DE', 'SB'), renamed=(('BH1.', 'BH/C1'), ('Res.', 'DE')),
                 dropped=(('XYZ', 'unknown'), ('EDET/P', 'team')))
    """
    from keizer.tiebreaks.codes import parse as parse_code

    codes: list[str] = []
    renamed: list[tuple[str, str]] = []
    dropped: list[tuple[str, str]] = []
    for raw in t.tiebreaks:
        code = SWISS_MANAGER.get(raw.strip().upper(), raw.strip())
        try:
            tb = parse_code(code)
        except TieBreakError:
            dropped.append((raw, "unknown"))
            continue
        wrong = _OTHER_SIDE[t.is_team]
        if tb.kind.where == wrong:
            dropped.append((raw, wrong))
            continue
        if code != raw.strip():
            renamed.append((raw, tb.text))
        if tb.text not in codes:
            codes.append(tb.text)
    return TieBreakList(tuple(codes), tuple(renamed), tuple(dropped))


@dataclass(frozen=True)
class RankDifference:
    """A player whom keizer's standing ranks otherwise than the file (record 001's rank)."""

    start_no: int
    name: str
    ours: int
    theirs: int
    #: Why: "points" (the file's total differs from its results), "shared" (the file gives
    #: its rank to several players), "equal" (equal on points and every tie-break here:
    #: the file broke the tie by something else), "tiebreak" (tied on points, a tie-break
    #: of the list orders them otherwise: ``code``, ``mine`` against ``other``'s ``theirs``),
    #: "order" (the file orders the players of these points otherwise).
    why: str
    points: Fraction
    declared: Fraction | None = None
    code: str | None = None
    mine: Fraction | None = None
    other: int | None = None
    other_name: str | None = None
    other_value: Fraction | None = None


def rank_differences(t: Tournament, rows: Sequence[Mapping[str, Any]]) -> tuple[RankDifference, ...]:
    """Each player whose rank in ``rows`` (keizer's standing: ``id`` the start number as
    text, ``rank``, ``points``, ``tiebreaks`` code → value in the list's order) differs
    from the rank the file states for him, and why.  A file without ranks, or without a
    round played, has nothing to compare."""
    stated = {p.start_no: p.rank for p in t.players if p.rank}
    if not stated or not any(res.opponent is not None for p in t.players for res in p.results):
        return ()
    holders: dict[int, list[int]] = {}
    for n, rank in stated.items():
        holders.setdefault(rank, []).append(n)
    ours = {int(r["id"]): r for r in rows}
    sharing: dict[int, int] = {}
    for r in rows:
        sharing[r["rank"]] = sharing.get(r["rank"], 0) + 1
    out = []
    for r in rows:
        n = int(r["id"])
        theirs = stated.get(n)
        if theirs is None or theirs == r["rank"]:
            continue
        p = t.player(n)
        base = dict(start_no=n, name=p.name, ours=r["rank"], theirs=theirs, points=Fraction(r["points"]))
        if p.points is not None and p.points != r["points"]:
            out.append(RankDifference(**base, why="points", declared=p.points))
            continue
        if len(holders[theirs]) > 1:
            out.append(RankDifference(**base, why="shared"))
            continue
        if sharing[r["rank"]] > 1:
            out.append(RankDifference(**base, why="equal"))
            continue
        placed = holders.get(r["rank"], [])
        q = ours.get(placed[0]) if len(placed) == 1 else None
        if q is not None and q["points"] == r["points"]:
            for code, value in r["tiebreaks"].items():
                theirs_value = q["tiebreaks"].get(code)
                if value != theirs_value:
                    out.append(RankDifference(**base, why="tiebreak", code=code,
                                              mine=value, other=placed[0], other_name=t.player(placed[0]).name,
                                              other_value=theirs_value))
                    break
            else:
                out.append(RankDifference(**base, why="order"))
            continue
        out.append(RankDifference(**base, why="order"))
    return tuple(out)


def ranks_are_start_numbers(t: Tournament) -> bool:
    """Whether the file's rank column repeats the start numbers (some programs write it so)
    instead of a standing: every rank the start number, and not in the order of the totals."""
    ranked = sorted((p for p in t.players if p.rank), key=lambda p: p.rank or 0)
    by_points = all(a.points is None or b.points is None or a.points >= b.points for a, b in zip(ranked, ranked[1:]))
    return bool(ranked) and not by_points and all(p.rank == p.start_no for p in ranked)


def ties_by_start_number(t: Tournament) -> bool:
    """Whether the file's ranks put the players of equal points (its own totals) in the order
    of their start numbers, as a program does that ranks by points alone; only when some
    players are tied."""
    ranked = sorted((p for p in t.players if p.rank and p.points is not None), key=lambda p: p.rank or 0)
    pairs = [(a, b) for a, b in zip(ranked, ranked[1:]) if a.points == b.points]
    return bool(pairs) and all(a.start_no < b.start_no for a, b in pairs)
