"""Keys of what the site is made from, so that publishing again makes only what changed.

A page's key is a SHA-256 of its template's name, its path, its template context (the
read-model parts it shows: rows of a standing, a round's boards, a player's history),
written down from its values (:mod:`keizer.publish.written`: however its objects are
shared, equal values give equal keys), and the rendering's own key: keizer's code and templates, the club's templates, the language
and colours.  A page whose key is the one the manifest keeps for it, and whose file is as
keizer wrote it, is not rendered again (:mod:`keizer.publish.files`, :mod:`keizer.publish.render`).

Above that, a publishing's inputs key — the rendering's key, the rows of every table a page
can show, what the output folder holds of other databases' seasons — lets a run in which
nothing changed stop before it loads a competition.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

from keizer.publish.written import written as _written

#: Tables no page shows: the change log and undo, logins, personal links, mail, secrets, the
#: rounds' stamps (a write's mark, not a value: an undo brings the rows back under new stamps).
#: A change there leaves the site's inputs as they were.
NOT_SHOWN = frozenset({"changes", "undo_log", "logins_ended", "users", "member_links", "board_links", "mail_links",
                       "mail_log", "app_secrets", "round_stamps"})

#: Tables a publishing's inputs key writes down by the rounds' stamps, not by their rows: every
#: write to a round's games or attendance, whoever makes it, gives the round a new stamp
#: (:mod:`keizer.store.rounds_read`), so the stamps change whenever these rows do, and are read
#: in a fraction of the time (at 600 players × 52 rounds 43,700 rows, 0.04 s of every run).  An
#: undo that brings the rows back brings new stamps: that run looks at every page's key (and
#: makes none again) instead of stopping at once.
STAMPED = frozenset({"games", "attendance"})


def _files_digest(digest: Any, top: Path, suffixes: tuple[str, ...] | None = None) -> None:
    for path in sorted(p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and (suffixes is None or p.suffix in suffixes)):
        digest.update(path.relative_to(top).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())


@lru_cache(maxsize=1)
def code_key() -> str:
    """keizer's own code, catalogs and site templates, the Python, Jinja and MarkupSafe they run
    on: a new keizer makes every page again.  (Jinja by its version, MarkupSafe by its code:
    asking ``importlib.metadata`` for their versions cost every command 20 ms of imports.)"""
    import jinja2
    import markupsafe

    digest = hashlib.sha256(f"{sys.version}\0{jinja2.__version__}\0".encode())
    _files_digest(digest, Path(markupsafe.__file__).resolve().parent, (".py",))
    _files_digest(digest, Path(__file__).resolve().parents[1], (".py", ".po", ".mo"))
    _files_digest(digest, Path(str(resources.files("keizer.templates"))))
    return digest.hexdigest()


def rendering_key(own_templates: Path | None, language: str, colours: object) -> str:
    """What every page's rendering depends on besides its context (``colours``: the palette, a
    value whose repr shows it all)."""
    digest = hashlib.sha256(f"{code_key()}\0{language}\0{colours!r}\0".encode())
    if own_templates is not None:
        _files_digest(digest, own_templates)
    return digest.hexdigest()


def inputs_contents() -> frozenset[str]:
    """The tables a publishing's inputs key leaves out (for ``Store.contents_digest``): those no
    page shows, and those the rounds' stamps stand for (:data:`STAMPED`), whose stamps it reads instead."""
    return (NOT_SHOWN | STAMPED) - {"round_stamps"}


def inputs_key(rendering: str, contents: str, parts: Iterable[str | bytes | None]) -> str:
    """A publishing's inputs: the rendering's key, the database's contents, and ``parts`` (what
    else it reads: the output folder's season list, the seasons it publishes)."""
    digest = hashlib.sha256(f"{rendering}\0{contents}\0".encode())
    for part in parts:
        data = b"\1" if part is None else part.encode() if isinstance(part, str) else part
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def page_key(rendering: str, template: str, path: str, context: Mapping[str, Any], kind: str = "context") -> str | None:
    """The key of a page rendered from ``context`` (None: it cannot be written down, and the
    page is always rendered); with ``kind="inputs"``, of a page whose context is made of
    ``context`` (:attr:`keizer.publish.plan.Page.inputs`)."""
    shared = {name: _shared_digest(context[name]) for name in SHARED if name in context}
    data = _written((template, path, {**context, **shared}))
    if data is None or None in shared.values():
        return None
    return hashlib.sha256(f"{rendering}\0{kind}\0".encode() + data).hexdigest()


