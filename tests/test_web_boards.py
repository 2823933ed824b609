"""Result entry at the board: a board's link (/b/<code>) on a phone, the players' reports,
the officer's reports page (confirm, disagreements, "both players' reports suffice"),
and everything a link may not do.  The sample's round-robin (id 3) has round 5 paired with
three boards and no results."""

from __future__ import annotations

import pytest

from keizer.operations import accounts, boards as board_ops
from keizer.store import Store
from test_cli import run
from test_web_printing import NASTY, rename, slip_codes
from web_helpers import TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

#: Round 5 of the round-robin: board → (white, black).
BOARDS = {1: ("Łukasz Wójcik", "José Álvarez"), 2: ("Hanneke Hoekstra", "Sjoerd van 't Hof"),
          3: ("Ingrid Müller", "Chloë O'Brien")}


def make_links(app) -> dict[int, str]:
    return slip_codes(post(client_with_csrf(app), "/c/3/print/slips", {"which": "missing"}))


@pytest.fixture
def linked(tmp_path):
    """The sample club with the round-robin's slips printed: (app, db, {board: code})."""
    app, db = sample_app(tmp_path)
    return app, db, make_links(app)


def phone(app, address: str = "192.168.1.40"):
    """A player's phone on the club's network."""
    client = client_with_csrf(app)
    client.environ_base["REMOTE_ADDR"] = address
    return client


def reports(db) -> dict[tuple[int, str], str]:
    store = Store.open(db)
    rows = {(r["board"], r["side"]): r["result"] for r in store.board_reports(3, 5)}
    store.close()
    return rows


def results(db) -> dict[int, str | None]:
    store = Store.open(db)
    rows = {g["board"]: g["result"] for g in store.games(3, 5)}
    store.close()
    return rows


def test_a_board_link_shows_its_board_and_only_its_board(linked):
    app, _, codes = linked
    page = phone(app).get(f"/b/{codes[2]}")
    assert page.status_code == 200
    shown = text(page)
    assert "Meerkamp A" in shown and "round 5" in shown and "Board 2" in shown
    assert "Hanneke Hoekstra" in shown and "Sjoerd van 't Hof" in shown
    for board in (1, 3):
        assert BOARDS[board][0] not in shown and BOARDS[board][1] not in shown
    assert page.headers["Cache-Control"] == "no-store"
    assert "Competitions" not in shown  # no navigation into the app for a player
    assert phone(app).get(f"/b/{codes[2].lower()}").status_code == 200  # typed in lower case


def test_a_report_is_recorded_with_the_board_link_as_its_origin(linked):
    app, db, codes = linked
    done = post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "1-0"})
    assert done.status_code == 200
    assert "White (Łukasz Wójcik) reports 1-0. The officer confirms it." in text(done)
    assert reports(db) == {(1, "white"): "1-0"}
    assert results(db)[1] is None  # the officer confirms
    store = Store.open(db)
    change = store.last_change()
    store.close()
    assert change["command"] == "board report"
    assert change["summary"] == "round 5 board 1: white reports 1-0"
    assert change["origin"] == "board link: Meerkamp A round 5 board 1 (white) from 192.168.1.40"
    # A second report from the same side replaces the first.
    post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "½-½"})
    assert reports(db) == {(1, "white"): "1/2-1/2"}
    assert "White: ½-½" in text(phone(app).get(f"/b/{codes[1]}"))


def test_a_bad_report_changes_nothing(linked):
    app, db, codes = linked
    before = digest(db)
    page = post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "+-"})
    assert "error: choose the result: 1-0, ½-½ or 0-1" in text(page)
    page = post(phone(app), f"/b/{codes[1]}", {"side": "referee", "result": "1-0"})
    assert "error: say which side you played: white or black" in text(page)
    assert digest(db) == before


