"""Accounts of the web app: officers and arbiters with a password.

The password is hashed with Argon2id (argon2-cffi, the memory-hard algorithm OWASP
recommends first) and never stored.  ``keizer user …`` and the app's users page call
these same functions.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from keizer.refusals import Word
from keizer.store import Store, StoreError

#: An officer may do everything; an arbiter runs the club evening (attendance, pairing,
#: results) but changes no member, competition, setting or account, undoes nothing and
#: does not publish.
ROLES = ("officer", "arbiter")
MIN_PASSWORD = 10

_hasher = PasswordHasher()


@functools.cache
def _dummy() -> str:
    """Verified against an unknown name, so that a wrong name takes as long as a wrong password.
    Made on the first login, not at import: hashing takes a third of a second, which every
    command and every start of the app paid before."""
    return _hasher.hash("not a password of anyone")


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise StoreError("the password is too short: use at least %(n)s characters", n=MIN_PASSWORD)
    if password.strip() != password:
        raise StoreError("the password starts or ends with a space; leave those out")


def check_new_user(store: Store, name: str, role: str) -> None:
    """Refuse a taken name or an unknown role before a password is asked for."""
    _check_role(role)
    if store.user(name.strip()) is not None:
        raise StoreError("there is already a user %(name)s; choose another name or change the password",
                         hint="su_set_password", name=repr(name.strip()), user=name.strip())


def _check_role(role: str) -> None:
    if role not in ROLES:  # the roles are in the id: the app names them in the club's language
        raise StoreError("role must be one of officer, arbiter, not %(role)s", role=repr(role))


def add_user(store: Store, name: str, role: str, password: str) -> dict[str, Any]:
    check_new_user(store, name, role)
    check_password(password)
    store.add_user(name, role, _hasher.hash(password))
    store.end_logins(name.strip(), time.time())  # a removed account's name made anew: none of its logins
    return _public(store.user(name.strip()))


def set_password(store: Store, name: str, password: str) -> None:
    check_password(password)
    user = find_user(store, name)
    store.update_user(user["id"], password_hash=_hasher.hash(password))
    store.end_logins(user["name"], time.time())  # whoever logged in with the old one is out, undo or not


def set_role(store: Store, name: str, role: str) -> None:
    _check_role(role)
    user = find_user(store, name)
    if user["role"] == "officer" and role != "officer" and _officers(store) == 1:
        raise _last_officer(user)
    store.update_user(user["id"], role=role)


def remove_user(store: Store, name: str) -> dict[str, Any]:
    user = find_user(store, name)
    if user["role"] == "officer" and _officers(store) == 1 and len(store.users()) > 1:
        raise _last_officer(user)
    store.remove_user(user["id"])
    store.end_logins(user["name"], time.time())  # and an undo of the removal brings no login back
    return _public(user)


def _last_officer(user: dict[str, Any]) -> StoreError:
    return StoreError("%(name)s is the last officer; make another user officer first", hint="su_make_officer",
                      name=user["name"])


def _officers(store: Store) -> int:
    return sum(1 for u in store.users() if u["role"] == "officer")


def find_user(store: Store, name: str) -> dict[str, Any]:
    user = store.user(name.strip())
    if user is None:
        known = ", ".join(u["name"] for u in store.users()) or Word("none yet")
        raise StoreError("no user %(name)s (users: %(known)s)", hint="su_add_user", name=repr(name), known=known)
    return user


def authenticate(store: Store, name: str, password: str) -> dict[str, Any] | None:
    """The user if the password is right, else None (in the same time either way)."""
    dummy = _dummy()  # made (once) whether the name is known or not: the first login too takes as long
    user = store.user(name.strip()) if name.strip() else None
    try:
        _hasher.verify(user["password_hash"] if user else dummy, password)
    except (VerificationError, InvalidHashError):
        return None
    return _public(user) if user else None


def _public(user: dict[str, Any] | None) -> dict[str, Any]:
    assert user is not None
    return {k: v for k, v in user.items() if k != "password_hash"}
