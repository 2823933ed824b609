"""The officer's app in a real browser: `keizer serve` on 127.0.0.1 and headless Chromium,
clicking and typing as an officer does at phone and desktop width.

Screenshots are kept in test-artifacts/app/ for a person to look at; no page may log a
console error; axe-core (from npm: $KEIZER_AXE, which .ci/run sets) finds no violation on
the main pages.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "app"
CHROMIUM = os.environ.get("KEIZER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
AXE = os.environ.get("KEIZER_AXE") or str(ROOT / "node_modules" / "axe-core" / "axe.min.js")

if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Chromium for the browser tests; .ci/run installs Debian's chromium")
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Page, sync_playwright  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`keizer serve` over a copy of the sample club, on a free port of 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.db = folder / "club.db"
        shutil.copy(ROOT / "sample_club.db", self.db)
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "keizer", "--db", str(self.db), "serve", "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(150):
            try:
                urllib.request.urlopen(self.url + "/", timeout=2)
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"keizer serve stopped: {self.process.stderr.read()}")
                time.sleep(0.1)
        raise RuntimeError("keizer serve did not answer within 15 s")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield b
        b.close()


class Watched:
    """A page whose console errors and failed requests are collected."""

    def __init__(self, browser, size: str) -> None:
        width, height = SIZES[size]
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page: Page = self.context.new_page()
        self.size = size
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}-{self.size}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


def axe_violations(page: Page) -> list[str]:
    if not Path(AXE).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"axe-core is missing at {AXE}; .ci/run installs it from npm")
        pytest.skip(f"axe-core is not installed (npm install axe-core; then KEIZER_AXE={AXE})")
    # Injected by the test, not the app: the app's Content-Security-Policy would refuse it.
    page.add_script_tag(content=Path(AXE).read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
    }""")
    return found


@pytest.mark.parametrize("size", SIZES)
def test_home_page(server, browser, size):
    w = Watched(browser, size)
    try:
        w.page.goto(server.url + "/")
        assert w.page.locator("h1").inner_text() == "Club evening"
        assert w.page.locator("section.card").count() == 4
        width = w.page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size][0], "the page scrolls sideways"
        w.shot("home")
        assert w.errors == []
    finally:
        w.close()


def test_venue_screen_alternates_boards_and_standing_and_refreshes(server, browser, capsys):
    """On a TV (1920×1080): the boards first, the standing 20 s later, and a result entered
    meanwhile (by the CLI) appears after the next poll without a reload."""
    from test_cli import run

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.clock.install()
        page.goto(server.url + "/c/3/venue")  # the round-robin: round 5 paired, no results yet
        pairs, table = page.locator("#venue-pairs"), page.locator("#venue-table")
        assert pairs.is_visible() and not table.is_visible()
        assert page.locator("#venue-pairs-table tbody tr").count() == 3
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "venue-boards-tv.png"))
        code, _, err = run(capsys, server.db, "-c", "3", "result", "1=1-0")
        assert code == 0, err
        page.clock.run_for(21_000)
        assert table.is_visible() and not pairs.is_visible()
        first = page.locator("#venue-pairs-table tbody td.result").first
        for _ in range(50):  # the poll's fetch answers in real time
            if first.text_content().strip():
                break
            page.wait_for_timeout(100)
        assert first.text_content().strip() == "1–0"
        page.screenshot(path=str(ARTIFACTS / "venue-standing-tv.png"))
        assert errors == []
    finally:
        context.close()
