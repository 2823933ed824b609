"""Setting a competition up: create it from a preset, register players, change its
settings and its time-control plan.

The CLI (``keizer competition create/settings``, ``keizer player add``, ``keizer
timecontrol``) and the web app's competition pages call these, with the same checks and
the same one-line messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from keizer import limits
from keizer import systems
from keizer.i18n import N_
from keizer.refusals import Field, Message, Word, Words
from keizer.operations.attendance import check_entry, check_joined, mark_attendance
from keizer.settings import DESCRIPTIONS, PRESETS
from keizer.store import SYSTEMS, Store, StoreError
from keizer.systems import open_round
from keizer.systems.knockout import STAGES

SCHEDULES = ("roundrobin", "crepaux", "knockout", "swiss")
RATING_LIST_MEANING = N_("national or fide: the rating that orders the players, frozen from that list "
                         "when round 1 is paired")
#: What the settings list says of a setting a system fixes when the competition is created.
FIXED = N_("(fixed when created)")


def parse_sets(sets: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` items as a mapping (``excused=2/5`` → ``{"excused": "2/5"}``)."""
    overrides = {}
    for item in sets:
        if "=" not in item:
            raise StoreError("%(field)s %(item)s: write NAME=VALUE, e.g. %(example)s", field=Field("set"), item=repr(item),
                             example=Field("set_example"))
        name, value = item.split("=", 1)
        overrides[name.strip()] = value.strip()
    return overrides


# -- creating a competition -----------------------------------------------------------


@dataclass(frozen=True)
class NewCompetition:
    """A checked request to create a competition: its system settings and the warnings to show."""

    name: str
    system: str
    preset: str
    overrides: Mapping[str, str]
    system_settings: Mapping[str, Any]
    season: str | None
    all_members: bool
    rounds: int | None
    warnings: list[Message] = field(default_factory=list)

    @property
    def kind(self) -> Message:
        """What was created, as the outcome says it: "competition (preset classic)", "round-robin" …"""
        return Message.of(systems.of(self.system).created, preset=self.preset, n=self.rounds)


def plan_competition(name: str, system: str = "keizer", preset: str = "classic",
                     overrides: Mapping[str, str] | None = None, double: bool = False, swap_last_two: bool = False,
                     tiebreaks: str | None = None, edition: str = "2026", lots: int | None = None,
                     stages: str | None = None, boards: int = 4, schedule: str = "roundrobin",
                     rounds: int | None = None, bye_points: str | None = None, excused_points: str | None = None,
                     initial_colour: str = "white", all_members: bool = False,
                     season: str | None = None, acceleration: str = "none", pairing: str = "dutch",
                     fide_mode: bool | None = None) -> NewCompetition:
    """Check the options of ``competition create`` (before anything is opened or written)
    and work out the system settings, which the system itself makes; refuses in one line."""
    overrides = dict(overrides or {})
    chosen = systems.find(system)
    if chosen is None:
        raise StoreError("unknown competition system %(name)s (choose from %(systems)s)", name=repr(system),
                         systems=", ".join(SYSTEMS))
    if preset not in PRESETS:
        raise StoreError("unknown preset %(preset)s (choose from %(presets)s)", preset=repr(preset),
                         presets=", ".join(PRESETS))
    if schedule not in SCHEDULES:
        raise StoreError("unknown schedule %(schedule)s (choose from %(schedules)s)", schedule=repr(schedule),
                         schedules=", ".join(SCHEDULES))
    if initial_colour not in ("white", "black"):
        raise StoreError("initial colour %(colour)s: white or black", colour=repr(initial_colour))
    if not chosen.preset_settings and overrides:
        raise StoreError("%(field)s changes Keizer settings; other systems take their own options", field=Field("set"))
    if swap_last_two and not double:
        raise StoreError("%(field)s applies to a double round-robin", hint="setup_double", field=Field("swap_last_two"))
    if lots is not None and "lots" not in chosen.options:
        raise StoreError("%(field)s is for %(system)s", field=Field("lots"), system=Field("system_roundrobin"))
    if fide_mode is not None and "fide_mode" not in chosen.options:
        raise StoreError("%(field)s is for Swiss tournaments and round-robins", field=Field("fide_mode"))
    planned = "rounds" in chosen.options_for(schedule)  # a Swiss, of players or of teams
    if (not planned and (rounds or bye_points or excused_points or initial_colour != "white")
            or (acceleration != "none" or pairing != "dutch") and not chosen.accelerated):
        raise StoreError("%(fields)s are for Swiss tournaments", fields=Field("swiss_options"))
    if planned and not rounds:
        raise StoreError("a Swiss tournament needs its planned number of rounds", hint="setup_rounds")
    listed = [t.strip() for t in tiebreaks.split(",") if t.strip()] if tiebreaks else None
    given = {"preset": preset, "overrides": overrides, "double": double, "swap_last_two": swap_last_two,
             "tiebreaks": tiebreaks, "edition": edition, "lots": lots, "stages": stages, "boards": boards,
             "schedule": schedule, "rounds": rounds, "bye_points": bye_points, "excused_points": excused_points,
             "initial_colour": initial_colour, "listed": listed, "acceleration": acceleration,
             "pairing": pairing, "fide_mode": fide_mode}
    system_settings, warnings = chosen.new_settings(given)
    if stages is not None and "stages" not in chosen.options:
        raise StoreError("%(field)s is for knock-outs: a cup, or a team event with %(schedule)s", field=STAGES,
                         schedule=Field("schedule_knockout"))
    return NewCompetition(name, system, preset, overrides, system_settings, season, all_members, rounds, warnings)


