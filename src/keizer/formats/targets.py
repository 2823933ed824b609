"""Where the club website is uploaded to, as a value: an upload target is a URL
(``ftp://``, ``ftps://``, ``sftp://``), a plain folder (``file:///path`` or a path) or a
git work tree (``git+file:///path``, or a path whose top holds ``.git``).  Reading one
is pure (:func:`parse_target`); going there is :mod:`keizer.publish.transports`'.

>>> parse_target("ftps://webmaster@ftp.example.nl/public_html/schaak").url
'ftps://webmaster@ftp.example.nl/public_html/schaak'
>>> parse_target("ftp://anna:secret@ftp.example.nl/www")
Traceback (most recent call last):
...
keizer.formats.targets.UploadError: the upload URL holds a password; remove ':password' from it
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from keizer.store import StoreError

#: Where a password comes from, in this order (never the command line nor the database).
PASSWORD_ENV = "KEIZER_UPLOAD_PASSWORD"
SCHEMES = ("ftp", "ftps", "sftp", "file", "git+file")
DEFAULT_PORT = {"ftp": 21, "ftps": 21, "sftp": 22}
_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")


class UploadError(StoreError):
    """An upload that cannot go on: one line, what happened and what to do."""


@dataclass(frozen=True)
class Target:
    """An upload target: ``kind`` is ftp, ftps, sftp, folder or git.

    For ftp, ftps and sftp, ``path`` is the folder on the host, relative to the folder the
    login starts in (``public_html/schaak``) unless it starts with ``/``; for a folder or a
    git work tree it is the absolute local path.
    """

    kind: str
    path: str
    host: str = ""
    port: int = 0
    user: str = ""

    @property
    def account(self) -> str:
        """``user@host``: the name of the password in the system keyring."""
        return f"{self.user}@{self.host}"

    @property
    def url(self) -> str:
        """The target as a URL, without any password: what is shown and remembered."""
        if self.kind == "folder":
            return self.path
        if self.kind == "git":
            return f"git+file://{Path(self.path).as_posix()}"
        port = f":{self.port}" if self.port != DEFAULT_PORT[self.kind] else ""
        user = f"{quote(self.user, safe='')}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return f"{self.kind}://{user}{host}{port}/{'/' if self.path.startswith('/') else ''}{self.path.lstrip('/')}"


def parse_target(text: str) -> Target:
    """The upload target a URL or path names; a URL holding a password is refused."""
    text = text.strip()
    if not text:
        raise UploadError("the upload target is empty; give a URL such as ftps://user@host/public_html or a folder")
    if "://" not in text or _WINDOWS_PATH.match(text):
        return _local(Path(text).expanduser(), explicit_git=False)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        raise UploadError("the upload URL is not valid (%(why)s); write it like ftps://user@host:21/public_html",
                          why=str(e)) from None
    scheme = parts.scheme.lower()
    if parts.password is not None:
        raise UploadError("the upload URL holds a password; remove ':password' from it", hint="upload_password_where",
                          env=PASSWORD_ENV)
    if scheme in ("http", "https"):
        raise UploadError("keizer cannot upload over %(scheme)s; give the host's ftps://, sftp:// or ftp:// address, "
                          "a folder or a git+file:// repository", scheme=scheme)
    if scheme not in SCHEMES:
        raise UploadError("unknown kind of upload target %(scheme)s://; use one of %(schemes)s or a folder path",
                          scheme=scheme, schemes=", ".join(s + "://" for s in SCHEMES))
    if parts.query or parts.fragment:
        raise UploadError("the upload URL has a part keizer does not understand (%(part)s…); remove it",
                          part="?" if parts.query else "#")
    if scheme in ("file", "git+file"):
        if parts.netloc not in ("", "localhost"):
            raise UploadError("%(scheme)s:// names a folder on this computer: write %(scheme)s:///path (three slashes)",
                              scheme=scheme)
        path = unquote(parts.path)
        if re.match(r"/[A-Za-z]:/", path):  # file:///C:/Schaak/site on Windows
            path = path[1:]
        return _local(Path(path), explicit_git=scheme == "git+file", url_form=scheme == "file")
    if not parts.hostname:
        raise UploadError("the upload URL names no host; write it like %(scheme)s://user@host/folder", scheme=scheme)
    # RFC 1738: the path is relative to the login folder; a second slash makes it absolute.
    path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path).rstrip("/")
    if path == "~" or path.startswith("~/"):  # curl's way to say the login folder
        path = path[2:]
    return Target(scheme, path or "", parts.hostname, port or DEFAULT_PORT[scheme], unquote(parts.username or ""))


def _local(path: Path, explicit_git: bool, url_form: bool = False) -> Target:
    path = path.absolute()
    git = explicit_git or (not url_form and (path / ".git").exists())
    return Target("git" if git else "folder", str(path))


def kept_password(variable: str, service: str, account: str) -> str | None:
    """A password kept outside the season file, for the account a terminal set: the
    environment variable ``variable``, else the system keyring's entry of ``service`` and
    ``account`` (when the keyring is installed and has a usable backend), else None."""
    if os.environ.get(variable):
        return os.environ[variable]
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return None
    try:
        return keyring.get_password(service, account)
    except (KeyringError, RuntimeError):  # no usable backend (a headless server)
        return None
