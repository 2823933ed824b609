"""Languages of the published site: gettext catalogs and locale formatting.

Template strings are marked ``_("…")`` (gettext/Babel conventions); the
catalogs are ``keizer/locale/<lang>/LC_MESSAGES/keizer.po``, read with Babel.
English is the source language.  Numbers and dates follow the locale
(Dutch: ``23,15`` and ``8 september 2026``).

>>> t = translations("nl")
>>> t.gettext("Standings")
'Stand'
>>> format_number(Fraction(463, 20), 2, "nl")
'23,15'
"""

from __future__ import annotations

import gettext
import io
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

# Babel and importlib.resources are imported where they are used: the settings (and so every
# command, 'keizer trf pair' too) import this module for N_ alone, and Babel's start-up is
# a good part of a short command's.

LANGUAGES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "et": "Eesti"}
DOMAIN = "keizer"


def catalog_path(lang: str) -> Traversable:
    from importlib import resources

    return resources.files("keizer") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def N_(text: str) -> str:
    """Marks a message for the catalogs (``pybabel extract``); it is translated where it is shown."""
    return text


#: Words the site's pages show in every row of a table: translated once per site, not per row.
ROW_WORDS = {"withdrawn": N_("withdrawn"), "forfeit": N_("forfeit")}
#: A colour in one letter (Dutch: w and z), as crosstables and histories show it.
COLOUR_LETTERS = {"white": N_("w"), "black": N_("b")}
#: A crosstable's or attendance grid's cell in one letter, in the club's language (Dutch: A
#: afgemeld, Z zonder bericht; German: E entschuldigt, F Freilos …); "–" (not yet in the
#: competition, or withdrawn) is the same in every language.
CELL_LETTERS = {"game": N_("G"), "bye": N_("B"), "present": N_("P"), "excused": N_("E"), "unexcused": N_("U"),
                "club": N_("C"), "external": N_("X")}
#: What each letter of a crosstable's legend stands for (keizer.readmodel.cell_legend).
CELL_WORDS = {"white": N_("white"), "black": N_("black"), "game": N_("game"), "bye": N_("bye"),
              "present": N_("present without a game"), "excused": N_("excused"), "unexcused": N_("unexcused"),
              "club": N_("club duty"), "external": N_("external game"), "out": N_("not (yet) in the competition")}


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of one language (English: the strings as written)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (choose from {', '.join(LANGUAGES)})")
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def format_number(value: Fraction | int | float | Decimal | None, decimals: int, lang: str,
                  grouped: bool = True) -> str:
    """Rounded half up to at most ``decimals``, with the locale's separators (``grouped``
    False: no thousands separator, as ratings are written).

    >>> format_number(Fraction(24351, 2), 2, "de"), format_number(Fraction(-1, 3), 2, "en")
    ('12.175,5', '-0.33')
    >>> format_number(1716, 2, "en", grouped=False)
    '1716'
    """
    if value is None:
        return ""
    if isinstance(value, int):  # the cache's key is a pair of integers: a Fraction's hash is slow
        return _format(int(value), 1, decimals, lang, grouped)
    if not isinstance(value, Fraction):  # a float of JSON data (the venue screen's), or a Decimal
        value = Fraction(value)
    return _format(value.numerator, value.denominator, decimals, lang, grouped)


def format_percentage(value: Fraction | None, lang: str) -> str:
    """A share (0 … 1) as a whole percentage: ``format_percentage(Fraction(2, 3), "en")`` is '67'."""
    if value is None:
        return ""
    return _format(value.numerator * 100, value.denominator, 0, lang)


@lru_cache(maxsize=1 << 17)
def _format(numerator: int, denominator: int, decimals: int, lang: str, grouped: bool = True) -> str:
    exact = Decimal(numerator) / Decimal(denominator)
    rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = f"{rounded:,f}" if grouped else f"{rounded:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    group, decimal = _symbols(lang)
    return text.translate({ord(","): group, ord("."): decimal})


@cache
def _symbols(lang: str) -> tuple[str, str]:
    from babel.numbers import get_decimal_symbol, get_group_symbol

    return get_group_symbol(locale=lang), get_decimal_symbol(locale=lang)


def format_day(iso: str | None, lang: str) -> str:
    """A date as the language writes it in full ("3 december 2026"); a text that is no date as it is."""
    if not iso:
        return ""
    return _format_day(iso, lang)


@lru_cache(maxsize=4096)  # a site writes the same few hundred dates thousands of times
def _format_day(iso: str, lang: str) -> str:
    from babel.dates import format_date as babel_format_date

    try:
        return babel_format_date(date.fromisoformat(iso), format="long", locale=lang)
    except ValueError:
        return iso
