"""The published site laid out as members read it: headless Chromium at phone (390 px) and
laptop (1280 px) width, in dark mode and with a light club colour, and printed to PDF on A4.

On a screen: the number a member looks for (the score on a standing, the result on a round
page, the points on a player page: the cells of class "key") lies inside the viewport, the
page never scrolls sideways, the crosstable and the attendance grid keep rank and name in
view while they scroll sideways, the cup bracket fits a phone and lines its rounds up on a
laptop, the search box of the page of every player A–Z filters the list (which is all there
without JavaScript), the front page's box shows only the names typed, and axe-core finds no accessibility violation.

On paper: page size and orientation (the PDF's MediaBox), page counts (a club-size pairing
list on one A4, no empty page anywhere), the crosstable in parts of at most 16 rounds with
the names repeated, and nothing cut: laid out at the printable width no table is wider than
the page, and laid out in page-sized fragments (CSS columns as tall and wide as the page's
content box: Chromium fragments them as it fragments pages) no row is split and every
table's header repeats on each page.

Sites: the shipped sample club; a copy with a light club colour (#ffd700) and round 31 of
the Keizer competition paired; a synthetic 60-player, 40-round season (bench/seasons.py)
with round 41 paired on 30 boards.  Screenshots go to test-artifacts/site/, PDFs (and PNGs
of their pages when poppler's pdftoppm is installed) to test-artifacts/print/.
"""

from __future__ import annotations

import importlib.util
import math
import re
import shutil
import subprocess
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from keizer.cli import main as keizer_main
from keizer.operations import competition as ops
from keizer.operations.club import set_club
from keizer.publish import publish
from keizer.publish.slugs import slugify
from keizer.store import Store

from browser_helpers import ROOT, SIZES, axe_violations, chromium, require_chromium

require_chromium()
#: Chromium at two widths, print to PDF and axe-core on three published sites: 80 s and more.
pytestmark = pytest.mark.slow

SHOTS = ROOT / "test-artifacts" / "site"
PRINTS = ROOT / "test-artifacts" / "print"
KEIZER, SWISS, GROUP, CUP = "Interne competitie 2025-2026", "Rapidtoernooi 2025", "Meerkamp A", "Clubbeker 2025-2026"
BIG = "Interne competitie"
#: The printable area of style.css's @page rules, in CSS px (96 per inch): A4 with 12 mm
#: margins, and the crosstable's A4 landscape with 10 mm margins.
MM = 96 / 25.4
PORTRAIT = ((210 - 24) * MM, (297 - 24) * MM)
LANDSCAPE = ((297 - 20) * MM, (210 - 20) * MM)
A4 = (595.28, 841.89)  # points


# -- the sites -------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    root: Path
    db: Path

    def competition(self, name: str) -> Path:
        """The folder of competition ``name`` (in whichever season folder it is)."""
        found = list(self.root.glob(f"*/{slugify(name)}/index.html"))
        assert len(found) == 1, f"{name}: {found}"
        return found[0].parent

    def page(self, name: str | None, file: str = "index.html") -> Path:
        path = (self.competition(name) if name else self.root) / file
        assert path.exists(), path
        return path


def keizer(db: Path, *args: str) -> None:
    """Run a `keizer` command on ``db`` in-process; it must succeed."""
    try:
        keizer_main(["--db", str(db), *args])
    except SystemExit as e:
        assert not e.code, f"keizer {' '.join(args)} failed ({e.code})"


