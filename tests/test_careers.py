"""Ratings and careers wired to the club's file: the FIDE change per game (read model), the
club rating across seasons (one pass or round by round), head-to-head and careers, on the
CLI. Hand-worked figures from FIDE's table 8.1.2 (B.02, 2024)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from keizer.model import Game, Player, Result, Round, Season
from keizer.operations import careers
from keizer.rating.club import Options, club_ratings, rate_period, State
from keizer.readmodel import chapter_of, fide_changes
from keizer.settings import Settings
from keizer.store import Store
from test_cli import run

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"


def _season(*rounds: Round) -> Season:
    return Season("x", Settings(), tuple(Player(p, p.upper()) for p in "abcde"), rounds)


def test_fide_change_per_game_by_hand():
    # a (2000): beats b (2092): D = −92 → PD .37, ΔR +.63; draws c (1650): D = 350 → PD .89, ΔR −.39;
    # loses to d (2500): D = −500 counts as −400 → PD .08, ΔR −.08. ΣΔR = .16, K 20 → +3.2.
    s = _season(Round(1, "2026-02-05", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
                Round(2, "2026-02-12", (Game(2, 1, "c", "a", Result.DRAW),)),
                Round(3, "2026-02-19", (Game(3, 1, "a", "d", Result.BLACK_WIN),)),
                Round(4, "2026-02-26", (Game(4, 1, "a", "e", Result.WHITE_FORFEIT_WIN),)))
    r = fide_changes(s, {"a": 2000, "b": 2092, "c": 1650, "d": 2500, "e": 1900}, "a")
    assert [(g.opponent, g.expected, g.delta) for g in r.games] == [
        ("b", Fraction(37, 100), Fraction(63, 100)), ("c", Fraction(89, 100), Fraction(-39, 100)),
        ("d", Fraction(8, 100), Fraction(-8, 100))]  # the forfeit is not a game (B.02 5.1)
    assert (r.k, r.delta, r.change, r.counted) == (20, Fraction(16, 100), Fraction(16, 5), 3)
    # Performance: Ra = (2092 + 1650 + 2500) / 3 = 2080.67 → 2081, p = 1.5/3 = .50 → dp 0.
    assert r.performance == 2081


def test_games_fide_would_not_count_are_listed_with_the_reason():
    s = _season(Round(1, "2024-02-20", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
                Round(2, None, (Game(2, 1, "a", "c", Result.WHITE_WIN),)),
                Round(3, "2025-01-10", (Game(3, 1, "a", "d", Result.DRAW),), time_control="blitz 3+2"),
                Round(4, "2025-01-17", (Game(4, 1, "a", "e", Result.DRAW),)))
    r = fide_changes(s, {"a": 2650, "b": 2000, "c": 2000, "d": 2000}, "a")
    assert [g.why for g in r.games] == ["before_rules", "no_date", "not_rated", "opponent_unrated"]
    assert (r.k, r.change, r.performance, r.counted) == (None, 0, None, 0)
    assert fide_changes(s, {"b": 2000}, "a").games[0].why == "before_rules"
    assert {g.why for g in fide_changes(s, {"b": 2000}, "a").games[2:]} == {"own_unrated"}


def test_seven_hundred_rule_lowers_k_over_many_games():
    # 8.3.3: K 20 × 36 games = 720 > 700, so K is the largest whole number with K × 36 ≤ 700: 19.
    days = [date(2026, 1, 1) + timedelta(days=7 * n) for n in range(36)]
    rounds = tuple(Round(n, d.isoformat(), (Game(n, 1, "a", "b", Result.WHITE_WIN),)) for n, d in enumerate(days, 1))
    r = fide_changes(_season(*rounds), {"a": 1800, "b": 1800}, "a")
    assert (r.k, r.counted, r.delta, r.change) == (19, 36, 18, 342)
    assert fide_changes(_season(*rounds[:35]), {"a": 1800, "b": 1800}, "a").k == 20


def test_chapter_by_time_control():
    assert [chapter_of(t) for t in (None, "", "90+30", "90 min + 30", "25+10", "Rapid", "5+3", "blitz")] == [
        "standard", "standard", "standard", "standard", "rapid", "rapid", "blitz", "blitz"]


# -- the club rating ---------------------------------------------------------------------

results = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])
game = st.tuples(st.integers(0, 7), st.integers(0, 7), results).filter(lambda g: g[0] != g[1])
rounds_of_games = st.lists(st.lists(game, min_size=1, max_size=4), min_size=1, max_size=12)


def _played(rounds: list[list[tuple[int, int, Fraction]]]) -> list[careers.PlayedGame]:
    return [careers.PlayedGame("2025-2026", "Interne", 1, n, f"2026-01-{n:02d}", "standard", w + 1, b + 1, s)
            for n, games in enumerate(rounds, 1) for w, b, s in games]


@settings(max_examples=60, deadline=None)
@given(rounds_of_games, st.integers(0, 12))
def test_club_rating_is_the_same_in_one_pass_or_round_by_round(rounds, split):
    periods = careers.rating_periods(_played(rounds), careers.Choice())
    options = Options(start={"1": 1900.0, "3": 1600.0})
    once = club_ratings(periods, options)
    state = State()
    for period in periods:  # one round at a time, carrying the state
        state = rate_period(state, period, options)
    assert dict(state.ratings) == dict(once.ratings) and state.periods == once.periods
    resumed = club_ratings(periods[split:], options, club_ratings(periods[:split], options))
    assert dict(resumed.ratings) == dict(once.ratings)


def test_period_choices_group_rounds():
    games = _played([[(0, 1, Fraction(1))], [(2, 3, Fraction(0))]])
    assert len(careers.rating_periods(games, careers.Choice())) == 2
    assert len(careers.rating_periods(games, careers.Choice(period="month"))) == 1
    assert careers.rating_periods(games, careers.Choice(chapter="rapid")) == ()


def _club(tmp_path: Path) -> Path:
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE members SET fide_rating = rating + 50 WHERE rating > 1500")
    return db


def test_club_rating_on_the_sample_club(tmp_path, capsys):
    db = _club(tmp_path)
    before = db.read_bytes()
    code, out, _ = run(capsys, db, "ratings", "club", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["note"] == "provisional, not official"
    store = Store.open(db)
    games = careers.played_games(careers.read_club(store))
    assert data["games"] == len(games) and sum(r["games"] for r in data["rows"]) == 2 * len(games)
    ratings = [r["rating"] for r in data["rows"]]
    assert ratings == sorted(ratings, reverse=True)
    # The same file gives the same figures; nothing is written.
    assert json.loads(run(capsys, db, "ratings", "club", "--format", "json")[1]) == data
    assert db.read_bytes() == before
    only = json.loads(run(capsys, db, "ratings", "club", "--only", "Meerkamp A", "--start", "fixed",
                          "--format", "json")[1])
    assert 0 < only["games"] < data["games"]
    code, _, err = run(capsys, db, "ratings", "club", "--only", "Nothing such")
    assert code == 1 and err.startswith("error: no competition matches") and "Traceback" not in err


def test_history_rating_flag(tmp_path, capsys):
    db = _club(tmp_path)
    code, out, _ = run(capsys, db, "-c", "1", "history", "Anna Hendriks", "--rating")
    assert code == 0 and "provisional, not official" in out.splitlines()[0]
    assert "opponent unrated" in out and "K 20" in out.splitlines()[-1]
    data = json.loads(run(capsys, db, "-c", "1", "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    counted = [r for r in data["rounds"] if r["counted"]]
    assert data["games"] == len(counted) and data["k"] == 20
    assert abs(sum(r["change"] for r in counted) - data["change"]) < 1e-9
    assert all(abs(r["change"] - 20 * r["delta"]) < 1e-9 for r in counted)
    assert all(abs(r["delta"] - (r["score"] - r["expected"])) < 1e-9 for r in counted)


def test_head2head_is_symmetric_and_matches_the_career(tmp_path, capsys):
    db = _club(tmp_path)
    code, out, _ = run(capsys, db, "head2head", "Anna Hendriks", "Pieter Kuipers", "--format", "json")
    ab = json.loads(out)
    ba = json.loads(run(capsys, db, "head2head", "Pieter Kuipers", "Anna Hendriks", "--format", "json")[1])
    assert ab["games"] == ba["games"] == len(ab["list"]) == 3
    assert (ab["wins"], ab["draws"], ab["losses"]) == (ba["losses"], ba["draws"], ba["wins"])
    assert ab["last"] == "2026-03-10"
    career = json.loads(run(capsys, db, "career", "Anna Hendriks", "--format", "json")[1])
    kuipers = next(o for o in career["opponents"] if o["opponent"] == "Pieter Kuipers")
    assert (kuipers["games"], kuipers["wins"], kuipers["losses"]) == (ab["games"], ab["wins"], ab["losses"])
    assert sum(c["games"] for c in career["competitions"]) == sum(o["games"] for o in career["opponents"])
    assert career["club_rating"] and career["note"] == "provisional, not official"
    code, _, err = run(capsys, db, "head2head", "Anna Hendriks", "Anna Hendriks")
    assert code == 1 and "Traceback" not in err and err.count("\n") == 1


ratings = st.one_of(st.none(), st.integers(1400, 2900))


@settings(max_examples=80, deadline=None)
@given(st.integers(1400, 2900), st.lists(st.tuples(ratings, results), min_size=1, max_size=40))
def test_the_read_model_sums_as_the_engine_does(own, games):
    """Per game and per competition, fide_changes gives what keizer.rating.fide's own
    tournament_change gives for the same games (one edition of the rules: all in 2026)."""
    from keizer.rating import fide

    rules = fide.rules_on(date(2026, 1, 1))
    players = ("me",) + tuple(f"o{i}" for i in range(len(games)))
    rounds = tuple(Round(i, (date(2026, 1, 1) + timedelta(days=i)).isoformat(),
                         (Game(i, 1, "me", f"o{i - 1}", {1: Result.WHITE_WIN, 0: Result.BLACK_WIN}.get(
                             s, Result.DRAW)),)) for i, (_, s) in enumerate(games, 1))
    season = Season("x", Settings(), tuple(Player(p, p) for p in players), rounds)
    found = fide_changes(season, {"me": own, **{f"o{i}": r for i, (r, _) in enumerate(games)}}, "me")
    counted = [fide.Game(r, s) for r, s in games if r is not None]
    if not counted:
        assert found.k is None and found.change == 0
        return
    k = fide.period_k(fide.k_factor(fide.Player(own), date(2026, 1, 1)), len(counted), rules)
    expected = fide.tournament_change(own, counted, k, rules)
    assert (found.k, found.delta, found.change) == (k, expected.delta, expected.change)
    assert [g.delta for g in found.games if g.why is None] == [g.change for g in expected.games]
    assert found.performance == fide.performance_rating([r for r, _ in games if r is not None],
                                                        sum((s for r, s in games if r is not None), Fraction(0)))


def test_site_player_page_shows_the_change_in_the_clubs_language(tmp_path, capsys):
    db = _club(tmp_path)
    cli = json.loads(run(capsys, db, "-c", "1", "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    assert run(capsys, db, "club", "--language", "nl")[0] == 0
    assert run(capsys, db, "publish", str(tmp_path / "site"))[0] == 0
    page = next((tmp_path / "site").glob("*/interne-competitie-*/players/anna-hendriks.html")).read_text("utf-8")
    assert "FIDE-ratingwijziging" in page and "Voorlopig, niet officieel" in page
    assert f"FIDE-rating {cli['rating']}, K {cli['k']}: " in page and f"prestatierating {cli['performance']}" in page
    assert page.count("tegenstander zonder FIDE-rating") == len([r for r in cli["rounds"] if not r["counted"]])
    unrated = next((tmp_path / "site").glob("*/interne-competitie-*/players/henk-koster.html")).read_text("utf-8")
    assert "FIDE-ratingwijziging" not in unrated  # no FIDE rating: no section


def test_rapid_and_classical_apart_by_the_rounds_time_control(tmp_path, capsys):
    db = _club(tmp_path)
    assert run(capsys, db, "-c", "2", "timecontrol", "rapid 15+10", "--rounds", "1-")[0] == 0
    every = json.loads(run(capsys, db, "ratings", "club", "--format", "json")[1])
    rapid = json.loads(run(capsys, db, "ratings", "club", "--time-control", "rapid", "--format", "json")[1])
    standard = json.loads(run(capsys, db, "ratings", "club", "--time-control", "standard", "--format", "json")[1])
    only = json.loads(run(capsys, db, "ratings", "club", "--only", "Rapidtoernooi 2025", "--format", "json")[1])
    assert rapid["games"] == only["games"] > 0 and rapid["rows"] == only["rows"]
    assert rapid["games"] + standard["games"] == every["games"]
    # The FIDE change of a rapid round is by the rapid chapter; --round limits the games as the history does.
    data = json.loads(run(capsys, db, "-c", "2", "history", "Quinten de Graaf", "--rating", "--format", "json")[1])
    assert {r["chapter"] for r in data["rounds"]} == {"rapid"}
    first = json.loads(run(capsys, db, "-c", "2", "history", "Quinten de Graaf", "--round", "2", "--rating",
                           "--format", "json")[1])
    assert [r["round"] for r in first["rounds"]] == [r["round"] for r in data["rounds"] if r["round"] <= 2]


def test_a_career_reads_the_members_once_and_no_keizer_page(tmp_path, monkeypatch):
    """A career reads the members once beside finding the member (not once more for the
    names and again for the ratings), and takes each Keizer competition's rank and score from
    the kept standing, not from a whole standings page built for it (issue 25's review); the
    lines are those of the page."""
    from keizer.operations import standings as standings_ops

    db = _club(tmp_path)
    store = Store.open(db)
    expected = {line.comp_id: (line.rank, line.score) for line in careers.career(store, "#1").lines}
    members, pages = [], []
    read_members, page = Store.members, standings_ops.standing_view
    monkeypatch.setattr(Store, "members", lambda self: members.append(1) or read_members(self))
    monkeypatch.setattr(careers, "standing_view", lambda s, cid, *a, **k: pages.append(cid) or page(s, cid, *a, **k))
    lines = careers.career(store, "#1").lines
    assert len(members) == 1
    keizer = {r["id"] for r in store.competitions() if r["system"] == "keizer"}
    assert keizer and not keizer & set(pages)
    assert {line.comp_id: (line.rank, line.score) for line in lines} == expected
    for line in lines:
        if line.comp_id in keizer and line.rank is not None:
            row = next(r for r in page(store, line.comp_id)["rows"] if r["rank"] == line.rank)
            assert row["score"] == line.score
