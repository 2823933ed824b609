"""Uploading and publishing stay inside their folder, and a stored password only goes where it may.

A symbolic link inside the upload folder (a plain folder or a git work tree) or inside the
local site folder is never followed: keizer refuses in one line, naming the link, before it
writes anything, and nothing outside the folder is written or removed.  The folder itself
may be a link.  ``upload(..., stored_password=False)`` never hands ``$KEIZER_UPLOAD_PASSWORD``
or the keyring's password to the target: the web app's form could name any host.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from keizer.publish import files
from keizer.publish.files import MANIFEST, write_site
from keizer.formats.targets import PASSWORD_ENV, UploadError, parse_target
from keizer.publish.transports import temporary_path
from keizer.publish.upload import upload
from keizer.store import StoreError
from test_cli import run
from test_upload import (V1, Host, _host, git, on_host, published_before, quiet_home, sample, sha,  # noqa: F401
                         site_folder, tree)
from upload_servers import PASSWORD, USER

pytestmark = [pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links"),
              pytest.mark.filterwarnings("ignore:The asyn:DeprecationWarning")]
LINK = "is a symbolic link; keizer does not read or write through links in the"
SECRET = b"the treasurer's key"


@pytest.fixture(params=["folder", "git"])
def local_host(request, tmp_path):
    """An upload folder on this computer, existing and empty: a plain one or in a git work tree."""
    served = tmp_path / "served"
    (served / "schaak").mkdir(parents=True)
    if request.param == "folder":
        return Host("folder", str(served / "schaak"), served / "schaak")
    git(served, "init", "-q", "-b", "main")
    git(served, "config", "user.email", "webmaster@example.org")
    git(served, "config", "user.name", "Webmaster")
    return Host("git", f"git+file://{served}/schaak", served / "schaak")


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """A folder outside every target, holding a file of someone else's."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "key.txt").write_bytes(SECRET)
    return folder


def send(site: Path, host: Host, **options: object) -> object:
    return upload(site, parse_target(host.url), **options)


def listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder`` without following links: a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for top, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(top) / name
            rel = path.relative_to(folder).as_posix()
            if rel == ".git" or rel.startswith(".git/"):
                continue
            if path.is_symlink():
                found[rel] = f"-> {os.readlink(path)}"
            elif path.is_file():
                found[rel] = path.read_bytes()
    return found


def link_refused(link: Path, place: str) -> str:
    """The pattern of the one-line refusal naming ``link`` in ``place``."""
    return "^" + re.escape(f"{link} {LINK} {place}")


def refused(host: Host, site: Path, link: Path, **options: object) -> None:
    """The upload is refused in one line naming ``link``, and the target is left as it was."""
    before = listing(host.root)
    with pytest.raises(UploadError) as e:
        send(site, host, **options)
    assert re.match(link_refused(link, "upload folder: remove the link or upload elsewhere") + "$", str(e.value))
    assert listing(host.root) == before


# -- the upload folder ---------------------------------------------------------------------


def test_a_linked_season_folder_in_the_target_is_refused(local_host, tmp_path, elsewhere):
    site = site_folder(tmp_path / "site", V1)
    (local_host.root / "2025-2026").symlink_to(elsewhere, target_is_directory=True)
    refused(local_host, site, local_host.root / "2025-2026")
    assert listing(elsewhere) == {"key.txt": SECRET}  # nothing was put there


def test_a_folder_linked_after_the_first_upload_is_refused_before_anything_is_sent(local_host, tmp_path, elsewhere):
    site = site_folder(tmp_path / "site", V1)
    send(site, local_host)
    season = local_host.root / "2025-2026"
    season.rename(elsewhere / "2025-2026")  # the same files, now outside, and a link to them
    season.symlink_to(elsewhere / "2025-2026", target_is_directory=True)
    site_folder(site, {**V1, "2025-2026/interne/index.html": b"<p>after round 2</p>"})
    before = listing(elsewhere)
    refused(local_host, site, season)
    refused(local_host, site, season, dry_run=True)
    assert listing(elsewhere) == before


@pytest.mark.parametrize("linked", ["index.html", "2025-2026/interne/round-1.html", MANIFEST])
def test_a_linked_file_in_the_target_is_refused(local_host, tmp_path, elsewhere, linked):
    site = site_folder(tmp_path / "site", V1)
    link = local_host.root / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere / "key.txt")
    refused(local_host, site, link, replace=True)
    assert listing(elsewhere) == {"key.txt": SECRET}


def test_a_linked_temporary_file_in_the_target_is_not_written_through(local_host, tmp_path, elsewhere):
    # The temporary name of an upload is known in advance (it comes from the page's content).
    site = site_folder(tmp_path / "site", V1)
    link = local_host.root / temporary_path("index.html", sha(V1["index.html"])[:16])
    link.symlink_to(elsewhere / "key.txt")
    refused(local_host, site, link)
    assert listing(elsewhere) == {"key.txt": SECRET}


