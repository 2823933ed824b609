"""Rating lists: the KNSB's (national) and FIDE's, as downloaded, zipped or not.

* The KNSB list is a semicolon CSV in Windows-1252 (``Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S``),
  read as :mod:`keizer.formats.members_csv` reads a member list; the relatienummer is the
  member's federation id.
* FIDE's TXT download has fixed-width columns named by its first line
  (``ID Number      Name … Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng …``; the
  standard-only list names its rating column after the month, ``DEC25``).  The columns are
  found from that header, so a list with other columns (rapid, blitz) reads the same.

  Checked against FIDE's download page (https://ratings.fide.com/download_lists.phtml: the
  combined list ``players_list.zip`` holding ``players_list_foa.txt``, the standard list
  ``standard_rating_list.zip``, their ``_xml`` twins, and the legend of the columns: ID
  number, name, federation, sex, titles, FOA title, then per kind rating, games in the
  period and K factor, birth year, flag) and the files as published: each value starts
  under its header word (``1503014        Carlsen, Magnus … NOR M   GM … 2823  0   10``);
  in ``players_list_foa.txt`` (162 characters a line) ID Number is columns 1-15, Name 16-76,
  Fed 77-80, …, OTit 95-109, FOA 110-113, SRtng 114-119, SGm 120-123; the standard-only list
  (136 characters) has the month's rating at 114-119 too, the legacy list without FOA
  (``players_list.txt``, 158 characters) SRtng at 110-115; an unrated player has ``0``.
  What the header alone does not say: a few lines of the published list are longer than
  the header because their other titles overflow OTit (``SI,FI,LSI,SLI,NAAFM``), which
  moves every later column to the right by as much; the rating is read there.
* FIDE's XML download: ``<playerslist><player><fideid>…</fideid><name>…</name>…<rating>…</rating>
  …</player>…`` (children ``fideid, name, country, sex, title, w_title, o_title, foa_title,
  rating, games, k, rapid_rating, rapid_games, rapid_k, blitz_rating, blitz_games, blitz_k,
  birthday, flag``; ``rating`` is the standard one; often without an XML declaration).

FIDE's full list has more than a million players; a club needs a few hundred of them, so
:func:`read` streams the file and keeps only the lines of the ids (and, when names may be
matched, the names) it is asked for.

>>> import io
>>> txt = (b"ID Number      Name                           Fed Sex Tit  SRtng SGm\\n"
...        b"1503014        Carlsen, Magnus                NOR M   GM   2837  9\\n"
...        b"1000000        Somebody, Else                 NED F        1500  0\\n")
>>> found = read(io.BytesIO(txt), {"fide": {"1503014"}, "national": set()})
>>> found.kind, found.by_id["1503014"].rating, found.by_id["1503014"].name, len(found.by_id)
('fide', 2837, 'Carlsen, Magnus', 1)
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any
from xml.etree import ElementTree

from keizer.formats.members_csv import _shown
from keizer.formats.members_csv import parse as parse_csv
from keizer.formats.errors import FormatError
from keizer.limits import fold_name
from keizer.refusals import Message, Word, Words

#: Kind of list → (the member's id column, its rating column, how the id is called).
COLUMNS = {"national": ("fed_id", "rating", "federation id"), "fide": ("fide_id", "fide_rating", "FIDE id")}

#: A CSV list is read whole: the KNSB's has some 20,000 lines (about 2 MB).
MAX_CSV_BYTES = 64 * 1024 * 1024

_MONTH = re.compile(rb"[A-Z]{3}[0-9]{2}")
_PROGRESS_EVERY = 1 << 16


@dataclass(frozen=True)
class Entry:
    """One player of a list that the club may need."""

    line: int
    id: str
    name: str
    rating: int | None  # None: unrated in this list
    #: FIDE's lists: the K of the standard rating (``SK``/``K``, ``<k>``) and the year of birth
    #: (``B-day``, ``<birthday>``), what K 40 depends on (B.02 8.3.3); None when not given.
    k: int | None = None
    birth_year: int | None = None


@dataclass
class RatingList:
    kind: str  # "national" or "fide"
    by_id: dict[str, Entry] = field(default_factory=dict)
    #: Folded names ("magnus carlsen" and "carlsen, magnus") → the entries with that name
    #: (also the rows without an id: a club's own list may have those, matched by name only).
    by_name: dict[str, list[Entry]] = field(default_factory=dict)
    #: The lines of rows without an id that were not read (names were not to be matched).
    skipped: list[int] = field(default_factory=list)


def name_keys(name: str) -> set[str]:
    """The folded forms a name is compared in: as written, and 'Last, First' turned round.

    >>> sorted(name_keys("Vries, Anna de"))
    ['anna de vries', 'vries, anna de']
    """
    keys = {fold_name(name)}
    last, comma, first = name.partition(",")
    if comma and first.strip():
        keys.add(fold_name(f"{first} {last}"))
    return keys


def read(stream: IO[bytes], ids: Mapping[str, set[str]], names: set[str] | None = None,
         progress: Callable[[int], None] | None = None) -> RatingList:
    """The entries of the list in ``stream`` (a zip archive holding one list, or the list)
    whose id is in ``ids[kind]`` or, with ``names`` (folded, see :func:`name_keys`),
    whose name is one of them.  ``progress`` is called now and then with the bytes read."""
    if zipfile.is_zipfile(stream):
        stream.seek(0)
        try:
            archive = zipfile.ZipFile(stream)
            lists = [i for i in archive.infolist() if not i.is_dir()
                     and i.filename.lower().endswith((".txt", ".xml", ".csv"))]
            if len(lists) != 1:
                raise FormatError("the zip archive holds %(n)s rating lists (.txt, .xml or .csv files); it must hold "
                                  "one: unzip it and import the list itself", n=len(lists))
            with archive.open(lists[0]) as inner:
                return _read_plain(inner, ids, names, progress)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error) as e:
            raise FormatError("the zip archive is damaged (%(why)s); download it again", why=str(e)) from None
    stream.seek(0)
    if stream.read(4) == b"PK\x03\x04":  # a zip archive without its directory at the end: cut off
        raise FormatError("the zip archive is damaged or cut off (it has no directory); download it again")
    stream.seek(0)
    return _read_plain(stream, ids, names, progress)


def _read_plain(stream: IO[bytes], ids: Mapping[str, set[str]], names: set[str] | None,
                progress: Callable[[int], None] | None) -> RatingList:
    counted = _Counting(stream, progress)
    buffered = io.BufferedReader(counted, 1 << 20)
    start = buffered.peek(4096)[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<"):
        return _read_xml(buffered, ids["fide"], names)
    if start.startswith(b"ID Number"):
        return _read_txt(buffered, ids["fide"], names)
    data = buffered.read(MAX_CSV_BYTES + 1)
    if len(data) > MAX_CSV_BYTES:
        raise FormatError("the file is larger than any KNSB rating list and is not a FIDE list (its first line "
                          "is not 'ID Number  Name …'); check that it is the rating list")
    if b"\x00" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 text has NULs
        raise FormatError("this is not a rating list: it is neither text (the KNSB list, FIDE's TXT list) "
                          "nor XML (FIDE's XML list)")
    return _read_csv(data, ids["national"], names)


class _Counting(io.RawIOBase):
    """A raw stream that reports how many bytes have been read."""

    def __init__(self, inner: IO[bytes], progress: Callable[[int], None] | None):
        self.inner, self.progress, self.done, self.reported = inner, progress, 0, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        buffer[:len(data)] = data
        self.done += len(data)
        if self.progress and self.done - self.reported >= _PROGRESS_EVERY:
            self.progress(self.done - self.reported)
            self.reported = self.done
        return len(data)


def _at(unit: str, n: int) -> Message:
    """Where in a list: its line ``n``, or (``unit`` "player") its ``n``-th player record."""
    return Message("line %(n)s", n=n) if unit == "line" else Message("player %(n)s", n=n)


def _add(found: RatingList, entry: Entry, keys: Iterable[str], unit: str = "line") -> None:
    if not entry.id:  # a name-only row: found by its name, never by an id
        for key in keys:
            found.by_name.setdefault(key, []).append(entry)
        return
    if entry.id in found.by_id:
        raise FormatError("%(where)s: %(label)s %(id)s is in the list twice (%(earlier)s); download the list again",
                          where=_at(unit, entry.line),
                          label=Word("federation id") if found.kind == "national" else Word("FIDE id"),
                          id=entry.id, earlier=_at(unit, found.by_id[entry.id].line))
    found.by_id[entry.id] = entry
    for key in keys:
        found.by_name.setdefault(key, []).append(entry)


def _rating(raw: str, where: Message) -> int | None:
    raw = raw.strip()
    if not raw or raw == "0":
        return None
    if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) > 4000:
        raise FormatError("%(where)s: rating %(rating)s is not a whole number from 0 to 4000; download the list again",
                          where=where, rating=repr(_shown(raw[:20])))
    return int(raw)


def _small(raw: str, what: str) -> int | None:
    """A list's K (1 to 40) or year of birth (1900 to 2100); anything else (empty, 0, a date
    written otherwise) is not known: the rating is what the import is for.

    >>> _small(" 40 ", "k"), _small("2008", "birth_year"), _small("0", "birth_year"), _small("x", "k")
    (40, 2008, None, None)
    """
    raw = raw.strip()
    low, high = (1, 40) if what == "k" else (1900, 2100)
    return int(raw) if re.fullmatch(r"[0-9]{1,4}", raw) and low <= int(raw) <= high else None


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def _read_txt(stream: IO[bytes], wanted: set[str], names: set[str] | None) -> RatingList:
    header = stream.readline().lstrip(b"\xef\xbb\xbf").rstrip(b"\r\n")
    starts = [m.start() for m in re.finditer(rb"\S+", header.replace(b"ID Number", b"ID_Number"))]
    tokens = header.replace(b"ID Number", b"ID_Number").split()
    ends = dict(zip(tokens, starts[1:] + [len(header) + 100]))
    begins = dict(zip(tokens, starts))
    rating_name = b"SRtng" if b"SRtng" in begins else next((t for t in tokens if _MONTH.fullmatch(t)), None)
    if b"Name" not in begins or rating_name is None:
        raise FormatError("line 1: a FIDE TXT list names the columns 'ID Number', 'Name' and 'SRtng' (or the "
                          "month, like 'DEC25'); this header has not; download the list again")
    id_end, name_at, name_end = begins[b"Name"], begins[b"Name"], ends[b"Name"]
    rating_at, rating_end = begins[rating_name], ends[rating_name]
    k_name = b"SK" if b"SK" in begins else b"K" if b"K" in begins else None
    extra = {what: (begins[name], ends[name]) for what, name in (("k", k_name), ("birth_year", b"B-day"))
             if name in begins}
    # Every line is as wide as the header; one that is wider has a column overflowing before
    # the rating (OTit, in FIDE's published list), and the later columns moved to the right.
    width = len(_text(header)) if rating_at > name_end else None
    found = RatingList("fide")
    # Folding a million names takes long: a name is folded only when its first word is a word
    # of some member's name (or it is not ASCII, which bytes.lower() does not fold).
    words = {w.encode() for key in names or () for w in key.replace(",", " ").split() if w.isascii()}
    for number, line in enumerate(stream, start=2):
        if len(line) < rating_end and not line.endswith(b"\n") and line.strip():
            raise FormatError("line %(n)s ends before its rating: the file is cut off; download it again", n=number)
        fide_id = line[:id_end].strip()
        if not fide_id and not line.strip():
            continue
        if not fide_id and names is None:  # a name-only line (a list made by hand): names are not matched
            found.skipped.append(number)
            continue
        if fide_id and not fide_id.isdigit():
            raise FormatError("line %(n)s: FIDE id %(value)s is not a number; is this FIDE's TXT list? download it "
                              "again", n=number, value=repr(_shown(_text(fide_id[:20]))))
        key = fide_id.decode("ascii")
        keys: set[str] = set()
        if names is not None:
            raw = line[name_at:name_end]
            first = raw.replace(b",", b" ").split(None, 1)[:1]
            if not raw.isascii() or (first and first[0].lower() in words):
                keys = name_keys(_text(raw).strip()) & names
        if key not in wanted and not keys:
            continue
        text = _text(line.rstrip(b"\r\n"))
        shift = max(0, len(text) - width) if width is not None else 0
        rating = _rating(text[rating_at + shift:rating_end + shift], _at("line", number))
        more = {what: _small(text[at + shift:end + shift], what) for what, (at, end) in extra.items()}
        _add(found, Entry(number, key, text[name_at:name_end].strip(), rating, **more), keys)
    return found


def _read_xml(stream: IO[bytes], wanted: set[str], names: set[str] | None) -> RatingList:
    found = RatingList("fide")
    count = 0
    words = {w for key in names or () for w in key.replace(",", " ").split()}  # see _read_txt
    root: ElementTree.Element | None = None
    try:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            if root is None:
                root = element
            if event != "end" or element.tag != "player":
                continue
            count += 1
            fide_id = (element.findtext("fideid") or "").strip()
            name = (element.findtext("name") or "").strip()
            keys: set[str] = set()
            first = name.replace(",", " ").split(None, 1)[:1]
            if names is not None and (not name.isascii() or (first and first[0].lower() in words)):
                keys = name_keys(name) & names
            if (fide_id in wanted or keys) and fide_id:  # a player without an id is found by name only
                if not fide_id.isascii() or not fide_id.isdigit():
                    raise FormatError("player %(n)s: FIDE id %(value)s is not a number", n=count, value=repr(_shown(fide_id[:20])))
                rating = _rating(element.findtext("rating") or "", _at("player", count))
                _add(found, Entry(count, fide_id, name, rating, _small(element.findtext("k") or "", "k"),
                                  _small(element.findtext("birthday") or "", "birth_year")), keys, "player")
            elif keys and not fide_id:
                _add(found, Entry(count, "", name, _rating(element.findtext("rating") or "", _at("player", count))),
                     keys, "player")
            root.clear()  # drop the players read: memory stays flat over a million of them
    except ElementTree.ParseError as e:
        raise FormatError("the XML list is broken or cut off (%(why)s); download it again", why=str(e)) from None
    if count == 0:
        raise FormatError("the XML file holds no <player> records; is it FIDE's XML rating list?")
    return found


def _read_csv(data: bytes, wanted: set[str], names: set[str] | None) -> RatingList:
    found = RatingList("national")
    for row in parse_csv(data):
        keys = name_keys(row.name) & names if names is not None else set()
        if row.fed_id is None and names is None:
            found.skipped.append(row.line)  # a name-only row, and names are not matched
            continue
        if row.fed_id is None and not keys:
            continue
        if (row.fed_id or "") in wanted or keys:
            # A rating of 0 means unrated in the KNSB list too: it keeps the member's rating.
            _add(found, Entry(row.line, row.fed_id or "", row.name, row.rating or None), keys)
    return found


@dataclass(frozen=True)
class Update:
    member_id: int
    fields: Mapping[str, Any]
    report: Message  # "Anna de Vries: rating 1716 → 1733"


@dataclass(frozen=True)
class RatingPlan:
    kind: str
    updates: tuple[Update, ...]
    unchanged: int
    #: Members with an id of this list that the list does not hold, or a name it holds twice.
    not_found: tuple[Message, ...]
    #: Members without an id of this list (and not matched by name).
    without_id: tuple[str, ...]
    #: Lines of the list's rows without an id, skipped: they are matched by name only.
    skipped: tuple[int, ...] = ()


def wanted(members: list[dict[str, Any]]) -> dict[str, set[str]]:
    """The ids of each kind of list that the members have."""
    return {kind: {m[column] for m in members if m[column]} for kind, (column, _r, _l) in COLUMNS.items()}


def plan(found: RatingList, members: list[dict[str, Any]], match_names: bool = False) -> RatingPlan:
    """What the list changes: each member with an id of the list's kind gets that entry's
    rating (an unrated entry keeps the old one); with ``match_names``, a member without
    such an id gets the id and rating of the one entry with the same name (never when two
    entries have it, or the entry is another member's).

    >>> entry = Entry(2, "7", "Vries, Anna de", 1900)
    >>> found = RatingList("fide", {"7": entry}, {key: [entry] for key in name_keys(entry.name)})
    >>> anna = {"id": 1, "name": "Anna de Vries", "fide_id": None, "fide_rating": None}
    >>> plan(found, [anna]).without_id, str(plan(found, [anna], match_names=True).updates[0].report)
    (('Anna de Vries',), 'Anna de Vries: FIDE id none → 7 (by name, line 2), FIDE rating none → 1900')
    """
    id_column, rating_column, id_label = COLUMNS[found.kind]
    label = Word("FIDE rating") if found.kind == "fide" else Word("rating")
    taken = {m[id_column] for m in members if m[id_column]}
    updates: list[Update] = []
    not_found: list[Message] = []
    without_id: list[str] = []
    unchanged = 0
    for member in members:
        fields: dict[str, Any] = {}
        report: list[Message] = []
        entry = found.by_id.get(member[id_column]) if member[id_column] else None
        if member[id_column] and entry is None:
            not_found.append(Message("%(name)s (%(label)s %(id)s): not in the list", name=member["name"],
                                     label=Words((id_label,)), id=member[id_column]))
            continue
        if entry is None:
            hits = [e for key in name_keys(member["name"]) for e in found.by_name.get(key, [])] if match_names else []
            hits = list({e.id or f"line {e.line}": e for e in hits if e.id not in taken}.values())
            if len(hits) > 1:
                shown = tuple(Message("%(id)s (line %(line)s)", id=e.id, line=e.line) if e.id else
                              Message("line %(n)s", n=e.line) for e in hits[:5])
                not_found.append(Message("%(name)s: %(n)s players of that name in the list (%(shown)s)",
                                         hint="ratings_set_id", name=member["name"], n=len(hits), shown=shown,
                                         label=Words((id_label,))))
                continue
            if not hits:
                without_id.append(member["name"])
                continue
            entry = hits[0]
            if entry.id:
                taken.add(entry.id)
                fields[id_column] = entry.id
                report.append(Message("%(label)s none → %(id)s (by name, line %(line)s)", label=Words((id_label,)),
                                      id=entry.id, line=entry.line))
            elif entry.rating is None or entry.rating == member[rating_column]:
                unchanged += 1
                continue
            else:
                report.append(Message("by name, line %(line)s, which has no id", line=entry.line))
        if entry.rating is not None and entry.rating != member[rating_column]:
            fields[rating_column] = entry.rating
            old = Word("none") if member[rating_column] is None else member[rating_column]
            report.append(Message("%(label)s %(old)s → %(new)s", label=label, old=old, new=entry.rating))
        for column, value, said in (("fide_k", entry.k, Word("FIDE K")),
                                    ("birth_year", entry.birth_year, Word("year of birth"))):
            if found.kind == "fide" and value is not None and column in member and value != member[column]:
                fields[column] = value
                old = Word("none") if member[column] is None else member[column]
                report.append(Message("%(label)s %(old)s → %(new)s", label=said, old=old, new=value))
        if fields:
            updates.append(Update(member["id"], fields, Message("%(name)s: %(changes)s", name=member["name"],
                                                                changes=tuple(report))))
        else:
            unchanged += 1
    return RatingPlan(found.kind, tuple(updates), unchanged, tuple(not_found), tuple(without_id),
                      tuple(found.skipped))
