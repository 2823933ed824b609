"""Who may do what in the app.

* Served on the loopback address with no account in the database, the person at the
  computer is the officer (one laptop at the club).
* Otherwise every page needs a login, except the login page, a member's personal link
  and a board's result link (those modules mark their views :func:`public`).
* An arbiter may run the evening (attendance, pairing, results); views that change
  members, competitions, settings or accounts, undo or publish are :func:`officer_only`.
* Every form that writes carries a CSRF token tied to the session (SameSite cookies
  alone do not protect older browsers or a same-site attacker).
* Failed logins are throttled per address and per name.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from functools import wraps
from typing import Any, Callable, TypeVar

from flask import Blueprint, Flask, current_app, flash, g, redirect, request, session, url_for
from markupsafe import Markup, escape

from keizer.operations import accounts
from keizer.web.context import _, refuse, render, store

F = TypeVar("F", bound=Callable[..., Any])

bp = Blueprint("auth", __name__)

#: Failed logins allowed in WINDOW seconds before the next is refused: for one name from one
#: address (a mistyped password), and more widely for one address (guessing many names; but
#: the club laptop and a club's network are one address for everyone) and for one name
#: (guessing one account from many addresses).
MAX_FAILURES = 5
MAX_PER_ADDRESS = 30
MAX_PER_NAME = 15
WINDOW = 300.0

_PUBLIC: set[Callable[..., Any]] = set()


def public(view: F) -> F:
    """A view anyone may reach without an account (a member's or a board's link checks
    its own token)."""
    _PUBLIC.add(view)
    return view


def officer_only(view: F) -> F:
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if g.user is None or g.user["role"] != "officer":
            return refuse("error: only an officer may do this; ask the competition leader", 403)
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def open_access() -> bool:
    """Local and no accounts: the person at the computer is the officer."""
    return bool(current_app.config["KEIZER_LOCAL"]) and not store().users()


class Throttle:
    """Failed attempts per key in a sliding window (in memory: one server process)."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def wait(self, *keys: str | tuple[str, int]) -> float:
        """Seconds until another attempt is allowed (0: now); a key may carry its own limit."""
        now = self.clock()
        with self._lock:
            longest = 0.0
            for item in keys:
                key, limit = item if isinstance(item, tuple) else (item, self.limit)
                times = self._failures[key]
                while times and times[0] <= now - self.window:
                    times.popleft()
                if len(times) >= limit:  # allowed again when the oldest of the last `limit` expires
                    longest = max(longest, times[-limit] + self.window - now)
            return longest

    def fail(self, *keys: str | tuple[str, int]) -> None:
        with self._lock:
            for item in keys:
                self._failures[item[0] if isinstance(item, tuple) else item].append(self.clock())


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def csrf_field() -> Markup:
    return Markup(f'<input type="hidden" name="csrf" value="{escape(csrf_token())}">'
                  f'<input type="hidden" name="back" value="{escape(request.full_path.rstrip("?"))}">')


def install(app: Flask) -> None:
    app.extensions["keizer_throttle"] = Throttle()
    app.jinja_env.globals.update(csrf_field=csrf_field, csrf_token=csrf_token)
    app.register_blueprint(bp)

    @app.before_request
    def who() -> Any:
        g.user = None
        g.origin = f"web from {request.remote_addr or 'an unknown address'}"
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            sent = request.form.get("csrf") or request.headers.get("X-CSRF-Token") or ""
            expected = session.get("csrf") or ""
            if not expected or not hmac.compare_digest(sent, expected):  # no session token: nothing matches
                return refuse("error: this form has expired or did not come from this app; "
                              "reload the page and try again", 400)
        if request.endpoint is None or app.view_functions.get(request.endpoint) in _PUBLIC:
            return None
        if open_access():
            g.user = {"name": "officer", "role": "officer", "open": True}
            g.origin = f"web (no accounts) from {request.remote_addr or 'an unknown address'}"
            return None
        name = session.get("user")
        user = store().user(name) if name else None
        if user is None:
            session.pop("user", None)
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")), code=303)
        g.user = {"name": user["name"], "role": user["role"], "open": False}
        g.origin = f"web: {user['name']} ({user['role']}) from {request.remote_addr or 'an unknown address'}"
        return None

    @app.context_processor
    def user() -> dict[str, Any]:
        return {"user": g.get("user")}

    @app.after_request
    def headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "frame-ancestors 'self'; form-action 'self'; base-uri 'none'")
        return response


@bp.route("/login", methods=["GET", "POST"])
@public
def login() -> Any:
    target = request.values.get("next", "/")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = "/"
    if request.method == "GET":
        return render("app/login.html", next=target)
    throttle: Throttle = current_app.extensions["keizer_throttle"]
    name = request.form.get("name", "").strip()
    keys = ((f"pair:{request.remote_addr}|{name.casefold()}", MAX_FAILURES),
            (f"addr:{request.remote_addr}", MAX_PER_ADDRESS), (f"name:{name.casefold()}", MAX_PER_NAME))
    wait = throttle.wait(*keys)
    if wait > 0:
        minutes = max(1, round(wait / 60))
        return render("app/login.html", status=429, next=target,
                      error=_("error: too many failed logins; wait %(n)s minute(s) and try again", n=minutes))
    user = accounts.authenticate(store(), name, request.form.get("password", ""))
    if user is None:
        throttle.fail(*keys)
        return render("app/login.html", status=401, next=target, error=_("error: wrong name or password"))
    session.clear()  # a new session at login: no fixation
    session["user"] = user["name"]
    csrf_token()
    return redirect(target, code=303)


@bp.route("/logout", methods=["POST"])
def logout() -> Any:
    session.clear()
    flash(_("logged out"), "info")
    return redirect(url_for("auth.login"), code=303)
