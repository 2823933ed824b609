"""Uploading the site: to real FTP, FTPS and SFTP servers on 127.0.0.1, a folder and a git work tree.

Every host kind gets the same checks: the first upload sends everything, the next sends
nothing, a changed page sends that page only, a page no longer published is removed when
keizer put it there and is unchanged, anything else on the host is left alone, and an
upload cut off after k files resumes and ends with the host holding exactly the site.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.cli.words import say
from keizer.formats.targets import PASSWORD_ENV, Target, UploadError, parse_target
from keizer.publish.files import MANIFEST, write_site
from keizer.publish.transports import Transport, connect, temporary_path
from keizer.publish.upload import upload
from conftest import examples
from sites import published_from_file
from test_cli import run
from upload_servers import PASSWORD, USER, ftp_server, self_signed_certificate, sftp_server

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"
KINDS = ["folder", "git", "ftp", "ftps", "sftp"]
# pyftpdlib is built on asyncore and asynchat, which Python 3.11 calls deprecated.
pytestmark = pytest.mark.filterwarnings("ignore:The asyn:DeprecationWarning")

V1 = {"index.html": b"<p>club</p>", "static/style.css": b"body{}", "2025-2026/index.html": b"<p>season</p>",
      "2025-2026/interne/index.html": b"<p>standing</p>", "2025-2026/interne/round-1.html": b"<p>round 1</p>",
      "2025-2026/interne/players/anna.html": b"<p>Anna</p>", "2025-2026/interne/players/bram.html": b"<p>Bram</p>"}


@dataclass
class Host:
    kind: str
    url: str
    root: Path  # where the files the host receives land on this computer
    dropper: object = None


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(folder).parts}


def site_folder(path: Path, files: dict[str, bytes]) -> Path:
    """A local site as 'keizer publish' leaves it: the files and their manifest."""
    write_site(path, files, lambda rel: True)
    return path


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def quiet_home(tmp_path, monkeypatch):
    """A home without SSH keys, agent or keyring: only what a test gives counts."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    import keyring
    from keyring.backends.fail import Keyring as NoKeyring

    before = keyring.get_keyring()
    keyring.set_keyring(NoKeyring())
    yield home
    keyring.set_keyring(before)


@pytest.fixture
def server_cert(tmp_path, monkeypatch):
    cert = self_signed_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the client trusts the test's certificate, and only it
    return cert


@pytest.fixture(params=KINDS)
def host(request, tmp_path, monkeypatch, quiet_home):
    yield from _host(request.param, tmp_path, monkeypatch, quiet_home)


class _Servers:
    """The module's FTP, FTPS and SFTP servers, each started when a test first needs it and
    stopped when the module's tests end (starting one per test cost more than most tests).
    Each serves the folder of the test running now: its own ``served``, fresh and empty."""

    def __init__(self, folder: Path, stack: ExitStack) -> None:
        self.folder, self.stack = folder, stack
        self.served = folder  # the folder every login is served from, until a test names its own
        self.running: dict[str, tuple[int, object]] = {}

    def serve(self, kind: str, served: Path) -> tuple[int, object]:
        """The port of the server of ``kind`` (and its dropper, or its host key line), serving ``served``."""
        self.served = served
        if kind not in self.running:
            where = lambda: self.served  # noqa: E731
            if kind == "sftp":
                self.running[kind] = self.stack.enter_context(sftp_server(where))
            else:
                cert = self.cert() if kind == "ftps" else None
                self.running[kind] = self.stack.enter_context(ftp_server(where, cert))
        port, extra = self.running[kind]
        if kind != "sftp":
            extra.reset()  # type: ignore[attr-defined]
        return port, extra

    def cert(self) -> Path:
        path = self.folder / "cert-127.0.0.1.pem"
        return path if path.exists() else self_signed_certificate(self.folder)


_SERVERS: list[_Servers] = []


@pytest.fixture(scope="module", autouse=True)
def _module_servers(tmp_path_factory):
    with ExitStack() as stack:
        _SERVERS.append(_Servers(tmp_path_factory.mktemp("servers"), stack))
        yield
        _SERVERS.pop()


