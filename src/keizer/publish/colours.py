"""Club colours made readable: text on the club colour, links in it, in light and dark mode.

Contrast follows WCAG 2.x: the relative luminance of sRGB colours and the ratio
``(L1 + 0.05) / (L2 + 0.05)``; AA asks 4.5:1 for text.  Text on a club colour is
black or white, whichever contrasts more (one of them always reaches 4.5:1); a club
colour used for links on the page's background is darkened (light mode) or
lightened (dark mode) just enough to reach 4.5:1.

>>> text_on("#1f4e79"), text_on("#ffd700")
('#ffffff', '#000000')
>>> readable("#ffd700", LIGHT_BACKGROUND)   # gold links on white: darkened to a readable gold
'#8b7500'
>>> round(contrast("#8b7500", LIGHT_BACKGROUND), 2) >= 4.5
True
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Palette:
    """The CSS colours of a club's site."""

    club: str  # the club colour: the header's background
    on_club: str  # text on it
    accent: str
    on_accent: str
    link: str  # links and headings on the light page
    link_dark: str  # … and in dark mode
    accent_text: str  # the accent as text (a fall in the standing) on the light page
    accent_text_dark: str

    @property
    def adjusted(self) -> bool:
        """Whether the club colour had to change to be readable as links."""
        return self.link != _hex(_rgb(self.club))


def palette(club: str, accent: str) -> Palette:
    """Every colour the site's style sheet needs from the club's two colours.

    >>> p = palette("#ffd700", "#c8102e")
    >>> p.on_club, p.link, p.adjusted
    ('#000000', '#8b7500', True)
    """
    return Palette(club=_hex(_rgb(club)), on_club=text_on(club), accent=_hex(_rgb(accent)), on_accent=text_on(accent),
                   link=readable(club, LIGHT_BACKGROUND), link_dark=readable(club, DARK_BACKGROUND),
                   accent_text=readable(accent, LIGHT_BACKGROUND),
                   accent_text_dark=readable(accent, DARK_BACKGROUND))


def advice(club: str, accent: str) -> list[str]:
    """What ``keizer club --colour`` says of the colours: where they could not be used as given.

    >>> advice("#1f4e79", "#c8102e")
    []
    >>> advice("#ffd700", "#c8102e")[0]
    'the club colour #ffd700 is too light for text on a white page (contrast 1.40:1, AA needs 4.5:1): links and headings use #8b7500 instead, and the header has black text'
    """
    p = palette(club, accent)
    said = []
    if p.adjusted:
        said.append(f"the club colour {p.club} is too light for text on a white page (contrast "
                    f"{contrast(club, LIGHT_BACKGROUND):.2f}:1, AA needs 4.5:1): links and headings use {p.link} "
                    f"instead, and the header has {'black' if p.on_club == '#000000' else 'white'} text")
    if p.accent_text != p.accent:
        said.append(f"the accent colour {p.accent} is too light for text on a white page (contrast "
                    f"{contrast(accent, LIGHT_BACKGROUND):.2f}:1): its text uses {p.accent_text} instead")
    return said
