"""Benchmark: one middle round of a FIDE Dutch Swiss, keizer beside bbpPairings.

    python bench/bench_swiss.py [--sizes 100 1000 3000 9999] [--rounds 9] [--round R] [--bbp-timeout S]
                                [--system dutch|dubov|burstein]
    KEIZER_BBP=/path/to/bbpPairings.exe python bench/bench_swiss.py

``--system`` plays and pairs the tournament by that FIDE system (the file names it in record
192, so ``keizer trf pair`` pairs it the same way); bbpPairings is run for the Dutch system
(``--dutch``) and the Burstein one (``--burstein``, with an ``XXA`` line of zeros so that it
applies no acceleration of its own — it follows an earlier Burstein text, so its pairing may
differ: docs/swiss.md), and not for Dubov, which it does not pair.

For each size a tournament is played with keizer's engine up to the middle
round (results drawn from ratings by a fixed seed: 30 % draws, 2 % forfeits, a
few half-point byes and absences) and written as a TRF file with the planned
rounds (142) and the initial colour (152).  Then the middle round (or round R:
``--round 1`` is one bracket of everyone, ``--round 2`` three large scoregroups) is paired:

* ``keizer``: the engine in this process (``pair_swiss`` on the parsed file),
  CPU seconds, and the peak memory of the process pairing it;
* ``keizer trf pair``: the command as a user runs it (start-up included), wall
  seconds and peak memory (maximum resident set of the child process), with the goal for
  the whole command beside each row where an issue sets one (issue 25: 100 players < 0.1 s,
  3,000 < 3 s, and 2,999 — an odd field — too; issue 22: 9,999 — the most start numbers a TRF
  holds — < 30 s and 1 GB);
* ``bbp``: when ``KEIZER_BBP`` names a local bbpPairings binary, ``bbp --dutch
  FILE -p OUT`` on the same file, wall seconds and peak memory, and whether its
  pairing (boards in order, the bye) equals keizer's.  Without it the column is
  skipped with a note.  bbpPairings is not part of keizer: build it yourself from
  its public source.  Where bbp does not finish within ``--bbp-timeout``, its time is
  projected from the two largest sizes it finished (a power of the field size, marked
  "~"), so a table can be made without waiting hours for it.

The files are kept in a temporary folder (``--keep DIR`` to keep them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from keizer.formats.trf import dump, read
from keizer.model import Colour
from keizer.pairing.swiss import initial_colour_of, pair_swiss, system_lines, system_of
from keizer.tiebreaks import Code, Player, RoundResult, Tournament


#: The goals for the whole command at the sizes the issues name: (seconds, wall-clock; MB or None).
#: 2,999 is the 3,000-player goal for an odd field (``--round 2``: its bye decides a bracket).
GOALS = {100: (0.1, None), 2999: (3, None), 3000: (3, None), 9999: (30, 1024)}


def play(players: int, rounds: int, upto: int, seed: int = 2026, system: str = "dutch") -> Tournament:
    """The tournament before round ``upto + 1``, each round paired by keizer (by ``system``)."""
    rnd = random.Random(seed)
    ratings = sorted((rnd.randint(1000, 2700) for _ in range(players)), reverse=True)
    results: dict[int, list[RoundResult]] = {k: [] for k in range(1, players + 1)}

    def tournament() -> Tournament:
        return Tournament(tuple(Player(k, f"Player {k}", ratings[k - 1], tuple(v)) for k, v in results.items()),
                          rounds, info=("152 W", *system_lines(system)))

    for r in range(upto):
        present = [k for k in results if rnd.random() > 0.03]
        got = pair_swiss(tournament(), rounds, present, r, system=system)
        for white, black in got.pairs:
            if rnd.random() < 0.02:
                results[white].append(RoundResult(Code.FORFEIT_WIN, black))
                results[black].append(RoundResult(Code.FORFEIT_LOSS, white))
                continue
            expected = 1 / (1 + 10 ** ((ratings[black - 1] - ratings[white - 1]) / 400))
            x = rnd.random()
            mine, theirs = ((Code.DRAW, Code.DRAW) if x < 0.3 else (Code.WIN, Code.LOSS)
                            if x < 0.3 + 0.7 * expected else (Code.LOSS, Code.WIN))
            results[white].append(RoundResult(mine, black, Colour.WHITE))
            results[black].append(RoundResult(theirs, white, Colour.BLACK))
        if got.bye:
            results[got.bye].append(RoundResult(Code.PAB))
        for k, v in results.items():
            if len(v) < r + 1:
                v.append(RoundResult(Code.HPB if rnd.random() < 0.5 else Code.ZPB))
    return tournament()


def child(command: list[str], timeout: float | None) -> tuple[float | None, int, str]:
    """Wall seconds (None: timed out), peak memory in MB and stdout of a child process."""
    gnu_time = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    report = tempfile.NamedTemporaryFile(suffix=".rss", delete=False).name
    if gnu_time:  # the child's own peak (the kernel's figure for a child counts the fork before exec)
        command = [gnu_time, "-f", "%M", "-o", report] + command
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    # The timeout ends the child's whole group: killing GNU time alone would leave bbp running.
    timer = threading.Timer(timeout, os.killpg, (proc.pid, signal.SIGKILL)) if timeout else None
    if timer:
        timer.start()
    out = proc.stdout.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if timer:
        timer.cancel()
        if proc.returncode < 0:
            return None, 0, ""
    peak = usage.ru_maxrss
    if gnu_time:
        try:
            peak = int(Path(report).read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    os.unlink(report)
    return elapsed, peak // 1024, out


def engine_run(file: str) -> None:
    """Pair FILE's next round in this process; print CPU seconds and the pairing (for --inner)."""
    t = read(file)
    upto = max((r + 1 for p in t.players for r, res in enumerate(p.results) if res.opponent is not None),
               default=0)
    start = time.process_time()
    got = pair_swiss(t, t.rounds, None, upto, initial_colour_of(t), system=system_of(t.info))
    elapsed = time.process_time() - start
    print(json.dumps({"cpu": elapsed, "boards": [list(p) for p in got.pairs], "bye": got.bye}))


