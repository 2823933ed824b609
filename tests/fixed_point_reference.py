"""The Keizer fixed point as plainly as docs/scoring.md states it — the reference the fast
one (``keizer.scoring._Chain._fixed_point``: packed sums, changed by the players who moved)
is checked against in ``test_scoring_fixed_point.py``.

Every pass prices every player's score again (a sum over whom they earned points from),
ranks, and stops when the ranking repeats: the same ranking twice in a row is the fixed
point; one seen earlier in the round closes a cycle, priced with the mean values over it;
at ``max_iterations`` passes the last one stands.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Season
from keizer.scoring import Standing, _Chain, _off_ladder


class ReferenceChain(_Chain):
    def _fixed_point(self, coef: Sequence[Mapping[int, int]], own_factor: int, start_values: list[int],
                     previous: list[int], r: int) -> tuple[list[int], list[int], dict[str, Fraction], int, int]:
        own_is_start = self.settings.own_value == "start"
        rankings = [previous]  # rankings[k]: the ranking after pass k, whose values price pass k+1
        while True:
            values = self._values_of(rankings[-1])
            scores = self._scores(coef, values, start_values if own_is_start else values, own_factor)
            new = self._rank(scores, r)
            passes = len(rankings)
            if passes > 1 and new == rankings[-1]:
                return new, scores, self._value_map(rankings[-1]), passes, 0
            if passes > 1 and new in rankings:
                first = max(k for k, ranked in enumerate(rankings) if ranked == new)
                cycle = rankings[first:]
                period = len(cycle)
                total = [sum(column) for column in zip(*(self._values_of(ranked) for ranked in cycle))]
                own = [v * period for v in start_values] if own_is_start else total
                mean_scores = self._scores(coef, total, own, own_factor)
                mean = {pid: Fraction(total[i], self.dv * period) for i, pid in enumerate(self.ids)}
                return self._rank(mean_scores, r), mean_scores, mean, passes, period
            if passes >= self.settings.max_iterations:
                return new, scores, self._value_map(rankings[-1]), passes, 0
            rankings.append(new)


def reference_standings(season: Season) -> tuple[Standing, ...]:
    """Every standing of ``season``, each computed on its own by :class:`ReferenceChain`."""
    return tuple(ReferenceChain(season, season.settings, _off_ladder(season, r), r).standing(r)
                 for r in range(season.completed_rounds() + 1))
