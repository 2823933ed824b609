"""TRF16/TRF26 import and export, and `keizer trf standings`."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import DATA, GRANDMOMMY, KARL_MALA, TEC, examples, external
from keizer.cli import cli, main
from keizer.cli.trf import trf
from keizer.formats.season_json import FormatError
from keizer.formats.trf import TRF16, TrfError, dump, parse, read
from keizer.model import Colour
from keizer.tiebreaks import Code, Match, Player, RoundResult, Scoring, System, Tournament, compute

#: Our own team Swiss (tests/data/SOURCES.md): every team record, read in a clone without
#: the TEC sample too.
OWN_TEAMS = DATA / "trf26-team-swiss-own.trf"
SAMPLES = [*sorted(TEC.glob("*.trf")), OWN_TEAMS, GRANDMOMMY, KARL_MALA]
SWISS = TEC / "tec2023-swiss16-5r.trf"
TEAMS = GRANDMOMMY
LEGACY = KARL_MALA


def player_line(start: int, name: str, rating: str, points: str, rounds: list[str]) -> str:
    """A 001 record laid out by TRF16's columns; each round is "oooo c r" (opponent, colour, result)."""
    head = f"001 {start:>4}      {name:<33} {rating:>4} {'':<3} {'':>11} {'':<10} {points:>4} {'':>4}"
    return head + "".join(f"  {r}" for r in rounds)


def two_players(result_a: str = "1", result_b: str = "0", colour_a: str = "w") -> str:
    return "\n".join([player_line(1, "Anna", "1850", "1.0", [f"   2 {colour_a} {result_a}"]),
                      player_line(2, "Bram", "1700", "0.0", [f"   1 b {result_b}"])])


# -- the sample files ----------------------------------------------------------------------------

def test_tec_swiss_file():
    t = read(SWISS)
    assert (len(t.players), t.rounds, t.system, t.is_team) == (16, 5, System.SWISS, False)
    assert t.name.startswith("TEC tie-break exercises")
    nick = t.player(12)
    assert [r.code for r in nick.results] == [Code.LOSS, Code.PAB, Code.FORFEIT_WIN, Code.ZPB, Code.ZPB]
    assert nick.results[2] == RoundResult(Code.FORFEIT_WIN, 14, None)
    assert (nick.rating, nick.points, nick.rank) == (1650, F(2), 10)
    assert read(TEC / "tec2023-roundrobin6.trf").system is System.ROUND_ROBIN


def test_legacy_trf16_export():
    """Karl-Mala 2005: one-letter titles, dotted dates, blank federations, a player with one round."""
    t = read(external(LEGACY))
    assert (len(t.players), t.rounds) == (284, 7)
    first = t.player(1)
    assert (first.title, first.birth, first.federation, first.fide_id) == ("g", "1969.12.06", "CHI", "3400042")
    assert t.player(2).federation == ""
    quitter = t.player(13)
    assert quitter.results[0] == RoundResult(Code.FORFEIT_LOSS, 153, None)
    assert {r.code for r in quitter.results[1:]} == {Code.ZPB}
    assert any(line.startswith("092 Individual: Swiss-System (Standard)") for line in t.info)


def test_legacy_trf16_conventions():
    """The same conventions in lines of our own: a one-letter title, a dotted birth date, a blank
    federation, and a player who forfeits round 1 and is gone after it."""
    def line(n: int, title: str, fed: str, fide: str, birth: str, points: str, rounds: str) -> str:
        name = f"Player {n}"
        return f"001 {n:>4} m{title:>3} {name:<33} 2000 {fed:<3} {fide:>11} {birth:<10} {points:>4} {n:>4}{rounds}"

    t = parse("\n".join([
        "012 Legacy", "092 Individual: Swiss-System (Standard)",
        line(1, "g", "CHI", "3400042", "1969.12.06", "2.0", "     3 b +     2 w 1"),
        line(2, "m", "", "", "", "0.0", "  0000 - Z     1 b 0"),
        line(3, "", "GER", "", "", "0.0", "     1 w -  0000 - Z")]))
    first = t.player(1)
    assert (first.title, first.birth, first.federation, first.fide_id) == ("g", "1969.12.06", "CHI", "3400042")
    assert t.player(2).federation == ""
    quitter = t.player(3)
    assert quitter.results[0] == RoundResult(Code.FORFEIT_LOSS, 1, Colour.WHITE)
    assert {r.code for r in quitter.results[1:]} == {Code.ZPB}