def synthetic_store(path: Path, players: int, rounds: int) -> Store:
    """A club of the benchmarks' synthetic season (bench/seasons.py): realistic attendance."""
    spec = importlib.util.spec_from_file_location("bench_seasons", ROOT / "bench" / "seasons.py")
    seasons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(seasons)
    store = Store.open(path, create=True)
    with store.change("test", "synthetic season"):
        ops.import_season(store, seasons.synthetic_season(players, rounds, seed=1), name=BIG)
        set_club(store, name="Schaakclub Synthetisch")
    return store


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Site]:
    tmp = tmp_path_factory.mktemp("sites")
    built: dict[str, Site] = {}

    def published(name: str, db: Path) -> None:
        store = Store.open(db)
        publish(store, tmp / name)
        store.close()
        built[name] = Site(tmp / name, db)

    published("sample", ROOT / "sample_club.db")
    gold = tmp / "gold.db"
    shutil.copy(ROOT / "sample_club.db", gold)
    keizer(gold, "club", "--colour", "#ffd700")  # too light for text: the site must cope
    keizer(gold, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(gold, "-c", "1", "pair")
    published("gold", gold)
    big = tmp / "big.db"
    synthetic_store(big, 60, 40).close()
    keizer(big, "-c", "1", "attend")  # everyone present: 30 boards
    keizer(big, "-c", "1", "pair")
    published("big", big)
    return built


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def open_page(browser, path: Path, size: str = "desktop", **options):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    page.errors = errors
    return page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def longest_player_page(site: Site, competition: str) -> Path:
    """The player page of the longest name: the hardest to fit on a phone."""
    folder = site.competition(competition)
    links = re.findall(r'<a href="(players/[^"]+)">([^<]+)</a>', (folder / "index.html").read_text(encoding="utf-8"))
    return folder / max(links, key=lambda link: len(link[1]))[0]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# -- on a screen: the key column -------------------------------------------------------

#: Pages with a key column: which site, which page.
KEY_PAGES = {
    "front": lambda s: s["sample"].page(None),
    "paired-front": lambda s: s["gold"].page(None),
    "standing": lambda s: s["sample"].page(KEIZER),
    "round": lambda s: s["sample"].page(KEIZER, "round-30.html"),
    "pairings": lambda s: s["gold"].page(KEIZER, "round-31.html"),
    "player": lambda s: longest_player_page(s["sample"], KEIZER),
    "swiss-standing": lambda s: s["sample"].page(SWISS),
    "swiss-round": lambda s: s["sample"].page(SWISS, "round-5.html"),
    "swiss-player": lambda s: longest_player_page(s["sample"], SWISS),
    "group-standing": lambda s: s["sample"].page(GROUP),
    "group-pairings": lambda s: s["sample"].page(GROUP, "round-5.html"),
    "group-player": lambda s: longest_player_page(s["sample"], GROUP),
    "big-standing": lambda s: s["big"].page(BIG),
    "big-pairings": lambda s: s["big"].page(BIG, "round-41.html"),
    "report": lambda s: s["sample"].page(KEIZER, "report.html"),
}

#: Every key cell of a table that is on the screen (the crosstable's scrolls by design).
KEY_CELLS = """() => Array.from(document.querySelectorAll('table .key'))
    .filter(cell => !cell.closest('.crosstable, .attendance, .print-only'))
    .map(cell => { const r = cell.getBoundingClientRect();
                   return {left: r.left, right: r.right, width: r.width}; })"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("which", KEY_PAGES)
def test_the_number_a_member_looks_for_is_in_view(sites, browser, which, size):
    page = open_page(browser, KEY_PAGES[which](sites), size)
    try:
        shot(page, f"{which}-{size}")
        assert no_sideways_scroll(page), "the page scrolls sideways"
        cells = page.evaluate(KEY_CELLS)
        rows = page.locator("table:not(.crosstable) tbody tr").count()
        assert cells and len(cells) >= rows  # a key cell on every row (and one in each header)
        width = SIZES[size][0]
        outside = [c for c in cells if c["width"] == 0 or c["left"] < 0 or c["right"] > width]
        assert outside == []
        # The less important columns give way on a phone, and only there.
        shown = page.evaluate("Array.from(document.querySelectorAll('table .opt'))"
                              ".filter(c => !c.closest('.print-only')).map(c => getComputedStyle(c).display != 'none')")
        assert all(not s for s in shown) if size == "phone" else all(shown)
        assert page.errors == []
    finally:
        page.context.close()


# -- on a screen: the crosstable scrolls under a fixed rank and name -------------------

GRIDS = {
    "keizer": lambda s: s["sample"].page(KEIZER, "crosstable.html"),
    "attendance": lambda s: s["sample"].page(KEIZER, "attendance.html"),
    "swiss": lambda s: s["sample"].page(SWISS, "crosstable.html"),
    "group": lambda s: s["sample"].page(GROUP, "crosstable.html"),
    "big": lambda s: s["big"].page(BIG, "crosstable.html"),
}

#: Scroll the grid's box to its far end and measure rank, name, the first round and the
#: last column of every row, and whether each header cell stands over its column.
SCROLLED = """() => {
  const box = Array.from(document.querySelectorAll('.scroll'))
    .find(b => b.querySelector('table.crosstable, table.attendance') && b.offsetParent !== null);
  const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right}; };
  const wide = box.scrollWidth > box.clientWidth;
  box.scrollLeft = box.scrollWidth;
  const rows = Array.from(box.querySelectorAll('tr')).map(tr => {
    const cells = Array.from(tr.children);
    return {rank: rect(cells[0]), name: rect(cells[1]), first: rect(cells[2]), last: rect(cells[cells.length - 1]),
            opaque: [cells[0], cells[1]].every(c => getComputedStyle(c).backgroundColor !== 'rgba(0, 0, 0, 0)'),
            edges: cells.map(c => [Math.round(rect(c).left), Math.round(rect(c).right)])};
  });
  return {wide, scrolled: box.scrollLeft, box: rect(box), rows};
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("which", GRIDS)
def test_the_crosstable_keeps_rank_and_name_in_view(sites, browser, which, size):
    page = open_page(browser, GRIDS[which](sites), size)
    try:
        assert no_sideways_scroll(page), "the page scrolls sideways (rather than the table in its box)"
        grid = page.evaluate(SCROLLED)
        shot(page, f"{which}-crosstable-scrolled-{size}")
        box, rows = grid["box"], grid["rows"]
        header = rows[0]["edges"]
        # Round numbers over the right columns: every row's cells stand under the header's.
        assert len(rows) > 3 and all(r["edges"] == header for r in rows[1:])
        # The crosstable comes in parts of at most 16 rounds: wider than the screen on a phone;
        # the attendance grid is one table, wider on a laptop too.
        if which == "attendance" or (size == "phone" and which in ("keizer", "big", "swiss")):
            assert grid["wide"], "expected a grid wider than the screen (the test scrolls it)"
        if not grid["wide"]:
            return
        assert grid["scrolled"] > 0
        for r in rows:
            assert box["left"] - 0.5 <= r["rank"]["left"] and r["rank"]["right"] <= r["name"]["left"] + 0.5
            assert r["name"]["right"] <= box["right"] + 0.5
            assert r["first"]["left"] < r["name"]["right"]  # the first round went under the name
            assert r["last"]["right"] <= box["right"] + 0.5  # the score at the end is in view
            assert r["opaque"], "a fixed cell lets the scrolled cells show through"
    finally:
        page.context.close()


