"""Every route of the app, for each role, through the real server: the table in docs/web.md
("Every route and who may use it") is the rule, the app must list no route the table does
not, and a stranger, an arbiter and an officer each get exactly what the table gives them.
(The review found an arbiter could add a team: the check was per view, and one was missing.
Now every view is the officer's unless marked otherwise, and this test walks them all.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keizer.web import access, create_app
from served import Client, Served, sample_copy
from test_web import PASSWORD, with_users

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web.md"
#: A value for each kind of part of an address (the role is checked before the page looks at it).
SAMPLE_PARTS = {"comp_id": "1", "player_id": "1", "member_id": "1", "key": "1", "code": "ZZZZZZZZ",
                "token": "no-such-token", "name": "app.css", "number": "31"}


def documented() -> dict[tuple[str, str], str]:
    """{(route, method): role} from the table of docs/web.md."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Every route and who may use it"):]
    rows = re.findall(r"^\| `([^`]+)` \| ([A-Z, ]+) \| (public|arbiter|officer) \|", section, flags=re.M)
    return {(route, method.strip()): role for route, methods, role in rows for method in methods.split(",")}


def routes() -> dict[tuple[str, str], str]:
    """{(route, method): role} as the app enforces it."""
    app = create_app(":memory:")
    return {(rule.rule, method): access.required(app.view_functions[rule.endpoint])
            for rule in app.url_map.iter_rules() for method in rule.methods - {"HEAD", "OPTIONS"}}


def test_the_table_in_the_docs_is_the_app_s_own():
    assert documented() == routes()


def address(route: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: SAMPLE_PARTS[m.group(1)], route)


def call(client: Client, route: str, method: str):
    if method == "GET":
        return client.get(address(route))
    # As the page's own script asks: a refusal keeps its status (403) instead of a redirect.
    return client.post(address(route), {"csrf": client.csrf("/login")}, headers={"X-Requested-With": "keizer"})


def to_login(answer) -> bool:
    return answer.status == 303 and "/login" in answer.location


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("roles")
    db = sample_copy(folder)
    with_users(db, ("anna", "officer"), ("bob", "arbiter"))
    with Served(db) as app:
        yield app


# Logging out ends the login the rest of the walk needs: it goes last.
ORDER = sorted(routes(), key=lambda r: (r == ("/logout", "POST"), r))


@pytest.mark.slow  # 3-4 s a role: every route of the app through the server
@pytest.mark.parametrize("role", ["stranger", "arbiter", "officer"])
def test_each_role_reaches_exactly_what_the_table_gives_it(served, role):
    client = served.client()
    if role != "stranger":
        assert client.login({"arbiter": "bob", "officer": "anna"}[role], PASSWORD).status == 303
    wrong = []
    for route, method in ORDER:
        needed = routes()[(route, method)]
        answer = call(client, route, method)
        allowed = access.allows(None if role == "stranger" else role, needed)
        sent_to_login = to_login(answer) and route != "/logout"  # where logging out itself leads
        if allowed and (answer.status == 403 or sent_to_login or answer.status >= 500):
            wrong.append(f"{method} {route}: {answer.status} {answer.location}, but {role} may")
        if not allowed and role == "stranger" and not to_login(answer):
            wrong.append(f"{method} {route}: {answer.status}, not the login page, for a stranger")
        if not allowed and role != "stranger" and answer.status != 403:
            wrong.append(f"{method} {route}: {answer.status}, not refused, for an {role}")
    assert not wrong, "\n".join(wrong)
