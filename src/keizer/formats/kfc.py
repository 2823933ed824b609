"""KeizerForClubs (KFC) tournament databases (``*.s3db``) read into our season model.

KFC keeps one SQLite file per tournament with three tables that matter (facts from
KFC's public repository, Dumuzy/KeizerForClubs, read for its file format only):

* ``Player(id, name, rating, rank, state, Keizer_StartPts, Keizer_SumPts, …,
  Keizer_PrevPts, Categories)`` — state 9 is *retired* (withdrawn), 10 deleted,
  12 preregistered; ``rank``/``Keizer_*`` hold the last recalculation: rank, value
  for the next round, total, and the value that priced the total ("Rank-Pb").
* ``Pairing(Rnd, board, PID_W, PID_B, Result, Pts_W, Pts_B)`` — a board game, or a
  row of one player (``PID_B = -1``, board ≥ 100) for a round without a game.
  Results: 1 1-0, 2 ½-½, 3 0-1, 8 1-0 forfeit, 9 0-1 forfeit, 10 double forfeit,
  11 adjourned (scored as a draw); 4 bye, 5 club duty, 6 excused, 7 unexcused,
  12 late start (rounds before a late entrant joined); -1/0 no result yet.
* ``ConfigTab(CfgKey, CfgText, CfgValue)`` — the scoring options (``BONUS.*`` in
  percent, ``OPTION.*``), plus window layout and export switches.
* ``tStand_<r>`` (optional) — the standing KFC printed after round r, cached.

:func:`read` turns a file into a :class:`KfcImport`: the season with its settings,
one line per option mapped and per thing without an equivalent, and the numbers KFC
stored, which :func:`compare` checks against our own standings.  Apart from reading
the file (read-only, never modified) everything here is pure.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from keizer.formats.members_csv import MemberRow
from keizer.formats.errors import FormatError
from keizer.limits import is_digits
from keizer.model import Absence, Game, Player, Result, Round, Season
from keizer.refusals import Word
from keizer.settings import Settings, SettingsError

#: The columns of KFC's tables that the import needs.
_NEEDED = {
    "Player": {"id", "name", "rating", "state"},
    "Pairing": {"Rnd", "board", "PID_W", "PID_B", "Result"},
    "ConfigTab": {"CfgKey", "CfgText", "CfgValue"},
}
RETIRED, DELETED = 9, 10
_GAME_RESULTS = {
    1: Result.WHITE_WIN, 2: Result.DRAW, 3: Result.BLACK_WIN, 8: Result.WHITE_FORFEIT_WIN,
    9: Result.BLACK_FORFEIT_WIN, 10: Result.DOUBLE_FORFEIT, 11: Result.DRAW,
}
ADJOURNED, LATE_START = 11, 12
_ABSENCES = {4: Absence.BYE, 5: Absence.CLUB, 6: Absence.EXCUSED, 7: Absence.UNEXCUSED}
_PENDING = (None, -1, 0)
#: KFC's percentages and where they go; the defaults are those of KFC's shipped configuration.
_BONUSES = (
    ("BONUS.Excused", "excused", 35, "absence with notice, % of own value"),
    ("BONUS.Unexcused", "unexcused", 5, "absence without notice, % of own value; also KFC's late start"),
    ("BONUS.Clubgame", "club", 70, "club duty, % of own value"),
    ("BONUS.Freilos", "bye", 50, "bye, % of own value"),
    ("BONUS.Verlust", "loss", 0, "loss, % of the winner's value"),
    ("BONUS.Retired", "withdrawn_opponent", 75, "game against a withdrawn player, % of own value"),
)
_DISPLAY_ONLY = {
    "OPTION.Html": "export switch (keizer publish writes the HTML site)",
    "OPTION.Xml": "export switch", "OPTION.Txt": "export switch", "OPTION.Csv": "export switch",
    "OPTION.ShowOnlyPlayed": "display option", "OPTION.ShowPerformance": "display option",
    "OPTION.NiceName": "used as the competition's name", "LANGCODE": "KFC's interface language",
    "TournamentFile": "KFC's own bookkeeping",
}


@dataclass(frozen=True)
class Stored:
    """What KFC stored from its last recalculation, by our player id."""

    totals: dict[str, float]  # Keizer_SumPts of every player still on the ladder
    ranks: dict[str, int]
    values: dict[str, float]  # Keizer_StartPts: the value for the next round
    values_before: dict[str, float]  # Keizer_PrevPts: the value that priced the total
    points: dict[tuple[int, str], float]  # (round, player) → Pts_W/Pts_B
    tables: dict[int, dict[str, float]] = field(default_factory=dict)  # tStand_<r>: totals


@dataclass(frozen=True)
class KfcImport:
    season: Season
    mapped: tuple[str, ...]  # one line per option: KFC's name and value → our setting
    unmapped: tuple[str, ...]  # one line per thing without an equivalent
    stored: Stored
    games: int
    absences: int


#: Why a file whose text is not UTF-8 (SQLite's encoding) is refused.
_NOT_UTF8 = Word("text that is not UTF-8: the file is damaged")


def looks_like_kfc(data: bytes, path: Path) -> bool:
    """Whether a file is to be read as a KeizerForClubs database: an SQLite file (by its
    content, whatever its name) or a ``.s3db`` (so that a broken one is refused as such)."""
    return data.startswith(b"SQLite format 3\x00") or path.suffix.lower() == ".s3db"


def read(path: Path) -> KfcImport:
    """The tournament in a KFC database; a file that is not one is refused in one line."""
    with _KfcFile(path) as conn:
        try:
            return _read(conn, path)
        except sqlite3.DatabaseError as e:
            raise FormatError("%(file)s: cannot read it as a KeizerForClubs database (%(why)s)", file=path.name,
                              why=str(e)) from None
        except UnicodeDecodeError:
            raise FormatError("%(file)s: cannot read it as a KeizerForClubs database (%(why)s)", file=path.name,
                              why=_NOT_UTF8) from None
        except (ValueError, TypeError) as e:  # text where KFC writes numbers: not KFC's own writing
            raise FormatError("%(file)s: a value is not what KeizerForClubs writes (%(why)s)", file=path.name,
                              why=str(e)) from None


def member_rows(path: Path) -> list[MemberRow]:
    """A KFC database's players (names and ratings) as a member list: KFC has no list of
    members of its own; a club keeps them as players of a tournament file (or as the CSV
    KFC imports, which 'keizer member import' reads as it is)."""
    with _KfcFile(path) as conn:
        try:
            rows = conn.execute("SELECT id, name, rating FROM Player WHERE state IS NOT ? ORDER BY id",
                                (DELETED,)).fetchall()
        except sqlite3.DatabaseError as e:
            raise FormatError("%(file)s: cannot read it as a KeizerForClubs database (%(why)s)", file=path.name,
                              why=str(e)) from None
        except UnicodeDecodeError:
            raise FormatError("%(file)s: cannot read it as a KeizerForClubs database (%(why)s)", file=path.name,
                              why=_NOT_UTF8) from None
    try:
        ratings = [int(rating) if rating else None for _, _, rating in rows]
    except (ValueError, TypeError, OverflowError) as e:  # OverflowError: a REAL of infinity
        raise FormatError("%(file)s: a rating is not a number (%(why)s)", file=path.name, why=str(e)) from None
    return [MemberRow(line=k, name=str(name).strip(), rating=rating, fed_id=None)
            for k, ((_, name, _), rating) in enumerate(zip(rows, ratings), 1)]


class _KfcFile:
    """A read-only connection (immutable: SQLite writes no journal beside the file) to a
    file checked to hold KFC's tables."""

    def __init__(self, path: Path) -> None:
        self.path = path
        uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
        try:
            self.conn = sqlite3.connect(uri, uri=True)
            tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [t for t in _NEEDED if t not in tables]
            if missing:
                raise FormatError("%(file)s is not a KeizerForClubs database: it has no table %(tables)s",
                                  file=path.name, tables=", ".join(missing))
            for table, needed in _NEEDED.items():
                cols = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
                if not needed <= cols:
                    raise FormatError("%(file)s is not a KeizerForClubs database: table %(table)s has no column "
                                      "%(columns)s", file=path.name, table=table,
                                      columns=", ".join(sorted(needed - cols)))
        except sqlite3.DatabaseError as e:
            raise FormatError("%(file)s is not a readable KeizerForClubs database (%(why)s)", file=path.name,
                              why=str(e)) from None
        except UnicodeDecodeError:
            raise FormatError("%(file)s is not a readable KeizerForClubs database (%(why)s)", file=path.name,
                              why=_NOT_UTF8) from None

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


