"""The site and the CLI's output are safe with hostile names, files and interruptions:
atomic pages, only keizer's own files removed, distinct page names, a fixed season folder,
a clean logo, and CSV no spreadsheet runs as a formula."""

from __future__ import annotations

import base64
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import html5lib
import pytest
from hypothesis import given, settings, strategies as st

from keizer.operations import competition as ops
from keizer.output import render
from keizer.operations.club import set_club
from keizer.publish import publish
from keizer.publish.files import MANIFEST

from keizer.publish.slugs import season_slugs, slugify, unique_slugs
from keizer.store import Store
from conftest import examples
from sites import published_once
from test_cli import digest, run

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"
INTERNE = "2025-2026/interne-competitie-2025-2026"
SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def sample(tmp_path) -> Path:
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    return db


def pair_round_31(store: Store) -> None:
    with store.change("pair", "pair"):
        ops.make_pairing(store, store.competition("Interne competitie 2025-2026")["id"])


# -- atomic pages -------------------------------------------------------------------


KILLER = r"""
import io, os, signal, sys
from pathlib import Path

real_open = io.open
pages = 0


class Dying:
    # Writes the third HTML page of the run half, then the process is killed.
    def __init__(self, f):
        self.f = f

    def write(self, data):
        global pages
        data = bytes(data)
        if data.startswith(b"<!DOCTYPE html>"):
            pages += 1
            if pages == 3:
                self.f.write(data[:len(data) // 2])
                self.f.flush()
                os.kill(os.getpid(), signal.SIGKILL)
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.f.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self.f, name)


def dying_open(file, mode="r", *args, **kwargs):
    f = real_open(file, mode, *args, **kwargs)
    return Dying(f) if "w" in mode else f


io.open = dying_open
from keizer.publish import publish
from keizer.store import Store

publish(Store.open(sys.argv[1]), Path(sys.argv[2]))
"""


def test_a_killed_publish_leaves_no_half_written_page(sample, tmp_path):
    site = tmp_path / "site"
    store = Store.open(sample)
    published_once(store, site)
    before = snapshot(site)
    with store.change("result", "correct"):  # changes the standing: many pages are rewritten
        ops.enter_results(store, store.competition("Interne competitie 2025-2026")["id"], {1: "0-1"},
                          round_no=30, correct=True)
    store.close()
    fresh = tmp_path / "fresh"
    publish(Store.open(sample), fresh)
    after = snapshot(fresh)
    killed = subprocess.run([sys.executable, "-c", KILLER, str(sample), str(site)], capture_output=True)
    assert killed.returncode == -9, killed.stderr.decode()
    pages = {rel: data for rel, data in snapshot(site).items() if not rel.endswith(".keizer-tmp")}
    changed = [rel for rel in after if rel.endswith(".html") and before[rel] != after[rel]]
    assert len(changed) > 3
    for rel in changed:  # each page is whole: as it was or as it should become
        assert pages[rel] in (before[rel], after[rel]), rel
    assert pages.keys() == before.keys()
    assert [rel for rel in changed if pages[rel] == after[rel]] == sorted(changed)[:2]
    assert list(site.rglob("*.keizer-tmp"))  # the kill left its temporary file behind …
    publish(Store.open(sample), site)
    assert snapshot(site) == after  # … and the next run tidies it and finishes the job


def test_a_failed_write_keeps_the_old_pages_and_no_temporary_files(sample, tmp_path, monkeypatch, capsys):
    site = tmp_path / "site"
    store = Store.open(sample)
    published_once(store, site)
    before = snapshot(site)
    store.close()
    run(capsys, sample, "-c", "Interne competitie 2025-2026", "result", "--round", "30", "--correct", "1=0-1")

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device", "index.html")

    monkeypatch.setattr("keizer.publish.files.os.replace", disk_full)
    code, out, err = run(capsys, sample, "publish", str(site))
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: cannot write the site") and "No space left" in err
    assert snapshot(site) == before


def test_publishing_into_a_file_is_refused_in_one_line(sample, tmp_path, capsys):
    target = tmp_path / "site"
    target.write_text("not a folder")
    code, _, err = run(capsys, sample, "publish", str(target))
    assert code != 0 and err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert target.read_text() == "not a folder"


