"""The members page: list, add, edit, and importing a member or rating list with a preview."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from keizer.store import Store
from test_cli import run
from web_helpers import TOKEN, app_hints, client_with_csrf, digest, post, sample_app, text

NASTY = "Zoë <script>alert(1)</script> \"Quote\" O'Neill 🐴"


@pytest.fixture
def web(tmp_path):
    app, db = sample_app(tmp_path)
    return app, db, client_with_csrf(app)


def twin(db: Path, tmp_path: Path) -> Path:
    """A copy of the database for the CLI to do the same on."""
    other = tmp_path / "cli.db"
    shutil.copy(db, other)
    return other


def members(db: Path) -> list[dict]:
    s = Store.open(db)
    try:
        return s.members()
    finally:
        s.close()


def last_log(db: Path) -> tuple[str, str]:
    s = Store.open(db)
    try:
        row = s.last_change()
        return row["command"], row["summary"]
    finally:
        s.close()


def shown(message: str) -> str:
    """A message as :func:`text` shows it (whitespace folded)."""
    return " ".join(message.split())


def upload(client, data: bytes, name: str, **fields):
    return client.post("/members/import", data={"csrf": TOKEN, "back": "/members", "file": (io.BytesIO(data), name),
                                                **fields},
                       content_type="multipart/form-data", follow_redirects=True)


def test_the_pages_render(web):
    app, db, client = web
    page = client.get("/members")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'data-filter="#member-list"' in body and 'id="member-list"' in body
    assert body.count("data-name=") == len(members(db))
    assert "Anna Hendriks" in text(page) and "7626286" in text(page)
    assert client.get("/members/17/edit").status_code == 200
    assert client.get("/members/9999/edit").status_code == 400  # no such member: the store's message


def test_adding_a_member_writes_what_the_cli_writes(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, out, err = run(capsys, cli, "member", "add", NASTY, "--rating", "1500", "--fed-id", "9123",
                         "--fide-id", "1234567", "--fide-rating", "1610")
    assert code == 0, err
    page = post(client, "/members/add", {"name": NASTY, "rating": "1500", "fed_id": "9123", "fide_id": "1234567",
                                         "fide_rating": "1610", "back": "/members"})
    assert page.status_code == 200
    assert shown(out) in text(page)  # "added member #42 Zoë <script>…"
    assert members(db) == members(cli)
    assert last_log(db) == last_log(cli)
    body = page.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert NASTY in text(page)


def test_a_refused_member_shows_the_cli_message_and_writes_nothing(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    for form, args in (({"name": "anna  HENDRIKS"}, ["anna  HENDRIKS"]),
                       ({"name": "Nieuw Lid", "fed_id": "12 34"}, ["Nieuw Lid", "--fed-id", "12 34"]),
                       ({"name": "Nieuw Lid", "fide_id": "x1"}, ["Nieuw Lid", "--fide-id", "x1"])):
        code, _, err = run(capsys, cli, "member", "add", *args)
        assert code == 1 and err.startswith("error: ")
        before = digest(db)
        page = post(client, "/members/add", {**form, "back": "/members"})
        assert app_hints(shown(err)) in text(page), err
        assert digest(db) == before
    before = digest(db)
    assert "rating 'veel' is not a whole number" in text(post(client, "/members/add",
                                                               {"name": "X", "rating": "veel", "back": "/members"}))
    assert digest(db) == before


def test_editing_a_member_writes_what_the_cli_writes(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    code, out, err = run(capsys, cli, "member", "edit", "#17", "--name", NASTY, "--rating", "1750",
                         "--fide-id", "7654321", "--fide-rating", "1700")
    assert code == 0, err
    page = post(client, "/members/17/edit", {"name": NASTY, "rating": "1750", "fed_id": "7626286",
                                             "fide_id": "7654321", "fide_rating": "1700", "back": "/members/17/edit"})
    assert shown(out) in text(page)  # "#17 …: renamed: Anna Hendriks → …; rating 1716 → 1750; …"
    assert members(db) == members(cli)
    assert last_log(db) == last_log(cli)
    body = client.get("/members/17/edit").get_data(as_text=True)
    assert "<script>alert" not in body and "&lt;script&gt;" in body
    # a rename onto another member's name is refused with the CLI's message
    code, _, err = run(capsys, cli, "member", "edit", "#13", "--name", "bas dekker")
    assert code == 1
    before = digest(db)
    page = post(client, "/members/13/edit", {"name": "bas dekker", "back": "/members/13/edit"})
    assert app_hints(shown(err)) in text(page) and digest(db) == before


CSV = ("naam;rating;relatienummer\n"
       "Anna Hendriks;1799;7626286\n"
       "Nieuw Lid <b>;1450;\n"
       "Bas Dekker;1554;7489324\n").encode()


def test_a_member_list_preview_writes_nothing_and_apply_writes_what_the_cli_writes(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    file = tmp_path / "leden.csv"
    file.write_bytes(CSV)
    code, out, err = run(capsys, cli, "member", "import", str(file), "--dry-run")
    assert code == 0, err
    before = digest(db)
    preview = upload(client, CSV, "leden.csv", kind="members")
    assert preview.status_code == 200
    assert digest(db) == before  # the preview wrote nothing
    shown = text(preview)
    for line in out.splitlines()[:-1]:  # every change the CLI's dry run lists
        assert line in shown
    assert "1 member added, 1 updated, 1 unchanged" in shown
    assert "Nieuw Lid &lt;b&gt;" in preview.get_data(as_text=True)
    code, out, err = run(capsys, cli, "member", "import", str(file))
    assert code == 0, err
    applied = post(client, "/members/import/apply", {"token": _token(client), "back": "/members/import"})
    assert applied.status_code == 200 and "1 member added, 1 updated, 1 unchanged" in text(applied)
    assert members(db) == members(cli)
    assert last_log(db) == last_log(cli)
    # applied once: the token is spent
    before = digest(db)
    again = post(client, "/members/import/apply", {"token": "x" * 32, "back": "/members"})
    assert "there is no previewed import to apply" in text(again) and digest(db) == before


def _token(client) -> str:
    with client.session_transaction() as session:
        return session["member_import"]["token"]


def test_apply_trusts_only_the_token_of_the_session(web, tmp_path):
    app, db, client = web
    upload(client, CSV, "leden.csv", kind="members")
    before = digest(db)
    for token in ("", "../../etc/passwd", "A" * 32):
        page = post(client, "/members/import/apply", {"token": token, "back": "/members"})
        assert "there is no previewed import to apply" in text(page)
    assert digest(db) == before
    # another session cannot apply this session's upload
    other = client_with_csrf(app)
    page = post(other, "/members/import/apply", {"token": _token(client), "back": "/members"})
    assert "there is no previewed import to apply" in text(page) and digest(db) == before
    # cancel removes the kept file
    folder = Path(app.extensions["keizer_uploads"]) / _token(client)
    assert folder.is_dir()
    post(client, "/members/import/cancel", {"back": "/members"})
    assert not folder.exists() and digest(db) == before


def test_apply_refuses_when_the_members_changed_since_the_preview(web):
    app, db, client = web
    upload(client, CSV, "leden.csv", kind="members")
    token = _token(client)
    post(client, "/members/17/edit", {"name": "Anna Hendriks", "rating": "1799", "fed_id": "7626286",
                                      "back": "/members"})
    before = digest(db)
    page = post(client, "/members/import/apply", {"token": token, "back": "/members"})
    assert "the members changed since the preview" in text(page)
    assert "0 updated, 2 unchanged" in text(page) and digest(db) == before  # shown again, not written


def test_a_refused_import_shows_the_cli_message_and_writes_nothing(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    data = "naam;rating\nanna hendriks;1700\nANNA HENDRIKS;1710\n".encode()
    file = tmp_path / "dubbel.csv"
    file.write_bytes(data)
    code, _, err = run(capsys, cli, "member", "import", str(file), "--dry-run")
    assert code == 1
    before = digest(db)
    page = upload(client, data, "dubbel.csv", kind="members")
    assert app_hints(shown(err)) in text(page) and digest(db) == before


def test_a_keizerforclubs_players_file_is_a_member_list(web, tmp_path, capsys):
    from test_kfc import build

    app, db, client = web
    kfc = build(tmp_path / "toernooi.s3db")
    cli = twin(db, tmp_path)
    code, out, err = run(capsys, cli, "member", "import", str(kfc), "--dry-run")
    assert code == 0, err
    before = digest(db)
    preview = upload(client, kfc.read_bytes(), "toernooi.s3db", kind="members")
    assert digest(db) == before
    assert "added: Anna (rating 2000)" in text(preview)
    for line in out.splitlines()[:-1]:
        assert line in text(preview)
    code, out, err = run(capsys, cli, "member", "import", str(kfc))
    assert code == 0, err
    post(client, "/members/import/apply", {"token": _token(client), "back": "/members"})
    assert members(db) == members(cli)


KNSB = ("Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
        "7626286;Hendriks, Anna;;NED;1733;24;1990;V\r\n"
        "7489324;Dekker, Bas;;NED;1554;12;1985;M\r\n"
        "8999;Someone, Else;;NED;1500;0;2001;M\r\n").encode("cp1252")


def test_a_rating_list_preview_and_apply(web, tmp_path, capsys):
    app, db, client = web
    cli = twin(db, tmp_path)
    file = tmp_path / "KLASSIEK.csv"
    file.write_bytes(KNSB)
    code, out, err = run(capsys, cli, "ratings", "import", str(file), "--dry-run")
    assert code == 0, err
    before = digest(db)
    preview = upload(client, KNSB, "KLASSIEK.csv", kind="ratings")
    assert digest(db) == before
    shown = text(preview)
    assert "Anna Hendriks: rating 1716 → 1733" in shown
    not_found = [line.removeprefix("not found: ") for line in out.splitlines() if line.startswith("not found: ")]
    assert not_found and all(line in shown for line in not_found)  # who is not in the list
    assert out.splitlines()[-1].split("rating list: ")[1] in shown  # the CLI's counts
    code, out, err = run(capsys, cli, "ratings", "import", str(file))
    assert code == 0, err
    applied = post(client, "/members/import/apply", {"token": _token(client), "back": "/members"})
    assert out.splitlines()[-1] in text(applied)
    assert members(db) == members(cli)
    assert last_log(db) == last_log(cli)


def test_a_file_that_is_no_rating_list_is_refused_in_one_line(web):
    app, db, client = web
    before = digest(db)
    page = upload(client, b"\x00\x01\x02 not a list", "rommel.csv", kind="ratings")
    assert "error: rommel.csv: this is not a rating list" in text(page) and digest(db) == before
    assert "error: choose the file to import" in text(post(client, "/members/import", {"back": "/members"}))


def test_a_refused_new_member_keeps_what_was_typed(tmp_path):
    from web_helpers import client_with_csrf, digest, post, sample_app, text

    app, db = sample_app(tmp_path)
    client = client_with_csrf(app)
    before = digest(db)
    page = post(client, "/members/add", {"name": "Zoë O'Neill", "rating": "abc", "fed_id": "1234567", "back": "/members"})
    body = page.get_data(as_text=True)
    assert "error: " in text(page) and digest(db) == before
    assert 'value="Zoë O&#39;Neill"' in body and 'value="abc"' in body and 'value="1234567"' in body
