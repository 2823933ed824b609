"""QR codes of the app's links (result slips, the venue's check-in) as inline SVG, made by
segno (pure Python, no Pillow): its own markup, no user text in it."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG."""
    return Markup(segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True))
