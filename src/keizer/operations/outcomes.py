"""What a verb did, as a value: each view words it in its own terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from keizer.refusals import Message



@dataclass(frozen=True)
class Change:
    """What a change to a paired round did, for the officer."""

    round: int
    said: str | Message  # a Message the views word (a Swiss's change still says it in English)
    warnings: tuple[str, ...] = ()
