"""Logins kept by the server, so that they can end (OWASP ASVS 3.3).

The session cookie holds only a random key; what it stands for lives here, in the server's
memory: whose login it is, a fingerprint of that account's password hash, when it began and
when it was last used.  So a login ends

* at logout (its key is forgotten: a copy of the cookie is worth nothing),
* when the account's password changes or the account goes, in the app or with
  ``keizer user`` in a terminal (the database says when its logins ended; an undo of the
  change does not bring them back),
* after :data:`IDLE` seconds without a request, and :data:`LIFETIME` seconds after it began,
* when the server stops (nothing of it is written down, neither in the club's file nor
  elsewhere: everyone logs in again after a restart).

>>> now = [1000.0]
>>> logins = Sessions(clock=lambda: now[0])
>>> anna = {"name": "Anna", "password_hash": "$argon2id$…"}
>>> key = logins.start(anna)
>>> logins.check(key, anna)
True
>>> now[0] += IDLE + 1
>>> logins.check(key, anna)
False
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

#: A login lasts at most this long (a club evening and more), and ends sooner when left
#: this long without a request.
LIFETIME = 12 * 3600.0
IDLE = 2 * 3600.0


@dataclass
class _Login:
    name: str
    password: str  # the fingerprint of the account's password hash at login
    started: float
    seen: float


class Sessions:
    """The logins of this server process, by their cookie's key."""

    def __init__(self, lifetime: float = LIFETIME, idle: float = IDLE,
                 clock: Callable[[], float] = time.time) -> None:
        self.lifetime, self.idle, self.clock = lifetime, idle, clock
        self._logins: dict[str, _Login] = {}
        self._lock = threading.Lock()

    def start(self, user: dict[str, Any]) -> str:
        """A new login of ``user`` (a row with its name and password hash): the key for its cookie."""
        key = secrets.token_urlsafe(32)
        now = self.clock()
        with self._lock:
            self._forget_ended(now)
            self._logins[key] = _Login(user["name"].casefold(), _fingerprint(user["password_hash"]), now, now)
        return key

    def check(self, key: str, user: dict[str, Any] | None, ended: float | None = None) -> bool:
        """Whether ``key`` is a login of ``user`` (the account as it is now; None: gone) that
        lasts, and began after the account's logins last ``ended``; a login that ended is
        forgotten, one that lasts counts as used now."""
        now = self.clock()
        with self._lock:
            login = self._logins.get(key)
            if login is None:
                return False
            if (user is None or login.name != user["name"].casefold()
                    or not secrets.compare_digest(login.password, _fingerprint(user["password_hash"]))
                    or (ended is not None and login.started < ended) or self._ended(login, now)):
                del self._logins[key]
                return False
            login.seen = now
            return True

    def end(self, key: str) -> None:
        with self._lock:
            self._logins.pop(key, None)

    def _ended(self, login: _Login, now: float) -> bool:
        return now - login.started >= self.lifetime or now - login.seen >= self.idle

    def _forget_ended(self, now: float) -> None:
        for key in [k for k, login in self._logins.items() if self._ended(login, now)]:
            del self._logins[key]


def _fingerprint(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode("utf-8")).hexdigest()
