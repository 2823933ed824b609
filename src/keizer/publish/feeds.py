"""The site's feeds: the season's round dates as an iCalendar file, new rounds and results as
an Atom feed (and each member's own: my rounds, my results).  Pure text builders; the words
come translated, every date from the database (no clock is read), so the same database gives
the same bytes.  Ids are made from the club's identity (its site's address when set), never
from its name, so a renamed club's calendars and feed readers see the same items.

>>> calendar("Chess club 2025-2026", [Event("s/c/round-1@club.example", "2025-09-02", "Interne: round 1", "rapid 25+10")]).splitlines()[5:13]
['BEGIN:VEVENT', 'UID:s/c/round-1@club.example', 'DTSTAMP:20250902T000000Z', 'DTSTART;VALUE=DATE:20250902', 'DTEND;VALUE=DATE:20250903', 'SUMMARY:Interne: round 1', 'DESCRIPTION:rapid 25+10', 'END:VEVENT']
>>> calendar("C", [Event("r@x", "2025-09-02", "R", url="https://x/r.html")], ("20:00", "23:30")).splitlines()[8:12]
['DTSTART:20250902T200000', 'DTEND:20250902T233000', 'SUMMARY:R', 'URL:https://x/r.html']
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import lru_cache
from datetime import date, timedelta
from typing import Sequence

from keizer.formats.text import xml_escape as escape, xml_quoteattr as quoteattr


@dataclass(frozen=True)
class Event:
    """A club evening of a competition: one round on one date."""

    uid: str  # stable and unique: the round's page without .html, @ the club's identity
    day: str  # ISO date
    summary: str
    description: str | None = None
    url: str | None = None  # the round's page, when the site's address is known


@dataclass(frozen=True)
class Entry:
    """One item of the news feed: a round's pairings or its results."""

    id: str  # stable: the round's page and what the item says ("pairings", "results")
    day: str
    title: str
    link: str  # relative to the feed
    summary: str


def _ics_text(value: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _octets(line: str) -> int:
    """The line's length in UTF-8 octets (an ASCII line's is its length: no encoding needed)."""
    return len(line) if line.isascii() else len(line.encode("utf-8"))


def _fold(line: str) -> list[str]:
    """A content line cut into lines of at most 75 octets, continuations starting with a space
    (never inside a UTF-8 character).

    >>> _fold("SUMMARY:short")
    ['SUMMARY:short']
    >>> [len(part.encode()) for part in _fold("DESCRIPTION:" + "é" * 60)]
    [74, 59]
    >>> _fold("X" * 80)[1], [len(part.encode()) for part in _fold("😀" * 40)]
    (' XXXXX', [72, 73, 17])
    """
    if line.isascii():  # one octet a character: cut the text itself
        if len(line) <= 75:  # most lines: nothing to fold
            return [line]
        return [line[:75]] + [" " + line[k:k + 74] for k in range(75, len(line), 74)]
    data = line.encode("utf-8")
    if len(data) <= 75:
        return [line]
    parts: list[str] = []
    start, most = 0, 75
    while start < len(data):
        end = min(start + most, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:  # a continuation octet: cut before its character
            end -= 1
        parts.append(data[start:end].decode("utf-8"))
        start, most = end, 74
    return [parts[0]] + [" " + part for part in parts[1:]]


def evening_hours(setting: str) -> tuple[str, str] | None:
    """The club evening's start and end ("20:00" lasts three hours), or None (all-day events).

    >>> evening_hours("20:00"), evening_hours("19:45-23:30"), evening_hours("")
    (('20:00', '23:00'), ('19:45', '23:30'), None)
    """
    if not setting:
        return None
    start, _, end = setting.partition("-")
    if not end:
        hours, minutes = (int(x) for x in start.split(":"))
        end = f"{(hours + 3) % 24:02d}:{minutes:02d}"
    return start, end


def _moment(day: date, hhmm: str) -> str:
    hours, minutes = (int(x) for x in hhmm.split(":"))
    return f"{day:%Y%m%d}T{hours:02d}{minutes:02d}00"


@lru_cache(maxsize=4096)
def _when(day: str, hours: tuple[str, str] | None) -> tuple[str, str, str]:
    """An event's DTSTAMP, DTSTART and DTEND lines on ``day`` (the same few dates come in every
    member's calendar)."""
    start = date.fromisoformat(day)
    if hours is None:
        return (f"DTSTAMP:{start:%Y%m%d}T000000Z", f"DTSTART;VALUE=DATE:{start:%Y%m%d}",
                f"DTEND;VALUE=DATE:{start + timedelta(days=1):%Y%m%d}")
    end = start + timedelta(days=1) if hours[1] <= hours[0] else start
    return f"DTSTAMP:{start:%Y%m%d}T000000Z", f"DTSTART:{_moment(start, hours[0])}", f"DTEND:{_moment(end, hours[1])}"


def calendar(name: str, events: Sequence[Event], hours: tuple[str, str] | None = None) -> str:
    """An iCalendar file (RFC 5545), CRLF line ends: all-day events, or events at the club
    evening's ``hours`` (local time where the club is: floating, as a club evening is at 20:00
    wherever the reader is; an end before the start is after midnight)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//keizer//club website//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{_ics_text(name)}"]
    for e in events:
        lines += ["BEGIN:VEVENT", f"UID:{_ics_text(e.uid)}", *_when(e.day, hours)]
        lines.append(f"SUMMARY:{_ics_text(e.summary)}")
        if e.url:
            lines.append(f"URL:{e.url}")
        if e.description:
            lines.append(f"DESCRIPTION:{_ics_text(e.description)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(line + "\r\n" if _octets(line) <= 75 else "".join(part + "\r\n" for part in _fold(line))
                   for line in lines)  # most lines need no folding


def atom(title: str, key: str, link: str, entries: Sequence[Entry]) -> str:
    """An Atom 1.0 feed (RFC 4287), newest first; ``key`` makes its stable id.

    >>> text = atom("Club", "club:2025-2026", "index.html", [Entry("s/r-1#results", "2025-09-02", "Round 1", "s/r-1.html", "All results")])
    >>> "<updated>2025-09-02T00:00:00Z</updated>" in text and text.count("<entry>") == 1
    True
    """
    ordered = sorted(entries, key=lambda e: (e.day, e.id), reverse=True)
    updated = f"{ordered[0].day}T00:00:00Z" if ordered else "1970-01-01T00:00:00Z"
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
           f"<title>{escape(title)}</title>", f"<id>urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'keizer:' + key)}</id>",
           f"<link rel=\"alternate\" href={quoteattr(link)}/>", f"<updated>{updated}</updated>",
           "<author><name>keizer</name></author>"]
    for e in ordered:
        out += ["<entry>", f"<title>{escape(e.title)}</title>",
                f"<id>urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'keizer:' + key + ':' + e.id)}</id>",
                f"<link rel=\"alternate\" href={quoteattr(e.link)}/>", f"<updated>{e.day}T00:00:00Z</updated>",
                f"<summary>{escape(e.summary)}</summary>", "</entry>"]
    out.append("</feed>")
    return "\n".join(out) + "\n"
