"""The tie-break columns of a standing explained: what each code means, for the hover title
of its column and the printed legend under the table (``macros.html`` says it in the
site's language).

>>> [(x["code"], x["name"], x["mods"]) for x in tiebreak_legend(["BH/C1", "DE", "SB", "DE#2"])]
[('BH/C1', 'BH', [('C', 1)]), ('DE', 'DE', []), ('SB', 'SB', []), ('DE#2', 'DE', [])]
"""

from __future__ import annotations

from typing import Any, Sequence

from keizer.i18n import N_
from keizer.tiebreaks import TieBreakError, parse
from keizer.tiebreaks.codes import RATINGS


def tiebreak_legend(labels: Sequence[str]) -> list[dict[str, Any]]:
    """Each column label (a code, ``DE#2`` for a repeated one) as ``code``, ``name`` (the FIDE
    name: BH, SB …), ``score`` (``MP``/``GP`` or None) and ``mods``: the modifiers as (letter,
    number): ``C``/``M`` cut and median (values left out), ``L`` the Koya limit shift, ``P``
    played forfeits, ``F`` fore, ``R`` reversed, ``K`` the SSSC factor, ``U`` the rating of
    unrated opponents, ``D`` the cap on rating differences.  A label that is no FIDE code (a
    Keizer standing's own tie-break) has ``name`` None."""
    legend: list[dict[str, Any]] = []
    for label in labels:
        code = label.split("#", 1)[0]
        try:
            tb = parse(code)
        except TieBreakError:
            legend.append({"code": label, "name": None, "score": None, "mods": []})
            continue
        mods: list[tuple[str, int]] = []
        if tb.cut:
            mods.append(("M" if tb.top else "C", tb.cut))
        if tb.limit:
            mods.append(("L", tb.limit))
        for flag, letter in ((tb.played_forfeits, "P"), (tb.fore, "F"), (tb.reverse, "R")):
            if flag:
                mods.append((letter, 0))
        for value, letter in ((tb.factor, "K"), (tb.unrated, "U"), (tb.cap, "D")):
            if value is not None:
                mods.append((letter, value))
        legend.append({"code": label, "name": tb.name, "score": tb.score, "mods": mods})
    return legend


#: The FIDE names of the tie-breaks (C.07, 2026 edition; older names in brackets).
NAMES = {
    "PTS": N_("points"), "MP": N_("match points"), "GP": N_("game points"),
    "MPVGP": N_("match points, then game points"),
    "DE": N_("direct encounter"), "EDE": N_("extended direct encounter"),
    "EDET": N_("extended direct encounter (teams)"), "EDEB": N_("extended direct encounter (boards)"),
    "EDEBT": N_("extended direct encounter (boards, teams)"), "EDEBB": N_("extended direct encounter (boards, board by board)"),
    "BC": N_("board count"), "TBR": N_("team board results"), "BBE": N_("bottom-board elimination"),
    "WIN": N_("number of wins"), "WON": N_("number of games won over the board"),
    "BPG": N_("number of games played with Black"), "BWG": N_("number of games won with Black"),
    "REP": N_("number of games elected to play"), "STD": N_("standard points"),
    "TPN": N_("pairing number"), "RTNG": N_("rating"), "PS": N_("progressive score"),
    "BH": N_("Buchholz"), "FB": N_("Fore Buchholz"), "AOB": N_("average of opponents' Buchholz"),
    "BHS": N_("sum of opponents' Buchholz"), "SB": N_("Sonneborn-Berger"), "KS": N_("Koya system"),
    "ARO": N_("average rating of opponents"), "TPR": N_("tournament performance rating"),
    "PTP": N_("perfect tournament performance"), "APRO": N_("average performance rating of opponents"),
    "APPO": N_("average perfect performance of opponents"),
    "EMMSB": N_("extended Sonneborn-Berger (match points × match points)"),
    "EMGSB": N_("extended Sonneborn-Berger (match points × game points)"),
    "EGMSB": N_("extended Sonneborn-Berger (game points × match points)"),
    "EGGSB": N_("extended Sonneborn-Berger (game points × game points)"),
    "WSB": N_("weighted Sonneborn-Berger"), "USB": N_("unweighted Sonneborn-Berger"),
    "SSSC": N_("strength of schedule"), "LOT": N_("drawing of lots"),
}

#: What each modifier adds to a name.
MODIFIERS = {
    "C": N_("without the lowest %(n)s"), "M": N_("without the highest and lowest %(n)s"),
    "L": N_("limit moved by %(n)s half points"), "P": N_("forfeits counted as played"),
    "F": N_("last round counted as a draw"), "R": N_("reversed"), "K": N_("factor %(n)s"),
    "U": N_("unrated opponents counted as %(n)s"), "D": N_("rating differences capped at %(n)s"),
}
SCORES = {"MP": N_("on match points"), "GP": N_("on game points")}


def tiebreak_title(label: str, gettext: Any = N_) -> str:
    """What a tie-break column means, in words (``gettext`` translates them).

    >>> tiebreak_title("BH/C1"), tiebreak_title("ARO/C1"), tiebreak_title("EDE"), tiebreak_title("DE#2")
    ('Buchholz, without the lowest 1', 'average rating of opponents, without the lowest 1', 'extended direct encounter', 'direct encounter')
    >>> tiebreak_title("wins")
    'wins'
    """
    entry = tiebreak_legend([label])[0]
    if entry["name"] is None:
        return label
    parts = [gettext(NAMES[entry["name"]])]
    if entry["score"]:
        parts[0] += " " + gettext(SCORES[entry["score"]])
    for letter, n in entry["mods"]:
        parts.append(gettext(MODIFIERS[letter]) % {"n": n})
    return ", ".join(parts)


def grouped_tiebreak(label: str) -> bool:
    """Whether a tie-break column's numbers take a thousands separator: not ratings
    (ARO, TPR …: 1716, as ratings are written).

    >>> grouped_tiebreak("SB"), grouped_tiebreak("ARO/C1")
    (True, False)
    """
    name = tiebreak_legend([label])[0]["name"]
    return name not in RATINGS
