"""The Lim system (FIDE C.04.4.3, 2026): no public engine pairs it, so it is tested by
cases worked by hand from the text (each step names the article that decides it) and
by properties of the absolute criteria on random tournaments (hypothesis), where an
exhaustive search says whether a lawful pairing exists at all."""

from __future__ import annotations

import json
import random
from typing import Iterator

import pytest
from hypothesis import given, settings, strategies as st

from keizer.pairing.swiss.dutch import BLACK as B, WHITE as W, Entrant, NoPairing
from keizer.pairing.swiss.lim import pair


def player(n: int, score: int, colours: tuple[int, ...] = (), eligible: bool = True) -> Entrant:
    """Player n with pairing number n; scores in half points (a win is 2)."""
    return Entrant(n, n - 1, score, colours, None, None, len(colours), eligible)


def met(*pairs: tuple[int, int]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def test_round_one_top_half_against_bottom_half() -> None:
    """Round 1, seven players, all in the Median Scoregroup (score 0 = half of 0 rounds, 2.2).

    * 1.1: seven players, so the bye goes to the lowest ranked of the lowest scoregroup: 7.
    * 2.4: the six others, 1 v 4, 2 v 5, 3 v 6 (top half against bottom half).
    * Article 5, round 1: nobody has a colour yet; the initial colour (White here) goes to
      the top player, and the top half alternates: 1 White, 2 Black, 3 White.
    With Black drawn for player 1 every colour turns round."""
    field = [player(n, 0) for n in range(1, 8)]
    got = pair(field, {}, False, 0)
    assert got.pairs == ((1, 4), (5, 2), (3, 6)) and got.bye == 7
    assert pair(field, {}, False, 0, initial_white=False).pairs == ((4, 1), (2, 5), (6, 3))


def test_median_outward_order_and_floaters_both_ways() -> None:
    """Round 2 of eight players.  Round 1 was 1-5, 6-2, 3-7, 8-4 (White first): 1, 2 and 4
    won, 3-7 was drawn.  Scores (half points): 1, 2, 4: 2; 3, 7: 1; 5, 6, 8: 0.

    * 2.2: one round played, so the Median Scoregroup has 1 point: {3, 7}.  The 2-point
      group is paired first (downward), then the 0-point group (upward), the median last.
    * 2-point group {1, 2, 4}: odd, one floater (2.3.4).  All three have a compatible
      opponent in the next group (type d, 3.9); pairing downward the lowest ranked floats: 4
      (he is due White, as most of the group are: 3.2.2 agrees).
      1 v 2 remains: 1 had White, 2 Black, so 2 White, 1 Black (Article 5, due colours).
    * 0-point group {5, 6, 8}: odd, paired upward.  All of type d; 6 and 8 are due Black, 5
      White: the floater is one due the colour more are due (3.2.2), the highest ranked of
      them when pairing upward: 6.  5 v 8: 5 White, 8 Black, both due.
    * Median Scoregroup {3, 7} with the floaters 4 (from above) and 6 (from below).  The
      downfloater is paired first, with the highest ranked resident: 4 v 3 (3.8); 4 is due
      White (he had Black), 3 Black: granted.  The upfloater 6 takes the last one, 7: 7 White
      and 6 Black, both due.
    """
    field = [player(1, 2, (W,)), player(2, 2, (B,)), player(3, 1, (W,)), player(4, 2, (B,)),
             player(5, 0, (B,)), player(6, 0, (W,)), player(7, 1, (B,)), player(8, 0, (W,))]
    got = pair(field, met((1, 5), (6, 2), (3, 7), (8, 4)), False, 1, median=1)
    assert got.pairs == ((2, 1), (5, 8), (4, 3), (7, 6)) and got.bye is None


def test_floater_type_before_rank() -> None:
    """Round 3 of eight players (scores in half points, median 2 = half of 4).
    Round 1: 1-6, 2-7, 3-4, 8-5; round 2: 7-1, 6-2, 5-3, 4-8 (White first), the first
    named of each game winning except 8-5 and 4-8 (5 and 4 won).  So 1, 2, 3 have 4;
    4, 5 have 2 (the Median Scoregroup); 6, 7, 8 have 0.  Due colours: 1, 2, 3, 8 White;
    4, 5, 6, 7 Black (they alternate, 5.1).

    * 4-point group {1, 2, 3}, downward, odd: someone floats to the median group (2.3.4).
      3 has met both 4 and 5, so he has no compatible opponent there (type c); 1 and 2 have
      (type d).  Type d floats first (3.9), the lowest ranked of them: 2.  Then 1 v 3, both
      due White with the same history: above the median the higher ranked, 1, has it (5.4).
    * 0-point group {6, 7, 8}, upward, odd: 8 has met both 4 and 5 (type c), 6 and 7 have
      not (type d): the highest ranked of type d floats up, 6.  7 v 8: 8 White, 7 Black (due).
    * Median {4, 5} + 2 (down) + 6 (up).  Only one pair can grant both due colours (2 with
      4 or 5; 4-5 and 4-6, 5-6 are all Black-Black).  2 first, with the highest resident,
      4 (2 White, 4 Black: due); then 6 with 5, both due Black: at the median the higher
      ranked (5) has it, 6 White.
    Had the lowest ranked floated from the top, 3 would have had no opponent in the median
    group."""
    field = [player(1, 4, (W, B)), player(2, 4, (W, B)), player(3, 4, (W, B)), player(4, 2, (B, W)),
             player(5, 2, (B, W)), player(6, 0, (B, W)), player(7, 0, (B, W)), player(8, 0, (W, B))]
    avoid = met((1, 6), (2, 7), (3, 4), (8, 5), (7, 1), (6, 2), (5, 3), (4, 8))
    got = pair(field, avoid, False, 2, median=2)
    assert got.pairs == ((1, 3), (8, 7), (2, 4), (6, 5)) and got.bye is None


def test_exchange_when_the_proposed_opponent_was_met() -> None:
    """Four players on 2 points after two rounds (the Median Scoregroup, paired downward),
    all with White then Black, so all due White and colours decide nothing (every pair
    gives one of them Black).  1 met 3 in round 1.

    * 2.4: proposed 1 v 3, 2 v 4.  4.1: scrutiny starts with 1: 3 is not compatible (met),
      so 1's opponent is exchanged for the next of the bottom half, 4 (4.2).  The rest is
      2 v 3.  Colours: the same history, at the median the higher ranked gets White (5.4)."""
    field = [player(n, 2, (W, B)) for n in range(1, 5)]
    assert pair(field, met((1, 3)), False, 2, median=2).pairs == ((1, 4), (2, 3))


def test_exchange_for_due_colours() -> None:
    """The same four players, now 1 and 3 due White (they had White, Black), 2 and 4 due
    Black (Black, White); nobody has met.  Proposed 1 v 3, 2 v 4 would grant nobody's due
    colour in either pair; the exchange 1 v 4, 2 v 3 grants all four (2.5: exchanges for
    alternation and equalisation of colours), so it is made."""
    field = [player(1, 2, (W, B)), player(2, 2, (B, W)), player(3, 2, (W, B)), player(4, 2, (B, W))]
    assert pair(field, {}, False, 2, median=2).pairs == ((1, 4), (3, 2))


def test_colour_limits_are_part_of_compatibility() -> None:
    """2.1: a pairing must not give a third colour in a row nor three more of one colour.
    1 and 3 both had White twice, 2 and 4 Black twice: 1 and 3 must both have Black, so the
    proposed 1 v 3 is not compatible, and 1's opponent is exchanged for 4 (4.2); 2 v 3
    remains.  Colours: each gets the other colour from his last two (absolute)."""
    field = [player(1, 4, (W, W)), player(2, 4, (B, B)), player(3, 4, (W, W)), player(4, 4, (B, B))]
    assert pair(field, {}, False, 2, median=2).pairs == ((4, 1), (2, 3))


def test_bye_skips_a_player_who_had_one() -> None:
    """1.1 with C.04.1 d: the lowest ranked of the lowest scoregroup is 5, but he had the
    pairing-allocated bye already: the next one up, 4, gets it."""
    field = [player(1, 2, (W,)), player(2, 2, (B,)), player(3, 0, (W,)), player(4, 0, (B,)),
             player(5, 0, (), eligible=False)]
    got = pair(field, met((1, 3), (2, 4)), False, 1, median=1)
    assert got.bye == 4


def test_no_pairing_is_refused() -> None:
    """Four players who have all met: nothing meets C.04.1 b."""
    field = [player(n, 2, (W, B) if n % 2 else (B, W)) for n in range(1, 5)]
    with pytest.raises(NoPairing):
        pair(field, met((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)), False, 3, median=3)


# -- properties ---------------------------------------------------------------------------


def _may(colours: list[int], c: int) -> bool:
    after = colours + [c]
    whites = after.count(W)
    return abs(2 * whites - len(after)) <= 2 and not (len(after) >= 3 and after[-1] == after[-2] == after[-3])


def _perfect(players: list[int], ok: dict[int, set[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(_perfect([p for p in rest if p != o], ok) for o in rest if o in ok[first])


def _lawful_exists(numbers: list[int], ok: dict[int, set[int]], eligible: dict[int, bool]) -> bool:
    if len(numbers) % 2 == 0:
        return _perfect(numbers, ok)
    return any(eligible[b] and _perfect([n for n in numbers if n != b], ok) for b in numbers)


def _tournament(n: int, rounds: int, seed: int) -> Iterator[tuple[int, object]]:
    """Play ``rounds`` rounds of a random tournament paired by Lim, checking each round;
    yields (round, outcome or None when no lawful pairing exists)."""
    rnd = random.Random(seed)
    score = {i: 0 for i in range(1, n + 1)}
    colours: dict[int, list[int]] = {i: [] for i in range(1, n + 1)}
    opponents: dict[int, set[int]] = {i: set() for i in range(1, n + 1)}
    eligible = {i: True for i in range(1, n + 1)}
    for r in range(rounds):
        present = [i for i in range(1, n + 1) if rnd.random() > 0.1] if n > 4 else list(range(1, n + 1))
        if len(present) < 2:
            continue
        entrants = [Entrant(i, i - 1, score[i], tuple(colours[i]), None, None, len(colours[i]), eligible[i])
                    for i in present]
        last = r == rounds - 1
        ok = {a: {b for b in present if b != a and b not in opponents[a]
                  and ((_may(colours[a], W) and _may(colours[b], B)) or (_may(colours[a], B) and _may(colours[b], W))
                       or (last and score[a] == score[b]))}  # Article 6
              for a in present}
        try:
            got = pair(entrants, opponents, r == rounds - 1, r, True, median=r)
        except NoPairing:
            assert not _lawful_exists(present, ok, eligible), f"round {r + 1}: a lawful pairing exists"
            yield r, None
            return
        seen = [p for pr in got.pairs for p in pr] + ([got.bye] if got.bye is not None else [])
        assert sorted(seen) == sorted(present)                       # everyone once
        assert (got.bye is None) == (len(present) % 2 == 0)          # a bye only when odd
        if got.bye is not None:
            assert eligible[got.bye]                                  # C.04.1 d: no second bye
            eligible[got.bye] = False
            score[got.bye] += 2
        for w, b in got.pairs:
            assert b not in opponents[w]                              # C.04.1 b: no rematch
            if not (_may(colours[w], W) and _may(colours[b], B)):     # 2.1, C.04.1 f-g ...
                assert last and score[w] == score[b]                  # ... but Article 6 in the last round
            opponents[w].add(b)
            opponents[b].add(w)
            colours[w].append(W)
            colours[b].append(B)
            x = rnd.random()
            if x < 0.4:
                score[w] += 2
            elif x < 0.7:
                score[b] += 2
            else:
                score[w] += 1
                score[b] += 1
        yield r, got


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 11), st.integers(1, 9), st.integers(0, 10**6))
def test_absolute_criteria_on_random_tournaments(n: int, rounds: int, seed: int) -> None:
    """Every round: each present player paired once or given the bye, a bye only for an odd
    field and never a second one, no rematch, no third colour in a row, no colour difference
    beyond 2 (in the last round only between two players of one score, Article 6) — and when
    the engine finds no pairing, an exhaustive search finds none either."""
    for _ in _tournament(n, rounds, seed):
        pass


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 9).filter(lambda n: n % 2 == 1), st.integers(0, 10**6))
def test_bye_is_the_lowest_lawful(n: int, seed: int) -> None:
    """1.1: the bye goes to the lowest ranked player (score, then pairing number) who may have
    it and without whom the rest can be paired — checked against an exhaustive search."""
    rnd = random.Random(seed)
    scores = {i: rnd.choice((0, 2, 4)) for i in range(1, n + 1)}
    eligible = {i: rnd.random() > 0.3 for i in range(1, n + 1)}
    history = {i: tuple(rnd.choice((W, B)) for _ in range(2)) for i in range(1, n + 1)}
    avoid = met(*[(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1) if rnd.random() < 0.3])
    entrants = [Entrant(i, i - 1, scores[i], history[i], None, None, 2, eligible[i]) for i in range(1, n + 1)]
    numbers = list(range(1, n + 1))
    ok = {a: {b for b in numbers if b != a and b not in avoid.get(a, set())
              and ((_may(list(history[a]), W) and _may(list(history[b]), B))
                   or (_may(list(history[a]), B) and _may(list(history[b]), W)))} for a in numbers}
    lowest_first = sorted(numbers, key=lambda i: (scores[i], -i))
    expected = next((b for b in lowest_first if eligible[b] and _perfect([x for x in numbers if x != b], ok)), None)
    try:
        got = pair(entrants, avoid, False, 2, median=4)
    except NoPairing:
        assert expected is None
        return
    assert got.bye == expected


