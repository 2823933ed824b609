"""What every page of the app shares: the database of the request, writing in one
transaction, the templates and their language, and refusals shown as one line.

A view writes with :func:`writing`, exactly as a click command does, and lets the
operation's :class:`~keizer.refusals.Refusal` (the store's, the settings', a file's) go:
the transaction is rolled back, and the handler here says it in the club's language, with
the app's own words for what would fix it (``keizer.web.words``), on the page the form
came from.  Nothing in a view speaks SQL or decides a rule.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

from flask import (Flask, Response, current_app, flash, g, make_response, redirect, render_template, request,
                   send_from_directory, session)
from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers.response import Response as Redirect

from keizer.operations.club import CLUB_SETTINGS, club_settings
from keizer.i18n import CELL_LETTERS, format_day, format_number, translations
from keizer.operations.seasons import refuse_closed
from keizer.operations.notices import LinkRefused
from keizer.refusals import LeavesFideRules, Message, Refusal
from keizer.store import Store, StoreError, explained
from keizer.web.access import public
from keizer.web.compiled import COMPILED
from keizer.web.words import FIELDS, HINTS

#: Errors a user can fix: shown as their one line, never as a server error.
USER_ERRORS = (Refusal,)


class Missing(StoreError):
    """What the address names does not exist: said in one line, with 404."""

    @classmethod
    def because(cls, refused: Refusal) -> Missing:
        """The store's refusal (no such competition), said as it says it, with 404."""
        return cls(refused.message, hint=refused.hint, **refused.values)


def templates_folder() -> Path:
    return Path(str(resources.files("keizer.templates")))


def store() -> Store:
    """The database of this request (opened on first use, closed when the request ends)."""
    if "store" not in g:
        g.store = Store.open(Path(current_app.config["KEIZER_DB"]))
        g.store.origin = lambda: g.get("origin", "web")
    return g.store


def setup_pending() -> bool:
    """There is no database yet and ``keizer serve`` waits for the club to be created through
    the link it printed (:mod:`keizer.web.views.setup`): every other page waits too."""
    return bool(current_app.config.get("KEIZER_SETUP_TOKEN")) and not Path(current_app.config["KEIZER_DB"]).exists()


@contextmanager
def writing(command: str, summary: str | Message) -> Iterator[Store]:
    """One logged, undoable transaction, as the CLI's ``writing``: on any exception
    nothing is written.  The change log records the web user (or link) and address."""
    s = store()
    with s.change(command, summary):
        yield s


def competition(comp_id: int, write: bool = False) -> dict[str, Any]:
    """A competition by id; when writing, a closed one is refused (as on the CLI)."""
    try:
        row = store().competition_by_id(comp_id)
    except StoreError as e:  # an address of no competition (undone, or mistyped): not found
        raise Missing.because(e) from None
    if write:
        refuse_closed(row)
        store().subject = row["name"]  # the log says which competition the change is about
    return row


def render(template: str, status: int = 200, **context: Any) -> tuple[str, int]:
    context.setdefault("nav", None)  # the error page and other pages outside the main navigation
    return render_template(template, **context), status


