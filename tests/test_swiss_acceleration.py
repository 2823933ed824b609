"""Accelerated Swiss pairings (the Baku method, FIDE C.04.7): the virtual points, the Dutch
engine pairing with them, TRF's XXA records, and tournaments bbpPairings paired with them."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from keizer.formats.trf import parse, text_of
from keizer.formats.trf_records import virtual_points
from keizer.model import Colour
from keizer.pairing.generate import GenerationError, TournamentPlan, generate
from keizer.pairing.swiss import initial_colour_of, pair_swiss
from keizer.pairing.swiss.acceleration import baku, baku_group_a, baku_group_size, baku_points, baku_rounds, xxa_lines
from keizer.pairing.swiss.check import check, played_round
from keizer.tiebreaks import Code, Player, RoundResult, Tournament
from conftest import sampled
from test_cli import run

DATA = Path(__file__).parent / "data" / "swiss" / "accelerated"
ONE, HALF = Fraction(1), Fraction(1, 2)
W, B = Colour.WHITE, Colour.BLACK


def test_group_a_is_the_first_half_rounded_up_to_an_even_number():
    assert baku_group_size(161) == 82   # the rule's own example
    assert [baku_group_size(n) for n in (2, 3, 4, 5, 8, 9, 10, 12, 13)] == [2, 2, 2, 4, 4, 6, 6, 6, 8]
    assert baku_group_a(range(1, 11)) == (1, 2, 3, 4, 5, 6)


def test_virtual_points_by_round():
    # Nine rounds: five accelerated, one point in the first three, half a point in the next two.
    assert baku_rounds(9) == (5, 3)
    assert baku_points(9) == (ONE, ONE, ONE, HALF, HALF)
    assert baku_points(7) == (ONE, ONE, HALF, HALF)
    assert baku_points(5) == (ONE, ONE, HALF)
    v = baku(list(range(1, 11)), 9)
    assert v[6] == baku_points(9) and v[7] == ()


def test_a_late_entrant_above_the_last_player_of_group_a_joins_it():
    # 10 players: GA is 1-6, its last player the one numbered 6.  A late entrant rated between
    # 2 and 3 is numbered 3 and those below move down: GA is then 1-7 (odd, as the rule says it may be).
    before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
    last = before[baku_group_size(len(before)) - 1]
    after = before[:2] + ["late"] + before[2:]
    assert baku_group_a(after, last) == ("a", "b", "late", "c", "d", "e", "f")
    assert baku_group_a(before + ["low"], last) == tuple(before[:6])   # one rated below joins GB


def test_round_one_pairs_group_a_and_group_b_apart():
    t = Tournament(tuple(Player(n) for n in range(1, 9)), rounds=0)
    assert pair_swiss(t, rounds=5).pairs == ((1, 5), (6, 2), (3, 7), (8, 4))
    # GA (1-4) has a virtual point: two brackets, each top half against bottom half.
    assert pair_swiss(t, rounds=5, virtual=baku(range(1, 9), 5)).pairs == ((1, 3), (4, 2), (5, 7), (8, 6))


def _after_round_one() -> Tournament:
    games = {1: (Code.WIN, 3, W), 3: (Code.LOSS, 1, B), 4: (Code.LOSS, 2, W), 2: (Code.WIN, 4, B),
             5: (Code.WIN, 7, W), 7: (Code.LOSS, 5, B), 8: (Code.LOSS, 6, W), 6: (Code.WIN, 8, B)}
    return Tournament(tuple(Player(n, results=(RoundResult(*games[n]),)) for n in range(1, 9)), rounds=1)


def test_round_two_meets_group_a_losers_with_group_b_winners():
    """docs/swiss.md's worked example: pairing scores 1+1 (1, 2), 0+1 (3, 4), 1+0 (5, 6), 0 (7, 8)."""
    t = _after_round_one()
    accelerated = pair_swiss(t, rounds=5, virtual=baku(range(1, 9), 5))
    assert accelerated.pairs == ((2, 1), (3, 5), (6, 4), (7, 8))   # boards by the real scores
    assert pair_swiss(t, rounds=5).pairs == ((6, 1), (2, 5), (3, 8), (7, 4))


