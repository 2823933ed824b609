"""Timing for the benchmark scripts: the median of repeated runs, in milliseconds."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_ms(job: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def median_cpu_ms(job: Callable[[], object], runs: int) -> tuple[float, float]:
    """The median wall-clock and CPU (this process) milliseconds of ``runs`` runs: on a machine
    others share, the CPU time is what the job costs, the wall clock what it waited too."""
    wall, cpu = [], []
    for _ in range(runs):
        start, used = time.perf_counter(), time.process_time()
        job()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return statistics.median(wall), statistics.median(cpu)
