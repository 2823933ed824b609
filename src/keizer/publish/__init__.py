"""Publish the club website: a static site rendered from the season database.

``publish(store, outdir)`` loads every competition, asks the engines for the
standings, builds the page plan (:mod:`keizer.publish.plan`) and renders it
with the Jinja templates shipped in the package (``templates/`` in the
repository), or a club's own folder that overrides any of them.  The output
is deterministic — the same database gives byte-identical files — and
incremental: a file whose bytes did not change is not rewritten.  Files are
written atomically and only files keizer wrote are ever removed
(:mod:`keizer.publish.files`).

Each competition is published under the season stored with it (its folder is
fixed when the competition is created).  Earlier seasons stay in the output
folder; ``seasons.json`` lists them and the front page links them all.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Collection, Hashable

from jinja2 import (ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, nodes,
                    pass_context, select_autoescape)
from jinja2.visitor import NodeTransformer

from keizer import systems
from keizer.model import Round
from keizer.publish.career_pages import career_links, kept_digests, plan_careers, take_digests
from keizer.publish.cup_pages import CupPages, cup_competition_data
from keizer.publish.points_pages import RoundRobinPages, SwissPages
from keizer.publish.colours import palette
from keizer.i18n import (CELL_LETTERS, CELL_WORDS, COLOUR_LETTERS, LANGUAGES, ROW_WORDS, catalog_path, format_day, format_number,
                                 format_percentage, translations)
from keizer.publish.legend import grouped_tiebreak, tiebreak_title
from keizer.publish.render import PageError, SiteTemplate, render_pages
from keizer.publish.files import Folder, Kept, kept_path, read_previous, write_site
from keizer.publish.keys import (code_key, inputs_contents, inputs_key, kept_round_digests, page_key, rendering_key,
                                 take_round_digests)
from keizer.formats.logo import clean_svg
from keizer.operations.kept_careers import kept_careers
from keizer.operations.standings import dwz_changes, ecf_changes, fide_ratings, fide_records, kept_items, kept_standings
from keizer.operations.club import club_settings
from keizer.operations.evening import is_finished, planned_rounds
from keizer.operations.notices import round_notices
from keizer.publish.feeds import Entry, Event, atom, calendar, evening_hours
from keizer.publish.member_feeds import address, identity, member_feed_paths, member_feeds
from keizer.publish.plan import (BUILDERS, FEEDS, Club, CompetitionData, Page, SeasonPlan, plan_front,
                                 plan_season)
from keizer.publish.slugs import CAREERS, season_slugs
from keizer.store import Store, StoreError
from keizer.systems import stored_points_rules

BUILDERS["roundrobin"] = RoundRobinPages
BUILDERS["swiss"] = SwissPages
BUILDERS["knockout"] = CupPages

SEASONS = "seasons.json"
SUMMARY = "summary.json"  # per season: what its front page shows, for the club's front page
PEOPLE = "people.json"  # per season: its players A–Z with their pages, for the front page's search
#: What a competition's summary must hold for the front page (one written by an older keizer is left out).
_SUMMARY_KEYS = {"name", "link", "system"}
_WEEKLY_SUMMARY_KEYS = {"standing", "last_round", "last_link", "last_date", "next_round", "next_link", "decimals"}
_FOLDER = re.compile(r"[a-z0-9][a-z0-9-]*")  # a season's folder in seasons.json, as slugify makes it
@dataclass(frozen=True)
class Published:
    written: tuple[str, ...]
    unchanged: int
    seasons: tuple[str, ...]  # the seasons this run published, as named
    rendered: int = 0  # pages rendered (a page whose inputs did not change is not)


def publish(store: Store, outdir: Path, templates: Path | None = None, language: str | None = None,
            seasons: Collection[str] | None = None, remember: bool = False) -> Published:
    """Publish the competitions of the database (with ``seasons``: of those seasons only) into ``outdir``.

    ``remember``: a process of its own (a command): the kept standings and careers are taken
    from the cache folder where an earlier command left them, and left there for the next
    (:mod:`keizer.operations.kept_file`)."""
    settings = club_settings(store)
    lang = language or settings["language"]
    if lang not in LANGUAGES:
        raise StoreError("language must be one of %(languages)s, not %(lang)s", languages=", ".join(LANGUAGES),
                         lang=repr(lang))
    own_templates = templates or (Path(settings["templates"]) if settings["templates"] else None)
    if own_templates is not None and not own_templates.is_dir():
        raise StoreError("template folder %(folder)s does not exist", folder=own_templates)
    logo_type = store.get_meta("club_logo_type")
    club = Club(settings["name"], settings["colour"], settings["accent"], lang,
                f"logo.{logo_type}" if logo_type else None)

    every = store.competitions()
    rows = [row for row in every if seasons is None or row["season"] in seasons]
    if not rows:
        raise StoreError("there is no competition to publish", hint="publish_create_competition")
    if outdir.exists() and not outdir.is_dir():
        raise StoreError("%(folder)s is a file; give a folder to publish into", folder=outdir)
    archive = _read_seasons(outdir)
    names = list(dict.fromkeys(row["season"] for row in rows))  # in id order: a season's folder is kept
    folders = season_slugs(archive, names)
    ours = set(folders.values())

    # What this run may tidy: the shared top of the site and its own seasons' folders, not
    # the folders of seasons published into the same place from other databases.
    def in_scope(rel: str) -> bool:
        top = rel.split("/", 1)[0]
        return "/" not in rel or top in ("static", CAREERS) or top in ours

    # Nothing changed since the run that wrote the folder as it is: nothing to do.
    colours = palette(club.colour, club.accent)
    rendering = rendering_key(own_templates, lang, colours)
    state = store.file_state()
    scope, key = _inputs(store, outdir, rendering, archive, folders)
    previous = read_previous(outdir)
    listed = [rel for rel in previous.files if in_scope(rel)]
    try:
        intact = previous.intact(Folder(outdir), listed)
    except OSError:  # a folder that cannot be listed: writing says what is wrong
        intact = set()
    if listed and previous.inputs.get(scope) == key and len(intact) == len(listed):
        return Published((), len(listed), tuple(names))

    carried = kept_path(store.path) if remember and store.path is not None else None
    before: Hashable = None
    if carried is not None:
        from keizer.operations import kept_file  # (not loaded when nothing changed)

        restored, extra = kept_file.restore(store, carried, code_key())
        if restored and isinstance(extra, dict):  # the digests taken of the careers and rounds kept
            take_digests(extra.get("careers"))
            take_round_digests(extra.get("rounds"), Round)
        before = kept_file.mark(store) if restored else None
    by_season: dict[str, list[CompetitionData]] = {}
    members = store.members()  # for the FIDE ratings on record: read once
    for row in rows:  # in id order: a season's competitions keep their folders as more are added
        data = _competition_data(store, row)
        players = store.players(row["id"])
        by_season.setdefault(row["season"], []).append(replace(
            data, members={r["key"]: r["member_id"] for r in players if r["member_id"] is not None},
            fide=fide_ratings(store, row["id"], players, members),  # the FIDE rating changes on the player pages
            fide_k=fide_records(store, row["id"]), dwz=dwz_changes(store, row["id"], data.season),
            ecf=ecf_changes(store, row["id"], data.season),
            finished=_finished(store, row, data), notices=_notices(store, row, data, players)))
    # The data read is the data the key was taken of (a write meanwhile: the next run starts afresh).
    steady = store.file_state() == state

    pages: list[Page] = []
    summaries: dict[str, list[dict[str, Any]]] = {}
    people: dict[str, list[dict[str, str]]] = {}
    plans: dict[str, SeasonPlan] = {}
    found = kept_careers(store)  # every member's career (kept from the last run); the public ones get a page
    links = career_links(found)
    competition_pages: dict[tuple[str, str], str] = {}
    for name, competitions in by_season.items():
        plan = plans[folders[name]] = plan_season(club, name, competitions, folders[name], links)
        summaries[folders[name]], people[folders[name]] = plan.summaries, plan.people
        pages.extend(plan.pages)
        archive[folders[name]] = name
        competition_pages.update({(str(name or ""), c["name"]): c["link"] for c in plan.summaries})
    # A run of some seasons (the live publish) links the careers to this database's other seasons
    # as an earlier run published them: their pages stay as they were.
    own_seasons = {row["season"] for row in every}
    for folder, name in archive.items():
        if folder not in summaries and name in own_seasons:
            competition_pages.update({(str(name or ""), c["name"]): c["link"]
                                      for c in _read_summaries(outdir / folder / SUMMARY)})
    pages.extend(plan_careers(club, found, links, competition_pages,
                              {str(name or ""): f"{folder}/index.html" for folder, name in archive.items()
                               if name in own_seasons}))
    # The front page shows the newest season; its data may come from an earlier run.
    newest = max(archive, key=lambda s: archive[s])
    if newest in summaries:
        front, front_people = summaries[newest], people[newest]
    else:
        front, front_people = _read_summaries(outdir / newest / SUMMARY), _read_people(outdir / newest / PEOPLE)
    seasons_list = [{"slug": s, "name": n} for s, n in archive.items()]
    pages.extend(plan_front(club, seasons_list, {"slug": newest, "name": archive[newest]}, front, front_people))

    own = _Own(identity(settings["site"], min((r["created"] for r in rows), default=None)), settings["site"],
               evening_hours(settings["evening_time"]))
    env = _environment(own_templates, lang)
    env.globals["colours"] = colours
    try:
        rendered = render_pages(env, pages, rendering, {rel: k for rel, k in previous.keys.items() if rel in intact})
    except PageError as e:
        raise StoreError("template %(where)s: %(why)s; fix the club's template folder", where=e.where,
                         why=e.message) from None
    files = rendered.files
    feeds = _Made(rendering, {rel: k for rel, k in previous.keys.items() if rel in intact})
    files[SEASONS] = (json.dumps(dict(sorted(archive.items())), ensure_ascii=False, indent=1) + "\n").encode()
    for folder, summary in summaries.items():
        files[f"{folder}/{SUMMARY}"] = (json.dumps(summary, ensure_ascii=False, indent=1, default=_encode) + "\n").encode()
        files[f"{folder}/{PEOPLE}"] = (json.dumps(people[folder], ensure_ascii=False, indent=1) + "\n").encode()
        files.update(_feeds(club, archive[folder], folder, plans[folder], translations(lang).gettext, own, feeds))
    for static in _static_files(own_templates):
        files[f"static/{static.name}"] = static.read_bytes()
    logo = store.get_meta("club_logo")
    if logo and club.logo:
        image = base64.b64decode(logo)
        # A logo stored before SVG logos were cleaned is cleaned on its way out too.
        files[f"static/{club.logo}"] = clean_svg("in the database", image) if logo_type == "svg" else image

    try:
        written = write_site(outdir, files, in_scope, Kept({**rendered.kept, **feeds.kept}, {**rendered.keys, **feeds.keys},
                                                           intact, (scope, key) if steady else None))
    except OSError as e:
        raise StoreError("cannot write the site to %(folder)s: %(why)s (%(file)s); check that the folder is writable",
                         folder=outdir, why=e.strerror or str(e), file=e.filename) from None
    if carried is not None:  # kept_file imported above
        if kept_file.mark(store) != before and kept_file.worth_keeping(store):
            published = [rnd for competitions in by_season.values() for c in competitions for rnd in c.season.rounds]
            digests = {"careers": kept_digests(), "rounds": kept_round_digests(published)}
            kept_file.keep(store, carried, code_key(), digests)
        kept_file.release()
    return Published(tuple(written), len(files) + len(rendered.kept) + len(feeds.kept) - len(written), tuple(by_season),
                     len(pages) - len(rendered.kept))


def _inputs(store: Store, outdir: Path, rendering: str, archive: dict[str, str],
            folders: dict[str, str]) -> tuple[str, str]:
    """The scope of a publishing (its seasons' folders) and the key of its inputs: the rendering,
    the database's contents, the seasons it publishes, the season list it writes (with those
    published before into the folder), and the front page's data when another database's
    season is the newest."""
    ours = sorted(folders.values())
    every = {**archive, **{folder: name for name, folder in folders.items()}}
    newest = max(every, key=lambda s: every[s])
    parts: list[str | bytes | None] = [json.dumps(sorted(folders.items())), json.dumps(sorted(every.items()))]
    if newest not in ours:
        parts += [_read_bytes(outdir / newest / SUMMARY), _read_bytes(outdir / newest / PEOPLE)]
    return ",".join(ours), inputs_key(rendering, store.contents_digest(inputs_contents()), parts)


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


@dataclass
class _Made:
    """Files made like pages, with a key of what they are made of (a member's calendar and feed):
    those whose key is the one ``known`` for them are ``kept`` as they are (path → key)."""

    rendering: str
    known: dict[str, str]
    kept: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)

    def make(self, paths: tuple[str, ...], inputs: tuple[Any, ...], make: Callable[[], dict[str, bytes]]) -> dict[str, bytes]:
        key = page_key(self.rendering, "files", paths[0], {"inputs": inputs})
        if key is not None and all(self.known.get(path) == key for path in paths):
            self.kept.update(dict.fromkeys(paths, key))
            return {}
        made = make()
        if key is not None:
            self.keys.update(dict.fromkeys(made, key))
        return made


def _feeds(club: Club, season: str, folder: str, plan: SeasonPlan, gettext: Any, own: _Own,
           made: _Made) -> dict[str, bytes]:
    """A season's calendar of round dates, its news feed of pairings and results, each member's
    own calendar and results feed, and each weekly competition's current standing as JSON (for
    a club's own website to embed).  Ids come from the club's identity, not its name."""
    def round_name(r: dict[str, Any]) -> str:
        return f"{r['competition']}: " + gettext("Round %(round)s") % {"round": r["number"]}

    dated = sorted((r for r in plan.rounds if r["date"]), key=lambda r: (r["date"], r["link"]))
    events = [Event(f"{r['link'].removesuffix('.html')}@{own.ident}", r["date"], round_name(r),
                    "\n".join(filter(None, [r["time_control"], own.site + r["link"] if own.site else None])) or None,
                    own.site + r["link"] if own.site else None) for r in dated]
    entries = []
    for r in dated:
        link = address(own.site, r["link"], relative_url(folder, r["link"]))
        what = "results" if r["complete"] else "pairings"
        title = (gettext("Results of round %(round)s") if r["complete"] else gettext("Pairings of round %(round)s")) \
            % {"round": r["number"]}
        entries.append(Entry(f"{r['link']}#{what}", r["date"], f"{r['competition']}: {title}", link, round_name(r)))
    name = f"{club.name} {season}"
    files = {f"{folder}/calendar.ics": calendar(name, events, own.hours).encode("utf-8"),
             f"{folder}/feed.xml": atom(name, f"{own.ident}/{folder}", address(own.site, f"{folder}/index.html", "index.html"),
                                        entries).encode("utf-8")}
    for m in plan.members:
        args = (f"{m['name']} · {name}", f"{folder}/{FEEDS}", m["link"], m["rounds"], own.ident, own.site, own.hours)
        files.update(made.make(member_feed_paths(*args[1:3]), args, partial(member_feeds, *args, gettext)))
    for c in plan.summaries:
        if not systems.of(c["system"]).weekly:
            continue
        points = systems.of(c["system"]).points
        rows = [{"rank": r["rank"], "name": r["name"],
                 **({"points": float(r["points"])} if points else
                    {"score": float(round(r["score"], c["decimals"])), "value": float(r["value"])})}
                for r in c["standing"]]
        data = {"competition": c["name"], "system": c["system"], "round": c["standing_round"],
                "date": c["last_date"], "page": relative_url(c["folder"], c["link"]), "standing": rows}
        files[f"{c['folder']}/standing.json"] = (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()
    return files


@dataclass(frozen=True)
class _Own:
    """What makes the club's feeds its own: the identity in their ids, the site's address for
    their links ('' when not set), the club evening's hours (None: all-day events)."""

    ident: str
    site: str
    hours: tuple[str, str] | None


def _competition_data(store: Store, row: dict[str, Any]) -> CompetitionData:
    kind = systems.of(row["system"]).standing_kind
    if kind == "bracket":
        return cup_competition_data(store, row)
    if kind == "matches":  # (a team event's modules imported only for one: the matches' pairing is large)
        from keizer.publish.team_pages import TeamPages, team_competition_data

        BUILDERS["team"] = TeamPages
        return team_competition_data(store, row)
    season = store.load_season(row["id"])
    if systems.of(row["system"]).points:
        from keizer.points import points_standing

        rules = stored_points_rules(store, row["id"])
        points = tuple(points_standing(season, rules.tiebreaks, rules.edition, r, rules.lots, system=rules.system,
                                       scoring=rules.scoring) for r in range(season.completed_rounds() + 1))
        from keizer.operations.fide import mode_line

        return CompetitionData(row["name"], season, system=row["system"], points=points, tiebreaks=rules.tiebreaks,
                               rules=mode_line(store, row["id"]))
    # The standings after each complete round, and with the round being played (the results in
    # so far) the provisional one after it: one computation, as the app's results page shows it.
    standings = kept_standings(store, row["id"], season, provisional=True)  # what the app keeps (keizer.kept)
    final = standings[season.completed_rounds()]  # the players' histories are of it (keizer.publish.plan)
    items = kept_items(store, row["id"], season, final)
    kept = None if items is None else (final, items)
    if season.round_in_progress() is None:
        return CompetitionData(row["name"], season, standings, items=kept)
    return CompetitionData(row["name"], season, standings[:-1], provisional=standings[-1], items=kept)


def _finished(store: Store, row: dict[str, Any], data: CompetitionData) -> bool:
    """Closed, or every planned round played: as the app's evening view says it."""
    stored = store.system_settings(row["id"])
    planned = planned_rounds(row["system"], stored, len(data.season.players))
    return bool(stored.get("closed")) or is_finished(planned, data.season.completed_rounds())


def _notices(store: Store, row: dict[str, Any], data: CompetitionData, players: list[dict[str, Any]]) -> frozenset[str]:
    """The players who sent notice of absence (through their member link) for the date of the
    round to be played, before its attendance is taken: the member's page says so."""
    number = data.season.completed_rounds() + 1
    if not systems.of(row["system"]).weekly or len(data.season.rounds) < number:
        return frozenset()
    return frozenset(str(n["player"]) for n in round_notices(store, row["id"], number, players_read=players))


def _read_seasons(outdir: Path) -> dict[str, str]:
    """The seasons published into ``outdir`` before: folder → name."""
    path = outdir / SEASONS
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        raise StoreError("%(path)s is damaged; remove it and publish every season again", path=path) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and _FOLDER.fullmatch(k) and k != "static"
                                             and isinstance(v, str) for k, v in data.items()):
        raise StoreError("%(path)s is not a keizer season list; remove it and publish again", path=path)
    return data


