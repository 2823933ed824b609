"""The member's site in Chromium at phone (390 px) and laptop (1280 px) width (issue 24): the
next game on the first screen of the member's page, the front page's first screen (the club,
the search, the next club evening and its pairing, the top of the standing), a Swiss
standing's first tie-break column in view, the report's heading before and after the
season's end, and a round being played saying how many results are in.  Screenshots go to test-artifacts/site/ (and $KEIZER_SHOTS, if set).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from browser_helpers import ROOT, SIZES, chromium, require_chromium
from test_site_member import KEIZER, SAMPLE, SWISS, keizer, member_page, published
from keizer.publish.slugs import slugify

require_chromium()
pytestmark = pytest.mark.slow

SHOTS = [ROOT / "test-artifacts" / "site"] + ([Path(os.environ["KEIZER_SHOTS"])] if os.environ.get("KEIZER_SHOTS") else [])


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("member-sites")
    paired, closed = tmp / "paired.db", tmp / "closed.db"
    shutil.copy(SAMPLE, paired)
    keizer(paired, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(paired, "-c", "1", "pair")
    shutil.copy(SAMPLE, closed)
    keizer(closed, "season", "close", "2025-2026")
    sites = {"paired": published(paired, tmp / "paired"), "paired-nl": published(paired, tmp / "paired-nl", "nl"),
             "closed": published(closed, tmp / "closed")}
    keizer(paired, "-c", "1", "result", "1=1-0", "2=1/2-1/2", "3=0-1")  # the evening as it happens
    sites["playing"] = published(paired, tmp / "playing")
    return sites


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def opened(browser, path: Path, size: str):
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.errors = errors
    return page


def shot(page, name: str) -> None:
    for folder in SHOTS:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"))


def on_first_screen(page, selector: str, size: str) -> bool:
    """The element is shown and lies wholly on the first screen, without scrolling either way."""
    width, height = SIZES[size]
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height \
        and box["x"] >= 0 and box["x"] + box["width"] <= width


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", SIZES)
def test_my_next_game_is_on_the_first_screen_of_my_page(sites, browser, size):
    page = opened(browser, member_page(sites["paired-nl"], "Anna Hendriks"), size)
    try:
        shot(page, f"member-next-game-{size}")
        assert on_first_screen(page, "section.next .next-game", size)
        assert page.locator("section.next .what").inner_text() == "bord 6, met zwart tegen Bas Dekker"
        assert no_sideways_scroll(page) and page.errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_front_page_first_screen_has_what_a_member_wants(sites, browser, size):
    page = opened(browser, sites["paired-nl"] / "index.html", size)
    try:
        shot(page, f"front-first-screen-{size}")
        for what in ("h1", "#find", ".evening h3", "table.boards.short tbody tr", "table.top tbody tr"):
            assert on_first_screen(page, what, size), what
        assert page.locator(".evening h3").first.inner_text() == "Volgende clubavond: 31 maart 2026"
        assert page.locator("table.top").first.locator("tbody tr").count() == 5
        assert not page.locator("#people").is_visible()  # the A–Z list has its own page
        assert no_sideways_scroll(page) and page.errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_swiss_standing_keeps_its_first_tie_break_in_view(sites, browser, size):
    page = opened(browser, sites["paired"] / "2025-2026" / slugify(SWISS) / "index.html", size)
    try:
        shot(page, f"swiss-standing-{size}")
        width = SIZES[size][0]
        cells = page.evaluate("""() => Array.from(document.querySelectorAll('table.standing .tb1'))
            .map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right, r.width]; })""")
        rows = page.locator("table.standing tbody tr").count()
        assert len(cells) == rows + 1 and all(w > 0 and left >= 0 and right <= width for left, right, w in cells)
        assert page.locator("table.standing thead .tb1").inner_text() == "BH/C1"
        # The legend explains what is shown: on a phone the first code alone.
        later = page.locator(".legend.tiebreaks .later").first.is_visible()
        assert later == (size == "desktop")
        assert no_sideways_scroll(page) and page.errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_report_heading_before_and_after_the_season_ends(sites, browser, size):
    for which, heading in (("paired", "Standing after round 30"), ("closed", "Final standing")):
        page = opened(browser, sites[which] / "2025-2026" / slugify(KEIZER) / "report.html", size)
        try:
            shot(page, f"report-{which}-{size}")
            found = page.locator("h2", has_text=heading)
            assert found.count() == 1 and found.is_visible()
            assert (page.locator("h2", has_text="Prize winners").count() == 1) == (which == "closed")
            assert no_sideways_scroll(page) and page.errors == []
        finally:
            page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_round_being_played_says_how_many_results_are_in(sites, browser, size):
    page = opened(browser, sites["playing"] / "2025-2026" / slugify(KEIZER) / "round-31.html", size)
    try:
        shot(page, f"round-playing-{size}")
        assert page.locator("p.live").inner_text() == "Provisional: 3 of 15 results in"
        assert on_first_screen(page, "p.live", size)
        heading = page.locator(".round-standing h2")
        assert heading.inner_text() == "Provisional standing after round 31, 3 of 15 results in" and heading.is_visible()
        assert no_sideways_scroll(page) and page.errors == []
    finally:
        page.context.close()
    front = opened(browser, sites["playing"] / "index.html", size)
    try:
        assert front.locator("strong.live").first.inner_text() == "provisional, 3 of 15 results in"
    finally:
        front.context.close()
