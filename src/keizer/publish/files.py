"""Writing the site into its folder: page by page atomically, and removing only what keizer wrote.

Each file goes to a temporary file beside it and is renamed over the old one
(``os.replace``), so a publish that is killed leaves every page either old or
new, never half-written.  ``.keizer-manifest.json`` lists the files keizer wrote
(path → sha256 of the bytes written); a file is only ever removed when it is
listed there, lies in a part of the site this run publishes, is no longer
planned, and still holds exactly what keizer wrote.  A folder without a
manifest (published by an older keizer) thus loses nothing.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import stat
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping

from keizer.store import StoreError

MANIFEST = ".keizer-manifest.json"
_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{16}\.keizer-tmp")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_relative(path: str) -> bool:
    """A path inside the output folder: relative, forward slashes, no empty, ``.`` or ``..`` step,
    and never into a ``.git`` folder (a git work tree's hooks run code: a manifest that named one
    must not make keizer write there).

    >>> safe_relative("2026-2027/index.html"), safe_relative("../x"), safe_relative(".git/hooks/post-commit")
    (True, False, False)
    """
    parts = path.split("/")
    return "\\" not in path and ":" not in path and all(p not in ("", ".", "..") and p.casefold() != ".git"
                                                         for p in parts)


def read_manifest(outdir: Path) -> dict[str, str]:
    """The files an earlier run wrote (none if the folder has no manifest)."""
    return _read_manifest(Folder(outdir))


def _read_manifest(folder: Folder) -> dict[str, str]:
    try:
        data = folder.read(MANIFEST)
    except OSError:
        data = b""
    if data is None:
        return {}
    return parse_manifest(data, str(folder.shown / MANIFEST))["files"]


@dataclass(frozen=True)
class Previous:
    """What the runs before left: the files of the manifest (path → sha256), and from the state
    kept beside it (:func:`state_path`) their sizes, the key each page was rendered from (path →
    key), per publishing scope (the seasons of one database) the key of all its inputs, and
    when that state was written (ns; 0: there is none that goes with the manifest)."""

    files: dict[str, str]
    sizes: dict[str, int] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    written: int = 0

    def intact(self, folder: Folder, rels: Iterable[str]) -> set[str]:
        """Those of ``rels`` that are as keizer wrote them, as far as their size and time tell:
        a file of the size it was written with, last written no later than the state (which
        keizer writes after its files; an edit since, or a file put in its place, is later)."""
        wanted = [rel for rel in rels if rel in self.sizes]
        found = folder.stamps(wanted)
        return {rel for rel in wanted if rel in found and found[rel][0] == self.sizes[rel]
                and found[rel][1] <= self.written}


def cache_folder() -> Path:
    """keizer's cache folder: ``$KEIZER_CACHE``, else ``$XDG_CACHE_HOME/keizer``, else ``~/.cache/keizer``."""
    return Path(os.environ.get("KEIZER_CACHE") or str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                                                      / "keizer"))


def state_path(outdir: Path) -> Path:
    """Where what a run knows of the site in ``outdir`` is kept: in keizer's cache folder
    (:func:`cache_folder`), not in the site, which is copied to the web host as it is."""
    return cache_folder() / f"site-{hashlib.sha256(str(outdir.resolve()).encode()).hexdigest()[:32]}.json"


def kept_path(database: Path) -> Path:
    """Where the kept standings and careers of ``database`` are carried from one command to the
    next (:mod:`keizer.operations.kept_file`): in the cache folder, by the database's path."""
    return cache_folder() / f"kept-{hashlib.sha256(str(database.resolve()).encode()).hexdigest()[:32]}.pickle"


