"""Publishing only what changed (issue 25): a page whose inputs did not change is not rendered
again, a publish with nothing changed renders nothing, and whatever the edits in between, the
site published run after run is byte for byte the site published from scratch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import keizer.publish.render as render
from keizer.operations import competition as ops
from keizer.operations.club import set_club
from keizer.publish import live, publish
from keizer.publish.files import MANIFEST, read_previous
from keizer.publish.slugs import slugify
from keizer.store import Store
from sites import published_once

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"
INTERNE = "Interne competitie 2025-2026"
FOLDER = f"2025-2026/{slugify(INTERNE)}"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The pages rendered, as rendered (the sample club's site is rendered in the process)."""
    rendered: list[str] = []
    real = render.render_page

    def counting(env, page, context=None):
        rendered.append(page.path)
        return real(env, page, context)

    monkeypatch.setattr(render, "render_page", counting)
    return rendered


@pytest.fixture
def sample(tmp_path) -> Store:
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    return Store.open(db)


def test_an_unchanged_publish_renders_no_page(sample, tmp_path, counted):
    site = tmp_path / "site"
    first = publish(sample, site)
    assert first.rendered == len(counted) > 150
    counted.clear()
    again = publish(sample, site)
    assert (again.written, again.rendered, counted, again.unchanged) == ((), 0, [], len(first.written))
    # A change no page shows (the upload address) is a change of the database: every page's
    # inputs are looked at again, and none is rendered.
    with sample.change("club", "upload"):
        set_club(sample, upload="ftp://club@example.org/site")
    third = publish(sample, site)
    assert (third.written, third.rendered, counted) == ((), 0, [])


def test_a_page_changed_by_hand_is_made_again(sample, tmp_path, counted):
    site = tmp_path / "site"
    published_once(sample, site)
    page = site / FOLDER / "crosstable.html"
    kept = page.read_bytes()
    page.write_bytes(kept.replace(b"<main", b"<main data-x", 1))  # an edit after keizer's last run
    (site / FOLDER / "attendance.html").unlink()
    counted.clear()
    again = publish(sample, site)
    assert sorted(again.written) == [f"{FOLDER}/attendance.html", f"{FOLDER}/crosstable.html"]
    assert page.read_bytes() == kept and sorted(counted) == sorted(again.written)


def test_a_result_renders_only_the_pages_that_show_it(sample, tmp_path, counted):
    comp = sample.competition(INTERNE)["id"]
    with sample.change("pair", "pair"):
        ops.mark_attendance(sample, comp, {}, date="2026-03-31")
        ops.make_pairing(sample, comp)
    site = tmp_path / "site"
    published_once(sample, site)
    season = sample.load_season(comp)
    game = season.rounds[30].games[0]
    counted.clear()
    with sample.change("result", "result"):
        ops.enter_results(sample, comp, {1: "1-0"}, round_no=31)
    done = publish(sample, site)
    players = {f"{FOLDER}/players/{slugify(season.player(p).name)}.html" for p in (game.white, game.black)}
    assert done.rendered == len(counted) < 20
    # The round, the standings (provisional: "1 of 15 results in"), the two players' pages …
    assert {f"{FOLDER}/round-31.html", f"{FOLDER}/index.html", *players} <= set(counted)
    # … and no other player's page, no page of a complete round, no crosstable.
    assert not {p for p in counted if "/players/" in p} - players
    assert not {p for p in counted if "/round-" in p} - {f"{FOLDER}/round-31.html"}
    assert f"{FOLDER}/crosstable.html" not in counted and f"{FOLDER}/report.html" not in counted
    fresh = tmp_path / "fresh"
    publish(sample, fresh)
    assert snapshot(site) == snapshot(fresh)


def test_the_live_publish_publishes_the_current_season_only(tmp_path):
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    with store.change("competition", "an earlier season"):
        old = store.create_competition("Zomercompetitie", "classic", {}, season="2024-2025")
        store.register(old, store.add_member("Zoë Zomer"))
    assert live.current_season(store) == ("2025-2026",)
    site = tmp_path / "site"
    done = publish(store, site, seasons=live.current_season(store))
    assert done.seasons == ("2025-2026",) and not (site / "2024-2025").exists()
    everything = publish(store, site)
    assert everything.seasons == ("2025-2026", "2024-2025") and (site / "2024-2025").is_dir()
    again = publish(store, site, seasons=("2025-2026",))  # the earlier season stays, listed as keizer's
    assert (again.written, again.rendered) == ((), 0) and (site / "2024-2025" / "index.html").is_file()
    assert any(rel.startswith("2024-2025/") for rel in read_previous(site).files)


