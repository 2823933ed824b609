"""A new club from nothing to a published site in the browser, with no command but starting
the server (issue 20): ``keizer serve`` on a file that does not exist → the link it printed →
create the club → import members from a CSV file and add one by hand → register them in the
first competition → attendance → pairing → results → publish; and the club page's backup.

Headless Chromium (Debian's) at phone and desktop width; screenshots in test-artifacts/app/
(``setup-*``) for a person to look at; no page may log a console error or scroll sideways.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_helpers import ROOT, SIZES, axe_violations, chromium, require_chromium
from served import Served
from test_site_safety import tiny_png
from test_web_setup import setup_link

require_chromium()
pytestmark = pytest.mark.slow

from playwright.sync_api import Page, expect  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts" / "app"
MEMBERS = "name;rating\nAnna de Vries;1850\nBram Jansen;1720\nCor Smit;1690\nDirk O'Neill;1600\n" \
          "Eva Müller;1550\nŁucja Nowak;1500\nGé Paard;1450\n"


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _says(page: Page, *words: str) -> None:
    for word in words:
        expect(page.locator(".flashes").first).to_contain_text(word, ignore_case=True)


def _fits(page: Page, size: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], f"{page.url} scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_a_new_club_from_nothing_to_a_published_site(browser, tmp_path, size):
    db = tmp_path / "club.db"
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True,
                                  bypass_csp=True)  # bypass_csp: axe-core is injected once
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def shot(name: str, fits: bool = True) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"setup-{name}-{size}.png"), full_page=True)
        if fits:
            _fits(page, size)

    logo = tmp_path / "logo.png"
    logo.write_bytes(tiny_png(40, 40))
    members = tmp_path / "leden.csv"
    members.write_text(MEMBERS, encoding="utf-8")
    try:
        with Served(db) as server:
            url = f"http://127.0.0.1:{server.port}"
            link = setup_link(server)
            page.goto(url + "/")  # without the link: where it is
            expect(page.locator("main")).to_contain_text("open the link it printed")
            assert errors == ["Failed to load resource: the server responded with a status of 403 (FORBIDDEN)"]
            errors.clear()  # that 403 is the point: what follows must log nothing
            page.goto(url + link)
            assert page.url == url + "/setup"
            page.get_by_label("Name").first.fill("SV Caïssa")
            page.get_by_label("Colour").fill("#ffd700")
            page.get_by_label(re.compile("^Logo")).set_input_files(str(logo))
            page.locator("input[name=competition]").fill("Interne 2026-2027")
            page.locator("select[name=preset]").select_option("keizerforclubs")
            page.get_by_text("What each preset changes").click()
            expect(page.locator(".preset-table")).to_contain_text("7/20 of own value")
            page.locator("input[name=officer]").fill("Anna")
            page.locator("input[name=password]").fill("correct horse")
            page.locator("input[name=password2]").fill("correct horse")
            shot("1-form")
            assert axe_violations(page) == []
            page.get_by_role("button", name="Create the club").click()
            _says(page, "the club SV Caïssa is created")
            assert page.url == url + "/members" and db.exists()

            # Members: a CSV file, then one by hand.
            page.locator("input[name=file]").set_input_files(str(members))
            page.get_by_role("button", name="Preview").click()
            expect(page.locator("main")).to_contain_text("7 members are added")
            page.get_by_role("button", name="Apply").click()
            page.locator("#add").scroll_into_view_if_needed()
            page.locator("form.member-form input[name=name]").fill("Henk de Boer")
            page.locator("form.member-form").get_by_role("button", name="Add").click()
            expect(page.locator("main")).to_contain_text("8 members")
            shot("2-members")

            # The first competition: its players.
            page.get_by_role("link", name="Competitions").first.click()
            page.get_by_role("link", name="Players").first.click()
            expect(page.locator("#member-pick input[type=checkbox]")).to_have_count(8)  # .all() does not wait
            for box in page.locator("#member-pick input[type=checkbox]").all():
                box.check()
            page.get_by_role("button", name="Add the chosen members").click()
            _says(page, "registered 8 player(s)")

            # The club evening: attendance, pairing, results.
            page.goto(url + "/")
            page.get_by_role("link", name="Attendance").first.click()
            page.locator("li.att-player[data-name='Cor Smit'] label.choice-excused").click()
            page.get_by_role("button", name=re.compile("Save attendance")).click()
            _says(page, "round 1")
            page.get_by_role("link", name="Pairing").first.click()
            page.get_by_role("button", name="Propose pairing").click()
            page.get_by_role("button", name="Store this pairing").click()
            shot("3-paired")
            page.get_by_role("link", name="Results").first.click()
            page.wait_for_load_state()  # count() below does not wait for the new page
            boxes = page.locator("#results-form input[id^=r]")
            assert boxes.count() == 3  # seven present: three boards and the bye
            boxes.first.click()
            page.keyboard.type("1=0")
            expect(page.locator("#standing-fragment .standing-caption")).to_have_text("Standing after round 1")
            shot("4-results")

            # The club page: its settings, the colour's warning, a backup.
            page.get_by_role("link", name="Club", exact=True).click()
            expect(page.locator("#colour-advice")).to_contain_text("the club colour #ffd700 is too light")
            assert page.locator("img.logo-now").count() == 1
            with page.expect_download() as download:
                page.get_by_role("link", name="Download a backup").click()
            saved = tmp_path / "backup.db"
            download.value.save_as(saved)
            assert saved.read_bytes()[:16] == b"SQLite format 3\x00"
            shot("5-club")
            assert axe_violations(page) == []

            # Publish.
            page.get_by_role("link", name="Publish").first.click()
            page.get_by_role("button", name=re.compile("Publish")).click()
            expect(page.locator(".flash.ok")).to_contain_text("files written")
            site = tmp_path / "site" / "index.html"
            assert site.exists() and "SV Caïssa" in site.read_text(encoding="utf-8")
            shot("6-published")
            assert errors == []
            assert "Traceback" not in server.errors()
    finally:
        context.close()
