"""Switching to keizer mid-season from other programs (TRF) and from paper (a rounds CSV)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import test_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples
from test_cli import bad, digest, run

from keizer.formats import rounds_csv, trf
from keizer.formats.season_json import FormatError
from keizer.formats.trf_keizer import keizer_season
from keizer.settings import Settings

club = test_cli.club  # the shared fixture: seven members and a Keizer competition 'Interne'


def _play(capsys, db: Path, date: str, marks: list[str], results: list[str]) -> None:
    assert run(capsys, db, "attend", *marks, "--date", date)[0] == 0
    assert run(capsys, db, "pair")[0] == 0
    assert run(capsys, db, "result", *results)[0] == 0


@pytest.fixture
def season(club, capsys):
    """Three rounds of 'Interne' with an odd-number bye, excused and unexcused absences."""
    _play(capsys, club, "2026-09-08", ["-e", "Bram", "-u", "Cor"], ["1=1-0", "2=½-½"])
    _play(capsys, club, "2026-09-15", [], ["1=0-1", "2=1-0", "3=+-"])
    _play(capsys, club, "2026-09-22", ["-e", "Eva"], ["1=½-½", "2=1-0", "3=0-1"])
    return club


def _export(capsys, db: Path, *extra: str) -> str:
    code, out, err = run(capsys, db, *extra, "export", "--format", "trf")
    assert code == 0, err
    return out


def _standings(capsys, db: Path, comp: str) -> list[dict]:
    code, out, err = run(capsys, db, "-c", comp, "standings", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _by_name(capsys, db: Path, comp: str) -> dict[str, tuple]:
    return {e["name"]: (e["rank"], e["score_exact"], e["value_exact"])
            for e in _standings(capsys, db, comp)}


def test_keizer_trf_round_trip(season, capsys, tmp_path):
    text = _export(capsys, season)
    path = tmp_path / "interne.trf"
    path.write_text(text, encoding="utf-8", newline="")
    code, out, err = run(capsys, season, "import", str(path), "--system", "keizer", "--name", "Copy",
                         "--set", "top=20")
    assert code == 0, err
    assert "imported Copy (keizer, preset classic) from keizer's own TRF export: 7 players, 3 rounds" in out
    # Byes (U) and excused absences (H) come back exactly; only the unexcused (Z) round is listed.
    assert [line.strip() for line in out.splitlines() if "→" in line] == [
        ("Cor Smit (#4): round 1 Z (zero-point bye or no entry) → unexcused "
         "(or club duty, an external game, not yet joined, withdrawn)")]
    # The same games, byes and dates: the copy exports to the same file, but for its name.
    assert _export(capsys, season, "-c", "Copy") == text.replace("012 Interne", "012 Copy")
    assert _by_name(capsys, season, "Copy") == _by_name(capsys, season, "Interne")


def test_keizer_trf_is_keizer_by_default_and_club_duty_becomes_unexcused(club, capsys, tmp_path):
    _play(capsys, club, "2026-09-08", ["-k", "Dirk"], ["1=1-0", "2=½-½", "3=0-1"])
    path = tmp_path / "interne.trf"
    path.write_text(_export(capsys, club), encoding="utf-8")
    code, out, err = run(capsys, club, "import", str(path), "--name", "Copy", "--set", "top=20")
    assert code == 0, err
    assert "(keizer, preset classic) from keizer's own TRF export" in out
    # TRF has one code (Z) for club duty, external games and unexcused absences.
    assert "Dirk O'Neill (#5): round 1 Z (zero-point bye or no entry) → unexcused (or club duty" in out
    copy = {e["name"]: e for e in _standings(capsys, club, "Copy")}
    original = {e["name"]: e for e in _standings(capsys, club, "Interne")}
    assert (original["Dirk O'Neill"]["club"], copy["Dirk O'Neill"]["club"]) == (1, 0)
    assert copy["Dirk O'Neill"]["unexcused"] == 1
    # Forced otherwise, the same file is the Swiss event it used to become.
    code, out, err = run(capsys, club, "import", str(path), "--name", "Swiss", "--system", "swiss")
    assert code == 0 and "(swiss)" in out, err


def _trf_player(start: int, title: str, name: str, rating: str, fed: str, fide: str, rounds: str) -> str:
    return f"001 {start:>4}  {title:>3} {name:<33} {rating:>4} {fed:<3} {fide:>11} {'':<10} {'':>4} {'':>4}{rounds}"


SWISS_MANAGER = "\n".join([
    "012 Open Najaar", "092 Individual: Swiss-System", "142 4",
    _trf_player(1, "g", "Anna Alfa", "2210", "NED", "1234567", "     3 w 1  0000 - H     2 b 0  0000 - F"),
    _trf_player(2, "", "Bram Beta", "1980", "NED", "abc", "     4 b 1  0000 - U     1 w 1"),
    _trf_player(3, "", "Cor Gamma", "1850", "BEL", "7654321", "     1 b 0     4 w 1  0000 - Z     4 b ="),
    _trf_player(4, "", "Dirk Delta", "1700", "", "", "     2 w 0     3 b 0  0000 - Z     3 w ="),
]) + "\n"


def test_foreign_trf_as_keizer_lists_every_inexact_round(club, capsys, tmp_path):
    path = tmp_path / "open.trf"
    path.write_text(SWISS_MANAGER, encoding="utf-8")
    code, out, err = run(capsys, club, "import", str(path))
    assert code == 0 and "(swiss)" in out, err  # without --system: as before
    code, out, err = run(capsys, club, "import", str(path), "--system", "keizer", "--name", "Open K",
                         "--preset", "classic")
    assert code == 0, err
    assert "imported Open K (keizer, preset classic) from TRF: 4 players, 4 rounds, 5 games" in out
    lines = [line.strip() for line in out.splitlines() if "→" in line]
    # One line per player, naming the rounds.
    assert lines == [
        "Anna Alfa (#1): round 2 H (half-point bye) → excused; round 4 F (full-point bye) → club",
        "Bram Beta (#2): round 2 U (pairing-allocated bye) → bye; round 4 Z (zero-point bye or no entry) → unexcused",
        "Cor Gamma (#3): round 3 Z (zero-point bye or no entry) → unexcused",
        "Dirk Delta (#4): round 3 Z (zero-point bye or no entry) → unexcused",
    ]
    assert "to check (5; mark a round otherwise" in out  # four players and the FIDE id
    assert "Bram Beta (#2): FIDE id 'abc' is not a number; not stored" in out
    assert "2 FIDE ids stored" in out
    code, out, _ = run(capsys, club, "member", "list", "--format", "json")
    ids = {m["name"]: m.get("fide_id", m["fed_id"]) for m in json.loads(out)}
    assert ids["Anna Alfa"] == "1234567" and ids["Cor Gamma"] == "7654321" and ids["Bram Beta"] is None
    rows = {e["name"]: e for e in _standings(capsys, club, "Open K")}
    assert (rows["Anna Alfa"]["excused"], rows["Anna Alfa"]["club"], rows["Bram Beta"]["byes"]) == (1, 1, 1)


LATE_AND_FORFEITS = "\n".join([
    "012 Najaar", "092 Individual: Swiss-System",
    _trf_player(1, "", "Anna Alfa", "2210", "NED", "", "     2 w 1     3 - +     2 b 0     3 w 1"),
    _trf_player(2, "", "Bram Beta", "1980", "NED", "", "     1 b 0     4 b 1     1 w 1  0000 - H"),
    _trf_player(3, "", "Cor Gamma", "1850", "NED", "", "  0000 - Z     1 - -     4 b 1     1 b 0"),
    _trf_player(4, "", "Dirk Delta", "1700", "NED", "", "  0000 - Z     2 w 0     3 w 0  0000 - Z"),
]) + "\n"


def test_a_players_rounds_to_check_are_one_line_and_a_colourless_forfeit_is_kept_and_named(club, capsys, tmp_path):
    path = tmp_path / "najaar.trf"
    path.write_text(LATE_AND_FORFEITS, encoding="utf-8")
    code, out, err = run(capsys, club, "import", str(path), "--system", "keizer", "--name", "Najaar")
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert lines == [
        "Bram Beta (#2): round 4 H (half-point bye) → excused",
        "Cor Gamma (#3): round 1 Z (zero-point bye or no entry) → unexcused",
        "Dirk Delta (#4): rounds 1, 4 Z (zero-point bye or no entry) → unexcused",
        ("round 2, Anna Alfa (#1) – Cor Gamma (#3): forfeit +/- without colours in the file ('-'): kept as "
         "paired, Anna Alfa (#1) listed first; a forfeit counts for nobody's colours"),
    ]
    rows = {e["name"]: e for e in _standings(capsys, club, "Najaar")}
    assert (rows["Anna Alfa"]["forfeit_wins"], rows["Cor Gamma"]["forfeit_losses"]) == (1, 1)
    assert rows["Dirk Delta"]["unexcused"] == 2 and rows["Bram Beta"]["excused"] == 1


def test_a_colour_on_one_side_gives_the_other_side_the_opposite():
    # Player 1 wrote Black and a forfeit win; player 2 wrote '-': one game, 2 had White.
    t = trf.parse("012 X\n" + _trf_player(1, "", "A", "1800", "", "", "     2 b +") + "\n"
                  + _trf_player(2, "", "B", "1700", "", "", "     1 - -") + "\n")
    assert [p.results[0].colour.value for p in t.players] == ["black", "white"]
    imp = keizer_season(t, Settings())
    assert [(g.white, g.black, g.result.value) for g in imp.season.rounds[0].games] == [("2", "1", "-+")]
    assert imp.notes == ()


def test_trf_options_that_do_not_apply_are_refused(club, capsys, tmp_path):
    path = tmp_path / "open.trf"
    path.write_text(SWISS_MANAGER, encoding="utf-8")
    bad(capsys, club, "import", str(path), "--preset", "classic", match="add --system keizer")
    # (--dry-run was refused here for a TRF; it now shows the import for every format: test_import_dry_run.py)
    bad(capsys, club, "import", str(path), "--system", "keizer", "--new-members", match="--new-members is for a rounds CSV")
    bad(capsys, club, "import", str(path), "--system", "keizer", "--set", "nonsense=1", match="unknown setting")


def test_export_round_trips_through_the_strict_reader_with_its_dates(season, capsys):
    text = _export(capsys, season)
    t = trf.parse(text)  # strict: every pairing named from both sides, colours, results
    assert "042 2026-09-08" in t.info and "052 2026-09-22" in t.info
    assert t.dates == ("2026-09-08", "2026-09-15", "2026-09-22")
    assert t.rounds == 3 and len(t.players) == 7
    assert trf.parse(trf.dump(t)) == t


def test_export_of_forfeits_external_games_late_and_withdrawn_players_is_strict_trf(club, capsys, tmp_path):
    _play(capsys, club, "2026-09-08", ["-x", "Eva=win"], ["1=+-", "2=--", "3=1-0"])
    assert run(capsys, club, "member", "add", "Laat", "--rating", "1500")[0] == 0
    assert run(capsys, club, "player", "add", "Laat")[0] == 0
    assert run(capsys, club, "player", "withdraw", "Dirk")[0] == 0
    _play(capsys, club, "2026-09-15", [], ["1=1-0", "2=0-1", "3=½-½"])
    text = _export(capsys, club)
    t = trf.parse(text)
    assert "042 2026-09-08" in t.info and "052 2026-09-15" in t.info and t.dates == ("2026-09-08", "2026-09-15")
    codes = {p.name: "".join(r.code.value for r in p.results) for p in t.players}
    assert codes["Eva Müller"][0] == "Z" and codes["Laat"][0] == "Z" and codes["Dirk O'Neill"][1] == "Z"
    assert sorted(c[0] for c in codes.values()).count("+") == 1  # the forfeit win; '--' is two losses
    path = tmp_path / "x.trf"
    path.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, club, "import", str(path), "--name", "Copy")
    assert code == 0, err
    assert _export(capsys, club, "-c", "Copy") == text.replace("012 Interne", "012 Copy")


ROUNDS = ("ronde;datum;wit;zwart;uitslag\n"
          "1;8-9-2026;anna de vries;Bram Jansen;1-0\n"
          "1;8-9-2026;Hans Nieuw;Cor Smit;½-½\n"
          "1;;Eva Müller;;afgemeld\n"
          "2;15-9-2026;Bram Jansen;Hans Nieuw;0-1\n"
          "2;;Anna de Vries;;extern winst\n"
          "2;;Cor Smit;;club\n")


def test_rounds_csv_dry_run_then_import(club, capsys, tmp_path):
    path = tmp_path / "papier.csv"
    path.write_bytes(ROUNDS.encode("cp1252"))  # Excel's Windows-1252
    before = digest(club)
    code, out, err = run(capsys, club, "import", str(path), "--dry-run", "--name", "Papier")
    assert code == 0, err
    assert digest(club) == before
    assert "would import Papier (keizer, preset classic): 5 players (4 members, 1 new), 2 rounds, 3 games" in out
    assert "  Hans Nieuw" in out and "round 2, Eva Müller: no row → unexcused" in out
    code, out, err = run(capsys, club, "import", str(path), "--name", "Papier", "--set", "top=20")
    assert code == 0, err
    assert "new members (1; not in the member list, added):\n  Hans Nieuw" in out
    rows = {e["name"]: e for e in _standings(capsys, club, "Papier")}
    assert set(rows) == {"Anna de Vries", "Bram Jansen", "Cor Smit", "Eva Müller", "Hans Nieuw"}
    assert rows["Anna de Vries"]["rating"] == 1850  # the existing member, matched ignoring case
    assert (rows["Anna de Vries"]["external"], rows["Cor Smit"]["club"], rows["Eva Müller"]["excused"],
            rows["Eva Müller"]["unexcused"]) == (1, 1, 1, 1)
    assert rows["Hans Nieuw"]["wins"] == 1 and rows["Hans Nieuw"]["draws"] == 1
    code, out, _ = run(capsys, club, "member", "list", "--format", "json")
    assert sum(m["name"].lower() == "anna de vries" for m in json.loads(out)) == 1
    bad(capsys, club, "import", str(path), "--name", "Papier", match="a competition named 'Papier' exists already")


def test_rounds_csv_english_commas_and_an_open_last_round(club, capsys, tmp_path):
    path = tmp_path / "rounds.csv"
    path.write_text("Round,Date,White,Black,Result\n1,2026-09-08,Anna de Vries,Bram Jansen,0-1\n"
                    "2,2026-09-15,Bram Jansen,Anna de Vries,\n", encoding="utf-8-sig")
    code, out, err = run(capsys, club, "import", str(path))
    assert code == 0, err
    assert "imported rounds (keizer, preset classic): 2 players (2 members, 0 new), 2 rounds, 2 games" in out
    assert _standings(capsys, club, "rounds")[0]["name"] == "Bram Jansen"


@pytest.mark.parametrize("text, match", [
    ("ronde;wit;zwart;uitslag\n1;A;B;2-0\n", "line 2: unknown result '2-0'"),
    ("ronde;wit;zwart;uitslag\n1;A;B;1-0\n1;C;A;1-0\n", "line 3: A is in round 1 twice (line 2)"),
    ("ronde;wit;zwart;uitslag\n1;A;B;1-0\n3;A;B;1-0\n", "line 3: round 3, but no row for round 2"),
    ("ronde;wit;zwart;uitslag\n1;A;B;\n2;A;B;1-0\n", "line 2: no result; only the last round"),
    ("ronde;wit;zwart;uitslag\n1;A;;ziek\n", "line 2: 'ziek' is not an absence"),
    ("ronde;wit;zwart;uitslag\n1;A;A;1-0\n", "line 2: A plays against themselves"),
    ("ronde;datum;wit;zwart;uitslag\n1;31-2-2026;A;B;1-0\n", "line 2: date '31-2-2026' is not a date"),
    ("ronde;datum;wit;zwart;uitslag\n1;1-9-2026;A;B;1-0\n1;2-9-2026;C;D;1-0\n", "line 3: round 1 on 2026-09-02"),
    ("ronde;wit;zwart;uitslag\nx;A;B;1-0\n", "line 2: round 'x' is not a number"),
    ("ronde;wit;zwart;uitslag\n1;A;B\n", "line 2 has 3 fields"),
    ("ronde;wit;zwart;uitslag\n1;A;B;1-0;extra\n", "line 2 has 5 fields, the header 4"),
    ("ronde;wit;zwart;uitslag\n1;A;B;1-0\n1;C;;vrij\n1;D;;bye\n", "line 4: a second bye in round 1 (line 3"),
    ("ronde;wit;zwart;uitslag\n1;\"A;B;1-0\n", "line 2:"),
    ("round;white;result\n1;A;1-0\n", "no 'black' column"),
    ("Naam;Rating\nAnna;1850\n", "import it with 'keizer member import bad.csv'"),
])
def test_broken_rounds_csv_is_refused_with_its_line(club, capsys, tmp_path, text, match):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    bad(capsys, club, "import", str(path), match=match)


def test_ambiguous_member_name_is_refused(club, capsys, tmp_path):
    assert run(capsys, club, "member", "add", "anna de vries", "--rating", "1200",
               "--allow-duplicate")[0] == 0
    path = tmp_path / "r.csv"
    path.write_text("round;white;black;result\n1;Anna de Vries;Cor Smit;1-0\n", encoding="utf-8")
    bad(capsys, club, "import", str(path), match="matches several members")


def test_rounds_csv_without_csv_suffix_is_recognised_by_its_header(tmp_path, capsys):
    db = tmp_path / "new.db"
    path = tmp_path / "uitslagen.txt"
    path.write_text("ronde;wit;zwart;uitslag\n1;Émile <script>;Zoë 🐴;1-0\n", encoding="utf-8")
    code, out, err = run(capsys, db, "import", str(path), "--name", "Nieuw")
    assert code == 0, err
    assert "2 players (0 members, 2 new)" in out
    assert [e["name"] for e in _standings(capsys, db, "Nieuw")] == ["Émile <script>", "Zoë 🐴"]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.lists(st.sampled_from(["1", "2", "", "A", "B", "1-0", "½-½", "--", "club", "x", '"', "8-9-2026"]),
                         max_size=6), max_size=6))
def test_rounds_csv_reader_refuses_or_reads_never_crashes(rows):
    text = "round;date;white;black;result\n" + "\n".join(";".join(r) for r in rows)
    try:
        imp = rounds_csv.parse(text, Settings(), "x")
    except FormatError as e:
        assert str(e).startswith(("line ", "the file has no rows")), e
    else:
        assert all(r.number == n for n, r in enumerate(imp.season.rounds, start=1))
