"""The site's feeds read by real parsers (issue 24): the season's calendar and each member's
own (icalendar), the season's news feed and each member's results (feedparser).  Their ids
stay when the club is renamed and differ between clubs (they are made from the site's
address); with the club evening's time set, the events are at that time and link the round's
page.
"""

from __future__ import annotations

import shutil
from datetime import date, datetime
from pathlib import Path

import feedparser
import icalendar
import pytest

from keizer.operations.club import club_settings, set_club
from keizer.publish.slugs import slugify
from keizer.store import Store, StoreError
from sites import published_from_file
from test_site_member import KEIZER, SAMPLE, keizer

SITE = "https://schaak.example.nl/uitslagen/"


def club_copy(tmp_path: Path, name: str, *settings: str) -> Path:
    db = tmp_path / f"{name}.db"
    shutil.copy(SAMPLE, db)
    if settings:
        keizer(db, "club", *settings)
    return db


def publish_to(db: Path, out: Path) -> Path:
    """The club published into ``out`` (the feeds' tests read what it wrote: a copy of the same
    site published before in this process, see tests/sites.py); its season's folder."""
    return published_from_file(db, out) / "2025-2026"


def events(path: Path) -> list:
    cal = icalendar.Calendar.from_ical(path.read_bytes())
    return list(cal.walk("VEVENT"))


def feed(path: Path):
    parsed = feedparser.parse(path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


def ids(season: Path) -> tuple[list[str], list[str], str, list[str], list[str]]:
    """Every id a reader keeps: the calendar's UIDs, the news feed's entry ids and its own id,
    a member's calendar UIDs and results ids."""
    news = feed(season / "feed.xml")
    member = season / "feeds" / "anna-hendriks"
    return ([str(e["UID"]) for e in events(season / "calendar.ics")], [e.id for e in news.entries], news.feed.id,
            [str(e["UID"]) for e in events(member.with_suffix(".ics"))], [e.id for e in feed(member.with_suffix(".xml")).entries])


def test_the_feeds_parse_and_their_ids_are_unique(tmp_path):
    season = publish_to(club_copy(tmp_path, "a", "--site", SITE), tmp_path / "site")
    uids, entry_ids, feed_id, own_uids, own_ids = ids(season)
    assert len(uids) == len(set(uids)) >= 40 and all(u.endswith("@schaak.example.nl/uitslagen") for u in uids)
    assert len(entry_ids) == len(set(entry_ids)) == len(uids)
    assert len(own_uids) == len(set(own_uids)) and len(own_ids) == len(set(own_ids))
    assert not set(uids) & set(own_uids)


def test_ids_stay_when_the_club_is_renamed(tmp_path):
    db = club_copy(tmp_path, "a", "--site", SITE)
    before = ids(publish_to(db, tmp_path / "before"))
    keizer(db, "club", "--name", "SV Caïssa Utrecht")
    after_site = publish_to(db, tmp_path / "after")
    assert ids(after_site) == before
    assert feed(after_site / "feed.xml").feed.title == "SV Caïssa Utrecht 2025-2026"  # the name itself changes
    # Without a site address the ids stay too (made from the database's first competition).
    plain = club_copy(tmp_path, "b")
    first = ids(publish_to(plain, tmp_path / "plain-before"))
    keizer(plain, "club", "--name", "Another name")
    assert ids(publish_to(plain, tmp_path / "plain-after")) == first


def test_ids_differ_between_clubs(tmp_path):
    one = ids(publish_to(club_copy(tmp_path, "a", "--site", SITE), tmp_path / "one"))
    other = ids(publish_to(club_copy(tmp_path, "b", "--site", "https://www.other-club.de/schach"), tmp_path / "other"))
    for mine, theirs in zip(one, other):
        assert not set([mine] if isinstance(mine, str) else mine) & set([theirs] if isinstance(theirs, str) else theirs)


def test_events_are_at_the_club_evening_and_link_the_round(tmp_path):
    season = publish_to(club_copy(tmp_path, "a", "--site", SITE, "--evening-time", "19:45-23:30"), tmp_path / "site")
    found = {str(e["SUMMARY"]): e for e in events(season / "calendar.ics")}
    e = found["Interne competitie 2025-2026: Round 30"]
    assert e.decoded("DTSTART") == datetime(2026, 3, 24, 19, 45) and e.decoded("DTEND") == datetime(2026, 3, 24, 23, 30)
    assert str(e["URL"]) == f"{SITE}2025-2026/{slugify(KEIZER)}/round-30.html"
    news = feed(season / "feed.xml")
    assert news.entries[0].link.startswith(SITE + "2025-2026/")
    # Without the setting: all-day events, as before, and no address to link.
    plain = publish_to(club_copy(tmp_path, "b"), tmp_path / "plain")
    e = {str(x["SUMMARY"]): x for x in events(plain / "calendar.ics")}["Interne competitie 2025-2026: Round 30"]
    assert e.decoded("DTSTART") == date(2026, 3, 24) and "URL" not in e


def test_a_members_own_calendar_and_results(tmp_path):
    db = club_copy(tmp_path, "a", "--site", SITE, "--evening-time", "20:00")
    keizer(db, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(db, "-c", "1", "pair")
    season = publish_to(db, tmp_path / "site")
    mine = {str(e["SUMMARY"]): e for e in events(season / "feeds" / "anna-hendriks.ics")}
    coming = mine["Interne competitie 2025-2026: Round 31 · board 6, with black against Bas Dekker"]
    assert coming.decoded("DTSTART") == datetime(2026, 3, 31, 20, 0)
    assert str(coming["URL"]) == f"{SITE}2025-2026/{slugify(KEIZER)}/round-31.html"
    assert "Interne competitie 2025-2026: Round 30 · board 6, with white against Tineke van den Berg (0)" in mine
    results = feed(season / "feeds" / "anna-hendriks.xml")
    store = Store.open(db)
    s = store.load_season(store.competition(KEIZER)["id"])
    store.close()
    anna = next(p.id for p in s.players if p.name == "Anna Hendriks")
    played = [r for r in s.rounds[:30] if any(anna in (g.white, g.black) for g in r.games) or anna in r.byes]
    assert len(results.entries) == len(played) > 10  # her games and byes in the Keizer competition
    assert results.entries[0].title == ("Interne competitie 2025-2026: Round 30: board 6, with white against "
                                        "Tineke van den Berg (0)")


def test_the_member_page_links_the_own_feeds(tmp_path):
    season = publish_to(club_copy(tmp_path, "a"), tmp_path / "site")
    page = (season / "members" / "anna-hendriks.html").read_text(encoding="utf-8")
    assert 'href="../feeds/anna-hendriks.ics"' in page and 'href="../feeds/anna-hendriks.xml"' in page
    assert feed(season / "feeds" / "anna-hendriks.xml").feed.link == "../members/anna-hendriks.html"


@pytest.mark.parametrize("setting, value", [("site", "ftp://host/x"), ("site", "schaak.example.nl"),
                                            ("site", "https://user@host/"), ("evening_time", "25:00"),
                                            ("evening_time", "8 pm")])
def test_a_bad_site_address_or_evening_time_is_refused(tmp_path, setting, value):
    db = club_copy(tmp_path, "a")
    before = db.read_bytes()
    store = Store.open(db)
    try:
        with pytest.raises(StoreError):
            with store.change("club", "club settings"):
                set_club(store, **{setting: value})
        assert club_settings(store)[setting] == ""
    finally:
        store.close()
    assert db.read_bytes() == before