def projected(finished: list[tuple[int, float]], size: int) -> float | None:
    """bbp's time at ``size`` from the two largest sizes it finished: t = t2 (size / n2) ** k,
    k the growth between them (None with fewer than two)."""
    if len(finished) < 2:
        return None
    (n1, t1), (n2, t2) = sorted(finished)[-2:]
    k = math.log(t2 / t1) / math.log(n2 / n1)
    return t2 * (size / n2) ** k


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3000, 9999])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--round", type=int, help="the round to pair (default: the middle one)")
    parser.add_argument("--bbp-timeout", type=float, default=7200, help="seconds before bbp is given up")
    parser.add_argument("--keep", help="folder to keep the TRF files in")
    parser.add_argument("--system", choices=("dutch", "dubov", "burstein"), default="dutch",
                        help="the FIDE Swiss system to play and pair by")
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        engine_run(args.inner)
        return
    bbp = os.environ.get("KEIZER_BBP") if args.system != "dubov" else None
    if args.system == "dubov":
        print("note: bbpPairings does not pair the Dubov system: bbp is skipped")
    elif not bbp:
        print("note: KEIZER_BBP is not set (the path to a local bbpPairings binary): bbp is skipped")
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench-swiss-"))
    folder.mkdir(parents=True, exist_ok=True)
    middle = args.round - 1 if args.round else args.rounds // 2
    keizer = [str(Path(sys.executable).with_name("keizer"))]
    header = f"{'players':>7}  {'keizer':>9}  {'MB':>4}  {'trf pair':>9}  {'MB':>4}"
    header += f"  {'bbp':>9}  {'MB':>4}  {'bbp/keizer':>10}  same" if bbp else ""
    print(f"pairing round {middle + 1} of {args.rounds} ({args.system})")
    print(header)
    finished: list[tuple[int, float]] = []  # (size, seconds) where bbp finished
    for size in args.sizes:
        t = play(size, args.rounds, middle, system=args.system)
        file = folder / f"{args.system}-{size}-round{middle + 1}.trf"
        file.write_text(dump(t), encoding="utf-8")
        bbp_file = file
        if bbp and args.system == "burstein":   # no acceleration of bbp's own
            bbp_file = file.with_suffix(".bbp.trf")
            bbp_file.write_text(dump(t) + "XXA    1" + "  0.0" * args.rounds + "\r\n", encoding="utf-8")
        _, mb, out = child([sys.executable, __file__, "--inner", str(file)], None)
        inner = json.loads(out)
        inner["mb"] = mb
        wall, cli_mb, _ = child(keizer + ["trf", "pair", str(file), "--format", "json"], None)
        row = f"{size:>7}  {inner['cpu']:>8.3f}s  {inner['mb']:>4}  {wall:>8.3f}s  {cli_mb:>4}"
        goal = GOALS.get(size)
        if bbp:
            result = folder / f"{args.system}-{size}-round{middle + 1}.bbp.txt"
            seconds, bbp_mb, _ = child([bbp, f"--{args.system}", str(bbp_file), "-p", str(result)], args.bbp_timeout)
            if seconds is None:
                guess = projected(finished, size)
                shown = f"~{guess:.0f}s" if guess else ">" + format(args.bbp_timeout, ".0f") + "s"
                ratio = f"~{guess / inner['cpu']:.0f}x" if guess else ""
                row += f"  {shown:>9}  {'':>4}  {ratio:>10}  ?"
            else:
                finished.append((size, seconds))
                numbers = list(map(int, result.read_text().split()))
                boards = [numbers[1 + 2 * k: 3 + 2 * k] for k in range(numbers[0])]
                same = boards == inner["boards"] + ([[inner["bye"], 0]] if inner["bye"] else [])
                row += (f"  {seconds:>8.3f}s  {bbp_mb:>4}  {seconds / inner['cpu']:>9.1f}x"
                        f"  {'yes' if same else 'NO'}")
        if goal:
            row += f"  (goal for the command: < {goal[0]} s" + (f", < {goal[1]} MB)" if goal[1] else ")")
        print(row, flush=True)
    if not args.keep:
        print(f"(files in {folder})")


if __name__ == "__main__":
    main()
