"""Text files as people save them: from a spreadsheet, Notepad or a federation's site.

One reading for every text file keizer takes (member lists, rounds, results), so that each
accepts the same encodings and refuses a broken one the same way, naming the line.
"""

from __future__ import annotations

from keizer.formats.errors import FormatError


def decode(data: bytes) -> str:
    """UTF-8 (a BOM is dropped) when it is valid UTF-8, else Windows-1252 (the KNSB
    list's encoding); UTF-16 with a BOM, as some spreadsheets save "Unicode text".

    >>> decode("Müller".encode("cp1252")), decode(b"\\xef\\xbb\\xbfM\\xc3\\xbcller")
    ('Müller', 'Müller')
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise FormatError("line %(line)s: not valid UTF-16 text (cut off?); save the file as UTF-8",
                              line=_line_at(data, e.start)) from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data" and e.end == len(data):
            # Valid UTF-8 up to a character cut in half: the file was cut off, it is not Windows-1252.
            raise FormatError("line %(line)s: the file ends in the middle of a character; it is cut off, use the "
                              "complete file", line=_line_at(data, e.start)) from None
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as e:
        raise FormatError("line %(line)s: byte 0x%(byte)s is neither UTF-8 nor Windows-1252 text; save the file as "
                          "UTF-8", line=_line_at(data, e.start), byte=f"{data[e.start]:02x}") from None


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1



def xml_escape(text: str) -> str:
    """Text in XML (the feeds' and logos'): ``&``, ``<`` and ``>`` as entities, as
    ``xml.sax.saxutils.escape`` writes it (that module imports ``urllib.request``, ``http.client``
    and ``ssl``: 15-20 ms that every command paid for).

    >>> xml_escape("Zwart & <Wit>")
    'Zwart &amp; &lt;Wit&gt;'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_quoteattr(text: str) -> str:
    """An XML attribute's value with its quotes, as ``xml.sax.saxutils.quoteattr`` writes it:
    escaped, line breaks and tabs as character references, in double quotes unless it holds
    one and no single quote.

    >>> both = "'a' " + '"b"'
    >>> print(xml_quoteattr("a & b"), xml_quoteattr('say "hi"'), xml_quoteattr(both))
    "a &amp; b" 'say "hi"' "'a' &quot;b&quot;"
    """
    text = xml_escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'
