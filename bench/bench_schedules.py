"""Time the schedule engines: Berger round-robins and a knock-out bracket.

Usage (from the repository root)::

    PYTHONPATH=src python bench/bench_schedules.py [--runs N]

Prints the median of N runs for: the single and double round-robin of 100
players (drawing their numbers first), building a 128-entrant bracket, and
working out the whole bracket once every match has a two-game record (the
state is recomputed after each round, as a club would).
"""

from __future__ import annotations

import argparse
import random
from typing import Callable

from keizer.model import Result
from keizer.pairing.knockout import (
    MatchFormat,
    MatchGame,
    MatchRecord,
    Stage,
    StageKind,
    bracket_state,
    make_bracket,
    to_play,
)
from keizer.pairing.roundrobin import berger_schedule, draw_numbers
from timing import median_ms  # noqa: E402  (bench/ is the script's folder)

PLAYERS = [f"p{k:03d}" for k in range(1, 101)]
ENTRANTS = [f"e{k:03d}" for k in range(1, 129)]
FORMAT = MatchFormat((Stage(StageKind.REGULAR, 2), Stage(StageKind.ARMAGEDDON, 1)))


def round_robin(double: bool) -> Callable[[], object]:
    def run() -> object:
        draw_numbers(PLAYERS, seed=2026)
        return berger_schedule(len(PLAYERS), double=double, swap_last_two=double)
    return run


def whole_bracket() -> object:
    """Play the 128-entrant bracket to the end: every match two decisive games
    or a drawn pair and an armageddon game."""
    rnd = random.Random(1)
    bracket = make_bracket(ENTRANTS, FORMAT)
    results: dict[tuple[int, int], MatchRecord] = {}
    while ready := to_play(bracket_state(bracket, results)):
        for m in ready:
            assert m.top and m.bottom
            if rnd.random() < 0.6:
                stages = ((MatchGame(m.top, Result.WHITE_WIN), MatchGame(m.bottom, Result.DRAW)),)
            else:
                level = (MatchGame(m.top, Result.DRAW), MatchGame(m.bottom, Result.DRAW))
                stages = (level, (MatchGame(m.top, Result.DRAW),))
            results[(m.round, m.index)] = MatchRecord(stages)
    return bracket_state(bracket, results)




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    jobs: list[tuple[str, Callable[[], object]]] = [
        ("round-robin, 100 players, single (99 rounds)", round_robin(False)),
        ("round-robin, 100 players, double (198 rounds)", round_robin(True)),
        ("knock-out, 128 entrants: bracket", lambda: make_bracket(ENTRANTS, FORMAT)),
        ("knock-out, 128 entrants: played to the final", whole_bracket),
    ]
    for label, job in jobs:
        print(f"{label:50} {median_ms(job, args.runs):8.2f} ms  (median of {args.runs})")


if __name__ == "__main__":
    main()
