"""The state of a stored competition that the verbs check first: which system it is for
what is asked, and whether its open round may be paired.
"""

from __future__ import annotations


from keizer import systems
from keizer.model import Season
from keizer.scoring import Standing, standing_after
from keizer.store import Store, StoreError
from keizer.systems import Open


def require_weekly(store: Store, comp_id: int, action: str) -> str:
    """The system of a competition paired round by round from attendance (Keizer or Swiss)."""
    system = store.system(comp_id)
    if not systems.of(system).from_attendance:
        require_system(store, comp_id, "keizer", action)
    return system


def require_system(store: Store, comp_id: int, system: str, action: str) -> None:
    actual = store.system(comp_id)
    if actual != system:
        hint = {"roundrobin": "its pairings come from the Berger table: use 'keizer roundrobin draw'",
                "swiss": "a Swiss tournament is paired round by round with 'keizer pair'",
                "knockout": "a cup is drawn with 'keizer knockout draw'",
                "team": "a team event is scheduled with 'keizer team schedule'",
                "keizer": "it is a Keizer competition"}[actual]
        raise StoreError(f"cannot {action} in this {actual} competition: {hint}")


def require_unpaired(season: Season, target: Open) -> None:
    """Refuse to pair the open round when it is paired already (or its results are half in)."""
    if not target.paired:
        return
    rnd = season.rounds[target.number - 1]
    waiting = [str(g.board) for g in rnd.games if g.result is None]
    if waiting and len(waiting) < len(rnd.games):
        raise StoreError(f"round {target.number} still waits for results (boards {', '.join(waiting)}); "
                         "enter them with 'keizer result' before pairing the next round")
    raise StoreError(f"round {target.number} is already paired; 'keizer unpair' first, or 'keizer pair --again'")


def current_standing(season: Season, upto: int | None = None) -> Standing:
    return standing_after(season, upto)
