"""The ECF results submission file (keizer.formats.ecf, keizer export --format ecf): the writer
and the reader agree (a round trip, hypothesis), the reader takes another program's layout
(tests/data/ecf/other-layout.txt, written by hand), the field checks the public sources
establish refuse what they should, and the export of the sample club holds exactly its games
played on the board with the members' ECF codes (sources: docs/ratings.md, tests/data/SOURCES.md)."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keizer.formats.ecf import EcfGame, EcfPlayer, Event, Section, Submission, check, dump, parse
from keizer.formats.errors import FormatError
from test_cli import run
from test_site_member import SAMPLE
from web_helpers import digest

DATA = Path(__file__).parent / "data" / "ecf"
EVENT = Event("XY12345", 1, "Club Championship", date(2026, 1, 8), date(2026, 3, 26), "A Officer",
              ("1 High Street", "Anytown"), "A Treasurer", ("t@example.org",), 90, 30)
OPTIONS = ("--event-code", "XY12345", "--results-officer", "A Officer", "--results-officer-address", "1 High Street",
           "--treasurer", "A Treasurer", "--treasurer-address", "t@example.org", "--minutes-for-game", "90",
           "--seconds-per-move", "30")

TEXT = st.text(st.characters(blacklist_characters="#\r\n", blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
               min_size=1, max_size=20).map(lambda s: " ".join(s.split())).filter(bool)
DAYS = st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31))


@st.composite
def submissions(draw):
    n = draw(st.integers(min_value=2, max_value=8))
    players = tuple(EcfPlayer(i, draw(TEXT), draw(st.one_of(st.none(), st.from_regex(r"[0-9]{6}[A-HJ-L]", fullmatch=True))),
                              draw(st.one_of(st.none(), st.from_regex(r"[0-9A-Z]{4}", fullmatch=True))),
                              draw(st.one_of(st.none(), st.from_regex(r"[1-9][0-9]{3,8}", fullmatch=True))))
                    for i in range(1, n + 1))
    players = tuple(p if p.ecf_code is None or p.club_code is None else EcfPlayer(p.pin, p.name, p.ecf_code, None, p.fide_no)
                    for p in players)
    games = tuple(EcfGame(a, b, draw(st.sampled_from(["10", "01", "55"])), draw(st.sampled_from(["white", "black"])),
                          draw(st.integers(1, 40)), draw(DAYS))
                  for a, b in draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1]),
                                            min_size=1, max_size=10)))
    event = Event(draw(TEXT), draw(st.integers(1, 9)), draw(TEXT), draw(DAYS), draw(DAYS), draw(TEXT),
                  tuple(draw(st.lists(TEXT, min_size=1, max_size=2))), draw(TEXT),
                  tuple(draw(st.lists(TEXT, min_size=1, max_size=2))), draw(st.integers(1, 240)),
                  draw(st.one_of(st.none(), st.integers(1, 60))))
    return Submission(event, players, (Section(draw(TEXT), games),))


@given(submissions())
def test_the_reader_reads_what_the_writer_writes(sub):
    assert parse(dump(sub)) == sub


def test_another_programs_layout():
    sub = parse((DATA / "other-layout.txt").read_text("utf-8"))
    e = sub.event
    assert (e.code, e.index, e.name, e.start, e.end) == ("ZZ00042", 2, "Thursday Rapid", date(2026, 3, 5),
                                                          date(2026, 3, 26))
    assert (e.officer_address, e.treasurer_address, e.minutes, e.seconds_per_move) == (
        ("12 Chess Lane", "Anytown"), ("treasurer@example.org",), 25, 10)
    assert sub.players == (EcfPlayer(11, "Smith, Ann", "123456A"), EcfPlayer(12, "Jones, Bob", None, "4ABC"),
                           EcfPlayer(13, "Brown, Cy", "654321L", None, "12345678"))
    assert [(s.name, s.games) for s in sub.sections] == [
        ("Division 1", (EcfGame(11, 12, "55", "black", None, date(2026, 3, 5)),)),
        ("Rapid", (EcfGame(13, 11, "01", "white", 2, date(2026, 3, 26)),))]
    assert check(sub) == []


@pytest.mark.parametrize("text, message", [
    ("#PLAYER LIST#FINISH#", "the ECF file has PLAYERLIST where EVENT DETAILS is expected"),
    ("#EVENT DETAILS#EVENT DATE=2026-03-05#FINISH#", "the ECF file's EVENT DATE cannot be '2026-03-05'"),
    ("#EVENT DETAILS#EVENT DATE=31/02/2026#FINISH#", "the ECF file's EVENT DATE cannot be '31/02/2026'"),
    ("#EVENT DETAILS#PLAYER LIST#PIN=x#FINISH#", "the ECF file's PIN cannot be 'x'"),
    ("#EVENT DETAILS#PLAYER LIST#PIN=1#NAME=A", "the ECF file has the end where FINISH is expected"),
])
def test_the_reader_refuses_what_it_cannot_read(text, message):
    with pytest.raises(FormatError) as refused:
        parse(text)
    assert str(refused.value) == message


def test_the_checks():
    ok = Submission(EVENT, (EcfPlayer(1, "Smith, Ann", "123456A"), EcfPlayer(2, "Jones, Bob", None, "4ABC")),
                    (Section("X", (EcfGame(1, 2, "10", "white", 1, date(2026, 1, 8)),)),))
    assert check(ok) == []

    def problems(**changes):
        event = Event(**{**EVENT.__dict__, **changes.pop("event", {})})
        players = changes.pop("players", ok.players)
        games = changes.pop("games", ok.sections[0].games)
        return [str(p) for p in check(Submission(event, players, (Section("X", games),)))]

    assert problems(event={"code": " ", "treasurer_address": ()}) == ["the ECF file needs EVENT CODE",
                                                                     "the ECF file needs TREASURER ADDRESS"]
    assert problems(event={"minutes": None}) == ["the ECF file needs MINUTES FOR GAME"]
    assert problems(players=(EcfPlayer(1, "Smith, Ann", "123456I"), EcfPlayer(2, "Jones, Bob", None))) == [
        "Smith, Ann's ECF code must be six digits and a check letter (A–H, J, K, L), not '123456I'",
        "Jones, Bob has neither an ECF code nor a CLUB CODE"]
    assert problems(players=(EcfPlayer(1, "A", "123456A"), EcfPlayer(1, "B", "123457A"))) == [
        "the ECF file's PIN cannot be 1", "the ECF file's PIN2 cannot be 2"]
    assert problems(games=(EcfGame(1, 1, "11", "red", 1, date(2027, 1, 1)),)) == [
        "the ECF file's PIN2 cannot be 1", "the ECF file's SCORE cannot be '11'", "the ECF file's COLOUR cannot be 'red'",
        "the ECF file's GAME DATE cannot be 01/01/2027"]
    assert problems(games=()) == ["the ECF file has no played game"]


# -- keizer export --format ecf ---------------------------------------------------------------------


def english_club(tmp_path: Path) -> Path:
    """The sample club with ECF codes: members 1-5 get one, the others none (new to the ECF)."""
    db = tmp_path / "club.db"
    shutil.copy(SAMPLE, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE members SET fed_id = NULL")
        conn.execute("UPDATE members SET fed_id = printf('%06dA', 100000 + id) WHERE id <= 5")
    return db


def test_the_sample_clubs_submission_holds_its_games_played_on_the_board(tmp_path, capsys):
    from keizer.store import Store

    db = english_club(tmp_path)
    before = digest(db)
    code, out, err = run(capsys, db, "export", "--format", "ecf", *OPTIONS, "--club-code", "4ABC")
    assert (code, err) == (0, "") and digest(db) == before
    sub = parse(out)
    assert check(sub) == [] and sub.event.code == "XY12345" and (sub.event.minutes, sub.event.seconds_per_move) == (90, 30)
    store = Store.open(db)
    season = store.load_season(1)
    played = [(r, g) for r in season.rounds for g in r.games if g.played_on_board]
    forfeits = [g for r in season.rounds for g in r.games if g.result is not None and not g.played_on_board]
    assert forfeits, "the sample has forfeits, which the ECF file leaves out"
    games = sub.sections[0].games
    assert len(games) == len(played) and sub.sections[0].name == season.name
    pins = {p.pin: p for p in sub.players}
    names = {p.id: p.name for p in season.players}
    # Every game is there, with its round, its date and the score from White's side.
    assert sorted((g.round, pins[g.pin1].name, pins[g.pin2].name, g.score, g.played.isoformat()) for g in games) == sorted(
        (r.number, names[g.white], names[g.black], {"1-0": "10", "0-1": "01", "1/2-1/2": "55"}[g.result.value], r.date)
        for r, g in played)
    # The members' ECF codes, and the club code for the others.
    with sqlite3.connect(db) as conn:
        codes = dict(conn.execute("SELECT name, fed_id FROM members"))
    assert all(p.ecf_code == codes[p.name] and (p.club_code is None) == (p.ecf_code is not None) for p in sub.players)
    assert {p.ecf_code for p in sub.players if p.ecf_code} <= {f"{100000 + i:06d}A" for i in range(1, 6)}
    # A player's points in the file are their points on the board.
    points = {p.pin: Fraction(0) for p in sub.players}
    for g in games:
        points[g.pin1] += {"10": 1, "01": 0, "55": Fraction(1, 2)}[g.score]
        points[g.pin2] += {"10": 0, "01": 1, "55": Fraction(1, 2)}[g.score]
    key = {names[k]: k for k in names}
    assert all(points[pin] == sum(g.points_of(key[p.name]) for _, g in played if key[p.name] in (g.white, g.black))
               for pin, p in pins.items())


def test_the_export_refuses_in_one_line_and_changes_nothing(tmp_path, capsys):
    db = english_club(tmp_path)
    before = digest(db)
    code, out, err = run(capsys, db, "export", "--format", "ecf", *OPTIONS)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("error: ") and "has neither an ECF code nor a CLUB CODE; set the member's ECF code with " \
        "'keizer member edit --fed-id', or give --club-code" in err
    code, out, err = run(capsys, db, "export", "--format", "ecf", "--club-code", "4ABC")
    assert code == 1 and err.startswith("error: the ECF file needs EVENT CODE; give it with its option of 'keizer "
                                        "export --format ecf': --event-code")
    shutil.copy(SAMPLE, db)  # a Dutch club: KNSB numbers are not ECF codes
    code, out, err = run(capsys, db, "export", "--format", "ecf", *OPTIONS, "--club-code", "4ABC")
    assert code == 1 and "'s ECF code must be six digits and a check letter (A–H, J, K, L), not '" in err
    assert "; set the federation id with 'keizer member edit'" in err
    db = english_club(tmp_path / "x") if (tmp_path / "x").mkdir() is None else db
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rounds SET date = NULL WHERE number = 3 AND competition_id = 1")
    before = digest(db)
    code, out, err = run(capsys, db, "export", "--format", "ecf", *OPTIONS, "--club-code", "4ABC")
    assert code == 1 and err == ("error: round 3 has no date; the ECF rates each game in the month it was played; "
                                 "give the round its date ('keizer attend --round N --date YYYY-MM-DD')\n")
    assert digest(db) == before
    # The sample's cup has no round dates, and a cup's round takes none: the refusal has no hint then.
    code, out, err = run(capsys, db, "-c", "Clubbeker 2025-2026", "export", "--format", "ecf", *OPTIONS,
                         "--club-code", "4ABC")
    assert (code, err) == (1, "error: round 1 has no date; the ECF rates each game in the month it was played\n")
