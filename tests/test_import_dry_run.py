"""Issue 21, the rest: the result words officers type in a spreadsheet, a name close to a
member's, rating-list rows without an id, `keizer import FILE --dry-run` for every format
(the database byte-identical afterwards), and a TRF's tie-break list and ranks taken over."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import test_cli
from conftest import DATA, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import bad, digest, run
from test_kfc import build

from keizer.formats import rounds_csv
from keizer.formats.trf_import import parse as parse_trf, rank_differences, tiebreak_list
from keizer.model import Result
from keizer.settings import Settings

club = test_cli.club  # seven members (Anna de Vries 1850, Bram Jansen, Cor Smit, …) and 'Interne'
SWITCH = DATA / "trf-switch"


# -- spreadsheets: the result words --------------------------------------------------------


@pytest.mark.parametrize("typed, result", [
    ("remise", Result.DRAW), ("rem", Result.DRAW), ("Remis", Result.DRAW), ("½", Result.DRAW), ("draw", Result.DRAW),
    ("½ - ½", Result.DRAW), ("0,5-0,5", Result.DRAW), ("½:½", Result.DRAW), ("gelijk", Result.DRAW),
    ("gewonnen", Result.WHITE_WIN), ("wint", Result.WHITE_WIN), ("won", Result.WHITE_WIN),
    ("Weiß gewinnt", Result.WHITE_WIN), ("1:0", Result.WHITE_WIN), ("1 – 0", Result.WHITE_WIN),
    ("verloren", Result.BLACK_WIN), ("lost", Result.BLACK_WIN), ("Niederlage", Result.BLACK_WIN),
    ("zwart wint", Result.BLACK_WIN), ("0:1", Result.BLACK_WIN),
    ("+:-", Result.WHITE_FORFEIT_WIN), ("-:+", Result.BLACK_FORFEIT_WIN), ("-:-", Result.DOUBLE_FORFEIT),
    ("+-", Result.WHITE_FORFEIT_WIN),
])
def test_a_spreadsheet_result_as_officers_type_it(typed, result):
    imp = rounds_csv.parse(f"ronde;wit;zwart;uitslag\n1;Anna;Bram;{typed}\n", Settings(), "x")
    assert imp.season.rounds[0].games[0].result is result


def test_a_result_that_is_no_result_is_refused_naming_the_words(club, capsys, tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("ronde;wit;zwart;uitslag\n1;Anna de Vries;Bram Jansen;2-0\n", encoding="utf-8")
    line = bad(capsys, club, "import", str(path), match="line 2: unknown result '2-0'")
    assert "remise, won, lost" in line


# -- spreadsheets: a name close to a member's ----------------------------------------------

CLOSE = "ronde;wit;zwart;uitslag\n1;Anne de Vries;Bram Jansen;remise\n1;Hans Nieuw;Cor Smit;1-0\n"


def test_a_name_close_to_a_member_is_asked_about_and_not_added_silently(club, capsys, tmp_path):
    path = tmp_path / "papier.csv"
    path.write_text(CLOSE, encoding="utf-8")
    before = digest(club)
    code, out, err = run(capsys, club, "import", str(path), "--dry-run")
    assert code == 0, err
    assert "  Anne de Vries (did you mean 'Anna de Vries'?)" in out.splitlines()
    assert "  Hans Nieuw" in out.splitlines()  # nobody's near namesake: a plain new member
    assert "1 of them close to a member: the import refuses them" in out
    assert digest(club) == before
    bad(capsys, club, "import", str(path), match="'Anne de Vries' is no member; did you mean 'Anna de Vries'?")
    code, out, err = run(capsys, club, "import", str(path), "--new-members")
    assert code == 0, err
    assert "  Anne de Vries (close to 'Anna de Vries')" in out
    code, out, _ = run(capsys, club, "member", "list", "--format", "json")
    assert {"Anne de Vries", "Anna de Vries", "Hans Nieuw"} <= {m["name"] for m in json.loads(out)}


def test_the_name_spelled_as_the_member_needs_no_flag(club, capsys, tmp_path):
    path = tmp_path / "papier.csv"
    path.write_text(CLOSE.replace("Anne de", "anna DE"), encoding="utf-8")
    code, out, err = run(capsys, club, "import", str(path))
    assert code == 0, err
    assert "(3 members, 1 new)" in out


def test_new_members_is_for_a_rounds_csv(club, capsys):
    bad(capsys, club, "import", str(SWITCH / "open-entries.trf"), "--new-members",
        match="--new-members is for a rounds CSV")


# -- rating lists: rows without an id -------------------------------------------------------

NO_IDS = ("Relatienummer;Naam;Rating\r\n"
          ";Vries, Anna de;1875\r\n"
          ";Jansen, Bram;1730\r\n"
          "8300;Smit, Cor;1700\r\n").encode("cp1252")


def test_rows_without_an_id_are_name_only_rows(club, capsys, tmp_path):
    path = tmp_path / "eigen.csv"
    path.write_bytes(NO_IDS)
    before = digest(club)
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err  # was: "federation id  is in the list twice"
    assert "skipped: 2 rows without a federation id (lines 2, 3); --match-names matches them by name" in out
    assert digest(club) == before
    code, out, err = run(capsys, club, "ratings", "import", str(path), "--match-names")
    assert code == 0, err
    assert "Anna de Vries: by name, line 2, which has no id, rating 1850 → 1875" in out
    assert "Bram Jansen: by name, line 3, which has no id, rating 1720 → 1730" in out
    code, out, _ = run(capsys, club, "member", "list", "--format", "json")
    got = {m["name"]: m for m in json.loads(out)}
    assert (got["Anna de Vries"]["rating"], got["Anna de Vries"]["fed_id"]) == (1875, None)
    assert got["Cor Smit"]["fed_id"] == "8300" and got["Cor Smit"]["rating"] == 1700  # matched by name, with its id


def test_two_name_only_rows_of_one_name_are_not_guessed(club, capsys, tmp_path):
    path = tmp_path / "eigen.csv"
    path.write_bytes(b"Relatienummer;Naam;Rating\r\n;Vries, Anna de;1875\r\n;Anna de Vries;1900\r\n")
    code, out, err = run(capsys, club, "ratings", "import", str(path), "--match-names")
    assert code == 0, err
    assert "not found: Anna de Vries: 2 players of that name in the list (line 2, line 3)" in out


# -- keizer import FILE --dry-run, every format --------------------------------------------


def _season_json(capsys, db: Path, tmp_path: Path) -> Path:
    for date, results in (("2026-09-08", ["1=1-0", "2=½-½", "3=0-1"]), ("2026-09-15", ["1=0-1", "2=1-0", "3=+-"])):
        assert run(capsys, db, "attend", "--date", date)[0] == 0
        assert run(capsys, db, "pair")[0] == 0
        assert run(capsys, db, "result", *results)[0] == 0
    code, out, err = run(capsys, db, "export")
    assert code == 0, err
    path = tmp_path / "season.json"
    data = json.loads(out)
    data["name"] = "Kopie"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["trf", "trf-keizer", "kfc", "json", "csv"])
def test_a_dry_run_shows_the_import_and_leaves_the_database_byte_identical(club, capsys, tmp_path, kind):
    args: list[str] = []
    if kind.startswith("trf"):
        path = SWITCH / "ranked-202.trf"
        args = ["--system", "keizer"] if kind == "trf-keizer" else []
        first = "would import Ranked by the organiser (keizer" if args else "would import Ranked by the organiser (swiss)"
    elif kind == "kfc":
        path = build(tmp_path / "Interne.s3db")
        args = ["--name", "KFC"]
        first = "would import KFC from KeizerForClubs"
    elif kind == "json":
        path = _season_json(capsys, club, tmp_path)
        first = "would import Kopie: 7 players, 2 rounds"
    else:
        path = tmp_path / "papier.csv"
        path.write_text(CLOSE, encoding="utf-8")
        first = "would import papier (keizer, preset classic): 4 players (2 members, 2 new)"
    before, rows = digest(club), test_cli.digest_rows(club)
    code, out, err = run(capsys, club, "import", str(path), "--dry-run", *args)
    assert code == 0, err
    assert out.startswith(first), out
    assert "the standing it would give, after round " in out
    assert out.splitlines()[-1] == f"nothing written to {club} (--dry-run)"
    assert digest(club) == before and test_cli.digest_rows(club) == rows
    assert not list(tmp_path.glob("keizer-dry-run-*"))


def test_a_dry_run_into_no_database_creates_none(tmp_path, capsys):
    db = tmp_path / "nieuw.db"
    code, out, err = run(capsys, db, "import", str(SWITCH / "open-entries.trf"), "--dry-run")
    assert code == 0, err
    assert "round 5 is the round to pair" in out and "the standing it would give, after round 4:" in out
    assert not db.exists()


def test_a_dry_run_meets_the_refusals_of_the_import(club, capsys, tmp_path):
    path = tmp_path / "broken.trf"
    path.write_text((SWITCH / "ranked-202.trf").read_text().replace("     2 w 1", "     2 w 0", 1))
    line = bad(capsys, club, "import", str(path), "--dry-run", match="line 5, column 99")
    assert "--dry-run" not in line
    bad(capsys, club, "import", str(SWITCH / "ranked-202.trf"), "--dry-run", "--name", "Interne",
        match="a competition named 'Interne' exists already")


def test_a_dry_run_copies_a_database_in_wal_mode_whole(club, capsys):
    conn = sqlite3.connect(club)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("INSERT INTO members (name, rating) VALUES ('Anna Alfa', 1900)")
    conn.commit()  # the row is in club.db-wal until a checkpoint; the connection stays open
    wal = Path(f"{club}-wal")
    before = digest(club), digest(wal)
    code, out, err = run(capsys, club, "import", str(SWITCH / "ranked-202.trf"), "--dry-run")
    after = digest(club), digest(wal)
    conn.close()
    assert code == 0, err
    assert after == before
    assert "new member: Bram Beta (rating 1800)" in out
    assert "new member: Anna Alfa" not in out  # the member only in the WAL is in the copy


# -- a TRF's tie-break list and ranks -------------------------------------------------------

# ranked-202.trf, worked by hand: 1 Anna beat 2 Bram and drew 3 Cor; Cor drew 4 Dirk; Bram beat
# Dirk.  Points 1.5, 1, 1, 0.5.  Bram and Cor: BH/C1 1.5 each (opponents 1.5 and 0.5, the 0.5
# cut); SB Bram 0.5 (a win over Dirk), Cor 0.25 + 0.75 = 1.  The file's list (202 'BH1., SB.,
# XYZ') is BH/C1, SB: Cor 2nd, Bram 3rd; the file itself ranks Bram 2nd, Cor 3rd, and gives Dirk
# 1.0 for his 0.5.


def test_the_tiebreak_list_of_the_file_is_taken_over():
    t = parse_trf((SWITCH / "ranked-202.trf").read_text())
    taken = tiebreak_list(t)
    assert taken.codes == ("BH/C1", "SB")
    assert taken.renamed == (("BH1.", "BH/C1"), ("SB.", "SB")) and taken.dropped == (("XYZ", "unknown"),)


def test_the_import_ranks_by_the_files_list_and_names_each_rank_that_differs(tmp_path, capsys):
    db = tmp_path / "c.db"
    code, out, err = run(capsys, db, "import", str(SWITCH / "ranked-202.trf"))
    assert code == 0, err
    lines = out.splitlines()
    assert "the file's tie-break 'BH1.' (Swiss-Manager's name) is read as BH/C1" in lines
    assert ("the file's tie-break 'XYZ' has no equivalent (keizer knows no tie-break of that name): left out"
            in lines)
    assert "ranked by the file's tie-break list (record 202): BH/C1, SB" in lines
    # Bram, Cor and Dirk have 1 point each in the file, ranked 2, 3, 4: their start order, and it says so
    assert lines[lines.index("the file's ranks: 2 of 4 differ from keizer's standing after round 2 (the file ranks "
                             "players of equal points by start number, not by a tie-break):") + 1:] == [
        "  #3 Cor Gamma: rank 2, in the file 3: tied on 1 points with #2 Bram Beta, whom the file ranks 2: "
        "SB 1 against 0.5",
        "  #2 Bram Beta: rank 3, in the file 2: tied on 1 points with #3 Cor Gamma, whom the file ranks 3: "
        "SB 0.5 against 1",
    ]
    code, out, err = run(capsys, db, "standings", "--format", "json")
    rows = json.loads(out)
    assert [(r["name"], r["rank"], list(r["tiebreaks"])) for r in rows][:3] == [
        ("Anna Alfa", 1, ["BH/C1", "SB"]), ("Cor Gamma", 2, ["BH/C1", "SB"]), ("Bram Beta", 3, ["BH/C1", "SB"])]
    code, out, err = run(capsys, db, "trf", "standings", str(SWITCH / "ranked-202.trf"), "--format", "json")
    assert [r["name"] for r in json.loads(out)] == [r["name"] for r in rows]  # the same list there


def test_rank_differences_is_empty_when_the_ranks_agree():
    t = parse_trf((SWITCH / "ranked-202.trf").read_text().replace("1.0    2     1 b 0", "1.0    3     1 b 0")
                  .replace("1.0    3     4 w =", "1.0    2     4 w ="))
    rows = [{"id": "1", "rank": 1, "points": 1.5, "tiebreaks": {}}, {"id": "3", "rank": 2, "points": 1, "tiebreaks": {}},
            {"id": "2", "rank": 3, "points": 1, "tiebreaks": {}}, {"id": "4", "rank": 4, "points": 0.5, "tiebreaks": {}}]
    assert rank_differences(t, rows) == ()


def test_a_shared_rank_and_a_wrong_total_are_the_reasons_given():
    t = parse_trf((SWITCH / "ranked-202.trf").read_text().replace("1.0    3     4 w =", "1.0    2     4 w =")
                  .replace("1.0    4     3 b =", "1.0    2     3 b ="))
    rows = [{"id": "1", "rank": 1, "points": 1.5, "tiebreaks": {}}, {"id": "3", "rank": 2, "points": 1, "tiebreaks": {}},
            {"id": "2", "rank": 3, "points": 1, "tiebreaks": {}}, {"id": "4", "rank": 4, "points": 0.5, "tiebreaks": {}}]
    got = {d.start_no: d.why for d in rank_differences(t, rows)}
    assert got == {2: "shared", 4: "points"}


def test_trf_standings_reads_the_list_as_the_import_does_and_says_so(tmp_path, capsys):
    code, out, err = run(capsys, tmp_path / "unused.db", "trf", "standings", str(SWITCH / "ranked-202.trf"))
    assert code == 0, err
    assert "note: the file's tie-break 'BH1.' (Swiss-Manager's name) is read as BH/C1" in err
    assert "note: the file's tie-break 'XYZ' has no equivalent in keizer: left out" in err


def test_a_dry_run_of_any_format_asks_about_a_new_member_close_to_a_member(tmp_path, capsys):
    db = tmp_path / "c.db"
    assert run(capsys, db, "member", "add", "Ana Alfa")[0] == 0
    code, out, err = run(capsys, db, "import", str(SWITCH / "ranked-202.trf"), "--dry-run")
    assert code == 0, err
    assert ("did you mean 'Ana Alfa'? the import would add 'Anna Alfa' as a new member (rename the member or the "
            "player in the file first if they are one person)") in out.splitlines()
    assert out.count("did you mean") == 1


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted((w, r) for r, words in rounds_csv._WORDS.items() for w in words)),
       st.sampled_from(["", " ", "  "]), st.booleans())
def test_a_result_word_reads_the_same_in_any_case_and_spacing(word_result, pad, upper):
    word, result = word_result
    typed = pad + (word.upper() if upper else word).replace("-", f"{pad}-{pad}") + pad
    assert rounds_csv.game_result(typed) is result


def test_fide_lists_lines_without_an_id_are_name_only_too(club, capsys, tmp_path):
    from test_ratings import fide_line, fide_txt, fide_xml

    txt = tmp_path / "eigen.txt"
    txt.write_bytes(fide_txt(fide_line("", "Vries, Anna de", "NED", "1901"),
                             fide_line("7000002", "Jansen, Bram", "NED", "1650")))
    code, out, err = run(capsys, club, "ratings", "import", str(txt))
    assert code == 0, err  # was: "line 2: no FIDE id in the first column"
    assert "skipped: 1 row without a FIDE id (line 2); --match-names matches it by name" in out
    code, out, err = run(capsys, club, "ratings", "import", str(txt), "--match-names")
    assert code == 0, err
    assert "Anna de Vries: by name, line 2, which has no id, FIDE rating none → 1901" in out
    xml = tmp_path / "eigen.xml"
    xml.write_bytes(fide_xml(("", "Smit, Cor", "1777")))
    code, out, err = run(capsys, club, "ratings", "import", str(xml), "--match-names")
    assert code == 0, err  # was: "FIDE id '' is not a number"
    assert "Cor Smit: by name, line 1, which has no id, FIDE rating none → 1777" in out


def test_a_season_typed_in_excel_with_a_near_namesake(club, capsys):
    """tests/data/spreadsheets/interne-typed.csv: Windows-1252 as Excel saves it, the words
    officers type, and 'Anne de Vries' who is a second player (she plays Anna in round 2)."""
    path = DATA / "spreadsheets" / "interne-typed.csv"
    bad(capsys, club, "import", str(path), match="'Anne de Vries' is no member; did you mean 'Anna de Vries'?")
    code, out, err = run(capsys, club, "import", str(path), "--new-members", "--name", "Typed")
    assert code == 0, err
    assert "imported Typed (keizer, preset classic): 5 players (4 members, 1 new), 3 rounds, 6 games" in out
    code, out, _ = run(capsys, club, "-c", "Typed", "history", "Anna de Vries", "--format", "json")
    rows = json.loads(out)["rounds"] if isinstance(json.loads(out), dict) else json.loads(out)
    results = [r.get("result") for r in rows]
    assert results[:3] == ["1", "1", "0"], results  # gewonnen as White, verloren by Anne as White, 1 : 0 for Cor


def test_a_clubs_own_rating_list_without_ids(club, capsys):
    path = DATA / "spreadsheets" / "eigen-ratinglijst.csv"
    code, out, err = run(capsys, club, "ratings", "import", str(path), "--match-names", "--dry-run")
    assert code == 0, err
    assert "Anna de Vries: by name, line 2, which has no id, rating 1850 → 1875" in out
    assert "Cor Smit: federation id none → 8300 (by name, line 4)" in out
