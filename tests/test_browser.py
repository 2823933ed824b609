"""The site in a real browser: headless Chromium at phone and desktop width.

Screenshots are kept in test-artifacts/screenshots/ for a person to look at; the layout at
those widths, in dark mode and on paper is tested in test_site_layout.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer.publish import publish
from keizer.publish.slugs import slugify
from keizer.store import Store

from browser_helpers import ROOT, SIZES, chromium, require_chromium

ARTIFACTS = ROOT / "test-artifacts" / "screenshots"

require_chromium()
#: A Chromium launched for the module and the site's pages at two widths: 10 s and more.
pytestmark = pytest.mark.slow


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
    with chromium() as b:
        yield b


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
