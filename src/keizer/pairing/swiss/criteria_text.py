"""The checker's reason for a Dubov or Burstein round paired otherwise than keizer pairs it:
the system's own rule (its article or criterion number, C.04.4.1 or C.04.4.2 of 2026) on
which the two pairings first differ, with the values it compared.

The rules are evaluated by :mod:`keizer.pairing.swiss.dubov_criteria` and
:mod:`keizer.pairing.swiss.burstein_criteria`; this module only words the verdict, in the
checker's (English) report, as the Dutch reasons of :mod:`keizer.pairing.swiss.check` are.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

from keizer.pairing.swiss.dubov import dubov_entrants
from keizer.pairing.swiss.dubov_criteria import RULES as DUBOV_RULES, decide as dubov_decide

if TYPE_CHECKING:
    from keizer.pairing.swiss import RoundInputs
    from keizer.tiebreaks import Tournament

#: What each rule decides, as the report names it.
WHAT = {
    "dubov": {
        "3.1": "the pairing-allocated bye",
        **DUBOV_RULES,
        "Articles 3.2-4.4": "the order of the upfloaters, the G1/G2 shifts and the transpositions — "
                            "both pairings meet every criterion equally",
    },
    "burstein": {
        "3.1": "the pairing-allocated bye",
        "C5": "the most pairs in the bracket",
        "C6": "the lowest scores among the outgoing floaters, the highest first",
        "C7": "the next bracket: its pairs, then the scores of the floaters it takes",
        "C8": "the fewest pairs whose players share a colour preference",
        "Article 4": "the first-ranked player by the opposition index meets the lowest-ranked he can",
    },
}


def system_reason(system: str, t: Tournament, inputs: RoundInputs, r: int, rounds: int,
                  engine: Sequence[tuple[int, int]], engine_bye: int | None,
                  played: Sequence[tuple[int, int]], played_bye: int | None) -> str:
    """The reason line for round ``r + 1`` (0-based ``r``) of ``t`` by the rules of ``system``."""
    from keizer.pairing.swiss import _unit

    unit = _unit(inputs)
    if system == "dubov":
        v = dubov_decide(dubov_entrants(t, r, inputs.numbers, inputs.data, unit), engine, engine_bye, played,
                         played_bye, rounds, r + 1 >= rounds)
        rule, level, first, detail = v.rule, v.level, v.first, v.detail
    else:
        from keizer.pairing.swiss.burstein import burstein_entrants
        from keizer.pairing.swiss.burstein_criteria import decide as burstein_decide

        w = burstein_decide(burstein_entrants(t, r, inputs.numbers, inputs.data, unit), engine, engine_bye, played,
                            played_bye)
        rule, level, first, detail = w.rule, w.level, w.first, w.detail
    name = system.capitalize()
    what = WHAT[system].get(rule, "")
    better = "keizer's pairing" if first else "the played pairing"
    if rule == "3.1":
        criterion, ours, theirs = detail
        return (f"{name} 3.1 ({what}: {criterion}): keizer gives it to {ours or 'nobody'}, "
                f"the played pairing to {theirs or 'nobody'}")
    where = f" in the bracket of {_points(Fraction(level or 0, unit))}"
    if rule == "Article 4":
        player, ours, theirs = detail
        return (f"{name} Article 4 ({what}){where}: {player} meets {ours} in keizer's pairing, "
                f"{theirs} in the played one")
    if rule.startswith("Articles"):
        return f"{name} {rule} ({what}){where}"
    scores = {"C6"}
    ours, theirs = ((_scores(x, unit) if rule in scores else _values(x)) for x in detail)
    return f"{name} {rule} ({what}){where}: {better} is the better (keizer {ours}, played {theirs})"


def _values(x: object) -> str:
    if isinstance(x, tuple):
        return ", ".join(str(v) for v in x) or "none"
    return str(x)


def _scores(x: object, unit: int) -> str:
    assert isinstance(x, tuple)
    return ", ".join(_number(Fraction(v, unit)) for v in x) or "none"


def _points(value: Fraction) -> str:
    return "1 point" if value == 1 else f"{_number(value)} points"


def _number(value: Fraction) -> str:
    from keizer.output import number

    return number(value, 1)
