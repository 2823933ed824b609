"""Competition systems as plug-ins: the registry.

Each system is a module of this package with one :class:`~keizer.systems.base.System`
object; :func:`of` gives the system of the name a competition stores.  Adding a system
(or a variant, such as another FIDE Swiss system) is a new module and a line here.
See docs/architecture.md.

>>> of("keizer").marks
('present', 'excused', 'unexcused', 'club', 'external')
>>> [s.name for s in ALL if s.weekly]
['keizer', 'swiss', 'roundrobin']
"""

from __future__ import annotations

from keizer.store import Store, StoreError
from keizer.systems import keizer, knockout, roundrobin, swiss, team
from keizer.systems.base import SYSTEM_WORDS, Open, System, open_round
from keizer.systems.points import PointsRules, PointsSystem

#: Every system, in the order pages list them.
ALL: tuple[System, ...] = (keizer.SYSTEM, swiss.SYSTEM, roundrobin.SYSTEM, knockout.SYSTEM, team.SYSTEM)
_BY_NAME = {s.name: s for s in ALL}

__all__ = ["ALL", "SYSTEM_WORDS", "Open", "PointsRules", "PointsSystem", "System", "find", "of", "open_round",
           "points_system",
           "stored_points_rules"]


def of(name: str) -> System:
    """The system of a stored name."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise StoreError("unknown competition system %(name)s (one of %(systems)s)", name=repr(name),
                         systems=", ".join(_BY_NAME)) from None


def find(name: str) -> System | None:
    """The system of a name, or None (a form may send any name; the operation refuses it)."""
    return _BY_NAME.get(name)


def points_system(name: str) -> PointsSystem:
    """The system of a competition ranked by points (a round-robin group, a Swiss)."""
    system = of(name)
    if not isinstance(system, PointsSystem):
        raise StoreError("a %(system)s competition is not ranked by points and tie-breaks", system=SYSTEM_WORDS.get(name, name))
    return system


def stored_points_rules(store: Store, comp_id: int) -> PointsRules:
    """How a stored points competition is ranked."""
    return points_system(store.system(comp_id)).rules(store.system_settings(comp_id))
