"""Tie-break codes: ``NAME[:MP|:GP][/modifier…]`` as FIDE's MTB26 list and TRF26 record 202 write them.

Names are case-insensitive; ``GE`` is read as ``REP`` (its 2026 name) and
``PROGRESS`` as ``PS``.  Modifiers (C.07 art. 14 and MTB26):

* ``/C1``, ``/C2`` cut the least significant values; ``/M1``, ``/M2`` also the most significant
* ``/L+n``, ``/L-n`` move the Koya limit by n half points
* ``/P`` counts forfeits as games against the scheduled opponent
* ``/F`` uses Fore Buchholz (AOB, SSSC); ``/R`` reverses (RTNG, TPN); ``/Kx`` sets the SSSC factor
* ``/Un`` rates unrated opponents n (rating tie-breaks; Gacrux's syntax)
* ``/Dn`` (keizer's own) caps rating differences at n points in TPR: the old 350-point rule

>>> tb = parse("bh:mp/c1")
>>> tb.name, tb.score, tb.cut, tb.text
('BH', 'MP', 1, 'BH:MP/C1')
>>> parse("GE").name, parse("KS/L-2").limit
('REP', -2)
>>> parse("WIN/C1")
Traceback (most recent call last):
...
keizer.tiebreaks.codes.TieBreakError: WIN/C1: WIN takes no modifier /C1
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

from keizer.refusals import Refusal


class TieBreakError(Refusal, ValueError):
    """A tie-break list that cannot be used; the message says which code and why."""


@dataclass(frozen=True)
class Kind:
    """What a tie-break name allows and how its values order participants."""

    modifiers: str = ""  # letters of the modifiers it takes
    scored: bool = False  # takes :MP / :GP in team tournaments
    where: str = "any"  # "any", "individual" or "team"
    group: bool = False  # type A: compares the tied participants among themselves
    lower_is_better: bool = False


NAMES: dict[str, Kind] = {
    "PTS": Kind(scored=True),
    "MP": Kind(where="team"),
    "GP": Kind(where="team"),
    "MPVGP": Kind(where="team"),
    "DE": Kind("P", group=True),
    "EDE": Kind("P", where="team", group=True),
    "EDET": Kind("P", where="team", group=True),
    "EDEB": Kind("P", where="team", group=True),
    "EDEBT": Kind("P", where="team", group=True),
    "EDEBB": Kind("P", where="team", group=True),
    "BC": Kind("P", where="team", group=True),
    "TBR": Kind("P", where="team", group=True),
    "BBE": Kind("P", where="team", group=True),
    "WIN": Kind(scored=True),
    "WON": Kind(scored=True),
    "BPG": Kind(where="individual"),
    "BWG": Kind(where="individual"),
    "REP": Kind(),
    "STD": Kind(scored=True),
    "TPN": Kind("R"),
    "RTNG": Kind("R", where="individual"),
    "PS": Kind("C", scored=True),
    "BH": Kind("CMP", scored=True),
    "FB": Kind("CMP", scored=True),
    "AOB": Kind("F", scored=True),
    "BHS": Kind("F", scored=True),
    "SB": Kind("CP", where="individual"),
    "KS": Kind("LP", scored=True),
    "ARO": Kind("CMU", where="individual"),
    "TPR": Kind("UD", where="individual"),
    "PTP": Kind("U", where="individual"),
    "APRO": Kind("U", where="individual"),
    "APPO": Kind("U", where="individual"),
    "EMMSB": Kind("CP", where="team"),
    "EMGSB": Kind("CP", where="team"),
    "EGMSB": Kind("CP", where="team"),
    "EGGSB": Kind("CP", where="team"),
    "WSB": Kind("CP", where="team"),
    "USB": Kind("CP", where="team"),
    "SSSC": Kind("KPF", where="team"),
    "LOT": Kind(lower_is_better=True),
}

ALIASES = {"GE": "REP", "PROGRESS": "PS", "WEIGHTED-BERGER": "WSB", "UNWEIGHTED-BERGER": "USB",
           "ESB:MM": "EMMSB", "ESB:MG": "EMGSB", "ESB:GM": "EGMSB", "ESB:GG": "EGGSB",
           "SB:MP": "EMMSB", "SB:GP": "EGGSB"}  # SB on teams is ESB (Gacrux reads it so)

#: Buchholz family (C.07 art. 8): not allowed in round robins from 2026.
BUCHHOLZ_FAMILY = frozenset({"BH", "FB", "AOB", "BHS"})
#: Tie-breaks on the participant's own results (type B) and on opponents (types C/D).
OWN_RESULTS = frozenset({"WIN", "WON", "BPG", "BWG", "REP", "STD", "PS"})
OPPONENTS = frozenset({"BH", "FB", "AOB", "BHS", "SB", "KS", "ARO", "TPR", "PTP", "APRO", "APPO",
                       "EMMSB", "EMGSB", "EGMSB", "EGGSB", "WSB", "USB", "SSSC"})
RATINGS = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"})

_MODIFIER = re.compile(r"^(?:(C|M)([12])|L([+-]?)(\d+)|(P)|(F)|(R)|K(\d+)|U(\d+)|D(\d+))$")


@dataclass(frozen=True)
class TieBreak:
    """One parsed tie-break code; ``text`` is the code as it is shown (upper case)."""

    name: str
    score: str | None = None
    cut: int = 0  # least significant values dropped (Cut and Median)
    top: int = 0  # most significant values dropped (Median)
    limit: int = 0  # Koya limit shift in half points
    played_forfeits: bool = False
    fore: bool = False
    reverse: bool = False
    factor: int | None = None
    unrated: int | None = None
    cap: int | None = None
    text: str = ""

    @property
    def kind(self) -> Kind:
        return NAMES[self.name]

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower value ranks higher (TPN unless reversed, RTNG reversed, LOT)."""
        if self.name == "TPN":
            return not self.reverse
        if self.name == "RTNG":
            return self.reverse
        return self.kind.lower_is_better


