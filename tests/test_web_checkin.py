"""Members check in at the venue: the round's QR code (venue screen, printed list) opens a
page that knows the phone's member from their personal link, or asks for it; "I am here"
until the round is paired; the attendance page shows who checked in, and a check-in counts
as present when the attendance is prepared.  Nobody marks anybody else: a venue code
without a personal link checks in nobody, and every refusal leaves the file as it was."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from keizer.operations import checkin as checkin_ops
from keizer.store import Store
from test_web_links import INGRID, JOSE, member_id, new_link, prepare, round_31_on, status
from web_helpers import client_with_csrf, digest, post, sample_app, text

TODAY = date.today().isoformat()


@pytest.fixture
def club(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def code_path(db) -> str:
    s = Store.open(db)
    try:
        return f"/checkin/1/31/{checkin_ops.round_code(s, 1, 31)}"
    finally:
        s.close()


def checked_in(db, name: str) -> bool:
    s = Store.open(db)
    try:
        pid = next(p["id"] for p in s.players(1) if p["name"] == name)
        return pid in s.checkins(1, 31)
    finally:
        s.close()


def test_the_venue_code_and_a_personal_link_check_a_member_in(club):
    app, db, officer = club
    round_31_on(db, TODAY)
    token = new_link(officer, db, INGRID)
    path = code_path(db)
    assert path.split("/")[-1] in officer.get("/c/1/venue").get_data(as_text=True)  # the screen's QR leads there

    phone = client_with_csrf(app)  # the member's phone, never opened the link: asked for it
    page = phone.get(path)
    assert page.status_code == 200 and "Your personal link" in text(page) and INGRID not in text(page)
    page = post(phone, path, {"link": f"http://localhost/m/{token}"})
    assert page.status_code == 200, text(page)
    assert f"{INGRID}, you are checked in for round 31" in text(page)
    assert checked_in(db, INGRID) and status(db, INGRID) is None  # nothing marked yet: the round is not prepared

    # The phone is known now: the page says so and a second tap changes nothing.
    again = post(phone, path, {"here": "1"})
    assert "had checked in for round 31" in text(again)

    listing = text(officer.get("/c/1/attendance"))
    assert "1 player checked in themselves" in listing and "checked in at" in listing
    s = Store.open(db)
    assert s.changes(1)[0]["origin"].startswith(f"check-in: {INGRID} from ")
    s.close()
    prepare(db)
    assert status(db, INGRID) == "present"


def test_a_check_in_counts_as_present_where_the_default_is_absent(club):
    app, db, officer = club
    round_31_on(db, TODAY)
    s = Store.open(db)
    with s.change("test", "absent unless marked"):
        s.update_player(next(p["id"] for p in s.players(1) if p["name"] == JOSE), default_attendance="absent")
    s.close()
    token = new_link(officer, db, JOSE)
    phone = client_with_csrf(app)
    page = phone.get(f"/m/{token}")  # the personal link: "I am here" tonight
    assert "I am here" in text(page)
    page = post(phone, f"/m/{token}/checkin", {"competition": "1"})
    assert f"{JOSE}, you are checked in for round 31" in text(page) and "checked in" in text(page)
    # Before anything is marked, the pairing already counts him among who plays (its lists of
    # whom to fix, give a bye or keep apart offer him), as the pairing itself will.
    from keizer.operations.rounds import pairing_state

    s = Store.open(db)
    assert JOSE in dict(pairing_state(s, 1).present).values()
    s.close()
    prepare(db)
    assert status(db, JOSE) == "present"


def test_a_round_already_marked_gets_the_member_present_at_once(club, capsys):
    from test_cli import run

    app, db, officer = club
    round_31_on(db, TODAY)
    code, _, err = run(capsys, db, "-c", "1", "attend", "-u", INGRID)
    assert code == 0, err
    assert status(db, INGRID) == "unexcused"
    token = new_link(officer, db, INGRID)
    phone = client_with_csrf(app)
    phone.get(f"/m/{token}")  # the phone learns its member
    page = post(phone, code_path(db), {"here": "1"})
    assert "you are checked in" in text(page)
    assert status(db, INGRID) == "present"


def test_nobody_checks_in_without_a_personal_link(club):
    app, db, officer = club
    round_31_on(db, TODAY)
    new_link(officer, db, INGRID)
    path = code_path(db)
    before = digest(db)
    stranger = client_with_csrf(app)
    for link in ("", "nonsense", "http://localhost/m/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"):
        page = post(stranger, path, {"link": link})
        assert page.status_code == 404 and "this personal link is not known" in text(page)
    page = post(stranger, path, {"here": "1"})  # no link kept on this phone: still asked
    assert page.status_code == 404
    wrong = path[:-1] + ("2" if path[-1] != "2" else "3")
    assert stranger.get(wrong).status_code == 404 and "check-in code is not known" in text(stranger.get(wrong))
    assert stranger.get("/checkin/99/1/ABCDEFGH").status_code == 404
    assert digest(db) == before


def test_check_in_ends_with_the_pairing_and_opens_on_the_evening(club, capsys):
    from test_cli import run

    app, db, officer = club
    later = (date.today() + timedelta(days=7)).isoformat()
    round_31_on(db, later)
    token = new_link(officer, db, INGRID)
    phone = client_with_csrf(app)
    assert "I am here" not in text(phone.get(f"/m/{token}"))  # not tonight
    page = phone.get(code_path(db))
    assert page.status_code == 403 and "opens on its evening" in text(page)
    assert 'id="venue-checkin"' not in officer.get("/c/1/venue").get_data(as_text=True)
    before = digest(db)
    page = post(phone, f"/m/{token}/checkin", {"competition": "1"})
    assert "check-in for" in text(page) and "is not open now" in text(page) and digest(db) == before

    round_31_on(db, TODAY)
    code, _, err = run(capsys, db, "-c", "1", "pair")
    assert code == 0, err
    page = phone.get(code_path(db))
    assert page.status_code == 403 and "check-in is over" in text(page)


def test_the_printed_list_carries_the_next_round_s_code(club):
    app, db, officer = club
    page = officer.get("/c/1/print/pairings?round=30").get_data(as_text=True)
    s = Store.open(db)
    code = checkin_ops.round_code(s, 1, 31)
    s.close()
    assert "Round 31: check in with your phone" in text(officer.get("/c/1/print/pairings?round=30"))
    assert "<svg" in page.split("checkin-qr")[1]
    assert code  # the QR encodes /checkin/1/31/<code> (segno's own drawing; the address is checked on the screen)


def test_each_round_has_a_code_of_its_own():
    """A hypothesis property: codes differ between rounds, competitions and files (40 bits,
    keyed by the file's random key) and are the same each time they are asked for."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    store = Store.memory()
    other = Store.memory()  # another file: another key, other codes

    @settings(max_examples=200, deadline=None)
    @given(st.tuples(st.integers(1, 50), st.integers(1, 999)), st.tuples(st.integers(1, 50), st.integers(1, 999)))
    def codes(a, b):
        code_a = checkin_ops.round_code(store, *a)
        assert code_a == checkin_ops.round_code(store, *a) and len(code_a) == checkin_ops.CODE_LENGTH
        assert code_a != checkin_ops.round_code(other, *a)
        if a != b:
            assert code_a != checkin_ops.round_code(store, *b)

    codes()


def test_a_check_in_before_the_round_exists_counts_when_it_is_prepared(club):
    """Nothing of round 31 is made yet; its evening is a week after round 30's (today): the
    check-in is kept and makes the member present when the pairing prepares the attendance."""
    app, db, officer = club
    s = Store.open(db)
    with s.change("test", "round 30 a week ago, no round 31 yet"):
        s.delete_round(1, 31)
        s.ensure_round(1, 30, (date.today() - timedelta(days=7)).isoformat())
    s.close()
    token = new_link(officer, db, INGRID)
    phone = client_with_csrf(app)
    phone.get(f"/m/{token}")
    page = post(phone, code_path(db), {"here": "1"})
    assert f"{INGRID}, you are checked in for round 31" in text(page)
    s = Store.open(db)
    assert s.round_numbers(1)[-1] == 30  # nothing made but the check-in
    s.close()
    assert checked_in(db, INGRID)
    prepare(db)
    assert status(db, INGRID) == "present"
