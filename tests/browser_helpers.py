"""Shared parts of the browser tests: Debian's Chromium driven by Playwright, and axe-core.

Chromium is found on the PATH (or at $KEIZER_CHROMIUM); without it the browser tests skip
with the reason, except in CI, where .ci/run installs it. axe-core comes from npm
($KEIZER_AXE, which .ci/run sets).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("KEIZER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
AXE = os.environ.get("KEIZER_AXE") or str(ROOT / "node_modules" / "axe-core" / "axe.min.js")
#: A phone held upright (iPhone 12–15 class) and a laptop.
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def require_chromium() -> None:
    """Skip the calling test module when Chromium is absent (a failure in CI)."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI needs Chromium for the browser tests; .ci/run installs Debian's chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium for one test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            yield browser
        finally:
            browser.close()


def axe_violations(page, rules: tuple[str, ...] = ()) -> list[str]:
    """axe-core's violations on ``page`` (all of its rules, or only ``rules``), one line each.

    The page must let the test inject a script (a context with ``bypass_csp`` where the page
    has a Content-Security-Policy)."""
    if not Path(AXE).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"axe-core is missing at {AXE}; .ci/run installs it from npm")
        pytest.skip(f"axe-core is not installed (npm install axe-core; then KEIZER_AXE={AXE})")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=Path(AXE).read_text(encoding="utf-8"))
    return page.evaluate("""async (rules) => {
        const options = {resultTypes: ['violations']};
        if (rules.length) options.runOnly = {type: 'rule', values: rules};
        const r = await axe.run(document, options);
        return r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
    }""", list(rules))