def create_competition(store: Store, new: NewCompetition, current: bool = True) -> tuple[int, int]:
    """Create the competition (inside the caller's transaction); returns its id and the
    number of players registered.  ``current``: it becomes the CLI's default competition."""
    comp_id = store.create_competition(new.name, new.preset, new.overrides, new.system, new.system_settings,
                                       new.season, current)
    registered = 0
    if new.all_members:
        for m in store.members():
            store.register(comp_id, m["id"])
            registered += 1
        if systems.of(new.system).numbered:
            from keizer.operations.swiss import assign_numbers

            assign_numbers(store, comp_id)
    return comp_id, registered


# -- players ------------------------------------------------------------------------


def add_players(store: Store, comp: Mapping[str, Any], refs: Sequence[str], joined: int | None = None,
                category: str | None = None, leave_fide: bool = False) -> tuple[int, Message | None]:
    """Register members (by name, #id or federation id) in a competition; returns the
    first round they play and, when they enter a Keizer competition after round 1, the
    note to show.  A late entrant of a Swiss placed among the numbered players once round 4
    is paired reassigns pairing numbers (C.04.2): in FIDE mode refused unless ``leave_fide``."""
    comp_id = comp["id"]
    if not refs:
        raise StoreError("name the members to register")
    season = store.load_season(comp_id)
    first = joined if joined is not None else open_round(season).number
    check_entry(store, comp_id, first)
    for ref in refs:
        m = store.find_member(ref)
        store.register(comp_id, m["id"], first, category)
    if systems.of(comp["system"]).numbered:  # pairing numbers from the start: #N means the same everywhere
        from keizer.operations.fide import record
        from keizer.operations.swiss import assign_numbers
        from keizer.systems.fide import Departure

        numbers = {r["key"]: r["start_no"] for r in store.players(comp_id)}
        assign_numbers(store, comp_id)
        moved = [r for r in store.players(comp_id) if numbers.get(r["key"]) not in (None, r["start_no"])]
        if moved and sum(1 for r in season.rounds if r.games or r.byes) >= 4:
            record(store, comp_id, [Departure("numbers", str(first))], first, leave_fide)
    note = None
    if systems.of(comp["system"]).has_initial_order and store.started(comp_id):
        note = Message("note: entered after round 1, so placed at the bottom of the initial order; the ladder grows, "
                       "and with top=auto every value changes, earlier standings too (set top=N to keep them)") \
            if store.settings(comp_id).top is None else \
            Message("note: entered after round 1, so placed at the bottom of the initial order")
    return first, note