def test_trf26_team_file():
    t = read(external(TEAMS))
    assert (len(t.players), len(t.teams), t.rounds, t.boards) == (249, 50, 14, 4)
    assert t.tiebreaks == ("EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP")
    assert (t.match_scoring.win, t.match_scoring.draw, t.match_scoring.pab) == (2, 1, 1)
    india = t.teams[0]
    assert (india.name, india.nickname, india.rating, india.members) == ("India", "IND", 2486, (1, 5, 15, 28, 44))
    assert india.matches[0] == Match(Code.DRAW, 14, Colour.BLACK, F(2), (F(1, 2), F(0), F(1, 2), F(1)), (1, 5, 15, 28))


def test_trf16_team_file_derives_matches_from_games():
    text = "\n".join([
        "013 " + f"{'Rooks':<32}" + "   1    2",
        "013 " + f"{'Knights':<32}" + "   3    4",
        player_line(1, "A", "2000", "1.0", ["   3 w 1"]), player_line(2, "B", "1900", "0.5", ["   4 b ="]),
        player_line(3, "C", "1950", "0.0", ["   1 b 0"]), player_line(4, "D", "1850", "0.5", ["   2 w ="])])
    t = parse(text)
    rooks, knights = t.teams
    assert (rooks.name, rooks.number, knights.members, t.boards) == ("Rooks", 1, (3, 4), 2)
    assert rooks.matches == (Match(Code.WIN, 2, Colour.WHITE, F(3, 2), (F(1), F(1, 2)), (1, 2)),)
    assert knights.matches[0].code is Code.LOSS and knights.matches[0].colour is Colour.BLACK
    assert compute(t, "MP,GP") == {"MP": {1: 2, 2: 0}, "GP": {1: F(3, 2), 2: F(1, 2)}}


def test_team_matches_come_from_the_records():
    teams = {team.number: team for team in read(external(TEAMS)).teams}
    assert teams[3].matches[0].code is Code.FPB  # 240 F 1 3
    assert teams[26].matches[2].code is Code.HPB  # 240 H 3 26
    assert teams[50].matches[2].code is Code.PAB  # 320 (the same file's 240 also names 50: the PAB wins)
    assert teams[50].matches[2].game_points == 2
    assert (teams[23].matches[3].code, teams[33].matches[3].code) == (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)  # 330 +-
    assert teams[24].matches[5].code is teams[2].matches[5].code is Code.FORFEIT_LOSS  # 330 --
    assert teams[2].matches[4].lineup == (2, 22, 20, 27)  # 300: out of order
    assert teams[5].matches[0].lineup == (14, 0, 29, 39)  # 300: board 2 empty


def test_team_totals_agree_with_the_files_310_records():
    """Derived MP/GP equal the declared ones for 49 of 50 teams.  Team 47 (Denmark) had a
    half-point bye in round 3 (its 801 line says HHHH), but the file's 240 record for round 3
    names team 50 — which got the PAB that round — instead of 47."""
    t = read(external(TEAMS))
    got = compute(t, "MP,GP")
    off = [team.number for team in t.teams
           if (team.points, team.game_points) != (got["MP"][team.number], got["GP"][team.number])]
    assert off == [47]
    denmark = next(team for team in t.teams if team.number == 47)
    assert (denmark.points - got["MP"][47], denmark.game_points - got["GP"][47]) == (1, 2)