def private(response: Any) -> Any:
    """A member's page: never cached or indexed (its address is the member's key)."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def link_refused(refused: LinkRefused) -> Any:
    """The page a personal link that is unknown, revoked or expired opens, with its status."""
    return private(make_response(render("app/member_link_refused.html", status=refused.status,
                                        message=_("error: %(message)s", message=say(refused)),
                                        title=_("Personal link"))))


def back(default: str = "/") -> Redirect:
    """Back to the page the form was on (a path on this site only: never an open redirect)."""
    sent = request.form.get("back")
    target = safe_path(sent, default) if sent else (_same_site(request.referrer) or default)
    return redirect(target, code=303)


def _same_site(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != request.host:
        return None
    path = safe_path(parts.path + (f"?{parts.query}" if parts.query else ""), "")
    return path or None


def safe_path(target: str | None, default: str = "/") -> str:
    """A path on this site to go to after a form, else ``default``: never another site.
    Browsers drop tabs and line breaks from a URL, so a path holding any control character,
    or a backslash, is refused as a whole rather than cleaned.

    >>> safe_path("/c/1/results?round=3"), safe_path("/\\t/evil.example"), safe_path("//evil.example")
    ('/c/1/results?round=3', '/', '/')
    >>> safe_path("//["), safe_path("/x?[::1"), safe_path("/[")
    ('/', '/x?[::1', '/[')
    """
    if not target or not target.startswith("/") or "\\" in target:
        return default
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or ch.isspace() for ch in target):
        return default
    if target.startswith("//"):
        return default
    try:
        parts = urlsplit(target)
    except ValueError:  # e.g. '/[': no address a page of the app would send
        return default
    return default if parts.scheme or parts.netloc else target


def wants_json() -> bool:
    """A script on the page (the results grid) asks for JSON instead of a new page."""
    return request.headers.get("X-Requested-With") == "keizer"


def refuse(message: str, status: int = 400, bad_input: bool = False) -> Any:
    """Show a refusal: on the form's page after a POST, as a page of its own after a GET.

    The page's own script (the results grid) gets refused ``bad_input`` as a normal answer
    (``{"error": …}`` with 200): the request worked, what was typed was refused, and the
    browser logs no failed request.  Other refusals (a form without its token, a busy
    database) keep their status."""
    if wants_json():
        return {"error": message}, 200 if bad_input else status
    if request.method == "POST":
        flash(message, "error")
        response = back()
        _keep_form(response.location)
        return response
    return render("app/error.html", status=status, message=message)


#: Form fields never kept for the form shown again after a refusal.
_NOT_KEPT = frozenset({"csrf", "back", "password", "password2"})


def _keep_form(target: str) -> None:
    """What a refused form said, for the page it goes back to: the officer corrects the one
    wrong field instead of typing everything again (small forms only: it rides in the session)."""
    values = {k: v for k, v in request.form.to_dict(flat=False).items() if k not in _NOT_KEPT}
    if values and len(repr(values)) < 3000:
        session["kept_form"] = {"path": urlsplit(target).path, "values": values}


#: The form fields the confirmation of leaving the FIDE rules sends again as they were (the others: the token).
_RESENT_NOT = frozenset({"csrf", "back", "leave_fide"})


def _ask_to_leave_fide(target: str) -> None:
    """A change refused because it leaves the FIDE rules: the page it goes back to asks for a
    second confirmation (a box to tick), with a form that sends the same change again."""
    values = [(k, v) for k, vs in request.form.to_dict(flat=False).items() if k not in _RESENT_NOT for v in vs]
    if len(repr(values)) < 3000:
        session["leave_fide"] = {"path": urlsplit(target).path, "action": request.path, "values": values}


def leave_fide_form() -> dict[str, Any] | None:
    """The second confirmation this page asks for (what :func:`_ask_to_leave_fide` kept), once."""
    if "leave_fide_form" not in g:
        found = session.get("leave_fide")
        g.leave_fide_form = None
        if found and found.get("path") == request.path:
            g.leave_fide_form = found
            session.pop("leave_fide", None)
    result: dict[str, Any] | None = g.leave_fide_form
    return result


def kept(name: str, default: Any = "", form: str | None = None) -> Any:
    """A field of the form refused on this page, as it was typed (else ``default``); ``form``
    names one of several forms (their ``system`` field) when only that one was sent."""
    if "kept_form" not in g:
        found = session.get("kept_form")
        g.kept_form = None
        if found and found.get("path") == request.path:
            g.kept_form = found["values"]
            session.pop("kept_form", None)
    values = g.kept_form
    if not values or (form is not None and values.get("system", [None])[0] != form):
        return default
    return values[name][0] if name in values else ""  # a box left unticked, a field left out


def was_kept(form: str | None = None) -> bool:
    """Whether this page shows a refused form again (that form, when several)."""
    kept("", form=form)
    values = g.kept_form
    return bool(values) and (form is None or values.get("system", [None])[0] == form)


class RowId(IntegerConverter):
    """``<int:…>`` in an address: a number SQLite can hold (a longer one is no page: 404)."""

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(url_map, *args, **kwargs)


def install(app: Flask) -> None:
    app.url_map.converters["int"] = RowId
    folder = templates_folder()
    app.jinja_env.loader = ChoiceLoader([FileSystemLoader(str(folder))])
    app.jinja_env.bytecode_cache = COMPILED  # compiled once (keizer.web.compiled)
    app.jinja_env.undefined = StrictUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.add_extension("jinja2.ext.i18n")
    _install_language(app)

    app.jinja_env.globals.update(kept=kept, was_kept=was_kept, leave_fide_form=leave_fide_form, rules_of=rules_of)

    @app.route("/static/<path:name>")
    @public
    def static(name: str) -> Response:
        return send_from_directory(folder / "static", name, max_age=3600)

    @app.route("/favicon.ico")
    @public
    def favicon() -> Response:
        return send_from_directory(folder / "static", "icon.svg", mimetype="image/svg+xml", max_age=86400)

    @app.teardown_request
    def close(_error: BaseException | None) -> None:
        s = g.pop("store", None)
        if s is not None:
            s.close()

    @app.errorhandler(Missing)
    def missing(error: Missing) -> Any:
        return refuse(_("error: %(message)s", message=say(error)), 404)

    @app.errorhandler(Refusal)
    def user_error(error: Refusal) -> Any:
        response = refuse(_("error: %(message)s", message=say(error)), bad_input=True)
        if isinstance(error, LeavesFideRules) and request.method == "POST" and not wants_json():
            _ask_to_leave_fide(response.location)
        return response

    @app.errorhandler(sqlite3.Error)
    def database_error(error: sqlite3.Error) -> Any:
        refusal = explained(error, Path(app.config["KEIZER_DB"]))
        if refusal is None:
            raise error
        return refuse(_("error: %(message)s", message=say(refusal)), 503)

    @app.errorhandler(404)
    def not_found(_error: Exception) -> Any:
        return render("app/error.html", status=404, message=_("there is no such page here"))

    @app.errorhandler(413)
    def too_large(_error: Exception) -> Any:
        # Not refuse(): it would read the form again, which is what was too large.
        message = _("error: the file is too large (at most 64 MB)")
        if wants_json():
            return {"error": message}, 413
        return render("app/error.html", status=413, message=message)


def club_or_default() -> dict[str, str]:
    """The club's settings, or the defaults where there is no database (the error page still
    needs a header)."""
    try:
        return club_settings(store())
    except USER_ERRORS:
        return dict(CLUB_SETTINGS)


def language() -> str:
    """The club's language (``keizer club --language``) for this request."""
    if "lang" not in g:
        try:
            g.lang = club_settings(store())["language"]
        except USER_ERRORS:
            g.lang = "en"
    return g.lang


