"""The results grid (``/c/<id>/results``): a plain form and one board at a time (JSON),
the same operation and messages as ``keizer result``."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from keizer.operations import accounts
from keizer.store import Store
from test_cli import run
from web_helpers import SAMPLE, TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

ROUND_ROBIN = 3  # "Meerkamp A": round 5 paired, 0 of 3 results in
JSON = {"X-Requested-With": "keizer"}


def cli_copy(tmp_path: Path) -> Path:
    db = tmp_path / "cli.db"
    shutil.copy(SAMPLE, db)
    return db


def standings_json(capsys, db: Path, comp: int = ROUND_ROBIN) -> list:
    code, out, err = run(capsys, db, "-c", str(comp), "standings", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def pairings_json(capsys, db: Path, round_no: int, comp: int = ROUND_ROBIN) -> dict:
    code, out, err = run(capsys, db, "-c", str(comp), "pairings", "--round", str(round_no), "--format", "json")
    assert code == 0, err
    return json.loads(out)


def cli_error(capsys, db: Path, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code != 0, out
    return err.strip()


def json_post(client, url: str, data: dict):
    return client.post(url, data={"csrf": TOKEN, **data}, headers=JSON)


@pytest.mark.parametrize("comp", [1, 2, 3, 4])
def test_the_results_page_renders_for_every_system(tmp_path, comp):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get(f"/c/{comp}/results")
    assert page.status_code == 200
    if comp == 4:  # a cup enters its results on its own page
        assert "/c/4/cup" in page.get_data(as_text=True)
    else:
        assert 'id="results-form"' in page.get_data(as_text=True)


def test_the_grid_shows_the_open_round_with_its_boards(tmp_path):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get(f"/c/{ROUND_ROBIN}/results")
    body = page.get_data(as_text=True)
    assert "Round 5" in text(page) and "boards still open: 1, 2, 3" in text(page)
    assert [int(b) for b in re.findall(r'name="r(\d+)"', body)] == [1, 2, 3]
    assert "results.js" in body and "X-Requested-With" not in body  # the script is a file (CSP)
    # An earlier round on request, its results in the boxes.
    earlier = app.test_client().get(f"/c/{ROUND_ROBIN}/results?round=4").get_data(as_text=True)
    assert re.findall(r'name="r\d+" id="r\d+" value="([^"]*)"', earlier) == [
        {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}.get(p["result"], p["result"])
        for p in pairings_json_sample(4)["pairs"]]


def pairings_json_sample(round_no: int) -> dict:
    store = Store.open(SAMPLE)
    try:
        season = store.load_season(ROUND_ROBIN)
    finally:
        store.close()
    return {"pairs": [{"result": g.result.value if g.result else ""} for g in season.rounds[round_no - 1].games]}


def test_the_form_and_the_json_endpoint_give_what_the_cli_gives(tmp_path, capsys):
    cli_db = cli_copy(tmp_path)
    code, out, err = run(capsys, cli_db, "-c", "3", "result", "1=1-0", "2=1/2-1/2", "3=0-1")
    assert code == 0, err
    assert out.strip() == "round 5: 3 results entered; round complete"
    expected = standings_json(capsys, cli_db)

    # The whole grid as one plain form (no JavaScript): one key per board.
    (tmp_path / "form").mkdir()
    app, form_db = sample_app(tmp_path / "form")
    client = client_with_csrf(app)
    page = post(client, f"/c/{ROUND_ROBIN}/results",
                {"round": "5", "r1": "1", "was1": "", "r2": "=", "was2": "", "r3": "0", "was3": ""})
    assert page.status_code == 200
    assert "round 5: 3 results entered; round complete" in text(page)
    assert "Standing after round 5" in text(page)  # the standing under the grid counts the new round
    assert standings_json(capsys, form_db) == expected
    assert pairings_json(capsys, form_db, 5) == pairings_json(capsys, cli_db, 5)

    # One board at a time, as results.js posts them, with JSON replies.
    (tmp_path / "json").mkdir()
    app, json_db = sample_app(tmp_path / "json")
    client = client_with_csrf(app)
    replies = [json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", f"r{b}": typed, f"was{b}": ""})
               for b, typed in ((1, "1"), (2, "½"), (3, "0"))]
    assert [r.status_code for r in replies] == [200, 200, 200]
    assert [r.get_json()["ok"] for r in replies] == [
        "round 5: 1 result entered; boards still open: 2, 3",
        "round 5: 1 result entered; boards still open: 3",
        "round 5: 1 result entered; round complete"]
    assert replies[-1].get_json()["results"] == {"1": "1-0", "2": "½-½", "3": "0-1"}
    assert standings_json(capsys, json_db) == expected
    assert pairings_json(capsys, json_db, 5) == pairings_json(capsys, cli_db, 5)
    # The standing fragment the script reloads after each save.
    fragment = client.get(f"/c/{ROUND_ROBIN}/standings?part=table&provisional=1", headers=JSON)
    assert fragment.status_code == 200 and "Standing after round 5" in text(fragment)
    assert "<html" not in fragment.get_data(as_text=True)


def _points_of(fragment) -> dict[str, str]:
    """Name → points of the standing fragment's rows."""
    rows = re.findall(r'<a href="[^"]*">([^<]+)</a></td>\s*<td class="num">([^<]+)</td>', fragment.get_data(as_text=True))
    return {html.unescape(name): points for name, points in rows}


