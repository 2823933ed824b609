"""Sane limits on what a user or a file may give (docs/database.md, "Limits").

Every number read from the command line or a file is checked against these before it
reaches SQLite (whose integers end at 2**63 - 1) or sizes anything in memory, and
every name, id or time control is checked as text.  What is refused is a
:class:`LimitError`, a refusal each view words.  Pure: no click, no sqlite.

>>> clean_text("\\u202eAnna\\u202c de Vries ", "a name", MAX_NAME)
'Anna de Vries'
>>> clean_text("\\u200b\\u202e", "a name", MAX_NAME)
Traceback (most recent call last):
keizer.limits.LimitError: a name must have a visible character (this one is only spaces or invisible characters)
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from keizer.refusals import Message, Refusal, Word

if TYPE_CHECKING:
    import datetime

#: What a refused value is, as a refusal names it: English (the command line), a word or a phrase of the catalog.
What = str | Word | Message

#: Rounds of a competition or a file; a round number.
MAX_ROUNDS = 999
#: Boards of a round; a match number.
MAX_BOARDS = 9999
#: Players of a competition or a file (TRF start ranks have four digits).
MAX_PLAYERS = 9999
#: Player ids in a season file.
MAX_ID = 64
#: Names of members, competitions and teams.
MAX_NAME = 200
#: A round's time control, e.g. "classical 90+30".
MAX_TIME_CONTROL = 100
#: A player's category, e.g. "A" or "youth".
MAX_CATEGORY = 50
#: Characters of a federation id (KNSB relatienummer, FIDE id, DSB-ID …), and its length.
FED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9./-]{0,31}")
#: Seeds of a drawing of lots: what SQLite and JSON readers hold exactly.
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1
#: Rows of 'keizer log -n'.
MAX_LOG = 1_000_000
#: Nesting of a season JSON file (five levels are used: file, rounds, round, games, game).
MAX_DEPTH = 32

#: Bidirectional controls: they reorder the text around them on web pages and terminals.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Invisible characters no name needs (zero-width space, word joiner, soft hyphen, a stray BOM):
#: removed, so that a pasted name cannot hide a namesake.  Joiners (U+200C/D) stay: scripts and
#: emoji sequences need them.
STRAY_INVISIBLES = frozenset("\u200b\u2060\u00ad\ufeff")
#: Letters and symbols that show nothing (Hangul fillers, the blank Braille pattern).
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Categories of characters that show nothing by themselves: spaces, format characters
#: (zero-width space and joiners), combining marks without a base.
_INVISIBLE = {"Zs", "Zl", "Zp", "Cf", "Mn", "Me", "Cc"}
#: A whole number as people write it: ASCII digits only ('²' and '٣' are refused).
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class LimitError(Refusal, ValueError):
    """A number, date or text that keizer cannot take, and why: a message id whose ``what``
    names the value (a catalog :class:`~keizer.refusals.Word` where a view translates it)."""


def text_problem(text: str, what: What, limit: int) -> LimitError | None:
    """Why ``text`` cannot be ``what`` (too long, control characters, nothing visible), or None."""
    if len(text) > limit:
        return LimitError("%(what)s can have at most %(most)s characters (this one has %(length)s)",
                          what=what, most=limit, length=len(text))
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cs":
            return LimitError("%(what)s is not valid text (undecodable bytes; save or type it as UTF-8)", what=what)
        if kind in ("Cc", "Zl", "Zp"):
            return LimitError("%(what)s cannot contain control characters (tabs, new lines)", what=what)
        if ch in BIDI_CONTROLS:
            return LimitError("%(what)s cannot contain right-to-left or left-to-right override characters", what=what)
    if all(unicodedata.category(ch) in _INVISIBLE or ch in _BLANK_GLYPHS for ch in text):
        return LimitError("%(what)s must have a visible character (this one is only spaces or invisible characters)",
                          what=what) if text else LimitError("%(what)s cannot be empty", what=what)
    return None


def clean_text(text: str, what: What, limit: int) -> str:
    """``text`` in NFC, trimmed, bidirectional controls and stray invisibles removed; a
    :class:`LimitError` saying why it cannot be ``what``.  Right-to-left names need no
    controls: the Unicode algorithm orders them."""
    cleaned = "".join(ch for ch in unicodedata.normalize("NFC", text)
                      if ch not in BIDI_CONTROLS and ch not in STRAY_INVISIBLES).strip()
    if text and not cleaned:  # nothing left: say why, not just "empty"
        raise LimitError("%(what)s must have a visible character (this one is only spaces or invisible characters)",
                         what=what)
    problem = text_problem(cleaned, what, limit)
    if problem:
        raise problem
    return cleaned


def is_digits(text: str, most: int = 18) -> bool:
    """Whether ``text`` is ASCII digits only, at most ``most`` of them: safe for ``int()`` and
    for SQLite ('²'.isdigit() holds but int('²') fails; Python refuses past 4,300 digits).

    >>> is_digits("42"), is_digits("²"), is_digits("٣"), is_digits("9" * 19), is_digits("")
    (True, False, False, False, False)
    """
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def day(text: str) -> datetime.date:
    """A date written YYYY-MM-DD (ASCII digits) in the years 1900–2999; a :class:`LimitError` saying why not.

    >>> day("2026-09-08")
    datetime.date(2026, 9, 8)
    >>> day("8-9-2026")
    Traceback (most recent call last):
    keizer.limits.LimitError: '8-9-2026' is not a date like 2026-09-08
    """
    import datetime  # here: most commands (`keizer trf pair`) read no date

    text = text.strip()
    try:
        if not _DAY.fullmatch(text):
            raise ValueError
        found = datetime.date.fromisoformat(text)
    except ValueError:
        raise LimitError("%(text)s is not a date like %(example)s", text=repr(text[:30]), example="2026-09-08") from None
    if not 1900 <= found.year <= 2999:
        raise LimitError("%(text)s is not a date between 1900 and 2999", text=text)
    return found


def whole_number(text: str, what: What, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``; a :class:`LimitError` saying why not.
    ASCII digits only, and a long digit-string is refused before any conversion (Python
    refuses past 4300 digits, SQLite past 2**63 - 1).

    >>> whole_number("12", "a board", 1, 99)
    12
    >>> whole_number("99999999999999999999999", "a board", 1, 99)
    Traceback (most recent call last):
    keizer.limits.LimitError: a board 99999999999999999999999 is out of range (1 to 99)
    """
    text = text.strip()
    shown = text if len(text) <= 30 else text[:27] + "..."
    if not _WHOLE.fullmatch(text):
        raise LimitError("%(what)s %(text)s is not a whole number", what=what, text=repr(shown))
    digits = text.lstrip("+-").lstrip("0")
    number = int(text) if len(digits) <= max(len(str(low)), len(str(high))) else None
    if number is None or not low <= number <= high:
        raise LimitError("%(what)s %(text)s is out of range (%(low)s to %(high)s)", what=what, text=shown, low=low,
                         high=high)
    return number


