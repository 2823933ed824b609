"""What a verb did, as a value: each view words it in its own terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from keizer.refusals import Message


@dataclass(frozen=True)
class Change:
    """What a change to a paired round did, for the officer."""

    round: int
    said: Message
    warnings: tuple[Message, ...] = ()  # the rules bent
