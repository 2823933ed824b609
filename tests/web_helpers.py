"""Shared helpers of the web app's tests (route tests with Flask's test client)."""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from argon2 import PasswordHasher

from keizer.operations import accounts
from keizer.web import create_app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_club.db"
TOKEN = "test-csrf-token"


def sample_app(tmp_path: Path, local: bool = True, **options: Any):
    """The app over a copy of the shipped sample club, and the copy's path."""
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    app = create_app(db, local=local, secret_key="test", **options)
    app.config["TESTING"] = True
    return app, db


class _HashedOnce:
    """The app's password hasher, except that each password is hashed once per test run, with
    Argon2id's lightest parameters.  Verifying a hash costs what its own parameters say (they
    are stored in it): at the app's cost, 0.1-0.2 s by design, the web tests' logins took
    some 6 s of the quick run's CPU."""

    def __init__(self, hasher: Any) -> None:
        self._hasher = hasher
        self._light = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)

    @functools.cache
    def hash(self, password: str) -> str:
        return self._light.hash(password)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hasher, name)


_HASHED_ONCE = _HashedOnce(accounts._hasher)


@contextmanager
def hashed_once() -> Iterator[None]:
    """Within it, the accounts a test sets up reuse one light Argon2id hash per password for
    the whole run (see :class:`_HashedOnce`).  The hash is a real one of that password, so
    logging in and its checks are as with an account the app made; only set-up helpers use
    this, never a test of adding an account or changing a password."""
    with mock.patch.object(accounts, "_hasher", _HASHED_ONCE):
        yield


def client_with_csrf(app):
    """A test client whose session holds a known CSRF token (forms send it with :func:`post`)."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf"] = TOKEN
    return client


def post(client, url: str, data: dict[str, Any] | None = None, follow: bool = True, **kwargs: Any):
    """Submit a form as the page would (with the CSRF token), following the redirect."""
    return client.post(url, data={"csrf": TOKEN, **(data or {})}, follow_redirects=follow, **kwargs)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def text(response) -> str:
    """The page's visible text, tags stripped and whitespace folded (for asserting messages)."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    import html

    return " ".join(html.unescape(body).split())

def app_hints(message: str) -> str:
    """A CLI refusal with its hint said as the app says it (its pages and buttons, never a
    command): the two views word the same hint key."""
    from keizer.cli.words import HINTS as CLI_HINTS
    from keizer.web.words import HINTS as APP_HINTS

    for key in sorted(CLI_HINTS, key=lambda k: -len(CLI_HINTS[k])):
        if key in APP_HINTS:  # a value in the phrase ('keizer result %(board)s=clear') matches any text
            parts = re.split(r"%\((\w+)\)s", CLI_HINTS[key])
            pattern = "".join(re.escape(s) if k % 2 == 0 else f"(?P<{s}>[^;]+?)" if s not in parts[1:k:2] else f"(?P={s})"
                              for k, s in enumerate(parts))
            message = re.sub(pattern, lambda m: APP_HINTS[key] % m.groupdict(), message)
    return message


def app_words(message: str) -> str:
    """A CLI refusal as the app words it in English: its hint as :func:`app_hints` says it, and
    each field by the label of its box where the command line names the flag."""
    from keizer.cli.words import FIELDS as CLI_FIELDS
    from keizer.web.words import FIELDS as APP_FIELDS

    message = app_hints(message)
    for key in sorted(CLI_FIELDS, key=lambda k: -len(CLI_FIELDS[k])):
        message = re.sub(re.escape(CLI_FIELDS[key]) + r"(?![\w-])", lambda m, label=APP_FIELDS[key]: label, message)
    return message
