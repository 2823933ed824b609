"""Publish the club website: a static site rendered from the season database.

``publish(store, outdir)`` loads every competition, asks the engines for the
standings, builds the page plan (:mod:`keizer.publish.plan`) and renders it
with the Jinja templates shipped in the package (``templates/`` in the
repository), or a club's own folder that overrides any of them.  The output
is deterministic — the same database gives byte-identical files — and
incremental: a file whose bytes did not change is not rewritten.

Earlier seasons stay in the output folder; ``seasons.json`` lists them and the
front page links them all.
"""

from __future__ import annotations

import base64
import json
import posixpath
import re
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import (ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError, pass_context,
                    select_autoescape)

from keizer.competition import POINTS_SYSTEMS, stored_points_rules
from keizer.publish.cup_pages import CupPages, cup_competition_data
from keizer.publish.team_pages import TeamPages, team_competition_data
from keizer.publish.i18n import LANGUAGES, format_day, format_number, translations
from keizer.publish.plan import BUILDERS, Club, CompetitionData, Page, plan_front, plan_season, slugify
from keizer.scoring import compute_standings
from keizer.store import Store, StoreError

BUILDERS["knockout"] = CupPages
BUILDERS["team"] = TeamPages

MANIFEST = "seasons.json"
SUMMARY = "summary.json"  # per season: what its front page shows, for the club's front page
LOGO_TYPES = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "gif": "gif", "svg": "svg", "webp": "webp"}
_COLOUR = re.compile(r"#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?")

#: Club settings kept in the database's meta table, with their defaults.
CLUB_SETTINGS = {"name": "Chess club", "colour": "#1f4e79", "accent": "#c8102e", "language": "en",
                 "season": "", "templates": ""}


@dataclass(frozen=True)
class Published:
    written: tuple[str, ...]
    unchanged: int
    season: str


def club_settings(store: Store) -> dict[str, str]:
    return {k: store.get_meta(f"club_{k}") or v for k, v in CLUB_SETTINGS.items()}


def set_club(store: Store, logo: Path | None = None, **values: str | None) -> None:
    """Change club settings (name, colour, accent, language, season, templates) and the logo."""
    for key, value in values.items():
        if value is None:
            continue
        if key not in CLUB_SETTINGS:
            raise StoreError(f"unknown club setting {key!r}")
        if key in ("colour", "accent") and not _COLOUR.fullmatch(value):
            raise StoreError(f"{key} must be a colour like #1f4e79, not {value!r}")
        if key == "language" and value not in LANGUAGES:
            raise StoreError(f"language must be one of {', '.join(LANGUAGES)}, not {value!r}")
        if key == "name" and not value.strip():
            raise StoreError("the club name cannot be empty")
        if key == "templates" and value and not Path(value).is_dir():
            raise StoreError(f"template folder {value} does not exist")
        store.set_meta(f"club_{key}", value.strip())
    if logo is not None:
        kind = LOGO_TYPES.get(logo.suffix.lower().lstrip("."))
        if kind is None:
            raise StoreError(f"logo {logo.name}: use a .png, .jpg, .gif, .svg or .webp file")
        data = logo.read_bytes()
        if len(data) > 1_000_000:
            raise StoreError(f"logo {logo.name} is larger than 1 MB; use a smaller image")
        store.set_meta("club_logo", base64.b64encode(data).decode("ascii"))
        store.set_meta("club_logo_type", kind)


def season_name(store: Store, competitions: list[CompetitionData], fallback: str) -> str:
    """The season's name: as set, else the years its rounds span (2025-2026), else ``fallback``."""
    named = store.get_meta("club_season")
    if named:
        return named
    years = sorted({int(r.date[:4]) for c in competitions for r in c.season.rounds
                    if r.date and r.date[:4].isdigit()})
    if years:
        return f"{years[0]}-{years[-1]}" if years[0] != years[-1] else str(years[0])
    return fallback


