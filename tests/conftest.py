"""Shared helpers: small seasons written compactly, and the public vectors."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TypeVar


def _keep_compiled_modules() -> None:
    """Let the test processes keep what they compile, outside the checkout.

    With ``PYTHONDONTWRITEBYTECODE`` set (the team's machines set it, to keep compiled files
    out of the checkouts) every test process compiled keizer's modules again, and pytest
    rewrote the asserts of every test module again: 4.6 of the 6.9 s of CPU a process takes
    to collect the tests, twice in a run on two cores.  The compiled files go to a folder of
    their own in the user's cache (``$PYTHONPYCACHEPREFIX`` when set), never beside the
    sources; the processes the tests start (``keizer serve``) keep theirs there too.  Whether a
    module is compiled or read compiled changes nothing a test sees."""
    if not sys.dont_write_bytecode:
        return
    try:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder: compile every run, as asked
        return
    prefix = sys.pycache_prefix or str(cache / "keizer" / "pycache")
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_keep_compiled_modules()

# Imported once the compiled modules are kept (above): hypothesis is a pytest plugin, whose
# modules pytest rewrites as it does the tests', and it and keizer were compiled again by
# every run before (1.4 s of CPU in the process that runs or hands out the tests).
import pytest  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

from keizer.model import Absence, ExternalResult, Game, Player, Result, Round, Season  # noqa: E402
from keizer.settings import Settings  # noqa: E402
import old_runs  # noqa: E402
import disk_sync  # noqa: E402

# The tests' commits do not wait for the disk (tests/disk_sync.py says why that keeps them honest).
disk_sync.commit_without_waiting()

#: Our own vectors and transcriptions, committed with the tests (see data/SOURCES.md).
DATA = Path(__file__).resolve().parent / "data"
VECTORS = DATA / "vectors"
TEC = DATA / "tec2023"
#: Files taken from other public repositories are never committed: they are read from the
#: team's reference folder beside the checkout, and their tests skip when it is absent.
EXTERNAL = Path(__file__).resolve().parents[2] / "shared" / "data"
GRANDMOMMY = EXTERNAL / "tec-trf26-sample-grandmommys-cup.trf"
KARL_MALA = EXTERNAL / "trf16-sample-karl-mala-2005.trf"
KFC_SAMPLE = EXTERNAL / "keizerforclubs-test-tournament.s3db"


# Publishing keeps what it knows of each site folder in keizer's cache folder
# (keizer.publish.files.state_path): the tests' thousands of folders keep theirs in one of
# their own, removed when the test process ends.
os.environ["KEIZER_CACHE"] = tempfile.mkdtemp(prefix="keizer-test-cache-")
atexit.register(shutil.rmtree, os.environ["KEIZER_CACHE"], True)


# -- the quick run and the full run ---------------------------------------------------------
#
# Tests of more than 10 s, and the browser, server, wheel and full-disk tests of more than
# about 3 s, are marked ``slow`` (pyproject.toml registers the marker).  ``pytest`` runs them
# all, as CI does; ``pytest -m "not slow"`` leaves them out for a developer's quick run.
#
# Hypothesis: the full run tries every property test's own number of examples; the quick run
# tries a tenth of them (at least 10).  ``pytest -m "not slow"`` chooses the quick profile by
# itself; KEIZER_HYPOTHESIS=full or =quick chooses either profile for any run.
# No deadline: speed is measured in bench/, and on a busy machine a slow example would fail a test
# of correctness (an ECF round trip did, with eight test runs sharing two cores).
hypothesis_settings.register_profile("full", deadline=None)
hypothesis_settings.register_profile("quick", max_examples=10, deadline=None)
HYPOTHESIS_PROFILE = "full"
T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    global HYPOTHESIS_PROFILE
    chosen = os.environ.get("KEIZER_HYPOTHESIS", "").strip().lower()
    if chosen not in ("full", "quick"):
        chosen = "quick" if "not slow" in " ".join((config.getoption("markexpr") or "").split()) else "full"
    HYPOTHESIS_PROFILE = chosen
    hypothesis_settings.load_profile(chosen)


def examples(full: int) -> int:
    """A property test's max_examples: ``full`` in the full run, a tenth (at least 10) in the quick run."""
    return full if HYPOTHESIS_PROFILE == "full" else min(full, max(10, full // 10))


def sampled(values: Sequence[T]) -> list[T]:
    """A corpus test's cases: all of them in the full run, every tenth (at least 10) in the quick run.

    The quick run still reaches every kind of case the corpus holds, spread over it; CI and a
    plain ``pytest`` take them all."""
    if HYPOTHESIS_PROFILE == "full" or len(values) <= 10:
        return list(values)
    step = max(1, min(10, len(values) // 10))
    return list(values[::step])


def pytest_sessionstart(session: pytest.Session) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ:
        old_runs.start_removing(session.config)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    old_runs.finish_removing()


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (KEIZER_HYPOTHESIS=full|quick to choose)"


def external(path: Path) -> Path:
    """``path`` if the reference folder has it, else skip the calling test with the reason."""
    if not path.exists():
        pytest.skip(f"{path.name} comes from another public repository and is not committed; "
                    f"it is read from ../shared/data/ beside the checkout")
    return path


#: The databases :func:`built_once` made in this run (this worker's, under pytest-xdist).
_BUILT: dict[str, Path] = {}


def built_once(key: str, build: Callable[[Path], None], tmp_path: Path, factory: pytest.TempPathFactory,
               name: str = "club.db") -> Path:
    """``tmp_path / name``: a copy of the database that ``build(path)`` makes, built only the first
    time a test asks for ``key`` in this run and copied for each test after (a fixture that adds
    members and a competition through the command line took 0.1-0.2 s each of hundreds of times).
    ``build`` runs the commands as the fixture did, so every test starts from the same file as
    before; a copy is a test's own to change."""
    if key not in _BUILT:
        made = factory.mktemp(f"built-{key}") / name
        build(made)
        _BUILT[key] = made
    db = tmp_path / name
    shutil.copyfile(_BUILT[key], db)
    return db


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.json"))


def load_vector(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def season(
    n: int = 4,
    rounds: list[dict] | None = None,
    settings: dict | None = None,
    preset: str = "classic",
    players: list[Player] | None = None,
    initial_order: tuple[str, ...] = (),
) -> Season:
    """A season of players p1…pn (ratings 2000, 1990, …) and compact rounds.

    Each round is a dict: ``games`` as (white, black, result) triples, plus
    ``absent`` {id: reason}, ``bye`` [ids], ``external`` {id: win|draw|loss}.
    """
    if players is None:
        players = [Player(f"p{i}", f"P{i}", 2010 - 10 * i, start_no=i) for i in range(1, n + 1)]
    built = []
    for k, r in enumerate(rounds or [], start=1):
        games = tuple(
            Game(k, b, w, bl, Result.parse(res) if res else None)
            for b, (w, bl, res) in enumerate(r.get("games", []), start=1)
        )
        absent = {p: Absence(why) for p, why in r.get("absent", {}).items()}
        absent.update({p: Absence.BYE for p in r.get("bye", [])})
        external = {p: ExternalResult(x) for p, x in r.get("external", {}).items()}
        built.append(Round(k, None, games, absent, external, tuple(r.get("present", []))))
    return Season("test", Settings.from_preset(preset, settings or {}), tuple(players), tuple(built), initial_order)


def scores(standing) -> dict[str, Fraction]:
    return {e.player: e.score for e in standing.entries}


def ranking(standing) -> list[str]:
    return [e.player for e in standing.entries]


@pytest.fixture
def F():
    return Fraction

