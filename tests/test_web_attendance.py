"""The attendance page (``/c/<id>/attendance``): the same marks as ``keizer attend``, latecomers
(``keizer late``) and no-shows (``keizer noshow``) after the pairing, requested byes ahead in a
Swiss, refusals as the CLI's one line with the file unchanged."""

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
from web_helpers import app_hints, client_with_csrf, digest, hashed_once, post, sample_app, text

PASSWORD = "correct horse battery"


def twin(db: Path, tmp_path: Path) -> Path:
    """A second copy of the app's database, for the CLI to do the same on."""
    other = tmp_path / "cli.db"
    shutil.copy(db, other)
    return other


def cli(capsys, db: Path, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def cli_error(capsys, db: Path, *args: str) -> str:
    """The one line the CLI prints when it refuses (the file is left as it was)."""
    before = digest(db)
    code, _out, err = run(capsys, db, *args)
    assert code != 0 and digest(db) == before
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]



def attendance_json(capsys, db: Path, comp: int, round_no: int | None = None) -> list:
    args = ["-c", str(comp), "attendance", "--format", "json"] + (["--round", str(round_no)] if round_no else [])
    return json.loads(cli(capsys, db, *args))


def keys(db: Path, comp: int) -> dict[str, str]:
    """Player name → key (the form's field names carry the key)."""
    store = Store.open(db)
    try:
        return {r["name"]: r["key"] for r in store.players(comp)}
    finally:
        store.close()


def form_of(page) -> dict[str, str]:
    """What the attendance form submits as the page shows it: each checked radio, each select's choice."""
    body = page.get_data(as_text=True)
    data: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*type=\"radio\"[^>]*>", body):
        if " checked" in tag:
            name = html.unescape(re.search(r'name="([^"]*)"', tag)[1])
            data[name] = html.unescape(re.search(r'value="([^"]*)"', tag)[1])
    for name, options in re.findall(r'<select name="(x-[^"]*)">(.*?)</select>', body, flags=re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', options) or re.search(r'<option value="([^"]*)"', options)
        data[html.unescape(name)] = chosen[1]
    for name, value in re.findall(r'<input type="hidden" name="(wx?-[^"]*)" value="([^"]*)"', body):
        data[html.unescape(name)] = html.unescape(value)  # what the page showed: only taps change a player
    for name in ("round", "was_date", "date"):
        found = re.search(rf'name="{name}" value="([^"]*)"', body)
        if found:
            data[name] = html.unescape(found[1])
    return data


def test_every_page_renders(tmp_path):
    app, _ = sample_app(tmp_path)
    client = app.test_client()
    for comp, expected in ((1, "round 31"), (2, "round 5"), (3, "round 5")):
        page = client.get(f"/c/{comp}/attendance")
        assert page.status_code == 200, comp
        assert expected in text(page)
        assert client.get(f"/c/{comp}/attendance?round=2").status_code == 200
    keizer = client.get("/c/1/attendance")
    body = keizer.get_data(as_text=True)
    assert 'data-filter="#att-players"' in body and 'id="att-players"' in body
    assert body.count('name="a-') >= 5 * 39  # five or six choices per active player
    assert "present 30" in text(keizer) and "excused 8" in text(keizer)  # counts at the top
    assert "default: present" in text(keizer)
    # A round-robin's attendance follows its schedule: shown, not marked.
    rr = client.get("/c/3/attendance")
    assert 'name="a-' not in rr.get_data(as_text=True) and "Berger table" in text(rr)
    # The knock-out cup has no weekly attendance.
    assert client.get("/c/4/attendance").status_code == 400


def test_without_javascript_the_form_is_radio_buttons_and_one_submit(tmp_path):
    app, _ = sample_app(tmp_path)
    body = app.test_client().get("/c/1/attendance").get_data(as_text=True)
    form = body[body.index('<form method="post"'):]
    form = form[:form.index("</form>")]
    assert 'type="radio"' in form and 'name="csrf"' in form and 'type="date"' in form and 'name="force"' in form
    assert "<script" not in body.split("</head>")[1]  # no inline script in the page
    assert ' style="' not in body