# -- only keizer's own files are removed --------------------------------------------------


def published_with_round_31(sample: Path, tmp_path: Path) -> tuple[Store, Path, Path]:
    """The sample published with round 31 paired: the store, the site and that round's page."""
    site = tmp_path / "site"
    store = Store.open(sample)
    pair_round_31(store)
    published_once(store, site)
    return store, site, site / INTERNE / "round-31.html"


def test_hand_made_files_survive_and_stale_pages_go(sample, tmp_path):
    store, site, round_31 = published_with_round_31(sample, tmp_path)
    assert round_31.exists()
    own = {"contact.html": "<p>Call us</p>", "2025-2026/extra.txt": "notes",
           f"{INTERNE}/players/notes.html": "<p>mine</p>", "static/club.css": "p {}"}
    for rel, text in own.items():
        (site / rel).write_text(text)
    store.undo()
    publish(store, site)
    assert not round_31.exists()
    assert {rel: (site / rel).read_text() for rel in own} == own
    listed = json.loads((site / MANIFEST).read_text())["files"]
    assert f"{INTERNE}/round-31.html" not in listed and not set(own) & set(listed)
    assert listed[f"{INTERNE}/round-30.html"] == digest(site / INTERNE / "round-30.html")
    assert set(listed) == {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()} - set(own) - {MANIFEST}


def test_a_page_edited_by_hand_is_not_removed(sample, tmp_path):
    store, site, round_31 = published_with_round_31(sample, tmp_path)
    round_31.write_text(round_31.read_text(encoding="utf-8") + "<!-- my note -->", encoding="utf-8")
    store.undo()
    publish(store, site)
    assert round_31.read_text(encoding="utf-8").endswith("<!-- my note -->")
    assert f"{INTERNE}/round-31.html" not in json.loads((site / MANIFEST).read_text())["files"]


def test_a_site_without_manifest_loses_nothing(sample, tmp_path):
    """A folder an older keizer published: nothing in it is recognisably ours, so nothing goes."""
    site = tmp_path / "site"
    store = Store.open(sample)
    pair_round_31(store)
    published_once(store, site)
    (site / MANIFEST).unlink()
    round_31 = site / INTERNE / "round-31.html"
    store.undo()
    publish(store, site)
    assert round_31.exists()  # an old page the plan no longer has stays …
    assert f"{INTERNE}/round-31.html" not in json.loads((site / MANIFEST).read_text())["files"]
    pair_round_31(store)
    publish(store, site)
    store.undo()
    publish(store, site)
    assert not round_31.exists()  # … until a run that listed it


def test_another_databases_season_is_left_alone(sample, tmp_path):
    site = tmp_path / "site"
    older = tmp_path / "older.db"
    shutil.copy(SAMPLE, older)
    old_store = Store.open(older)
    with old_store.change("season", "season"):
        old_store.conn.execute("UPDATE competitions SET season = '2024-2025'")
    publish(old_store, site)
    theirs = {rel: data for rel, data in snapshot(site).items() if rel.startswith("2024-2025/")}
    store = Store.open(sample)
    pair_round_31(store)
    publish(store, site)
    store.undo()
    with store.change("drop", "drop a competition"):
        store.conn.execute("DELETE FROM competitions WHERE name = 'Meerkamp A'")
    publish(store, site)
    assert not (site / "2025-2026" / "meerkamp-a").exists()
    assert {rel: data for rel, data in snapshot(site).items() if rel.startswith("2024-2025/")} == theirs
    assert set(json.loads((site / "seasons.json").read_text())) == {"2024-2025", "2025-2026"}


def test_a_new_logo_type_removes_the_old_logo(sample, tmp_path):
    site = tmp_path / "site"
    store = Store.open(sample)
    png, svg = tmp_path / "logo.png", tmp_path / "logo.svg"
    png.write_bytes(tiny_png(2, 3))
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="3"/>')
    with store.change("club", "club"):
        set_club(store, logo=png)
    publish(store, site)
    assert (site / "static" / "logo.png").read_bytes() == png.read_bytes()
    with store.change("club", "club"):
        set_club(store, logo=svg)
    publish(store, site)
    assert not (site / "static" / "logo.png").exists() and (site / "static" / "logo.svg").exists()


