"""Names as the store keeps them, and the row a name (or a part of it) picks."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

from keizer.limits import MAX_NAME, clean_text, fold_name
from keizer.store.database import StoreError


def _clean_name(name: str) -> str:
    """NFC, trimmed, bidirectional controls removed; refused when empty, invisible, too long
    or holding control characters (keizer.limits)."""
    try:
        return clean_text(name, "a name", MAX_NAME)
    except ValueError as e:
        raise StoreError(str(e)) from None


def _id_number(text: str) -> int | None:
    """A member id or start number written in ASCII digits ('１' and '²' are not), or None."""
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", fold_name(text))


def _has_words(name: str, words: list[str]) -> bool:
    """Whether ``words`` are whole words of ``name``, in a row: 'Ans' is in 'Ans Bakker', not in 'Hans'."""
    have = _words(name)
    return any(have[i:i + len(words)] == words for i in range(len(have) - len(words) + 1))


def pick_by_name(rows: list[dict[str, Any]], ref: str, what: str, hint: str) -> dict[str, Any]:
    """The row ``ref`` names.  Levels, the first with any hit deciding: the name exactly,
    then ignoring case, then ignoring case, accents and spaces, then whole words of the
    name ('Ans' is Ans Bakker, not Hans), then any part of it.  One hit picks it; several
    are an error listing them with the number that tells them apart.

    >>> rows = [{"id": 1, "name": "Hans Ansink"}, {"id": 2, "name": "Ans Bakker"}]
    >>> pick_by_name(rows, "ans", "member", "list")["name"]
    'Ans Bakker'
    """
    text = unicodedata.normalize("NFC", ref).strip()
    if not text:
        raise StoreError(f"an empty {what} name; give the name, or a part of it only that {what} has")
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
            more = f" and {len(hits) - 8} more" if len(hits) > 8 else ""
            use = "#number" if "start_no" in hits[0] else "id"
            raise StoreError(f"{ref[:40]!r} matches several {what}s: {shown}{more}; use the {use} shown")
    raise StoreError(f"no {what} matches {ref[:40]!r}; see '{hint}'")


def _number(row: dict[str, Any]) -> str:
    """What tells a row apart: a player's or team's start number, else the id."""
    return f"#{row['start_no']}" if "start_no" in row else f"id {row['id']}"
