"""The competitions and their players: settings, time controls, the initial order, the
rating list, and the competition loaded as the engines see it (:meth:`Competitions.load_season`)."""

from __future__ import annotations

import json
from typing import Any, Mapping

from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.refusals import Word
from keizer.settings import Settings, SettingsError
from keizer.store import rounds_read
from keizer.store.database import StoreError, _rowid
from keizer.store.members import Members
from keizer.store.names import _clean, _clean_name, _id_number, pick_by_name
from keizer.store.rounds_read import RoundKey

#: The rating lists a competition can be ordered by: the member column each one fills.
RATING_LISTS = {"national": "rating", "fide": "fide_rating"}
#: A player's rating in a competition (players p, members m, competitions c): frozen once the
#: competition started, else the member's rating from the competition's list.
_PLAYER_RATING = ("CASE WHEN c.started THEN p.rating WHEN c.rating_list = 'fide' THEN m.fide_rating "
                  "ELSE m.rating END")

#: Competition systems the database holds.
SYSTEMS = ("keizer", "roundrobin", "swiss", "knockout", "team")
#: The systems whose initial order play freezes: those with ``has_initial_order`` (the store is
#: below keizer.systems and cannot ask it; tests/test_systems_protocol.py keeps the two equal).
FROZEN_ORDER = ("keizer",)


