"""Member lists as CSV: a header row, then one member per line.

Semicolons or commas; UTF-8 (with or without BOM) or Windows-1252, as the
KNSB rating list is (``Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S``,
as the KNSB publishes its rating list).  Recognised headers, in any case:

* name: ``name``, ``naam``, ``speler``, ``player``
* rating: ``rating``, ``elo``, ``knsb rating``, ``rtg``
* federation id: ``fed_id``, ``relatienummer``, ``knsb``, ``knsb id``, ``fide id``, ``id``

>>> rows = parse(b"Naam;Rating\\nAnna de Vries;1850\\nBram;\\n")
>>> [(r.name, r.rating) for r in rows]
[('Anna de Vries', 1850), ('Bram', None)]
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from keizer.formats.season_json import FormatError

_NAME = ("name", "naam", "speler", "player", "spelersnaam")
_RATING = ("rating", "elo", "knsb rating", "rtg", "knsb-rating")
_FED = ("fed_id", "relatienummer", "knsb", "knsb id", "knsb-id", "fide id", "fide_id", "id", "bondsnummer")


@dataclass(frozen=True)
class MemberRow:
    line: int
    name: str
    rating: int | None
    fed_id: str | None


def decode(data: bytes) -> str:
    """UTF-8 when it is valid UTF-8, else Windows-1252 (the KNSB list's encoding)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def parse(data: bytes) -> list[MemberRow]:
    text = decode(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise FormatError("line 1: the file is empty; a header row like 'name;rating' is needed")
    header_line = lines[0]
    delimiter = ";" if header_line.count(";") >= header_line.count(",") and ";" in header_line else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    try:
        return _rows(reader)
    except csv.Error as e:
        raise FormatError(f"line {reader.line_num}: {e} (check the quotes)") from None


def _rows(reader) -> list[MemberRow]:
    header = [h.strip().lower() for h in next(reader)]

    def column(names: tuple[str, ...]) -> int | None:
        for i, h in enumerate(header):
            if h in names:
                return i
        return None

    name_col, rating_col, fed_col = column(_NAME), column(_RATING), column(_FED)
    if name_col is None:
        raise FormatError(
            f"line 1: no name column in the header ({', '.join(header) or 'empty'}); call one column 'name'")
    rows = []
    for fields in reader:
        line_no = reader.line_num
        if not any(f.strip() for f in fields):
            continue
        if len(fields) <= name_col or not fields[name_col].strip():
            raise FormatError(f"line {line_no}, column {name_col + 1}: the name is missing")
        rating = None
        if rating_col is not None and rating_col < len(fields) and fields[rating_col].strip():
            raw = fields[rating_col].strip()
            if not raw.isdigit() or not 0 <= int(raw) <= 4000:
                raise FormatError(
                    f"line {line_no}, column {rating_col + 1}: rating {raw!r} is not a whole number from 0 to 4000")
            rating = int(raw)
        fed_id = None
        if fed_col is not None and fed_col < len(fields) and fields[fed_col].strip():
            fed_id = fields[fed_col].strip()
        rows.append(MemberRow(line_no, fields[name_col].strip(), rating, fed_id))
    seen: dict[str, int] = {}
    for row in rows:
        key = row.fed_id or row.name.casefold()
        if key in seen:
            raise FormatError(f"line {row.line}: {row.name} is in the file twice (line {seen[key]}); keep one line")
        seen[key] = row.line
    return rows
