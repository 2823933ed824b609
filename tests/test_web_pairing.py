"""The pairing page (``/c/<id>/pairing``): a proposal that writes nothing (``keizer pair --dry-run
--explain``), storing it (``keizer pair``), fixed pairs and the bye, swap, re-pair keeping boards,
unpair, forbidden pairs; refusals as the CLI's one line with the file unchanged."""

from __future__ import annotations

import html
import json
import re

from keizer.operations import accounts
from keizer.store import Store
from test_cli import run
from test_web_attendance import PASSWORD, cli, cli_error, keys, twin
from web_helpers import app_hints, client_with_csrf, digest, hashed_once, post, sample_app, text


def pairings(capsys, db, comp: int = 1, *more: str) -> dict:
    return json.loads(cli(capsys, db, "-c", str(comp), "pairings", "--format", "json", *more))


def hidden_fields(page, action: str) -> dict[str, list[str]]:
    """The hidden fields of the page's form posting to ``action``, as a browser sends them."""
    body = page.get_data(as_text=True)
    form = body[body.index(f'action="{action}"'):]
    form = form[:form.index("</form>")]
    found: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)"', form):
        found.setdefault(html.unescape(name), []).append(html.unescape(value))
    return found


def test_every_page_renders(tmp_path):
    app, _ = sample_app(tmp_path)
    client = app.test_client()
    keizer = client.get("/c/1/pairing")
    assert keizer.status_code == 200
    assert "Pair round 31" in text(keizer) and "Propose pairing" in text(keizer)
    assert "Round 30" in text(keizer)  # the last paired round's list below
    swiss = client.get("/c/2/pairing")
    assert swiss.status_code == 200
    assert "all 5 rounds are paired" in text(swiss)
    assert "Bram Jacobs" in text(swiss) and "Bye: Sjoerd van 't Hof" in text(swiss)
    rr = client.get("/c/3/pairing")
    assert rr.status_code == 200 and "Berger table" in text(rr) and "Łukasz Wójcik" in text(rr)
    assert "Unpair" not in text(rr) and "Propose" not in text(rr)
    for comp in (1, 2, 3):
        page = client.get(f"/c/{comp}/pairing?round=2")
        assert page.status_code == 200 and "Round 2" in text(page)
    assert client.get("/c/1/pairing?round=31").status_code == 400  # not paired yet
    assert client.get("/c/4/pairing").status_code == 400


