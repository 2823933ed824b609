"""FIDE mode: a Swiss or a round-robin run by the FIDE rules, and what leaves them.

FIDE's endorsement rules for a tournament program (Handbook C.04.A and its checklist) ask
for a *FIDE mode*: the default for a new tournament, in which nothing the FIDE rules forbid
happens unless the arbiter insists, and then the tournament says so for good (its TRF
file carries a ``###`` comment).  A competition's mode is one of its system settings:

* ``fide``: ``True`` — FIDE mode; ``False`` — run outside the FIDE rules (created so, or
  left them); absent — created before FIDE mode existed (no mode is shown or enforced);
* ``left_fide``: what took it out of the FIDE rules, in order: ``{"round": N, "what":
  code, "value": text}``, one per departure (kept after leaving, so later ones are listed too).

Everything here is pure: :func:`departures` says whether a change of settings leaves the
rules, :func:`mode_line` what the pairing and standing pages say.

>>> before = {"fide": True, "scoring": None}
>>> [d.what for d in departures("swiss", before, {**before, "scoring": {"pab": "1/2"}}, 0)]
['bye_points']
>>> departures("swiss", before, {**before, "tiebreaks": ["BH", "SB"]}, 0)   # before round 1: free
[]
>>> [str(d.said) for d in departures("swiss", before, {**before, "tiebreaks": ["BH", "SB"]}, 2)]
['the tie-breaks changed after round 1 (BH,SB)']
>>> str(mode_line({"fide": True}))
'FIDE rules'
>>> str(mode_line({"fide": False, "left_fide": [{"round": 3, "what": "swap", "value": "3"}]}))
'Not FIDE rules since round 3: a pairing changed by hand in round 3'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from keizer.i18n import N_
from keizer.refusals import Field, Message
from keizer.store import StoreError

#: The systems that have a FIDE mode (their names).
SYSTEMS = ("swiss", "roundrobin")

#: What leaves the FIDE rules, by code: how a page, the log and a refusal say it (%(value)s: the new value).
#: C.04.1 (the bye gets the points of a win; a requested bye at most half of them: FIDE's
#: endorsement rules name full-point byes as not allowed), C.04.2/C.04.3 (the pairing is the
#: system's: no pairing changed by hand; pairing numbers reassigned only until round 4 is paired),
#: C.07 (tie-breaks announced before the start).
SAID: dict[str, str] = {
    "created": N_("created outside FIDE mode"),
    "bye_points": N_("the pairing-allocated bye is worth %(value)s"),
    "excused_points": N_("a requested bye is worth %(value)s"),
    "tiebreaks": N_("the tie-breaks changed after round 1 (%(value)s)"),
    "edition": N_("the tie-break rule edition changed after round 1 (%(value)s)"),
    "lots": N_("the drawing of lots for ties changed after round 1"),
    "swap": N_("a pairing changed by hand in round %(value)s"),
    "numbers": N_("pairing numbers reassigned after round 4 was paired (a late entry in round %(value)s)"),
}


@dataclass(frozen=True)
class Departure:
    """One thing that leaves the FIDE rules: its code (a key of :data:`SAID`) and value."""

    what: str
    value: str = ""

    @property
    def said(self) -> Message:
        return Message.of(SAID[self.what], value=self.value)

    def stored(self, round_no: int) -> dict[str, Any]:
        return {"round": round_no, "what": self.what, "value": self.value}


def has_mode(system: str, stored: Mapping[str, Any]) -> bool:
    """Whether the competition has a mode at all (a Swiss or round-robin created since FIDE mode exists)."""
    return system in SYSTEMS and "fide" in stored


def in_fide_mode(system: str, stored: Mapping[str, Any]) -> bool:
    """Whether the FIDE rules are enforced: a change that leaves them must be confirmed."""
    return has_mode(system, stored) and stored.get("fide") is True


def _scoring(stored: Mapping[str, Any]) -> Mapping[str, str]:
    return stored.get("scoring") or {}


def departures(system: str, before: Mapping[str, Any], after: Mapping[str, Any], paired: int) -> list[Departure]:
    """What changing a competition's settings from ``before`` to ``after`` does that the FIDE
    rules do not allow (``paired``: rounds paired so far, or for a round-robin, whose schedule is drawn
    at once, rounds begun); an empty list: nothing.

    Only what the change itself brings counts: a bye worth ½ already is not a new departure."""
    if system not in SYSTEMS:
        return []
    found = []
    if system == "swiss":
        for key, code in (("pab", "bye_points"), ("hpb", "excused_points")):
            old, new = _scoring(before).get(key), _scoring(after).get(key)
            if new is not None and new != old and not _fide_bye(key, Fraction(new)):
                found.append(Departure(code, str(Fraction(new))))
    if paired:
        for key in ("tiebreaks", "edition"):
            if before.get(key) != after.get(key):
                new_value = after.get(key)
                found.append(Departure(key, ",".join(new_value) if isinstance(new_value, list) else str(new_value)))
        if system == "roundrobin" and before.get("lots") != after.get("lots"):
            found.append(Departure("lots"))
    return found


def _fide_bye(key: str, points: Fraction) -> bool:
    """The pairing-allocated bye scores a win (1); a requested bye nothing or a half point."""
    return points == 1 if key == "pab" else points in (0, Fraction(1, 2))


def created(system: str, settings: Mapping[str, Any]) -> list[Departure]:
    """What a new competition's own settings do that the FIDE rules do not allow."""
    return departures(system, {}, settings, 0)


