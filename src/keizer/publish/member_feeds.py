"""A member's own feeds, linked from the member's page: *my rounds* as a calendar (each round
of the season's competitions the member plays in, with board, colour and opponent once it is
paired) and *my results* as an Atom feed (each game and bye once its round is complete).  Made from the page
plan's rows (:func:`keizer.readmodel.player_round` per round), as the season's feeds are: no
clock, ids from the club's identity, so publishing again without a change changes no byte.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from typing import Any, Callable, Sequence

from keizer.i18n import N_
from keizer.publish.feeds import Entry, Event, atom, calendar

#: What a member does in a round, in words (the member's page says it alike: macros.html).
KIND_WORDS = {"bye": N_("a bye"), "notice": N_("notice of absence sent"), "club": N_("club duty"),
              "external": N_("an external game"), "absent": N_("no game in this round"),
              "no_game": N_("no game in this round"), "not_paired": N_("not paired yet")}
GAME_WORDS = {"white": N_("board %(board)s, with white against %(opponent)s"),
              "black": N_("board %(board)s, with black against %(opponent)s")}


def identity(site: str, first_created: str | None) -> str:
    """What makes the club's feed ids unique and keeps them when the club is renamed: the
    site's address (``keizer club --site``) without its scheme, else the moment the database's
    first competition was made.

    >>> identity("https://schaak.example.nl/uitslagen/", None), identity("", "2025-08-30T20:15:02")
    ('schaak.example.nl/uitslagen', 'keizer-2025-08-30T20:15:02')
    """
    if site:
        return site.split("://", 1)[1].rstrip("/")
    return f"keizer-{first_created or 'club'}"


def address(site: str, link: str, relative: str) -> str:
    """A page's address in a feed: absolute under the site's address when it is known, else
    ``relative`` (to the feed)."""
    return site + link if site else relative


#: A page's path from a feed's folder (both relative to the site's top, so no working folder
#: enters it): the same few round pages are asked for from every member's feed.
_relative = lru_cache(maxsize=1 << 14)(posixpath.relpath)


def what_text(row: dict[str, Any], gettext: Callable[[str], str]) -> str:
    """The member's round in words: "board 6, with black against Bas Dekker (½)", "a bye" …"""
    if row["kind"] == "game":
        words = gettext(GAME_WORDS[row["colour"]]) % {"board": row["board"], "opponent": row["opponent"]}
        return words + (f" ({row['result']})" if row["result"] else "")
    return gettext(KIND_WORDS[row["kind"]])


def member_feed_paths(folder: str, page: str) -> tuple[str, str]:
    """The paths of a member's calendar and results feed in ``folder``; ``page`` is the member's page."""
    slug = page.rsplit("/", 1)[1].removesuffix(".html")
    return f"{folder}/{slug}.ics", f"{folder}/{slug}.xml"


def member_feeds(title: str, folder: str, page: str, rounds: Sequence[dict[str, Any]], ident: str, site: str,
                 hours: tuple[str, str] | None, gettext: Callable[[str], str]) -> dict[str, bytes]:
    """A member's calendar (``<slug>.ics``) and results feed (``<slug>.xml``) in ``folder``
    (the season's feeds folder), from the member's rounds in every competition; ``page`` is the
    member's page."""
    calendar_path, feed_path = member_feed_paths(folder, page)
    slug = page.rsplit("/", 1)[1].removesuffix(".html")
    events, entries = [], []
    for row in sorted(rounds, key=lambda r: (r["date"], r["competition"], r["round"])):
        name = f"{row['competition']}: " + gettext("Round %(round)s") % {"round": row["round"]}
        what = what_text(row, gettext)
        url = site + row["link"] if site else None
        events.append(Event(f"{row['link'].removesuffix('.html')}/{slug}@{ident}", row["date"], f"{name} · {what}",
                            row.get("time_control"), url))
        if row["complete"] and row["kind"] in ("game", "bye"):
            entries.append(Entry(f"{row['link']}#{slug}", row["date"], f"{name}: {what}",
                                 address(site, row["link"], _relative(row["link"], folder)), what))
    return {calendar_path: calendar(title, events, hours).encode("utf-8"),
            feed_path: atom(title, f"{ident}/{folder}/{slug}", address(site, page, _relative(page, folder)),
                                         entries).encode("utf-8")}