def test_a_damaged_manifest_is_refused_and_nothing_outside_is_touched(sample, tmp_path, capsys):
    site = tmp_path / "site"
    published_once(Store.open(sample), site)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (site / MANIFEST).write_text(json.dumps({"keizer_manifest": 1, "files": {"../victim.txt": digest(victim)}}))
    before = snapshot(site)
    code, _, err = run(capsys, sample, "publish", str(site))
    assert code != 0 and err.count("\n") == 1 and MANIFEST in err and "damaged" in err
    assert victim.read_text() == "keep me" and snapshot(site) == before


# -- page names -------------------------------------------------------------------


def test_names_that_slugify_alike_get_distinct_slugs():
    names = ["Jan de Vries", "Jan de-Vries", "Jan de Vries 2", "JAN DE VRIES", "Jan de Vriés"]
    assert unique_slugs(names) == ["jan-de-vries", "jan-de-vries-3", "jan-de-vries-2", "jan-de-vries-4",
                                   "jan-de-vries-5"]
    assert unique_slugs(["Beker!", "Beker 2"]) == ["beker", "beker-2"]
    assert unique_slugs(["🐴", "!!!", "..", "X"]) == ["x", "x-2", "x-3", "x-4"]
    assert slugify("<script>alert(1)</script>") == "script-alert-1-script"
    assert slugify("NUL") == "nul-x" and slugify("com1") == "com1-x"
    long = slugify("Ab " * 100)
    assert len(long) <= 60 and not long.endswith("-") and SLUG.fullmatch(long)
    # Seasons: a season keeps its folder; a new one that slugifies alike gets another.
    assert season_slugs({"2025-2026": "2025-2026"}, ["2025/2026", "2025-2026"]) == {
        "2025-2026": "2025-2026", "2025/2026": "2025-2026-2"}
    assert season_slugs({}, ["Static", "2025"]) == {"Static": "static-2", "2025": "2025"}


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(st.characters(), max_size=80), max_size=12),
       st.sets(st.from_regex(SLUG, fullmatch=True), max_size=4))
def test_slugs_are_distinct_safe_and_deterministic(names, taken):
    slugs = unique_slugs(names, taken)
    assert len(set(slugs)) == len(slugs) and not set(slugs) & taken
    assert all(SLUG.fullmatch(s) and len(s) <= 70 and s not in ("con", "nul", "aux", "prn") for s in slugs)
    assert unique_slugs(names, taken) == slugs
    # Adding names later never renames an earlier name whose own slug was free.
    for name, slug in zip(names, slugs):
        if slug == slugify(name):
            assert unique_slugs(names + ["Jan"], taken)[names.index(name)] == slug


def adversarial_store(path: Path) -> Store:
    store = Store.open(path, create=True)
    store.clock = lambda: "2025-09-01T19:00:00+00:00"
    names = ["Jan de Vries", "Jan de-Vries", "Jan de Vries 2", "<script>alert(1)</script>", "🐴♞", "..",
             "Ærø Ågård", "Ab " * 60 + "one", "Ab " * 60 + "two", "con"]
    with store.change("setup", "setup"):
        for comp_name in ("Beker!", "Beker 2", "Members"):
            comp = store.create_competition(comp_name, "classic", {})
            for name in names:
                store.register(comp, store.add_member(name))
            ops.mark_attendance(store, comp, {}, date="2025-09-09")
            ops.make_pairing(store, comp)
    return store


def test_every_player_and_competition_gets_its_own_page(tmp_path):
    store = adversarial_store(tmp_path / "x.db")
    site = tmp_path / "site"
    publish(store, site)
    season = site / "2025-2026"
    # A competition called "Members" does not take the folder of the season's member pages.
    # (feeds: each member's own calendar and results feed)
    assert sorted(p.name for p in season.iterdir() if p.is_dir()) == ["beker", "beker-2", "feeds", "members",
                                                                       "members-2"]
    assert len(list((season / "members").iterdir())) == 30  # each competition registered members of its own
    for comp in ("beker", "beker-2"):
        players = sorted(p.name for p in (season / comp / "players").iterdir())
        assert len(players) == 10 and all(SLUG.fullmatch(p.removesuffix(".html")) for p in players)
        assert {"jan-de-vries.html", "jan-de-vries-2.html", "jan-de-vries-3.html", "x.html", "con-x.html"} <= set(players)
        # Each page names its own player: no page was overwritten by a namesake's.
        titles = {re.search(r"<h1[^>]*>(.*?)</h1>", (season / comp / "players" / p).read_text(encoding="utf-8"),
                            re.S).group(1) for p in players}
        assert len(titles) == 10
    parser = html5lib.HTMLParser(strict=True)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        parser.parse(text)
        assert "<script>" not in text
        for target in re.findall(r"""(?:src|href)=["']([^"'#]+)["']""", text):
            assert (page.parent / target).resolve().is_file(), f"{page}: {target}"


