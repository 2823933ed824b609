"""Tie-breaks: the FIDE TEC exercises (tests/data/tec2023/tec2023-expected.json), the issue's seed
examples, hand-computed cases per tie-break and per rule edition, and properties."""

from __future__ import annotations

import doctest
import importlib
import json
import random
import re
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import TEC, examples
from keizer.formats.trf import read
from keizer.model import Colour
from keizer.tiebreaks import (Code, Edition, Match, Player, RoundResult, Scoring, System, Team, TieBreakError,
                              Tournament, advise, compute, parse, parse_list, rank, recommended)
from keizer.tiebreaks.fide_tables import round_half_up
from keizer.tiebreaks.fields import player_field, team_field
from keizer.tiebreaks.individual import buchholz, progressive, sonneborn_berger
from keizer.tiebreaks.team import extended_sonneborn_berger
from keizer.tiebreaks.unplayed import Unplayed, unplayed

DATA = TEC
EXPECTED = json.loads((DATA / "tec2023-expected.json").read_text(encoding="utf-8"))
SWISS = EXPECTED["individual_swiss_5_rounds"]
ROUND_ROBIN = EXPECTED["individual_round_robin_6"]
TEAMS = EXPECTED["team_swiss_14"]
EDITIONS = list(Edition)


def values(mapping: dict) -> dict[int, F | None]:
    """Expected values keyed by start number, exact."""
    return {int(k): None if v is None else F(str(v)) for k, v in mapping.items()}


@pytest.fixture(scope="module")
def swiss() -> Tournament:
    return read(DATA / "tec2023-swiss16-5r.trf")


@pytest.fixture(scope="module")
def round_robin() -> Tournament:
    return read(DATA / "tec2023-roundrobin6.trf")


@pytest.fixture(scope="module")
def swiss9() -> Tournament:
    return read(DATA / "tec2023-swiss16-9r-de.trf")


