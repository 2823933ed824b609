"""``keizer trf pair`` with plain arguments runs without click (issue 25: the whole command under
0.1 s) and prints what the click command prints, byte for byte; anything else goes to click."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from keizer.cli import main
from keizer.cli import commands, trf_pair
from keizer.formats.trf import parse, text_of
from keizer.output import FORMATS
from keizer.tiebreaks import Code, RoundResult
from test_tiebreaks import tournaments

DATA = Path(__file__).parent / "data" / "swiss"
FILES = sorted(DATA.glob("*.trf"))[:2] + sorted(DATA.glob("next/*.trf"))[:8]  # played out, and a round to pair


def outcome(capsys, run, args: list[str]) -> tuple[int, str, str]:
    code = 0
    try:
        run(args)
    except SystemExit as e:
        code = e.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("file", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("options", [[], ["--format", "json"], ["--format=csv"], ["--system", "burstein"],
                                     ["--rounds", "20"], ["--round", "2", "--rounds", "20", "--format", "table"]])
def test_the_quick_lane_prints_what_click_prints(file, options, capsys, monkeypatch):
    args = ["trf", "pair", str(file), *options]
    quick = outcome(capsys, main, args)
    monkeypatch.setattr(trf_pair, "pair_quickly", lambda args: False)
    assert quick == outcome(capsys, commands.main, args)
    assert quick[0] == 0 and quick[1] or quick[0] == 1 and quick[2].startswith("error: ")


@pytest.mark.parametrize("options", [["--help"], ["--round", "0"], ["--round", "99"], ["--round", "x"],
                                     ["--format", "xml"], ["--system", "swiss"], ["--round", "2", "--round", "3"],
                                     ["--db", "x.db"], ["--rounds"], ["extra.trf"], ["--round=-1"]])
def test_anything_else_is_said_by_click(options, capsys):
    file = FILES[0]
    args = ["trf", "pair", str(file), *options]
    assert trf_pair.pair_quickly(args[2:]) is False
    assert capsys.readouterr() == ("", "")  # nothing printed: click runs the command and says it
    code, out, err = outcome(capsys, main, args)
    assert (code, out, err) == outcome(capsys, commands.main, args)
    assert code != 0 or options in (["--help"], ["--round", "2", "--round", "3"])  # click takes the last --round


def test_a_file_that_cannot_be_paired_is_refused_by_click(tmp_path, capsys):
    team = tmp_path / "missing.trf"
    args = ["trf", "pair", str(team)]
    assert outcome(capsys, main, args) == outcome(capsys, commands.main, args)
    bad = tmp_path / "bad.trf"
    bad.write_text("012 nothing here\n", encoding="utf-8")
    code, out, err = outcome(capsys, main, ["trf", "pair", str(bad)])
    assert code == 1 and out == "" and err.startswith("error: line 2, column 1: no player record")


def test_the_quick_lane_knows_the_formats():
    assert trf_pair._FORMATS == FORMATS


def test_trf_pair_starts_without_click():
    probe = ("import sys; from keizer.cli import main\n"
             f"sys.argv = ['keizer', 'trf', 'pair', {str(FILES[-1])!r}, '--format', 'json']\n"
             "main()\n"
             "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'sqlite3', 'csv') "
             "or m.startswith(('keizer.cli.commands', 'keizer.cli.trf', 'keizer.tiebreaks.unplayed', "
             "'keizer.output')) and m != 'keizer.cli.trf_pair'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.startswith("{\"round\": ")
    assert out.strip().splitlines()[-1] == "LOADED []"


def paired_rounds_by_played_round(t) -> int:
    """The last paired round as computed before: every round's players by the checker's played_round."""
    from keizer.pairing.swiss.check import played_round

    rounds = max((len(p.results) for p in t.players), default=0)
    return max((r + 1 for r in range(rounds) if played_round(t, r)[0]), default=0)


@settings(max_examples=examples(200), deadline=None)
@given(tournaments(max_players=10, max_rounds=6), st.data())
def test_the_last_paired_round_is_the_one_the_checker_finds(t, data):
    """trf_pair.paired_rounds looks from each line's end instead of importing the checker; lines cut
    short or ending in byes ahead are what files hold."""
    players = tuple(replace(p, results=p.results[:data.draw(st.integers(0, len(p.results)))] +
                            tuple(RoundResult(data.draw(st.sampled_from([Code.ZPB, Code.HPB, Code.PAB])))
                                  for _ in range(data.draw(st.integers(0, 2)))))
                    for p in t.players)
    cut = replace(t, players=players)
    assert trf_pair.paired_rounds(cut) == paired_rounds_by_played_round(cut)
    for file in FILES:
        parsed = parse(text_of(file))
        assert trf_pair.paired_rounds(parsed) == paired_rounds_by_played_round(parsed)


@pytest.mark.parametrize("file", FILES, ids=lambda p: p.name)
def test_the_json_answer_is_what_json_dumps_writes(file):
    """The answer is written without importing json: the same bytes as json.dumps of what it says."""
    try:
        out = trf_pair.pair_text(str(file), None, 20, "json", None)
    except trf_pair.TrfUsageError:
        pytest.skip("a file played out")
    assert json.dumps(json.loads(out)) == out


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=20).map(lambda s: b"\xef\xbb\xbf" + s.encode("utf-8")))
def test_a_file_is_read_as_the_utf_8_sig_codec_reads_it(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("text") / "x.trf"
    path.write_bytes(data)
    try:
        expected = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        expected = data.decode("latin-1")
    assert text_of(path) == expected


def test_trf_pair_imports_no_json_nor_dates_nor_the_checker():
    probe = ("import sys; from keizer.cli import main\n"
             f"sys.argv = ['keizer', 'trf', 'pair', {str(FILES[-1])!r}, '--format', 'json']\n"
             "main()\n"
             "print('LOADED', sorted(m for m in sys.modules if m in ('json', 'datetime', 'encodings.utf_8_sig', "
             "'keizer.pairing.swiss.check')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "LOADED []"