def test_the_officer_confirms_a_reported_result(linked):
    app, db, codes = linked
    post(phone(app), f"/b/{codes[3]}", {"side": "black", "result": "0-1"})
    officer = client_with_csrf(app)
    page = text(officer.get("/c/3/reports"))
    assert "Confirm 0-1" in page and "one report" in page and "3 of 3 boards have a link" in page
    done = post(officer, "/c/3/reports/confirm", {"round": "5", "board": "3", "result": "0-1"})
    assert "round 5: 1 result entered; boards still open: 1, 2" in text(done)
    assert results(db) == {1: None, 2: None, 3: "0-1"}
    store = Store.open(db)
    assert store.last_change()["command"] == "result"
    store.close()
    assert "entered: 0-1" in text(officer.get("/c/3/reports"))


def test_two_agreeing_reports_enter_the_result_when_both_suffice(linked):
    app, db, codes = linked
    officer = client_with_csrf(app)
    saved = post(officer, "/c/3/reports/setting", {"reports_confirm": "both"})
    assert "two agreeing reports now enter the result at once" in text(saved)
    store = Store.open(db)
    assert store.system_settings(3)["reports_confirm"] == "both"
    store.close()
    post(phone(app, "10.0.0.1"), f"/b/{codes[2]}", {"side": "white", "result": "=",})
    assert results(db)[2] is None  # one report is not enough
    done = post(phone(app, "10.0.0.2"), f"/b/{codes[2]}", {"side": "black", "result": "½-½"})
    assert "Both players agree: the result is entered." in text(done)
    assert results(db) == {1: None, 2: "1/2-1/2", 3: None}
    # The board's link has done its work.
    assert phone(app).get(f"/b/{codes[2]}").status_code == 404


def test_agreeing_reports_wait_for_the_officer_by_default(linked):
    app, db, codes = linked
    post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "1-0"})
    post(phone(app), f"/b/{codes[1]}", {"side": "black", "result": "1-0"})
    assert results(db)[1] is None
    assert "both agree" in text(client_with_csrf(app).get("/c/3/reports"))


def test_disagreeing_reports_are_flagged_and_need_the_officer_s_choice(linked):
    app, db, codes = linked
    officer = client_with_csrf(app)
    post(officer, "/c/3/reports/setting", {"reports_confirm": "both"})
    post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "1-0"})
    post(phone(app), f"/b/{codes[1]}", {"side": "black", "result": "0-1"})
    assert results(db)[1] is None  # "both" enters only agreeing reports
    page = officer.get("/c/3/reports")
    assert "the reports disagree" in text(page) and 'class="state-disagree"' in page.get_data(as_text=True)
    before = digest(db)
    refused = post(officer, "/c/3/reports/confirm", {"round": "5", "board": "1"})
    assert ("error: board 1 of round 5: the players' reports disagree (white says 1-0, black says 0-1); "
            "choose the result") in text(refused)
    assert digest(db) == before
    post(officer, "/c/3/reports/confirm", {"round": "5", "board": "1", "result": "0-1"})
    assert results(db)[1] == "0-1"


def test_wrong_codes_finished_rounds_and_confirmed_boards_are_refused(linked, capsys):
    app, db, codes = linked
    before = digest(db)
    wrong = ("ZZZZZZZZ", "short", codes[1][:-1] + ("A" if codes[1][-1] != "A" else "B"), "x" * 300)
    for n, code in enumerate(wrong):  # a phone each: five wrong codes from one address are throttled
        for response in (phone(app, f"10.0.1.{n}").get(f"/b/{code}"),
                         post(phone(app, f"10.0.2.{n}"), f"/b/{code}", {"side": "white", "result": "1-0"})):
            assert response.status_code == 404
            assert "error: this link is not valid (any more)" in text(response)
    assert digest(db) == before
    # A board whose result the officer entered.
    assert run(capsys, db, "-c", "3", "result", "1=1-0")[0] == 0
    before = digest(db)
    refused = post(phone(app, "10.0.0.9"), f"/b/{codes[1]}", {"side": "black", "result": "0-1"})
    assert refused.status_code == 404 and "this link is not valid (any more)" in text(refused)
    assert digest(db) == before and results(db)[1] == "1-0"
    # A round that is over: its links are dead, also on the boards without a report.
    assert run(capsys, db, "-c", "3", "result", "2=0-1", "3=1-0")[0] == 0
    before = digest(db)
    for board in (2, 3):
        assert phone(app, "10.0.0.10").get(f"/b/{codes[board]}").status_code == 404
        post(phone(app, "10.0.0.10"), f"/b/{codes[board]}", {"side": "white", "result": "1-0"})
    assert digest(db) == before


