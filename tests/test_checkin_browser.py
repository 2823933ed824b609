"""Check-in at the venue in a real browser: `keizer serve` and headless Chromium, the
member's phone at 390 px.  The officer's laptop shows the venue screen with the round's QR
code; a member who opened their personal link on the phone scans it and taps "I am here";
the attendance page shows the check-in and the member is present; a stranger's phone is
asked for a personal link; after the pairing the code says check-in is over.  Screenshots
go to test-artifacts/app/ (look at them; they are not committed)."""

from __future__ import annotations

import re
from datetime import date

import pytest

from browser_helpers import axe_violations, require_chromium

require_chromium()
pytestmark = pytest.mark.slow

from test_app_browser import Server, Watched, browser, server  # noqa: E402,F401 (the fixtures, shared)

from keizer.store import Store  # noqa: E402

NAME = "Chloë O'Brien"


def _status(db, name: str) -> str | None:
    s = Store.open(db)
    try:
        pid = next(p["id"] for p in s.players(1) if p["name"] == name)
        mark = s.attendance(1, 31).get(pid)
        return mark[0] if mark else None
    finally:
        s.close()


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_member_checks_in_by_the_venue_s_code_on_a_phone(server, browser):
    s = Store.open(server.db)
    with s.change("test", "round 31 tonight, Chloë marked absent"):
        s.ensure_round(1, 31, date.today().isoformat())
        s.set_attendance(1, 31, next(p["id"] for p in s.players(1) if p["name"] == NAME), "unexcused")
    s.close()
    officer = Watched(browser, "desktop")
    phone = Watched(browser, "phone", bypass_csp=True)
    stranger = Watched(browser, "phone")
    try:
        page = officer.page
        page.goto(server.url + "/members/links")
        page.locator("tr", has_text=NAME).get_by_role("button", name=re.compile("Make a link|Renew link")).click()
        member_url = page.locator(".new-link .url").inner_text().strip()

        page.goto(server.url + "/c/1/venue")
        box = page.locator("#venue-checkin")
        assert box.is_visible() and box.locator("svg").count() == 1
        checkin_url = box.locator(".url").inner_text().strip()
        assert checkin_url.startswith(server.url + "/checkin/1/31/")
        officer.shot("venue-checkin")

        # The member's phone: the personal link once (it shows "I am here" tonight too) ...
        phone.page.goto(member_url)
        assert phone.page.get_by_role("button", name="I am here").is_visible()
        phone.shot("member-link-tonight")
        # ... then the venue's code knows the phone: one tap.
        phone.page.goto(checkin_url)
        button = phone.page.get_by_role("button", name=f"I am here · {NAME}")
        assert button.is_visible() and fits(phone.page)
        assert axe_violations(phone.page) == []
        button.click()
        main = phone.page.inner_text("main")
        assert f"{NAME}, you are checked in for round 31" in main and "Enjoy the game" in main
        assert fits(phone.page)
        phone.shot("checked-in")
        assert _status(server.db, NAME) == "present"  # the round was marked: present at once

        page.goto(server.url + "/c/1/attendance")
        row = page.locator("li.att-player", has_text=NAME)
        assert "checked in at" in row.inner_text()
        assert "1 player checked in themselves" in page.inner_text("main")
        officer.shot("attendance-checked-in")

        # A phone that never opened a personal link is asked for one; a wrong one checks nobody in.
        stranger.page.goto(checkin_url)
        stranger.page.get_by_label("Your personal link").fill(server.url + "/m/not-a-real-token")
        stranger.page.get_by_role("button", name="I am here").click()
        assert "this personal link is not known" in stranger.page.inner_text("main")
        assert fits(stranger.page)
        stranger.shot("checkin-refused")

        # Paired: the venue screen drops the code, the code says check-in is over.
        page.goto(server.url + "/c/1/pairing")
        page.get_by_role("button", name=re.compile("Propose pairing")).click()
        page.get_by_role("button", name=re.compile("Store this pairing")).click()
        page.goto(server.url + "/c/1/venue")
        assert page.locator("#venue-checkin").count() == 0
        phone.page.goto(checkin_url)
        assert "check-in is over" in phone.page.inner_text("main")
        assert officer.errors == [] and [e for e in phone.errors if "403" not in e] == []
    finally:
        officer.close()
        phone.close()
        stranger.close()