def _(text: str, **values: Any) -> str:
    """The app's own words (page titles, what a view says after a change) in the club's
    language, from the site's catalogs; ``values`` fill the ``%(name)s`` placeholders.
    The operations' one-line messages stay as the CLI says them."""
    translated = translations(language()).gettext(text)
    return translated % values if values else translated


def rules_of(comp_id: int) -> str:
    """What the pairing and standing pages say of a competition's mode: "FIDE rules", "Not FIDE
    rules since round 3: …" in the club's language; empty for a competition without one."""
    from keizer.operations.fide import mode_line

    line = mode_line(store(), comp_id)
    return say(line) if line is not None else ""


def say(refusal: Refusal | Message) -> str:
    """A refusal in the club's language, with what would fix it as the app does it."""
    return refusal.words(gettext=translations(language()).gettext, hints=HINTS, fields=FIELDS)


def number(value: Fraction | int | float | Decimal | None, decimals: int = 2) -> str:
    """A number as the pages show it (the club's language)."""
    return format_number(value, decimals, language())


def day(iso: str | None) -> str:
    """A date as the pages show it (the club's language)."""
    return format_day(iso, language())


def letter(kind: str) -> str:
    """A kind of attendance or crosstable cell (present, excused …) in one letter of the
    club's language, as the crosstable shows it; "" for a kind without one."""
    return _(CELL_LETTERS[kind]) if kind in CELL_LETTERS else ""


def result_text(result: str | None) -> str:
    """A game's result as every page of the app shows it: 1-0, ½-½, 0-1, +-, -+, -- (the
    notation ``1/2-1/2`` is typed, never shown).

    >>> result_text("1/2-1/2"), result_text("1-0"), result_text(None)
    ('½-½', '1-0', '')
    """
    return result.replace("1/2", "½") if result else ""


def _install_language(app: Flask) -> None:
    """The app speaks the club's language (``keizer club --language``), with the catalogs
    and number and date formats of the published site."""
    def gettext(text: str) -> str:
        return translations(language()).gettext(text)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return translations(language()).ngettext(singular, plural, n)

    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    app.jinja_env.globals.update(num=number, day=day, lang=language, letter=letter)
    app.jinja_env.filters["result"] = result_text
    app.jinja_env.globals["nbsp"] = Markup("&nbsp;")
