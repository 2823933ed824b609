"""The app's templates are compiled once and kept (keizer.web.compiled): a new process loads
what another compiled, an edited template or an environment set up otherwise is compiled
again, and an unreadable cache file is compiled over.  That a new `keizer serve` loads the
templates of its first pages: tests/test_serve_start.py."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from jinja2 import Environment, FileSystemLoader

from keizer.web.compiled import PATTERN, Compiled

PAGE = "<ul>\n  {% for name in names %}\n  <li>{{ name }}</li>\n  {% endfor %}\n</ul>\n"


def _environment(templates: Path, kept: Compiled, **options: bool) -> Environment:
    return Environment(loader=FileSystemLoader(str(templates)), bytecode_cache=kept, **options)


def _jinjas_own(templates: Path, **options: bool) -> str:
    """The page as Jinja renders it without a cache."""
    env = Environment(loader=FileSystemLoader(str(templates)), **options)
    return env.get_template("page.html").render(names=["Anna", "<Bert>"])


def _rendered(templates: Path, cache: Path, **options: bool) -> tuple[str, int]:
    """The page rendered by a fresh environment with a fresh cache in memory (as in a new
    process) over ``cache`` on disk, and how many times the template was compiled."""
    env = _environment(templates, Compiled(str(cache)), **options)
    with mock.patch.object(Environment, "_compile", autospec=True, side_effect=Environment._compile) as compiled:
        return env.get_template("page.html").render(names=["Anna", "<Bert>"]), compiled.call_count


def test_a_template_is_compiled_once_and_loaded_by_the_next_process(tmp_path):
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    cache.mkdir(mode=0o700)
    (templates / "page.html").write_text(PAGE, encoding="utf-8")
    first = _rendered(templates, cache, trim_blocks=True)
    assert first == (_jinjas_own(templates, trim_blocks=True), 1)
    assert len(list(cache.glob(PATTERN % "*"))) == 1
    assert _rendered(templates, cache, trim_blocks=True) == (first[0], 0)  # loaded, not compiled
    other = _rendered(templates, cache, trim_blocks=True, lstrip_blocks=True)  # another environment: its own
    assert other == (_jinjas_own(templates, trim_blocks=True, lstrip_blocks=True), 1) and other[0] != first[0]
    (templates / "page.html").write_text(PAGE.replace("<li>", "<li class=x>"), encoding="utf-8")
    edited = _rendered(templates, cache, trim_blocks=True)
    assert edited == (_jinjas_own(templates, trim_blocks=True), 1) and "class=x" in edited[0]
    for garbled in (lambda data: b"not jinja's", lambda data: data[:len(data) // 3], lambda data: data[:-7]):
        for kept in cache.iterdir():  # another file, one cut short, one that lost its end
            kept.write_bytes(garbled(kept.read_bytes()))
        again = _rendered(templates, cache, trim_blocks=True)
        assert again == (_jinjas_own(templates, trim_blocks=True), 1)


def test_the_next_app_of_the_process_compiles_nothing(tmp_path):
    from web_helpers import sample_app

    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    first, _db = sample_app(tmp_path / "1")
    assert first.test_client().get("/").status_code == 200
    second, _db = sample_app(tmp_path / "2")
    with mock.patch.object(Environment, "_compile", autospec=True, side_effect=Environment._compile) as compiled:
        assert second.test_client().get("/").status_code == 200
    assert compiled.call_count == 0