def tour(rounds: list[str], byes: dict[int, dict[int, str]] | None = None, ratings: dict[int, int] | None = None,
         system: System = System.SWISS, scoring: Scoring = Scoring()) -> Tournament:
    """A tournament written compactly: per round "white-black result" pairs, e.g. "1-2 1-0, 3-4 +-".

    ``byes`` maps round → {player: TRF code}; players without entry in a round get a zero-point bye.
    """
    pairs = {"1-0": (Code.WIN, Code.LOSS), "0-1": (Code.LOSS, Code.WIN), "=": (Code.DRAW, Code.DRAW),
             "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS), "-+": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
             "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)}
    found: dict[int, dict[int, RoundResult]] = {}
    for r, text in enumerate(rounds, start=1):
        for game in filter(None, (g.strip() for g in text.split(","))):
            m = re.fullmatch(r"(\d+)-(\d+) (\S+)", game)
            w, b = int(m[1]), int(m[2])
            cw, cb = pairs[m[3]]
            found.setdefault(w, {})[r] = RoundResult(cw, b, Colour.WHITE)
            found.setdefault(b, {})[r] = RoundResult(cb, w, Colour.BLACK)
        for p, code in (byes or {}).get(r, {}).items():
            found.setdefault(p, {})[r] = RoundResult(Code(code))
    ids = sorted(set(found) | set(ratings or {}))
    players = tuple(Player(i, f"P{i}", (ratings or {}).get(i),
                           tuple(found.get(i, {}).get(r, RoundResult(Code.ZPB)) for r in range(1, len(rounds) + 1)))
                    for i in ids)
    return Tournament(players, len(rounds), system, scoring)


# -- the TEC exercises: 16-player Swiss, 2023/2024 rules (authority: FIDE TEC) -------------------

SWISS_CODES = {"PTS": "PTS", "BH": "BH", "BH/C1": "BH/C1", "AOB": "AOB", "FB": "FB", "SB": "SB", "SB/C1": "SB/C1",
               "ARO": "ARO", "ARO/C1": "ARO/C1", "TPR": "TPR", "APRO": "APRO", "PTP": "PTP", "APPO": "APPO",
               "WIN": "WIN", "WON": "WON", "BPG": "BPG", "BWG": "BWG", "GE_REP": "REP", "PS": "PS", "PS/C1": "PS/C1"}


@pytest.mark.parametrize("key", SWISS_CODES)
def test_tec_swiss_2024_every_published_value(swiss, key):
    code = SWISS_CODES[key]
    assert compute(swiss, code, Edition.FIDE_2024)[code] == values(SWISS[key])


def test_ge_is_read_as_rep(swiss):
    assert compute(swiss, "GE", Edition.FIDE_2024)["GE"] == values(SWISS["GE_REP"])


def test_tec_swiss_adjusted_scores_for_opponents(swiss):
    field = player_field(swiss)
    assert unplayed(field, Edition.FIDE_2024).adjusted == values(SWISS["adjusted_score_for_opponents"])
    assert unplayed(field.foreseen(), Edition.FIDE_2024).adjusted == values(SWISS["FB_adjusted_score_for_opponents"])


DERIVED_2026 = SWISS["derived_2026_rules_NOT_AUTHORITY"]


@pytest.mark.parametrize("code", [k for k in DERIVED_2026 if k != "how"])
def test_tec_swiss_2026_derived_values(swiss, code):
    """The 2026 caps (16.4.1/16.4.2) — derived, not published by FIDE (see the JSON's note)."""
    assert compute(swiss, code, Edition.FIDE_2026)[code] == values(DERIVED_2026[code])


def test_tec_swiss_direct_encounter_breaks_no_tie(swiss):
    de = compute(swiss, "DE", Edition.FIDE_2024)["DE"]
    for group in ({1, 3, 4, 16}, {5, 8, 11}, {12, 14, 15}, {7, 9, 13}):  # Ex. 23, 24; no games in the others
        assert {de[i] for i in group} == {1}


def test_tec_swiss_9_rounds_direct_encounter_mini_tables(swiss9):
    """Ex. 25: 6 first and 2 fourth in the 6-point group, 1 and 4 still tied; nothing else breaks."""
    de = compute(swiss9, "DE", Edition.FIDE_2024)["DE"]
    assert (de[6], de[1], de[4], de[2]) == (1, 2, 2, 4)
    for group in ({7, 8, 16}, {5, 10, 14, 15}, {9, 12}):
        assert {de[i] for i in group} == {1}
    order = [s.id for s in rank(swiss9, "DE")]
    assert order[1:5] == [6, 1, 4, 2]


# -- the round robin (Ex. 14-16, 26) ----------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("key,code", [("SB", "SB"), ("SB/C1", "SB/C1"), ("KS (limit 50% = 2.5 points)", "KS")])
def test_tec_round_robin_values(round_robin, edition, key, code):
    """The forfeit in round 4 counts as a game (15.2) under every edition."""
    assert compute(round_robin, code, edition)[code] == values(ROUND_ROBIN[key])


def test_tec_round_robin_direct_encounter_counts_the_forfeit(round_robin):
    de = compute(round_robin, "DE")["DE"]
    assert (de[1], de[2], de[3]) == (1, 2, 2)
    assert (de[6], de[5], de[4]) == (1, 2, 3)


@pytest.mark.parametrize("limit", ["", "/L+1", "/L+2", "/L-1", "/L-2", "/L-3", "/L-5"])
def test_tec_round_robin_koya_limits_never_split_2_and_3(round_robin, limit):
    ks = compute(round_robin, "KS" + limit)["KS" + limit]
    assert ks[2] == ks[3]


def test_koya_with_the_limit_below_every_score_is_the_score(round_robin):
    assert compute(round_robin, "KS/L-5,PTS")["KS/L-5"] == compute(round_robin, "PTS")["PTS"]


# -- the team Swiss (Part Two) ----------------------------------------------------------------

def team_tec(boards_11_14: bool = True) -> Tournament:
    """The TEC team crosstable with the match-level provisions of §2.3 (PAB/HPB 1 MP 2 GP, +F 2 MP 4 GP)."""
    provisions = {"PAB": (Code.PAB, 2), "HPB": (Code.HPB, 2), "ZPB": (Code.ZPB, 0),
                  "-F": (Code.FORFEIT_LOSS, 0), "+F": (Code.FORFEIT_WIN, 4)}
    table = TEAMS["crosstable"]
    teams = []
    for number, row in table.items():
        matches = []
        for r, cell in enumerate(row["rounds"]):
            if cell in provisions:
                code, gp = provisions[cell]
                opponent = None
                if code.is_forfeit:
                    other = "-F" if cell == "+F" else "+F"
                    opponent = next(int(n) for n, o in table.items() if o["rounds"][r] == other)
                matches.append(Match(code, opponent, game_points=F(gp)))
                continue
            opp, colour, gp = re.fullmatch(r"(\d+)([wb])([\d.]+)", cell).groups()
            theirs = F(re.fullmatch(r"\d+[wb]([\d.]+)", table[opp]["rounds"][r])[1])
            code = Code.WIN if F(gp) > theirs else Code.DRAW if F(gp) == theirs else Code.LOSS
            boards = ()
            if boards_11_14 and {int(number), int(opp)} == {11, 14}:  # Ex. 46: 1-0, ½-½, ½-½, 0-1 from 11's side
                boards = (F(1), F(1, 2), F(1, 2), F(0)) if number == "11" else (F(0), F(1, 2), F(1, 2), F(1))
            matches.append(Match(code, int(opp), Colour.WHITE if colour == "w" else Colour.BLACK, F(gp), boards))
        teams.append(Team(int(number), row["name"], matches=tuple(matches)))
    return Tournament(teams=tuple(teams), rounds=7, boards=4, match_scoring=Scoring.matches())


TEAM_RULES = TEAMS["expected_2023_2024_rules"]


@pytest.mark.parametrize("code", ["BH:MP", "BH:MP/C1", "BH:GP", "BH:GP/C1", "EMMSB", "EGMSB", "EMGSB", "EGGSB"])
def test_tec_team_every_published_value(code):
    assert compute(team_tec(), code, Edition.FIDE_2024)[code] == values(TEAM_RULES[code])


def test_tec_team_scores_and_adjusted_scores():
    t = team_tec()
    table = TEAMS["crosstable"]
    assert compute(t, "MP,GP") == {"MP": {int(k): F(v["MP"]) for k, v in table.items()},
                                   "GP": {int(k): F(str(v["GP"])) for k, v in table.items()}}
    adjusted = TEAMS["adjusted_score_for_opponents"]["7"]
    assert unplayed(team_field(t, "MP"), Edition.FIDE_2024).adjusted[7] == adjusted["MP"]
    assert unplayed(team_field(t, "GP"), Edition.FIDE_2024).adjusted[7] == F(str(adjusted["GP"]))


def test_tec_team_emmsb_cut_1():
    got = compute(team_tec(), "EMMSB/C1", Edition.FIDE_2024)["EMMSB/C1"]
    assert {i: got[i] for i in range(1, 6)} == values(TEAM_RULES["EMMSB/C1 (10-MP teams only)"])


def test_tec_team_sssc_to_one_decimal():
    got = compute(team_tec(), "SSSC", Edition.FIDE_2024)["SSSC"]
    key = "SSSC (primary MP, normalisation factor floor(14/4)=3, shown to 1 decimal)"
    assert {i: round_half_up(v, 1) for i, v in got.items()} == values(TEAM_RULES[key])
    assert got[1] == F(35, 2) + F(64, 3)


def test_tec_team_extended_direct_encounter():
    """Ex. 42-45: 10-MP group 4, 2, 1, 3, 5 (GP re-applied to 1, 2, 3); 6 before 8; the rest unresolved."""
    t = team_tec()
    order = [s.id for s in rank(t, "EDE", Edition.FIDE_2024)]
    assert order[:7] == [4, 2, 1, 3, 5, 6, 8]
    ede = compute(t, "EDE", Edition.FIDE_2024)["EDE"]
    assert {ede[i] for i in (7, 9, 13)} == {1} and ede[11] == ede[14] == 1


@pytest.mark.parametrize("code", ["EDEBT", "EDEBB", "EDET", "EDEB"])
def test_tec_team_ede_with_board_tie_breaks_puts_koalas_first(code):
    """Ex. 46-48: 11 and 14 drew 2-2; BC 3.5 v 6.5, TBR and BBE (2 v 1) all favour 11."""
    ede = compute(team_tec(), code, Edition.FIDE_2024)[code]
    assert (ede[11], ede[14]) == (1, 2)


def test_board_count_top_and_bottom_boards_values():
    from keizer.tiebreaks.team import board_count, bottom_boards, top_boards
    koalas, narwhals = (F(1), F(1, 2), F(1, 2), F(0)), (F(0), F(1, 2), F(1, 2), F(1))
    bc = next(v for k, v in TEAM_RULES.items() if k.startswith("BC / TBR / BBE"))
    assert (board_count(koalas), board_count(narwhals)) == (F(str(bc["BC"]["11"])), F(str(bc["BC"]["14"])))
    assert (bottom_boards(koalas)[0], bottom_boards(narwhals)[0]) == (F(bc["BBE"]["11"]), F(bc["BBE"]["14"]))
    assert top_boards(koalas) > top_boards(narwhals)


def test_board_tie_breaks_need_board_data():
    ede = compute(team_tec(boards_11_14=False), "EDEBT", Edition.FIDE_2024)["EDEBT"]
    assert ede[11] == ede[14] == 1


def test_tec_team_2026_forfeit_cap_is_derived():
    """TEC's note: 2026 caps team 1's +F dummy at the Falcons' 7 MP, so BH:MP 61 (derived, not published)."""
    assert compute(team_tec(), "BH:MP", Edition.FIDE_2026)["BH:MP"][1] == 61


def test_mpvgp_is_the_secondary_score():
    t = team_tec()
    assert compute(t, "MPVGP")["MPVGP"] == compute(t, "GP")["GP"]
    assert compute(t, "MPVGP", primary="GP")["MPVGP"] == compute(t, "MP")["MP"]
    order = [s.id for s in rank(t, "MPVGP")]
    assert order[:5] == [5, 1, 2, 4, 3]  # Ex. 34: 10 MP, then 18, 17.5, 17, 17, 16 GP


# -- the seed examples ------------------------------------------------------------------

def faced(*rows: tuple) -> Unplayed:
    """One participant (1) facing opponents with these (score, points) rounds; halves suffice."""
    return Unplayed(2, {}, {1: tuple(int(2 * s) for s, _ in rows)}, {1: tuple(int(2 * p) for _, p in rows)},
                    {1: (False,) * len(rows)})


def test_seed_buchholz_of_opponents_on_7_8_and_6_5():
    assert buchholz(faced((7, 1), (8, 0), (6.5, 0.5)))[1] == F(43, 2)


def test_seed_sonneborn_berger_19_5():
    assert sonneborn_berger(faced((8, 1), (7.5, 1), (8, 0.5), (6, 0)))[1] == F(39, 2)


def test_seed_progressive_44_against_36():
    t = tour(["1-2 1-0", "1-3 1-0", "1-4 1-0", "1-5 1-0", "1-6 1-0", "1-7 1-0", "1-8 1-0", "1-9 1-0", "10-1 1-0"])
    late = tour(["10-1 1-0", "1-2 1-0", "1-3 1-0", "1-4 1-0", "1-5 1-0", "1-6 1-0", "1-7 1-0", "1-8 1-0", "1-9 1-0"])
    assert compute(t, "PS")["PS"][1] == 44
    assert compute(late, "PS")["PS"][1] == 36


def test_seed_team_weighted_and_unweighted_berger():
    """A beat B 3½-½, drew C 2-2, lost to D 1-3; B, C, D on 12.5, 16 and 21.5 game points."""
    totals = faced((12.5, 3.5), (16, 2), (21.5, 1))
    match_points = faced((0, 2), (0, 1), (0, 0))  # 2-1-0 match points, scaled to 1-½-0
    assert extended_sonneborn_berger(totals, totals)[1] == F("97.25")
    assert extended_sonneborn_berger(totals, match_points, scale=F(1, 2))[1] == F("20.5")


def test_seed_team_berger_through_the_engine():
    teams = (
        Team(1, "A", matches=(Match(Code.WIN, 2, None, F(7, 2)), Match(Code.DRAW, 3, None, F(2)),
                              Match(Code.LOSS, 4, None, F(1)))),
        Team(2, "B", matches=(Match(Code.LOSS, 1, None, F(1, 2)), Match(Code.WIN, 4, None, F(4)),
                              Match(Code.WIN, 3, None, F(8)))),
        Team(3, "C", matches=(Match(Code.WIN, 4, None, F(8)), Match(Code.DRAW, 1, None, F(2)),
                              Match(Code.LOSS, 2, None, F(6)))),
        Team(4, "D", matches=(Match(Code.LOSS, 3, None, F(1, 2)), Match(Code.LOSS, 2, None, F(0)),
                              Match(Code.WIN, 1, None, F(21)))),
    )
    t = Tournament(teams=teams, rounds=3, boards=24)
    got = compute(t, "GP,WSB,USB")
    assert (got["GP"][2], got["GP"][3], got["GP"][4]) == (F(25, 2), 16, F(43, 2))
    assert got["WSB"][1] == F("97.25") and got["USB"][1] == F("20.5")


def test_seed_progress_is_the_sum_of_running_totals():
    """The issue says 39 for a team scoring 4, 3, 1, 1½, 2; the running totals 4, 7, 8, 9½, 11½ sum to 40.

    No definition found (research §4, "Progress ... not found") gives 39 from these scores, so the
    engine implements the stated definition and this test pins it at 40.
    """
    teams = [Team(1, "A", matches=tuple(Match(Code.DRAW, None, None, F(str(g))) for g in (4, 3, 1, 1.5, 2)))]
    t = Tournament(teams=tuple(teams), rounds=5, boards=6)
    assert compute(t, "PROGRESS:GP")["PROGRESS:GP"][1] == 40
    assert progressive(team_field(t, "GP"))[1] == 4 + 7 + 8 + F(19, 2) + F(23, 2)


# -- unplayed rounds under each edition (research §3.4, hand-checked) --------------------------

@pytest.mark.parametrize("edition,david_hpb,maria_forfeit,maria_for_others,nick_for_others", [
    (Edition.FIDE_2012, 3, 1, 2, 2),
    (Edition.FIDE_2024, F(7, 2), F(5, 2), F(5, 2), 3),
    (Edition.FIDE_2026, F(5, 2), F(3, 2), F(5, 2), 3),
    (Edition.SELF_DRAW, F(7, 2), 2, 2, 2),
])
def test_one_round_under_each_edition(swiss, edition, david_hpb, maria_forfeit, maria_for_others, nick_for_others):
    u = unplayed(player_field(swiss), edition)
    assert F(u.scores[4][1], u.den) == david_hpb  # David's round-2 HPB (1 point before it, 3.5 at the end)
    assert F(u.scores[11][3], u.den) == maria_forfeit  # Maria's round-4 forfeit win vs Jessica (1.5)
    assert u.adjusted[11] == maria_for_others
    assert u.adjusted[12] == nick_for_others  # Nick: PAB, forfeit win, withdrawn after round 3


def test_self_draw_counts_the_unplayed_round_as_a_draw_against_oneself(swiss):
    """David: beat Nick (2.0 with unplayed rounds as draws), HPB = ½ × 3.5, beat Opal, drew Charline and Alyx."""
    assert compute(swiss, "SB", Edition.SELF_DRAW)["SB"][4] == 2 + F(7, 4) + F(3, 2) + F(7, 4) + F(7, 4)


def test_2012_virtual_opponent_matches_the_2009_minutes():
    """9 rounds: a forfeit win in round 3 with 2 points before counts 2 + 0 + 6 × ½ = 5;
    an absence in round 7 with 4 points before counts 4 + 1 + 2 × ½ = 6."""
    t = tour(["1-2 1-0", "1-3 1-0", "1-4 +-", "1-5 0-1", "1-6 =", "1-7 =", "2-3 =", "8-1 0-1", "1-9 1-0"])
    u = unplayed(player_field(t), Edition.FIDE_2012)
    assert (F(u.scores[1][2], u.den), F(u.scores[1][6], u.den)) == (5, 6)


def test_2012_forfeit_example_of_the_fide_2009_mode():
    """A beats B, then beats B by forfeit: BH(A) = 0.5 + 1, BH(B) = 1.5 + 1 (marceljuenemann/tiebreak)."""
    bh = compute(tour(["1-2 1-0", "1-2 +-"]), "BH", Edition.FIDE_2012)["BH"]
    assert bh == {1: F(3, 2), 2: F(5, 2)}


def test_only_the_2023_rules_cut_voluntary_unplayed_rounds_first(swiss):
    """David's BH-C1: the 2024 text cuts his HPB (11.5); the 2012 one cuts Opal's 1.5 (12.0)."""
    assert compute(swiss, "BH/C1", Edition.FIDE_2024)["BH/C1"][4] == F(23, 2)
    assert compute(swiss, "BH/C1", Edition.FIDE_2012)["BH/C1"][4] == 12


def test_2026_keeps_round_robin_forfeits_unplayed_for_ratings_and_own_results(round_robin):
    """Helene (6) beat Franck (5) by forfeit in round 4 (15.2 exceptions of 2026)."""
    old, new = (compute(round_robin, "ARO,REP,WON", e) for e in (Edition.FIDE_2024, Edition.FIDE_2026))
    assert old["ARO"][6] == round_half_up(F(2150 + 2100 + 2050 + 1950 + 2200, 5))
    assert new["ARO"][6] == round_half_up(F(2150 + 2100 + 2050 + 2200, 4))
    assert (old["REP"][5], new["REP"][5]) == (5, 4)
    assert old["WON"][6] == new["WON"][6] == 1


def test_forfeits_as_played_modifier_in_a_swiss():
    """/P: Paul's round-3 forfeit loss counts as a game against Nick (adjusted 3.0), not a dummy."""
    t = read(DATA / "tec2023-swiss16-5r.trf")
    plain, played = (compute(t, c, Edition.FIDE_2024)[c][14] for c in ("BH", "BH/P"))
    assert played - plain == 3 - 2


# -- hand-computed cases per tie-break -----------------------------------------------------------

def test_wins_count_byes_and_forfeits_only_when_worth_a_win():
    t = tour(["1-2 +-, 3-4 1-0", "1-3 =, 2-4 0-1", ""], byes={3: {1: "U", 2: "H", 3: "F", 4: "Z"}})
    got = compute(t, "WIN,WON,REP")
    assert got["WIN"] == {1: 2, 2: 0, 3: 2, 4: 1}
    assert got["WON"] == {1: 0, 2: 0, 3: 1, 4: 1}
    assert got["REP"] == {1: 3, 2: 1, 3: 3, 4: 2}  # 2: forfeit loss and HPB; 4: ZPB


def test_wins_follow_the_scoring():
    t = tour(["1-2 1-0"], byes={1: {3: "U"}}, scoring=Scoring(win=F(3), draw=F(1), forfeit_win=F(3), pab=F(1)))
    assert compute(t, "WIN")["WIN"] == {1: 1, 2: 0, 3: 0}


def test_black_games_and_black_wins_ignore_forfeits():
    t = tour(["1-2 0-1", "3-1 0-1", "2-1 -+"])
    got = compute(t, "BPG,BWG")
    assert got == {"BPG": {1: 1, 2: 1, 3: 0}, "BWG": {1: 1, 2: 1, 3: 0}}


def test_standard_points_compare_with_the_scheduled_opponent():
    """Win 1, draw ½, double forfeit ½ (equal points: the text's reading), PAB 1, HPB ½."""
    t = tour(["1-2 1-0", "1-3 =", "1-4 --", "", ""], byes={4: {1: "U"}, 5: {1: "H"}})
    assert compute(t, "STD")["STD"][1] == 1 + F(1, 2) + F(1, 2) + 1 + F(1, 2)


def test_start_number_and_rating_directions():
    t = tour(["1-2 =", "3-4 ="], ratings={1: 1500, 2: 2000, 3: 1800, 4: 0})
    assert [s.id for s in rank(t, "TPN")] == [1, 2, 3, 4]
    assert [s.id for s in rank(t, "TPN/R")] == [4, 3, 2, 1]
    assert [s.id for s in rank(t, "RTNG")] == [2, 3, 1, 4]
    assert [s.id for s in rank(t, "RTNG/R")] == [4, 1, 3, 2]


def test_rating_tie_breaks_with_unrated_opponents_and_the_350_rule():
    t = tour(["1-2 =", "1-3 1-0", "1-4 0-1"], ratings={1: 2000, 2: 2500, 3: 1900, 4: 0})
    got = compute(t, "ARO,ARO/U1400,TPR,TPR/D350")
    assert got["ARO"][1] == 2200  # the unrated opponent is left out
    assert got["ARO/U1400"][1] == round_half_up(F(2500 + 1900 + 1400, 3))
    assert got["TPR"][1] == 2200 + 193  # 1.5 / 2 = 0.75 → dp 193
    assert got["TPR/D350"][1] == round_half_up(F(2350 + 1900, 2)) + 193


def test_perfect_performance_edges():
    t = tour(["1-2 1-0", "1-3 1-0", "4-2 0-1"], ratings={1: 1700, 2: 2000, 3: 1800, 4: 1500})
    ptp = compute(t, "PTP")["PTP"]
    assert ptp[1] == 2000 + 736  # a perfect score needs every difference above 735 (no 400 cap)
    assert ptp[3] == 1700 - 800  # a zero score: lowest opponent − 800


def test_median_cuts_the_lowest_then_the_highest():
    t = tour(["1-2 1-0, 3-4 1-0, 5-6 1-0", "1-3 =, 2-5 1-0, 4-6 =", "1-5 0-1, 2-6 1-0, 3-4 ="])
    got = compute(t, "BH,BH/C1,BH/M1")
    opp = [compute(t, "PTS")["PTS"][i] for i in (2, 3, 5)]
    assert got["BH"][1] == sum(opp)
    assert got["BH/C1"][1] == sum(opp) - min(opp)
    assert got["BH/M1"][1] == sum(opp) - min(opp) - max(opp)


# -- ranking ---------------------------------------------------------------------------------------

def test_rank_applies_the_list_in_order_and_shares_unbroken_ties(swiss):
    result = rank(swiss, "BH/C1,BH,SB", Edition.FIDE_2024)
    assert [s.id for s in result[:5]] == [2, 3, 4, 1, 16]
    assert [s.rank for s in result[:5]] == [1, 2, 3, 4, 5]
    assert list(result[0].values) == ["BH/C1", "BH", "SB"]
    nick = next(s for s in result if s.id == 12)
    assert nick.values == {"BH/C1": F(19, 2), "BH": F(23, 2), "SB": 4}
    tied = rank(swiss, "WIN", Edition.FIDE_2024)
    assert [(s.rank, s.id) for s in tied[1:5]] == [(2, 16), (3, 1), (3, 3), (3, 4)]


def test_rank_after_an_earlier_round_ignores_later_rounds(swiss):
    assert compute(swiss, "BH,PS", rounds=3) == compute(replace(swiss, players=tuple(
        replace(p, results=p.results[:3]) for p in swiss.players), rounds=3), "BH,PS")


def test_drawing_of_lots_is_reproducible_and_independent_of_input_order(swiss):
    first = [s.id for s in rank(swiss, "WIN", lots_seed=11)]
    assert first == [s.id for s in rank(swiss, "WIN", lots_seed=11)]
    shuffled = replace(swiss, players=tuple(random.Random(3).sample(swiss.players, len(swiss.players))))
    assert first == [s.id for s in rank(shuffled, "WIN", lots_seed=11)]
    assert len({s.rank for s in rank(swiss, "WIN", lots_seed=11)}) == 16
    assert rank(swiss, "WIN,LOT", lots_seed=11)[0].values["LOT"] is not None
    with pytest.raises(TieBreakError, match="seed"):
        rank(swiss, "LOT")


def test_a_repeated_direct_encounter_gets_its_own_label(swiss9):
    result = rank(swiss9, "DE,BH,DE", Edition.FIDE_2024)
    assert list(result[0].values) == ["DE", "BH", "DE#2"]


def test_direct_encounter_may_repeat_other_codes_may_not(swiss):
    assert [tb.text for tb in parse_list("DE,BH,DE")] == ["DE", "BH", "DE"]
    with pytest.raises(TieBreakError, match="twice"):
        parse_list("BH,SB,BH")


@pytest.mark.parametrize("codes,message", [
    ("XYZ", "unknown tie-break"), ("WIN/C1", "no modifier /C1"), ("BH:XP", "no score"),
    ("SSSC/K0", "factor"), ("", None)])
def test_bad_codes(codes, message):
    if message is None:
        assert parse_list(codes) == ()
        return
    with pytest.raises(TieBreakError, match=message):
        parse(codes)


def test_tie_breaks_must_fit_the_kind_of_tournament(swiss):
    with pytest.raises(TieBreakError, match="team tie-break"):
        compute(swiss, "EDE")
    with pytest.raises(TieBreakError, match="individual tie-break"):
        compute(team_tec(), "ARO")
    with pytest.raises(TieBreakError, match="needs a team"):
        compute(swiss, "BH:MP")


def test_inconsistent_pairings_are_refused():
    bad = Tournament((Player(1, results=(RoundResult(Code.WIN, 2),)), Player(2, results=(RoundResult(Code.PAB),))),
                     rounds=1)
    with pytest.raises(TieBreakError, match="player 1 round 1: opponent 2 has another opponent"):
        compute(bad, "BH")


# -- advice -------------------------------------------------------------------------------------

def test_recommended_lists():
    assert recommended(False, System.ROUND_ROBIN) == ("DE", "WIN", "SB", "KS")
    assert recommended(False, System.SWISS) == ("BH/C1", "BH", "DE", "ARO/C1", "WIN", "BWG", "BPG", "SB")
    assert recommended(False, System.SWISS, ratings_reliable=False) == ("BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG")
    assert recommended(False, System.KNOCKOUT) == ()
    assert recommended(True, System.SWISS)[0] == "MPVGP"
    assert recommended(True, System.KNOCKOUT)[1:] == ("BC", "TBR", "BBE")
    for team in (False, True):
        for system in System:
            for reliable in (True, False):
                parse_list(recommended(team, system, reliable))


def test_buchholz_in_a_round_robin_is_an_error_only_under_2026():
    errors = [a for a in advise("BH,FB,AOB,SB", False, System.ROUND_ROBIN) if a.level == "error"]
    assert [a.code for a in errors] == ["BH", "FB", "AOB"]
    assert not [a for a in advise("BH", False, System.ROUND_ROBIN, Edition.FIDE_2024) if a.level == "error"]
    assert not [a for a in advise("BH", False, System.SWISS) if a.level == "error"]


def test_advice_warnings():
    def warnings(*args, **kw):
        return [a.message for a in advise(*args, **kw) if a.level == "warning"]
    assert any("mixes" in w and "PS" in w and "BH" in w for w in warnings("PS,BH", False, System.SWISS))
    assert not warnings("BH/C1,BH,SB", False, System.SWISS)
    assert any("Koya" in w for w in warnings("KS", False, System.SWISS))
    assert any("unrated" in w for w in warnings("ARO", False, System.SWISS, unrated=True))
    assert not warnings("ARO/U1400", False, System.SWISS, unrated=True)
    assert any("new in the 2026" in w for w in warnings("STD", False, System.SWISS, Edition.FIDE_2024))
    assert [a.level for a in advise("EDE", False, System.SWISS)] == ["error"]


def test_edition_names():
    assert Edition.parse("2023") is Edition.FIDE_2024
    assert Edition.parse("2026-03") is Edition.FIDE_2026
    assert Edition.parse("Self-Draw") is Edition.SELF_DRAW
    with pytest.raises(TieBreakError, match="unknown rule edition"):
        Edition.parse("1999")


# -- properties -------------------------------------------------------------------------------------

@st.composite
def tournaments(draw, max_players: int = 10, max_rounds: int = 6, rated: bool = True,
                unplayed: bool = True) -> Tournament:
    """Random Swiss-like tournaments with every kind of round: games, forfeits, byes, withdrawals.

    Without ``unplayed`` every round is a game for everybody.
    """
    n = draw(st.integers(1, max_players // 2)) * 2 if not unplayed else draw(st.integers(2, max_players))
    rounds = draw(st.integers(1, max_rounds))
    rng = random.Random(draw(st.integers(0, 2**32)))
    results: dict[int, list[RoundResult]] = {i: [] for i in range(1, n + 1)}
    for _ in range(rounds):
        ids = list(results)
        rng.shuffle(ids)
        while len(ids) >= 2 and (not unplayed or rng.random() < 0.9):
            a, b = ids.pop(), ids.pop()
            kind = rng.choices(["1-0", "0-1", "=", "+-", "--"], [4, 4, 3, 1, 1] if unplayed else [1, 1, 1, 0, 0])[0]
            ca, cb = {"1-0": (Code.WIN, Code.LOSS), "0-1": (Code.LOSS, Code.WIN), "=": (Code.DRAW, Code.DRAW),
                      "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS), "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)}[kind]
            results[a].append(RoundResult(ca, b, Colour.WHITE))
            results[b].append(RoundResult(cb, a, Colour.BLACK))
        for i in ids:
            results[i].append(RoundResult(rng.choice([Code.PAB, Code.HPB, Code.ZPB, Code.FPB])))
    ratings = {i: rng.choice([0, rng.randint(1000, 2800)]) if rated else 0 for i in results}
    players = tuple(Player(i, f"Player {i}", ratings[i] or None, tuple(res)) for i, res in results.items())
    return Tournament(players, rounds)


CUTS = [("BH/C1", "BH"), ("BH/C2", "BH/C1"), ("BH/M1", "BH/C1"), ("SB/C1", "SB"), ("FB/C1", "FB"),
        ("PS/C1", "PS"), ("KS/L+1", "KS")]


@hsettings(max_examples=examples(60), deadline=None)
@given(tournaments(), st.sampled_from(EDITIONS))
def test_cut_variants_never_exceed_the_full_value(t, edition):
    got = compute(t, list(dict.fromkeys(c for pair in CUTS for c in pair)), edition)
    for cut, full in CUTS:
        assert all(got[cut][i] <= got[full][i] for i in got[full])


ALL = ("PTS,BH,BH/C1,BH/M1,FB,AOB,BHS,SB,SB/C1,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO,WIN,WON,BPG,BWG,REP,STD,PS,"
       "PS/C1,RTNG,TPN,DE")


@hsettings(max_examples=examples(40), deadline=None)
@given(tournaments(), st.sampled_from(EDITIONS), st.randoms(use_true_random=False))
def test_player_order_changes_nothing(t, edition, rnd):
    shuffled = replace(t, players=tuple(rnd.sample(t.players, len(t.players))))
    assert compute(shuffled, ALL, edition) == compute(t, ALL, edition)
    assert rank(shuffled, ALL, edition, lots_seed=5) == rank(t, ALL, edition, lots_seed=5)


@hsettings(max_examples=examples(40), deadline=None)
@given(tournaments(unplayed=False))
def test_editions_agree_when_every_round_is_a_game(t):
    results = [compute(t, "BH,BH/C1,FB,AOB,SB,SB/C1,KS,REP", e) for e in EDITIONS]
    assert all(r == results[0] for r in results)


@hsettings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32))
def test_buchholz_in_a_round_robin_is_total_minus_own_score(n, seed):
    """TEC §3: in a complete round robin BH adds nothing — it is the points distributed minus one's own."""
    rng = random.Random(seed)
    players = list(range(1, n + 1 + n % 2))
    rounds = []
    for r in range(len(players) - 1):  # circle method
        order = players[:1] + players[1:][r:] + players[1:][:r]
        half = len(order) // 2
        rounds.append(", ".join(f"{a}-{b} {rng.choice(['1-0', '0-1', '='])}"
                                for a, b in zip(order[:half], reversed(order[half:]))))
    t = tour(rounds, system=System.ROUND_ROBIN)
    got = compute(t, "BH,PTS", Edition.FIDE_2024)
    total = sum(got["PTS"].values())
    assert all(got["BH"][i] == total - got["PTS"][i] for i in got["PTS"])


@hsettings(max_examples=examples(40), deadline=None)
@given(tournaments(), st.sampled_from(EDITIONS))
def test_ranking_is_by_points_then_consistent_ranks(t, edition):
    result = rank(t, "BH/C1,SB,DE", edition)
    points = [s.points for s in result]
    assert points == sorted(points, reverse=True)

    def key(s):
        return s.points, s.values["BH/C1"], s.values["SB"], s.values["DE"]
    for k, s in enumerate(result, start=1):
        if k > 1 and s.rank == result[k - 2].rank:
            assert key(s) == key(result[k - 2])  # a shared rank: nothing told them apart
        else:
            assert s.rank == k
    assert sorted(s.id for s in result) == sorted(p.start_no for p in t.players)


# -- the modules' docstring examples -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["keizer.tiebreaks", "keizer.tiebreaks.model", "keizer.tiebreaks.codes",
                                  "keizer.tiebreaks.fields", "keizer.tiebreaks.unplayed",
                                  "keizer.tiebreaks.fide_tables", "keizer.tiebreaks.individual",
                                  "keizer.tiebreaks.team", "keizer.tiebreaks.direct", "keizer.tiebreaks.ranking",
                                  "keizer.tiebreaks.advice"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