def test_a_manifest_entry_reached_through_a_link_is_not_removed(local_host, tmp_path, elsewhere):
    site = site_folder(tmp_path / "site", V1)
    send(site, local_host)
    # Someone who may write the upload folder says keizer put secret/key.txt there, and links secret/.
    manifest = json.loads((local_host.root / MANIFEST).read_bytes())
    manifest["files"]["secret/key.txt"] = sha(SECRET)
    (local_host.root / MANIFEST).write_text(json.dumps(manifest))
    (local_host.root / "secret").symlink_to(elsewhere, target_is_directory=True)
    refused(local_host, site, local_host.root / "secret")
    # And a listed page that is itself a link to someone else's file.
    (local_host.root / "secret").unlink()
    manifest["files"]["old.html"] = manifest["files"].pop("secret/key.txt")
    (local_host.root / MANIFEST).write_text(json.dumps(manifest))
    (local_host.root / "old.html").symlink_to(elsewhere / "key.txt")
    refused(local_host, site, local_host.root / "old.html")
    assert listing(elsewhere) == {"key.txt": SECRET}


def test_the_upload_folder_itself_may_be_a_link(local_host, tmp_path):
    site = site_folder(tmp_path / "site", V1)
    link = local_host.root.parent / "current"
    link.symlink_to(local_host.root, target_is_directory=True)
    url = f"git+file://{link}" if local_host.kind == "git" else str(link)
    assert sorted(upload(site, parse_target(url)).sent) == sorted(V1)
    assert on_host(local_host) == V1


def test_a_link_in_the_target_is_one_line_from_the_command_line(sample, tmp_path, elsewhere, capsys):
    www = tmp_path / "www"
    www.mkdir()
    (www / "2025-2026").symlink_to(elsewhere, target_is_directory=True)
    published_before(sample, tmp_path / "site")
    code, out, err = run(capsys, sample, "publish", str(tmp_path / "site"), "--upload", str(www))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err == f"error: {www / '2025-2026'} {LINK} upload folder: remove the link or upload elsewhere\n"
    assert listing(elsewhere) == {"key.txt": SECRET} and listing(www) == {"2025-2026": f"-> {elsewhere}"}


# -- the local site folder -----------------------------------------------------------------


def test_publishing_into_a_site_folder_with_a_linked_season_is_refused(sample, tmp_path, elsewhere, capsys):
    site = tmp_path / "site"
    site.mkdir()
    (site / "2025-2026").symlink_to(elsewhere, target_is_directory=True)
    code, out, err = run(capsys, sample, "publish", str(site))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err == f"error: {site / '2025-2026'} {LINK} site folder: remove the link or publish elsewhere\n"
    assert listing(elsewhere) == {"key.txt": SECRET} and listing(site) == {"2025-2026": f"-> {elsewhere}"}


@pytest.mark.parametrize("linked", ["index.html", "2025-2026/interne/index.html", MANIFEST])
def test_a_linked_file_in_the_site_folder_is_refused(tmp_path, elsewhere, linked):
    site = tmp_path / "site"
    link = site / linked
    link.parent.mkdir(parents=True)
    link.symlink_to(elsewhere / "key.txt")
    before = listing(site)
    with pytest.raises(StoreError, match=link_refused(link, "site folder: remove the link or publish elsewhere") + "$"):
        write_site(site, V1, lambda rel: True)
    assert listing(site) == before and listing(elsewhere) == {"key.txt": SECRET}


def site_listing_a_link(tmp_path: Path, elsewhere: Path) -> Path:
    """A published site whose manifest lists secret/key.txt, where secret is a link to ``elsewhere``."""
    site = site_folder(tmp_path / "site", V1)
    listed(site, "secret/key.txt", SECRET)
    (site / "secret").symlink_to(elsewhere, target_is_directory=True)
    return site


def listed(site: Path, rel: str, data: bytes) -> None:
    """The site's manifest lists ``rel`` as holding ``data`` (as a tampered manifest would)."""
    manifest = json.loads((site / MANIFEST).read_bytes())
    manifest["files"][rel] = sha(data)
    (site / MANIFEST).write_text(json.dumps(manifest))


def test_a_manifest_entry_of_the_site_reached_through_a_link_is_not_removed(tmp_path, elsewhere):
    site = site_listing_a_link(tmp_path, elsewhere)
    with pytest.raises(StoreError, match=link_refused(site / "secret", "site folder")):
        write_site(site, V1, lambda rel: True)
    assert listing(elsewhere) == {"key.txt": SECRET}


