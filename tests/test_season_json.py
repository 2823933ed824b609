"""Season JSON: round trip, the spec's keys, errors that name the place."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, load_vector, vector_files
from keizer.formats.season_json import FormatError, dump, load_season, parse
from keizer.scoring import compute_standings
from test_scoring import random_season


@settings(max_examples=examples(40), deadline=None)
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


# -- the members' FIDE ids and ratings, and the competition's rating list -------------------


def _fide_club(tmp_path, capsys):
    from test_cli import run

    db = tmp_path / "club.db"
    for args in (["Anna de Vries", "--rating", "1850", "--fide-id", "7000001", "--fide-rating", "1901"],
                 ["Bram Jansen", "--rating", "1700", "--fide-id", "7000002"],
                 ["Cor Smit", "--rating", "1600"]):
        assert run(capsys, db, "member", "add", *args)[0] == 0
    assert run(capsys, db, "competition", "create", "Interne", "--all-members", "--set", "rating_list=fide")[0] == 0
    assert run(capsys, db, "attend", "--date", "2026-09-08")[0] == 0
    assert run(capsys, db, "pair")[0] == 0
    assert run(capsys, db, "result", "1=1-0")[0] == 0
    return db


def _export(db):
    from keizer.operations.members import season_member_data
    from keizer.store import Store

    store = Store.open(db)
    comp = next(c for c in store.competitions() if c["name"] == "Interne")
    return dump(store.load_season(comp["id"]), store.preset(comp["id"]), season_member_data(store, comp["id"]))


def _import(db, data, name="Copy"):
    from keizer.formats.season_json import member_data
    from keizer.operations.competition import import_season
    from keizer.operations.members import store_season_member_data
    from keizer.store import Store

    extra = member_data(data)
    store = Store.open(db, create=True)
    with store.change("import", "import season"):
        comp_id = import_season(store, load_season(data), name, data["settings"]["preset"],
                                rating_list=extra.rating_list)
        notes = store_season_member_data(store, comp_id, extra)
    return store, comp_id, notes


def test_members_fide_ids_ratings_and_the_rating_list_round_trip(tmp_path, capsys):
    data = json.loads(json.dumps(_export(_fide_club(tmp_path, capsys))))
    assert data["rating_list"] == "fide"
    by_name = {p["name"]: p for p in data["players"]}
    assert (by_name["Anna de Vries"]["fide_id"], by_name["Anna de Vries"]["fide_rating"]) == ("7000001", 1901)
    assert "fide_rating" not in by_name["Bram Jansen"] and "fide_id" not in by_name["Cor Smit"]
    # Into a club that has none of these members: they come with their FIDE ids and ratings.
    other = tmp_path / "other.db"
    store, comp_id, notes = _import(other, data, "Interne")
    assert notes == [] and store.rating_list(comp_id) == "fide"
    got = {m["name"]: m for m in store.members()}
    assert (got["Anna de Vries"]["fide_id"], got["Anna de Vries"]["fide_rating"]) == ("7000001", 1901)
    assert (got["Bram Jansen"]["fide_id"], got["Cor Smit"]["fide_id"]) == ("7000002", None)
    store.close()
    assert _export(other) == data  # and it exports the same file again


def test_a_members_own_fide_id_and_rating_are_kept_and_named(tmp_path, capsys):
    db = _fide_club(tmp_path, capsys)
    data = _export(db)
    for p in data["players"]:
        if p["name"] == "Anna de Vries":
            p["fide_id"], p["fide_rating"] = "7000009", 2000
        if p["name"] == "Cor Smit":
            p["fide_id"] = "7000002"  # Bram's
    store, _comp, notes = _import(db, data)
    assert notes == ["Anna de Vries: FIDE id 7000009 not stored, the member has 7000001",
                     "Cor Smit: FIDE id 7000002 not stored, member Bram Jansen (id 2) has it"]
    got = {m["name"]: m for m in store.members()}
    assert (got["Anna de Vries"]["fide_id"], got["Anna de Vries"]["fide_rating"]) == ("7000001", 1901)


def test_an_older_file_without_them_still_loads():
    from keizer.formats.season_json import member_data

    data = {"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "rounds": []}
    assert load_season(data).players[0].name == "A"
    extra = member_data(data)
    assert (extra.rating_list, dict(extra.fide_ids), dict(extra.fide_ratings)) == (None, {}, {})


@pytest.mark.parametrize("change, match", [
    ({"rating_list": "elo"}, "rating_list: 'elo' is not national or fide"),
    ({"players": [{"id": "a", "name": "A", "fide_id": 1503014}, {"id": "b"}]}, "players[0].fide_id: 1503014 is not"),
    ({"players": [{"id": "a", "name": "A", "fide_id": "15-03"}, {"id": "b"}]}, "players[0].fide_id: '15-03'"),
    ({"players": [{"id": "a", "name": "A"}, {"id": "b", "fide_rating": 5000}]}, "players[1].fide_rating: a whole"),
])
def test_wrong_member_fields_are_refused_by_their_path(change, match):
    data = {"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], **change}
    with pytest.raises(FormatError, match=match.replace("[", r"\[").replace("]", r"\]")):
        load_season(data)


def test_keizer_export_and_import_carry_the_fide_fields(tmp_path, capsys):
    """The same round trip through the commands a club uses: `keizer export`, `keizer import`."""
    from test_cli import run

    db = _fide_club(tmp_path, capsys)
    out = tmp_path / "season.json"
    code, _, err = run(capsys, db, "export", "--format", "json", "-o", str(out))
    assert code == 0, err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rating_list"] == "fide" and any(p.get("fide_id") == "7000001" for p in data["players"])
    other = tmp_path / "other.db"
    code, _, err = run(capsys, other, "import", str(out))
    assert code == 0, err
    again = tmp_path / "again.json"
    code, _, err = run(capsys, other, "export", "--format", "json", "-o", str(again))
    assert code == 0, err
    assert json.loads(again.read_text(encoding="utf-8")) == data
