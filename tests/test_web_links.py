"""Members' personal links (/m/<token>) and their notices of absence: the officer makes,
renews and revokes links; a member says "I cannot come" for an evening; the notice
becomes an excused (or, late, an unexcused) absence when the attendance of a round
on that date is prepared; a link reaches only its own member and an expired or
revoked one is refused, changing nothing."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from keizer.operations import accounts
from keizer.operations import competition as comp_ops
from keizer.operations import notices as notice_ops
from keizer.i18n import format_day
from keizer.store import Store
from test_cli import bad, run
from web_helpers import TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

TODAY = date.today()
SOON = (TODAY + timedelta(days=14)).isoformat()  # its deadline (the day before, 18:00) is well ahead


def shown_day(iso: str) -> str:
    """A date as the member's page says it (the sample club's language: English)."""
    return format_day(iso, "en")
INGRID, JOSE = "Ingrid Müller", "José Álvarez"


def member_id(db: Path, name: str) -> int:
    s = Store.open(db)
    try:
        return next(m["id"] for m in s.members() if m["name"] == name)
    finally:
        s.close()


def round_31_on(db: Path, day: str) -> None:
    """The sample's round 31 of the Keizer competition, not marked yet, on ``day``."""
    s = Store.open(db)
    with s.change("test", f"round 31 on {day}"):
        s.delete_round(1, 31)
        s.ensure_round(1, 31, day)
    s.close()


def prepare(db: Path) -> str | None:
    s = Store.open(db)
    with s.change("pair", "prepare attendance"):
        note = comp_ops.prepare_attendance(s, 1)
    s.close()
    return str(note) if note else None  # in English, as the command line says it


def status(db: Path, name: str, number: int = 31) -> str | None:
    s = Store.open(db)
    try:
        pid = next(p["id"] for p in s.players(1) if p["name"] == name)
        mark = s.attendance(1, number).get(pid)
        return mark[0] if mark else None
    finally:
        s.close()


def new_link(client, db: Path, name: str) -> str:
    page = post(client, "/members/links/new", {"member": member_id(db, name)})
    assert page.status_code == 200
    found = re.search(r"http://localhost/m/([A-Za-z0-9_-]+)", page.get_data(as_text=True))
    assert found, text(page)
    return found.group(1)


def login(client, name: str, password: str = "correct horse battery") -> None:
    """Log in through the login form; the new session's CSRF token is the tests' again."""
    assert post(client, "/login", {"name": name, "password": password}).status_code == 200
    with client.session_transaction() as session:
        session["csrf"] = TOKEN


def notices_of(db: Path, name: str) -> list[dict]:
    s = Store.open(db)
    try:
        return s.notices(member_id=member_id(db, name))
    finally:
        s.close()