# -- on a screen: the cup bracket ------------------------------------------------------

BRACKET = """() => Array.from(document.querySelectorAll('.bracket-round')).map(round => {
  const r = round.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          matches: Array.from(round.querySelectorAll('.match-box')).map(m => {
            const b = m.getBoundingClientRect();
            return {left: b.left, right: b.right, middle: (b.top + b.bottom) / 2,
                    line: getComputedStyle(m.closest('.bracket-match'), '::after').content};
          })};
})"""


@pytest.mark.parametrize("size", SIZES)
def test_the_cup_bracket_fits_and_lines_up(sites, browser, size):
    page = open_page(browser, sites["sample"].page(CUP), size)
    try:
        shot(page, f"cup-{size}")
        assert no_sideways_scroll(page)
        rounds = page.evaluate(BRACKET)
        assert len(rounds) == 4 and [len(r["matches"]) for r in rounds] == [8, 4, 2, 1]
        width = SIZES[size][0]
        assert all(0 <= m["left"] and m["right"] <= width for r in rounds for m in r["matches"])
        if size == "phone":  # one round under the other
            assert all(later["top"] >= earlier["bottom"] - 1 for earlier, later in zip(rounds, rounds[1:]))
        else:  # side by side, each match level with the middle of the two it follows, joined by lines
            assert all(abs(r["top"] - rounds[0]["top"]) < 1 for r in rounds)
            assert all(later["left"] > earlier["right"] for earlier, later in zip(rounds, rounds[1:]))
            for earlier, later in zip(rounds, rounds[1:]):
                for j, m in enumerate(later["matches"]):
                    pair = earlier["matches"][2 * j: 2 * j + 2]
                    assert abs(m["middle"] - sum(p["middle"] for p in pair) / 2) < 2
            assert all(m["line"] != "none" for r in rounds[:-1] for m in r["matches"])
        # Every name in the bracket links to the player.
        unlinked = page.evaluate("Array.from(document.querySelectorAll('.bracket .side'))"
                                 ".filter(s => !['…', '—'].includes(s.textContent.trim()) && !s.querySelector('a'))"
                                 ".map(s => s.textContent.trim())")
        assert unlinked == []
    finally:
        page.context.close()


