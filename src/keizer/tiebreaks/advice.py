"""Which tie-breaks to use: recommended lists per competition type, and checks of a list.

C.07 2023–2026 recommends no list; the lists here are FIDE's pre-2023
recommendations (FIDE Handbook C.02 13.16, tournament rules before
2023) in today's codes, and keizer's own choice where FIDE's text was not
available (team round robin, knock-outs):

=================================  ==================================================
individual round robin             DE, WIN, SB, KS (13.16.2)
individual Swiss, ratings reliable BH/C1, BH, DE, ARO/C1, WIN, BWG, BPG, SB (13.16.5)
individual Swiss, few ratings      BH/C1, BH, SB, PS, DE, WIN, BWG (13.16.4)
individual knock-out               none: ties are decided by play-off games (C.07 art. 3)
team Swiss                         MPVGP, EDE, BH:MP/C1, BH:MP, EMGSB (13.16.3, secondary copy)
team round robin                   MPVGP, EDE, EMGSB (keizer)
team knock-out                     MPVGP, BC, TBR, BBE (art. 12 names them for knock-outs)
=================================  ==================================================

>>> recommended(team=False, system=System.ROUND_ROBIN)
('DE', 'WIN', 'SB', 'KS')
>>> [a.message for a in advise("SB,BH", team=False, system=System.ROUND_ROBIN) if a.level == "error"]
['BH: the 2026 rules (C.07 art. 8) do not allow the Buchholz family in a round robin']
"""

from __future__ import annotations

from dataclasses import dataclass

from keizer.refusals import Message
from keizer.tiebreaks.codes import BUCHHOLZ_FAMILY, OPPONENTS, OWN_RESULTS, RATINGS, TieBreak, parse_list
from keizer.tiebreaks.model import System, Tournament
from keizer.tiebreaks.unplayed import Edition

_LISTS: dict[tuple[bool, System, bool], tuple[str, ...]] = {
    (False, System.ROUND_ROBIN, True): ("DE", "WIN", "SB", "KS"),
    (False, System.SWISS, True): ("BH/C1", "BH", "DE", "ARO/C1", "WIN", "BWG", "BPG", "SB"),
    (False, System.SWISS, False): ("BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"),
    (False, System.KNOCKOUT, True): (),
    (True, System.SWISS, True): ("MPVGP", "EDE", "BH:MP/C1", "BH:MP", "EMGSB"),
    (True, System.ROUND_ROBIN, True): ("MPVGP", "EDE", "EMGSB"),
    (True, System.KNOCKOUT, True): ("MPVGP", "BC", "TBR", "BBE"),
}
_NEW_IN_2026 = {"STD", "TPN", "RTNG"}


@dataclass(frozen=True)
class Advice:
    """A remark on a tie-break list: an ``error`` (the rules forbid it) or a ``warning``, as
    ``said`` for a view to word (a refusal quotes an error)."""

    level: str
    code: str
    said: Message

    @property
    def message(self) -> str:
        """The remark in English."""
        return str(self.said)


def recommended(team: bool, system: System, ratings_reliable: bool = True) -> tuple[str, ...]:
    """The default list for a competition type (see the table above)."""
    reliable = ratings_reliable or team or system is not System.SWISS
    return _LISTS[(team, system, reliable)]


def recommended_for(t: Tournament) -> tuple[str, ...]:
    """The default list for ``t``: ratings count as reliable when every player has one."""
    reliable = all(p.rating for p in t.players)
    return recommended(t.is_team, t.system, reliable)


def advise(tiebreaks: str | tuple[str, ...] | list[str], team: bool, system: System,
           edition: Edition = Edition.FIDE_2026, unrated: bool = False) -> tuple[Advice, ...]:
    """Errors and warnings for a list used in a competition of this kind.

    ``unrated``: some participants have no rating.
    """
    tbs = parse_list(tiebreaks)
    found: list[Advice] = []
    for tb in tbs:
        found.extend(_check(tb, team, system, edition, unrated))
    own = sorted({tb.text for tb in tbs if tb.name in OWN_RESULTS})
    others = sorted({tb.text for tb in tbs if tb.name in OPPONENTS})
    if own and others:
        found.append(Advice("warning", "", Message(
            "the list mixes tie-breaks on the participant's own results (%(own)s) with ones on opponents' results "
            "or ratings (%(others)s); FIDE's older recommendations advised against it", own=", ".join(own),
            others=", ".join(others))))
    return tuple(found)


def _check(tb: TieBreak, team: bool, system: System, edition: Edition, unrated: bool) -> list[Advice]:
    found = []
    scope = tb.kind.where  # a tie-break's scope (any, individual or team), not a competition system
    if (scope == "team" or tb.score) and not team:
        found.append(Advice("error", tb.text, Message("%(code)s: a team tie-break, and this is an individual event",
                                                      code=tb.text)))
    elif scope == "individual" and team:
        found.append(Advice("error", tb.text, Message("%(code)s: an individual tie-break, and this is a team event",
                                                      code=tb.text)))
    if tb.name in BUCHHOLZ_FAMILY and system is System.ROUND_ROBIN and edition is Edition.FIDE_2026:
        found.append(Advice("error", tb.text, Message("%(code)s: the 2026 rules (C.07 art. 8) do not allow the "
                                                      "Buchholz family in a round robin", code=tb.text)))
    if tb.name == "KS" and system is System.SWISS:
        found.append(Advice("warning", tb.text, Message("%(code)s: Koya is defined for round robins; a Swiss may use "
                                                        "it only if its regulations define it (TEC exercises §4.3)",
                                                        code=tb.text)))
    if tb.name in RATINGS and tb.unrated is None and unrated:
        found.append(Advice("warning", tb.text, Message("%(code)s: some participants are unrated; rating tie-breaks "
                                                        "need published rules for them (C.07 art. 10), e.g. /U1400",
                                                        code=tb.text)))
    if tb.name in _NEW_IN_2026 and edition is not Edition.FIDE_2026:
        found.append(Advice("warning", tb.text, Message("%(code)s: new in the 2026 rules, not part of the "
                                                        "%(edition)s edition", code=tb.text, edition=edition.value)))
    return found
