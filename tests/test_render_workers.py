"""Workers are forked for the pages to render, not for the pages planned (issue 25): after one
result a large site renders a dozen pages, and forking four workers over the process's heap
(the kept standings and careers) cost more CPU than the pages."""

from __future__ import annotations

import multiprocessing

import pytest

from keizer.publish import publish, render
from test_publish_kept import edit, fresh_site
from test_site_incremental import small_club, snapshot


def test_few_pages_to_render_are_rendered_without_workers(tmp_path, monkeypatch):
    monkeypatch.delenv("KEIZER_PUBLISH_WORKERS", raising=False)
    monkeypatch.setattr(render, "PARALLEL_FROM", 1)
    if render._workers(1000) == 1:
        pytest.skip("no fork here (or another thread runs)")
    forks: list[int] = []
    real = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: forks.append(1) or real(method))
    store, comp = small_club(tmp_path / "club.db")
    edit(store, comp, "round", 0)
    site = tmp_path / "site"
    first = publish(store, site)
    assert forks and first.rendered > 20  # from scratch: on workers
    monkeypatch.setattr(render, "PARALLEL_FROM", first.rendered // 2)
    forks.clear()
    edit(store, comp, "result", 1)
    after = publish(store, site)
    assert forks == [] and 0 < after.rendered < first.rendered // 2  # a dozen pages: in this process
    assert snapshot(site) == fresh_site(store, tmp_path)
    edit(store, comp, "correct", 0)  # round 1: every later standing, many pages
    monkeypatch.setattr(render, "PARALLEL_FROM", 2)
    again = publish(store, site)
    assert forks and again.rendered >= 2  # many pages to render: on workers again
    assert snapshot(site) == fresh_site(store, tmp_path)
