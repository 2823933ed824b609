"""The published site as a member opens it (issue 24): my next game on my pages, the front
page's coming club evening, ties explained in the standing, and a report that says "final"
only when the competition is.  Built from the shipped sample club: as it is (round 31 not
paired), with round 31 paired (one player sent notice), and with the season closed.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from keizer.cli import main as keizer_main
from keizer.publish import publish
from keizer.publish.slugs import slugify
from keizer.store import Store
from sites import published_from_file

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"
KEIZER, SWISS, GROUP = "Interne competitie 2025-2026", "Rapidtoernooi 2025", "Meerkamp A"


def keizer(db: Path, *args: str) -> None:
    try:
        keizer_main(["--db", str(db), *args])
    except SystemExit as e:
        assert not e.code, f"keizer {' '.join(args)} failed ({e.code})"


def published(db: Path, out: Path, language: str | None = None) -> Path:
    store = Store.open(db)
    try:
        publish(store, out, language=language)
    finally:
        store.close()
    return out


def published_as_set_up(db: Path, out: Path) -> Path:
    """:func:`published` for the fixtures whose site is only the tests' set-up (a copy of the
    same site published before in this process, see tests/sites.py)."""
    return published_from_file(db, out)


def text(page: Path | str) -> str:
    """A page (or a fragment) as a reader sees its words."""
    source = page.read_text(encoding="utf-8") if isinstance(page, Path) else page
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", source))).strip()


@pytest.fixture(scope="module")
def paired(tmp_path_factory) -> tuple[Path, Path]:
    """The sample with round 31 of the Keizer competition paired (the sample's excused players
    sent notice), published."""
    tmp = tmp_path_factory.mktemp("paired")
    db = tmp / "club.db"
    shutil.copy(SAMPLE, db)
    keizer(db, "-c", "1", "attend", "--date", "2026-03-31")
    keizer(db, "-c", "1", "pair")
    return db, published_as_set_up(db, tmp / "site")


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    return published_as_set_up(SAMPLE, tmp_path_factory.mktemp("sample") / "site")


def member_page(site: Path, name: str) -> Path:
    return site / "2025-2026" / "members" / f"{slugify(name)}.html"


def player_page(site: Path, competition: str, name: str) -> Path:
    return site / "2025-2026" / slugify(competition) / "players" / f"{slugify(name)}.html"


# -- my next game ----------------------------------------------------------------------


def test_every_paired_member_finds_board_colour_opponent_and_date(paired):
    db, site = paired
    store = Store.open(db)
    season = store.load_season(store.competition()["id"])
    store.close()
    names = {p.id: p.name for p in season.players}
    games = season.rounds[30].games
    assert len(games) == 15
    for g in games:
        for me, colour in ((g.white, "white"), (g.black, "black")):
            line = f"Round 31 · March 31, 2026 board {g.board}, with {colour} against {names[g.opponent_of(me)]}"
            assert line in text(member_page(site, names[me])), names[me]
            assert line in text(player_page(site, KEIZER, names[me])), names[me]
    # Hand-checked against the pairing keizer printed: board 1, Inge Vos (white) against Lotte van der Veen.
    first = games[0]
    assert (names[first.white], names[first.black]) == ("Inge Vos", "Lotte van der Veen")


def test_a_member_who_sent_notice_reads_so(paired):
    db, site = paired
    store = Store.open(db)
    season = store.load_season(store.competition()["id"])
    store.close()
    excused = [p.name for p in season.players if season.rounds[30].absent.get(p.id) == "excused"]
    assert excused
    for name in excused:
        assert "Round 31 · March 31, 2026 notice of absence sent" in text(player_page(site, KEIZER, name))


def test_before_the_pairing_the_next_round_is_not_paired_yet(sample):
    page = text(member_page(sample, "Anna Hendriks"))
    assert "Next game Interne competitie 2025-2026 · Round 31 · March 31, 2026 not paired yet" in page


def test_a_round_robin_player_finds_the_next_game_too(sample):
    """Meerkamp A's round 5 is drawn (a round-robin's schedule is drawn at once)."""
    store = Store.open(SAMPLE)
    row = next(c for c in store.competitions() if c["name"] == GROUP)
    season = store.load_season(row["id"])
    store.close()
    names = {p.id: p.name for p in season.players}
    rnd = season.rounds[season.completed_rounds()]
    for g in rnd.games:
        page = text(player_page(sample, GROUP, names[g.white]))
        assert f"board {g.board}, with white against {names[g.black]}" in page


def test_the_next_game_is_in_dutch_in_a_dutch_club(paired, tmp_path):
    db, _ = paired
    site = published(db, tmp_path / "nl", language="nl")
    page = text(member_page(site, "Inge Vos"))
    assert "Volgende partij" in page and "bord 1, met wit tegen Lotte van der Veen" in page


def test_the_front_page_shows_the_coming_evening_and_its_pairing(paired, sample):
    _, site = paired
    front = text(site / "index.html")
    assert "Next club evening: March 31, 2026 Pairings of round 31" in front
    assert "1 Inge Vos – Lotte van der Veen" in front and "All 15 boards" in front
    before = text(sample / "index.html")
    assert "Next club evening: March 31, 2026 Round 31: not paired yet" in before
    # The A–Z list has a page of its own; the front page keeps the search over it.
    assert (site / "players.html").exists() and 'action="players.html"' in (site / "index.html").read_text()


# -- ties explained --------------------------------------------------------------------


def standing_rows(page: Path) -> list[str]:
    body = page.read_text(encoding="utf-8").split('<table class="standing', 1)[1].split("</tbody>", 1)[0]
    return [text(row.split(">", 1)[1]) for row in body.split("<tr")[2:]]


def test_equal_points_say_what_separated_them(sample):
    """Hand-checked on the Rapidtoernooi after round 5: José Álvarez and Nora van den Broek
    both have 3½; BH/C1 (the first tie-break) is 11½ against 11."""
    rows = standing_rows(sample / "2025-2026" / slugify(SWISS) / "index.html")
    assert rows[2].startswith("3 ▲2 José Álvarez level, ahead on BH/C1 3.5 5 11.5")
    assert rows[3].startswith("4 ▲2 Nora van den Broek level, behind on BH/C1 3.5 5 11 ")
    assert rows[0].startswith("1 Daan van Beek 5 ")  # nobody else has 5: no note


def test_a_keizer_tie_names_the_rating(sample):
    rows = standing_rows(sample / "2025-2026" / slugify(KEIZER) / "index.html")
    noted = [r for r in rows if "level," in r]
    assert len(noted) == 2 and "ahead on rating" in noted[0] and "behind on rating" in noted[1]


def test_players_level_on_everything_share_their_place(tmp_path):
    """A one-round Swiss of the sample's 41 members: the bye's point comes first on BH (its
    virtual opponent), and the 20 winners on the board, level on every tie-break, share
    second place and each says so."""
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    keizer(db, "competition", "create", "Snel", "--system", "swiss", "--rounds", "1", "--all-members")
    keizer(db, "-c", "Snel", "attend")
    keizer(db, "-c", "Snel", "pair")
    store = Store.open(db)
    row = next(c for c in store.competitions() if c["name"] == "Snel")
    boards = len(store.load_season(row["id"]).rounds[0].games)
    store.close()
    keizer(db, "-c", "Snel", "result", *[f"{b}=1-0" for b in range(1, boards + 1)])
    site = published(db, tmp_path / "site")
    rows = standing_rows(next(site.glob(f"*/{slugify('Snel')}/index.html")))
    assert rows[0].startswith("1 Joost de Wit level, ahead on BH 1 ")
    winners = [r for r in rows if r.split(" ")[0] == "2"]
    assert len(winners) == boards == 20 and all(" shared place 1 " in r for r in winners)
    assert rows[21].startswith("22 ") and all(" shared place 0 " in r for r in rows[21:])


# -- the report tells the truth ----------------------------------------------------------


def headings(page: Path) -> list[str]:
    return [text(h) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", page.read_text(encoding="utf-8"))]


def test_the_report_says_final_only_when_the_competition_is(sample, tmp_path):
    report = sample / "2025-2026" / slugify(KEIZER) / "report.html"
    assert "Final standing" not in headings(report) and "Prize winners" not in headings(report)
    assert headings(report)[:2] == ["Leading after round 30", "Standing after round 30"]
    # The Swiss has played its five planned rounds: it is final.
    assert headings(sample / "2025-2026" / slugify(SWISS) / "report.html")[:2] == ["Prize winners", "Final standing"]
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    keizer(db, "season", "close", "2025-2026")
    closed = published(db, tmp_path / "site") / "2025-2026" / slugify(KEIZER) / "report.html"
    assert headings(closed)[:2] == ["Prize winners", "Final standing"]


def test_the_printed_standing_names_the_club(sample):
    page = (sample / "2025-2026" / slugify(KEIZER) / "index.html").read_text(encoding="utf-8")
    assert '<h1>Interne competitie 2025-2026<span class="print-inline"> · Chess club</span></h1>' in page


def test_a_notice_sent_through_the_member_link_shows_before_the_pairing(tmp_path):
    """Anna Hendriks says "I cannot come" for 31 March through her link: her page says so before
    the officer takes the attendance (the notice is hers until then: the round's page lists nobody)."""
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    member = next(p["member_id"] for p in store.players(1) if p["name"] == "Anna Hendriks")
    with store.change("notice", "notice of absence"):
        store.add_notice(member, "2026-03-31", "member link")
    store.close()
    site = published(db, tmp_path / "site")
    assert "Round 31 · March 31, 2026 notice of absence sent" in text(member_page(site, "Anna Hendriks"))
    assert "Round 31 · March 31, 2026 not paired yet" in text(member_page(site, "Bas Dekker"))


# -- tie notes: a property -------------------------------------------------------------

from hypothesis import given, strategies as st  # noqa: E402

from keizer.readmodel import tie_notes  # noqa: E402


@st.composite
def standings(draw):
    """A standing in its order: scores not rising, each row's rank its place or (when score and
    every criterion equal the row above) the row above's rank; two criteria of small values."""
    n = draw(st.integers(1, 12))
    rows = sorted(((draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(n)),
                  key=lambda r: (-r[0], -r[1], -r[2]))
    out = []
    for k, (score, a, b) in enumerate(rows):
        same = k and rows[k - 1] == (score, a, b) and draw(st.booleans())
        out.append((score, out[-1][1] if same else k + 1, [("A", a), ("B", b)]))
    return out


@given(standings())
def test_every_tie_is_explained_and_only_a_tie(rows):
    notes = tie_notes(rows, "start order")
    for k, (row, note) in enumerate(zip(rows, notes)):
        above = rows[k - 1] if k and rows[k - 1][0] == row[0] else None
        below = rows[k + 1] if k + 1 < len(rows) and rows[k + 1][0] == row[0] else None
        if above is None and below is None:
            assert note is None
        elif (above and above[1] == row[1]) or (below and below[1] == row[1]):
            assert note == {"kind": "shared"}
        else:
            other = above or below
            assert note["kind"] == ("behind" if above else "ahead")
            differing = [label for (label, x), (_, y) in zip(row[2], other[2]) if x != y]
            assert note["by"] == (differing[0] if differing else "start order")
