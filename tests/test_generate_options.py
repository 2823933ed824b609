"""``keizer trf generate``'s options for FIDE's checklist (system, acceleration, forbidden pairs,
half- and zero-point byes, forfeits on one or both sides, withdrawals, late entries, the tie-break
list): reproducible by seed, and every file passes ``keizer trf check`` and, where the binary is
there, bbpPairings' checker (``KEIZER_BBP``: the path of ``bbpPairings.exe``)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import tempfile
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.cli import cli, main
from keizer.cli.trf import trf
from keizer.formats.trf import TRF26, dump, parse
from keizer.formats.trf_records import forbidden_groups, virtual_points
from keizer.formats.trf_standing import check_standing
from keizer.pairing.generate import SYSTEMS, GenerationError, Options, TournamentPlan, generate
from keizer.pairing.swiss import initial_colour_of
from keizer.pairing.swiss.check import check
from keizer.tiebreaks import Code, rank
from conftest import examples
from test_cli import run
from test_generate import absolute_criteria, near

BBP = os.environ.get("KEIZER_BBP") or shutil.which("bbpPairings.exe") or shutil.which("bbpPairings")
needs_bbp = pytest.mark.skipif(not BBP, reason="bbpPairings not found: set KEIZER_BBP to its binary "
                                               "(built outside the repository, see docs/swiss.md)")

FULL = TournamentPlan(players=24, rounds=7, seed=3, byes=F(1, 20), absences=F(1, 20), forfeits=F(1, 20),
                      withdrawals=F(1, 10), late_entries=F(1, 10),
                      options=Options(forbidden=6, double_forfeits=F(1, 20), tiebreaks=("BH/C1", "BH", "SB")))
LISTS = [(), ("BH/C1", "BH", "SB"), ("SB", "DE", "WIN"), ("ARO", "BH/M1")]


def file_of(plan: TournamentPlan) -> str:
    return dump(generate(plan), TRF26, every_round=True)


def checks_clean(text: str) -> None:
    """What ``keizer trf check`` does with a file: every round as played, the standing as stated."""
    t = parse(text)
    rounds = check(t, t.rounds, initial_colour_of(t), None, virtual_points(text), forbidden_groups(text))
    assert [(c.round, c.reason or c.error, c.breaches) for c in rounds if c.differs] == []
    standing = check_standing(t, t.rounds, ",".join(t.tiebreaks) or None)
    assert not standing.differs, standing


def test_every_option_at_once_checks_clean_and_is_reproducible():
    text = file_of(FULL)
    assert text == file_of(FULL) and text != file_of(replace(FULL, seed=4))
    t = parse(text)
    codes = [r.code for p in t.players for r in p.results]
    assert {Code.HPB, Code.ZPB, Code.FORFEIT_WIN, Code.FORFEIT_LOSS, Code.PAB} <= set(codes)
    both = [(p.start_no, r) for p in t.players for r in p.results if r.code is Code.FORFEIT_LOSS
            and t.player(r.opponent).results[p.results.index(r)].code is Code.FORFEIT_LOSS]
    assert both, "a double forfeit (- on both sides)"
    assert text.count("\nXXP ") == 6 and "\n202 BH/C1,BH,SB" in text
    checks_clean(text)
    absolute_criteria(t)


def test_forbidden_pairs_never_meet():
    plan = TournamentPlan(players=10, rounds=5, seed=8, options=Options(forbidden=12))
    text = file_of(plan)
    pairs = {tuple(sorted(g.players)) for g in forbidden_groups(text)}
    assert len(pairs) == 12
    t = parse(text)
    met = {tuple(sorted((p.start_no, r.opponent))) for p in t.players for r in p.results if r.opponent}
    assert not pairs & met


def test_the_ranks_are_keizers_standing_by_the_list():
    plan = replace(FULL, options=Options(tiebreaks=("SB", "DE", "WIN")))
    t = parse(file_of(plan))
    assert t.tiebreaks == ("SB", "DE", "WIN")
    assert {p.start_no: p.rank for p in t.players} == {s.id: s.rank for s in rank(t, "SB,DE,WIN")}
    assert all(p.rank is None for p in parse(file_of(replace(plan, options=Options()))).players)


def test_double_forfeits_come_at_their_rate():
    games = doubles = 0
    for seed in range(5):
        t = generate(TournamentPlan(players=20, rounds=5, seed=seed, forfeits=F(1, 10),
                                    options=Options(double_forfeits=F(1, 10))))
        for p in t.players:
            for r, res in enumerate(p.results):
                if res.opponent is not None and p.start_no < res.opponent:
                    games += 1
                    doubles += res.code is Code.FORFEIT_LOSS and t.player(res.opponent).results[r].code is \
                        Code.FORFEIT_LOSS
    assert near(doubles, games, F(1, 10))


def test_the_default_options_draw_nothing_more():
    """A plan without the new options gives the file it gave before them (no more random draws)."""
    plan = replace(FULL, options=Options())
    text = file_of(plan)
    assert "XXP" not in text and "\n202 " not in text
    assert text == file_of(replace(plan, options=Options(system="dutch", forbidden=0)))


def test_bad_options_are_one_line_each(tmp_path, capsys):
    for args, said in ((["--tiebreaks", "XYZ"], "tie-breaks: "), (["-t", "BH,EDET"], "tie-breaks: EDET: a team"),
                       (["-t", "LOT"], "tie-breaks: LOT: the drawing of lots needs a seed"), (["--forbidden", "50"], "forbidden pairs: 6 players"),
                       (["--forfeits", "0.6", "--double-forfeits", "0.5"], "double forfeits: 0.5")):
        code, out, err = run(capsys, tmp_path / "x.db", "trf", "generate", "--players", "6", "--rounds", "3",
                             "--seed", "1", *args)
        assert code == 1 and out == "" and said in err and len(err.strip().splitlines()) == 1, err
    code, _, err = run(capsys, tmp_path / "x.db", "trf", "generate", "--players", "6", "--rounds", "3",
                       "--system", "monrad")
    assert code == 2 and "Invalid value for '--system': 'monrad'" in err and "dutch" in SYSTEMS


def test_the_command_writes_what_makes_it_again_and_check_agrees_exit_0(tmp_path, capsys):
    out = tmp_path / "g.trf"
    args = ["--players", "16", "--rounds", "5", "--seed", "9", "--half-point-byes", "0.05", "--zero-point-byes",
            "0.05", "--forfeits", "0.05", "--double-forfeits", "0.05", "--forbidden", "3", "-t", "BH/C1, BH,SB",
            "--acceleration", "baku"]
    assert run(capsys, tmp_path / "x.db", "trf", "generate", *args, "-o", str(out))[0] == 0
    first = out.read_text().splitlines()[2]
    assert first.startswith("### keizer trf generate --players 16") and "--double-forfeits 0.05 --forbidden 3 " \
        "--tiebreaks BH/C1,BH,SB" in first and "--byes 0.05 --absences 0.05" in first
    again = tmp_path / "again.trf"
    assert run(capsys, tmp_path / "x.db", *first[4:].split()[1:], "-o", str(again))[0] == 0
    assert again.read_bytes() == out.read_bytes()
    code, said, err = run(capsys, tmp_path / "x.db", "trf", "check", str(out))
    assert code == 0, said + err
    assert "every one as played" in said and "totals and ranks by BH/C1,BH,SB: as the file states" in said


plans = st.builds(
    lambda players, rounds, seed, rates, forbidden, double, baku, tbs: TournamentPlan(
        players, min(rounds, players - 1), seed, *rates, acceleration="baku" if baku else "none",
        options=Options(forbidden=min(forbidden, players // 2), double_forfeits=double, tiebreaks=tbs)),
    st.integers(4, 14), st.integers(1, 6), st.integers(0, 10**6),
    st.lists(st.sampled_from([F(0), F(1, 20), F(1, 8)]), min_size=5, max_size=5),
    st.integers(0, 4), st.sampled_from([F(0), F(1, 20), F(1, 8)]), st.booleans(), st.sampled_from(LISTS))


def trf_check(path: Path) -> tuple[int, str]:
    """``keizer trf check FILE``, run as the command line runs it: (exit status, output)."""
    cli.add_command(trf)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(["trf", "check", str(path)])
            code = 0
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans)
def test_every_generated_file_passes_the_checker(plan):
    try:
        text = file_of(plan)
    except GenerationError as e:
        assert "cannot be paired" in str(e)  # a small field that ran out of lawful opponents
        return
    checks_clean(text)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.trf"
        path.write_bytes(text.encode("utf-8"))
        code, out = trf_check(path)
    assert code == 0 and "every one as played" in out and ": as the file states" in out, out


def bbp_check(path: Path) -> str:
    """bbpPairings' checker on a file: its report ('' when every round is as its engine pairs it)."""
    done = subprocess.run([str(BBP), "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return "\n".join(line for line in done.stdout.splitlines() if line.strip() and "Round #" not in line)


@needs_bbp
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])
@given(plans)
def test_bbppairings_checker_finds_every_round_as_generated(tmp_path, plan):
    try:
        text = file_of(plan)
    except GenerationError:
        return
    path = tmp_path / "g.trf"
    path.write_bytes(text.encode("utf-8"))
    assert bbp_check(path) == ""


