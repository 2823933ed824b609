"""keizer.rating.fide against FIDE's own figures: the tables as printed in B.02 (2024), FIDE's
rating-change calculator, FIDE's published calculations of single players (one with 39 games,
one rated above 2650, a first rating) and a whole event (the 2025 US Championship, every game),
and properties of the tables and the change."""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keizer.rating import fide
from keizer.rating.fide import Game, Player

DATA = Path(__file__).parent / "data" / "ratings"
PUBLISHED = json.loads((DATA / "fide-published-calculations.json").read_text(encoding="utf-8"))
US2025 = json.loads((DATA / "fide-us-championship-2025.json").read_text(encoding="utf-8"))

#: The rules in force on the first day of each edition.
MARCH_2024 = fide.rules_on(date(2024, 3, 1))
OCTOBER_2025 = fide.rules_on(date(2025, 10, 1))
assert MARCH_2024 is not None and OCTOBER_2025 is not None

# Table 8.1.2 as printed in B.02 (2024): the upper end of each band of D and PD for the higher-rated player.
TABLE_812 = [
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58), (68, 59), (76, 60),
    (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67), (137, 68), (145, 69), (153, 70),
    (162, 71), (170, 72), (179, 73), (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80),
    (256, 81), (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99),
]
# Table 8.1.1 as printed: dp for p = 1.00, 0.99, ... 0.50.
TABLE_811 = [800, 677, 589, 538, 501, 470, 444, 422, 401, 383, 366, 351, 336, 322, 309, 296, 284, 273, 262, 251, 240,
             230, 220, 211, 202, 193, 184, 175, 166, 158, 149, 141, 133, 125, 117, 110, 102, 95, 87, 80, 72, 65, 57,
             50, 43, 36, 29, 21, 14, 7, 0]


def _f(text: str) -> Fraction:
    return Fraction(text)


# ---------------------------------------------------------------- the tables


def test_table_812_row_by_row():
    low = 0
    for high, pd in TABLE_812:
        for d in (low, high):
            assert fide.expected_score(d) == Fraction(pd, 100), d
            assert fide.expected_score(-d) == Fraction(100 - pd, 100), -d
        low = high + 1
    assert fide.expected_score(736) == 1 and fide.expected_score(-736) == 0


def test_table_811_through_the_performance_rating():
    """Rp − Ra is dp: 20 games against 2000-rated opponents scoring p = 1.00 … 0.00 in 0.05 steps,
    and p = 0.01 … 0.99 from 100 games."""
    for hundredths in range(0, 101):
        points = Fraction(hundredths)
        dp = TABLE_811[100 - hundredths] if hundredths >= 50 else -TABLE_811[hundredths]
        assert fide.performance_rating([2000] * 100, points) == 2000 + dp


# ---------------------------------------------------------------- FIDE's calculator