def test_seasons_that_slugify_alike_get_two_folders(tmp_path):
    store = Store.open(tmp_path / "s.db", create=True)
    store.clock = lambda: "2025-09-01T19:00:00+00:00"
    for season_name, comp_name in (("2025-2026", "Interne"), ("2025/2026", "Rapid")):
        with store.change("club", "club"):
            set_club(store, season=season_name)
            comp = store.create_competition(comp_name, "classic", {})
            for name in ("Anna", "Bram"):
                store.register(comp, store.add_member(name))
    site = tmp_path / "site"
    publish(store, site)
    assert json.loads((site / "seasons.json").read_text()) == {"2025-2026": "2025-2026", "2025-2026-2": "2025/2026"}
    assert (site / "2025-2026" / "interne" / "index.html").exists()
    assert (site / "2025-2026-2" / "rapid" / "index.html").exists()
    assert not (site / "2025-2026" / "rapid").exists()


# -- the season's folder is fixed when the competition is created ------------------------


def dated_competition(tmp_path: Path) -> tuple[Store, int]:
    store = Store.open(tmp_path / "d.db", create=True)
    store.clock = lambda: "2025-12-01T19:00:00+00:00"
    with store.change("setup", "setup"):
        comp = store.create_competition("Winter", "classic", {})
        for name in ("Anna", "Bram", "Cor", "Dirk"):
            store.register(comp, store.add_member(name))
    return store, comp


def play_round(store: Store, comp: int, date: str) -> None:
    with store.change("round", "round"):
        ops.mark_attendance(store, comp, {}, date=date)
        ops.make_pairing(store, comp)
        ops.enter_results(store, comp, {1: "1-0", 2: "½-½"})


def test_a_round_in_january_keeps_the_seasons_folder(tmp_path):
    store, comp = dated_competition(tmp_path)
    site = tmp_path / "site"
    play_round(store, comp, "2025-12-16")
    publish(store, site)
    assert (site / "2025-2026" / "winter" / "round-1.html").exists()
    play_round(store, comp, "2026-01-13")
    result = publish(store, site)
    assert result.seasons == ("2025-2026",)
    assert json.loads((site / "seasons.json").read_text()) == {"2025-2026": "2025-2026"}
    assert sorted(p.name for p in site.iterdir()) == [MANIFEST, "2025-2026", "careers", "index.html", "players.html",
                                                      "seasons.json", "static"]  # careers: the members' pages across seasons
    assert (site / "2025-2026" / "winter" / "round-2.html").exists()


def test_competitions_of_two_seasons_publish_into_two_folders_and_club_season_moves_nothing(tmp_path, capsys):
    store, comp = dated_competition(tmp_path)
    play_round(store, comp, "2025-12-16")
    store.close()
    db = tmp_path / "d.db"
    code, _, err = run(capsys, db, "club", "--season", "2026-2027")
    assert code == 0 and "existing competitions keep their season (2025-2026)" in err
    assert run(capsys, db, "competition", "create", "Zomer")[0] == 0
    for name in ("Anna", "Bram"):
        assert run(capsys, db, "player", "add", name)[0] == 0
    code, out, err = run(capsys, db, "publish", str(tmp_path / "site"))
    assert code == 0 and out.startswith("published 2025-2026, 2026-2027 to ")
    site = tmp_path / "site"
    assert (site / "2025-2026" / "winter" / "round-1.html").exists() and not (site / "2026-2027" / "winter").exists()
    assert (site / "2026-2027" / "zomer" / "index.html").exists()
    front = (site / "index.html").read_text(encoding="utf-8")
    assert front.index('href="2026-2027/index.html"') < front.index('href="2025-2026/index.html"')


