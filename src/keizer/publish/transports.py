"""Where the club website is uploaded to, and how files get there: one small class per way.

An upload target is a URL (:func:`parse_target`): ``ftp://``, ``ftps://`` (FTP with
explicit TLS, the standard library's ``ftplib``), ``sftp://`` (SSH, with asyncssh, an
optional extra), a plain folder (``file:///path`` or a path) or a git work tree
(``git+file:///path``, or a path whose top holds ``.git``) that keizer commits into, for
hosts that pull.  Each :class:`Transport` reads, writes (under a temporary name, then
renamed over the old file, so that a visitor never sees half a page) and removes files
below the target's folder; what to send and what to remove is decided in
:mod:`keizer.publish.upload`.

A refused login, an unknown or unreachable host, a certificate or host key that cannot
be verified and a broken connection each become an :class:`UploadError`: one line
saying what happened and what to do.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
import ftplib
import io
import os
import posixpath
import shutil
import socket
import ssl
import stat
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from keizer.formats.targets import PASSWORD_ENV, Target, UploadError, kept_password
from keizer.publish.files import MANIFEST, Folder, parse_manifest, temporary_name
from keizer.refusals import Message, Word
from keizer.store import StoreError

#: Seconds to wait for a host to answer before giving up.
TIMEOUT = 30.0
KEYRING_SERVICE = "keizer"


def password_from_store(target: Target) -> str | None:
    """The password in ``$KEIZER_UPLOAD_PASSWORD``, else in the system keyring (if installed)."""
    return kept_password(PASSWORD_ENV, KEYRING_SERVICE, target.account)


class Transport(ABC):
    """Files below one folder of a host, by path relative to it (``2025-2026/index.html``)."""

    where = ""

    @abstractmethod
    def read(self, rel: str) -> bytes | None:
        """The file's bytes, or ``None`` if there is no such file."""

    @abstractmethod
    def names(self, folder: str) -> set[str] | None:
        """The names of the files in ``folder`` (``""``: the target's), or ``None`` if there is no such folder."""

    @abstractmethod
    def put(self, rel: str, data: bytes, tag: str) -> None:
        """Write ``data`` to ``rel`` under :func:`temporary_name` (``tag``), then rename it over ``rel``."""

    def check(self, rel: str, tag: str) -> None:
        """Refuse now, before anything is written, a :meth:`put` of ``rel`` (``tag``) that would be
        refused for where it leads (in a folder on this computer: through a symbolic link)."""

    @abstractmethod
    def remove(self, rel: str) -> None:
        """Remove the file (nothing if it is not there)."""

    @abstractmethod
    def remove_folder(self, rel: str) -> bool:
        """Remove the folder if it is empty; whether it went."""

    def finish(self, summary: str) -> str | None:
        """After the last change: a git target commits (and returns the commit), the others nothing."""
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(target: Target, password: str | None = None, ask: Callable[[], str | None] | None = None) -> Transport:
    """Log in to the target (``password`` first, then ``ask`` for one if the host wants it)."""
    if target.kind == "folder":
        return FolderTransport(Path(target.path))
    if target.kind == "git":
        return GitTransport(Path(target.path))
    if target.kind == "sftp":
        return SftpTransport(target, password, ask)
    return FtpTransport(target, password if password is not None else (ask() if ask and target.user else None))


def _parents(rel: str) -> list[str]:
    """The folders ``rel`` lies in, outermost first (``a/b/c.html`` → ``a``, ``a/b``)."""
    steps = rel.split("/")[:-1]
    return ["/".join(steps[: i + 1]) for i in range(len(steps))]


def temporary_path(rel: str, tag: str) -> str:
    """Where ``rel`` is written before it is renamed over the old file (beside it)."""
    return posixpath.join(posixpath.dirname(rel), temporary_name(posixpath.basename(rel), tag))


# -- a folder, and a git work tree ---------------------------------------------------