def test_own_team_file_records():
    """5 teams of 2 boards (352 WB), 3 rounds; the matches worked out by hand from the games."""
    t = read(OWN_TEAMS)
    assert (len(t.players), len(t.teams), t.rounds, t.boards, t.system) == (15, 5, 3, 2, System.SWISS)
    assert t.tiebreaks == ("EDET/P", "BH:MP/C1/P", "MPvGP")
    assert (t.match_scoring.win, t.match_scoring.draw, t.match_scoring.loss, t.match_scoring.pab) == (2, 1, 0, 2)
    rooks, knights, bishops, queens, pawns = t.teams
    assert (rooks.name, rooks.nickname, rooks.members, rooks.rank) == ("Rooks", "ROO", (1, 2, 3), 1)
    # 1-0 on board 1 (white), = on board 2 (black by WB)
    assert rooks.matches[0] == Match(Code.WIN, 2, Colour.WHITE, F(3, 2), (F(1), F(1, 2)), (1, 2))
    assert rooks.matches[1].lineup == (3, 1)  # 300: out of order
    assert rooks.matches[1].code is queens.matches[1].code is Code.DRAW  # 0-1 and 1-0
    assert bishops.matches[2].lineup == (7, 0)  # 300: board 2 empty
    assert (rooks.matches[2].boards, bishops.matches[2].boards) == ((F(1, 2), F(1)), (F(1, 2), F(0)))
    assert (pawns.matches[0].code, pawns.matches[0].game_points) == (Code.PAB, 2)  # 320
    assert (bishops.matches[1].code, bishops.matches[1].game_points) == (Code.HPB, 1)  # 240 H: half the boards
    assert (pawns.matches[2].code, pawns.matches[2].game_points) == (Code.FPB, 2)  # 240 F
    assert (knights.matches[1].code, pawns.matches[1].code) == (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)  # 330 +-
    assert knights.matches[2].code is queens.matches[2].code is Code.FORFEIT_LOSS  # 330 --
    assert knights.matches[1].game_points == 2 and knights.matches[1].colour is Colour.WHITE


def test_own_team_file_totals_are_the_declared_ones():
    t = read(OWN_TEAMS)
    got = compute(t, "MP,GP")
    # Rooks W D W, Knights L +F -F, Bishops L H L, Queens W D -F, Pawns PAB -F FPB
    assert got == {"MP": {1: 5, 2: 2, 3: 1, 4: 3, 5: 4}, "GP": {1: 4, 2: F(5, 2), 3: 2, 4: F(5, 2), 5: 4}}
    assert all((team.points, team.game_points) == (got["MP"][team.number], got["GP"][team.number])
               for team in t.teams)


def test_own_team_file_exports_as_trf16_013_records():
    t = read(OWN_TEAMS)
    text = dump(t, TRF16)
    assert "\r\n013 Rooks                              1    2    3\r\n" in text and "\r\n310 " not in text
    assert [team.members for team in parse(text).teams] == [team.members for team in t.teams]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_samples_round_trip_through_trf26(path):
    t = read(external(path))
    assert parse(dump(t)) == t


@pytest.mark.parametrize("path", [p for p in SAMPLES if p not in (TEAMS, OWN_TEAMS)], ids=lambda p: p.stem)
def test_individual_samples_round_trip_through_trf16(path):
    t = read(external(path))
    assert parse(dump(t, TRF16)) == t


def test_trf16_team_export_keeps_teams_as_013_records():
    t = read(external(TEAMS))
    text = dump(t, TRF16)
    assert "\r\n013 India                           " in text and "\r\n310 " not in text
    again = parse(text)
    assert [team.members for team in again.teams] == [team.members for team in t.teams]


def test_dump_layout():
    t = read(SWISS)
    text = dump(t)
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    line = next(x for x in text.split("\r\n") if x.startswith("001   12"))
    assert line[91:95] == "   4" and line[96] == "w" and line[98] == "0"  # round 1: columns 92-95, 97, 99
    assert line[101:105] == "0000" and line[108] == "U"
    assert len(line) == 119  # rounds 4-5 (withdrawn) are left blank
    assert line[80:84] == " 2.0" and line[48:52] == "1650"


def test_scoring_records_round_trip():
    three = Scoring(win=F(3), draw=F(1), loss=F(0), forfeit_win=F(3), forfeit_loss=F(0), pab=F(3), fpb=F(3),
                    hpb=F(1), zpb=F(0))
    t = replace(read(SWISS), scoring=three)
    text = dump(t)
    assert "\r\n162  W 3.0     D 1.0     L 0.0     A 0.0     P 3.0\r\n" in text
    assert parse(text) == t
    odd = replace(three, fpb=F(2))
    assert "XXS WW=3.0" in dump(replace(t, scoring=odd)) and parse(dump(replace(t, scoring=odd))).scoring == odd