@pytest.fixture
def club(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def test_a_notice_in_time_becomes_an_excused_absence(club):
    app, db, officer = club
    round_31_on(db, SOON)
    token = new_link(officer, db, INGRID)
    s = Store.open(db)
    assert s.member_links()[0]["name"] == INGRID
    assert token not in Path(db).read_bytes().decode("latin-1")  # only its SHA-256 is stored
    s.close()

    member = client_with_csrf(app)  # the member's phone: no account, no officer session
    page = member.get(f"/m/{token}")
    assert page.status_code == 200 and INGRID in text(page) and "I cannot come" in text(page)
    assert page.headers["Cache-Control"] == "no-store"
    page = post(member, f"/m/{token}", {"date": SOON, "action": "absent"})
    assert page.status_code == 200 and f"noted: you cannot come on {shown_day(SOON)}" in text(page)
    assert "I can come after all" in text(page)
    [notice] = notices_of(db, INGRID)
    assert (notice["date"], notice["via"]) == (SOON, "member link")
    s = Store.open(db)
    last = s.changes(1)[0]
    assert last["command"] == "notice" and last["origin"].startswith(f"member link: {INGRID} from ")
    s.close()

    # The officer sees who sent notice, when and how, and what it counts as.
    listing = text(officer.get("/members/links"))
    assert INGRID in listing and "member link" in listing and "excused" in listing

    note = prepare(db)
    assert note and "39 of 40 active players assumed present" in note
    assert status(db, INGRID) == "excused"
    assert status(db, JOSE) == "present"


def test_an_explicit_mark_wins_over_a_notice(club, capsys):
    app, db, officer = club
    round_31_on(db, SOON)
    token = new_link(officer, db, INGRID)
    post(client_with_csrf(app), f"/m/{token}", {"date": SOON, "action": "absent"})
    # The CLI's attend fills the unmarked with their default: the notice makes Ingrid excused ...
    code, out, err = run(capsys, db, "-c", "1", "attend", "-p", JOSE)
    assert code == 0, err
    assert status(db, INGRID) == "excused" and "1 excused" in out
    # ... but what the officer marks is what counts.
    code, _, err = run(capsys, db, "-c", "1", "attend", "-p", INGRID)
    assert code == 0, err
    assert status(db, INGRID) == "present"


def test_a_late_notice_counts_as_the_setting_says(club):
    app, db, officer = club
    today = TODAY.isoformat()  # its deadline was yesterday 18:00
    round_31_on(db, today)
    token = new_link(officer, db, INGRID)
    page = post(client_with_csrf(app), f"/m/{token}", {"date": today, "action": "absent"})
    assert "unexcused" in text(page)  # the member sees it came late
    prepare(db)
    assert status(db, INGRID) == "unexcused"

    page = post(officer, "/members/links/settings", {"notice_days": "1", "notice_time": "18:00",
                                                     "late_notice": "excused", "link_days": "365", "evening_day": ""})
    assert "later as excused" in text(page)
    round_31_on(db, today)
    prepare(db)
    assert status(db, INGRID) == "excused"


def test_withdrawing_a_notice(club):
    app, db, officer = club
    token = new_link(officer, db, INGRID)
    member = client_with_csrf(app)
    post(member, f"/m/{token}", {"date": SOON, "action": "absent"})
    page = post(member, f"/m/{token}", {"date": SOON, "action": "come"})
    assert f"noted: you can come on {shown_day(SOON)} after all" in text(page)
    assert notices_of(db, INGRID) == []


def test_a_revoked_link_is_refused_and_changes_nothing(club):
    app, db, officer = club
    token = new_link(officer, db, INGRID)
    page = post(officer, "/members/links/revoke", {"member": member_id(db, INGRID)})
    assert f"the personal link of {INGRID} is revoked" in text(page)
    before = digest(db)
    member = client_with_csrf(app)
    page = member.get(f"/m/{token}")
    assert page.status_code == 403 and "this personal link was revoked" in text(page)
    assert INGRID not in text(page)
    page = post(member, f"/m/{token}", {"date": SOON, "action": "absent"})
    assert page.status_code == 403
    assert digest(db) == before and notices_of(db, INGRID) == []
    # Revoking what is not there is refused with the CLI's line.
    page = post(officer, "/members/links/revoke", {"member": member_id(db, INGRID)})
    assert f"error: {INGRID} has no personal link to revoke" in text(page)
    assert digest(db) == before


def test_a_renewed_link_replaces_the_old_one(club):
    app, db, officer = club
    old = new_link(officer, db, INGRID)
    new = new_link(officer, db, INGRID)
    member = client_with_csrf(app)
    assert member.get(f"/m/{old}").status_code == 403
    assert member.get(f"/m/{new}").status_code == 200


def test_an_unknown_or_expired_link_is_refused(club):
    app, db, _ = club
    member = client_with_csrf(app)
    page = member.get("/m/not-a-token-of-anyone")
    assert page.status_code == 404 and "this personal link is not known" in text(page)
    s = Store.open(db)
    s.clock = lambda: "2024-01-01T12:00:00+00:00"  # a link made long ago
    with s.change("member-link", "old link"):
        token = notice_ops.new_link(s, member_id(db, INGRID))
    s.close()
    before = digest(db)
    page = member.get(f"/m/{token}")
    assert page.status_code == 403 and "expired (links last 365 days)" in text(page)
    assert post(member, f"/m/{token}", {"date": SOON, "action": "absent"}).status_code == 403
    assert digest(db) == before


def test_a_link_reaches_only_its_own_member(club):
    app, db, officer = club
    ingrid = new_link(officer, db, INGRID)
    jose = new_link(officer, db, JOSE)
    post(client_with_csrf(app), f"/m/{ingrid}", {"date": SOON, "action": "absent"})
    other = client_with_csrf(app)
    page = other.get(f"/m/{jose}")
    assert JOSE in text(page) and INGRID not in text(page) and "I can come after all" not in text(page)
    before = digest(db)
    # José's link cannot withdraw Ingrid's notice, whatever the form says.
    page = post(other, f"/m/{jose}", {"date": SOON, "action": "come", "member": str(member_id(db, INGRID))})
    assert f"you had sent no notice for {shown_day(SOON)}" in text(page)
    assert digest(db) == before
    assert [n["date"] for n in notices_of(db, INGRID)] == [SOON] and notices_of(db, JOSE) == []


def test_a_past_or_bad_date_is_refused(club):
    app, db, officer = club
    token = new_link(officer, db, INGRID)
    member = client_with_csrf(app)
    before = digest(db)
    yesterday = (TODAY - timedelta(days=1)).isoformat()
    page = post(member, f"/m/{token}", {"date": yesterday, "action": "absent"})
    assert f"error: {yesterday} is past" in text(page)
    page = post(member, f"/m/{token}", {"date": "14 October", "action": "absent"})
    assert "error: give the date as YYYY-MM-DD" in text(page)
    assert digest(db) == before


def test_the_member_page_offers_the_club_evenings_to_come(club):
    app, db, officer = club
    token = new_link(officer, db, INGRID)
    s = Store.open(db)
    evenings = notice_ops.club_evenings(s, TODAY)
    s.close()
    # The sample's rounds are on Tuesdays: the next eight Tuesdays.
    assert len(evenings) == 8 and {date.fromisoformat(d).weekday() for d in evenings} == {1}
    page = client_with_csrf(app).get(f"/m/{token}")
    assert page.get_data(as_text=True).count("I cannot come") == 9  # eight evenings and the free date
    post(officer, "/members/links/settings", {"notice_days": "2", "notice_time": "20:30", "late_notice": "unexcused",
                                              "link_days": "30", "evening_day": "friday"})
    s = Store.open(db)
    assert {date.fromisoformat(d).weekday() for d in notice_ops.club_evenings(s, TODAY)} == {4}
    assert notice_ops.notice_settings(s).notice_time == "20:30"
    s.close()


def test_bad_settings_are_refused(club):
    _, db, officer = club
    before = digest(db)
    page = post(officer, "/members/links/settings", {"notice_days": "1", "notice_time": "25:00",
                                                     "late_notice": "unexcused", "link_days": "365", "evening_day": ""})
    assert "error: notice_time must be a time like 18:00" in text(page)
    assert digest(db) == before


def test_names_with_markup_are_text(club):
    app, db, officer = club
    name = '<script>alert("x")</script> Zoë "Q" 🎉'
    s = Store.open(db)
    with s.change("member edit", "name"):
        s.update_member(member_id(db, INGRID), name=name)
    s.close()
    token = new_link(officer, db, name)
    member = client_with_csrf(app)
    post(member, f"/m/{token}", {"date": SOON, "action": "absent"})
    for page in (member.get(f"/m/{token}"), officer.get("/members/links")):
        body = page.get_data(as_text=True)
        assert "<script>alert" not in body and "&lt;script&gt;" in body
        assert name in text(page)


def test_only_an_officer_manages_links(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    s = Store.open(db)
    with s.change("user add", "users"), hashed_once():
        accounts.add_user(s, "anna", "officer", "correct horse battery")
        accounts.add_user(s, "arie", "arbiter", "correct horse battery")
    s.close()
    client = client_with_csrf(app)
    assert client.get("/members/links").status_code == 303  # not logged in: to the login page
    login(client, "arie")
    before = digest(db)
    assert client.get("/members/links").status_code == 403
    assert "only an officer may do this" in text(post(client, "/members/links/new", {"member": "2"}))
    assert "only an officer may do this" in text(post(client, "/members/links/settings", {"late_notice": "excused"}))
    assert digest(db) == before
    # A member's link needs no account.
    officer = client_with_csrf(app)
    login(officer, "anna")
    token = new_link(officer, db, INGRID)
    phone = app.test_client()  # a fresh phone: the page's own form token is all it needs
    page = phone.get(f"/m/{token}")
    assert page.status_code == 200
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    page = phone.post(f"/m/{token}", data={"csrf": csrf, "date": SOON, "action": "absent"}, follow_redirects=True)
    assert f"noted: you cannot come on {shown_day(SOON)}" in text(page)
    assert [n["date"] for n in notices_of(db, INGRID)] == [SOON]


def test_the_cli(tmp_path, capsys):
    _, db = sample_app(tmp_path)
    bad(capsys, db, "member-link", "new", "Ingrid", match="give the app's address with --base-url")
    code, out, err = run(capsys, db, "member-link", "Ingrid", "--base-url", "https://club.example.org/")
    assert code == 0, err
    token = re.fullmatch(r"https://club\.example\.org/m/([A-Za-z0-9_-]+)\n", out).group(1)
    s = Store.open(db)
    assert notice_ops.member_for_token(s, token)["name"] == INGRID
    with s.change("notice", "test"):
        notice_ops.send_notice(s, member_id(db, INGRID), SOON, TODAY)
    s.close()
    code, out, _ = run(capsys, db, "notices")
    assert INGRID in out and SOON in out and "excused" in out
    code, out, _ = run(capsys, db, "member-link", "list")
    assert INGRID in out and "in force" in out and token not in out
    code, out, err = run(capsys, db, "member-link", "new", "José", "--base-url", "http://10.0.0.5:8000")
    assert code == 0 and out.startswith("http://10.0.0.5:8000/m/"), err
    code, out, _ = run(capsys, db, "member-link", "revoke", "Ingrid")
    assert out.strip() == f"the personal link of {INGRID} is revoked"
    bad(capsys, db, "member-link", "revoke", "Ingrid", match="has no personal link to revoke")
    code, out, _ = run(capsys, db, "notices", "settings", "--late", "excused", "--time", "9:15")
    assert "notice by 09:15 the day before counts as excused, later as excused" in out
    bad(capsys, db, "notices", "settings", "--link-days", "0", match="link_days must be a whole number")
