"""The season exchange format (``docs/season-json.md``) ⇄ :class:`Season`.

A file that breaks a rule is refused whole with :class:`FormatError` naming the
first problem by its path (``rounds[2].games[0].white``); unknown keys are
ignored.

>>> s = load_season({"format": "keizer-season", "version": 1, "name": "x",
...     "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
...     "rounds": [{"round": 1, "games": [{"white": "a", "black": "b", "result": "½-½"}]}]})
>>> s.rounds[0].games[0].result.value
'1/2-1/2'
"""

from __future__ import annotations

import datetime
import json
from typing import Any, Mapping

from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.settings import Settings, SettingsError

FORMAT = "keizer-season"
VERSION = 1


class FormatError(ValueError):
    """The file is not a valid season; the message names where and why."""


def parse(text: str) -> Season:
    """A season from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return load_season(data)


def load_season(data: Any) -> Season:
    if not isinstance(data, dict):
        raise FormatError("the file must hold one JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise FormatError(f"format: expected {FORMAT!r}, found {data.get('format')!r}")
    version = data.get("version", VERSION)
    if not isinstance(version, int) or version > VERSION:
        raise FormatError(f"version: {version!r} is newer than this program reads ({VERSION}); upgrade keizer")
    system = data.get("system", "keizer")
    if system != "keizer":
        raise FormatError(f"system: only 'keizer' seasons can be imported, not {system!r}")

    settings_data = _get(data, "settings", dict, {})
    try:
        settings = Settings.from_preset(
            str(settings_data.get("preset", "classic")),
            {k: v for k, v in settings_data.items() if k != "preset"},
        )
    except SettingsError as e:
        raise FormatError(f"settings: {e}") from None

    players = _players(_get(data, "players", list, None))
    ids = {p.id for p in players}
    order = _get(data, "initial_order", list, [])
    for k, pid in enumerate(order):
        if pid not in ids:
            raise FormatError(f"initial_order[{k}]: unknown player {pid!r}")
    if len(set(order)) != len(order):
        raise FormatError("initial_order: a player is listed twice")

    rounds = []
    for k, raw in enumerate(_get(data, "rounds", list, [])):
        rounds.append(_round(raw, f"rounds[{k}]", ids, expected=k + 1))
    name = data.get("name") or "Keizer competition"
    if not isinstance(name, str):
        raise FormatError("name: must be a string")
    return Season(name, settings, tuple(players), tuple(rounds), tuple(order))


def dump(season: Season, preset: str | None = None) -> dict[str, Any]:
    """The season as a JSON-ready dict; ``load_season(dump(s))`` gives ``s`` back."""
    settings = season.settings.to_dict()
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": season.name,
        "system": "keizer",
        "settings": {"preset": preset, **settings} if preset else settings,
    }
    if season.initial_order:
        out["initial_order"] = list(season.initial_order)
    players = []
    for p in sorted(season.players, key=lambda p: p.start_no):
        item: dict[str, Any] = {"id": p.id, "name": p.name}
        if p.rating is not None:
            item["rating"] = p.rating
        if p.joined != 1:
            item["joined"] = p.joined
        if p.withdrawn_after is not None:
            item["withdrawn_after"] = p.withdrawn_after
        if p.category:
            item["category"] = p.category
        players.append(item)
    out["players"] = players
    rounds = []
    for rnd in season.rounds:
        item = {"round": rnd.number}
        if rnd.date:
            item["date"] = rnd.date
        item["games"] = [
            {"board": g.board, "white": g.white, "black": g.black,
             "result": g.result.value if g.result else None}
            for g in rnd.games
        ]
        item["absent"] = {p: a.value for p, a in rnd.absent.items() if a is not Absence.BYE}
        item["bye"] = list(rnd.byes)
        item["external"] = {p: e.value for p, e in rnd.external.items()}
        if rnd.present:
            item["present"] = list(rnd.present)
        if rnd.time_control:
            item["time_control"] = rnd.time_control
        rounds.append(item)
    out["rounds"] = rounds
    return out


def _players(raw: list[Any]) -> list[Player]:
    players = []
    seen: set[str] = set()
    for k, item in enumerate(raw):
        path = f"players[{k}]"
        if not isinstance(item, dict):
            raise FormatError(f"{path}: must be an object")
        pid = item.get("id")
        if not isinstance(pid, str) or not pid.strip():
            raise FormatError(f"{path}.id: a non-empty string is needed")
        if pid in seen:
            raise FormatError(f"{path}.id: {pid!r} is used twice")
        seen.add(pid)
        name = item.get("name", pid)
        if not isinstance(name, str) or not name.strip():
            raise FormatError(f"{path}.name: a non-empty string is needed")
        rating = item.get("rating")
        if rating is not None and (not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating <= 4000):
            raise FormatError(f"{path}.rating: a whole number from 0 to 4000 is needed")
        joined = item.get("joined", 1)
        if not isinstance(joined, int) or isinstance(joined, bool) or joined < 1:
            raise FormatError(f"{path}.joined: a round number (1 or more) is needed")
        withdrawn = item.get("withdrawn_after")
        if withdrawn is not None and (not isinstance(withdrawn, int) or isinstance(withdrawn, bool) or withdrawn < joined - 1):
            raise FormatError(f"{path}.withdrawn_after: a round number not before 'joined' is needed")
        category = item.get("category")
        if category is not None and not isinstance(category, str):
            raise FormatError(f"{path}.category: must be a string")
        players.append(Player(pid, name.strip(), rating, k + 1, joined, withdrawn, category))
    if len(players) < 2:
        raise FormatError("players: at least two players are needed")
    return players


def _round(raw: Any, path: str, ids: set[str], expected: int) -> Round:
    if not isinstance(raw, dict):
        raise FormatError(f"{path}: must be an object")
    number = raw.get("round", expected)
    if isinstance(number, bool) or number != expected:
        raise FormatError(f"{path}.round: expected round {expected}, found {number!r} (rounds must be in order from 1)")
    date = raw.get("date")
    if date is not None and not (isinstance(date, str) and _is_date(date)):
        raise FormatError(f"{path}.date: {date!r} is not a date like 2026-09-08")
    seen: dict[str, str] = {}

    def claim(pid: Any, where: str) -> str:
        if not isinstance(pid, str) or pid not in ids:
            raise FormatError(f"{where}: unknown player {pid!r}")
        if pid in seen:
            raise FormatError(f"{where}: player {pid!r} already appears in this round at {seen[pid]}")
        seen[pid] = where
        return pid

    games = []
    for k, g in enumerate(_get(raw, "games", list, [], path)):
        gp = f"{path}.games[{k}]"
        if not isinstance(g, dict):
            raise FormatError(f"{gp}: must be an object")
        white = claim(g.get("white"), f"{gp}.white")
        black = claim(g.get("black"), f"{gp}.black")
        result = g.get("result")
        if result is not None:
            try:
                result = Result.parse(str(result))
            except ValueError as e:
                raise FormatError(f"{gp}.result: {e}") from None
        board = g.get("board", k + 1)
        if not isinstance(board, int) or isinstance(board, bool) or board < 1:
            raise FormatError(f"{gp}.board: a board number (1 or more) is needed")
        games.append(Game(number, board, white, black, result))
    if len({g.board for g in games}) != len(games):
        raise FormatError(f"{path}.games: two games on the same board")

    absent: dict[str, Absence] = {}
    for pid, why in _get(raw, "absent", dict, {}, path).items():
        claim(pid, f"{path}.absent.{pid}")
        if why not in ("excused", "unexcused", "club"):
            raise FormatError(f"{path}.absent.{pid}: {why!r} is not excused, unexcused or club")
        absent[pid] = Absence(why)
    for k, pid in enumerate(_get(raw, "bye", list, [], path)):
        absent[claim(pid, f"{path}.bye[{k}]")] = Absence.BYE
    external: dict[str, ExternalResult] = {}
    for pid, res in _get(raw, "external", dict, {}, path).items():
        claim(pid, f"{path}.external.{pid}")
        if res not in ("win", "draw", "loss"):
            raise FormatError(f"{path}.external.{pid}: {res!r} is not win, draw or loss")
        external[pid] = ExternalResult(res)
    present = tuple(claim(pid, f"{path}.present[{k}]") for k, pid in enumerate(_get(raw, "present", list, [], path)))
    time_control = raw.get("time_control")
    if time_control is not None and not isinstance(time_control, str):
        raise FormatError(f"{path}.time_control: must be a string like 'rapid 25+10'")
    return Round(number, date, tuple(games), absent, external, present, time_control)


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any, path: str = "") -> Any:
    where = f"{path}.{key}" if path else key
    if key not in data or data[key] is None:
        if default is None:
            raise FormatError(f"{where}: missing")
        return default
    value = data[key]
    if not isinstance(value, kind):
        raise FormatError(f"{where}: must be a{'n object' if kind is dict else ' list'}")
    return value
