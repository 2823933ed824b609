"""keizer.rating.club: the club rating is Glicko-2 per period, reproducible, the same in one pass
or period by period, and independent of how a period's games are written down."""

from __future__ import annotations

import random
from fractions import Fraction
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keizer.rating import glicko2
from keizer.rating.club import ClubGame, Options, Period, State, club_ratings, history, interval, periods, rate_period
from keizer.rating.glicko2 import Rating, Result

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def test_glickmans_example_as_a_club_period():
    """The paper's player and opponents as a club: one period, three games; player 1 gets the
    paper's r′, RD′ and σ′, and everyone is rated against the ratings before the period."""
    start = State(MappingProxyType({"p1": Rating(1500, 200, 0.06), "p2": Rating(1400, 30, 0.06),
                                    "p3": Rating(1550, 100, 0.06), "p4": Rating(1700, 300, 0.06)}))
    period = Period("R1", (ClubGame("p1", "p2", WIN), ClubGame("p3", "p1", WIN), ClubGame("p1", "p4", LOSS)))
    after = club_ratings([period], Options(), start)
    p1 = after.ratings["p1"]
    assert abs(p1.rating - 1464.06) < 0.01 and abs(p1.deviation - 151.52) < 0.005
    assert abs(p1.volatility - 0.05999) < 0.00001
    assert after.ratings["p2"] == glicko2.update(Rating(1400, 30, 0.06), [Result(Rating(1500, 200, 0.06), LOSS)])


def test_a_first_game_between_newcomers():
    """Two newcomers at 1500, RD 350: the winner gains what the loser loses (equal RDs), and both
    RDs shrink alike."""
    s = rate_period(State(), Period("R1", (ClubGame("a", "b", WIN),)), Options())
    a, b = s.ratings["a"], s.ratings["b"]
    assert abs((a.rating - 1500) + (b.rating - 1500)) < 1e-9
    assert a.rating == glicko2.update(Rating(), [Result(Rating(), 1)]).rating
    assert a.deviation == b.deviation < 350


def test_start_ratings_and_newcomers():
    options = Options(start={"a": 1900, "b": 1300}, default_start=1200, start_deviation=200)
    s = rate_period(State(), Period("R1", (ClubGame("a", "c", DRAW),)), options)
    assert set(s.ratings) == {"a", "c"}  # b has not played: not in the pool yet
    s = rate_period(s, Period("R2", (ClubGame("b", "c", DRAW),)), options)
    before_b = glicko2.update(Rating(1300, 200, 0.06), [Result(s.ratings["c"], 0.5)])
    assert s.ratings["b"].rating != 1300 and abs(s.ratings["b"].rating - before_b.rating) < 200


def test_an_idle_player_widens_up_to_the_cap():
    s = rate_period(State(), Period("R1", (ClubGame("a", "b", DRAW),)), Options())
    widths = []
    for n in range(500):
        s = rate_period(s, Period(f"R{n + 2}", (ClubGame("c", "d", DRAW),)), Options())
        widths.append(s.ratings["a"].deviation)
    assert widths == sorted(widths) and widths[-1] == 350.0
    assert s.ratings["a"].rating == s.ratings["b"].rating == 1500.0


def test_periods_group_consecutive_keys():
    ps = periods([((2025, "club", 1), ClubGame("a", "b", WIN)), ((2025, "club", 1), ClubGame("c", "d", LOSS)),
                  ((2025, "club", 2), ClubGame("a", "c", DRAW))])
    assert [len(p.games) for p in ps] == [2, 1]
    assert periods([]) == ()


@pytest.mark.parametrize("bad", [lambda: ClubGame("a", "a", WIN), lambda: ClubGame("a", "b", Fraction(2))])
def test_impossible_games(bad):
    with pytest.raises(ValueError):
        bad()


def test_history_follows_the_final_state():
    ps = periods([(r, ClubGame(w, b, s)) for r, w, b, s in
                  [(1, "a", "b", WIN), (1, "c", "d", DRAW), (2, "a", "c", LOSS), (3, "b", "d", WIN)]])
    h = history(ps, Options())
    final = club_ratings(ps, Options())
    assert {p: pts[-1].rating for p, pts in h.items()} == dict(final.ratings)
    assert [pt.played for pt in h["a"]] == [True, True, False]
    lo, hi = interval(final.ratings["a"])
    assert lo < final.ratings["a"].rating < hi


# ---------------------------------------------------------------- properties

PLAYERS = [f"m{i}" for i in range(8)]


@st.composite
def seasons(draw):
    """A few periods of games between eight members, each period a set of disjoint pairs."""
    found = []
    for r in range(draw(st.integers(min_value=1, max_value=6))):
        order = draw(st.permutations(PLAYERS))
        boards = draw(st.integers(min_value=1, max_value=4))
        games = tuple(ClubGame(order[2 * i], order[2 * i + 1], draw(st.sampled_from([WIN, DRAW, LOSS])))
                      for i in range(boards))
        found.append(Period(f"R{r + 1}", games))
    return found


starts = st.dictionaries(st.sampled_from(PLAYERS), st.integers(min_value=1000, max_value=2400), max_size=8)


@settings(max_examples=60, deadline=None)
@given(seasons(), starts, st.data())
def test_one_pass_equals_period_by_period(all_periods, start, data):
    options = Options(start=start)
    cut = data.draw(st.integers(min_value=0, max_value=len(all_periods)))
    halfway = club_ratings(all_periods[:cut], options)
    assert club_ratings(all_periods[cut:], options, halfway) == club_ratings(all_periods, options)
    by_round = State()
    for p in all_periods:
        by_round = rate_period(by_round, p, options)
    assert by_round == club_ratings(all_periods, options)


@settings(max_examples=60, deadline=None)
@given(seasons(), st.randoms(use_true_random=False))
def test_the_order_and_colours_of_a_periods_games_do_not_matter(all_periods, rnd):
    shuffled = []
    for p in all_periods:
        games = [ClubGame(g.black, g.white, 1 - g.score) if rnd.random() < 0.5 else g for g in p.games]
        rnd.shuffle(games)
        shuffled.append(Period(p.label, tuple(games)))
    assert club_ratings(shuffled, Options()) == club_ratings(all_periods, Options())


@settings(max_examples=30, deadline=None)
@given(seasons())
def test_reproducible(all_periods):
    assert club_ratings(all_periods, Options()) == club_ratings(list(all_periods), Options())


@settings(max_examples=40, deadline=None)
@given(seasons())
def test_rd_does_not_decrease_without_games(all_periods):
    state = State()
    for p in all_periods:
        after = rate_period(state, p, Options())
        played = {x for g in p.games for x in (g.white, g.black)}
        for player, rating in state.ratings.items():
            if player not in played:
                assert after.ratings[player].deviation >= rating.deviation
                assert after.ratings[player].rating == rating.rating
        state = after


def test_ten_seasons_in_well_under_a_second():
    """10 seasons × 60 players × 40 rounds (12,000 games, 400 periods); the bound is loose for slow machines."""
    import time

    rng = random.Random(23)
    items = []
    members = [f"m{i}" for i in range(60)]
    for season in range(10):
        for r in range(40):
            rng.shuffle(members)
            items += [((season, r), ClubGame(members[2 * b], members[2 * b + 1], rng.choice([WIN, DRAW, LOSS])))
                      for b in range(30)]
    t = time.perf_counter()
    state = club_ratings(periods(items), Options())
    elapsed = time.perf_counter() - t
    assert state.periods == 400 and len(state.ratings) == 60
    assert elapsed < 5