def new_mode(system: str, settings: Mapping[str, Any], wanted: bool | None) -> dict[str, Any]:
    """A new competition's settings with its mode: FIDE mode when ``wanted`` (refused when its
    own settings leave the FIDE rules), outside it when not; by default FIDE mode when its
    settings are FIDE's.

    >>> new_mode("swiss", {"scoring": {"pab": "1/2"}}, None)["left_fide"]
    [{'round': 1, 'what': 'bye_points', 'value': '1/2'}]
    >>> new_mode("roundrobin", {}, None)
    {'fide': True}
    """
    found = created(system, settings)
    if wanted and found:
        raise StoreError("%(what)s: not the FIDE rules, which %(field)s keeps", hint="fide_create",
                         what=joined([d.said for d in found]), field=Field("fide_mode"))
    if wanted is None:
        wanted = not found
    if wanted:
        return {**settings, "fide": True}
    return left({**settings, "fide": True}, 1, found or [Departure("created")])


def left(stored: Mapping[str, Any], round_no: int, found: Sequence[Departure]) -> dict[str, Any]:
    """``stored`` with the departures recorded (from round ``round_no`` on): out of FIDE mode."""
    if not found:
        return dict(stored)
    return {**stored, "fide": False, "left_fide": [*stored.get("left_fide", []), *(d.stored(round_no) for d in found)]}


def recorded(stored: Mapping[str, Any]) -> list[tuple[int, Departure]]:
    """The departures recorded, in order: (round, departure)."""
    return [(int(d["round"]), Departure(str(d["what"]), str(d.get("value", ""))))
            for d in stored.get("left_fide", []) if d.get("what") in SAID]


def joined(messages: Sequence[Message]) -> Message:
    """Several messages as one, separated by semicolons (each worded in the view's language)."""
    if len(messages) == 1:
        return messages[0]
    return Message("%(first)s; %(rest)s", first=messages[0], rest=joined(messages[1:]))


def mode_line(stored: Mapping[str, Any]) -> Message | None:
    """What the pairing and standing pages say of the mode: "FIDE rules", or "Not FIDE rules
    since round N: what"; None for a competition without a mode."""
    if "fide" not in stored:
        return None
    if stored.get("fide") is True:
        return Message("FIDE rules")
    found = recorded(stored)
    if not found:
        return Message("Not FIDE rules")
    return Message("Not FIDE rules since round %(n)s: %(what)s", n=found[0][0], what=joined([d.said for _, d in found]))


def trf_comments(stored: Mapping[str, Any]) -> tuple[str, ...]:
    """The ``###`` comment lines a TRF file of the competition carries (in English, as TRF is):
    FIDE mode, or when and how it left the FIDE rules.

    >>> trf_comments({"fide": False, "left_fide": [{"round": 2, "what": "bye_points", "value": "1/2"}]})
    ('### FIDE mode: no, not FIDE rules since round 2', '### round 2: not FIDE rules: the pairing-allocated bye is worth 1/2')
    """
    if "fide" not in stored:
        return ()
    if stored.get("fide") is True:
        return ("### FIDE mode: yes",)
    found = recorded(stored)
    head = f"### FIDE mode: no, not FIDE rules since round {found[0][0]}" if found else "### FIDE mode: no"
    return (head, *(f"### round {n}: not FIDE rules: {d.said}" for n, d in found))


def marked(info: Sequence[str]) -> dict[str, Any] | None:
    """The mode a TRF file's ``###`` lines say, as :func:`trf_comments` writes them: ``{"fide":
    True}``, or ``{"fide": False, "left_fide": […]}`` with each departure it names (a line this
    version does not know is left out); None when the file is not marked.

    >>> marked(["### FIDE mode: yes"])
    {'fide': True}
    >>> marked(trf_comments({"fide": False, "left_fide": [{"round": 3, "what": "swap", "value": "3"}]}))
    {'fide': False, 'left_fide': [{'round': 3, 'what': 'swap', 'value': '3'}]}
    >>> marked(["### keizer trf generate --players 12"]) is None
    True
    """
    import re

    head = [line for line in info if line.startswith("### FIDE mode: ")]
    if not head:
        return None
    if head[0].strip() == "### FIDE mode: yes":
        return {"fide": True}
    patterns = {what: re.compile("^" + re.escape(said).replace(re.escape("%(value)s"), "(.*)") + "$")
                for what, said in SAID.items()}
    found = []
    for line in info:
        if m := re.match(r"^### round (\d+): not FIDE rules: (.*)$", line.strip()):
            for what, pattern in patterns.items():
                if v := pattern.match(m.group(2)):
                    found.append(Departure(what, v.group(1) if v.groups() else "").stored(int(m.group(1))))
                    break
    return {"fide": False, "left_fide": found}


def imported(system: str, settings: Mapping[str, Any], info: Sequence[str]) -> dict[str, Any]:
    """The settings of a competition imported from a TRF file (``info``: its comment lines) with
    its mode: the one the file is marked with (``### FIDE mode``, :func:`marked`; a file marked
    "yes" whose own settings leave the FIDE rules is out of them, as a new competition would be);
    unmarked, a Swiss gets a new Swiss's default (FIDE mode when its settings are FIDE's) and a
    round-robin no mode, as before FIDE mode existed.

    >>> imported("swiss", {"scoring": None}, [])
    {'scoring': None, 'fide': True}
    >>> imported("swiss", {"scoring": None}, ["### FIDE mode: no"])
    {'scoring': None, 'fide': False, 'left_fide': []}
    >>> imported("roundrobin", {}, [])
    {}
    """
    if system not in SYSTEMS:
        return dict(settings)
    mark = marked(info)
    if mark is None:
        return new_mode(system, settings, None) if system == "swiss" else dict(settings)
    if mark["fide"]:
        return new_mode(system, settings, None)
    return {**settings, **mark}