def test_xxa_records_are_written_and_read_back():
    lines = xxa_lines(baku(list(range(1, 6)), 9))
    assert lines[0] == "XXA    1  1.0  1.0  1.0  0.5  0.5" and len(lines) == 4
    assert virtual_points("\n".join(lines))[4] == baku_points(9)
    # TRF-2026 record 250: game points, rounds, players.
    assert virtual_points("250       1.0   1   2    1    4\n250       0.5   3   3    1    4\n")[2] == (ONE, ONE, HALF)


@pytest.mark.parametrize("path", sampled(sorted(DATA.glob("*.trf"))), ids=lambda p: p.stem)
def test_every_round_bbp_paired_with_virtual_points_is_found_as_played(path):
    """bbpPairings paired these rounds from the XXA records keizer's Baku function wrote
    (tests/data/swiss/accelerated/SOURCES.md): keizer re-pairs each the same."""
    text = text_of(path)
    t = parse(text)
    virtual = virtual_points(text)
    assert virtual and all(len(v) <= t.rounds for v in virtual.values())
    results = check(t, t.rounds, initial_colour_of(t), None, virtual)
    assert results and [c.round for c in results if c.differs] == []


def test_without_their_virtual_points_the_accelerated_rounds_differ():
    differ = 0
    for path in sorted(DATA.glob("*.trf")):
        t = parse(text_of(path))
        differ += sum(c.differs for c in check(t, t.rounds, initial_colour_of(t)))
    assert differ > 0


def test_the_generator_pairs_accelerated_tournaments_and_says_so(tmp_path, capsys):
    t = generate(TournamentPlan(players=20, rounds=7, seed=3, acceleration="baku"))
    virtual = {int(x[4:8]): x for x in t.info if x.startswith("XXA")}
    assert sorted(virtual) == list(range(1, 11))   # GA: 2·⌈20/4⌉ = 10
    out = tmp_path / "a.trf"
    code, _, _ = run(capsys, tmp_path / "x.db", "trf", "generate", "--players", "20", "--rounds", "7", "--seed", "3",
                     "--acceleration", "baku", "-o", str(out))
    assert code == 0 and "--acceleration baku" in out.read_text()
    code, stdout, err = run(capsys, tmp_path / "x.db", "trf", "check", str(out))
    assert code == 0 and "every one as played" in stdout and err == ""
    stripped = tmp_path / "b.trf"
    stripped.write_text("".join(x for x in out.read_text().splitlines(keepends=True) if not x.startswith("XXA")))
    assert run(capsys, tmp_path / "x.db", "trf", "check", str(stripped))[0] == 1


def test_trf_pair_adds_the_virtual_points(tmp_path, capsys):
    path = tmp_path / "r1.trf"
    players = "".join(f"001 {n:>4}      Player {n:<28}{2400 - 10 * n:>4}\n" for n in range(1, 9))
    path.write_text("012 Open\n142 5\n152 W\n" + players + "\n".join(xxa_lines(baku(range(1, 9), 5))) + "\n")
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "pair", str(path), "--format", "json")
    assert code == 0 and json.loads(out)["pairs"] == [[1, 3], [4, 2], [5, 7], [8, 6]]


def test_an_accelerated_swiss_in_the_database(tmp_path, capsys):
    db = tmp_path / "club.db"
    assert run(capsys, db, "competition", "create", "Open", "--system", "swiss", "--rounds", "5",
               "--acceleration", "baku")[0] == 0
    for n in range(1, 9):
        run(capsys, db, "member", "add", f"Player {n}", "--rating", str(2400 - 10 * n))
        run(capsys, db, "player", "add", f"Player {n}")
    code, out, _ = run(capsys, db, "competition", "settings", "--format", "json")
    assert json.loads(out)["acceleration"] == "baku"
    code, out, _ = run(capsys, db, "pair", "--format", "json")
    assert code == 0
    assert run(capsys, db, "result", "1=1-0", "2=0-1", "3=1-0", "4=0-1")[0] == 0
    code, out, err = run(capsys, db, "competition", "settings", "--set", "acceleration=none")
    assert code != 0 and "fixed once round 1 is paired" in err
    export = tmp_path / "open.trf"
    assert run(capsys, db, "export", "--format", "trf", "-o", str(export))[0] == 0
    text = export.read_text()
    assert "XXA    4  1.0  1.0  0.5" in text and "XXA    5" not in text
    code, out, _ = run(capsys, db, "trf", "check", str(export))
    assert code == 0, out
    code, out, _ = run(capsys, db, "trf", "pair", str(export), "--format", "json")
    assert json.loads(out)["pairs"] == [[2, 1], [3, 5], [6, 4], [7, 8]]
    code, _, _ = run(capsys, db, "pair")
    code, out, _ = run(capsys, db, "pairings", "--format", "json")
    assert [[b["white_no"], b["black_no"]] for b in json.loads(out)["pairs"]] == [[2, 1], [3, 5], [6, 4], [7, 8]]


