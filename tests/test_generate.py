"""``keizer trf generate``: random Swiss tournaments paired by keizer's Dutch engine (FIDE C.04.A, A.5)."""

from __future__ import annotations

import doctest
import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import keizer.pairing.generate as generate_module
from keizer.cli import cli, main
from keizer.cli.trf import trf
from keizer.formats.trf import TRF16, dump, parse
from keizer.model import Colour
from keizer.pairing.generate import GenerationError, TournamentPlan, generate
from keizer.pairing.swiss import initial_colour_of, pair_swiss
from keizer.tiebreaks import Code, Tournament
from keizer.tiebreaks.fide_tables import expected
from conftest import examples

W, B = Colour.WHITE, Colour.BLACK


@pytest.fixture
def run(capsysbinary):
    cli.add_command(trf)

    def invoke(*args: str) -> tuple[int, bytes, str]:
        code = 0
        try:
            main(["trf", "generate", *args])
        except SystemExit as e:
            code = e.code
        out, err = capsysbinary.readouterr()
        return code, out, err.decode()
    return invoke


def absolute_criteria(t: Tournament) -> None:
    """Every round of ``t`` as the Dutch rules' absolute criteria and the TRF conventions want it."""
    players = {p.start_no: p for p in t.players}
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()  # a pairing-allocated bye or a forfeit win: no (further) bye (C.2)
    colours: dict[int, list[Colour]] = {n: [] for n in players}
    for r in range(t.rounds):
        entries = {n: p.results[r] for n, p in players.items()}
        byes = [n for n, e in entries.items() if e.code is Code.PAB]
        paired = [n for n, e in entries.items() if e.opponent is not None]
        assert len(byes) == len(paired + byes) % 2, f"round {r + 1}: a bye exactly when the number paired is odd"
        for n in byes:
            assert n not in had_bye, f"round {r + 1}: a second bye for {n}"
        for n in paired:
            e = entries[n]
            back = entries[e.opponent]
            assert back.opponent == n and {e.colour, back.colour} == {W, B}, f"round {r + 1}: {n} v {e.opponent}"
            assert e.code.is_forfeit == back.code.is_forfeit
            if e.code.is_game:
                pair = frozenset((n, e.opponent))
                assert pair not in met, f"round {r + 1}: {n} and {e.opponent} meet again"
                colours[n].append(e.colour)
        met |= {frozenset((n, entries[n].opponent)) for n in paired if entries[n].code.is_game}
        had_bye |= set(byes) | {n for n in paired if entries[n].code is Code.FORFEIT_WIN}
        if r + 1 < t.rounds:  # C.3 holds for everyone before the last round (topscorers are its exception)
            for n, seen in colours.items():
                assert abs(seen.count(W) - seen.count(B)) <= 2, f"round {r + 1}: colour difference of {n}"
                assert not (len(seen) >= 3 and seen[-1] is seen[-2] is seen[-3]), f"round {r + 1}: {n}'s colours"
        for n, e in entries.items():
            assert e.opponent is not None or e.code in (Code.PAB, Code.HPB, Code.ZPB)


