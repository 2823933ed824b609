"""The knock-out cup page: the bracket, the draw, results, the next games, the award —
the same database as the CLI's commands give, and the CLI's one-line refusals."""

from __future__ import annotations

import json
import shutil

from test_cli import run
from web_helpers import app_hints, client_with_csrf, digest, post, sample_app, text

CUP = "/c/4/cup"


def bracket(capsys, db):
    code, out, err = run(capsys, db, "-c", "4", "knockout", "bracket", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def games(capsys, db, r):
    code, out, err = run(capsys, db, "-c", "4", "pairings", "--round", str(r), "--format", "json")
    assert code == 0, err
    return json.loads(out)["pairs"]


def test_the_bracket_shows_every_match(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    page = client_with_csrf(app).get(CUP)
    assert page.status_code == 200
    shown = text(page)
    for m in bracket(capsys, db):
        for side in (m["top"], m["bottom"]):
            assert side in shown
    assert "Quarter-finals" in shown or "Round 2" in shown and "Final" in shown
    assert 'name="b7"' in page.get_data(as_text=True)  # round 2's open games take results


def test_results_and_next_as_on_the_cli(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    cli_db = tmp_path / "cli.db"
    shutil.copy(db, cli_db)
    client = client_with_csrf(app)
    page = post(client, f"{CUP}/result", {"round": "2", "b7": "1-0", "b8": "1/2-1/2", "back": CUP})
    assert "round 2: 2 results entered; round complete" in text(page)
    assert run(capsys, cli_db, "-c", "4", "result", "--round", "2", "7=1-0", "8=½-½")[0] == 0
    assert bracket(capsys, db) == bracket(capsys, cli_db)
    page = post(client, f"{CUP}/next", {"back": CUP})
    code, out, _ = run(capsys, cli_db, "-c", "4", "knockout", "next")
    assert code == 0 and out.strip().splitlines()[0] in text(page)
    assert bracket(capsys, db) == bracket(capsys, cli_db)
    assert games(capsys, db, 3) == games(capsys, cli_db, 3)
    # An unchanged form changes nothing; a correction needs the box ticked (as --correct).
    before = digest(db)
    page = post(client, f"{CUP}/result", {"round": "2", "b7": "1-0", "back": CUP})
    assert "no result was changed" in text(page) and digest(db) == before
    page = post(client, f"{CUP}/result", {"round": "2", "b1": "1-0", "back": CUP})
    _, _, err = run(capsys, cli_db, "-c", "4", "result", "--round", "2", "1=1-0")
    assert app_hints(err.strip()) in text(page) and "use --correct" in err
    assert digest(db) == before


def test_refusals_leave_the_file_as_it_was(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    cli_db = tmp_path / "cli.db"
    shutil.copy(db, cli_db)
    cases = [
        (f"{CUP}/result", {"round": "2", "b7": "2-0"}, ("result", "--round", "2", "7=2-0")),
        (f"{CUP}/result", {"round": "2", "b99": "1-0"}, ("result", "--round", "2", "99=1-0")),
        (f"{CUP}/award", {"round": "2", "match": "9", "winner": "Jan Smits"}, ("knockout", "award", "2", "9", "Jan Smits")),
        (f"{CUP}/award", {"round": "2", "match": "2", "winner": "Frank Kok"}, ("knockout", "award", "2", "2", "Frank Kok")),
    ]
    for url, form, args in cases:
        code, _, err = run(capsys, cli_db, "-c", "4", *args)
        assert code == 1 and err.startswith("error: ")
        page = post(client, url, {**form, "back": CUP})
        assert err.strip() in text(page), (args, text(page)[:300])
        assert digest(db) == before
    # The draw, once results are in, is refused.
    _, _, err = run(capsys, cli_db, "-c", "4", "knockout", "draw")
    assert err.strip() in text(post(client, f"{CUP}/draw", {"back": CUP}))
    assert digest(db) == before


def test_award_and_draw(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    page = post(client, f"{CUP}/award", {"round": "2", "match": "2", "winner": "Anna Hendriks", "back": CUP})
    assert "round 2 match 2 awarded to Anna Hendriks" in text(page)
    m = next(x for x in bracket(capsys, db) if (x["round"], x["match"]) == (2, 2))
    assert m["winner"] == "Anna Hendriks" and m["how"] == "awarded by the arbiter"


def test_a_new_cup_drawn_from_the_page_with_awkward_names(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    names = ["<script>alert(1)</script>", 'Dirk "Q" O\'Neill', "Gé 🐴 Paard"]
    for name in names:
        assert run(capsys, db, "member", "add", name, "--rating", "1500")[0] == 0
    assert run(capsys, db, "competition", "create", "Beker", "--system", "knockout",
               "--stages", "regular:1,armageddon:1")[0] == 0
    code, out, _ = run(capsys, db, "competition", "list", "--format", "json")
    comp_id = next(c["id"] for c in json.loads(out) if c["name"] == "Beker")
    assert run(capsys, db, "-c", str(comp_id), "player", "add", *names, "Jan Smits")[0] == 0
    client = client_with_csrf(app)
    url = f"/c/{comp_id}/cup"
    assert client.get(url).status_code == 200
    page = post(client, f"{url}/draw", {"order": "Jan Smits\n" + "\n".join(names), "back": url})
    body = page.get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "Gé 🐴 Paard" in body and "O&#39;Neill" in body
    code, out, _ = run(capsys, db, "-c", str(comp_id), "knockout", "bracket", "--format", "json")
    first = json.loads(out)
    assert [(m["top"], m["bottom"]) for m in first if m["round"] == 1] == [("Jan Smits", names[2]),
                                                                            (names[0], names[1])]
    # Results by the form: a level regular game brings the armageddon with 'next'.
    code, out, _ = run(capsys, db, "-c", str(comp_id), "pairings", "--round", "1", "--format", "json")
    boards = {p["board"] for p in json.loads(out)["pairs"]}
    post(client, f"{url}/result", {"round": "1", **{f"b{b}": "1/2-1/2" for b in boards}, "back": url})
    page = post(client, f"{url}/next", {"back": url})
    assert "armageddon game(s)" in text(page)


def test_other_systems_have_no_cup_page(tmp_path):
    app, _ = sample_app(tmp_path)
    assert client_with_csrf(app).get("/c/1/cup").status_code == 404
