"""The ECF rating change on a player's page, when the club shows the ECF rating: in the app
(English) and on the published site (Dutch), in Debian's Chromium at phone (390 px) and laptop
(1280 px) width: no sideways scrolling, no script error, no axe-core violation; the FIDE and
DWZ blocks beside it are no landmarks of the same name as their tables (axe's landmark-unique).

Screenshots go to $KEIZER_SHOTS (default: a folder under the system's temporary folder) for a
person to look at; they are never committed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from browser_helpers import SIZES, axe_violations, chromium, require_chromium
from test_site_member import SAMPLE, player_page, published

require_chromium()
pytestmark = pytest.mark.slow

from test_app_browser import Server, Watched  # noqa: E402

SHOTS = Path(os.environ.get("KEIZER_SHOTS") or Path(tempfile.gettempdir()) / "keizer-shots")


def _ecf(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('club_national_rating', 'ecf')")


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ecf-app")
    shutil.copy(SAMPLE, folder / "club.db")
    _ecf(folder / "club.db")
    with sqlite3.connect(folder / "club.db") as conn:  # the FIDE block above it too
        conn.execute("UPDATE members SET fide_rating = rating + 50 WHERE rating > 1500")
    s = Server(folder, folder / "club.db")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("ecf-site")
    shutil.copy(SAMPLE, tmp / "club.db")
    _ecf(tmp / "club.db")
    return published(tmp / "club.db", tmp / "site", "nl")


@pytest.mark.parametrize("size", SIZES)
def test_the_apps_player_page(server, browser, size):
    with sqlite3.connect(server.db) as conn:
        key = conn.execute("SELECT p.key FROM players p JOIN members m ON m.id = p.member_id "
                           "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    w = Watched(browser, size, bypass_csp=True)
    try:
        w.page.goto(f"{server.url}/c/1/player/{key}")
        section = w.page.locator("section.ecf-changes")
        assert section.locator("h2").inner_text() == "ECF rating change"
        assert section.locator("p.note").inner_text().startswith("Provisional, not official")
        assert section.locator("tbody tr").count() == 24  # every game played; 23 against a rated opponent
        assert section.locator("td.note").count() == 1
        assert w.page.locator("section.rating-changes h2").all_inner_texts() == ["FIDE rating change",
                                                                                 "ECF rating change"]
        assert w.page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], "the page scrolls sideways"
        assert axe_violations(w.page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        w.page.screenshot(path=str(SHOTS / f"app-player-ecf-{size}.png"), full_page=True)
        assert w.errors == []
    finally:
        w.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_sites_player_page_in_dutch(site, browser, size):
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(player_page(site, "Interne competitie 2025-2026", "Anna Hendriks").as_uri())
    section = page.locator("section.ecf-changes")
    assert section.locator("h2").inner_text() == "ECF-ratingwijziging"
    assert section.locator("p.note").inner_text().startswith("Voorlopig, niet officieel")
    assert "tegenstander zonder ECF-rating" in section.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    assert axe_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"site-player-ecf-{size}.png"), full_page=True)
    assert errors == []
    page.context.close()


@pytest.fixture(scope="module")
def dwz_site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("dwz-site")
    shutil.copy(SAMPLE, tmp / "club.db")
    with sqlite3.connect(tmp / "club.db") as conn:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('club_national_rating', 'dwz')")
        conn.execute("UPDATE members SET fide_rating = rating + 50 WHERE rating > 1500")
    return published(tmp / "club.db", tmp / "site", "nl")


@pytest.mark.parametrize("size", SIZES)
def test_the_fide_and_dwz_blocks_are_no_landmarks_of_the_same_name(dwz_site, browser, size):
    # Each block's section was a region named by its heading, as its scroll region is: axe's
    # landmark-unique. The scroll region alone is the landmark now.
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(player_page(dwz_site, "Interne competitie 2025-2026", "Anna Hendriks").as_uri())
    assert page.locator("section.rating-changes h2").all_inner_texts() == ["FIDE-ratingwijziging", "DWZ-verandering"]
    assert axe_violations(page) == []
    page.context.close()
