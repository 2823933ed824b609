"""Click parameter types for numbers and dates within sane limits (:mod:`keizer.limits`).

Every numeric option and argument of ``keizer`` uses :class:`Whole`, so ``--round 10**30``,
``--round ²`` or ``-n 99999999999999999999999`` are one line of usage error, never a
traceback or an integer SQLite cannot hold.
"""

from __future__ import annotations

import datetime
import re
from fractions import Fraction
from typing import Any

import click

from keizer import limits


class Whole(click.ParamType):
    """A whole number from ``low`` to ``high`` written in ASCII digits."""

    name = "integer"

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value  # a default
        try:
            return limits.whole_number(str(value), "", self.low, self.high)
        except ValueError as e:
            self.fail(str(e).strip(), param, ctx)

    def __repr__(self) -> str:
        return f"Whole({self.low}, {self.high})"


class Day(click.ParamType):
    """A date written YYYY-MM-DD (ASCII digits), in the years 1900–2999; a datetime at midnight."""

    name = "date"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> datetime.datetime:
        if isinstance(value, datetime.datetime):
            return value
        try:
            found = limits.day(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)
        return datetime.datetime(found.year, found.month, found.day)


class Text(click.ParamType):
    """A name-like text: NFC, trimmed, bidirectional controls removed, at most ``limit``
    characters, no control characters, something visible (empty only when ``empty_ok``)."""

    name = "text"

    def __init__(self, what: str, limit: int, empty_ok: bool = False):
        self.what, self.limit, self.empty_ok = what, limit, empty_ok

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if self.empty_ok and not str(value).strip():
            return ""
        try:
            return limits.clean_text(str(value), self.what, self.limit)
        except ValueError as e:
            self.fail(str(e), param, ctx)


class Rate(click.ParamType):
    """A chance from 0 to 1, written as a decimal (``0.05``) or a percentage (``5%``); an exact Fraction."""

    name = "rate"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Fraction:
        if isinstance(value, Fraction):
            return value  # a default
        text = str(value).strip()
        m = re.fullmatch(r"([0-9]{1,3}(?:\.[0-9]{1,6})?|\.[0-9]{1,6})(%?)", text)
        if m is None:
            self.fail(f"{text[:30]!r} is not a rate like 0.05 or 5%", param, ctx)
        rate = Fraction(m[1]) / (100 if m[2] else 1)
        if rate > 1:
            self.fail(f"{text} is more than 100%: a rate is from 0 to 1 (or 0% to 100%)", param, ctx)
        return rate


#: A round number (``--round``, ``ROUND``); with zero for 'the standing before round 1'.
ROUND = Whole(1, limits.MAX_ROUNDS)
ROUND_OR_ZERO = Whole(0, limits.MAX_ROUNDS)
#: A board or match number.
BOARD = Whole(1, limits.MAX_BOARDS)
#: A rating (the store says why a value is out of its range).
RATING = Whole(0, 4000)
#: The seed of a drawing of lots.
SEED = Whole(limits.MIN_SEED, limits.MAX_SEED)
#: How many rows to show.
COUNT = Whole(0, limits.MAX_LOG)
DATE = Day()
RATE = Rate()
TIME_CONTROL = Text("a time control", limits.MAX_TIME_CONTROL)
#: A category; empty for none.
CATEGORY = Text("a category", limits.MAX_CATEGORY, empty_ok=True)