def set_player(store: Store, comp_id: int, ref: str, category: str | None = None, joined: int | None = None,
               default_attendance: str | None = None) -> tuple[str, list[Message]]:
    """Change a player's category, first round or default attendance (what an
    unmarked player gets).  Returns the player's name and what changed ("first round 1 → 3");
    nothing is written when nothing changes.  An empty category removes it."""
    if category is None and joined is None and default_attendance is None:
        raise StoreError("nothing to change", hint="setup_player_change")
    if default_attendance not in (None, "present", "absent"):
        raise StoreError("the default attendance is present or absent, not %(value)s", value=repr(default_attendance))
    row = store.find_player(comp_id, ref)
    fields: dict[str, Any] = {}
    said = []
    if category is not None and (category or None) != row["category"]:
        fields["category"] = category or None
        said.append(Message("category %(old)s → %(new)s", old=row["category"] or Word("(none)"),
                            new=category or Word("(none)")))
    if joined is not None and joined != row["joined"]:
        check_joined(store, comp_id, row, joined)
        fields["joined"] = joined
        said.append(Message("first round %(old)s → %(new)s", old=row["joined"], new=joined))
    if default_attendance is not None and default_attendance != row["default_attendance"]:
        fields["default_attendance"] = default_attendance
        was = row["default_attendance"]
        said.append(Message("default attendance %(old)s → %(new)s", old=Words((was,)) if was else Word("as the competition"),
                            new=Words((default_attendance,))))
    store.update_player(row["id"], **fields)
    return row["name"], said


def withdraw_player(store: Store, comp_id: int, ref: str, fill: bool = True) -> int:
    """Withdraw a player from the next round on; returns the last round they played.
    ``fill=False`` leaves the others unmarked (:func:`mark_attendance`)."""
    number, _ = mark_attendance(store, comp_id, {}, withdrawn=[ref], fill=fill)
    return number - 1


# -- settings -------------------------------------------------------------------------


