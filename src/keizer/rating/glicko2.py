"""Glicko-2: one rating period of Mark Glickman's rating system.

Source: Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, 30 November
2013, revised 22 March 2022; http://www.glicko.net/glicko/glicko2.pdf). The step numbers
below are the paper's. A player has a rating r, a rating deviation RD and a volatility σ; the
system constant τ (the paper suggests 0.3 to 1.2) limits how fast σ changes. The
calculation runs on the Glicko-2 scale (μ = (r − 1500) / 173.7178, φ = RD / 173.7178) and
every game of a period is rated against the opponents' ratings before the period.

Floats, because step 5 is iterative: the new volatility is the root of f(x) = 0, found by
the Illinois variant of the regula falsi to the paper's tolerance ε = 0.000001, with the
2022 revision's test "f(C)·f(B) ≤ 0".

Glickman's worked example (the paper's section "Example"): a player rated 1500, RD 200,
σ 0.06 beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), τ = 0.5. The
paper prints r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999, computed from intermediate values
rounded to four decimals (μ′ = −0.2069); unrounded, the same steps give 1464.0507,
151.5165 and 0.0599960, within the paper's precision (tests/test_rating_glicko2.py also
repeats the paper's rounded chain and gets its printed v, Δ, μ′, φ′ and r′ exactly):

>>> me = Rating(1500, 200, 0.06)
>>> new = update(me, [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)], tau=0.5)
>>> abs(new.rating - 1464.06) < 0.01, abs(new.deviation - 151.52) < 0.005, abs(new.volatility - 0.05999) < 0.00001
(True, True, True)
>>> round(SCALE * round((new.rating - 1500) / SCALE, 4) + 1500, 2)
1464.06
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

#: 173.7178: the paper's conversion between the Glicko and the Glicko-2 scale (400 / ln 10).
SCALE = 173.7178
#: The paper's step 1: an unrated player starts at 1500 with RD 350 (and σ 0.06, "depends on
#: the particular application").
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The paper's example τ, also keizer's default.
TAU = 0.5
#: Step 5's convergence tolerance.
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale (r, RD, σ)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent's rating before the period and the score."""

    opponent: Rating
    score: Fraction | float


@dataclass(frozen=True)
class Working:
    """The paper's intermediate quantities for one player and period (steps 2–7)."""

    mu: float
    phi: float
    #: Per game: g(φj) and E(μ, μj, φj).
    g: tuple[float, ...]
    e: tuple[float, ...]
    #: Step 3's estimated variance v and step 4's improvement Δ.
    v: float
    delta: float
    #: Step 5's new volatility σ′, step 6's pre-period φ*, step 7's φ′ and μ′.
    volatility: float
    phi_star: float
    phi_new: float
    mu_new: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ′ by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def working(player: Rating, results: Sequence[Result], tau: float = TAU) -> Working | None:
    """Steps 2–7 for a player who played in the period (None: no games, see :func:`update`).

    >>> w = working(Rating(1500, 200, 0.06), [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0),
    ...                                        Result(Rating(1700, 300), 0)])
    >>> [round(x, 4) for x in w.g], [round(x, 3) for x in w.e]
    ([0.9955, 0.9531, 0.7242], [0.639, 0.432, 0.303])
    >>> round(w.v, 4), round(w.delta, 4), round(w.phi_star, 4), round(w.mu_new, 4), round(w.phi_new, 4)
    (1.779, -0.4839, 1.1529, -0.2069, 0.8722)

    (The paper's v = 1.7785 and Δ = −0.4834 come from g and E rounded as printed above.)
    """
    if not results:
        return None
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    gs, es, ss = [], [], []
    for r in results:
        mu_j = (r.opponent.rating - START_RATING) / SCALE
        g = _g(r.opponent.deviation / SCALE)
        gs.append(g)
        es.append(1.0 / (1.0 + math.exp(-g * (mu - mu_j))))
        ss.append(float(r.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e in zip(gs, es))
    improvement = sum(g * (s - e) for g, e, s in zip(gs, es, ss))
    delta = v * improvement
    sigma = _volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Working(mu, phi, tuple(gs), tuple(es), v, delta, sigma, phi_star, phi_new, mu_new)


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period (step 8).

    A player who did not play keeps r and σ, and φ grows to √(φ² + σ²) (the paper's
    "if the player does not compete during the rating period"):

    >>> idle = update(Rating(1500, 200, 0.06), [])
    >>> idle.rating, round(idle.deviation, 2), idle.volatility
    (1500, 200.27, 0.06)
    """
    w = working(player, results, tau)
    if w is None:
        phi = player.deviation / SCALE
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.volatility ** 2), player.volatility)
    return Rating(SCALE * w.mu_new + START_RATING, SCALE * w.phi_new, w.volatility)


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent, E(μ, μj, φj) of step 3.

    >>> round(expected(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    g = _g(opponent.deviation / SCALE)
    return 1.0 / (1.0 + math.exp(-g * (player.rating - opponent.rating) / SCALE))