def test_the_pairing_list_shows_numbers_and_points_as_keizer_pairings(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    listing = pairings(capsys, db, 2)
    page = text(app.test_client().get("/c/2/pairing"))
    first = listing["pairs"][0]
    assert f"1 {first['white_no']} {first['white']} {first['white_points']} {first['result']}" in page
    listing = pairings(capsys, db, 3)
    first = listing["pairs"][0]
    page = text(app.test_client().get("/c/3/pairing"))
    assert f"1 {first['white_no']} {first['white']} {first['white_points']}" in page


def test_a_proposal_writes_nothing_and_storing_it_equals_keizer_pair(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/c/1/pairing/propose", {})
    assert page.status_code == 200 and digest(db) == before
    dry = json.loads(cli(capsys, other, "-c", "1", "pair", "--dry-run", "--explain", "--format", "json"))
    shown = text(page)
    assert "Proposed pairing of round 31" in shown and "not stored yet" in shown
    names = {k: name for name, k in keys(db, 1).items()}
    # Each board with both players' rank and value in the standing before the round, and its
    # reason as --explain says it.
    ranked = {r["id"]: r for r in json.loads(cli(capsys, other, "-c", "1", "standings", "--format", "json"))}
    for pair in dry["pairs"]:
        w, b = ranked[pair["white"]], ranked[pair["black"]]
        assert (f"{pair['board']} {w['rank']} {names[pair['white']]} {w['value']} {b['value']} "
                f"{names[pair['black']]} {b['rank']} {pair['reason']}") in shown
        # The reasons name each player with the rank the list shows (the standing's).
        for name, rank in re.findall(r"([^;:,()]+?) \((\d+)\)", pair["reason"]):
            found = [r for r in ranked.values() if r["name"] == name.strip().removeprefix("nor ").removeprefix("next nearest ")]
            if found:
                assert int(rank) == found[0]["rank"], (name, pair["reason"])
    if dry["bye"]:
        assert f"Bye: {names[dry['bye']]}" in shown
    for line in dry["bent"]:
        assert line in shown
    # Store it: the same boards as 'keizer pair' on the other copy.
    form = hidden_fields(page, "/c/1/pairing/store")
    assert form["back"] == ["/c/1/pairing/propose"]  # comes back to the pairing page
    page = post(client, "/c/1/pairing/store", form)
    cli(capsys, other, "-c", "1", "pair")
    assert page.request.path == "/c/1/pairing"
    assert "round 31 paired" in text(page) and "differs" not in text(page)
    assert pairings(capsys, db) == pairings(capsys, other)
    assert "Swap the two players" in text(page) and "Unpair round 31" in text(page)
    # Pairing twice is refused as on the CLI, and changes nothing.
    paired = digest(db)
    page = post(client, "/c/1/pairing/store", form)  # the proposal's form sent a second time
    assert app_hints(cli_error(capsys, other, "-c", "1", "pair")) in text(page) and page.request.path == "/c/1/pairing"
    page = post(client, "/c/1/pairing/propose", {})
    assert app_hints(cli_error(capsys, other, "-c", "1", "pair", "--dry-run")) in text(page)
    assert digest(db) == paired


def test_fixed_pairs_and_the_bye_as_pair_fix_and_bye(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "1", "attend", "-e", "Anouk Jansen")  # 29 present: someone has the bye
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    options = {"fix_white": [key["Ingrid Müller"], key["Gert de Groot"]],
               "fix_black": [key["Chloë O'Brien"], key["Jan Smits"]], "bye": key["Usha Dijkstra"]}
    before = digest(db)
    page = post(client, "/c/1/pairing/propose", options)
    assert digest(db) == before
    shown = text(page)
    # board, White's rank, White, White's value, Black's value, Black, Black's rank
    assert re.search(r"\d+ \d+ Ingrid Müller \d+ \d+ Chloë O'Brien \d+", shown)
    assert re.search(r"\d+ \d+ Gert de Groot \d+ \d+ Jan Smits \d+", shown)
    assert "Bye: Usha Dijkstra" in shown
    form = hidden_fields(page, "/c/1/pairing/store")
    assert form["fix_white"] == options["fix_white"] and form["bye"] == [options["bye"]]
    page = post(client, "/c/1/pairing/store", form)
    cli(capsys, other, "-c", "1", "pair", "--fix", "Ingrid Müller", "Chloë O'Brien", "--fix", "Gert de Groot",
        "Jan Smits", "--bye", "Usha Dijkstra")
    assert pairings(capsys, db) == pairings(capsys, other)
    assert "bye: Usha Dijkstra" in text(page)
    # Half a pair is a message.
    page = post(client, "/c/1/pairing/propose", {"fix_white": [key["Ingrid Müller"]], "fix_black": [""]})
    assert "a fixed pair needs both players" in text(page)


def test_swap_repair_keeping_boards_and_unpair(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "1", "pair")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    listing = pairings(capsys, db)
    a, b = listing["pairs"][0]["white"], listing["pairs"][1]["black"]
    key = keys(db, 1)
    page = post(client, "/c/1/pairing/swap", {"a": key[a], "b": key[b]})
    code, out, err = run(capsys, other, "-c", "1", "swap", a, b)
    assert code == 0 and f"round 31: swapped {a} and {b}" in text(page)
    for line in err.splitlines():  # warnings: a rematch, a forbidden pair
        assert line.strip() in text(page)
    assert pairings(capsys, db) == pairings(capsys, other)
    # Re-pair the rest, keeping boards 1 and 3.
    page = post(client, "/c/1/pairing/again", {"keep": ["1", "3"]})
    cli(capsys, other, "-c", "1", "pair", "--again", "--keep", "1", "--keep", "3")
    assert "round 31 paired" in text(page)
    assert pairings(capsys, db) == pairings(capsys, other)
    body = client.get("/c/1/pairing").get_data(as_text=True)
    assert 'data-confirm="' in body and 'name="keep" value="1" form="pair-again"' in body
    # Unpair: both are back to present, nothing paired.
    page = post(client, "/c/1/pairing/unpair")
    said = cli(capsys, other, "-c", "1", "unpair").strip()
    assert said in text(page)
    assert cli(capsys, db, "-c", "1", "attendance", "--format", "json") == \
        cli(capsys, other, "-c", "1", "attendance", "--format", "json")
    assert "Pair round 31" in text(client.get("/c/1/pairing"))


def test_unpair_after_results_and_other_refusals(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "1", "pair")
    cli(capsys, db, "-c", "1", "result", "1=1-0")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/c/1/pairing/unpair")
    assert app_hints(cli_error(capsys, other, "-c", "1", "unpair")) in text(page)
    page = post(client, "/c/1/pairing/again", {})
    assert app_hints(cli_error(capsys, other, "-c", "1", "pair", "--again")) in text(page)
    page = post(client, "/c/1/pairing/swap", {"a": "nobody", "b": "m1"})
    assert app_hints(cli_error(capsys, other, "-c", "1", "swap", "nobody", "m1")) in text(page)
    page = post(client, "/c/1/pairing/again", {"keep": ["99"]})
    assert "error:" in text(page)
    page = post(client, "/c/3/pairing/unpair")  # a round-robin follows its Berger table
    assert app_hints(cli_error(capsys, other, "-c", "3", "unpair")) in text(page)
    page = post(client, "/c/1/pairing/forbid", {"a": "m1", "b": "m1"})
    assert app_hints(cli_error(capsys, other, "-c", "1", "forbid", "m1", "m1")) in text(page)
    assert digest(db) == before
    assert "Results are in" in text(client.get("/c/1/pairing"))


def test_a_closed_competition_is_refused(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "season", "close", "2025-2026")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/c/1/pairing/propose", {})
    message = cli_error(capsys, other, "-c", "1", "pair", "--dry-run")
    assert "closed" in message and app_hints(message) in text(page)
    page = post(client, "/c/1/pairing/store", {})
    assert app_hints(cli_error(capsys, other, "-c", "1", "pair")) in text(page)
    page = post(client, "/c/1/pairing/forbid", {"a": "m1", "b": "m2"})
    assert app_hints(cli_error(capsys, other, "-c", "1", "forbid", "m1", "m2")) in text(page)
    assert digest(db) == before
    page = client.get("/c/1/pairing")
    assert "closed" in text(page) and "Propose pairing" not in text(page)


def test_forbid_a_pair_and_allow_it_again(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    sample = Store.open(db).forbidden_pairs(1)  # the sample forbids one pair already
    page = post(client, "/c/1/pairing/forbid", {"a": key["Ingrid Müller"], "b": key["Jan Smits"]})
    assert "Ingrid Müller – Jan Smits: forbidden" in text(page)
    assert Store.open(db).forbidden_pairs(1) == [*sample, (key["Ingrid Müller"], key["Jan Smits"])]
    assert "Ingrid Müller – Jan Smits allow again" in text(client.get("/c/1/pairing"))
    # A proposal keeps them apart (unless nothing else works).
    shown = text(post(client, "/c/1/pairing/propose", {}))
    assert not re.search(r"\d+ (Ingrid Müller Jan Smits|Jan Smits Ingrid Müller) ", shown)
    page = post(client, "/c/1/pairing/forbid", {"a": key["Ingrid Müller"], "b": key["Jan Smits"], "remove": "on"})
    assert "Ingrid Müller – Jan Smits: allowed again" in text(page)
    assert Store.open(db).forbidden_pairs(1) == sample
    before = digest(db)
    page = post(client, "/c/1/pairing/forbid", {"a": key["Ingrid Müller"], "b": key["Jan Smits"], "remove": "on"})
    assert "error: that pair is not forbidden" in text(page) and digest(db) == before


def test_a_swiss_round_is_proposed_and_stored_as_keizer_pair(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "2", "swiss", "rounds", "6")
    cli(capsys, db, "-c", "2", "attend", "-e", "Femke de Jong")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    page = client.get("/c/2/pairing")
    assert "Propose pairing" in text(page) and "Fix pairs" not in text(page)
    before = digest(db)
    page = post(client, "/c/2/pairing/propose", {})
    assert digest(db) == before and "Proposed pairing of round 6" in text(page)
    assert " against " in text(page)  # the reasons: the scores paired
    page = post(client, "/c/2/pairing/store", hidden_fields(page, "/c/2/pairing/store"))
    cli(capsys, other, "-c", "2", "pair")
    assert "round 6 paired" in text(page) and "differs" not in text(page)
    assert pairings(capsys, db, 2) == pairings(capsys, other, 2)
    # Fixing a pair is the Dutch rules' business: refused as on the CLI.
    cli(capsys, other, "-c", "2", "unpair")
    post(client, "/c/2/pairing/unpair")
    page = post(client, "/c/2/pairing/propose", {"fix_white": ["m3"], "fix_black": ["m9"]})
    assert app_hints(cli_error(capsys, other, "-c", "2", "pair", "--fix", "m3", "m9")) in text(page)


def test_an_arbiter_may_pair(tmp_path, capsys):
    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        accounts.add_user(store, "Bob", "arbiter", PASSWORD)
    store.close()
    client = app.test_client()
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").get_data(as_text=True))[1]
    client.post("/login", data={"name": "Bob", "password": PASSWORD, "csrf": token})
    page = client.get("/c/1/pairing")
    assert page.status_code == 200 and "Bob (arbiter)" in text(page)
    token = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))[1]
    page = client.post("/c/1/pairing/store", data={"csrf": token}, follow_redirects=True)
    assert "round 31 paired" in text(page)
    assert pairings(capsys, db)["round"] == 31
    assert Store.open(db).changes(1)[0]["origin"].startswith("web: Bob (arbiter)")


def test_names_and_reasons_are_text(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    evil = "<script>alert('x')</script> Ingrid \"Ĳ\" Müller 🐴"
    cli(capsys, db, "member", "edit", "Ingrid Müller", "--name", evil)
    client = client_with_csrf(app)
    for page in (client.get("/c/1/pairing"), post(client, "/c/1/pairing/propose", {})):
        body = page.get_data(as_text=True)
        assert "<script>alert" not in body and "&lt;script&gt;alert(" in body
        assert evil in text(page)
    page = post(client, "/c/1/pairing/store", {})
    assert "<script>alert" not in page.get_data(as_text=True) and evil in text(page)


def test_a_pairing_that_differs_from_the_proposal_is_said(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    form = hidden_fields(post(client, "/c/1/pairing/propose", {}), "/c/1/pairing/store")
    cli(capsys, db, "-c", "1", "attend", "-e", "Ingrid Müller")  # meanwhile, on the CLI
    page = post(client, "/c/1/pairing/store", form)
    assert "round 31 paired" in text(page) and "differs from the one proposed" in text(page)


def test_a_round_robin_is_drawn_from_the_pairing_page_as_the_cli_draws_it(tmp_path, capsys):
    """`keizer roundrobin draw`, by lot: the app's draw gives a Berger schedule of every round,
    the number of rounds the CLI would make, and refuses once a result is in."""
    from keizer.store import Store

    app, db = sample_app(tmp_path)
    for name in ("Anna", "Bram", "Cor", "Dirk", "Eva"):
        run(capsys, db, "member", "add", f"{name} <b>Groep</b>")
    code, _, err = run(capsys, db, "competition", "create", "Meerkamp B", "--system", "roundrobin")
    assert code == 0, err
    comp_id = Store.open(db).competition("Meerkamp B")["id"]
    for name in ("Anna", "Bram", "Cor", "Dirk", "Eva"):
        run(capsys, db, "-c", "Meerkamp B", "player", "add", f"{name} <b>Groep</b>")
    client = client_with_csrf(app)
    page = client.get(f"/c/{comp_id}/pairing")
    assert "Draw the numbers by lot" in text(page)
    page = post(client, f"/c/{comp_id}/pairing/draw", {"first_date": "2026-09-01", "every": "14"})
    assert "5 rounds scheduled" in text(page)  # five players: five rounds, one bye each
    store = Store.open(db)
    rounds = store.load_season(comp_id).rounds
    assert [r.date for r in rounds] == ["2026-09-01", "2026-09-15", "2026-09-29", "2026-10-13", "2026-10-27"]
    assert all(len(r.games) == 2 for r in rounds)
    store.close()
    run(capsys, db, "-c", "Meerkamp B", "result", "--round", "1", "1=1-0")
    before = digest(db)
    page = post(client, f"/c/{comp_id}/pairing/draw", {})
    assert "error:" in text(page) and digest(db) == before
    assert "Draw the numbers" not in text(client.get(f"/c/{comp_id}/pairing"))


def test_the_lists_of_fixed_pairs_the_bye_and_forbidden_pairs_offer_only_who_plays(tmp_path, capsys):
    """Issue 20: a player marked absent, withdrawn, or not marked with a member's notice for the
    evening (or absent by default) is not offered; a player not marked and present by default is."""
    app, db = sample_app(tmp_path)
    store = Store.open(db)
    with store.change("test", "round 31 with four marks and a notice"):
        store.delete_round(1, 31)
        store.ensure_round(1, 31, "2026-03-31")
        ids = {r["name"]: r["id"] for r in store.players(1)}
        store.set_attendance(1, 31, ids["Anna Hendriks"], "excused")
        store.set_attendance(1, 31, ids["Bram Jacobs"], "present")
        ingrid = next(m["id"] for m in store.members() if m["name"] == "Ingrid Müller")
        store.add_notice(ingrid, "2026-03-31", "link")
        store.update_player(ids["Jan Smits"], default_attendance="absent")
    store.close()
    body = app.test_client().get("/c/1/pairing").get_data(as_text=True)
    for select in ("fix_white", "fix_black", "bye", "a", "b"):
        options = re.search(rf'<select name="{select}"[^>]*>(.*?)</select>', body, flags=re.S)[1]
        offered = {html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", options)}
        assert {"Bram Jacobs", "José Álvarez"} <= offered, select  # marked present; present by default
        assert not offered & {"Anna Hendriks", "Ingrid Müller", "Jan Smits", "Olga Prins"}, select
