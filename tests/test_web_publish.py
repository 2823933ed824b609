"""The publish page (/publish): the club website in one click into a folder (by default
'site' next to the database, then the folder last used), with what changed; a second
publish changes nothing; officers only."""

from __future__ import annotations

from keizer.store import Store
from sites import published_once
from web_helpers import client_with_csrf, digest, post, sample_app, text


def published_before(db) -> None:
    """The club's site published before into 'site' next to the database, for a test of the
    upload after the publish (a copy of the same site published before, see tests/sites.py):
    the page's publish finds it up to date and goes on to send it."""
    store = Store.open(db)
    try:
        published_once(store, db.parent / "site")
    finally:
        store.close()


def test_the_page_offers_the_folder_next_to_the_database(tmp_path):
    app, db = sample_app(tmp_path)
    page = app.test_client().get("/publish")
    assert page.status_code == 200
    assert str(db.parent / "site") in page.get_data(as_text=True) and "Publish now" in text(page)


def test_publish_writes_the_site_and_says_what_changed(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    page = post(client, "/publish", {"folder": ""})
    site = db.parent / "site"
    shown = text(page)
    assert page.status_code == 200 and (site / "index.html").is_file()
    written = [p for p in site.rglob("*") if p.is_file() and p.name != ".keizer-manifest.json"]
    assert f"{len(written)} files written, 0 unchanged, 0 removed" in shown
    assert "2025-2026/interne-competitie-2025-2026/index.html" in shown  # a changed page, by name
    s = Store.open(db)
    assert s.get_meta("publish_folder") == str(site)  # remembered for next time (the only write)
    s.close()

    # Nothing changed since: nothing is written, and the database is not touched.
    before, stamps = digest(db), {p: p.stat().st_mtime_ns for p in written}
    page = post(client, "/publish", {"folder": str(site)})
    assert f"Nothing changed: the website was up to date ({len(written)} files)" in text(page)
    assert digest(db) == before and {p: p.stat().st_mtime_ns for p in written} == stamps

    # A member is renamed: the pages that show the name are rewritten, the old player pages removed.
    s = Store.open(db)
    with s.change("member edit", "rename"):
        s.update_member(next(m["id"] for m in s.members() if m["name"] == "Ingrid Müller"), name="Ingrid Maas")
    s.close()
    page = post(client, "/publish", {})
    shown = text(page)
    assert "files written" in shown and "Nothing changed" not in shown
    assert "interne-competitie-2025-2026/players/ingrid-maas.html" in shown
    assert "Removed" in shown and "interne-competitie-2025-2026/players/ingrid-muller.html" in shown
    assert not (site / "2025-2026/interne-competitie-2025-2026/players/ingrid-muller.html").exists()
    assert "2025-2026/interne-competitie-2025-2026/players/anna-hendriks.html" not in shown  # unchanged


def test_a_relative_folder_is_next_to_the_database_and_is_remembered(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    post(client, "/publish", {"folder": "www"})
    assert (db.parent / "www" / "index.html").is_file()
    assert str(db.parent / "www") in client.get("/publish").get_data(as_text=True)


def test_a_folder_that_is_a_file_is_refused(tmp_path):
    app, db = sample_app(tmp_path)
    (tmp_path / "afile").write_text("x")
    before = digest(db)
    page = post(client_with_csrf(app), "/publish", {"folder": str(tmp_path / "afile")})
    assert "is a file; give a folder to publish into" in text(page)
    assert digest(db) == before


def test_a_club_name_with_markup_is_text(tmp_path):
    app, db = sample_app(tmp_path)
    s = Store.open(db)
    with s.change("club", "name"):
        s.set_meta("club_name", '<script>alert(1)</script> Zoë 🎉')
    s.close()
    page = app.test_client().get("/publish")
    body = page.get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_publish_sends_the_site_on_to_the_web_host_and_remembers_it(tmp_path, capsys):
    from test_cli import run

    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    host = tmp_path / "host" / "public_html"
    host.mkdir(parents=True)
    (host / "club-photo.jpg").write_bytes(b"not keizer's")
    published_before(db)
    page = post(client, "/publish", {"folder": "", "upload": "on", "target": str(host)})
    site = db.parent / "site"
    shown = text(page)
    files = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.name != ".keizer-manifest.json"]
    assert f"Sent to {host}: {len(files)} files sent, 0 removed, 0 unchanged" in shown
    assert all((host / f).read_bytes() == (site / f).read_bytes() for f in files)
    assert (host / "club-photo.jpg").read_bytes() == b"not keizer's"  # left alone
    # The address is the club's upload setting now, as after 'keizer publish --upload'.
    code, out, _ = run(capsys, db, "club", "--format", "json")
    assert code == 0 and f'"upload": "{host}"' in out
    assert f'value="{host}"' in client.get("/publish").get_data(as_text=True)
    again = post(client, "/publish", {"folder": "", "upload": "on", "target": str(host)})
    assert f"0 files sent, 0 removed, {len(files)} unchanged" in text(again)


def test_a_password_in_the_address_is_refused_before_anything_is_written(tmp_path):
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/publish", {"folder": "", "upload": "on", "target": "ftp://anna:secret@ftp.example.nl/www"})
    shown = text(page)
    assert shown.count("error: ") == 1 and "secret" not in shown and "password" in shown
    assert not (db.parent / "site").exists() and digest(db) == before
    page = post(client, "/publish", {"folder": "", "upload": "on", "target": ""})
    assert "error: no web host given" in text(page) and not (db.parent / "site").exists()


def test_files_keizer_did_not_put_on_the_host_are_replaced_only_when_ticked(tmp_path):
    """The app says what the command line's --replace says, as its box: refused first, sent when ticked."""
    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    host = tmp_path / "host" / "public_html"
    host.mkdir(parents=True)
    (host / "index.html").write_bytes(b"<p>the old club site</p>")
    published_before(db)
    page = post(client, "/publish", {"folder": "", "upload": "on", "target": str(host)})
    assert ("would be replaced (the first: index.html); upload into a folder of its own (…/schaak), or tick "
            "'Replace files keizer did not put there' if they are an old copy of the site") in text(page)
    assert "--replace" not in text(page) and (host / "index.html").read_bytes() == b"<p>the old club site</p>"
    page = post(client, "/publish", {"folder": "", "upload": "on", "target": str(host), "replace": "on"})
    assert "Sent to" in text(page)
    assert (host / "index.html").read_bytes() == (db.parent / "site" / "index.html").read_bytes()
