"""A competition's player in the app (``/c/<id>/players/<n>``): ``keizer player set``'s
category, first round and default attendance, with the CLI's messages and refusals."""

from __future__ import annotations

import shutil

from keizer.store import Store
from test_cli import run
from web_helpers import SAMPLE, client_with_csrf, digest, hashed_once, post, sample_app, text


def player_row(db, comp: int, name: str) -> dict:
    store = Store.open(db)
    try:
        return next(r for r in store.players(comp) if r["name"] == name)
    finally:
        store.close()


def test_the_form_sets_what_player_set_sets(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli_db = tmp_path / "cli.db"
    shutil.copy(SAMPLE, cli_db)
    client = client_with_csrf(app)
    row = player_row(db, 1, "Lotte van der Veen")
    page = client.get(f"/c/1/players/{row['id']}")
    assert page.status_code == 200 and "When not marked for a round" in text(page)
    assert "(the competition’s default)" in text(page)
    players = text(client.get("/c/1/players"))
    assert "Lotte van der Veen" in players
    reply = post(client, f"/c/1/players/{row['id']}", {"category": "A", "joined": str(row["joined"]),
                                                         "default": "absent"})
    code, out, err = run(capsys, cli_db, "-c", "1", "player", "set", "Lotte", "--category", "A", "--default", "absent")
    assert code == 0, err
    assert out.strip() in text(reply)
    assert out.strip() == "updated Lotte van der Veen: category (none) → A, default attendance as the competition → absent"
    assert reply.request.path == "/c/1/players"
    for key in ("category", "joined", "default_attendance"):
        assert player_row(db, 1, "Lotte van der Veen")[key] == player_row(cli_db, 1, "Lotte van der Veen")[key]
    # The same form sent again changes nothing and logs nothing.
    before = digest(db)
    again = post(client, f"/c/1/players/{row['id']}", {"category": "A", "joined": str(row["joined"]),
                                                         "default": "absent"})
    assert "Lotte van der Veen: nothing changed" in text(again) and digest(db) == before


def test_leaving_the_competitions_default_keeps_following_it(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    row = player_row(db, 1, "Inge Vos")
    assert row["default_attendance"] is None
    before = digest(db)
    page = post(client, f"/c/1/players/{row['id']}", {"category": row["category"] or "", "joined": str(row["joined"]),
                                                        "default": "present"})
    assert "Inge Vos: nothing changed" in text(page) and digest(db) == before


def test_refusals_are_the_clis_and_change_nothing(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    row = player_row(db, 1, "Lotte van der Veen")
    code, _, err = run(capsys, db, "-c", "1", "player", "set", "Lotte", "--joined", "3")
    assert code != 0
    before = digest(db)
    page = post(client, f"/c/1/players/{row['id']}", {"joined": "3"})
    assert err.strip() in text(page)
    assert "has a game in round 1" in err
    page = post(client, f"/c/1/players/{row['id']}", {"joined": "zero"})
    assert "error: round 'zero' is not a whole number" in text(page)
    page = post(client, f"/c/1/players/{row['id']}", {"default": "sometimes"})
    assert "error: the default attendance is present or absent, not 'sometimes'" in text(page)
    assert digest(db) == before
    assert client.get("/c/1/players/99999").status_code == 400
    # Without the form's token nothing is written.
    refused = app.test_client().post(f"/c/1/players/{row['id']}", data={"category": "B"}, follow_redirects=True)
    assert "this form has expired or did not come from this app" in text(refused)
    assert digest(db) == before


def test_an_arbiter_may_not_edit_players(tmp_path):
    from keizer.operations import accounts

    app, db = sample_app(tmp_path, local=False)
    store = Store.open(db)
    with store.change("user add", "test users"), hashed_once():
        accounts.add_user(store, "bob", "arbiter", "correct horse battery")
    store.close()
    client = client_with_csrf(app)
    post(client, "/login", {"name": "bob", "password": "correct horse battery"})
    row = player_row(db, 1, "Lotte van der Veen")
    assert client.get(f"/c/1/players/{row['id']}").status_code == 403
