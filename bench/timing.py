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
