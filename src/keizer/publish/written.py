"""Values written down for the site's keys: equal values, equal bytes, however they are shared.

A page's key (:mod:`keizer.publish.keys`) must change when what the page shows does, and only
then.  Pickled as Python pickles by default, a value was not written from its values alone:
pickle writes an object met a second time as a reference to the first, so the bytes told how
the objects were shared.  A standing kept from run to run (:mod:`keizer.kept`, whose later
rounds share their entries with the standings before) was written otherwise than the same
standing computed from scratch, and every page showing it was made again.

:func:`written` writes every value in full wherever it occurs (pickle's memo is off: no
object is written as a reference to another), so the bytes are those of the values — the
strings' characters, the fractions' numerators and denominators, each dataclass's type and
fields, each dict's items in their order (the order a page shows them in) — and not of which
objects hold them.  Written in C, a page's context of thousands of cells takes milliseconds.
A value that cannot be written (a cycle, an object of a kind pickle does not know) gives
None: the page has no key and is always made.  A set's members are written in the order the
set holds them, which two processes may not share: a page whose context holds a set may be
made again by a new process, never kept when it changed.

>>> from fractions import Fraction
>>> shared = (Fraction(1, 2), "a")
>>> written([shared, shared]) == written([(Fraction(1, 2), "a"), (Fraction(1, 2), "a")])
True
>>> written({"a": 1, "b": 2}) == written({"b": 2, "a": 1})  # the order a page shows
False
>>> written(1) == written(True), written(1) == written(1.0), written(lambda: 1) is None
(False, False, True)
"""

from __future__ import annotations

import io
import pickle
from typing import Any


def written(value: Any) -> bytes | None:
    """``value`` written down from its values (None: it holds something that cannot be)."""
    out = io.BytesIO()
    writer = pickle.Pickler(out, protocol=5)
    writer.fast = True  # no memo: an object met again is written again, not referred to
    try:
        writer.dump(value)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return out.getvalue()
