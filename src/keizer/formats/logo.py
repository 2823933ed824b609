"""The club's logo: a real image, and an SVG with nothing active or external left in it.

A raster logo (PNG, JPEG, GIF, WebP) is kept byte for byte once its signature and
header (a width and height between 1 and 20000 pixels) show it is an image of that
type.  An SVG logo is parsed with the standard library's expat, refusing any DOCTYPE
with an internal subset and every entity declaration (so no entity expansion, no
"billion laughs"), and written again without scripts, ``foreignObject``, elements
and attributes of other vocabularies, event handlers (``on…``), links that leave the
document (``href`` not starting with ``#``), ``url(…)`` pointing outside, ``@import``,
comments and processing instructions.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Callable, NoReturn
from xml.parsers import expat

from keizer.formats.text import xml_escape as escape, xml_quoteattr as quoteattr
from keizer.refusals import Message
from keizer.store import StoreError

MAX_BYTES = 1_000_000
MAX_SIDE = 20_000
MAX_DEPTH = 100
EXTENSIONS = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "gif": "gif", "svg": "svg", "webp": "webp"}
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
_PREFIX = {"": "", XLINK: "xlink:", XML: "xml:"}
_DROPPED = {"script", "foreignObject"}
_URL = re.compile(r"""url\(\s*['"]?\s*([^'")\s]*)""", re.IGNORECASE)


class _Refused(Exception):
    """Why an SVG cannot be used (raised inside expat's callbacks)."""


def checked_logo(path: Path) -> tuple[str, bytes]:
    """The logo's type (png, jpg, gif, webp, svg) and the bytes to keep, or a StoreError."""
    if EXTENSIONS.get(path.suffix.lower().lstrip(".")) is None:
        raise StoreError("logo %(name)s: use a .png, .jpg, .gif, .svg or .webp file", name=path.name)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise StoreError("logo %(name)s: cannot read it (%(why)s)", name=path.name, why=e.strerror) from None
    return checked_logo_data(path.name, data)


def checked_logo_data(name: str, data: bytes) -> tuple[str, bytes]:
    """As :func:`checked_logo`, for a file's ``name`` and its bytes (a file sent to the app)."""
    if EXTENSIONS.get(Path(name).suffix.lower().lstrip(".")) is None:
        raise StoreError("logo %(name)s: use a .png, .jpg, .gif, .svg or .webp file", name=name)
    if len(data) > MAX_BYTES:
        raise StoreError("logo %(name)s is larger than 1 MB; use a smaller image", name=name)
    if EXTENSIONS[Path(name).suffix.lower().lstrip(".")] == "svg":
        return "svg", clean_svg(name, data)
    for reader in _READERS:
        found = reader(data)
        if found is not None:
            kind, width, height = found
            if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
                raise StoreError("logo %(name)s: its header says %(width)s×%(height)s pixels; export it again "
                                 "(1 to %(most)s pixels a side)", name=name, width=width, height=height,
                                 most=MAX_SIDE)
            return kind, data
    raise StoreError("logo %(name)s is not a PNG, JPEG, GIF or WebP image (or it is damaged); export the logo again "
                     "from an image program", name=name)


def _png(data: bytes) -> tuple[str, int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[8:16] != b"\x00\x00\x00\x0dIHDR" or data.find(b"IEND", 33) < 0:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return "png", width, height


def _gif(data: bytes) -> tuple[str, int, int] | None:
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 14:
        return None
    width, height = struct.unpack("<HH", data[6:10])
    return "gif", width, height


#: JPEG markers of a frame header (SOF0…SOF15 less DHT, JPG and DAC), which holds the size.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(data: bytes) -> tuple[str, int, int] | None:
    if data[:3] != b"\xff\xd8\xff":
        return None
    i = 2
    while i + 4 <= len(data):  # walk the segments up to the frame header
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or image data before any frame header
            return None
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in _SOF and length >= 8 and i + 9 <= len(data):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return "jpg", width, height
        if length < 2:
            return None
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[str, int, int] | None:
    if len(data) < 30 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    if int.from_bytes(data[4:8], "little") + 8 > len(data):  # cut short
        return None
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":  # lossy: key frame start code, then 14-bit sizes
        return "webp", int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    if chunk == b"VP8L" and data[20] == 0x2F:  # lossless: signature, then width-1 and height-1 in 14 bits each
        bits = int.from_bytes(data[21:25], "little")
        return "webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: canvas width-1 and height-1 in 24 bits each
        return "webp", int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


_READERS: tuple[Callable[[bytes], tuple[str, int, int] | None], ...] = (_png, _jpeg, _gif, _webp)


# -- SVG ----------------------------------------------------------------------------


def _split(name: str) -> tuple[str, str]:
    """expat's "namespace local" (namespace_separator " ") as (namespace, local)."""
    ns, _, local = name.rpartition(" ")
    return ns, local


def _external_css(text: str) -> bool:
    """CSS that may fetch something: @import, url() not to an id here, or escapes that could hide either."""
    return "\\" in text or "@import" in text.lower() or _external_url(text)


def _external_url(text: str) -> bool:
    return any(not m.group(1).startswith("#") for m in _URL.finditer(text))


def _clean_attributes(pairs: list[str]) -> list[tuple[str, str]]:
    kept = []
    for name, value in zip(pairs[::2], pairs[1::2]):
        ns, local = _split(name)
        if ns not in _PREFIX or local.lower().startswith("on"):
            continue
        if local == "href" and not value.strip().startswith("#"):
            continue
        if (local == "style" and _external_css(value)) or _external_url(value):
            continue
        if local == "attributeName" and (value.lower().startswith("on") or value.lower().endswith("href")):
            continue  # an animation that would set an event handler or a link
        kept.append((_PREFIX[ns] + local, value))
    return kept


class _Node:
    __slots__ = ("tag", "attributes", "children")

    def __init__(self, tag: str, attributes: list[tuple[str, str]]):
        self.tag = tag
        self.attributes = attributes
        self.children: list[_Node | str] = []

    def text(self) -> str:
        return "".join(c for c in self.children if isinstance(c, str))


def clean_svg(name: str, data: bytes) -> bytes:
    """The SVG ``data`` with nothing active or external in it, or a StoreError."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.ordered_attributes = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    roots: list[_Node] = []
    skipping = 0  # depth inside a dropped element

    def refuse_doctype(_name: str, _system: str | None, _public: str | None, internal: int) -> None:
        if internal:
            raise _Refused(Message("declares entities (a DOCTYPE with an internal subset)"))

    def refuse_entity(*_: object) -> NoReturn:
        raise _Refused(Message("uses entities"))

    def start(tag: str, pairs: list[str]) -> None:
        nonlocal skipping
        if len(stack) + skipping >= MAX_DEPTH:
            raise _Refused(Message("is nested more than %(most)s deep", most=MAX_DEPTH))
        ns, local = _split(tag)
        if skipping or ns != SVG or local in _DROPPED:
            skipping += 1
            return
        node = _Node(local, _clean_attributes(pairs))
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        nonlocal skipping
        if skipping:
            skipping -= 1
        else:
            stack.pop()

    def text(chars: str) -> None:
        if stack and not skipping:
            stack[-1].children.append(chars)

    parser.StartDoctypeDeclHandler = refuse_doctype
    parser.EntityDeclHandler = refuse_entity
    parser.SkippedEntityHandler = refuse_entity
    parser.ExternalEntityRefHandler = refuse_entity
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:
        raise StoreError("logo %(name)s is not well-formed SVG (%(why)s, line %(line)s); export it again from the "
                         "drawing program", name=name, why=expat.ErrorString(e.code), line=e.lineno) from None
    except _Refused as e:
        raise StoreError("logo %(name)s %(why)s; save it as plain SVG and try again", name=name, why=e.args[0]) from None
    if not roots or roots[0].tag != "svg":
        raise StoreError('logo %(name)s is not an SVG image: it must start with <svg xmlns="%(svg)s">', name=name, svg=SVG)
    out: list[str] = []
    _write(roots[0], out, root=True)
    return "".join(out).encode("utf-8")


def _write(node: _Node, out: list[str], root: bool = False) -> None:
    if node.tag == "style" and _external_css(node.text()):
        return
    out.append(f"<{node.tag}")
    if root:
        out.append(f' xmlns="{SVG}"')
        if _uses_xlink(node):
            out.append(f' xmlns:xlink="{XLINK}"')
    out.extend(f" {key}={quoteattr(value)}" for key, value in node.attributes)
    if not node.children:
        out.append("/>")
        return
    out.append(">")
    for child in node.children:
        if isinstance(child, str):
            out.append(escape(child))
        else:
            _write(child, out)
    out.append(f"</{node.tag}>")


def _uses_xlink(node: _Node) -> bool:
    return any(key.startswith("xlink:") for key, _ in node.attributes) or any(
        _uses_xlink(c) for c in node.children if isinstance(c, _Node))