def test_the_standing_beside_the_grid_counts_each_result_as_it_arrives(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    url = f"/c/{ROUND_ROBIN}/standings?part=table&provisional=1"
    before = client.get(url)
    assert "Provisional standing: round 5 with 0 of 3 results in" in text(before)
    after_4 = {r["name"]: r["points"] for r in standings_json(capsys, db)}
    assert {name: float(p.replace(",", ".").replace("½", ".5")) for name, p in _points_of(before).items()} == after_4
    white = pairings_json(capsys, db, 5)["pairs"][0]["white"]
    json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": "1", "was1": ""})
    one_in = client.get(url)
    assert "Provisional standing: round 5 with 1 of 3 results in" in text(one_in)
    points = {name: float(p.replace(",", ".").replace("½", ".5")) for name, p in _points_of(one_in).items()}
    assert points[white] == after_4[white] + 1
    assert {n: v for n, v in points.items() if n != white} == {n: v for n, v in after_4.items() if n != white}
    # The CLI shows the same provisional standing; the final standing is still round 4's.
    code, out, err = run(capsys, db, "-c", "3", "standings", "--provisional", "--format", "json")
    assert code == 0, err
    assert {r["name"]: r["points"] for r in json.loads(out)} == points
    assert {r["name"]: r["points"] for r in standings_json(capsys, db)} == after_4
    # The standings page says a round is being played and links the provisional standing.
    page = client.get(f"/c/{ROUND_ROBIN}/standings")
    assert "Round 5 is being played: the provisional standing (1 of 3 results in)" in text(page)
    assert "Standing after round 4" in text(page)


def test_every_one_key_notation_and_the_cli_notations(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    for typed, stored in (("+", "+-"), ("-", "-+"), ("--", "--"), ("1-0", "1-0"), ("½", "1/2-1/2"),
                          ("0", "0-1"), ("=", "1/2-1/2")):
        shown = json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": "", "was1": ""})
        assert shown.get_json()["ok"] == "round 5: nothing changed"
        reply = json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": typed, "was1": ""})
        assert reply.status_code == 200, reply.get_json()
        assert pairings_json(capsys, db, 5)["pairs"][0]["result"] == stored
        # Emptying the box clears the result (as 'keizer result 1=clear').
        was = reply.get_json()["results"]["1"]
        cleared = json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": "", "was1": was})
        assert cleared.status_code == 200, cleared.get_json()
        assert pairings_json(capsys, db, 5)["pairs"][0]["result"] is None


def test_a_correction_of_an_earlier_round_warns_as_the_cli_does(tmp_path, capsys):
    cli_db = cli_copy(tmp_path)
    before = pairings_json(capsys, cli_db, 4)["pairs"][0]["result"]
    other = "0-1" if before != "0-1" else "1-0"
    code, out, err = run(capsys, cli_db, "-c", "3", "result", "--round", "4", "--correct", f"1={other}")
    assert code == 0, err
    warning = err.strip()
    assert warning.startswith("warning: round 5 was paired before this correction")
    # the app says the CLI's warning with its own way to re-pair instead of the command
    warning = warning.replace("re-pair an unplayed round with 'keizer pair --again'",
                              "a round not played yet can be paired again on the Pairing page")
    assert "keizer pair" not in warning

    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    shown = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}.get(before, before)
    page = post(client, f"/c/{ROUND_ROBIN}/results", {"round": "4", "r1": other[0], "was1": shown})
    assert page.status_code == 200
    assert re.search(r'class="flash warning">([^<]*)<', page.get_data(as_text=True))[1].replace("&#39;", "'") \
        == warning
    assert out.strip() in text(page)
    assert standings_json(capsys, db) == standings_json(capsys, cli_db)
    # The JSON reply carries the same warning.
    (tmp_path / "j").mkdir()
    app, _ = sample_app(tmp_path / "j")
    reply = json_post(client_with_csrf(app), f"/c/{ROUND_ROBIN}/results",
                      {"round": "4", "r1": other[0], "was1": shown}).get_json()
    assert reply["warning"] == warning


@pytest.mark.parametrize("fields, cli_args", [
    ({"r3": "x"}, ["3=x"]),                 # a bad notation
    ({"r9": "1"}, ["9=1-0"]),               # a board that does not exist
])
def test_refusals_show_the_cli_message_and_change_nothing(tmp_path, capsys, fields, cli_args):
    cli_db = cli_copy(tmp_path)
    message = cli_error(capsys, cli_db, "-c", "3", "result", *cli_args)
    assert message.startswith("error: ") and "\n" not in message
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    was = {f"was{k[1:]}": "" for k in fields}
    before = digest(db)
    page = post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": "1", "was1": "", **fields, **was})
    assert message in text(page)
    assert digest(db) == before  # board 1's result went back with the refusal: one transaction
    reply = json_post(client, f"/c/{ROUND_ROBIN}/results", {"round": "5", **fields, **was})
    # The grid's script gets the refusal as an answer, not as a failed request (no console error).
    assert reply.status_code == 200 and reply.get_json() == {"error": message}
    assert digest(db) == before


def test_a_result_entered_meanwhile_is_not_overwritten(tmp_path, capsys):
    """The grid showed board 1 empty; someone entered it since: a new result there is
    refused as 'keizer result' without --correct refuses it."""
    app, db = sample_app(tmp_path)
    code, _, err = run(capsys, db, "-c", "3", "result", "1=0-1")
    assert code == 0, err
    before = digest(db)
    reply = json_post(client_with_csrf(app), f"/c/{ROUND_ROBIN}/results", {"round": "5", "r1": "1", "was1": ""})
    assert reply.status_code == 200
    # The CLI's "use --correct to change it", as the app says it.
    assert reply.get_json()["error"] == ("error: board 1 of round 5 already has 0-1: it was entered meanwhile; "
                                         "reload the page to see it and change it there")
    assert digest(db) == before


def test_a_round_without_pairing_and_a_bad_round_are_refused(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    assert "round 9 has no pairing" in text(client.get(f"/c/{ROUND_ROBIN}/results?round=9"))
    page = post(client, f"/c/{ROUND_ROBIN}/results", {"round": "9", "r1": "1", "was1": ""})
    assert "error: round 9 has no pairing; pair it on the Pairing page first" in text(page)
    assert digest(db) == before


def test_without_the_csrf_token_nothing_is_entered(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = client.post(f"/c/{ROUND_ROBIN}/results", data={"round": "5", "r1": "1", "was1": ""}, headers=JSON)
    assert page.status_code == 400
    assert digest(db) == before


def test_an_arbiter_may_enter_results(tmp_path, capsys):
    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        accounts.add_user(store, "anna", "officer", "correct horse battery")
        accounts.add_user(store, "bob", "arbiter", "correct horse battery")
    store.close()
    client = client_with_csrf(app)
    assert client.get(f"/c/{ROUND_ROBIN}/results").status_code == 303  # a login first
    post(client, "/login", {"name": "bob", "password": "correct horse battery"})
    assert client.get(f"/c/{ROUND_ROBIN}/results").status_code == 200
    page = post(client, f"/c/{ROUND_ROBIN}/results", {"csrf": _token(client), "round": "5", "r2": "=", "was2": ""})
    assert "round 5: 1 result entered; boards still open: 1, 3" in text(page)
    assert pairings_json(capsys, db, 5)["pairs"][1]["result"] == "1/2-1/2"
    code, out, _ = run(capsys, db, "log")
    assert "bob (arbiter)" in out


def _token(client) -> str:
    with client.session_transaction() as session:
        return session["csrf"]


def test_names_with_markup_are_shown_as_text_in_the_grid(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    evil = "<script>alert('x')</script> \"Q\" 🐴"
    white = pairings_json(capsys, db, 5)["pairs"][0]["white"]
    code, _, err = run(capsys, db, "member", "edit", white, "--name", evil)
    assert code == 0, err
    body = app.test_client().get(f"/c/{ROUND_ROBIN}/results").get_data(as_text=True)
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &#34;Q&#34; 🐴" in body
