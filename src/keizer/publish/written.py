"""Values written down for the site's keys: equal values, equal bytes, however they are shared.

A page's key (:mod:`keizer.publish.keys`) must change exactly when what the page shows does.
Pickling the page's values did not do that: pickle writes an object met twice as a reference
to the first, so a standing kept from run to run (:mod:`keizer.kept`, whose rounds share their
entries with the standings before) is written otherwise than the same standing computed from
scratch, and every page showing it was made again.  :func:`written` writes the values
themselves — a string's characters, a fraction's numerator and denominator, a dataclass's
type and fields, a dict's items in their order (the order a page shows them in), a set's
members sorted — so only the values count, never which object holds them.  A part longer
than a digest is written as its SHA-256, and a part met again in one writing (the same
object) is written from what was written of it the first time: the pricing of round 3, which
each later standing holds, is written once.  A value of a kind not written here (an object
of no known kind, a cycle) cannot be written down: the page has no key and is always made.

>>> from fractions import Fraction
>>> shared = (Fraction(1, 2), "a")
>>> written([shared, shared]) == written([(Fraction(1, 2), "a"), (Fraction(1, 2), "a")])
True
>>> written({"a": 1, "b": 2}) == written({"b": 2, "a": 1})  # the order a page shows
False
>>> written(frozenset({"x", "y"})) == written(frozenset({"y", "x"}))
True
>>> written(1) == written(True), written(1) == written(1.0), written(object()) is None
(False, False, True)
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import types
from operator import attrgetter
from enum import Enum
from fractions import Fraction
from typing import Any, Callable

from markupsafe import Markup

#: Parts written longer than this are written as their SHA-256.
_LONG = 48


class Unwritable(Exception):
    """A value holds something that cannot be written down."""


def written(value: Any) -> bytes | None:
    """``value`` written down from its values (None: it holds something that cannot be)."""
    try:
        return _Writer().write(value)
    except (Unwritable, RecursionError):
        return None


def _text(tag: bytes, text: str) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    return b"%s%d:%s" % (tag, len(data), data)


class _Writer:
    """One writing: what was written of each composite value met in it, by its id (the value
    is held too, so that no other value takes its id while the writing lasts)."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[object, bytes]] = {}

    def write(self, value: Any) -> bytes:
        kind = type(value)
        simple = _SIMPLE.get(kind)
        if simple is not None:
            return simple(value)
        found = self.seen.get(id(value))
        if found is None:
            found = _FROZEN.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        data = self._composite(kind, value)
        if len(data) > _LONG:
            data = b"#" + hashlib.sha256(data).digest()
        if kind in _frozen_kinds or (kind not in _other_kinds and _is_frozen(kind)):
            if len(_FROZEN) >= _MOST_FROZEN:
                _FROZEN.clear()
            _FROZEN[id(value)] = (value, data)
        else:
            self.seen[id(value)] = (value, data)
        return data

    def _composite(self, kind: type, value: Any) -> bytes:
        write = self.write
        if kind is dict or kind is list or kind is tuple:
            plain = _plain(kind, value)
            if plain is not None:
                return plain
        if kind is tuple or kind is list:
            return b"(" + b",".join([write(v) for v in value]) + b")" if kind is tuple else \
                b"[" + b",".join([write(v) for v in value]) + b"]"
        if kind is dict:
            return b"{" + b",".join([write(k) + b":" + write(v) for k, v in value.items()]) + b"}"
        if kind is frozenset or kind is set:
            return b"<" + b",".join(sorted(write(v) for v in value)) + b">"
        if isinstance(value, Enum):
            return _text(b"e", f"{kind.__module__}.{kind.__qualname__}.{value.name}")
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            values = _fields(kind)(value)
            plain = _plain(tuple, values)
            return _text(b"D", f"{kind.__module__}.{kind.__qualname__}") + (
                plain if plain is not None else b"(" + b",".join([write(v) for v in values]) + b")")
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and "<" not in value.__qualname__:
            return _text(b"c", f"{value.__module__}.{value.__qualname__}")  # a function: by its name
        if isinstance(value, str):  # a str of another kind than Markup
            return _text(b"S", f"{kind.__module__}.{kind.__qualname__}") + _text(b"s", str(value))
        raise Unwritable(kind.__qualname__)


#: Kinds whose repr is their value, exactly and alone (a string's characters, an integer's
#: digits, a float's shortest round trip, a fraction's numerator and denominator, a date, a
#: Markup string as ``Markup('…')``): a dict, list or tuple holding only these is written as
#: its repr, mostly at the speed of C.  Nothing of these kinds holds another value, so no cycle.
_PLAIN = frozenset({str, int, bool, float, type(None), Fraction, Markup, datetime.date})


def _plain(kind: type, value: Any) -> bytes | None:
    """A dict, list or tuple of plain values written as its repr (tagged with its kind), else None."""
    kinds = set(map(type, value.values())) | set(map(type, value)) if kind is dict else set(map(type, value))
    if kinds <= _PLAIN:
        return b"r" + repr(value).encode("utf-8", "surrogatepass")
    return None


_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}

#: What was written of each frozen dataclass met (a value that does not change: the engines'
#: seasons, rounds, games and standings), by its id, from one writing to the next: the rounds a
#: kept season shares from state to state (keizer.store.rounds_read) are written once.
_FROZEN: dict[int, tuple[object, bytes]] = {}
_MOST_FROZEN = 250_000
_frozen_kinds: set[type] = set()
_other_kinds: set[type] = set()


def _is_frozen(kind: type) -> bool:
    params = getattr(kind, "__dataclass_params__", None)
    frozen = params is not None and bool(params.frozen)
    (_frozen_kinds if frozen else _other_kinds).add(kind)
    return frozen


def _fields(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """What reads a dataclass's fields, in their order, as a tuple."""
    got = _FIELDS.get(kind)
    if got is None:
        names = [f.name for f in dataclasses.fields(kind)]
        got = attrgetter(*names) if len(names) > 1 else lambda v: tuple(getattr(v, n) for n in names)
        _FIELDS[kind] = got
    return got


#: How each kind of plain value is written.
_SIMPLE: dict[type, Callable[[Any], bytes]] = {
    str: lambda v: _text(b"s", v),
    Markup: lambda v: _text(b"m", str(v)),
    int: lambda v: b"i%d" % v,
    bool: lambda v: b"T" if v else b"F",
    float: lambda v: b"f" + repr(v).encode(),
    type(None): lambda v: b"N",
    Fraction: lambda v: b"q%d/%d" % (v.numerator, v.denominator),
    bytes: lambda v: b"b%d:%s" % (len(v), v),
    datetime.date: lambda v: b"d" + v.isoformat().encode(),
    datetime.datetime: lambda v: b"t" + v.isoformat().encode(),
}