def _read(conn: sqlite3.Connection, path: Path) -> KfcImport:
    name_of = path.stem
    pcols = _columns(conn, "Player")
    extra = [c for c in ("rank", "Keizer_StartPts", "Keizer_SumPts", "Keizer_PrevPts", "Categories") if c in pcols]
    rows = conn.execute(f"SELECT id, name, rating, state{''.join(', ' + c for c in extra)} FROM Player ORDER BY id")
    players_raw = [dict(zip(["id", "name", "rating", "state", *extra], r)) for r in rows]
    pairing_pts = {"Pts_W", "Pts_B"} <= _columns(conn, "Pairing")
    pairings = conn.execute(
        "SELECT Rnd, board, PID_W, PID_B, Result" + (", Pts_W, Pts_B" if pairing_pts else "")
        + " FROM Pairing ORDER BY Rnd, board").fetchall()
    config = {str(k): (t, v) for k, t, v in conn.execute("SELECT CfgKey, CfgText, CfgValue FROM ConfigTab")}
    tstand = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tStand_%'")]
    # A damaged table may hold NULL or a number where KFC writes a line of text: read it as no line.
    tables_raw = {t: [r[0] if isinstance(r[0], str) else "" for r in conn.execute(f'SELECT line FROM "{t}" ORDER BY id')]
                  for t in tstand}
    return _build(name_of, players_raw, pairings, config, tables_raw)


