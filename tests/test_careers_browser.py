"""A member's career, the head-to-head page and a player's FIDE rating change in the app, in
Debian's Chromium at phone (390 px) and laptop (1280 px) width: no sideways scrolling, no
console error, no axe-core violation, the links between the pages work.

Screenshots go to $KEIZER_SHOTS (default: a folder under the system's temporary folder) for
a person to look at; they are never committed."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

from browser_helpers import SIZES, axe_violations, chromium, require_chromium

require_chromium()
pytestmark = pytest.mark.slow

from test_app_browser import Server, Watched  # noqa: E402

SHOTS = Path(os.environ.get("KEIZER_SHOTS") or Path(tempfile.gettempdir()) / "keizer-shots")


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("careers")
    s = Server(folder)
    with sqlite3.connect(s.db) as conn:
        conn.execute("UPDATE members SET fide_rating = rating + 50 WHERE rating > 1500")
    yield s
    s.stop()


def _ids(db: Path) -> tuple[int, str]:
    with sqlite3.connect(db) as conn:
        anna = conn.execute("SELECT id FROM members WHERE name = 'Anna Hendriks'").fetchone()[0]
        key = conn.execute("SELECT key FROM players WHERE member_id = ? AND competition_id = 1", (anna,)).fetchone()[0]
    return anna, key


def _shot(w: Watched, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    w.page.screenshot(path=str(SHOTS / f"{name}-{w.size}.png"), full_page=True)


def _fits(w: Watched) -> None:
    assert w.page.evaluate("document.documentElement.scrollWidth") <= SIZES[w.size][0], "the page scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_player_page_career_and_head_to_head(server, browser, size):
    anna, key = _ids(server.db)
    w = Watched(browser, size, bypass_csp=True)
    try:
        w.page.goto(f"{server.url}/c/1/player/{key}")
        section = w.page.locator("section.rating-changes")
        assert section.locator("h2").inner_text() == "FIDE rating change"
        assert "Provisional, not official" in section.inner_text()
        assert section.locator("tbody tr").count() == 24
        _fits(w)
        _shot(w, "player-fide")
        w.page.get_by_role("link", name="Career at the club").click()
        assert w.page.locator("h1").inner_text() == "Anna Hendriks"
        assert "27 games at the club" in w.page.locator("p.facts").inner_text()
        assert w.page.locator("#club-rating + p.note").inner_text().startswith("Provisional, not official")
        _fits(w)
        assert axe_violations(w.page) == []
        _shot(w, "career")
        w.page.get_by_role("link", name="Pieter Kuipers").click()
        w.page.wait_for_load_state()  # count() below does not wait for the new page
        assert w.page.locator("h1").inner_text() == "Anna Hendriks – Pieter Kuipers"
        assert w.page.locator("tbody tr").count() == 3
        _fits(w)
        assert axe_violations(w.page) == []
        _shot(w, "head2head")
        assert w.errors == []
    finally:
        w.close()
