"""A form's fields read as the app's numbers, dates and short texts: what cannot be read is
refused with a message id (``keizer.limits`` says why in English only, for the command line),
so a Dutch club reads its own language.  ``what`` names the field as a catalog word.

>>> whole("12", Word("board"), 1, 99)
12
>>> try: whole("abc", Word("round"), 1, 99)
... except StoreError as e: print(e)
round 'abc' is not a whole number
>>> try: whole("120", Word("round"), 1, 99)
... except StoreError as e: print(e)
round 120 is out of range (1 to 99)
>>> try: day("8-9-2026", Word("the date of round 1"))
... except StoreError as e: print(e)
the date of round 1: '8-9-2026' is not a date like 2026-09-08
"""

from __future__ import annotations

import datetime
import re

from keizer import limits
from keizer.refusals import Word
from keizer.store import StoreError


#: As ``keizer.limits`` reads them: a sign and digits; four, two and two digits.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _a_day(text: str) -> bool:
    """Whether ``text`` is a real day written YYYY-MM-DD (of any year)."""
    try:
        return bool(_DAY.fullmatch(text)) and bool(datetime.date.fromisoformat(text))
    except ValueError:
        return False


def _shown(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."


def whole(text: str, what: Word, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (as ``limits.whole_number``)."""
    try:
        return limits.whole_number(text, what.text, low, high)
    except ValueError:
        shown = _shown(text.strip())
        if not _WHOLE.fullmatch(text.strip()):
            raise StoreError("%(what)s %(text)s is not a whole number", what=what, text=repr(shown)) from None
        raise StoreError("%(what)s %(text)s is out of range (%(low)s to %(high)s)",
                         what=what, text=shown, low=low, high=high) from None


def day(text: str, what: Word | None = None) -> datetime.date:
    """A date written YYYY-MM-DD in the years 1900–2999 (as ``limits.day``)."""
    try:
        return limits.day(text)
    except ValueError:
        text = text.strip()
        why = (StoreError("%(text)s is not a date like %(example)s", text=repr(text[:30]), example="2026-09-08")
               if not _a_day(text) else StoreError("%(text)s is not a date between 1900 and 2999", text=text))
        if what is None:
            raise why from None
        raise StoreError("%(what)s: %(why)s", what=what, why=why) from None


def clean(text: str, what: Word, limit: int) -> str:
    """A short text (a category) cleaned as ``limits.clean_text`` cleans it."""
    try:
        return limits.clean_text(text, what.text, limit)
    except ValueError:
        trimmed = text.strip()
        if len(trimmed) > limit:
            raise StoreError("%(what)s can have at most %(limit)s characters (this one has %(n)s)",
                             what=what, limit=limit, n=len(trimmed)) from None
        raise StoreError("%(what)s must have a visible character and no control or direction characters",
                         what=what) from None
