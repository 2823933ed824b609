"""Standings, crosstable and a player's history in the app: what ``keizer standings`` and
``keizer history`` show, for every system."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction

import pytest

from keizer.i18n import format_number
from keizer.store import Store
from test_cli import run
from web_helpers import app_hints, client_with_csrf, sample_app, text


def cli_json(capsys, db, *args: str):
    code, out, err = run(capsys, db, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def table_rows(body: str, css: str = "standing") -> list[list[str]]:
    """The body rows of the first table with class ``css``, as the visible text of their cells."""
    table = re.search(rf'<table class="{css}[^"]*">(.*?)</table>', body, re.S)
    assert table, body[:500]
    tbody = re.search(r"<tbody>(.*?)</tbody>", table[1], re.S)[1]
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", tbody, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        rows.append([" ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells])
    return rows


def keys(db, comp: int) -> list[str]:
    store = Store.open(db)
    try:
        return [p["key"] for p in store.players(comp)]
    finally:
        store.close()


@pytest.mark.parametrize("comp", [1, 2, 3, 4])
def test_every_page_renders_for_every_system(tmp_path, comp):
    app, db = sample_app(tmp_path)
    client = app.test_client()
    urls = [f"/c/{comp}/standings", f"/c/{comp}/crosstable", f"/c/{comp}/standings?part=table"]
    urls += [f"/c/{comp}/player/{key}" for key in keys(db, comp)[:3]]
    if comp != 4:
        urls += [f"/c/{comp}/standings?round=1", f"/c/{comp}/crosstable?round=2", f"/c/{comp}/standings?round=0"]
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200, (url, text(page)[:300])


def test_a_player_by_number_in_the_database(tmp_path):
    app, db = sample_app(tmp_path)
    store = Store.open(db)
    first = store.players(1)[0]
    store.close()
    page = app.test_client().get(f"/c/1/player/{first['id']}")
    assert page.status_code == 200 and first["name"] in text(page)


def test_the_keizer_standing_is_the_clis(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    rows = cli_json(capsys, db, "-c", "1", "standings", "--round", "20")
    body = app.test_client().get("/c/1/standings?round=20").get_data(as_text=True)
    assert "Standing after round 20" in text_of(body)
    decimals = 2  # the sample's setting (keizer competition settings: decimals)
    shown = table_rows(body)
    assert len(shown) == len(rows) == 41
    for cli, page in zip(rows, shown):
        assert page[0] == str(cli["rank"])
        assert page[1].startswith(cli["name"])
        assert page[2] == format_number(Fraction(cli["value_exact"]), decimals, "en")
        assert page[3] == format_number(Fraction(cli["score_exact"]), decimals, "en")
        assert page[4:8] == [str(cli[k]) for k in ("games", "wins", "draws", "losses")]


def text_of(body: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.mark.parametrize("comp", [2, 3])
def test_the_points_standing_with_tiebreaks_is_the_clis(tmp_path, capsys, comp):
    app, db = sample_app(tmp_path)
    rows = cli_json(capsys, db, "-c", str(comp), "standings")
    body = app.test_client().get(f"/c/{comp}/standings").get_data(as_text=True)
    shown = table_rows(body)
    assert len(shown) == len(rows) > 0
    codes = list(rows[0]["tiebreaks"])
    assert codes and all(f">{code}</th>" in body for code in codes)
    for cli, page in zip(rows, shown):
        assert page[:3] == [str(cli["rank"]), str(cli["start_no"]), cli["name"]]
        assert page[3] == format_number(Fraction(str(cli["points"])), 2, "en")
        assert page[4:8] == [str(cli[k]) for k in ("games", "wins", "draws", "losses")]
        assert page[8:] == ["" if cli["tiebreaks"][c] is None else format_number(Fraction(str(cli["tiebreaks"][c])), 2, "en")
                            for c in codes]


def test_the_cups_standing_is_its_bracket(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    rows = cli_json(capsys, db, "-c", "4", "standings")
    page = app.test_client().get("/c/4/standings")
    shown = table_rows(page.get_data(as_text=True))
    assert [(r[0], r[1], r[2], r[5]) for r in shown] == [
        (str(r["round"]), str(r["match"]), r["top"], r["winner"]) for r in rows]
    assert "/c/4/cup" in page.get_data(as_text=True)


@pytest.mark.parametrize("comp", [1, 2, 3])
def test_a_players_history_is_the_clis(tmp_path, capsys, comp):
    app, db = sample_app(tmp_path)
    key = keys(db, comp)[1]
    history = cli_json(capsys, db, "-c", str(comp), "history", key)
    body = app.test_client().get(f"/c/{comp}/player/{key}").get_data(as_text=True)
    shown = table_rows(body, "history")
    assert len(shown) == len(history["rounds"]) > 0
    decimals = 2  # the Keizer competition's setting; points always show two
    for cli, page in zip(history["rounds"], shown):
        assert page[0] == str(cli["round"])
        assert page[2] == (cli["opponent"] or cli["kind"])  # no game: why not (excused, bye, …)
        assert page[4] == (cli["result"] or "")
        if comp == 1:
            assert page[5] == format_number(Fraction(str(cli["value_used"])), decimals, "en")
            assert page[6] == cli["factor"]
            assert page[7] == format_number(Fraction(str(cli["points"])), decimals, "en")
        else:
            assert page[5:7] == [format_number(Fraction(str(cli[k])), 2, "en") for k in ("points", "total")]
    assert f"<dd>{history['rank']}</dd>" in body
    # The standing of an earlier round prices it as then.
    early = cli_json(capsys, db, "-c", str(comp), "history", key, "--round", "1")
    body = app.test_client().get(f"/c/{comp}/player/{key}?round=1").get_data(as_text=True)
    assert len(table_rows(body, "history")) == len(early["rounds"])


def test_the_crosstable_has_every_played_round(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = app.test_client()
    keizer = client.get("/c/1/crosstable").get_data(as_text=True)
    rows = table_rows(keizer, "cross")
    assert len(rows) == 41 and len(rows[0]) == 1 + 1 + 30 + 2  # rank, name, 30 rounds, score, value
    standing = cli_json(capsys, db, "-c", "1", "standings")
    assert [r[1] for r in rows] == [s["name"] for s in standing]
    robin = table_rows(client.get("/c/3/crosstable").get_data(as_text=True), "cross")
    assert len(robin) == len(keys(db, 3)) and all(len(r) == 2 + len(robin) + 2 for r in robin)
    swiss = table_rows(client.get("/c/2/crosstable").get_data(as_text=True), "cross")
    assert [r[2] for r in swiss] == [s["name"] for s in cli_json(capsys, db, "-c", "2", "standings")]


def test_refusals_of_a_round_not_played_and_an_unknown_player(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = app.test_client()
    code, _, err = run(capsys, db, "-c", "3", "standings", "--round", "5")
    assert code != 0
    page = client.get("/c/3/standings?round=5")
    assert page.status_code == 400 and err.strip() in text(page)
    code, _, err = run(capsys, db, "-c", "1", "history", "nobody-here")
    page = client.get("/c/1/player/nobody-here")
    assert page.status_code == 400 and app_hints(err.strip()) in text(page)  # the app names its page, not a command


def test_names_with_markup_are_shown_as_text(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    evil = "<script>alert('x')</script> \"Q\" Zoë 🐴"
    key = keys(db, 3)[0]
    store = Store.open(db)
    name = store.players(3)[0]["name"]
    store.close()
    code, _, err = run(capsys, db, "member", "edit", name, "--name", evil)
    assert code == 0, err
    client = client_with_csrf(app)
    escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &#34;Q&#34; Zoë 🐴"
    for url in ("/c/3/standings", "/c/3/crosstable", f"/c/3/player/{key}", "/c/3/standings?part=table",
                "/c/3/results"):
        body = client.get(url).get_data(as_text=True)
        assert "<script>alert" not in body, url
        assert escaped in body, url
