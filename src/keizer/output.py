"""Uniform data output for the CLI: ``--format table|json|csv``.

Rows are dicts; the table and CSV show the given columns, JSON prints the rows
as they are.  A CSV text cell that a spreadsheet would run as a formula (one
starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return) gets a leading
``'``, as OWASP recommends against CSV injection; numbers stay as they are, both
number values and plain decimal text such as ``-3`` or ``-2.5`` (the CLI rounds
scores to text before output).

>>> print(render([{"rank": 1, "name": "Anna", "score": 12.5}], ["rank", "name", "score"], "table"))
rank  name  score
----  ----  -----
   1  Anna   12.5
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, Sequence

FORMATS = ("table", "json", "csv")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def number(value: Fraction | int | None, decimals: int = 2) -> str:
    """A score for people: rounded half up, without trailing zeros.

    >>> number(Fraction(70, 3)), number(Fraction(75, 2)), number(Fraction(99))
    ('23.33', '37.5', '99')
    """
    if value is None:
        return ""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    text = format(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def json_number(value: Fraction | int) -> int | float:
    """The nearest JSON number (exact when the value is an integer)."""
    return value.numerator if value.denominator == 1 else float(value)


def render(rows: Sequence[dict[str, Any]], columns: Sequence[str], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(list(rows), ensure_ascii=False, indent=2)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([_csv_cell(c) for c in columns])
        for row in rows:
            writer.writerow([_csv_cell(row.get(c)) for c in columns])
        return buffer.getvalue().rstrip("\n")
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max([_width(c)] + [_width(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [all(_is_number(r[i]) for r in cells) and cells for i in range(len(columns))]
    lines = ["  ".join(_pad(c, w, False) for c, w in zip(columns, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    for r in cells:
        lines.append("  ".join(_pad(v, w, bool(n)) for v, w, n in zip(r, widths, numeric)).rstrip())
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number(Fraction(repr(value)), 2)
    return str(value)


def _csv_cell(value: Any) -> str:
    """A CSV cell no spreadsheet runs as a formula.

    >>> [_csv_cell(v) for v in ("=1+1", "@SUM(A1)", "-+", "-3", -3, Fraction(-5, 2), "+31 6", "Anna")]
    ["'=1+1", "'@SUM(A1)", "'-+", '-3', '-3', '-5/2', "'+31 6", 'Anna']
    """
    text = _cell(value)
    number_value = isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
    if text.startswith(_FORMULA_START) and not number_value and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return text == ""
    return True


def _width(text: str) -> int:
    """Columns a string takes in a terminal (wide East Asian characters and emoji take two)."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def _pad(text: str, width: int, right: bool) -> str:
    fill = " " * (width - _width(text))
    return fill + text if right else text + fill
