"""Importing a KeizerForClubs (KFC) tournament database: `keizer import club.s3db`.

The proof is the standing: after the import, `keizer standings` gives the scores and
ranks KFC stored.  Checked on KFC's own sample tournament (never committed: see
``conftest.external``) and on small databases built here with KFC's table layout, whose
stored numbers were computed by hand (the comments show the sums).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import sqlite3
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import KFC_SAMPLE, examples, external, load_vector, vector_files

from keizer.formats import kfc
from keizer.formats.season_json import FormatError
from keizer.model import Absence, Result
from test_cli import run

# KFC's tables, written from its documented layout (docs: docs/switching.md).
SCHEMA = """
CREATE TABLE Player (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, name VARCHAR(30) NOT NULL,
    rating INTEGER(4) NOT NULL, rank INTEGER(3) NOT NULL, state INTEGER(2), Keizer_StartPts FLOAT,
    Keizer_SumPts FLOAT, RatingWDelta INTEGER NOT NULL DEFAULT 0, Keizer_PrevPts FLOAT, Categories VARCHAR(90));
CREATE TABLE Pairing (Rnd INTEGER NOT NULL, board INTEGER NOT NULL, PID_W INTEGER NOT NULL,
    PID_B INTEGER NOT NULL, Result INTEGER(2), Pts_W FLOAT, Pts_B FLOAT);
