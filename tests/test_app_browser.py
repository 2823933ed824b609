"""The officer's app in a real browser: `keizer serve` on 127.0.0.1 and headless Chromium,
clicking and typing as an officer does at phone and desktop width.

Screenshots are kept in test-artifacts/app/ for a person to look at; no page may log a
console error; axe-core (from npm: $KEIZER_AXE, which .ci/run sets) finds no violation on
the main pages.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from browser_helpers import ROOT, SIZES, axe_violations, chromium, require_chromium

ARTIFACTS = ROOT / "test-artifacts" / "app"

require_chromium()
#: The app in Chromium with axe-core: a minute and more, the longest tests 10 s each.
pytestmark = pytest.mark.slow

from playwright.sync_api import Page, expect  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`keizer serve` over a copy of the sample club (or of ``source``), on a free port of 127.0.0.1."""

    def __init__(self, folder: Path, source: Path = ROOT / "sample_club.db") -> None:
        self.db = folder / "club.db"
        if source != self.db:
            shutil.copy(source, self.db)
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
    with chromium() as b:
        yield b


class Watched:
    """A page whose console errors and failed requests are collected."""

    def __init__(self, browser, size: str, bypass_csp: bool = False) -> None:
        width, height = SIZES[size]
        # bypass_csp only where the test injects axe-core: the app's policy refuses inline scripts.
        self.context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=bypass_csp)
        self.page: Page = self.context.new_page()
        self.size = size
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # A request the test cut short by moving on (a standing still loading) is not a failure.
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url} ({r.failure})")
                     if "ERR_ABORTED" not in (r.failure or "") else None)

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}-{self.size}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


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


