"""A member's career page on the published site (Dutch), in Debian's Chromium at phone (390 px)
and laptop (1280 px) width: no sideways scrolling, no script error, no axe-core violation; the
season's member page leads to it, the record against an opponent leads to the games of that pair
on the same page, the club rating's table opens under the chart.

Screenshots go to $KEIZER_SHOTS (default: a folder under the system's temporary folder) for a
person to look at; they are never committed."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from browser_helpers import SIZES, axe_violations, chromium, require_chromium
from test_site_member import SAMPLE, member_page, published

require_chromium()
pytestmark = pytest.mark.slow

SHOTS = Path(os.environ.get("KEIZER_SHOTS") or Path(tempfile.gettempdir()) / "keizer-shots")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("site-careers")
    shutil.copy(SAMPLE, tmp / "club.db")
    return published(tmp / "club.db", tmp / "site", "nl")


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.mark.parametrize("size", SIZES)
def test_career_page_on_the_site(site, browser, size):
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(member_page(site, "Anna Hendriks").as_uri())
    page.get_by_role("link", name="Anna Hendriks bij de club, alle seizoenen").click()
    assert page.url.endswith("/careers/anna-hendriks.html")
    page.wait_for_load_state()  # is_visible() below does not wait for the new page
    assert page.get_by_role("heading", name="Beste resultaten").is_visible()
    assert page.get_by_role("img", name="Clubrating na elke gespeelde ronde").is_visible() or \
        page.locator("figure.chart svg").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"site-career-{size}.png"), full_page=True)
    assert axe_violations(page) == []
    # The table beside the chart, then an opponent's games on the same page.
    page.get_by_text("De clubrating na elke gespeelde ronde, als tabel").click()
    assert page.locator("details.rating-table table").is_visible()
    first = page.locator("#opponents ~ div table tbody a").first
    name = first.inner_text()
    first.click()
    assert "#vs-" in page.url
    target = page.locator(page.url[page.url.index("#"):])
    assert target.get_by_role("heading").inner_text().endswith(name)
    box = target.bounding_box()
    assert box is not None and -1 <= box["y"] < height  # scrolled to the pair's games
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"site-career-h2h-{size}.png"))
    assert axe_violations(page) == []
    assert errors == []
