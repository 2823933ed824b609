"""Swiss tournaments by the FIDE Dutch rules (:mod:`keizer.pairing.swiss`): paired round by
round from who takes part; a player may ask ahead for a bye; the rounds are planned."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from keizer.i18n import N_
from keizer.limits import is_digits
from keizer.refusals import Field, Message
from keizer.store import StoreError
from keizer.systems.fide import new_mode
from keizer.systems.points import POINTS_DEFAULTS, PointsSystem

#: A Swiss tournament's settings, with their defaults (``numbered``: the keys in TPN order once paired).
SWISS_DEFAULTS: dict[str, Any] = {**POINTS_DEFAULTS, "rounds": None, "initial_colour": "white", "numbered": None}
#: Accelerated pairings a Swiss may use: none, or FIDE's Baku method (C.04.7).  Stored only when
#: chosen (``acceleration``), with, once round 1 is paired, ``group_a_last`` (the key of group A's
#: last player) and ``virtual`` (group A's virtual points by round); an imported file's own
#: virtual points are ``virtual_given`` (key → points by round).
ACCELERATIONS = ("none", "baku")  # the engine's METHODS, not imported: the registry loads no engine (a test keeps them equal)
#: The Swiss pairing systems (``pairing``, stored when not the Dutch system): FIDE's Dutch system
#: C.04.3, the Dubov system C.04.4.1 and the Burstein system C.04.4.2 (the engine's SYSTEMS; a
#: test keeps them equal).
PAIRINGS = ("dutch", "dubov", "burstein", "lim")


def parse_points(text: str, what: str | Field) -> str:
    """'1', '0.5', '½' or '1/2' → '1/2' (stored exactly); 0 to 1 only.

    >>> parse_points("½", "bye_points"), parse_points("0,5", "bye_points")
    ('1/2', '1/2')
    """
    try:
        value = Fraction(text.strip().replace("½", "1/2").replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise StoreError("%(what)s %(text)s: give points such as 1, 0.5 or 0", what=what, text=repr(text)) from None
    if not 0 <= value <= 1:
        raise StoreError("%(what)s %(text)s: points lie between 0 and 1", what=what, text=repr(text))
    return str(value)


def parse_rounds(text: str, paired: int) -> int:
    """A planned number of rounds: at least the rounds paired already, at most 99."""
    low = max(paired, 1)
    if not is_digits(text.strip(), 2) or not low <= int(text) <= 99:
        raise StoreError("rounds %(text)s: give a whole number from %(low)s (%(paired)s rounds are paired) to 99",
                         text=repr(text), low=low, paired=paired)
    return int(text)


def parse_initial_colour(text: str, paired: int) -> str:
    """The top seed's colour in round 1: white or black, until round 1 is paired."""
    if text not in ("white", "black"):
        raise StoreError("initial_colour %(text)s: white or black", text=repr(text))
    if paired:
        raise StoreError("the initial colour decided round 1, which is paired already")
    return text


def parse_acceleration(text: str, paired: int) -> str:
    """The acceleration method, none (or empty) or baku, until round 1 is paired (C.04.7 fixes
    group A then)."""
    text = text.strip().lower() or "none"
    if text not in ACCELERATIONS:
        raise StoreError("acceleration %(text)s: none or baku", text=repr(text))
    if paired:
        raise StoreError("the acceleration is fixed once round 1 is paired")
    return text


def parse_pairing(text: str, paired: int) -> str:
    """The pairing system, dutch (or empty), dubov, burstein or lim, until round 1 is paired."""
    text = text.strip().lower() or "dutch"
    if text not in PAIRINGS:
        raise StoreError("pairing %(text)s: dutch, dubov, burstein or lim", text=repr(text))
    if paired:
        raise StoreError("the pairing system is fixed once round 1 is paired")
    return text


class Swiss(PointsSystem):
    name = "swiss"
    label = "Swiss tournament"
    from_attendance = True
    marks = ("present", "excused", "unexcused")  # no club duty and no external games: a bye or an absence
    marks_ahead = True  # a requested bye, or notice of absence, for a later round
    unmarked_present = True  # a Swiss pairs everyone not marked absent
    planned_rounds = True
    accelerated = True
    score_groups = True
    numbered = True
    run_hint = "ev_run_swiss"
    created = N_("Swiss tournament (%(n)s rounds)")
    options = ("rounds", "bye_points", "excused_points", "initial_colour", "pairing", "tiebreaks", "fide_mode", "edition")
    family = "swiss"  # keizer.tiebreaks.System.SWISS; FIDE's default scoring
    settings = {"rounds": N_("planned number of rounds"),
                "initial_colour": N_("white or black: the top seed's colour in round 1 (until round 1 is paired)"),
                "bye_points": N_("points of the pairing-allocated bye"),
                "excused_points": N_("points of a requested bye (an excused absence)"), "tiebreaks": N_("tie-break list"),
                "edition": N_("tie-break rule edition"),
                "acceleration": N_("none or baku: accelerated pairings by FIDE's Baku method (until round 1 is "
                                   "paired)"),
                "pairing": N_("dutch, dubov, burstein or lim: FIDE's Dutch system, the Dubov, the Burstein or the "
                              "Lim system (until round 1 is paired)")}

    def new_settings(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
        """The planned rounds, the first colour, the scoring of byes (given as points) and the tie-breaks."""
        scoring = {}
        if given.get("bye_points") is not None:
            scoring["pab"] = parse_points(given["bye_points"], Field("bye_points"))
        if given.get("excused_points") is not None:
            scoring["hpb"] = parse_points(given["excused_points"], Field("excused_points"))
        settings = {**SWISS_DEFAULTS, "rounds": given.get("rounds"),
                    "initial_colour": given.get("initial_colour", "white"), "edition": given.get("edition", "2026"),
                    "tiebreaks": given.get("listed"), "scoring": scoring or None}
        if (accelerated := parse_acceleration(given.get("acceleration") or "none", 0)) != "none":
            settings["acceleration"] = accelerated  # stored when chosen (the default is none)
        if (system := parse_pairing(given.get("pairing") or "dutch", 0)) != "dutch":
            settings["pairing"] = system  # stored when chosen (the default is the Dutch system)
        settings = new_mode(self.name, settings, given.get("fide_mode"))
        return settings, self.warnings(settings)

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        rules = self.rules(stored)
        accelerated = stored.get("acceleration") or "none"  # shown when chosen (a plain Swiss lists none)
        return {"rounds": stored.get("rounds"), "initial_colour": stored.get("initial_colour", "white"),
                **({"acceleration": accelerated} if accelerated != "none" else {}),
                **({"pairing": stored["pairing"]} if stored.get("pairing", "dutch") != "dutch" else {}),
                "bye_points": str(rules.scoring.pab), "excused_points": str(rules.scoring.hpb), **super().view(stored)}

    def change(self, stored: Mapping[str, Any], name: str, text: str, paired: int) -> dict[str, Any]:
        changed = dict(stored)
        if name == "rounds":
            changed["rounds"] = parse_rounds(text, paired)
        elif name == "initial_colour":
            changed["initial_colour"] = parse_initial_colour(text, paired)
        elif name == "acceleration":
            changed["acceleration"] = parse_acceleration(text, paired)
        elif name == "pairing":
            changed["pairing"] = parse_pairing(text, paired)
        elif name in ("bye_points", "excused_points"):
            scoring = dict(changed.get("scoring") or {})
            scoring["pab" if name == "bye_points" else "hpb"] = parse_points(text, name)
            changed["scoring"] = scoring
        else:
            return super().change(stored, name, text, paired)
        return changed


SYSTEM = Swiss()
