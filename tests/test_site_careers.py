"""Careers on the published site: a page per member across seasons (every competition, the club
rating as a chart and a table, the best results, the record against every opponent and the
games of each pair under an anchor), the same figures `keizer career` gives, and the privacy
rule: a member who said no (`keizer member edit --no-career`) has no page and no link to one,
and a page published before is removed."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from test_cli import run
from test_site_member import SAMPLE, keizer, member_page, published, published_as_set_up, text
from keizer.model import Game, Player, Result, Round, Season
from keizer.operations.careers import CareerLine, PlayedGame, Record, best_results
from keizer.publish.slugs import slugify
from keizer.settings import Settings
from keizer.store import Store


def career_page(site: Path, name: str) -> Path:
    return site / "careers" / f"{slugify(name)}.html"


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("careers")
    db = tmp / "club.db"
    shutil.copy(SAMPLE, db)
    return db, published_as_set_up(db, tmp / "site")


def test_every_member_who_played_has_a_career_page_linked_from_the_seasons_member_page(club):
    db, site = club
    store = Store.open(db)
    played = {m["name"] for c in store.competitions() for p in store.players(c["id"])
              for m in [store.member(p["member_id"])]}
    store.close()
    pages = sorted(p.name for p in (site / "careers").glob("*.html"))
    assert pages == sorted(f"{slugify(n)}.html" for n in played)
    member = member_page(site, "Anna Hendriks").read_text(encoding="utf-8")
    assert 'href="../../careers/anna-hendriks.html"' in member


def test_the_career_page_shows_what_keizer_career_says(club, capsys):
    db, site = club
    data = json.loads(run(capsys, db, "career", "Anna Hendriks", "--format", "json")[1])
    page = career_page(site, "Anna Hendriks").read_text(encoding="utf-8")
    said = text(page)
    total = sum(c["games"] for c in data["competitions"])
    wins = sum(c["wins"] for c in data["competitions"])
    assert f"{total} games at the club: {wins} won" in said
    for c in data["competitions"]:
        assert c["competition"] in said
    # Every opponent, with a link to the games against them further down the same page.
    for o in data["opponents"]:
        anchor = re.search(rf'<a href="#(vs-\d+)">{re.escape(o["opponent"])}</a>', page.replace("&#39;", "'"))
        assert anchor, o["opponent"]
        section = page.split(f'id="{anchor[1]}"', 1)[1].split("</section>", 1)[0]
        assert section.count("<tr>") == o["games"] + 1  # the header and one row per game
    # The best results, in the CLI's words too.
    best = data["best"]
    assert set(best) == {"best_rank", "best_performance", "longest_unbeaten_run", "biggest_scalp"}
    rank = best["best_rank"].split(" ", 1)[0]
    assert f"Best rank {rank} in" in said
    scalp = re.match(r"a win against (.+) \(rating (\d+)\)", best["biggest_scalp"])
    assert f"a win against {scalp[1]} (rating {scalp[2]})" in said.replace("&#39;", "'")
    # The club rating: a chart with its words, and every figure in the table beside it.
    assert '<svg viewBox="0 0 360 210" role="img" aria-label="Club rating after each round played: from' in page
    last = data["club_rating"][-1]
    assert f"Club rating {last['rating']} (" in said
    assert page.count("<tr><td>") >= len(data["club_rating"])
    assert "Provisional, not official" in said


def test_a_member_who_said_no_gets_no_page_and_no_link(club, tmp_path):
    db, site = club
    copy = tmp_path / "club.db"
    shutil.copy(db, copy)
    out = tmp_path / "site"
    published_as_set_up(copy, out)  # the club's site as published before (the same as ``site``)
    assert career_page(out, "Bram Jacobs").exists()
    keizer(copy, "member", "edit", "Bram Jacobs", "--no-career")
    published(copy, out)
    assert not career_page(out, "Bram Jacobs").exists()  # the page published before is gone
    assert not (out / "careers" / "bram-jacobs.html").exists()
    everywhere = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    assert "careers/bram-jacobs.html" not in everywhere
    # Others' records still name him (as the standings do), without a link to a page.
    anna = career_page(out, "Anna Hendriks").read_text(encoding="utf-8")
    assert "Bram Jacobs" in anna and "bram-jacobs.html" not in anna
    keizer(copy, "member", "edit", "Bram Jacobs", "--career")
    published(copy, out)
    assert career_page(out, "Bram Jacobs").exists()


def test_member_edit_refuses_a_birth_year_out_of_range_and_keeps_the_file(club, tmp_path, capsys):
    db, _ = club
    copy = tmp_path / "club.db"
    shutil.copy(db, copy)
    keizer(copy, "member", "list")  # any upgrade done first
    before = copy.read_bytes()
    code, out, err = run(capsys, copy, "member", "edit", "Anna Hendriks", "--birth-year", "1850")
    assert code != 0 and "1850" in err and "Traceback" not in err
    assert copy.read_bytes() == before
    code, out, _ = run(capsys, copy, "member", "edit", "Anna Hendriks", "--birth-year", "2010", "--fide-k", "40")
    assert code == 0 and "year of birth none → 2010" in out and "FIDE K none → 40" in out


# -- the best results, by hand -------------------------------------------------------------------


def _g(n: int, comp: int, white: int, black: int, score: str, wr: int | None, br: int | None) -> PlayedGame:
    return PlayedGame("2025", f"C{comp}", comp, n, f"2025-10-{n:02d}", "standard", white, black, Fraction(score), wr, br)


def test_best_results_by_hand():
    # Member 1: in C1 a win, a draw, a win, a loss, a win, a win (ratings 1500–1900 of the opponents);
    # in C2 two wins and a draw. Unbeaten: games 1–3 (3), then games 5–9 (5: C1's last two, C2's three).
    games = [_g(1, 1, 1, 2, "1", 1600, 1500), _g(2, 1, 3, 1, "1/2", 1700, 1600), _g(3, 1, 1, 4, "1", 1600, 1900),
             _g(4, 1, 5, 1, "1", 1800, 1600), _g(5, 1, 1, 2, "1", 1600, 1500), _g(6, 1, 1, 3, "1", 1600, 1700),
             _g(7, 2, 1, 4, "1", 1650, 1950), _g(8, 2, 2, 1, "0", None, 1650), _g(9, 2, 1, 5, "1/2", 1650, 1800)]
    lines = [CareerLine("2025", "C1", 1, 3, Fraction(9), Record()), CareerLine("2025", "C2", 2, 1, None, Record(3)),
             CareerLine("2024", "C0", 0, 1, None, Record(7))]
    best = best_results(lines, games, 1, {2: "Bea", 3: "Cas", 4: "Dirk", 5: "Eef"})
    assert best.rank is lines[2]  # rank 1 twice: the one with more games
    # C1: 6 games against rated opponents, 4.5 points, Ra = (1500+1700+1900+1800+1500+1700)/6 = 1683.3 → 1683,
    # p = .75 → dp 193 (table 8.1.1): 1876. C2 has 3 games: fewer than 5, not counted.
    assert (best.performance.rating, best.performance.line, best.performance.games) == (1876, lines[0], 6)
    assert (best.unbeaten.games, best.unbeaten.first.round, best.unbeaten.last.round) == (5, 5, 9)
    # The wins: 1500, 1900, 1500, 1700 (C1) and 1950 (C2): Dirk at 1950 in C2.
    assert (best.scalp.name, best.scalp.rating, best.scalp.game.round) == ("Dirk", 1950, 7)


def test_no_best_results_without_games():
    best = best_results([], [], 1, {})
    assert (best.rank, best.performance, best.unbeaten, best.scalp) == (None, None, None, None)