# -- the logo and the club name -------------------------------------------------------------


def tiny_png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\0\0\0" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


TINY_JPEG = bytes.fromhex("ffd8" "ffe000104a46494600010100000100010000"  # start, JFIF header
                          "ffc00011080020004003012200021101031101" "ffd9")  # frame 64×32, end
TINY_GIF = b"GIF89a\x05\x00\x07\x00\x00\x00\x00;"
TINY_WEBP = b"RIFF" + struct.pack("<I", 22) + b"WEBPVP8L" + struct.pack("<I", 10) + b"\x2f" + \
    struct.pack("<I", (4 - 1) | ((6 - 1) << 14)) + b"\x00" * 5

HOSTILE_SVG = """<?xml version="1.0"?>
<?xml-stylesheet href="https://evil.example/x.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40"
     onload="alert('load')" OnClick="alert('click')">
  <script>alert('script')</script>
  <script xlink:href="https://evil.example/x.js"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#c8102e"/></linearGradient></defs>
  <a href="javascript:alert('a')"><rect width="40" height="40" fill="url(#g)"/></a>
  <image xlink:href="https://evil.example/track.png" width="1" height="1"/>
  <use href="#g"/>
  <circle r="5" style="fill: url('https://evil.example/p')"/>
  <style>@import url(https://evil.example/s.css);</style>
  <style>circle { stroke: red }</style>
  <set attributeName="onmouseover" to="alert('set')"/>
  <text x="1" y="9">SV &amp; Co &lt;3</text>
</svg>
"""


def test_an_svg_logo_is_cleaned_of_scripts_handlers_and_outside_references(sample, tmp_path):
    logo = tmp_path / "logo.svg"
    logo.write_text(HOSTILE_SVG, encoding="utf-8")
    store = Store.open(sample)
    with store.change("club", "club"):
        set_club(store, logo=logo)
    site = tmp_path / "site"
    publish(store, site)
    kept = (site / "static" / "logo.svg").read_text(encoding="utf-8")
    assert base64.b64decode(store.get_meta("club_logo")).decode("utf-8") == kept
    lowered = kept.lower()
    for bad in ("<script", "onload", "onclick", "onmouseover", "foreignobject", "javascript:", "evil.example",
                "@import", "xhtml", "<?xml-stylesheet"):
        assert bad not in lowered, bad
    for good in ('fill="url(#g)"', '<use href="#g"/>', "<style>circle { stroke: red }</style>",
                 "SV &amp; Co &lt;3", 'stop-color="#c8102e"', 'width="40"'):
        assert good in kept, good
    import xml.dom.minidom
    assert xml.dom.minidom.parseString(kept).documentElement.tagName == "svg"


def test_an_svg_logo_stored_by_an_older_keizer_is_cleaned_when_published(sample, tmp_path):
    from keizer.formats.logo import clean_svg

    store = Store.open(sample)
    with store.change("club", "an older keizer kept the logo as it was"):
        store.set_meta("club_logo", base64.b64encode(HOSTILE_SVG.encode("utf-8")).decode("ascii"))
        store.set_meta("club_logo_type", "svg")
    site = tmp_path / "site"
    publish(store, site)
    kept = (site / "static" / "logo.svg").read_bytes()
    assert b"<script" not in kept and b"onload" not in kept and b"evil.example" not in kept
    assert clean_svg("again", kept) == kept  # cleaning a clean logo changes nothing


