"""The package's own source files, each read and parsed once per test process.

Several tests read the whole package's syntax (the layers and their import circles, the
system-name comparisons, the refusals' message ids); each parsed every file again, some
files a dozen times a run.  The files do not change during a run, so the parsed trees are
kept; a test only reads them (never change a tree you are given)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def tree(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path``."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file's tree, in the order ``ast.walk`` gives them."""
    return tuple(ast.walk(tree(path)))
