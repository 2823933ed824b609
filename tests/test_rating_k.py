"""K 40 (FIDE B.02 8.3.3, 2024): for a player until events with 30 games are completed, and until
the end of the year of the 18th birthday while rated under 2300. The club's file keeps what K
depends on (schema 12: members.fide_k, the K printed in FIDE's list, and members.birth_year), set
by `keizer member edit --fide-k/--birth-year` or by FIDE's list on `keizer ratings import`.

No published FIDE calculation of a K-40 player was at hand (FIDE's individual calculations in
tests/data/ratings/ are of adults), so the figures are worked by hand from table 8.1.2 and the
article's text."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from datetime import date, timedelta
from fractions import Fraction

import pytest

from test_cli import run
from test_members import members
from test_ratings import CARLSEN, FIDE_HEADER, club, fide_line, fide_txt, fide_xml, write  # noqa: F401  (club: a fixture)
from test_site_member import SAMPLE
from keizer.formats.rating_lists import read
from keizer.model import Game, Player, Result, Round, Season
from keizer.rating.fide import OnRecord, k_factor, player_on_record
from keizer.readmodel import fide_changes
from keizer.settings import Settings


def _season(*rounds: Round) -> Season:
    return Season("x", Settings(), tuple(Player(p, p.upper()) for p in "abcde"), rounds)


HAND = _season(Round(1, "2026-02-05", (Game(1, 1, "a", "b", Result.WHITE_WIN),)),
               Round(2, "2026-02-12", (Game(2, 1, "c", "a", Result.DRAW),)),
               Round(3, "2026-02-19", (Game(3, 1, "a", "d", Result.BLACK_WIN),)))
RATINGS = {"a": 2000, "b": 2092, "c": 1650, "d": 2500}


def test_k_40_by_hand():
    # a (2000): +.63 against 2092, −.39 against 1650, −.08 against 2500 (capped at 400): ΣΔR = .16.
    assert (fide_changes(HAND, RATINGS, "a").k, fide_changes(HAND, RATINGS, "a").change) == (20, Fraction(16, 5))
    newcomer = fide_changes(HAND, RATINGS, "a", OnRecord(list_k=40))
    assert (newcomer.k, newcomer.change) == (40, Fraction(32, 5))  # 40 × .16 = 6.4
    assert [g.change for g in newcomer.games] == [Fraction(252, 10), Fraction(-156, 10), Fraction(-32, 10)]
    # A junior by the year of birth: 18 in 2026 (born 2008) → 40; born 2007 (19 in 2026) → 20.
    assert fide_changes(HAND, RATINGS, "a", OnRecord(birth_year=2008)).k == 40
    assert fide_changes(HAND, RATINGS, "a", OnRecord(birth_year=2007)).k == 20
    # Under 2300 only: a 2300 junior has 20.
    assert fide_changes(HAND, {**RATINGS, "a": 2300}, "a", OnRecord(birth_year=2010)).k == 20
    # The list's 10 (a rating once 2400) stays 10 below 2400.
    assert fide_changes(HAND, {**RATINGS, "a": 2350}, "a", OnRecord(list_k=10)).k == 10


def test_k_40_and_the_700_rule():
    # 18 games × 40 = 720 > 700: K is 38 (38 × 18 = 684); 17 games × 40 = 680: K stays 40.
    days = [date(2026, 1, 1) + timedelta(days=7 * n) for n in range(18)]
    rounds = tuple(Round(n, d.isoformat(), (Game(n, 1, "a", "b", Result.DRAW),)) for n, d in enumerate(days, 1))
    assert fide_changes(_season(*rounds), {"a": 1800, "b": 1800}, "a", OnRecord(40)).k == 38
    assert fide_changes(_season(*rounds[:17]), {"a": 1800, "b": 1800}, "a", OnRecord(40)).k == 40


def test_the_lists_k_is_read_by_the_year_of_birth():
    # The list printed 40 for a 2008-born player rated 1650: in 2026 (18) 40 by age. In 2027 the age no
    # longer explains it, so the file's 40 is read as a newcomer's (fewer than 30 games) until the next
    # list says otherwise (FIDE's January list prints 20 for a junior who has 30 games); without a
    # list K the year of birth alone gives 20 in 2027.
    assert k_factor(player_on_record(1650, OnRecord(40, 2008), date(2026, 12, 31)), date(2026, 12, 31)) == 40
    assert k_factor(player_on_record(1650, OnRecord(40, 2008), date(2027, 1, 1)), date(2027, 1, 1)) == 40
    assert k_factor(player_on_record(1650, OnRecord(None, 2008), date(2027, 1, 1)), date(2027, 1, 1)) == 20


# -- FIDE's list gives K and the year of birth ------------------------------------------------------


def test_the_lists_read_k_and_year_of_birth():
    found = read(io.BytesIO(fide_txt(CARLSEN)), {"fide": {"1503014"}, "national": set()})
    assert (found.by_id["1503014"].k, found.by_id["1503014"].birth_year) == (10, 1990)
    standard = FIDE_HEADER.split(" SRtng")[0] + " OCT26 Gms K  B-day Flag"
    line = CARLSEN[:113] + "2823  0   10 1990      "
    found = read(io.BytesIO((standard + "\r\n" + line + "\r\n").encode()), {"fide": {"1503014"}, "national": set()})
    assert (found.by_id["1503014"].k, found.by_id["1503014"].birth_year) == (10, 1990)
    legacy = FIDE_HEADER.replace("           FOA SRtng", "           SRtng")
    line = ("10207538       A E M, Doshtagir                                             BAN M                     "
            "       1840  0   40 1836  0   20 1860  0   20 1974      ")
    found = read(io.BytesIO((legacy + "\r\n" + line + "\r\n").encode()), {"fide": {"10207538"}, "national": set()})
    assert (found.by_id["10207538"].k, found.by_id["10207538"].birth_year) == (40, 1974)
    xml = fide_xml(("7000001", "Vries, Anna de", "1901"))
    found = read(io.BytesIO(xml), {"fide": {"7000001"}, "national": set()})
    assert (found.by_id["7000001"].k, found.by_id["7000001"].birth_year) == (20, 1990)


def test_import_stores_k_and_year_of_birth(club, tmp_path, capsys):  # noqa: F811
    junior = fide_line("7000002", "Jansen, Bram", "NED", "1650", born="2011").replace(" 20 ", " 40 ", 1)
    path = write(tmp_path, "players_list_foa.txt", fide_txt(fide_line("7000001", "Vries, Anna de", "NED", "1901"),
                                                            junior))
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err
    assert "Bram Jansen: FIDE rating 1640 → 1650, FIDE K none → 40, year of birth none → 2011" in out
    with sqlite3.connect(club) as conn:
        assert conn.execute("SELECT fide_k, birth_year FROM members WHERE name = 'Bram Jansen'").fetchone() == (40, 2011)
    assert "birth_year" not in members(capsys, club)["Bram Jansen"]  # `member list` keeps its columns


def test_history_rating_uses_the_members_k(tmp_path, capsys):
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE members SET fide_rating = rating")
    before = json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    assert before["k"] == 20 and before["games"] >= 18
    code, _, err = run(capsys, db, "member", "edit", "Anna Hendriks", "--fide-k", "40")
    assert code == 0, err
    after = json.loads(run(capsys, db, "history", "Anna Hendriks", "--rating", "--format", "json")[1])
    k = min(40, 700 // after["games"])  # 8.3.3's 700 rule over her counted games
    assert after["k"] == k and after["delta"] == before["delta"]
    assert after["change"] == pytest.approx(k * after["delta"])
