"""The users page (/users): accounts as 'keizer user add/role/password/remove', the
refusals as the CLI's one line with the file unchanged, never a password hash, and
officers only."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer.operations import accounts
from keizer.store import Store
from web_helpers import TOKEN, client_with_csrf, digest, hashed_once, post, sample_app, text

PASSWORD = "correct horse battery"


def with_users(db: Path, *users: tuple[str, str]) -> None:
    s = Store.open(db)
    with s.change("user add", "test users"), hashed_once():
        for name, role in users:
            accounts.add_user(s, name, role, PASSWORD)
    s.close()


def login(client, name: str, password: str = PASSWORD):
    page = post(client, "/login", {"name": name, "password": password})
    with client.session_transaction() as session:  # the new session's token is the tests' again
        session["csrf"] = TOKEN
    return page


def users(db: Path) -> dict[str, str]:
    s = Store.open(db)
    try:
        return {u["name"]: u["role"] for u in s.users()}
    finally:
        s.close()


@pytest.fixture
def officer(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    with_users(db, ("anna", "officer"), ("arie", "arbiter"))
    client = client_with_csrf(app)
    login(client, "anna")
    return app, db, client


def test_the_page_lists_the_accounts_and_never_a_hash(officer):
    _, db, client = officer
    page = client.get("/users")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "anna" in text(page) and "arie" in text(page) and "arbiter" in text(page)
    assert "$argon2" not in body and "password_hash" not in body
    assert "/members/links" in body  # the members' personal links are one click away


def test_add_change_role_set_password_remove(officer):
    app, db, client = officer
    page = post(client, "/users/add", {"name": "Bert", "role": "arbiter", "password": "a good long one",
                                       "password2": "a good long one"})
    assert "added Bert (arbiter)" in text(page)
    assert users(db)["Bert"] == "arbiter"
    s = Store.open(db)
    last = s.changes(1)[0]
    assert (last["command"], last["summary"]) == ("user add", "user Bert (arbiter)")
    assert last["origin"].startswith("web: anna (officer) from")
    s.close()

    page = post(client, "/users/role", {"name": "Bert", "role": "officer"})
    assert "Bert is now officer" in text(page) and users(db)["Bert"] == "officer"

    page = post(client, "/users/password", {"name": "Bert", "password": "another long one", "password2": "another long one"})
    assert "password of Bert changed" in text(page)
    bert = client_with_csrf(app)
    assert "wrong name or password" in text(post(bert, "/login", {"name": "Bert", "password": "a good long one"}))
    login(bert, "Bert", "another long one")
    assert bert.get("/users").status_code == 200  # Bert is an officer now

    page = post(client, "/users/remove", {"name": "Bert"})
    assert "removed Bert" in text(page) and "Bert" not in users(db)
    assert bert.get("/users").status_code == 303  # the removed user's session ends


@pytest.mark.parametrize("url, form, message", [
    ("/users/add", {"name": "Bert", "role": "arbiter", "password": "short", "password2": "short"},
     "error: the password is too short: use at least 10 characters"),
    ("/users/add", {"name": "Bert", "role": "arbiter", "password": "a good long one", "password2": "a good long two"},
     "error: the two passwords differ; type the same password twice"),
    ("/users/add", {"name": "ARIE", "role": "arbiter", "password": "a good long one", "password2": "a good long one"},
     "error: there is already a user 'ARIE'"),
    ("/users/add", {"name": "Bert", "role": "king", "password": "a good long one", "password2": "a good long one"},
     "error: role must be one of officer, arbiter, not 'king'"),
    ("/users/password", {"name": "arie", "password": "short", "password2": "short"},
     "error: the password is too short"),
    ("/users/password", {"name": "nobody", "password": "a good long one", "password2": "a good long one"},
     "error: no user 'nobody'"),
    ("/users/role", {"name": "arie", "role": "king"}, "error: role must be one of officer, arbiter"),
    ("/users/remove", {"name": "anna"}, "error: anna is the last officer; make another user officer first"),
    ("/users/remove", {"name": "nobody"}, "error: no user 'nobody'"),
])
def test_refusals_change_nothing(officer, url, form, message):
    _, db, client = officer
    before = digest(db)
    page = post(client, url, form)
    assert message in text(page)
    assert digest(db) == before


def test_an_arbiter_cannot_reach_users_or_publish(officer):
    app, db, _ = officer
    client = client_with_csrf(app)
    login(client, "arie")
    before = digest(db)
    assert client.get("/users").status_code == 403
    assert client.get("/publish").status_code == 403
    for url, form in (("/users/add", {"name": "x", "role": "officer", "password": PASSWORD, "password2": PASSWORD}),
                      ("/users/role", {"name": "arie", "role": "officer"}), ("/users/remove", {"name": "anna"}),
                      ("/publish", {})):
        page = post(client, url, form, follow=False)
        assert page.status_code == 303
        assert "only an officer may do this" in text(client.get(page.headers["Location"]))
    assert digest(db) == before and users(db) == {"anna": "officer", "arie": "arbiter"}
    assert not (db.parent / "site").exists()


def test_a_name_with_markup_is_text(officer):
    _, db, client = officer
    name = '<script>alert("x")</script> Zoë 🎉'
    post(client, "/users/add", {"name": name, "role": "arbiter", "password": PASSWORD, "password2": PASSWORD})
    page = client.get("/users")
    body = page.get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;" in body and name in text(page)


def test_no_accounts_yet_the_officer_at_the_computer_adds_the_first(tmp_path):
    app, db = sample_app(tmp_path)  # local, no accounts
    client = client_with_csrf(app)
    assert "There are no accounts yet" in text(client.get("/users"))
    post(client, "/users/add", {"name": "anna", "role": "officer", "password": PASSWORD, "password2": PASSWORD})
    assert users(db) == {"anna": "officer"}
    assert client.get("/users").status_code == 303  # from now on everyone logs in