#: Values every page of a season holds, the same object in each: written down once per run.
SHARED = ("member_links",)
_shared: dict[int, tuple[object, str | None]] = {}


def _shared_digest(value: object) -> str | None:
    """A digest of a value many pages share (the object is kept with it, so its id stays its own)."""
    kept = _shared.get(id(value))
    if kept is None or kept[0] is not value:
        if len(_shared) > 64:
            _shared.clear()
        data = _written(value)
        kept = _shared[id(value)] = (value, None if data is None else "shared:" + hashlib.sha256(data).hexdigest())
    return kept[1]


#: The digest of each complete round written (by the round object, kept with it so that its id
#: stays its own): a round read again only when its stamp changed is the same object
#: (:mod:`keizer.store.rounds_read`, carried to the next command with the kept standings), so a
#: run writes only the rounds it has not written before (at 600 × 52 writing all took 0.03 s).
_rounds: dict[int, tuple[object, bytes]] = {}


def _round_digest(rnd: object, used: dict[int, tuple[object, bytes]]) -> bytes | None:
    known = _rounds.get(id(rnd))
    if known is None or known[0] is not rnd:
        data = _written(rnd)
        if data is None:
            return None
        known = (rnd, hashlib.sha256(data).digest())
    used[id(rnd)] = known
    return known[1]


def kept_round_digests(rounds: Iterable[object]) -> list[tuple[object, bytes]]:
    """The digests taken of ``rounds`` (those of the seasons a run published), to be carried to
    the next process with the rounds they were taken of (:mod:`keizer.operations.kept_file`, in
    the same pickle)."""
    return [known for rnd in rounds if (known := _rounds.get(id(rnd))) is not None and known[0] is rnd]


def take_round_digests(entries: object, kind: type) -> None:
    """Take the digests :func:`kept_round_digests` gave in another process (``kind``: the class
    of a round); anything else is ignored."""
    if not isinstance(entries, list) or not all(
            type(e) is tuple and len(e) == 2 and type(e[0]) is kind and type(e[1]) is bytes and len(e[1]) == 32
            for e in entries):
        return
    _rounds.clear()
    _rounds.update((id(rnd), (rnd, made)) for rnd, made in entries)


def settled_digest(base: Mapping[str, Any], comp: Any, played: int, *more: Any) -> str | None:
    """What a Keizer competition's pages of complete rounds show (:class:`~keizer.publish.plan.CompetitionData`
    ``comp``): everything but the round being played — its boards and results, the provisional
    standing, the notices for it — and of that round and those after it only their numbers,
    dates and time controls.  ``base``: what every page shows; ``more``: the builder's own
    (slugs, links).  None when something cannot be written down."""
    season = comp.season
    used: dict[int, tuple[object, bytes]] = {}
    rounds = [_round_digest(rnd, used) for rnd in season.rounds[:played]]  # each as written down
    if None in rounds:
        return None
    if len(_rounds) > 4096:  # the rounds of this run's competitions, and those of the runs before up to a point
        _rounds.clear()
    _rounds.update(used)
    shown = (base, comp.name, comp.system, comp.points, comp.tiebreaks, dict(comp.extra),
             dict(comp.members), dict(comp.fide), comp.finished, season.name, season.settings, season.players,
             season.initial_order, rounds,
             [(r.number, r.date, r.time_control, bool(r.games or r.byes)) for r in season.rounds], played, more)
    data = _written(shown)
    return None if data is None else hashlib.sha256(data).hexdigest()