CREATE TABLE ConfigTab (CfgKey VARCHAR(20) NOT NULL PRIMARY KEY, CfgText VARCHAR(5), CfgValue FLOAT);
"""

CONFIG = {"BONUS.Excused": 40, "BONUS.Unexcused": 10, "BONUS.Clubgame": 60, "BONUS.Freilos": 50,
          "BONUS.Verlust": 10, "BONUS.Retired": 80, "OPTION.RatioFirst2Last": 3, "OPTION.DecayBonus": 1,
          "OPTION.GameRepeat": 3, "OPTION.DistBye": 0}

# Eleven players; Jan withdrew (state 9) after round 1, Kees started late (round 2).
# The ladder holds the ten others: top = round-half-even(9 · 3/2) = 14, values 14…5.
# By rating: Anna 14, Bram 13, Cor 12, Dirk 11, Eva 10, Femke 9, Gijs 8, Hans 7, Ids 6, Kees 5;
# the standing after round 1 (without Jan) gives Anna 14, Dirk 13, Bram 12, Femke 11, Gijs 10,
# Cor 9, Eva 8, Hans 7, Ids 6, Kees 5, and these values price rounds 1 and 2 of the final standing.
# (id, name, rating, state, rank, value after, total, value before)
PLAYERS = [
    (1, "Anna", 2000, 1, 1, 14, 32.5, 14),   # 14 + 12 (beat Bram) + 6.5 (drew Dirk)
    (2, "Bram", 1900, 1, 4, 11, 18.4, 12),   # 12 + 1.4 (10 % of Anna's 14 for the loss) + 5 (forfeit win)
    (3, "Cor", 1800, 1, 9, 6, 9.0, 9),       # 9 + 0 (forfeit loss) + 0 (double forfeit)
    (4, "Dirk", 1700, 1, 2, 13, 29.0, 13),   # 13 + 9 (forfeit win over Cor) + 7 (drew Anna)
    (5, "Eva", 1600, 1, 8, 7, 9.64, 8),      # 8 + 0.64 (10 % × 80 % × 8, lost to withdrawn Jan) + 1 (lost to Gijs)
    (6, "Femke", 1500, 1, 5, 10, 16.0, 11),  # 11 + 5 (adjourned = draw with Gijs) + 0 (double forfeit)
    (7, "Gijs", 1400, 1, 3, 12, 23.5, 10),   # 10 + 5.5 (adjourned with Femke) + 8 (beat Eva)
    (8, "Hans", 1300, 1, 7, 8, 10.15, 7),    # 7 + 2.8 (excused 40 %) + 0.35 (unexcused 10 %, halved: 2nd absence)
    (9, "Ids", 1200, 1, 6, 9, 12.6, 6),      # 6 + 3.6 (club 60 %) + 3 (bye 50 %)
    (10, "Jan", 1100, 9, 11, 0, 0.0, 0),     # withdrawn: off the ladder
    (11, "Kees", 1000, 1, 10, 5, 5.5, 5),    # 5 + 0.5 (late start = unexcused 10 %) + 0 (forfeit loss)
]
# (round, board, white, black, result, pts white, pts black); one-player rows have black -1.
PAIRINGS = [
    (1, 1, 1, 2, 1, 12.0, 1.4), (1, 2, 3, 4, 9, 0.0, 9.0), (1, 3, 5, 10, 3, 0.64, 0.0), (1, 4, 6, 7, 11, 5.0, 5.5),
    (1, 100, 8, -1, 6, 2.8, 0.0), (1, 101, 9, -1, 5, 3.6, 0.0), (1, 102, 11, -1, 12, 0.5, 0.0),
    (2, 1, 1, 4, 2, 6.5, 7.0), (2, 2, 2, 11, 8, 5.0, 0.0), (2, 3, 6, 3, 10, 0.0, 0.0), (2, 4, 5, 7, 3, 1.0, 8.0),
    (2, 100, 8, -1, 7, 0.35, 0.0), (2, 101, 9, -1, 4, 3.0, 0.0),
]
EXPECTED = {name: F(str(total)) for _, name, _, state, _, _, total, _ in PLAYERS if state != 9}
RANKING = ["Anna", "Dirk", "Gijs", "Bram", "Femke", "Ids", "Hans", "Eva", "Cor", "Kees"]
# KFC's cached standing after round 1 (table tStand_1), printed while Jan still played: eleven on
# the ladder, top round-half-even(10 · 3/2) = 15.  "0,00" as a German KFC prints it.
TSTAND_1 = [("Anna", 1, "29,00"), ("Dirk", 4, "25,00"), ("Jan", 10, "17,00"), ("Bram", 2, "15,50"),
            ("Femke", 6, "14,50"), ("Gijs", 7, "14,00"), ("Cor", 3, "13,00"), ("Eva", 5, "11,60"),
            ("Hans", 8, "11,20"), ("Ids", 9, "11,20"), ("Kees", 11, "5,50")]


def build(path: Path, players=PLAYERS, pairings=PAIRINGS, config=CONFIG, tstand=TSTAND_1, text=None) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO Player (id, name, rating, state, rank, Keizer_StartPts, Keizer_SumPts,"
                     " Keizer_PrevPts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     [(i, n, r, s, rk, v, t, vb) for i, n, r, s, rk, v, t, vb in players])
    conn.executemany("INSERT INTO Pairing VALUES (?, ?, ?, ?, ?, ?, ?)", pairings)
    conn.executemany("INSERT INTO ConfigTab (CfgKey, CfgValue) VALUES (?, ?)", config.items())
    conn.executemany("INSERT INTO ConfigTab (CfgKey, CfgText) VALUES (?, ?)", (text or {}).items())
    if tstand:
        conn.execute("CREATE TABLE tStand_1 (id INTEGER PRIMARY KEY, line TEXT NOT NULL)")
        lines = ["Test", "Tabelle Runde 1", "footer", "§Name§Keizer-Punkte§Spiel-Punkte§Id"]
        lines += [f"{k}.§{name}§{total}§0§{pid}" for k, (name, pid, total) in enumerate(tstand, 1)]
        conn.executemany("INSERT INTO tStand_1 (line) VALUES (?)", [(x,) for x in lines])
    conn.commit()
    conn.close()
    return path


def standing(capsys, db: Path, *args: str) -> list[dict]:
    code, out, err = run(capsys, db, "standings", "--format", "json", *args)
    assert code == 0, err
    return json.loads(out)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- KFC's own sample tournament ------------------------------------------------


def test_sample_tournament_standing_is_the_one_kfc_stored(tmp_path, capsys):
    sample = external(KFC_SAMPLE)
    before = sha(sample)
    db = tmp_path / "club.db"
    code, out, err = run(capsys, db, "import", str(sample))
    assert code == 0, err
    assert "9 players (1 withdrawn, 0 late entrants), 5 rounds, 18 games" in out
    assert "BONUS.Retired 75 → withdrawn_opponent=3/4" in out
    assert "OPTION.FirstRoundRandom 300:" in out  # named, not dropped
    assert "checked against KeizerForClubs' stored numbers: all 72 equal" in out
    vector = load_vector(next(p for p in vector_files() if "keizerforclubs" in p.name))["expected"]
    rows = standing(capsys, db)
    assert [r["name"] for r in rows] == vector["ranking"]
    assert {r["name"]: F(r["score_exact"]) for r in rows} == {k: F(str(v)) for k, v in vector["scores"].items()}
    assert sha(sample) == before  # read, never written


def test_sample_every_stored_number_is_compared(tmp_path):
    imp = kfc.read(external(KFC_SAMPLE))
    checked, diffs = kfc.compare(imp)
    assert diffs == []
    # 8 players × (total, rank, value, value before) + the points of every ladder player's row
    assert checked == 8 * 4 + len([k for k in imp.stored.points if k[1] != "12"])


# -- databases built with KFC's layout ---------------------------------------------


def test_every_code_is_read_into_the_model(tmp_path):
    imp = kfc.read(build(tmp_path / "t.s3db"))
    s = imp.season
    r1, r2 = s.rounds
    assert [g.result for g in r1.games] == [Result.WHITE_WIN, Result.BLACK_FORFEIT_WIN, Result.BLACK_WIN, Result.DRAW]
    assert [g.result for g in r2.games] == [Result.DRAW, Result.WHITE_FORFEIT_WIN, Result.DOUBLE_FORFEIT,
                                            Result.BLACK_WIN]
    assert dict(r1.absent) == {"8": Absence.EXCUSED, "9": Absence.CLUB}
    assert dict(r2.absent) == {"8": Absence.UNEXCUSED, "9": Absence.BYE}
    assert s.player("11").joined == 2 and s.player("10").withdrawn_after == 1
    st = s.settings
    assert (st.excused, st.unexcused, st.club, st.bye, st.loss, st.withdrawn_opponent, st.late) == (
        F(2, 5), F(1, 10), F(3, 5), F(1, 2), F(1, 10), F(4, 5), F(1, 10))
    assert st.absence_decay and st.rematch_gap == 3 and st.bye_policy == "lowest" and st.top_rounding == "half-even"
    assert any("adjourned" in line for line in imp.unmapped)


def test_built_database_standing_equals_the_stored_one(tmp_path, capsys):
    src = build(tmp_path / "t.s3db")
    db = tmp_path / "club.db"
    code, out, err = run(capsys, db, "import", str(src), "--name", "Interne")
    assert code == 0, err
    assert "11 players (1 withdrawn, 1 late entrants), 2 rounds, 8 games, 4 byes and absences" in out  # the late start is not one
    assert "OPTION.DecayBonus 1 → absence_decay=on" in out
    # 10 × 4 final numbers, the 20 rows of ladder players, 11 totals of the cached round-1 table
    assert "all 71 equal" in out
    rows = standing(capsys, db)
    assert [r["name"] for r in rows] == RANKING
    assert {r["name"]: F(r["score_exact"]) for r in rows} == EXPECTED
    assert [r["value"] for r in rows] == list(range(14, 4, -1))
    after_1 = {r["name"]: F(r["score_exact"]) for r in standing(capsys, db, "--round", "1")}
    assert after_1 == {n: F(t.replace(",", ".")) for n, _, t in TSTAND_1}


def test_a_stored_number_that_differs_is_named(tmp_path, capsys):
    pairings = [p if p[:2] != (2, 100) else (2, 100, 8, -1, 7, 0.7, 0.0) for p in PAIRINGS]  # 0.35 undecayed
    players = [p if p[1] != "Hans" else (8, "Hans", 1300, 1, 7, 8, 10.5, 7) for p in PLAYERS]
    src = build(tmp_path / "t.s3db", players=players, pairings=pairings)
    code, out, _ = run(capsys, tmp_path / "club.db", "import", str(src))
    assert code == 0
    assert "2 of 71 differ:" in out
    assert "  Hans total after round 2: KFC 10.5, keizer 10.15" in out
    assert "  Hans points in round 2: KFC 0.7, keizer 0.35" in out


def test_options_without_an_equivalent_are_named_one_line_each(tmp_path, capsys):
    config = CONFIG | {"OPTION.DecayPrevRound": 1, "OPTION.NovusRandom": 1, "WIN.locX": 10, "WIN.locY": 5,
                       "OPTION.Mystery": 7}
    src = build(tmp_path / "t.s3db", config=config, text={"OPTION.RoundsSameColor": "2", "LANGCODE": "DE"})
    code, out, _ = run(capsys, tmp_path / "club.db", "import", str(src))
    assert code == 0
    unmapped = out.split("not mapped:\n")[1].split("checked")[0].splitlines()
    assert any(line.startswith("  OPTION.DecayPrevRound") for line in unmapped)
    assert any(line.startswith("  OPTION.NovusRandom") for line in unmapped)
    assert any(line.startswith("  OPTION.RoundsSameColor 2") for line in unmapped)
    assert any(line.startswith("  OPTION.Mystery 7: unknown to this importer") for line in unmapped)
    assert any(line.startswith("  LANGCODE DE") for line in unmapped)
    assert "  window layout (2 keys WIN.*): KFC's screen only, not needed" in unmapped


def test_wicker_normalisation_is_a_range_ladder(tmp_path):
    imp = kfc.read(build(tmp_path / "t.s3db", config=CONFIG | {"OPTION.WickerNormalization": 1}))
    st = imp.season.settings
    assert (st.ladder, st.range_top, st.range_bottom) == ("range", 3, 1)
    assert any(line.startswith("OPTION.WickerNormalization") for line in imp.unmapped)


def test_unfinished_last_round_is_imported_pending(tmp_path, capsys):
    pairings = PAIRINGS + [(3, 1, 1, 7, -1, 0.0, 0.0), (3, 100, 8, -1, 6, 2.8, 0.0)]
    src = build(tmp_path / "t.s3db", pairings=pairings)
    code, out, _ = run(capsys, tmp_path / "club.db", "import", str(src))
    assert code == 0
    assert "round 3 has no results yet: KFC's stored totals were not compared" in out
    rows = standing(capsys, tmp_path / "club.db")
    assert {r["name"]: F(r["score_exact"]) for r in rows} == EXPECTED  # the standing after round 2


def test_kfc_players_become_members(tmp_path, capsys):
    src = build(tmp_path / "t.s3db")
    db = tmp_path / "club.db"
    code, out, err = run(capsys, db, "member", "import", str(src))
    assert code == 0, err
    assert "added: Anna (rating 2000)" in out and "11 members added" in out


# -- refusals: one line, the database unchanged -----------------------------------


@pytest.mark.parametrize("make, says", [
    (lambda p: p.write_bytes(b"not a database at all"), "is not a readable KeizerForClubs database"),
    (lambda p: p.write_bytes(external(KFC_SAMPLE).read_bytes()[:3000]), "is not a readable KeizerForClubs database"),
    (lambda p: p.write_bytes(build(p).read_bytes()[:3000]), "is not a readable KeizerForClubs database"),
    (lambda p: sqlite3.connect(p).executescript("CREATE TABLE members (id INTEGER)").close(),
     "is not a KeizerForClubs database: it has no table Player, Pairing, ConfigTab"),
    (lambda p: build(p, pairings=PAIRINGS + [(2, 5, 2, 3, 13, 0, 0)]), "round 2 board 5: result code 13"),
    (lambda p: build(p, pairings=PAIRINGS + [(2, 5, 2, 99, 1, 0, 0)]), "player id 99 is not in table Player"),
    (lambda p: build(p, pairings=PAIRINGS + [(2, 5, -1, 3, 1, 0, 0)]), "round 2 board 5: player id -1 is not in"),
    (lambda p: build(p, config=CONFIG | {"OPTION.RatioFirst2Last": 1}), "ratio must be above 1"),
    (lambda p: build(p, pairings=PAIRINGS + [("drei", 1, 2, 3, 1, 0, 0)]), "a value is not what KeizerForClubs"),
], ids=["garbage", "cut-off", "cut-off-built", "other-sqlite", "bad-code", "unknown-player", "no-white-player",
     "bad-ratio", "text-round"])
def test_bad_file_is_refused_in_one_line(tmp_path, capsys, make, says):
    db = tmp_path / "club.db"
    assert run(capsys, db, "member", "add", "Anna")[0] == 0
    before = sha(db)
    bad = tmp_path / "club.s3db"
    make(bad)
    bad_before = sha(bad)
    code, _, err = run(capsys, db, "import", str(bad))
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("error: club.s3db") and says in err, err
    assert sha(db) == before and sha(bad) == bad_before


def test_detected_by_content_not_extension(tmp_path, capsys):
    src = build(tmp_path / "t.s3db")
    renamed = tmp_path / "export.dat"
    shutil.copy(src, renamed)
    code, out, err = run(capsys, tmp_path / "club.db", "import", str(renamed))
    assert code == 0, err
    assert "from KeizerForClubs" in out


def test_read_refuses_without_touching_a_keizer_database(tmp_path, capsys):
    db = tmp_path / "club.db"
    assert run(capsys, db, "member", "add", "Anna")[0] == 0
    with pytest.raises(FormatError, match="no table Player"):
        kfc.read(db)


def test_kfc_member_csv_reads_as_a_member_list(tmp_path, capsys):
    """KFC's own member CSV: the first line names the columns Name and Rating."""
    csv_file = tmp_path / "Mitglieder.csv"
    csv_file.write_text("x;x;;xxx;Name;;Rating\n1;2;;3;Anna Bakker;;1850\n", encoding="utf-8")
    code, out, err = run(capsys, tmp_path / "club.db", "member", "import", str(csv_file))
    assert code == 0, err
    assert "added: Anna Bakker (rating 1850)" in out


