"""The web app speaks the club's language: every string of templates/app/*.html (and of the
published site's templates/*.html) is translated in every catalog, and so is every word the
app's Python code passes to ``_()`` as a variable (navigation labels, roles, systems, kinds…)."""

from __future__ import annotations

import ast
import functools
import glob
import inspect
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from jinja2.ext import babel_extract

from keizer import model, settings
from keizer.formats import rating_lists
from keizer.operations import accounts, notices, rounds, setup
from keizer.operations import competition as competition_ops
from keizer.operations import standings as standings_ops
from keizer.pairing.outcome import ENGLISH
from keizer.i18n import LANGUAGES, catalog_path, translations
from keizer.store import Store
from keizer.web.views import MAIN_NAV, comp_tabs
from keizer.web.views.competitions import SYSTEM_LABELS
import refusal_ids as _refusal_ids
from refusal_ids import name as module_name
from test_cli import run
from web_helpers import sample_app, text

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("keizer", "swiss", "roundrobin", "knockout", "team")
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]


# The files these read do not change during a run: each is read and parsed once per test
# process (the cached functions keep frozen copies; their callers get fresh sets to change).


@functools.cache
def _refusing_modules() -> tuple[Path, ...]:
    return tuple(_refusal_ids.modules())


def refusing_modules() -> list[Path]:
    return list(_refusing_modules())


@functools.cache
def _ids_of(module: Path) -> tuple[frozenset[str], tuple[int, ...]]:
    found, odd = _refusal_ids.ids(module)
    return frozenset(found), tuple(odd)


def refusal_ids(module: Path) -> tuple[set[str], list[int]]:
    found, odd = _ids_of(module)
    return set(found), list(odd)


def extract(pattern: str) -> tuple[set[str], int]:
    """The msgids of the templates (as ``pybabel extract`` with babel.cfg finds them), and how
    many ``_(variable)`` calls they hold (the extractor cannot see what those say)."""
    ids, variables = _extract(pattern)
    return set(ids), variables


@functools.cache
def _extract(pattern: str) -> tuple[frozenset[str], int]:
    ids, variables = set(), 0
    for f in sorted(glob.glob(str(ROOT / "templates" / pattern))):
        with open(f, "rb") as fh:
            for _, _, msg, _ in babel_extract(fh, ["_", "gettext", "ngettext"], [], {
                    "trim_blocks": "true", "lstrip_blocks": "true", "extensions": "jinja2.ext.i18n"}):
                first = msg if isinstance(msg, str) or msg is None else msg[0]
                if first is None:
                    variables += 1
                else:
                    ids.add(first)
    return frozenset(ids), variables


def extract_views() -> set[str]:
    return set(_extract_views())


@functools.cache
def _extract_views() -> frozenset[str]:
    """The msgids of the Python code, as ``pybabel extract`` with babel.cfg finds them: the
    app's page titles and what its views say (``_("…")``), and the site's words chosen in
    Python (tie-break names, row words: ``N_("…")``)."""
    from babel.messages.extract import extract as babel_extract_python

    ids = set()
    package = ROOT / "src" / "keizer"
    for f in [*sorted((package / "web").rglob("*.py")), *sorted((package / "publish").rglob("*.py")),
              package / "i18n.py", package / "settings.py", *sorted((package / "systems").glob("*.py")),
              package / "operations" / "setup.py"]:  # the settings page's meanings and choice words
        with f.open("rb") as fh:
            for _, msg, _, _ in babel_extract_python("python", fh, {"_": None, "N_": None}):
                ids.add(msg if isinstance(msg, str) else msg[0])
    return frozenset(ids)


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _assigned(func, name: str) -> set[str]:
    """The string constants a function assigns to ``name`` (also in tuple assignments)."""
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(func))):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = (zip(target.elts, node.value.elts) if isinstance(target, ast.Tuple)
                         and isinstance(node.value, ast.Tuple) else [(target, node.value)])
                found |= {v for t, value in pairs if isinstance(t, ast.Name) and t.id == name
                          for v in _strings(value)}
    return found


def _returned_by(func, inner: str) -> set[str]:
    """The string constants the nested function ``inner`` of ``func`` returns."""
    for node in ast.walk(ast.parse(inspect.getsource(func))):
        if isinstance(node, ast.FunctionDef) and node.name == inner:
            return {v for r in ast.walk(node) if isinstance(r, ast.Return) and r.value for v in _strings(r.value)}
    raise AssertionError(f"{func.__name__} has no function {inner}")


def _sample_kinds() -> set[str]:
    """The ``kind`` of every crosstable cell and history row of the sample club's weekly
    competitions (what crosstable.html and player.html pass to ``_()``)."""
    kinds = set()
    store = Store.open(ROOT / "sample_club.db")
    try:
        for comp in store.competitions():
            if comp["system"] not in ("keizer", "swiss", "roundrobin"):
                continue
            table = standings_ops.crosstable(store, comp["id"], None)
            kinds |= {c["kind"] for r in table["rows"] for c in r.get("cells", ()) if isinstance(c, dict)}
            for p in store.players(comp["id"])[:12]:
                try:
                    history = standings_ops.player_history(store, comp["id"], p["key"], None)
                except Exception:  # e.g. withdrawn and off the ladder: not a page the app shows
                    continue
                kinds |= {r["kind"] for r in history["rounds"]}
                kinds |= {r["colour"] for r in history["rounds"] if r["colour"]}
    finally:
        store.close()
    return kinds