@needs_bbp
@pytest.mark.parametrize("players,rounds,acceleration", [(150, 9, "none"), (150, 9, "baku")])
def test_bbppairings_checker_on_a_larger_field_with_every_option(tmp_path, players, rounds, acceleration):
    plan = replace(FULL, players=players, rounds=rounds, acceleration=acceleration,
                   options=replace(FULL.options, forbidden=40))
    path = tmp_path / "large.trf"
    path.write_bytes(file_of(plan).encode("utf-8"))
    assert bbp_check(path) == ""
    checks_clean(path.read_text())


@needs_bbp
def test_bbppairings_checker_on_every_option_at_once(tmp_path):
    path = tmp_path / "full.trf"
    path.write_bytes(file_of(FULL).encode("utf-8"))
    assert bbp_check(path) == ""
    # and it does report a round keizer did not pair (its report is not empty by construction)
    t = parse(file_of(FULL))
    first = t.players[0]
    r = next(k for k, res in enumerate(first.results) if res.code.is_game)
    res = first.results[r]
    other = t.player(res.opponent)
    flip = {first.start_no: replace(res, colour=res.colour.opposite),
            other.start_no: replace(other.results[r], colour=other.results[r].colour.opposite)}
    changed = replace(t, players=tuple(replace(p, results=p.results[:r] + (flip[p.start_no],) + p.results[r + 1:])
                                       if p.start_no in flip else p for p in t.players))
    path.write_bytes(dump(changed, TRF26, every_round=True).encode("utf-8"))
    assert "Checker pairings" in bbp_check(path)
