"""Benchmarks: `keizer ratings import` of FIDE's full TXT list into a 200-member club, and
the club rating of 10 seasons × 60 players × 40 rounds.

    python bench/bench_ratings.py            # both
    python bench/bench_ratings.py club       # the club rating only (seconds, not minutes)

Writes a synthetic list in FIDE's TXT layout (1,200,000 players, deterministic, about
190 MB, as large as FIDE's combined download) and its zip into a temporary folder, makes a
club of 200 members whose FIDE ids are spread over the list, and times the installed
command on both, as a club would run it: it must take seconds, not minutes.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import synthetic_season
from timing import median_ms

from keizer.store import Store

PLAYERS = 1_200_000
MEMBERS = 200
HEADER = ("ID Number      Name                                                         Fed Sex Tit  WTit OTit"
          "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
FEDS = ("NED", "GER", "BEL", "FRA", "ENG", "IND", "USA", "ESP", "RUS", "NOR")


def write_list(path: Path, rng: random.Random) -> list[str]:
    """The list, line by line as FIDE lays it out; returns the ids in it."""
    ids = []
    with path.open("w", encoding="utf-8", newline="\r\n") as out:
        out.write(HEADER + "\n")
        for i in range(PLAYERS):
            fide_id = str(1_000_000 + i * 7)
            ids.append(fide_id)
            rating = rng.randrange(1000, 2800) if i % 3 else 0
            name = f"Player{i}, Given{i % 977}"
            out.write(f"{fide_id:<15}{name:<61}{FEDS[i % 10]:<4}{'MF'[i % 2]:<4}{'':<5}{'':<5}{'':<15}{'':<4}"
                      f"{rating or '':<6}{'0':<4}{'20':<3}{'':<6}{'':<4}{'':<3}{'':<6}{'':<4}{'':<3}"
                      f"{1940 + i % 70:<6}{'i' if i % 5 == 0 else '':<4}\n")
    return ids


def make_club(db: Path, ids: list[str], rng: random.Random) -> None:
    store = Store.open(db, create=True)
    with store.change("member add", "benchmark club"):
        for n, fide_id in enumerate(sorted(rng.sample(ids, MEMBERS - 5))):
            store.add_member(f"Member {n}", rng.randrange(1000, 2400), fide_id=fide_id)
        for n in range(5):  # left the FIDE list (not found), or never in it
            store.add_member(f"Gone {n}", 1500, fide_id=str(999_000_000 + n) if n < 3 else None)
    store.close()


SEASONS, SEASON_PLAYERS, ROUNDS = 10, 60, 40


def club_file(db: Path) -> None:
    """10 seasons of one club: the same 60 members play a 40-round Keizer competition each
    season (about 22 games a round), every round dated, one evening a week."""
    from dataclasses import replace
    from datetime import date, timedelta

    from keizer.operations.importing import import_season

    store = Store.open(db, create=True)
    with store.change("bench", "ten seasons"):
        for n in range(SEASONS):
            season = synthetic_season(SEASON_PLAYERS, ROUNDS, seed=n + 1)
            start = date(2016 + n, 9, 1)
            rounds = tuple(replace(r, date=(start + timedelta(days=7 * i)).isoformat())
                           for i, r in enumerate(season.rounds))
            import_season(store, replace(season, rounds=rounds), name=f"Interne {2016 + n}-{2017 + n}")
    store.close()


def bench_club_rating() -> None:
    """The club rating recomputed from the file: the engine alone, and the whole operation
    (reading every competition, then rating); the goal is well under a second."""
    from keizer.operations import careers
    from keizer.rating.club import club_ratings

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ten.db"
        club_file(db)
        store = Store.open(db)
        data = careers.read_club(store)
        games = careers.played_games(data)
        periods = careers.rating_periods(games, careers.Choice())
        options = careers.start_options(store, careers.Choice())
        print(f"club rating: {SEASONS} seasons × {SEASON_PLAYERS} players × {ROUNDS} rounds: {len(games):,} games, "
              f"{len(periods)} rating periods")
        engine = median_ms(lambda: club_ratings(periods, options), 5)
        print(f"  Glicko-2 over every period (keizer.rating.club):      {engine:7.0f} ms (median of 5)")
        whole = median_ms(lambda: careers.club_rating(store, careers.Choice()), 5)
        print(f"  the operation, reading the file (club_rating):      {whole:7.0f} ms (median of 5)")
        every = median_ms(lambda: careers.careers(store), 3)
        print(f"  every member's career (the site's career pages):     {every:7.0f} ms (median of 3)")
        command = median_ms(lambda: subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "ratings", "club"],
                                                   check=True, capture_output=True), 3)
        print(f"  keizer ratings club (wall clock, with start-up):     {command:7.0f} ms (median of 3)")
        store.close()


def main() -> None:
    bench_club_rating()
    if sys.argv[1:] == ["club"]:
        return
    rng = random.Random(20261201)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        txt = folder / "players_list_foa.txt"
        ids = write_list(txt, rng)
        zipped = folder / "players_list.zip"
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(txt, txt.name)
        club = folder / "club.db"
        make_club(club, ids, rng)
        db = folder / "run.db"
        print(f"{PLAYERS:,} players, {txt.stat().st_size / 1e6:.0f} MB ({zipped.stat().st_size / 1e6:.0f} MB "
              f"zipped), {MEMBERS} members")
        for source in (txt, zipped):
            last: list[str] = []

            def import_once(source: Path = source, last: list[str] = last) -> None:
                shutil.copy(club, db)
                done = subprocess.run([sys.executable, "-m", "keizer", "--db", str(db), "ratings", "import",
                                       str(source)], check=True, capture_output=True, text=True)
                last[:] = done.stdout.splitlines()[-1:]

            ms = median_ms(import_once, 3)
            print(f"keizer ratings import {source.name:<22} (wall clock): {ms:7.0f} ms (median of 3)")
            print(f"  {last[0]}")


if __name__ == "__main__":
    main()
