"""The site in a real browser: headless Chromium at phone and desktop width.

Screenshots are kept in test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from keizer.publish import publish
from keizer.publish.plan import slugify
from keizer.store import Store

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("KEIZER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}

if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Chromium for the browser tests; .ci/run installs Debian's chromium")
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    store = Store.open(ROOT / "sample_club.db")
    publish(store, out)
    comp = out / "2025-2026" / slugify(store.competition()["name"])
    store.close()
    return comp


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield b
        b.close()


def first_player(site: Path) -> Path:
    text = (site / "index.html").read_text(encoding="utf-8")
    link = text.split('href="players/', 1)[1].split('"', 1)[0]
    return site / "players" / link


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("which", ["standings", "player", "crosstable", "report", "season", "swiss", "group", "cup"])
def test_page_renders_without_errors(site, browser, which, size):
    season = site.parent  # the season's folder: the other competitions of the sample club
    path = {"standings": site / "index.html", "player": first_player(site),
            "crosstable": site / "crosstable.html", "report": site / "report.html",
            "season": season / "index.html", "swiss": season / slugify("Rapidtoernooi 2025") / "crosstable.html",
            "group": season / slugify("Meerkamp A") / "crosstable.html",
            "cup": season / slugify("Clubbeker 2025-2026") / "index.html"}[which]
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{which}-{size}.png"), full_page=True)
    assert problems == []
    assert requests and all(url.startswith("file://") for url in requests)
    # The page itself never scrolls sideways: wide tables scroll inside their own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("h1").first.is_visible()
    if which == "player":
        box = page.locator("figure.chart svg").first.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 60
        assert page.locator("polyline").count() >= 2
    if which == "standings":
        assert page.locator("table.standing tbody tr").count() == 41
    page.close()


def test_report_prints_on_a4(site, browser):
    page = browser.new_page()
    page.goto((site / "report.html").as_uri())
    pdf = page.pdf(prefer_css_page_size=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report.pdf").write_bytes(pdf)
    # A4 is 595.28 × 841.89 points; the print CSS asks for it with @page.
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert boxes and all(abs(float(w) - 595.3) < 1.5 and abs(float(h) - 841.9) < 1.5 for w, h in boxes)
    assert b"/Type /Page" in pdf
    page.close()