def _build(file_name: str, players_raw: list[dict[str, Any]], pairings: list[tuple[Any, ...]],
           config: dict[str, tuple[Any, Any]], tables_raw: dict[str, list[str]]) -> KfcImport:
    unmapped: list[str] = []
    settings, mapped = _settings(config, unmapped)
    known = {int(p["id"]): p for p in players_raw}
    pid = {k: str(k) for k in known}

    by_round: dict[int, list[tuple[Any, ...]]] = {}
    for row in pairings:
        rnd, board, white, black, code = (int(row[0]), int(row[1]), int(row[2]), int(row[3]),
                                          None if row[4] is None else int(row[4]))
        for who in (white, black):
            if who not in known and (who != -1 or who == white):  # -1 is no opponent, never the row's own player
                raise FormatError("round %(n)s board %(board)s: player id %(who)s is not in table Player", n=rnd,
                                  board=board, who=who)
        by_round.setdefault(rnd, []).append((rnd, board, white, black, code, *row[5:]))
    if any(r < 1 for r in by_round):
        raise FormatError("table Pairing has round %(n)s: rounds start at 1", n=min(by_round))
    last = max(by_round, default=0)

    points: dict[tuple[int, str], float] = {}
    rounds: list[Round] = []
    seen: dict[str, list[int]] = {p: [] for p in pid.values()}
    late: dict[str, list[int]] = {p: [] for p in pid.values()}
    games = absences = 0
    for r in range(1, last + 1):
        round_games: list[Game] = []
        absent: dict[str, Absence] = {}
        for _, board, white, black, code, *pts in by_round.get(r, []):
            w = pid[white]
            if black != -1:
                b = pid[black]
                if code in _PENDING:
                    result = None
                elif code in _GAME_RESULTS:
                    result = _GAME_RESULTS[code]
                else:
                    raise FormatError("round %(n)s board %(board)s: result code %(code)s is not a game's result", n=r,
                                      board=board, code=code)
                ours = len(round_games) + 1
                if code == ADJOURNED:
                    unmapped.append(f"round {r} board {board}: adjourned game imported as a draw (KFC scores it "
                                    f"as one); the final result: 'keizer result --round {r} --correct {ours}=1-0'")
                round_games.append(Game(r, ours, w, b, result))
                games += 1
                seen[w].append(r)
                seen[b].append(r)
                if pts:
                    points[(r, w)], points[(r, b)] = float(pts[0] or 0), float(pts[1] or 0)
                continue
            if code == LATE_START:
                late[w].append(r)
            elif code in _ABSENCES:
                absent[w] = _ABSENCES[code]
                absences += 1
                seen[w].append(r)
            else:
                raise FormatError("round %(n)s board %(board)s: result code %(code)s is not valid for a player without "
                                  "an opponent", n=r, board=board, code=code)
            if pts:
                points[(r, w)] = float(pts[0] or 0)
        rounds.append(Round(r, games=tuple(round_games), absent=absent))

    players: list[Player] = []
    for k, raw in known.items():
        p = pid[k]
        name = str(raw["name"] or "").strip()
        state = raw["state"]
        if state == DELETED:
            unmapped.append(f"{name}: marked deleted in KFC, not imported")
            continue
        joined = max(late[p], default=0) + 1
        if late[p] and any(r < joined for r in seen[p]):
            raise FormatError("player %(name)s: a late-start round after a round played", name=name)
        withdrawn = None
        if state == RETIRED:
            if not seen[p]:
                unmapped.append(f"{name}: withdrew without playing a round, not imported")
                continue
            withdrawn = max(seen[p])
            if withdrawn == last:
                unmapped.append(f"{name}: withdrawn, but has a game or absence in the last round {last}: "
                                f"KFC prices round {last} without {name} already, keizer from round {last + 1} on")
        missing = [r for r in range(joined, (withdrawn or last) + 1) if r not in seen[p]]
        if missing:
            unmapped.append(f"{name}: no entry in round {', '.join(map(str, missing))} (KFC gives 0); "
                            f"keizer scores such a round as unexcused ({_pct(settings.unexcused)})")
        category = None
        cats = [c.strip() for c in str(raw.get("Categories") or "").split(",") if c.strip()]
        if cats:
            category = cats[0]
            if len(cats) > 1:
                unmapped.append(f"{name}: categories {', '.join(cats)}: keizer keeps one, {category}")
        rating = int(raw["rating"]) if raw["rating"] else None
        players.append(Player(p, name, rating or None, start_no=k, joined=joined,
                              withdrawn_after=withdrawn, category=category))

    retired = {p.id for p in players if p.withdrawn_after is not None}
    if settings.loss:
        for g in (g for rnd in rounds for g in rnd.games if g.is_forfeit):
            for side in (g.white, g.black):
                if g.opponent_of(side) in retired and side not in retired and g.points_of(side) == 0:
                    unmapped.append(f"round {g.round} board {g.board}: a forfeit lost to withdrawn "
                                    f"{known[int(g.opponent_of(side))]['name']} earns the loss bonus in KFC, 0 in keizer")
    competition = _text(config, "OPTION.NiceName") or file_name
    season = Season(competition, settings, tuple(players), tuple(rounds))
    ladder = {p.id for p in players if p.withdrawn_after is None}
    stored = Stored(
        totals={pid[k]: float(r["Keizer_SumPts"]) for k, r in known.items()
                if pid[k] in ladder and r.get("Keizer_SumPts") is not None},
        ranks={pid[k]: int(r["rank"]) for k, r in known.items() if pid[k] in ladder and r.get("rank") is not None},
        values={pid[k]: float(r["Keizer_StartPts"]) for k, r in known.items()
                if pid[k] in ladder and r.get("Keizer_StartPts") is not None},
        values_before={pid[k]: float(r["Keizer_PrevPts"]) for k, r in known.items()
                       if pid[k] in ladder and r.get("Keizer_PrevPts") is not None},
        points=points,
        tables=_stand_tables(tables_raw, {str(r["name"]).strip(): pid[k] for k, r in known.items()}, pid),
    )
    return KfcImport(season, tuple(mapped), tuple(unmapped), stored, games, absences)


