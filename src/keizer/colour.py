"""The two sides of a chess board: the one value every engine shares (the Keizer domain in
:mod:`keizer.model`, the tie-break engine in :mod:`keizer.tiebreaks`), in a module that needs
nothing else, so that neither has to import the other for it.

>>> Colour.WHITE.opposite
<Colour.BLACK: 'black'>
"""

from __future__ import annotations

from enum import Enum


class Colour(str, Enum):
    WHITE = "white"
    BLACK = "black"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE
