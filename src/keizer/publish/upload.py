"""Uploading the published site to the club's web host: only what changed, only keizer's files removed.

The site is deterministic, so a page whose SHA-256 the host's ``.keizer-manifest.json``
already lists is not sent again.  That manifest (the same format as the local folder's,
:mod:`keizer.publish.files`) lists what keizer put on the host, and only a file listed
there is ever removed, and only when it still holds what keizer sent: a file someone put
on the host, or changed there, is left alone.

An upload can be cut off at any moment and then resumes.  Before the first file is sent
the manifest moves every file about to be sent to ``sending`` (path → the contents it may
hold: the old or the new); each file goes to a temporary name that is then renamed over
the old one; at least every few seconds the files confirmed so far move back to
``files``.  So the host's manifest never says a file is up to date that is not, never
forgets a file keizer put there, and the next run sends what is unsure and removes the
temporary files a cut-off run left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from keizer.publish.files import (MANIFEST, Folder, digest, is_sha256, manifest_bytes, parse_manifest, read_manifest,
                                  safe_relative)
from keizer.formats.targets import Target, UploadError
from keizer.publish.transports import Transport, connect, password_from_store, temporary_path
from keizer.store import StoreError

#: Seconds between two writes of the host's manifest while files are being sent: what a
#: cut-off upload sends again at most, against a manifest sent after every file.
FLUSH_SECONDS = 3.0
_MANIFEST_TAG = "0" * 16  # the manifest's temporary name is always the same: a leftover is replaced


@dataclass(frozen=True)
class Uploaded:
    where: str
    sent: tuple[str, ...]
    removed: tuple[str, ...]
    kept: tuple[str, ...]  # listed as keizer's, no longer planned, but changed on the host: left alone
    unchanged: int
    in_the_way: tuple[str, ...] = ()  # files keizer did not put on the host, with the name of one it sends
    commit: str | None = None
    dry_run: bool = False


@dataclass
class _HostState:
    """What keizer put on the host: ``files`` for certain, ``sending`` one of a few contents."""

    files: dict[str, str]
    sending: dict[str, set[str]] = field(default_factory=dict)

    def possible(self, rel: str) -> set[str]:
        return {self.files[rel]} if rel in self.files else self.sending.get(rel, set())

    def ours(self) -> set[str]:
        return set(self.files) | set(self.sending)

    def forget(self, rel: str) -> None:
        self.files.pop(rel, None)
        self.sending.pop(rel, None)

    def encoded(self) -> bytes:
        sending = {p: sorted(s) for p, s in sorted(self.sending.items())}
        return manifest_bytes(self.files, **({"sending": sending} if sending else {}))


def local_site(site: Path) -> dict[str, bytes]:
    """The files keizer wrote into the local site folder (its manifest lists them), as they are now."""
    listed = read_manifest(site)
    if not listed:
        raise UploadError("%(site)s holds no site keizer published", hint="upload_publish_first", site=site)
    folder = Folder(site)  # a link in the site is refused: what it leads to is not the site, and would go public
    return {rel: data for rel in listed if (data := folder.read(rel)) is not None}


def upload(site: Path, target: Target, ask: Callable[[], str | None] | None = None, dry_run: bool = False,
           resend: bool = False, replace: bool = False, progress: Callable[[int, int], None] | None = None,
           transport: Callable[[Target, str | None, Callable[[], str | None] | None], Transport] = connect,
           flush_seconds: float | None = None, stored_password: bool = True) -> Uploaded:
    """Bring the host's copy of ``site`` up to date (or, with ``dry_run``, say what that would do).

    ``ask`` is asked for the password when neither ``$KEIZER_UPLOAD_PASSWORD`` nor the
    system keyring has one and the host wants one; without ``stored_password`` neither is
    looked at, only ``ask`` (a target someone else typed must not receive the stored
    password of the club's host); ``resend`` sends every file, also
    those the host's manifest lists as up to date (after files were changed on the host).
    A file keizer did not put on the host is never replaced unless ``replace`` says so
    (one that already holds what keizer would send is taken as keizer's).
    """
    flush_seconds = FLUSH_SECONDS if flush_seconds is None else flush_seconds
    if target.kind in ("folder", "git") and Path(target.path).resolve().is_relative_to(site.resolve()):
        raise UploadError("the upload folder %(folder)s lies in the site folder %(site)s; give another folder",
                          folder=target.path, site=site)
    local = local_site(site)
    wanted = {rel: digest(data) for rel, data in local.items()}
    with transport(target, password_from_store(target) if stored_password else None, ask) as host:
        state = _read_state(host)
        send = sorted((p for p in wanted if resend or state.files.get(p) != wanted[p]), key=_sending_order)
        candidates = sorted(state.ours() - set(wanted))
        adopted, in_the_way = _already_there(host, [p for p in send if p not in state.ours()], wanted)
        send = [p for p in send if p not in adopted]
        for rel in adopted:
            state.files[rel] = wanted[rel]
        unchanged = len(wanted) - len(send)
        # What would be refused on the way is refused before anything is written.
        for rel in send:
            host.check(rel, _tag(wanted[rel]))
        removed, kept = _removable(host, state, candidates)
        if dry_run:
            sent = tuple(p for p in send if replace or p not in in_the_way)
            return Uploaded(host.where, sent, tuple(removed), tuple(kept), unchanged, tuple(in_the_way), dry_run=True)
        if in_the_way and not replace:
            if len(in_the_way) == 1:
                raise UploadError("1 file on %(where)s that keizer did not put there would be replaced (the first: "
                                  "%(first)s); upload into a folder of its own (…/schaak)", hint="upload_replace",
                                  where=host.where, first=in_the_way[0])
            raise UploadError("%(n)s files on %(where)s that keizer did not put there would be replaced (the first: "
                              "%(first)s); upload into a folder of its own (…/schaak)", hint="upload_replace",
                              n=len(in_the_way), where=host.where, first=in_the_way[0])
        if state.sending:  # a run that was cut off: its temporary files are named by what they held
            for rel, contents in state.sending.items():
                for sha in contents:
                    host.remove(temporary_path(rel, _tag(sha)))
        # A run cut off while it rewrote the manifest (also its last rewrite, when nothing was being
        # sent any more) left the manifest's own temporary file.
        host.remove(temporary_path(MANIFEST, _MANIFEST_TAG))
        if send or adopted:
            for rel in send:
                state.sending[rel] = state.possible(rel) | {wanted[rel]}
                state.files.pop(rel, None)
            _write_state(host, state)
            last = time.monotonic()
            confirmed: list[str] = []
            for done, rel in enumerate(send, 1):
                host.put(rel, local[rel], _tag(wanted[rel]))
                confirmed.append(rel)
                if progress:
                    progress(done, len(send))
                if done == len(send) or time.monotonic() - last >= flush_seconds:
                    for path in confirmed:
                        del state.sending[path]
                        state.files[path] = wanted[path]
                    _write_state(host, state)
                    last, confirmed = time.monotonic(), []
        for rel in removed:
            host.remove(rel)
            _prune(host, rel)
        if candidates:
            for rel in candidates:
                state.forget(rel)
            _write_state(host, state)
        commit = host.finish(_summary(send, removed))
        return Uploaded(host.where, tuple(send), tuple(removed), tuple(kept), unchanged, tuple(in_the_way), commit)


def _read_state(host: Transport) -> _HostState:
    data = host.read(MANIFEST)
    if data is None:
        return _HostState({})  # a folder keizer never uploaded to: nothing in it is keizer's
    where = f"{MANIFEST} on {host.where}"
    try:
        manifest = parse_manifest(data, where)
    except StoreError:
        raise UploadError("%(where)s is damaged; remove it there (keizer then removes nothing it sent before and "
                          "sends every file) and upload again", where=where) from None
    sending = manifest.get("sending", {})
    if not isinstance(sending, dict) or not all(
            isinstance(k, str) and safe_relative(k) and isinstance(v, list) and v and all(map(is_sha256, v))
            for k, v in sending.items()):
        raise UploadError("%(where)s is damaged; remove it there (keizer then removes nothing it sent before and "
                          "sends every file) and upload again", where=where)
    files = {k: v for k, v in manifest["files"].items() if k not in sending}
    return _HostState(files, {k: set(v) for k, v in sending.items()})


def _write_state(host: Transport, state: _HostState) -> None:
    host.put(MANIFEST, state.encoded(), _MANIFEST_TAG)


def _already_there(host: Transport, new: list[str], wanted: dict[str, str]) -> tuple[list[str], list[str]]:
    """Of files keizer is about to put on the host for the first time, those that are there already:
    holding what keizer would send (taken as keizer's), or something else (someone else's)."""
    listings: dict[str, set[str] | None] = {}
    adopted: list[str] = []
    in_the_way: list[str] = []
    for rel in sorted(new):
        folder, _, name = rel.rpartition("/")
        if folder not in listings:
            listings[folder] = host.names(folder)
        if name in (listings[folder] or ()):
            data = host.read(rel)  # None: listed but not a file keizer can read (a folder): in the way
            (adopted if data is not None and digest(data) == wanted[rel] else in_the_way).append(rel)
    return adopted, in_the_way


def _removable(host: Transport, state: _HostState, candidates: list[str]) -> tuple[list[str], list[str]]:
    """Of keizer's files no longer planned: those still as keizer sent them, and those changed since."""
    removable: list[str] = []
    kept: list[str] = []
    for rel in candidates:
        data = host.read(rel)
        if data is None:
            continue  # already gone
        (removable if digest(data) in state.possible(rel) else kept).append(rel)
    return removable, kept


def _prune(host: Transport, rel: str) -> None:
    """Remove the folders ``rel`` leaves empty (a folder that holds anything else stays)."""
    steps = rel.split("/")[:-1]
    while steps and host.remove_folder("/".join(steps)):
        steps.pop()


def _sending_order(rel: str) -> tuple[bool, int, bool, str]:
    """Style sheets and images first, then the deepest pages, each folder's index last: while an
    upload runs, a page that is already new links to pages that are already there."""
    return (not rel.startswith("static/"), -rel.count("/"), rel.endswith("index.html"), rel)


def _tag(sha: str) -> str:
    """The tag of a file's temporary name: from its content, so that a cut-off run's is found again."""
    return sha[:16]


def _summary(sent: list[str], removed: list[str]) -> str:
    return f"keizer publish: {len(sent)} file{'s' * (len(sent) != 1)} sent, {len(removed)} removed"
