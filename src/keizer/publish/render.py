"""Rendering the page plan: every page through its template — on several cores for a large
site, where the computer can fork (Linux, macOS) and nothing else runs in the process.

The pages come out the same either way: the workers render the pages (and make the data of
those whose data is made late, :class:`~keizer.publish.plan.Page`) with the same environment,
inherited by the fork, a few at a time as they come free, and hand back the bytes.  The web app publishes
from one of its threads, and forking a process with other threads is not safe, so there
(as on Windows, and for a small site, where a fork costs more than it saves) the pages are
rendered one after the other.  ``$KEIZER_PUBLISH_WORKERS`` sets the number of workers
(1: one after the other).

A page whose key (:func:`keizer.publish.keys.page_key`: its template, path and context) is the
one given as known for it is not rendered: its file stays as it is.  When keys are known (a
run before this one), the pages keyed by their inputs are looked at in this process first,
and workers are forked only when many pages are then sure to be rendered (after one result a
dozen are: forking four workers over the heap of kept standings and careers cost 0.3 s of CPU
at 600 players × 52 rounds, more than the pages).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from jinja2 import Environment, Template, TemplateError
from markupsafe import escape

from keizer.limits import is_digits
from keizer.publish.keys import page_key
from keizer.publish.plan import Page

try:  # the C function markupsafe's escape() wraps (markupsafe 3)
    from markupsafe import _escape_inner as _escape_str  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another markupsafe: its escape(), as text
    def _escape_str(text: str, /) -> str:
        return str(escape(text))


def escaped_text(value: object) -> str:
    """The text of ``markupsafe.escape(value)``, without making it a ``Markup``.

    >>> escaped_text("Dirk O'Neill <b>"), escaped_text(12), escaped_text(escape("<i>"))
    ('Dirk O&#39;Neill &lt;b&gt;', '12', '&lt;i&gt;')
    """
    if type(value) is str:
        return _escape_str(value)
    if type(value) is int:  # digits and a sign: nothing to escape
        return str(value)
    html = getattr(value, "__html__", None)
    return str(html()) if html is not None else _escape_str(str(value))


class SiteTemplate(Template):
    """A site template whose printed values (``{{ x }}``) are escaped as text.

    Jinja's compiled templates escape each value they print with ``escape``, which makes a
    ``Markup`` string of it, only for the value to be joined into the page's text: a large
    share of a fresh publish (some 100,000 values for the sample club's 200 pages).  A printed
    value goes nowhere but into that text (a macro's or block's output is made ``Markup``
    after it is joined), so the template's ``escape`` is :func:`escaped_text`: the same
    characters, without the object.  The pages come out byte for byte as before."""

    @classmethod
    def _from_namespace(cls, environment: Environment, namespace: Any, globals: Any) -> Any:
        namespace["escape"] = escaped_text
        return super()._from_namespace(environment, namespace, globals)


#: Below this many pages a site is rendered in the process itself.
PARALLEL_FROM = 400
#: At most this many workers.
MOST_WORKERS = 4


class PageError(Exception):
    """A template that failed on a page: where (template and line) and why."""

    def __init__(self, where: str, message: str):
        super().__init__(where, message)
        self.where, self.message = where, message


def render_page(env: Environment, page: Page, context: Mapping[str, object] | None = None) -> bytes:
    try:
        values = page.values() if context is None else context
        return env.get_template(page.template).render(page_path=page.path, **values).encode("utf-8")
    except TemplateError as e:
        lineno = getattr(e, "lineno", None)  # a syntax error's; other template errors have none
        where = f"{getattr(e, 'name', None) or page.template}" + (f" line {lineno}" if lineno else "")
        raise PageError(where, e.message or str(e)) from None


@dataclass
class Rendered:
    """The pages rendered (path → bytes) and those left as they were (path → key), with the key
    of each page rendered (path → key; none for a page whose context has no key)."""

    files: dict[str, bytes] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)


def render_pages(env: Environment, pages: Sequence[Page], rendering: str = "",
                 known: Mapping[str, str] | None = None) -> Rendered:
    """Every page's bytes by its path, but for the pages whose key under ``rendering`` is the
    one ``known`` gives for them.  Raises :class:`PageError` for the first page a template fails on."""
    known = known or {}
    out = Rendered()
    workers = _workers(len(pages))
    if workers > 1 and known and rendering and not _forced():
        pages = _unsure(out, pages, rendering, known)
        certain = sum(1 for page in pages if page.inputs is not None or page.path not in known)
        if certain < PARALLEL_FROM:  # few pages to render: forking workers over a large heap would cost more
            workers = 1
    if workers == 1:
        for page in pages:
            _take(out, page.path, _key_or_render(env, page, rendering, known))
        return out
    global _shared
    _shared = (env, pages, rendering, known)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            # Small batches handed out as workers come free: a crosstable costs a hundred player pages.
            for page, done in zip(pages, pool.imap(_render_one, range(len(pages)), chunksize=8)):
                if isinstance(done, PageError):
                    raise done
                _take(out, page.path, done)
    finally:
        _shared = None
    return out


def _take(out: Rendered, path: str, done: tuple[str | None, bytes | None]) -> None:
    key, data = done
    if data is None:
        assert key is not None
        out.kept[path] = key
        return
    out.files[path] = data
    if key is not None:
        out.keys[path] = key


def _key_or_render(env: Environment, page: Page, rendering: str,
                   known: Mapping[str, str]) -> tuple[str | None, bytes | None]:
    """The page's key, and its bytes unless the key is the one known for it: the key of its
    inputs where it has them (its context is then not made when they did not change), else of its context."""
    if rendering and page.inputs is not None:
        key = page_key(rendering, page.template, page.path, {"inputs": page.inputs()}, "inputs")
        if key is not None and known.get(page.path) == key:
            return key, None
        return key, render_page(env, page)
    context = page.values()
    key = page_key(rendering, page.template, page.path, context) if rendering else None
    if key is not None and known.get(page.path) == key:
        return key, None
    return key, render_page(env, page, context)


_shared: tuple[Environment, Sequence[Page], str, Mapping[str, str]] | None = None


def _render_one(k: int) -> tuple[str | None, bytes | None] | PageError:
    """In a worker: page k of the plan the fork inherited."""
    assert _shared is not None
    env, pages, rendering, known = _shared
    try:
        return _key_or_render(env, pages[k], rendering, known)
    except PageError as e:
        return e


def _unsure(out: Rendered, pages: Sequence[Page], rendering: str, known: Mapping[str, str]) -> list[Page]:
    """The pages whose inputs' key is the one known for them are taken as kept (in this process:
    the key of inputs is cheap); the others, to be looked at further, in their order."""
    rest: list[Page] = []
    for page in pages:
        if page.inputs is not None and page.path in known:
            key = page_key(rendering, page.template, page.path, {"inputs": page.inputs()}, "inputs")
            if key is not None and known[page.path] == key:
                out.kept[page.path] = key
                continue
        rest.append(page)
    return rest


def _forced() -> bool:
    """Whether ``KEIZER_PUBLISH_WORKERS`` sets the number of workers."""
    wanted = os.environ.get("KEIZER_PUBLISH_WORKERS", "").strip()
    return is_digits(wanted, 4) and int(wanted) >= 1


def _workers(pages: int) -> int:
    wanted = os.environ.get("KEIZER_PUBLISH_WORKERS", "").strip()
    if is_digits(wanted, 4) and int(wanted) >= 1:
        most = int(wanted)
    elif pages < PARALLEL_FROM:
        return 1
    else:
        most = MOST_WORKERS
    if most == 1 or "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(most, cores, pages))