# -- through the TRF commands ---------------------------------------------------------------


def _lim_tournament(players: int, rounds: int, played: int, seed: int) -> object:
    """A tournament of ``rounds`` planned rounds whose first ``played`` were paired by Lim
    (through :func:`keizer.pairing.swiss.pair_swiss`) with random results."""
    from keizer.model import Colour
    from keizer.pairing.swiss import pair_swiss
    from keizer.tiebreaks import Code, Player, RoundResult, Tournament

    rnd = random.Random(seed)
    results: dict[int, list[RoundResult]] = {k: [] for k in range(1, players + 1)}

    def state() -> Tournament:
        return Tournament(tuple(Player(k, f"Player {k:02}", 2400 - 10 * k, tuple(results[k])) for k in results),
                          rounds)

    for r in range(played):
        found = pair_swiss(state(), rounds, upto=r, system="lim")
        for w, b in found.pairs:
            codes = rnd.choice([(Code.WIN, Code.LOSS), (Code.DRAW, Code.DRAW), (Code.LOSS, Code.WIN)])
            results[w].append(RoundResult(codes[0], b, Colour.WHITE))
            results[b].append(RoundResult(codes[1], w, Colour.BLACK))
        if found.bye is not None:
            results[found.bye].append(RoundResult(Code.PAB))
    return state()