def test_marking_attendance_writes_what_keizer_attend_writes(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    sjoerd, chloe = key["Sjoerd van 't Hof"], key["Chloë O'Brien"]
    data = form_of(client.get("/c/1/attendance"))
    assert data["round"] == "31" and data[f"a-{sjoerd}"] == "excused"
    data |= {f"a-{sjoerd}": "present", f"a-{key['Ingrid Müller']}": "club",
             f"a-{chloe}": "external", f"x-{chloe}": "draw",
             f"a-{key['Jan Smits']}": "unexcused", "date": "2026-04-01"}
    page = post(client, "/c/1/attendance", data)
    said = cli(capsys, other, "-c", "1", "attend", "-p", "Sjoerd van 't Hof", "-k", "Ingrid Müller",
               "-x", "Chloë O'Brien=draw", "-u", "Jan Smits", "--date", "2026-04-01").strip()
    assert page.status_code == 200 and said in text(page)  # "round 31: 1 club, 5 excused, …"
    # A withdrawal is its own action (issue 20), asked first: as 'keizer attend -w' / 'player withdraw'.
    page = post(client, "/c/1/attendance/withdraw", {"player": key["Anouk Jansen"], "confirm": "yes"})
    cli(capsys, other, "-c", "1", "player", "withdraw", "Anouk Jansen")
    assert "Anouk Jansen withdrawn after round 30" in text(page)
    assert attendance_json(capsys, db, 1) == attendance_json(capsys, other, 1)
    assert cli(capsys, db, "-c", "1", "player", "list", "--format", "json") == \
        cli(capsys, other, "-c", "1", "player", "list", "--format", "json")
    store = Store.open(db)
    assert store.load_season(1).rounds[30].date == "2026-04-01"
    assert store.changes(2)[1]["summary"] == "Interne competitie 2025-2026: attendance round 31"  # which competition
    store.close()


def test_an_earlier_round_is_corrected_as_attend_round_does(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = attendance_json(capsys, db, 1, 30)
    absent = next(r for r in before if r["status"] in ("excused", "unexcused"))
    page = client.get("/c/1/attendance?round=30")
    body = page.get_data(as_text=True)
    assert 'value="present"' not in body  # a paired round: nobody can be marked present
    new = "club" if absent["status"] != "club" else "excused"
    post(client, "/c/1/attendance", {"round": "30", f"a-{absent['id']}": new})
    cli(capsys, other, "-c", "1", "attend", "--round", "30", f"--{'club' if new == 'club' else 'excused'}", absent["name"])
    assert attendance_json(capsys, db, 1, 30) == attendance_json(capsys, other, 1, 30) != before


def test_a_date_out_of_order_needs_force(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/c/1/attendance", {"round": "31", "date": "2026-01-01"})
    message = cli_error(capsys, other, "-c", "1", "attend", "--date", "2026-01-01")
    assert app_hints(message) in text(page) and "give --force" in message
    assert digest(db) == before
    post(client, "/c/1/attendance", {"round": "31", "date": "2026-01-01", "force": "on"})
    cli(capsys, other, "-c", "1", "attend", "--date", "2026-01-01", "--force")
    assert Store.open(db).load_season(1).rounds[30].date == "2026-01-01"
    # The form sent again unchanged does not ask for --force again.
    data = form_of(client.get("/c/1/attendance"))
    assert data["date"] == data["was_date"] == "2026-01-01"
    assert "error" not in text(post(client, "/c/1/attendance", data))
    assert attendance_json(capsys, db, 1) == attendance_json(capsys, other, 1)


def test_a_swiss_player_asks_ahead_for_a_bye(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "2", "swiss", "rounds", "7")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    page = client.get("/c/2/attendance?round=7")
    assert page.status_code == 200 and "ask for a bye" in text(page)
    body = page.get_data(as_text=True)
    assert 'value="present"' not in body and 'value="excused"' in body
    data = form_of(page)
    assert all(v == "" for k, v in data.items() if k.startswith("a-"))  # nobody marked ahead yet
    key = keys(db, 2)
    data[f"a-{key['Femke de Jong']}"] = "excused"
    page = post(client, "/c/2/attendance", data)
    said = cli(capsys, other, "-c", "2", "attend", "--round", "7", "-e", "Femke de Jong").strip()
    assert said in text(page)
    assert attendance_json(capsys, db, 2, 7) == attendance_json(capsys, other, 2, 7)
    store_web, store_cli = Store.open(db), Store.open(other)
    assert store_web.attendance(2, 7) == store_cli.attendance(2, 7) != {}
    # The next round (6) is a plain form: present is a choice, club duty and external games are not.
    body = client.get("/c/2/attendance").get_data(as_text=True)
    assert 'value="present"' in body and 'value="club"' not in body and 'value="external"' not in body


def test_a_latecomer_and_a_no_show(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli(capsys, db, "-c", "1", "pair")
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    page = client.get("/c/1/attendance")
    body = page.get_data(as_text=True)
    sjoerd = key["Sjoerd van 't Hof"]
    assert f'form="att-late" name="player" value="{sjoerd}"' in body
    assert "No-show" in body
    before = cli(capsys, db, "-c", "1", "pairings", "--format", "json")
    page = post(client, "/c/1/attendance/late", {"player": key["Sjoerd van 't Hof"]})
    said = cli(capsys, other, "-c", "1", "late", "Sjoerd van 't Hof").strip()
    assert said in text(page)
    assert cli(capsys, db, "-c", "1", "pairings", "--format", "json") == \
        cli(capsys, other, "-c", "1", "pairings", "--format", "json") != before
    # A paired player does not come, with notice.
    listing = json.loads(cli(capsys, db, "-c", "1", "pairings", "--format", "json"))
    gone = listing["pairs"][2]["white"]
    page = post(client, "/c/1/attendance/noshow", {"player": key[gone], "why": "excused"})
    code, out, err = run(capsys, other, "-c", "1", "noshow", gone, "--excused")
    assert code == 0 and out.strip() in text(page)
    for line in err.splitlines():  # the rules bent, if any
        assert line.strip() in text(page)
    assert cli(capsys, db, "-c", "1", "pairings", "--format", "json") == \
        cli(capsys, other, "-c", "1", "pairings", "--format", "json")
    assert attendance_json(capsys, db, 1) == attendance_json(capsys, other, 1)
    assert any(r["status"] == "excused" and r["name"] == gone for r in attendance_json(capsys, db, 1))


def test_refusals_give_the_cli_message_and_change_nothing(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/c/1/attendance", {"round": "31", "a-nobody": "present"})
    assert app_hints(cli_error(capsys, other, "-c", "1", "attend", "-p", "nobody")) in text(page)
    page = post(client, "/c/1/attendance", {"round": "31", "a-m1": "excused", "a-m2": "external", "x-m2": "maybe"})
    assert "result must be win, draw or loss" in text(page)
    page = post(client, "/c/1/attendance/late", {"player": "m1"})  # round 31 is not paired yet
    assert app_hints(cli_error(capsys, other, "-c", "1", "late", "m1")) in text(page)
    page = post(client, "/c/1/attendance/noshow", {"player": "m1"})
    assert app_hints(cli_error(capsys, other, "-c", "1", "noshow", "m1")) in text(page)
    page = post(client, "/c/3/attendance", {"round": "5"})  # a round-robin has no attendance to mark
    assert app_hints(cli_error(capsys, other, "-c", "3", "attend")) in text(page)
    page = post(client, "/c/2/attendance", {"round": "6"})  # the Swiss played its five rounds
    assert app_hints(cli_error(capsys, other, "-c", "2", "attend")) in text(page)
    assert digest(db) == before
    # A closed competition is refused as on the CLI.
    cli(capsys, db, "season", "close", "2025-2026")
    cli(capsys, other, "season", "close", "2025-2026")
    closed = digest(db)
    page = post(client, "/c/1/attendance", {"round": "31", "a-m1": "excused"})
    message = cli_error(capsys, other, "-c", "1", "attend", "-e", "m1")
    assert "closed" in message and app_hints(message) in text(page)
    assert digest(db) == closed
    assert "closed" in text(client.get("/c/1/attendance"))


def test_a_form_without_its_token_changes_nothing(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = client.post("/c/1/attendance", data={"round": "31", "a-m1": "present"}, follow_redirects=True)
    assert "expired" in text(page) and digest(db) == before


def test_an_arbiter_may_mark_attendance(tmp_path, capsys):
    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        accounts.add_user(store, "Bob", "arbiter", PASSWORD)
    store.close()
    client = app.test_client()
    assert client.get("/c/1/attendance").status_code == 303  # a login first
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").get_data(as_text=True))[1]
    client.post("/login", data={"name": "Bob", "password": PASSWORD, "csrf": token})
    page = client.get("/c/1/attendance")
    assert page.status_code == 200 and "Bob (arbiter)" in text(page)
    token = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))[1]
    page = client.post("/c/1/attendance", data={"csrf": token, "round": "31", "a-m1": "club"}, follow_redirects=True)
    assert "round 31:" in text(page)
    assert Store.open(db).changes(1)[0]["origin"].startswith("web: Bob (arbiter)")
    assert any(r["id"] == "m1" and r["status"] == "club" for r in attendance_json(capsys, db, 1))


def test_a_name_with_markup_is_text(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    evil = "<script>alert('x')</script> Jan \"Ĳ\" Smits 🐴"
    cli(capsys, db, "member", "edit", "Jan Smits", "--name", evil)
    client = client_with_csrf(app)
    body = client.get("/c/1/attendance").get_data(as_text=True)
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert(" in body
    assert evil in text(client.get("/c/1/attendance"))
    cli(capsys, db, "-c", "1", "pair")
    page = post(client, "/c/1/attendance/noshow", {"player": keys(db, 1)[evil]})
    assert "<script>alert" not in page.get_data(as_text=True) and evil in text(page)


@pytest.mark.parametrize("url", ["/c/1/attendance?round=0", "/c/1/attendance?round=x", "/c/1/attendance?round=40"])
def test_a_round_out_of_reach_is_a_message(tmp_path, url):
    app, _ = sample_app(tmp_path)
    page = app.test_client().get(url)
    assert page.status_code == 400 and "error:" in text(page)


def test_a_page_opened_earlier_changes_only_the_players_tapped(tmp_path, capsys):
    """The page shows round 31; meanwhile a terminal marks Bram excused and Femke present.
    The page, saved with one tap (Anna excused), leaves the terminal's marks as they are."""
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    page = client.get("/c/1/attendance")
    cli(capsys, db, "-c", "1", "attend", "-e", "Bram Jacobs", "-k", "Femke de Jong")
    form = form_of(page)
    form[f"a-{key['Anna Hendriks']}"] = "excused"
    saved = post(client, "/c/1/attendance", form)
    assert saved.status_code == 200
    rows = {r["name"]: r["status"] for r in attendance_json(capsys, db, 1, 31)}
    assert rows["Anna Hendriks"] == "excused"
    assert rows["Bram Jacobs"] == "excused" and rows["Femke de Jong"] == "club"


def test_a_members_notice_is_not_overwritten_by_the_default_the_page_showed(tmp_path, capsys):
    from datetime import date, timedelta

    from test_web_links import member_id, new_link

    app, db = sample_app(tmp_path)
    store = Store.open(db)
    with store.change("test", "round 31 not prepared yet"):
        store.delete_round(1, 31)  # no date, nothing marked: the page shows everyone's default
    store.close()
    officer = client_with_csrf(app)
    soon = (date.today() + timedelta(days=14)).isoformat()
    token = new_link(officer, db, "Ingrid Müller")
    post(client_with_csrf(app), f"/m/{token}", {"date": soon, "action": "absent"})
    assert member_id(db, "Ingrid Müller")
    page = officer.get("/c/1/attendance")
    form = form_of(page)
    assert form[f"a-{keys(db, 1)['Ingrid Müller']}"] == ""  # not marked (issue 20): her default comes at the pairing
    form["date"] = soon
    post(officer, "/c/1/attendance", form)
    assert "notice from the member: excused" in text(officer.get("/c/1/attendance"))
    rows = {r["name"]: r["status"] for r in attendance_json(capsys, db, 1, 31)}
    assert rows["Ingrid Müller"] == rows["Anna Hendriks"] == "not marked yet"
    cli(capsys, db, "-c", "1", "pair")
    rows = {r["name"]: r["status"] for r in attendance_json(capsys, db, 1, 31)}
    assert rows["Ingrid Müller"] == "excused"  # the notice, as 'keizer attend --date' gives
    assert rows["Anna Hendriks"] == "game"


def test_an_external_game_needs_its_result_chosen(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)["Anna Hendriks"]
    form = form_of(client.get("/c/1/attendance"))
    assert form[f"x-{key}"] == ""  # nothing chosen: not silently a win
    form[f"a-{key}"] = "external"
    before = digest(db)
    page = post(client, "/c/1/attendance", form)
    assert "error: choose the result of Anna Hendriks's external game (win, draw or loss)" in text(page)
    assert digest(db) == before
    form[f"x-{key}"] = "draw"
    post(client, "/c/1/attendance", form)
    assert {r["name"]: r["status"] for r in attendance_json(capsys, db, 1, 31)}["Anna Hendriks"] == "external (draw)"


def test_an_arbiter_cannot_withdraw_a_player(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        accounts.add_user(store, "anna", "officer", "correct horse battery")
        accounts.add_user(store, "bob", "arbiter", "correct horse battery")
    store.close()
    client = client_with_csrf(app)
    post(client, "/login", {"name": "bob", "password": "correct horse battery"})
    with client.session_transaction() as session:
        session["csrf"] = "test-csrf-token"
    page = client.get("/c/1/attendance")
    assert page.status_code == 200 and 'value="withdrawn"' not in page.get_data(as_text=True)
    key = keys(db, 1)["Anna Hendriks"]
    before = digest(db)
    refused = post(client, "/c/1/attendance", {"round": "31", f"a-{key}": "withdrawn"})
    assert "error: only an officer may withdraw a player" in text(refused) and digest(db) == before


def test_a_round_without_a_date_is_offered_a_week_after_the_last(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    store = Store.open(db)
    with store.change("test", "round 31 not prepared yet"):
        store.delete_round(1, 31)
    store.close()
    client = client_with_csrf(app)
    form = form_of(client.get("/c/1/attendance"))
    assert form["date"] == "2026-03-31" and form["was_date"] == ""  # round 30 was on 24 March
    post(client, "/c/1/attendance", form)  # saved as offered
    s = Store.open(db)
    assert s.load_season(1).rounds[30].date == "2026-03-31"
    s.close()


def _unprepared(db: Path) -> None:
    store = Store.open(db)
    with store.change("test", "round 31 not prepared yet"):
        store.delete_round(1, 31)
    store.close()


def test_unmarked_players_get_their_default_at_the_pairing_as_keizer_attend_gives_it(tmp_path, capsys):
    """Issue 20: saving the page marks only the players tapped; the others stay unmarked until the
    pairing gives them their default, so the round ends up as 'keizer attend' with the same marks."""
    app, db = sample_app(tmp_path)
    _unprepared(db)
    other = twin(db, tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)
    form = form_of(client.get("/c/1/attendance"))
    assert {v for k, v in form.items() if k.startswith("a-")} == {""}  # nobody marked: every row "Not marked"
    form |= {f"a-{key['Anna Hendriks']}": "excused", f"a-{key['Bram Jacobs']}": "unexcused",
             f"a-{key['Femke de Jong']}": "club", f"a-{key['Jan Smits']}": "external", f"x-{key['Jan Smits']}": "win",
             "date": "2026-03-31"}
    saved = post(client, "/c/1/attendance", form)
    assert "round 31: 1 club, 1 excused, 1 external, 1 unexcused" in text(saved)
    rows = {r["name"]: r["status"] for r in attendance_json(capsys, db, 1, 31)}
    assert rows["Anna Hendriks"] == "excused" and rows["Jan Smits"] == "external (win)"
    unmarked = [name for name, status in rows.items() if status == "not marked yet"]
    assert len(unmarked) == 36 and "Ingrid Müller" in unmarked
    assert "Not marked yet: 36." in text(client.get("/c/1/attendance"))
    code, out, err = run(capsys, db, "-c", "1", "pair")
    assert code == 0 and "36 players not marked for round 31 got their default: 36 of them assumed present" in out + err
    cli(capsys, other, "-c", "1", "attend", "-e", "Anna Hendriks", "-u", "Bram Jacobs", "-k", "Femke de Jong",
        "-x", "Jan Smits=win", "--date", "2026-03-31")
    cli(capsys, other, "-c", "1", "pair")
    assert attendance_json(capsys, db, 1, 31) == attendance_json(capsys, other, 1, 31)
    assert cli(capsys, db, "-c", "1", "pairings", "--format", "json") == \
        cli(capsys, other, "-c", "1", "pairings", "--format", "json")


def test_a_withdrawal_is_its_own_action_and_needs_its_box_ticked(tmp_path):
    """Issue 20: no attendance mark withdraws; the withdrawal form refuses without its box ticked."""
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    key = keys(db, 1)["Anna Hendriks"]
    body = client.get("/c/1/attendance").get_data(as_text=True)
    assert 'value="withdrawn"' not in body and 'action="/c/1/attendance/withdraw"' in body
    before = digest(db)
    refused = post(client, "/c/1/attendance", {"round": "31", f"a-{key}": "withdrawn"})
    assert "error: unknown attendance 'withdrawn'" in text(refused) and digest(db) == before
    refused = post(client, "/c/1/attendance/withdraw", {"player": key})
    assert "error: tick the box to confirm that Anna Hendriks withdraws" in text(refused) and digest(db) == before
    refused = post(client, "/c/1/attendance/withdraw", {"player": "", "confirm": "yes"})
    assert "error: choose the player who withdraws" in text(refused) and digest(db) == before
    done = post(client, "/c/1/attendance/withdraw", {"player": key, "confirm": "yes"})
    assert "Anna Hendriks withdrawn after round 30" in text(done)