def publish(store: Store, outdir: Path, templates: Path | None = None, language: str | None = None,
            fallback_name: str = "season") -> Published:
    settings = club_settings(store)
    lang = language or settings["language"]
    if lang not in LANGUAGES:
        raise StoreError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    own_templates = templates or (Path(settings["templates"]) if settings["templates"] else None)
    if own_templates is not None and not own_templates.is_dir():
        raise StoreError(f"template folder {own_templates} does not exist")
    logo_type = store.get_meta("club_logo_type")
    club = Club(settings["name"], settings["colour"], settings["accent"], lang,
                f"logo.{logo_type}" if logo_type else None)

    competitions = [_competition_data(store, row) for row in store.competitions()]
    if not competitions:
        raise StoreError("there is no competition to publish; create one with 'keizer competition create'")
    name = season_name(store, competitions, fallback_name)
    pages, summaries = plan_season(club, name, competitions)
    slug = slugify(name)

    outdir.mkdir(parents=True, exist_ok=True)
    manifest = _read_manifest(outdir)
    manifest[slug] = name
    # The front page shows the newest season; its data may come from an earlier run.
    newest = max(manifest, key=lambda s: manifest[s])
    front = summaries if newest == slug else _read_summaries(outdir / newest / SUMMARY)
    seasons = [{"slug": s, "name": n} for s, n in manifest.items()]
    pages.append(plan_front(club, seasons, {"slug": newest, "name": manifest[newest]}, front))

    env = _environment(own_templates, lang)
    files: dict[str, bytes] = {}
    for page in pages:
        try:
            files[page.path] = _render(env, page).encode("utf-8")
        except TemplateError as e:
            where = f"{getattr(e, 'name', None) or page.template}" + (f" line {e.lineno}" if getattr(e, "lineno", None) else "")
            raise StoreError(f"template {where}: {e.message}; fix the club's template folder") from None
    files[MANIFEST] = (json.dumps(dict(sorted(manifest.items())), ensure_ascii=False, indent=1) + "\n").encode()
    files[f"{slug}/{SUMMARY}"] = (json.dumps(summaries, ensure_ascii=False, indent=1, default=_encode) + "\n").encode()
    for static in _static_files(own_templates):
        files[f"static/{static.name}"] = static.read_bytes()
    logo = store.get_meta("club_logo")
    if logo and club.logo:
        files[f"static/{club.logo}"] = base64.b64decode(logo)

    # Pages of this season that the plan no longer has (an undone round, a renamed player) go.
    for stale in sorted((outdir / slug).rglob("*.html")):
        if stale.relative_to(outdir).as_posix() not in files:
            stale.unlink()
    written = []
    for rel, data in sorted(files.items()):
        target = outdir / rel
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(rel)
    return Published(tuple(written), len(files) - len(written), name)


def _competition_data(store: Store, row: dict[str, Any]) -> CompetitionData:
    if row["system"] == "knockout":
        return cup_competition_data(store, row)
    if row["system"] == "team":
        return team_competition_data(store, row)
    season = store.load_season(row["id"])
    if row["system"] in POINTS_SYSTEMS:
        from keizer.points import points_standing

        rules = stored_points_rules(store, row["id"])
        points = tuple(points_standing(season, rules.tiebreaks, rules.edition, r, rules.lots, system=rules.system,
                                       scoring=rules.scoring) for r in range(season.completed_rounds() + 1))
        return CompetitionData(row["name"], season, system=row["system"], points=points, tiebreaks=rules.tiebreaks)
    return CompetitionData(row["name"], season, compute_standings(season))


def _read_manifest(outdir: Path) -> dict[str, str]:
    path = outdir / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise StoreError(f"{path} is damaged; remove it and publish every season again") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise StoreError(f"{path} is not a keizer season list; remove it and publish again")
    return data


def _encode(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    raise TypeError(f"cannot store {type(value).__name__} in {SUMMARY}")


def _decode(data: dict[str, Any]) -> Any:
    return Fraction(data["fraction"]) if set(data) == {"fraction"} else data


def _read_summaries(path: Path) -> list[dict[str, Any]]:
    """The summaries an earlier run wrote for a season (none if they are missing or damaged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_hook=_decode)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, ValueError, ZeroDivisionError):
        return []
    return data if isinstance(data, list) else []


def _package_templates() -> Path:
    return Path(str(resources.files("keizer.templates")))


def _static_files(own: Path | None) -> list[Path]:
    """Static files of the package, with a club's own static files of the same name instead."""
    found = {p.name: p for p in (_package_templates() / "static").iterdir() if p.is_file()}
    if own is not None and (own / "static").is_dir():
        found.update({p.name: p for p in (own / "static").iterdir() if p.is_file()})
    return [found[k] for k in sorted(found)]


def _environment(own: Path | None, lang: str) -> Environment:
    loaders = [FileSystemLoader(str(own))] if own is not None else []
    loaders.append(FileSystemLoader(str(_package_templates())))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]

    def num(value: Fraction | int | None, decimals: int = 2) -> str:
        return format_number(value, decimals, lang)

    def pct(value: Fraction | None) -> str:
        return "" if value is None else format_number(value * 100, 0, lang)

    @pass_context
    def url(context: Any, target: str) -> str:
        here = posixpath.dirname(context["page_path"])
        return posixpath.relpath(target, here or ".")

    env.globals.update(num=num, pct=pct, url=url, day=lambda iso: format_day(iso, lang))
    return env


def _render(env: Environment, page: Page) -> str:
    template = env.get_template(page.template)
    return template.render(page_path=page.path, **page.context)

