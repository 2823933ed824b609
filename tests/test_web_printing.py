"""The Print pages: the pairing list for the notice board, result slips (with each board's
result link and QR code, made when the slips are printed), score sheets, the attendance
sheet to sign and the standing, for the sample club's Keizer, Swiss and round-robin."""

from __future__ import annotations

import json
import re

import pytest
import segno

from keizer.limits import name_order
from keizer.operations import boards as board_ops
from keizer.store import Store
from test_cli import run
from web_helpers import client_with_csrf, digest, post, sample_app, text

PAGES = ("", "/pairings", "/slips", "/scoresheets", "/attendance", "/standings")
NASTY = "<script>alert(1)</script> \"Zoë\" O'Neill 🐴"


@pytest.fixture
def club(tmp_path, capsys):
    """The sample club with the Keizer's round 31 paired (as the officer does with the CLI)."""
    app, db = sample_app(tmp_path)
    assert run(capsys, db, "-c", "1", "pair")[0] == 0
    return app, db


def slip_codes(page) -> dict[int, str]:
    """{board: code} of the slips on a page."""
    body = page.get_data(as_text=True)
    found = re.findall(r'class="slip-board">Board (\d+)</p>.*?/b/([A-Z2-9]{8})</p>', body, flags=re.S)
    return {int(board): code for board, code in found}


def rename(db, old: str, new: str) -> None:
    store = Store.open(db)
    member = store.find_member(old)
    with store.change("member edit", "rename"):
        store.update_member(member["id"], name=new)
    store.close()


@pytest.mark.parametrize("comp_id", [1, 2, 3])
def test_every_print_page_renders_for_each_weekly_system(club, comp_id):
    app, _ = club
    client = app.test_client()
    for page in PAGES:
        response = client.get(f"/c/{comp_id}/print{page}")
        assert response.status_code == 200, (comp_id, page, text(response)[:300])
        assert "@page" not in response.get_data(as_text=True)  # the A4 rules live in print.css
    index = client.get(f"/c/{comp_id}/print").get_data(as_text=True)
    for page in PAGES[1:]:
        assert f'/c/{comp_id}/print{page}"' in index
    assert "@page { size: A4" in client.get("/static/print.css").get_data(as_text=True)


def test_a_cup_prints_its_attendance_sheet_and_says_what_else(club):
    app, db = club
    client = app.test_client()
    assert client.get("/c/4/print").status_code == 200
    assert client.get("/c/4/print/attendance").status_code == 200
    before = digest(db)
    page = client.get("/c/4/print/pairings")
    assert page.status_code == 400 and "error: a knockout competition has no pairing list" in text(page)
    assert client.get("/c/4/print/standings").status_code == 200
    assert digest(db) == before


def test_the_keizer_pairing_list_shows_the_round_its_boards_and_who_is_absent(club, capsys):
    app, db = club
    page = text(app.test_client().get("/c/1/print/pairings"))
    assert "Chess club" in page and "Interne competitie 2025-2026" in page and "Pairings · round 31" in page
    # Each player's rank and value in the standing before the round (what a win against them earns).
    code, out, _ = run(capsys, db, "-c", "1", "standings", "--format", "json")
    ranked = {r["name"]: r for r in json.loads(out)}
    kees, wouter = ranked["Kees Bakker"], ranked["Wouter van der Meer"]
    assert (f"15 {kees['rank']} Kees Bakker {kees['value']} – {wouter['value']} Wouter van der Meer "
            f"{wouter['rank']}") in page
    assert "Not playing: Cor Peters (excused)" in page and "Lars van Dijk (unexcused)" in page


def test_the_swiss_pairing_list_has_pairing_numbers_and_points_and_any_round(club):
    app, _ = club
    client = app.test_client()
    page = text(client.get("/c/2/print/pairings"))
    assert "Rapidtoernooi 2025" in page and "round 5" in page
    assert "1 5 Bram Jacobs 3 0-1 4 Daan van Beek 2" in page
    first = text(client.get("/c/2/print/pairings?round=1"))
    assert "round 1" in first and "Bram Jacobs" in first and "round 5" not in first.split("Show")[-1]
    before = digest(club[1])
    refused = client.get("/c/2/print/pairings?round=9")
    assert refused.status_code == 400 and "error: round 9 has not been paired yet" in text(refused)
    assert "error: round 'x' is not a whole number" in text(client.get("/c/2/print/pairings?round=x"))
    assert digest(club[1]) == before


def test_the_attendance_sheet_lists_every_active_player_by_name_with_a_signature_column(club):
    app, db = club
    page = app.test_client().get("/c/1/print/attendance")
    body = page.get_data(as_text=True)
    names = re.findall(r"<tr><td>([^<]+)</td><td class=\"num\">", body)
    store = Store.open(db)
    season = store.load_season(1)
    store.close()
    # A–Z as a reader expects, accents aside (Łukasz among the L's): the one key of every list
    expected = sorted((p.name for p in season.players if p.active_in(31)), key=name_order)
    assert [n.replace("&#39;", "'") for n in names] == expected and len(names) == 40
    assert 'class="signature"' in body and "<thead>" in body