def _trf(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from keizer.cli import cli, main
    from keizer.cli.trf import trf

    cli.add_command(trf)
    code = 0
    try:
        main(["trf", *args])
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_trf_pair_and_check_by_lim(tmp_path, capsys) -> None:
    """``keizer trf check --system lim`` finds every round of a Lim tournament as played
    (the Dutch checker does not), and ``keizer trf pair --system lim`` pairs the next round
    as the engine does; an unknown system is refused in one line."""
    from keizer.formats.trf import dump
    from keizer.pairing.swiss import pair_swiss

    t = _lim_tournament(11, 6, 4, seed=7)
    file = tmp_path / "lim.trf"
    file.write_text(dump(t), encoding="utf-8")  # type: ignore[arg-type]
    code, out, err = _trf(capsys, "check", str(file), "--system", "lim")
    assert (code, err) == (0, "") and "every one as played" in out, out
    code, out, _ = _trf(capsys, "check", str(file))
    assert code == 1 and "differ" in out
    code, out, err = _trf(capsys, "pair", str(file), "--system", "lim", "--format", "json")
    assert (code, err) == (0, "")
    expected = pair_swiss(t, 6, upto=4, system="lim")  # type: ignore[arg-type]
    assert json.loads(out) == {"round": 5, "pairs": [list(p) for p in expected.pairs], "bye": expected.bye}
    code, out, _ = _trf(capsys, "pair", str(file), "--system", "lim")
    assert out.startswith("Round 5 (FIDE Lim)")
    code, _, err = _trf(capsys, "pair", str(file), "--system", "monrad")
    assert code == 2 and "monrad" in err and "Traceback" not in err


def test_worked_example_of_the_docs_through_a_trf_file(tmp_path, capsys) -> None:
    """docs/swiss.md's worked example (the case of
    :func:`test_median_outward_order_and_floaters_both_ways`) from a TRF file: round 1
    1-5 1-0, 6-2 0-1, 3-7 ½-½, 8-4 0-1; round 2 by ``keizer trf pair --system lim``."""
    from keizer.formats.trf import dump
    from keizer.model import Colour
    from keizer.tiebreaks import Code, Player, RoundResult, Tournament

    games = [(1, 5, Code.WIN), (6, 2, Code.LOSS), (3, 7, Code.DRAW), (8, 4, Code.LOSS)]
    other = {Code.WIN: Code.LOSS, Code.LOSS: Code.WIN, Code.DRAW: Code.DRAW}
    results: dict[int, RoundResult] = {}
    for w, b, code in games:
        results[w] = RoundResult(code, b, Colour.WHITE)
        results[b] = RoundResult(other[code], w, Colour.BLACK)
    t = Tournament(tuple(Player(k, f"Player {k}", 2000 - k, (results[k],)) for k in range(1, 9)), 5)
    file = tmp_path / "example.trf"
    file.write_text(dump(t), encoding="utf-8")
    code, out, err = _trf(capsys, "pair", str(file), "--system", "lim", "--format", "json")
    assert (code, err) == (0, "")
    assert sorted(map(tuple, json.loads(out)["pairs"])) == sorted([(2, 1), (5, 8), (4, 3), (7, 6)])


def _in_exchange_order(rnd_: object, line: list, direction: bool) -> Iterator[list]:
    """Every complete pairing of ``line`` in the order 2.4 and 4.1-4.3 try them: the first
    player (#1 downward, the last upward) with the bottom half in order, then the top half
    from the bottom up; then the rest the same way."""
    if not line:
        yield []
        return
    ordered = line if direction else line[::-1]
    half = len(ordered) // 2
    first = ordered[0]
    for o in ordered[half:] + ordered[1:half][::-1]:
        if rnd_.compatible(first, o):  # type: ignore[attr-defined]
            rest = [c for c in line if c is not first and c is not o]
            for more in _in_exchange_order(rnd_, rest, direction):
                yield [(first, o)] + more


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.booleans(), st.integers(0, 10**6))
def test_a_scoregroup_takes_the_first_pairing_with_most_due_colours(pairs: int, downward: bool, seed: int) -> None:
    """One scoregroup without floaters: the engine's pairing is the first complete one in the
    exchange order among those giving most players their due colour (2.5), as listing every
    complete pairing in that order finds it."""
    from keizer.pairing.swiss.lim import _Round

    rnd = random.Random(seed)
    n = 2 * pairs
    field = [player(i, 4, tuple(rnd.choice((W, B)) for _ in range(rnd.randint(0, 3)))) for i in range(1, n + 1)]
    avoid = met(*[(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1) if rnd.random() < 0.3])
    r = _Round(field, avoid, 3, True, 4)
    listed = list(_in_exchange_order(r, list(r.cards), downward))
    if not listed:
        with pytest.raises(NoPairing):
            r.exchange(list(r.cards), [], downward, 4)
        return
    most = max(sum(r.both_due(a, b) for a, b in p) for p in listed)
    expected = next(p for p in listed if sum(r.both_due(a, b) for a, b in p) == most)
    got = r.exchange(list(r.cards), [], downward, 4)
    assert [(a.number, b.number) for a, b in got] == [(a.number, b.number) for a, b in expected]


