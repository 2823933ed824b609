"""The club evening at a glance: for each competition, the round being prepared and
how far it is (attendance → pairing → results → published).  Read-only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from keizer import systems
from keizer.systems import open_round
from keizer.store import Store


@dataclass(frozen=True)
class Evening:
    """Where one competition stands tonight."""

    comp_id: int
    name: str
    system: str
    season: str | None
    closed: bool
    round: int  # the round being prepared (or the last one, once all are played)
    date: str | None
    marked: int  # players with an attendance mark in that round
    players: int  # active players
    paired: bool
    boards: int
    results: int  # boards with a result
    played_rounds: int
    planned_rounds: int | None  # a Swiss's planned rounds, a round-robin's schedule; None: open-ended

    @property
    def finished(self) -> bool:
        return is_finished(self.planned_rounds, self.played_rounds)

    @property
    def step(self) -> str:
        """What to do next: attendance, pairing, results or publish (or nothing: closed, finished)."""
        if self.closed:
            return "closed"
        if self.finished:
            return "finished"
        if not self.paired:
            return "pairing" if self.marked else "attendance"
        if self.results < self.boards:
            return "results"
        return "publish"


def is_finished(planned: int | None, played: int) -> bool:
    """Every planned round played (an open-ended competition is finished only when closed)."""
    return planned is not None and played >= planned


def evening(store: Store) -> list[Evening]:
    """Every competition, the open ones first (newest season first), then the closed ones."""
    found = []
    for row in store.competitions():
        comp = store.competition_by_id(row["id"])
        closed = bool(json.loads(comp["system_settings"]).get("closed"))
        season = store.load_season(comp["id"])
        target = open_round(season)
        rnd = season.rounds[target.number - 1] if target.exists else None
        marked = len(store.attendance(comp["id"], target.number)) if target.exists else 0
        games = rnd.games if rnd else ()
        found.append(Evening(
            comp_id=comp["id"], name=comp["name"], system=comp["system"], season=comp.get("season"),
            closed=closed, round=target.number, date=rnd.date if rnd else None, marked=marked,
            players=sum(1 for p in season.players if p.active_in(target.number)), paired=target.paired,
            boards=len(games), results=sum(1 for g in games if g.result is not None),
            played_rounds=season.completed_rounds(),
            planned_rounds=planned_rounds(comp["system"], json.loads(comp["system_settings"]), len(season.players))))
    found.sort(key=lambda e: e.name.casefold())
    found.sort(key=lambda e: e.finished)
    found.sort(key=lambda e: e.season or "", reverse=True)  # stable: newest season first, by name within
    return sorted(found, key=lambda e: e.closed)


def planned_rounds(system: str, settings: dict[str, Any], players: int) -> int | None:
    """A competition's planned number of rounds (a Swiss's setting, a round-robin's schedule), or
    None when it is open-ended (a Keizer competition).  The site reads it too."""
    kind = systems.of(system)
    if kind.planned_rounds:
        return settings.get("rounds")
    if kind.all_play_all and players >= 2:
        per_cycle = players if players % 2 else players - 1  # FIDE Berger tables
        return per_cycle * (2 if settings.get("double") else 1)
    return None
