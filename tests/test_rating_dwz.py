"""The DWZ engine (keizer.rating.dwz) against the DSB's Wertungsordnung: the definition of P(D)
(3.3.1), E with its factors and limits (Anhang 1.2), the new DWZ (3.5.2), hand-worked, and a
published evaluation; properties by hypothesis."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from keizer.rating.dwz import Tournament, change, development, expected


def test_expected_score_is_the_normal_distribution_of_3_3_1():
    # "For each of the two opponents the game's performance lies within ±200 of the DWZ with a
    # probability of 68.27 %, and their difference D within ±200·√2 ≈ ±282.8" (3.3.1).
    spread = 200 * math.sqrt(2)
    assert round(expected(spread) - expected(-spread), 4) == 0.6827
    assert expected(0) == 0.5
    # No 400-point cap (FIDE's 8.3.1 has one): 600 apart is not 400 apart.
    assert expected(600) > expected(400) > 0.92


def test_development_coefficient_by_hand():
    # Adult (J = 15), 1600: E0 = 1.6⁴ + 15 = 21.5536 → 22; the index limits it (5·Index up to index 5).
    assert [development(1600, 30, i, Fraction(2), 2.0) for i in (0, 1, 2, 4, 5, 6)] == [5, 5, 10, 20, 22, 22]
    # 21–25 years: J = 10 → 16.55 → 17; a junior (≤ 20) with W ≥ We: (6.5536 + 5)·0.8 = 9.24 → 9.
    assert development(1600, 23, 6, Fraction(2), 2.0) == 17
    assert (development(1600, 20, 6, Fraction(2), 2.0), development(1600, 20, 6, Fraction(1), 2.0)) == (9, 12)
    # fB is at least 0.5: a 700 junior, E0 = 0.2401 + 5 → 2.62 → the minimum 5.
    assert development(700, 12, 6, Fraction(2), 1.0) == 5
    # The brake below 1300 when W < We, whatever the age: 1150 adult, E0 = 1.749 + 15 = 16.749,
    # SBr = e^1 − 1 = 1.718: 18.47 → 18; an index of 1 does not limit it (SBr > 0: at most 150).
    assert development(1150, 50, 1, Fraction(1), 2.0) == 18
    # 500: SBr = e^5.33 − 1 = 206.2 → E at most 150.
    assert development(500, 50, 6, Fraction(0), 2.0) == 150


def test_new_dwz_by_hand():
    # 1700, adult, index 10: beats 1600 (P = .6382), draws 1800 (.3618): W = 1.5, We = 1.0000,
    # E = 23 (8.3521 + 15), n = 2: Rn = 1700 + 800·0.5/25 = 1716.
    c = change(Tournament(1700, ((1600, Fraction(1)), (1800, Fraction(1, 2))), age=40, index=10))
    assert (c.score, round(c.we, 4), c.e, c.games, c.new, c.change) == (Fraction(3, 2), 1.0, 23, 2, 1716, 16)
    assert change(Tournament(1700, ())).new == 1700


def test_a_published_evaluation():
    # randspringer.de, "Wie lese ich eine Turniertabelle?": the winner, DWZ 1011, scored 6.5 where
    # 5.146 were expected and went to 1101 (+90). Page does not print E or n; a junior's E is the
    # minimum 5 at 1011 (E0·fB = (1.0447 + 5)·0.5055 = 3.06), and only n = 7 gives +90:
    # 800·1.354/12 = 90.27 (n = 6: +98, n = 8: +83).
    e = development(1011, 15, 6, Fraction(13, 2), 5.146)
    assert e == 5
    assert 1011 + round(800 * (6.5 - 5.146) / (e + 7)) == 1101


ratings = st.integers(600, 2800)


@given(st.integers(-1200, 1200))
def test_two_expected_scores_sum_to_one_and_grow(d):
    assert math.isclose(expected(d) + expected(-d), 1.0)
    assert expected(d + 1) > expected(d)


@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])),
                         min_size=1, max_size=9), st.integers(8, 80), st.integers(1, 12))
def test_a_better_score_never_gives_a_lower_dwz(ro, games, age, index):
    worse = change(Tournament(ro, games, age, index))
    better = change(Tournament(ro, [(r, Fraction(1)) for r, _ in games], age, index))
    assert better.new >= worse.new and 5 <= worse.e <= 150


# -- shown where the FIDE change is shown, when the club picks the DWZ ------------------------------


def test_the_dwz_change_on_the_cli_the_app_and_the_site(tmp_path, capsys):
    import json
    import shutil
    import sqlite3

    from test_cli import run
    from test_site_member import SAMPLE, player_page, published, text
    from web_helpers import client_with_csrf, digest, post, sample_app
    from web_helpers import text as web_text

    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    plain = json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    assert "dwz" not in plain  # the club has not picked it
    assert run(capsys, db, "club", "--national-rating", "dwz")[0] == 0
    data = json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])["dwz"]
    rated = [(r["opponent_rating"], Fraction(r["score"]) if isinstance(r["score"], str) else Fraction(r["score"]))
             for r in data["rounds"] if r["expected"] is not None]
    with sqlite3.connect(db) as conn:
        ro = conn.execute("SELECT p.rating FROM players p JOIN members m ON m.id = p.member_id "
                          "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    expect = change(Tournament(ro, rated))  # no year of birth: over 25; index 6
    assert (data["result"]["rating"], data["result"]["e"], data["result"]["new"]) == (ro, expect.e, expect.new)
    table = run(capsys, db, "history", "Anna Hendriks", "--rating")[1]
    assert f"DWZ {ro} → {expect.new} ({expect.new - ro:+d}, provisional, not official)" in table
    # The site (in Dutch) and the app's player page show it.
    site = published(db, tmp_path / "site", "nl")
    page = text(player_page(site, "Interne competitie 2025-2026", "Anna Hendriks"))
    assert "DWZ-verandering" in page and f"DWZ {ro} → {expect.new}, E {expect.e}" in page
    (tmp_path / "app").mkdir()
    app, appdb = sample_app(tmp_path / "app")
    client = client_with_csrf(app)
    form = {"site_folder": "", "upload": "", "site": "", "evening_time": ""}
    before = digest(appdb)
    refused = web_text(post(client, "/club/site", {**form, "national_rating": "elo"}))
    assert "the national rating must be dwz, ecf or empty (none), not 'elo'" in refused and digest(appdb) == before
    post(client, "/club/site", {**form, "national_rating": "dwz"})
    with sqlite3.connect(appdb) as conn:
        key = conn.execute("SELECT p.key FROM players p JOIN members m ON m.id = p.member_id "
                           "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    assert f"DWZ {ro} → {expect.new}, E {expect.e}" in web_text(client.get(f"/c/1/player/{key}"))
