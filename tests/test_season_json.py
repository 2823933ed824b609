"""Season JSON: round trip, the spec's keys, errors that name the place."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import load_vector, vector_files
from keizer.formats.season_json import FormatError, dump, load_season, parse
from keizer.scoring import compute_standings
from test_scoring import random_season


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_dump_then_load_gives_the_same_season(seed):
    rng = random.Random(seed)
    s = random_season(rng, rng.randint(2, 9), rng.randint(0, 4))
    again = load_season(json.loads(json.dumps(dump(s, "classic"))))
    assert again.players == s.players and again.rounds == s.rounds and again.settings == s.settings
    assert compute_standings(again) == compute_standings(s)


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_vectors_round_trip(path):
    s = load_season(load_vector(path))
    assert compute_standings(load_season(dump(s))) == compute_standings(s)


def test_spec_example_reads():
    text = """{"format": "keizer-season", "version": 1, "name": "Interne competitie 2026-2027",
      "system": "keizer", "settings": {"preset": "classic", "top": 50, "excused": "1/3"},
      "initial_order": ["p2", "p1"],
      "players": [{"id": "p1", "name": "Anna de Vries", "rating": 1850},
                  {"id": "p2", "name": "Bram Jansen", "rating": 1720, "withdrawn_after": 12},
                  {"id": "p3", "name": "Cor Smit", "joined": 3}],
      "rounds": [{"round": 1, "date": "2026-09-08", "games": [{"white": "p1", "black": "p2", "result": "1-0"}],
                  "absent": {"p3": "excused"}, "bye": [], "external": {}},
                 {"round": 2, "present": ["p1", "p3"], "unknown_key": 1}]}"""
    s = parse(text)
    assert s.settings.top == 50 and s.initial_order == ("p2", "p1")
    assert s.player("p2").withdrawn_after == 12 and s.player("p3").joined == 3
    assert s.rounds[1].present == ("p1", "p3")
    assert dump(s)["rounds"][1]["present"] == ["p1", "p3"]
    assert s.completed_rounds() == 1


@pytest.mark.parametrize("result", ["½-½", "0.5-0.5", "1/2-1/2", "="])
def test_draw_spellings(result):
    s = load_season({"players": [{"id": "a"}, {"id": "b"}],
                     "rounds": [{"games": [{"white": "a", "black": "b", "result": result}]}]})
    assert s.rounds[0].games[0].result.value == "1/2-1/2"


@pytest.mark.parametrize("data,message", [
    ([], "one JSON object"),
    ({"players": [{"id": "a"}]}, "at least two players"),
    ({"players": [{"id": "a"}, {"id": "b", "rating": "high"}]}, "players[1].rating"),
    ({"players": [{"id": "a"}, {"id": "b"}], "initial_order": ["c"]}, "initial_order[0]: unknown player 'c'"),
    ({"players": [{"id": "a"}, {"id": "b"}], "rounds": [{"bye": ["a", "a"]}]}, "rounds[0].bye[1]: player 'a' already appears"),
    ({"players": [{"id": "a"}, {"id": "b"}], "rounds": [{"absent": {"a": "sick"}}]}, "rounds[0].absent.a"),
    ({"players": [{"id": "a"}, {"id": "b"}], "rounds": [{"external": {"a": "won"}}]}, "rounds[0].external.a"),
    ({"players": [{"id": "a"}, {"id": "b"}], "system": "swiss"}, "system"),
    ({"players": [{"id": "a"}, {"id": "b"}], "settings": {"colour": 1}}, "unknown setting"),
])
def test_errors_name_the_first_problem(data, message):
    with pytest.raises(FormatError) as e:
        load_season(data)
    assert message in str(e.value)


def _two_rounds(**player_b) -> dict:
    return {"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B", **player_b}],
            "rounds": [{"round": 1, "games": [{"white": "a", "black": "b", "result": "1-0"}]},
                       {"round": 2, "games": [{"white": "b", "black": "a", "result": "0-1"}]}]}


def test_a_round_without_results_before_one_with_results_is_refused():
    data = _two_rounds()
    data["rounds"][0]["games"][0]["result"] = None
    with pytest.raises(FormatError, match=r"^rounds\[0\]: round 1 is not complete .* round 2 has results"):
        load_season(data)
    data["rounds"][1]["games"][0]["result"] = None  # unplayed at the end: a round still to be played
    assert load_season(data).completed_rounds() == 0


@pytest.mark.parametrize("extra, round_no", [({"joined": 2}, 1), ({"withdrawn_after": 1}, 2)])
def test_a_game_outside_a_players_rounds_is_refused(extra, round_no):
    with pytest.raises(FormatError, match=rf"player 'b' plays in round {round_no}, outside"):
        load_season(_two_rounds(**extra))