def read_previous(outdir: Path) -> Previous:
    """The manifest of ``outdir``, with the state of the run that wrote it when there is one
    (none for a folder whose manifest was written since, by another run or an older keizer)."""
    folder = Folder(outdir)
    try:
        data = folder.read(MANIFEST)
    except OSError:
        data = None
    if data is None:
        return Previous({})
    files = parse_manifest(data, str(folder.shown / MANIFEST))["files"]
    try:
        path = state_path(outdir)
        state = json.loads(path.read_bytes())
        written = path.stat().st_mtime_ns
    except (OSError, RuntimeError, ValueError):  # none, unreadable, no home folder, not JSON
        return Previous(files)
    if not isinstance(state, dict) or state.get("manifest") != digest(data) or state.get("folder") != str(outdir.resolve()):
        return Previous(files)
    keys, sizes, inputs = state.get("keys"), state.get("sizes"), state.get("inputs")
    return Previous(
        files,
        {k: v for k, v in sizes.items() if k in files and type(v) is int} if isinstance(sizes, dict) else {},
        {k: v for k, v in keys.items() if k in files and is_sha256(v)} if isinstance(keys, dict) else {},
        {k: v for k, v in inputs.items() if isinstance(k, str) and is_sha256(v)} if isinstance(inputs, dict) else {},
        written)


def _forget_state(outdir: Path) -> None:
    """No state for ``outdir`` while its files change: a killed run leaves none."""
    with suppress(OSError, RuntimeError):
        state_path(outdir).unlink(missing_ok=True)


def _keep_state(outdir: Path, folder: Folder, sizes: Mapping[str, int],
                keys: Mapping[str, str], inputs: Mapping[str, str]) -> None:
    """Keep what this run knows, bound to the manifest it leaves; written last, after the files."""
    with suppress(OSError, RuntimeError):
        manifest = folder.read(MANIFEST)
        if manifest is None:
            return
        path = state_path(outdir)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(temporary_name(path.name))
        temporary.write_text(json.dumps({"folder": str(outdir.resolve()), "manifest": digest(manifest),
                                         "sizes": dict(sorted(sizes.items())), "keys": dict(sorted(keys.items())),
                                         "inputs": dict(sorted(inputs.items()))}, indent=0), encoding="utf-8")
        os.replace(temporary, path)


def parse_manifest(data: bytes, where: str) -> dict[str, Any]:
    """A manifest's content (``files``: path → sha256, and any other keys), checked.

    A damaged one is refused: keizer then cannot tell its files from anyone else's.
    """
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        manifest = None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not all(
            isinstance(k, str) and safe_relative(k) and isinstance(v, str) and _SHA256.fullmatch(v)
            for k, v in files.items()):
        raise StoreError("%(where)s is damaged; remove it (keizer then removes no old page) and publish again",
                         where=where)
    return manifest


def is_sha256(value: object) -> bool:
    return isinstance(value, str) and _SHA256.fullmatch(value) is not None


def manifest_bytes(files: Mapping[str, str], **extra: Any) -> bytes:
    """The manifest listing ``files`` (path → sha256), sorted so that it is deterministic."""
    return (json.dumps({"keizer_manifest": 1, "files": dict(sorted(files.items())), **extra}, indent=1) + "\n").encode()


@dataclass(frozen=True)
class Kept:
    """What a run knows of the files it did not make again: ``pages`` not rendered again because
    their key is the one they were rendered from (path → key; the file is intact), the key of
    each page it rendered (path → key), the files found ``intact`` (:meth:`Previous.intact`), and
    the ``scope``'s inputs key to keep (``scope``, key; None: keep none)."""

    pages: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)
    intact: Collection[str] = frozenset()
    inputs: tuple[str, str] | None = None


