"""FIDE mode in a real browser (`keizer serve` and headless Chromium, at 390 and 1280 px):
the pairing page says "FIDE rules"; a changed bye value on the settings page is refused in a
box, a second form asks to tick "Leave the FIDE rules" and confirm, and then the pairing page
says since when the rules are left.  Screenshots go to /tmp/keizer-fide-shots (look at them;
they are not committed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import axe_violations, require_chromium

require_chromium()
pytestmark = pytest.mark.slow

from test_app_browser import ROOT, Server, Watched, browser  # noqa: E402,F401 (the fixtures, shared)

SHOTS = Path("/tmp/keizer-fide-shots")


def _keizer(db: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), *args], check=True, capture_output=True)


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "source.db"
    db.write_bytes((ROOT / "sample_club.db").read_bytes())
    _keizer(db, "competition", "create", "Open", "--system", "swiss", "--rounds", "5", "--all-members")
    _keizer(db, "-c", "Open", "pair")
    s = Server(tmp_path, db)
    yield s
    s.stop()


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_refused_then_confirmed_and_the_mode_on_the_pairing_page(server, browser, size):
    watched = Watched(browser, size, bypass_csp=True)
    page = watched.page
    SHOTS.mkdir(exist_ok=True)
    try:
        page.goto(server.url + "/competitions")
        link = page.locator("a", has_text="Open").first
        comp_id = int(link.get_attribute("href").split("/c/")[1].split("/")[0])
        page.goto(f"{server.url}/c/{comp_id}/pairing")
        mode = page.locator("p.fide-mode")
        assert mode.inner_text() == "FIDE rules" and mode.is_visible()
        page.screenshot(path=str(SHOTS / f"pairing-fide-{size}.png"), full_page=True)

        page.goto(f"{server.url}/c/{comp_id}/settings")
        page.fill("#s-bye_points", "1/2")
        page.get_by_role("button", name="Save the changed settings").click()
        error = page.locator(".flash.error")
        assert "this leaves the FIDE rules: the pairing-allocated bye is worth 1/2" in error.inner_text()
        confirm = page.locator("form.leave-fide")
        assert confirm.is_visible() and fits(page)
        assert axe_violations(page) == []
        page.screenshot(path=str(SHOTS / f"settings-refused-{size}.png"), full_page=True)
        # Confirm without ticking: the browser keeps the form (the box is required), nothing is sent.
        confirm.get_by_role("button", name="Confirm the change").click()
        assert page.locator("form.leave-fide").is_visible()
        confirm.get_by_label("Leave the FIDE rules for this competition").check()
        confirm.get_by_role("button", name="Confirm the change").click()
        page.wait_for_load_state()  # is_visible() and count() below do not wait for the new page
        assert page.locator(".flash.ok").first.is_visible()
        assert page.locator("form.leave-fide").count() == 0
        assert page.locator("#s-bye_points").input_value() == "1/2"

        page.goto(f"{server.url}/c/{comp_id}/pairing")
        assert page.locator("p.fide-mode").inner_text() == \
            "Not FIDE rules since round 1: the pairing-allocated bye is worth 1/2"
        assert fits(page)
        page.screenshot(path=str(SHOTS / f"pairing-left-{size}.png"), full_page=True)
        assert watched.errors == []
    finally:
        watched.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_demo_swiss_is_in_fide_mode(tmp_path, browser, size):
    """The shipped demo's Swiss (Rapidtoernooi 2025, FIDE settings) is made in FIDE mode by
    scripts/make_sample_club.py: its pairing and standing pages say so, and fit the screen."""
    db = tmp_path / "demo.db"
    db.write_bytes((ROOT / "sample_club.db").read_bytes())
    server = Server(tmp_path, db)
    watched = Watched(browser, size, bypass_csp=True)
    page = watched.page
    SHOTS.mkdir(exist_ok=True)
    try:
        page.goto(server.url + "/competitions")
        link = page.locator("a", has_text="Rapidtoernooi 2025").first
        comp_id = int(link.get_attribute("href").split("/c/")[1].split("/")[0])
        for view in ("pairing", "standings"):
            page.goto(f"{server.url}/c/{comp_id}/{view}")
            mode = page.locator("p.fide-mode")
            assert mode.inner_text() == "FIDE rules" and mode.is_visible(), view
            assert fits(page), view
            page.screenshot(path=str(SHOTS / f"demo-{view}-{size}.png"), full_page=True)
        assert watched.errors == []
    finally:
        watched.close()
        server.stop()