def test_a_code_of_another_round_is_refused(tmp_path, capsys):
    """Codes of round 31 of the Keizer competition stop working once the round is complete
    and the next one is paired."""
    app, db = sample_app(tmp_path)
    assert run(capsys, db, "-c", "1", "pair")[0] == 0
    codes = slip_codes(post(client_with_csrf(app), "/c/1/print/slips", {"which": "missing"}))
    items = [f"{board}=1-0" for board in codes]
    assert run(capsys, db, "-c", "1", "result", *items)[0] == 0
    assert run(capsys, db, "-c", "1", "attend", "--date", "2026-04-07")[0] == 0
    assert run(capsys, db, "-c", "1", "pair")[0] == 0
    before = digest(db)
    response = post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "0-1"})
    assert response.status_code == 404 and digest(db) == before


def test_a_link_cannot_enter_another_board_s_result(linked):
    app, db, codes = linked
    post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "0-1", "board": "2", "round": "4",
                                        "competition": "1"})
    assert reports(db) == {(1, "white"): "0-1"}
    officer = client_with_csrf(app)
    post(officer, "/c/3/reports/setting", {"reports_confirm": "both"})
    post(phone(app), f"/b/{codes[1]}", {"side": "black", "result": "0-1", "board": "2"})
    assert results(db) == {1: "0-1", 2: None, 3: None}


def test_wrong_codes_are_throttled_per_address_but_a_clubs_typos_hold_no_right_code_up(linked):
    """A club's Wi-Fi is one address for every phone: a few wrong codes from it do not refuse a
    right one (the review found 5 did); a guesser's many are refused, and then every code waits."""
    from keizer.web.views.boards import MAX_WRONG_CODES

    app, db, codes = linked
    guesser = phone(app, "10.9.9.9")
    for _ in range(5):
        assert guesser.get("/b/ZZZZZZZZ").status_code == 404
    assert guesser.get(f"/b/{codes[1]}").status_code == 200  # a right code still works, and does not count
    for _ in range(MAX_WRONG_CODES - 5):
        assert guesser.get("/b/ZZZZZZZZ").status_code == 404
    blocked = guesser.get(f"/b/{codes[1]}")  # so many wrong codes: now even a right code waits
    assert blocked.status_code == 429 and "error: too many wrong result links from this address" in text(blocked)
    before = digest(db)
    assert post(guesser, f"/b/{codes[1]}", {"side": "white", "result": "1-0"}).status_code == 429
    assert digest(db) == before
    assert phone(app, "10.9.9.10").get(f"/b/{codes[1]}").status_code == 200  # another phone is not held up


def test_names_with_markup_are_text_on_the_board_and_reports_pages(tmp_path):
    app, db = sample_app(tmp_path)
    rename(db, "Łukasz Wójcik", NASTY)
    codes = make_links(app)
    board = phone(app).get(f"/b/{codes[1]}")
    done = post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "1-0"})
    officer = client_with_csrf(app).get("/c/3/reports")
    for page in (board, done, officer):
        assert "<script>alert" not in page.get_data(as_text=True)
        assert NASTY in text(page)


def login(app, name: str):
    client = client_with_csrf(app)
    assert post(client, "/login", {"name": name, "password": "correct horse battery"}).status_code == 200
    with client.session_transaction() as session:  # a login starts a new session: the test's token again
        session["csrf"] = TOKEN
    return client


