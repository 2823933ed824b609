"""keizer.rating.glicko2 against Glickman's worked example ("Example of the Glicko-2 system",
2013, revised 2022) and properties of the update."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from keizer.rating import glicko2
from keizer.rating.glicko2 import Rating, Result

PLAYER = Rating(1500, 200, 0.06)
GAMES = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]


def test_glickmans_example():
    """The paper's results: r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999 (τ = 0.5)."""
    new = glicko2.update(PLAYER, GAMES, tau=0.5)
    assert abs(new.rating - 1464.06) < 0.01
    assert abs(new.deviation - 151.52) < 0.005
    assert abs(new.volatility - 0.05999) < 0.00001


def test_glickmans_example_step_by_step_as_the_paper_rounds():
    """The paper prints g to 4 decimals and E to 3 and carries those into v and Δ; doing the
    same gives every figure it prints, to its last digit (its μ′ = −0.2069 takes the sum of
    g(s − E) unrounded: with the rounded one it would be −0.2068)."""
    w = glicko2.working(PLAYER, GAMES, tau=0.5)
    assert w is not None
    assert (round(w.mu, 4), round(w.phi, 4)) == (0.0, 1.1513)
    g = [round(x, 4) for x in w.g]
    e = [round(x, 3) for x in w.e]
    assert g == [0.9955, 0.9531, 0.7242]
    assert e == [0.639, 0.432, 0.303]
    scores = [1, 0, 0]
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e))
    assert round(v, 4) == 1.7785
    improvement = sum(gj * (s - ej) for gj, ej, s in zip(g, e, scores))
    assert round(v * improvement, 4) == -0.4834
    sigma = glicko2._volatility(1.1513, 0.06, round(v, 4), -0.4834, 0.5)
    assert abs(sigma - 0.05999) < 0.00001
    phi_star = math.sqrt(1.1513 ** 2 + 0.05999 ** 2)
    phi_new = round(1 / math.sqrt(1 / phi_star ** 2 + 1 / 1.7785), 4)
    assert phi_new == 0.8722
    exact_improvement = sum(gj * (s - ej) for gj, ej, s in zip(w.g, w.e, scores))
    mu_new = round(0 + phi_new ** 2 * exact_improvement, 4)
    assert mu_new == -0.2069
    assert round(173.7178 * mu_new + 1500, 2) == 1464.06
    assert round(173.7178 * phi_new, 2) == 151.52


def test_the_unrounded_figures_are_close_to_the_papers_intermediates():
    w = glicko2.working(PLAYER, GAMES, tau=0.5)
    assert w is not None
    assert abs(w.v - 1.7785) < 0.001 and abs(w.delta - -0.4834) < 0.001
    assert abs(w.phi_new - 0.8722) < 0.0001 and abs(w.mu_new - -0.2069) < 0.0001


def test_no_games_only_widens_the_deviation():
    idle = glicko2.update(PLAYER, [])
    phi = 200 / glicko2.SCALE
    assert idle.rating == 1500 and idle.volatility == 0.06
    assert idle.deviation == glicko2.SCALE * math.sqrt(phi * phi + 0.06 * 0.06)


def test_scores_may_be_fractions():
    as_fraction = glicko2.update(PLAYER, [Result(Rating(1400, 30), Fraction(1, 2))])
    as_float = glicko2.update(PLAYER, [Result(Rating(1400, 30), 0.5)])
    assert as_fraction == as_float


ratings = st.builds(Rating, st.floats(min_value=800, max_value=2800), st.floats(min_value=30, max_value=350),
                    st.floats(min_value=0.03, max_value=0.1))
results = st.lists(st.builds(Result, ratings, st.sampled_from([0, 0.5, 1])), min_size=1, max_size=8)


@given(ratings)
def test_rd_does_not_decrease_without_games(r):
    assert glicko2.update(r, []).deviation >= r.deviation


@given(ratings, results)
def test_playing_narrows_the_deviation(r, games):
    """Step 7: φ′ < φ* = √(φ² + σ′²) (σ′ may grow after an upset, so RD can still rise a little)."""
    new = glicko2.update(r, games)
    phi = r.deviation / glicko2.SCALE
    assert new.deviation < glicko2.SCALE * math.sqrt(phi * phi + new.volatility ** 2)


@given(ratings, ratings)
def test_a_win_rates_higher_than_a_draw_than_a_loss(r, opponent):
    win, draw, loss = (glicko2.update(r, [Result(opponent, s)]).rating for s in (1, 0.5, 0))
    assert win > draw > loss


@given(ratings, ratings, st.floats(min_value=30, max_value=350))
def test_expected_scores_sum_to_one_with_equal_deviations(a, b, rd):
    a, b = Rating(a.rating, rd), Rating(b.rating, rd)
    assert abs(glicko2.expected(a, b) + glicko2.expected(b, a) - 1) < 1e-12


@given(ratings, results)
def test_the_volatility_stays_positive_and_finite(r, games):
    new = glicko2.update(r, games)
    assert 0 < new.volatility < 1 and math.isfinite(new.rating) and new.deviation > 0
