"""How readable one colour is on another: WCAG 2.x contrast, and the least change of a colour
that makes it readable.  The club's colours are checked with it when they are set (the
club page of the app, ``keizer club --colour``) and the site's style sheet is made with it.

Contrast follows WCAG 2.x: the relative luminance of sRGB colours and the ratio
``(L1 + 0.05) / (L2 + 0.05)``; AA asks 4.5:1 for text.

>>> text_on("#1f4e79"), text_on("#ffd700")
('#ffffff', '#000000')
>>> readable("#ffd700", LIGHT_BACKGROUND)   # gold links on white: darkened to a readable gold
'#8b7500'
>>> round(contrast("#8b7500", LIGHT_BACKGROUND), 2) >= 4.5
True
"""

from __future__ import annotations

from typing import Iterable

LIGHT_BACKGROUND = "#ffffff"
DARK_BACKGROUND = "#15191d"
AA = 4.5


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def luminance(colour: str) -> float:
    """WCAG relative luminance (0 black … 1 white)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 … 21).

    >>> round(contrast("#000", "#fff"), 1), round(contrast("#777777", "#ffffff"), 2)
    (21.0, 4.48)
    """
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(colour: str) -> str:
    """Black or white text on ``colour``: whichever contrasts more."""
    return "#000000" if contrast(colour, "#000000") >= contrast(colour, "#ffffff") else "#ffffff"


def readable(colour: str, background: str, ratio: float = AA) -> str:
    """``colour`` itself if it reaches ``ratio`` on ``background``, else the least change of it
    towards black (a light background) or white (a dark one) that does."""
    if contrast(colour, background) >= ratio:
        return _hex(_rgb(colour))
    target = (0.0, 0.0, 0.0) if luminance(background) > 0.5 else (255.0, 255.0, 255.0)
    rgb = _rgb(colour)
    low, high = 0.0, 1.0  # share of the way to the target
    for _ in range(30):
        mid = (low + high) / 2
        mixed = _hex(tuple(c + (t - c) * mid for c, t in zip(rgb, target)))
        if contrast(mixed, background) >= ratio:
            high = mid
        else:
            low = mid
    return _hex(tuple(c + (t - c) * high for c, t in zip(rgb, target)))
