"""Benchmark: publishing the club website.

    python bench/bench_publish.py

The shipped sample club, a 60-player 40-round season (realistic) and a 600-player 52-round
one (10×), each published from scratch and again unchanged (incremental); the same seasons with
one more round being played, published again after one result in it and after a correction in
the last complete round; CPU time (``time.process_time`` and the workers') (goals, issue 25: unchanged < 0.5 s, one result < 1 s at 600 × 52);
then a 10-season archive (ten season databases published into one folder).  ``KEIZER_PUBLISH_WORKERS=1``
renders on one core (as on Windows and in the web app).
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dataclasses import replace  # noqa: E402

from seasons import synthetic_season  # noqa: E402

from keizer.operations import competition as ops  # noqa: E402
from keizer.operations.club import set_club  # noqa: E402
from keizer.publish import publish  # noqa: E402
from keizer.store import Store  # noqa: E402


def season_db(folder: Path, players: int, rounds: int, seed: int, name: str, playing: bool = False) -> Store:
    """A season of complete rounds; ``playing``: and one more being played, no result in yet."""
    season = synthetic_season(players, rounds + playing, seed=seed)
    if playing:
        last = season.rounds[-1]
        season = replace(season, rounds=season.rounds[:-1] + (
            replace(last, games=tuple(replace(g, result=None) for g in last.games)),))
    store = Store.open(folder / f"{name}.db", create=True)
    with store.change("bench", "bench"):
        set_club(store, season=name, name="Schaakclub Bench")  # before the import: the competition is of that season
        ops.import_season(store, season, name="Interne competitie")
    return store


def after_edits(folder: Path, players: int, rounds: int) -> None:
    """Publish, then again after one result in the round being played, and after a correction."""
    store = season_db(folder, players, rounds, 1, f"p{players}", playing=True)
    comp = store.competitions()[0]["id"]
    out = folder / f"playing-{players}"
    publish(store, out)
    one, fix = [], []
    for board in (1, 2, 3):
        with store.change("result", "result"):
            ops.enter_results(store, comp, {board: "1-0"}, round_no=rounds + 1)
        one.append(timed_publish(store, out))
    for board in (1, 2, 3):
        with store.change("result", "correct"):
            ops.enter_results(store, comp, {board: "1/2-1/2"}, round_no=rounds, correct=True)
        fix.append(timed_publish(store, out))
    for what, runs in (("one result in the round being played", one), ("a correction in the last complete round", fix)):
        print(f"publish {players:>3} players {rounds} rounds, after {what}: {statistics.median(t for t, _ in runs):8.0f} ms"
              f" (median of {len(runs)}; {max(n for _, n in runs)} pages rendered at most)")


def timed(run: Callable[[], object]) -> float:
    """Milliseconds of CPU ``run`` takes: this process's, and its workers' once they ended
    (``KEIZER_PUBLISH_WORKERS=1`` keeps it all in this process)."""
    start = time.process_time() + _children_cpu()
    run()
    return (time.process_time() + _children_cpu() - start) * 1000


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_publish(store: Store, out: Path) -> tuple[float, int]:
    """Milliseconds of CPU, and how many pages the run rendered."""
    done: list[object] = []
    spent = timed(lambda: done.append(publish(store, out)))
    return spent, getattr(done[0], "rendered", -1)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # The shipped demo club: the compiled templates are kept between runs, so the first
        # run of a new keizer (or after a catalog change) pays for compiling them once.
        sample = Store.open(Path(__file__).resolve().parents[1] / "sample_club.db")
        fresh = [timed(lambda: publish(sample, folder / f"sample-{k}")) for k in range(5)]
        again = [timed(lambda: publish(sample, folder / "sample-0")) for _ in range(5)]
        pages = sum(1 for _ in (folder / "sample-0").rglob("*.html"))
        print(f"publish sample_club.db ({pages} pages): {statistics.median(fresh):8.0f} ms from scratch, "
              f"{statistics.median(again):8.0f} ms unchanged (median of 5)")
        for players, rounds, runs in ((60, 40, 5), (600, 52, 1)):
            store = season_db(folder, players, rounds, 1, f"s{players}")
            fresh, again = [], []
            for k in range(runs):
                out = folder / f"site-{players}-{k}"
                fresh.append(timed(lambda: publish(store, out)))
                again.append(timed(lambda: publish(store, out)))
            pages = sum(1 for _ in (folder / f"site-{players}-0").rglob("*.html"))
            print(f"publish {players:>3} players {rounds} rounds ({pages} pages): "
                  f"{statistics.median(fresh):8.0f} ms from scratch, {statistics.median(again):8.0f} ms unchanged"
                  f" (median of {runs})")
        for players, rounds in ((60, 40), (600, 52)):
            after_edits(folder, players, rounds)
        out = folder / "archive"
        total = 0.0
        for year in range(2016, 2026):
            store = season_db(folder, 60, 40, year, f"{year}-{year + 1}")
            total += timed(lambda: publish(store, out))
        seasons = sum(1 for p in out.iterdir() if p.is_dir() and p.name != "static")
        print(f"10-season archive ({seasons} seasons of 60 players, 40 rounds): {total:8.0f} ms in all")


if __name__ == "__main__":
    main()
