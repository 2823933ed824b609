"""A Dutch club's app, printed pages, phones and website, crawled for English and CLI hints.

:func:`crawl` takes a copy of the sample club with ``keizer club --language nl``, serves it
(``keizer serve`` on a free port of 127.0.0.1) and collects the text a person sees on

* every app page reachable by links (and the round pickers' GET forms) from the home page,
  breadth first, GET only, a bounded number per kind of page: kind ``app``;
* every print page of every competition (``print``);
* the answers to typical refused forms (a bad date, a round paired twice, ``1+`` as a result…)
  and to a few accepted ones, whose one-line messages the officer reads (``form``);
* a member's personal link and a board's result link on a phone (``link``);
* the scripts' own words (``script``) and the published site's pages (``site``).

:func:`findings` then names, per page, each piece of text that holds a command-line hint
(``--force``, ``keizer pair``) or English: a sentence, or an English word left in a Dutch one
(:func:`english`).  The test
``test_no_english_in_a_dutch_club.py`` compares them with a committed list; run this file
(``python tests/crawl.py``) to print them.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from served import SAMPLE, Answer, Client, Served

# == what a person sees of a page ==============================================================

#: Elements whose text is not shown (or not text; a QR code's SVG).
HIDDEN = frozenset({"script", "style", "template", "svg"})
#: Elements inside a line of text: they do not end a piece of text.
INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "label",
                    "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"})
#: Attributes a person reads (a tooltip, an empty field's hint, what a screen reader says, the
#: question app.js asks before a form is sent, the line results.js shows while a board waits).
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "data-confirm", "data-pending")


class _Text(HTMLParser):
    """The pieces of text of a page: a block's text, each shown attribute, a button's value;
    and its links, the GET forms' addresses, its scripts and data sources."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.links: list[str] = []
        self.scripts: list[str] = []
        self.forms: list[tuple[str, list[tuple[str, list[str]]]]] = []  # GET forms: action, fields
        self._line: list[str] = []
        self._hidden = 0
        self._form: tuple[str, list[tuple[str, list[str]]]] | None = None
        self._select: tuple[str, list[str]] | None = None

    def _end_line(self) -> None:
        line = " ".join("".join(self._line).split())
        if line:
            self.pieces.append(line)
        self._line = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "script" and a.get("src"):
            self.scripts.append(a["src"])
        if "data-source" in a:
            self.links.append(a["data-source"])
        if tag in HIDDEN:
            self._hidden += 1
            return
        if self._hidden:
            return
        if tag not in INLINE:
            self._end_line()
        for name in SHOWN_ATTRIBUTES:
            if a.get(name, "").strip():
                self.pieces.append(" ".join(a[name].split()))
        if tag == "input" and a.get("type") in ("submit", "button", "reset") and a.get("value", "").strip():
            self.pieces.append(" ".join(a["value"].split()))
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "form" and a.get("method", "get").lower() == "get":
            self._form = (a.get("action", ""), [])
        elif self._form is not None and tag == "select" and a.get("name"):
            self._select = (a["name"], [])
            self._form[1].append(self._select)
        elif self._select is not None and tag == "option":
            self._select[1].append(a.get("value", "\0"))  # "\0": the option's text is its value
        elif self._form is not None and tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            self._form[1].append((a["name"], [a.get("value", "")]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in HIDDEN:
            self._hidden -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN:
            self._hidden = max(0, self._hidden - 1)
            return
        if self._hidden:
            return
        if tag not in INLINE:
            self._end_line()
        if tag == "select":
            self._select = None
        if tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._select is not None and self._select[1] and self._select[1][-1] == "\0":
            self._select[1][-1] = data.strip()
        self._line.append(data)

    def close(self) -> None:
        super().close()
        self._end_line()


def read_html(body: str) -> _Text:
    parser = _Text()
    parser.feed(body)
    parser.close()
    return parser


def visible_text(body: str) -> list[str]:
    """The pieces of text a person sees on an HTML page (a block's text, a tooltip, a hint…).

    >>> visible_text('<p>Ronde <b>3</b> · <a href="/x" title="de stand">stand</a></p><script>x="no"</script>')
    ['de stand', 'Ronde 3 · stand']
    """
    return read_html(body).pieces


def flashes(body: str) -> list[str]:
    """The one-line messages (``<p class="flash …">``) of an app page."""
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", m)).split())
            for m in re.findall(r'<p class="flash[^"]*">(.*?)</p>', body, flags=re.S)]


def script_strings(source: str) -> list[str]:
    """The string literals of a script (its comments left out): what it may write on the page.

    >>> script_strings('"use strict"; say("error: not saved"); // a "comment"\\nx = `round ${n} of ${m}`;')
    ['error: not saved', 'round of']
    """
    found = []
    for m in re.finditer(r"//[^\n]*|/\*.*?\*/|\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`",
                         source, flags=re.S):
        text = next((g for g in m.groups() if g is not None), None)
        if text is not None and text != "use strict":
            text = " ".join(re.sub(r"\$\{[^}]*\}+", " ", text).split())  # a template's code, not its words
            if " " in text and not re.search(r"\[[\w-]+[~|^$*]?=", text):  # no CSS selector either
                found.append(text)
    return found


# == the detector ==============================================================================

#: Words of English that are no Dutch words, checked against the Dutch catalog and a Dutch
#: word list: no "is", "in", "of", "op", "was", "had", "been", "door", "over", "as", "at", "we",
#: "me", "do", "he", "even", "last", "made", "bent", "file", "page", "type", "order", "team",
#: "match", "event", "score", "rating", "link", "code", "start", "open", "present", "absent",
#: "late", "bye", "win", "no-show"…, which Dutch sentences (or Dutch chess clubs) use as well.
ENGLISH_WORDS = frozenset("""
    the a an this that these those it its it's they them their there you your she his him
    and or but if than then when where which who whom whose what why how whether so not nor yes no none
    to for with without from by on into onto off up out about after before again already also still yet
    until unless since while between both each every any some such other another same only more much many
    too least instead otherwise together
    be being are were has have having does did done can cannot can't could will won't would shall should
    may might must please don't doesn't isn't aren't wasn't
    give given gives use used uses using choose reload try say says ask take takes keep keeps make makes
    need needs see add added remove removed create created pair paired unpaired send
    first next once twice new old own nothing something anything everything nobody someone whole
    round rounds player players board boards game games result results pairing pairings member members
    competition competitions name names number numbers date dates season line lines value values points
    attendance standing standings setting settings error warning opponent opponents colour colours
    tournament absence absences notice notices evening evenings officer password user users address
    white black loss draws forfeit excused unexcused withdrawn latecomer category crosstable venue
    screen phone personal role system schedule rule rules position current initial fraction day days
    entered changed missing allowed refused found known kept listed scheduled undone awarded reported
    printed published imported expired revoked decided unknown empty closed planned fixed frozen
    registered played stored written drawn marked shown seeded counted missed
    count counts play plays average sum wins disagree strength drawing unbeaten longest edit award skip front
    monday tuesday wednesday thursday friday saturday sunday
    january february march june july august october
    """.split())

#: Codes, notations, addresses and file names the pages use in every language.
ALLOWED_RE = re.compile(
    r"https?://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\S*/\S*\.\w+\b|[\w-]+=\S*"
    r"|\b(?:BH|SB|TPR|ARO|Elo|KNSB|FIDE|TRF\d*|CSV|JSON|SFTP|FTPS?)\b")
#: A word: letters, with an apostrophe or hyphens inside; not part of a code such as A4, r1 or w(it).
WORD_RE = re.compile(r"(?<![\w'’-])(?<!\w\()[^\W\d_]+(?:['’][^\W\d_]+)?(?:-[^\W\d_]+)*(?![\w'’-])")


def cli_commands() -> tuple[str, ...]:
    """The names of keizer's commands (``keizer pair``, ``keizer member-link``…), longest first."""
    from keizer.cli import cli

    return tuple(sorted(cli.list_commands(None), key=len, reverse=True))


_COMMANDS: re.Pattern[str] | None = None


def cli_hints(text: str) -> list[str]:
    """The command-line hints of a text: an option (``--force``) or a command (``keizer undo``).
    ``--`` alone is a result (both players absent), no hint.

    >>> cli_hints("give --force; see 'keizer player list' -- 1-0")
    ['--force', 'keizer player']
    """
    global _COMMANDS
    if _COMMANDS is None:
        _COMMANDS = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*|\bkeizer (?:"
                               + "|".join(map(re.escape, cli_commands())) + r")(?![\w-])")
    return _COMMANDS.findall(text)


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that are English and no Dutch, names, codes and addresses left out.

    >>> english_words("error: Kees Bakker is already paired in round 3")
    ['error', 'already', 'paired', 'round']
    >>> english_words("fout: Kees Bakker is al ingedeeld in ronde 3 van Round-robin A")
    []
    """
    for name in names:
        text = text.replace(name, " ")
    words = WORD_RE.findall(ALLOWED_RE.sub(" ", text).replace("’", "'"))
    # "A" alone is a group or a category (Meerkamp A), not the article
    return [w for w in words if w in ENGLISH_WORDS or (w != "A" and w.capitalize() == w and w.lower() in ENGLISH_WORDS)]


def english(text: str, names: Iterable[str] = ()) -> bool:
    """Whether a piece of text holds English: a sentence, or an English word left in a Dutch one
    (``(excused)``, ``error:``).  One word is enough: no Dutch message of the catalog, nor any
    Dutch page of the sample club, has a word of :data:`ENGLISH_WORDS`.

    >>> english("round 31 paired: 20 boards"), english("ronde 31 ingedeeld: 20 borden"), english("yes")
    (True, False, True)
    >>> english("Speelt niet: Bas Dekker (excused)"), english("Meerkamp A: w(it) of z(wart)")
    (True, False)
    """
    return bool(english_words(text, names))


# == pages and findings ========================================================================


@dataclass(frozen=True)
class Page:
    """What one answer showed: its ``kind`` (app, print, form, link, script, site), the request
    as ``METHOD /path`` (``SITE file``, ``SCRIPT file``) and the pieces of text seen."""

    kind: str
    request: str
    texts: tuple[str, ...]

    @property
    def key(self) -> str:
        """The request with what varies from run to run left out: ``GET /c/1/player/*``."""
        method, _, target = self.request.partition(" ")
        return f"{method} {path_pattern(target)}"


def path_pattern(target: str) -> str:
    """A page's address with its query, ids, tokens and codes as ``*`` (a competition's id kept).

    >>> path_pattern("/c/1/player/17?round=3"), path_pattern("/m/Zx3_abc"), path_pattern("/members/12/edit")
    ('/c/1/player/*', '/m/*', '/members/*/edit')
    >>> path_pattern("2025-2026/meerkamp-a/players/anna-hendriks.html"), path_pattern("x/round-12.html")
    ('2025-2026/meerkamp-a/players/*.html', 'x/round-*.html')
    """
    path = urllib.parse.urlsplit(target).path
    path = re.sub(r"^/([mb])/[^/]+", r"/\1/*", path)
    path = re.sub(r"(?<!^/c)/\d+(?=/|$)", "/*", path)
    path = re.sub(r"^(/c/\d+/player)/[^/]+$", r"\1/*", path)  # by id or by key (m12)
    path = re.sub(r"/(players|members)/[^/]+\.html$", r"/\1/*.html", path)
    return re.sub(r"round-\d+\.html$", "round-*.html", path)


_MONTHS = "januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december"
#: What moves from run to run: addresses (a free port, a token), the crawl's folder, and dates
#: and times (a member's page lists the evenings from today; the log says when a change was made).
_VARYING = ((re.compile(r"https?://\S+"), "<url>"),
            (re.compile(re.escape(tempfile.gettempdir()) + r"/[^\s);,]*"), "<folder>"),
            (re.compile(r"\b\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?\b"), "<date>"),
            (re.compile(rf"\b(?:(?:ma|di|wo|do|vr|za|zo|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)"
                        rf"\.? )?\d{{1,2}} (?:{_MONTHS})(?: \d{{4}})?\b"), "<date>"),
            (re.compile(r"\b\d\d:\d\d\b"), "<time>"),
            # a count or a round's number (one list line for "pair round 1", "pair round 2"…), not
            # a result (1-0, 1/2, 1+), a season (2025-2026), a code (A4, r1) or an address (127.0.0.1)
            (re.compile(r"(?<![\w\-/+=½.])\d+(?![\w\-/+=½.])"), "#"))


def stable(text: str, limit: int = 240) -> str:
    """A finding's text as the list keeps it: what varies from run to run as ``<url>``,
    ``<folder>``, ``<date>``, ``<time>``, a number as ``#``; at most ``limit`` characters.

    >>> stable("round 31 on 2026-10-14 (wo 14 oktober, 20:15): see http://127.0.0.1:5123/m/abc")
    'round # on <date> (<date>, <time>): see <url>'
    >>> stable("board 2: 1-0 in round 3 of Interne competitie 2025-2026 (A4)")
    'board #: 1-0 in round # of Interne competitie 2025-2026 (A4)'
    """
    for pattern, mark in _VARYING:
        text = pattern.sub(mark, text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, order=True)
class Finding:
    key: str
    text: str

    @property
    def line(self) -> str:
        return f"{self.key} | {self.text}"

    @staticmethod
    def parse(line: str) -> Finding:
        key, sep, text = line.partition(" | ")
        if not sep:
            raise ValueError(f"not 'METHOD /path | text': {line!r}")
        return Finding(key.strip(), text.strip())


def findings(pages: Iterable[Page], names: Iterable[str] = ()) -> dict[Finding, set[str]]:
    """Each piece of text with a CLI hint or an English sentence, by page (its key), with the
    kinds of page it was seen on."""
    names = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    found: dict[Finding, set[str]] = {}
    for page in pages:
        for text in page.texts:
            if cli_hints(text) or english(text, names):
                found.setdefault(Finding(page.key, stable(text)), set()).add(page.kind)
    return found


# == the crawl =================================================================================

#: Pages the breadth-first crawl never asks for: they end the session, are files, or write.
SKIPPED = re.compile(r"^/(?:logout|static/|favicon\.ico|club\.css)")
#: Addresses of a kind (the same path with other ids or rounds) crawled at most this often.
PER_KIND = 60
PRINT_PAGES = ("", "/pairings", "/slips", "/scoresheets", "/attendance", "/standings")


def kind_of(path: str) -> str:
    return "print" if re.match(r"^/c/\d+/print", path) else "link" if re.match(r"^/[mb]/", path) else "app"


@dataclass
class Crawl:
    """What the crawl saw: the pages, and the names of the club's people, teams and
    competitions (allowed words of every language)."""

    pages: list[Page] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    made: list[Made] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"Crawl({self.counts()})"

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for p in self.pages:
            counts[p.kind] = counts.get(p.kind, 0) + 1
        return counts


class _Visitor:
    """The crawl's browsers (one reads pages, one sends the officer's forms, one is a phone:
    no message lands on a page it was not meant for) and what they saw."""

    def __init__(self, served: Served, db: Path, seen: Crawl) -> None:
        self.served, self.db, self.seen = served, db, seen
        self.reader, self.sender, self.phone = served.client(), served.client(), served.client()
        self.scripts: set[str] = set()
        self._tokens: dict[int, str] = {}  # id(client): its CSRF token

    def record(self, kind: str, request: str, texts: Iterable[str]) -> None:
        self.seen.pages.append(Page(kind, request, tuple(texts)))

    def read(self, path: str, kind: str | None = None) -> Answer:
        """GET a page and keep all of its text."""
        answer = self.reader.get(path)
        if answer.status >= 500:
            raise RuntimeError(f"GET {path} failed ({answer.status})")
        self._keep_page(kind or kind_of(path), f"GET {path}", answer)
        return answer

    def _keep_page(self, kind: str, request: str, answer: Answer) -> None:
        if answer.headers.get("content-disposition", "").startswith("attachment"):
            return  # a download (the season file's backup), not a page
        if answer.headers.get("content-type", "").startswith("application/json"):
            self.record(kind, request, shown_json(request.partition("?")[0], json.loads(answer.body)))
            return
        page = read_html(answer.body)
        self.record(kind, request, page.pieces)
        for src in page.scripts:
            self._script(src)

    def _script(self, src: str) -> None:
        path = urllib.parse.urlsplit(src).path
        if path in self.scripts or not path.endswith(".js"):
            return
        self.scripts.add(path)
        self.record("script", f"SCRIPT {path}", script_strings(self.reader.get(path).body))

    def _csrf(self, client: Client, page: str) -> str:
        """The client's CSRF token (its session keeps one: read once, off ``page``)."""
        if id(client) not in self._tokens:
            self._tokens[id(client)] = client.csrf(page)
        return self._tokens[id(client)]

    def send(self, path: str, data: dict[str, str] | list[tuple[str, str]], script: bool = False,
             kind: str = "form", phone: bool = False) -> Answer:
        """POST a form as its page sends it (``script``: as the results grid's script does;
        ``phone``: from a member's or a board's phone) and keep what its sender then reads: the
        messages of the page it leads back to, the page it answers with, or the script's message."""
        client = self.phone if phone else self.sender
        fields = list(data.items()) if isinstance(data, dict) else list(data)
        fields.append(("csrf", self._csrf(client, path if phone else "/login")))
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if script:
            headers |= {"X-Requested-With": "keizer", "Accept": "application/json"}
        answer = client.request("POST", path, urllib.parse.urlencode(fields).encode(), headers)
        if answer.status >= 500:
            raise RuntimeError(f"POST {path} failed ({answer.status})")
        request = f"POST {path}"
        if answer.status in (302, 303) and answer.location:
            parts = urllib.parse.urlsplit(answer.location)
            landed = client.get(parts.path + (f"?{parts.query}" if parts.query else ""))
            self.record(kind, request, flashes(landed.body))
        else:
            self._keep_page(kind, request, answer)
        return answer

    def upload(self, path: str, fields: dict[str, str], name: str, content: bytes) -> Answer:
        """POST a form with a chosen file (``file``) as the browser sends it, and keep the page it answers with."""
        boundary = "keizer-crawl-boundary"
        parts = [*fields.items(), ("csrf", self._csrf(self.sender, "/login"))]
        body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                        for k, v in parts)
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                 "Content-Type: text/csv\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
        answer = self.sender.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        if answer.status >= 500:
            raise RuntimeError(f"POST {path} failed ({answer.status})")
        self._keep_page("form", f"POST {path} {name}", answer)
        return answer

    def ask(self, path: str) -> Answer:
        """GET an address that is refused (a wrong id, a competition without such a page)."""
        answer = self.sender.get(path)
        self._keep_page("form", f"GET {path}", answer)
        return answer

    def keizer(self, *args: str) -> str:
        """A command on the served database, as the officer types it in a terminal."""
        done = subprocess.run([sys.executable, "-m", "keizer", "--db", str(self.db), *args],
                              capture_output=True, text=True, check=True)
        return done.stdout