@pytest.mark.parametrize("case", PUBLISHED["calculator"], ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_fides_calculator(case):
    """The calculator applies the 400-point rule as the March 2024 text does; the rules in force
    since 1 October 2025 differ where a player rated 2650 or above meets one more than 400 below."""
    own, opponent, score, k, calculator, in_force = case
    assert fide.game_change(own, opponent, _f(score), MARCH_2024).change * k == _f(calculator)
    assert fide.game_change(own, opponent, _f(score), OCTOBER_2025).change * k == _f(in_force)


# ---------------------------------------------------------------- FIDE's published calculations


def _events(case):
    for event in case["events"]:
        games = [Game(opp, _f(score)) for opp, _capped, score, _delta in event["games"]]
        yield event, games


@pytest.mark.parametrize("case", PUBLISHED["periods"], ids=lambda c: c["id"])
def test_published_calculations_game_by_game(case):
    for event, games in _events(case):
        rules = fide.rules_on(date.fromisoformat(event["start"]))
        t = fide.tournament_change(event["ro"], games, case.get("k_used", case["k"]), rules)
        assert [g.change for g in t.games] == [_f(g[3]) for g in event["games"]], event["event"]
        # A capped game: FIDE prints the opponent's rating after the cap, exactly 400 away.
        for g, (opp, capped, _s, _d) in zip(t.games, event["games"]):
            assert (abs(g.difference) == 400) >= capped
        assert t.delta == _f(event["sum"])
        assert t.change == _f(event["k_sum"])


@pytest.mark.parametrize("case", [c for c in PUBLISHED["periods"] if c["id"] in ("F-P01", "F-P04", "F-P05")],
                         ids=lambda c: c["id"])
def test_published_calculations_whole_period(case):
    """One rating period from the list before to the list after: K from the player, the 700
    rule, the period's change rounded once. F-P04's Ro is FIDE's corrected one (the list said 2052)."""
    on = date.fromisoformat(case["events"][0]["start"])
    rules = fide.rules_on(on)
    ro = case["events"][0]["ro"]
    player = Player(ro, games=100, reached_2400=ro >= 2400)
    period = fide.rating_period(player, [g for _, g in _events(case)], on, rules)
    assert period.k == case.get("k_used", case["k"])
    assert period.change == _f(case["total"])
    assert period.rating == list(case["lists"].values())[-1]


def test_rounding_once_per_period_or_per_event():
    """8.3.4 rounds the period's change; FIDE's list of December 2025 shows 2406 for F-P02,
    which is each event's change rounded (−6, +4, +8). Both readings, kept visible."""
    case = next(c for c in PUBLISHED["periods"] if c["id"] == "F-P02")
    changes = [_f(e["k_sum"]) for e in case["events"]]
    assert fide.new_rating(2400, changes, OCTOBER_2025) == 2405
    assert 2400 + sum(fide.round_change(c) for c in changes) == case["lists"]["2025-12"]


def test_the_2650_rule_is_the_players_own_rating():
    """F-P01 and F-P02 are the two sides of one game: 2813 against 2400 in November 2025."""
    rules = fide.rules_on(date(2025, 11, 7))
    high = fide.game_change(2813, 2400, Fraction(1), rules)
    low = fide.game_change(2400, 2813, Fraction(0), rules)
    assert (high.difference, high.change) == (413, Fraction(7, 100))
    assert (low.difference, low.change) == (-400, Fraction(-8, 100))


def test_first_rating_published_by_fide():
    case = PUBLISHED["first_ratings"][0]
    rules = fide.rules_on(date.fromisoformat(case["start"]))
    first = fide.first_rating([[Game(r, _f(s)) for r, s in case["games"]]], rules)
    assert first.rating == case["first_published_rating"]
    assert (first.games, first.points, first.percent, first.dp) == (5, 3, 57, 50)
    player = Player(first.rating, games=first.games, birth_year=case["birth_year"])
    assert fide.k_factor(player, date(2025, 12, 1)) == case["first_k"]


def test_us_championship_2025_every_game_and_player():
    """A 12-player round robin rated on FIDE's November 2025 list: all 132 player-games, each
    player's sum and K × sum, and the November list (for the two players with another event in
    the period, FIDE's change for that event is added before rounding once)."""
    players = {p[0]: p for p in US2025["players"]}
    rules = fide.rules_on(date(2025, 10, 12))
    games: dict[int, list[Game]] = {p: [] for p in players}
    for _round, white, black, score, delta in US2025["games"]:
        s = _f(score)
        w = fide.game_change(players[white][1], players[black][1], s, rules)
        b = fide.game_change(players[black][1], players[white][1], 1 - s, rules)
        assert (w.change, b.change) == (_f(delta), -_f(delta)), (white, black)
        games[white].append(Game(players[black][1], s))
        games[black].append(Game(players[white][1], 1 - s))
    for pid, (_id, rating, k, points, delta, change, other, after) in players.items():
        assert fide.k_factor(Player(rating, reached_2400=True), date(2025, 10, 12)) == k
        t = fide.tournament_change(rating, games[pid], k, rules)
        assert (t.score, t.delta, t.change) == (_f(points), _f(delta), _f(change)), pid
        assert fide.new_rating(rating, [t.change, _f(other)], rules) == after, pid


# ---------------------------------------------------------------- rules, K, first ratings by hand


def test_editions_by_date():
    assert fide.rules_on(date(2024, 2, 29)) is None
    assert fide.rules_on(date(2024, 3, 1)).cap_exempt_from is None
    assert fide.rules_on(date(2026, 12, 2)).cap_exempt_from == 2650
    assert fide.rules_on(date(2024, 11, 30), "rapid").unrated_gap is None
    assert fide.rules_on(date(2024, 12, 1), "blitz").unrated_gap == 600
    assert fide.rules_on(date(2026, 1, 1), "rapid").cap_exempt_from is None


def test_rapid_keeps_the_plain_400_rule_and_leaves_wide_gaps_unrated():
    rapid = fide.rules_on(date(2026, 1, 1), "rapid")
    assert fide.used_difference(2700, 2200, rapid) == 400
    t = fide.tournament_change(2650, [Game(2050, Fraction(1)), Game(2051, Fraction(1))], 20, rapid)
    assert [g.opponent for g in t.games] == [2051]


@pytest.mark.parametrize("player, on, k", [
    (Player(1600, games=29), date(2026, 1, 1), 40),
    (Player(1600, games=30), date(2026, 1, 1), 20),
    (Player(2399, games=30), date(2026, 1, 1), 20),
    (Player(2400, games=30), date(2026, 1, 1), 10),
    (Player(2380, games=30, reached_2400=True), date(2026, 1, 1), 10),
    (Player(2299, games=30, birth_year=2008), date(2026, 12, 31), 40),
    (Player(2299, games=30, birth_year=2008), date(2027, 1, 1), 20),
    (Player(2300, games=30, birth_year=2010), date(2026, 1, 1), 20),
])
def test_k_factor(player, on, k):
    assert fide.k_factor(player, on) == k


def test_the_700_rule_by_hand():
    assert fide.period_k(40, 17, OCTOBER_2025) == 40      # 680
    assert fide.period_k(40, 18, OCTOBER_2025) == 38      # 720 > 700: 38 × 18 = 684
    assert fide.period_k(20, 36, OCTOBER_2025) == 19
    assert fide.period_k(10, 70, OCTOBER_2025) == 10
    assert fide.period_k(10, 71, OCTOBER_2025) == 9


def test_first_rating_by_hand():
    """8.2 worked by hand: 6 games against 1600s scoring 3: Ra = (6 × 1600 + 2 × 1800) / 8 = 1650,
    p = 4 / 8 = .50, dp 0, Ru 1650."""
    r = fide.first_rating([[Game(1600, Fraction(1, 2))] * 6], OCTOBER_2025)
    assert (r.average, r.percent, r.rating) == (1650, 50, 1650)
    # Fewer than 5 games against rated opponents (unrated ones do not count): not yet published.
    assert fide.first_rating([[Game(1600, Fraction(1))] * 4 + [Game(None, Fraction(1))]], OCTOBER_2025).rating is None
    # Pooled over two events; a zero in the first event is disregarded (8.2.1).
    r = fide.first_rating([[Game(1900, Fraction(0))] * 3, [Game(1700, Fraction(1))] * 5], OCTOBER_2025)
    assert (r.games, r.points) == (5, 5)
    # p = 6/7 = .86 → dp 309; Ra = (8500 + 3600) / 7 = 1728.57; Ru = 2037.57 → 2038.
    assert r.rating == 2038
    # At most 2200 (8.2.3); below 1400 not published (7.1.4).
    assert fide.first_rating([[Game(2300, Fraction(1))] * 9], OCTOBER_2025).rating == 2200
    assert fide.first_rating([[Game(1400, Fraction(0))] * 8 + [Game(1400, Fraction(1, 2))]], OCTOBER_2025).rating is None
    # A zero in a later event counts.
    assert fide.first_rating([[Game(1600, Fraction(1))], [Game(1600, Fraction(0))] * 5], OCTOBER_2025).games == 6


def test_the_floor():
    assert fide.new_rating(1410, [Fraction(-10)], OCTOBER_2025) == 1400
    assert fide.new_rating(1410, [Fraction(-21, 2)], OCTOBER_2025) is None  # −10.5 → −11


def test_a_game_scores_one_half_or_zero():
    with pytest.raises(ValueError):
        fide.game_change(2000, 2000, Fraction(1, 3), OCTOBER_2025)


# ---------------------------------------------------------------- properties

ratings = st.integers(min_value=1000, max_value=2900)
scores = st.sampled_from(fide.SCORES)
editions = st.sampled_from([MARCH_2024, OCTOBER_2025, fide.rules_on(date(2025, 1, 1), "blitz")])


@given(st.integers(min_value=-1000, max_value=1000))
def test_expected_scores_of_a_game_sum_to_one(d):
    assert fide.expected_score(d) + fide.expected_score(-d) == 1


@given(st.integers(min_value=-1000, max_value=1000))
def test_the_table_is_monotone(d):
    assert fide.expected_score(d) <= fide.expected_score(d + 1)
    assert 0 <= fide.expected_score(d) <= 1


@given(ratings, ratings, scores, editions)
def test_a_games_two_changes_are_opposite_below_2650(a, b, s, rules):
    """With equal K and both players below 2650 (or both capped alike) the two changes cancel."""
    if max(a, b) >= 2650 and rules.cap_exempt_from is not None:
        return
    assert fide.game_change(a, b, s, rules).change == -fide.game_change(b, a, 1 - s, rules).change


@given(ratings, st.integers(min_value=401, max_value=1500), scores)
def test_more_than_400_below_counts_as_400(own, gap, s):
    if own >= 2650:
        return
    far, near = fide.game_change(own, own - gap, s, OCTOBER_2025), fide.game_change(own, own - 400, s, OCTOBER_2025)
    assert (far.difference, far.expected, far.change) == (400, near.expected, near.change)


@given(st.lists(st.tuples(st.integers(min_value=1400, max_value=2700), scores), min_size=1, max_size=12))
def test_a_tournament_is_the_sum_of_its_games(games):
    t = fide.tournament_change(2000, [Game(r, s) for r, s in games], 20, OCTOBER_2025)
    assert t.change == 20 * sum(fide.game_change(2000, r, s, OCTOBER_2025).change for r, s in games)
    assert abs(t.delta) <= len(games)


@given(st.fractions(min_value=-100, max_value=100))
def test_rounding_is_symmetric(x):
    assert fide.round_change(-x) == -fide.round_change(x)
    assert abs(fide.round_change(x) - x) <= Fraction(1, 2)


@given(st.lists(st.integers(min_value=1400, max_value=2700), min_size=1, max_size=15), st.data())
def test_more_points_never_lower_the_performance_rating(opponents, data):
    points = data.draw(st.integers(min_value=0, max_value=2 * len(opponents) - 1))
    assert fide.performance_rating(opponents, Fraction(points, 2)) <= fide.performance_rating(
        opponents, Fraction(points + 1, 2))
