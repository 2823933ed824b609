"""What every competition system is asked, by every layer above it: the protocol.

A system is an object of a :class:`System` subclass, one module per system
(:mod:`keizer.systems.keizer`, ``swiss``, ``roundrobin``, ``knockout``, ``team``), and
the registry in :mod:`keizer.systems` maps the name a competition stores to it.
Code that needs to know what kind of competition it has asks the system
(``systems.of(name).weekly``), never compares the name itself: a new system or a
variant is a new module and a line of the registry.

>>> from keizer import systems
>>> swiss = systems.of("swiss")
>>> swiss.weekly, swiss.from_attendance, swiss.points, swiss.marks
(True, True, True, ('present', 'excused', 'unexcused'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from keizer.model import Season
from keizer.refusals import Message, Word
from keizer.store import StoreError

#: Every attendance mark there is: present, and the kinds of absence (a game elsewhere last).
ALL_MARKS = ("present", "excused", "unexcused", "club", "external")
#: A system's name as a refusal says it (a word of the catalog: "a knockout competition").
SYSTEM_WORDS = {"keizer": Word("keizer"), "swiss": Word("swiss"), "roundrobin": Word("roundrobin"),
                "knockout": Word("knockout"), "team": Word("team")}


@dataclass(frozen=True)
class Open:
    """The round being prepared: its number and whether it has been paired."""

    number: int
    paired: bool
    exists: bool


def open_round(season: Season) -> Open:
    """The round to prepare next: the first one that is not complete."""
    done = season.completed_rounds()
    if len(season.rounds) > done:
        rnd = season.rounds[done]
        return Open(rnd.number, bool(rnd.games) or bool(rnd.byes), True)
    return Open(done + 1, False, False)


class System:
    """A competition system: what it is (class attributes) and its settings (methods).

    The attributes say how the club evening goes: ``weekly`` — attendance, pairing and
    results by board, round by round; ``from_attendance`` — each round is paired from who
    is present (else the whole schedule is drawn at once); ``points`` — ranked by game
    points and tie-breaks (else by Keizer scores, a bracket or match points); ``marks`` —
    the attendance marks it takes; ``marks_ahead`` — a mark may be given for a later round
    (a requested bye); ``unmarked_present`` — a player nobody marked plays, whatever the
    competition's default attendance says; ``planned_rounds`` — a number of rounds is
    planned.  ``settings`` are what ``competition settings`` may change, with what each means.
    The other attributes say what the layers above show and do for it; each says why below.
    """

    name: ClassVar[str]
    label: ClassVar[str]
    weekly: ClassVar[bool] = False
    from_attendance: ClassVar[bool] = False
    points: ClassVar[bool] = False
    marks: ClassVar[tuple[str, ...]] = ()
    marks_ahead: ClassVar[bool] = False
    unmarked_present: ClassVar[bool] = False
    planned_rounds: ClassVar[bool] = False
    #: An individual Swiss: it may be accelerated (virtual points, C.04.7) and keeps a TRF file's
    #: virtual points (XXA) and forbidden pairs (XXP) on import and export.
    accelerated: ClassVar[bool] = False
    settings: ClassVar[Mapping[str, str]] = {}
    #: What its standing is: "ladder" (Keizer scores: rank, value, score), "points" (points and
    #: tie-breaks), "bracket" (a knock-out's matches) or "matches" (teams by match points).
    standing_kind: ClassVar[str] = "ladder"
    #: Its standing is a table of players: it has a crosstable and each player's history of rounds.
    player_table: ClassVar[bool] = True
    #: Its settings are Keizer settings (a preset and ``--set`` overrides), not system settings.
    preset_settings: ClassVar[bool] = False
    #: Its standing starts from an initial order (set by the officer, frozen when play begins).
    has_initial_order: ClassVar[bool] = False
    #: Every player meets every other by a schedule drawn at once (the Berger tables).
    all_play_all: ClassVar[bool] = False
    #: Paired by score groups under the FIDE Swiss rules (``operations/swiss.py``): a no-show forfeits.
    score_groups: ClassVar[bool] = False
    #: Its players get pairing numbers when registered, so that #N means the same everywhere.
    numbered: ClassVar[bool] = False
    #: The hint key of a refusal in it of what only another system does: how it is run instead.
    run_hint: ClassVar[str] = ""
    #: What ``competition create`` made, as its outcome says it (%(preset)s, %(n)s: the rounds).
    created: ClassVar[str] = ""
    #: The options of ``competition create`` it takes (besides name, season, all members).
    options: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        return f"<system {self.name}>"

    @property
    def fills_attendance(self) -> bool:
        """Before a round is paired, a player nobody marked gets their own or the competition's default."""
        return self.from_attendance and not self.unmarked_present

    def options_for(self, schedule: str) -> tuple[str, ...]:
        """The creation options a form sends for the schedule it chose (a team event's depend on it)."""
        return self.options

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """A new competition's system settings from the options of ``competition create`` (``given``:
        its keywords, and ``listed``: the tie-break list split), checked; and the warnings to show."""
        return {}, []

    def changeable(self, stored: Mapping[str, Any]) -> Mapping[str, str]:
        """The settings that may change now (a system may offer fewer for some schedules)."""
        return self.settings

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The effective settings, for showing."""
        return dict(stored)

    def change(self, stored: Mapping[str, Any], name: str, text: str, paired: int) -> dict[str, Any]:
        """``stored`` with one setting changed from ``text`` (``paired``: rounds paired so far);
        a value that does not fit is refused.  Called only for the names of :meth:`changeable`."""
        raise StoreError("%(name)s is not a setting of a %(system)s competition", name=repr(name), system=SYSTEM_WORDS.get(self.name, self.name))

    def check(self, stored: Mapping[str, Any]) -> None:
        """Refuse settings that do not fit together (after every change)."""