#: What refuses a folder's file (``path``) that cannot be read, listed, written or removed (``why``).
_FOLDER_FAILED: dict[str, Callable[[Path, str], UploadError]] = {
    "read": lambda path, why: UploadError("cannot read %(path)s: %(why)s; check that the folder is readable",
                                          path=path, why=why),
    "list": lambda path, why: UploadError("cannot list %(path)s: %(why)s; check that the folder is readable",
                                          path=path, why=why),
    "write": lambda path, why: UploadError("cannot write %(path)s: %(why)s; check that the folder is writable",
                                           path=path, why=why),
    "remove": lambda path, why: UploadError("cannot remove %(path)s: %(why)s; check that the folder is writable",
                                            path=path, why=why),
}


class FolderTransport(Transport):
    """A folder on this computer (a mounted share, or the folder a web server serves).

    A symbolic link inside it is never followed (:class:`~keizer.publish.files.Folder`): whoever
    may write the folder could otherwise make keizer write or remove files outside it.
    """

    def __init__(self, base: Path):
        if base.exists() and not base.is_dir():
            raise UploadError("%(folder)s is a file; give a folder to upload into", folder=base)
        self.folder = Folder(base, UploadError, "the upload folder", "remove the link or upload elsewhere")
        self.where = str(base)

    def read(self, rel: str) -> bytes | None:
        with self._as_upload_error("read", rel):
            return self.folder.read(rel)

    def names(self, folder: str) -> set[str] | None:
        with self._as_upload_error("list", folder):
            return self.folder.names(folder)  # a link among them is refused when it is read

    def check(self, rel: str, tag: str) -> None:
        with self._as_upload_error("read", rel):  # looking is enough: a link is refused when met
            self.folder.is_file(rel)
            self.folder.is_file(temporary_path(rel, tag))

    def put(self, rel: str, data: bytes, tag: str) -> None:
        with self._as_upload_error("write", rel):
            self.folder.write(rel, data, tag)

    def remove(self, rel: str) -> None:
        with self._as_upload_error("remove", rel):
            self.folder.remove(rel)

    def remove_folder(self, rel: str) -> bool:
        return self.folder.remove_folder(rel)

    @contextmanager
    def _as_upload_error(self, doing: str, rel: str) -> Iterator[None]:
        try:
            yield
        except OSError as e:
            raise _FOLDER_FAILED[doing](self.folder.shown / rel, e.strerror or str(e)) from None