class Competitions(Members):
    """The competitions, their players, and the season each one loads as."""

    # -- competitions -------------------------------------------------------

    def create_competition(self, name: str, preset: str, overrides: Mapping[str, Any],
                           system: str = "keizer", system_settings: Mapping[str, Any] | None = None,
                           season: str | None = None, current: bool = True) -> int:
        """A new competition of ``season`` (default: the club's season setting, else the
        August–July season of today); the season is kept, whatever its rounds' dates.
        ``current``: it becomes the CLI's default competition (the web app's do not: a
        terminal beside it keeps its own)."""
        name = _clean_name(name)
        season = _clean_season(season) if season is not None else None
        if system not in SYSTEMS:
            raise StoreError("unknown competition system %(system)s (choose from %(systems)s)", system=repr(system),
                             systems=", ".join(SYSTEMS))
        if self._row("SELECT id FROM competitions WHERE name = ?", (name,)):
            raise StoreError("a competition named %(name)s exists already; choose another name", name=repr(name))
        overrides = dict(overrides)
        rating_list = str(overrides.pop("rating_list", "national"))  # a column of its own
        try:
            settings = Settings.from_preset(preset, overrides)
        except SettingsError as e:
            raise StoreError("%(why)s", why=e) from None
        created = self.clock()
        cur = self.conn.execute(
            "INSERT INTO competitions (name, system, preset, overrides, settings, system_settings, created, season) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (name, system, preset, json.dumps(dict(overrides), default=str, ensure_ascii=False),
             json.dumps(settings.to_dict(), ensure_ascii=False),
             json.dumps(dict(system_settings or {}), ensure_ascii=False), created,
             season or self.get_meta("club_season") or season_of(created)),
        )
        self.set_rating_list(_rowid(cur), rating_list)
        if current:
            self.set_meta("current_competition", str(cur.lastrowid))
        return _rowid(cur)

    def set_season(self, comp_id: int, season: str) -> None:
        """Move a competition to another season (its site folder follows at the next publish)."""
        self.conn.execute("UPDATE competitions SET season = ? WHERE id = ?", (_clean_season(season), comp_id))

    def competitions(self) -> list[dict[str, Any]]:
        return self._rows("SELECT id, name, system, preset, created, season FROM competitions ORDER BY id")

    def competition(self, ref: str | None = None) -> dict[str, Any]:
        """A competition by name or id; without one, the current (last used) one."""
        rows = self._rows("SELECT * FROM competitions ORDER BY id")
        if not rows:
            raise StoreError("there is no competition yet", hint="store_create_competition")
        if ref is None:
            current = self.get_meta("current_competition")
            for row in rows:
                if str(row["id"]) == current:
                    return row
            return rows[-1]
        for row in rows:
            if row["name"] == ref or str(row["id"]) == ref:
                return row
        return pick_by_name(rows, ref, "competition")

    def competition_by_id(self, comp_id: int) -> dict[str, Any]:
        row = self._row("SELECT * FROM competitions WHERE id = ?", (comp_id,))
        if row is None:
            raise StoreError("there is no competition %(n)s (it may have been undone); see the list of competitions",
                             n=comp_id)
        return row

    def update_settings(self, comp_id: int, overrides: Mapping[str, Any]) -> Settings:
        row = self._row("SELECT preset, overrides FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        overrides = dict(overrides)
        if "rating_list" in overrides:  # a column of its own: every system has one
            self.set_rating_list(comp_id, str(overrides.pop("rating_list")))
        merged = {**json.loads(row["overrides"]), **overrides}
        try:
            settings = Settings.from_preset(row["preset"], merged)
        except SettingsError as e:
            raise StoreError("%(why)s", why=e) from None
        self.conn.execute(
            "UPDATE competitions SET overrides = ?, settings = ? WHERE id = ?",
            (json.dumps(merged, default=str, ensure_ascii=False),
             json.dumps(settings.to_dict(), ensure_ascii=False), comp_id),
        )
        return settings

    def settings(self, comp_id: int) -> Settings:
        row = self._row("SELECT settings FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return Settings.from_dict(json.loads(row["settings"]))

    def preset(self, comp_id: int) -> str:
        row = self._row("SELECT preset FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return row["preset"]

    def system(self, comp_id: int) -> str:
        row = self._row("SELECT system FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return row["system"]

    def system_settings(self, comp_id: int) -> dict[str, Any]:
        row = self._row("SELECT system_settings FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["system_settings"])

    def set_system_settings(self, comp_id: int, values: Mapping[str, Any]) -> None:
        self.conn.execute("UPDATE competitions SET system_settings = ? WHERE id = ?",
                          (json.dumps(dict(values), ensure_ascii=False), comp_id))

    def time_control_plan(self, comp_id: int) -> list[dict[str, Any]]:
        row = self._row("SELECT time_controls FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["time_controls"])

    def plan_time_control(self, comp_id: int, first: int, last: int | None, text: str | None) -> None:
        """Rounds first…last (None: to the end) play at ``text`` (None: no time control).

        The plan is a list of ranges in the order they were set; the last one
        covering a round decides.  Ranges the new one covers entirely are dropped.
        """
        plan = [p for p in self.time_control_plan(comp_id) if not _covers(first, last, p["from"], p["to"])]
        if text is not None or plan:
            plan.append({"from": first, "to": last, "time_control": text})
        self.conn.execute("UPDATE competitions SET time_controls = ? WHERE id = ?",
                          (json.dumps(plan, ensure_ascii=False), comp_id))

    def set_round_time_control(self, comp_id: int, number: int, text: str | None) -> None:
        self.conn.execute("UPDATE rounds SET time_control = ? WHERE competition_id = ? AND number = ?",
                          (text, comp_id, number))

    def placed_order(self, comp_id: int) -> list[str]:
        """The players the officer placed first in the initial order (keys), as set."""
        row = self._row("SELECT initial_order FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return json.loads(row["initial_order"])

    def set_initial_order(self, comp_id: int, keys: list[str]) -> None:
        self.conn.execute("UPDATE competitions SET initial_order = ? WHERE id = ?",
                          (json.dumps(keys, ensure_ascii=False), comp_id))

    def started(self, comp_id: int) -> bool:
        """Whether play has begun: ratings and the initial order are frozen."""
        row = self._row("SELECT started FROM competitions WHERE id = ?", (comp_id,))
        return bool(row and row["started"])

    def start(self, comp_id: int, ratings: Mapping[int, int | None] | None = None) -> None:
        """Freeze each player's rating as it is now from the competition's rating list (a
        later list changes nothing), and a Keizer competition's whole initial order (a
        later entrant comes after it).  ``ratings`` (player id → rating) gives the
        ratings of an imported season instead: those ordered its standings."""
        from keizer.scoring import initial_order

        if self.started(comp_id):
            return
        self.conn.execute("UPDATE competitions SET started = 1 WHERE id = ?", (comp_id,))
        column = RATING_LISTS[self.rating_list(comp_id)]
        self.conn.execute(
            f"UPDATE players SET rating = (SELECT {column} FROM members WHERE members.id = players.member_id) "
            "WHERE competition_id = ?", (comp_id,))
        for player, rating in (ratings or {}).items():
            self.conn.execute("UPDATE players SET rating = ? WHERE id = ?", (rating, player))
        if self.system(comp_id) in FROZEN_ORDER:
            frozen = initial_order(self.load_season(comp_id))
            self.set_system_settings(comp_id, {**self.system_settings(comp_id), "frozen_order": frozen})

    def rating_list(self, comp_id: int) -> str:
        """Which rating list orders the competition: national (members.rating) or fide."""
        row = self._row("SELECT rating_list FROM competitions WHERE id = ?", (comp_id,))
        assert row is not None
        return str(row["rating_list"])

    def set_rating_list(self, comp_id: int, value: str) -> None:
        """Choose the rating list; only before play begins, since ratings freeze then."""
        value = value.strip().lower()
        if value not in RATING_LISTS:
            raise StoreError("rating_list must be one of %(lists)s, not %(value)s", lists=", ".join(RATING_LISTS),
                             value=repr(value[:20]))
        if value == self.rating_list(comp_id):
            return
        if self.started(comp_id):
            raise StoreError("rating_list cannot change now: the ratings were frozen from the %(list)s list when "
                             "round 1 was paired", list=self.rating_list(comp_id))
        self.conn.execute("UPDATE competitions SET rating_list = ? WHERE id = ?", (value, comp_id))

    def unfreeze(self, comp_id: int) -> None:
        """Undo :meth:`start` once the competition has no game again (round 1 unpaired)."""
        if not self.started(comp_id) or self._row("SELECT 1 AS x FROM games WHERE competition_id = ? LIMIT 1",
                                                  (comp_id,)):
            return
        self.conn.execute("UPDATE competitions SET started = 0 WHERE id = ?", (comp_id,))
        settings = self.system_settings(comp_id)
        if "frozen_order" in settings:
            del settings["frozen_order"]
            self.set_system_settings(comp_id, settings)

    # -- players ------------------------------------------------------------

    def register(
        self, comp_id: int, member_id: int, joined: int = 1, category: str | None = None,
        key: str | None = None, start_no: int | None = None,
    ) -> str:
        """Enter a member in a competition; returns the player's key.  The start number is
        the next free one unless given (an import numbers its players itself rather than
        scan the competition for each one)."""
        if self._row("SELECT id FROM players WHERE competition_id = ? AND member_id = ?", (comp_id, member_id)):
            name = self.member(member_id)["name"]
            raise StoreError("%(name)s is already registered in this competition", name=name)
        if start_no is None:
            start_no = self.conn.execute(
                "SELECT coalesce(max(start_no), 0) + 1 FROM players WHERE competition_id = ?", (comp_id,)
            ).fetchone()[0]
        if key is None:
            key = f"m{member_id}"
        elif self._row("SELECT id FROM players WHERE competition_id = ? AND key = ?", (comp_id, key)):
            raise StoreError("player id %(key)s is used twice in this competition", key=repr(key))
        rating = self.member(member_id)[RATING_LISTS[self.rating_list(comp_id)]] if self.started(comp_id) else None
        self.conn.execute(
            "INSERT INTO players (competition_id, member_id, key, start_no, joined, category, rating) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (comp_id, member_id, key, start_no, joined, category, rating),
        )
        return key

    def players(self, comp_id: int, key: str | None = None) -> list[dict[str, Any]]:
        """The competition's players in start order; with ``key``, only that one (an
        indexed look-up, so an import that finds each new player stays linear)."""
        return self._rows(
            "SELECT p.id, p.key, p.start_no, p.joined, p.withdrawn_after, p.category, p.default_attendance, "
            f"p.member_id, m.name, {_PLAYER_RATING} AS rating, m.fed_id "
            "FROM players p JOIN members m ON m.id = p.member_id JOIN competitions c ON c.id = p.competition_id "
            f"WHERE p.competition_id = ? {'' if key is None else 'AND p.key = ?'} ORDER BY p.start_no",
            (comp_id,) if key is None else (comp_id, key),
        )

    def find_player(self, comp_id: int, ref: str) -> dict[str, Any]:
        """A player by key, start number (``#3``), or name (see :func:`pick_by_name`)."""
        text = ref.strip()
        by_key = self.players(comp_id, key=text)
        if by_key:
            return by_key[0]
        rows = self.players(comp_id)
        if text.startswith("#"):
            number = _id_number(text[1:])
            for row in rows:
                if row["start_no"] == number:
                    return row
            raise StoreError("there is no player %(ref)s", hint="store_see_players", ref=text[:20])
        return pick_by_name(rows, text, "player")

    def update_player(self, player_id: int, **fields: Any) -> None:
        allowed = {"joined", "withdrawn_after", "category", "default_attendance", "start_no"}
        sets = {k: v for k, v in fields.items() if k in allowed}
        if sets:
            assignments = ", ".join(f"{k} = ?" for k in sets)
            self.conn.execute(f"UPDATE players SET {assignments} WHERE id = ?", (*sets.values(), player_id))

    def forbid(self, comp_id: int, a: int, b: int, remove: bool = False) -> None:
        a, b = sorted((a, b))
        if remove:
            cur = self.conn.execute(
                "DELETE FROM pairing_rules WHERE competition_id = ? AND kind = 'forbid' AND a = ? AND b = ?",
                (comp_id, a, b))
            if cur.rowcount == 0:
                raise StoreError("that pair is not forbidden")
        else:
            self.conn.execute(
                "INSERT OR IGNORE INTO pairing_rules (competition_id, kind, a, b) VALUES (?, 'forbid', ?, ?)",
                (comp_id, a, b))

    def forbidden_pairs(self, comp_id: int) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self.conn.execute(
                "SELECT pa.key, pb.key FROM pairing_rules r JOIN players pa ON pa.id = r.a "
                "JOIN players pb ON pb.id = r.b WHERE r.competition_id = ? AND r.kind = 'forbid' ORDER BY r.id",
                (comp_id,),
            )
        ]

    # -- the model ----------------------------------------------------------

    def load_season(self, comp_id: int) -> Season:
        """The competition as the engines see it.  Only the rounds whose stamp changed since
        this process last read the competition are read again (:mod:`keizer.store.rounds_read`);
        the others are the ``Round`` objects read then."""
        if self.conn.in_transaction:
            return self._read_season(comp_id)
        self.conn.execute("BEGIN")  # one snapshot: the stamps and the rows they stamp
        try:
            return self._read_season(comp_id)
        finally:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")

    def _read_season(self, comp_id: int) -> Season:
        comp = self._row("SELECT * FROM competitions WHERE id = ?", (comp_id,))
        assert comp is not None
        settings = Settings.from_dict(json.loads(comp["settings"]))
        rows = self.players(comp_id)
        key_of = {r["id"]: r["key"] for r in rows}
        players = tuple(
            Player(r["key"], r["name"], r["rating"], r["start_no"], r["joined"], r["withdrawn_after"], r["category"])
            for r in rows
        )
        plan = json.loads(comp["time_controls"])
        stamps = dict(self.conn.execute("SELECT round, stamp FROM round_stamps WHERE competition_id = ?", (comp_id,)))
        wanted: dict[int, RoundKey] = {
            number: (stamps.get(number), date, time_control or planned_time_control(plan, number))
            for number, date, time_control in self.conn.execute(
                "SELECT number, date, time_control FROM rounds WHERE competition_id = ? ORDER BY number", (comp_id,))}
        signature = tuple((r["id"], r["key"], r["start_no"]) for r in rows)
        where = (self.path if self.path is not None else ("memory", id(self)), comp_id)
        held = rounds_read.kept(where)
        same, read = held.reuse(signature, wanted) if held is not None else ({}, list(wanted))
        made = self._read_rounds(comp_id, read, len(read) == len(wanted), key_of,
                                 {p.id: p.start_no for p in players}, wanted)
        rounds_read.keep(where, rounds_read.RoundsKept(signature, {
            n: (key, same[n] if n in same else made[n]) for n, key in wanted.items()}))
        frozen = json.loads(comp["system_settings"]).get("frozen_order") if comp["started"] else None
        order = frozen if frozen is not None else json.loads(comp["initial_order"])
        return Season(comp["name"], settings, players, tuple(same[n] if n in same else made[n] for n in wanted),
                      tuple(order))

    def _read_rounds(self, comp_id: int, numbers: list[int], every: bool, key_of: dict[int, str],
                     start: dict[str, int], wanted: dict[int, RoundKey]) -> dict[int, Round]:
        """The rounds ``numbers`` read from their games and attendance (``every``: they are all
        the competition's rounds)."""
        if not numbers:
            return {}
        among = "" if every else f" AND round IN ({', '.join('?' * len(numbers))})"
        params = (comp_id,) if every else (comp_id, *numbers)
        attendance: dict[int, dict[str, tuple[str, str | None]]] = {}
        for pid, number, status, ext in self.conn.execute(
            "SELECT player_id, round, status, external_result FROM attendance WHERE competition_id = ?" + among, params
        ):
            attendance.setdefault(number, {})[key_of[pid]] = (status, ext)
        games: dict[int, list[Game]] = {}
        result_of = _RESULTS  # by a dict: an Enum's call costs a Python call per game
        for number, board, white, black, result, match, stage in self.conn.execute(
            "SELECT round, board, white, black, result, match, stage FROM games WHERE competition_id = ?" + among
            + " ORDER BY round, board", params,
        ):
            outcome = (result_of.get(result) or Result(result)) if result else None
            games.setdefault(number, []).append(Game(number, board, key_of[white], key_of[black], outcome, match, stage))
        made = {}
        for number in numbers:
            _, date, time_control = wanted[number]
            round_games = tuple(games.get(number, ()))
            in_game = {g.white for g in round_games} | {g.black for g in round_games}
            absent: dict[str, Absence] = {}
            external: dict[str, ExternalResult] = {}
            present = []
            for key, (status, ext) in attendance.get(number, {}).items():
                if key in in_game:
                    continue
                if status == "present":
                    present.append(key)
                elif status == "external":
                    external[key] = ExternalResult(ext)
                else:
                    absent[key] = _ABSENCES.get(status) or Absence(status)
            made[number] = Round(number, date, round_games, absent, external,
                                 tuple(sorted(present, key=start.__getitem__)), time_control)
        return made


#: A stored result or absence by its value (what ``Result(value)`` gives, without a call per row).
_RESULTS = {r.value: r for r in Result}
_ABSENCES = {a.value: a for a in Absence}


def planned_time_control(plan: list[dict[str, Any]], number: int) -> str | None:
    """The time control a plan gives round ``number`` (the last matching entry wins)."""
    found = None
    for p in plan:
        if p["from"] <= number and (p["to"] is None or number <= p["to"]):
            found = p["time_control"]
    return found


def _covers(first: int, last: int | None, a_from: int, a_to: int | None) -> bool:
    """Whether rounds first…last include all of a_from…a_to (None: open-ended)."""
    return first <= a_from and (last is None or (a_to is not None and a_to <= last))


def season_of(moment: str) -> str:
    """The club season a date falls in: seasons run from August to July.

    >>> season_of("2025-09-09T19:00:00+00:00"), season_of("2026-03-01")
    ('2025-2026', '2025-2026')
    """
    year, month = int(moment[:4]), int(moment[5:7])
    first = year if month >= 8 else year - 1
    return f"{first}-{first + 1}"


def _clean_season(season: str) -> str:
    return _clean(season, Word("a season name"), 50)
