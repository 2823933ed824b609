"""FIDE mode (issue 22): a Swiss or a round-robin is created in it; a change that leaves the
FIDE rules is refused until confirmed twice, then recorded, logged, said in the TRF file's
``###`` lines and on the pairing and standing pages (app, printed, site)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from keizer.refusals import LeavesFideRules
from keizer.systems import fide
from keizer.store import Store, StoreError
from test_cli import bad, digest, run
from web_helpers import app_hints, client_with_csrf, post, sample_app, text

PLAYERS = [("Ann Aap", "2100"), ("Bob Bos", "2000"), ("Cor Cas", "1900"), ("Dé Dijk", "1800"), ("Eva Eik", "1700")]


def _club(tmp_path: Path, capsys, *create: str) -> Path:
    db = tmp_path / "club.db"
    for name, rating in PLAYERS:
        assert run(capsys, db, "member", "add", name, "--rating", rating)[0] == 0
    code, _, err = run(capsys, db, "competition", "create", "Open", *create, "--all-members")
    assert code == 0, err
    return db


@pytest.fixture
def swiss(tmp_path, capsys):
    return _club(tmp_path, capsys, "--system", "swiss", "--rounds", "4")


def _stored(db: Path) -> dict:
    s = Store.open(db)
    try:
        return s.system_settings(s.competition()["id"])
    finally:
        s.close()


# -- the pure rules ----------------------------------------------------------------------------


def test_what_leaves_the_fide_rules_hand_worked():
    fide_swiss = {"fide": True, "scoring": None, "tiebreaks": None, "edition": "2026"}
    said = lambda before, after, paired, system="swiss": [str(d.said) for d in fide.departures(system, before, after,
                                                                                                 paired)]
    # C.04.1: the pairing-allocated bye scores a win; a requested bye 0 or ½ (a full point is not FIDE's).
    assert said(fide_swiss, {**fide_swiss, "scoring": {"pab": "1/2"}}, 0) == ["the pairing-allocated bye is worth 1/2"]
    assert said(fide_swiss, {**fide_swiss, "scoring": {"pab": "1"}}, 3) == []
    assert said(fide_swiss, {**fide_swiss, "scoring": {"hpb": "0"}}, 3) == []
    assert said(fide_swiss, {**fide_swiss, "scoring": {"hpb": "1"}}, 0) == ["a requested bye is worth 1"]
    # C.07: tie-breaks are announced before the start: free until round 1 is paired, not after.
    assert said(fide_swiss, {**fide_swiss, "tiebreaks": ["SB"]}, 0) == []
    assert said(fide_swiss, {**fide_swiss, "tiebreaks": ["SB", "WIN"]}, 1) == ["the tie-breaks changed after round 1 (SB,WIN)"]
    assert said(fide_swiss, {**fide_swiss, "edition": "2023"}, 2) == \
        ["the tie-break rule edition changed after round 1 (2023)"]
    # A round-robin: its lots too; it has no bye setting to change.
    assert said({"lots": None}, {"lots": 7}, 1, "roundrobin") == ["the drawing of lots for ties changed after round 1"]
    assert said({"lots": None}, {"lots": 7}, 0, "roundrobin") == []
    # Other systems have no FIDE mode.
    assert said({}, {"scoring": {"pab": "0"}}, 1, "team") == []


@settings(max_examples=200, deadline=None)
@given(pab=st.fractions(0, 1, max_denominator=4), hpb=st.fractions(0, 1, max_denominator=4),
       tiebreaks=st.sampled_from([None, ["SB"], ["BH", "SB"]]), paired=st.integers(0, 9))
def test_a_change_that_changes_nothing_leaves_nothing(pab, hpb, tiebreaks, paired):
    stored = {"fide": True, "scoring": {"pab": str(pab), "hpb": str(hpb)}, "tiebreaks": tiebreaks}
    assert fide.departures("swiss", stored, dict(stored), paired) == []
    # Departing once is recorded once, and the mode says since when.
    found = fide.departures("swiss", {"tiebreaks": tiebreaks}, stored, paired)  # the byes set anew
    assert bool(found) == (pab != 1 or hpb not in (0, Fraction(1, 2)))
    after = fide.left(stored, paired + 1, found)
    assert (after["fide"] is True) == (not found)
    line = str(fide.mode_line(after))
    assert line == "FIDE rules" if not found else line.startswith(f"Not FIDE rules since round {paired + 1}: ")


def test_a_new_competition_s_mode():
    assert fide.new_mode("swiss", {"scoring": None}, None)["fide"] is True
    outside = fide.new_mode("swiss", {"scoring": {"pab": "1/2"}}, None)  # the default follows the settings
    assert str(fide.mode_line(outside)) == "Not FIDE rules since round 1: the pairing-allocated bye is worth 1/2"
    assert str(fide.mode_line(fide.new_mode("roundrobin", {}, False))) == \
        "Not FIDE rules since round 1: created outside FIDE mode"
    with pytest.raises(StoreError, match="not the FIDE rules"):
        fide.new_mode("swiss", {"scoring": {"pab": "1/2"}}, True)
    assert fide.mode_line({"scoring": None}) is None  # created before FIDE mode existed: no mode


# -- the command line ----------------------------------------------------------------------------


def test_creating_in_fide_mode_or_outside(tmp_path, capsys):
    db = _club(tmp_path, capsys, "--system", "swiss", "--rounds", "5")
    assert _stored(db)["fide"] is True
    line = bad(capsys, db, "competition", "create", "Rapid", "--system", "swiss", "--rounds", "5",
               "--bye-points", "½", "--fide-mode", match="not the FIDE rules")
    assert line == "error: the pairing-allocated bye is worth 1/2: not the FIDE rules, which --fide-mode keeps; leave " \
                   "out --fide-mode (or give --no-fide-mode), or keep FIDE's values"
    bad(capsys, db, "competition", "create", "Cup", "--system", "knockout", "--fide-mode", match="--fide-mode is for")
    assert run(capsys, db, "competition", "create", "Rapid", "--system", "swiss", "--rounds", "5",
               "--bye-points", "½")[0] == 0
    assert _stored(db)["fide"] is False and _stored(db)["left_fide"] == [{"round": 1, "what": "bye_points",
                                                                           "value": "1/2"}]
    assert run(capsys, db, "competition", "create", "Group", "--system", "roundrobin", "--no-fide-mode")[0] == 0
    assert _stored(db)["left_fide"] == [{"round": 1, "what": "created", "value": ""}]


def test_a_changed_bye_value_is_refused_then_confirmed_logged_and_in_the_trf(swiss, capsys):
    line = bad(capsys, swiss, "competition", "settings", "--set", "bye_points=½", match="FIDE mode")
    assert line == ("error: the competition is in FIDE mode, and this leaves the FIDE rules: the pairing-allocated bye "
                    "is worth 1/2; to leave them for good, give --leave-fide-rules (you are asked to confirm)")
    # The second confirmation: answered no, nothing is written.
    before = digest(swiss)
    with pytest.MonkeyPatch.context() as mp:
        import io
        mp.setattr("sys.stdin", io.StringIO("n\n"))
        code, _, err = run(capsys, swiss, "competition", "settings", "--set", "bye_points=½", "--leave-fide-rules")
    assert code != 0 and digest(swiss) == before
    with pytest.MonkeyPatch.context() as mp:
        import io
        mp.setattr("sys.stdin", io.StringIO("y\n"))
        code, out, err = run(capsys, swiss, "competition", "settings", "--set", "bye_points=½", "--leave-fide-rules")
    assert code == 0, err
    assert "leaves the FIDE rules for good" in out
    assert _stored(swiss)["fide"] is False
    code, out, _ = run(capsys, swiss, "log", "--format", "json")
    assert json.loads(out)[0]["summary"] == \
        "Open: settings: bye_points=½; left the FIDE rules: the pairing-allocated bye is worth 1/2"
    # Outside FIDE mode now: a later change is not refused, and is recorded too.
    assert run(capsys, swiss, "competition", "settings", "--set", "excused_points=1")[0] == 0
    code, out, _ = run(capsys, swiss, "log", "--format", "json")
    assert json.loads(out)[0]["summary"].endswith("; not the FIDE rules: a requested bye is worth 1")
    assert run(capsys, swiss, "pair")[0] == 0
    assert run(capsys, swiss, "result", "1=1-0", "2=½-½")[0] == 0
    code, trf, _ = run(capsys, swiss, "export", "--format", "trf")
    assert [l for l in trf.splitlines() if l.startswith("###")] == [
        "### FIDE mode: no, not FIDE rules since round 1",
        "### round 1: not FIDE rules: the pairing-allocated bye is worth 1/2",
        "### round 1: not FIDE rules: a requested bye is worth 1"]


def test_a_fide_swiss_says_so_in_its_trf_and_keeps_fide_values_freely(swiss, capsys):
    assert run(capsys, swiss, "competition", "settings", "--set", "bye_points=1", "--set", "tiebreaks=BH,SB")[0] == 0
    assert run(capsys, swiss, "pair")[0] == 0
    assert run(capsys, swiss, "result", "1=1-0", "2=0-1")[0] == 0
    code, trf, _ = run(capsys, swiss, "export", "--format", "trf")
    assert [l for l in trf.splitlines() if l.startswith("###")] == ["### FIDE mode: yes"]
    # Tie-breaks changed after round 1: refused, the file as it was.
    bad(capsys, swiss, "competition", "settings", "--set", "tiebreaks=SB,BH", match="the tie-breaks changed after round 1")
    assert _stored(swiss)["fide"] is True


def test_a_swap_is_refused_in_fide_mode_until_confirmed(swiss, capsys):
    assert run(capsys, swiss, "pair")[0] == 0
    code, out, _ = run(capsys, swiss, "pairings", "--format", "json")
    pairs = json.loads(out)["pairs"]
    a, b = pairs[0]["white"], pairs[1]["black"]
    line = bad(capsys, swiss, "swap", a, b, match="--leave-fide-rules")
    assert "a pairing changed by hand in round 1" in line
    code, out, err = run(capsys, swiss, "swap", a, b, "--leave-fide-rules", "--yes")
    assert code == 0 and f"round 1: swapped {a} and {b}" in out
    assert _stored(swiss)["left_fide"] == [{"round": 1, "what": "swap", "value": "1"}]
    code, out, _ = run(capsys, swiss, "log", "--format", "json")
    assert json.loads(out)[0]["summary"] == \
        f"Open: swap {a} and {b}; left the FIDE rules: a pairing changed by hand in round 1"


def test_a_round_robin_s_tie_breaks_are_free_until_its_first_result(tmp_path, capsys):
    db = _club(tmp_path, capsys, "--system", "roundrobin")
    assert run(capsys, db, "roundrobin", "draw")[0] == 0
    assert run(capsys, db, "competition", "settings", "--set", "tiebreaks=SB,WIN")[0] == 0  # drawn, not begun
    assert run(capsys, db, "result", "1=1-0")[0] == 0
    bad(capsys, db, "competition", "settings", "--set", "lots=5", match="drawing of lots")
    assert run(capsys, db, "competition", "settings", "--set", "lots=5", "--leave-fide-rules", "-y")[0] == 0
    code, trf, _ = run(capsys, db, "export", "--format", "trf")
    assert "### FIDE mode: no, not FIDE rules since round 1" in trf.splitlines()


# -- the app -------------------------------------------------------------------------------------


@pytest.fixture
def app_swiss(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    code, _, err = run(capsys, db, "competition", "create", "Open", "--system", "swiss", "--rounds", "5",
                       "--all-members")
    assert code == 0, err
    comp_id = max(c["id"] for c in Store.open(db).competitions())
    assert run(capsys, db, "-c", str(comp_id), "pair")[0] == 0
    return app, db, comp_id


def test_the_app_refuses_then_asks_then_leaves(app_swiss, capsys, tmp_path):
    app, db, comp_id = app_swiss
    client = client_with_csrf(app)
    assert "FIDE rules" == text(client.get(f"/c/{comp_id}/pairing")).split("round 1 ", 1)[1][:10]
    before = digest(db)
    page = post(client, f"/c/{comp_id}/settings", {"s-bye_points": "1/2"})
    assert digest(db) == before
    shown = text(page)
    assert ("error: the competition is in FIDE mode, and this leaves the FIDE rules: the pairing-allocated bye is "
            "worth 1/2; to leave them for good, tick the box below and confirm") in shown
    body = page.get_data(as_text=True)
    form = re.search(r'<form method="post" action="([^"]+)" class="flashes leave-fide".*?</form>', body, re.S)
    assert form and form.group(1) == f"/c/{comp_id}/settings"
    assert 'name="s-bye_points" value="1/2"' in form.group(0) and 'name="leave_fide" required' in form.group(0)
    # Sent without the box ticked (a browser would not let it): refused again, nothing written.
    page = post(client, f"/c/{comp_id}/settings", {"s-bye_points": "1/2"})
    assert digest(db) == before and "leave-fide" in page.get_data(as_text=True)
    # Ticked: the change is made, out of FIDE mode for good.
    page = post(client, f"/c/{comp_id}/settings", {"s-bye_points": "1/2", "leave_fide": "on"})
    assert "leave-fide" not in page.get_data(as_text=True) and digest(db) != before
    assert _stored(db)["fide"] is False
    line = "Not FIDE rules since round 1: the pairing-allocated bye is worth 1/2"
    for url in (f"/c/{comp_id}/pairing", f"/c/{comp_id}/standings", f"/c/{comp_id}/print/pairings",
                f"/c/{comp_id}/print/standings"):
        assert line in text(client.get(url)), url
    assert "left the FIDE rules: the pairing-allocated bye is worth 1/2" in text(client.get("/log"))


def test_the_app_s_swap_and_create_follow_the_cli(app_swiss, capsys, tmp_path):
    app, db, comp_id = app_swiss
    client = client_with_csrf(app)
    code, out, _ = run(capsys, db, "-c", str(comp_id), "pairings", "--format", "json")
    pairs = json.loads(out)["pairs"]
    a, b = pairs[0]["white"], pairs[1]["black"]
    keys = {p["name"]: p["key"] for p in Store.open(db).players(comp_id)}
    before = digest(db)
    cli_line = bad(capsys, db, "-c", str(comp_id), "swap", a, b, match="FIDE mode")
    page = post(client, f"/c/{comp_id}/pairing/swap", {"a": keys[a], "b": keys[b]})
    assert digest(db) == before
    assert app_hints(cli_line) in text(page)
    page = post(client, f"/c/{comp_id}/pairing/swap", {"a": keys[a], "b": keys[b], "leave_fide": "on"})
    assert f"swapped {a} and {b}" in text(page)
    assert "Not FIDE rules since round 1: a pairing changed by hand in round 1" in text(client.get(f"/c/{comp_id}/pairing"))
    # Creating: the Rules box.
    before = digest(db)
    page = post(client, "/competitions/create", {"system": "swiss", "name": "Blitz", "rounds": "5", "bye_points": "½",
                                                 "fide_mode": "fide"})
    assert digest(db) == before and "not the FIDE rules, which FIDE mode: the FIDE rules keeps" in text(page)
    post(client, "/competitions/create", {"system": "roundrobin", "name": "Group", "fide_mode": "club"})
    assert _stored(db)["fide"] is False


def test_a_dutch_club_sees_the_mode_in_dutch(app_swiss, capsys):
    app, db, comp_id = app_swiss
    assert run(capsys, db, "club", "--language", "nl")[0] == 0
    client = client_with_csrf(app)
    assert "FIDE-regels" in text(client.get(f"/c/{comp_id}/pairing"))
    post(client, f"/c/{comp_id}/settings", {"s-excused_points": "1", "leave_fide": "on"})
    assert "Niet de FIDE-regels sinds ronde 1: een gevraagde bye is 1 waard" in text(client.get(f"/c/{comp_id}/standings"))


def test_the_site_shows_the_mode(app_swiss, capsys, tmp_path):
    app, db, comp_id = app_swiss
    site = tmp_path / "site"
    code, _, err = run(capsys, db, "publish", str(site))
    assert code == 0, err
    pages = [p for p in site.rglob("*.html") if "round-1" in p.name or p.name == "index.html"]
    shown = [p for p in pages if "FIDE rules" in p.read_text("utf-8")]
    assert any(p.name == "index.html" for p in shown) and any("round" in p.name for p in shown), pages


def test_a_late_entry_that_moves_pairing_numbers_after_round_4(tmp_path, capsys):
    db = _club(tmp_path, capsys, "--system", "swiss", "--rounds", "6")
    assert run(capsys, db, "member", "add", "Gus Grof", "--rating", "2300")[0] == 0
    assert run(capsys, db, "member", "add", "Hal Hek", "--rating", "1000")[0] == 0
    assert run(capsys, db, "member", "add", "Ivo Ijs", "--rating", "2400")[0] == 0
    for n in range(1, 5):
        assert run(capsys, db, "pair")[0] == 0, n
        code, out, _ = run(capsys, db, "pairings", "--format", "json")
        boards = len(json.loads(out)["pairs"])
        assert run(capsys, db, "result", *(f"{b}=½-½" for b in range(1, boards + 1)))[0] == 0
        if n == 3:  # before round 4 is paired numbers may still be reassigned (C.04.2)
            assert run(capsys, db, "player", "add", "Ivo Ijs")[0] == 0
    assert _stored(db)["fide"] is True
    # Round 4 is paired: an entrant placed last moves nobody; one placed above the others does.
    assert run(capsys, db, "player", "add", "Hal Hek")[0] == 0
    line = bad(capsys, db, "player", "add", "Gus Grof", match="--leave-fide-rules")
    assert "pairing numbers reassigned after round 4 was paired (a late entry in round 5)" in line
    assert run(capsys, db, "player", "add", "Gus Grof", "--leave-fide-rules", "--yes")[0] == 0
    assert _stored(db)["left_fide"] == [{"round": 5, "what": "numbers", "value": "5"}]


def test_an_imported_swiss_gets_the_mode_its_file_says(swiss, tmp_path, capsys):
    """A Swiss imported from a TRF file is in the mode its ``###`` lines say (keizer writes them),
    departures and their rounds included; a file without them gets a new Swiss's default: FIDE
    mode when its settings are FIDE's (not when its 162 record makes a requested bye worth 1)."""
    assert run(capsys, swiss, "pair")[0] == 0
    assert run(capsys, swiss, "result", "1=1-0", "2=½-½")[0] == 0
    marked_yes, marked_no, unmarked = tmp_path / "a.trf", tmp_path / "b.trf", tmp_path / "c.trf"
    marked_yes.write_text(run(capsys, swiss, "export", "--format", "trf")[1])
    assert "### FIDE mode: yes" in marked_yes.read_text()
    assert run(capsys, swiss, "competition", "settings", "--set", "excused_points=1", "--leave-fide-rules",
               "--yes")[0] == 0
    marked_no.write_text(run(capsys, swiss, "export", "--format", "trf")[1])
    unmarked.write_text("".join(line for line in marked_no.read_text().splitlines(keepends=True)
                                if not line.startswith("### ")))
    departures = _stored(swiss)["left_fide"]
    assert departures == [{"round": 2, "what": "excused_points", "value": "1"}]   # changed once round 1 was paired
    for path, expected in ((marked_yes, {"fide": True}), (marked_no, {"fide": False, "left_fide": departures}),
                           (unmarked, {"fide": False, "left_fide": [{**departures[0], "round": 1}]})):
        db = tmp_path / f"{path.stem}.db"
        code, _, err = run(capsys, db, "import", str(path))
        assert code == 0, err
        assert {k: _stored(db).get(k) for k in expected} == expected, path.stem
    assert [line for line in run(capsys, tmp_path / "b.db", "export", "--format", "trf")[1].splitlines()
            if line.startswith("###")] == ["### FIDE mode: no, not FIDE rules since round 2",
                                           "### round 2: not FIDE rules: a requested bye is worth 1"]
    # The generator's file: FIDE settings, no marking.
    plain = tmp_path / "g.trf"
    assert run(capsys, tmp_path / "unused.db", "trf", "generate", "--players", "8", "--rounds", "3", "--seed", "1",
               "-o", str(plain))[0] == 0
    assert "### FIDE mode" not in plain.read_text()
    assert run(capsys, tmp_path / "g.db", "import", str(plain))[0] == 0
    assert _stored(tmp_path / "g.db")["fide"] is True