@pytest.mark.parametrize("name, content, message", [
    ("logo.svg", '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                 '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>', "entities"),
    ("logo.svg", '<!DOCTYPE svg SYSTEM "http://evil.example/x.dtd"><svg xmlns="http://www.w3.org/2000/svg">'
                 '<text>&ext;</text></svg>', "entities"),
    ("logo.svg", "<svg><rect/></svg>", "not an SVG image"),
    ("logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>", "not well-formed"),
    ("logo.png", "I am only text, named like a picture.\n", "is not a PNG, JPEG, GIF or WebP image"),
    ("logo.jpg", "\xff\xd8\xff but then nothing", "is not a PNG, JPEG, GIF or WebP image"),
    ("logo.gif", "GIF89a\x00\x00\x00\x00\x00\x00\x00;", "pixels"),
    ("logo.bmp", "BM", "use a .png"),
])
def test_a_bad_logo_is_refused_in_one_line_and_the_database_is_unchanged(sample, tmp_path, capsys, name, content,
                                                                       message):
    logo = tmp_path / name
    logo.write_bytes(content.encode("latin-1") if name.endswith((".jpg", ".gif")) else content.encode("utf-8"))
    before = digest(sample)
    code, out, err = run(capsys, sample, "club", "--logo", str(logo))
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: logo ") and message in err and "Traceback" not in err
    assert digest(sample) == before


@pytest.mark.parametrize("data, kind", [(tiny_png(3, 2), "png"), (TINY_JPEG, "jpg"), (TINY_GIF, "gif"),
                                        (TINY_WEBP, "webp")])
def test_real_raster_logos_are_kept_byte_for_byte_as_the_type_they_are(sample, tmp_path, data, kind):
    logo = tmp_path / "logo.png"  # the name may say png: the bytes decide
    logo.write_bytes(data)
    store = Store.open(sample)
    with store.change("club", "club"):
        set_club(store, logo=logo)
    site = tmp_path / "site"
    publish(store, site)
    assert (site / "static" / f"logo.{kind}").read_bytes() == data
    assert f'src="static/logo.{kind}"' in (site / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("option, value", [("--name", "SV Caïssa\n<b>Fake</b>"), ("--name", "Club\rname"),
                                           ("--name", "Tab\there"), ("--season", "2025-2026\n")])
def test_a_club_name_or_season_with_a_control_character_is_refused(sample, capsys, option, value):
    before = digest(sample)
    code, _, err = run(capsys, sample, "club", option, value)
    assert code != 0 and err.count("\n") == 1 and "control character" in err
    assert digest(sample) == before


def test_a_club_name_with_quotes_accents_and_emoji_is_fine(sample, capsys):
    assert run(capsys, sample, "club", "--name", "SV \"De Toren\" Caïssa 🐴 <i>")[0] == 0
    assert Store.open(sample).get_meta("club_name") == "SV \"De Toren\" Caïssa 🐴 <i>"


# -- CSV never hands a spreadsheet a formula ---------------------------------------------------


HOSTILE_NAMES = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+31 6 1234", "-2+3", "@SUM(A1:A9)",
                 "Anna = Anna"]


def test_csv_cells_that_a_spreadsheet_would_run_get_a_quote(tmp_path, capsys):
    import csv
    import io

    db = tmp_path / "m.db"
    for name in HOSTILE_NAMES:
        assert run(capsys, db, "member", "add", "--", name)[0] == 0
    code, out, _ = run(capsys, db, "member", "list", "--format", "csv")
    assert code == 0
    names = [row["name"] for row in csv.DictReader(io.StringIO(out))]
    assert sorted(names) == sorted(["'" + n for n in HOSTILE_NAMES[:4]] + ["Anna = Anna"])
    code, out, _ = run(capsys, db, "member", "list", "--format", "json")
    assert sorted(m["name"] for m in json.loads(out)) == sorted(HOSTILE_NAMES)  # JSON is data, unchanged
    code, out, _ = run(capsys, db, "member", "list")
    assert "=HYPERLINK" in out and "'=" not in out  # so is the table


def test_csv_numbers_stay_numbers():
    from fractions import Fraction

    rows = [{"n": -3, "f": Fraction(-5, 2), "x": -1.5, "s": "-3", "d": "-2.5", "r": "-+", "m": "-1/2", "b": True}]
    assert render(rows, list(rows[0]), "csv").splitlines() == ["n,f,x,s,d,r,m,b", "-3,-5/2,-1.5,-3,-2.5,'-+,'-1/2,yes"]
    assert render([{"t": "\tx", "c": "\rx"}], ["t", "c"], "csv") == "t,c\n'\tx,'\rx"
    assert json.loads(render([{"r": "-+", "s": "=1"}], ["r", "s"], "json")) == [{"r": "-+", "s": "=1"}]
    assert render([{"r": "=1"}], ["r"], "table").splitlines()[-1] == "=1"
