"""A standing is kept, not recomputed (issue 25): after any sequence of edits — results
entered and corrected, attendance changed, a player withdrawn, undone — the kept standing
(``keizer.kept``, and the process-wide memory of ``operations.standings.kept``) equals the
one computed from scratch, after every round, under every recalculation model."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings as hsettings, strategies as st

from conftest import examples
from keizer.kept import Kept, first_change
from keizer.model import Absence, ExternalResult, Result, Season
from keizer.scoring import compute_standings, round_scores
from keizer.settings import Settings
from test_scoring import random_season

RESULTS = [Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW, Result.WHITE_FORFEIT_WIN, Result.DOUBLE_FORFEIT, None]


def edit(rng: random.Random, s: Season, history: list[Season]) -> Season:
    """One edit an officer could make: a result, an absence, a withdrawal, a setting, or an undo."""
    what = rng.choice(["result", "result", "result", "absence", "withdraw", "undo", "setting", "name"])
    if what == "undo" and history:
        return history[rng.randrange(len(history))]
    if what == "name":
        return replace(s, name=rng.choice(["Interne", "Zomer"]))
    k = rng.randrange(len(s.rounds))
    rnd = s.rounds[k]
    if what == "result" and rnd.games:
        b = rng.randrange(len(rnd.games))
        games = list(rnd.games)
        games[b] = replace(games[b], result=rng.choice(RESULTS))
        rnd = replace(rnd, games=tuple(games))
    elif what == "absence":
        playing = {p for g in rnd.games for p in (g.white, g.black)}
        idle = [p.id for p in s.players if p.id not in playing]
        if not idle:
            return s
        pid = rng.choice(idle)
        absent, external = dict(rnd.absent), dict(rnd.external)
        absent.pop(pid, None)
        external.pop(pid, None)
        if rng.random() < 0.2:
            external[pid] = rng.choice(list(ExternalResult))
        else:
            absent[pid] = rng.choice(list(Absence))
        rnd = replace(rnd, absent=absent, external=external)
    elif what == "withdraw":
        i = rng.randrange(len(s.players))
        players = list(s.players)
        players[i] = replace(players[i], withdrawn_after=rng.choice([None, rng.randrange(len(s.rounds) + 1)]))
        return replace(s, players=tuple(players))
    elif what == "setting":
        return replace(s, settings=replace(s.settings, win=rng.choice([s.settings.win, s.settings.draw * 3])))
    rounds = list(s.rounds)
    rounds[k] = rnd
    return replace(s, rounds=tuple(rounds))


def same(kept: Kept, s: Season, provisional: bool) -> None:
    scratch = compute_standings(s, provisional=provisional)
    assert kept.standings(s, provisional) == scratch
    for r, expected in enumerate(scratch):
        got = kept.standing(s, r, provisional)
        assert got == expected, r
    last = scratch[-1]
    for e in last.entries[:3]:  # the histories the kept items give
        assert kept.round_scores(s, last, e.player) == round_scores(s, last, e.player)


@hsettings(max_examples=examples(120), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 9), rounds=st.integers(1, 6), edits=st.integers(1, 12),
       model=st.sampled_from(["per-round", "frozen", "fixed-point"]),
       preset=st.sampled_from(["classic", "keizerforclubs", "knsb-sixths", "sharly"]),
       extra=st.sampled_from([{}, {"withdrawn_opponent": "1/2"}, {"max_excused": 1, "max_club": 1},
                              {"absence_decay": True}, {"own_value": "start"}, {"tiebreaks": "rating"}]))
def test_the_kept_standing_is_the_one_computed_from_scratch(seed, n, rounds, edits, model, preset, extra):
    rng = random.Random(seed)
    s = random_season(rng, n, rounds)
    s = replace(s, settings=Settings.from_preset(preset, {"rematch_gap": 0, "recalculation": model, **extra}))
    kept = Kept()
    history: list[Season] = []
    for _ in range(edits):
        provisional = rng.random() < 0.3
        same(kept, s, provisional)
        history.append(s)
        s = edit(rng, s, history)
    same(kept, s, False)


def test_first_change_finds_the_first_round_that_differs():
    rng = random.Random(7)
    s = random_season(rng, 6, 4)
    later = replace(s.rounds[2], games=(replace(s.rounds[2].games[0], result=Result.DRAW),) + s.rounds[2].games[1:])
    assert first_change(s, s) is None
    assert first_change(s, replace(s, rounds=s.rounds[:2] + (later,) + s.rounds[3:])) in (3, None)
    assert first_change(s, replace(s, rounds=s.rounds[:3])) == 4
    assert first_change(s, replace(s, players=s.players[::-1])) == 1


def test_an_edit_of_the_last_round_takes_over_the_standings_before_it():
    """The chain goes on from the round that changed: the standings before it are the very
    objects kept, not computed again."""
    rng = random.Random(3)
    s = random_season(rng, 8, 5, recalculation="fixed-point")
    kept = Kept()
    before = [kept.standing(s, r) for r in range(6)]
    last = s.rounds[4]
    games = (replace(last.games[0], result=Result.BLACK_WIN if last.games[0].result != Result.BLACK_WIN
                     else Result.WHITE_WIN),) + last.games[1:]
    edited = replace(s, rounds=s.rounds[:4] + (replace(last, games=games),))
    version = kept.version
    kept.memo["made"] = True
    after = [kept.standing(edited, r) for r in range(6)]
    assert all(a is b for a, b in zip(after[:5], before[:5]))
    assert after == list(compute_standings(edited))
    assert kept.version != version and kept.memo == {}
    version, kept.memo["made"] = kept.version, True
    kept.standing(replace(edited, rounds=tuple(replace(r) for r in edited.rounds)))  # the same, read again
    assert kept.version == version and kept.memo == {"made": True}


def test_the_stored_competitions_kept_standings_are_computed_ones(tmp_path, capsys):
    """Through the store: the process-wide memory (``operations.standings``) after results are
    entered and undone by the command line, as the app and the site read it."""
    import shutil
    from pathlib import Path

    from keizer.operations import standings as standings_ops
    from keizer.store import Store
    from test_cli import run

    db = tmp_path / "club.db"
    shutil.copy(Path(__file__).resolve().parents[1] / "sample_club.db", db)
    for args in ([], ["-c", "1", "result", "--round", "30", "--correct", "1=0-1"], ["undo"],
                 ["-c", "1", "result", "--round", "2", "--correct", "1=1/2-1/2"]):
        if args:
            assert run(capsys, db, *args)[0] == 0, args
        store = Store.open(db)
        try:
            season = store.load_season(1)
            assert standings_ops.kept_standings(store, 1, season) == compute_standings(season)
            assert standings_ops.kept_standing(store, 1, season, 7) == compute_standings(season)[7]
        finally:
            store.close()