def test_the_standing_prints_with_a_repeated_header_and_the_cli_s_order(club, capsys):
    app, db = club
    client = app.test_client()
    body = client.get("/c/1/print/standings").get_data(as_text=True)
    assert "<thead>" in body and "Standing after round 30" in text(client.get("/c/1/print/standings"))
    _, out, _ = run(capsys, db, "-c", "1", "standings", "--format", "json")
    import json

    first = json.loads(out)[0]["name"]
    assert re.search(r'<td class="num">1</td>\s*<td>' + re.escape(first), body)
    swiss = text(client.get("/c/2/print/standings?round=3"))
    assert "Standing after round 3" in swiss
    css = client.get("/static/print.css").get_data(as_text=True)
    assert "thead { display: table-header-group; }" in css and "break-inside: avoid" in css


def test_score_sheets_one_per_board(club):
    """The Print page says "one A4 page per board": one sheet per board, both players named
    on it (it was a sheet per player, twice the paper: issue 20, defect 7)."""
    app, _ = club
    body = app.test_client().get("/c/3/print/scoresheets").get_data(as_text=True)
    assert body.count('<article class="scoresheet">') == 3  # three boards
    assert body.count("Łukasz Wójcik") == 1 and "<td class=\"num\">60</td>" in body


def test_printing_slips_makes_the_links_once_and_stores_only_their_hashes(club):
    app, db = club
    client = client_with_csrf(app)
    before = digest(db)
    page = client.get("/c/3/print/slips")
    assert page.status_code == 200 and digest(db) == before  # looking writes nothing
    assert not slip_codes(page) and "Make links and show the slips to print" in text(page)
    made = post(client, "/c/3/print/slips", {"which": "missing"})
    assert made.status_code == 200 and "round 5: links made for boards 1, 2, 3" in text(made)
    codes = slip_codes(made)
    assert sorted(codes) == [1, 2, 3] and len(set(codes.values())) == 3
    raw = db.read_bytes()
    for code in codes.values():
        assert code.encode() not in raw and code.lower().encode() not in raw
        assert board_ops.code_hash(code).encode() in raw
    store = Store.open(db)
    assert store.board_links(3, 5) == [1, 2, 3]
    assert store.last_change()["command"] == "print slips"
    store.close()
    # Shown once: the page does not show them again, and making them again is refused.
    again = client.get("/c/3/print/slips")
    assert not slip_codes(again) and "Every board of this round has its link already" in text(again)
    before = digest(db)
    refused = post(client, "/c/3/print/slips", {"which": "missing"})
    assert "error: every board of round 5 has its link already" in text(refused)
    assert digest(db) == before


def test_new_links_for_the_round_replace_the_old_ones(club):
    app, db = club
    client = client_with_csrf(app)
    old = slip_codes(post(client, "/c/3/print/slips", {"which": "missing"}))
    new = slip_codes(post(client, "/c/3/print/slips", {"which": "all"}))
    assert sorted(new) == [1, 2, 3] and not set(old.values()) & set(new.values())
    assert client.get(f"/b/{old[1]}").status_code == 404
    assert client.get(f"/b/{new[1]}").status_code == 200


def test_the_qr_code_is_segno_s_code_of_the_board_s_link(club):
    app, _ = club
    client = client_with_csrf(app)
    made = post(client, "/c/3/print/slips", {"which": "missing"})
    body = made.get_data(as_text=True)
    for board, code in slip_codes(made).items():
        url = f"http://localhost/b/{code}"
        svg = segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True)
        assert svg.startswith("<svg") and svg in body, board
        assert f'<p class="url">{url}</p>' in body


def test_slips_of_an_earlier_round_have_no_links(club):
    app, db = club
    client = client_with_csrf(app)
    page = client.get("/c/3/print/slips?round=4")
    assert page.status_code == 200 and "these slips have none" in text(page)
    before = digest(db)
    refused = post(client, "/c/3/print/slips?round=4", {"which": "missing"})
    assert "error: result links are made for the round being played (round 5), not round 4" in text(refused)
    assert digest(db) == before


def test_a_change_of_the_pairing_kills_the_links_of_the_boards_it_changes(club, capsys):
    app, db = club
    client = client_with_csrf(app)
    codes = slip_codes(post(client, "/c/1/print/slips", {"which": "missing"}))
    assert len(codes) == 15
    assert run(capsys, db, "-c", "1", "swap", "Inge Vos", "Frank Kok")[0] == 0  # boards 1 and 2
    assert client.get(f"/b/{codes[1]}").status_code == 404
    assert client.get(f"/b/{codes[2]}").status_code == 404
    assert client.get(f"/b/{codes[3]}").status_code == 200
    page = client.get("/c/1/print/slips")
    assert "Make links for boards 1, 2 and show their slips" in text(page)
    remade = slip_codes(post(client, "/c/1/print/slips", {"which": "missing"}))
    assert sorted(remade) == [1, 2]
    assert "Frank Kok" in text(client.get(f"/b/{remade[1]}"))
    # Removing the pairing removes every link with it.
    assert run(capsys, db, "-c", "1", "unpair")[0] == 0
    assert client.get(f"/b/{codes[3]}").status_code == 404


def test_names_with_markup_are_text_on_every_print_page(club):
    app, db = club
    rename(db, "Łukasz Wójcik", NASTY)
    client = client_with_csrf(app)
    pages = [client.get(f"/c/3/print{page}") for page in PAGES]
    pages.append(post(client, "/c/3/print/slips", {"which": "missing"}))
    for page in pages:
        body = page.get_data(as_text=True)
        assert page.status_code == 200
        assert "<script>alert" not in body
    for page in pages[1:]:
        assert NASTY in text(page)
