"""keizer season new / list / close / reopen: the next season, and a closed season refuses writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_cli import ROOT, bad, run

from keizer.operations import competition as comp_ops
from keizer.store import Store

OLD = "Interne competitie 2025-2026"
NEW = "Interne competitie 2026-2027"
REOPEN = "keizer season reopen 2025-2026"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A copy of the demo club: a Keizer season of 30 rounds (one player withdrawn, a
    forbidden pair), a Swiss, a round-robin group and a cup, all in season 2025-2026."""
    db = tmp_path / "club.db"
    shutil.copy(ROOT / "sample_club.db", db)
    return db


def standing(capsys, db: Path, comp: str) -> list[dict]:
    code, out, err = run(capsys, db, "-c", comp, "standings", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def order_names(capsys, db: Path, *comp: str) -> list[str]:
    code, out, err = run(capsys, db, *comp, "competition", "order", "--format", "json")
    assert code == 0, err
    return [row["name"] for row in json.loads(out)]


def last_season(db: Path) -> tuple[list[str], dict[str, int | None], set[str]]:
    """The source's final standing (names), every member's rating now, and who withdrew."""
    store = Store.open(db)
    try:
        source = store.competition(OLD)
        names = {m["id"]: m["name"] for m in store.members()}
        ranking = [names[m] for m in comp_ops.final_ranking(store, source["id"])]
        ratings = {m["name"]: m["rating"] for m in store.members()}
        withdrawn = {p["name"] for p in store.players(source["id"]) if p["withdrawn_after"] is not None}
    finally:
        store.close()
    return ranking, ratings, withdrawn


def test_new_season_by_standing_carries_players_settings_and_rules(sample, capsys):
    code, out, err = run(capsys, sample, "-c", OLD, "competition", "settings", "--set", "top=70")
    assert code == 0, err
    code, out, err = run(capsys, sample, "-c", OLD, "timecontrol", "classical 90+30", "--rounds", "1-")
    assert code == 0, err
    ranking, _, withdrawn = last_season(sample)
    assert withdrawn  # the demo has a withdrawn player: she stays out
    code, out, err = run(capsys, sample, "season", "new", "2026-2027", "--from", OLD)
    assert code == 0, err
    assert f"created {NEW} (season 2026-2027)" in out
    assert f"players: {len(ranking) - len(withdrawn)} carried over" in out
    assert "left out, withdrawn last season: " + ", ".join(sorted(withdrawn)) in out
    assert "initial order by the standing of " + OLD in out
    # The new competition is the one in use, in the new season, with the same settings.
    assert order_names(capsys, sample) == [n for n in ranking if n not in withdrawn]
    _, new_settings, _ = run(capsys, sample, "competition", "settings", "--format", "json")
    _, old_settings, _ = run(capsys, sample, "-c", OLD, "competition", "settings", "--format", "json")
    assert json.loads(new_settings) == json.loads(old_settings) and json.loads(new_settings)["top"] == 70
    store = Store.open(sample)
    try:
        new, old = store.competition(NEW), store.competition(OLD)
        assert new["season"] == "2026-2027" and old["season"] == "2025-2026"
        assert (new["preset"], new["overrides"]) == (old["preset"], old["overrides"])
        assert store.time_control_plan(new["id"]) == store.time_control_plan(old["id"])
        name = {p["key"]: p["name"] for comp in (new, old) for p in store.players(comp["id"])}
        assert {frozenset(map(name.get, pair)) for pair in store.forbidden_pairs(new["id"])} == \
            {frozenset(map(name.get, pair)) for pair in store.forbidden_pairs(old["id"])} != set()
        # Start numbers follow the initial order; nobody has played yet.
        assert [p["name"] for p in store.players(new["id"])] == order_names(capsys, sample)
        assert not store.started(new["id"]) and all(p["joined"] == 1 for p in store.players(new["id"]))
    finally:
        store.close()


def test_new_season_by_rating(sample, capsys):
    _, ratings, withdrawn = last_season(sample)
    code, out, err = run(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--order", "rating",
                         "--with-withdrawn", "--name", "Interne '26–'27 <b>♞</b>")
    assert code == 0, err
    assert "initial order by rating" in out and "left out" not in out
    names = order_names(capsys, sample)
    assert withdrawn <= set(names)
    assert [ratings[n] or 0 for n in names] == sorted((ratings[n] or 0 for n in names), reverse=True)
    assert len(standing(capsys, sample, "Interne '26–'27 <b>♞</b>")) == len(names)


def test_standing_and_standing_plus_rating_place_newcomers_differently(sample, capsys):
    ranking, ratings, withdrawn = last_season(sample)
    returning = [n for n in ranking if n not in withdrawn]
    for name, rating in [("Nieuw Sterk", "2100"), ("Nieuw Zwak", "900"), ("Nieuw Onbekend", None)]:
        assert run(capsys, sample, "member", "add", name, *(["--rating", rating] if rating else []))[0] == 0
    ratings |= {"Nieuw Sterk": 2100, "Nieuw Zwak": 900, "Nieuw Onbekend": None}
    code, out, err = run(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--all-members")
    assert code == 0, err
    assert "3 newcomers" in out
    # standing: last season's players first, newcomers after them by rating (the unrated last).
    assert order_names(capsys, sample) == returning + ["Nieuw Sterk", "Nieuw Zwak", "Nieuw Onbekend"]

    assert run(capsys, sample, "undo")[0] == 0
    code, out, err = run(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--all-members",
                         "--order", "standing+rating")
    assert code == 0, err
    assert "newcomers by rating" in out
    names = order_names(capsys, sample)
    assert [n for n in names if not n.startswith("Nieuw")] == returning  # last season's order kept
    strong = names.index("Nieuw Sterk")
    # Just above the first of last season's players rated lower, below everyone rated higher before it.
    assert (ratings[names[strong + 1]] or 0) < 2100
    assert all(ratings[n] is None or ratings[n] >= 2100 for n in names[:strong])
    assert 0 < strong < len(returning)
    weak = names.index("Nieuw Zwak")
    assert all(ratings[n] is None or ratings[n] >= 900 for n in names[:weak])
    assert names[weak + 1] == "Nieuw Onbekend" or (ratings[names[weak + 1]] or 0) < 900
    assert names[-1] == "Nieuw Onbekend"


def test_new_season_refusals(sample, capsys):
    bad(capsys, sample, "season", "new", "2025-2026", "--from", OLD, match="belongs to season 2025-2026 already")
    bad(capsys, sample, "season", "new", "2026-2027", "--from", "Meerkamp A", match="roundrobin competition")
    bad(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--name", "Meerkamp A", match="exists already")
    bad(capsys, sample, "season", "new", "2026-2027", "--from", "Nergens", match="competition")
    bad(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--order", "lot", match="--order")


def test_season_list(sample, capsys):
    assert run(capsys, sample, "season", "new", "2026-2027", "--from", OLD)[0] == 0
    assert run(capsys, sample, "season", "close", "2025-2026")[0] == 0
    code, out, err = run(capsys, sample, "season", "list", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["season"], r["current"], r["status"]) for r in rows] == \
        [("2026-2027", True, "open"), ("2025-2026", False, "closed")]
    assert [c["name"] for c in rows[1]["competitions"]] == \
        [OLD, "Rapidtoernooi 2025", "Meerkamp A", "Clubbeker 2025-2026"]
    code, out, err = run(capsys, sample, "season", "list", "--format", "csv")
    assert out.splitlines()[0] == "season,current,status,competitions"
    assert out.splitlines()[2].startswith("2025-2026,,closed,")
    code, out, err = run(capsys, sample, "season", "list")
    assert code == 0 and "2026-2027  yes" in out


#: A writing command on each closed competition of the demo (with -c), one per kind of change.
WRITES = [
    (OLD, "result", "--round", "30", "--correct", "1=0-1"),
    (OLD, "attend", "-e", "Lotte"),
    (OLD, "pair"),
    (OLD, "unpair"),
    (OLD, "player", "withdraw", "Lotte"),
    (OLD, "player", "set", "Lotte", "--category", "A"),
    (OLD, "player", "add", "Olga"),
    (OLD, "competition", "settings", "--set", "top=70"),
    (OLD, "competition", "order", "--by", "rating"),
    (OLD, "competition", "season", "2024-2025"),
    (OLD, "timecontrol", "rapid 25+10", "--rounds", "1-"),
    (OLD, "forbid", "Lotte", "Roos"),
    ("Rapidtoernooi 2025", "swiss", "rounds", "9"),
    ("Meerkamp A", "roundrobin", "draw"),
    ("Meerkamp A", "competition", "settings", "--set", "lots=3"),
    ("Clubbeker 2025-2026", "knockout", "next"),
]


def test_closed_season_refuses_every_write_with_one_line(sample, capsys):
    before = standing(capsys, sample, OLD)
    code, out, err = run(capsys, sample, "season", "close", "2025-2026")
    assert code == 0, err
    assert "closed season 2025-2026" in out and REOPEN in out
    for comp, *args in WRITES:
        bad(capsys, sample, "-c", comp, *args, match=f"error: {comp} is closed (season 2025-2026 is over: "
                                                    f"its standings are final); reopen it with '{REOPEN}'")
    code, _, err = run(capsys, sample, "-c", OLD, "result", "--round", "30", "--correct", "1=0-1")
    assert code == 1 and err == f"error: {OLD} is closed (season 2025-2026 is over: its standings are final); " \
                               f"reopen it with '{REOPEN}'\n"
    # Reading goes on as before: the standing is final.
    assert standing(capsys, sample, OLD) == before
    assert run(capsys, sample, "-c", OLD, "history", "Lotte")[0] == 0
    # Using a closed competition (to read it) is no change to it.
    assert run(capsys, sample, "competition", "use", OLD)[0] == 0
    # Last season's closed competition is where the next one starts from.
    code, out, err = run(capsys, sample, "season", "new", "2026-2027", "--from", OLD)
    assert code == 0 and "players: 40 carried over" in out, err


def test_closed_team_event_refuses_writes(tmp_path, capsys):
    db = tmp_path / "club.db"
    for name in ("Anna", "Bram", "Cor", "Dirk"):
        assert run(capsys, db, "member", "add", name)[0] == 0
    assert run(capsys, db, "competition", "create", "Viertal", "--system", "team", "--boards", "2",
               "--all-members", "--season", "2025-2026")[0] == 0
    assert run(capsys, db, "season", "close")[0] == 0  # default: the season of the competition in use
    bad(capsys, db, "team", "add", "Wit", "--board", "Anna", "--board", "Bram", match="Viertal is closed")
    assert run(capsys, db, "season", "reopen", "2025-2026")[0] == 0
    code, out, err = run(capsys, db, "team", "add", "Wit", "--board", "Anna", "--board", "Bram")
    assert code == 0 and "Wit" in out, err


def test_reopen_and_undo(sample, capsys):
    assert run(capsys, sample, "season", "close", "2025-2026")[0] == 0
    bad(capsys, sample, "season", "close", "2025-2026", match="closed already")
    bad(capsys, sample, "season", "new", "2025-2026", "--from", OLD, "--name", "X", match="belongs to season")
    bad(capsys, sample, "-c", OLD, "player", "set", "Lotte", "--category", "A", match="is closed")
    # undo reverts the close: the competition takes changes again.
    code, out, err = run(capsys, sample, "undo")
    assert code == 0 and "close season 2025-2026" in out
    assert run(capsys, sample, "-c", OLD, "player", "set", "Lotte", "--category", "A")[0] == 0
    assert run(capsys, sample, "undo")[0] == 0
    # close, reopen: writes work; undoing the reopen closes it again.
    assert run(capsys, sample, "season", "close", "2025-2026")[0] == 0
    code, out, err = run(capsys, sample, "season", "reopen", "2025-2026")
    assert code == 0 and "reopened season 2025-2026" in out, err
    bad(capsys, sample, "season", "reopen", "2025-2026", match="is not closed")
    assert run(capsys, sample, "-c", OLD, "player", "set", "Lotte", "--category", "A")[0] == 0
    assert run(capsys, sample, "undo")[0] == 0 and run(capsys, sample, "undo")[0] == 0
    bad(capsys, sample, "-c", OLD, "player", "set", "Lotte", "--category", "A", match="is closed")
    code, out, _ = run(capsys, sample, "log", "-n", "1")
    assert "season close" in out


def test_close_refusals_and_new_season_into_closed_one(sample, capsys):
    bad(capsys, sample, "season", "close", "1999-2000", match="there is no season '1999-2000'")
    bad(capsys, sample, "season", "reopen", "1999-2000", match="see 'keizer season list'")
    assert run(capsys, sample, "season", "new", "2026-2027", "--from", OLD)[0] == 0
    assert run(capsys, sample, "season", "close", "2026-2027")[0] == 0
    bad(capsys, sample, "season", "new", "2026-2027", "--from", OLD, "--name", "Tweede", match="is closed")
    # The season being closed leaves last season's competitions open.
    assert run(capsys, sample, "-c", OLD, "player", "set", "Lotte", "--category", "A")[0] == 0
    code, out, err = run(capsys, sample, "season", "list", "--format", "json")
    assert code == 0 and [r["status"] for r in json.loads(out)] == ["closed", "open"], err


def test_docstring_examples():
    import doctest

    from keizer.operations import seasons

    result = doctest.testmod(seasons)
    assert result.attempted > 0 and result.failed == 0


def test_a_new_season_comes_after_its_source(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert run(capsys, db, "member", "add", "Anna")[0] == 0
    assert run(capsys, db, "competition", "create", "Interne", "--season", "2025-2026", "--all-members")[0] == 0
    bad(capsys, db, "season", "new", "2024-2025", "--from", "Interne", match="comes before")


def test_closing_a_season_with_nothing_played_warns(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert run(capsys, db, "member", "add", "Anna")[0] == 0
    assert run(capsys, db, "competition", "create", "Interne", "--season", "2026-2027", "--all-members")[0] == 0
    code, out, err = run(capsys, db, "season", "close")
    assert code == 0 and "closed season 2026-2027" in out
    assert err.strip() == "warning: Interne had no round played yet; was it last season you meant to close?"