def test_two_databases_in_one_folder_each_remake_what_the_other_changed(sample, tmp_path):
    older, _ = small_club(tmp_path / "older.db", season="2024-2025")
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    published_once(sample, site)
    for store in (older, sample):
        publish(store, site)
    again = publish(older, site)  # its front page (its club's name) replaces the other's, as before
    assert "index.html" in again.written
    published_once(sample, fresh)
    publish(older, fresh)
    assert snapshot(site) == snapshot(fresh)
    assert publish(older, site).written == ()


# -- from scratch and run after run: the same site -----------------------------------------------

EDITS = st.lists(st.sampled_from(["result", "correct", "round", "attendance", "member", "setting", "language", "colour",
                                  "nothing"]),
                 min_size=1, max_size=4)


def small_club(db: Path, season: str = "2025-2026") -> tuple[Store, int]:
    store = Store.open(db, create=True)
    with store.change("setup", "setup"):
        set_club(store, name="Schaakclub Klein", season=season)
        comp = store.create_competition("Interne", "classic", {})
        for k, name in enumerate(["Anna Aap", "Bram Beer", "Cor Das", "Dirk Eend", "Eva Fret", "Fien Gans", "Gijs Haas"]):
            store.register(comp, store.add_member(name, rating=1900 - 50 * k))
        for _ in range(2):
            ops.mark_attendance(store, comp, {})
            ops.make_pairing(store, comp)
            ops.enter_results(store, comp, {b: "1-0" if b % 2 else "1/2-1/2" for b in (1, 2, 3)})
    return store, comp


def edit(store: Store, comp: int, what: str, k: int) -> None:
    season = store.load_season(comp)
    with store.change(what, what):
        if what in ("result", "round") and season.round_in_progress() is None:
            ops.mark_attendance(store, comp, {})
            ops.make_pairing(store, comp)
        elif what == "result":
            open_boards = [g.board for g in season.rounds[-1].games if g.result is None]
            ops.enter_results(store, comp, {open_boards[0]: ("1-0", "0-1", "1/2-1/2")[k % 3]})
        elif what == "attendance" and season.round_in_progress() is None:  # the next round's, before its pairing
            ops.mark_attendance(store, comp, {season.players[k % len(season.players)].id: ("excused", "club")[k % 2]})
        elif what == "correct":
            ops.enter_results(store, comp, {1: ("0-1", "1/2-1/2", "1-0")[k % 3]}, round_no=1, correct=True)
        elif what == "member":
            store.register(comp, store.add_member(f"Nieuw Lid {k}", rating=1500 + k), joined=len(season.rounds) + 1)
        elif what == "setting":
            store.update_settings(comp, {"decimals": 1 + k % 2})
        elif what == "language":
            set_club(store, language=("nl", "de", "et", "en")[k % 4])
        elif what == "colour":
            set_club(store, colour=("#7a1f1f", "#1f4e79", "#2e6b30")[k % 3])


@pytest.mark.slow  # a dozen edit sequences, each site published twice after every edit: ~30 s on a busy machine
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_published_run_after_run_is_published_from_scratch(tmp_path_factory, edits):
    folder = tmp_path_factory.mktemp("club")
    store, comp = small_club(folder / "club.db")
    site = folder / "site"
    publish(store, site)
    for k, what in enumerate(edits):
        edit(store, comp, what, k)
        publish(store, site)
        fresh = folder / f"fresh-{k}"
        publish(store, fresh)
        assert snapshot(site) == snapshot(fresh), (edits, k)
        assert (site / MANIFEST).read_bytes() == (fresh / MANIFEST).read_bytes()


def test_a_site_copied_as_set_up_is_what_a_publish_leaves(sample, tmp_path, counted):
    """tests/sites.py: a copy of a site published before in the process has the files and the
    state a real publish leaves, so the next publish goes on from it as from a real one."""
    import json

    from keizer.publish.files import state_path

    def state(site: Path) -> dict:
        return json.loads(state_path(site).read_bytes())

    real = publish(sample, tmp_path / "real")
    published_once(sample, tmp_path / "first")  # published, or copied when a test did before
    counted.clear()
    copied = published_once(sample, tmp_path / "copy")
    assert counted == [] and copied == real  # a copy, with what the publish returned
    assert snapshot(tmp_path / "copy") == snapshot(tmp_path / "real")
    assert {**state(tmp_path / "copy"), "folder": ""} == {**state(tmp_path / "real"), "folder": ""}
    assert state(tmp_path / "copy")["folder"] == str((tmp_path / "copy").resolve())
    again = publish(sample, tmp_path / "copy")
    assert (again.written, again.rendered) == ((), 0)
    page = tmp_path / "copy" / FOLDER / "crosstable.html"
    page.write_bytes(page.read_bytes().replace(b"<main", b"<main data-x", 1))  # an edit after the copy
    assert publish(sample, tmp_path / "copy").written == (f"{FOLDER}/crosstable.html",)
    # A folder that is not empty is published into, as always.
    assert published_once(sample, tmp_path / "copy").written == ()
