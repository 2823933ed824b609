"""Knock-out brackets: seeding and byes (research/pairing.md §6.1), geometry,
match decisions with tie-break stages, armageddon and team BC/BBE."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from keizer.model import Result
from keizer.pairing.knockout import (
    Bracket,
    MatchFormat,
    MatchGame,
    MatchRecord,
    Stage,
    StageKind,
    bracket_state,
    decide_match,
    make_bracket,
    seed_by_rating,
    seeding_positions,
    to_play,
)
from conftest import examples

W, B, D = Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW
REGULAR, RAPID, BLITZ, ARMAGEDDON = StageKind


def names(n: int) -> list[str]:
    return [f"s{k}" for k in range(1, n + 1)]


def seed_of(name: str) -> int:
    return int(name[1:])


def won_by(winner: str) -> MatchRecord:
    return MatchRecord(((MatchGame(winner, W),),))


# --- seeding ------------------------------------------------------------------------


def test_standard_seeding_order():
    assert seeding_positions(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    pairs = seeding_positions(16)
    assert list(zip(pairs[::2], pairs[1::2])) == [  # research §6.1
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert seeding_positions(1) == (1,)
    with pytest.raises(ValueError, match="power of two"):
        seeding_positions(12)


def first_round(bracket: Bracket) -> list[tuple[int, int | None]]:
    return [s.seeds for s in bracket.slots if s.round == 1]  # type: ignore[misc]


def test_research_bye_examples():
    assert first_round(make_bracket(names(6))) == [(1, None), (4, 5), (2, None), (3, 6)]
    eleven = make_bracket(names(11))
    assert [s for s, opp in first_round(eleven) if opp is None] == [1, 4, 5, 2, 3]
    assert [p for p in first_round(eleven) if p[1] is not None] == [(8, 9), (7, 10), (6, 11)]


def test_seed_by_rating():
    ratings = {"Anna": 1850, "Bram": 2100, "Dirk": 1850, "Eva": 1400}
    assert seed_by_rating(["Anna", "Bram", "Cor", "Dirk", "Eva"], ratings) == (
        "Bram", "Anna", "Dirk", "Eva", "Cor")
    assert seed_by_rating(["Dirk", "Anna"], ratings) == ("Dirk", "Anna")  # ties keep the given order
    with pytest.raises(ValueError, match="more than once"):
        seed_by_rating(["Anna", "Anna"], ratings)


def test_bracket_refusals():
    with pytest.raises(ValueError, match="at least 2 entrants"):
        make_bracket(["solo"])
    with pytest.raises(ValueError, match="more than once: x"):
        make_bracket(["x", "y", "x"])


# --- properties for 2…70 entrants ---------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(min_value=2, max_value=70))
def test_every_entrant_once_and_byes_to_the_top_seeds(n):
    bracket = make_bracket(names(n))
    size = bracket.size
    assert size >= n > size // 2 and size & (size - 1) == 0
    seeds = [s for pair in first_round(bracket) for s in pair if s is not None]
    assert sorted(seeds) == list(range(1, n + 1))
    byes = [top for top, bottom in first_round(bracket) if bottom is None]
    assert sorted(byes) == list(range(1, size - n + 1))
    assert all(top + bottom == size + 1 for top, bottom in first_round(bracket) if bottom)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(min_value=2, max_value=70))
def test_geometry_feeds_each_slot_once(n):
    bracket = make_bracket(names(n))
    slots = {(s.round, s.index): s for s in bracket.slots}
    assert [sum(1 for s in bracket.slots if s.round == r) for r in range(1, bracket.rounds + 1)] == [
        bracket.size // 2 ** r for r in range(1, bracket.rounds + 1)]
    finals = [s for s in bracket.slots if s.feeds is None]
    assert [(s.round, s.index) for s in finals] == [(bracket.rounds, 1)]
    for s in bracket.slots:
        if s.feeds:
            target = slots[s.feeds]
            assert target.fed_by[s.index % 2 == 0] == (s.round, s.index)  # odd index: top
        if s.round > 1:
            assert all(slots[f].feeds == (s.round, s.index) for f in s.fed_by)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(min_value=2, max_value=70), st.randoms(use_true_random=False))
def test_seeds_1_and_2_meet_only_in_the_final(n, rnd):
    bracket = make_bracket(names(n))
    results: dict[tuple[int, int], MatchRecord] = {}
    while ready := to_play(bracket_state(bracket, results)):
        for m in ready:
            assert {m.top, m.bottom} != {"s1", "s2"} or m.round == bracket.rounds
            results[(m.round, m.index)] = won_by(rnd.choice([m.top, m.bottom]))
    states = bracket_state(bracket, results)
    assert not to_play(states) and states[-1].winner is not None
    assert states[-1].round == bracket.rounds


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(min_value=2, max_value=70))
def test_when_the_favourite_always_wins(n):
    """Round r of R brings together seeds adding up to 2^(R−r+1) + 1: 1 v 2 in
    the final, 1 v 4 and 2 v 3 in the semi-finals, …"""
    bracket = make_bracket(names(n))
    results: dict[tuple[int, int], MatchRecord] = {}
    while ready := to_play(bracket_state(bracket, results)):
        for m in ready:
            top, bottom = sorted((m.top, m.bottom), key=seed_of)
            assert seed_of(top) + seed_of(bottom) == 2 ** (bracket.rounds - m.round + 1) + 1
            results[(m.round, m.index)] = won_by(top)
    final = bracket_state(bracket, results)[-1]
    assert (final.top, final.bottom, final.winner) == ("s1", "s2", "s1")


def test_next_round_appears_as_matches_are_decided():
    bracket = make_bracket(names(5))  # 8 places: 1, 2, 3 have byes; 4–5 play
    states = bracket_state(bracket, {})
    # 2 v 3 can be played at once: both came through byes
    assert [(m.top, m.bottom) for m in to_play(states)] == [("s4", "s5"), ("s2", "s3")]
    assert [(m.round, m.index, m.top, m.bottom) for m in states if m.round == 2] == [
        (2, 1, "s1", None), (2, 2, "s2", "s3")]
    states = bracket_state(bracket, {(1, 2): won_by("s5")})
    assert [(m.round, m.index, m.top, m.bottom) for m in to_play(states)] == [
        (2, 1, "s1", "s5"), (2, 2, "s2", "s3")]
    assert states[0].how == "bye" and states[0].winner == "s1"


def test_bracket_state_refusals():
    bracket = make_bracket(names(5))
    with pytest.raises(ValueError, match="is a bye"):
        bracket_state(bracket, {(1, 1): won_by("s1")})
    with pytest.raises(ValueError, match="sides are not known yet"):
        bracket_state(bracket, {(2, 1): won_by("s1")})
    with pytest.raises(ValueError, match=r"no such match in the bracket: \(4, 1\)"):
        bracket_state(bracket, {(4, 1): won_by("s1")})


# --- decisions of individual matches ---------------------------------------------

TWO_GAMES = MatchFormat((Stage(REGULAR, 2), Stage(RAPID, 2), Stage(BLITZ, 2), Stage(ARMAGEDDON, 1)))


def record(*stages: list[tuple[str, Result]]) -> MatchRecord:
    return MatchRecord(tuple(tuple(MatchGame(w, r) for w, r in stage) for stage in stages))


def test_regular_games_decide():
    assert decide_match(TWO_GAMES, "ann", "bob", record([("ann", D), ("bob", B)])) == (
        "ann", "regular 1½–½")
    assert decide_match(TWO_GAMES, "ann", "bob", record([("ann", W), ("bob", W)])) == (
        None, "level 1–1 after the regular games: rapid next")


def test_a_match_is_decided_as_soon_as_it_cannot_be_levelled():
    four = MatchFormat((Stage(REGULAR, 4),))
    assert decide_match(four, "ann", "bob", record([("ann", W), ("bob", B), ("ann", D)])) == (
        "ann", "regular 2½–½")
    assert decide_match(four, "ann", "bob", record([("ann", W), ("bob", B)])) == (
        None, "regular 2–0 after 2 of 4 games")
    assert decide_match(four, "ann", "bob", MatchRecord()) == (None, "to play")


def test_tie_break_stages_in_order():
    level = [("ann", D), ("bob", D)]
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, [("bob", W), ("ann", D)])) == (
        "bob", "rapid ½–1½")
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, level, [("ann", W), ("bob", D)])) == (
        "ann", "blitz 1½–½")
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, level, level)) == (
        None, "level 1–1 after the blitz games: armageddon next")


def test_armageddon_draw_counts_for_black():
    level = [("ann", D), ("bob", D)]
    # ann has White in the armageddon game: a draw is bob's win
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, level, level, [("ann", D)])) == (
        "bob", "armageddon 0–1 (a draw counts as a win for Black)")
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, level, level, [("bob", D)])) == (
        "ann", "armageddon 1–0 (a draw counts as a win for Black)")
    assert decide_match(TWO_GAMES, "ann", "bob", record(level, level, level, [("bob", W)])) == (
        "bob", "armageddon 0–1")


def test_level_after_every_stage_waits_for_the_arbiter():
    fmt = MatchFormat((Stage(REGULAR, 1), Stage(BLITZ, 2)))
    rec = record([("ann", D)], [("bob", W), ("ann", W)])
    assert decide_match(fmt, "ann", "bob", rec) == (
        None, "level 1–1 after the blitz games: the arbiter decides (an award)")
    assert decide_match(fmt, "ann", "bob", MatchRecord(rec.stages, awarded_to="bob")) == (
        "bob", "awarded by the arbiter")
    # a double forfeit in armageddon is no draw: nobody wins it
    arm = MatchFormat((Stage(REGULAR, 1), Stage(ARMAGEDDON, 1)))
    assert decide_match(arm, "ann", "bob", record([("ann", D)], [("ann", Result.DOUBLE_FORFEIT)]))[0] is None


def test_forfeits_count_as_results():
    assert decide_match(TWO_GAMES, "ann", "bob", record([("ann", Result.BLACK_FORFEIT_WIN),
                                                         ("bob", Result.WHITE_FORFEIT_WIN)])) == (
        "bob", "regular 0–2")


@pytest.mark.parametrize("rec, message", [
    (record([("ann", W), ("bob", B)], [("ann", W)]), "stage 2 recorded, but stage 1 decided the match"),
    (record([("ann", W)], [("ann", W)]), "stage 2 recorded, but stage 1 has not ended"),
    (record([("ann", W), ("bob", B), ("ann", D)]), "3 games of regular, the format has 2"),
    (record([("cor", W)]), "cor does not play in ann v bob"),
    (MatchRecord(awarded_to="cor"), "cor does not play in ann v bob"),
    (record(*[[("ann", D), ("bob", D)]] * 5), "5 stages recorded, the format has 4"),
])
def test_decision_refusals(rec, message):
    with pytest.raises(ValueError, match=message):
        decide_match(TWO_GAMES, "ann", "bob", rec)


@pytest.mark.parametrize("stages, message", [
    ((), "starts with its regular games"),
    ((Stage(RAPID, 2),), "starts with its regular games"),
    ((Stage(REGULAR, 2), Stage(REGULAR, 2)), "only the first stage is regular"),
    ((Stage(REGULAR, 2), Stage(BLITZ, 2), Stage(RAPID, 2)), r"stage 3 \(rapid\) comes after blitz"),
    ((Stage(REGULAR, 2), Stage(ARMAGEDDON, 1), Stage(ARMAGEDDON, 1)), "comes after armageddon"),
    ((Stage(REGULAR, 0),), "at least one game"),
])
def test_format_refusals(stages, message):
    with pytest.raises(ValueError, match=message):
        MatchFormat(stages)


def test_repeated_tie_break_kinds_are_allowed():
    fmt = MatchFormat((Stage(REGULAR, 2), Stage(RAPID, 2), Stage(RAPID, 2), Stage(BLITZ, 2)))
    level = [("ann", D), ("bob", D)]
    assert decide_match(fmt, "ann", "bob", record(level, level, [("ann", W), ("bob", B)])) == (
        "ann", "rapid 2–0")


# --- team knock-out -----------------------------------------------------------------

TEAM = MatchFormat((Stage(REGULAR, 4), Stage(BLITZ, 4)), team=True)


def boards(top: str, bottom: str, *results: Result) -> list[tuple[str, Result]]:
    """Board results with the top team White on odd boards."""
    return [(top if b % 2 else bottom, r) for b, r in enumerate(results, 1)]


def test_team_match_decided_by_game_points():
    # Koalas W on 1 and 3: 1-0, ½, 1-0, 0-1 (Narwhals White) → 2½–1½
    rec = record(boards("Koalas", "Narwhals", W, D, W, W))
    assert decide_match(TEAM, "Koalas", "Narwhals", rec) == ("Koalas", "regular 2½–1½")


def test_team_match_level_goes_to_board_count():
    # TEC exercise, round 3: from the Koalas' side 1-0, ½, ½, 0-1 → 2–2, BC 3½ v 6½.
    # Board 4: Narwhals have White and win.
    rec = record(boards("Koalas", "Narwhals", W, D, D, W))
    assert decide_match(TEAM, "Koalas", "Narwhals", rec) == (
        "Koalas", "regular 2–2, board count 3½ v 6½ (lower wins)")


def test_team_match_level_on_board_count_goes_to_bbe():
    # From the top team's side 1, 0, 0, 1 → 2–2; BC 1 + 4 = 5 v 2 + 3 = 5;
    # without board 4: 1 v 2 → the bottom team.
    rec = record(boards("Ajax", "Bok", W, W, B, B))  # boards 2 and 4: Bok has White
    assert decide_match(TEAM, "Ajax", "Bok", rec) == (
        "Bok", "regular 2–2, bottom-board elimination: boards 1–3 1–2")


def test_team_match_level_on_everything_goes_to_the_next_stage():
    drawn = boards("Ajax", "Bok", D, D, D, D)
    assert decide_match(TEAM, "Ajax", "Bok", record(drawn)) == (
        None, "level 2–2 after the regular games, also on board count and bottom-board elimination:"
              " blitz next")
    assert decide_match(TEAM, "Ajax", "Bok", record(drawn, boards("Bok", "Ajax", D, W, D, D))) == (
        "Ajax", "blitz 2½–1½")


def test_team_match_is_not_decided_before_all_boards_when_it_can_still_be_level():
    # 1: Ajax (White) wins, 2: Bok (White) loses, 3: draw → 2½–½ with one board to go
    rec = record(boards("Ajax", "Bok", W, B, D))
    assert decide_match(TEAM, "Ajax", "Bok", rec) == ("Ajax", "regular 2½–½")
    rec = record(boards("Ajax", "Bok", W, W, D))  # 1½–1½ with board 4 to come
    assert decide_match(TEAM, "Ajax", "Bok", rec) == (None, "regular 1½–1½ after 3 of 4 games")


def test_team_bracket_end_to_end():
    bracket = make_bracket(["Ajax", "Bok", "Cas"], TEAM)
    results = {(1, 2): record(boards("Bok", "Cas", W, D, D, W))}  # Bok on board count
    states = bracket_state(bracket, results)
    assert states[1].winner == "Bok" and "board count" in states[1].how
    assert [(m.top, m.bottom) for m in to_play(states)] == [("Ajax", "Bok")]


def test_random_brackets_always_finish():
    n = 37
    rnd = random.Random(5)
    bracket = make_bracket(names(n), TWO_GAMES)
    results: dict[tuple[int, int], MatchRecord] = {}
    while to_play(states := bracket_state(bracket, results)):
        for m in to_play(states):
            stages = []
            for stage in TWO_GAMES.stages:  # play whole stages until one decides
                games = [(rnd.choice([m.top, m.bottom]), rnd.choice([W, B, D, D]))
                         for _ in range(stage.games)]
                stages.append(games)
                if decide_match(TWO_GAMES, m.top, m.bottom, record(*stages))[0]:
                    break
            results[(m.round, m.index)] = record(*stages)
    assert bracket_state(bracket, results)[-1].winner in names(n)
