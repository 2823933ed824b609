"""Team events: line-ups, board colours, match points, BC/BBE, team round-robins, Crepaux."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from keizer.model import Result
from keizer.pairing.teams import (
    BoardPairing,
    MatchScoring,
    Seat,
    Team,
    TeamMatchResult,
    board_count,
    board_pairings,
    compare_boards,
    crepaux_schedule,
    first_has_white,
    points_text,
    result_points,
    team_round_robin,
)

W, B, D = Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW
ONE, HALF, NIL = Fraction(1), Fraction(1, 2), Fraction(0)


# --- line-ups and boards ----------------------------------------------------------


def test_lineup_keeps_the_registered_order_and_empties_the_lowest_boards():
    team = Team("SV", ("a", "b", "c", "d"), reserves=("r1", "r2"))
    assert team.lineup() == ("a", "b", "c", "d")
    assert team.lineup(absent={"a", "c"}) == ("b", "d", "r1", "r2")
    assert team.lineup(absent={"b", "r1"}) == ("a", "c", "d", "r2")
    assert team.lineup(absent={"a", "b", "r1", "r2"}) == ("c", "d", None, None)


def test_first_named_team_has_white_on_odd_boards():
    boards = board_pairings(("a1", "a2", "a3", "a4"), ("b1", "b2", "b3", "b4"))
    assert boards == (BoardPairing(1, "a1", "b1"), BoardPairing(2, "b2", "a2"),
                      BoardPairing(3, "a3", "b3"), BoardPairing(4, "b4", "a4"))
    assert [first_has_white(b) for b in range(1, 7)] == [True, False] * 3
    with pytest.raises(ValueError, match="different length"):
        board_pairings(("a1",), ("b1", "b2"))


# --- points -----------------------------------------------------------------------


def test_game_and_match_points():
    # A v B: board 1 A White wins, 2 B White (draw), 3 A White loses, 4 B White loses
    m = TeamMatchResult("A", "B", (W, D, B, B))
    assert m.board_points == ((ONE, NIL), (HALF, HALF), (NIL, ONE), (ONE, NIL))
    assert m.game_points == (Fraction(5, 2), Fraction(3, 2))
    assert m.match_points() == (2, 0)
    assert m.match_points(MatchScoring(win=3, draw=1, loss=0)) == (3, 0)
    level = TeamMatchResult("A", "B", (W, W, D, D))
    assert level.game_points == (2, 2) and level.match_points() == (1, 1)


def test_forfeits_count_as_their_result_and_a_double_forfeit_as_nothing():
    m = TeamMatchResult("A", "B", (Result.WHITE_FORFEIT_WIN, Result.DOUBLE_FORFEIT,
                                   Result.BLACK_FORFEIT_WIN, D))
    assert m.board_points == ((ONE, NIL), (NIL, NIL), (NIL, ONE), (HALF, HALF))
    assert m.game_points == (Fraction(3, 2), Fraction(3, 2))
    assert result_points(Result.DOUBLE_FORFEIT) == (0, 0)


def test_match_scoring_must_not_rise_towards_a_loss():
    with pytest.raises(ValueError, match="must not rise"):
        MatchScoring(win=1, draw=2, loss=0)


def test_points_text():
    assert [points_text(Fraction(x, 2)) for x in (0, 1, 2, 7)] == ["0", "½", "1", "3½"]


# --- one match's tie-breaks (FIDE C.07 art. 12) -----------------------------------


def test_board_count_of_the_tec_exercise():
    # research/tiebreaks.md and data/tec2023-expected.json: Koalas v Narwhals 2–2,
    # boards 1-0, ½, ½, 0-1 from the Koalas' side: BC 3.5 v 6.5, Koalas ahead.
    koalas, narwhals = [ONE, HALF, HALF, NIL], [NIL, HALF, HALF, ONE]
    assert board_count(koalas) == Fraction(7, 2)
    assert board_count(narwhals) == Fraction(13, 2)
    assert compare_boards(koalas, narwhals) == (1, "board count 3½ v 6½ (lower wins)")
    assert compare_boards(narwhals, koalas)[0] == -1


def test_game_points_come_before_board_count():
    # 2½–1½ although the first team's BC (1·0 + 2·1 + 3·1 + 4·½ = 7) is the higher
    first, second = [NIL, ONE, ONE, HALF], [ONE, NIL, NIL, HALF]
    assert compare_boards(first, second) == (1, "game points 2½–1½")


def test_bottom_board_elimination_when_board_count_is_level():
    # 1, 0, 0, 1 v 0, 1, 1, 0: GP 2–2, BC 1+4 = 5 v 2+3 = 5; without board 4: 1 v 2
    assert compare_boards([ONE, NIL, NIL, ONE], [NIL, ONE, ONE, NIL]) == (
        -1, "bottom-board elimination: boards 1–3 1–2")


def test_bottom_board_elimination_on_six_boards():
    first = [ONE, NIL, HALF, HALF, NIL, ONE]     # GP 3, BC 1 + 0 + 1½ + 2 + 0 + 6 = 10½
    second = [NIL, ONE, HALF, HALF, ONE, NIL]    # GP 3, BC 0 + 2 + 1½ + 2 + 5 + 0 = 10½
    assert compare_boards(first, second) == (-1, "bottom-board elimination: boards 1–5 2–3")


def test_bottom_board_elimination_goes_on_dropping_boards():
    first = [ONE, NIL, ONE, HALF]     # GP 2½, BC 1 + 0 + 3 + 2 = 6
    second = [HALF, ONE, HALF, HALF]  # GP 2½, BC ½ + 2 + 1½ + 2 = 6
    # boards 1–3: 2 v 2, still level; boards 1–2: 1 v 1½
    assert compare_boards(first, second) == (-1, "bottom-board elimination: boards 1–2 1–1½")


def test_level_on_everything():
    assert compare_boards([HALF] * 4, [HALF] * 4) == (
        0, "level on game points, board count and bottom-board elimination")
    with pytest.raises(ValueError, match="different length"):
        compare_boards([ONE], [ONE, NIL])


# --- team round-robin -------------------------------------------------------------


def test_team_round_robin_follows_the_berger_table():
    rounds = team_round_robin(["A", "B", "C", "D"])
    # FIDE's 4-player table: 1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1
    assert [r.matches for r in rounds] == [
        (("A", "D"), ("B", "C")), (("D", "C"), ("A", "B")), (("B", "D"), ("C", "A"))]
    assert all(r.bye is None for r in rounds)


def test_team_round_robin_with_an_odd_number_and_double():
    rounds = team_round_robin(["A", "B", "C", "D", "E"], double=True, swap_last_two=True)
    assert len(rounds) == 10
    assert Counter(r.bye for r in rounds) == Counter({t: 2 for t in "ABCDE"})
    met = Counter(m for r in rounds for m in r.matches)
    # every ordered pair once: each pair meets twice, once with each team named first
    assert met == Counter((a, b) for a in "ABCDE" for b in "ABCDE" if a != b)
    with pytest.raises(ValueError, match="more than once: A"):
        team_round_robin(["A", "B", "A"])


# --- Crepaux ------------------------------------------------------------------------

# The seed example of issue #5 (pairs as listed, colours not implied).
EXAMPLE = [
    "A1-B1, A2-B2, B3-C1, B4-C2, C3-A3, C4-A4",
    "A3-B3, A4-B4, C1-B1, C2-B2, C3-A1, C4-A2",
]


def unordered(games) -> list[frozenset[str]]:
    return [frozenset((str(g.white), str(g.black))) for g in games]


def test_crepaux_reproduces_the_seed_example():
    rounds = crepaux_schedule(["A", "B", "C"])
    assert [r.round for r in rounds] == [1, 2]
    for r, listed in zip(rounds, EXAMPLE):
        assert unordered(r.games) == [frozenset(p.split("-")) for p in listed.split(", ")]


def seats(teams: str, boards: int) -> list[Seat]:
    return [Seat(t, b) for t in teams for b in range(1, boards + 1)]


@pytest.mark.parametrize("boards", [2, 4, 6, 8, 10])
def test_crepaux_meetings(boards):
    rounds = crepaux_schedule(["A", "B", "C"], boards)
    games = [g for r in rounds for g in r.games]
    assert len(games) == 3 * boards  # 12 games for 4 boards: as three full matches
    for r in rounds:  # everyone plays once per round
        assert sorted((s for g in r.games for s in (g.white, g.black)), key=str) == sorted(
            seats("ABC", boards), key=str)
    opponents = Counter(frozenset((g.white, g.black)) for g in games)
    assert max(opponents.values()) == 1  # nobody meets the same player twice
    between = Counter(frozenset((g.white.team, g.black.team)) for g in games)
    assert all(g.white.team != g.black.team for g in games)
    assert between == {frozenset(p): boards for p in combinations("ABC", 2)}
    per_round = [Counter(frozenset((g.white.team, g.black.team)) for g in r.games) for r in rounds]
    assert all(c == {frozenset(p): boards // 2 for p in combinations("ABC", 2)} for c in per_round)


@pytest.mark.parametrize("boards", [2, 4, 6, 8, 10])
def test_crepaux_colour_balance(boards):
    games = [g for r in crepaux_schedule(["A", "B", "C"], boards) for g in r.games]
    whites = Counter(g.white for g in games)
    blacks = Counter(g.black for g in games)
    for seat in seats("ABC", boards):  # each player: one White, one Black
        assert (whites[seat], blacks[seat]) == (1, 1)
    team_whites = Counter(g.white.team for g in games)
    assert team_whites == {t: boards for t in "ABC"}  # half of each team's 2·boards games
    k = boards // 2
    per_round = [Counter(g.white.team for g in r.games) for r in crepaux_schedule(["A", "B", "C"], boards)]
    if k % 2 == 0:  # each round: k of a team's 2k games
        assert per_round == [{t: k for t in "ABC"}] * 2
    else:  # A ahead in round 1, B in round 2 (docs/crepaux.md)
        assert per_round == [Counter(A=k + 1, B=k - 1, C=k), Counter(A=k - 1, B=k + 1, C=k)]
    for x, y in combinations("ABC", 2):  # between two teams: White equally shared
        shared = [g for g in games if {g.white.team, g.black.team} == {x, y}]
        assert Counter(g.white.team for g in shared) == {x: boards // 2, y: boards // 2}


@pytest.mark.parametrize("boards", [2, 4, 6, 8])
def test_crepaux_colour_rule_as_documented(boards):
    """docs/crepaux.md: in each mini-match the half that comes first in the cycle
    A-top → B-top → C-top → B-bottom → A-bottom → C-bottom → A-top has White on
    its odd positions (1st, 3rd, … board of the half)."""
    k = boards // 2
    cycle = [("A", 0), ("B", 0), ("C", 0), ("B", 1), ("A", 1), ("C", 1)]

    def half(seat: Seat) -> tuple[str, int]:
        return seat.team, (seat.board - 1) // k

    for r in crepaux_schedule(["A", "B", "C"], boards):
        for g in r.games:
            w, b = half(g.white), half(g.black)
            position = (g.white.board - 1) % k + 1
            assert (g.black.board - 1) % k + 1 == position  # i-th board v i-th board
            w_leads = cycle[(cycle.index(w) + 1) % 6] == b
            b_leads = cycle[(cycle.index(b) + 1) % 6] == w
            assert w_leads != b_leads  # neighbours in the cycle
            assert w_leads == (position % 2 == 1)


def test_crepaux_four_boards_colours_in_words():
    # The docs' summary: round 1 White for A1, A3, B2, B4, C1, C4; everyone else in round 2.
    first, second = crepaux_schedule(["A", "B", "C"])
    assert sorted(str(g.white) for g in first.games) == ["A1", "A3", "B2", "B4", "C1", "C4"]
    assert sorted(str(g.white) for g in second.games) == ["A2", "A4", "B1", "B3", "C2", "C3"]


@pytest.mark.parametrize("teams, boards, message", [
    (["A", "B", "C"], 3, "even number of boards"),
    (["A", "B", "C"], 5, "even number of boards"),
    (["A", "B", "C"], 0, "even number of boards"),
    (["A", "B"], 4, "three teams, not 2"),
    (["A", "B", "C", "D"], 4, "three teams, not 4"),
    (["A", "B", "A"], 4, "more than once: A"),
])
def test_crepaux_refusals(teams, boards, message):
    with pytest.raises(ValueError, match=message):
        crepaux_schedule(teams, boards)


def test_crepaux_uses_the_team_names():
    first, _ = crepaux_schedule(["Caïssa", "Bok", "Pion"], 2)
    assert [str(g) for g in first.games][0] == "Caïssa1-Bok1"