def test_last_round_pairs_one_score_beyond_the_colour_limits() -> None:
    """Article 6: in the last round, the same score goes before the colour limits.
    After two rounds 1 and 2 (4 points) both had White twice, 3 and 4 (2 points, the Median
    Scoregroup) Black twice; nobody has met.

    * Not the last round: 1 and 2 are not compatible (both must have Black, 2.1), so both
      float to the median group (2.3.2), where the downfloaters go first, each with the
      highest ranked resident he can have: 1 v 3, 2 v 4, every colour granted.
    * The last round: 1 and 2, of one score, may meet (Article 6): 1 v 2 and 3 v 4.  Both
      1 and 2 are due Black with the same history: at or above the median the higher ranked,
      1, has it (5.4); 3 and 4 likewise, 3 White."""
    field = [player(1, 4, (W, W)), player(2, 4, (W, W)), player(3, 2, (B, B)), player(4, 2, (B, B))]
    assert pair(field, {}, False, 2, median=2).pairs == ((3, 1), (4, 2))
    assert pair(field, {}, True, 2, median=2).pairs == ((2, 1), (3, 4))


def test_due_colour_alternates_after_an_odd_number_of_games() -> None:
    """Article 5: colours alternate, and equalise after an even number of rounds.  After
    three games 1 had White, White, Black: alternation makes him due White (the difference
    goes to +2, which the limits allow); 2 had Black, Black, White: due Black.  Both get
    their due colour: 1 White.  (Equalising first would have given 2 White.)"""
    field = [player(1, 4, (W, W, B)), player(2, 4, (B, B, W))]
    assert pair(field, {}, False, 3, median=3).pairs == ((1, 2),)


