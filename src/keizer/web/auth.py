"""Who may do what in the app, and from where.

* Only the host names the server was told to answer to are served (:func:`host_name`):
  a web page elsewhere that rebinds its own name to this computer (DNS rebinding) gets 400.
* Served on the loopback address with no account in the database, the person at the
  computer is the officer (one laptop at the club).
* Otherwise every page needs a login, except those :mod:`keizer.web.access` marks public
  (the login page, a member's personal link, a board's result link).  Each view needs the
  role ``access`` gives it: an officer unless marked otherwise.
* A login is kept by the server (:mod:`keizer.web.sessions`): logging out, a new password
  or a removed account ends it, and it ends by itself when left idle.
* Every form that writes carries a CSRF token tied to the session (SameSite cookies
  alone do not protect older browsers or a same-site attacker).
* Failed logins are throttled per name and address, per address and per name; an attempt
  counts as it starts, so that many at once are held to the same limit.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from typing import Any, Callable

from flask import Blueprint, Flask, current_app, flash, g, redirect, request, session, url_for
from markupsafe import Markup, escape

from keizer.limits import MAX_NAME
from keizer.operations import accounts
from keizer.refusals import Message, Word
from keizer.web import access
from keizer.web.sessions import Sessions
from keizer.web.context import _, refuse, render, safe_path, setup_pending, store, wants_json

bp = Blueprint("auth", __name__)

#: Failed logins allowed in WINDOW seconds before the next is refused: for one name from one
#: address (a mistyped password), and more widely for one address (guessing many names; but
#: the club laptop and a club's network are one address for everyone) and for one name
#: (guessing one account from many addresses).
MAX_FAILURES = 5
MAX_PER_ADDRESS = 30
MAX_PER_NAME = 15
WINDOW = 300.0
#: The largest form a page sends (an attendance list of 600 players is some 20 kB) ...
MAX_FORM = 1024 * 1024
#: ... and the views that take a file (a member list, a KeizerForClubs file): up to the app's
#: MAX_CONTENT_LENGTH.
FILE_UPLOADS = frozenset({"members.upload", "club.restore"})
#: ... and the forms that may carry the club's logo (at most 1 MB itself).
LOGO_FORMS = frozenset({"setup.form", "club.general"})
#: Keys a throttle keeps before it forgets those with no failure left in the window: what a
#: stranger sending many names can make it hold.
MAX_KEYS = 10_000
#: What a server waiting for a new club to be created shows (every other address leads to the form):
#: the form, the link that opens it, and what its page loads.
SETUP_OPEN = frozenset({"setup.start", "setup.form", "static", "favicon", "home.club_css"})
#: The names of this computer, which a browser here uses for the app.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


class Throttle:
    """Failed attempts per key in a sliding window (in memory: one server process)."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def wait(self, *keys: str | tuple[str, int]) -> float:
        """Seconds until another attempt is allowed (0: now); a key may carry its own limit."""
        with self._lock:
            return self._wait(self.clock(), keys)

    def fail(self, *keys: str | tuple[str, int]) -> None:
        with self._lock:
            self._count(self.clock(), keys)

    def attempt(self, *keys: str | tuple[str, int], unchecked: tuple[str, ...] = ()) -> tuple[float, float]:
        """Check and count in one step: (0, stamp) when the attempt may go on, counted as a
        failure until :meth:`forgive` takes it back; (seconds to wait, 0) when refused (not
        counted).  Attempts made at the same time cannot all pass the check before any counts.
        ``unchecked`` keys are counted but do not refuse this attempt."""
        with self._lock:
            now = self.clock()
            wait = self._wait(now, keys)
            if wait > 0:
                return wait, 0.0
            self._count(now, keys + unchecked)
            return 0.0, now

    def forgive(self, stamp: float, *keys: str | tuple[str, int]) -> None:
        """Take back an attempt that :meth:`attempt` counted: it succeeded."""
        with self._lock:
            for key, _limit in self._keys(keys):
                times = self._failures.get(key)
                if times is not None and stamp in times:  # else the window forgot it already
                    times.remove(stamp)

    def failures(self, key: str) -> int:
        """Failures of ``key`` in the window now."""
        with self._lock:
            self._wait(self.clock(), (key,))
            return len(self._failures.get(key, ()))

    def _count(self, now: float, keys: tuple[str | tuple[str, int], ...]) -> None:
        if len(self._failures) >= MAX_KEYS:  # forget the keys whose failures all left the window
            for key in [k for k, times in self._failures.items() if not times or times[-1] <= now - self.window]:
                del self._failures[key]
        for key, _limit in self._keys(keys):
            self._failures[key].append(now)

    def _keys(self, keys: tuple[str | tuple[str, int], ...]) -> list[tuple[str, int]]:
        return [item if isinstance(item, tuple) else (item, self.limit) for item in keys]

    def _wait(self, now: float, keys: tuple[str | tuple[str, int], ...]) -> float:
        longest = 0.0
        for key, limit in self._keys(keys):
            times = self._failures.get(key)  # not [key]: a refused attempt must not add a key
            if times is None:
                continue
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= limit:  # allowed again when the oldest of the last `limit` expires
                longest = max(longest, times[-limit] + self.window - now)
        return longest


