"""Benchmark: the whole command ``keizer publish site/`` after ``keizer result …`` (issue 25).

    python bench/bench_publish_command.py [--src OTHER/src] [--runs 3]

Each command is a process of its own, as an officer at a terminal or a cron job runs it: the
kept standings and careers come from keizer's cache folder (``keizer.operations.kept_file``),
not from the process.  For the shipped sample club (a copy), 60 players × 40 rounds and 600
players × 52 rounds (each with one more round being played): publish into an empty folder,
publish again with nothing changed, then ``keizer result B=1-0`` and ``keizer publish``, a few
times; CPU time of the command (user + system, its workers included).  ``--src`` runs the
commands on another checkout's ``src`` (the keizer before a change), for a before and after on
the same machine.  Goals (issue 25): nothing changed < 0.5 s, after one result < 1 s at 600 × 52.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_publish import season_db  # noqa: E402


def cpu_of(args: list[str], env: dict[str, str]) -> float:
    """Seconds of CPU the command took (user + system, with the processes it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "keizer", *args], env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def open_boards(db: Path, competition: str, env: dict[str, str], runs: int) -> list[int]:
    """Open boards of the Keizer competition's round being played (a round is paired for it when none is)."""
    def keizer(*args: str) -> str:
        return subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "-c", competition, *args], env=env,
                              check=True, capture_output=True, text=True).stdout

    data = json.loads(keizer("pairings", "--format", "json"))
    boards = [b["board"] for b in data["pairs"] if not b.get("result") and b.get("black")]
    if not boards:
        keizer("pair")
        return open_boards(db, competition, env, runs)
    return boards[:runs]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", type=Path, help="run the commands on this checkout's src folder")
    parser.add_argument("--runs", type=int, default=3)
    given = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # Compiled modules kept as an installed keizer keeps them (a first command compiles them),
        # in a folder of the run's own, not beside the sources.
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "KEIZER_CACHE": str(folder / "cache"), "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
        if given.src is not None:
            env["PYTHONPATH"] = str(given.src.resolve())
        sample = folder / "sample.db"
        shutil.copy(Path(__file__).resolve().parents[1] / "sample_club.db", sample)

        cases = [("sample club", sample, "Interne competitie 2025-2026")]
        for players, rounds in ((60, 40), (600, 52)):
            season_db(folder, players, rounds, 1, f"s{players}", playing=True).close()
            cases.append((f"{players} players {rounds} rounds", folder / f"s{players}.db", "Interne competitie"))
        for label, db, competition in cases:
            site = folder / f"site-{db.stem}"
            boards = open_boards(db, competition, env, given.runs)
            scratch = cpu_of(["--db", str(db), "publish", str(site)], env)
            unchanged = statistics.median(cpu_of(["--db", str(db), "publish", str(site)], env) for _ in range(given.runs))
            after = []
            for board in boards:
                subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "-c", competition, "result", f"{board}=1-0"], env=env,
                               check=True, capture_output=True)
                after.append(cpu_of(["--db", str(db), "publish", str(site)], env))
            shown = f"{statistics.median(after):6.2f} s (median of {len(after)}: {', '.join(f'{t:.2f}' for t in after)})" \
                if after else "   no open board"
            print(f"{label:26} from scratch {scratch:6.2f} s, nothing changed {unchanged:6.2f} s, after one result {shown}")


if __name__ == "__main__":
    main()
