"""The folders of earlier test runs removed while this run works, not after it.

pytest keeps the temporary folders of the last ``tmp_path_retention_count`` runs (3) and, as a
run ends, removes the older ones: some 34,000 files of published sites, 3-4 s of waiting on
the disk with the tests already done, in every run (a tenth of a developer's quick run).  The
same folders are removed here, by a process started as the run starts (not a thread: keizer
forks its page renderers only where no other thread runs, and a test may count them): the disk works while
the tests do, and pytest's own clean-up at the end finds nothing left to remove.  Only what
pytest would remove is touched: numbered folders older than those it keeps, and the
``garbage-*`` folders of an interrupted removal, never one whose ``.lock`` says a run (another
checkout's, at the same moment) still uses it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

_NUMBERED = re.compile(r"pytest-(\d+)")


def _unused(folder: Path) -> bool:
    """No run holds ``folder`` (pytest writes ``.lock`` in a run's folder while the run lasts)."""
    return not folder.is_symlink() and not (folder / ".lock").exists()


def _older_runs(current: Path, keep: int) -> list[Path]:
    """The folders beside ``current`` that pytest would remove at the end of this run."""
    number = _NUMBERED.fullmatch(current.name)
    if number is None:
        return []
    last = int(number.group(1))
    found = []
    for folder in current.parent.iterdir():
        match = _NUMBERED.fullmatch(folder.name)
        old = match is not None and int(match.group(1)) <= last - keep
        if (old or folder.name.startswith("garbage-")) and folder.is_dir() and _unused(folder):
            found.append(folder)
    return found


def _renamed(folders: list[Path]) -> list[Path]:
    """``folders`` renamed as pytest does before removing one, so that no run takes a
    half-removed folder for its own (those another process renamed first are left to it)."""
    gone = []
    for folder in folders:
        target = folder.with_name(f"garbage-{uuid.uuid4()}")
        try:
            folder.rename(target)
        except OSError:
            continue
        gone.append(target)
    return gone


_REMOVING: list[subprocess.Popen[bytes]] = []


def start_removing(config: pytest.Config) -> None:
    """In the process that runs the session (pytest-xdist's controller, or the only one): start
    removing the older runs' folders, unless ``--basetemp`` chose the folder."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None or config.option.basetemp:
        return
    keep = int(config.getini("tmp_path_retention_count"))
    folders = _renamed(_older_runs(factory.getbasetemp(), keep))
    if folders:
        _REMOVING.append(subprocess.Popen([sys.executable, __file__, *map(str, folders)]))


def finish_removing() -> None:
    """Wait for the removal, before pytest's own clean-up would start the same work again."""
    while _REMOVING:
        _REMOVING.pop().wait()


if __name__ == "__main__":
    for name in sys.argv[1:]:
        shutil.rmtree(name, ignore_errors=True)
