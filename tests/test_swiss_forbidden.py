"""Forbidden pairs in a Swiss (family, club mates, an arbiter's decision): an absolute criterion
beside C.1, checked against an exhaustive search on small fields; TRF's XXP and 260 records;
the explanation when the forbidden pairs leave no pairing."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from keizer.formats.trf_records import forbidden_groups
from keizer.pairing.generate import GenerationError, TournamentPlan, generate
from keizer.pairing.swiss import SwissError, colour_preference, pair_swiss, round_inputs
from keizer.pairing.swiss.forbidden import ForbiddenGroup, pairs_in_round, xxp_lines
from keizer.tiebreaks import Player, Tournament
from test_cli import run


def _pairings(players: list[int]):
    """Every way to pair ``players``, with one bye when their number is odd: (pairs, bye)."""
    if len(players) % 2:
        for k, bye in enumerate(players):
            for pairs, _ in _pairings(players[:k] + players[k + 1:]):
                yield pairs, bye
        return
    if not players:
        yield [], None
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for pairs, _ in _pairings(rest[:k] + rest[k + 1:]):
            yield [(first, other)] + pairs, None


def _lawful(t: Tournament, rounds: int, upto: int, forbidden: set[frozenset[int]]) -> list[tuple[set, int | None]]:
    """The pairings that meet the absolute criteria: no rematch (C.1), no forbidden pair, no
    second bye (C.2), no two players of one absolute colour preference (C.3, not the last round)."""
    data = round_inputs(t, rounds, None, upto).data
    prefs = {n: colour_preference(d.colours) for n, d in data.items()}

    def may_meet(a: int, b: int) -> bool:
        if b in data[a].opponents or frozenset((a, b)) in forbidden:
            return False
        pa, pb = prefs[a], prefs[b]
        return not (pa.absolute and pb.absolute and pa.colour is pb.colour)

    return [({frozenset(p) for p in pairs}, bye) for pairs, bye in _pairings(sorted(data))
            if all(may_meet(a, b) for a, b in pairs) and (bye is None or data[bye].bye_eligible)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 9), played=st.integers(0, 4), seed=st.integers(0, 10**6), share=st.integers(0, 60))
def test_the_engine_finds_a_lawful_pairing_exactly_when_one_exists(n, played, seed, share):
    assume(played < n - 1)
    try:
        t = generate(TournamentPlan(players=n, rounds=max(played, 1), seed=seed))
    except GenerationError:
        assume(False)
    t = Tournament(tuple(Player(p.start_no, p.name, p.rating, p.results[:played]) for p in t.players), played)
    rng = random.Random(seed)
    forbidden = [pair for pair in combinations(range(1, n + 1), 2) if rng.randrange(100) < share]
    apart = {frozenset(p) for p in forbidden}
    rounds = played + 2   # not the last round: C.3 holds for everyone
    lawful = _lawful(t, rounds, played, apart)
    try:
        found = pair_swiss(t, rounds, upto=played, forbidden=forbidden)
    except SwissError as e:
        assert lawful == [], "the engine found no pairing where one exists"
        if e.forbidden:   # allowing the pairs it names makes one; every one of them is needed
            named = {frozenset(p) for p in e.forbidden}
            assert named <= apart
            assert _lawful(t, rounds, played, apart - named)
            for p in named:
                assert not _lawful(t, rounds, played, apart - (named - {p}))
        else:
            assert not apart or not _lawful(t, rounds, played, set())
        return
    assert ({frozenset(p) for p in found.pairs}, found.bye) in lawful


def test_the_message_names_the_forbidden_pairs_in_the_way():
    t = Tournament(tuple(Player(n) for n in range(1, 5)), rounds=0)
    with pytest.raises(SwissError) as e:
        pair_swiss(t, 3, forbidden=[(1, 2), (1, 3), (1, 4)])
    assert e.value.forbidden == ((1, 4),)   # the last one tried: 1-2 and 1-3 may stay forbidden
    assert "keeps the forbidden pairs apart: allowing" in str(e.value)


def test_xxp_and_260_records():
    groups = forbidden_groups("XXP    1    2\nXXP 3 4 5\n260   2   3    6    7\n")
    assert groups == [ForbiddenGroup((1, 2)), ForbiddenGroup((3, 4, 5)), ForbiddenGroup((6, 7), 2, 3)]
    assert pairs_in_round(groups, 1) == [(1, 2), (3, 4), (3, 5), (4, 5)]
    assert (6, 7) in pairs_in_round(groups, 3) and (6, 7) not in pairs_in_round(groups, 4)
    assert xxp_lines([(2, 1)]) == ("XXP    1    2",)


def _round_one(tmp_path, extra: str):
    path = tmp_path / "r1.trf"
    players = "".join(f"001 {n:>4}      Player {n:<28}{2400 - 10 * n:>4}\n" for n in range(1, 9))
    path.write_text("012 Open\n142 5\n152 W\n" + players + extra)
    return path


def test_trf_pair_keeps_an_xxp_pair_apart(tmp_path, capsys):
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "pair", str(_round_one(tmp_path, "")), "--format", "json")
    assert [1, 5] in json.loads(out)["pairs"]
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "pair", str(_round_one(tmp_path, "XXP    1    5\n")),
                       "--format", "json")
    assert code == 0 and all(set(p) != {1, 5} for p in json.loads(out)["pairs"])
    # A 260 record for later rounds only does not touch round 1.
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "pair", str(_round_one(tmp_path, "260   2   5    1    5\n")),
                       "--format", "json")
    assert [1, 5] in json.loads(out)["pairs"]


def test_trf_pair_explains_a_round_the_forbidden_pairs_block(tmp_path, capsys):
    family = "XXP 1 2 3 4 5\n"   # five of eight may not meet each other: three of them cannot be paired
    code, _, err = run(capsys, tmp_path / "x.db", "trf", "pair", str(_round_one(tmp_path, family)))
    assert code != 0 and "keeps the forbidden pairs apart: allowing" in err and "would make one" in err


def test_trf_check_names_a_played_forbidden_pair(tmp_path, capsys):
    path = tmp_path / "t.trf"
    code, _, _ = run(capsys, tmp_path / "x.db", "trf", "generate", "--players", "8", "--rounds", "1", "--seed", "5",
                     "-o", str(path))
    first = next(line for line in path.read_text().splitlines() if line.startswith("001    1"))
    opponent = int(first[91:95])
    path.write_text(path.read_text() + f"XXP    1 {opponent:>4}\r\n")
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", str(path))
    assert code == 1 and f"C.1: " in out and "are a forbidden pair" in out


def test_the_database_writes_its_forbidden_pairs_as_xxp_and_explains_a_blocked_round(tmp_path, capsys):
    db = tmp_path / "club.db"
    run(capsys, db, "competition", "create", "Open", "--system", "swiss", "--rounds", "3")
    for name in ("Anna", "Bram", "Cor", "Dirk"):
        run(capsys, db, "member", "add", name)
        run(capsys, db, "player", "add", name)
    for a, b in (("Anna", "Bram"), ("Anna", "Cor"), ("Anna", "Dirk")):
        assert run(capsys, db, "forbid", a, b)[0] == 0
    code, _, err = run(capsys, db, "pair")
    assert code != 0 and "keeps the forbidden pairs apart: allowing Anna – " in err
    assert run(capsys, db, "forbid", "Anna", "Dirk", "--remove")[0] == 0
    assert run(capsys, db, "pair")[0] == 0
    export = tmp_path / "open.trf"
    run(capsys, db, "result", "1=1-0", "2=1-0")
    assert run(capsys, db, "export", "--format", "trf", "-o", str(export))[0] == 0
    xxp = [line for line in export.read_text().splitlines() if line.startswith("XXP")]
    assert len(xxp) == 2
    assert run(capsys, db, "trf", "check", str(export))[0] == 0
