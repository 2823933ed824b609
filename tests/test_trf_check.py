"""``keizer trf check``'s full report: the absolute criteria a played pairing breaks (whoever made
it), and the standing — totals and ranks by the file's 202 record or ``--tiebreaks`` — with
hand-worked files; exit status 0, 1 or 2."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.formats.trf import TRF26, dump, parse
from keizer.model import Colour
from keizer.pairing.swiss.check import Breach, check
from keizer.tiebreaks import Code, Player, RoundResult as R, Tournament
from conftest import examples
from test_cli import run

W, B = Colour.WHITE, Colour.BLACK


def tournament(results: dict[int, list[R]], rounds: int, **kw: object) -> Tournament:
    return Tournament(tuple(Player(n, f"P{n}", results=tuple(results[n])) for n in sorted(results)), rounds,
                      **kw)  # type: ignore[arg-type]


def write(path: Path, t: Tournament) -> str:
    path.write_text(dump(t, TRF26, every_round=True), encoding="utf-8")
    return str(path)


# Round 1 as the engine pairs five players (1-3, 4-2, bye 5); round 2 gives 5 the bye again.
SECOND_BYE = {1: [R(Code.WIN, 3, W), R(Code.WIN, 2, B)], 3: [R(Code.LOSS, 1, B), R(Code.DRAW, 4, W)],
              4: [R(Code.DRAW, 2, W), R(Code.DRAW, 3, B)], 2: [R(Code.DRAW, 4, B), R(Code.LOSS, 1, W)],
              5: [R(Code.PAB), R(Code.PAB)]}


def test_a_second_pairing_allocated_bye_is_reported_as_C2_and_keizer_gives_the_bye_to_another(tmp_path, capsys):
    t = tournament(SECOND_BYE, 3)
    found = check(t, 3)
    assert [c.breaches for c in found] == [(), (Breach("C2", "bye", (5,)),)]
    assert found[1].engine_bye not in (None, 5)  # keizer does not reproduce the breach
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", write(tmp_path / "t.trf", t))
    assert code == 1, err
    assert ("round 2: a second pairing-allocated bye for player 5 (who had one, or a win without playing, "
            "before): C2") in out
    assert "1 rounds re-paired" not in out and "2 rounds re-paired, 1 differ" in out


def test_a_rematch_and_two_equal_absolute_colour_preferences_are_reported_even_without_a_lawful_pairing(
        tmp_path, capsys):
    # 1 and 2 had White twice, 3 and 4 Black twice; round 3 (of 4) pairs 1-2 and 3-4 — no other
    # pairing is left, and both boards pair two players who must have the same colour (C.3).
    results = {1: [R(Code.WIN, 3, W), R(Code.WIN, 4, W), R(Code.DRAW, 2, W)],
               2: [R(Code.WIN, 4, W), R(Code.WIN, 3, W), R(Code.DRAW, 1, B)],
               3: [R(Code.LOSS, 1, B), R(Code.LOSS, 2, B), R(Code.DRAW, 4, W)],
               4: [R(Code.LOSS, 2, B), R(Code.LOSS, 1, B), R(Code.DRAW, 3, B)]}
    found = check(tournament(results, 4), 4)
    assert found[2].breaches == (Breach("C3", "colour", (1, 2), B), Breach("C3", "colour", (3, 4), W))
    assert found[2].error is not None  # the engine finds no pairing: it never makes one that breaks C.3
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", write(tmp_path / "t.trf", tournament(results, 4)))
    assert code == 1
    assert ("round 3: players 1 and 2, neither a topscorer, meet with the same absolute colour preference "
            "(black): C3") in out
    assert "round 3: the engine found no pairing" in out
    # a rematch in round 2: C1
    again = {1: [R(Code.WIN, 3, W), R(Code.WIN, 3, B)], 3: [R(Code.LOSS, 1, B), R(Code.LOSS, 1, W)],
             4: [R(Code.DRAW, 2, W), R(Code.DRAW, 2, B)], 2: [R(Code.DRAW, 4, B), R(Code.DRAW, 4, W)]}
    assert [c.breaches for c in check(tournament(again, 3), 3)][1] == (Breach("C1", "rematch", (1, 3)),
                                                                        Breach("C1", "rematch", (2, 4)))
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", write(tmp_path / "r.trf", tournament(again, 3)),
                       "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["checked"][1]["breaches"][0] == {"rule": "C1", "kind": "rematch",
                                                                 "players": [1, 3], "colour": None}


# Played as the engine pairs: round 1 1-3 (1 wins), 4-2 (draw); round 2 2-1 (draw), 3-4 (3 wins).
# Points 1½, 1, 1, ½.  2 and 3 tie on 1 point and on Buchholz (2: ½ + 1½; 3: 1½ + ½); Sonneborn-Berger
# parts them: 2 drew with 4 and 1 (¼ + ¾ = 1), 3 beat 4 (½) — 2 second, 3 third.
STANDING = {1: [R(Code.WIN, 3, W), R(Code.DRAW, 2, B)], 2: [R(Code.DRAW, 4, B), R(Code.DRAW, 1, W)],
            3: [R(Code.LOSS, 1, B), R(Code.WIN, 4, W)], 4: [R(Code.DRAW, 2, W), R(Code.LOSS, 3, B)]}


def standing_file(tmp_path: Path, ranks: dict[int, int], tiebreaks: tuple[str, ...] = ("BH", "SB"),
                  points: dict[int, F] | None = None) -> str:
    t = tournament(STANDING, 3, tiebreaks=tiebreaks)
    t = replace(t, players=tuple(replace(p, rank=ranks[p.start_no], points=(points or {}).get(p.start_no))
                                 for p in t.players))
    return write(tmp_path / "s.trf", t)


def test_the_ranks_of_the_202_list_agree_exit_0(tmp_path, capsys):
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", standing_file(tmp_path, {1: 1, 2: 2, 3: 3, 4: 4}))
    assert code == 0, out + err
    assert "2 rounds re-paired, every one as played" in out
    assert "standing after round 2, totals and ranks by BH,SB: as the file states" in out


def test_ranks_that_a_tie_break_orders_otherwise_are_one_line_each(tmp_path, capsys):
    path = standing_file(tmp_path, {1: 1, 2: 3, 3: 2, 4: 4})
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", path)
    assert code == 1
    assert "standing after round 2, totals and ranks by BH,SB: 2 differ" in out
    assert ("round 2, player 3: rank: the file says 2, keizer computes 3 (tied on 1 points with #2 P2, whom the "
            "file ranks 3: SB 0.5 against 1)") in out
    assert "round 2, player 2: rank: the file says 3, keizer computes 2" in out
    # --tiebreaks replaces the 202 list: by Buchholz alone 2 and 3 share rank 2
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", path, "-t", "BH")
    assert code == 1 and "totals and ranks by BH: 1 differ" in out
    assert "round 2, player 3: rank: the file says 2, keizer computes 2" not in out
    assert "round 2, player 2: rank: the file says 3, keizer computes 2 (equal on points and every tie-break" in out
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", path, "--format", "json")
    report = json.loads(out)
    assert report["differences"] == 0 and report["standing"]["tiebreaks"] == ["BH", "SB"]
    assert [(d["player"], d["what"], d["file"], d["keizer"]) for d in report["standing"]["differences"]] == [
        (2, "rank", 3, 2), (3, "rank", 2, 3)]


def test_a_total_that_is_not_the_sum_of_the_round_records(tmp_path, capsys):
    path = standing_file(tmp_path, {1: 1, 2: 2, 3: 3, 4: 4}, points={1: F(3, 2), 2: F(1), 3: F(3, 2), 4: F(1, 2)})
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", path)
    assert code == 1
    assert "round 2, player 3: total: the file says 1.5, keizer computes 1" in out
    assert "round 2, player 1: total" not in out


def test_without_a_list_only_the_totals_are_checked(tmp_path, capsys):
    path = standing_file(tmp_path, {1: 4, 2: 3, 3: 2, 4: 1}, tiebreaks=())
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", path)
    assert code == 0 and "totals (no tie-break list: no 202 record, no --tiebreaks): as the file states" in out


def test_a_file_or_list_that_cannot_be_checked_exits_2_with_one_line(tmp_path, capsys):
    path = standing_file(tmp_path, {1: 1, 2: 2, 3: 3, 4: 4})
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", path, "-t", "XYZ")
    assert code == 2 and out == "" and err.startswith("error: --tiebreaks: XYZ: unknown tie-break")
    assert len(err.strip().splitlines()) == 1
    broken = tmp_path / "b.trf"
    broken.write_text("012 x\n001    1      A                                 1850                             "
                      "1.0          2 w 1\n")
    code, out, err = run(capsys, tmp_path / "x.db", "trf", "check", str(broken))
    assert code == 2 and "opponent 2 has no 001 line" in err and "Traceback" not in err
    assert parse(Path(path).read_text()).tiebreaks == ("BH", "SB")


def test_a_rank_column_that_repeats_the_start_numbers_is_not_a_standing(tmp_path, capsys):
    from keizer.pairing.generate import Options, TournamentPlan, generate

    t = generate(TournamentPlan(players=10, rounds=4, seed=2, options=Options(tiebreaks=("BH",))))
    assert [p.rank for p in t.players] != [p.start_no for p in t.players]
    numbered = replace(t, players=tuple(replace(p, rank=p.start_no) for p in t.players))
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", write(tmp_path / "n.trf", numbered))
    assert code == 0 and "the file's rank column repeats the start numbers: no standing to compare" in out
    code, out, _ = run(capsys, tmp_path / "x.db", "trf", "check", write(tmp_path / "g.trf", t))
    assert code == 0 and "totals and ranks by BH: as the file states" in out


def oracle(t: Tournament, r: int) -> set[tuple[str, tuple[int, ...]]]:
    """The absolute criteria round ``r`` (0-based) of ``t`` breaks, worked out from the rules alone
    (no topscorers: the tournament plans a round more than it holds)."""
    before = {p.start_no: p.results[:r] for p in t.players}
    met = {frozenset((n, x.opponent)) for n, rs in before.items() for x in rs if x.code.is_game}
    had_bye = {n for n, rs in before.items() if any(x.code in (Code.PAB, Code.FORFEIT_WIN) for x in rs)}

    def absolute(n: int) -> Colour | None:
        seen = [x.colour for x in before[n] if x.code.is_game]
        diff = seen.count(W) - seen.count(B)
        if abs(diff) > 1 or len(seen) >= 2 and seen[-1] is seen[-2]:
            return B if diff > 0 else W if diff < 0 else seen[-1].opposite
        return None

    out = set()
    for p in t.players:
        x = p.results[r]
        if x.code is Code.PAB and p.start_no in had_bye:
            out.add(("C2", (p.start_no,)))
        if x.opponent is not None and p.start_no < x.opponent:
            pair = (p.start_no, x.opponent)
            if frozenset(pair) in met:
                out.add(("C1", pair))
            if absolute(p.start_no) is not None and absolute(p.start_no) is absolute(x.opponent):
                out.add(("C3", pair))
    return out


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 9), st.integers(1, 5), st.randoms(use_true_random=False))
def test_the_breaches_reported_are_those_of_the_rules_on_random_pairings(players, rounds, rng):
    """Rounds paired at random (rematches, second byes, equal absolute colours all allowed):
    the checker reports exactly the breaches an independent reading of C.1–C.3 finds."""
    results: dict[int, list[R]] = {n: [] for n in range(1, players + 1)}
    for _ in range(rounds):
        order = rng.sample(range(1, players + 1), players)
        if players % 2:
            results[order.pop()].append(R(Code.PAB))
        for a, b in zip(order[::2], order[1::2]):
            kind = rng.choice([Code.WIN, Code.DRAW, Code.LOSS, Code.FORFEIT_WIN])
            back = {Code.WIN: Code.LOSS, Code.DRAW: Code.DRAW, Code.LOSS: Code.WIN,
                    Code.FORFEIT_WIN: Code.FORFEIT_LOSS}[kind]
            results[a].append(R(kind, b, W))
            results[b].append(R(back, a, B))
    t = tournament(results, rounds)
    for c in check(t, rounds + 1):
        assert {(b.rule, b.players) for b in c.breaches} == oracle(t, c.round - 1), c.round
        if c.breaches:
            assert c.differs  # keizer's engine never pairs so: never "as played"
