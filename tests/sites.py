"""A published site as a test's set-up: published once per test process, copied after.

Many tests publish a site before the step they test (an upload, a second publish, an edit by
hand, the feeds or pages they read), most of them the untouched sample club: some 0.3 s of CPU
each, the same site again and again (36 of the 89 fresh publishes of the publishing tests).
:func:`published_once` publishes for real the first time a test asks for a site and keeps a
copy of it; a later test that asks for the same site into an empty folder gets the copy,
with what keizer keeps of a site it wrote (its state in ``$KEIZER_CACHE``,
:func:`keizer.publish.files.state_path`) bound to the new folder, and the outcome the real
publish returned.  The folder is then as the real publish leaves it: the same files, byte for
byte, keizer's manifest, and a state written after the files, so that the next publish
renders only what changed, as after a real one.

"The same site" is the same database contents as the site shows them (every table but those
:data:`keizer.publish.keys.NOT_SHOWN` lists: the change log, accounts, links — what the
product's own "nothing changed" check leaves out too), the same language and seasons, and no
club template folder (a site with one is always published).  A test of a fresh publish itself
(what it renders, writes or returns, its speed or its parallel rendering) calls
:func:`keizer.publish.publish` as before; so does any publish into a folder that is not empty.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Collection
from hashlib import sha256
from pathlib import Path

from keizer.operations.club import club_settings
from keizer.publish import Published, publish
from keizer.publish.files import state_path
from keizer.publish.keys import NOT_SHOWN
from keizer.store import Store

#: This process's published sites, each kept in a folder of its own, removed when it ends.
_KEPT = Path(tempfile.mkdtemp(prefix="keizer-test-sites-"))
atexit.register(shutil.rmtree, _KEPT, True)
_SITES: dict[str, tuple[Path, dict[str, object], Published]] = {}


def published_from_file(db: Path, outdir: Path) -> Path:
    """:func:`published_once` of the club in the file ``db`` into ``outdir``; ``outdir``."""
    store = Store.open(db)
    try:
        published_once(store, outdir)
    finally:
        store.close()
    return outdir


def published_once(store: Store, outdir: Path, language: str | None = None,
                   seasons: Collection[str] | None = None) -> Published:
    """``publish(store, outdir, language=language, seasons=seasons)`` for a test that needs the
    site only as its set-up: the first time for real, after that a copy when ``outdir`` is
    empty or absent and the site is the same (see the module's note)."""
    if not _fresh(outdir) or club_settings(store)["templates"]:
        return publish(store, outdir, language=language, seasons=seasons)
    key = sha256(json.dumps([store.contents_digest(NOT_SHOWN), language,
                             None if seasons is None else sorted(seasons)]).encode()).hexdigest()
    if key not in _SITES:
        done = publish(store, outdir, language=language, seasons=seasons)
        try:
            state = json.loads(state_path(outdir).read_bytes())
        except OSError:  # no state kept (a write meanwhile): nothing to copy next time
            return done
        kept = _KEPT / key
        shutil.copytree(outdir, kept, symlinks=True)
        _SITES[key] = (kept, state, done)
        return done
    kept, state, done = _SITES[key]
    shutil.copytree(kept, outdir, symlinks=True, dirs_exist_ok=True)  # the files keep their times
    # The state last, as keizer writes it: later than every file, bound to this folder.
    path = state_path(outdir)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps({**state, "folder": str(outdir.resolve())}, indent=0), encoding="utf-8")
    os.replace(temporary, path)
    return done


def _fresh(outdir: Path) -> bool:
    """A folder a publish would start afresh in: absent or empty, with no state kept for it."""
    if outdir.exists() and (not outdir.is_dir() or any(outdir.iterdir())):
        return False
    return not state_path(outdir).exists()