@contextmanager
def _servers(tmp_path: Path) -> Iterator[_Servers]:
    """This module's servers; for a test of another module (which imports _host), servers of its own."""
    if _SERVERS:
        yield _SERVERS[-1]
    else:
        with ExitStack() as stack:
            yield _Servers(tmp_path, stack)


def _host(kind: str, tmp_path: Path, monkeypatch, home: Path):
    served = tmp_path / "served"
    served.mkdir(parents=True)
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    if kind == "folder":
        yield Host(kind, str(served / "schaak"), served / "schaak")
    elif kind == "git":
        git(served, "init", "-q", "-b", "main")
        git(served, "config", "user.email", "webmaster@example.org")
        git(served, "config", "user.name", "Webmaster")
        yield Host(kind, f"git+file://{served}/schaak", served / "schaak")
    elif kind in ("ftp", "ftps"):
        with _servers(tmp_path) as servers:
            if kind == "ftps":
                monkeypatch.setenv("SSL_CERT_FILE", str(servers.cert()))
            port, dropper = servers.serve(kind, served)
            yield Host(kind, f"{kind}://{USER}@127.0.0.1:{port}/public_html/schaak",
                       served / "public_html" / "schaak", dropper)
    else:
        with _servers(tmp_path) as servers:
            port, known = servers.serve(kind, served)
            (home / ".ssh" / "known_hosts").write_text(str(known))
            yield Host(kind, f"sftp://{USER}@127.0.0.1:{port}/public_html/schaak", served / "public_html" / "schaak")


def send(site: Path, host: Host, **options) -> object:
    return upload(site, parse_target(host.url), **options)


def on_host(host: Host) -> dict[str, bytes]:
    """The host's files, less keizer's manifest."""
    files = tree(host.root)
    files.pop(MANIFEST, None)
    return files


def host_manifest(host: Host) -> dict:
    return json.loads((host.root / MANIFEST).read_bytes())


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- the same rules on every kind of host ---------------------------------------------


