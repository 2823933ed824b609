"""The evening as it happens: after each result entered in the app, the site is published again
and sent to the club's web host, so members at home see the round fill in ("provisional, 7 of
15 results in", the provisional standing) within a minute.

It runs only when the club has an upload address the app may send to by itself: the address
set or used in a terminal (``keizer club --upload URL``, ``keizer publish --upload``), whose
password the server holds (``$KEIZER_UPLOAD_PASSWORD`` or the keyring; never one typed in a
form).  The site goes into the club's site folder (the Publish page's); only the current
season is published again (a result goes into it; earlier seasons stay as they are),
publishing renders only the pages whose inputs changed and writes only the files that
changed, and the upload sends only those.  The work is done in a thread of
its own, one run at a time per database: results entered while a run is busy are published by
one more run after it, so a burst of results costs two runs, not one each.  A failure (the host
down, a wrong password) is logged on the server's error stream and tried again with the next
result; it never stops the result from being entered.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from keizer.formats.targets import parse_target
from keizer.operations.club import SITE_FOLDER, club_settings, live_target
from keizer.publish import publish
from keizer.publish.upload import Uploaded, upload
from keizer.store import Store

log = logging.getLogger(__name__)


def site_folder(store: Store, db: Path) -> Path:
    """Where the app publishes: the club's site folder, else ``site`` beside the database."""
    kept = store.get_meta(SITE_FOLDER)
    return Path(kept) if kept else db.resolve().parent / "site"


def current_season(store: Store) -> tuple[str, ...] | None:
    """The season the evening's results go into: the club's season when a competition is of it,
    else the newest (as the front page shows it); None when there is no competition."""
    seasons = {row["season"] for row in store.competitions()}
    if not seasons:
        return None
    season = club_settings(store)["season"]
    return (season if season in seasons else max(seasons),)


def republish(db: Path) -> Uploaded | None:
    """Publish the site into the club's site folder and send what changed to its live target
    (None: the club has none)."""
    store = Store.open(db)
    try:
        target = live_target(store)
        if target is None:
            return None
        folder = site_folder(store, db)
        publish(store, folder, seasons=current_season(store))
    finally:
        store.close()
    return upload(folder, parse_target(target), ask=lambda: None, stored_password=True)


@dataclass
class _Runner:
    """One database's republishing: the thread at work and whether another run is wanted."""

    pending: bool = False
    thread: threading.Thread | None = None
    done: threading.Condition = field(default_factory=threading.Condition)
    runs: int = 0


_runners: dict[Path, _Runner] = {}
_lock = threading.Lock()


def result_entered(store: Store, db: Path) -> bool:
    """A result was entered in ``db``: republish in the background when the club has a live
    target.  Says whether a run was started or asked for."""
    if live_target(store) is None:
        return False
    key = db.resolve()
    with _lock:
        runner = _runners.setdefault(key, _Runner())
        runner.pending = True
        if runner.thread is None:
            runner.thread = threading.Thread(target=_work, args=(key, runner), name="keizer-live-publish",
                                             daemon=True)
            runner.thread.start()
    return True


def _work(db: Path, runner: _Runner) -> None:
    while True:
        with _lock:
            if not runner.pending:
                runner.thread = None
                break
            runner.pending = False
        try:
            done = republish(db)
            if done is not None:
                log.info("keizer: live publish of %s: %s files sent", db.name, len(done.sent))
        except Exception as e:  # noqa: BLE001 - a failed upload must not end the thread: the next result tries again
            log.warning("keizer: the site was not sent after the result: %s", e)
        with runner.done:
            runner.runs += 1
            runner.done.notify_all()
    with runner.done:
        runner.done.notify_all()


def wait(db: Path, timeout: float = 30) -> int:
    """Wait until no republish of ``db`` is running or wanted; how many runs have been made."""
    key = db.resolve()
    runner = _runners.get(key)
    if runner is None:
        return 0
    with runner.done:
        runner.done.wait_for(lambda: runner.thread is None and not runner.pending, timeout)
        return runner.runs
