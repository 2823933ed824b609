"""Seasons: starting the next one from the last, listing them, closing and reopening.

A competition belongs to one season (``competitions.season``).  Closing a season
marks each of its competitions ``"closed": true`` in ``system_settings``: from then
on every command that writes to such a competition is refused (:func:`refuse_closed`,
called where commands fetch the competition they are about to write), so its
standings and reports are final.  Like the operations of :mod:`keizer.operations.competition`,
each function here is one command's work: the caller wraps it in one
``store.change(...)`` (one transaction, logged, undoable).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from keizer.operations.order import final_ranking, set_initial_order
from keizer.operations.state import require_system
from keizer.refusals import Word
from keizer.store import Store, StoreError

#: The initial orders ``season new`` offers, and what each means.
ORDERS: dict[str, str] = {
    "standing": "last season's final standing; players who were not in it follow, by rating",
    "rating": "current ratings only (last season's standing plays no part)",
    "standing+rating": "last season's final standing, each newcomer placed among them by rating "
                       "(just above the first of last season's players rated lower)",
}


def is_closed(store: Store, comp_id: int) -> bool:
    return bool(store.system_settings(comp_id).get("closed"))


def reopen_hint(season: str) -> str:
    quoted = season if season.replace("-", "").replace("/", "").isalnum() else f'"{season}"'
    return f"keizer season reopen {quoted}"


def refuse_closed(row: Mapping[str, Any]) -> None:
    """Refuse to write to a closed competition (``row`` as :meth:`Store.competition` gives it)."""
    if json.loads(row["system_settings"]).get("closed"):
        raise StoreError("%(name)s is closed (season %(season)s is over: its standings are final)", hint="su_reopen",
                         name=row["name"], season=row["season"], reopen=reopen_hint(row["season"]))


@dataclass(frozen=True)
class NewSeason:
    comp_id: int
    name: str
    season: str
    order: str
    #: Names: carried over from the source, members entered as newcomers, withdrawn players left out.
    carried: tuple[str, ...]
    newcomers: tuple[str, ...]
    left_out: tuple[str, ...]
    #: Members who are neither carried over nor entered (without ``all_members``).
    not_entered: int


def default_name(source: str, old_season: str, new_season: str) -> str:
    """The source's name with its season replaced, else with the new season added.

    >>> default_name("Interne 2025-2026", "2025-2026", "2026-2027"), default_name("Interne", "2025-2026", "2026-2027")
    ('Interne 2026-2027', 'Interne 2026-2027')
    """
    return source.replace(old_season, new_season) if old_season and old_season in source else f"{source} {new_season}"


def new_season(store: Store, source_ref: str, season: str, name: str | None = None, order: str = "standing",
               with_withdrawn: bool = False, all_members: bool = False) -> NewSeason:
    """A Keizer competition in ``season`` with the players and settings of ``source_ref``
    (last season's), and an initial order from ``ORDERS``.

    Players who withdrew last season stay out unless ``with_withdrawn``; with
    ``all_members`` every member who did not play last season is entered as a newcomer.
    Players keep their category and default attendance; the time-control plan and
    forbidden pairs are carried over too.
    """
    if order not in ORDERS:
        raise StoreError("unknown order %(order)s: %(orders)s", order=repr(order), orders=", ".join(ORDERS))
    source = store.competition(source_ref)
    require_system(store, source["id"], "keizer", Word("start the next season from a competition"))
    season = season.strip()
    if season == source["season"]:
        raise StoreError("%(name)s belongs to season %(season)s already; name the next season", name=source["name"],
                         season=season)
    if season < source["season"] and season[:4].isascii() and season[:4].isdigit() \
            and source["season"][:4].isascii() and source["season"][:4].isdigit():
        raise StoreError("season %(season)s comes before %(name)s's season %(old)s; name the next season",
                         season=season, name=source["name"], old=source["season"])
    if any(row["season"] == season and is_closed(store, row["id"]) for row in store.competitions()):
        raise StoreError("season %(season)s is closed", hint="su_reopen_first", season=season,
                         reopen=reopen_hint(season))
    name = name if name is not None else default_name(source["name"], source["season"], season)
    old_players = store.players(source["id"])
    kept = [p for p in old_players if with_withdrawn or p["withdrawn_after"] is None]
    left_out = tuple(p["name"] for p in old_players if p["withdrawn_after"] is not None and not with_withdrawn)
    played = {p["member_id"] for p in old_players}
    members = store.members()
    fresh = [{**m, "member_id": m["id"]} for m in members if m["id"] not in played] if all_members else []
    place = {m: k for k, m in enumerate(final_ranking(store, source["id"]))}

    overrides = json.loads(source["overrides"])
    if source.get("rating_list"):  # which rating list prices the players: a setting of its own column
        overrides["rating_list"] = source["rating_list"]
    comp_id = store.create_competition(name, source["preset"], overrides, "keizer", {}, season)
    keys: dict[int, str] = {}
    for row in [*kept, *fresh]:
        keys[row["member_id"]] = store.register(comp_id, row["member_id"], category=row.get("category"))
        if row.get("default_attendance"):
            store.update_player(store.players(comp_id, keys[row["member_id"]])[0]["id"],
                                default_attendance=row["default_attendance"])
    # Ordered by the ratings the new competition sees (its rating list, today's list), and
    # numbered in that order: start numbers follow the initial order.
    ordered = _ordered(store.players(comp_id), place, order)
    for number, row in enumerate(ordered, 1):
        if row["start_no"] != number:
            store.update_player(row["id"], start_no=number)
    _carry_rules(store, source["id"], comp_id, keys)
    if order == "standing":
        how = set_initial_order(store, comp_id, "standing", source=str(source["id"]))
    elif order == "rating":
        how = set_initial_order(store, comp_id, "rating")
    else:
        store.set_initial_order(comp_id, [row["key"] for row in ordered])
        how = f"by the standing of {source['name']}, newcomers by rating"
        store.set_system_settings(comp_id, {**store.system_settings(comp_id), "initial_order": how})
    made = store.competition(str(comp_id))
    return NewSeason(comp_id, made["name"], made["season"], how, tuple(p["name"] for p in kept),
                     tuple(m["name"] for m in fresh), left_out,
                     sum(1 for m in members if m["id"] not in played) - len(fresh))


def _by_rating(row: Mapping[str, Any]) -> tuple[bool, int]:
    return (row["rating"] is None, -(row["rating"] or 0))


def _ordered(rows: list[dict[str, Any]], place: Mapping[int, int], order: str) -> list[dict[str, Any]]:
    """The new competition's players (in start order) in initial order; ``place`` is each
    member's place in last season's final standing.  Equal ratings keep the start order."""
    if order == "rating":
        return sorted(rows, key=_by_rating)
    ranked = sorted((p for p in rows if p["member_id"] in place), key=lambda p: place[p["member_id"]])
    others = sorted((p for p in rows if p["member_id"] not in place), key=_by_rating)
    if order == "standing":
        return ranked + others
    merged: list[dict[str, Any]] = []
    for row in ranked:
        while others and row["rating"] is not None and others[0]["rating"] is not None \
                and others[0]["rating"] > row["rating"]:
            merged.append(others.pop(0))
        merged.append(row)
    return merged + others


def _carry_rules(store: Store, source_id: int, comp_id: int, keys: Mapping[int, str]) -> None:
    """The time-control plan, and the forbidden pairs of players who are both carried over."""
    for step in store.time_control_plan(source_id):
        store.plan_time_control(comp_id, step["from"], step["to"], step["time_control"])
    member = {p["key"]: p["member_id"] for p in store.players(source_id)}
    ids = {p["member_id"]: p["id"] for p in store.players(comp_id)}
    for a, b in store.forbidden_pairs(source_id):
        if member[a] in keys and member[b] in keys:
            store.forbid(comp_id, ids[member[a]], ids[member[b]])


def season_rows(store: Store) -> list[dict[str, Any]]:
    """Each season with its competitions, newest first; the newest is current (the one the
    website's front page shows); a season is closed when all its competitions are."""
    seasons: dict[str, list[dict[str, Any]]] = {}
    for row in store.competitions():
        seasons.setdefault(row["season"], []).append(
            {"name": row["name"], "system": row["system"], "closed": is_closed(store, row["id"])})
    newest = max(seasons, default=None)
    rows = []
    for season in sorted(seasons, reverse=True):
        comps = seasons[season]
        shut = sum(c["closed"] for c in comps)
        status = "closed" if shut == len(comps) else "open" if shut == 0 else f"{shut} of {len(comps)} closed"
        rows.append({"season": season, "current": season == newest, "status": status, "competitions": comps})
    return rows


def _season_competitions(store: Store, season: str) -> list[dict[str, Any]]:
    rows = [row for row in store.competitions() if row["season"] == season]
    if not rows:
        known = ", ".join(sorted({row["season"] for row in store.competitions()})) or Word("none")
        raise StoreError("there is no season %(season)s (seasons: %(known)s)", hint="su_see_seasons",
                         season=repr(season), known=known)
    return rows


def close_season(store: Store, season: str) -> list[str]:
    """Close every competition of ``season``; returns their names.  Refused when all are closed."""
    rows = [row for row in _season_competitions(store, season) if not is_closed(store, row["id"])]
    if not rows:
        raise StoreError("season %(season)s is closed already", hint="su_reopens", season=season,
                         reopen=reopen_hint(season))
    for row in rows:
        store.set_system_settings(row["id"], {**store.system_settings(row["id"]), "closed": True})
    return [row["name"] for row in rows]


def unplayed(store: Store, season: str) -> list[str]:
    """The competitions of ``season`` without a round played yet (closing such a season is
    likely a mistake: the new season instead of last season's)."""
    return [row["name"] for row in _season_competitions(store, season)
            if not store.load_season(row["id"]).completed_rounds()]


def reopen_season(store: Store, season: str) -> list[str]:
    """Reopen every closed competition of ``season``; returns their names."""
    rows = [row for row in _season_competitions(store, season) if is_closed(store, row["id"])]
    if not rows:
        raise StoreError("season %(season)s is not closed; nothing to reopen", season=season)
    for row in rows:
        settings = store.system_settings(row["id"])
        del settings["closed"]
        store.set_system_settings(row["id"], settings)
    return [row["name"] for row in rows]