PLAN = TournamentPlan(players=15, rounds=6, seed=11, byes=F(1, 10), absences=F(1, 20), forfeits=F(1, 10),
                      withdrawals=F(1, 10), late_entries=F(1, 10))


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_file(run, tmp_path):
    args = ["--players", "14", "--rounds", "5", "--seed", "2026", "--byes", "0.05", "--forfeits", "5%",
            "--withdrawals", "0.1", "--late-entries", "0.1", "--absences", "0.02"]
    first, second = tmp_path / "a.trf", tmp_path / "b.trf"
    assert run(*args, "-o", str(first))[0] == 0
    assert run(*args, "-o", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()
    code, out, err = run(*args)
    assert (code, err) == (0, "") and out == first.read_bytes()  # standard output: the same bytes
    assert run(*args[:5], "2027", *args[6:])[1] != out


def test_the_file_reads_back_with_keizers_reader_in_both_versions():
    t = generate(PLAN)
    for version in ("TRF26", TRF16):
        back = parse(dump(t, version, every_round=True))
        assert replace(back, players=tuple(replace(p, points=None) for p in back.players)) == t
        assert initial_colour_of(back) is initial_colour_of(t)


def test_the_files_scores_are_the_sums_of_its_results(run):
    code, out, _ = run("--players", "13", "--rounds", "5", "--seed", "4", "--byes", "0.1", "--forfeits", "0.1")
    t = parse(out.decode())
    for p in t.players:
        assert p.points == sum((t.scoring.points(r.code) for r in p.results), F(0))
        assert len(p.results) == 5  # every round written, absences as 0000 - Z


@pytest.mark.parametrize("seed", range(4))
def test_every_round_meets_the_absolute_criteria(seed):
    absolute_criteria(generate(replace(PLAN, seed=seed)))


def test_every_round_is_the_engines_pairing_of_the_players_present():
    """What a pairings checker does: each round re-paired from the rounds before gives the same pairs and bye."""
    t = generate(PLAN)
    for r in range(t.rounds):
        before = Tournament(tuple(replace(p, results=p.results[:r]) for p in t.players), t.rounds)
        entries = {p.start_no: p.results[r] for p in t.players}
        present = [n for n, e in entries.items() if e.code not in (Code.HPB, Code.ZPB)]
        again = pair_swiss(before, t.rounds, present=present, upto=r, initial_colour=initial_colour_of(t))
        assert {n for n, e in entries.items() if e.code is Code.PAB} == ({again.bye} - {None})
        assert all(entries[w].opponent == b and entries[w].colour is W for w, b in again.pairs)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 12), st.integers(1, 5), st.integers(0, 10**6),
       st.lists(st.sampled_from([F(0), F(1, 20), F(1, 5)]), min_size=5, max_size=5))
def test_random_plans_meet_the_absolute_criteria(players, rounds, seed, rates):
    plan = TournamentPlan(players, min(rounds, players - 1), seed, *rates)
    try:
        t = generate(plan)
    except GenerationError as e:
        assert "cannot be paired" in str(e)  # a small field that ran out of new opponents
        return
    absolute_criteria(t)


# -- the rates ---------------------------------------------------------------------------------

def near(count: int, trials: int, rate: F) -> bool:
    """``count`` successes in ``trials`` are within four standard deviations of ``rate``."""
    mean = trials * rate
    return abs(count - mean) <= 4 * math.sqrt(trials * rate * (1 - rate)) + 1


def many(**rates: F) -> list[Tournament]:
    return [generate(TournamentPlan(players=20, rounds=6, seed=seed, **rates)) for seed in range(6)]


def test_requested_byes_come_at_their_rate_and_never_in_the_last_round():
    ts = many(byes=F(1, 5))
    entries = [r for t in ts for p in t.players for r in p.results[:-1]]
    assert near(sum(r.code is Code.HPB for r in entries), len(entries), F(1, 5))
    assert not any(p.results[-1].code is Code.HPB for t in ts for p in t.players)


def test_absences_forfeits_withdrawals_and_late_entries_come_at_their_rates():
    entries = [r for t in many(absences=F(1, 10)) for p in t.players for r in p.results]
    assert near(sum(r.code is Code.ZPB for r in entries), len(entries), F(1, 10))
    games = [r for t in many(forfeits=F(1, 10)) for p in t.players for r in p.results
             if r.opponent is not None and r.colour is W]
    assert near(sum(r.code.is_forfeit for r in games), len(games), F(1, 10))
    players = [p for t in many(withdrawals=F(1, 4)) for p in t.players]
    gone = [p for p in players if p.results[-1].code is Code.ZPB]
    assert near(len(gone), len(players), F(1, 4))
    for p in gone:  # absent from the withdrawal on, having played before it
        codes = [r.code for r in p.results]
        assert codes[0] is not Code.ZPB and codes[codes.index(Code.ZPB):] == [Code.ZPB] * (6 - codes.index(Code.ZPB))
    players = [p for t in many(late_entries=F(1, 4)) for p in t.players]
    late = [p for p in players if p.results[0].code is Code.ZPB]
    assert near(len(late), len(players), F(1, 4))
    assert all(p.results[-1].code is not Code.ZPB for p in late)  # absent only before joining


