"""The state of a stored competition that the verbs check first: which system it is for
what is asked, and whether its open round may be paired.
"""

from __future__ import annotations


from keizer import systems
from keizer.model import Season
from keizer.refusals import Message, Word
from keizer.scoring import Standing, standing_after
from keizer.store import Store, StoreError
from keizer.systems import Open


def require_weekly(store: Store, comp_id: int, action: str | Word) -> str:
    """The system of a competition paired round by round from attendance (Keizer or Swiss)."""
    system = store.system(comp_id)
    if not systems.of(system).from_attendance:
        require_system(store, comp_id, "keizer", action)
    return system


def require_system(store: Store, comp_id: int, system: str, action: str | Word | Message) -> None:
    """Refuse ``action`` (a :class:`Word`, or English from a caller not converted yet)
    in a competition of another system than ``system``."""
    actual = store.system(comp_id)
    if actual != system:
        raise StoreError("cannot %(action)s in this %(system)s competition", hint=systems.of(actual).run_hint,
                         action=action, system=systems.SYSTEM_WORDS[actual])


def require_unpaired(season: Season, target: Open) -> None:
    """Refuse to pair the open round when it is paired already (or its results are half in)."""
    if not target.paired:
        return
    rnd = season.rounds[target.number - 1]
    waiting = [str(g.board) for g in rnd.games if g.result is None]
    if waiting and len(waiting) < len(rnd.games):
        raise StoreError("round %(n)s still waits for results (boards %(boards)s)", hint="ev_enter_results_first",
                         n=target.number, boards=", ".join(waiting))
    raise StoreError("round %(n)s is already paired", hint="ev_unpair_or_again", n=target.number)


def current_standing(season: Season, upto: int | None = None) -> Standing:
    return standing_after(season, upto)