def setting_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ",".join(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


#: Settings named by a word, which the settings page shows in the club's language (the others
#: are codes such as absence_decay, shown as they are typed).
SETTING_WORDS = frozenset({N_("win"), N_("draw"), N_("loss"), N_("excused"), N_("unexcused"), N_("club"),
                           N_("bye"), N_("rounds"), N_("boards"), N_("schedule"), N_("double"), N_("stages"),
                           N_("acceleration")})


def settings_rows(store: Store, comp_id: int) -> list[dict[str, Any]]:
    """The effective settings of a competition with what each means: setting, value, meaning,
    and whether its name is a word of the catalogs (``word``)."""
    if not systems.of(store.system(comp_id)).preset_settings:
        view = {**system_settings_view(store, comp_id), "rating_list": store.rating_list(comp_id)}
        meaning = {**systems.of(store.system(comp_id)).settings, "rating_list": RATING_LIST_MEANING}
        return [{"setting": k, "value": setting_text(v), "meaning": meaning.get(k, FIXED), "word": k in SETTING_WORDS}
                for k, v in view.items()]
    settings = store.settings(comp_id).to_dict()
    settings["rating_list"] = store.rating_list(comp_id)
    return [{"setting": k, "value": "auto" if k == "top" and v is None else setting_text(v),
             "meaning": DESCRIPTIONS.get(k, RATING_LIST_MEANING), "word": k in SETTING_WORDS}
            for k, v in settings.items()]


def changeable(store: Store, comp_id: int) -> set[str]:
    """The settings that may be changed in this competition."""
    system = store.system(comp_id)
    if systems.of(system).preset_settings:
        return {*DESCRIPTIONS, "rating_list"}
    return {*systems.of(system).changeable(store.system_settings(comp_id)), "rating_list"}


def change_settings(store: Store, comp_id: int, overrides: Mapping[str, str], leave_fide: bool = False) -> Message | None:
    """Change settings (checked before anything is written); returns the note to show
    when a Keizer competition's standings are recomputed.  ``leave_fide``: the user confirmed
    a change that leaves the FIDE rules (:mod:`keizer.operations.fide`)."""
    if not systems.of(store.system(comp_id)).preset_settings:
        change_system_settings(store, comp_id, overrides, leave_fide)
        return None
    played = store.load_season(comp_id).completed_rounds()
    store.update_settings(comp_id, overrides)
    return Message("changed after round %(n)s: every standing is recomputed with the new settings", n=played) if played \
        else None


# -- the time-control plan ---------------------------------------------------------------


def round_range(text: str) -> tuple[int, int | None]:
    """'3' → (3, 3); '1-3' → (1, 3); '4-' → (4, None).

    >>> round_range("4-"), round_range(" 1-3 ")
    ((4, None), (1, 3))
    """
    first, sep, last = text.strip().partition("-")
    try:
        start = limits.whole_number(first, Word("round"), 0, limits.MAX_ROUNDS)
        end = (limits.whole_number(last, Word("round"), 0, limits.MAX_ROUNDS) if last.strip() else None) if sep else start
    except limits.LimitError as e:
        raise StoreError("%(field)s %(text)s: %(why)s; write a round, a range like 1-3, or 4- for 'from round 4 on'",
                         field=Field("plan_rounds"), text=repr(text[:30]), why=e) from None
    if start < 1 or (end is not None and end < start):
        raise StoreError("%(field)s %(text)s: rounds count from 1 and a range runs upwards", field=Field("plan_rounds"),
                         text=repr(text))
    return start, end


def check_time_control(time_control: str | None, rounds: str | None, round_no: int | None, clear: bool) -> str | None:
    """Check a ``keizer timecontrol`` request before writing; returns the text to store (None: clear)."""
    if (rounds is None) == (round_no is None):
        raise StoreError("say which rounds", hint="timecontrol_which")
    if clear == bool(time_control):
        raise StoreError("give a time control", hint="timecontrol_clear")
    if clear:
        return None
    assert time_control is not None
    return limits.clean_text(time_control, Word("a time control"), limits.MAX_TIME_CONTROL)


def set_time_control(store: Store, comp_id: int, text: str | None, rounds: str | None, round_no: int | None) -> None:
    """Record the time control of one existing round (``round_no``) or plan it for a range of rounds."""
    if round_no is not None:
        if round_no not in store.round_numbers(comp_id):
            raise StoreError("round %(n)s does not exist yet", hint="timecontrol_plan", n=round_no)
        store.set_round_time_control(comp_id, round_no, text)
    else:
        assert rounds is not None
        first, last = round_range(rounds)
        store.plan_time_control(comp_id, first, last, text)


def time_control_rows(store: Store, comp_id: int) -> list[dict[str, str]]:
    """The plan: rounds ("1-3", "4-") and time control."""
    return [{"rounds": f"{p['from']}-{p['to'] if p['to'] is not None else ''}",
             "time_control": p["time_control"] or "(none)"} for p in store.time_control_plan(comp_id)]


def system_settings_view(store: Store, comp_id: int) -> dict[str, Any]:
    """The effective settings of a competition that is not Keizer, for showing."""
    return systems.of(store.system(comp_id)).view(store.system_settings(comp_id))


def change_system_settings(store: Store, comp_id: int, overrides: Mapping[str, str], leave_fide: bool = False) -> None:
    """Change settings of a competition that is not Keizer; every value is checked
    before anything is written.  In FIDE mode a change that leaves the FIDE rules is refused
    unless ``leave_fide``."""
    from keizer.operations.fide import guard
    from keizer.systems.fide import departures

    system = systems.of(store.system(comp_id))
    overrides = dict(overrides)
    if "rating_list" in overrides:  # a column of its own: every system has one
        store.set_rating_list(comp_id, overrides.pop("rating_list"))
    stored = store.system_settings(comp_id)
    allowed = system.changeable(stored)
    for name in overrides:
        if name not in allowed:
            known = ", ".join(allowed) or Word("none (a knock-out's stages are fixed when it is created)")
            raise StoreError("%(name)s is not a setting of a %(system)s competition (settings: %(known)s)",
                             name=repr(name), system=systems.SYSTEM_WORDS.get(system.name, system.name), known=known)
    season = store.load_season(comp_id)
    paired = sum(1 for r in season.rounds if r.games or r.byes)
    changed = dict(stored)
    for name, text in overrides.items():
        changed = system.change(changed, name, text, paired)
    system.check(changed)
    # A round-robin's schedule is drawn at once: it has begun with its first result, a Swiss with its first pairing.
    begun = sum(1 for r in season.rounds if any(g.result is not None for g in r.games)) if system.all_play_all else paired
    found = departures(system.name, stored, changed, begun)
    store.set_system_settings(comp_id, guard(store, comp_id, found, open_round(season).number, leave_fide, changed))