def test_floater_who_did_not_float_last_round() -> None:
    """3.10 after 3.9: round 2, six players; round 1 was 1-4, 2-5, 3-6 (White first), won by
    1, 2 and 3, and 3 floated down in it (a late pairing of his old group, say).  The 1-point
    group {1, 2, 3} is odd and paired downward (the median, ½, has nobody): all three are of
    one type and due Black, so the lowest ranked would float, but 3 floated in the round
    before (3.10): 2 floats, and 1 v 3 remains."""
    def card(n: int, score: int, colours: tuple[int, ...], how: str | None = None) -> Entrant:
        return Entrant(n, n - 1, score, colours, how, None, len(colours), True)

    field = [card(1, 2, (W,)), card(2, 2, (W,)), card(3, 2, (W,), "down"),
             card(4, 0, (B,)), card(5, 0, (B,)), card(6, 0, (B,))]
    got = pair(field, met((1, 4), (2, 5), (3, 6)), False, 1, median=1)
    assert got.pairs[0] == (3, 1)     # same history, both due Black: above the median 1 has it


def test_a_swiss_created_with_lim_pairs_every_round_by_it(tmp_path, capsys):
    """The database path: '--pairing lim' at creation, five rounds paired and played; the
    exported file (TRF-2026 has no code for Lim, so --system names it) is every round as the
    Lim engine pairs it, and not as the Dutch one does."""
    from test_cli import run

    db = tmp_path / "c.db"
    assert run(capsys, db, "init")[0] == 0
    for k in range(1, 10):
        assert run(capsys, db, "member", "add", f"P{k}", "--rating", str(2100 - 41 * k))[0] == 0
    assert run(capsys, db, "competition", "create", "Open", "--system", "swiss", "--rounds", "5", "--pairing",
               "lim", "--all-members")[0] == 0
    assert "lim" in run(capsys, db, "competition", "settings")[1]
    results = ("1-0", "½-½", "0-1", "1-0")
    for _ in range(5):
        code, _, err = run(capsys, db, "pair")
        assert code == 0, err
        assert run(capsys, db, "result", *(f"{b}={r}" for b, r in enumerate(results, 1)))[0] == 0
    path = tmp_path / "open.trf"
    assert run(capsys, db, "export", "--format", "trf", "-o", str(path))[0] == 0
    code, out, _ = run(capsys, db, "trf", "check", str(path), "--system", "lim")
    assert code == 0 and "every one as played" in out
    assert run(capsys, db, "trf", "check", str(path))[0] == 1  # the Dutch rules pair some round otherwise
