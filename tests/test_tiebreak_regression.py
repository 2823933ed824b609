"""The tie-break engine gives exactly the values it gave before its speed-up (issue 13).

``data/tiebreaks/regression.json`` was written by ``tiebreak_samples.py`` with the engine as it
was before it moved to integer arithmetic: every value of ~50 tie-break codes under every rule
edition, and rankings, on twelve seeded tournaments (see that module).  Values are compared as
text, so a type change (``Fraction(2)`` for ``2``) fails as well.
"""

from __future__ import annotations

import json

import pytest

from tiebreak_samples import VECTORS, samples, values

EXPECTED = json.loads(VECTORS.read_text(encoding="utf-8"))
SAMPLES = samples()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_same_values_and_rankings_as_before(name):
    t, codes, rankings = SAMPLES[name]
    got = values(t, codes, rankings)
    assert got.keys() == EXPECTED[name].keys()
    for key, entry in EXPECTED[name].items():
        for code, expected in entry["values"].items():
            assert got[key]["values"][code] == expected, f"{name} {key} {code}"
        for order, expected in entry["ranks"].items():
            assert got[key]["ranks"][order] == expected, f"{name} {key} ranking {order}"
