"""The club page (issue 20): the club's settings, the site folder and upload address, backup
and restore of the season file from the app."""

from __future__ import annotations

import io
import shutil
import sqlite3
from pathlib import Path

import pytest

from keizer.store import SCHEMA_VERSION, Store
from served import Served, sample_copy
from test_site_safety import tiny_png
from web_helpers import client_with_csrf, digest, post, sample_app, text


@pytest.fixture
def web(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def _members(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM members").fetchone()[0]


def _send(client, data: bytes, name: str = "backup.db"):
    return post(client, "/club/restore", {"backup": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def _pending(db: Path) -> list[Path]:
    return list(db.parent.glob(f".{db.name}.restore-*"))


def test_the_club_page_changes_what_keizer_club_changes(web):
    app, db, client = web
    page = client.get("/club")
    assert page.status_code == 200 and "Download a backup" in text(page)
    done = post(client, "/club", {"name": "SV Caïssa", "language": "en", "colour": "#ffd700", "accent": "#c8102e",
                                  "season": "2026-2027"}, content_type="multipart/form-data")
    said = text(done)
    assert "the club's settings are saved" in said
    # the contrast warning of 'keizer club --colour', in the app's words
    assert "warning: the club colour #ffd700 is too light for text on a white page (contrast 1.40:1" in said
    with _open(db) as s:
        assert s.get_meta("club_name") == "SV Caïssa" and s.get_meta("club_colour") == "#ffd700"


class _open:
    def __init__(self, db: Path) -> None:
        self.store = Store.open(db)

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()


def test_the_site_folder_stays_inside_the_databases_folder(web, tmp_path):
    app, db, client = web
    before = digest(db)
    refused = post(client, "/club/site", {"site_folder": "/etc", "upload": ""})
    assert f"error: the site folder must lie inside {db.parent.resolve()}; choose one there" in text(refused)
    assert post(client, "/club/site", {"site_folder": "../outside", "upload": ""}).status_code == 200
    assert digest(db) == before
    post(client, "/club/site", {"site_folder": "website", "upload": "ftps://webmaster@ftp.example.nl/public_html"})
    with _open(db) as s:
        assert s.get_meta("publish_folder") == str((db.parent / "website").resolve())
        assert s.get_meta("club_upload") == "ftps://webmaster@ftp.example.nl/public_html"
        assert s.get_meta("upload_password_target") is None  # the server's password still goes nowhere new


def test_the_site_address_and_the_club_evenings_time_as_keizer_club_sets_them(web):
    """The feeds' settings (keizer club --site, --evening-time) on the club page: shown, saved,
    and a time that is none refused in one line with the file unchanged."""
    app, db, client = web
    assert 'name="site"' in client.get("/club").get_data(as_text=True)
    before = digest(db)
    refused = post(client, "/club/site", {"site_folder": "", "upload": "", "site": "", "evening_time": "8 pm"})
    assert "error: the club evening's time must be like 20:00 or 19:45-23:30, not '8 pm'" in text(refused)
    assert digest(db) == before
    post(client, "/club/site", {"site_folder": "", "upload": "", "site": "https://schaak.example.nl/uitslagen",
                                "evening_time": "19:45-23:30"})
    with _open(db) as s:
        assert s.get_meta("club_site") == "https://schaak.example.nl/uitslagen/"
        assert s.get_meta("club_evening_time") == "19:45-23:30"
    page = client.get("/club").get_data(as_text=True)
    assert 'value="https://schaak.example.nl/uitslagen/"' in page and 'value="19:45-23:30"' in page


def test_a_logo_sent_from_the_browser(web):
    app, db, client = web
    png = tiny_png(16, 16)
    post(client, "/club", {"name": "Club", "logo": (io.BytesIO(png), "logo.png")}, content_type="multipart/form-data")
    page = client.get("/club")
    assert 'src="data:image/png;base64,' in page.get_data(as_text=True)
    refused = post(client, "/club", {"name": "Club", "logo": (io.BytesIO(b"GIF? no"), "logo.gif")},
                   content_type="multipart/form-data")
    assert "error: logo logo.gif is not a PNG, JPEG, GIF or WebP image" in text(refused)


def test_a_backup_is_the_committed_season_even_while_another_writes(web, tmp_path):
    app, db, client = web
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another program in the middle of a write
    writer.execute("INSERT INTO members (name) VALUES ('Not Committed')")
    answer = client.get("/club/backup")
    writer.execute("ROLLBACK")
    writer.close()
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="club-')
    copy = tmp_path / "copy.db"
    copy.write_bytes(answer.data)
    with _open(copy) as s:  # a keizer database, whole, without the write that was not committed
        assert len(s.members()) == _members(db) == 41
        assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_backup_through_the_server(tmp_path):
    db = sample_copy(tmp_path)
    with Served(db) as server:
        answer = server.client().get("/club/backup")
        assert answer.status == 200 and answer.headers["content-type"] == "application/vnd.sqlite3"
        assert "Traceback" not in server.errors()


def test_restore_shows_what_the_backup_holds_then_replaces_and_can_be_taken_back(web, tmp_path):
    app, db, client = web
    original = digest(db)
    backup = tmp_path / "older.db"
    shutil.copy(db, backup)
    with _open(backup) as s, s.change("member add", "member add"):
        s.add_member("Zoë Nieuw", 1500)
    preview = _send(client, backup.read_bytes(), "older.db")
    said = text(preview)
    assert "Nothing has been replaced yet." in said
    assert "The backup older.db holds" in said and "42" in said and "41" in said
    assert "Interne competitie 2025-2026 (2025-2026): rounds: 31" in said
    assert digest(db) == original and len(_pending(db)) == 1
    token = _pending(db)[0].name.rsplit("-", 1)[1]
    done = post(client, "/club/restore/apply", {"token": token})
    assert "restored; the file it replaced is kept as club.before-restore-" in text(done)
    assert _members(db) == 42 and _pending(db) == []
    kept = list(tmp_path.glob("club.before-restore-*.db"))
    assert len(kept) == 1 and _members(kept[0]) == 41
    # taken back: the kept file is shown, then restored (keeping the restored one in turn)
    shown = post(client, "/club/restore/kept", {"kept": kept[0].name})
    assert "Restore this backup" in text(shown)
    post(client, "/club/restore/apply", {"kept": kept[0].name})
    assert _members(db) == 41
    assert len(list(tmp_path.glob("club.before-restore-*.db"))) == 2
    with _open(db) as s:
        assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_restore_cancelled_leaves_nothing(web, tmp_path):
    app, db, client = web
    original = digest(db)
    _send(client, db.read_bytes())
    token = _pending(db)[0].name.rsplit("-", 1)[1]
    assert "nothing was restored" in text(post(client, "/club/restore/cancel", {"token": token}))
    assert _pending(db) == [] and digest(db) == original
    assert "this restore was cancelled or done already" in text(post(client, "/club/restore/apply", {"token": token}))


@pytest.mark.parametrize("data, said", [
    (b"round;date;white;black;result\n", "error: notes.txt is not a keizer database (not an SQLite file)"),
    (b"", "error: notes.txt is empty (0 bytes), not a keizer database"),
])
def test_a_file_that_is_not_a_keizer_database_is_refused_in_one_line(web, data, said):
    app, db, client = web
    original = digest(db)
    page = _send(client, data, "notes.txt")
    assert said in text(page)
    assert digest(db) == original and _pending(db) == []


def test_a_foreign_sqlite_file_and_a_newer_one_are_refused(web, tmp_path):
    app, db, client = web
    original = digest(db)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert "error: other.sqlite is not a keizer database" in text(_send(client, other.read_bytes(), "other.sqlite"))
    newer = tmp_path / "newer.db"
    shutil.copy(db, newer)
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    said = text(_send(client, newer.read_bytes(), "newer.db"))
    assert f"error: newer.db was written by a newer keizer (schema {SCHEMA_VERSION + 1}" in said
    assert digest(db) == original and _pending(db) == []


def test_a_restore_keeps_the_servers_own_folders_and_password_address(web, tmp_path):
    """A backup sent by an officer cannot point the server's upload password or its folders elsewhere."""
    app, db, client = web
    with _open(db) as s, s.change("club", "club"):
        s.set_meta("upload_password_target", "ftps://webmaster@ftp.club.nl/www")
    crafted = tmp_path / "crafted.db"
    shutil.copy(db, crafted)
    with sqlite3.connect(crafted) as conn:
        for key, value in (("upload_password_target", "ftp://thief@evil.example/"), ("publish_folder", "/etc"),
                           ("club_templates", "/tmp"), ("club_name", "Crafted")):
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
    _send(client, crafted.read_bytes(), "crafted.db")
    token = _pending(db)[0].name.rsplit("-", 1)[1]
    post(client, "/club/restore/apply", {"token": token})
    with _open(db) as s:
        assert s.get_meta("club_name") == "Crafted"  # the backup's own settings come back …
        assert s.get_meta("upload_password_target") == "ftps://webmaster@ftp.club.nl/www"  # … not the server's
        assert s.get_meta("publish_folder") is None and s.get_meta("club_templates") is None


def test_on_the_network_a_backup_without_an_officer_is_refused(tmp_path):
    app, db = sample_app(tmp_path, local=False)
    app.config["KEIZER_LOCAL"] = False
    from keizer.web.views import club

    with app.test_request_context("/club"):
        with pytest.raises(Exception) as refused:
            club._contents(db, "club.db")
    assert "has no officer's account, and this app is served on the network" in str(refused.value)


def test_a_restore_keeps_the_mail_account_the_servers_password_goes_to(web, tmp_path):
    """A crafted backup naming its own mail account as the one a terminal set would get the
    server's mail password sent to it: a restore keeps the replaced file's (here: none)."""
    app, db, client = web
    crafted = tmp_path / "crafted.db"
    shutil.copy(db, crafted)
    with sqlite3.connect(crafted) as conn:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('mail_password_account', 'thief@evil.example:587')")
    _send(client, crafted.read_bytes(), "crafted.db")
    token = _pending(db)[0].name.rsplit("-", 1)[1]
    post(client, "/club/restore/apply", {"token": token})
    with _open(db) as s:
        assert s.get_meta("mail_password_account") is None
