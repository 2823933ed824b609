"""A command or a page reads each season once (issue 19): ``keizer pair``, ``keizer publish``
and the app's pages never read the same state of a competition twice.

The reads are counted where the store builds a :class:`~keizer.model.Season` from the file
(``Competitions.load_season``), below the store's own memory of what it read."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest

from keizer.cli.commands import main
from keizer.model import Season
from keizer.store.competitions import Competitions
from web_helpers import sample_app

SAMPLE = Path(__file__).resolve().parents[1] / "sample_club.db"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, Season]]]:
    """Every season built from the file, as (competition id, season)."""
    seen: list[tuple[int, Season]] = []
    read = Competitions.load_season

    def counted(self: Any, comp_id: int) -> Season:
        season = read(self, comp_id)
        seen.append((comp_id, season))
        return season

    monkeypatch.setattr(Competitions, "load_season", counted)
    yield seen


def run(db: Path, *args: str) -> None:
    try:
        main(["--db", str(db), *args])
    except SystemExit as e:
        assert e.code in (0, None), args


def repeats(seen: list[tuple[int, Season]]) -> list[int]:
    """The competitions read again with nothing changed: a read equal to the one before it
    (a re-pairing may come back to an earlier state, through a write; that is no repeat)."""
    last: dict[int, Season] = {}
    again = []
    for cid, season in seen:
        if last.get(cid) == season:
            again.append(cid)
        last[cid] = season
    return again


def test_pair_reads_each_state_of_the_season_once(tmp_path: Path, reads: list[tuple[int, Season]]) -> None:
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    run(db, "attend", "--round", "31", "--date", "2026-04-14")
    reads.clear()
    run(db, "pair")
    # before the pairing is written, and after (to show it): two states, each read once
    assert [cid for cid, _ in reads] == [1, 1] and not repeats(reads)
    reads.clear()
    run(db, "pair", "--again")
    assert not repeats(reads) and len(reads) == 3  # before, unpaired, paired again


def test_publish_reads_each_competition_once(tmp_path: Path, reads: list[tuple[int, Season]]) -> None:
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    # From scratch, with nothing changed (issue 25: then none is read), and after a change.
    for change, once in ((None, 1), (None, 0), (("club", "--name", "Schaakclub De Toren"), 1)):
        if change:
            run(db, *change)
        reads.clear()
        run(db, "publish", str(tmp_path / "site"))
        assert Counter(cid for cid, _ in reads) == ({1: 1, 2: 1, 3: 1, 4: 1} if once else {})


PAGES = ["/", "/competitions", "/c/1/standings", "/c/1/crosstable", "/c/1/pairing", "/c/1/results",
         "/c/1/attendance", "/c/1/settings", "/c/1/print/pairings", "/c/1/print/standings", "/c/1/print/slips",
         "/c/1/venue", "/c/1/venue.json", "/c/2/standings", "/c/2/crosstable", "/c/2/pairing", "/c/2/results",
         "/c/3/standings", "/c/3/crosstable", "/c/3/pairing", "/c/4/standings", "/c/4/cup"]


def test_each_page_of_the_app_reads_a_season_at_most_once(tmp_path: Path, reads: list[tuple[int, Season]]) -> None:
    app, _ = sample_app(tmp_path)
    client = app.test_client()
    read_twice = {}
    for page in PAGES:
        reads.clear()
        assert client.get(page).status_code == 200, page
        counts = Counter(cid for cid, _ in reads)
        if any(n > 1 for n in counts.values()):
            read_twice[page] = dict(counts)
    assert not read_twice
    reads.clear()
    client.get("/c/1/standings")
    assert len(reads) == 1  # a new request reads the file again: another program may have written
