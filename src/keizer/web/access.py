"""Who may reach each view of the app: deny by default.

Every view needs an officer unless it is marked :func:`public` (the login page, a
member's personal link, a board's result link and the static files: those check their
own token, or have nothing to guard) or :func:`arbiter` (the club evening: attendance,
pairing, results, printing, the venue screen, and reading every competition's pages).
A view added without a mark is the officer's, so forgetting the mark never opens a page.
The table in docs/web.md lists every route with its role, and a test walks them all.

>>> def page(): ...
>>> required(page)
'officer'
>>> required(arbiter(page))
'arbiter'
"""

from __future__ import annotations

from typing import Any, Callable, Literal, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

Role = Literal["public", "arbiter", "officer"]
#: Who may use each kind of view: an officer every view, an arbiter the arbiter's and the
#: public ones, anyone the public ones.
_RANK: dict[str, int] = {"public": 0, "arbiter": 1, "officer": 2}

_MARKED: dict[Callable[..., Any], Role] = {}


def public(view: F) -> F:
    """Anyone may reach this view without an account."""
    _MARKED[view] = "public"
    return view


def arbiter(view: F) -> F:
    """An arbiter may use this view (as may an officer)."""
    _MARKED[view] = "arbiter"
    return view


def required(view: Callable[..., Any] | None) -> Role:
    """The weakest role that may use ``view`` (an address of no view: public, it is a 404)."""
    if view is None:
        return "public"
    return _MARKED.get(view, "officer")


def allows(role: str | None, needed: Role) -> bool:
    """Whether a user of ``role`` (None: nobody logged in) may use a view that needs ``needed``."""
    return _RANK.get(role or "public", 0) >= _RANK[needed]
