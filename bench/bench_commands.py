"""Benchmark: whole commands and the app's pages, as the officer meets them.

    python bench/bench_commands.py [--runs 5] [--big-runs 3] [--skip-big]

For the sample club and for a 600-player, 52-round Keizer season (bench/seasons.py, seed 1),
the median wall-clock time, and beside it the median CPU time (user + system, of the command
and the processes it starts), which a busy machine disturbs less, of:

* ``keizer pair`` (a new process each time, on a fresh copy whose next round has its
  attendance marked: everyone present);
* ``keizer publish`` into an empty folder, and again with nothing changed;
* the app's main pages of the competition (Flask's test client, no network): p50.

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import big_season  # noqa: E402

from keizer.store import Store  # noqa: E402
from keizer.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEIZER = [sys.executable, "-m", "keizer"]
PAGES = ("/c/{c}/standings", "/c/{c}/crosstable", "/c/{c}/pairing", "/c/{c}/results", "/c/{c}/attendance")


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


def page_times(db: Path, runs: int) -> dict[str, Timing]:
    client = create_app(db).test_client()
    result = {}
    for page in PAGES:
        url = page.format(c=1)
        times = []
        for _ in range(runs):
            cpu, start = time.process_time(), time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start, time.process_time() - cpu))
            assert response.status_code == 200, (url, response.status_code)
        result[url] = median(times)
    return result


def report(label: str, db: Path, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pair = median(pair_times(db, runs, folder))
        fresh, unchanged = (median(t) for t in publish_times(db, runs, folder))
        pages = page_times(db, max(runs, 3))
    print(f"{label}:")
    print(f"  {'':<28}{'wall':>7}    {'cpu':>7}")
    print(f"  keizer pair                 {pair[0]:7.2f} s  {pair[1]:7.2f} s")
    print(f"  keizer publish, new folder  {fresh[0]:7.2f} s  {fresh[1]:7.2f} s")
    print(f"  keizer publish, unchanged   {unchanged[0]:7.2f} s  {unchanged[1]:7.2f} s")
    for url, (wall, cpu) in pages.items():
        print(f"  app {url:<23} {wall * 1000:7.0f} ms {cpu * 1000:7.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-runs", type=int, default=3)
    parser.add_argument("--skip-big", action="store_true")
    args = parser.parse_args()
    report("sample club (41 members, 30 rounds)", ROOT / "sample_club.db", args.runs)
    if not args.skip_big:
        with tempfile.TemporaryDirectory() as tmp:
            report("600 players, 52 rounds", big_season(Path(tmp)), args.big_runs)


if __name__ == "__main__":
    main()
