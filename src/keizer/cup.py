"""Knock-out cups in the season database: the draw, the games of each match, advancing.

A cup is a competition of system ``knockout``.  Its settings hold the match
format (``stages``: regular games, then rapid, blitz, armageddon tie-breaks)
and, once drawn, the entrants in seed order.  Each match of the bracket is a
set of games in the ``games`` table with ``match`` = the slot's index and
``stage`` = the stage kind; round r of the database is round r of the bracket.
The bracket engine (:mod:`keizer.pairing.knockout`) decides every match from
its games; this module only stores and reads them.
"""

from __future__ import annotations

from typing import Any

from keizer.store import StoreError

STAGE_KINDS = ("regular", "rapid", "blitz", "armageddon")


def parse_stages(text: str) -> list[dict[str, Any]]:
    """'regular:2,rapid:2,armageddon:1' → [{"kind": "regular", "games": 2}, …], checked.

    >>> parse_stages("regular:2, armageddon:1")
    [{'kind': 'regular', 'games': 2}, {'kind': 'armageddon', 'games': 1}]
    """
    from keizer.pairing.knockout import MatchFormat, Stage, StageKind

    stages = []
    for item in text.split(","):
        kind, sep, games = item.strip().partition(":")
        kind = kind.strip().lower()
        if kind not in STAGE_KINDS or not sep or not games.strip().isdigit() or int(games) < 1:
            raise StoreError(f"--stages {item.strip()!r}: write KIND:GAMES, KIND one of {', '.join(STAGE_KINDS)}")
        stages.append({"kind": kind, "games": int(games)})
    if not stages or stages[0]["kind"] != "regular":
        raise StoreError("--stages must start with the regular games, e.g. regular:2,rapid:2,armageddon:1")
    try:
        MatchFormat(tuple(Stage(StageKind(s["kind"]), s["games"]) for s in stages))
    except ValueError as e:
        raise StoreError(f"--stages: {e}") from None
    return stages
