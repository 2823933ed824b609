"""Charts as data: the geometry of small line charts, drawn as SVG by the templates.

The frame is small (360 × 210) so that the labels keep their size on a phone, where the
chart is drawn at about its own width.  Ticks fall on whole numbers (ranks, points) at a
round step; the last round is always labelled; each line ends in a dot.

>>> c = line_chart([("Anna", [(1, 3), (2, 1)])], rounds=2, low=1, high=3, invert=True)
>>> c["series"][0]["segments"], [t["value"] for t in c["y_ticks"]], [t["label"] for t in c["x_ticks"]]
(['48.0,170.0 344.0,16.0'], [1, 2, 3], ['1', '2'])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 40


def nice_step(span: Fraction | int, most: int = 5) -> int:
    """The whole-number step (1, 2, 5 × 10ⁿ) that cuts ``span`` into at most ``most`` parts.

    >>> [nice_step(s) for s in (0, 4, 7, 40, 1236)]
    [1, 1, 2, 10, 500]
    """
    step = 1
    while True:
        for m in (1, 2, 5):
            if span <= step * m * most:
                return step * m
        step *= 10


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[int, Fraction | int | None]]]],
    rounds: int,
    low: Fraction | int,
    high: Fraction | int,
    invert: bool = False,
) -> dict[str, Any]:
    """Polylines for each (label, [(round, y)]) on a shared frame.

    ``invert`` puts ``low`` at the top (ranks: 1 is best).  A ``None`` y breaks
    the line (a player who was not on the ladder that round).  ``first`` and ``last``
    (the first and last values of the first series, with their rounds) and ``best`` (its
    highest point: the lowest rank when inverted) let a page say in words what it shows.
    """
    step = nice_step(high - low)
    low = (int(low) // step) * step if not invert else int(low)
    top = -(-int(high) // step) * step
    if invert:  # ranks: 1, then the multiples of the step (1, 10, 20 …)
        values = [low] + [v for v in range(step, int(high) + 1, step) if v > low]
        top = int(high)
    else:
        values = list(range(low, top + 1, step))
    span_x = max(rounds - 1, 1)
    span_y = (top - low) or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(r: int) -> float:
        return round(LEFT + inner_w * (r - 1) / span_x, 1)

    def y_of(v: Fraction | int) -> float:
        # The share of the frame as integers: int / int is correctly rounded, as float(Fraction) is.
        n, d = (v.numerator, v.denominator) if isinstance(v, Fraction) else (int(v), 1)
        part, whole = n - low * d, d * span_y
        if not invert:
            part = whole - part
        return round(TOP + inner_h * (part / whole), 1)

    drawn = []
    for k, (label, points) in enumerate(series):
        segments: list[list[str]] = [[]]
        for r, v in points:
            if v is None:
                segments.append([])
            else:
                segments[-1].append(f"{x_of(r)},{y_of(v)}")
        known = [(r, v) for r, v in points if v is not None]
        dots = [{"x": x_of(known[-1][0]), "y": y_of(known[-1][1])}] if known else []
        drawn.append({"label": label, "segments": [" ".join(s) for s in segments if s], "index": k % 8,
                      "dots": dots})
    every = nice_step(rounds - 1, 6) if rounds > 7 else 1
    shown = [r for r in range(1, rounds + 1) if r == 1 or r % every == 0]
    if shown[-1] != rounds:
        if rounds - shown[-1] < every / 2 and len(shown) > 1:
            shown.pop()  # too close to the last round's label
        shown.append(rounds)
    x_ticks = [{"x": x_of(r), "label": str(r), "last": r == rounds} for r in shown]
    y_ticks = [{"y": y_of(v), "value": v} for v in values]
    known = [(r, v) for r, v in (series[0][1] if series else ()) if v is not None]
    best = (min if invert else max)(known, key=lambda rv: (rv[1], -rv[0]) if not invert else (rv[1], rv[0]),
                                     default=None)
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
            "bottom": HEIGHT - BOTTOM, "series": drawn, "x_ticks": x_ticks, "y_ticks": y_ticks,
            "first": known[0] if known else None, "last": known[-1] if known else None, "best": best}