def test_venue_screen_shows_a_long_standing_page_by_page(server, browser):
    """On a 1280×720 TV the Keizer standing (41 players) does not fit: it comes in pages, and
    every player is on one of them; on a tablet everything is there to scroll, numbers whole."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.clock.install()
        page.goto(server.url + "/c/1/venue")
        rows = page.locator("#venue-table-table tbody tr")
        total = rows.count()
        seen: set[str] = set()
        for _ in range(12):
            page.clock.run_for(20_500)
            if page.locator("#venue-table").is_visible():
                # Each row's box asked once: the poll may redraw the table between two questions,
                # and a row it hid meanwhile has no box (it is not shown).
                boxes = [(r.inner_text().split("\t")[1], r.bounding_box()) for r in rows.all() if r.is_visible()]
                shown = [name for name, box in boxes if box is not None]
                assert shown and all(box["y"] + box["height"] <= 720 for _, box in boxes if box is not None)
                seen.update(shown)
        assert total == 41 and len(seen) == total
        assert "/" in page.locator("#venue-table .page").inner_text()  # e.g. 2/2
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "venue-standing-720.png"))
        tablet = context.new_page()
        tablet.set_viewport_size({"width": 768, "height": 1024})
        tablet.goto(server.url + "/c/3/venue")
        assert tablet.locator("#venue-table-table tbody tr:visible").count() == tablet.locator(
            "#venue-table-table tbody tr").count()
        for cell in tablet.locator("#venue-table-table td.num").all():
            box = cell.bounding_box()
            assert box is None or box["height"] < 40  # one line: "2.5" is not broken
        tablet.screenshot(path=str(ARTIFACTS / "venue-tablet.png"), full_page=True)
    finally:
        context.close()


def _results(db: Path, comp_id: int, number: int) -> list[str | None]:
    rnd, _ = _round(db, comp_id, number)
    return [g.result.value if g.result else None for g in rnd.games]


def _until(check, tries: int = 60) -> bool:
    import time

    for _ in range(tries):
        if check():
            return True
        time.sleep(0.1)
    return check()


def test_the_results_grid_takes_full_notations_and_guards_earlier_results(server, browser):
    """Typed as KeizerForClubs users type: '1/2-1/2' and '1-0' with Enter go to their own board;
    a board that has a result changes only with Enter, never with one stray key."""
    w = Watched(browser, "desktop")
    page = w.page
    try:
        page.goto(server.url + "/c/3/results")  # the round-robin's round 5: three open boards
        boxes = page.locator("#results-form input[id^=r]")
        boxes.nth(0).click()
        page.keyboard.type("1/2-1/2")
        page.keyboard.press("Enter")
        page.keyboard.type("1-0")
        page.keyboard.press("Enter")
        assert _until(lambda: _results(server.db, 3, 5)[:2] == ["1/2-1/2", "1-0"])
        assert _results(server.db, 3, 5)[2] is None and boxes.nth(2).input_value() == ""
        # Round 4 is complete: a key on a board with a result waits for Enter.
        page.goto(server.url + "/c/3/results?round=4")
        before = _results(server.db, 3, 4)
        box = page.locator("#results-form input[name=r1]")
        box.click()
        other = "=" if before[0] != "1/2-1/2" else "1"
        page.keyboard.type(other)
        page.wait_for_timeout(1200)  # longer than a one-key save would wait
        assert _results(server.db, 3, 4) == before
        assert "pending" in (page.locator("tr[data-board='1']").get_attribute("class") or "")
        expect(page.locator("#results-status")).to_contain_text("press Enter")
        page.keyboard.press("Enter")
        assert _until(lambda: _results(server.db, 3, 4)[0] != before[0])
        assert _results(server.db, 3, 4)[1:] == before[1:]
        w.shot("results-notations")
        assert w.errors == []
    finally:
        w.close()


def test_a_one_key_result_ends_its_board_and_the_next_key_starts_the_next(server, browser):
    """Typed quickly, '1 = 0 1 +' fills five boards and '= + 1' three: a key continues a board
    only when it continues the notation its first key starts (1-0, 0-1, ½-½, +-, -+)."""
    subprocess.run([sys.executable, "-m", "keizer", "--db", str(server.db), "-c", "1", "pair"], check=True,
                   capture_output=True)
    w = Watched(browser, "desktop")
    page = w.page
    try:
        page.goto(server.url + "/c/1/results")
        page.locator("#results-form input[name=r1]").click()
        page.keyboard.type("1=01+=+1", delay=40)  # well inside the pause that saves a board by itself
        want = ["1-0", "1/2-1/2", "0-1", "1-0", "+-", "1/2-1/2", "+-", "1-0"]
        assert _until(lambda: _results(server.db, 1, 31)[:8] == want), _results(server.db, 1, 31)[:8]
        assert page.locator("#results-form input[name=r9]").input_value() == ""
        page.keyboard.type("0-1", delay=40)  # a notation still goes whole to its board, with Enter
        page.keyboard.press("Enter")
        assert _until(lambda: _results(server.db, 1, 31)[8] == "0-1")
        assert w.errors == []
    finally:
        w.close()


def test_find_a_player_ignores_case_accents_spaces_and_apostrophes(server, browser):
    w = Watched(browser, "phone")
    try:
        w.page.goto(server.url + "/c/1/attendance")
        box = w.page.locator("input[data-filter]").first
        for typed, name in (("lukasz", "Łukasz Wójcik"), ("obrien", "Chloë O'Brien"), ("van t hof", "Sjoerd van 't Hof")):
            box.fill(typed)
            visible = [n for n in w.page.locator("[data-name]").all() if n.is_visible()]
            assert [n.get_attribute("data-name") for n in visible] == [name], typed
        assert w.errors == []
    finally:
        w.close()


def _round(db: Path, comp_id: int, number: int):
    from keizer.store import Store

    store = Store.open(db)
    try:
        return store.load_season(comp_id).rounds[number - 1], {p.id: p.name for p in store.load_season(comp_id).players}
    finally:
        store.close()


def _flash(page: Page) -> str:
    return " ".join(page.locator(".flash").all_inner_texts())


def _flash_says(page: Page, *words: str) -> None:
    """The page's message says all these words (waiting for the page that a click loads)."""

    for word in words:
        expect(page.locator(".flashes").first).to_contain_text(word, ignore_case=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_club_evening_by_clicking_and_typing(server, browser, size):
    """The Keizer competition's round 31: an excused player and a latecomer, pair, swap two
    players, print, enter the results by keyboard, correct an earlier round, undo, publish."""
    import re

    w = Watched(browser, size)
    page = w.page
    try:
        page.goto(server.url + "/")
        page.locator("#comp-1").locator("xpath=..").get_by_role("link", name="Attendance").click()
        page.wait_for_url(server.url + "/c/1/attendance")
        rows = page.locator("li.att-player")
        rows.first.wait_for()  # the click's navigation may not have loaded the list yet (CI met an empty one)
        names = [n for n in rows.evaluate_all("rows => rows.map(r => r.dataset.name)") if "'" not in n]
        excused, latecomer = names[0], names[1]
        page.locator(f"li.att-player[data-name='{excused}'] label.choice-excused").click()
        page.locator(f"li.att-player[data-name='{latecomer}'] label.choice-unexcused").click()
        w.shot("evening-1-attendance")
        page.get_by_role("button", name=re.compile("Save attendance")).click()
        _flash_says(page, "round 31")

        page.goto(server.url + "/c/1/pairing")
        page.get_by_role("button", name="Propose pairing").click()
        w.shot("evening-2-proposal")
        page.get_by_role("button", name="Store this pairing").click()
        rnd, names_by_id = _round(server.db, 1, 31)
        assert rnd.games and not any(excused == names_by_id[p] for g in rnd.games for p in (g.white, g.black))

        first, second = rnd.games[0], rnd.games[1]
        swap = page.locator("form[action$='/swap']")
        swap.locator("select[name=a]").select_option(label=names_by_id[first.white])
        swap.locator("select[name=b]").select_option(label=names_by_id[second.white])
        page.get_by_role("button", name="Swap the two players").click()
        _flash_says(page, "swapped")
        rnd, _ = _round(server.db, 1, 31)
        assert (rnd.games[0].white, rnd.games[1].white) == (second.white, first.white)
        w.shot("evening-3-paired")

        page.goto(server.url + "/c/1/attendance")
        page.locator(f"li.att-player[data-name='{latecomer}']").get_by_role(
            "button", name=re.compile("Latecomer")).click()
        _flash_says(page, "round 31")
        rnd, _ = _round(server.db, 1, 31)
        assert latecomer in {names_by_id[p] for g in rnd.games for p in (g.white, g.black)} | \
            {names_by_id[p] for p in rnd.byes}

        page.goto(server.url + "/c/1/print")
        page.get_by_role("link", name=re.compile("[Pp]airing list")).first.click()
        assert names_by_id[rnd.games[0].white] in page.inner_text("main")
        w.shot("evening-4-print")

        page.goto(server.url + "/c/1/results")
        keys = ["1", "0", "="]
        boxes = page.locator("#results-form input[id^=r]")
        assert boxes.count() == len(rnd.games)
        boxes.first.click()
        caption = page.locator("#standing-fragment .standing-caption")
        assert caption.inner_text() == f"Provisional standing: round 31 with 0 of {len(rnd.games)} results in"
        page.keyboard.type(keys[0])  # board 1: the standing beside the grid counts it at once
        expect(caption).to_contain_text(f"with 1 of {len(rnd.games)} results in")
        w.shot("evening-5-results-one-in")
        for k in range(1, len(rnd.games)):  # one key per board: it saves and moves on
            page.keyboard.type(keys[k % 3])
        expected = {"1": "1-0", "0": "0-1", "=": "1/2-1/2"}
        for _ in range(100):  # each result is saved as it is typed
            rnd, _ = _round(server.db, 1, 31)
            if all(g.result is not None for g in rnd.games):
                break
            page.wait_for_timeout(100)
        assert [g.result.value for g in rnd.games] == [expected[keys[k % 3]] for k in range(len(rnd.games))]
        expect(caption).to_have_text("Standing after round 31")  # complete: the final standing
        w.shot("evening-5-results")

        page.goto(server.url + "/c/1/results?round=30")
        box = page.locator("#results-form input[name=r1]")
        before = box.input_value()
        box.click()
        box.press("Control+a")
        page.keyboard.type("0" if before != "0-1" else "1")  # a correction: a later round is paired
        page.keyboard.press("Enter")  # a board with a result changes only with Enter
        corrected = "0-1" if before != "0-1" else "1-0"
        for _ in range(100):
            rnd30, _ = _round(server.db, 1, 30)
            if rnd30.games[0].result and rnd30.games[0].result.value == corrected:
                break
            page.wait_for_timeout(100)
        _flash_says(page, "round 31", "paired")  # the CLI's warning
        rnd30, _ = _round(server.db, 1, 30)
        assert rnd30.games[0].result.value == ("0-1" if before != "0-1" else "1-0")

        page.goto(server.url + "/log")
        w.shot("evening-6-log")
        page.get_by_role("link", name=re.compile("Undo")).first.click()
        page.get_by_role("button", name=re.compile("Undo")).click()
        _flash_says(page, "undone")
        rnd30, _ = _round(server.db, 1, 30)
        assert (rnd30.games[0].result.value if rnd30.games[0].result else "") != \
            ("0-1" if before != "0-1" else "1-0")

        page.goto(server.url + "/publish")
        page.get_by_role("button", name=re.compile("Publish")).click()
    
        expect(page.locator(".flash.ok")).to_contain_text("files written")
        assert (server.db.parent / "site" / "index.html").exists()
        w.shot("evening-7-published")
        assert w.errors == []
    finally:
        w.close()


def test_a_members_absence_link_and_a_boards_result_link_on_a_phone(server, browser):
    """The officer makes a member's link and the round-robin's result slips on the laptop;
    the member and a player use them on phones (no account, no session of their own)."""
    import re

    from keizer.store import Store

    officer = Watched(browser, "desktop")
    phone = Watched(browser, "phone")
    try:
        page = officer.page
        page.goto(server.url + "/members/links")
        row = page.locator("tr", has_text="Chloë O'Brien")
        row.get_by_role("button", name=re.compile("Make a link|Renew link")).click()
        member_url = page.locator(".new-link .url").inner_text().strip()
        assert member_url.startswith(server.url + "/m/")

        phone.page.goto(member_url)
        phone.page.get_by_role("button", name="I cannot come").first.click()
        assert "I can come after all" in phone.page.inner_text("main")
        phone.shot("member-link")
        store = Store.open(server.db)
        sent = store.notices()
        store.close()
        assert len(sent) == 1 and sent[0]["via"] == "member link"

        page.goto(server.url + "/c/3/print")
        page.get_by_role("link", name=re.compile("[Rr]esult slips")).click()
        page.get_by_role("button", name=re.compile("Make links")).click()
        slip_urls = [u.strip() for u in page.locator(".url").all_inner_texts()]
        assert len(slip_urls) == 3 and all("/b/" in u for u in slip_urls)
        officer.shot("slips")

        phone.page.goto(slip_urls[1])
        phone.page.locator("label.side.black").click()
        phone.page.get_by_role("button", name="½-½").click()
        phone.shot("board-link")
        store = Store.open(server.db)
        reports = store.board_reports(3, 5)
        store.close()
        assert [(r["board"], r["side"], r["result"]) for r in reports] == [(2, "black", "1/2-1/2")]

        page.goto(server.url + "/c/3/reports")
        assert "½" in page.inner_text("main")
        officer.shot("reports")
        assert officer.errors == [] and phone.errors == []
    finally:
        officer.close()
        phone.close()


MAIN_PAGES = ["/", "/c/1/attendance", "/c/1/pairing", "/c/1/results", "/c/1/standings", "/c/1/crosstable",
              "/c/1/print", "/c/2/standings", "/c/3/results", "/c/4/cup", "/members", "/competitions", "/log",
              "/users", "/publish", "/members/links", "/c/1/settings"]


@pytest.mark.parametrize("size", SIZES)
def test_the_main_pages_have_no_accessibility_violations_and_fit_the_screen(server, browser, size):
    w = Watched(browser, size, bypass_csp=True)
    found = {}
    try:
        for url in MAIN_PAGES:
            w.page.goto(server.url + url)
            width = w.page.evaluate("document.documentElement.scrollWidth")
            if width > SIZES[size][0] + 1:
                found[url] = [f"the page is {width} px wide"]
            violations = axe_violations(w.page)
            if violations:
                found.setdefault(url, []).extend(violations)
        assert found == {}
        assert w.errors == []
    finally:
        w.close()
