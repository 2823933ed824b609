"""The ECF rating engine (keizer.rating.ecf) against the ECF's published method: R1 = R0 +
k(W − We) with FIDE's table 8.1b, k 20 or 40, the 2020 conversion of grades; the published
+10 example, hand-worked months, properties by hypothesis; and the change shown on the CLI,
the app and the site when the club picks the ECF rating (sources: tests/data/SOURCES.md)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from keizer.model import Game, Player, Result, Round, Season
from keizer.rating.ecf import expected, from_grade, game_change, k_factor, season_changes
from keizer.settings import Settings

SCORES = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])
RATINGS = st.integers(min_value=100, max_value=2900)


def test_the_published_example_an_adult_beating_an_equal_gains_ten():
    # "on winning against a player of an equal rating the expected score is 0.5 and therefore
    # if an adult the live rating will increase by 10" (mscl.crowborough.org, ECF Ratings).
    assert game_change(1650, 1650, Fraction(1), k_factor(40)) == 10
    # A junior's k is 40: twice that.
    assert game_change(1650, 1650, Fraction(1), k_factor(15)) == 20


def test_a_month_by_hand():
    # R0 1720, adult, three games in a month: a win v 1800 (D −80: PD .39), a draw v 1700
    # (D 20: .53), a loss v 1500 (D 220: .78). W 1½, We 1.70: 20 × (1.5 − 1.70) = −4.
    s = Season("x", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C"), Player("d", "D")),
               (Round(1, "2026-03-05", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
                Round(2, "2026-03-12", (Game(2, 1, "c", "a", Result.DRAW),)),
                Round(3, "2026-03-19", (Game(3, 1, "a", "d", Result.BLACK_WIN),))))
    r = season_changes(s, {"a": 1720, "b": 1800, "c": 1700, "d": 1500}, "a", age=44)
    assert [g.expected for g in r.games] == [Fraction(39, 100), Fraction(53, 100), Fraction(78, 100)]
    assert [g.change for g in r.games] == [Fraction(122, 10), Fraction(-6, 10), Fraction(-156, 10)]
    assert (r.k, r.counted, r.score, r.expected, r.change) == (20, 3, Fraction(3, 2), Fraction(17, 10), -4)
    assert [(m.month, m.games, m.change) for m in r.months] == [("2026-03", 3, -4)]


def test_an_opponent_without_a_rating_does_not_count_and_forfeits_are_not_games():
    s = Season("x", Settings(), (Player("a", "A"), Player("b", "B"), Player("c", "C")),
               (Round(1, "2026-01-08", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
                Round(2, "2026-02-05", (Game(2, 1, "a", "c", Result.WHITE_FORFEIT_WIN),
                                        )),
                Round(3, None, (Game(3, 1, "c", "a", Result.WHITE_WIN),))))
    r = season_changes(s, {"a": 1500, "b": None, "c": 1500}, "a", age=12)
    assert [(g.round, g.month, g.change) for g in r.games] == [(1, "2026-01", None), (3, "", Fraction(-20))]
    assert (r.k, r.counted, [m.month for m in r.months]) == (40, 1, [""])
    assert season_changes(s, {"a": None, "b": 1500, "c": 1500}, "a").counted == 0  # no ECF rating: nothing


def test_the_2020_conversion_and_k_by_age():
    # "new = 7.5*old + 700" (ECF, "The calculation of ECF Grades on a monthly basis").
    assert [from_grade(g) for g in (0, 100, 150, 200, 250)] == [700, 1450, 1825, 2200, 2575]
    assert [k_factor(a) for a in (None, 8, 17, 18, 70)] == [20, 40, 40, 20, 20]


@given(RATINGS, RATINGS, SCORES, st.sampled_from([20, 40]))
def test_the_two_changes_of_a_game_with_equal_k_are_opposite(a, b, score, k):
    assert expected(a - b) + expected(b - a) == 1
    assert game_change(a, b, score, k) == -game_change(b, a, 1 - score, k)


@given(RATINGS, st.lists(st.tuples(RATINGS, SCORES), min_size=1, max_size=12))
def test_the_competition_is_the_sum_of_its_months_and_more_points_never_lower_it(own, games):
    players = (Player("me", "Me"),) + tuple(Player(f"o{i}", f"O{i}") for i in range(len(games)))
    result = {Fraction(1): Result.WHITE_WIN, Fraction(1, 2): Result.DRAW, Fraction(0): Result.BLACK_WIN}
    rounds = tuple(Round(i + 1, f"2026-{i % 12 + 1:02d}-01", (Game(i + 1, 1, "me", f"o{i}", result[s]),))
                   for i, (_, s) in enumerate(games))
    ratings = {"me": own, **{f"o{i}": r for i, (r, _) in enumerate(games)}}
    r = season_changes(Season("x", Settings(), players, rounds), ratings, "me")
    assert r.change == sum(m.change for m in r.months) == r.k * (r.score - r.expected)
    won = tuple(Round(x.number, x.date, (Game(x.number, 1, "me", x.games[0].black, Result.WHITE_WIN),))
                for x in rounds)
    assert season_changes(Season("x", Settings(), players, won), ratings, "me").change >= r.change


# -- shown where the FIDE change is shown, when the club picks the ECF rating -----------------------


def test_the_ecf_change_on_the_cli_the_app_and_the_site(tmp_path, capsys):
    from test_cli import run
    from test_site_member import SAMPLE, player_page, published, text
    from web_helpers import client_with_csrf, digest, post, sample_app
    from web_helpers import text as web_text

    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    assert "ecf" not in json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    assert run(capsys, db, "club", "--national-rating", "ecf")[0] == 0
    data = json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])["ecf"]
    with sqlite3.connect(db) as conn:
        own = conn.execute("SELECT p.rating FROM players p JOIN members m ON m.id = p.member_id "
                           "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    counted = [r for r in data["rounds"] if r["change"] is not None]
    assert counted and data["result"]["rating"] == own and data["result"]["k"] == 20  # no year of birth: adult
    for r in counted:  # each game: 20 × (score − PD(own − opponent)), PD from FIDE's table
        score = Fraction(r["score"]) if isinstance(r["score"], str) else Fraction(r["score"])
        pd = expected(own - r["opponent_rating"])
        assert (Fraction(r["expected"]).limit_denominator(100), round(r["change"], 6)) == (pd, round(float(20 * (score - pd)), 6))
    total = sum(Fraction(r["change"]).limit_denominator(100) for r in counted)
    assert round(data["result"]["change"], 6) == round(float(total), 6)
    assert round(sum(m["change"] for m in data["months"]), 6) == round(data["result"]["change"], 6)
    table = run(capsys, db, "history", "Anna Hendriks", "--rating")[1]
    assert f"ECF rating {own}, K 20" in table and f"{len(counted)} games counted" in table
    # The site (in Dutch) and the app's player page show it.
    site = published(db, tmp_path / "site", "nl")
    page = text(player_page(site, "Interne competitie 2025-2026", "Anna Hendriks"))
    assert "ECF-ratingwijziging" in page and f"ECF-rating {own}, K 20:" in page and "DWZ" not in page
    (tmp_path / "app").mkdir()
    app, appdb = sample_app(tmp_path / "app")
    client = client_with_csrf(app)
    form = {"site_folder": "", "upload": "", "site": "", "evening_time": ""}
    before = digest(appdb)
    refused = web_text(post(client, "/club/site", {**form, "national_rating": "knsb"}))
    assert "the national rating must be dwz, ecf or empty (none), not 'knsb'" in refused and digest(appdb) == before
    post(client, "/club/site", {**form, "national_rating": "ecf"})
    assert '<option value="ecf" selected>' in client.get("/club").get_data(as_text=True)
    with sqlite3.connect(appdb) as conn:
        key = conn.execute("SELECT p.key FROM players p JOIN members m ON m.id = p.member_id "
                           "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    shown = web_text(client.get(f"/c/1/player/{key}"))
    assert "ECF rating change" in shown and f"ECF rating {own}, K 20:" in shown