def dynamic_words() -> set[str]:
    return set(_dynamic_words())


@functools.cache
def _dynamic_words() -> frozenset[str]:
    """Every value the app's templates pass to ``_()`` as a variable, from the Python code."""
    words = {label for _e, label, _k in MAIN_NAV}  # base.html: _(label)
    words |= {label for system in SYSTEMS for _e, label, _k in comp_tabs({"system": system, "id": 1})}
    words |= set(accounts.ROLES)  # base.html, users.html: _(user.role), _(r)
    words |= set(SYSTEM_LABELS.values())  # competitions.html: _(systems[e.system]), _(label)
    words |= set(SYSTEM_LABELS)  # settings.html: _(comp.system)
    words |= set(setup.SCHEDULES)  # teams.html: _(ev.schedule)
    words |= set(notices.WEEKDAYS) | {notices.VIA_LINK}  # member_links.html: _(d), _(n.via)
    words |= {"excused", "unexcused"}  # notice status and the late_notice setting (notices.py)
    words |= set(settings.ATTENDANCE_DEFAULTS)  # attendance.html: _(r.default)
    words |= _assigned(rounds.attendance_sheet, "why_not")  # attendance.html: _(sheet.why_not)
    words |= _returned_by(competition_ops.initial_order_rows, "how")  # settings.html: _(o.placed)
    words |= {label for _c, _r, label in rating_lists.COLUMNS.values()}  # members_import.html: _(todo.id_label)
    words |= {"FIDE", "national"}  # members_import.html: _(todo.list_name) (RatingImport.list_name)
    # crosstable.html _(c.kind), player.html _(r.kind) and _(r.colour)
    words |= {a.value for a in model.Absence} | {c.value for c in model.Colour}
    words |= {"game", "forfeit", "external", "present", "late", "withdrawn", "not_joined", "not joined", "absent",
              "half-point bye"}
    # standing_table.html, print_standings.html: _(r.how), a knock-out explanation of one fixed part
    words |= {text for text in ENGLISH.values() if "{" not in text and text[:1].isalpha()}
    return frozenset(words)


STILL_ENGLISH = ROOT / "tests" / "data" / "refusals-in-english.txt"