class GitTransport(FolderTransport):
    """A git work tree: the files are written into it and committed, for a host that pulls.

    Only keizer's own files are committed (those its manifest lists now or listed in the
    last commit), never other changes in the work tree; a commit hook that refuses stops
    the upload with git's reason.
    """

    def __init__(self, base: Path):
        self.git = shutil.which("git")
        if self.git is None:
            raise UploadError("git is not installed; install it, or upload into a plain folder with file://")
        existing = next((p for p in (base, *base.parents) if p.is_dir()), None)
        top = self._run(["rev-parse", "--show-toplevel"], existing, allowed=True) if existing else None
        if not top:
            raise UploadError("%(folder)s is not in a git work tree; create one with 'git init' (or clone the site's "
                              "repository) first", folder=base)
        self.top = Path(top.strip())
        try:
            self.prefix = base.resolve().relative_to(self.top.resolve()).as_posix()
        except ValueError:
            raise UploadError("%(folder)s is not in the git work tree %(top)s", folder=base, top=self.top) from None
        self.prefix = "" if self.prefix == "." else self.prefix
        super().__init__(base)

    def _run(self, args: list[str], cwd: Path | None = None, data: bytes | None = None,
             allowed: bool = False, env: dict[str, str] | None = None) -> str | None:
        assert self.git is not None
        done = subprocess.run([self.git, *args], cwd=cwd or self.top, input=data, capture_output=True,
                              env={**os.environ, "GIT_LITERAL_PATHSPECS": "1", **(env or {})})
        if done.returncode != 0:
            if allowed:
                return None
            said = [line for line in done.stderr.decode("utf-8", "replace").splitlines()
                    if line.strip() and not line.startswith("hint:")]
            reason = " ".join(said[:2]) or "no reason given"
            raise UploadError("git %(command)s in %(top)s failed: %(why)s", command=args[0], top=self.top, why=reason)
        return done.stdout.decode("utf-8", "replace")

    def finish(self, summary: str) -> str | None:
        def ours(manifest: bytes | None) -> set[str]:
            try:
                return set(parse_manifest(manifest, MANIFEST)["files"]) if manifest else set()
            except StoreError:  # a damaged old manifest: its files are not keizer's to commit
                return set()

        # The files of the last commit's manifest too: those removed since, by this run or a cut-off one.
        committed = self._run(["show", f"HEAD:{self._full(MANIFEST)}"], allowed=True)
        before = committed.encode() if committed else None
        paths = sorted(self._full(p) for p in ours(self.read(MANIFEST)) | ours(before) | {MANIFEST})
        tracked = set((self._run(["ls-files", "-z", "--", self.prefix or "."]) or "").split("\0"))
        paths = [p for p in paths if (self.top / p).exists() or p in tracked]
        spec = "\0".join(paths).encode()
        self._run(["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], data=spec)
        staged = set((self._run(["diff", "--cached", "--name-only", "--no-renames", "-z"]) or "").split("\0"))
        if not staged & set(paths):
            return None  # keizer's files are as committed: nothing to commit
        who = {} if self._run(["config", "user.email"], allowed=True) else {
            "GIT_AUTHOR_NAME": "keizer", "GIT_AUTHOR_EMAIL": "keizer@localhost",
            "GIT_COMMITTER_NAME": "keizer", "GIT_COMMITTER_EMAIL": "keizer@localhost"}
        self._run(["commit", "-q", "-m", summary, "--pathspec-from-file=-", "--pathspec-file-nul"], data=spec, env=who)
        return (self._run(["rev-parse", "--short", "HEAD"]) or "").strip()

    def _full(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix else rel


# -- FTP and FTPS (the standard library) ---------------------------------------------


class _SessionReusingFTPS(ftplib.FTP_TLS):
    """FTPS whose data connections resume the control connection's TLS session.

    Many hosts' servers (vsftpd's default ``require_ssl_reuse``, ProFTPD's) refuse a data
    connection that does not, so that no one else can slip into the transfer.
    """

    def ntransfercmd(self, cmd: str, rest: int | str | None = None) -> tuple[socket.socket, int | None]:
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:  # type: ignore[attr-defined]
            # TLS's closing alert is a small write right after the last data: without this, Nagle's
            # rule holds it until the server's delayed ACK (some 40 ms for every file).
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = self.context.wrap_socket(conn, server_hostname=self.host,
                                            session=self.sock.session)  # type: ignore[union-attr]
        return conn, size


class FtpTransport(Transport):
    """FTP, or FTPS with explicit TLS (``AUTH TLS``) on the control and data connections.

    The host's certificate is checked against the system's certificate authorities
    (``$SSL_CERT_FILE`` names another file, e.g. a host's self-signed certificate).
    """

    def __init__(self, target: Target, password: str | None):
        self.target = target
        self.where = target.url
        if target.user and password is None:
            raise UploadError("no password for %(account)s", hint="upload_no_password", account=target.account,
                              env=PASSWORD_ENV, service=KEYRING_SERVICE)
        self._folders: set[str] = set()
        if target.kind == "ftps":
            self.ftp: ftplib.FTP = _SessionReusingFTPS(context=ssl.create_default_context(), timeout=TIMEOUT)
        else:
            self.ftp = ftplib.FTP(timeout=TIMEOUT)
        with explained(target, Message("connecting")):
            self.ftp.connect(target.host, target.port)
        try:
            if isinstance(self.ftp, ftplib.FTP_TLS):
                try:
                    self.ftp.auth()
                except ftplib.error_perm as e:
                    raise UploadError("%(host)s does not offer FTPS (it answered '%(answer)s'); ask the host for FTPS or "
                                      "SFTP, or use ftp:// if sending the password unencrypted is acceptable",
                                      host=target.host, answer=str(e).strip()) from None
            self.ftp.login(target.user or "anonymous", password or "")
        except ftplib.error_perm as e:
            self.close()
            raise UploadError("%(host)s refused the login of %(user)s (%(why)s); check the user name and the password",
                              hint="upload_password_places", host=target.host, user=target.user or "anonymous",
                              why=str(e).strip(), env=PASSWORD_ENV) from None
        except BaseException as e:
            self.close()
            raise explain(e, target, Message("logging in")) from None
        with explained(target, Message("opening the folder")):
            if isinstance(self.ftp, ftplib.FTP_TLS):
                self.ftp.prot_p()
            self._enter(target.path)

    def _enter(self, path: str) -> None:
        if path.startswith("/"):
            self.ftp.cwd("/")
        for step in [s for s in path.split("/") if s]:
            try:
                self.ftp.cwd(step)
            except ftplib.error_perm:
                self._mkd(step)
                self.ftp.cwd(step)

    def _mkd(self, folder: str) -> None:
        try:
            self.ftp.mkd(folder)
        except ftplib.error_perm:
            pass  # it exists (servers answer 550 for that too); a real refusal shows at the next write

    def read(self, rel: str) -> bytes | None:
        out = io.BytesIO()
        with explained(self.target, Message("reading %(file)s", file=rel)):
            try:
                self.ftp.retrbinary(f"RETR {rel}", out.write)
            except ftplib.error_perm as e:
                if str(e).startswith("550"):
                    return None
                raise
        return out.getvalue()

    def names(self, folder: str) -> set[str] | None:
        with explained(self.target, Message("listing %(folder)s", folder=folder or Word("the folder"))):
            try:
                return {name for name, facts in self.ftp.mlsd(folder, ["type"]) if facts.get("type") == "file"}
            except ftplib.error_perm as e:
                if str(e).startswith("550"):
                    return None  # no such folder
            try:  # a server without MLSD (RFC 3659): NLST names files and folders alike, which is enough here
                return {posixpath.basename(name) for name in self.ftp.nlst(folder)}
            except (ftplib.error_perm, ftplib.error_temp):
                return None

    def put(self, rel: str, data: bytes, tag: str) -> None:
        temporary = temporary_path(rel, tag)
        with explained(self.target, Message("sending %(file)s", file=rel)):
            for folder in _parents(rel):
                if folder not in self._folders:
                    self._mkd(folder)
                    self._folders.add(folder)
            self.ftp.storbinary(f"STOR {temporary}", io.BytesIO(data))
            try:
                self.ftp.rename(temporary, rel)
            except ftplib.error_perm:  # a server that renames onto no existing file
                try:
                    self.ftp.delete(rel)
                except ftplib.error_perm:
                    pass
                self.ftp.rename(temporary, rel)

    def remove(self, rel: str) -> None:
        with explained(self.target, Message("removing %(file)s", file=rel)):
            try:
                self.ftp.delete(rel)
            except ftplib.error_perm as e:
                if not str(e).startswith("550"):
                    raise

    def remove_folder(self, rel: str) -> bool:
        try:
            self.ftp.rmd(rel)
        except ftplib.all_errors:
            return False
        return True

    def close(self) -> None:
        try:
            self.ftp.quit()
        except ftplib.all_errors + (AttributeError,):
            self.ftp.close()


# -- SFTP (asyncssh) -----------------------------------------------------------------


def _asyncssh() -> Any:
    try:
        import asyncssh
    except ImportError:
        raise UploadError("SFTP needs the asyncssh package: pip install 'keizer[sftp]' (or pip install asyncssh)") from None
    return asyncssh


class SftpTransport(Transport):
    """SFTP over SSH: a key from ssh-agent or ``~/.ssh`` first, else the password.

    The host's key must be in ``~/.ssh/known_hosts`` (as ``ssh`` itself checks), and
    ``~/.ssh/config`` applies (a ``Host`` alias, a ``Port``, an ``IdentityFile``).
    """

    def __init__(self, target: Target, password: str | None, ask: Callable[[], str | None] | None):
        self.asyncssh = _asyncssh()
        self.target = target
        self.where = target.url
        self.loop = asyncio.new_event_loop()
        self._folders: set[str] = set()
        self.conn: Any = None
        try:
            try:
                self.conn = self._run(self._connect(password))
            except self.asyncssh.PermissionDenied:
                if password is not None or ask is None or not (password := ask()):
                    raise
                self.conn = self._run(self._connect(password))
            self.sftp = self._run(self.conn.start_sftp_client())
            with explained(target, Message("opening the folder")):
                if target.path:
                    self._run(self.sftp.makedirs(target.path, exist_ok=True))
                    self._run(self.sftp.chdir(target.path))
        except BaseException as e:
            self.close()
            if isinstance(e, UploadError):
                raise
            raise explain(e, target, Message("logging in")) from None

    async def _connect(self, password: str | None) -> Any:
        return await self.asyncssh.connect(self.target.host, self.target.port, username=self.target.user or (),
                                           password=password, connect_timeout=TIMEOUT, login_timeout=TIMEOUT)

    def _run(self, work: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(work, TIMEOUT * 4))

    def read(self, rel: str) -> bytes | None:
        async def fetch() -> bytes | None:
            try:
                async with self.sftp.open(rel, "rb") as f:
                    return await f.read()
            except self.asyncssh.SFTPNoSuchFile:
                return None

        with explained(self.target, Message("reading %(file)s", file=rel)):
            return self._run(fetch())

    def names(self, folder: str) -> set[str] | None:
        async def listing() -> set[str] | None:
            try:
                found = await self.sftp.readdir(folder or ".")
            except (self.asyncssh.SFTPNoSuchFile, self.asyncssh.SFTPNoSuchPath):
                return None
            return {n.filename for n in found if n.attrs.permissions is None or stat.S_ISREG(n.attrs.permissions)}

        with explained(self.target, Message("listing %(folder)s", folder=folder or Word("the folder"))):
            return self._run(listing())

    def put(self, rel: str, data: bytes, tag: str) -> None:
        temporary = temporary_path(rel, tag)

        async def send() -> None:
            for folder in _parents(rel):
                if folder not in self._folders:
                    await self.sftp.makedirs(folder, exist_ok=True)
                    self._folders.add(folder)
            async with self.sftp.open(temporary, "wb") as f:
                await f.write(data)
            try:
                await self.sftp.posix_rename(temporary, rel)
            except self.asyncssh.SFTPOpUnsupported:  # plain SFTP renames onto no existing file
                try:
                    await self.sftp.remove(rel)
                except self.asyncssh.SFTPNoSuchFile:
                    pass
                await self.sftp.rename(temporary, rel)

        with explained(self.target, Message("sending %(file)s", file=rel)):
            self._run(send())

    def remove(self, rel: str) -> None:
        async def remove() -> None:
            try:
                await self.sftp.remove(rel)
            except self.asyncssh.SFTPNoSuchFile:
                pass

        with explained(self.target, Message("removing %(file)s", file=rel)):
            self._run(remove())

    def remove_folder(self, rel: str) -> bool:
        try:
            self._run(self.sftp.rmdir(rel))
        except (self.asyncssh.SFTPError, OSError):
            return False
        return True

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            try:
                self._run(self.conn.wait_closed())
            except (OSError, asyncio.TimeoutError, self.asyncssh.Error):
                pass
            self.conn = None
        if not self.loop.is_closed():
            self.loop.close()


# -- one line for every way it can go wrong ------------------------------------------


@contextmanager
def explained(target: Target, doing: Message) -> Iterator[None]:
    """``with explained(target, doing):`` turns a network failure into an :class:`UploadError`."""
    try:
        yield
    except UploadError:
        raise
    except Exception as e:
        raise explain(e, target, doing) from None


def explain(e: BaseException, target: Target, doing: Message) -> BaseException:
    """The one-line error for a failure while ``doing`` something at ``target``."""
    if isinstance(e, (UploadError, KeyboardInterrupt)) or not isinstance(e, Exception):
        return e
    host = f"{target.host}:{target.port}"
    asyncssh = _loaded_asyncssh()
    if isinstance(e, socket.gaierror):
        return UploadError("cannot find the host %(host)s (%(why)s); check the upload URL and the network",
                           host=target.host, why=e.strerror)
    if isinstance(e, ConnectionRefusedError):
        return UploadError("%(host)s refused the connection; check the host name, the port and the protocol "
                           "(%(kind)s://)", host=host, kind=target.kind)
    if isinstance(e, ssl.SSLCertVerificationError):
        return UploadError("the certificate of %(host)s cannot be verified (%(why)s); if the host uses a self-signed "
                           "certificate, name it in $SSL_CERT_FILE", host=target.host, why=e.verify_message)
    if asyncssh is not None:
        if isinstance(e, asyncssh.HostKeyNotVerifiable):
            return UploadError("the SSH host key of %(host)s is not known or has changed (%(why)s); log in once with "
                               "'ssh -p %(port)s %(account)s' to check and add it to ~/.ssh/known_hosts",
                               host=target.host, why=e.reason, port=target.port, account=target.account)
        if isinstance(e, asyncssh.PermissionDenied):
            return UploadError("%(host)s refused the login of %(user)s; check the user name and the password",
                               hint="upload_password_or_key", host=target.host,
                               user=target.user or Word("your user"), env=PASSWORD_ENV)
        if isinstance(e, asyncssh.SFTPError) and not isinstance(e, asyncssh.SFTPConnectionLost):
            return UploadError("%(host)s refused %(doing)s (%(why)s); check that the folder is right and writable for "
                               "this user", host=target.host, doing=doing, why=e.reason)
        if isinstance(e, (asyncssh.DisconnectError, asyncssh.SFTPConnectionLost)):
            return UploadError("the connection to %(host)s broke while %(doing)s (%(why)s)", hint="upload_again",
                               host=host, doing=doing, why=e.reason)
    if isinstance(e, ftplib.error_perm):
        return UploadError("%(host)s refused %(doing)s (%(why)s); check that the folder is right and writable for "
                           "this user", host=target.host, doing=doing, why=str(e).strip())
    if isinstance(e, (TimeoutError, asyncio.TimeoutError, socket.timeout)):
        return UploadError("no answer from %(host)s within %(seconds)s s while %(doing)s; check the host and the "
                           "network, then", hint="upload_then_again", host=host, seconds=f"{TIMEOUT:.0f}", doing=doing)
    if isinstance(e, ssl.SSLError):
        return UploadError("the TLS connection to %(host)s failed while %(doing)s (%(why)s)", hint="upload_again",
                           host=host, doing=doing, why=e.reason or str(e))
    if isinstance(e, (EOFError, ConnectionError, ftplib.error_temp, ftplib.error_reply, ftplib.error_proto, OSError)):
        reason = str(e).strip() or type(e).__name__
        return UploadError("the connection to %(host)s broke while %(doing)s (%(why)s)", hint="upload_again",
                           host=host, doing=doing, why=reason)
    return e


def _loaded_asyncssh() -> Any:
    """asyncssh if an SFTP upload imported it (an FTP upload does not need it installed)."""
    return sys.modules.get("asyncssh")