def test_a_site_read_through_a_link_is_not_uploaded(local_host, tmp_path, elsewhere):
    site = site_listing_a_link(tmp_path, elsewhere)
    with pytest.raises(StoreError, match=link_refused(site / "secret", "site folder")):
        send(site, local_host)
    assert listing(local_host.root) == {}


def test_a_site_whose_manifest_names_a_git_folder_is_not_uploaded(local_host, tmp_path):
    """A git work tree's hooks run code at the next commit: a tampered site manifest naming
    .git/hooks/… must not make keizer write there (the manifest counts as damaged)."""
    site = site_folder(tmp_path / "site", V1)
    hook = b"#!/bin/sh\necho owned\n"
    listed(site, ".git/hooks/post-commit", hook)
    (site / ".git" / "hooks").mkdir(parents=True)
    (site / ".git" / "hooks" / "post-commit").write_bytes(hook)
    with pytest.raises(StoreError, match="is damaged"):
        send(site, local_host)
    assert listing(local_host.root) == {} and not (local_host.root.parent / ".git" / "hooks" / "post-commit").exists()


@pytest.mark.skipif(not files._BY_DESCRIPTOR, reason="folders opened by descriptor only where the system can")
def test_a_folder_swapped_for_a_link_after_its_check_is_not_followed(tmp_path, elsewhere, monkeypatch):
    site = tmp_path / "site"
    (site / "2025-2026").mkdir(parents=True)
    real_stat, swapped = os.stat, []

    def swapping(path: object, *args: object, **kwargs: object) -> os.stat_result:
        st = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if path == "2025-2026" and not swapped:  # looked at: a folder; now it becomes a link
            swapped.append(path)
            (site / "2025-2026").rename(tmp_path / "moved")
            (site / "2025-2026").symlink_to(elsewhere, target_is_directory=True)
        return st

    monkeypatch.setattr(os, "stat", swapping)
    with pytest.raises(StoreError, match=link_refused(site / "2025-2026", "site folder")):
        write_site(site, V1, lambda rel: True)
    assert swapped and listing(elsewhere) == {"key.txt": SECRET}


def test_the_site_folder_itself_may_be_a_link(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "site").symlink_to(real, target_is_directory=True)
    assert sorted(write_site(tmp_path / "site", V1, lambda rel: True)) == sorted(V1)
    assert {rel: data for rel, data in tree(real).items() if rel != MANIFEST} == V1


# -- the stored password -----------------------------------------------------------------------


class RecordingKeyring:
    """A keyring that holds the server's password and notes every time it is asked."""

    def __init__(self, password: str):
        from keyring.backend import KeyringBackend

        outer = self
        self.asked: list[str] = []

        class Backend(KeyringBackend):
            priority = 1  # type: ignore[assignment]

            def get_password(self, service: str, username: str) -> str | None:
                outer.asked.append(username)
                return password

            def set_password(self, service: str, username: str, password: str) -> None:
                raise NotImplementedError

            def delete_password(self, service: str, username: str) -> None:
                raise NotImplementedError

        self.backend = Backend()


def test_a_stored_password_goes_only_where_the_caller_allows(tmp_path, monkeypatch, quiet_home):
    import keyring
    from pyftpdlib.handlers import FTPHandler

    heard: list[str] = []  # every password the FTP server is sent
    real_pass = FTPHandler.ftp_PASS
    monkeypatch.setattr(FTPHandler, "ftp_PASS", lambda handler, line: heard.append(line) or real_pass(handler, line))
    for host in _host("ftp", tmp_path, monkeypatch, quiet_home):  # an FTP server the web form names
        site = site_folder(tmp_path / "site", V1)
        target = parse_target(host.url)
        stored = "the club's own host's password"
        monkeypatch.setenv(PASSWORD_ENV, stored)
        with pytest.raises(UploadError, match=f"^no password for {USER}@127.0.0.1"):
            upload(site, target, stored_password=False)
        monkeypatch.delenv(PASSWORD_ENV)
        remembered = RecordingKeyring(stored)
        keyring.set_keyring(remembered.backend)
        with pytest.raises(UploadError, match=f"^no password for {USER}@127.0.0.1"):
            upload(site, target, ask=lambda: None, stored_password=False)
        assert heard == [] and remembered.asked == [] and on_host(host) == {}
        done = upload(site, target, ask=lambda: PASSWORD, stored_password=False)  # typed in the form
        assert sorted(done.sent) == sorted(V1) and heard == [PASSWORD] and remembered.asked == []
        # The command line's way (the default): the stored password goes to the target it is given.
        monkeypatch.setenv(PASSWORD_ENV, stored)
        with pytest.raises(UploadError, match="refused the login"):
            upload(site, target)
        assert heard == [PASSWORD, stored]
