"""A form's fields read as the app's numbers, dates and short texts: what cannot be read is
refused as ``keizer.limits`` refuses it, ``what`` naming the field as a catalog word, so a
Dutch club reads its own language.

>>> from keizer.refusals import Refusal
>>> whole("12", Word("board"), 1, 99)
12
>>> try: whole("abc", Word("round"), 1, 99)
... except Refusal as e: print(e)
round 'abc' is not a whole number
>>> try: whole("120", Word("round"), 1, 99)
... except Refusal as e: print(e)
round 120 is out of range (1 to 99)
>>> try: day("8-9-2026", Word("the date of round 1"))
... except Refusal as e: print(e)
the date of round 1: '8-9-2026' is not a date like 2026-09-08
"""

from __future__ import annotations

import datetime

from keizer import limits
from keizer.refusals import Word


def whole(text: str, what: Word, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (as ``limits.whole_number``)."""
    return limits.whole_number(text, what, low, high)


def day(text: str, what: Word | None = None) -> datetime.date:
    """A date written YYYY-MM-DD in the years 1900–2999 (as ``limits.day``), refused about ``what``."""
    try:
        return limits.day(text)
    except limits.LimitError as e:
        if what is None:
            raise
        raise limits.LimitError("%(what)s: %(why)s", what=what, why=e) from None


def clean(text: str, what: Word, limit: int) -> str:
    """A short text (a category) cleaned as ``limits.clean_text`` cleans it."""
    return limits.clean_text(text, what, limit)