def write_site(outdir: Path, files: Mapping[str, bytes], in_scope: Callable[[str], bool],
               kept: Kept = Kept()) -> list[str]:
    """Write ``files`` (path → bytes) into ``outdir``; return the paths whose bytes changed.

    The pages of ``kept.pages`` stay as they are, planned but not made again.  Files listed in
    the manifest, ``in_scope`` and no longer planned are removed (with folders they leave
    empty).  Listed files out of scope (another database's season in the same folder) stay
    listed.  A symbolic link inside ``outdir`` where keizer would read, write or remove is
    refused before anything is written.  A file found intact is compared by its digest, not read.
    """
    folder = Folder(outdir)
    previous = read_previous(outdir)
    old = previous.files
    planned = {rel: digest(data) for rel, data in files.items()}
    planned.update({rel: old[rel] for rel in kept.pages})
    intent = {**old, **planned}
    # Everything is looked at before anything is written, so that a link is refused with nothing changed.
    intact = set(kept.intact)
    changed = [rel for rel in sorted(files)
               if not (rel in intact and old.get(rel) == planned[rel]) and folder.read(rel) != files[rel]]
    final = dict(planned)
    ours = []
    for rel, sha in intent.items():
        if rel in planned:
            continue
        if not in_scope(rel):
            if folder.is_file(rel):
                final[rel] = sha
        elif _still_ours(folder, rel, sha):
            ours.append(rel)
    if changed or ours or intent != old:
        _forget_state(outdir)
    # List what is about to be written first: a killed run leaves no unlisted page of ours.
    _write_manifest(folder, old, intent)
    _remove_leftover_temporaries(folder)
    for rel in changed:
        folder.write(rel, files[rel])
    for rel in ours:
        folder.remove(rel)
        _remove_empty_folders(folder, rel)
    _write_manifest(folder, intent, final)
    keys = {rel: key for rel, key in previous.keys.items() if rel in final and rel not in planned}
    keys.update((rel, key) for rel, key in {**kept.keys, **kept.pages}.items() if rel in planned)
    # The sizes of files not made now (kept pages, other databases' seasons) stay only where the
    # files are still as they were: the state written now is later than any edit made before.
    carried = previous.intact(folder, [rel for rel in final if rel not in files])
    sizes = {rel: size for rel, size in previous.sizes.items() if rel in carried}
    sizes.update((rel, len(data)) for rel, data in files.items())
    # Another scope's inputs key stays only while this run changed nothing of its files (the
    # top of the site and static/ are every scope's).
    touched = {rel.split("/", 1)[0] if "/" in rel and not rel.startswith("static/") else "" for rel in [*changed, *ours]}
    inputs = {k: v for k, v in previous.inputs.items()
              if (kept.inputs is None or k != kept.inputs[0]) and not touched & {"", *k.split(",")}}
    inputs.update([kept.inputs] if kept.inputs is not None else [])
    _keep_state(outdir, folder, sizes, keys, inputs)
    return changed


def temporary_name(name: str, tag: str | None = None) -> str:
    """The name a file is written under before it is renamed over ``name`` (random unless tagged)."""
    return f".{name}.{tag or secrets.token_hex(8)}.keizer-tmp"


def _write_manifest(folder: Folder, before: Mapping[str, str], after: Mapping[str, str]) -> None:
    if dict(before) != dict(after) or not folder.is_file(MANIFEST):
        folder.write(MANIFEST, manifest_bytes(after))


def _still_ours(folder: Folder, rel: str, sha: str) -> bool:
    """Whether a file keizer wrote still holds what it wrote (else someone changed it: it is theirs)."""
    data = folder.read(rel)
    return data is not None and digest(data) == sha


def _remove_empty_folders(folder: Folder, rel: str) -> None:
    steps = rel.split("/")[:-1]
    while steps and folder.remove_folder("/".join(steps)):  # only an empty folder goes
        steps.pop()


def _remove_leftover_temporaries(folder: Folder) -> None:
    """Temporary files a killed run left behind (only keizer names files this way)."""
    for leftover in folder.base.rglob("*.keizer-tmp"):  # rglob enters no linked folder
        if _TEMPORARY.fullmatch(leftover.name) and leftover.is_file() and not leftover.is_symlink():
            folder.remove(leftover.relative_to(folder.base).as_posix())


# -- files below a folder, never through a symbolic link -----------------------------------------


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows opens in text mode otherwise and writes \r\n for \n
# Where folders can be opened and worked in by descriptor (not on Windows), each step starts
# from the folder checked before it: a folder swapped for a link after its check is not followed.
_BY_DESCRIPTOR = bool(_NOFOLLOW) and hasattr(os, "O_DIRECTORY") and os.open in os.supports_dir_fd \
    and os.scandir in os.supports_fd
_JUNCTION = getattr(stat, "IO_REPARSE_TAG_MOUNT_POINT", None)  # Windows: a folder link anyone may make


