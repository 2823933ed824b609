"""The club's own settings: its name, colours, language (of the app, the printed pages and
the site), logo, season, template folder, the site folder and the upload target.  The
app, the CLI and the site generator read them here.

>>> from keizer.store import Store
>>> store = Store.memory()
>>> with store.change("club", "club settings"):
...     set_club(store, name="SV Caïssa", language="nl")
>>> club_settings(store)["language"]
'nl'
"""

from __future__ import annotations

import base64
import re
import unicodedata
from pathlib import Path

from keizer.formats.logo import checked_logo
from keizer.formats.targets import parse_target
from keizer.i18n import LANGUAGES
from keizer.limits import MAX_NAME, clean_text
from keizer.refusals import Message, Word
from keizer.store import Store, StoreError

#: The club settings a refusal names in the club's words.
_KEYS = {"name": Word("name"), "season": Word("season")}

_COLOUR = re.compile(r"#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?")

#: The meta key of the upload address the server's own password (``$KEIZER_UPLOAD_PASSWORD``, the
#: keyring) may go to from the app: the club's upload address as last set or used in a terminal.
#: The app may change the club's upload address, never this one: an officer's account does not
#: give the server's password away.
PASSWORD_TARGET = "upload_password_target"
#: The meta key of the club's site folder: where the app publishes (the folder the club set,
#: or the folder last published into from the app, which may only choose one beside the database).
SITE_FOLDER = "publish_folder"
#: Club settings kept in the database's meta table, with their defaults.
CLUB_SETTINGS = {"name": "Chess club", "colour": "#1f4e79", "accent": "#c8102e", "language": "en",
                 "season": "", "templates": "", "upload": "", "site": "", "evening_time": ""}
#: The site's public address: the feeds' ids and links are made from it (stable when the club is renamed).
_SITE = re.compile(r"https?://[^\s/?#@]+(/[^\s?#]*)?")
#: When a club evening starts (and ends): 20:00, or 19:45-23:30.
EVENING_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)(?:-([01]?\d|2[0-3]):([0-5]\d))?")


def club_settings(store: Store) -> dict[str, str]:
    return {k: store.get_meta(f"club_{k}") or v for k, v in CLUB_SETTINGS.items()}


def set_club(store: Store, logo: Path | None = None, **values: str | None) -> None:
    """Change club settings (name, colour, accent, language, season, templates, upload, the site's
    address, the club evening's time) and the logo."""
    for key, value in values.items():
        if value is None:
            continue
        if key not in CLUB_SETTINGS:
            raise StoreError("unknown club setting %(key)s", key=repr(key))
        if key in ("colour", "accent") and not _COLOUR.fullmatch(value):
            raise StoreError("%(key)s must be a colour like #1f4e79, not %(value)s", key=key, value=repr(value))
        if key == "language" and value not in LANGUAGES:
            raise StoreError("language must be one of %(languages)s, not %(value)s", languages=", ".join(LANGUAGES),
                             value=repr(value))
        if key == "name" and not value.strip():
            raise StoreError("the club name cannot be empty")
        if key in ("name", "season") and any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
            raise StoreError("the club %(key)s %(value)s has a line break or another control character; give it on "
                             "one line", key=_KEYS[key], value=repr(value[:40]))
        if key in ("name", "season"):  # as names everywhere: a sane length, something visible, no overrides
            limit = MAX_NAME if key == "name" else 50
            value = clean_text(value, Message("the club %(key)s", key=_KEYS[key]), limit)
        if key == "templates" and value and not Path(value).is_dir():
            raise StoreError("template folder %(folder)s does not exist", folder=value)
        if key == "site" and value.strip():
            value = value.strip()
            if not _SITE.fullmatch(value):
                raise StoreError("the site address must be the web address of the published site, like "
                                 "https://schaak.example.nl/uitslagen/, not %(value)s", value=repr(value[:80]))
            value = value if value.endswith("/") else value + "/"
        if key == "evening_time" and value.strip() and not EVENING_TIME.fullmatch(value.strip()):
            raise StoreError("the club evening's time must be like 20:00 or 19:45-23:30, not %(value)s",
                             value=repr(value[:20]))
        if key == "upload" and value.strip():  # where an upload sends the site: never a password
            value = parse_target(value).url
        store.set_meta(f"club_{key}", value.strip())
    if logo is not None:
        kind, data = checked_logo(logo)
        store.set_meta("club_logo", base64.b64encode(data).decode("ascii"))
        store.set_meta("club_logo_type", kind)
