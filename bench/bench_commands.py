"""Benchmark: whole commands and the app's pages, as the officer meets them.

    python bench/bench_commands.py [--runs 5] [--big-runs 3] [--skip-big] [--pages-only]

For the sample club and for a 600-player, 52-round Keizer season (bench/seasons.py, seed 1),
the median wall-clock time, and beside it the median CPU time (user + system, of the command
and the processes it starts), which a busy machine disturbs less, of:

* ``keizer pair`` (a new process each time, on a fresh copy whose next round has its
  attendance marked: everyone present);
* ``keizer publish`` into an empty folder, and again with nothing changed;
* the app's main pages of the competition (Flask's test client, no network): p50 and p95,
  with issue 25's goal beside the 600-player rows (under 100 ms);
* the first request after one result changes (written by another connection, as a board
  report or the officer's grid is): the venue data (goal under 50 ms), the standings and
  the crosstable, which go on from the kept standing (``keizer.kept``).

The figures of issue 19's note (before/after the redesign) come from this script, run in a
checkout of each commit.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import big_season  # noqa: E402

from keizer.store import Store  # noqa: E402
from keizer.web import create_app, served_gc  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEIZER = [sys.executable, "-m", "keizer"]
PAGES = ("/c/{c}/standings", "/c/{c}/crosstable", "/c/{c}/pairing", "/c/{c}/results", "/c/{c}/attendance",
         "/c/{c}/venue")
#: Issue 25's goals for the 600-player season (ms): the pages, and the first request after a change.
GOALS = {"/c/1/standings": 100, "/c/1/crosstable": 100, "/c/1/results": 100, "/c/1/venue": 100,
         "/c/1/venue.json": 50}
AFTER_A_CHANGE = ("/c/{c}/venue.json", "/c/{c}/standings", "/c/{c}/crosstable")


Timing = tuple[float, float]  # (wall-clock seconds, CPU seconds)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def keizer(db: Path, *args: str) -> Timing:
    """Seconds one command takes, start to end, and the CPU seconds it used."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run([*KEIZER, "--db", str(db), *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, _children_cpu() - cpu


def median(timings: list[Timing]) -> Timing:
    return statistics.median(t[0] for t in timings), statistics.median(t[1] for t in timings)


def next_round(db: Path) -> int:
    store = Store.open(db)
    try:
        comp = store.competitions()[0]["id"]
        return store.load_season(comp).completed_rounds() + 1
    finally:
        store.close()


def pair_times(db: Path, runs: int, folder: Path) -> list[Timing]:
    times = []
    for k in range(runs):
        copy = folder / f"pair{k}.db"
        shutil.copy(db, copy)
        subprocess.run([*KEIZER, "--db", str(copy), "attend", "--round", str(next_round(copy)),
                        "--date", "2027-06-01", "--force"], check=True, stdout=subprocess.DEVNULL)
        times.append(keizer(copy, "pair"))
    return times


def publish_times(db: Path, runs: int, folder: Path) -> tuple[list[Timing], list[Timing]]:
    fresh: list[Timing] = []
    unchanged: list[Timing] = []
    for k in range(runs):
        site = folder / f"site{k}"
        fresh.append(keizer(db, "publish", str(site)))
        unchanged.append(keizer(db, "publish", str(site)))
    return fresh, unchanged


def p95(timings: list[Timing]) -> Timing:
    def at(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return at([t[0] for t in timings]), at([t[1] for t in timings])


def timed_get(client: Any, url: str) -> Timing:
    cpu, start = time.process_time(), time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return time.perf_counter() - start, time.process_time() - cpu


def page_times(db: Path, runs: int) -> dict[str, tuple[Timing, Timing]]:
    """Each page's p50 and p95 (after a first request, which builds what is kept)."""
    client = create_app(db).test_client()
    result = {}
    for page in PAGES:
        url = page.format(c=1)
        timed_get(client, url)
        times = [timed_get(client, url) for _ in range(runs)]
        result[url] = (median(times), p95(times))
    return result


def after_a_change(db: Path, runs: int, folder: Path) -> dict[str, Timing]:
    """The first request of each page after one result of the last round changes (p50 of
    ``runs`` changes), on a copy of ``db``."""
    copy = folder / "changed.db"
    shutil.copy(db, copy)
    client = create_app(copy).test_client()
    pages = [page.format(c=1) for page in AFTER_A_CHANGE]
    for url in pages:
        timed_get(client, url)
    times: dict[str, list[Timing]] = {url: [] for url in pages}
    for k in range(runs):
        store = Store.open(copy)
        try:
            comp = store.competitions()[0]["id"]
            last = store.load_season(comp).completed_rounds()
            with store.change("bench", "bench"):
                store.conn.execute("UPDATE games SET result = ? WHERE competition_id = ? AND round = ? AND board = ?",
                                   (("1-0", "0-1", "1/2-1/2")[k % 3], comp, last, 1 + k))
        finally:
            store.close()
        for url in pages:
            times[url].append(timed_get(client, url))
    return {url: median(t) for url, t in times.items()}


def report(label: str, db: Path, runs: int, pages_only: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not pages_only:
            pair = median(pair_times(db, runs, folder))
            fresh, unchanged = (median(t) for t in publish_times(db, runs, folder))
        pages = page_times(db, max(runs * 4, 12))
        changed = after_a_change(db, max(runs, 3), folder)
    print(f"{label}:")
    if not pages_only:
        print(f"  {'':<28}{'wall':>7}    {'cpu':>7}")
        print(f"  keizer pair                 {pair[0]:7.2f} s  {pair[1]:7.2f} s")
        print(f"  keizer publish, new folder  {fresh[0]:7.2f} s  {fresh[1]:7.2f} s")
        print(f"  keizer publish, unchanged   {unchanged[0]:7.2f} s  {unchanged[1]:7.2f} s")
    print(f"  {'':<28}{'p50 wall':>10} {'cpu':>7}   {'p95 wall':>9} {'cpu':>7}")
    for url, ((wall, cpu), (wall95, cpu95)) in pages.items():
        goal = f"   goal < {GOALS[url]} ms" if url in GOALS and "600" in label else ""
        print(f"  app {url:<23} {wall * 1000:7.0f} ms {cpu * 1000:7.0f} ms  {wall95 * 1000:7.0f} ms "
              f"{cpu95 * 1000:7.0f} ms{goal}")
    for url, (wall, cpu) in changed.items():
        goal = f"   goal < {GOALS[url]} ms" if url == "/c/1/venue.json" and "600" in label else ""
        print(f"  after one result: {url:<16}{wall * 1000:5.0f} ms {cpu * 1000:7.0f} ms{goal}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-runs", type=int, default=3)
    parser.add_argument("--skip-big", action="store_true")
    parser.add_argument("--pages-only", action="store_true", help="only the app's pages (no pair, no publish)")
    args = parser.parse_args()
    served_gc()  # the pages as `keizer serve` serves them (its garbage collector's thresholds)
    report("sample club (41 members, 30 rounds)", ROOT / "sample_club.db", args.runs, args.pages_only)
    if not args.skip_big:
        with tempfile.TemporaryDirectory() as tmp:
            report("600 players, 52 rounds", big_season(Path(tmp)), args.big_runs, args.pages_only)


if __name__ == "__main__":
    main()