def _is_link(st: os.stat_result) -> bool:
    return stat.S_ISLNK(st.st_mode) or (_JUNCTION is not None and getattr(st, "st_reparse_tag", None) == _JUNCTION)


@dataclass
class _Opened:
    """A folder below the base, open: ``fd`` where the system can, else only its path."""

    path: str
    fd: int | None

    def at(self, name: str) -> str:
        """``name`` in this folder as the os functions take it along with ``dir_fd=self.fd``."""
        return name if self.fd is not None else os.path.join(self.path, name)


class Folder:
    """The files below ``base`` by relative path (``2025-2026/index.html``), never through a link.

    A symbolic link (or a Windows junction) met on the way to a file, or as the file itself,
    raises ``error``, one line naming it: nothing is read, written, renamed, listed or
    removed through it, so nothing outside ``base`` is touched.  ``base`` itself may be a
    link the user chose: it is resolved once, here.
    """

    def __init__(self, base: Path, error: type[StoreError] = StoreError, place: str = "the site folder",
                 fix: str = "remove the link or publish elsewhere") -> None:
        self.shown = base
        self.base = base.resolve()
        self.error, self.place, self.fix = error, place, fix

    def read(self, rel: str) -> bytes | None:
        """The file's bytes, or ``None`` if there is no such file (a folder is none)."""
        parent, _, name = rel.rpartition("/")
        with self._opened(parent) as here:
            st = self._lstat(here, name, rel) if here is not None else None
            if here is None or st is None or not stat.S_ISREG(st.st_mode):
                return None
            with os.fdopen(self._open(here, name, rel, os.O_RDONLY), "rb") as f:
                return f.read()

    def is_file(self, rel: str) -> bool:
        """Whether ``rel`` is a file (a link on the way or at the end is refused)."""
        parent, _, name = rel.rpartition("/")
        with self._opened(parent) as here:
            st = self._lstat(here, name, rel) if here is not None else None
        return st is not None and stat.S_ISREG(st.st_mode)

    def names(self, rel: str) -> set[str] | None:
        """The names in folder ``rel`` that are not folders (links among them), or ``None`` if it is none."""
        with self._opened(rel) as here:
            if here is None:
                return None
            with os.scandir(here.fd if here.fd is not None else here.path) as entries:
                return {e.name for e in entries if not e.is_dir(follow_symlinks=False)}

    def write(self, rel: str, data: bytes, tag: str | None = None) -> None:
        """Replace ``rel`` by ``data`` in one step (a reader sees the old or the new file).

        ``tag`` (16 hex digits) names the temporary file instead of a random one, so that a
        caller that records it can find a leftover again; a leftover of that name is replaced.
        """
        parent, _, name = rel.rpartition("/")
        temporary = temporary_name(name, tag)
        try:
            with self._opened(parent, create=True) as here:
                assert here is not None
                old = self._lstat(here, name, rel)
                self._lstat(here, temporary, f"{parent}/{temporary}" if parent else temporary)
                # 0o666 less the umask, as a plain write would create it; an existing file keeps its mode.
                fd = self._open(here, temporary, rel, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if tag else os.O_EXCL))
                try:
                    with os.fdopen(fd, "wb") as out:
                        out.write(data)
                        if old is not None and stat.S_ISREG(old.st_mode):
                            os.chmod(out.fileno() if os.chmod in os.supports_fd else os.path.join(here.path, temporary),
                                     stat.S_IMODE(old.st_mode))
                    # By path, as everywhere without folder descriptors: the temporary file is only in the
                    # folder opened above, so were that folder swapped for a link since, the rename fails.
                    os.replace(os.path.join(here.path, temporary), os.path.join(here.path, name))
                except BaseException:
                    with suppress(OSError):
                        os.unlink(here.at(temporary), dir_fd=here.fd)
                    raise
        except OSError as e:
            e.filename = str(self.shown / rel)  # not a name relative to an open folder, nor the temporary one
            raise

    def stamps(self, rels: Iterable[str]) -> dict[str, tuple[int, int]]:
        """The size and modification time (ns) of each of ``rels`` that is a file (not a link):
        one listing per folder."""
        by_folder: dict[str, set[str]] = {}
        for rel in rels:
            parent, _, name = rel.rpartition("/")
            by_folder.setdefault(parent, set()).add(name)
        found: dict[str, tuple[int, int]] = {}
        for parent, names in by_folder.items():
            with self._opened(parent) as here:
                if here is None:
                    continue
                with os.scandir(here.fd if here.fd is not None else here.path) as entries:
                    for e in entries:
                        if e.name in names and e.is_file(follow_symlinks=False):
                            st = e.stat(follow_symlinks=False)
                            found[f"{parent}/{e.name}" if parent else e.name] = (st.st_size, st.st_mtime_ns)
        return found

    def remove(self, rel: str) -> None:
        """Remove the file (nothing if it is not there)."""
        parent, _, name = rel.rpartition("/")
        with self._opened(parent) as here:
            if here is not None and self._lstat(here, name, rel) is not None:
                os.unlink(here.at(name), dir_fd=here.fd)  # which removes a link swapped in since, not its target

    def remove_folder(self, rel: str) -> bool:
        """Remove the folder if it is empty; whether it went."""
        parent, _, name = rel.rpartition("/")
        try:
            with self._opened(parent) as here:
                if here is None or self._lstat(here, name, rel) is None:
                    return False
                os.rmdir(here.at(name), dir_fd=here.fd)
        except OSError:  # not empty, or not ours to remove: it stays
            return False
        return True

    def _refused(self, rel: str) -> StoreError:
        return self.error(f"{self.shown / rel} is a symbolic link; keizer does not read or write through links in "
                          f"{self.place}: {self.fix}")

    def _lstat(self, here: _Opened, name: str, rel: str) -> os.stat_result | None:
        """``name`` in ``here`` as it is, not followed; ``None`` if it is not there; a link refused."""
        try:
            st = os.stat(here.at(name), dir_fd=here.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if _is_link(st):
            raise self._refused(rel)
        return st

    def _open(self, here: _Opened, name: str, rel: str, flags: int) -> int:
        try:
            return os.open(here.at(name), flags | _NOFOLLOW | _BINARY, 0o666, dir_fd=here.fd)
        except OSError:
            self._lstat(here, name, rel)  # a link put there since it was looked at: refused as one
            raise

    @contextmanager
    def _opened(self, rel: str, create: bool = False) -> Iterator[_Opened | None]:
        """Folder ``rel`` (``""``: the base) open, every step below the base checked, or ``None``
        if it is not there (or not a folder); with ``create``, the missing folders are made."""
        here = self._walk(rel, create)
        try:
            yield here
        finally:
            if here is not None:
                self._close(here)

    def _walk(self, rel: str, create: bool) -> _Opened | None:
        if create:
            self.base.mkdir(parents=True, exist_ok=True)  # the base and above: the user's own folders
        try:
            here = _Opened(str(self.base), os.open(self.base, os.O_RDONLY | os.O_DIRECTORY) if _BY_DESCRIPTOR else None)
        except (FileNotFoundError, NotADirectoryError):
            return None
        if here.fd is None and not self.base.is_dir():
            return None
        steps = rel.split("/") if rel else []
        try:
            for done, step in enumerate(steps, 1):
                so_far = "/".join(steps[:done])
                st = self._lstat(here, step, so_far)
                if st is None and create:
                    with suppress(FileExistsError):  # made in the meantime: looked at again below
                        os.mkdir(here.at(step), dir_fd=here.fd)
                    st = self._lstat(here, step, so_far)
                if st is None or not stat.S_ISDIR(st.st_mode):
                    if create:
                        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(self.shown / so_far))
                    self._close(here)
                    return None
                inner = _Opened(os.path.join(here.path, step), None)
                if here.fd is not None:
                    inner.fd = self._open(here, step, so_far, os.O_RDONLY | os.O_DIRECTORY)
                self._close(here)
                here = inner
        except BaseException:
            self._close(here)
            raise
        return here

    @staticmethod
    def _close(here: _Opened) -> None:
        if here.fd is not None:
            os.close(here.fd)
            here.fd = None
