"""Creating a Dubov Swiss in the officer's app, in Chromium at phone and desktop width: the
Swiss form offers the pairing system, the new tournament's settings say Dubov, and its first
pairing is the Dubov one.  Screenshots in test-artifacts/app/ (``dubov-*``)."""

from __future__ import annotations

import pytest

from browser_helpers import SIZES, require_chromium
from test_app_browser import Server, Watched

require_chromium()
pytestmark = pytest.mark.slow

from playwright.sync_api import expect  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    from browser_helpers import chromium

    with chromium() as b:
        yield b


@pytest.mark.parametrize("size", SIZES)
def test_an_officer_creates_a_dubov_swiss(tmp_path, browser, size):
    server = Server(tmp_path)
    w = Watched(browser, size)
    try:
        page = w.page
        page.goto(server.url + "/competitions")
        form = page.locator("#create-swiss")
        form.locator("summary").click()
        form.locator("input[name=name]").fill("Dubov open")
        form.locator("input[name=rounds]").fill("5")
        form.locator("input[name=all_members]").check()
        form.locator("select[name=pairing]").select_option("dubov")
        expect(form.locator("select[name=pairing]")).to_have_value("dubov")
        w.shot("dubov-create")
        form.locator("button.primary").click()
        expect(page.locator(".flashes").first).to_contain_text("Dubov open")
        page.goto(page.url.replace("/players", "/settings"))
        expect(page.locator("select[name=s-pairing]")).to_have_value("dubov")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
        w.shot("dubov-settings")
        assert w.errors == []
    finally:
        w.close()
        server.stop()