# -- on a screen: accessibility --------------------------------------------------------

AXE_PAGES = {
    "front": lambda s: s.page(None),
    "season": lambda s: s.page(None, "2025-2026/index.html"),
    "standing": lambda s: s.page(KEIZER),
    "round": lambda s: s.page(KEIZER, "round-30.html"),
    "crosstable": lambda s: s.page(KEIZER, "crosstable.html"),
    "attendance": lambda s: s.page(KEIZER, "attendance.html"),
    "report": lambda s: s.page(KEIZER, "report.html"),
    "player": lambda s: longest_player_page(s, KEIZER),
    "member": lambda s: s.page(None, "2025-2026/members/anna-hendriks.html"),
    "players": lambda s: s.page(None, "players.html"),
    "swiss-standing": lambda s: s.page(SWISS),
    "swiss-crosstable": lambda s: s.page(SWISS, "crosstable.html"),
    "group-crosstable": lambda s: s.page(GROUP, "crosstable.html"),
    "cup": lambda s: s.page(CUP),
    "embed": lambda s: s.page(KEIZER, "embed.html"),
}
#: The site's own colours, its dark mode, and a club colour too light for text on white
#: (in both modes).  Only colour changes between these, so the variants run axe's colour
#: rules, on the pages that show every coloured thing: the header, tabs and links, the
#: arrows of the standing, the crosstable's and attendance grid's cells, the charts, the cup.
VARIANTS = {"default": ("sample", "light"), "dark": ("sample", "dark"),
            "club-colour": ("gold", "light"), "club-colour-dark": ("gold", "dark")}
COLOUR_RULES = ("color-contrast", "link-in-text-block")
COLOUR_PAGES = ("front", "standing", "pairings", "crosstable", "attendance", "report", "player", "cup", "member",
                "swiss-standing")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("size", SIZES)
def test_no_accessibility_violations(sites, browser, size, variant):
    site, scheme = VARIANTS[variant]
    # A pairing list: the Keizer round paired on the copy, the group's unplayed round here.
    paired = (KEIZER, "round-31.html") if site == "gold" else (GROUP, "round-5.html")
    pages = dict(AXE_PAGES, pairings=lambda s: s.page(*paired))
    if variant != "default":
        pages = {name: pages[name] for name in COLOUR_PAGES}
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    try:
        page = context.new_page()
        found = {}
        for name, where in pages.items():
            page.goto(where(sites[site]).as_uri())
            violations = axe_violations(page, () if variant == "default" else COLOUR_RULES)
            if violations:
                found[name] = violations
        if variant != "default":
            page.goto(sites[site].page(KEIZER, "report.html").as_uri())
            shot(page, f"report-{variant}-{size}")
        assert found == {}
    finally:
        context.close()


# -- on a screen: finding yourself -----------------------------------------------------