def test_first_upload_sends_everything_the_next_nothing(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    first = send(site, host)
    assert sorted(first.sent) == sorted(V1) and first.removed == () and first.unchanged == 0
    assert on_host(host) == V1
    assert host_manifest(host) == {"keizer_manifest": 1, "files": {p: sha(d) for p, d in sorted(V1.items())}}
    stamp = (host.root / MANIFEST).stat().st_mtime_ns
    again = send(site, host)
    assert again.sent == () and again.removed == () and again.unchanged == len(V1)
    assert (host.root / MANIFEST).stat().st_mtime_ns == stamp  # not even the manifest is sent again
    assert on_host(host) == V1


def test_a_changed_page_sends_only_that_page(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    send(site, host)
    v2 = {**V1, "2025-2026/interne/index.html": b"<p>standing after round 2</p>"}
    site_folder(site, v2)
    done = send(site, host)
    assert done.sent == ("2025-2026/interne/index.html",) and done.unchanged == len(V1) - 1
    assert on_host(host) == v2


def test_only_keizers_unchanged_files_are_removed(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    host.root.mkdir(parents=True, exist_ok=True)
    foreign = {"contact.html": b"<p>call us</p>", "2025-2026/interne/players/notes.txt": b"mine",
               "bestuur/index.html": b"<p>board</p>"}
    for rel, data in foreign.items():
        (host.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (host.root / rel).write_bytes(data)
    send(site, host)
    assert on_host(host) == {**V1, **foreign}
    # Bram's page was edited on the host since: it is no longer keizer's to remove.
    (host.root / "2025-2026/interne/players/bram.html").write_bytes(b"<p>Bram, edited by hand</p>")
    v2 = {k: v for k, v in V1.items() if "players/" not in k and "round-1" not in k}
    site_folder(site, v2)
    done = send(site, host)
    assert sorted(done.removed) == ["2025-2026/interne/players/anna.html", "2025-2026/interne/round-1.html"]
    assert done.kept == ("2025-2026/interne/players/bram.html",) and done.sent == ()
    assert on_host(host) == {**v2, **foreign, "2025-2026/interne/players/bram.html": b"<p>Bram, edited by hand</p>"}
    assert set(host_manifest(host)["files"]) == set(v2)  # the edited page is the webmaster's now
    # A folder keizer emptied goes; one holding someone else's file stays.
    site_folder(site, {"index.html": b"<p>club</p>"})
    send(site, host)
    assert not (host.root / "static").exists() and (host.root / "2025-2026/interne/players/notes.txt").exists()
    assert on_host(host) == {"index.html": b"<p>club</p>", **foreign,
                             "2025-2026/interne/players/bram.html": b"<p>Bram, edited by hand</p>"}


class CutOff(Transport):
    """The real transport, whose line goes dead after ``k`` files (the manifest included);
    with ``half`` (the folder the host's files land in) in the middle of the next file."""

    def __init__(self, inner: Transport, k: int, half: Path | None = None):
        self.inner, self.k, self.where, self.half = inner, k, inner.where, half

    def read(self, rel):
        return self.inner.read(rel)

    def names(self, folder):
        return self.inner.names(folder)

    def put(self, rel, data, tag):
        if self.k == 0:
            if self.half:  # what a server keeps of a transfer cut off halfway
                (self.half / temporary_path(rel, tag)).parent.mkdir(parents=True, exist_ok=True)
                (self.half / temporary_path(rel, tag)).write_bytes(data[: len(data) // 2])
            raise UploadError("the connection broke (simulated)")
        self.k -= 1
        self.inner.put(rel, data, tag)

    def remove(self, rel):
        if self.k == 0:
            raise UploadError("the connection broke (simulated)")
        self.inner.remove(rel)

    def remove_folder(self, rel):
        return self.inner.remove_folder(rel)

    def finish(self, summary):
        return self.inner.finish(summary)

    def close(self):
        self.inner.close()


def cut_off_after(k: int, half: Path | None = None):
    return lambda target, password, ask: CutOff(connect(target, password, ask), k, half)


@pytest.mark.parametrize("k", [1, 4])
def test_an_upload_cut_off_resumes_and_ends_with_the_site(host, tmp_path, k):
    site = site_folder(tmp_path / "site", V1)
    send(site, host)
    (host.root / "own.txt").write_bytes(b"the webmaster's")
    v2 = {**{p: d + b"<!-- v2 -->" for p, d in V1.items() if "players/" not in p},
          "2025-2026/interne/round-2.html": b"<p>round 2</p>"}
    site_folder(site, v2)
    with pytest.raises(UploadError):
        send(site, host, transport=cut_off_after(k, half=host.root), flush_seconds=0)
    assert any(p.endswith(".keizer-tmp") for p in tree(host.root))
    with pytest.raises(UploadError):  # cut off again, now with the first run's leftovers to clean
        send(site, host, transport=cut_off_after(k + 1), flush_seconds=1e9)
    done = send(site, host)
    assert set(done.removed) <= {"2025-2026/interne/players/anna.html", "2025-2026/interne/players/bram.html"}
    assert on_host(host) == {**v2, "own.txt": b"the webmaster's"}  # no temporary file, no old page left
    assert host_manifest(host) == {"keizer_manifest": 1, "files": {p: sha(d) for p, d in sorted(v2.items())}}
    assert send(site, host).sent == ()


def test_dry_run_says_what_would_happen_and_sends_nothing(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    send(site, host)
    before = tree(host.root)
    v2 = {**{k: v for k, v in V1.items() if "anna" not in k}, "index.html": b"<p>new</p>"}
    site_folder(site, v2)
    plan = send(site, host, dry_run=True)
    assert plan.dry_run and plan.sent == ("index.html",) and plan.removed == ("2025-2026/interne/players/anna.html",)
    assert tree(host.root) == before
    assert send(site, host).sent == ("index.html",)


def test_resend_sends_every_file_again(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    send(site, host)
    (host.root / "index.html").unlink()  # someone tidied the host by hand
    assert send(site, host).sent == ()
    assert sorted(send(site, host, resend=True).sent) == sorted(V1)
    assert on_host(host) == V1


def test_a_damaged_manifest_on_the_host_is_refused(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    send(site, host)
    (host.root / MANIFEST).write_text('{"keizer_manifest": 1, "files": {"../../etc/passwd": "00"}}')
    with pytest.raises(UploadError, match="damaged; remove it there"):
        send(site, host)
    assert (tmp_path / "served").exists() and on_host(host) == V1


# -- the sample club through the command line -------------------------------------------


@pytest.fixture
def sample(tmp_path):
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    return db


def published_before(db: Path, site: Path) -> Path:
    """The club published into ``site`` before the command a test runs, when the test is about
    the upload after it (a copy of the same site published before in this process, see
    tests/sites.py): the command's publish finds the site up to date and goes on to upload it."""
    return published_from_file(db, site)


@pytest.mark.parametrize("kind", ["ftp", "sftp"])
def test_the_sample_club_through_the_command_line(kind, sample, tmp_path, monkeypatch, quiet_home, capsys):
    for host in _host(kind, tmp_path, monkeypatch, quiet_home):
        site = tmp_path / "site"
        code, out, err = run(capsys, sample, "publish", str(site), "--upload", host.url)
        assert code == 0, err
        assert f"uploaded to {host.url}: {len(tree(site)) - 1} files sent, 0 removed, 0 unchanged" in out
        assert f"remembered {host.url} as the club's upload target" in out and tree(site) == tree(host.root)
        code, out, err = run(capsys, sample, "club", "--format", "json")
        assert json.loads(out)["upload"] == host.url  # remembered, without a password
        # A renamed member changes some pages and moves a player page: the next '--upload'
        # alone sends what changed, removes the old page, and no more.
        before = tree(site)
        assert run(capsys, sample, "member", "edit", "Bas Dekker", "--name", "Bas Dekker-de Wit")[0] == 0
        code, out, err = run(capsys, sample, "publish", str(site), "--upload")
        assert code == 0, err
        after = tree(site)
        changed = {p for p in after if before.get(p) != after[p]} - {MANIFEST}
        gone = set(before) - set(after)
        assert gone and all("bas-dekker" in p for p in gone)
        assert f"{len(changed)} files written" in out and f"{len(changed)} files sent, {len(gone)} removed" in out
        assert "remembered" not in out
        assert 0 < len(changed) < len(after) / 2 and tree(site) == tree(host.root)
        code, out, err = run(capsys, sample, "publish", str(site), "--upload")
        assert code == 0 and "0 files sent, 0 removed" in out


def test_an_ftp_line_that_goes_dead_mid_upload(tmp_path, monkeypatch, quiet_home, capsys, sample):
    monkeypatch.setattr("keizer.publish.upload.FLUSH_SECONDS", 0)  # loopback is fast: confirm every file
    for host in _host("ftp", tmp_path, monkeypatch, quiet_home):
        site = published_before(sample, tmp_path / "site")
        # Stored: the manifest, then each page followed by the manifest confirming it; after the
        # 61st file (the manifest confirming page 30) the server hangs up.
        host.dropper.limit = 61
        code, out, err = run(capsys, sample, "publish", str(site), "--upload", host.url)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
        assert "broke while sending" in err and "run the same command again to resume" in err
        assert 10 < len(tree(host.root)) < len(tree(site))
        host.dropper.limit = None
        code, out, err = run(capsys, sample, "publish", str(site), "--upload", host.url)
        assert code == 0, err
        sent = int(out.split("uploaded to ")[1].split(": ")[1].split(" files")[0])
        assert sent == len(tree(site)) - 1 - 30  # the 30 pages confirmed before the line went dead are not sent again
        assert tree(site) == tree(host.root)


# -- refusals: one line, a non-zero exit, nothing changed ---------------------------------------


def one_line_error(code: int, err: str) -> str:
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("kind", ["ftp", "ftps", "sftp"])
def test_a_wrong_password_is_one_line(kind, sample, tmp_path, monkeypatch, quiet_home, capsys):
    for host in _host(kind, tmp_path, monkeypatch, quiet_home):
        monkeypatch.setenv(PASSWORD_ENV, "wrong")
        site = published_before(sample, tmp_path / "site")
        err = one_line_error(*run(capsys, sample, "publish", str(site), "--upload", host.url)[::2])
        assert "refused the login of webmaster" in err and PASSWORD_ENV in err
        assert on_host(host) == {}
        code, out, _ = run(capsys, sample, "club", "--format", "json")
        assert json.loads(out)["upload"] == ""  # a target that failed is not remembered


def test_no_password_anywhere_is_one_line(sample, tmp_path, monkeypatch, quiet_home, capsys):
    for host in _host("ftp", tmp_path, monkeypatch, quiet_home):
        monkeypatch.delenv(PASSWORD_ENV)
        site = published_before(sample, tmp_path / "site")
        err = one_line_error(*run(capsys, sample, "publish", str(site), "--upload", host.url)[::2])
        assert f"no password for {USER}@127.0.0.1" in err and "keyring set keizer" in err


def test_the_password_comes_from_the_keyring_or_the_prompt(tmp_path, monkeypatch, quiet_home):
    import keyring
    from keyring.backend import KeyringBackend
    from keyring.backends.fail import Keyring as NoKeyring

    class Memory(KeyringBackend):
        priority = 1  # type: ignore[assignment]

        def __init__(self):
            self.kept: dict[tuple[str, str], str] = {}

        def get_password(self, service, username):
            return self.kept.get((service, username))

        def set_password(self, service, username, password):
            self.kept[(service, username)] = password

        def delete_password(self, service, username):
            self.kept.pop((service, username), None)

    for kind in ("ftp", "sftp"):
        for host in _host(kind, tmp_path / kind, monkeypatch, quiet_home):
            monkeypatch.delenv(PASSWORD_ENV)
            keyring.set_keyring(NoKeyring())
            site = site_folder(tmp_path / kind / "site", V1)
            asked = []
            done = send(site, host, ask=lambda: asked.append(1) or PASSWORD)
            assert asked == [1] and sorted(done.sent) == sorted(V1)
            memory = Memory()
            keyring.set_keyring(memory)
            memory.set_password("keizer", f"{USER}@127.0.0.1", PASSWORD)
            site_folder(site, {**V1, "index.html": b"new"})
            assert send(site, host, ask=lambda: pytest.fail("asked")).sent == ("index.html",)


def test_a_password_in_the_url_is_refused(sample, tmp_path, capsys):
    for url in ("ftp://webmaster:hunter2@ftp.example.org/public_html", "sftp://u:hunter2@host/x"):
        err = one_line_error(*run(capsys, sample, "publish", str(tmp_path / "site"), "--upload", url)[::2])
        assert "holds a password" in err and PASSWORD_ENV in err and "hunter2" not in err
        err = one_line_error(*run(capsys, sample, "club", "--upload", url)[::2])
        assert "hunter2" not in err
    assert not (tmp_path / "site").exists()  # refused before anything was written
    code, out, _ = run(capsys, sample, "club", "--format", "json")
    assert json.loads(out)["upload"] == ""


def test_an_unreachable_host_is_one_line(sample, tmp_path, monkeypatch, quiet_home, capsys):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    site = published_before(sample, tmp_path / "site")
    for scheme in ("ftp", "ftps", "sftp"):
        err = one_line_error(*run(capsys, sample, "publish", str(site), "--upload",
                                  f"{scheme}://{USER}@127.0.0.1:{port}/x")[::2])
        assert f"127.0.0.1:{port} refused the connection" in err


def test_a_certificate_or_host_key_that_cannot_be_checked_is_one_line(sample, tmp_path, monkeypatch, quiet_home,
                                                                        capsys):
    published_before(sample, tmp_path / "site")
    for host in _host("ftps", tmp_path / "ftps", monkeypatch, quiet_home):
        monkeypatch.delenv("SSL_CERT_FILE")  # the self-signed certificate is not trusted then
        err = one_line_error(*run(capsys, sample, "publish", str(tmp_path / "site"), "--upload", host.url)[::2])
        assert "certificate of 127.0.0.1 cannot be verified" in err and "SSL_CERT_FILE" in err
    for host in _host("sftp", tmp_path / "sftp", monkeypatch, quiet_home):
        (quiet_home / ".ssh" / "known_hosts").unlink()
        err = one_line_error(*run(capsys, sample, "publish", str(tmp_path / "site"), "--upload", host.url)[::2])
        assert "SSH host key of 127.0.0.1 is not known" in err and "known_hosts" in err


@pytest.mark.parametrize("url, message", [
    ("https://club.example.org/schaak", "cannot upload over https"),
    ("gopher://host/x", "unknown kind of upload target gopher://"),
    ("ftp://host:99999/x", "not valid"),
    ("ftp:///x", "names no host"),
    ("sftp://host/x?mode=fast", "does not understand"),
    ("file://server/share", "three slashes"),
    ("", "empty"),
])
def test_bad_urls_are_refused(url, message):
    with pytest.raises(UploadError, match=message):
        parse_target(url)


def test_urls_and_paths_name_their_targets(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    assert parse_target("ftps://web%40club@ftp.example.org/public_html/schaak/") == Target(
        "ftps", "public_html/schaak", "ftp.example.org", 21, "web@club")
    assert parse_target("ftps://web%40club@ftp.example.org/x").url == "ftps://web%40club@ftp.example.org/x"
    assert parse_target("sftp://u@[::1]:2222/x").url == "sftp://u@[::1]:2222/x"
    assert parse_target("sftp://u@h:2222//var/www/schaak") == Target("sftp", "/var/www/schaak", "h", 2222, "u")
    assert parse_target("sftp://u@h:2222//var/www/schaak").url == "sftp://u@h:2222//var/www/schaak"
    assert parse_target("ftp://h").url == "ftp://h/" and parse_target("sftp://u@h/~/www").path == "www"
    assert parse_target(str(tmp_path / "www")) == Target("folder", str(tmp_path / "www"))
    assert parse_target(f"file://{tmp_path}/repo").kind == "folder"  # file:// is always a plain folder
    assert parse_target(str(tmp_path / "repo")).kind == "git"  # the top of a work tree: committed into
    assert parse_target(f"git+file://{tmp_path}/repo/site") == Target("git", str(tmp_path / "repo" / "site"))


def test_the_upload_folder_cannot_lie_in_the_site(tmp_path):
    site = site_folder(tmp_path / "site", V1)
    for inside in (site, site / "mirror"):
        with pytest.raises(UploadError, match="lies in the site folder"):
            upload(site, parse_target(str(inside)))


def test_dry_run_and_resend_go_with_upload(sample, tmp_path, capsys):
    code, _, err = run(capsys, sample, "publish", str(tmp_path / "site"), "--dry-run")
    assert code == 2 and "--dry-run goes with --upload" in err and not (tmp_path / "site").exists()
    err = one_line_error(*run(capsys, sample, "publish", str(tmp_path / "site"), "--upload")[::2])
    assert "no upload target" in err and "keizer club --upload" in err


def test_the_upload_target_is_a_club_setting(sample, tmp_path, capsys):
    www = tmp_path / "www"
    assert run(capsys, sample, "club", "--upload", "ftps://webmaster@ftp.example.org/public_html")[0] == 0
    code, out, _ = run(capsys, sample, "club", "--format", "json")
    assert json.loads(out)["upload"] == "ftps://webmaster@ftp.example.org/public_html"
    assert run(capsys, sample, "club", "--upload", str(www))[0] == 0
    code, out, err = run(capsys, sample, "publish", str(tmp_path / "site"), "--upload", "--dry-run")
    assert code == 0 and f"dry run for {www}:" in out and "would send: index.html" in out and not www.exists()
    code, out, err = run(capsys, sample, "publish", str(tmp_path / "site"), "--upload")
    assert code == 0 and "remembered" not in out and tree(www) == tree(tmp_path / "site")
    assert run(capsys, sample, "club", "--upload", "")[0] == 0
    assert json.loads(run(capsys, sample, "club", "--format", "json")[1])["upload"] == ""


# -- git: a commit of keizer's changes, nothing else ------------------------------------------


def test_git_commits_keizers_changes_only(tmp_path, capsys, sample, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))  # no identity anywhere
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    repo = tmp_path / "clubsite"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")  # no user configured: keizer signs the commit itself
    (repo / "README.md").write_text("our site\n")
    git(repo, "add", "README.md")
    git(repo, "-c", "user.email=w@example.org", "-c", "user.name=W", "commit", "-q", "-m", "start")
    (repo / "draft.html").write_text("not ready")  # the webmaster's own work in progress
    site = published_before(sample, tmp_path / "site")
    code, out, err = run(capsys, sample, "publish", str(site), "--upload", str(repo))
    assert code == 0, err
    assert "(commit " in out
    assert git(repo, "log", "-1", "--format=%an %s").strip() == f"keizer keizer publish: {len(tree(site)) - 1} files sent, 0 removed"
    committed = set(git(repo, "ls-files").split())
    assert committed == {"README.md", *tree(site)} and "draft.html" not in committed
    assert git(repo, "status", "--porcelain").strip() == "?? draft.html"
    commits = git(repo, "rev-list", "--count", "HEAD")
    assert run(capsys, sample, "publish", str(site), "--upload")[0] == 0
    assert git(repo, "rev-list", "--count", "HEAD") == commits  # nothing changed, no commit
    # A page no longer published is removed in the next commit.
    old = next(p for p in tree(site) if "/players/" in p)
    (site / old).unlink()
    manifest = json.loads((site / MANIFEST).read_text())
    del manifest["files"][old]
    (site / MANIFEST).write_text(json.dumps(manifest))
    upload(site, parse_target(str(repo)))
    assert old not in git(repo, "ls-files").split() and old in git(repo, "show", "--stat=400", "HEAD")  # wide: a long path is not shortened


def test_git_commits_what_a_cut_off_upload_left(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    site = site_folder(tmp_path / "site", V1)
    target = parse_target(f"git+file://{repo}/schaak")
    never = lambda target, password, ask: _NoCommit(connect(target, password, ask))  # noqa: E731
    with pytest.raises(UploadError, match="before the commit"):
        upload(site, target, transport=never)
    assert git(repo, "status", "--porcelain", "--untracked-files=all").count("schaak/") == len(V1) + 1
    done = upload(site, target)
    assert done.sent == () and done.commit  # nothing to send, but the commit is made
    assert git(repo, "status", "--porcelain").strip() == ""
    assert set(git(repo, "ls-files").split()) == {f"schaak/{p}" for p in [*V1, MANIFEST]}


class _NoCommit(CutOff):
    """Everything written, then cut off before the commit."""

    def __init__(self, inner):
        super().__init__(inner, 10**6)

    def finish(self, summary):
        raise UploadError("cut off before the commit (simulated)")


def test_a_bare_or_missing_repository_or_a_refusing_hook_is_one_line(tmp_path):
    site = site_folder(tmp_path / "site", V1)
    with pytest.raises(UploadError, match="is not in a git work tree"):
        upload(site, parse_target(f"git+file://{tmp_path}/nowhere"))
    git(tmp_path, "init", "-q", "--bare", "site.git")
    with pytest.raises(UploadError, match="site.git is not in a git work tree; .*clone"):
        upload(site, parse_target(f"git+file://{tmp_path}/site.git"))
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "repo")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'no commits on club evenings' >&2\nexit 1\n")
    hook.chmod(0o755)
    with pytest.raises(UploadError, match="git commit in .*repo failed: no commits on club evenings"):
        upload(site, parse_target(str(repo)))


# -- the resume rule as a property: any cut-off point, any sequence of sites ----------------


pages = st.dictionaries(st.sampled_from(["index.html", "a.html", "s/b.html", "s/t/c.html", "s/t/d.html",
                                         "static/x.css"]), st.binary(max_size=3), min_size=1)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sites=st.lists(pages, min_size=1, max_size=4), cuts=st.lists(st.integers(0, 8), min_size=4, max_size=4),
       halves=st.lists(st.booleans(), min_size=4, max_size=4), flush=st.booleans())
def test_any_cut_off_then_a_clean_run_leaves_exactly_the_site(tmp_path_factory, sites, cuts, halves, flush):
    base = tmp_path_factory.mktemp("prop")
    host = Host("folder", str(base / "host"), base / "host")
    host.root.mkdir()
    (host.root / "s").mkdir()
    (host.root / "s" / "own.txt").write_bytes(b"theirs")
    site = base / "site"
    for files, cut, half in zip(sites, cuts, halves):
        shutil.rmtree(site, ignore_errors=True)
        site_folder(site, files)
        try:
            send(site, host, transport=cut_off_after(cut, host.root if half else None), flush_seconds=0 if flush else 1e9)
        except UploadError:
            pass
    done = send(site, host)
    assert on_host(host) == {**sites[-1], "s/own.txt": b"theirs"}
    assert host_manifest(host)["files"] == {p: sha(d) for p, d in sites[-1].items()}
    assert send(site, host).sent == () and done.kept == ()


# -- a host folder that is not empty the first time ---------------------------------------------


def test_files_keizer_did_not_put_there_are_not_replaced(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    host.root.mkdir(parents=True, exist_ok=True)
    (host.root / "index.html").write_bytes(b"<p>the club's own home page</p>")
    (host.root / "static").mkdir()
    (host.root / "static" / "style.css").write_bytes(V1["static/style.css"])  # as keizer would send it
    with pytest.raises(UploadError, match=r"1 file on .* that keizer did not put there would be replaced "
                                          r"\(the first: index.html\)") as refused:
        send(site, host)
    assert say(refused.value).endswith("or add --replace if they are an old copy of the site")
    assert tree(host.root) == {"index.html": b"<p>the club's own home page</p>", "static/style.css": b"body{}"}
    plan = send(site, host, dry_run=True)
    assert plan.in_the_way == ("index.html",) and "static/style.css" not in plan.sent
    done = send(site, host, replace=True)  # the webmaster says it is an old copy
    assert "index.html" in done.sent and "static/style.css" not in done.sent and done.unchanged == 1
    assert on_host(host) == V1 and set(host_manifest(host)["files"]) == set(V1)


def test_an_ftp_server_without_mlsd_is_listed_with_nlst(tmp_path, monkeypatch, quiet_home):
    for host in _host("ftp", tmp_path, monkeypatch, quiet_home):
        host.dropper.mlsd = False
        host.root.mkdir(parents=True)
        (host.root / "index.html").write_bytes(b"ours, not keizer's")
        with pytest.raises(UploadError, match="the first: index.html"):
            send(site_folder(tmp_path / "site", V1), host)


def test_an_identical_copy_uploaded_by_hand_is_taken_over(host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    for rel, data in V1.items():  # what the webmaster uploaded with an FTP program before
        (host.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (host.root / rel).write_bytes(data)
    done = send(site, host)
    assert done.sent == () and done.unchanged == len(V1) and set(host_manifest(host)["files"]) == set(V1)
    site_folder(site, {k: v for k, v in V1.items() if "anna" not in k})
    assert send(site, host).removed == ("2025-2026/interne/players/anna.html",)  # keizer's now, so tidied


def test_without_asyncssh_sftp_says_how_to_install_it(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "asyncssh", None)  # as if it were not installed
    site = site_folder(tmp_path / "site", V1)
    with pytest.raises(UploadError, match=r"SFTP needs the asyncssh package: pip install 'keizer\[sftp\]'"):
        upload(site, parse_target("sftp://u@127.0.0.1:1/x"))
