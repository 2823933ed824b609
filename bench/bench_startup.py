"""Benchmark: the start-up rows of issue 25, whole commands as a user runs them.

    python bench/bench_startup.py [--runs 20] [--players 100]

Each command runs ``--runs`` times as a new process; the table gives the median and the
best wall-clock time, the median CPU time (user + system, which a busy machine disturbs
less) and the peak memory, with the goal beside each:

* ``python -c pass``: Python's own start-up, the floor under every command;
* ``keizer --help``: the list of commands (goal < 0.15 s), read from a table of their
  summaries, without importing their modules;
* ``keizer trf pair`` of a round of ``--players`` players (goal < 0.1 s at 100; the file is
  made by bench_swiss.py's tournament, round 5 of 9);
* ``keizer serve`` on a copy of the sample club, from its start to its first answer (the login
  page, then the home page; the CPU column is the server's, both pages included).

Then ``python -X importtime`` of the two commands: the time spent importing and the five
modules of keizer that take longest themselves.

Python caches compiled modules (``__pycache__``); with ``PYTHONDONTWRITEBYTECODE`` set (some
development set-ups) it compiles every module of keizer anew at each start.  The commands run
as an installed package runs them: the compiled modules are cached (in a temporary
``PYTHONPYCACHEPREFIX``, so nothing is written into the checkout) and one run warms the cache.
``--no-cache`` measures as PYTHONDONTWRITEBYTECODE does.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_swiss import play  # noqa: E402

from keizer.formats.trf import dump  # noqa: E402

KEIZER = str(Path(sys.executable).with_name("keizer"))


def measure(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float, float, int]:
    """Median wall, best wall, median CPU seconds and peak memory (MB) of ``runs`` runs."""
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # warm
    walls, cpus, peak = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        walls.append(time.perf_counter() - start)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(command)} failed")
        cpus.append(usage.ru_utime + usage.ru_stime)
        peak = max(peak, usage.ru_maxrss // 1024)
    return statistics.median(walls), min(walls), statistics.median(cpus), peak


def serve_start(runs: int, env: dict[str, str], folder: Path) -> tuple[float, float, float, int]:
    """Median wall time from ``keizer serve``'s start to its first answer, the best, the median
    CPU seconds of the server (its start and two pages) and its peak memory (MB)."""
    db = folder / "club.db"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "sample_club.db", db)
    walls, cpus, peak = [], [], 0
    for run in range(runs + 1):  # the first warms the caches
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        start = time.perf_counter()
        process = subprocess.Popen([KEIZER, "--db", str(db), "serve", "--port", str(port)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while True:
            try:
                for page in ("/login", "/"):
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    conn.request("GET", page)
                    conn.getresponse().read()
                    conn.close()
                    if page == "/login":
                        wall = time.perf_counter() - start
                break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit("keizer serve stopped")
                time.sleep(0.005)
        process.terminate()
        _, _, usage = os.wait4(process.pid, 0)
        if run:
            walls.append(wall)
            cpus.append(usage.ru_utime + usage.ru_stime)
            peak = max(peak, usage.ru_maxrss // 1024)
    return statistics.median(walls), min(walls), statistics.median(cpus), peak


def import_profile(command: list[str], env: dict[str, str]) -> tuple[float, list[tuple[float, str]]]:
    """Seconds spent importing (the sum of each module's own time) and keizer's five slowest."""
    err = subprocess.run([sys.executable, "-X", "importtime", *command], env=env, capture_output=True,
                         text=True).stderr
    own = [(int(m.group(1)) / 1e6, m.group(2)) for m in re.finditer(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", err)]
    return sum(t for t, _ in own), sorted((x for x in own if x[1].startswith("keizer")), reverse=True)[:5]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--no-cache", action="store_true", help="compile every module at every start")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.no_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    file = folder / f"swiss-{args.players}.trf"
    file.write_text(dump(play(args.players, 9, 4)), encoding="utf-8")
    rows = [("python -c pass (Python's start-up)", [sys.executable, "-c", "pass"], None),
            ("keizer --help", [KEIZER, "--help"], 0.15),
            (f"keizer trf pair, {args.players} players", [KEIZER, "trf", "pair", str(file), "--format", "json"],
             0.1 if args.players <= 100 else None)]
    print(f"{args.runs} runs each; compiled modules {'not cached' if args.no_cache else 'cached'}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'':<36}{'median':>8}  {'best':>7}  {'cpu':>7}  {'MB':>4}  goal")
    for label, command, goal in rows:
        wall, best, cpu, mb = measure(command, args.runs, env)
        aim = f"< {goal:.2f} s {'(met)' if wall < goal else '(not met)'}" if goal else ""
        print(f"{label:<36}{wall:7.3f}s  {best:6.3f}s  {cpu:6.3f}s  {mb:>4}  {aim}")
    wall, best, cpu, mb = serve_start(args.runs, env, folder)
    print(f"{'keizer serve, to its first answer':<36}{wall:7.3f}s  {best:6.3f}s  {cpu:6.3f}s  {mb:>4}")
    for label, command, _ in rows[1:]:
        total, slowest = import_profile(["-m", "keizer", *command[1:]], env)
        print(f"\n{label}: {total:.3f} s importing; keizer's slowest modules:")
        for seconds, name in slowest:
            print(f"  {seconds * 1000:6.1f} ms  {name}")


if __name__ == "__main__":
    main()
