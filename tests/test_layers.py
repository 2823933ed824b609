"""The layers of the package, as the README's folder list draws them, kept by a test.

Domain and engines are pure; the store and the file formats know nothing of the
competition systems or the operations; the systems (keizer.systems) know nothing of the
operations; the operations know nothing of the views (CLI, web app, site); no view imports
another (but where one runs another); no import circle at any level, imports inside
functions included.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import sources

SRC = Path(__file__).resolve().parent.parent / "src"
PURE = ("keizer.model", "keizer.colour", "keizer.i18n", "keizer.refusals", "keizer.readmodel", "keizer.ladder", "keizer.limits", "keizer.settings", "keizer.scoring", "keizer.points",
        "keizer.earned", "keizer.kept", "keizer.packed",
        "keizer.pairing", "keizer.tiebreaks", "keizer.output", "keizer.rating")
STORE = ("keizer.store", "keizer.formats")
SYSTEMS = ("keizer.systems",)
OPERATIONS = ("keizer.operations",)
VIEWS = ("keizer.cli", "keizer.web", "keizer.publish")
OUTSIDE_WORLD = ("sqlite3", "sqlite_utils", "click", "jinja2", "flask", "waitress")


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "keizer").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


@functools.cache
def _imports(name: str, path: Path, top_level_only: bool = False) -> frozenset[str]:
    """What the module imports (its imports inside functions too, unless ``top_level_only``);
    worked out once per module and test process (sources.py keeps the parsed files)."""
    nodes = sources.tree(path).body if top_level_only else sources.nodes(path)
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}
    return frozenset(found)


def _layer(module: str) -> str | None:
    for layer, prefixes in (("pure", PURE), ("store", STORE), ("systems", SYSTEMS), ("operations", OPERATIONS),
                            ("views", VIEWS)):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return layer
    return None


MODULES = _modules()
ORDER = ["pure", "store", "systems", "operations", "views"]


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m not in ("keizer", "keizer.__main__", "keizer.templates") and _layer(m) is None] == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) in ("pure", "store", "systems", "operations")))
def test_a_module_imports_only_from_its_layer_and_below(module):
    mine = ORDER.index(_layer(module))
    wrong = sorted(i for i in _imports(module, MODULES[module])
                   if i in MODULES and _layer(i) is not None and ORDER.index(_layer(i)) > mine)
    assert wrong == [], f"{module} imports from a higher layer"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) == "pure"))
def test_the_engines_touch_no_database_terminal_or_template(module):
    touched = sorted(i for i in _imports(module, MODULES[module]) if i.split(".")[0] in OUTSIDE_WORLD)
    assert touched == []


def test_no_import_circle_at_any_level():
    """Imports inside functions count too: a circle hidden in a function is still a circle."""
    graph = {m: {i for i in _imports(m, p) if i in MODULES and i != m} for m, p in MODULES.items()}
    # A package's __init__ importing its own submodules is how a package exposes them, not a circle.
    for m in graph:
        graph[m] = {i for i in graph[m] if not i.startswith(m + ".")}
    seen: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        seen[node] = 1
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycle.extend(path[path.index(nxt):] + [node, nxt] if nxt in path else [node, nxt])
                return True
            if nxt not in seen and visit(nxt, path + [node]):
                return True
        seen[node] = 2
        return False

    for m in sorted(graph):
        if m not in seen and visit(m, []):
            break
    assert cycle == []


#: The only places where one view runs another, each for a reason: 'keizer serve' starts the
#: app; 'keizer publish' and the app's Publish page run the site generator and its upload.
VIEW_TO_VIEW = {("keizer.cli.serve", "keizer.web"), ("keizer.cli.io", "keizer.publish"),
                ("keizer.web.views.publishing", "keizer.publish")}


def _view(module: str) -> str | None:
    return next((v for v in VIEWS if module == v or module.startswith(v + ".")), None)


def test_no_view_imports_another_view():
    """The CLI, the app and the site each word the operations' outcomes themselves: none reaches
    into another for a rule, a setting or a word (the club's settings and the catalogs are below
    them all), but for the few places that run another view."""
    wrong = sorted(f"{m} -> {i}" for m, p in MODULES.items() if _view(m)
                   for i in _imports(m, p) if i in MODULES and _view(i) not in (None, _view(m))
                   and (m, _view(i)) not in VIEW_TO_VIEW)
    assert wrong == []


#: Modules longer than ~600 lines, each with its reason (every other module stays below).
LONG = {
    "keizer/pairing/swiss/dutch.py": "the FIDE Dutch bracket search (C.04.3) is one algorithm: its criteria, "
                                     "the bracket's moves and their order are read against the rules side by side",
    "keizer/pairing/matching.py": "one exact maximum-weight matching (the blossom algorithm): its dual updates, "
                                  "blossom shrinking and expansion share their state and cannot be read apart",
}
MOST_LINES = 600


def test_no_module_is_long_without_a_reason():
    lengths = {p.relative_to(SRC).as_posix(): len(p.read_text("utf-8").splitlines()) for p in SRC.rglob("*.py")}
    long = {m: n for m, n in lengths.items() if n > MOST_LINES and m not in LONG}
    assert not long, f"split these (or give the reason in LONG): {long}"
    assert all(lengths.get(m, 0) > MOST_LINES for m in LONG), "a module in LONG is short now: take it off"
