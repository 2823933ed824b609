"""The web app (``keizer serve``): the club evening in a browser.

A thin view over the operations (:mod:`keizer.operations`), as the CLI is: every
page that writes calls the same function the click command calls, in one
transaction, and shows the same one-line message when it refuses.  See
``docs/web.md``.

>>> app = create_app(":memory:", local=True)
>>> app.config["KEIZER_LOCAL"]
True
"""

from __future__ import annotations

import gc
import secrets
from collections.abc import Collection
from pathlib import Path

from flask import Flask

from keizer.web import auth, context
from keizer.web.routing import LazyBuilderRule
from keizer.web.views import BLUEPRINTS, navigation


#: The cyclic garbage collector's thresholds in a process that serves the app (:func:`served_gc`).
SERVED_GC = (100_000, 20, 20)


def served_gc() -> None:
    """Collect cyclic garbage less often in a process that serves the app (``keizer serve``).

    At 600 players and 52 rounds a request reads the season (some 100,000 objects), and the
    kept standings and pages (:mod:`keizer.kept`) stay in memory; with Python's default
    thresholds (700, 10, 10) what a request reads outlives the young collections, and every
    few requests a full collection walks everything kept (about 60 ms of CPU): the p95 of
    the standings page was 125 ms of CPU against a p50 of 68. With these, a request's
    objects are gone before the first collection (p95 63 ms; issue 25)."""
    gc.set_threshold(*SERVED_GC)


def create_app(db: str | Path, *, local: bool = True, secure_cookies: bool | None = None,
               secret_key: str | bytes | None = None, hosts: Collection[str] | None = None,
               setup_token: str | None = None) -> Flask:
    """The app over the season database ``db``.

    ``local``: the server listens on the loopback address only; then, while no account
    exists, the person at the computer is the officer.  Otherwise every page but the
    login page, a member's link and a board's link needs an account.
    ``secure_cookies`` (default: not ``local``) sends the session cookie over HTTPS only.
    ``hosts``: the host names the app answers to (default: this computer's own, as a
    browser on it names it); any other Host header is refused, so that a web page whose
    name is made to lead here (DNS rebinding) reaches nothing.  Behind a reverse proxy the
    server (``keizer serve --behind-proxy``) gives the app the client's address, scheme and
    host name from the proxy's headers.
    ``setup_token``: there is no database yet; the one who opens ``/setup/<setup_token>`` (the
    link ``keizer serve`` printed on its terminal) creates the club and its first officer, and
    every other page waits for that (:mod:`keizer.web.views.setup`).
    """
    app = Flask(__name__, static_folder=None, template_folder=None)
    app.url_rule_class = LazyBuilderRule  # its URL builders made when first used (keizer.web.routing)
    app.config.update(
        KEIZER_DB=str(db),
        KEIZER_LOCAL=local,
        KEIZER_HOSTS=frozenset(auth.host_name(h) for h in (auth.LOOPBACK_NAMES if hosts is None else hosts)),
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=(not local) if secure_cookies is None else secure_cookies,
        SESSION_COOKIE_NAME="keizer_session",
        MAX_CONTENT_LENGTH=64 * 1024 * 1024,  # a member list or a season file, not more
        KEIZER_SETUP_TOKEN=setup_token,
    )
    context.install(app)
    auth.install(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.context_processor(navigation)
    return app
