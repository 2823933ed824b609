"""The published website: valid, escaped, self-contained, deterministic, translated."""

from __future__ import annotations

import glob
import re
import shutil
from fractions import Fraction
from pathlib import Path

import html5lib
import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings, strategies as st
from jinja2 import Environment
from jinja2.ext import babel_extract
from markupsafe import Markup, escape

from conftest import examples, season
from keizer.operations import competition as ops
from keizer.operations.club import set_club
from keizer.publish import publish
from keizer.i18n import LANGUAGES, catalog_path, format_number
from keizer.publish.slugs import slugify
from keizer.publish.render import escaped_text
from keizer.publish.report import season_report
from keizer.scoring import compute_standings
from keizer.store import Store, StoreError
from sites import published_once

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_club.db"


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    store = Store.open(SAMPLE)
    result = published_once(store, out)
    store.close()
    return out, result


def pages(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


def test_every_page_is_valid_html5(sample_site):
    out, _ = sample_site
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    found = pages(out)
    assert len(found) > 70
    for page in found:
        parser.parse(page.read_bytes())  # raises on any parse error
        text = page.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>") and '<meta name="viewport"' in text


def test_site_has_every_kind_of_page(sample_site):
    out, result = sample_site
    comp = out / "2025-2026" / slugify("Interne competitie 2025-2026")
    assert (out / "index.html").exists() and (out / "2025-2026" / "index.html").exists()
    for name in ("index.html", "crosstable.html", "attendance.html", "report.html", "round-1.html", "round-30.html"):
        assert (comp / name).exists(), name
    assert len(list((comp / "players").glob("*.html"))) == 41
    assert result.seasons == ("2025-2026",)


def test_links_resolve_and_nothing_is_external(sample_site):
    out, _ = sample_site
    for page in pages(out):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["'](https?:)?//""", text), page
        for target in re.findall(r"""(?:src|href)=["']([^"'#]+)["']""", text):
            assert (page.parent / target).resolve().exists(), f"{page}: {target}"


def test_standing_page_shows_the_engine_numbers(sample_site):
    out, _ = sample_site
    store = Store.open(SAMPLE)
    s = store.load_season(store.competition()["id"])
    final = compute_standings(s)[-1]
    text = (out / "2025-2026" / slugify(s.name) / "index.html").read_text(encoding="utf-8")
    for e in final.entries[:10]:
        assert format_number(e.score, 2, "en") in text
    names = {p.id: p.name for p in s.players}
    order = [text.index(f">{names[e.player].replace(chr(39), '&#39;')}<") for e in final.entries]
    assert order == sorted(order)


def test_names_are_escaped(tmp_path):
    store = Store.open(tmp_path / "x.db", create=True)
    with store.change("setup", "setup"):
        comp = store.create_competition("<b>Comp</b>", "classic", {})
        for name in ("<script>alert(1)</script>", "Dirk O'Neill \"the rook\"", "Gé 🐴 Paard"):
            store.register(comp, store.add_member(name))
        set_club(store, name="Club & <i>Co</i>")
        ops.mark_attendance(store, comp, {})
        ops.make_pairing(store, comp)
    out = tmp_path / "site"
    publish(store, out)
    everything = "".join(p.read_text(encoding="utf-8") for p in pages(out))
    assert "<script>" not in everything and "<b>Comp" not in everything and "<i>Co" not in everything
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in everything
    assert "Gé 🐴 Paard" in everything and "Club &amp; &lt;i&gt;Co&lt;/i&gt;" in everything


def test_deterministic_and_incremental(tmp_path, sample_site):
    out, _ = sample_site
    store = Store.open(SAMPLE)
    again = tmp_path / "again"
    publish(store, again)
    for page in out.rglob("*"):
        if page.is_file():
            assert (again / page.relative_to(out)).read_bytes() == page.read_bytes(), page
    stamps = {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()}
    result = publish(store, again)
    assert result.written == ()
    assert {p: p.stat().st_mtime_ns for p in again.rglob("*") if p.is_file()} == stamps


def test_keizer_standing_shows_the_fide_tie_breaks_it_lists(tmp_path):
    from keizer.scoring import tiebreak_values

    db = tmp_path / "tb.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    comp = store.competition()["id"]
    with store.change("settings", "tie-breaks"):
        store.update_settings(comp, {"tiebreaks": "SB,DE,rating"})
    out = tmp_path / "site"
    publish(store, out)
    s = store.load_season(comp)
    final = compute_standings(s)[-1]
    values = tiebreak_values(s, final)
    text = (out / "2025-2026" / slugify(s.name) / "index.html").read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    # Each tie-break column says what it is (hover), and the legend under the table says it in print.
    assert ('<th scope="col" class="num opt"><abbr title="Sonneborn-Berger">SB</abbr></th>'
            '<th scope="col" class="num opt"><abbr title="direct encounter">DE</abbr></th>') in text
    assert '<span><b>SB</b> Sonneborn-Berger</span> · <span><b>DE</b> direct encounter</span>' in text
    top = final.entries[0].player
    row = text[text.index(f">{s.player(top).name}<"):]
    row = row[:row.index("</tr>")]
    assert f">{format_number(values[top]['SB'], 2, 'en')}<" in row


def test_changed_result_rewrites_only_what_changed(tmp_path):
    db = tmp_path / "c.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    comp = store.competition()["id"]
    out = tmp_path / "site"
    first = published_once(store, out)
    with store.change("result", "correct"):
        ops.enter_results(store, comp, {1: "0-1"}, round_no=30, correct=True)
    second = publish(store, out)
    assert 0 < len(second.written) < len(first.written)
    assert "static/style.css" not in second.written


def test_dutch_site(tmp_path):
    store = Store.open(SAMPLE)
    out = tmp_path / "nl"
    publish(store, out, language="nl")
    text = (out / "2025-2026" / slugify("Interne competitie 2025-2026") / "index.html").read_text(encoding="utf-8")
    assert '<html lang="nl">' in text and "Stand na ronde 30" in text and "Kruistabel" in text
    s = store.load_season(store.competition()["id"])
    top = next(e.score for e in compute_standings(s)[-1].entries if e.score.denominator != 1)
    assert format_number(top, 2, "nl") in text and "," in format_number(top, 2, "nl")
    round_page = (out / "2025-2026" / slugify(s.name) / "round-1.html").read_text(encoding="utf-8")
    assert "september 2025" in round_page


def template_messages() -> set[str]:
    ids = set()
    for f in glob.glob(str(ROOT / "templates" / "*.html")):
        with open(f, "rb") as fh:
            for _, _, msg, _ in babel_extract(fh, ["_", "gettext", "ngettext"], [], {
                    "trim_blocks": "true", "lstrip_blocks": "true", "extensions": "jinja2.ext.i18n"}):
                ids.add(msg if isinstance(msg, str) else msg[0])
    return ids


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_template_string_is_translated(lang):
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    translated = {m.id for m in catalog if m.id and m.string}
    assert template_messages() <= translated  # the app's strings too: tests/test_app_translations.py


def test_club_settings_logo_and_own_templates(tmp_path):
    db = tmp_path / "c.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    logo = tmp_path / "logo.svg"
    logo.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    with store.change("club", "club"):
        set_club(store, logo=logo, name="SV Caïssa", colour="#004080")
    own = tmp_path / "mine"
    (own / "static").mkdir(parents=True)
    (own / "archive.html").write_text('{% extends "base.html" %}{% block main %}<p>Our own front page</p>{% endblock %}')
    (own / "static" / "style.css").write_text("body { color: black; }")
    out = tmp_path / "site"
    publish(store, out, templates=own)
    front = (out / "index.html").read_text(encoding="utf-8")
    assert "Our own front page" in front and "SV Caïssa" in front and "--club: #004080" in front
    assert (out / "static" / "logo.svg").read_bytes() == logo.read_bytes()
    assert (out / "static" / "style.css").read_text() == "body { color: black; }"
    assert 'src="static/logo.svg"' in front


def test_bad_club_settings_are_refused(tmp_path):
    store = Store.open(tmp_path / "c.db", create=True)
    for kwargs, message in (({"colour": "red;}</style>"}, "colour"), ({"language": "fr"}, "language"),
                            ({"name": " "}, "empty")):
        with pytest.raises(StoreError, match=message):
            with store.change("club", "club"):
                set_club(store, **kwargs)
    with pytest.raises(StoreError, match="no competition"):
        publish(store, tmp_path / "out")


def test_archive_keeps_earlier_seasons(tmp_path):
    out = tmp_path / "site"
    # The newest season first, then an older one: the front page keeps showing the newest.
    for name, rounds in (("2025-2026", None), ("2024-2025", 12)):
        db = tmp_path / f"{name}.db"
        shutil.copy(SAMPLE, db)
        store = Store.open(db)
        with store.change("season", "season"):  # as the database of that season stores it
            store.conn.execute("UPDATE competitions SET season = ?", (name,))
            if rounds:  # make the older season visibly different: drop its later rounds
                store.conn.execute("DELETE FROM rounds WHERE number > ?", (rounds,))
        # The newest season is the set-up (the sample's site, tests/sites.py); the older one the test.
        (publish if rounds else published_once)(store, out)
        store.close()
    front = (out / "index.html").read_text(encoding="utf-8")
    assert "Results up to round 30" in front and "Results up to round 12" not in front
    assert front.index('href="2025-2026/index.html"') < front.index('href="2024-2025/index.html"')
    assert "Standing after round 12" in (out / "2024-2025" / "index.html").read_text(encoding="utf-8")
    assert "Standing after round 30" in (out / "2025-2026" / "index.html").read_text(encoding="utf-8")


def test_front_page_shows_the_current_standing(sample_site):
    out, _ = sample_site
    front = (out / "index.html").read_text(encoding="utf-8")
    assert "Results up to round 30</a> (March 24, 2026)" in front and "Pairings of round 31" not in front
    # The first places of each weekly competition, and a link to the whole standing.
    assert front.count('<table class="standing top">') == 3 and "The whole standing" in front
    # Not the season page twice: that one has every standing in full.
    season = (out / "2025-2026" / "index.html").read_text(encoding="utf-8")
    assert "Standing after round 30" in season and "Standing after round 30" not in front


# -- the season-end report, on a hand-computed season ----------------------------


def test_report_figures_hand_computed():
    from keizer.model import Player

    players = [Player("a", "A", 2000, 1), Player("b", "B", 1800, 2), Player("c", "C", 1600, 3), Player("d", "D", None, 4)]
    rounds = [
        {"games": [("a", "b", "1-0"), ("c", "d", "½-½")]},
        {"games": [("a", "c", "½-½"), ("b", "d", "0-1")]},
        {"games": [("a", "d", "0-1"), ("b", "c", "1-0")]},
        {"games": [("b", "a", "1-0")], "absent": {"c": "excused"}, "bye": ["d"]},
    ]
    s = season(players=players, rounds=rounds, settings={"rematch_gap": 0})
    final = compute_standings(s)[-1]
    report = season_report(s, [(e.player, e.score) for e in final.entries])
    assert [f.player for f in report.prizes] == [e.player for e in final.entries[:3]]
    assert {f.player: f.value for f in report.most_games} == {"a": 4, "b": 4, "c": 3, "d": 3}
    # Unbeaten runs: a W D L L → 2; b L L W W → 2; c D D L → 2; d D W W (bye) → 3.
    assert {f.player: f.value for f in report.unbeaten} == {"d": 3, "a": 2, "b": 2, "c": 2}
    # Performance (rated opponents only, at least 3 games): a scored 1.5/3 against 1800, 1600, 1800
    # → p = .50, dp 0, Ra = 1733.33 → 1733.  b: 2/3 against 2000, 1600, 2000 → p .67, dp 125, Ra 1866.67 → 1992.
    # d (unrated himself): 2.5/3 against 1600, 1800, 2000 → p .83, dp 273, Ra 1800 → 2073.
    # c: 1/2 over rated games only (a, b): fewer than 3 → not listed.
    assert {f.player: f.value for f in report.best_performance} == {"d": 2073, "b": 1992, "a": 1733}
    assert [f.detail for f in report.best_performance] == ["2½/3", "2/3", "1½/3"]
    assert {f.player: f.value for f in report.attendance} == {"a": 4, "b": 4, "d": 4, "c": 3}


def test_number_formatting():
    assert format_number(Fraction(2435, 2), 2, "en") == "1,217.5"
    assert format_number(Fraction(2435, 2), 2, "nl") == "1.217,5"
    assert format_number(Fraction(1, 3), 2, "de") == "0,33"
    assert format_number(Fraction(5, 1000), 2, "en") == "0.01"  # half up
    assert format_number(None, 2, "en") == ""


def test_pages_that_no_longer_exist_are_removed(tmp_path):
    db = tmp_path / "c.db"
    shutil.copy(SAMPLE, db)
    store = Store.open(db)
    comp = store.competition()["id"]
    out = tmp_path / "site"
    with store.change("pair", "pair"):
        pairing = ops.make_pairing(store, comp)
    published_once(store, out)
    page = out / "2025-2026" / slugify("Interne competitie 2025-2026") / "round-31.html"
    assert page.exists()
    store.undo()
    publish(store, out)
    assert not page.exists() and pairing.round == 31
    assert (out / "2025-2026" / slugify("Interne competitie 2025-2026") / "round-30.html").exists()


def test_a_forfeit_loss_ends_an_unbeaten_run():
    from keizer.model import Player

    players = [Player("a", "A", 2000, 1), Player("b", "B", 1800, 2), Player("c", "C", 1600, 3), Player("d", "D", 1500, 4)]
    rounds = [
        {"games": [("a", "b", "1-0"), ("c", "d", "1-0")]},
        {"games": [("a", "c", "-+"), ("b", "d", "1-0")]},   # a loses by forfeit
        {"games": [("a", "d", "1-0"), ("b", "c", "+-")]},   # b wins by forfeit: no game, no break
        {"games": [("a", "c", "1-0"), ("b", "d", "1-0")]},
    ]
    s = season(players=players, rounds=rounds, settings={"rematch_gap": 0})
    final = compute_standings(s)[-1]
    report = season_report(s, [(e.player, e.score) for e in final.entries])
    runs = {f.player: f.value for f in report.unbeaten}
    assert runs["a"] == 2  # won round 1, forfeit loss, then won rounds 3 and 4
    assert runs["b"] == 2  # lost round 1, won round 2, forfeit win round 3, won round 4


def _site(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_rendering_on_several_cores_gives_the_same_site(tmp_path, monkeypatch):
    store = Store.open(SAMPLE)
    monkeypatch.setenv("KEIZER_PUBLISH_WORKERS", "1")
    publish(store, tmp_path / "one")
    monkeypatch.setenv("KEIZER_PUBLISH_WORKERS", "3")
    publish(store, tmp_path / "three")
    store.close()
    assert _site(tmp_path / "one") == _site(tmp_path / "three")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_broken_own_template_is_one_line_and_writes_nothing(tmp_path, monkeypatch, workers):
    monkeypatch.setenv("KEIZER_PUBLISH_WORKERS", workers)
    own = tmp_path / "mine"
    own.mkdir()
    (own / "player.html").write_text('{% extends "base.html" %}{% block main %}{{ player.no_such.thing }}{% endblock %}')
    store = Store.open(SAMPLE)
    out = tmp_path / "site"
    with pytest.raises(StoreError) as refused:
        publish(store, out, templates=own)
    store.close()
    assert str(refused.value).startswith("template player.html: ") and "no_such" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert str(refused.value).endswith("; fix the club's template folder")
    assert not out.exists() or not any(out.rglob("*.html"))


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(st.text(), st.integers(), st.booleans(), st.none(), st.fractions(), st.floats(allow_nan=False),
                 st.text().map(Markup), st.text().map(escape)))
def test_a_printed_value_is_escaped_as_markupsafe_escapes_it(value):
    """The site templates print values through escaped_text (keizer.publish.render.SiteTemplate):
    the characters of markupsafe's escape, for every kind of value a page prints."""
    assert escaped_text(value) == str(escape(value)) and type(escaped_text(value)) is str


def test_a_site_template_escapes_what_it_prints_and_keeps_macros_markup():
    from jinja2 import DictLoader

    from keizer.publish.render import SiteTemplate

    class Env(Environment):
        template_class = SiteTemplate

    loader = DictLoader({"t.html": '{% macro b(x) %}<b>{{ x }}</b>{% endmacro %}{{ v }}|{{ b(v) }}|{{ b(v)|upper }}|{{ n }}'})
    plain, site = Environment(loader=loader, autoescape=True), Env(loader=loader, autoescape=True)
    values = {"v": "<O'Neill & \"Co\">", "n": 12}
    assert site.get_template("t.html").render(**values) == plain.get_template("t.html").render(**values)
    assert "<b>&lt;O&#39;Neill &amp; &#34;Co&#34;&gt;</b>|<B>&LT;O&#39;NEILL" in site.get_template("t.html").render(**values)