def host_name(host: str) -> str:
    """The name in a Host header, without its port, as compared with the names served.

    >>> host_name("Schaak.Example.NL.:443"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('schaak.example.nl', '[::1]', '127.0.0.1')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] or host
    return (host.rsplit(":", 1)[0] if host.count(":") == 1 else host).rstrip(".")


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def csrf_field() -> Markup:
    return Markup(f'<input type="hidden" name="csrf" value="{escape(csrf_token())}">'
                  f'<input type="hidden" name="back" value="{escape(safe_path(request.full_path.rstrip("?")))}">')


def open_access() -> bool:
    """Local and no accounts: the person at the computer is the officer."""
    return bool(current_app.config["KEIZER_LOCAL"]) and not store().users()


def may(endpoint: str) -> bool:
    """Whether the user of this request may use the view of ``endpoint`` (for the navigation)."""
    user = g.get("user")
    return access.allows(user["role"] if user else None, access.required(current_app.view_functions.get(endpoint)))


def install(app: Flask) -> None:
    app.extensions["keizer_throttle"] = Throttle()
    app.extensions["keizer_sessions"] = Sessions()
    app.jinja_env.globals.update(csrf_field=csrf_field, csrf_token=csrf_token, may=may)
    app.register_blueprint(bp)

    @app.before_request
    def served_host() -> Any:
        """Only the names this server answers to: not a page elsewhere whose name now leads here.
        And no form larger than a page sends, but for a file being imported: a stranger's
        POST is not read into memory to the last of 64 MB."""
        if request.endpoint in LOGO_FORMS:
            request.max_content_length = 2 * MAX_FORM
        elif request.endpoint not in FILE_UPLOADS:
            request.max_content_length = MAX_FORM
        name = host_name(request.host)
        if name not in app.config["KEIZER_HOSTS"]:
            g.user = None
            return render("app/error.html", status=400,
                          message=_("error: this app does not answer to the name %(name)s; open it at the address "
                                    "it was started with", name=name[:80]))
        return None

    @app.before_request
    def who() -> Any:
        g.user = None
        g.origin = Message("web from %(address)s", address=request.remote_addr or Word("an unknown address"))
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            sent = request.form.get("csrf") or request.headers.get("X-CSRF-Token") or ""
            expected = session.get("csrf") or ""
            if not expected or not hmac.compare_digest(sent, expected):  # no session token: nothing matches
                # Said on a page of its own: a form from elsewhere leaves nothing in the session
                # (no message, no kept fields, no new cookie) and goes nowhere it names.
                message = _("error: this form has expired or did not come from this app; "
                            "reload the page and try again")
                return ({"error": message}, 400) if wants_json() else render("app/error.html", 400, message=message)
        if setup_pending() and request.endpoint not in SETUP_OPEN:  # no club yet: only the page that creates it
            return redirect(url_for("setup.form"), code=303)
        needed = access.required(app.view_functions.get(request.endpoint or ""))
        if needed == "public":
            return None
        if open_access():
            g.user = {"name": "officer", "role": "officer", "open": True}
            g.origin = Message("web (no accounts) from %(address)s", address=request.remote_addr or Word("an unknown address"))
            return None
        user = _session_user()
        if user is None:
            return redirect(url_for("auth.login", next=safe_path(request.full_path.rstrip("?"))), code=303)
        g.user = {"name": user["name"], "role": user["role"], "open": False}
        g.origin = Message("web: %(name)s (%(role)s) from %(address)s", name=user["name"],
                           role=Word("officer") if user["role"] == "officer" else Word("arbiter"),
                           address=request.remote_addr or Word("an unknown address"))
        if not access.allows(user["role"], needed):
            return refuse(_("error: only an officer may do this; ask the competition leader"), 403)
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


def _session_user() -> dict[str, Any] | None:
    """The account of this request's login while it lasts (see :mod:`keizer.web.sessions`);
    a login that ended is cleared from the cookie, saying so once."""
    key, name = session.get("key"), session.get("user")
    user = store().user(name) if isinstance(name, str) else None
    if isinstance(key, str) and user is not None and _logins().check(key, user, store().logins_ended(user["name"])):
        assert user is not None
        return user
    if "user" in session or "key" in session:
        session.clear()
        flash(_("your session has ended; log in again"), "info")
    return None


def _logins() -> Sessions:
    logins: Sessions = current_app.extensions["keizer_sessions"]
    return logins


def login_as(user: dict[str, Any]) -> None:
    """Start a new login of ``user`` (a row with its password hash) in this browser: a new
    session cookie, so no fixation."""
    session.clear()
    session["user"] = user["name"]
    session["key"] = _logins().start(user)
    csrf_token()


@bp.route("/login", methods=["GET", "POST"])
@access.public
def login() -> Any:
    target = safe_path(request.values.get("next"))
    if request.method == "GET":
        return render("app/login.html", next=target)
    throttle: Throttle = current_app.extensions["keizer_throttle"]
    name = request.form.get("name", "").strip()
    folded = name.casefold()[:MAX_NAME]  # a key of bounded size, whatever is typed (no name is longer)
    address = f"addr:{request.remote_addr}"
    keys: tuple[tuple[str, int], ...] = ((f"pair:{request.remote_addr}|{folded}", MAX_FAILURES),
                                         (address, MAX_PER_ADDRESS))
    # The limit of one name from anywhere holds only addresses that failed lately themselves: a
    # stranger's guesses from elsewhere do not lock the officer out of a computer they never failed on.
    by_name = (f"name:{folded}", MAX_PER_NAME)
    checked = keys + (by_name,) if throttle.failures(address) else keys
    wait, stamp = throttle.attempt(*checked, unchecked=() if checked != keys else (by_name[0],))
    if wait > 0:
        minutes = max(1, round(wait / 60))
        return render("app/login.html", status=429, next=target,
                      error=_("error: too many failed logins; wait %(n)s minute(s) and try again", n=minutes))
    if accounts.authenticate(store(), name, request.form.get("password", "")) is None:
        return render("app/login.html", status=401, next=target, error=_("error: wrong name or password"))
    throttle.forgive(stamp, *keys, by_name)
    login_as(accounts.find_user(store(), name))
    return redirect(target, code=303)


@bp.route("/logout", methods=["POST"])
@access.arbiter
def logout() -> Any:
    key = session.get("key")
    if isinstance(key, str):
        _logins().end(key)  # this login ends here, whoever holds a copy of the cookie
    session.clear()
    flash(_("logged out"), "info")
    return redirect(url_for("auth.login"), code=303)
