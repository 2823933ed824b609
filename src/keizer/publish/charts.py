"""Charts as data: the geometry of small line charts, drawn as SVG by the templates.

>>> c = line_chart([("Anna", [(1, 3), (2, 1)])], rounds=2, low=1, high=3, invert=True)
>>> c["series"][0]["segments"]
['40.0,196.0 580.0,20.0']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 20, 20, 24


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[int, Fraction | int | None]]]],
    rounds: int,
    low: Fraction | int,
    high: Fraction | int,
    invert: bool = False,
    ticks: int = 5,
) -> dict:
    """Polylines for each (label, [(round, y)]) on a shared frame.

    ``invert`` puts ``low`` at the top (ranks: 1 is best).  A ``None`` y breaks
    the line (a player who was not on the ladder that round).
    """
    span_x = max(rounds - 1, 1)
    span_y = (high - low) or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(r: int) -> float:
        return round(LEFT + inner_w * (r - 1) / span_x, 1)

    def y_of(v: Fraction | int) -> float:
        share = (v - low) / span_y
        if not invert:
            share = 1 - share
        return round(TOP + inner_h * float(share), 1)

    drawn = []
    for k, (label, points) in enumerate(series):
        segments: list[list[str]] = [[]]
        for r, v in points:
            if v is None:
                segments.append([])
            else:
                segments[-1].append(f"{x_of(r)},{y_of(v)}")
        drawn.append({"label": label, "segments": [" ".join(s) for s in segments if s], "index": k % 8})
    step = max(1, round(rounds / 10))
    x_ticks = [{"x": x_of(r), "label": str(r)} for r in range(1, rounds + 1, step)]
    y_ticks = []
    for k in range(ticks):
        value = low + (high - low) * Fraction(k, max(ticks - 1, 1))
        y_ticks.append({"y": y_of(value), "value": value})
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
            "bottom": HEIGHT - BOTTOM, "series": drawn, "x_ticks": x_ticks, "y_ticks": y_ticks}
