"""Competitions: the list, creating one of each system, players, settings, initial order
and the time-control plan, each compared with what the CLI does on a copy."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from keizer.store import Store
from test_cli import run
from web_helpers import app_words, client_with_csrf, digest, post, sample_app, text

NASTY = "Beker <script>alert(1)</script> \"é\" 🏆"


@pytest.fixture
def web(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def twin(db: Path, tmp_path: Path) -> Path:
    other = tmp_path / "cli.db"
    shutil.copy(db, other)
    return other


def shown(message: str) -> str:
    return " ".join(message.split())


def settings_json(capsys, db: Path, comp: str) -> dict:
    code, out, err = run(capsys, db, "-c", comp, "competition", "settings", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def players_json(capsys, db: Path, comp: str) -> list:
    code, out, err = run(capsys, db, "-c", comp, "player", "list", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_the_pages_render_for_every_system(web):
    app, db, client = web
    page = client.get("/competitions")
    assert page.status_code == 200
    for name in ("Interne competitie 2025-2026", "Rapidtoernooi 2025", "Meerkamp A", "Clubbeker 2025-2026"):
        assert name in text(page)
    assert "30" in text(page)  # rounds played of the Keizer competition
    for comp_id in (1, 2, 3, 4):
        settings = client.get(f"/c/{comp_id}/settings")
        assert settings.status_code == 200
        assert client.get(f"/c/{comp_id}/players").status_code == 200
    keizer = text(client.get("/c/1/settings"))
    assert "fraction of one's own value for an absence with notice" in keizer  # DESCRIPTIONS
    assert "initial order" in keizer and "frozen" in keizer
    assert "planned number of rounds" in text(client.get("/c/2/settings"))
    assert client.get("/c/99/settings").status_code == 404  # no such competition: not found


CREATE = [
    ("keizer", {"preset": "knsb-sixths", "sets": "excused=2/5\ntop=60"},
     ["--preset", "knsb-sixths", "--set", "excused=2/5", "--set", "top=60"]),
    ("roundrobin", {"double": "on", "swap_last_two": "on", "tiebreaks": "SB,WIN", "lots": "7"},
     ["--double", "--swap-last-two", "--tiebreaks", "SB,WIN", "--lots", "7"]),
    ("swiss", {"rounds": "7", "bye_points": "0.5", "excused_points": "0", "initial_colour": "black"},
     ["--rounds", "7", "--bye-points", "0.5", "--excused-points", "0", "--initial-colour", "black"]),
    ("swiss", {"rounds": "5", "pairing": "dubov"}, ["--rounds", "5", "--pairing", "dubov"]),
    ("knockout", {"stages": "regular:2,rapid:2,armageddon:1"}, ["--stages", "regular:2,rapid:2,armageddon:1"]),
    ("team", {"boards": "6", "schedule": "roundrobin", "double": "on"}, ["--boards", "6", "--double"]),
    ("team", {"boards": "4", "schedule": "swiss", "rounds": "5"}, ["--schedule", "swiss", "--rounds", "5"]),
    ("team", {"boards": "4", "schedule": "knockout", "stages": "rapid:4,armageddon:1"},
     ["--schedule", "knockout", "--stages", "rapid:4,armageddon:1"]),
]


@pytest.mark.parametrize("system, form, args", CREATE, ids=[f"{c[0]}-{k}" for k, c in enumerate(CREATE)])
def test_creating_a_competition_of_each_system(web, tmp_path, capsys, system, form, args):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, out, err = run(capsys, cli, "competition", "create", NASTY, "--system", system, "--season", "2026-2027",
                         "--all-members", *args)
    assert code == 0, err
    page = post(client, "/competitions/create", {"system": system, "name": NASTY, "season": "2026-2027",
                                                 "all_members": "on", **form, "back": "/competitions"})
    assert page.status_code == 200
    assert shown(out) in text(page)  # "created … ; 41 players registered"
    body = page.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body and "&lt;script&gt;" in body
    assert settings_json(capsys, db, NASTY) == settings_json(capsys, cli, NASTY)
    assert players_json(capsys, db, NASTY) == players_json(capsys, cli, NASTY)
    s = Store.open(db)
    try:
        row = s.competition(NASTY)
        assert (row["system"], row["season"]) == (system, "2026-2027")
    finally:
        s.close()
    assert NASTY in text(client.get("/competitions"))


@pytest.mark.parametrize("form, args", [
    ({"system": "swiss", "name": "Z"}, ["Z", "--system", "swiss"]),
    ({"system": "keizer", "name": "Z", "sets": "excused"}, ["Z", "--set", "excused"]),
    ({"system": "keizer", "name": "Z", "sets": "excused=veel"}, ["Z", "--set", "excused=veel"]),
    ({"system": "keizer", "name": "Meerkamp A"}, ["Meerkamp A"]),
    ({"system": "roundrobin", "name": "Z", "swap_last_two": "on"}, ["Z", "--system", "roundrobin", "--swap-last-two"]),
    ({"system": "knockout", "name": "Z", "stages": "regular:0"}, ["Z", "--system", "knockout", "--stages", "regular:0"]),
])
def test_a_refused_creation_shows_the_cli_message_and_writes_nothing(web, tmp_path, capsys, form, args):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, _, err = run(capsys, cli, "competition", "create", *args)
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    before = digest(db)
    page = post(client, "/competitions/create", {**form, "back": "/competitions"})
    # the app names its boxes where the command line names its flags
    assert app_words(shown(err).replace(": add --rounds N", ": fill in Swiss: rounds").replace(
        " (--double)", " (tick double round-robin)")) in text(page)
    assert digest(db) == before


def test_changing_a_keizer_setting_as_the_cli_does(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, _, err = run(capsys, cli, "-c", "1", "competition", "settings", "--set", "excused=2/5",
                       "--set", "max_excused=4")
    assert code == 0
    # the form sends every setting; only the changed ones are set
    current = {r: v for r, v in _form_values(client, 1).items()}
    page = post(client, "/c/1/settings", {**current, "s-excused": "2/5", "s-max_excused": "4",
                                          "back": "/c/1/settings"})
    # in words (issue 20), not "excused=2/5, max_excused=4"
    assert "settings: excused: 2/5 of own value; max_excused: at most 4 a season" in text(page)
    assert shown(err) in text(page)  # "changed after round 30: every standing is recomputed …"
    assert settings_json(capsys, db, "1") == settings_json(capsys, cli, "1")
    s = Store.open(db)
    try:
        assert s.settings(1).excused == Fraction(2, 5)
        assert s.last_change()["summary"] == "Interne competitie 2025-2026: settings: excused=2/5, max_excused=4"
    finally:
        s.close()
    before = digest(db)
    page = post(client, "/c/1/settings", {**_form_values(client, 1), "back": "/c/1/settings"})
    assert "nothing changed" in text(page) and digest(db) == before


def _form_values(client, comp_id: int) -> dict[str, str]:
    import re

    body = client.get(f"/c/{comp_id}/settings").get_data(as_text=True)
    import html

    return {name: html.unescape(value) for name, value in
            re.findall(r'<input id="s-[^"]+" name="(s-[^"]+)" value="([^"]*)"', body)}


@pytest.mark.parametrize("comp, setting, value", [
    ("1", "excused", "veel"), ("1", "ladder", "diagonal"), ("1", "top", "0"), ("1", "rating_list", "elo"),
    ("2", "rounds", "3"), ("2", "bye_points", "2"), ("3", "tiebreaks", "XYZ"), ("3", "lots", "abc"),
])
def test_a_refused_setting_shows_the_cli_message_and_the_file_stays_identical(web, tmp_path, capsys, comp, setting,
                                                                              value):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, _, err = run(capsys, cli, "-c", comp, "competition", "settings", "--set", f"{setting}={value}")
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    before = digest(db)
    page = post(client, f"/c/{comp}/settings", {f"s-{setting}": value, "back": f"/c/{comp}/settings"})
    assert page.status_code == 200
    assert shown(err) in text(page)
    assert digest(db) == before


def test_a_system_setting_and_a_closed_setting(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, _, err = run(capsys, cli, "-c", "3", "competition", "settings", "--set", "tiebreaks=SB,WIN")
    assert code == 0, err
    page = post(client, "/c/3/settings", {"s-tiebreaks": "SB,WIN", "back": "/c/3/settings"})
    assert "settings: tiebreaks: SB,WIN" in text(page)
    assert settings_json(capsys, db, "3") == settings_json(capsys, cli, "3")
    # a cup's stages are fixed: no field for them
    assert 'name="s-stages"' not in client.get("/c/4/settings").get_data(as_text=True)


def test_players_add_withdraw_reinstate(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    for target in (cli,):
        assert run(capsys, target, "member", "add", "Laatkomer É")[0] == 0
    post(client, "/members/add", {"name": "Laatkomer É", "back": "/members"})
    s = Store.open(db)
    member_id = s.find_member("Laatkomer É")["id"]
    s.close()
    code, out, err = run(capsys, cli, "-c", "1", "player", "add", f"#{member_id}", "--category", "B")
    assert code == 0, err
    page = post(client, "/c/1/players/add", {"member": str(member_id), "category": "B", "back": "/c/1/players"})
    assert shown(out) in text(page) and shown(err) in text(page)  # the note: placed at the bottom
    assert players_json(capsys, db, "1") == players_json(capsys, cli, "1")
    key = next(p["key"] for p in players_json(capsys, db, "1") if p["name"] == "Laatkomer É")
    code, out, err = run(capsys, cli, "-c", "1", "player", "withdraw", key)
    assert code == 0, err
    page = post(client, "/c/1/players/withdraw", {"player": key, "back": "/c/1/players"})
    assert "Laatkomer É withdrawn after round 30" in text(page)
    assert players_json(capsys, db, "1") == players_json(capsys, cli, "1")
    code, out, err = run(capsys, cli, "-c", "1", "player", "reinstate", key, "--missed", "excused")
    assert code == 0, err
    page = post(client, "/c/1/players/reinstate", {"player": key, "missed": "excused", "back": "/c/1/players"})
    assert shown(out) in text(page)
    assert players_json(capsys, db, "1") == players_json(capsys, cli, "1")
    # refusals: the CLI's message, nothing written
    code, _, err = run(capsys, cli, "-c", "1", "player", "reinstate", key)
    before = digest(db)
    assert shown(err) in text(post(client, "/c/1/players/reinstate", {"player": key, "back": "/c/1/players"}))
    assert digest(db) == before
    assert "name the members to register" in text(post(client, "/c/1/players/add", {"back": "/c/1/players"}))
    assert digest(db) == before


def test_the_initial_order(web, tmp_path, capsys):
    app, db, client = web
    before = digest(db)
    page = post(client, "/c/1/order", {"by": "rating", "back": "/c/1/settings"})
    assert "the initial order is frozen: round 1 has been paired" in text(page) and digest(db) == before
    post(client, "/competitions/create", {"system": "keizer", "name": "Nieuw", "all_members": "on",
                                          "back": "/competitions"})
    s = Store.open(db)
    comp_id = s.competition("Nieuw")["id"]
    names = [p["name"] for p in s.players(comp_id)]
    s.close()
    cli = twin(db, tmp_path)
    hand = [names[-1], names[3]]
    code, out, err = run(capsys, cli, "-c", "Nieuw", "competition", "order", "--by", "hand", *hand,
                         "--format", "json")
    assert code == 0, err
    page = post(client, f"/c/{comp_id}/order", {"by": "hand", "players": "\n".join(hand),
                                                "back": f"/c/{comp_id}/settings"})
    assert "initial order by hand" in text(page)
    code, mine, err = run(capsys, db, "-c", "Nieuw", "competition", "order", "--format", "json")
    assert json.loads(mine) == json.loads(out)
    assert [r["name"] for r in json.loads(mine)[:2]] == hand
    page = post(client, f"/c/{comp_id}/order", {"by": "standing", "source": "1", "back": f"/c/{comp_id}/settings"})
    assert "initial order by the standing of Interne competitie 2025-2026" in text(page)


def test_the_time_control_plan(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    for args, form in ((["rapid 25+10", "--rounds", "1-3"], {"time_control": "rapid 25+10", "rounds": "1-3"}),
                       (["classical 90+30", "--rounds", "4-"], {"time_control": "classical 90+30", "rounds": "4-"}),
                       (["blitz 5+3", "--round", "2"], {"time_control": "blitz 5+3", "round": "2"})):
        code, _, err = run(capsys, cli, "-c", "1", "timecontrol", *args)
        assert code == 0, err
        post(client, "/c/1/timecontrol", {**form, "back": "/c/1/settings"})
    code, want, _ = run(capsys, cli, "-c", "1", "timecontrol", "--format", "json")
    code, got, _ = run(capsys, db, "-c", "1", "timecontrol", "--format", "json")
    assert json.loads(got) == json.loads(want)
    page = client.get("/c/1/settings")
    assert "rapid 25+10" in text(page) and "4-" in text(page)
    # the app names its boxes where the command line names its flags
    in_app = {"error: say which rounds: --rounds RANGE (a plan) or --round N (one round)":
              "error: say which rounds: fill in Rounds (a plan) or one round, not both",
              "error: give a time control, or --clear, not both": "error: give a time control, or tick clear, not both"}
    for form, args in (({"time_control": "rapid"}, ["rapid"]),
                       ({"time_control": "rapid", "rounds": "3-1"}, ["rapid", "--rounds", "3-1"]),
                       ({"time_control": "rapid", "round": "99"}, ["rapid", "--round", "99"]),
                       ({"time_control": "rapid", "rounds": "1", "clear": "on"}, ["rapid", "--rounds", "1", "--clear"])):
        code, _, err = run(capsys, cli, "-c", "1", "timecontrol", *args)
        assert code == 1, err
        before = digest(db)
        in_app_err = app_words(shown(in_app.get(shown(err), err)).replace(
            "; plan it with --rounds 99", "; plan it first under Rounds (3, 1-3 or 4-) as 99"))  # its boxes
        assert in_app_err in text(post(client, "/c/1/timecontrol", {**form, "back": "/c/1/settings"}))
        assert digest(db) == before


def test_a_competition_created_in_the_app_leaves_the_terminals_default(web, capsys):
    app, db, client = web
    code, before, _ = run(capsys, db, "competition", "list", "--format", "json")
    s = Store.open(db)
    default = s.competition()["name"]
    s.close()
    post(client, "/competitions/create", {"system": "swiss", "name": "Snelschaak", "rounds": "5",
                                          "back": "/competitions"})
    s = Store.open(db)
    assert s.competition("Snelschaak") and s.competition()["name"] == default  # plain 'keizer attend' still means it
    s.close()


def test_a_refused_form_comes_back_as_it_was_typed(web):
    app, db, client = web
    before = digest(db)
    page = post(client, "/competitions/create", {"system": "swiss", "name": "Snel <b>", "season": "2026-2027",
                                                 "rounds": "x", "all_members": "on", "back": "/competitions"})
    body = page.get_data(as_text=True)
    assert "error: " in text(page) and digest(db) == before
    swiss = body[body.index('id="create-swiss"'):]
    swiss = swiss[:swiss.index("</details>")]
    assert swiss.startswith('id="create-swiss" open') and 'value="Snel &lt;b&gt;"' in swiss
    assert 'value="2026-2027"' in swiss and 'value="x"' in swiss and 'name="all_members" checked' in swiss
    keizer = body[body.index('id="create-keizer"'):]
    assert not keizer.startswith('id="create-keizer" open') and 'value="Snel' not in keizer[:keizer.index("</details>")]
    # Shown once: the next visit is a fresh form.
    again = client.get("/competitions").get_data(as_text=True)
    assert "Snel &lt;b&gt;" not in again


def test_a_setting_of_a_few_words_is_a_list_and_a_wrong_value_says_what_is_right(web, capsys):
    app, db, client = web
    page = client.get("/c/1/settings").get_data(as_text=True)
    assert '<select id="s-recalculation" name="s-recalculation"' in page
    assert "<option selected>per-round</option><option>fixed-point</option><option>frozen</option>" in page
    assert '<select id="s-absence_decay"' in page
    # Sending the page as it is changes nothing (yes/no stands for the list's false/true).
    form = dict(re.findall(r'name="(s-[a-z_]+)" value="([^"]*)"', page))
    form.update({n: "per-round" if n == "s-recalculation" else v for n, v in form.items()})
    for name in re.findall(r'<select id="s-([a-z_]+)"', page):
        chosen = re.search(rf'name="s-{name}".*?<option selected>([^<]*)</option>', page, re.S)
        form[f"s-{name}"] = chosen[1]
    before = digest(db)
    assert "nothing changed" in text(post(client, "/c/1/settings", {**form, "back": "/c/1/settings"}))
    assert digest(db) == before
    refused = post(client, "/c/1/settings", {**form, "s-excused": "abc", "back": "/c/1/settings"})
    assert "setting excused: 'abc' is not a valid value; give a number such as 1/2, 0.35 or 35%" in text(refused)
    assert digest(db) == before
