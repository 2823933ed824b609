"""The published site is always what a fresh publish writes: whatever a user changes between
two publishes (a member's record, the club's or a competition's settings, results,
corrections, attendance, a player's category or first round, a withdrawal, an undo), the site
published incrementally is byte for byte the site published from a copy of the same database
into an empty folder.  The pages keyed by their inputs rather than their context (player pages, the
attendance grid, the crosstable, the report, complete rounds, career pages: see
docs/publishing.md "What a page's key holds") are where a left-out input would show."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.operations import competition as ops
from keizer.operations.changes import last_change, undo
from keizer.operations.club import set_club
from keizer.operations.members import edit_member
from keizer.operations.notices import send_notice
from keizer.operations.seasons import close_season, new_season, reopen_season
from keizer.operations.setup import change_settings, set_player, set_time_control, withdraw_player
from keizer.publish import publish
from keizer.publish.files import MANIFEST
from keizer.refusals import Refusal
from keizer.settings import OWN_VALUES
from keizer.store import Store
from test_kept_command import _Cache, a_command

NAMES = ["Anna Aap", "Bram Beer", "Cor Das", "Dirk Eend", "Eva Fret"]
OLD, NEW = "Interne", "Interne 2025-2026"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _play(store: Store, comp: int, rounds: int) -> None:
    """``rounds`` rounds, dated a month apart (a FIDE rating change needs the round's date)."""
    for _ in range(rounds):
        played = len(store.load_season(comp).rounds)
        ops.mark_attendance(store, comp, {}, date=f"{2024 + (comp > 1)}-{10 + played}-0{2 + comp % 7}")
        ops.make_pairing(store, comp)
        ops.enter_results(store, comp, {1: "1-0", 2: "1/2-1/2"})


_MADE: dict[str, Path] = {}
_SET_UP: list[int] = []  # the set-up's last change: an undo goes no further back


def club(folder: Path) -> tuple[Store, int]:
    """A small club of two seasons (careers across them): last season's competition of two
    rounds, this season's of one round played and one paired, its results not in."""
    if "club" not in _MADE:
        kept = Path(tempfile.mkdtemp(prefix="keizer-keys-"))
        atexit.register(shutil.rmtree, kept, True)
        made = kept / "club.db"
        store = Store.open(made, create=True)
        with store.change("setup", "setup"):
            set_club(store, name="Schaakclub Klein", season="2024-2025")
            old = store.create_competition(OLD, "classic", {}, season="2024-2025")
            set_time_control(store, old, "90+30", "1-", None)  # the new season carries the plan over
            for k, name in enumerate(NAMES):
                store.register(old, store.add_member(name, rating=1900 - 50 * k, fide_rating=2000 - 60 * k))
            _play(store, old, 2)
        with store.change("season", "season"):
            new_season(store, OLD, "2025-2026", NEW)
            set_club(store, season="2025-2026")
        comp = store.competition(NEW)["id"]
        with store.change("play", "play"):
            _play(store, comp, 1)
            ops.mark_attendance(store, comp, {})
            ops.make_pairing(store, comp)
        _SET_UP.append(last_change(store)["id"])
        store.close()
        _MADE["club"] = made
    db = folder / "club.db"
    shutil.copy(_MADE["club"], db)
    store = Store.open(db)
    return store, store.competition(NEW)["id"]


#: Every kind of edit a user makes through the operations between two publishes.
KINDS = ["result", "correct", "pair", "attendance", "name", "rating", "fide_rating", "birth_year", "fide_k",
         "fide_id", "fed_id", "career", "category", "joined", "withdraw", "decimals", "points", "tiebreaks",
         "time_control", "club_name", "season_name", "colour", "language", "site", "evening", "national", "undo",
         "old_result", "fide_tiebreaks", "external", "close", "accent", "rating_list", "second", "date",
         "max_excused", "own_value", "noshow", "notice", "namesake",
         "withdrawn_opponent", "unpair", "swap", "latecomer", "logo"]


def edit(store: Store, comp: int, what: str, k: int) -> None:
    """One edit of kind ``what`` (``k`` varies its value); an edit the state refuses does nothing."""
    season = store.load_season(comp)
    member = store.members()[k % len(NAMES)]["name"]
    player = season.players[k % len(season.players)].id
    if what == "undo":
        change = last_change(store)
        if change and change["id"] > _SET_UP[0]:
            undo(store, change["id"])
        return
    with store.change(what, what):
        if what in ("result", "pair") and season.round_in_progress() is None:
            ops.mark_attendance(store, comp, {})
            ops.make_pairing(store, comp)
        elif what == "result":
            open_boards = [g.board for g in season.rounds[-1].games if g.result is None]
            ops.enter_results(store, comp, {open_boards[0]: ("1-0", "0-1", "1/2-1/2")[k % 3]})
        elif what == "correct":
            ops.enter_results(store, comp, {1: ("0-1", "1/2-1/2", "1-0")[k % 3]}, round_no=1, correct=True)
        elif what == "old_result":
            ops.enter_results(store, store.competition(OLD)["id"], {2: ("0-1", "1-0", "1/2-1/2")[k % 3]},
                              round_no=2, correct=True)
        elif what == "attendance" and season.round_in_progress() is None:
            ops.mark_attendance(store, comp, {player: ("excused", "club")[k % 2]})
        elif what == "name":
            edit_member(store, member, {"name": f"{member.split()[0]} Nieuw{k}"})
        elif what in ("rating", "fide_rating"):
            edit_member(store, member, {what: 1500 + 37 * k})
        elif what == "birth_year":
            edit_member(store, member, {"birth_year": 2012 - k})  # a junior's K is 40
        elif what == "fide_k":
            edit_member(store, member, {"fide_k": (10, 20, 40)[k % 3]})
        elif what in ("fide_id", "fed_id"):
            edit_member(store, member, {what: str(1000 + k)})
        elif what == "career":
            edit_member(store, member, {"career_public": k % 2 == 0})
        elif what == "category":
            set_player(store, comp, player, category=("", "A", "Jeugd")[k % 3])
        elif what == "joined" and season.round_in_progress() is None:
            set_player(store, comp, player, joined=len(season.rounds) + 1)
        elif what == "withdraw" and season.round_in_progress() is None:
            withdraw_player(store, comp, player)
        elif what == "decimals":
            change_settings(store, comp, {"decimals": str(1 + k % 2)})
        elif what == "points":
            change_settings(store, comp, {"win": ("1", "2")[k % 2]})
        elif what == "tiebreaks":
            change_settings(store, comp, {"tiebreaks": ("wins", "rating,games")[k % 2]})
        elif what == "fide_tiebreaks":
            change_settings(store, comp, {"tiebreaks": ("SB,BH", "WIN,SB")[k % 2]})
        elif what == "external" and season.round_in_progress() is None:
            ops.mark_attendance(store, comp, {}, external={player: ("win", "draw", "loss")[k % 3]})
        elif what == "close":
            (close_season if not store.system_settings(store.competition(OLD)["id"]).get("closed") else reopen_season)(
                store, "2024-2025")
        elif what == "accent":
            set_club(store, accent=("#c8102e", "#205020")[k % 2])
        elif what == "rating_list":
            change_settings(store, comp, {"rating_list": ("fide", "national")[k % 2]})
        elif what == "second":
            other = store.create_competition(f"Snelschaak {k}", "classic", {}, season="2025-2026")
            for m in store.members()[:4]:
                store.register(other, m["id"])
            _play(store, other, 1)
        elif what == "date":
            ops.mark_attendance(store, comp, {}, date=f"2026-0{1 + k % 5}-1{k}", fill=False) \
                if season.round_in_progress() is None else None
        elif what == "namesake":  # two members of one name: their pages' slugs
            other = store.members()[(k + 1) % len(NAMES)]["name"]
            edit_member(store, member, {"name": other}, allow_duplicate=True)
        elif what == "withdrawn_opponent":
            change_settings(store, comp, {"withdrawn_opponent": ("none", "1/2", "1")[k % 3]})
        elif what == "unpair" and season.round_in_progress() is not None:
            ops.unpair(store, comp)
        elif what == "swap" and season.round_in_progress() is not None:
            games = [g for g in season.rounds[-1].games if g.result is None]
            if games:
                ops.swap_players(store, comp, games[0].white, season.players[k % len(season.players)].id)
        elif what == "latecomer" and season.round_in_progress() is not None:
            absent = [p for p in season.rounds[-1].absent if season.player(p).active_in(len(season.rounds))]
            if absent:
                ops.add_latecomer(store, comp, absent[k % len(absent)])
        elif what == "logo":
            set_club(store, logo=("logo.svg", f'<svg xmlns="http://www.w3.org/2000/svg" width="{10 + k}" height="10"/>'.encode()))
        elif what == "notice":
            last = season.rounds[-1] if season.rounds else None
            if last is not None and last.date and not last.games:
                day = date.fromisoformat(last.date)
                send_notice(store, store.members()[k % len(NAMES)]["id"], last.date, day - timedelta(days=3))
        elif what in ("max_excused", "own_value"):
            change_settings(store, comp, {what: ("2", "5")[k % 2]} if what == "max_excused"
                            else {what: OWN_VALUES[k % len(OWN_VALUES)]})
        elif what == "noshow" and season.round_in_progress() is not None:
            open_boards = [g for g in season.rounds[-1].games if g.result is None]
            ops.remove_noshow(store, comp, open_boards[0].white) if open_boards else None
        elif what == "time_control":
            set_time_control(store, comp, ("90+30", "60+10")[k % 2], None, 1)
        elif what == "club_name":
            set_club(store, name=("Schaakclub Groot", "SC Klein")[k % 2])
        elif what == "season_name":
            set_club(store, season=("2025-2026", "2024-2025")[k % 2])
        elif what == "colour":
            set_club(store, colour=("#7a1f1f", "#1f4e79", "#2e6b30")[k % 3])
        elif what == "language":
            set_club(store, language=("nl", "de", "et", "en")[k % 4])
        elif what == "site":
            set_club(store, site=("https://schaak.example.nl/", "")[k % 2])
        elif what == "evening":
            set_club(store, evening_time=("20:00", "19:30-23:00", "")[k % 3])
        elif what == "national":
            set_club(store, national_rating=("dwz", "ecf", "")[k % 3])


def copied(store: Store, db: Path) -> Store:
    """The database in a file of its own: what this process keeps of a file (its rounds read,
    standings, careers, the digests taken of them) is not this copy's, so publishing it is
    publishing from scratch as a new process does."""
    target = sqlite3.connect(db)
    store.conn.backup(target)
    target.close()
    return Store.open(db)


def check(folder: Path, edits: list[tuple[str, int]] | list[tuple[str, int, bool]], commands: bool = False) -> None:
    """Publish, then after each edit (with a third value False: after the next edit with it True,
    or the last) publish again (``commands``: each publish a ``keizer
    publish`` of its own, a new process taking what the last one left in the cache folder) and
    compare with a fresh publish of a copy of the database into an empty folder."""
    store, comp = club(folder)
    site = folder / "site"
    publish(store, site)
    for n, (what, k, *now) in enumerate(edits):
        try:
            edit(store, comp, what, k)
        except Refusal:  # the state does not allow it: nothing written
            pass
        if now and not now[0] and n + 1 < len(edits):
            continue
        if commands:
            store.close()
            with _Cache(folder / "cache"):
                store = a_command(folder / "club.db", site)
        else:
            publish(store, site)
        fresh = folder / f"fresh-{n}"
        copy = copied(store, folder / f"fresh-{n}.db")
        publish(copy, fresh)
        copy.close()
        made, expected = snapshot(site), snapshot(fresh)
        wrong = sorted(p for p in made.keys() | expected.keys() if made.get(p) != expected.get(p))
        assert not wrong, (edits[:n + 1], wrong)
        assert (site / MANIFEST).read_bytes() == (fresh / MANIFEST).read_bytes()
        shutil.rmtree(fresh)
    store.close()


#: An edit: its kind, a number varying it, and whether the site is published after it.
EDIT = st.tuples(st.sampled_from(KINDS), st.integers(0, 5), st.booleans())
EDITS = st.lists(EDIT, min_size=1, max_size=3)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_an_incremental_publish_is_a_fresh_publish(tmp_path_factory, edits):
    check(tmp_path_factory.mktemp("keys"), edits)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDIT, min_size=1, max_size=6))
def test_an_incremental_publish_is_a_fresh_publish_after_many_edits(tmp_path_factory, edits):
    check(tmp_path_factory.mktemp("keys"), edits)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDIT, min_size=1, max_size=5))
def test_each_publish_a_command_of_its_own_is_a_fresh_publish(tmp_path_factory, edits):
    check(tmp_path_factory.mktemp("keys"), edits, commands=True)


@pytest.mark.slow  # some forty sites published three times each: ~10 s
@pytest.mark.parametrize("what", KINDS)
def test_each_kind_of_edit_is_published(tmp_path, what):
    """Every kind once, after the others' examples: each is what a fresh publish writes."""
    check(tmp_path, [(what, 1)])


def test_a_notice_of_absence_is_published(tmp_path):
    """A notice sent through a member's link for the next round's date: his player page and
    member page say so (``next``, in the player page's inputs), as a fresh publish does."""
    check(tmp_path, [("result", 0), ("result", 1), ("date", 3), ("notice", 1)])
