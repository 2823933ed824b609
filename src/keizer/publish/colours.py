"""Club colours made readable: text on the club colour, links in it, in light and dark mode.

Text on a club colour is black or white, whichever contrasts more (one of them always
reaches 4.5:1); a club colour used for links on the page's background is darkened (light
mode) or lightened (dark mode) just enough to reach 4.5:1 (the WCAG arithmetic is
:mod:`keizer.formats.contrast`).
"""

from __future__ import annotations

from dataclasses import dataclass

from keizer.formats.contrast import DARK_BACKGROUND, LIGHT_BACKGROUND, _hex, _rgb, readable, text_on

__all__ = ["Palette", "palette"]


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