def test_a_board_link_needs_no_account_but_the_reports_page_does(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "users"), hashed_once():
        accounts.add_user(store, "anna", "officer", "correct horse battery")
        accounts.add_user(store, "bob", "arbiter", "correct horse battery")
    store.close()
    officer = login(app, "anna")
    codes = slip_codes(post(officer, "/c/3/print/slips", {"which": "missing"}))
    assert len(codes) == 3
    stranger = client_with_csrf(app)
    assert stranger.get(f"/b/{codes[1]}").status_code == 200
    assert post(stranger, f"/b/{codes[1]}", {"side": "white", "result": "1-0"}).status_code == 200
    assert stranger.get("/c/3/reports").status_code == 303  # to the login page
    before = digest(db)
    assert post(stranger, "/c/3/reports/confirm", {"round": "5", "board": "1", "result": "1-0"},
                follow=False).status_code == 303
    assert digest(db) == before
    # An arbiter confirms results but may not change who confirms them.
    arbiter = login(app, "bob")
    refused = post(arbiter, "/c/3/reports/setting", {"reports_confirm": "both"})
    assert "error: only an officer may do this" in text(refused) and digest(db) == before
    post(arbiter, "/c/3/reports/confirm", {"round": "5", "board": "1", "result": "1-0"})
    assert results(db)[1] == "1-0"


def test_reports_setting_refuses_an_unknown_mode_and_cups_have_no_reports(linked):
    app, db, _ = linked
    officer = client_with_csrf(app)
    before = digest(db)
    refused = post(officer, "/c/3/reports/setting", {"reports_confirm": "anyone"})
    assert "error: reports_confirm must be officer or both, not 'anyone'" in text(refused)
    cup = officer.get("/c/4/reports")
    assert cup.status_code == 400 and "error: a knockout competition has no result links" in text(cup)
    assert digest(db) == before


def test_codes_are_random_from_the_alphabet():
    codes = {board_ops.new_code() for _ in range(200)}
    assert len(codes) == 200 and all(set(c) <= set(board_ops.ALPHABET) for c in codes)
    assert len(board_ops.ALPHABET) == 32 and not set("01IO") & set(board_ops.ALPHABET)


def test_the_results_page_shows_the_waiting_reports_and_confirms_all_that_agree(linked):
    """Issue 20: reports waiting for the officer are on the results page too, with one button
    that enters every board whose two reports agree (in one change), and nothing else."""
    app, db, codes = linked
    officer = client_with_csrf(app)
    assert "waiting for you" not in text(officer.get("/c/3/results"))
    post(phone(app), f"/b/{codes[1]}", {"side": "white", "result": "1-0"})
    post(phone(app), f"/b/{codes[1]}", {"side": "black", "result": "1-0"})
    post(phone(app), f"/b/{codes[2]}", {"side": "white", "result": "0-1"})
    post(phone(app), f"/b/{codes[3]}", {"side": "white", "result": "1-0"})
    post(phone(app), f"/b/{codes[3]}", {"side": "black", "result": "1/2-1/2"})
    page = text(officer.get("/c/3/results"))
    assert "Reported from the boards, waiting for you (3)" in page
    assert "both report 1-0" in page and "one report: 0-1" in page and "the reports disagree" in page
    assert "Confirm all that agree (1)" in page
    done = post(officer, "/c/3/reports/confirm-agreeing", {"round": "5", "back": "/c/3/results"})
    assert "round 5: 1 result entered" in text(done)
    assert results(db) == {1: "1-0", 2: None, 3: None}
    store = Store.open(db)
    assert store.changes(1)[0]["summary"].endswith("results 1=1-0 (reported from the boards)")
    store.close()
    page = text(officer.get("/c/3/results"))
    assert "waiting for you (2)" in page and "Confirm all that agree" not in page
    before = digest(db)
    refused = post(officer, "/c/3/reports/confirm-agreeing", {"round": "5"})
    assert "error: no board of round 5 has two reports that agree" in text(refused) and digest(db) == before
    refused = post(officer, "/c/3/reports/confirm-agreeing", {"round": "4"})
    assert "error: no board of round 4 has two reports that agree" in text(refused) and digest(db) == before