def test_results_follow_the_ratings():
    ts = many()
    scored = expected_score = F(0)
    games = 0
    for t in ts:
        rating = {p.start_no: p.rating for p in t.players}
        for p in t.players:
            for r in p.results:
                if r.colour is W and r.code.is_game:
                    scored += r.code.outcome
                    expected_score += F(expected(rating[p.start_no] - rating[r.opponent]), 100)
                    games += 1
    assert abs(scored - expected_score) <= 4 * math.sqrt(games / 4)  # White's score is about the expected
    draws = Counter(r.code for t in ts for p in t.players for r in p.results)[Code.DRAW]
    assert 0 < draws < games  # some draws (30 % between equals, fewer with the difference)


def test_draw_rate_zero_and_one():
    no_draws = generate(TournamentPlan(players=10, rounds=4, seed=1, draw_rate=F(0)))
    assert not any(r.code is Code.DRAW for p in no_draws.players for r in p.results)
    equal = generate(TournamentPlan(players=10, rounds=4, seed=1, draw_rate=F(1), lowest_rating=2000,
                                    highest_rating=2000))
    assert all(r.code is Code.DRAW for p in equal.players for r in p.results if r.opponent)


def test_initial_colour_given_or_drawn(run):
    code, out, _ = run("--players", "6", "--rounds", "2", "--seed", "1", "--initial-colour", "black")
    t = parse(out.decode())
    assert "152 B" in out.decode() and t.player(1).results[0].colour is B
    lots = {initial_colour_of(generate(TournamentPlan(6, 1, seed))) for seed in range(12)}
    assert lots == {W, B}


def test_count_writes_one_file_per_seed(run, tmp_path):
    folder = tmp_path / "out"
    assert run("--players", "8", "--rounds", "3", "--seed", "40", "--count", "3", "-o", str(folder))[0] == 0
    assert sorted(f.name for f in folder.iterdir()) == ["40.trf", "41.trf", "42.trf"]
    alone = run("--players", "8", "--rounds", "3", "--seed", "41")[1]
    assert (folder / "41.trf").read_bytes() == alone
    assert b"### keizer trf generate --players 8 --rounds 3 --seed 41 " in alone


def test_the_first_comment_regenerates_the_file(run, tmp_path):
    code, out, err = run("--players", "9", "--rounds", "4", "--byes", "0.125", "--trf-version", "TRF16")
    seed = int(err.split()[1])  # no --seed: one is drawn and said
    comment = next(line for line in out.decode().splitlines() if line.startswith("###"))
    args = comment.split()[4:]
    assert args[:6] == ["--players", "9", "--rounds", "4", "--seed", str(seed)] and "0.125" in args
    assert run(*args)[1] == out


@pytest.mark.parametrize("args,message", [
    (["--players", "5", "--rounds", "5"], "at most 4 rounds"),
    (["--players", "1", "--rounds", "1"], "'--players': 1 is out of range"),
    (["--players", "8", "--rounds", "3", "--byes", "1.5"], "more than 100%"),
    (["--players", "8", "--rounds", "3", "--forfeits", "lots"], "is not a rate"),
    (["--players", "8", "--rounds", "3", "--lowest-rating", "2500", "--highest-rating", "2000"], "above the highest"),
    (["--players", "8", "--rounds", "3", "--count", "2"], "give a folder with --output"),
    (["--players", "8"], "Missing option '--rounds'"),
])
def test_bad_options_are_one_line_errors(run, args, message):
    code, out, err = run(*args)
    assert code != 0 and out == b""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_round_keeps_two_players_at_least():
    """Absences that would leave fewer than two players to pair are not applied."""
    t = generate(TournamentPlan(players=6, rounds=3, seed=1, absences=F(1)))
    assert all(r.opponent is not None for p in t.players for r in p.results)  # so nobody was absent
    t = generate(TournamentPlan(players=9, rounds=2, seed=1, withdrawals=F(1), late_entries=F(1)))
    assert all(sum(p.results[r].code is not Code.ZPB for p in t.players) >= 2 for r in range(2))


def test_unwritable_output_is_one_line(run, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, err = run("--players", "6", "--rounds", "2", "--seed", "1", "-o", str(tmp_path / "file" / "x.trf"))
    assert code == 1 and err.startswith("error: cannot write") and len(err.splitlines()) == 1


def test_docstring_examples():
    result = doctest.testmod(generate_module)
    assert result.attempted > 0 and result.failed == 0