def test_acceleration_is_for_a_swiss_of_players(tmp_path, capsys):
    code, _, err = run(capsys, tmp_path / "k.db", "competition", "create", "Club", "--acceleration", "baku")
    assert code != 0 and "--acceleration" in err
    code, _, err = run(capsys, tmp_path / "k.db", "competition", "create", "Teams", "--system", "team", "--schedule",
                       "swiss", "--rounds", "5", "--acceleration", "baku")
    assert code != 0 and "--acceleration" in err


def test_an_imported_file_keeps_its_virtual_points_and_forbidden_pairs(tmp_path, capsys):
    """keizer import carries XXA and XXP into the database: 'keizer pair' then pairs the next
    round as 'keizer trf pair' pairs the file, and the export writes them again."""
    path = tmp_path / "open.trf"
    run(capsys, tmp_path / "x.db", "trf", "generate", "--players", "16", "--rounds", "3", "--seed", "8",
        "--acceleration", "baku", "-o", str(path))
    # Seven rounds planned, three played; group A keeps half a point up to round 4.
    text = path.read_text().replace("142 3", "142 7").replace("152 ", "XXP    2   15\r\n152 ", 1)
    text = text.replace("  1.0  0.5\n", "  1.0  0.5  0.5  0.5\n")   # read_text: \\n line ends
    path.write_text(text)
    code, expected, _ = run(capsys, tmp_path / "x.db", "trf", "pair", str(path), "--format", "json")
    assert code == 0
    db = tmp_path / "club.db"
    assert run(capsys, db, "import", str(path))[0] == 0
    assert run(capsys, db, "pair")[0] == 0
    code, out, _ = run(capsys, db, "pairings", "--format", "json")
    assert [[b["white_no"], b["black_no"]] for b in json.loads(out)["pairs"]] == json.loads(expected)["pairs"]
    code, out, _ = run(capsys, db, "export", "--format", "trf")
    assert "XXA    8  1.0  0.5  0.5  0.5" in out and "XXP    2   15" in out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(6, 24), st.integers(3, 9), st.integers(0, 10_000))
def test_accelerated_brackets_pair_as_the_whole_round_graph_does(n, rounds, seed):
    """With virtual points the scoregroups are uneven (GA a point or half a point up): the
    engine's bracket graphs still give the pairing of the rules' whole-round formulation."""
    from keizer.pairing.swiss import round_inputs
    from keizer.pairing.swiss.dutch import pair

    assume(rounds < n)
    try:
        t = generate(TournamentPlan(players=n, rounds=rounds, seed=seed, acceleration="baku",
                                    byes=Fraction(1, 20), forfeits=Fraction(1, 20)))
    except GenerationError:
        return
    virtual = baku(range(1, n + 1), rounds)
    for r in range(rounds):
        present, _, _ = played_round(t, r)
        inputs = round_inputs(t, rounds, present, r, (), virtual)
        got = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, initial_colour_of(t) is W)
        whole = pair(inputs.entrants, inputs.avoid, inputs.last_round, r, initial_colour_of(t) is W, whole=True)
        assert (set(whole.pairs), whole.bye) == (set(got.pairs), got.bye), f"round {r + 1}"


def test_the_settings_offer_the_methods_the_engine_pairs():
    """systems/swiss.py names the methods without importing the engine (the registry stays light)."""
    from keizer.pairing.swiss.acceleration import METHODS
    from keizer.systems.swiss import ACCELERATIONS

    assert ACCELERATIONS == METHODS
