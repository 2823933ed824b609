"""The kept standings and careers of a database carried from one process to the next (issue 25).

A process keeps each competition's standings (:mod:`keizer.kept`) and every member's career
(:mod:`keizer.operations.kept_careers`) from one state of the file to the next; a command is a
new process, and ``keizer result …`` followed by ``keizer publish site/`` computed every
standing and career again.  :func:`keep` writes what the process keeps of a database to a file
(the caller names it: keizer's cache folder, by the database's path), :func:`restore` gives it
to the next process.

What is restored is used as the process's own memory is: checked against the file's
contents, not trusted.  A kept standing is compared with the season the store reads (the
settings, the players, the initial order and every round, by value) and computed again from
the first round that differs; a kept career with the member, the member's games and
competitions and the club rating's periods.  So a file written by another program, a backup
put back, another database copied to the same path cost a computation (as much as from
scratch when everything differs), never a wrong standing: the property tests
``tests/test_kept_file.py`` edit a season through separate "processes" and compare with
the standings and careers computed from scratch.

The file itself is trusted only as far as it is keizer's own, whole and of this keizer:

* a header names the format, the code it was written by (a digest of keizer's code and the
  Python running it: another keizer's classes may differ), the database's path and the
  SHA-256 and length of the data: a damaged, truncated, foreign or older file is ignored
  (and replaced by the next :func:`keep`);
* on POSIX it must belong to the user and be writable by nobody else (as OpenSSH asks of its
  configuration), so no other user can plant one;
* the data is a pickle (the kept objects are some 300,000 dataclasses, fractions and
  integers at 600 players × 52 rounds, 17 MB, made by C code in about 0.3 s; a format of our
  own would need a writer and a reader for each of some twenty classes, kept in step with
  them), read by an unpickler that finds only the classes of keizer's pure layer (data and
  engines: no database, file, terminal or template) and two helpers of its own: a planted file
  cannot name a function, a module or a class of the outside world, so it cannot run code,
  whatever it holds.  What cannot be read, or is not what :func:`keep` writes, is ignored.

The collector is off while the file is read (none of its objects is garbage: it would walk
them three times over, 0.86 → 0.3 s) and they are frozen out of its sight until the run ends
(:func:`release`).  :func:`worth_keeping` says when a run should write the file again: once a
round, not once a result.

The rounds read (:mod:`keizer.store.rounds_read`, each with its stamp) are written in the same
pickle as the standings and careers made of them: the next process reads only the rounds whose
stamp changed, and the rounds it takes are the objects its kept seasons and the careers' games
of each round hold, compared by identity (a round is taken only while the file holds its stamp;
a round without one is not written).  What views made of a version (``Kept.memo``) is not
written; the rating's game of each game is written as pairs (the process keeps it by the game's
id, which is its own).
"""

from __future__ import annotations

import copy
import copyreg
import gc
import hashlib
import importlib
import io
import json
import math
import os
import pickle
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Hashable

from keizer.kept import Kept, first_change
from keizer.model import Round, Season
from keizer.operations.careers import PlayedGame
from keizer.operations.kept_careers import CareersKept, same_prefix, adopt_careers, careers_kept
from keizer.operations.standings import adopt, kept_of
from keizer.rating import club
from keizer.store import Store, rounds_read
from keizer.store.rounds_read import RoundsKept

#: The first line of a kept file, and the format of what follows.
MAGIC = b"keizer kept read models\n"
FORMAT = 2

#: The modules whose classes a kept file may name: keizer's pure layer (data and engines, no
#: database, file, terminal or template: ``tests/test_layers.py``) and the careers' data.
_PURE = ("keizer.model", "keizer.colour", "keizer.i18n", "keizer.refusals", "keizer.readmodel", "keizer.ladder",
         "keizer.limits", "keizer.settings", "keizer.scoring", "keizer.points", "keizer.earned", "keizer.kept",
         "keizer.packed", "keizer.pairing", "keizer.tiebreaks", "keizer.output", "keizer.rating")
_DATA = ("keizer.operations.careers", "keizer.operations.kept_careers")


def _data_module(module: str) -> bool:
    return module in _DATA or any(module == p or module.startswith(p + ".") for p in _PURE)