def _stand_tables(tables_raw: dict[str, list[str]], by_name: dict[str, str],
                  pid: dict[int, str]) -> dict[int, dict[str, float]]:
    """Totals of the cached standings ``tStand_<r>``: three header lines, a column header
    (rank, name, Keizer points, game points[, Id]), then a line per player, split by '§'."""
    tables: dict[int, dict[str, float]] = {}
    for name, lines in tables_raw.items():
        suffix = name.removeprefix("tStand_")
        if not is_digits(suffix) or len(lines) < 4:
            continue
        head = lines[3].split("§")
        id_col = head.index("Id") if "Id" in head else None
        totals: dict[str, float] = {}
        for line in lines[4:]:
            cells = line.split("§")
            try:
                who = pid.get(int(cells[id_col])) if id_col is not None else by_name.get(cells[1].strip())
                total = float(cells[2].replace(",", "."))
            except (ValueError, IndexError):
                continue
            if who is not None:
                totals[who] = total
        tables[int(suffix)] = totals
    return tables


def _number(config: dict[str, tuple[Any, Any]], key: str) -> float | None:
    value = config.get(key, (None, None))[1]
    return None if value is None else float(value)


def _text(config: dict[str, tuple[Any, Any]], key: str) -> str:
    return str(config.get(key, (None, None))[0] or "").strip()


