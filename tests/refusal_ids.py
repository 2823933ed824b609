"""The refusals of the code, as message ids: what the catalogs must translate.

A refusal (``keizer.refusals.Refusal`` and its kinds: ``StoreError``, ``SettingsError`` …)
is raised with a message id, a plain string with ``%(name)s`` for its values, so that each
view can word it; ``Word("…")`` marks a value that is itself a word.  ``pybabel`` cannot
find those (they are not ``_()`` calls), so this module reads them from the syntax tree.
The command line (``keizer/cli``) speaks English and is not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sources

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "keizer"
#: The refusal classes, ``Message`` and ``Word``: a call of one of these names takes a message id first.
NAMES = frozenset({"Refusal", "StoreError", "SettingsError", "FormatError", "TrfError", "MemberListError",
                   "LinkRefused", "UploadError", "LimitError", "Missing", "SwissError", "GenerationError", "PairingError",
                   "TieBreakError", "Word", "Message", "CheckinRefused", "MailError", "LeavesFideRules"})


def _calls(module: Path) -> list[ast.Call]:
    found = []
    for node in sources.nodes(module):
        if isinstance(node, ast.Call) and node.args:
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name in NAMES:
                found.append(node)
    return found


def modules() -> list[Path]:
    """The modules outside the command line that raise a refusal."""
    return [f for f in sorted(PACKAGE.rglob("*.py"))
            if "cli" not in f.relative_to(PACKAGE).parts and _calls(f)]


def ids(module: Path) -> tuple[set[str], list[int]]:
    """The message ids a module's refusals are raised with, and the lines of those raised
    with something else (an f-string, a joined or computed text: no id the catalogs can hold)."""
    found, odd = set(), []
    for call in _calls(module):
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.add(first.value)
        else:
            odd.append(call.lineno)
    return found, odd


def name(module: Path) -> str:
    return module.relative_to(PACKAGE).as_posix()