def fold(text: str) -> str:
    """Case and accents ignored, as a member types a name (ł, ø and ß as l, o and ss)."""
    text = text.translate(str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss"}))
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def season_players(db: Path) -> set[str]:
    store = Store.open(db)
    try:
        return {p["name"] for c in store.competitions() for p in store.players(c["id"])}
    finally:
        store.close()


def test_find_a_player_lists_everyone_without_javascript(sites, browser):
    page = open_page(browser, sites["sample"].root / "players.html", "phone", java_script_enabled=False)
    try:
        items = page.locator("#people li")
        names = items.all_inner_texts()
        assert sorted(names) == sorted(season_players(ROOT / "sample_club.db"))
        assert all(item.is_visible() for item in items.all())
        assert page.locator("#find").is_visible()  # typing does nothing harmful: the list stays
    finally:
        page.context.close()


@pytest.mark.parametrize("query", ["van", "VAN DER", "wojcik", "lukasz", "sjoerd hof", "zzz", ""])
def test_find_a_player_filters_the_list(sites, browser, query):
    page = open_page(browser, sites["sample"].root / "players.html", "phone")
    try:
        names = page.locator("#people li").all_inner_texts()
        page.locator("#find").fill(query)
        shown = page.locator("#people li:not([hidden])").all_inner_texts()
        expected = [n for n in names if all(word in fold(n) for word in fold(query).split())]
        assert shown == expected
        if query == "lukasz":  # hand-checked: the Polish Ł is an L to a member typing
            assert shown == ["Łukasz Wójcik"]
        if query == "":
            assert len(shown) == len(names) == 41
        shot(page, f"find-{slugify(query) if query else 'empty'}-phone")
        assert page.errors == []
    finally:
        page.context.close()


def test_the_front_page_search_shows_only_the_names_typed(sites, browser):
    """The A–Z list has its own page; the front page's box shows the names that match under it."""
    page = open_page(browser, sites["sample"].page(None), "phone")
    try:
        assert not page.locator("#people").is_visible()  # no list of 41 names on a phone's first screen
        page.locator("#find").fill("lukasz")
        assert page.locator("#people li:not([hidden])").all_inner_texts() == ["Łukasz Wójcik"]
        assert page.locator("#people").is_visible()
        page.locator("#find").fill("")
        assert not page.locator("#people").is_visible()
        # Enter opens the page of every player with the name typed, filtered there.
        page.locator("#find").fill("wojcik")
        page.locator("#find").press("Enter")
        page.wait_for_url("**/players.html?q=wojcik")
        assert page.locator("#people li:not([hidden])").all_inner_texts() == ["Łukasz Wójcik"]
        assert page.errors == []
    finally:
        page.context.close()


def test_the_front_page_search_works_without_javascript(sites, browser):
    page = open_page(browser, sites["sample"].page(None), "phone", java_script_enabled=False)
    try:
        assert not page.locator("#people").is_visible()
        page.locator("#find").fill("anything")
        page.locator("#find").press("Enter")
        page.wait_for_url("**/players.html?q=anything")
        assert page.locator("#people li").count() == 41  # without the script the whole list
    finally:
        page.context.close()


def test_players_a_to_z_are_in_alphabetical_order(sites):
    for page in (sites["sample"].root / "players.html", sites["sample"].page(None)):
        text = page.read_text(encoding="utf-8")
        names = re.findall(r"<li><a [^>]*>([^<]+)</a></li>", text.split('id="people"', 1)[1].split("</ul>", 1)[0])
        assert names == sorted(names, key=fold) and len(names) == 41


# -- on paper --------------------------------------------------------------------------


def pdf_pages(pdf: bytes) -> list[dict]:
    """Each page of a PDF (as Chromium writes them: no object streams) in order: its
    MediaBox and whether it draws any text."""
    objects = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(?s)(\d+) 0 obj\s*(.*?)\s*endobj", pdf)}

    def stream(number: int) -> bytes:
        body = objects[number]
        data = body.split(b"stream", 1)[1].lstrip(b"\r\n").rsplit(b"endstream", 1)[0]
        return zlib.decompress(data) if b"/FlateDecode" in body.split(b"stream", 1)[0] else data

    def kids(number: int) -> list[int]:
        body = objects[number]
        if re.search(rb"/Type\s*/Pages\b", body):
            inner = re.search(rb"/Kids\s*\[([^\]]*)\]", body).group(1)
            return [k for ref in re.findall(rb"(\d+) 0 R", inner) for k in kids(int(ref))]
        return [number]

    root = int(re.search(rb"/Root\s+(\d+) 0 R", pdf).group(1))
    pages = int(re.search(rb"/Pages\s+(\d+) 0 R", objects[root]).group(1))
    found = []
    for number in kids(pages):
        body = objects[number]
        box = [float(x) for x in re.search(rb"/MediaBox\s*\[([^\]]*)\]", body).group(1).split()]
        refs = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", body).group(1)
        contents = [int(ref) for ref in re.findall(rb"(\d+) 0 R", refs)]
        text = any(re.search(rb"\bT[Jj]\b", stream(c)) for c in contents)
        found.append({"width": box[2] - box[0], "height": box[3] - box[1], "text": text})
    return found


def print_pdf(browser, path: Path, name: str) -> list[dict]:
    """Print ``path`` to PDF (kept as an artefact, with PNGs of its pages where pdftoppm is
    installed) and read its pages; none may be empty."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        pdf = page.pdf(prefer_css_page_size=True)
    finally:
        context.close()
    PRINTS.mkdir(parents=True, exist_ok=True)
    target = PRINTS / f"{name}.pdf"
    target.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        for old in PRINTS.glob(f"{name}-*.png"):
            old.unlink()
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(target), str(PRINTS / name)], check=True)
    pages = pdf_pages(pdf)
    assert pages and all(p["text"] for p in pages), "an empty page"
    return pages


@pytest.fixture(scope="module")
def printed(sites, browser):
    """The pages of PRINTED's ``which`` printed to PDF, printed once for the module."""
    done: dict[str, list[dict]] = {}

    def pages(which: str) -> list[dict]:
        if which not in done:
            done[which] = print_pdf(browser, PRINTED[which][0](sites), which)
        return done[which]
    return pages


def a4(pages: list[dict], landscape: bool = False) -> bool:
    width, height = A4[::-1] if landscape else A4
    return all(abs(p["width"] - width) < 1.5 and abs(p["height"] - height) < 1.5 for p in pages)


#: Laid out in print media at the printable width: any table wider than the page (cut off
#: on paper), and the page's own width.
WIDTHS = """(width) => ({page: document.documentElement.scrollWidth,
  tables: Array.from(document.querySelectorAll('table')).filter(t => t.getClientRects().length)
    .map(t => ({right: t.getBoundingClientRect().right, text: t.querySelector('tr').textContent.trim().slice(0, 40)}))
    .filter(t => t.right > width + 0.5)})"""

#: Laid out in page-sized fragments: each table's fragments (pages), how often its header
#: row stands in them, and the rows split over two.
FRAGMENTS = """(width) => Array.from(document.querySelectorAll('table')).filter(t => t.getClientRects().length)
.map(t => {
  // Chromium rounds the column width to whole pixels: the nearest column is the page.
  const pages = new Set(Array.from(t.getClientRects()).filter(r => r.height > 0).map(r => Math.round(r.left / width)));
  const head = t.querySelector('thead tr');
  const split = Array.from(t.querySelectorAll('tbody tr')).filter(tr => tr.getClientRects().length > 1)
    .map(tr => tr.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40));
  return {pages: pages.size, heads: head ? head.getClientRects().length : 0, split};
})"""


def print_layout(browser, path: Path, landscape: bool = False, css: str = "") -> dict:
    """How ``path`` lays out on paper: the tables wider than the page, and the tables in
    page-sized fragments (with ``css`` added, for a control experiment)."""
    width, height = LANDSCAPE if landscape else PORTRAIT
    context = browser.new_context(viewport={"width": math.floor(width), "height": math.floor(height)})
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        page.goto(path.as_uri())
        widths = page.evaluate(WIDTHS, width)
        page.add_style_tag(content=f"html, body {{ margin: 0; }} body {{ height: {height}px; column-width: {width}px;"
                                   f" column-gap: 0; column-fill: auto; }} {css}")
        tables = page.evaluate(FRAGMENTS, width)
        return {"width": width, "too_wide": widths["tables"], "page_width": widths["page"], "tables": tables}
    finally:
        context.close()


def assert_nothing_cut(layout: dict) -> None:
    assert layout["too_wide"] == [], "a table is wider than the page"
    assert layout["page_width"] <= layout["width"] + 1
    for t in layout["tables"]:
        assert t["split"] == [], "a row split over two pages"
        if t["heads"]:
            assert t["heads"] == t["pages"], "the header is not repeated on every page"


#: What prints, landscape or not, and the most pages it may take.
PRINTED = {
    "standing": (lambda s: s["sample"].page(KEIZER), False),
    "big-standing": (lambda s: s["big"].page(BIG), False),
    "crosstable": (lambda s: s["sample"].page(KEIZER, "crosstable.html"), True),
    "big-crosstable": (lambda s: s["big"].page(BIG, "crosstable.html"), True),
    "attendance": (lambda s: s["sample"].page(KEIZER, "attendance.html"), True),
    "big-attendance": (lambda s: s["big"].page(BIG, "attendance.html"), True),
    "report": (lambda s: s["sample"].page(KEIZER, "report.html"), False),
    "big-report": (lambda s: s["big"].page(BIG, "report.html"), False),
    "round": (lambda s: s["sample"].page(KEIZER, "round-30.html"), False),
    "pairings": (lambda s: s["gold"].page(KEIZER, "round-31.html"), False),
    "big-pairings": (lambda s: s["big"].page(BIG, "round-41.html"), False),
    "group-pairings": (lambda s: s["sample"].page(GROUP, "round-5.html"), False),
    "player": (lambda s: longest_player_page(s["sample"], KEIZER), False),
    "swiss-crosstable": (lambda s: s["sample"].page(SWISS, "crosstable.html"), True),
    "group-crosstable": (lambda s: s["sample"].page(GROUP, "crosstable.html"), True),
    "cup": (lambda s: s["sample"].page(CUP), False),
}


@pytest.mark.parametrize("which", PRINTED)
def test_printed_on_a4_with_nothing_cut(sites, browser, printed, which):
    where, landscape = PRINTED[which]
    pages = printed(which)
    assert a4(pages, landscape), [(p["width"], p["height"]) for p in pages]
    assert_nothing_cut(print_layout(browser, where(sites), landscape))


def test_the_fragment_check_sees_split_rows_and_missing_headers(sites, browser, tmp_path):
    """The control for the checks above, on the site's own style.css: a table of tall rows
    (two to eight lines in every cell: the page ends fall in the middle of rows) keeps each
    row on one page and its header on every page; without style.css's rules the check sees
    rows split and the header printed once."""
    static = sites["sample"].root / "static" / "style.css"
    rows = "".join("<tr>" + ("<td>" + "<br>".join(["line"] * (2 + k % 7)) + "</td>") * 3 + "</tr>" for k in range(40))
    test_page = tmp_path / "tall.html"
    test_page.write_text(f'<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="{static.as_uri()}">'
                         f'</head><body><main><table class="standing"><thead><tr><th>A</th><th>B</th><th>C</th></tr>'
                         f'</thead><tbody>{rows}</tbody></table></main></body></html>', encoding="utf-8")
    [table] = print_layout(browser, test_page)["tables"]
    assert table["pages"] > 2 and table["split"] == [] and table["heads"] == table["pages"]
    [table] = print_layout(browser, test_page, css="tr { break-inside: auto !important; }")["tables"]
    assert table["split"]
    [table] = print_layout(browser, test_page, css="thead { display: table-row-group !important; }")["tables"]
    assert table["heads"] == 1 < table["pages"]


@pytest.mark.parametrize("which", ["group-pairings", "pairings", "big-pairings"])
def test_a_pairing_list_is_one_a4_in_large_type(sites, browser, printed, which):
    """The notice board's pairing list: a round paired but not played, one A4 even for a
    60-player club's 30 boards, the club's name and the date over it, names in large type."""
    path = PRINTED[which][0](sites)
    assert len(printed(which)) == 1
    width, height = PORTRAIT
    context = browser.new_context(viewport={"width": math.floor(width), "height": math.floor(height)})
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        page.goto(path.as_uri())
        club = page.locator(".print-club")
        assert club.is_visible()
        assert club.inner_text() == ("Schaakclub Synthetisch" if which == "big-pairings" else "Chess club")
        if which != "big-pairings":  # the synthetic season has no dates
            assert page.locator("p.date").is_visible() and re.search(r"\d{4}", page.locator("p.date").inner_text())
        points = page.evaluate("Array.from(document.querySelectorAll('.boards td.name, .print-club, p.date'))"
                               ".map(e => parseFloat(getComputedStyle(e).fontSize) * 72 / 96)")
        assert min(points) >= 11, f"type too small for a notice board: {min(points)} pt"
        boards = {"group-pairings": 3, "pairings": 15, "big-pairings": 30}[which]
        assert page.locator(".boards tbody tr").count() == boards
    finally:
        context.close()


def test_the_crosstable_prints_in_parts_with_the_names_repeated(sites, browser, printed):
    for which in ("crosstable", "big-crosstable"):
        path = PRINTED[which][0](sites)
        pages = printed(which)
        context = browser.new_context()
        try:
            page = context.new_page()
            page.emulate_media(media="print")
            page.goto(path.as_uri())
            # The crosstable comes in parts on screen and on paper alike, each part a page.
            parts = page.locator(".part table.crosstable")
            assert parts.count() >= 2
            names = parts.first.locator("tbody th.name").all_inner_texts()
            count = parts.count()
            printed_rounds = []
            for k in range(count):
                part = parts.nth(k)
                heads = part.locator("thead th.center").all_inner_texts()
                assert 1 <= len(heads) <= 16
                printed_rounds += heads
                assert part.locator("tbody th.name").all_inner_texts() == names
                assert part.locator("th.key").count() == (1 if k == count - 1 else 0)
            # every round played once, in order (the pairing of an unplayed round is no column)
            assert printed_rounds == [str(r) for r in range(1, len(printed_rounds) + 1)] and len(printed_rounds) > 16
        finally:
            context.close()
        # At least 25 players on a landscape page: each part takes few pages.
        assert len(pages) <= count * math.ceil(len(names) / 25), len(pages)


def test_the_standing_and_report_print_compactly(sites, browser, printed):
    """A club's standing (41 players) on one A4: the standing, not the navigation around it;
    the season report, with the club's name over it, on two."""
    assert len(printed("standing")) == 1
    assert len(printed("report")) <= 2
    path = sites["sample"].page(KEIZER, "report.html")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        page.goto(path.as_uri())
        assert page.locator(".print-club").inner_text() == "Chess club · 2025-2026"
        assert page.locator(".print-club").is_visible()
    finally:
        context.close()


def test_printing_from_dark_mode_prints_on_white(sites, browser):
    """A reader in dark mode prints the light page: the grid's colours on white paper, not
    the dark screen's (black text on dark cells)."""
    path = sites["sample"].page(KEIZER, "crosstable.html")
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        try:
            page = context.new_page()
            page.emulate_media(media="print", color_scheme=scheme)
            page.goto(path.as_uri())
            colours[scheme] = page.evaluate("['body', 'a', '.cell.excused', '.cell.unexcused', '.cell.club']"
                                            ".map(s => { const c = getComputedStyle(document.querySelector(s));"
                                            " return [c.color, c.backgroundColor]; })")
            if scheme == "dark":
                (PRINTS / "crosstable-from-dark-mode.pdf").write_bytes(page.pdf(prefer_css_page_size=True))
        finally:
            context.close()
    assert colours["dark"] == colours["light"]
    assert colours["light"][0] == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