def test_forfeit_lost_to_a_withdrawn_player_is_named_with_a_loss_bonus(tmp_path):
    pairings = [p if p[:2] != (1, 3) else (1, 3, 5, 10, 9, 0.0, 0.0) for p in PAIRINGS]  # Eva loses by forfeit
    imp = kfc.read(build(tmp_path / "t.s3db", pairings=pairings))
    assert "round 1 board 3: a forfeit lost to withdrawn Jan earns the loss bonus in KFC, 0 in keizer" in imp.unmapped
    assert not any("forfeit lost" in line for line in kfc.read(build(tmp_path / "u.s3db")).unmapped)


@pytest.mark.parametrize("option, says", [(("--new-members",), "--new-members is for a rounds CSV"),
                                          (("--preset", "classic"), "brings its own settings"),
                                          (("--set", "top=30"), "brings its own settings"),
                                          (("--system", "swiss"), "always becomes a Keizer competition")])
def test_options_a_kfc_import_cannot_honour_are_refused(tmp_path, capsys, option, says):
    source = build(tmp_path / "kfc.s3db")
    db = tmp_path / "club.db"
    assert run(capsys, db, "member", "add", "Someone")[0] == 0
    before = sha(db)
    code, _, err = run(capsys, db, "import", str(source), *option)
    assert code == 1 and len(err.splitlines()) == 1 and says in err and sha(db) == before


