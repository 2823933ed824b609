"""Synthetic seasons for benchmarks: realistic attendance and results, seeded."""

from __future__ import annotations

import random
from pathlib import Path

from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season
from keizer.operations import competition as ops
from keizer.settings import Settings
from keizer.store import Store


def synthetic_season(players: int, rounds: int, seed: int = 1, **settings) -> Season:
    """``players`` players, ``rounds`` complete rounds: ~75% present, paired 1–2, 3–4
    in a shuffled-by-strength order, absences of every kind."""
    rng = random.Random(seed)
    roster = tuple(Player(f"p{i}", f"Player {i}", 2300 - 1200 * i // players, start_no=i)
                   for i in range(1, players + 1))
    built = []
    for r in range(1, rounds + 1):
        present = [p.id for p in roster if rng.random() < 0.75]
        rng.shuffle(present)
        absent: dict[str, Absence] = {}
        external: dict[str, ExternalResult] = {}
        for p in roster:
            if p.id not in present:
                x = rng.random()
                if x < 0.1:
                    external[p.id] = rng.choice(list(ExternalResult))
                else:
                    absent[p.id] = rng.choice([Absence.EXCUSED, Absence.EXCUSED, Absence.UNEXCUSED, Absence.CLUB])
        if len(present) % 2:
            absent[present.pop()] = Absence.BYE
        games = tuple(
            Game(r, k // 2 + 1, present[k], present[k + 1],
                 rng.choice([Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW, Result.WHITE_WIN]))
            for k in range(0, len(present), 2)
        )
        built.append(Round(r, None, games, absent, external))
    return Season("bench", Settings.from_preset("classic", settings), roster, tuple(built))


def big_season(folder: Path) -> Path:
    """A season file of 600 players and 52 rounds (seed 1) in ``folder``, as the app and the
    command-line benchmarks open it."""
    db = folder / "s600.db"
    store = Store.open(db, create=True)
    with store.change("bench", "bench"):
        ops.import_season(store, synthetic_season(600, 52, seed=1), name="Interne competitie")
    store.close()
    return db