def test_xxs_and_colour_dependent_scoring():
    t = parse("XXS W=3 D=1 PAB=1\n" + two_players())
    assert (t.scoring.win, t.scoring.forfeit_win, t.scoring.draw, t.scoring.hpb, t.scoring.pab) == (3, 3, 1, 1, 1)
    with pytest.raises(TrfError, match="colour-dependent"):
        parse("XXS WW=1 BW=1.5\n" + two_players())


def test_system_from_record_192_before_092():
    t = parse("092 Individual: Swiss-System\n192 BERGER_ROUNDROBIN\n" + two_players())
    assert t.system is System.ROUND_ROBIN
    plain = replace(read(SWISS), info=(), system=System.ROUND_ROBIN)
    assert parse(dump(plain)) == plain  # the written 092 line is implied, not kept


# -- tolerance -----------------------------------------------------------------------------------------

def test_line_ends_bom_and_latin1(tmp_path):
    text = two_players()
    assert parse("\ufeff" + text.replace("\n", "\r")) == parse(text)
    path = tmp_path / "latin.trf"
    path.write_bytes(player_line(1, "Müller", "1850", "0.0", []).encode("latin-1"))
    assert read(path).players[0].name == "Müller"


def test_lower_case_blank_and_comma_variants():
    t = parse("\n".join([player_line(1, "Anna", "0", "1,0", ["   2 W d", "        ", "0000 - h"]),
                         player_line(2, "Bram", "", "0.5", ["   1 b D"])]))
    anna = t.player(1)
    assert anna.results == (RoundResult(Code.QUICK_DRAW, 2, Colour.WHITE), RoundResult(Code.ZPB),
                            RoundResult(Code.HPB))
    assert t.player(2).results[1:] == (RoundResult(Code.ZPB),) * 2
    assert (anna.rating, anna.points, t.rounds) == (None, F(1), 3)


def test_unknown_records_and_comments_are_kept():
    t = parse("### a comment\n022 Amsterdam\nXXC white1\n" + two_players())
    assert t.info == ("### a comment", "022 Amsterdam", "XXC white1")
    assert parse(dump(t)).info == t.info


# -- errors name the line and the columns ----------------------------------------------------------

@pytest.mark.parametrize("text,message", [
    (two_players("X"), r"line 1, column 99: result 'X' is not a TRF result code"),
    (two_players(colour_a="x"), r"line 1, column 97: colour 'x' is not w, b or -"),
    (two_players("1", "1"), r"line 1, column 99: round 1: result 1 against 1 of player 2 \(line 2\)"),
    (player_line(1, "Anna", "abcd", "0.0", []), r"line 1, columns 49-52: rating 'abcd' is not a number"),
    (player_line(1, "Anna", "", "x.5", []), r"line 1, columns 81-84: points 'x.5' is not a number"),
    ("001   xy", r"line 1, columns 5-8: start rank 'xy' is not a number"),
    (player_line(1, "Anna", "", "1.0", ["   3 w 1"]), r"line 1, columns 92-95: round 1: opponent 3 has no 001 line"),
    (player_line(1, "Anna", "", "1.0", ["   2 w 1"]) + "\n" + player_line(2, "Bram", "", "0.0", ["0000 - U"]),
     r"line 1, columns 92-95: round 1: player 2 \(line 2\) does not name 1 back"),
    (player_line(1, "Anna", "", "1.0", ["0000 - 1"]), r"columns 92-95: round 1: a game \(1\) without an opponent"),
    (player_line(1, "Anna", "", "1.0", ["   1 - U"]), r"columns 92-95: round 1: a bye \(U\) with an opponent"),
    (two_players() + "\n" + player_line(1, "Anna", "", "1.0", []), r"line 3, columns 5-8: start rank 1 is used twice"),
    ("240 Q   1    3\n" + two_players(), r"line 1, column 5: bye type 'Q' is not F, H or Z"),
    ("330 ++   1    1    2\n" + two_players(), r"line 1, columns 5-6: forfeit '\+\+' is not"),
    ("310  x1 Rooks\n" + two_players(), r"line 1, columns 5-7: team number 'x1' is not a number"),
    ("310   1 Rooks                            \n330 +-   1    1    9\n" + two_players(),
     r"line 2, columns 5-20: team 9 round 1: no such team or round"),
])
def test_broken_files_name_line_and_columns(text, message):
    with pytest.raises(TrfError, match=message):
        parse(text)


