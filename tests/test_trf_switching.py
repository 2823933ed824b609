"""Switching with the TRF files clubs really have (issue 21): a file exported in the middle
of a tournament, other programs' conventions, and what the import says it read.

Our own small files are in tests/data/trf-switch/ (see tests/data/SOURCES.md); the shared
corpus of other projects' files is read in place and skipped when absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import DATA, EXTERNAL, external
from test_cli import run

SWITCH = DATA / "trf-switch"
CORPUS = EXTERNAL / "trf-corpus"


def _import(capsys, db: Path, path: Path, *extra: str) -> str:
    code, out, err = run(capsys, db, "import", str(path), *extra)
    assert code == 0, err
    return out


def _pairs(capsys, db: Path) -> list[tuple[str, str]]:
    code, out, err = run(capsys, db, "pair", "--format", "json")
    assert code == 0, err
    found = json.loads(out)
    return [(g["white"], g["black"]) for g in found["games"]] if isinstance(found, dict) else found


# -- 1. entries for the round to pair -----------------------------------------------------

def test_entries_for_the_round_to_pair_are_its_attendance(tmp_path, capsys):
    path = SWITCH / "open-entries.trf"
    out = _import(capsys, tmp_path / "s.db", path)
    assert "imported Open round test (swiss): 10 players, 5 rounds" in out
    assert ("round 5 is the round to pair: 2 players entered a bye or an absence (#3 H, #9 Z), "
            "the 8 others are to be paired") in out
    code, out, err = run(capsys, tmp_path / "s.db", "pair")
    assert code == 0, err
    assert "not playing: Cor Gamma (excused), Ilse Iota (unexcused)" in out
    # the same pairing as 'keizer trf pair' makes from the file (FIDE Dutch)
    code, theirs, err = run(capsys, tmp_path / "x.db", "trf", "pair", str(path), "--format", "json")
    assert code == 0, err
    boards = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    ours = [(int(b[1]), int(b[-1])) for b in boards]
    assert ours == [tuple(p) for p in json.loads(theirs)["pairs"]]


def test_entries_for_the_round_to_pair_with_system_keizer(tmp_path, capsys):
    out = _import(capsys, tmp_path / "k.db", SWITCH / "open-entries.trf", "--system", "keizer")
    assert "Cor Gamma (#3): round 5 H (half-point bye) → excused" in out
    assert "Ilse Iota (#9): round 5 Z (zero-point bye or no entry) → unexcused" in out
    code, out, err = run(capsys, tmp_path / "k.db", "pair")
    assert code == 0, err
    assert "Round 5" in out and out.count("\n") >= 6  # four boards


def test_trf_standings_agree_with_the_imported_standing(tmp_path, capsys):
    path = SWITCH / "open-entries.trf"
    db = tmp_path / "s.db"
    _import(capsys, db, path)
    code, out, err = run(capsys, db, "standings", "--format", "json")
    assert code == 0, err
    ours = json.loads(out)
    code, out, err = run(capsys, db, "trf", "standings", str(path), "--format", "json")
    assert code == 0, err
    assert "note: round 5 is the round to pair" in err
    assert "totals differ" not in err  # the file's totals are after round 4, as the standing is
    theirs = json.loads(out)
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in ours] == \
           [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs]
    assert {r["name"]: r["tiebreaks"]["BH"] for r in theirs}["Anna Alfa"] == 9  # not 13.5: round 5 is not played


# -- 2. a paired round without (all) its results -----------------------------------------

def test_a_paired_round_without_results_is_the_open_round(tmp_path, capsys):
    db = tmp_path / "s.db"
    out = _import(capsys, db, SWITCH / "open-paired.trf")
    assert "round 5 is paired and not finished: 2 of its 4 results to enter" in out
    code, out, err = run(capsys, db, "standings")
    assert code == 0, err
    assert "standing after round 4" in out
    code, out, err = run(capsys, db, "pairings")
    assert code == 0, err
    assert "not playing: Cor Gamma (excused), Ilse Iota (unexcused)" in out
    # Bram – Hanna (board 1) and Gijs – Jan (board 4) are to be entered; the file's two results are there
    assert " 1/2-1/2 " in out and " 1-0 " in out
    code, out, err = run(capsys, db, "result", "1=1-0", "4=0-1")
    assert code == 0, err
    code, out, err = run(capsys, db, "standings")
    assert "standing after round 5" in out


def test_a_paired_round_without_results_with_system_keizer(tmp_path, capsys):
    out = _import(capsys, tmp_path / "k.db", SWITCH / "open-paired.trf", "--system", "keizer")
    assert "round 5 is paired and not finished: 2 of its 4 results to enter" in out
    assert run(capsys, tmp_path / "k.db", "result", "1=1-0", "4=0-1")[0] == 0


def test_only_the_last_round_may_be_without_results(tmp_path, capsys):
    text = (SWITCH / "open-paired.trf").read_text()
    lines = text.splitlines()
    # round 4 of Anna (#1) and Bram (#2) without a result, round 5 paired
    lines[5] = lines[5][:128] + " " + lines[5][129:]
    lines[6] = lines[6][:128] + " " + lines[6][129:]
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, tmp_path / "b.db", "import", str(path))
    assert code != 0
    assert err.strip() == ("error: line 6, columns 122-129: round 4: a game without a result before round 5; "
                           "only the last round may be unfinished")


def test_a_pairing_named_from_one_side_only_is_refused(tmp_path, capsys):
    lines = (SWITCH / "open-paired.trf").read_text().splitlines()
    lines[12] = lines[12][:129]  # Bram (#2, line 7) pairs Hanna (#8), whose line stops before round 5
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, tmp_path / "b.db", "import", str(path))
    assert code != 0
    assert err.strip() == "error: line 7, columns 132-135: round 5: player 8 does not name 2 back"





def test_a_team_file_paired_with_empty_boards_imports_its_rounds_before(tmp_path, capsys):
    path = external(CORPUS / "sharly__trf-team-import-test.trf")
    out = _import(capsys, tmp_path / "t.db", path)
    assert out.splitlines() == ["imported Swiss (team Swiss): 5 teams, 26 players",
                                "round 2 is not finished; a team event's unfinished round is not imported: "
                                "the event has the rounds before it",
                                # Crest won its match of round 1 (3 match points by record 362), the file says 4.0
                                "the file's totals differ from its results for 3 teams (2, 4, 5); the standings use "
                                "the results"]


# -- 3. a team line in an individual tournament --------------------------------------------

@pytest.mark.parametrize("system", [(), ("--system", "swiss"), ("--system", "keizer")])
def test_an_incomplete_team_line_makes_no_team_event(tmp_path, capsys, system):
    db = tmp_path / "i.db"
    out = _import(capsys, db, SWITCH / "team-line-individual.trf", *system)
    assert "team Swiss" not in out and "10 players, 4 rounds" in out
    assert ("the file's team records (1) are left out: they do not put every player who played in one of "
            "two or more teams") in out
    code, out, err = run(capsys, db, "pair")
    assert code == 0, err
    assert "Round 5" in out


def test_complete_team_records_make_a_team_event_unless_a_system_is_chosen(tmp_path, capsys):
    path = SWITCH / "two-teams.trf"
    assert _import(capsys, tmp_path / "t.db", path).splitlines() == ["imported Two teams (team Swiss): 2 teams, 4 players"]
    for system in ("swiss", "keizer"):
        out = _import(capsys, tmp_path / f"{system}.db", path, "--system", system)
        assert f"imported Two teams ({system}" in out and "4 players, 1 rounds" in out
        assert ("the file's team records (2) and its tie-break list are left out: it is imported as an individual "
                "tournament, as chosen") in out


def test_trf_commands_read_an_incomplete_team_line_as_individual(tmp_path, capsys):
    from keizer.formats.trf import dump, parse, read

    t = read(SWITCH / "team-line-individual.trf")
    assert not t.is_team and "013 Example                            1    2" in t.info
    assert parse(dump(t)) == t
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", str(SWITCH / "team-line-individual.trf"))
    assert "team files cannot" not in err


def test_the_javafo_example_is_an_individual_swiss(tmp_path, capsys):
    path = external(CORPUS / "py4swiss__javafo_example.trf")
    for system in ((), ("--system", "keizer")):
        db = tmp_path / f"j{len(system)}.db"
        out = _import(capsys, db, path, *system)
        assert "52 players, 4 rounds" in out and "team" not in out.splitlines()[0]
        code, out, err = run(capsys, db, "pair")
        assert code == 0, err


# -- 4. dummy players standing for the bye ---------------------------------------------------

@pytest.mark.parametrize("system", [(), ("--system", "keizer")])
def test_a_dummy_player_is_the_bye(tmp_path, capsys, system):
    db = tmp_path / "d.db"
    out = _import(capsys, db, SWITCH / "dummy-bye.trf", *system)
    assert "7 players, 3 rounds" in out and "new member: spielfrei" not in out
    assert "spielfrei (#8) stands for the bye, not a player: left out, its 3 games are its opponents' byes (U)" in out
    code, out, err = run(capsys, db, "standings", "--format", "json")
    assert code == 0, err
    assert [r["name"] for r in json.loads(out) if r["name"] == "spielfrei"] == []
    code, out, err = run(capsys, db, "pair")
    assert code == 0, err


def test_the_dummy_is_left_out_of_the_trf_standing_too(tmp_path, capsys):
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "standings", str(SWITCH / "dummy-bye.trf"), "--format", "json")
    assert code == 0, err
    assert "spielfrei" not in out and "note: spielfrei (#8) stands for the bye" in err
    assert len(json.loads(out)) == 7


@pytest.mark.parametrize("name,rating,result,dummy", [
    ("spielfrei", "", "0", True), ("BYE", "", "-", True), ("Freilos", "0", "0", True), ("vrij", "", "0", True),
    ("Bye", "1500", "0", False),  # rated: a person
    ("BYE", "", "=", False),  # it scored: a person
    ("Byers", "", "0", False)])
def test_which_entries_stand_for_the_bye(name, rating, result, dummy):
    from keizer.formats.trf_import import is_dummy, parse
    from test_trf import player_line

    other = {"0": "1", "-": "+", "=": "="}[result]
    text = "\n".join([player_line(1, "Anna", "1850", "1.0", [f"   2 w {other}"]),
                      player_line(2, name, rating, "0.0", [f"   1 b {result}"])])
    t = parse(text)
    assert (len(t.players) == 1) is dummy
    assert is_dummy(parse(text.replace(name, name)).player(1)) is False


def test_karl_malas_spielfrei_is_left_out(tmp_path, capsys):
    from conftest import KARL_MALA

    out = _import(capsys, tmp_path / "k.db", external(KARL_MALA))
    assert "283 players, 7 rounds" in out and "new member: spielfrei" not in out
    assert "spielfrei (#284) stands for the bye, not a player: left out\n" in out


# -- 5. round dates one column off ------------------------------------------------------------

DATES_NOTE = ("line 6: the round dates are not in their columns (92-99, 102-109, …); read by the fields the "
              "line holds: 2026-09-08, 2026-09-15, 2026-09-22, 2026-09-29")


def test_round_dates_one_column_off_are_read_by_their_fields(tmp_path, capsys):
    db = tmp_path / "d.db"
    out = _import(capsys, db, SWITCH / "dates-off.trf")
    assert out.count("round dates are not in their columns") == 1 and DATES_NOTE in out
    code, out, err = run(capsys, db, "export")
    assert [r["date"] for r in json.loads(out)["rounds"]] == ["2026-09-08", "2026-09-15", "2026-09-22", "2026-09-29"]
    code, out, err = run(capsys, db, "trf", "standings", str(SWITCH / "dates-off.trf"))
    assert code == 0 and err == f"note: {DATES_NOTE}\n"


def test_dates_that_are_no_dates_are_still_refused(tmp_path, capsys):
    text = (SWITCH / "dates-off.trf").read_text().replace("26/09/15", "26/13/15")
    path = tmp_path / "bad.trf"
    path.write_text(text)
    code, out, err = run(capsys, tmp_path / "b.db", "import", str(path))
    assert code != 0 and err.startswith("error: line 6, columns 92-99: round date '26/09/0' is not YY/MM/DD")


def test_sharlys_import_test_file_imports(tmp_path, capsys):
    path = external(CORPUS / "sharly__trf-import-test.trf")
    db = tmp_path / "s.db"
    out = _import(capsys, db, path)
    assert "imported TRF import test (swiss): 16 players, 5 rounds" in out
    assert "line 10: the round dates are not in their columns" in out
    assert run(capsys, db, "swiss", "rounds", "6")[0] == 0
    code, out, err = run(capsys, db, "pair")
    assert code == 0, err


# -- 6. say what was read -------------------------------------------------------------------

def _variant(tmp_path: Path, change) -> Path:
    """``team-line-individual.trf`` (four rounds, no open round), changed line by line."""
    lines = [change(line) for line in (SWITCH / "team-line-individual.trf").read_text().splitlines()
             if not line.startswith("013")]
    path = tmp_path / "variant.trf"
    path.write_text("\n".join(x for x in lines if x is not None) + "\n")
    return path


def test_fewer_planned_rounds_than_played_are_reported(tmp_path, capsys):
    path = _variant(tmp_path, lambda line: "XXR 3" if line.startswith("XXR") else line)
    out = _import(capsys, tmp_path / "r.db", path)
    assert "the file plans 3 rounds (record 142 or XXR) and holds 4: all 4 are imported" in out
    code, out, err = run(capsys, tmp_path / "r.db", "trf", "standings", str(path))
    assert "note: the file plans 3 rounds" in err


def test_totals_that_differ_are_warned_about_by_the_import_too(tmp_path, capsys):
    path = _variant(tmp_path, lambda line: line[:80] + " 9.0" + line[84:] if line.startswith("001    2") else line)
    message = "the file's totals differ from its results for 1 player (2); the standings use the results"
    assert message in _import(capsys, tmp_path / "t.db", path).splitlines()
    assert message in _import(capsys, tmp_path / "k.db", path, "--system", "keizer")
    code, out, err = run(capsys, tmp_path / "t.db", "trf", "standings", str(path))
    assert err == f"warning: {message}\n"  # said once, as before


def test_trf_check_honours_acceleration(tmp_path, capsys):
    """keizer used to re-pair without the XXA virtual points (and said it ignored them);
    now they count, so these rounds, paired without them, differ (tests/test_swiss_acceleration.py
    checks accelerated files found as played)."""
    path = _variant(tmp_path, lambda line: line + "\nXXA    1  1.0  1.0" if line.startswith("XXR") else line)
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", str(path))
    assert "ignored" not in err and code == 1 and "round 1:" in out
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", str(SWITCH / "team-line-individual.trf"))
    assert "XXA" not in err and code == 0


def test_py4swiss_files_that_say_something(tmp_path, capsys):
    out = _import(capsys, tmp_path / "a.db", external(CORPUS / "py4swiss__too_many_results.trf"))
    assert "the file plans 5 rounds (record 142 or XXR) and holds 6: all 6 are imported" in out
    out = _import(capsys, tmp_path / "b.db", external(CORPUS / "py4swiss__incorrect_points.trf"))
    assert "the file's totals differ from its results for 1 player (2); the standings use the results" in out


def test_forfeits_without_an_opponent_are_the_absences_the_import_stores(tmp_path, capsys):
    # Anna's round 2 '-' (sat out), Bram's round 3 '+' without an opponent (an older program's bye)
    def change(line):
        if line.startswith("001    1"):
            return line[:101] + "0000 - -" + line[109:]
        if line.startswith("001    4"):
            return line[:101] + "0000 - Z" + line[109:]
        return line
    path = _variant(tmp_path, change)
    db = tmp_path / "f.db"
    out = _import(capsys, db, path)
    assert "1 rounds '-' without an opponent (a round sat out) are read as zero-point byes (Z)" in out
    code, ours, err = run(capsys, db, "standings", "--format", "json")
    code, theirs, err = run(capsys, db, "trf", "standings", str(path), "--format", "json")
    assert [(r["name"], r["tiebreaks"]) for r in json.loads(ours)] == \
           [(r["name"], r["tiebreaks"]) for r in json.loads(theirs)]


def test_a_team_round_paired_and_not_finished_is_the_open_round(tmp_path, capsys):
    db = tmp_path / "t.db"
    out = _import(capsys, db, SWITCH / "team-open.trf")
    assert out.splitlines() == ["imported Four teams, round 2 paired (team Swiss): 4 teams, 8 players",
                                "round 2 is paired and not finished: 3 of its 4 results to enter"]
    code, out, err = run(capsys, db, "team", "matches", "--round", "2")
    assert code == 0, err
    assert "round 2 match 1: Pawns – Rooks" in out and "round 2 match 2: Knights – Bishops" in out
    assert "Cor Gamma   Eva Epsilon  1-0" in out  # the result the file has
    assert run(capsys, db, "team", "result", "2", "1", "0-1", "1-0")[0] == 0
    assert run(capsys, db, "team", "result", "2", "2", "--correct", "1-0", "0-1")[0] == 0
    code, out, err = run(capsys, db, "team", "standings")
    assert "standing after round 2" in out


def test_a_team_round_with_an_empty_board_is_left_to_pair_again(tmp_path, capsys):
    path = external(CORPUS / "sharly__trf-team-import-test.trf")  # ERP A's line-up of round 2: two empty boards
    out = _import(capsys, tmp_path / "t.db", path)
    assert "round 2 is not finished; a team event's unfinished round is not imported" in out
