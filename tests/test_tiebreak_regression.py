"""The tie-break engine gives exactly the values it gave before its speed-up (issue 13).

``data/tiebreaks/regression.json`` was written by ``tiebreak_samples.py`` with the engine as it
was before it moved to integer arithmetic: every value of ~50 tie-break codes under every rule
edition, and rankings, on twelve seeded tournaments (see that module).  Values are compared as
text, so a type change (``Fraction(2)`` for ``2``) fails as well.  On random tournaments the
engine is held to ``tiebreak_reference.py``, a plain Fraction computation of the same rules.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from keizer.tiebreaks import Edition, Scoring, System, compute
from conftest import examples
from test_tiebreaks import tournaments
from tiebreak_reference import Reference
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


CODES = ("BH,BH/C1,BH/C2,BH/M1,BH/P,BH/C1/P,FB,FB/C1,AOB,AOB/F,BHS,BHS/F,SB,SB/C1,SB/P,KS,KS/L-1,KS/L+2,KS/P,PS,"
         "PS/C1,WIN,WON,BPG,BWG,REP,STD,ARO,ARO/C1,ARO/M1,ARO/U1000,TPR,TPR/D400,TPR/U1200,PTP,PTP/U1000,APRO,APPO,"
         "APRO/U1000").split(",")
SCORINGS = [Scoring(), Scoring(*(F(x) for x in (3, 1, 0, 3, 0, 3, 3, 1, 0))),
            Scoring(draw=F(1, 3), pab=F(1, 2), hpb=F(1, 3))]


@hsettings(max_examples=examples(150), deadline=None)
@given(tournaments(max_players=14, max_rounds=8), st.sampled_from(list(Edition)), st.sampled_from(list(System)),
       st.sampled_from(SCORINGS), st.integers(0, 3))
def test_engine_gives_the_reference_values(t, edition, system, scoring, back):
    t = replace(t, system=system, scoring=scoring)
    rounds = max(t.played_rounds - back, 0) if back else None
    got = compute(t, CODES, edition, rounds=rounds)
    ref = Reference(t, edition, rounds)
    for code in CODES:
        expected = {i: ref.value(code, i) for i in got[code]}
        assert {i: repr(v) for i, v in got[code].items()} == {i: repr(v) for i, v in expected.items()}, code