def _json_strings(value: object) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def shown_json(path: str, data: object) -> list[str]:
    """What a page's script shows of a JSON answer: the venue screen (venue.js) its name,
    headings, rows of boards and of the standing; the results grid (results.js) its one-line
    messages."""
    if not isinstance(data, dict):
        return []
    if path.endswith("/venue.json"):
        rows = [{k: v for k, v in row.items() if k != "type"} for row in data.get("pairs", [])]
        return list(_json_strings([data.get("name"), data.get("heading"), data.get("table_heading"), rows,
                                   data.get("table", [])]))
    return [data[k] for k in ("ok", "error", "warning") if isinstance(data.get(k), str)]


def breadth_first(visitor: _Visitor, start: str = "/", limit: int = 1500, per_kind: int = PER_KIND) -> None:
    """Every same-site page reachable from ``start`` by links and GET forms (round pickers),
    at most ``per_kind`` of one kind (path pattern and query names) and ``limit`` in all."""
    queue, queued = deque([start]), {start}
    kinds: dict[tuple[str, tuple[str, ...]], int] = {}
    visited = 0
    while queue and visited < limit:
        target = queue.popleft()
        answer = visitor.read(target)
        visited += 1
        if not answer.headers.get("content-type", "").startswith("text/html"):
            continue
        page = read_html(answer.body)
        found = list(page.links)
        for action, fields in page.forms:
            found += _form_addresses(action or target, fields)
        for link in found:
            nxt = _same_site(link, target)
            if nxt is None or nxt in queued or SKIPPED.search(urllib.parse.urlsplit(nxt).path):
                continue
            sort = (path_pattern(nxt), tuple(sorted(urllib.parse.parse_qs(urllib.parse.urlsplit(nxt).query))))
            if kinds.get(sort, 0) >= per_kind:
                continue
            kinds[sort] = kinds.get(sort, 0) + 1
            queued.add(nxt)
            queue.append(nxt)


