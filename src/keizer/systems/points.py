"""Competitions ranked by game points and FIDE tie-breaks: round-robin groups and Swiss
tournaments (individual).  Their shared settings and how they rank.

>>> from keizer import systems
>>> rules = systems.of("roundrobin").rules({"tiebreaks": ["DE", "SB"]})
>>> rules.tiebreaks, rules.edition.value
(('DE', 'SB'), '2026')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Sequence

from keizer.limits import is_digits
from keizer.store import StoreError
from keizer.systems.base import System
from keizer.refusals import Message

if TYPE_CHECKING:  # the tie-break rules are imported where they are used: the registry stays light
    from keizer.tiebreaks import Edition, Scoring
    from keizer.tiebreaks import System as Pairings

#: System settings of a points competition, with their defaults.
POINTS_DEFAULTS: dict[str, Any] = {"double": False, "swap_last_two": False, "tiebreaks": None, "edition": "2026",
                                   "seed": None, "scoring": None, "lots": None}


@dataclass(frozen=True)
class PointsRules:
    """How a points competition is ranked."""

    system: Pairings
    tiebreaks: tuple[str, ...]
    edition: Edition
    scoring: Scoring
    lots: int | None = None  # seed of the drawing of lots for ties the list leaves


def checked_tiebreaks(listed: Sequence[str] | None, team: bool, system: Pairings,
                      edition_text: Any) -> tuple[tuple[str, ...], Edition]:
    """A competition's tie-break list (FIDE's recommendation when none is listed) and rule
    edition, refused with the rules' first error."""
    from keizer.tiebreaks import Edition, TieBreakError, advise, recommended

    tiebreaks = tuple(listed or recommended(team, system))
    try:
        edition = Edition.parse(str(edition_text))
        advice = advise(list(tiebreaks), team, system, edition)
    except TieBreakError as e:
        raise StoreError("%(why)s", why=e) from None  # the tie-break rules' own refusal
    errors = [a.said for a in advice if a.level == "error"]
    if errors:
        raise StoreError("%(why)s", why=errors[0])
    return tiebreaks, edition


class PointsSystem(System):
    """A competition ranked by game points and tie-breaks."""

    points = True
    weekly = True
    standing_kind = "points"
    #: How the tie-break rules see its pairings: a value of ``keizer.tiebreaks.System``.
    family: ClassVar[str]
    #: What a game and a bye score by default, as changes to FIDE's scoring ({"pab": "0"}: a free round scores nothing).
    default_scores: ClassVar[Mapping[str, str]] = {}

    def rules(self, stored: Mapping[str, Any]) -> PointsRules:
        """The ranking rules from the stored settings; a list the rules forbid is refused."""
        from keizer.tiebreaks import Scoring
        from keizer.tiebreaks import System as Pairings

        merged = {**POINTS_DEFAULTS, **stored}
        pairings = Pairings(self.family)
        tiebreaks, edition = checked_tiebreaks(merged["tiebreaks"], False, pairings, merged["edition"])
        scoring = Scoring(**{k: Fraction(v) for k, v in (merged["scoring"] or self.default_scores).items()})
        return PointsRules(pairings, tiebreaks, edition, scoring, merged["lots"])

    def warnings(self, stored: Mapping[str, Any]) -> list[Message]:
        """Advice on a tie-break list given by hand (none for FIDE's recommended default)."""
        from keizer.tiebreaks import advise

        rules = self.rules(stored)
        if not stored.get("tiebreaks"):
            return []
        return [a.said for a in advise(list(rules.tiebreaks), False, rules.system, rules.edition)
                if a.level != "error"]

    def view(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        rules = self.rules(stored)
        return {"tiebreaks": list(rules.tiebreaks), "edition": rules.edition.value}

    def change(self, stored: Mapping[str, Any], name: str, text: str, paired: int) -> dict[str, Any]:
        changed = dict(stored)
        if name == "tiebreaks":
            changed["tiebreaks"] = [t.strip() for t in text.split(",") if t.strip()] or None
        elif name == "edition":
            changed["edition"] = text
        elif name == "lots":
            if text.strip().lower() in ("none", ""):
                changed["lots"] = None
            elif not is_digits(text.strip().removeprefix("-")):
                raise StoreError("lots %(text)s: give a whole number (the seed of the drawing of lots), or none",
                                 text=repr(text))
            else:
                changed["lots"] = int(text)
        else:
            return super().change(stored, name, text, paired)
        return changed

    def check(self, stored: Mapping[str, Any]) -> None:
        self.rules(stored)  # refuses a tie-break list the rules forbid