# -- fuzz: random and damaged files are refused in one line, never a traceback -------------


def _good_kfc_bytes() -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return build(Path(tmp) / "t.s3db").read_bytes()


GOOD_KFC = _good_kfc_bytes()
_NAMES = itertools.count(1)  # a new competition name for each import that succeeds


def _corrupted(changes: list[tuple[int, int]]) -> bytes:
    data = bytearray(GOOD_KFC)
    for at, value in changes:
        data[at % len(data)] = value
    return bytes(data)


_DAMAGED = st.one_of(
    st.binary(max_size=8192),  # random bytes
    st.builds(lambda n: GOOD_KFC[:n], st.integers(0, len(GOOD_KFC) - 1)),  # cut off
    st.builds(_corrupted, st.lists(st.tuples(st.integers(0, len(GOOD_KFC) - 1), st.integers(0, 255)),
                                   min_size=1, max_size=24)),  # bytes overwritten
    st.builds(lambda n, junk: GOOD_KFC[:n] + junk, st.integers(0, len(GOOD_KFC)), st.binary(min_size=1, max_size=64)),
)


@settings(max_examples=int(os.environ.get("KEIZER_FUZZ_EXAMPLES", 0)) or examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=_DAMAGED)
def test_random_or_damaged_kfc_files_are_refused_in_one_line(tmp_path, capsys, data):
    db = tmp_path / "club.db"
    if not db.exists():
        assert run(capsys, db, "member", "add", "Anna")[0] == 0
    bad = tmp_path / "club.s3db"
    bad.write_bytes(data)
    before = sha(db)
    code, out, err = run(capsys, db, "import", str(bad), "--name", f"Fuzz {next(_NAMES)}")
    assert "Traceback" not in err + out
    if code != 0:
        assert err.count("\n") == 1 and err.startswith("error: "), err
        assert sha(db) == before
    else:  # a change the file survives (unused space, a value KFC does not read): a whole import
        assert "from KeizerForClubs" in out, out
    assert bad.read_bytes() == data  # the file is only read