def _form_addresses(action: str, fields: list[tuple[str, list[str]]]) -> list[str]:
    """The addresses a GET form leads to: each choice of its first menu (first, middle, last),
    its other fields as they are."""
    choices = [(name, values) for name, values in fields if len(values) > 1]
    fixed = {name: values[0] for name, values in fields if len(values) == 1}
    if not choices:
        return [f"{action}?{urllib.parse.urlencode(fixed)}"] if fixed else []
    name, values = choices[0]
    picked = dict.fromkeys([values[0], values[len(values) // 2], values[-1]])
    return [f"{action}?{urllib.parse.urlencode({**fixed, name: v})}" for v in picked]


def _same_site(link: str, base: str) -> str | None:
    parts = urllib.parse.urlsplit(urllib.parse.urljoin(f"http://here{base}", link))
    if parts.netloc != "here" or parts.scheme != "http":
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


# == the club evening: what is done, refused and read ==========================================

def _ids(db: Path) -> tuple[dict[str, int], dict[str, str]]:
    """The ids of the members and players the forms name, and the players' keys (by name;
    a player as ``player COMPETITION NAME``)."""
    import sqlite3

    keys: dict[str, str] = {}
    with sqlite3.connect(db) as con:
        ids = {f"member {name}": i for i, name in con.execute("SELECT id, name FROM members")}
        for i, key, c, name in con.execute(
                "SELECT p.id, p.key, p.competition_id, m.name FROM players p JOIN members m ON m.id = p.member_id"):
            ids[f"player {c} {name}"], keys[f"player {c} {name}"] = i, key
    return ids, keys


def _names(db: Path) -> set[str]:
    """Every name of the club's people, teams, competitions and the club itself."""
    import sqlite3

    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT name FROM members UNION SELECT name FROM competitions UNION SELECT name FROM teams"
                           " UNION SELECT value FROM meta WHERE key = 'club_name'").fetchall()
    return {r[0] for r in rows if r[0]} | {"Chess club"}  # the club's name when none is set


def before_the_pairing(v: _Visitor) -> None:
    """Round 31 of the Keizer competition (1) is open: its pages, then what is refused before
    the pairing, then the proposal and the pairing itself."""
    for path in ("/c/1/attendance", "/c/1/pairing", "/c/1/results", "/login"):
        v.read(path)
    v.send("/c/1/attendance", {"round": "31", "date": "31-03-2026"})  # not an ISO date
    v.send("/c/1/attendance", {"round": "31", "date": "2025-01-06"})  # before round 30's date
    v.send("/c/1/results", {"round": "31", "r1": "1-0", "was1": ""})  # not paired yet
    v.send("/c/1/pairing/unpair", {})  # nothing to unpair
    v.send("/c/1/attendance/late", {"player": "Kees Bakker"})  # a latecomer before the pairing
    v.send("/c/1/pairing/store", {"fix_white": "Kees Bakker", "fix_black": ""})  # half a fixed pair
    v.send("/c/1/pairing/store", {"bye": "Niemand Bekend"})  # the bye to no player
    v.send("/c/1/pairing/propose", {}, kind="form")  # shown, not stored
    v.send("/c/1/pairing/store", {})  # accepted: round 31 paired


def a_team_event(v: _Visitor) -> None:
    """Competitions refused at their creation, and a team event made (its teams, its schedule)."""
    v.send("/competitions/create", {"system": "team", "name": "", "boards": "2", "schedule": "roundrobin"})
    v.send("/competitions/create", {"system": "swiss", "name": "Snelschaak", "rounds": "0"})
    v.send("/competitions/create", {"system": "keizer", "name": "Interne competitie 2025-2026", "preset": "classic"})
    v.send("/competitions/create", {"system": "keizer", "name": "Zomercompetitie", "preset": "classic",
                                    "sets": "win=veel"})
    v.send("/competitions/create", {"system": "team", "name": "Viertallen", "boards": "2", "schedule": "roundrobin",
                                    "season": "2025-2026"})  # not today's season: the site's folders stay put
    v.send("/c/5/teams/add", {"name": ""})
    v.send("/c/5/teams/add", {"name": "De Torens", "boards": "Niemand Bekend\nKees Bakker"})
    v.send("/c/5/teams/add", {"name": "De Torens", "boards": "Kees Bakker\nAnna Hendriks"})
    v.send("/c/5/teams/add", {"name": "De Lopers", "boards": "Bas Dekker\nAnouk Jansen"})
    v.send("/c/5/teams/schedule", {"first_date": "7 april", "every": "7"})
    v.send("/c/5/teams/schedule", {"first_date": "2026-04-07", "every": "7"})
    v.send("/c/5/teams/result", {"round": "1", "b1": "1+"})


def after_the_pairing(v: _Visitor, db: Path) -> None:
    """What the officer is refused with round 31 paired, on each page of the app."""
    ids, keys = _ids(db)
    kees, key = str(ids["player 1 Kees Bakker"]), keys["player 1 Kees Bakker"]
    v.send("/c/1/pairing/store", {})  # paired already
    v.send("/c/3/pairing/again", {})  # a round-robin is never paired again
    v.send("/c/1/results", {"round": "31", "r1": "1+", "was1": ""}, script=True)  # the grid's script
    v.send("/c/1/results", {"round": "31", "r1": "1+", "was1": ""})  # the grid as a plain form
    v.send("/c/1/results", {"round": "31", "r99": "1-0", "was99": ""}, script=True)  # no such board
    v.send("/c/1/results", {"round": "31", "r1": "1-0", "was1": ""}, script=True)  # accepted
    v.send("/c/1/results", {"round": "31", "r1": "0-1", "was1": ""}, script=True)  # entered meanwhile
    v.send("/c/1/results", {"round": "abc"})
    v.send("/c/1/settings", {"s-win": "veel"})
    v.send("/c/1/settings", {"s-ladder": "trap", "s-decimals": "-1"})
    v.send("/c/1/pairing/swap", {"a": "Kees Bakker", "b": "Niemand Bekend"})
    v.send("/c/1/pairing/forbid", {"a": "Kees Bakker", "b": "Kees Bakker"})
    v.send("/c/1/attendance/noshow", {"player": "Niemand Bekend"})
    v.send("/c/1/attendance", {"round": "31", f"a-{key}": "external", f"w-{key}": "present"})  # no result
    v.send("/c/1/timecontrol", {"time_control": "", "rounds": "x"})
    v.send("/c/1/order", {"by": "rating", "players": "Kees Bakker"})
    v.send(f"/c/1/players/{kees}", {"joined": "0"})
    v.send("/c/1/players/withdraw", {"player": "Niemand Bekend"})
    v.send("/c/3/pairing/draw", {"first_date": "4 november"})
    v.send("/members/add", {"name": ""})
    v.send("/members/add", {"name": "Kees Bakker"})  # a namesake, not ticked
    v.send("/members/add", {"name": "Sanne Visser", "rating": "1500"})  # accepted
    v.send(f"/members/{ids['member Kees Bakker']}/edit", {"name": "Kees Bakker", "rating": "veel"})
    v.send("/members/import", {"kind": "members"})  # no file chosen
    v.send("/members/import/apply", {"token": "x" * 32})  # nothing previewed
    v.send("/members/links/new", {"member": "999999"})
    v.send("/members/links/settings", {"notice_days": "veel", "notice_time": "25:00", "late_notice": "excused",
                                       "link_days": "0", "evening_day": "dinsdag"})
    v.send("/users/add", {"name": "piet", "role": "officer", "password": "kort", "password2": "kort"})
    v.send("/users/add", {"name": "piet", "role": "koning", "password": "lang genoeg wachtwoord",
                          "password2": "lang genoeg wachtwoord"})
    v.send("/users/add", {"name": "piet", "role": "officer", "password": "lang genoeg wachtwoord",
                          "password2": "een ander wachtwoord"})
    v.send("/users/remove", {"name": "niemand"})
    v.send("/publish", {"upload": "on", "target": ""})
    v.send("/publish", {"folder": "/etc"})
    v.send("/c/4/cup/award", {"round": "x", "match": "1", "winner": "Kees Bakker"})
    v.send("/c/4/cup/draw", {})  # drawn already
    v.send("/c/4/cup/result", {"round": "2", "b1": "1+"})
    v.send("/log/undo", {"change": "1"})  # not the last change
    for path in ("/c/4/attendance", "/c/2/pairing", "/c/4/print/pairings", "/c/99/standings", "/c/1/player/99999",
                 "/log?n=veel", "/c/1/results?round=abc", "/c/1/print/standings?round=99", "/bestaat-niet"):
        v.ask(path)
    v.send("/c/1/attendance/noshow", {"player": "Kees Bakker"})  # accepted: his opponent gets the bye…
    v.send("/publish", {})  # accepted: the site written into the club's folder


def on_the_phones(v: _Visitor) -> None:
    """Result slips printed (the board links made), a board reported from a phone, and a
    member's personal link used; each also refused."""
    slips = v.send("/c/1/print/slips", {"which": "missing", "round": "31"}, kind="print")
    codes = re.findall(r"/b/([A-Z2-9]{8})\b", slips.body)
    if not codes:
        raise RuntimeError(f"the slips made no result links: {flashes(slips.body)}")
    code = codes[-1]
    v.read(f"/b/{code}", kind="link")
    v.phone.get(f"/b/{code}")
    v.send(f"/b/{code}", {"side": "wit", "result": "1-0"}, kind="link", phone=True)
    v.send(f"/b/{code}", {"side": "white", "result": "1+"}, kind="link", phone=True)
    v.send(f"/b/{code}", {"side": "white", "result": "1-0"}, kind="link", phone=True)
    v.read("/b/ABCDEFGH", kind="link")
    out = v.keizer("member-link", "new", "Anna Hendriks", "--base-url", f"http://127.0.0.1:{v.served.port}")
    token = re.search(r"/m/([\w-]+)", out)
    if token is None:
        raise RuntimeError(f"keizer member-link printed no link: {out}")
    page = f"/m/{token.group(1)}"
    answer = v.read(page, kind="link")
    days = re.findall(r'name="date" value="(\d{4}-\d\d-\d\d)"', answer.body)
    v.send(page, {"action": "absent", "date": "morgen"}, kind="link", phone=True)
    v.send(page, {"action": "absent", "date": "2020-01-07"}, kind="link", phone=True)
    if days:
        v.send(page, {"action": "absent", "date": days[0]}, kind="link", phone=True)
        v.send(page, {"action": "come", "date": days[0]}, kind="link", phone=True)
    v.read("/m/bestaat-niet-" + "x" * 20, kind="link")


#: A member list and a KNSB rating list as clubs have them (one new member, one not in the list).
MEMBER_LIST = ("naam;rating;relatienummer\n"
               "Anna Hendriks;1799;7626286\n"
               "Nieuw Lid;1450;\n"
               "Bas Dekker;1554;7489324\n").encode()
RATING_LIST = ("Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
               "7626286;Hendriks, Anna;;NED;1733;24;1990;V\r\n"
               "7489324;Dekker, Bas;;NED;1554;12;1985;M\r\n"
               "8999;Someone, Else;;NED;1500;0;2001;M\r\n").encode("cp1252")


def the_season_goes_on(v: _Visitor, db: Path) -> None:
    """What the officer does beside the club evening, accepted: lists imported, a latecomer
    to the competition, a player's category, a cup and a team Swiss started, the notice rules."""
    for kind, name, content in (("members", "leden.csv", MEMBER_LIST), ("ratings", "KLASSIEK.csv", RATING_LIST)):
        preview = v.upload("/members/import", {"kind": kind, "back": "/members"}, name, content)
        token = re.search(r'name="token" value="([^"]+)"', preview.body)
        if token is None:
            raise RuntimeError(f"the {kind} import made no preview: {flashes(preview.body)}")
        v.send("/members/import/apply", {"token": token.group(1), "back": "/members"})
    ids, _ = _ids(db)
    v.send("/c/1/players/add", {"member": str(ids["member Nieuw Lid"]), "joined": "32", "back": "/c/1/players"})
    ids, _ = _ids(db)
    v.send(f"/c/1/players/{ids['player 1 Nieuw Lid']}", {"category": "B", "joined": "33", "default": "absent"})
    v.send(f"/members/{ids['member Nieuw Lid']}/edit", {"name": "Nieuw Lid", "rating": "1475", "fed_id": "8999"})
    v.send("/members/links/settings", {"notice_days": "2", "notice_time": "18:00", "late_notice": "unexcused",
                                       "link_days": "120", "evening_day": "tuesday"})
    v.send("/competitions/create", {"system": "knockout", "name": "Snelbeker", "all_members": "on"})
    cup = max(i for i in _competitions(db))
    v.send(f"/c/{cup}/cup/draw", {})
    boards = re.findall(r'name="b(\d+)"', v.read(f"/c/{cup}/cup").body)
    v.send(f"/c/{cup}/cup/result", {"round": "1", **{f"b{b}": "1-0" if int(b) % 2 else "0-1" for b in boards}})
    v.send(f"/c/{cup}/cup/next", {})
    v.read(f"/c/{cup}/cup")
    v.send("/competitions/create", {"system": "team", "name": "Teamzwitsers", "boards": "2", "schedule": "swiss",
                                    "rounds": "3"})
    teams = max(i for i in _competitions(db))
    v.send(f"/c/{teams}/teams/add", {"name": "De Pionnen", "boards": "Kees Bakker\nAnna Hendriks"})
    v.send(f"/c/{teams}/teams/add", {"name": "De Dames", "boards": "Bas Dekker\nAnouk Jansen"})
    v.send(f"/c/{teams}/teams/add", {"name": "De Koningen", "boards": "Sanne Visser\nNieuw Lid"})
    v.send(f"/c/{teams}/teams/schedule", {"first_date": "2026-04-14", "every": "7"})
    boards = re.findall(r'name="b(\d+)"', v.read(f"/c/{teams}/teams").body)
    v.send(f"/c/{teams}/teams/result", {"round": "1", **{f"b{b}": "1-0" for b in boards}})
    v.send(f"/c/{teams}/teams/next", {"date": "2026-04-21"})
    v.read(f"/c/{teams}/teams")
    for page in ("/standings", "/crosstable", "/print", "/print/standings"):
        v.read(f"/c/{cup}{page}")
        v.read(f"/c/{teams}{page}")


def _competitions(db: Path) -> list[int]:
    import sqlite3

    with sqlite3.connect(db) as con:
        return [i for (i,) in con.execute("SELECT id FROM competitions")]


def the_site(v: _Visitor, folder: Path) -> None:
    """``keizer publish FOLDER``: the text of every page, of the feed and of the calendar."""
    v.keizer("publish", str(folder))
    for path in sorted(folder.rglob("*.html")):
        v.record("site", f"SITE {path.relative_to(folder).as_posix()}", visible_text(path.read_text("utf-8")))
    for path in sorted(folder.rglob("feed.xml")):
        texts = re.findall(r"<(?:title|summary|content)[^>]*>(.*?)</", path.read_text("utf-8"), flags=re.S)
        v.record("site", f"SITE {path.relative_to(folder).as_posix()}",
                 [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", html.unescape(t))).split()) for t in texts])
    for path in sorted(folder.rglob("*.ics")):
        lines = re.sub(r"\r?\n[ \t]", "", path.read_text("utf-8")).splitlines()  # unfolded
        v.record("site", f"SITE {path.relative_to(folder).as_posix()}",
                 [line.split(":", 1)[1].replace("\\n", " ").replace("\\,", ",").replace("\\;", ";")
                  for line in lines if re.match(r"(?:SUMMARY|DESCRIPTION|LOCATION|X-WR-CALNAME)[:;]", line)])


def crawl(folder: Path, limit: int = 1500, per_kind: int = PER_KIND, trace: bool = False) -> Crawl:
    """The whole crawl on a copy (in ``folder``) of the sample club, set to Dutch; with
    ``trace``, the server also writes where each refusal and message was made (:func:`traced`)."""
    db = folder / "club.db"
    shutil.copy(SAMPLE, db)
    seen = Crawl()
    env = None
    if trace:
        (folder / "tracer").mkdir()
        (folder / "tracer" / "sitecustomize.py").write_text(_TRACER, "utf-8")
        env = {"PYTHONPATH": str(folder / "tracer"), "KEIZER_CRAWL_TRACE": str(folder / "trace.jsonl")}
    with Served(db, env=env) as served:
        v = _Visitor(served, db, seen)
        v.keizer("club", "--language", "nl")
        before_the_pairing(v)
        a_team_event(v)
        breadth_first(v, "/", limit, per_kind)
        for comp in (1, 2, 3, 4, 5):
            for page in PRINT_PAGES:
                v.read(f"/c/{comp}/print{page}")
        after_the_pairing(v, db)
        on_the_phones(v)
        the_season_goes_on(v, db)
        the_site(v, folder / "site-published")
        errors = served.errors()
    if "Traceback" in errors:
        raise RuntimeError(f"keizer serve failed during the crawl:\n{errors}")
    seen.names = _names(db)
    seen.made = traced(folder / "trace.jsonl")
    return seen


# == where the words come from ================================================================

#: Loaded by ``keizer serve`` when the crawl traces (``sitecustomize`` on its PYTHONPATH): every
#: refusal made (StoreError, SettingsError, FormatError, a pairing's error) and every message
#: flashed is written to $KEIZER_CRAWL_TRACE with the lines of keizer's code that made it.
_TRACER = """
import json, os, sys, flask

_OUT = os.environ["KEIZER_CRAWL_TRACE"]


def _where():
    frame, found = sys._getframe(2), []
    while frame is not None and len(found) < 4:
        name = frame.f_code.co_filename
        if "/keizer/" in name:
            found.append(f"{name.rsplit('/keizer/', 1)[1]}:{frame.f_lineno} {frame.f_code.co_name}")
        frame = frame.f_back
    return found


def _keep(kind, message):
    with open(_OUT, "a", encoding="utf-8") as out:
        out.write(json.dumps({"kind": kind, "message": str(message), "where": _where()}) + "\\n")


def _traced(cls):
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if args:
            _keep(cls.__name__, args[0])
    cls.__init__ = __init__


from keizer.store import StoreError
from keizer.settings import SettingsError
from keizer.formats.season_json import FormatError
from keizer.pairing.keizer import PairingError
from keizer.pairing.generate import GenerationError
from keizer.pairing.swiss import SwissError
for _cls in (StoreError, SettingsError, FormatError, PairingError, GenerationError, SwissError):
    _traced(_cls)
_flash = flask.flash


def flash(message, category="message"):
    _keep("flash", message)
    return _flash(message, category)


flask.flash = flash
"""


@dataclass(frozen=True)
class Made:
    """A message the app made while crawled: its kind (an error's class, or ``flash``), its
    text, and the lines of keizer's code that made it (innermost first)."""

    kind: str
    message: str
    where: tuple[str, ...]


def traced(path: Path) -> list[Made]:
    if not path.exists():
        return []
    return [Made(d["kind"], d["message"], tuple(d["where"]))
            for d in map(json.loads, path.read_text("utf-8").splitlines())]


def origins(finding: Finding, made: Iterable[Made]) -> list[Made]:
    """The traced messages a finding shows (as the app words them, made stable as the list is)."""
    return [m for m in made if len(m.message) > 8 and not (m.where and m.where[0].startswith("web/context.py"))
            and stable(m.message) in finding.text]


if __name__ == "__main__":
    # python tests/crawl.py [--trace]: the findings, one a line as the known list keeps them;
    # with --trace each is followed by the code that made the message ("<- file:line function").
    import time

    started = time.monotonic()
    tracing = "--trace" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        done = crawl(Path(tmp), trace=tracing)
    found = findings(done.pages, done.names)
    for f in sorted(found):
        print(f.line)
        if tracing:
            for where in sorted({m.where for m in origins(f, done.made)}):
                print(f"    <- {' < '.join(where)}")
    print(f"# {len(done.pages)} answers {done.counts()}; {len(found)} findings; "
          f"{time.monotonic() - started:.0f} s", file=sys.stderr)
