"""``keizer trf pair`` with plain arguments runs without click (issue 25: the whole command under
0.1 s) and prints what the click command prints, byte for byte; anything else goes to click."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from keizer.cli import main
from keizer.cli import commands, trf_pair
from keizer.output import FORMATS

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