def _encode(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    raise TypeError(f"cannot store {type(value).__name__} in {SUMMARY}")


def _decode(data: dict[str, Any]) -> Any:
    return Fraction(data["fraction"]) if set(data) == {"fraction"} else data


def _read_summaries(path: Path) -> list[dict[str, Any]]:
    """The summaries an earlier run wrote for a season (none if they are missing, damaged or
    written by an older keizer that did not record everything the front page shows)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_hook=_decode)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, ValueError, ZeroDivisionError):
        return []
    if not isinstance(data, list) or not all(
            isinstance(c, dict) and _SUMMARY_KEYS <= set(c)
            and (not systems.of(c["system"]).weekly or _WEEKLY_SUMMARY_KEYS <= set(c))
            for c in data):
        return []
    return data


def _read_people(path: Path) -> list[dict[str, str]]:
    """A season's people as an earlier run wrote them (none if missing or damaged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return []
    if not isinstance(data, list) or not all(isinstance(p, dict) and isinstance(p.get("name"), str)
                                             and isinstance(p.get("link"), str) for p in data):
        return []
    return data


def _package_templates() -> Path:
    return Path(str(resources.files("keizer.templates")))


def _static_files(own: Path | None) -> list[Path]:
    """Static files of the package, with a club's own static files of the same name instead."""
    found = {p.name: p for p in (_package_templates() / "static").iterdir() if p.is_file()}
    if own is not None and (own / "static").is_dir():
        found.update({p.name: p for p in (own / "static").iterdir() if p.is_file()})
    return [found[k] for k in sorted(found)]


class _Translated(NodeTransformer):
    """``_('text')`` and ``_('text', n=…)`` of a template, translated while it is compiled:
    one site is published in one language, so its words need no gettext call per use (a
    large site makes a hundred thousand).  The result is what the i18n extension's newstyle
    gettext gives: the translation as markup, formatted with the escaped values."""

    def __init__(self, gettext: Callable[[str], str]):
        self.gettext = gettext

    def visit_Call(self, call: nodes.Call) -> nodes.Node:
        node = self.generic_visit(call)
        if (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name == "_" and len(node.args) == 1
                and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)
                and not node.dyn_args and not node.dyn_kwargs):
            text = nodes.MarkSafe(nodes.Const(self.gettext(node.args[0].value)), lineno=node.lineno)
            values = nodes.Dict([nodes.Pair(nodes.Const(k.key), k.value) for k in node.kwargs], lineno=node.lineno)
            return nodes.Mod(text, values, lineno=node.lineno)
        return node


