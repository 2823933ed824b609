"""Knock-out cups (:mod:`keizer.pairing.knockout`): a bracket of matches, each of regular
games and tie-break stages; the stages are fixed when the cup is created."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from keizer.i18n import N_
from keizer.limits import is_digits
from keizer.refusals import Field, Message
from keizer.store import StoreError
from keizer.systems.base import System

if TYPE_CHECKING:
    from keizer.pairing.knockout import MatchFormat

STAGE_KINDS = ("regular", "rapid", "blitz", "armageddon")
#: A cup's stages when none are given (``competition create --system knockout``).
DEFAULT_STAGES = "regular:2,rapid:2,blitz:2,armageddon:1"
#: What the stages' refusals call the list: the command line's flag, the app's box (a catalog word).
STAGES = Field("stages")


def parse_stages(text: str) -> list[dict[str, Any]]:
    """'regular:2,rapid:2,armageddon:1' → [{"kind": "regular", "games": 2}, …], checked.

    >>> parse_stages("regular:2, armageddon:1")
    [{'kind': 'regular', 'games': 2}, {'kind': 'armageddon', 'games': 1}]
    """
    from keizer.pairing.knockout import MatchFormat, Stage, StageKind  # the bracket engine: only when a cup is made

    stages: list[dict[str, Any]] = []
    for item in text.split(","):
        kind, sep, games = item.strip().partition(":")
        kind = kind.strip().lower()
        if kind not in STAGE_KINDS or not sep or not is_digits(games.strip(), 3) or int(games) < 1:
            raise StoreError("%(field)s %(item)s: write KIND:GAMES, KIND one of %(kinds)s", field=STAGES,
                             item=repr(item.strip()), kinds=", ".join(STAGE_KINDS))
        stages.append({"kind": kind, "games": int(games)})
    if not stages or stages[0]["kind"] != "regular":
        raise StoreError("%(field)s must start with the regular games, e.g. regular:2,rapid:2,armageddon:1", field=STAGES)
    try:
        MatchFormat(tuple(Stage(StageKind(s["kind"]), s["games"]) for s in stages))
    except ValueError as e:
        raise StoreError("%(field)s: %(why)s", field=STAGES, why=str(e)) from None
    return stages


def match_format(settings: Mapping[str, Any]) -> MatchFormat:
    """A cup's match format from its stored settings."""
    from keizer.pairing.knockout import MatchFormat, Stage, StageKind  # the bracket engine: only when a cup is played

    return MatchFormat(tuple(Stage(StageKind(s["kind"]), s["games"]) for s in settings["stages"]))


class Knockout(System):
    name = "knockout"
    label = "Knock-out cup"
    standing_kind = "bracket"
    player_table = False
    run_hint = "ev_run_knockout"
    created = N_("knock-out cup")
    options = ("stages",)

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """The stages of each match, checked (by default :data:`DEFAULT_STAGES`)."""
        return {"stages": parse_stages(given.get("stages") or DEFAULT_STAGES)}, []

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return {"stages": ",".join(f"{x['kind']}:{x['games']}" for x in stored.get("stages", []))}


SYSTEM = Knockout()
