"""Refusals and messages that speak no view's language.

A rule that refuses raises a :class:`Refusal` (the store's ``StoreError``, the settings'
``SettingsError`` and the formats' ``FormatError`` are refusals): what was refused as a
message id — English, with ``%(name)s`` for its values — the values, and, when something
would fix it, the key of a hint.  Each view words it: the CLI in English with its flags
(``keizer.cli.words``), the app and its printed pages in the club's language with their
buttons and boxes (``keizer.web.words``).  ``str()`` is the message in English without
the hint, as a log or a test reads it.

>>> r = Refusal("round %(n)s has no board %(board)s", n=3, board=9)
>>> str(r)
'round 3 has no board 9'
>>> r.words(gettext=lambda s: s.replace("round", "ronde").replace("has no board", "heeft geen bord"))
'ronde 3 heeft geen bord 9'
>>> dutch = {"round %(n)s is %(state)s": "ronde %(n)s is %(state)s", "paired": "ingedeeld"}.get
>>> Refusal("round %(n)s is %(state)s", n=2, state=Word("paired")).words(gettext=lambda s: dutch(s, s))
'ronde 2 is ingedeeld'
>>> Refusal("check the date", hint="force").words(hints={"force": ", or give --force if it is right"})
'check the date, or give --force if it is right'
>>> inner = Refusal("%(name)s is not a number", name="x")
>>> Refusal("setting %(key)s: %(why)s", key="top", why=inner).words()
'setting top: x is not a number'

What a verb did is said the same way, as a :class:`Message` (an operation's outcome holds
one; the views word it):

>>> Message("round %(n)s: %(player)s is marked %(how)s", n=2, player="Kees", how=Word("unexcused")).words()
'round 2: Kees is marked unexcused'

A field of the request (an option, a box of a form) is a :class:`Field`: each view names it
as its user sees it, the CLI by its flag, the app by its label:

>>> Refusal("%(field)s is for Swiss tournaments", field=Field("rounds")).words(fields={"rounds": "--rounds"})
'--rounds is for Swiss tournaments'

A message without values is taken as written (a ``%`` in it is a percent sign), so a refusal
of an older kind, ``StoreError(f"…")``, still reads as it did; such a message has no id in
the catalogs and reaches a Dutch club in English (tests/test_no_english_in_a_dutch_club.py
lists what still does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Word:
    """A value that is itself a word of the catalog (an absence kind, 'before'): the view
    translates it as it translates the message."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Field:
    """A field of the request refused (an option, a box of a form), by its key: each view
    names it from its own table (key → name; the app's names are words of the catalog).
    Without a table it reads as its key."""

    key: str

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Words:
    """Several words of the catalog, listed with commas (the choices of a setting): each is
    translated as a :class:`Word` is.  The words are codes the catalog holds already, so they
    need not be literals where they are given.

    >>> Refusal("pick one of %(these)s", these=Words(("position", "range"))).words(
    ...     gettext=lambda s: {"position": "positie", "range": "bereik"}.get(s, s))
    'pick one of positie, bereik'
    """

    texts: tuple[str, ...]

    def __str__(self) -> str:
        return ", ".join(self.texts)


def _same(text: str) -> str:
    return text


Fields = Mapping[str, str] | None


def _words(message: str, values: Mapping[str, Any], hint: str | None, gettext: Callable[[str], str],
           hints: Mapping[str, str] | None, fields: Fields) -> str:
    filled = {k: _value(v, gettext, hints, fields) for k, v in values.items()}
    text = gettext(message)
    if filled:
        text = text % filled
    if hint is not None and hints and hint in hints:
        phrase = gettext(hints[hint])
        text += phrase % filled if filled else phrase
    return text


def _value(value: Any, gettext: Callable[[str], str], hints: Mapping[str, str] | None, fields: Fields) -> Any:
    if isinstance(value, Field):
        return gettext(fields[value.key]) if fields and value.key in fields else value.key
    if isinstance(value, Word):
        return gettext(value.text)
    if isinstance(value, Words):
        return ", ".join(gettext(t) for t in value.texts)
    if isinstance(value, (Refusal, Message)):  # quoting another (a setting's refusal, a file's)
        return value.words(gettext, hints, fields)
    if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):  # a list of them
        return ", ".join(v.words(gettext, hints, fields) for v in value)
    return value


@dataclass(frozen=True)
class Message:
    """What was done, as a message id with its ``values`` (and the key of a ``hint``): the
    views word it as they word a refusal."""

    text: str
    values: Mapping[str, Any] = field(default_factory=dict)
    hint: str | None = None

    def __init__(self, text: str, /, *, hint: str | None = None, **values: Any) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "hint", hint)

    def words(self, gettext: Callable[[str], str] = _same, hints: Mapping[str, str] | None = None,
              fields: Fields = None) -> str:
        return _words(self.text, self.values, self.hint, gettext, hints, fields)

    @classmethod
    def of(cls, text: str, /, **values: Any) -> Message:
        """A message whose id is a catalog literal marked elsewhere (``N_`` in a table: a system's
        ``created``), not written at the call."""
        return cls(text, **values)

    @classmethod
    def read_back(cls, text: str, values: Mapping[str, Any]) -> Message:
        """A message read back from where it was kept (the change log): its id was a literal
        of the code that made it, so the catalogs hold it."""
        return cls(text, **values)

    def __str__(self) -> str:
        return self.words()


class Refusal(Exception):
    """Something the user can fix: ``message`` (a message id) with its ``values``, and the
    ``hint`` key of what would fix it (the views word it)."""

    def __init__(self, message: str, /, *, hint: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.values = values

    def words(self, gettext: Callable[[str], str] = _same, hints: Mapping[str, str] | None = None,
              fields: Fields = None) -> str:
        """The refusal in a view's words: ``gettext`` translates the message, its words and the
        hint's phrase (from ``hints``, the view's table: key → phrase, joined as it is), and
        ``fields`` names the fields (key → the view's name for it)."""
        return _words(self.message, self.values, self.hint, gettext, hints, fields)

    def __str__(self) -> str:
        return self.words()


class LeavesFideRules(Refusal):
    """A change that would take a competition in FIDE mode out of the FIDE rules, refused until
    the user confirms it (each view says how: a flag and a question, a box to tick)."""