def _fraction(numerator: int, denominator: int) -> Fraction:
    """A fraction from its lowest terms (pickle writes a Fraction as its text, read back by a regular expression)."""
    if type(numerator) is not int or type(denominator) is not int or denominator <= 0 \
            or math.gcd(numerator, denominator) != 1:
        raise pickle.UnpicklingError("not a fraction in lowest terms")
    made = Fraction.__new__(Fraction)
    made._numerator, made._denominator = numerator, denominator  # type: ignore[attr-defined]
    return made


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping (the club rating's state holds them)."""
    if type(items) is not dict:
        raise pickle.UnpicklingError("not a mapping")
    return MappingProxyType(items)


_HELPERS: dict[tuple[str, str], Callable[..., object]] = {
    (__name__, "_fraction"): _fraction, (__name__, "_proxy"): _proxy}


class _Reader(pickle.Unpickler):
    """An unpickler that finds keizer's data classes and the helpers above, nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        helper = _HELPERS.get((module, name))
        if helper is not None:
            return helper
        if _data_module(module) and name.isidentifier():
            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"a kept file may not name {module}.{name}")


def _writer(out: io.BytesIO) -> pickle.Pickler:
    writer = pickle.Pickler(out, protocol=5)
    writer.dispatch_table = {**copyreg.dispatch_table,
                             Fraction: lambda f: (_fraction, (f.numerator, f.denominator)),
                             MappingProxyType: lambda m: (_proxy, (dict(m),))}
    return writer


def _header(store: Store, version: str, data: bytes) -> dict[str, Any]:
    return {"format": FORMAT, "version": version, "python": sys.version, "database": str(Path(str(store.path)).resolve()),
            "length": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def mark(store: Store) -> Hashable:
    """What the process keeps of ``store`` now, as a value that changes when that does (a
    :func:`keep` after :func:`restore` with the same mark would write the same)."""
    careers = careers_kept(store)
    return (tuple(sorted((comp, kept.version) for comp, kept in kept_of(store).items())),
            None if careers is None else (tuple(map(id, careers.found.values())), tuple(map(id, careers.states))))


def keep(store: Store, path: Path, version: str, extra: object = None) -> bool:
    """Write what this process keeps of ``store``'s file to ``path`` (``version``: the code's
    digest; ``extra``: what the caller keeps beside it, written in the same pickle so that it
    may share its objects).  Nothing is written for a database in memory; a folder that cannot
    be written is left as it is (False)."""
    if store.path is None:
        return False
    standings = {}
    for comp, kept in kept_of(store).items():
        if kept.season is None:
            continue
        mine = copy.copy(kept)
        mine.memo = {}  # what views made of the version: their own objects
        standings[comp] = mine
    careers = careers_kept(store)
    club_games = []
    if careers is not None:  # the rating's game of each game: by the game's id, which is the process's own
        club_games = list(careers.club_games.values())
        careers = replace(careers, club_games={})
    # The rounds read (by their stamps), in the same pickle as the standings and careers made
    # of them: the next process reads only the rounds whose stamp changed, and the rounds it
    # takes are the objects the kept seasons and the careers' games hold.
    rounds = {comp: (held.players, held.rounds) for comp, held in rounds_read.held_for(store.path).items()}
    out = io.BytesIO()
    try:
        _writer(out).dump({"standings": standings, "careers": careers, "extra": extra, "rounds": rounds,
                           "club_games": club_games})
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return False
    data = out.getvalue()
    head = json.dumps(_header(store, version, data), sort_keys=True).encode() + b"\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as f:
                f.write(MAGIC + head)
                f.write(data)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError:
        return False
    _note(store, standings, careers)
    return True


#: Whether restore() froze the objects of the process (gc.freeze), for release().
_frozen: list[bool] = []


def release() -> None:
    """Let the collector look at the objects :func:`restore` read again (at the end of the run)."""
    if _frozen:
        _frozen.clear()
        gc.unfreeze()


def restore(store: Store, path: Path, version: str) -> tuple[bool, object]:
    """Take what :func:`keep` wrote to ``path`` for ``store``'s file as this process's kept
    standings and careers (where the process keeps none yet); (False, None) when there is no
    such file or it is not to be trusted (damaged, truncated, another database's, another
    keizer's, another user's, not what :func:`keep` writes), else (True, the ``extra`` kept)."""
    if careers_kept(store) is not None:  # this process keeps them already (what it keeps is as new as the file)
        return True, None
    found = read(store, path, version)
    if found is None:
        return False, None
    for comp, (players, rounds) in found["rounds"].items():
        rounds_read.take(store.path, comp, RoundsKept(players, rounds))
    for comp, kept in found["standings"].items():
        adopt(store, comp, kept)
    if found["careers"] is not None:
        found["careers"].club_games = {id(game): (game, made) for game, made in found["club_games"]}
        adopt_careers(store, found["careers"])
    _note(store, found["standings"], found["careers"])
    return True, found["extra"]


def _note(store: Store, standings: dict[int, Kept], careers: CareersKept | None) -> None:
    """What the file holds now (read or written by this process), for :func:`worth_keeping`."""
    _restored[str(store.path)] = ({comp: kept.season for comp, kept in standings.items()},
                                  None if careers is None else careers.periods)


#: What :func:`restore` took, by database: each competition's season and the careers' rating periods.
_restored: dict[str, tuple[dict[int, Season | None], tuple[club.Period, ...] | None]] = {}

#: How many careers a run may make again (those of the members whose games changed since the
#: file was written) before the file is written again.
MADE_AGAIN = 40


def worth_keeping(store: Store) -> bool:
    """Whether :func:`keep` should write the file again: nothing was restored, or what was is
    now behind by more than the last round of a competition or the last rating period, or by
    more than :data:`MADE_AGAIN` careers.  A club evening's results, entered and published one
    at a time, all change the last round: each run redoes that round from the same file, and
    the file is written once per round, not once per result (writing it costs more than
    redoing one round)."""
    restored = _restored.get(str(store.path))
    if restored is None:
        return True
    seasons, periods = restored
    for comp, kept in kept_of(store).items():
        if kept.season is None:
            continue
        before = seasons.get(comp)
        if before is None:
            return True
        first = first_change(before, kept.season)
        if first is not None and first < len(kept.season.rounds):
            return True
    careers = careers_kept(store)
    if careers is not None:
        if periods is None or same_prefix(periods, careers.periods) < len(careers.periods) - 1:
            return True
        if careers.made > MADE_AGAIN:
            return True
    return False


def read(store: Store, path: Path, version: str) -> dict[str, Any] | None:
    """What :func:`keep` wrote to ``path`` for ``store``'s file, if it is to be trusted (see :func:`restore`)."""
    if store.path is None:
        return None
    try:
        with open(path, "rb") as f:
            if hasattr(os, "getuid"):
                status = os.fstat(f.fileno())
                if status.st_uid != os.getuid() or status.st_mode & 0o022:
                    return None
            magic = f.read(len(MAGIC))
            head = f.readline(1 << 16)
            data = f.read()  # read as it is: the data is not copied (17 MB at 600 × 52)
    except OSError:
        return None
    if magic != MAGIC or not head.endswith(b"\n"):
        return None
    try:
        header = json.loads(head)
    except ValueError:
        return None
    if not isinstance(header, dict) or header != _header(store, version, data):
        return None
    collecting = gc.isenabled()
    gc.disable()  # a few hundred thousand objects, none of them garbage: the collector would look at them three times over
    try:
        found = _Reader(io.BytesIO(data)).load()
    except Exception:  # whatever a damaged or planted pickle raises: the file is ignored
        return None
    finally:
        if collecting:
            gc.enable()
    if not _frozen:  # and they live as long as the run: no collection looks at them again until release()
        gc.freeze()
        _frozen.append(True)
    if not (isinstance(found, dict) and set(found) == {"standings", "careers", "extra", "rounds", "club_games"}
            and isinstance(found["standings"], dict)
            and all(type(c) is int and type(k) is Kept for c, k in found["standings"].items())
            and (found["careers"] is None or type(found["careers"]) is CareersKept)
            and _rounds_read(found["rounds"]) and _club_games(found["club_games"])):
        return None
    return found


def _rounds_read(found: object) -> bool:
    """Whether ``found`` is what :func:`keep` writes of the rounds read: by competition, the
    players they were read with and each round's key (a stamp, its date and time control) and round."""
    return isinstance(found, dict) and all(
        type(comp) is int and type(held) is tuple and len(held) == 2 and type(held[0]) is tuple
        and type(held[1]) is dict
        and all(type(n) is int and type(r) is tuple and len(r) == 2 and type(r[1]) is Round
                and type(r[0]) is tuple and len(r[0]) == 3 and type(r[0][0]) is bytes
                and all(part is None or type(part) is str for part in r[0][1:]) for n, r in held[1].items())
        for comp, held in found.items())


def _club_games(found: object) -> bool:
    """Whether ``found`` is what :func:`keep` writes of the rating's games: (game, the rating's game) pairs."""
    return isinstance(found, list) and all(
        type(pair) is tuple and len(pair) == 2 and type(pair[0]) is PlayedGame and type(pair[1]) is club.ClubGame
        for pair in found)
