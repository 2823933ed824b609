"""The initial order of a Keizer competition (the ranking that prices round 1) and the
final ranking a next season may start from.
"""

from __future__ import annotations

from typing import Any, Sequence

from keizer import systems
from keizer.operations.state import current_standing, require_system
from keizer.refusals import Message, Word
from keizer.store import Store, StoreError


def final_ranking(store: Store, comp_id: int) -> list[int]:
    """Member ids in the order of a competition's last standing (Keizer or points)."""
    season = store.load_season(comp_id)
    system = store.system(comp_id)
    if systems.of(system).standing_kind == "ladder":
        keys = [e.player for e in current_standing(season).entries]
    elif systems.of(system).points:
        from keizer.points import points_standing

        rules = systems.stored_points_rules(store, comp_id)
        keys = [e.player for e in points_standing(season, rules.tiebreaks, rules.edition, None, rules.lots,
                                                  system=rules.system, scoring=rules.scoring)]
    else:
        raise StoreError("a %(system)s competition has no standing to start from; choose a Keizer, Swiss or "
                         "round-robin competition", system=systems.SYSTEM_WORDS[system])
    member = {r["key"]: r["member_id"] for r in store.players(comp_id)}
    return [member[k] for k in keys]


def said_how(how: str) -> Message:
    """How the order was set, as stored (``by rating``, ``by hand``, ``by the standing of X``),
    as a message the views word.

    >>> str(said_how("by the standing of Meerkamp A")), str(said_how("by hand"))
    ('by the standing of Meerkamp A', 'by hand')
    """
    prefix = "by the standing of "
    if how.startswith(prefix):
        return Message("by the standing of %(name)s", name=how[len(prefix):])
    return Message("by hand") if how == "by hand" else Message("by rating")


def initial_order_rows(store: Store, comp_id: int) -> tuple[list[dict[str, Any]], Message]:
    """The ranking that prices round 1, and how it was set (and whether it is frozen)."""
    from keizer.scoring import initial_order

    require_system(store, comp_id, "keizer", Word("show an initial order"))
    season = store.load_season(comp_id)
    rows = {r["key"]: r for r in store.players(comp_id)}
    placed = set(store.placed_order(comp_id))
    frozen = set(season.initial_order) if store.started(comp_id) else set(rows)

    def how(key: str) -> str:
        return "set" if key in placed else "rating" if key in frozen else "entered later"

    order = [{"position": k, "start_no": rows[key]["start_no"], "name": rows[key]["name"],
              "rating": rows[key]["rating"], "placed": how(key)}
             for k, key in enumerate(initial_order(season), 1)]
    set_by = said_how(store.system_settings(comp_id).get("initial_order", "by rating"))
    if store.started(comp_id):
        return order, Message("initial order %(how)s (frozen: round 1 has been paired)", how=set_by)
    return order, Message("initial order %(how)s (can change until round 1 is paired)", how=set_by)


def set_initial_order(store: Store, comp_id: int, by: str, refs: Sequence[str] = (), source: str | None = None) -> str:
    """Set the ranking that prices round 1: ``rating``, ``standing`` (of competition
    ``source``, e.g. last season's) or ``hand`` (``refs`` first, in that order).
    Players not placed follow by rating.  Refused once round 1 is paired."""
    require_system(store, comp_id, "keizer", Word("set an initial order"))
    if store.started(comp_id):
        raise StoreError("the initial order is frozen: round 1 has been paired (undo or unpair it first)")
    rows = store.players(comp_id)
    if by == "rating":
        keys: list[str] = []
        how = "by rating"
    elif by == "standing":
        if source is None:
            raise StoreError("give the competition whose standing to start from", hint="ev_from_name")
        other = store.competition(source)
        if other["id"] == comp_id:
            raise StoreError("a competition cannot start from its own standing; name last season's")
        place = {m: k for k, m in enumerate(final_ranking(store, other["id"]))}
        keys = [r["key"] for r in sorted((r for r in rows if r["member_id"] in place),
                                         key=lambda r: place[r["member_id"]])]
        how = f"by the standing of {other['name']}"
    elif by == "hand":
        if not refs:
            raise StoreError("name the players in order", hint="ev_order_by_hand")
        keys = []
        for ref in refs:
            row = store.find_player(comp_id, ref)
            if row["key"] in keys:
                raise StoreError("%(name)s is listed twice; list each player once", name=row["name"])
            keys.append(row["key"])
        how = "by hand"
    else:
        raise StoreError("unknown order %(by)s: rating, standing or hand", by=repr(by))
    store.set_initial_order(comp_id, keys)
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "initial_order": how})
    return how