def _pct(f: Fraction) -> str:
    return f"{float(f * 100):g} %"


def _settings(config: dict[str, tuple[Any, Any]], unmapped: list[str]) -> tuple[Settings, list[str]]:
    """The competition settings KFC's options amount to: the keizerforclubs preset with
    this file's values, and a line per option saying where it went."""
    overrides: dict[str, Any] = {}
    mapped: list[str] = []
    for key, setting, default, what in _BONUSES:
        raw = _number(config, key)
        percent = default if raw is None else round(raw)  # KFC reads them as whole percents
        overrides[setting] = Fraction(percent, 100)
        source = f"{key} {percent}" if raw is not None else f"{key} (not in the file: KFC's default {percent})"
        mapped.append(f"{source} → {setting}={_frac(overrides[setting])} ({what})")
    overrides["late"] = overrides["unexcused"]
    mapped.append(f"late start (result 12) → late={_frac(overrides['late'])} (KFC scores it as unexcused)")
    ratio = _number(config, "OPTION.RatioFirst2Last")
    if ratio is not None:
        overrides["ratio"] = Fraction(repr(ratio))
    wicker = _number(config, "OPTION.WickerNormalization")
    if wicker:
        r = overrides.get("ratio", Fraction(3))
        overrides |= {"ladder": "range", "range_top": r, "range_bottom": 1}
        mapped.append(f"OPTION.WickerNormalization 1, OPTION.RatioFirst2Last {ratio if ratio is not None else 3:g} "
                      f"→ ladder=range, range_top={_frac(r)}, range_bottom=1")
        unmapped.append("OPTION.WickerNormalization: KFC rounds each value to a few decimals; keizer keeps "
                        "them exact, so a score may differ in its last decimals")
    else:
        mapped.append(f"OPTION.RatioFirst2Last {ratio if ratio is not None else 3:g} → ratio={_frac(overrides.get('ratio', Fraction(3)))}"
                      ", top=auto rounded half-even as KFC does, step 1")
    decay = _number(config, "OPTION.DecayBonus")
    overrides["absence_decay"] = bool(decay)
    mapped.append(f"OPTION.DecayBonus {int(decay or 0)} → absence_decay={'on' if decay else 'off'}")
    gap = _number(config, "OPTION.GameRepeat")
    if gap is not None:
        overrides["rematch_gap"] = min(max(int(gap), 0), 999)
        mapped.append(f"OPTION.GameRepeat {int(gap)} → rematch_gap={overrides['rematch_gap']}")
    dist = _number(config, "OPTION.DistBye")
    if dist is not None:
        overrides["bye_policy"] = "fewest-byes" if dist else "lowest"
        mapped.append(f"OPTION.DistBye {int(dist)} → bye_policy={overrides['bye_policy']}")
    mapped.append("ranking ties: rating, as KFC orders them → tiebreaks=rating")

    if _number(config, "OPTION.DecayPrevRound"):
        unmapped.append("OPTION.DecayPrevRound (own value × (5 − round)/5): keizer has no decaying own value; "
                        "the own value is added in full, so the standings differ from KFC's")
    first_random = _number(config, "OPTION.FirstRoundRandom")
    if first_random:
        unmapped.append(f"OPTION.FirstRoundRandom {int(first_random)}: random rating offsets for round 1's "
                        "pairing only; keizer's initial order is by rating")
    if _number(config, "OPTION.NovusRandom"):
        unmapped.append("OPTION.NovusRandom: random board numbers (Novuss); keizer numbers boards by rank")
    colour = _text(config, "OPTION.RoundsSameColor")
    if colour and colour != "--":
        unmapped.append(f"OPTION.RoundsSameColor {colour}: keizer's colour_limit is fixed at three in a row "
                        "and ±2; not set")
    time_bonus = _text(config, "OPTION.TimeBonus")
    if time_bonus:
        unmapped.append(f"OPTION.TimeBonus {time_bonus}: thinking-time handicaps are not modelled")
    categories = _text(config, "OPTION.Categories")
    if categories:
        unmapped.append(f"OPTION.Categories {categories}: category names are not imported; "
                        "each player keeps the first category code")
    known = {k for k, *_ in _BONUSES} | {"OPTION.RatioFirst2Last", "OPTION.WickerNormalization", "OPTION.DecayBonus",
                                         "OPTION.GameRepeat", "OPTION.DistBye", "OPTION.DecayPrevRound",
                                         "OPTION.FirstRoundRandom", "OPTION.NovusRandom", "OPTION.RoundsSameColor",
                                         "OPTION.TimeBonus", "OPTION.Categories"}
    layout = sorted(k for k in config if k.upper().startswith("WIN."))
    if layout:
        unmapped.append(f"window layout ({len(layout)} keys WIN.*): KFC's screen only, not needed")
    for key in sorted(config):
        if key in known or key in layout:
            continue
        why = _DISPLAY_ONLY.get(key, "unknown to this importer")
        unmapped.append(f"{key} {_shown(config[key])}: {why}, not imported")
    try:
        return Settings.from_preset("keizerforclubs", overrides), mapped
    except SettingsError as e:
        raise FormatError("its options cannot be used: %(why)s", why=e) from None


