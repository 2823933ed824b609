"""A Dutch club (``keizer club --language nl``) reads no English and no command-line hint: not
in the app, on a printed page, on a member's or a board's phone, nor on the published site.

Today many still come through (the operations' one-line messages, the settings' meanings…);
``data/english-in-nl-known.txt`` lists them, one a line.  The crawl (``crawl.py``) must find
nothing beyond that list — a new English sentence or CLI hint fails — and everything on it —
a line that no longer occurs fails with "remove this line" — so the list only shrinks.
``python tests/crawl.py`` prints what the crawl finds, as the list's lines.

The detector itself is checked against the catalogs: no Dutch translation may look English,
and the English messages must.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from crawl import WORD_RE, Crawl, Finding, cli_hints, crawl, english, findings
from keizer.i18n import catalog_path
import sources
from refusal_ids import PACKAGE, ids as refusal_ids

ROOT = Path(__file__).resolve().parents[1]
KNOWN = Path(__file__).resolve().parent / "data" / "english-in-nl-known.txt"


def known() -> list[Finding]:
    """The list's findings (``#`` starts a comment; a page pattern may hold ``*``)."""
    lines = KNOWN.read_text("utf-8").splitlines()
    return [Finding.parse(line) for line in lines if line.strip() and not line.lstrip().startswith("#")]


def covers(entry: Finding, finding: Finding) -> bool:
    return entry.text == finding.text and fnmatch.fnmatchcase(finding.key, entry.key)


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Crawl, set[Finding]]:
    done = crawl(tmp_path_factory.mktemp("nl-crawl"))
    return done, set(findings(done.pages, done.names))


@pytest.mark.slow
def test_the_crawl_reaches_every_kind_of_page(crawled: tuple[Crawl, set[Finding]]) -> None:
    counts = crawled[0].counts()
    least = {"app": 150, "print": 30, "form": 50, "link": 8, "script": 3, "site": 100}
    assert all(counts.get(kind, 0) >= n for kind, n in least.items()), counts


@pytest.mark.slow
def test_no_new_english_or_cli_hint(crawled: tuple[Crawl, set[Finding]]) -> None:
    entries = known()
    new = sorted(f for f in crawled[1] if not any(covers(e, f) for e in entries))
    assert not new, ("English or a command-line hint reaches a Dutch club's pages (say it in the club's "
                     "language, as the app's pages do):\n" + "\n".join(f.line for f in new))


@pytest.mark.slow
def test_the_known_list_only_shrinks(crawled: tuple[Crawl, set[Finding]]) -> None:
    stale = [e for e in known() if not any(covers(e, f) for f in crawled[1])]
    assert not stale, ("no longer found (translated? well done): remove this line from "
                       f"{KNOWN.relative_to(ROOT)}:\n" + "\n".join(e.line for e in stale))


def test_the_known_list_is_sorted_and_has_no_repeats() -> None:
    lines = [e.line for e in known()]
    assert lines == sorted(set(lines))


# -- the detector --------------------------------------------------------------------------


def _filled(text: str) -> str:
    """A message with its placeholders filled as a page fills them (a name, a number)."""
    return re.sub(r"%\((\w+)\)s", "Kees", text)


def _messages(lang: str) -> list[tuple[str, list[str]]]:
    """The catalog's messages: (English, [its translations])."""
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    found = []
    for m in catalog:
        if m.id:
            ids = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
            found.append((str(ids[0]), [str(s) for s in strings]))
    return found


#: The words of the files keizer reads (season JSON keys, rounds-CSV columns and codes, KeizerForClubs
#: tables, FIDE rating-list columns): a refusal of a file format quotes them as the file has them, in every language.
FILE_CODES = frozenset("""name players rounds settings system games result board date category absent external
    round white black excused unexcused club bye win draw loss fide_id fide_rating joined withdrawn_after Player
    Pairing ID Number Name player""".split())
#: Messages that name a flag although the app shows them: the app has no box that replaces a web
#: host's files keizer did not put there, so the command line is the one way (issue 19's residue).


def _format_ids() -> set[str]:
    return {m for f in sorted((PACKAGE / "formats").glob("*.py")) for m in refusal_ids(f)[0]}


def test_no_dutch_translation_looks_english() -> None:
    formats = _format_ids()
    flagged = []
    for msgid, strings in _messages("nl"):
        for s in strings:
            text = _filled(s)
            if msgid in formats:
                text = " ".join(w for w in re.split(r"([\W]+)", text) if w not in FILE_CODES)
            if english(text) or cli_hints(text):
                flagged.append(s)
    assert not flagged


def test_most_english_messages_are_found() -> None:
    ids = [_filled(i) for i, _ in _messages("nl")]
    sentences = [i for i in ids if len(WORD_RE.findall(i)) >= 3]
    assert len(sentences) > 300
    assert sum(map(english, sentences)) >= 0.9 * len(sentences)


def test_the_operations_refusals_are_found() -> None:
    """Every refusal of src/keizer/operations with three words or more, its fields filled in."""
    refusals = []
    for path in sorted((ROOT / "src" / "keizer" / "operations").glob("*.py")):
        for node in sources.nodes(path):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "StoreError" and node.args:
                message = node.args[0]
                if isinstance(message, ast.JoinedStr):
                    text = "".join(str(v.value) if isinstance(v, ast.Constant) else "Kees" for v in message.values)
                elif isinstance(message, ast.Constant) and isinstance(message.value, str):
                    text = message.value
                else:
                    continue
                if len(WORD_RE.findall(text.replace("Kees", ""))) >= 3:
                    refusals.append(text)
    assert len(refusals) > 150
    missed = [t for t in refusals if not (english(t) or cli_hints(t))]
    assert len(missed) <= 0.02 * len(refusals), missed


def test_the_crawls_examples() -> None:
    import doctest

    import crawl as module

    result = doctest.testmod(module)
    assert result.attempted > 10 and result.failed == 0
