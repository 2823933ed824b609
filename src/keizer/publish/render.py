"""Rendering the page plan: every page through its template — on several cores for a large
site, where the computer can fork (Linux, macOS) and nothing else runs in the process.

The pages come out the same either way: the workers render the pages (and make the data of
those whose data is made late, :class:`~keizer.publish.plan.Page`) with the same environment,
inherited by the fork, a few at a time as they come free, and hand back the bytes.  The web app publishes
from one of its threads, and forking a process with other threads is not safe, so there
(as on Windows, and for a small site, where a fork costs more than it saves) the pages are
rendered one after the other.  ``$KEIZER_PUBLISH_WORKERS`` sets the number of workers
(1: one after the other).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Sequence

from jinja2 import Environment, TemplateError

from keizer.limits import is_digits
from keizer.publish.plan import Page

#: Below this many pages a site is rendered in the process itself.
PARALLEL_FROM = 400
#: At most this many workers.
MOST_WORKERS = 4


class PageError(Exception):
    """A template that failed on a page: where (template and line) and why."""

    def __init__(self, where: str, message: str):
        super().__init__(where, message)
        self.where, self.message = where, message


def render_page(env: Environment, page: Page) -> bytes:
    try:
        return env.get_template(page.template).render(page_path=page.path, **page.values()).encode("utf-8")
    except TemplateError as e:
        lineno = getattr(e, "lineno", None)  # a syntax error's; other template errors have none
        where = f"{getattr(e, 'name', None) or page.template}" + (f" line {lineno}" if lineno else "")
        raise PageError(where, e.message or str(e)) from None


def render_pages(env: Environment, pages: Sequence[Page]) -> dict[str, bytes]:
    """Every page's bytes, by its path.  Raises :class:`PageError` for the first page a
    template fails on."""
    workers = _workers(len(pages))
    if workers == 1:
        return {page.path: render_page(env, page) for page in pages}
    global _shared
    _shared = (env, pages)
    out: dict[str, bytes] = {}
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            # Small batches handed out as workers come free: a crosstable costs a hundred player pages.
            for page, done in zip(pages, pool.imap(_render_one, range(len(pages)), chunksize=8)):
                if isinstance(done, PageError):
                    raise done
                out[page.path] = done
    finally:
        _shared = None
    return out


_shared: tuple[Environment, Sequence[Page]] | None = None


def _render_one(k: int) -> bytes | PageError:
    """In a worker: page k of the plan the fork inherited."""
    assert _shared is not None
    env, pages = _shared
    try:
        return render_page(env, pages[k])
    except PageError as e:
        return e


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