#: Letters that Unicode does not decompose into a base letter and an accent.
_UNACCENTED = str.maketrans({"ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d",
                             "ı": "i", "þ": "th", "ŀ": "l", "ħ": "h", "ŧ": "t"})


def name_order(name: str) -> tuple[str, str]:
    """The key that puts names A–Z as a reader expects, in every list of the app, the CLI and
    the site: case, accents and spaces aside (Łucja before Zoë, Émile among the E's), ties
    by the name as written.

    >>> sorted(["Zoë", "Łucja", "anna", "Émile"], key=name_order)
    ['anna', 'Émile', 'Łucja', 'Zoë']
    """
    return fold_name(name), name


def fold_name(text: str) -> str:
    """The form in which names are compared: case, accents, compatibility forms (NFKC) and
    runs of spaces ignored, so 'muller ' finds 'Müller' and two such names are namesakes.

    >>> fold_name("  Jürgen   MÜLLER ") == fold_name("jurgen muller")
    True
    >>> fold_name("Łukasz Wójcik"), fold_name("Anna\u00adde\u200b Vries")
    ('lukasz wojcik', 'annade vries')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold()).translate(_UNACCENTED)
    # Format characters (zero-width spaces, soft hyphens, a stray BOM) are invisible: ignored.
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)
                            and unicodedata.category(ch) != "Cf").split())
