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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from keizer.formats.contrast import LIGHT_BACKGROUND, _hex, _rgb, contrast, readable, text_on
from keizer.formats.logo import checked_logo, checked_logo_data
from keizer.formats.targets import parse_target
from keizer.i18n import LANGUAGES
from keizer.limits import MAX_NAME, clean_text
from keizer.operations import accounts, setup
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
                 "season": "", "templates": "", "upload": "", "site": "", "evening_time": "",
                 "national_rating": ""}
#: The national ratings keizer can compute beside FIDE's (``national_rating``; "": none).
NATIONAL_RATINGS = ("dwz", "ecf")
#: The site's public address: the feeds' ids and links are made from it (stable when the club is renamed).
_SITE = re.compile(r"https?://[^\s/?#@]+(/[^\s?#]*)?")
#: When a club evening starts (and ends): 20:00, or 19:45-23:30.
EVENING_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)(?:-([01]?\d|2[0-3]):([0-5]\d))?")


def club_settings(store: Store) -> dict[str, str]:
    return {k: store.get_meta(f"club_{k}") or v for k, v in CLUB_SETTINGS.items()}


def live_target(store: Store) -> str | None:
    """The upload address the app sends the site to by itself, or None: the club's upload
    address when a terminal set or used it (the server's own password may go only there)."""
    target = club_settings(store)["upload"]
    return target if target and target == (store.get_meta(PASSWORD_TARGET) or "") else None


def club_view(store: Store) -> dict[str, str]:
    """The club's settings as the club page shows them: with the logo's type (``""``: none) and
    the site folder (``""``: the default, ``site`` beside the database)."""
    return {**club_settings(store), "logo": store.get_meta("club_logo_type") or "",
            "site_folder": store.get_meta(SITE_FOLDER) or ""}


def inside(folder: Path, base: Path) -> bool:
    """Whether ``folder`` lies inside ``base`` (links followed: a link out leads out)."""
    try:
        resolved, root = folder.resolve(), base.resolve()
    except (OSError, ValueError, RuntimeError):  # not a name this computer can use: not inside either
        return False
    return resolved != root and resolved.is_relative_to(root)


def set_site_folder(store: Store, site_folder: Path | None, within: Path | None = None) -> None:
    """Where the site is published (the club's site folder; None: the default, ``site``
    beside the database); ``within``: the folder must lie inside that one (the app's rule: an
    officer's account reaches no other folder)."""
    if site_folder is None:
        store.set_meta(SITE_FOLDER, "")
        return
    folder = site_folder.expanduser()
    if within is not None and not folder.is_absolute():
        folder = within / folder
    if within is not None and not inside(folder, within):
        raise StoreError("the site folder must lie inside %(folder)s; choose one there", folder=str(within))
    try:
        folder = folder.resolve()
    except (OSError, ValueError, RuntimeError):
        raise StoreError("%(folder)s is not a folder name this computer can use; choose another",
                         folder=repr(str(site_folder)[:80])) from None
    if folder.exists() and not folder.is_dir():
        raise StoreError("%(folder)s is a file, not a folder; choose another", folder=str(folder))
    store.set_meta(SITE_FOLDER, str(folder))


def set_club(store: Store, logo: Path | tuple[str, bytes] | None = None, **values: str | None) -> None:
    """Change club settings (name, colour, accent, language, season, templates, upload, the site's
    address, the club evening's time, the national rating shown beside FIDE's) and the logo (a
    file, or a file's name and bytes)."""
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
        if key == "national_rating" and value.strip() not in ("", *NATIONAL_RATINGS):
            raise StoreError("the national rating must be %(choices)s or empty (none), not %(value)s",
                             choices=", ".join(NATIONAL_RATINGS), value=repr(value[:20]))
        if key == "upload" and value.strip():  # where an upload sends the site: never a password
            value = parse_target(value).url
        store.set_meta(f"club_{key}", value.strip())
    if logo is not None:
        kind, data = checked_logo(logo) if isinstance(logo, Path) else checked_logo_data(*logo)
        store.set_meta("club_logo", base64.b64encode(data).decode("ascii"))
        store.set_meta("club_logo_type", kind)


def colour_advice(club: str, accent: str) -> list[Message]:
    """Where the club's colours cannot be used as given for text on a white page (WCAG AA,
    4.5:1), and what the site uses instead: the warning the command line and the app's club
    page give when a colour is set.

    >>> [str(m) for m in colour_advice("#1f4e79", "#c8102e")]
    []
    >>> str(colour_advice("#ffd700", "#c8102e")[0])
    'the club colour #ffd700 is too light for text on a white page (contrast 1.40:1, AA needs 4.5:1): links and headings use #8b7500 instead, and the header has black text'
    >>> str(colour_advice("#ffd700", "#c8102e")[0])[:62]
    'the club colour #ffd700 is too light for text on a white page '
    """
    said = []
    link, shown = readable(club, LIGHT_BACKGROUND), _hex(_rgb(club))
    if link != shown:
        said.append(Message("the club colour %(colour)s is too light for text on a white page (contrast "
                            "%(ratio)s:1, AA needs 4.5:1): links and headings use %(link)s instead, and the header "
                            "has %(text)s text", colour=shown, ratio=f"{contrast(club, LIGHT_BACKGROUND):.2f}",
                            link=link, text=Word("black") if text_on(club) == "#000000" else Word("white")))
    accent_text, accent_shown = readable(accent, LIGHT_BACKGROUND), _hex(_rgb(accent))
    if accent_text != accent_shown:
        said.append(Message("the accent colour %(colour)s is too light for text on a white page (contrast "
                            "%(ratio)s:1): its text uses %(text)s instead", colour=accent_shown,
                            ratio=f"{contrast(accent, LIGHT_BACKGROUND):.2f}", text=accent_text))
    return said


def found_club(store: Store, name: str, language: str, colour: str | None, logo: tuple[str, bytes] | None,
               competition: str | None, preset: str, officer: str, password: str) -> int | None:
    """A new club in a new, empty database (inside the caller's transaction): its settings, its
    first Keizer competition from a preset (when named), and its first officer's account, so
    that from now on the app asks for a login.  Returns the competition's id."""
    if store.users() or store.competitions():
        raise StoreError("this database holds a club already")
    set_club(store, logo=logo, name=name, language=language, colour=colour or None)
    comp_id = None
    if competition and competition.strip():
        new = setup.plan_competition(competition, "keizer", preset=preset)
        comp_id, _registered = setup.create_competition(store, new)
    accounts.add_user(store, officer, "officer", password)
    return comp_id


@dataclass(frozen=True)
class Contents:
    """What a season file holds, as a restore's preview shows it beside the file it replaces."""

    club: str
    language: str
    competitions: tuple[dict[str, Any], ...]  # name, system, season, rounds
    members: int
    accounts: tuple[dict[str, Any], ...]  # name, role
    last_change: dict[str, Any] | None  # at, command, summary (the change log's last entry)

    @property
    def officers(self) -> int:
        return sum(1 for a in self.accounts if a["role"] == "officer")


def contents(store: Store) -> Contents:
    """What the season file of ``store`` holds: the club, its competitions with their rounds,
    the members, the accounts and the last change (to recognise a backup before restoring it)."""
    club = club_settings(store)
    comps = tuple({"name": c["name"], "system": c["system"], "season": c["season"] or "",
                   "rounds": len(store.round_numbers(c["id"]))} for c in store.competitions())
    return Contents(club=club["name"], language=club["language"], competitions=comps, members=len(store.members()),
                    accounts=tuple({"name": u["name"], "role": u["role"]} for u in store.users()),
                    last_change=store.last_change(said=True))
