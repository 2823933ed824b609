"""Names as the store keeps them, and the row a name (or a part of it) picks."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

from keizer.limits import MAX_NAME, LimitError, clean_text, fold_name
from keizer.refusals import Message, Word
from keizer.store.database import StoreError


def _clean_name(name: str) -> str:
    """NFC, trimmed, bidirectional controls removed; refused when empty, invisible, too long
    or holding control characters (keizer.limits)."""
    return _clean(name, Word("a name"), MAX_NAME)


def _clean(text: str, what: Word, limit: int) -> str:
    """:func:`keizer.limits.clean_text`, refusing as a :class:`StoreError` about ``what``."""
    try:
        return clean_text(text, what, limit)
    except LimitError as e:
        raise StoreError("%(why)s", why=e) from None


def _id_number(text: str) -> int | None:
    """A member id or start number written in ASCII digits ('１' and '²' are not), or None."""
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", fold_name(text))


def _has_words(name: str, words: list[str]) -> bool:
    """Whether ``words`` are whole words of ``name``, in a row: 'Ans' is in 'Ans Bakker', not in 'Hans'."""
    have = _words(name)
    return any(have[i:i + len(words)] == words for i in range(len(have) - len(words) + 1))


#: What refuses a name that picks no row, or several (``ref``; ``shown``: the rows it picks), of each kind of row.
_EMPTY: dict[str, Callable[[], StoreError]] = {
    "player": lambda: StoreError("an empty player name; give the name, or a part of it only that player has"),
    "member": lambda: StoreError("an empty member name; give the name, or a part of it only that member has"),
    "team": lambda: StoreError("an empty team name; give the name, or a part of it only that team has"),
    "competition": lambda: StoreError(
        "an empty competition name; give the name, or a part of it only that competition has"),
}
_SEVERAL: dict[str, Callable[[str, str, Any], StoreError]] = {
    "player": lambda ref, shown, more: StoreError(
        "%(ref)s matches several players: %(shown)s%(more)s; use the #number shown", ref=ref, shown=shown, more=more),
    "member": lambda ref, shown, more: StoreError(
        "%(ref)s matches several members: %(shown)s%(more)s; use the id shown", ref=ref, shown=shown, more=more),
    "team": lambda ref, shown, more: StoreError(
        "%(ref)s matches several teams: %(shown)s%(more)s; use the #number shown", ref=ref, shown=shown, more=more),
    "competition": lambda ref, shown, more: StoreError(
        "%(ref)s matches several competitions: %(shown)s%(more)s; use the id shown", ref=ref, shown=shown,
        more=more),
}
_NONE: dict[str, Callable[[str, str], StoreError]] = {
    "player": lambda ref, hint: StoreError("no player matches %(ref)s", hint=hint, ref=ref),
    "member": lambda ref, hint: StoreError("no member matches %(ref)s", hint=hint, ref=ref),
    "team": lambda ref, hint: StoreError("no team matches %(ref)s", hint=hint, ref=ref),
    "competition": lambda ref, hint: StoreError("no competition matches %(ref)s", hint=hint, ref=ref),
}


def pick_by_name(rows: list[dict[str, Any]], ref: str, what: str, hint: str | None = None) -> dict[str, Any]:
    """The row ``ref`` names.  Levels, the first with any hit deciding: the name exactly,
    then ignoring case, then ignoring case, accents and spaces, then whole words of the
    name ('Ans' is Ans Bakker, not Hans), then any part of it.  One hit picks it; several
    are an error listing them with the number that tells them apart.  ``what``: player,
    member, team or competition; ``hint``: the key of where to find them (default: the list
    of them, ``store_see_players`` …).

    >>> rows = [{"id": 1, "name": "Hans Ansink"}, {"id": 2, "name": "Ans Bakker"}]
    >>> pick_by_name(rows, "ans", "member")["name"]
    'Ans Bakker'
    """
    text = unicodedata.normalize("NFC", ref).strip()
    if not text:
        raise _EMPTY[what]()
    want, words = fold_name(text), _words(text)
    levels: list[Callable[[str], bool]] = [
        lambda name: name == text,  # "Jan de Vriës" picks Vriës even when a "Jan de Vries" exists too
        lambda name: name.casefold() == text.casefold(),
        lambda name: fold_name(name) == want,
        lambda name: bool(words) and _has_words(name, words),
        lambda name: want in fold_name(name),
    ]
    for matches in levels:
        hits = [r for r in rows if matches(r["name"])]
        if len(hits) == 1:
            return hits[0]
        if hits:
            shown = ", ".join(f"{r['name']} ({_number(r)})" for r in hits[:8])
            more = Message(" and %(n)s more", n=len(hits) - 8) if len(hits) > 8 else ""
            raise _SEVERAL[what](repr(ref[:40]), shown, more)
    raise _NONE[what](repr(ref[:40]), hint or f"store_see_{what}s")


def _number(row: dict[str, Any]) -> str:
    """What tells a row apart: a player's or team's start number, else the id."""
    return f"#{row['start_no']}" if "start_no" in row else f"id {row['id']}"
