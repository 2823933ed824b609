"""Member lists as CSV: a header row, then one member per line.

Semicolons or commas; UTF-8 (with or without BOM), UTF-16 with BOM, or
Windows-1252, as the KNSB rating list is (``Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S``,
as the KNSB publishes its rating list).  Recognised headers, in any case:

* name: ``name``, ``naam``, ``speler``, ``player``
* rating: ``rating``, ``elo``, ``knsb rating``, ``rtg``
* federation id: ``fed_id``, ``relatienummer``, ``knsb``, ``knsb id``, ``fide id``, ``id``

>>> rows = parse(b"Naam;Rating\\nAnna de Vries;1850\\nBram;\\n")
>>> [(r.name, r.rating) for r in rows]
[('Anna de Vries', 1850), ('Bram', None)]

A file that is cut off is refused as a whole, naming the line: a record with
fewer fields than the header, an open quote at the end, a character cut in
half.  A cut inside the last field of the last line cannot be told from a real
value; it shows in the list of changes (``rating 1850 → 18``), which
``keizer member import --dry-run`` prints without writing.

:func:`plan` says what importing the rows changes, matching rows to members.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Collection, Iterator, Mapping

from keizer.formats.errors import FormatError
from keizer.formats.text import decode
from keizer.limits import fold_name
from keizer.refusals import Message, Word

_NAME = ("name", "naam", "speler", "player", "spelersnaam")
_RATING = ("rating", "elo", "knsb rating", "rtg", "knsb-rating")
_FED = ("fed_id", "relatienummer", "knsb", "knsb id", "knsb-id", "fide id", "fide_id", "id", "bondsnummer")


@dataclass(frozen=True)
class MemberRow:
    line: int
    name: str
    rating: int | None
    fed_id: str | None


def parse(data: bytes) -> list[MemberRow]:
    text = decode(data)
    first = re.split(r"[\r\n]", text, maxsplit=1)[0]
    if not first.strip():
        raise FormatError("line 1: no header; the first line must name the columns, like 'name;rating'")
    delimiter = ";" if first.count(";") >= first.count(",") and ";" in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    records = _records(reader)
    try:
        # The number of a last line that has no line end: that is where a cut-off file stops.
        open_end = None if text.endswith(("\n", "\r")) else len(re.findall(r"\r\n|\r|\n", text)) + 1
        return _rows(records, open_end)
    except csv.Error as e:
        start = records.start
        if str(e) == "unexpected end of data":
            raise FormatError("line %(line)s: a quote opened here is never closed (is the file cut off?); check the "
                              "quotes: close it, or remove the line", line=start) from None
        raise FormatError("line %(line)s: %(why)s (check the quotes)", line=start, why=str(e)) from None


class _records:
    """The csv records with the line each starts on (a quoted field may span lines)."""

    def __init__(self, reader: Any):
        self.reader = reader
        self.start = 1

    def __iter__(self) -> Iterator[list[str]]:
        return self

    def __next__(self) -> list[str]:
        self.start = self.reader.line_num + 1
        return next(self.reader)


def _rows(records: _records, open_end: int | None) -> list[MemberRow]:
    header = [h.strip().lower() for h in next(records)]
    # A header may end in empty names (a trailing ';'); a record needs the named columns.
    needed = max((i + 1 for i, h in enumerate(header) if h), default=0)

    def column(names: tuple[str, ...]) -> int | None:
        for i, h in enumerate(header):
            if h in names:
                return i
        return None

    name_col, rating_col, fed_col = column(_NAME), column(_RATING), column(_FED)
    if name_col is None:
        shown = _shown(", ".join(header)[:80])
        raise FormatError("line 1: no name column in the header (%(header)s); call one column 'name'",
                          header=shown or Word("empty"))
    rows = []
    for fields in records:
        line_no = records.start
        if not any(f.strip() for f in fields):
            continue
        if len(fields) < needed:
            if records.reader.line_num == open_end:
                raise FormatError("line %(line)s has %(have)s of the header's %(needed)s fields and the file ends "
                                  "there: it looks cut off; use the complete file", line=line_no, have=len(fields),
                                  needed=needed)
            raise FormatError("line %(line)s has %(have)s of the header's %(needed)s fields; add the missing ones "
                              "(empty fields too, like 'Anna;;1850') or remove the line", line=line_no,
                              have=len(fields), needed=needed)
        if not fields[name_col].strip():
            raise FormatError("line %(line)s, column %(column)s: the name is missing", line=line_no,
                              column=name_col + 1)
        rating = None
        if rating_col is not None and fields[rating_col].strip():
            raw = fields[rating_col].strip()
            # ASCII digits only: int() would take '١٨٥٠', and '²' passes str.isdigit but not int().
            if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) > 4000:
                raise FormatError("line %(line)s, column %(column)s: rating %(rating)s is not a whole number from 0 "
                                  "to 4000", line=line_no, column=rating_col + 1, rating=repr(_shown(raw[:20])))
            rating = int(raw)
        fed_id = None
        if fed_col is not None and fields[fed_col].strip():
            fed_id = fields[fed_col].strip()
        rows.append(MemberRow(line_no, unicodedata.normalize("NFC", fields[name_col].strip()), rating, fed_id))
    seen: dict[str, int] = {}
    for row in rows:
        key = row.fed_id or row.name.casefold()
        if key in seen:
            raise FormatError("line %(line)s: %(name)s is in the file twice (line %(first)s); keep one line",
                              line=row.line, name=_shown(row.name), first=seen[key])
        seen[key] = row.line
    return rows


def _shown(text: str) -> str:
    """``text`` for a one-line message: control characters and line separators escaped."""
    return "".join(ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
                   else ch for ch in text)


@dataclass(frozen=True)
class Change:
    """One member the import adds (``member_id`` None) or changes, and the lines that say so."""

    line: int
    member_id: int | None
    fields: Mapping[str, Any]
    report: tuple[Message, ...]


@dataclass(frozen=True)
class ImportPlan:
    changes: tuple[Change, ...]
    unchanged: int
    #: Matched members whose name the file spells otherwise, left as they are (no ``update_names``).
    names_kept: int

    @property
    def added(self) -> int:
        return sum(c.member_id is None for c in self.changes)

    @property
    def updated(self) -> int:
        return len(self.changes) - self.added


def plan(rows: list[MemberRow], members: list[dict[str, Any]], update_names: bool = False,
         allow_duplicate: bool = False) -> ImportPlan:
    """What importing ``rows`` changes in ``members`` (dicts of id, name, rating, fed_id).

    A row is the member with its federation id; else (no id in the row, or no member has
    it) the member with its name, written exactly so or else equal up to case, accents
    and spaces, among the members without a federation id (a member with another id is
    another person).  A member is matched by one row at most.  A matched member gets
    the row's rating (an empty rating keeps the old one) and federation id, and with
    ``update_names`` its spelling of the name.  Other rows are new members, refused when
    their name equals a member's up to case, accents and spaces (``allow_duplicate``
    adds them anyway), like a rename to such a name.

    >>> anna = {"id": 1, "name": "Anna de Vries", "rating": 1850, "fed_id": None}
    >>> rows = parse(b"name;rating\\nanna de vries;1875\\nBram Jansen;1700\\n")
    >>> [[str(line) for line in c.report] for c in plan(rows, [anna]).changes]
    [['Anna de Vries: rating 1850 → 1875'], ['added: Bram Jansen (rating 1700)']]
    """
    known = [{**m, "line": None} for m in members]  # grows with the members the file adds
    taken: set[int] = set()  # indexes into known of the members a row has matched
    changes: list[Change] = []
    unchanged = names_kept = 0
    for row in rows:
        i = _match(row, known, taken)
        if i is None:
            if not allow_duplicate:
                _refuse_namesake(row, known, None)
            new = {"name": row.name, "rating": row.rating, "fed_id": row.fed_id}
            known.append({**new, "id": None, "line": row.line})
            taken.add(len(known) - 1)
            details = tuple(([Message("rating %(rating)s", rating=row.rating)] if row.rating is not None else [])
                            + ([Message("federation id %(id)s", id=row.fed_id)] if row.fed_id else []))
            added = Message("added: %(name)s (%(details)s)", name=row.name, details=details) if details \
                else Message("added: %(name)s", name=row.name)
            near = near_names(row, members, taken_ids={known[j]["id"] for j in taken})
            if near:
                added = Message("%(added)s; did you mean %(near)s?", added=added, near=near)
            changes.append(Change(row.line, None, new, (added,)))
            continue
        taken.add(i)
        member = known[i]
        fields: dict[str, Any] = {}
        report: list[Message] = []
        if row.rating is not None and row.rating != member["rating"]:
            fields["rating"] = row.rating
            report.append(Message("%(name)s: rating %(old)s → %(new)s", name=member["name"],
                                  old=_or_none(member["rating"]), new=row.rating))
        if row.fed_id and row.fed_id != member["fed_id"]:
            fields["fed_id"] = row.fed_id
            report.append(Message("%(name)s: federation id %(old)s → %(new)s", name=member["name"],
                                  old=_or_none(member["fed_id"]), new=row.fed_id))
        if row.name != member["name"]:
            if update_names:
                if not allow_duplicate:
                    _refuse_namesake(row, known, i)
                fields["name"] = row.name
                report.append(Message("name: %(old)s → %(new)s", old=member["name"], new=row.name))
            else:
                names_kept += 1
        if fields:
            member.update(fields)
            changes.append(Change(row.line, member["id"], fields, tuple(report)))
        else:
            unchanged += 1
    return ImportPlan(tuple(changes), unchanged, names_kept)


#: How alike two folded names must be (difflib's ratio) to be offered as "did you mean".
NEAR = 0.85


def near_names(row: MemberRow, members: list[dict[str, Any]], taken_ids: Collection[int] = frozenset(),
               limit: int = 3) -> Message | None:
    """The members whose name is close to the row's (a typo, a missing letter, 'Last, First'
    turned round), compared folded (case, accents and spaces aside) with difflib, best first:
    ``'Jan de Vries' (id 4)``, or None.  A member matched by another line, or with another
    federation id than the row's, is another person and not offered.  Only a hint: the row
    still becomes a new member unless the file is corrected.

    >>> row = MemberRow(2, "Jan de Vriess", None, None)
    >>> str(near_names(row, [{"id": 4, "name": "Jan de Vries", "fed_id": None}, {"id": 5, "name": "Cor", "fed_id": None}]))
    "'Jan de Vries' (id 4)"
    """
    keys = {fold_name(row.name)}
    last, comma, first = row.name.partition(",")
    if comma and first.strip():
        keys.add(fold_name(f"{first} {last}"))
    scored = []
    for m in members:
        if m["id"] in taken_ids or (row.fed_id and m.get("fed_id") and m["fed_id"] != row.fed_id):
            continue
        theirs = fold_name(m["name"])
        ratio = max(difflib.SequenceMatcher(None, key, theirs).ratio() for key in keys)
        if ratio >= NEAR:
            scored.append((-ratio, m["id"], m))
    scored.sort(key=lambda x: (x[0], x[1]))
    near = None
    for _r, _i, m in scored[:limit]:
        one = Message("'%(name)s' (id %(id)s)", name=_shown(m["name"]), id=m["id"])
        near = one if near is None else Message("%(these)s or %(that)s", these=near, that=one)
    return near


def _match(row: MemberRow, known: list[dict[str, Any]], taken: set[int]) -> int | None:
    """The index in ``known`` of the member ``row`` is (see :func:`plan`), or None: a new member."""
    if row.fed_id:
        for i, m in enumerate(known):
            if m["fed_id"] == row.fed_id:
                if i in taken:
                    raise FormatError("line %(line)s: federation id %(value)s is %(name)s's, whom an earlier line of "
                                      "the file names already; keep one line", line=row.line,
                                      value=_shown(row.fed_id), name=_shown(m["name"]))
                return i
    pool = [i for i, m in enumerate(known) if i not in taken and not (row.fed_id and m["fed_id"])]
    want = fold_name(row.name)
    for hits in ([i for i in pool if known[i]["name"] == row.name],
                 [i for i in pool if fold_name(known[i]["name"]) == want]):
        if len(hits) == 1:
            return hits[0]
        if hits:
            shown = ", ".join(f"{_shown(known[i]['name'])} (id {known[i]['id']})" for i in hits[:8])
            raise FormatError("line %(line)s: %(name)s could be any of %(shown)s; put federation ids in the file, or "
                              "give those members distinct names", hint="members_csv_edit", line=row.line,
                              name=_shown(row.name), shown=shown)
    return None


def _refuse_namesake(row: MemberRow, known: list[dict[str, Any]], self_index: int | None) -> None:
    """Refuse ``row``'s name when it equals another member's up to case, accents and spaces."""
    want = fold_name(row.name)
    for i, m in enumerate(known):
        if i != self_index and fold_name(m["name"]) == want:
            who = (Message("member id %(id)s", id=m["id"]) if m["id"] is not None
                   else Message("added by line %(line)s", line=m["line"]))
            raise FormatError("line %(line)s: %(name)s would be a second %(other)s (%(who)s)", hint="members_csv_namesake",
                              line=row.line, name=_shown(row.name), other=_shown(m["name"]), who=who)


def _or_none(value: Any) -> Any:
    return Word("none") if value is None else value
