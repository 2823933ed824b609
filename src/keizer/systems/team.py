"""Team events (:mod:`keizer.pairing.teams`): teams of players on ordered boards, playing a
team round-robin, the Crepaux system (three teams), a knock-out, or a team Swiss."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

from keizer.i18n import N_
from keizer.refusals import Field, Message
from keizer.store import Store, StoreError
from keizer.systems.base import System
from keizer.systems.knockout import STAGES, parse_stages
from keizer.systems.points import checked_tiebreaks
from keizer.systems.swiss import parse_initial_colour, parse_rounds

if TYPE_CHECKING:  # the tie-break rules are imported where they are used: the registry stays light
    from keizer.tiebreaks import Edition, Scoring
    from keizer.tiebreaks import System as Pairings

SCHEDULES = ("roundrobin", "crepaux", "knockout", "swiss")
#: System settings of a team event, with their defaults (``keizer competition create --system team``).
DEFAULTS: dict[str, Any] = {"boards": 4, "schedule": "roundrobin", "double": False, "swap_last_two": False,
                            "edition": "2026", "tiebreaks": None, "rounds": None, "initial_colour": "white",
                            "stages": None}


def match_scoring(schedule: str) -> Scoring:
    """Match points 2-1-0.  A free round scores nothing, as in an individual round-robin: with an
    odd number of teams everyone has one, and Crepaux teams sit out one pairing without a bye.
    In a team Swiss a pairing-allocated bye is worth a drawn match (FIDE C.04.6's default)."""
    from keizer.tiebreaks import Scoring

    return Scoring.matches() if schedule == "swiss" else replace(Scoring.matches(), pab=Fraction(0))


if TYPE_CHECKING:
    #: A team round-robin's (or Crepaux, knock-out) match scoring, and a team Swiss's: :func:`match_scoring`.
    MATCH_SCORING: Scoring
    SWISS_MATCH_SCORING: Scoring


def __getattr__(name: str) -> Any:
    """``MATCH_SCORING`` and ``SWISS_MATCH_SCORING``, made when first asked for."""
    if name in ("MATCH_SCORING", "SWISS_MATCH_SCORING"):
        return match_scoring("swiss" if name == "SWISS_MATCH_SCORING" else "roundrobin")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pairings_of(schedule: str) -> Pairings:
    """How the tie-break rules see a team event of this schedule."""
    from keizer.tiebreaks import System as Pairings

    return Pairings.SWISS if schedule == "swiss" else Pairings.ROUND_ROBIN


@dataclass(frozen=True)
class TeamRules:
    """A team event's stored settings, checked."""

    boards: int
    schedule: str
    double: bool
    swap_last_two: bool
    tiebreaks: tuple[str, ...]
    edition: Edition
    rounds: int | None = None  # a Swiss: the planned number of rounds
    initial_colour: str = "white"  # a Swiss: the colour of the top seed's first board in round 1
    stages: tuple[tuple[str, int], ...] = ()  # a knock-out: tie-break stages after the match, (kind, boards)

    @property
    def system(self) -> Pairings:
        """How the tie-break rules see the event."""
        return pairings_of(self.schedule)

    @property
    def match_scoring(self) -> Scoring:
        return match_scoring(self.schedule)


def team_rules(settings: Mapping[str, Any]) -> TeamRules:
    """The rules from stored settings; a tie-break list the rules forbid is refused.

    >>> team_rules({"boards": 6}).tiebreaks
    ('MPVGP', 'EDE', 'EMGSB')
    >>> team_rules({"tiebreaks": ["SB"]})
    Traceback (most recent call last):
    ...
    keizer.store.StoreError: SB: an individual tie-break, and this is a team event
    """
    merged = {**DEFAULTS, **settings}
    if merged["schedule"] not in SCHEDULES:
        raise StoreError("unknown team schedule %(schedule)s (use %(schedules)s)", schedule=repr(merged["schedule"]),
                         schedules=" or ".join(SCHEDULES))
    tiebreaks, edition = checked_tiebreaks(merged["tiebreaks"], True, pairings_of(merged["schedule"]),
                                           merged["edition"])
    stages = tuple((x["kind"], int(x["games"])) for x in merged["stages"] or ())
    if any(games > int(merged["boards"]) for _, games in stages):
        raise StoreError("a tie-break stage is played on at most the event's %(boards)s boards", boards=merged["boards"])
    return TeamRules(int(merged["boards"]), merged["schedule"], bool(merged["double"]),
                     bool(merged["swap_last_two"]), tiebreaks, edition, merged["rounds"], merged["initial_colour"],
                     stages)


def team_warnings(settings: Mapping[str, Any]) -> list[Message]:
    """Advice on a tie-break list given by hand (none for the default); refuses a forbidden one."""
    from keizer.tiebreaks import advise

    rules = team_rules(settings)
    if not settings.get("tiebreaks"):
        return []
    return [a.said for a in advise(list(rules.tiebreaks), True, rules.system, rules.edition)
            if a.level != "error"]


def stored_rules(store: Store, comp_id: int) -> TeamRules:
    return team_rules(store.system_settings(comp_id))


class Team(System):
    name = "team"
    label = "Team event"
    standing_kind = "matches"
    player_table = False
    run_hint = "ev_run_team"
    created = N_("team event")
    options = ("boards", "schedule", "double", "swap_last_two", "tiebreaks", "rounds", "initial_colour", "stages",
               "edition")
    settings = {"tiebreaks": N_("tie-break list"), "edition": N_("tie-break rule edition"),
                "rounds": N_("a Swiss: planned number of rounds"),
                "initial_colour": N_("a Swiss: white or black, the top seed's first board in round 1 (until it is paired)")}

    def options_for(self, schedule: str) -> tuple[str, ...]:
        """A Swiss also plans its rounds and first colour; a knock-out has its tie-break stages."""
        return ("boards", "schedule", "double", "swap_last_two", "tiebreaks",
                *(("rounds", "initial_colour") if schedule == "swiss" else ()),
                *(("stages",) if schedule == "knockout" else ()), "edition")

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """Boards, schedule and tie-breaks; a Swiss's rounds and first colour, a knock-out's stages."""
        if given.get("bye_points") or given.get("excused_points"):
            raise StoreError("a team Swiss gives a bye a drawn match (FIDE's default); %(fields)s are for individual "
                             "Swiss tournaments", fields=Field("swiss_points"))
        schedule, stages = given.get("schedule", "roundrobin"), given.get("stages")
        settings = {"boards": given.get("boards", 4), "schedule": schedule, "double": given.get("double", False),
                    "swap_last_two": given.get("swap_last_two", False), "edition": given.get("edition", "2026"),
                    "tiebreaks": given.get("listed")}
        if schedule == "swiss":
            settings |= {"rounds": given.get("rounds"), "initial_colour": given.get("initial_colour", "white")}
        if stages is not None:
            if schedule != "knockout":
                raise StoreError("%(field)s is for knock-outs: a cup, or a team event with %(schedule)s", field=STAGES,
                                 schedule=Field("schedule_knockout"))
            if any(item.split(":")[0].strip().lower() == "regular" for item in stages.split(",")):
                raise StoreError("a team knock-out's %(field)s lists the tie-break stages only (rapid, blitz, "
                                 "armageddon); the match itself is on every board", field=STAGES)
            try:
                settings["stages"] = parse_stages("regular:1," + stages)[1:]
            except StoreError as e:  # count the stages as the user wrote them (without the match itself)
                e.values = {k: re.sub(r"stage (\d+)", lambda m: f"stage {int(m.group(1)) - 1}", v) if isinstance(v, str)
                            else v for k, v in e.values.items()}
                raise e from None
        return settings, team_warnings(settings)

    def changeable(self, stored: Mapping[str, Any]) -> Mapping[str, str]:
        schedule = stored.get("schedule")
        if schedule == "knockout":  # a bracket has no tie-break list, and no planned number of rounds
            return {}
        if schedule != "swiss":
            return {k: v for k, v in self.settings.items() if k not in ("rounds", "initial_colour")}
        return self.settings

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        team = team_rules(stored)
        if team.schedule == "knockout":  # decided match by match: no tie-break list
            return {"boards": team.boards, "schedule": team.schedule,
                    "stages": ",".join(f"{kind}:{games}" for kind, games in team.stages) or None}
        view: dict[str, Any] = {"boards": team.boards, "schedule": team.schedule, "tiebreaks": list(team.tiebreaks),
                                "edition": team.edition.value}
        if team.schedule == "swiss":
            view |= {"rounds": team.rounds, "initial_colour": team.initial_colour}
        else:
            view |= {"double": team.double, "swap_last_two": team.swap_last_two}
        return view

    def change(self, stored: Mapping[str, Any], name: str, text: str, paired: int) -> dict[str, Any]:
        changed = dict(stored)
        if name == "tiebreaks":
            changed["tiebreaks"] = [t.strip() for t in text.split(",") if t.strip()] or None
        elif name == "edition":
            changed["edition"] = text
        elif name == "rounds":
            changed["rounds"] = parse_rounds(text, paired)
        elif name == "initial_colour":
            changed["initial_colour"] = parse_initial_colour(text, paired)
        else:
            return super().change(stored, name, text, paired)
        return changed

    def check(self, stored: Mapping[str, Any]) -> None:
        team_rules(stored)


SYSTEM = Team()