def test_trf_error_is_a_format_error():
    assert issubclass(TrfError, FormatError)
    with pytest.raises(TrfError, match="unknown TRF version"):
        dump(read(SWISS), "TRF99")
    with pytest.raises(TrfError, match="without players"):
        dump(Tournament(teams=(read(OWN_TEAMS).teams[0],), rounds=1))


# -- properties --------------------------------------------------------------------------------------

@st.composite
def tournaments(draw) -> Tournament:
    """Random individual tournaments with every result code, ratings, titles and declared points."""
    n = draw(st.integers(1, 12))
    rounds = draw(st.integers(0, 7))
    rng = random.Random(draw(st.integers(0, 2**32)))
    pairs = [(Code.WIN, Code.LOSS), (Code.DRAW, Code.DRAW), (Code.QUICK_WIN, Code.QUICK_LOSS),
             (Code.QUICK_DRAW, Code.QUICK_DRAW), (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
             (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)]
    results: dict[int, list[RoundResult]] = {i: [] for i in range(1, n + 1)}
    for _ in range(rounds):
        ids = list(results)
        rng.shuffle(ids)
        while len(ids) >= 2 and rng.random() < 0.85:
            a, b = ids.pop(), ids.pop()
            ca, cb = rng.choice(pairs)
            colours = (Colour.WHITE, Colour.BLACK) if rng.random() < 0.8 else (None, None)
            results[a].append(RoundResult(ca, b, colours[0]))
            results[b].append(RoundResult(cb, a, colours[1]))
        for i in ids:
            results[i].append(RoundResult(rng.choice([Code.PAB, Code.HPB, Code.ZPB, Code.FPB])))
    names = st.text(st.characters(whitelist_categories=("L", "Zs"), max_codepoint=0x24F), max_size=33)
    players = tuple(Player(i, draw(names).strip(), rng.choice([None, rng.randint(1000, 2900)]), tuple(res),
                           rng.choice(["", "m", "w"]), rng.choice(["", "GM", "WFM", "g"]), rng.choice(["", "NED"]),
                           rng.choice(["", "1503014"]), rng.choice(["", "1990/05/17"]),
                           F(rng.randint(0, 20), 2), rng.choice([None, i]))
                    for i, res in results.items())
    tiebreaks = tuple(draw(st.lists(st.sampled_from(["BH/C1", "BH", "SB", "DE", "PS"]), unique=True)))
    return Tournament(players, rounds, rng.choice(list(System)), Scoring(), name=draw(names).strip(),
                      tiebreaks=tiebreaks)


@hsettings(max_examples=examples(80), deadline=None)
@given(tournaments())
def test_export_then_import_is_identity(t):
    assert parse(dump(t)) == t
    assert parse(dump(t, TRF16)) == replace(t, tiebreaks=())  # TRF16 has no record 202


# -- keizer trf standings --------------------------------------------------------------------------

@pytest.fixture
def run(capsys):
    cli.add_command(trf)

    def invoke(*args: str) -> tuple[int, str, str]:
        code = 0
        try:
            main(["trf", "standings", *args])
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return code, out, err
    return invoke


def test_standings_json_rows(run):
    code, out, err = run(str(SWISS), "--tiebreaks", "BH/C1,BH,SB", "--edition", "2024", "--format", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert rows[0] == {"rank": 1, "start_no": 2, "name": "Bruno", "points": 4,
                       "tiebreaks": {"BH/C1": 12, "BH": 13, "SB": 9.5}}
    assert list(rows[2]["tiebreaks"]) == ["BH/C1", "BH", "SB"]
    assert [r["start_no"] for r in rows[:5]] == [2, 3, 4, 1, 16]


def test_standings_edition_changes_values(run):
    values = {}
    for edition in ("2024", "2026", "2012", "self-draw"):
        _, out, _ = run(str(SWISS), "-t", "BH", "--edition", edition, "--format", "json")
        values[edition] = next(r for r in json.loads(out) if r["start_no"] == 4)["tiebreaks"]["BH"]
    assert values == {"2024": 15, "2026": 14, "2012": 13.5, "self-draw": 14}


def test_standings_default_lists(run):
    _, out, _ = run(str(SWISS), "--format", "json")
    assert list(json.loads(out)[0]["tiebreaks"]) == ["BH/C1", "BH", "DE", "ARO/C1", "WIN", "BWG", "BPG", "SB"]
    code, out, err = run(str(OWN_TEAMS), "--format", "json")
    rows = json.loads(out)
    assert code == 0 and err == "" and list(rows[0]["tiebreaks"]) == ["EDET/P", "BH:MP/C1/P", "MPVGP"]
    assert [(r["name"], r["points"]) for r in rows] == [
        ("Rooks", 5), ("Pawns", 4), ("Queens", 3), ("Knights", 2), ("Bishops", 1)]
    assert rows[0]["tiebreaks"]["BH:MP/C1/P"] == 5  # opponents' match points 2 + 3 + 1, less the lowest


def test_standings_default_list_of_the_tec_team_sample(run):
    code, out, err = run(str(external(TEAMS)), "--format", "json")
    rows = json.loads(out)
    assert code == 0 and list(rows[0]["tiebreaks"]) == ["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPVGP"]
    assert (rows[0]["name"], rows[0]["points"]) == ("India 3", 20)
    assert "totals differ from its results for 1 team (47)" in err


def test_standings_table_and_csv(run):
    _, out, _ = run(str(TEC / "tec2023-roundrobin6.trf"), "--format", "table")
    lines = out.splitlines()
    assert lines[0].split() == ["rank", "start_no", "name", "points", "DE", "WIN", "SB", "KS"]
    assert lines[2].split() == ["1", "1", "Alyx", "3.5", "1", "3", "9.25", "2"]
    _, out, _ = run(str(SWISS), "-t", "AOB", "--format", "csv")
    assert out.splitlines()[:2] == ["rank,start_no,name,points,AOB", "1,2,Bruno,4,13.6"]


def test_standings_after_a_round_with_lots_and_system(run):
    _, out, _ = run(str(SWISS), "-t", "WIN", "--round", "2", "--lots", "4", "--format", "json")
    rows = json.loads(out)
    assert sorted(r["rank"] for r in rows) == list(range(1, 17)) and rows[0]["points"] == 2
    code, _, err = run(str(SWISS), "-t", "BH", "--system", "round-robin")
    assert code == 1 and "Buchholz family in a round robin" in err


@pytest.mark.parametrize("args,message", [
    (["-t", "BH"], "error: BH: the 2026 rules (C.07 art. 8) do not allow the Buchholz family in a round robin"),
    (["-t", "XYZ"], "error: XYZ: unknown tie-break 'XYZ'"),
    (["-t", "EDE"], "error: EDE: a team tie-break"),
    (["-t", "SB", "--round", "9"], "error: round 9: the tournament has 5 rounds"),
])
def test_standings_errors_are_one_line(run, args, message):
    code, out, err = run(str(TEC / "tec2023-roundrobin6.trf"), *args)
    assert code == 1 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_standings_of_a_broken_file(run, tmp_path):
    path = tmp_path / "broken.trf"
    path.write_text(two_players("X"))
    code, _, err = run(str(path))
    assert code == 1 and err == "error: line 1, column 99: result 'X' is not a TRF result code\n"


def test_standings_warn_about_advice_for_given_lists(run):
    code, _, err = run(str(SWISS), "-t", "PS,BH")
    assert code == 0 and err.startswith("warning: the list mixes")


def test_docstring_examples():
    import doctest
    import keizer.formats.trf as module
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_round_dates_record_132():
    t = read(external(GRANDMOMMY))
    assert t.dates[:2] == ("2024-01-01", "2024-01-02") and len(t.dates) == 14
    assert parse(dump(t)) == t
    with pytest.raises(TrfError, match="YY/MM/DD"):
        parse("012 x\n132" + " " * 88 + "2024-01-01\n001    1      A                                 1500\n")
