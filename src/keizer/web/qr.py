"""QR codes of the app's links (result slips, the venue's check-in) as inline SVG, made by
segno (pure Python, no Pillow): its own markup, no user text in it.

segno is imported with the first code drawn, not when ``keizer serve`` starts; a code is
drawn once per link and process (2-3 ms of CPU each: the venue screen and the printed slips
show the same links again and again)."""

from __future__ import annotations

import functools

from markupsafe import Markup


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG."""
    import segno

    return Markup(segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True))
