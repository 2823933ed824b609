"""Bad input of the importers, of 'keizer result' and of every number, date, name and time
control on the command line: one line on stderr, a non-zero exit, the database untouched."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from keizer.store import Store
from conftest import built_once
from test_cli import digest, run

HUGE = "99999999999999999999999"  # beyond SQLite's 64-bit integers


def refused(capsys, db: Path, *args: str, match: str = "") -> str:
    """Run a command that must be refused: the one stderr line is returned."""
    before = digest(db)
    code, out, err = run(capsys, db, *args)
    assert code in (1, 2), (code, out, err)
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert match.lower() in err.lower(), err
    assert digest(db) == before
    return err


@pytest.fixture
def club(tmp_path, tmp_path_factory, capsys) -> Path:
    """Four members in a Keizer competition, round 1 paired (boards 1 and 2)."""
    def build(db: Path) -> None:
        for name, rating in (("Anna", "1850"), ("Bram", "1720"), ("Cor", "1690"), ("Dirk", "1600")):
            assert run(capsys, db, "member", "add", name, "--rating", rating)[0] == 0
        assert run(capsys, db, "competition", "create", "Interne", "--all-members")[0] == 0
        assert run(capsys, db, "pair")[0] == 0

    return built_once("bad_input.club", build, tmp_path, tmp_path_factory)


# -- season JSON ------------------------------------------------------------------------------


def season(**extra) -> dict:
    return {"format": "keizer-season", "version": 1, "name": "Import",
            "players": [{"id": "a", "name": "Anna"}, {"id": "b", "name": "Bram"}], **extra}


def test_deeply_nested_json_is_refused(club, tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    refused(capsys, club, "import", str(deep), match="nested too deeply")
    nested = tmp_path / "nested.json"  # parses, but deeper than any season file
    nested.write_text(json.dumps(season(name=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])))
    refused(capsys, club, "import", str(nested), match="nested too deeply")


@pytest.mark.parametrize("doc, match", [
    (season(initial_order=[["a"]]), "initial_order[0]: unknown player"),
    (season(initial_order=[{"a": 1}]), "initial_order[0]: unknown player"),
    (season(players=[{"id": "a", "joined": int(HUGE)}, {"id": "b"}]), "players[0].joined"),
    (season(players=[{"id": "a", "withdrawn_after": int(HUGE)}, {"id": "b"}]), "players[0].withdrawn_after"),
    (season(players=[{"id": "a", "joined": 1.0}, {"id": "b"}]), "players[0].joined"),
    (season(rounds=[{"round": 1, "games": [{"white": "a", "black": "b", "board": int(HUGE)}]}]),
     "rounds[0].games[0].board"),
    (season(rounds=[{"round": 1.0, "games": [{"white": "a", "black": "b"}]}]), "rounds[0].round"),
    (season(rounds=[{"absent": {"a": ["excused"]}}]), "rounds[0].absent.a"),
    (season(rounds=[{"date": "20260908", "present": ["a", "b"]}]), "rounds[0].date"),
    (season(settings={"preset": "classic", "max_excused": int(HUGE)}), "settings.max_excused: 9999"),
], ids=["list-id", "dict-id", "huge-joined", "huge-withdrawn", "float-joined", "huge-board", "float-round",
        "list-absence", "compact-date", "huge-setting"])
def test_wrong_types_and_huge_numbers_in_a_season_file(club, tmp_path, capsys, doc, match):
    f = tmp_path / "season.json"
    f.write_text(json.dumps(doc))
    refused(capsys, club, "import", str(f), match=match)


def test_a_number_of_thousands_of_digits_is_refused(club, tmp_path, capsys):
    f = tmp_path / "digits.json"
    f.write_text(json.dumps(season()).replace('"Import"', "9" * 5000))
    refused(capsys, club, "import", str(f), match="digits.json")


@pytest.mark.parametrize("extra, match", [
    ({"players": [{"id": "a" * 10_000}, {"id": "b"}]}, "players[0].id: an id can have at most 64"),
    ({"players": [{"id": "a", "name": "A" * 10_000}, {"id": "b"}]}, "players[0].name: a name can have at most 200"),
    ({"players": [{"id": "a", "name": "\u200b\u202e"}, {"id": "b"}]}, "players[0].name: a name must have a visible"),
    ({"players": [{"id": "a\u202e", "name": "A"}, {"id": "b"}]}, "players[0].id: an id cannot contain right-to-left"),
    ({"rounds": [{"present": ["a", "b"], "time_control": "x" * 10_000}]}, "rounds[0].time_control: a time control"),
    ({"rounds": [{"present": ["a", "b"], "time_control": "rapid\n25+10"}]}, "control characters"),
    ({"players": [{"id": "a", "category": "c" * 10_000}, {"id": "b"}]}, "players[0].category"),
], ids=["long-id", "long-name", "invisible-name", "bidi-id", "long-time-control", "newline-time-control",
        "long-category"])
def test_ids_names_and_time_controls_have_limits(club, tmp_path, capsys, extra, match):
    f = tmp_path / "season.json"
    f.write_text(json.dumps(season(**extra)))
    refused(capsys, club, "import", str(f), match=match)


def test_an_unplayed_round_before_played_ones_is_refused(club, tmp_path, capsys):
    f = tmp_path / "gap.json"
    f.write_text(json.dumps(season(rounds=[{"round": 1}, {"round": 2, "games": [
        {"white": "a", "black": "b", "result": "1-0"}]}])))
    refused(capsys, club, "import", str(f), match="rounds[0]: round 1 has no games and no attendance")
    f.write_text(json.dumps(season(rounds=[{"round": 1, "games": [{"white": "a", "black": "b", "result": "1-0"}]},
                                           {"round": 2, "date": "2026-09-15"}])))
    assert run(capsys, club, "import", str(f))[0] == 0  # an empty round at the end is the next evening


def test_bidi_controls_are_stripped_from_imported_names(club, tmp_path, capsys):
    f = tmp_path / "bidi.json"
    f.write_text(json.dumps(season(players=[{"id": "a", "name": "\u202eAnna Smit\u202c"}, {"id": "b"}])))
    assert run(capsys, club, "import", str(f))[0] == 0
    names = [p["name"] for p in Store.open(club).players(Store.open(club).competition("Import")["id"])]
    assert names == ["Anna Smit", "b"]


# -- TRF --------------------------------------------------------------------------------------


def trf(*extra: str) -> str:
    head = "001 {:>4}      {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}"
    return "\n".join(["012 Club cup", *extra,
                      head.format(1, "Anna", 1850, "", "", "", "1.0", "") + "     2 w 1",
                      head.format(2, "Bram", 1700, "", "", "", "0.0", "") + "     1 b 0"]) + "\n"


@pytest.mark.parametrize("text, match", [
    (trf("XXS W=1/0"), "scoring value '1/0'"),
    (trf("XXS W=1e99999"), "scoring value '1e99999'"),
    (trf("XXS W=" + "9" * 5000), "scoring value"),
    (trf("XXR 99999999999"), "number of rounds '99999999999' is more than 999"),
    (trf("142 " + "9" * 5000), "number of rounds"),
    (trf("XXR ²"), "number of rounds '²' is not a number"),
    (trf().replace("001    2", "001    ²"), "start rank '²' is not a number"),
    (trf("240 F ² 1"), "'²' is not a number"),
    (trf("330 +- 1 1 " + "9" * 5000), "is not a number from 0 to 9999"),
    (trf("132" + " " * 88 + "26/02/30"), "round date '26/02/30' is not a date"),
], ids=["zero-denominator", "huge-exponent", "5000-digits", "huge-rounds", "5000-digit-rounds", "superscript-rounds",
        "superscript-rank", "superscript-bye", "huge-team", "february-30"])
def test_bad_trf_numbers(club, tmp_path, capsys, text, match):
    f = tmp_path / "event.trf"
    f.write_text(text, encoding="utf-8")
    refused(capsys, club, "import", str(f), match=match)


def test_trf_player_line_with_too_many_rounds(club, tmp_path, capsys):
    f = tmp_path / "long.trf"
    f.write_text(trf().rstrip("\n") + "  0000 - Z" * 1200 + "\n", encoding="utf-8")
    refused(capsys, club, "import", str(f), match="a tournament has at most 999")


# -- keizer result ----------------------------------------------------------------------------


@pytest.mark.parametrize("args, match", [
    ((f"{HUGE}=1-0",), f"board {HUGE} is out of range"),
    (("²=1-0",), "write BOARD=RESULT"),
    (("٣=1-0",), "write BOARD=RESULT"),  # an Arabic-Indic 3: int() would take it
    (("--round", HUGE, "1=1-0"), "out of range"),
    (("--round", "²", "1=1-0"), "not a whole number"),
], ids=["huge-board", "superscript-board", "arabic-board", "huge-round", "superscript-round"])
def test_result_arguments(club, capsys, args, match):
    refused(capsys, club, "result", *args, match=match)


def test_result_file_in_windows_1252_with_draws_written_as_equals(club, tmp_path, capsys):
    f = tmp_path / "uitslagen.txt"
    f.write_bytes("1 ½-½   # Anna – Dirk\r\n2 =\r\n".encode("cp1252"))
    code, out, err = run(capsys, club, "result", "--file", str(f))
    assert code == 0, err
    pairing = json.loads(run(capsys, club, "pairings", "--format", "json")[1])
    assert [p["result"] for p in pairing["pairs"]] == ["1/2-1/2", "1/2-1/2"]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_result_file_in_utf8_with_bom_and_utf16(club, tmp_path, capsys, encoding):
    f = tmp_path / "uitslagen.txt"
    f.write_bytes("1=1-0\n2==\n".encode(encoding))
    assert run(capsys, club, "result", "--file", str(f))[0] == 0
    pairing = json.loads(run(capsys, club, "pairings", "--format", "json")[1])
    assert [p["result"] for p in pairing["pairs"]] == ["1-0", "1/2-1/2"]


def test_result_file_with_bad_lines(club, tmp_path, capsys):
    f = tmp_path / "uitslagen.txt"
    f.write_bytes(b"\xb2 1-0\n")  # '²' in Windows-1252
    refused(capsys, club, "result", "--file", str(f), match="line 1: write 'BOARD RESULT'")
    f.write_text(f"{HUGE} 1-0\n")
    refused(capsys, club, "result", "--file", str(f), match="out of range")


# -- numbers, dates, names and time controls on the command line ------------------------------


@pytest.mark.parametrize("args", [
    ("player", "set", "Anna", "--joined", HUGE),
    ("player", "add", "Anna", "--joined", HUGE),
    ("log", "-n", HUGE),
    ("log", "-n", "-5"),
    ("attend", "--round", HUGE),
    ("attendance", "--round", HUGE),
    ("pairings", "--round", HUGE),
    ("standings", "--round", HUGE),
    ("history", "Anna", "--round", HUGE),
    ("timecontrol", "rapid", "--round", HUGE),
    ("timecontrol", "rapid", "--rounds", f"{HUGE}-"),
    ("timecontrol", "rapid", "--rounds", "²-"),
    ("pair", "--again", "--keep", HUGE),
    ("knockout", "award", HUGE, "1", "Anna"),
    ("roundrobin", "draw", "--seed", HUGE),
    ("competition", "create", "X", "--system", "roundrobin", "--lots", HUGE),
    ("attend", "--date", "9999-12-31"),
    ("attend", "--date", "２０２６-09-08"),
    ("roundrobin", "draw", "--first-date", "2026-02-30"),
    ("member", "edit", "Anna", "--rating", HUGE),
    ("competition", "settings", "--set", f"max_excused={HUGE}"),
    ("competition", "settings", "--set", f"bye_seed={HUGE}"),
], ids=lambda a: " ".join(a)[:40])
def test_numbers_and_dates_out_of_range(club, capsys, args):
    refused(capsys, club, *args)


@pytest.mark.parametrize("args, match", [
    (("member", "add", "\u200b\u202e"), "must have a visible character"),
    (("member", "add", "\u3164"), "must have a visible character"),
    (("member", "add", "A" * 10_000), "at most 200 characters"),
    (("member", "add", "Anna\u2028Smit"), "control characters"),
    (("member", "edit", "Anna", "--name", "\u200d"), "must have a visible character"),
    (("competition", "create", "\u2066\u2069"), "must have a visible character"),
    (("timecontrol", "x" * 10_000, "--rounds", "1-"), "at most 100 characters"),
    (("timecontrol", "rapid\n25+10", "--rounds", "1-"), "control characters"),
    (("player", "set", "Anna", "--category", "A" * 10_000), "at most 50 characters"),
    (("member", "add", "\udcff"), "not valid text"),  # a byte that is not UTF-8, as Python passes it on
    (("timecontrol", "\udcff", "--rounds", "1-"), "not valid text"),
], ids=["invisible", "hangul-filler", "long", "line-separator", "edit-invisible", "competition-bidi",
        "long-time-control", "newline-time-control", "long-category", "surrogate-name", "surrogate-time-control"])
def test_names_and_time_controls(club, capsys, args, match):
    refused(capsys, club, *args, match=match)


def test_bidi_controls_are_stripped_from_names(club, capsys):
    assert run(capsys, club, "member", "add", "\u202eEva\u202c Müller")[0] == 0
    assert "Eva Müller" in [m["name"] for m in Store.open(club).members()]
    assert run(capsys, club, "member", "add", "יוסי כהן")[0] == 0  # right-to-left names need no controls


# -- a competition removed between lookup and write -------------------------------------------


def test_pair_racing_undo_of_the_competition(tmp_path, capsys, monkeypatch):
    db = tmp_path / "race.db"
    for name in ("Anna", "Bram"):
        run(capsys, db, "member", "add", name)
    run(capsys, db, "competition", "create", "X", "--all-members")
    opened = Store.change
    after_undo: list[str] = []

    @contextlib.contextmanager
    def racing(self, command, summary):
        """Another process undoes the competition's creation just before this write begins."""
        other = Store.open(db)
        other.undo()
        other.close()
        after_undo.append(digest(db))
        with opened(self, command, summary) as store:
            yield store

    monkeypatch.setattr(Store, "change", racing)
    code, _, err = run(capsys, db, "pair")
    assert code == 1 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "no competition" in err
    assert digest(db) == after_undo[0]