def still_english() -> set[str]:
    """The modules whose refusals are not message ids yet (the list only shrinks)."""
    return {line.strip() for line in STILL_ENGLISH.read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def refusal_messages(listed: bool | None = None) -> set[str]:
    """The message ids of the code's refusals: of the modules off the list (``listed`` False),
    on it (True) or all (None)."""
    listing = still_english()
    return {m for f in refusing_modules() if listed is None or (module_name(f) in listing) == listed
            for m in refusal_ids(f)[0]}


def catalog(lang: str):
    """The catalog of ``lang``, read once per test process (the tests only read it)."""
    return _catalog(lang)


@functools.cache
def _catalog(lang: str):
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def test_the_code_words_are_found():
    words = dynamic_words()
    for word in ("Competitions", "Change log", "Attendance", "Venue screen", "Cup", "officer", "arbiter",
                 "Knock-out cup", "crepaux", "monday", "member link", "absent", "the competition is closed",
                 "entered later", "federation id", "bye", "to play"):
        assert word in words
    _, variables = extract("app/*.html")
    assert variables > 20  # the app templates do pass words computed in Python to _()


def test_the_sample_clubs_kinds_are_listed():
    assert _sample_kinds() <= dynamic_words() | extract("app/*.html")[0]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_app_string_is_translated(lang):
    site, _ = extract("*.html")
    app, _ = extract("app/*.html")
    words = dynamic_words()
    cat = catalog(lang)
    translated = {m.id if isinstance(m.id, str) else m.id[0] for m in cat
                  if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string)}
    assert not (app - translated), f"untranslated in {lang}: {sorted(app - translated)}"
    assert not (words - translated), f"untranslated in {lang}: {sorted(words - translated)}"
    views = extract_views()
    assert not (views - translated), f"untranslated in {lang}: {sorted(views - translated)}"
    refusals = refusal_messages(listed=False)
    assert not (refusals - translated), f"untranslated in {lang}: {sorted(refusals - translated)}"
    # nothing stale either (a module still listed may have some of its ids translated already)
    assert site | app | words | views | refusals <= translated <= site | app | words | views | refusal_messages()


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_keep_their_placeholders(lang):
    for m in catalog(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set(re.findall(r"%\(\w+\)s", ids[-1]))
        for s in strings:
            assert set(re.findall(r"%\(\w+\)s", s)) == wanted, (m.id, s)
            assert "%" not in re.sub(r"%\(\w+\)s", "", s), (m.id, s)  # newstyle gettext formats every string
        if isinstance(m.id, tuple):
            assert len(strings) == 2 and all(strings), m.id


def test_the_template_of_the_catalogs_holds_every_message():
    with (ROOT / "src" / "keizer" / "locale" / "keizer.pot").open("rb") as f:
        pot = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    found = extract("*.html")[0] | extract("app/*.html")[0] | dynamic_words() | extract_views()
    assert found | refusal_messages(listed=False) <= pot <= found | refusal_messages()


def test_refusals_off_the_list_are_raised_with_message_ids():
    """A refusal raised with an f-string reaches a Dutch club in English: raise it with a
    message id and its values (``StoreError("round %(n)s has no pairing", n=3)``)."""
    listing = still_english()
    odd = {module_name(f): refusal_ids(f)[1] for f in refusing_modules()
           if module_name(f) not in listing and refusal_ids(f)[1]}
    assert not odd, f"refusals raised with an f-string or a computed text (give a message id): {odd}"


def test_the_list_of_modules_refusing_in_english_only_shrinks():
    listing = still_english()
    translated = set.intersection(*({m.id for m in catalog(lang) if m.id and m.string} for lang in OTHER_LANGUAGES))
    present = {module_name(f): f for f in refusing_modules()}
    done = sorted(n for n in listing if n not in present
                  or (not refusal_ids(present[n])[1] and refusal_ids(present[n])[0] <= translated))
    assert not done, f"remove from {STILL_ENGLISH.relative_to(ROOT)} (its refusals speak the catalogs now): {done}"
    lines = [line for line in STILL_ENGLISH.read_text("utf-8").splitlines() if line and not line.startswith("#")]
    assert lines == sorted(set(lines))


def test_the_views_own_words_are_found():
    views = extract_views()
    assert {"Club evening", "round %(n)s: nothing changed", "logged out", "undone: %(what)s"} <= views
    assert len(views) > 40


def _nav_links(body: str) -> list[str]:
    navs = re.findall(r'<nav class="(?:main-nav|tabs)".*?</nav>', body, flags=re.S)
    return [re.sub(r"<[^>]+>", "", a).strip() for nav in navs for a in re.findall(r"<a [^>]*>(.*?)</a>", nav, re.S)]


def test_the_app_speaks_dutch(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    code, _out, err = run(capsys, db, "club", "--language", "nl")
    assert code == 0, err
    client = app.test_client()
    nl = translations("nl")
    english = {label for _e, label, _k in MAIN_NAV} | {"Club evening"}
    english |= {label for _e, label, _k in comp_tabs({"system": "keizer", "id": 1})}

    home = client.get("/")
    assert home.status_code == 200
    body = home.get_data(as_text=True)
    assert '<html lang="nl">' in body
    page = text(home)
    assert "Clubavond" in page and "Aanwezigheid" in page and "Indeling" in page and "Keizercompetitie" in page
    links = _nav_links(body)
    assert {"Clubavond", "Competities", "Leden", "Wijzigingen", "Publiceren", "Gebruikers"} <= set(links)
    assert not english & set(links), english & set(links)

    attendance = client.get("/c/1/attendance")
    assert attendance.status_code == 200
    body = attendance.get_data(as_text=True)
    page = text(attendance)
    assert "Aanwezigheid" in page and "ronde" in page.lower()
    assert "Aanwezigheid van ronde" in page  # the save button: "Save attendance of round %(n)s"
    links = _nav_links(body)
    tabs = {nl.gettext(label) for _e, label, _k in comp_tabs({"system": "keizer", "id": 1})}
    assert tabs <= set(links) and "Zaalscherm" in links and "Kruistabel" in links
    assert not english & set(links), english & set(links)
    assert "<title>Aanwezigheid · Interne competitie 2025-2026" in body  # the view's title, translated too
    main = re.sub(r"<[^>]+>", " ", body.split('<main id="main">', 1)[1])
    for word in ("Save attendance", "Find a player", "not marked yet", "Attendance", "Pairing", "Results"):
        assert word not in main


def test_what_a_view_says_after_a_change_is_in_dutch(tmp_path, capsys):
    from web_helpers import client_with_csrf, post

    app, db = sample_app(tmp_path)
    assert run(capsys, db, "club", "--language", "nl")[0] == 0
    page = post(client_with_csrf(app), "/c/3/results", {"round": "5", "r1": "", "was1": ""})
    assert "ronde 5: niets gewijzigd" in text(page) and "nothing changed" not in text(page)
    missing = app.test_client().get("/no/such/page")
    assert missing.status_code == 404 and "die pagina bestaat hier niet" in text(missing)


def test_english_stays_english(tmp_path):
    app, _db = sample_app(tmp_path)
    page = text(app.test_client().get("/c/1/attendance"))
    assert "Attendance" in page and "Aanwezigheid" not in page

