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

import hashlib
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any, Callable, Mapping

from keizer.store import StoreError

MANIFEST = ".keizer-manifest.json"
_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{16}\.keizer-tmp")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_relative(path: str) -> bool:
    """A path inside the output folder: relative, forward slashes, no empty, ``.`` or ``..`` step."""
    parts = path.split("/")
    return "\\" not in path and ":" not in path and all(p not in ("", ".", "..") for p in parts)


def read_manifest(outdir: Path) -> dict[str, str]:
    """The files an earlier run wrote (none if the folder has no manifest)."""
    path = outdir / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    return parse_manifest(data, str(path))["files"]


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
        raise StoreError(f"{where} is damaged; remove it (keizer then removes no old page) and publish again")
    return manifest  # type: ignore[return-value]


def is_sha256(value: object) -> bool:
    return isinstance(value, str) and _SHA256.fullmatch(value) is not None


def manifest_bytes(files: Mapping[str, str], **extra: Any) -> bytes:
    """The manifest listing ``files`` (path → sha256), sorted so that it is deterministic."""
    return (json.dumps({"keizer_manifest": 1, "files": dict(sorted(files.items())), **extra}, indent=1) + "\n").encode()


def write_site(outdir: Path, files: Mapping[str, bytes], in_scope: Callable[[str], bool]) -> list[str]:
    """Write ``files`` (path → bytes) into ``outdir``; return the paths whose bytes changed.

    Files listed in the manifest, ``in_scope`` and no longer in ``files`` are removed
    (with folders they leave empty).  Listed files out of scope (another database's
    season in the same folder) stay listed.
    """
    old = read_manifest(outdir)
    planned = {rel: digest(data) for rel, data in files.items()}
    # List what is about to be written first: a killed run leaves no unlisted page of ours.
    intent = {**old, **planned}
    _write_manifest(outdir, old, intent)
    _remove_leftover_temporaries(outdir)
    written = []
    made: set[Path] = set()  # folders known to exist: a large site has a thousand files in a few
    for rel, data in sorted(files.items()):
        target = outdir / rel
        if target.is_file() and target.read_bytes() == data:
            continue
        write_atomic(target, data, folder_exists=target.parent in made)
        made.add(target.parent)
        written.append(rel)
    final = {}
    for rel, sha in intent.items():
        if rel in files:
            final[rel] = sha
        elif not in_scope(rel):
            if (outdir / rel).is_file():
                final[rel] = sha
        else:
            _remove_if_ours(outdir, rel, sha)
    _write_manifest(outdir, intent, final)
    return written


def temporary_name(name: str, tag: str | None = None) -> str:
    """The name a file is written under before it is renamed over ``name`` (random unless tagged)."""
    return f".{name}.{tag or secrets.token_hex(8)}.keizer-tmp"


def write_atomic(target: Path, data: bytes, tag: str | None = None, folder_exists: bool = False) -> None:
    """Replace ``target`` by ``data`` in one step (a reader sees the old or the new file).

    ``tag`` (16 hex digits) names the temporary file instead of a random one, so that a
    caller that records it can find a leftover again; a leftover of that name is replaced.
    """
    if not folder_exists:
        target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(temporary_name(target.name, tag))
    # 0o666 less the umask, as a plain write would create it; an existing file keeps its mode.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if tag else os.O_EXCL), 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        if target.is_file():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_manifest(outdir: Path, before: Mapping[str, str], after: Mapping[str, str]) -> None:
    if dict(before) != dict(after) or not (outdir / MANIFEST).is_file():
        write_atomic(outdir / MANIFEST, manifest_bytes(after))


def _remove_if_ours(outdir: Path, rel: str, sha: str) -> None:
    """Remove a file keizer wrote, unless someone changed it since (then it is theirs)."""
    target = outdir / rel
    if target.is_symlink() or not target.is_file() or digest(target.read_bytes()) != sha:
        return
    target.unlink()
    folder = target.parent
    while folder != outdir:
        try:
            folder.rmdir()  # only an empty folder goes
        except OSError:
            break
        folder = folder.parent


def _remove_leftover_temporaries(outdir: Path) -> None:
    """Temporary files a killed run left behind (only keizer names files this way)."""
    for leftover in outdir.rglob("*.keizer-tmp"):
        if _TEMPORARY.fullmatch(leftover.name) and leftover.is_file() and not leftover.is_symlink():
            leftover.unlink()
