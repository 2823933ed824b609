"""The app's pages over kept standings (issue 25): what is kept per state of a competition —
its standing, crosstable and their 600 rows of HTML — follows every change and every
language, and is what the pages showed when everything was made again for each request."""

from __future__ import annotations

import re

import pytest

from keizer.operations import standings as standings_ops
from keizer.store import Store
from keizer.web.views import standings as standings_view
from test_cli import run
from test_web_standings import table_rows
from web_helpers import client_with_csrf, sample_app

PAGES = ("/c/1/crosstable", "/c/1/crosstable?round=12", "/c/1/standings", "/c/1/standings?part=table",
         "/c/1/results", "/c/1/venue.json", "/c/1/standings?provisional=1")


def forget() -> None:
    """Nothing kept: every page made again, as before issue 25."""
    standings_ops._kept.clear()
    standings_view._made.clear()


def shown(client, url: str) -> str:
    body = client.get(url).get_data(as_text=True)
    body = re.sub(r'name="csrf[^"]*" value="[^"]*"', "", body)
    return " ".join(re.sub(r">\s+<", "><", body).split())


def pages(client) -> dict[str, str]:
    return {url: shown(client, url) for url in PAGES}


def made_again(client) -> dict[str, str]:
    forget()
    return pages(client)


def test_the_kept_pages_follow_every_change(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = app.test_client()
    kept = pages(client)
    assert kept == pages(client) == made_again(client)
    before = table_rows(kept["/c/1/crosstable"], "cross")
    # a result of the last round corrected, another program's write (the CLI): every page follows
    code, _, err = run(capsys, db, "-c", "1", "result", "--round", "30", "--correct", "1=0-1")
    assert code == 0, err
    changed = pages(client)
    assert changed != kept and table_rows(changed["/c/1/crosstable"], "cross") != before
    assert changed == made_again(client)
    # undone: the pages are those of before again
    assert run(capsys, db, "undo")[0] == 0
    assert pages(client) == kept
    # a result of an early round corrected: the standings of every later round follow
    code, _, err = run(capsys, db, "-c", "1", "result", "--round", "3", "--correct", "2=0-1", "3=1-0")
    assert code == 0, err
    early = pages(client)
    assert early != kept and early == made_again(client)


def test_the_kept_rows_are_in_the_clubs_language(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = app.test_client()
    english = pages(client)
    assert run(capsys, db, "club", "--language", "nl")[0] == 0
    dutch = pages(client)
    assert dutch != english and dutch == made_again(client)
    assert 'title="afgemeld"' in dutch["/c/1/crosstable"] or 'title="afwezig' in dutch["/c/1/crosstable"]


def test_names_with_markup_are_text_in_the_kept_keizer_rows(tmp_path, capsys):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    client.get("/c/1/crosstable")
    store = Store.open(db)
    name = store.players(1)[0]["name"]
    store.close()
    evil = "<script>alert('x')</script> \"Q\" Zoë 🐴"
    code, _, err = run(capsys, db, "member", "edit", name, "--name", evil)
    assert code == 0, err
    escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &#34;Q&#34; Zoë 🐴"
    for url in ("/c/1/crosstable", "/c/1/standings", "/c/1/standings?part=table", "/c/1/results"):
        body = client.get(url).get_data(as_text=True)
        assert "<script>alert" not in body, url
        assert escaped in body, url


@pytest.mark.parametrize("url", ["/c/1/crosstable", "/c/1/standings"])
def test_a_new_state_drops_the_rows_made_of_the_last(tmp_path, capsys, url):
    """A club evening makes a new state with every result: the HTML made of the states before
    is not kept beside it."""
    app, db = sample_app(tmp_path)
    client = app.test_client()
    forget()
    client.get(url)
    for k, result in enumerate(("0-1", "1-0", "1/2-1/2")):
        assert run(capsys, db, "-c", "1", "result", "--round", "30", "--correct", f"2={result}")[0] == 0
        client.get(url)
        assert len({key[2] for key in standings_view._made if key[1] == 1}) == 1


def test_a_serving_process_collects_garbage_less_often():
    """``keizer serve`` raises the collector's thresholds (``web.served_gc``): a request's
    objects go before the first collection instead of making full ones walk all that is kept."""
    import gc

    from keizer.web import SERVED_GC, served_gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # Python's own (a serve command run in this process raised them)
        served_gc()
        assert gc.get_threshold() == SERVED_GC and SERVED_GC[0] > 700
    finally:
        gc.set_threshold(*before)
