"""Edits that must never rewrite the past: frozen ratings and initial order, first rounds,
attendance nobody marked, latecomers and no-shows, round dates, reinstatements, caps,
presets and what an export says it is."""

from __future__ import annotations

import json
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import DATA, built_once, examples, scores, season
from keizer.operations import competition as ops
from keizer.scoring import compute_standings
from keizer.settings import Settings
from keizer.store import Store
from test_cli import digest, run, standings_json


def ok(capsys, db, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def refused(capsys, db, *args: str, match: str) -> str:
    before = digest(db)
    code, out, err = run(capsys, db, *args)
    assert code == 1 and "Traceback" not in err, err
    line = err.strip()
    assert "\n" not in line and match in line, line
    assert digest(db) == before
    return line


@pytest.fixture
def five(tmp_path, tmp_path_factory, capsys):
    """Five rated members in a Keizer competition (top 10, so values 10, 9, 8, 7, 6)."""
    def build(db: Path) -> None:
        for name, rating in [("Anna", 1900), ("Bram", 1800), ("Cor", 1700), ("Dirk", 1600), ("Eva", 1500)]:
            ok(capsys, db, "member", "add", name, "--rating", str(rating))
        ok(capsys, db, "competition", "create", "Interne", "--all-members", "--set", "top=10")

    return built_once("past.five", build, tmp_path, tmp_path_factory)


def table(capsys, db, *extra) -> list[tuple[str, str]]:
    return [(r["name"], r["score_exact"]) for r in standings_json(capsys, db, *extra)]


# -- ratings and the initial order freeze when round 1 is paired ---------------------------------


def test_a_new_rating_after_round_1_changes_no_standing(five, capsys, tmp_path):
    ok(capsys, five, "attend", "-e", "Eva")
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=0-1")
    before = table(capsys, five)
    # Eva (1500) becomes the strongest; a rating list would make Bram the weakest.
    ok(capsys, five, "member", "edit", "Eva", "--rating", "2400")
    listing = tmp_path / "ratings.csv"
    listing.write_text("naam;rating\nBram;1000\n", encoding="utf-8")
    ok(capsys, five, "member", "import", str(listing))
    assert table(capsys, five) == before
    assert table(capsys, five, "--round", "0") == [("Anna", "10"), ("Bram", "9"), ("Cor", "8"), ("Dirk", "7"),
                                                    ("Eva", "6")]
    # The member list shows the new ratings; the competition keeps the ones it started with.
    players = {r["name"]: r["rating"] for r in json.loads(ok(capsys, five, "player", "list", "--format", "json"))}
    assert players == {"Anna": 1900, "Bram": 1800, "Cor": 1700, "Dirk": 1600, "Eva": 1500}


def test_before_round_1_a_new_rating_still_counts(five, capsys):
    ok(capsys, five, "member", "edit", "Eva", "--rating", "2400")
    assert [r["name"] for r in standings_json(capsys, five)][0] == "Eva"


def test_undoing_the_first_pairing_unfreezes(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "undo")
    ok(capsys, five, "member", "edit", "Eva", "--rating", "2400")
    assert [r["name"] for r in standings_json(capsys, five)][0] == "Eva"


def test_a_late_entrant_comes_after_the_frozen_order_and_changes_no_past_standing(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    before = table(capsys, five)  # top=10 is fixed: a longer ladder changes no value
    for name, rating in [("Fien", "1750"), ("Gijs", "2200")]:
        ok(capsys, five, "member", "add", name, "--rating", rating)
    code, _, err = run(capsys, five, "player", "add", "Fien", "Gijs")
    assert code == 0 and err.strip() == "note: entered after round 1, so placed at the bottom of the initial order"
    order = json.loads(ok(capsys, five, "competition", "order", "--format", "json"))
    assert [(r["name"], r["placed"]) for r in order] == [
        ("Anna", "rating"), ("Bram", "rating"), ("Cor", "rating"), ("Dirk", "rating"), ("Eva", "rating"),
        ("Gijs", "entered later"), ("Fien", "entered later")]  # after everyone, by their rating at entry
    after = dict(table(capsys, five))
    assert all(after[name] == score for name, score in before)
    ok(capsys, five, "member", "edit", "Fien", "--rating", "2400")
    order = json.loads(ok(capsys, five, "competition", "order", "--format", "json"))
    assert [r["name"] for r in order][-2:] == ["Gijs", "Fien"]


def test_with_an_automatic_top_the_officer_is_told_that_the_ladder_grows(tmp_path, capsys):
    db = tmp_path / "auto.db"
    for name in ("Anna", "Bram", "Cor"):
        ok(capsys, db, "member", "add", name)
    ok(capsys, db, "competition", "create", "Interne", "--all-members")
    ok(capsys, db, "pair")
    ok(capsys, db, "member", "add", "Dirk")
    code, _, err = run(capsys, db, "player", "add", "Dirk")
    assert code == 0 and "with top=auto every value changes" in err


def test_unpairing_round_1_unfreezes_the_order(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "unpair")
    ok(capsys, five, "competition", "order", "Eva")
    ok(capsys, five, "member", "edit", "Dirk", "--rating", "2500")
    ok(capsys, five, "pair")
    order = json.loads(ok(capsys, five, "competition", "order", "--format", "json"))
    assert [r["name"] for r in order][:2] == ["Eva", "Dirk"]


def test_a_new_player_joins_the_round_being_prepared_or_later(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    ok(capsys, five, "member", "add", "Fien")
    refused(capsys, five, "player", "add", "Fien", "--joined", "1", match="round 1 has been played")
    ok(capsys, five, "player", "add", "Fien", "--joined", "3")
    refused(capsys, five, "player", "set", "Fien", "--joined", "1", match="round 1 has been played without Fien")


def test_the_initial_order_set_by_hand_and_frozen(five, capsys):
    out = ok(capsys, five, "competition", "order")
    assert "by rating" in out and "can change" in out
    ok(capsys, five, "competition", "order", "Eva", "Dirk")
    order = json.loads(ok(capsys, five, "competition", "order", "--format", "json"))
    assert [(r["name"], r["placed"]) for r in order] == [("Eva", "set"), ("Dirk", "set"), ("Anna", "rating"),
                                                         ("Bram", "rating"), ("Cor", "rating")]
    assert table(capsys, five, "--round", "0")[0] == ("Eva", "10")
    assert "initial order by hand" in ok(capsys, five, "log")
    ok(capsys, five, "pair")
    assert "frozen" in ok(capsys, five, "competition", "order")
    refused(capsys, five, "competition", "order", "--by", "rating", match="frozen")
    refused(capsys, five, "competition", "order", "Anna", match="frozen")


def test_order_by_hand_refuses_a_player_twice_and_undo_restores(five, capsys):
    refused(capsys, five, "competition", "order", "Eva", "Eva", match="listed twice")
    before = content(five)
    ok(capsys, five, "competition", "order", "Cor")
    ok(capsys, five, "undo")
    assert content(five) == before


def test_order_by_last_seasons_standing(five, capsys):
    ok(capsys, five, "pair")  # last season: Anna–Bram, Cor–Dirk, Eva bye; the weaker ones win
    ok(capsys, five, "result", "1=0-1", "2=0-1")
    last = [r["name"] for r in standings_json(capsys, five)]
    ok(capsys, five, "competition", "create", "Next", "--all-members")
    ok(capsys, five, "member", "add", "Gijs", "--rating", "2000")
    ok(capsys, five, "player", "add", "Gijs")
    ok(capsys, five, "competition", "order", "--by", "standing", "--from", "Interne")
    order = json.loads(ok(capsys, five, "-c", "Next", "competition", "order", "--format", "json"))
    assert [r["name"] for r in order] == last + ["Gijs"]  # not in last season's standing: after it, by rating
    refused(capsys, five, "competition", "order", "--by", "standing", "--from", "Next", match="own standing")
    refused(capsys, five, "competition", "order", "--by", "standing", match="--from")


def test_schema_5_freezes_the_ratings_of_an_older_file(tmp_path, capsys):
    db = tmp_path / "old.db"
    shutil.copy(DATA / "schema-v1.db", db)
    before = standings_json(capsys, db)  # opens, upgrades to schema 5 and freezes
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 5
        members = conn.execute("SELECT id FROM members").fetchall()
        conn.execute("UPDATE members SET rating = 3000 - rating WHERE rating IS NOT NULL")
    assert members and standings_json(capsys, db) == before


# -- player set --joined -------------------------------------------------------------------------


def test_joined_cannot_erase_a_game_a_bye_or_attendance(five, capsys):
    ok(capsys, five, "attend", "-e", "Eva")
    ok(capsys, five, "pair")  # Anna–Bram, Cor–Dirk, nobody has the bye (Eva excused)
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    refused(capsys, five, "player", "set", "Anna", "--joined", "2", match="Anna has a game in round 1")
    refused(capsys, five, "player", "set", "Eva", "--joined", "3", match="Eva has attendance (excused) in round 1")
    ok(capsys, five, "attend", "-u", "Anna", "-u", "Cor")
    ok(capsys, five, "pair")  # round 2: Bram, Dirk, Eva present: one bye
    bye = next(r for r in json.loads(ok(capsys, five, "attendance", "--format", "json")) if r["status"] == "bye")
    ok(capsys, five, "result", "1=1-0")
    line = refused(capsys, five, "player", "set", bye["name"], "--joined", "3", match="round 1")
    assert bye["name"] in line
    ok(capsys, five, "player", "set", "Anna", "--joined", "1")  # no change of the past: allowed


def test_joined_is_refused_after_a_withdrawal(five, capsys):
    ok(capsys, five, "player", "withdraw", "Dirk")
    refused(capsys, five, "player", "set", "Dirk", "--joined", "2", match="withdrew after round 0")


def test_a_late_entrant_can_move_the_first_round_while_nothing_stands_in_the_way(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    ok(capsys, five, "member", "add", "Fien")
    ok(capsys, five, "player", "add", "Fien", "--joined", "3")
    ok(capsys, five, "player", "set", "Fien", "--joined", "4")
    ok(capsys, five, "player", "set", "Fien", "--joined", "2")


def test_marks_nobody_made_do_not_stand_in_the_way(five, capsys):
    """A withdrawal fills the next round's defaults; a new player's mark there is no past."""
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    ok(capsys, five, "member", "add", "Fien")
    ok(capsys, five, "player", "add", "Fien")
    ok(capsys, five, "player", "withdraw", "Eva")  # marks round 2's defaults, Fien present
    ok(capsys, five, "player", "set", "Fien", "--joined", "3")
    marks = {r["name"]: r["status"] for r in json.loads(ok(capsys, five, "attendance", "--format", "json"))}
    assert "Fien" not in marks or marks["Fien"] != "present"


# -- pairing a round nobody marked ------------------------------------------------------------------


def test_pairing_without_attendance_says_who_was_assumed_present(five, capsys):
    code, out, err = run(capsys, five, "pair")
    assert code == 0
    assert err.strip() == "no attendance marked for round 1: all 5 active players assumed present"


def test_pairing_without_attendance_is_refused_when_players_are_absent_by_default(five, capsys):
    ok(capsys, five, "competition", "settings", "--set", "default_attendance=absent")
    refused(capsys, five, "pair", match="no attendance is marked for round 1")
    ok(capsys, five, "attend", "-p", "Anna", "-p", "Bram")
    code, out, err = run(capsys, five, "pair")
    assert code == 0 and err == ""


def test_a_player_absent_by_own_default_is_counted_apart(five, capsys):
    ok(capsys, five, "player", "set", "Eva", "--default", "absent")
    code, _, err = run(capsys, five, "pair")
    assert code == 0 and "4 of 5 active players assumed present" in err


# -- latecomers and no-shows --------------------------------------------------------------------------


def content(db) -> list[str]:
    """The database's rows, without the change log and the rounds' stamps (an undo restores
    these exactly; it stamps the rounds it writes anew, docs/database.md)."""
    with sqlite3.connect(db) as conn:
        return [line for line in conn.iterdump()
                if not line.startswith(('INSERT INTO "changes"', 'INSERT INTO "undo_log"', 'INSERT INTO "round_stamps"'))]


def paired(db) -> dict:
    """The stored open round: board → (White, Black), who has the bye, each player's status."""
    games = {}
    with sqlite3.connect(db) as conn:
        names = dict(conn.execute("SELECT p.id, m.name FROM players p JOIN members m ON m.id = p.member_id"))
        for board, white, black in conn.execute("SELECT board, white, black FROM games ORDER BY round DESC, board"):
            games.setdefault(board, (names[white], names[black]))
        bye = [names[p] for (p,) in conn.execute("SELECT player_id FROM attendance WHERE status = 'bye'")]
        status = dict((names[p], s) for p, s in conn.execute("SELECT player_id, status FROM attendance"))
    return {"boards": games, "bye": bye, "status": status}


def test_a_latecomer_plays_the_bye_and_every_other_board_stays(five, capsys):
    ok(capsys, five, "member", "add", "Fien", "--rating", "1400")
    ok(capsys, five, "player", "add", "Fien")
    ok(capsys, five, "attend", "-u", "Fien")
    ok(capsys, five, "pair")
    before = paired(five)
    assert len(before["bye"]) == 1
    out = ok(capsys, five, "late", "Fien")
    after = paired(five)
    assert after["bye"] == []
    assert {b: after["boards"][b] for b in before["boards"]} == before["boards"]
    new = set(after["boards"]) - set(before["boards"])
    assert new == {max(before["boards"]) + 1}
    assert set(after["boards"][new.pop()]) == {"Fien", before["bye"][0]}
    assert "Fien plays" in out and "who had the bye" in out
    refused(capsys, five, "late", "Fien", match="already paired")


def test_a_latecomer_takes_the_bye_when_nobody_had_it(five, capsys):
    ok(capsys, five, "attend", "-u", "Eva")
    ok(capsys, five, "pair")
    before = paired(five)
    assert "gets the bye" in ok(capsys, five, "late", "Eva")
    after = paired(five)
    assert after["boards"] == before["boards"] and after["bye"] == ["Eva"]


def test_a_no_show_leaves_the_opponent_with_the_bye_player_or_the_bye(five, capsys):
    ok(capsys, five, "pair")  # Anna–Bram, Cor–Dirk, Eva bye
    before = paired(five)
    (board, pair), = [(b, p) for b, p in before["boards"].items() if "Anna" in p]
    opponent = next(n for n in pair if n != "Anna")
    ok(capsys, five, "noshow", "Anna")
    after = paired(five)
    assert after["status"]["Anna"] == "unexcused" and after["bye"] == []
    assert set(after["boards"][board]) == {opponent, before["bye"][0]}
    assert {b: p for b, p in after["boards"].items() if b != board} == \
           {b: p for b, p in before["boards"].items() if b != board}
    # A second no-show, now with nobody on the bye: the opponent takes it.
    other = next(b for b in after["boards"] if b != board)
    leaving, staying = after["boards"][other]
    ok(capsys, five, "noshow", leaving, "--excused")
    last = paired(five)
    assert other not in last["boards"] and last["bye"] == [staying] and last["status"][leaving] == "excused"


def test_a_no_show_with_a_result_is_refused_and_both_are_undoable(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0")
    refused(capsys, five, "noshow", "#1", match="has a result already")
    before = content(five)
    name = paired(five)["boards"][2][0]
    ok(capsys, five, "noshow", name)
    ok(capsys, five, "undo")
    assert content(five) == before


def test_late_and_noshow_need_a_paired_round(five, capsys):
    refused(capsys, five, "late", "Eva", match="not paired yet")
    refused(capsys, five, "noshow", "Eva", match="not paired yet")


# -- dates, reinstatement --------------------------------------------------------------------------------


def test_round_dates_out_of_order_are_refused_unless_forced(five, capsys):
    ok(capsys, five, "attend", "--date", "2026-09-08")
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    refused(capsys, five, "attend", "--date", "2026-09-01", match="before round 1 (2026-09-08)")
    ok(capsys, five, "attend", "--date", "2026-09-01", "--force")
    refused(capsys, five, "attend", "--round", "1", "--date", "2026-09-15", match="after round 2 (2026-09-01)")


def test_reinstate_undoes_a_withdrawal(five, capsys):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    ok(capsys, five, "player", "withdraw", "Dirk")
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    refused(capsys, five, "player", "reinstate", "Anna", match="has not withdrawn")
    out = ok(capsys, five, "player", "reinstate", "Dirk", "--missed", "excused")
    assert out.strip() == "Dirk takes part again; round 2 counts as an excused absence"
    dirk = next(r for r in standings_json(capsys, five) if r["name"] == "Dirk")
    assert dirk["excused"] == 1
    players = {r["name"]: r for r in json.loads(ok(capsys, five, "player", "list", "--format", "json"))}
    assert players["Dirk"]["withdrawn_after"] is None


def test_reinstating_before_any_later_round_changes_nothing_else(five, capsys):
    before = standings_json(capsys, five)
    ok(capsys, five, "player", "withdraw", "Dirk")
    assert ok(capsys, five, "player", "reinstate", "Dirk").strip() == "Dirk takes part again"
    assert standings_json(capsys, five) == before


# -- caps, presets, exports -------------------------------------------------------------------------------


def test_club_duty_beyond_its_cap_counts_as_excused_then_unexcused():
    # p1 on club duty in rounds 1–3; two paid (2/3), the third as excused (1/3) — or, with
    # max_excused 0 as well, as unexcused (0).  p2 has a bye worth nothing, so p1 stays
    # first and his own value 10.
    rounds = [{"absent": {"p1": "club"}, "bye": ["p2"]}] * 3

    def points(**extra) -> Fraction:
        s = season(n=2, rounds=rounds, settings={"top": 10, "bye": 0, **extra})
        return scores(compute_standings(s)[3])["p1"] - 10

    assert points() == 3 * Fraction(2, 3) * 10
    assert points(max_club=2) == (2 * Fraction(2, 3) + Fraction(1, 3)) * 10
    assert points(max_club=2, max_excused=0) == 2 * Fraction(2, 3) * 10
    assert points(max_club=0) == 3 * Fraction(1, 3) * 10


def test_max_club_is_a_setting(five, capsys):
    ok(capsys, five, "competition", "settings", "--set", "max_club=3")
    refused(capsys, five, "competition", "settings", "--set", "max_club=-1", match="max_club")


def test_the_sharly_preset_matches_sharly_chess_defaults():
    s = Settings.from_preset("sharly")
    # Every bye a third of one's own value, an absence without a bye nothing, no rematches.
    assert (s.excused, s.bye, s.club, s.unexcused) == (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3), 0)
    assert s.max_meetings == 1 and s.own_value == "current" and s.top_rounding == "down"


def test_a_keizer_season_in_trf_is_not_labelled_swiss(five, capsys, tmp_path):
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=1-0", "2=1-0")
    text = ok(capsys, five, "export", "--format", "trf")
    record = [line for line in text.splitlines() if line.startswith("092")]
    assert record == ["092 Individual: Keizer (club competition; game points only)"]


def test_a_competition_keeps_the_season_it_was_created_in(five, capsys):
    with sqlite3.connect(five) as conn:
        created, season_name = conn.execute("SELECT created, season FROM competitions").fetchone()
    first = int(created[:4]) if int(created[5:7]) >= 8 else int(created[:4]) - 1
    assert season_name == f"{first}-{first + 1}"
    ok(capsys, five, "attend", "--date", f"{first + 1}-01-05")
    with sqlite3.connect(five) as conn:
        assert conn.execute("SELECT season FROM competitions").fetchone()[0] == season_name


# -- a property: after round 1, no rating change moves any standing -------------------------------


@hsettings(max_examples=examples(40), deadline=None)
@given(players=st.integers(3, 9), rounds=st.integers(1, 4), data=st.data())
def test_no_rating_change_after_round_1_moves_a_standing(players, rounds, data):
    store = Store.memory()
    with store.change("setup", "setup"):
        comp = store.create_competition("C", "classic", {})
        members = [store.add_member(f"P{i}", data.draw(st.none() | st.integers(0, 4000))) for i in range(players)]
        for m in members:
            store.register(comp, m)
    for _ in range(rounds):
        with store.change("round", "round"):
            ops.make_pairing(store, comp)
            number = ops.open_round(store.load_season(comp)).number
            boards = [g["board"] for g in store.games(comp, number)]
            ops.enter_results(store, comp, {b: data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-"]))
                                            for b in boards})
    before = compute_standings(store.load_season(comp))
    with store.change("ratings", "a new rating list"):
        for m in members:
            store.update_member(m, rating=data.draw(st.none() | st.integers(0, 4000)))
    assert compute_standings(store.load_season(comp)) == before


def test_a_competition_can_be_created_in_or_moved_to_another_season(five, capsys, tmp_path):
    ok(capsys, five, "competition", "create", "Zomer", "--season", "2027-2028")
    seasons = {r["name"]: r["season"] for r in json.loads(ok(capsys, five, "competition", "list", "--format", "json"))}
    assert seasons["Zomer"] == "2027-2028"
    site = tmp_path / "site"
    ok(capsys, five, "publish", str(site))
    assert (site / "2027-2028").is_dir()
    assert ok(capsys, five, "-c", "Zomer", "competition", "season", "2028-2029").strip() == \
        "Zomer belongs to season 2028-2029"
    ok(capsys, five, "publish", str(site))
    assert (site / "2028-2029" / "zomer").is_dir()
    assert json.loads((site / "seasons.json").read_text())["2028-2029"] == "2028-2029"
    refused(capsys, five, "competition", "season", "2026\n2027", match="control characters")


def test_an_import_after_a_rating_list_reuses_the_members_and_keeps_the_files_ratings(five, capsys, tmp_path):
    ok(capsys, five, "attend", "-e", "Eva")
    ok(capsys, five, "pair")
    ok(capsys, five, "result", "1=0-1", "2=1/2-1/2")
    exported = tmp_path / "season.json"
    ok(capsys, five, "export", "-o", str(exported))
    before = table(capsys, five)
    ok(capsys, five, "member", "edit", "Anna", "--rating", "1200")  # a new rating list since
    out = ok(capsys, five, "import", str(exported), "--name", "Again")
    assert "new member" not in out
    assert len(json.loads(ok(capsys, five, "member", "list", "--format", "json"))) == 5
    assert [(r["name"], r["score_exact"]) for r in standings_json(capsys, five)] == before  # 'Again' is in use