def parse(text: str) -> TieBreak:
    """One code, e.g. ``BH:MP/C1`` or ``KS/L-2``."""
    shown = "".join(text.split()).upper()
    if not shown:
        raise TieBreakError("empty tie-break code")
    head, *mods = shown.split("/")
    head = ALIASES.get(head, head)
    name, _, score = head.partition(":")
    name = ALIASES.get(name, name)
    kind = NAMES.get(name)
    if kind is None:
        raise TieBreakError("%(code)s: unknown tie-break %(name)s (known: %(known)s)", code=shown, name=repr(name),
                            known=", ".join(sorted(NAMES)))
    if score and (score not in ("MP", "GP") or not kind.scored):
        raise TieBreakError("%(code)s: %(name)s takes no score :%(score)s", code=shown, name=name, score=score)
    found: dict[str, object] = {"name": name, "score": score or None, "text": shown}
    for mod in mods:
        m = _MODIFIER.match(mod)
        if m is None or mod[0] not in kind.modifiers:
            raise TieBreakError("%(code)s: %(name)s takes no modifier /%(modifier)s", code=shown, name=name, modifier=mod)
        cm, n, sign, steps, p, f, r, k, u, d = m.groups()
        if cm:
            found["cut"] = int(n)
            found["top"] = int(n) if cm == "M" else 0
        elif steps is not None:
            found["limit"] = -int(steps) if sign == "-" else int(steps)
        elif p:
            found["played_forfeits"] = True
        elif f:
            found["fore"] = True
        elif r:
            found["reverse"] = True
        elif k:
            if int(k) == 0:
                raise TieBreakError("%(code)s: the SSSC factor must be 1 or more", code=shown)
            found["factor"] = int(k)
        elif u:
            found["unrated"] = int(u)
        else:
            found["cap"] = int(d)
    return TieBreak(**found)  # type: ignore[arg-type]


def parse_list(codes: str | Iterable[str | TieBreak]) -> tuple[TieBreak, ...]:
    """A list of codes: comma-separated text, or codes and parsed tie-breaks.

    >>> [t.text for t in parse_list("BH/C1, BH ,SB")]
    ['BH/C1', 'BH', 'SB']
    """
    items = codes.split(",") if isinstance(codes, str) else list(codes)
    parsed = tuple(parse(c) if isinstance(c, str) else c for c in items if not isinstance(c, str) or c.strip())
    seen: set[TieBreak] = set()
    for tb in parsed:
        # DE/EDE may repeat (C.07 4.1); any other repeat can never break a tie.
        key = replace(tb, text="")
        if key in seen and not tb.kind.group:
            raise TieBreakError("%(code)s is listed twice", code=tb.text or tb.name)
        seen.add(key)
    return parsed
