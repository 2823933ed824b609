"""Ratings and careers in the app: the FIDE rating change on a player's page, a member's
career and two members' meetings, with what the CLI says (test client; the browser test
is in test_careers_browser.py)."""

from __future__ import annotations

import json
import sqlite3

from test_cli import run
from web_helpers import digest, sample_app, text


def _app(tmp_path):
    app, db = sample_app(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE members SET fide_rating = rating + 50 WHERE rating > 1500")
    return app, db


def _member(db, name: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id FROM members WHERE name = ?", (name,)).fetchone()[0]


def test_player_page_shows_the_fide_change_as_the_cli(tmp_path, capsys):
    app, db = _app(tmp_path)
    client = app.test_client()
    with sqlite3.connect(db) as conn:
        key = conn.execute("SELECT p.key FROM players p JOIN members m ON m.id = p.member_id "
                           "WHERE m.name = 'Anna Hendriks' AND p.competition_id = 1").fetchone()[0]
    page = text(client.get(f"/c/1/player/{key}"))
    cli = json.loads(run(capsys, db, "-c", "1", "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    assert "FIDE rating change" in page and "Provisional, not official" in page
    assert f"FIDE rating {cli['rating']}, K {cli['k']}: {cli['change']} in {cli['games']} games, " \
           f"performance {cli['performance']}" in page
    assert "opponent without a FIDE rating" in page and "Career at the club" in page


def test_player_without_a_fide_rating_shows_no_section(tmp_path):
    app, db = sample_app(tmp_path)  # no FIDE ratings in the sample club
    with sqlite3.connect(db) as conn:
        key = conn.execute("SELECT key FROM players WHERE competition_id = 1").fetchone()[0]
    page = text(app.test_client().get(f"/c/1/player/{key}"))
    assert "FIDE rating change" not in page and "Career at the club" in page


def test_career_and_head_to_head_pages_match_the_cli(tmp_path, capsys):
    app, db = _app(tmp_path)
    before = digest(db)
    client = app.test_client()
    anna, pieter = _member(db, "Anna Hendriks"), _member(db, "Pieter Kuipers")
    page = text(client.get(f"/members/{anna}/career"))
    cli = json.loads(run(capsys, db, "career", "Anna Hendriks", "--format", "json")[1])
    assert "27 games at the club: 10 won, 6 drawn, 11 lost" in page
    for line in cli["competitions"]:
        assert line["competition"] in page
    assert "Club rating" in page and "Provisional, not official" in page
    assert f"Club rating {cli['club_rating'][-1]['rating']} " in page
    assert "Against every opponent" in page and "Pieter Kuipers" in page
    h2h = text(client.get(f"/members/{anna}/against?member={pieter}"))
    assert "Anna Hendriks – Pieter Kuipers" in h2h and "3 games: 1 won, 0 drawn, 2 lost" in h2h
    assert h2h.count("Interne competitie 2025-2026 (2025-2026)") == 3
    assert digest(db) == before


def test_bad_addresses_say_so_without_a_crash(tmp_path):
    app, db = _app(tmp_path)
    client = app.test_client()
    anna = _member(db, "Anna Hendriks")
    for url in ("/members/99999/career", f"/members/{anna}/against?member={anna}", f"/members/{anna}/against?member=99999",
                f"/members/{anna}/against", f"/members/{anna}/against?member=%3Cscript%3E"):
        answer = client.get(url)
        assert answer.status_code in (400, 404) and "error:" in text(answer) and "Traceback" not in text(answer)


def test_dutch_club_sees_dutch(tmp_path, capsys):
    app, db = _app(tmp_path)
    run(capsys, db, "club", "--language", "nl")
    client = app.test_client()
    anna = _member(db, "Anna Hendriks")
    page = text(client.get(f"/members/{anna}/career"))
    assert "Loopbaan" in page or "partijen bij de club" in page
    assert "Voorlopig, niet officieel" in page and "Tegen elke tegenstander" in page


def test_the_member_form_sets_year_of_birth_k_and_the_career_page(tmp_path):
    from web_helpers import client_with_csrf, post

    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    anna = _member(db, "Anna Hendriks")
    form = {"name": "Anna Hendriks", "rating": "", "fed_id": "", "fide_id": "", "fide_rating": "",
            "back": "/members"}
    page = client.get(f"/members/{anna}/edit").get_data(as_text=True)
    assert 'name="birth_year"' in page and 'name="no_career"' in page and "no career page on the club" in page
    before = digest(db)
    refused = text(post(client, f"/members/{anna}/edit", {**form, "birth_year": "1850", "fide_k": ""}))
    assert "year of birth" in refused and "1850" in refused and "Traceback" not in refused
    assert digest(db) == before  # refused: the file as it was
    done = text(post(client, f"/members/{anna}/edit", {**form, "birth_year": "2010", "fide_k": "40", "no_career": "on"}))
    assert "year of birth none → 2010" in done and "career on the site published → not published" in done
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT birth_year, fide_k, career_public FROM members WHERE id = ?",
                            (anna,)).fetchone() == (2010, 40, 0)
    assert "checked" in client.get(f"/members/{anna}/edit").get_data(as_text=True).split('name="no_career"')[1][:12]


def test_the_career_page_takes_the_kept_careers(tmp_path, capsys, monkeypatch):
    """The app's career page reads the careers kept from request to request (issue 25): the
    club rating is not rated again, nor a member's career made again, unless they changed; after
    a result the page is the one a new app shows on a copy of the file."""
    import shutil

    from keizer.operations import careers, kept_careers
    from keizer.rating import club

    app, db = _app(tmp_path)
    client = app.test_client()
    anna, pieter = _member(db, "Anna Hendriks"), _member(db, "Pieter Kuipers")
    client.get(f"/members/{anna}/career")
    rated, made = [], []
    monkeypatch.setattr(club, "rate_period", lambda *a, real=club.rate_period: rated.append(1) or real(*a))
    monkeypatch.setattr(kept_careers, "career_of", lambda *a, real=careers.career_of: made.append(1) or real(*a))
    page = text(client.get(f"/members/{pieter}/career"))
    assert rated == [] and made == [] and "Pieter Kuipers" in page
    run(capsys, db, "-c", "1", "result", "--round", "30", "--correct", "1=0-1")  # another process writes
    page = text(client.get(f"/members/{anna}/career"))
    # the rating from the changed period on; the careers whose games or ranks changed, not all
    assert 0 < len(rated) and 0 < len(made) < len(careers.careers(_store(db)))
    shutil.copy(db, tmp_path / "copy.db")
    assert page == text(create_copy_app(tmp_path / "copy.db").test_client().get(f"/members/{anna}/career"))


def _store(db):
    from keizer.store import Store

    return Store.open(db)


def create_copy_app(db):
    from keizer.web import create_app

    return create_app(db, local=True)
