"""The examples in the modules' docstrings are tests too: every module of the package that has
one is collected here, so a new example runs without being listed."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "keizer"


def _modules_with_examples() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append(".".join(parts))
    return found


MODULES = _modules_with_examples()


def test_the_modules_listed_before_are_still_collected():
    """The modules whose examples were listed by hand before (a guard against the collection
    finding nothing)."""
    assert {"keizer.model", "keizer.scoring", "keizer.store", "keizer.formats.trf", "keizer.limits",
            "keizer.publish.plan", "keizer.operations.teamevent"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