def _frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _shown(entry: tuple[Any, Any]) -> str:
    text, value = entry
    if text not in (None, ""):
        return str(text)
    return "" if value is None else f"{float(value):g}"


def compare(imp: KfcImport) -> tuple[int, list[str]]:
    """Our standings against every number KFC stored: totals, ranks and values of the last
    recalculation, each game's points, and the cached standing of each round.  Returns
    how many numbers were compared and one line per number that differs."""
    from keizer.scoring import all_round_scores, compute_standings

    season, stored = imp.season, imp.stored
    last = season.completed_rounds()
    names = {p.id: p.name for p in season.players}
    if not season.rounds:
        return 0, []
    if last < len(season.rounds):
        return 0, [f"round {len(season.rounds)} has no results yet: KFC's stored totals were not compared"]
    standings = compute_standings(season)
    final = standings[last]
    checked = 0
    diffs: list[str] = []

    def check(what: str, ours: Fraction | int, theirs: float) -> None:
        nonlocal checked
        checked += 1
        if not math.isclose(float(ours), theirs, abs_tol=0.005):
            diffs.append(f"{what}: KFC {theirs:g}, keizer {float(ours):g}")

    for e in final.entries:
        name = names[e.player]
        if e.player in stored.totals:
            check(f"{name} total after round {last}", e.score, stored.totals[e.player])
        if e.player in stored.ranks:
            check(f"{name} rank after round {last}", e.rank, stored.ranks[e.player])
        if e.player in stored.values:
            check(f"{name} value after round {last}", e.value, stored.values[e.player])
        if e.player in stored.values_before:
            check(f"{name} value before round {last}", e.value_before, stored.values_before[e.player])
    for player, lines in all_round_scores(season, final).items():
        for line in lines:
            if (line.round, player) in stored.points:
                check(f"{names[player]} points in round {line.round}", line.points, stored.points[(line.round, player)])
    for r, totals in sorted(stored.tables.items()):
        if r > last:
            continue
        for e in standings[r].entries:
            if e.player in totals:
                check(f"{names[e.player]} total in KFC's table after round {r}", e.score, totals[e.player])
    return checked, diffs