class _SiteEnvironment(Environment):
    """Jinja's environment for one site in one language.

    It reads ``row.rank`` of a plain dict as ``row["rank"]`` at once: the page plan's rows are
    dicts, and Jinja's default (an attribute first, the key after the AttributeError) costs a
    large site a second in raised exceptions; the plan has no key that shadows a dict method a
    template calls (``items``, ``get``).  And it translates the templates' ``_()`` as it
    compiles them (:class:`_Translated`).  Its templates print values as escaped text
    (:class:`~keizer.publish.render.SiteTemplate`)."""

    template_class = SiteTemplate

    def __init__(self, *args: Any, gettext: Callable[[str], str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._translated = _Translated(gettext)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        return self._translated.visit(super()._parse(source, name, filename))


class _CompiledTemplates(FileSystemBytecodeCache):
    """Compiled templates kept between runs (Jinja's cache in the temporary folder, private to
    the user), per language and catalog: a compiled site template holds its translations."""

    def __init__(self, lang: str):
        super().__init__(pattern="keizer-site-%s.cache")
        catalog = catalog_path(lang).read_bytes() if lang != "en" else b""
        self.variant = f"{lang}:{hashlib.sha256(catalog).hexdigest()}"

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(f"{self.variant}:{name}", filename)


def _bytecode_cache(lang: str) -> FileSystemBytecodeCache | None:
    try:
        return _CompiledTemplates(lang)
    except (OSError, RuntimeError):  # no private temporary folder: compile every run
        return None


def _environment(own: Path | None, lang: str) -> Environment:
    loaders = [FileSystemLoader(str(own))] if own is not None else []
    loaders.append(FileSystemLoader(str(_package_templates())))
    env = _SiteEnvironment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        gettext=translations(lang).gettext,
        bytecode_cache=_bytecode_cache(lang),
        # One environment per publish: each template is read once and every page of the site is
        # made with that one (Jinja would look at the template's file again for each page, and a
        # club's own template edited during a publish would give its pages two versions).
        auto_reload=False,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]

    def num(value: Fraction | int | None, decimals: int = 2, grouped: bool = True) -> str:
        return format_number(value, decimals, lang, grouped)

    def pct(value: Fraction | None) -> str:
        return format_percentage(value, lang)

    @pass_context
    def url(context: Any, target: str) -> str:
        return relative_url(context["page_path"].rpartition("/")[0], target)

    gettext = translations(lang).gettext

    @lru_cache(maxsize=None)
    def tb_title(code: str) -> str:
        return tiebreak_title(code, gettext)

    @pass_context
    def url_filter(context: Any, target: str) -> str:
        return relative_url(context["page_path"].rpartition("/")[0], target)

    # The templates use filters (``x|num(2)``, ``link|url``): Jinja calls a filter directly, a
    # global function through the context, which costs a large site seconds; the functions
    # stay for a club's own templates.
    env.filters.update(num=num, pct=pct, url=url_filter, grouped_tiebreak=grouped_tiebreak,
                       said=lambda message: message.words(gettext=gettext) if message is not None else "")
    env.globals.update(num=num, pct=pct, url=url, day=lambda iso: format_day(iso, lang), tb_title=tb_title,
                       words={k: gettext(v) for k, v in ROW_WORDS.items()},
                       colour_letters={k: gettext(v) for k, v in COLOUR_LETTERS.items()},
                       cell_letters={**{k: gettext(v) for k, v in CELL_LETTERS.items()}, "late": "–", "withdrawn": "–"},
                       legend_letters={**{k: gettext(v) for k, v in {**CELL_LETTERS, **COLOUR_LETTERS}.items()}, "out": "–"},
                       legend_words={k: gettext(v) for k, v in CELL_WORDS.items()})
    return env


@lru_cache(maxsize=1 << 16)
def relative_url(folder: str, target: str) -> str:
    """``target`` (a path from the site's top) as a link from a page in ``folder`` ("" for the
    top); what ``posixpath.relpath(target, folder or ".")`` gives for the normalised paths of a
    page plan, at a fraction of its cost (a large site asks for it a hundred thousand times).

    >>> relative_url("s/c", "s/c/players/anna.html"), relative_url("s/c/players", "s/c/index.html")
    ('players/anna.html', '../index.html')
    >>> relative_url("", "static/style.css"), relative_url("s", "s/index.html"), relative_url("s/c", "s/c")
    ('static/style.css', 'index.html', '.')
    """
    here = folder.split("/") if folder else []
    there = target.split("/")
    common = 0
    for a, b in zip(here, there):
        if a != b:
            break
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:]) or "."



