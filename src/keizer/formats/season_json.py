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
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from keizer.formats.errors import FormatError
from keizer.limits import (MAX_BOARDS, MAX_CATEGORY, MAX_DEPTH, MAX_ID, MAX_NAME, MAX_PLAYERS, MAX_ROUNDS,
                           MAX_TIME_CONTROL, LimitError, clean_text, text_problem)
from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.refusals import Word
from keizer.settings import Settings, SettingsError

FORMAT = "keizer-season"
#: The one competition system whose seasons the format carries (its "system" field).
CARRIED = "keizer"
VERSION = 1


def _too_deep() -> FormatError:
    return FormatError("lists or objects nested too deeply (a season file uses %(most)s levels at most)", most=MAX_DEPTH)


def parse(text: str | bytes) -> Season:
    """A season from JSON text."""
    return load_season(decode(text))


def decode(text: str | bytes) -> Any:
    """The JSON value of a file (UTF-8, with or without BOM); FormatError when it is not
    JSON, or nests deeper or holds longer numbers than Python's reader takes."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError("not valid JSON: %(why)s at line %(line)s column %(column)s",
                          why=e.msg, line=e.lineno, column=e.colno) from None
    except UnicodeDecodeError:
        raise FormatError("not UTF-8 text; save the file as UTF-8") from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as e:  # a number of more than 4300 digits
        raise FormatError("not a usable JSON file: %(why)s", why=str(e)) from None


def load_season(data: Any) -> Season:
    if not isinstance(data, dict):
        raise FormatError("the file must hold one JSON object")
    _check_tree(data)
    if data.get("format", FORMAT) != FORMAT:
        raise FormatError("format: expected %(expected)s, found %(value)s",
                          expected=repr(FORMAT), value=repr(data.get('format')))
    version = data.get("version", VERSION)
    if not isinstance(version, int) or version > VERSION:
        raise FormatError("version: %(version)s is newer than this program reads (%(reads)s); upgrade keizer",
                          version=repr(version), reads=VERSION)
    system = data.get("system", CARRIED)
    if system != CARRIED:
        raise FormatError("system: only 'keizer' seasons can be imported, not %(system)s", system=repr(system))

    settings_data = _get(data, "settings", dict, {})
    try:
        settings = Settings.from_preset(
            str(settings_data.get("preset", "classic")),
            {k: v for k, v in settings_data.items() if k != "preset"},
        )
    except SettingsError as e:
        raise FormatError("settings: %(why)s", why=e) from None

    players = _players(_get(data, "players", list, None))
    ids = {p.id for p in players}
    order = _get(data, "initial_order", list, [])
    for k, pid in enumerate(order):
        if not isinstance(pid, str) or pid not in ids:
            raise FormatError("initial_order[%(k)s]: unknown player %(pid)s", k=k, pid=_shown(pid))
    if len(set(order)) != len(order):
        raise FormatError("initial_order: a player is listed twice")

    raw_rounds = _get(data, "rounds", list, [])
    if len(raw_rounds) > MAX_ROUNDS:
        raise FormatError("rounds: %(n)s rounds; a competition has at most %(most)s",
                          n=len(raw_rounds), most=MAX_ROUNDS)
    rounds = []
    for k, raw in enumerate(raw_rounds):
        rounds.append(_round(raw, f"rounds[{k}]", ids, expected=k + 1))
    _refuse_gaps(rounds)
    _refuse_outside_play(players, rounds)
    name = data.get("name") or "Keizer competition"
    if not isinstance(name, str):
        raise FormatError("name: must be a string")
    name = _text(name, "name", Word("a competition name"), MAX_NAME)
    member_data(data)  # the optional member fields are refused here too when they are wrong
    return Season(name, settings, tuple(players), tuple(rounds), tuple(order))


@dataclass(frozen=True)
class MemberData:
    """What a file says of its players' members and the competition beyond the season:
    each player's FIDE id and FIDE rating (``players[].fide_id``, ``fide_rating``) and the
    rating list that orders the competition (``rating_list``).  All optional: a file
    without them (an older one) gives ``None`` and empty maps."""

    rating_list: str | None = None
    fide_ids: Mapping[str, str] = field(default_factory=dict)
    fide_ratings: Mapping[str, int] = field(default_factory=dict)


RATING_LISTS = ("national", "fide")
_FIDE_ID = re.compile(r"[0-9]{1,12}")


def member_data(data: Any) -> MemberData:
    """The optional member fields of a season file (see :class:`MemberData`), checked.

    >>> member_data({"rating_list": "fide", "players": [{"id": "a", "fide_id": "1503014", "fide_rating": 2830}]})
    MemberData(rating_list='fide', fide_ids={'a': '1503014'}, fide_ratings={'a': 2830})
    >>> member_data({"players": [{"id": "a"}]})
    MemberData(rating_list=None, fide_ids={}, fide_ratings={})
    """
    if not isinstance(data, dict):
        raise FormatError("the file must hold one JSON object")
    rating_list = data.get("rating_list")
    if rating_list is not None and rating_list not in RATING_LISTS:
        raise FormatError("rating_list: %(rating_list)s is not national or fide", rating_list=_shown(rating_list))
    fide_ids: dict[str, str] = {}
    fide_ratings: dict[str, int] = {}
    players = data.get("players")
    for k, item in enumerate(players if isinstance(players, list) else []):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue  # load_season names what is wrong with the player itself
        fide_id, fide_rating = item.get("fide_id"), item.get("fide_rating")
        if fide_id is not None:
            if not isinstance(fide_id, str) or not _FIDE_ID.fullmatch(fide_id):
                raise FormatError('players[%(k)s].fide_id: %(fide_id)s is not a FIDE id (a string of up to 12 digits, like "1503014")',
                                  k=k, fide_id=_shown(fide_id))
            fide_ids[item["id"]] = fide_id
        if fide_rating is not None:
            if not _whole(fide_rating, 0, 4000):
                raise FormatError("players[%(k)s].fide_rating: a whole number from 0 to 4000 is needed", k=k)
            if fide_rating:  # 0: unrated, as in FIDE's list
                fide_ratings[item["id"]] = fide_rating
    return MemberData(rating_list, fide_ids, fide_ratings)


def dump(season: Season, preset: str | None = None, members: MemberData | None = None) -> dict[str, Any]:
    """The season as a JSON-ready dict; ``load_season(dump(s))`` gives ``s`` back, and
    ``member_data(dump(s, p, m))`` gives ``m`` back."""
    settings = season.settings.to_dict()
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": season.name,
        "system": CARRIED,
        "settings": {"preset": preset, **settings} if preset else settings,
    }
    if members is not None and members.rating_list is not None:
        out["rating_list"] = members.rating_list
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
        if members is not None and p.id in members.fide_ids:
            item["fide_id"] = members.fide_ids[p.id]
        if members is not None and p.id in members.fide_ratings:
            item["fide_rating"] = members.fide_ratings[p.id]
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
    if len(raw) > MAX_PLAYERS:
        raise FormatError("players: %(n)s players; a competition has at most %(most)s", n=len(raw), most=MAX_PLAYERS)
    players = []
    seen: set[str] = set()
    for k, item in enumerate(raw):
        path = f"players[{k}]"
        if not isinstance(item, dict):
            raise FormatError("%(path)s: must be an object", path=path)
        pid = item.get("id")
        if not isinstance(pid, str) or not pid.strip():
            raise FormatError("%(path)s.id: a non-empty string is needed", path=path)
        problem = text_problem(pid, Word("an id"), MAX_ID)
        if problem:
            raise FormatError("%(path)s.id: %(problem)s", path=path, problem=problem)
        if pid in seen:
            raise FormatError("%(path)s.id: %(pid)s is used twice", path=path, pid=repr(pid))
        seen.add(pid)
        name = item.get("name", pid)
        if not isinstance(name, str) or not name.strip():
            raise FormatError("%(path)s.name: a non-empty string is needed", path=path)
        name = _text(name, f"{path}.name", Word("a name"), MAX_NAME)
        rating = item.get("rating")
        if rating is not None and not _whole(rating, 0, 4000):
            raise FormatError("%(path)s.rating: a whole number from 0 to 4000 is needed", path=path)
        joined = item.get("joined", 1)
        if not _whole(joined, 1, MAX_ROUNDS):
            raise FormatError("%(path)s.joined: a round number (1 to %(most)s) is needed", path=path, most=MAX_ROUNDS)
        withdrawn = item.get("withdrawn_after")
        if withdrawn is not None and not _whole(withdrawn, joined - 1, MAX_ROUNDS):
            raise FormatError("%(path)s.withdrawn_after: a round number not before 'joined' is needed", path=path)
        category = item.get("category")
        if category is not None and not isinstance(category, str):
            raise FormatError("%(path)s.category: must be a string", path=path)
        if category:
            category = _text(category, f"{path}.category", Word("a category"), MAX_CATEGORY)
        players.append(Player(pid, name, rating, k + 1, joined, withdrawn, category))
    if len(players) < 2:
        raise FormatError("players: at least two players are needed")
    return players


def _round(raw: Any, path: str, ids: set[str], expected: int) -> Round:
    if not isinstance(raw, dict):
        raise FormatError("%(path)s: must be an object", path=path)
    number = raw.get("round", expected)
    if not _whole(number, expected, expected):
        raise FormatError("%(path)s.round: expected round %(expected)s, found %(number)s (rounds must be in order from 1)",
                          path=path, expected=expected, number=_shown(number))
    date = raw.get("date")
    if date is not None and not (isinstance(date, str) and _is_date(date)):
        raise FormatError("%(path)s.date: %(date)s is not a date like 2026-09-08", path=path, date=_shown(date))
    seen: dict[str, str] = {}

    def claim(pid: Any, where: str) -> str:
        if not isinstance(pid, str) or pid not in ids:
            raise FormatError("%(where)s: unknown player %(pid)s", where=where, pid=_shown(pid))
        if pid in seen:
            raise FormatError("%(where)s: player %(pid)s already appears in this round at %(seen)s",
                              where=where, pid=repr(pid), seen=seen[pid])
        seen[pid] = where
        return pid

    games = []
    raw_games = _get(raw, "games", list, [], path)
    if len(raw_games) > MAX_BOARDS:
        raise FormatError("%(path)s.games: %(n)s games; a round has at most %(most)s",
                          path=path, n=len(raw_games), most=MAX_BOARDS)
    for k, g in enumerate(raw_games):
        gp = f"{path}.games[{k}]"
        if not isinstance(g, dict):
            raise FormatError("%(gp)s: must be an object", gp=gp)
        white = claim(g.get("white"), f"{gp}.white")
        black = claim(g.get("black"), f"{gp}.black")
        result = g.get("result")
        if result is not None:
            try:
                result = Result.parse(str(result))
            except ValueError as e:
                raise FormatError("%(gp)s.result: %(why)s", gp=gp, why=str(e)) from None
        board = g.get("board", k + 1)
        if not _whole(board, 1, MAX_BOARDS):
            raise FormatError("%(gp)s.board: a board number (1 to %(most)s) is needed", gp=gp, most=MAX_BOARDS)
        games.append(Game(number, board, white, black, result))
    if len({g.board for g in games}) != len(games):
        raise FormatError("%(path)s.games: two games on the same board", path=path)

    absent: dict[str, Absence] = {}
    for pid, why in _get(raw, "absent", dict, {}, path).items():
        claim(pid, f"{path}.absent.{pid}")
        if why not in ("excused", "unexcused", "club"):
            raise FormatError("%(path)s.absent.%(pid)s: %(why)s is not excused, unexcused or club",
                              path=path, pid=pid, why=_shown(why))
        absent[pid] = Absence(why)
    for k, pid in enumerate(_get(raw, "bye", list, [], path)):
        absent[claim(pid, f"{path}.bye[{k}]")] = Absence.BYE
    external: dict[str, ExternalResult] = {}
    for pid, res in _get(raw, "external", dict, {}, path).items():
        claim(pid, f"{path}.external.{pid}")
        if res not in ("win", "draw", "loss"):
            raise FormatError("%(path)s.external.%(pid)s: %(res)s is not win, draw or loss",
                              path=path, pid=pid, res=_shown(res))
        external[pid] = ExternalResult(res)
    present = tuple(claim(pid, f"{path}.present[{k}]") for k, pid in enumerate(_get(raw, "present", list, [], path)))
    time_control = raw.get("time_control")
    if time_control is not None and not isinstance(time_control, str):
        raise FormatError("%(path)s.time_control: must be a string like 'rapid 25+10'", path=path)
    if time_control is not None:
        time_control = _text(time_control, f"{path}.time_control", Word("a time control"), MAX_TIME_CONTROL)
    return Round(number, date, tuple(games), absent, external, present, time_control)


def _refuse_gaps(rounds: list[Round]) -> None:
    """A round without games or attendance cannot come before one that has them: the
    standings would skip it and 'keizer pair' would pair it again."""
    empty = None
    for rnd in rounds:
        played = rnd.games or rnd.absent or rnd.external or rnd.present
        if not played and empty is None:
            empty = rnd.number
        elif played and empty is not None:
            raise FormatError("rounds[%(n)s]: round %(empty)s has no games and no attendance, but round %(number)s has; fill it in or remove the rounds after it",
                              n=empty - 1, empty=empty, number=rnd.number)
    waiting = None  # the first round that is not complete (a game without a result, players not paired)
    for rnd in rounds:
        if waiting is None and not rnd.is_complete:
            waiting = rnd.number
        elif waiting is not None and any(g.result is not None for g in rnd.games):
            raise FormatError("rounds[%(n)s]: round %(waiting)s is not complete (a game without a result, or players not paired), but round %(number)s has results; complete it first",
                              n=waiting - 1, waiting=waiting, number=rnd.number)


def _refuse_outside_play(players: list[Player], rounds: list[Round]) -> None:
    """A game or bye outside a player's rounds (before 'joined', after 'withdrawn_after')
    would count for the opponent but not for the player."""
    by_id = {p.id: p for p in players}
    for k, rnd in enumerate(rounds):
        for pid in sorted({x for g in rnd.games for x in (g.white, g.black)} | set(rnd.byes)):
            if not by_id[pid].active_in(rnd.number):
                raise FormatError("rounds[%(k)s]: player %(pid)s plays in round %(number)s, outside the rounds 'joined' and 'withdrawn_after' give; correct those",
                                  k=k, pid=repr(pid), number=rnd.number)


def _is_date(text: str) -> bool:
    """A date written YYYY-MM-DD (fromisoformat alone also takes '20260908' and '2026-W37-2')."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _whole(value: Any, low: int, high: int) -> bool:
    """``value`` is a JSON whole number (not a boolean or a float) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _text(value: str, path: str, what: Word, limit: int) -> str:
    try:
        return clean_text(value, what, limit)
    except LimitError as e:
        raise FormatError("%(path)s: %(why)s", path=path, why=e) from None


def _shown(value: Any) -> str:
    """A value for an error message: at most one short line."""
    text = repr(value) if isinstance(value, (str, int, float, bool, type(None))) else f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _check_tree(data: Any) -> None:
    """Refuse lists and objects nested more than MAX_DEPTH levels, and whole numbers beyond
    64 bits anywhere (settings included), without recursion."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep()
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((item, f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]", depth + 1)
                         for key, item in items)
        elif isinstance(value, int) and not -(2**63) <= value < 2**63:
            raise FormatError("%(path)s: %(value)s is far too large a number", path=path.lstrip(".")[:80],
                              value=_shown(value))


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any, path: str = "") -> Any:
    where = f"{path}.{key}" if path else key
    if key not in data or data[key] is None:
        if default is None:
            raise FormatError("%(where)s: missing", where=where)
        return default
    value = data[key]
    if not isinstance(value, kind):
        if kind is dict:
            raise FormatError("%(where)s: must be an object", where=where)
        raise FormatError("%(where)s: must be a list", where=where)
    return value
