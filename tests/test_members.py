"""Members: importing rating lists, namesakes, and how a name picks a member or player."""

from __future__ import annotations

import json
import shutil
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keizer.store import StoreError, pick_by_name
from conftest import built_once, examples
from test_cli import digest, run

DATA = Path(__file__).resolve().parent / "data"


def refused(capsys, db: Path, *args: str, match: str) -> str:
    """Run a command that must be refused: one line on stderr, the database untouched."""
    before = digest(db)
    code, out, err = run(capsys, db, *args)
    assert code in (1, 2), out  # 2: a bad option value, as click says it
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert match in err, err
    assert digest(db) == before
    return err


def members(capsys, db: Path) -> dict[str, dict]:
    code, out, err = run(capsys, db, "member", "list", "--format", "json")
    assert code == 0, err
    return {m["name"]: m for m in json.loads(out)}


@pytest.fixture
def club(tmp_path, tmp_path_factory, capsys) -> Path:
    def build(db: Path) -> None:
        for args in (["Anna de Vries", "--rating", "1850"], ["Jan Jansen", "--rating", "1700", "--fed-id", "8123"],
                     ["Cor Smit"]):
            assert run(capsys, db, "member", "add", *args)[0] == 0

    return built_once("members.club", build, tmp_path, tmp_path_factory)


def csv_file(tmp_path: Path, text: str | bytes, name: str = "list.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


# -- member import: what it changes, and saying so -----------------------------------


def test_import_updates_ratings_but_keeps_names_unless_asked(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;rating;fed_id\nJan Janssen;1725;8123\nanna de vries;1875;\n")
    code, out, err = run(capsys, club, "member", "import", str(f))
    assert code == 0, err
    assert out.splitlines() == [
        "Jan Jansen: rating 1700 → 1725",
        "Anna de Vries: rating 1850 → 1875",
        "0 members added, 2 updated, 0 unchanged; 2 names differ from the file's spelling "
        "(kept; --update-names takes the file's)",
    ]
    assert members(capsys, club)["Jan Jansen"]["rating"] == 1725  # found by federation id, not renamed
    assert members(capsys, club)["Anna de Vries"]["rating"] == 1875  # found by name, case ignored
    code, out, err = run(capsys, club, "member", "import", str(f), "--update-names")
    assert code == 0, err
    assert out.splitlines()[:2] == ["name: Jan Jansen → Jan Janssen", "name: Anna de Vries → anna de vries"]
    assert {"Jan Janssen", "anna de vries", "Cor Smit"} == set(members(capsys, club))


def test_import_lists_additions_and_federation_ids(club, tmp_path, capsys):
    f = csv_file(tmp_path, "Relatienummer;Naam;Rating\n8200;Cor Smit;1600\n8201;Piet Pieters;1550\n;Els;\n"
                           "8123;Jan Jansen;1700\n")
    code, out, err = run(capsys, club, "member", "import", str(f))
    assert code == 0, err
    assert out.splitlines() == [
        "Cor Smit: rating none → 1600",
        "Cor Smit: federation id none → 8200",
        "added: Piet Pieters (rating 1550, federation id 8201)",
        "added: Els",
        "2 members added, 1 updated, 1 unchanged",
    ]
    assert members(capsys, club)["Cor Smit"] == {"id": 3, "name": "Cor Smit", "rating": 1600, "fed_id": "8200",
                                                 "fide_id": None, "fide_rating": None}


def test_an_empty_rating_keeps_the_rating(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;rating\nAnna de Vries;\n")
    code, out, _ = run(capsys, club, "member", "import", str(f))
    assert code == 0 and "0 updated, 1 unchanged" in out
    assert members(capsys, club)["Anna de Vries"]["rating"] == 1850


def test_dry_run_lists_the_same_changes_and_writes_nothing(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;rating;fed_id\nAnna de Vries;1900;\nBram Bos;1500;9001\n")
    before = digest(club)
    code, dry, err = run(capsys, club, "member", "import", str(f), "--dry-run")
    assert code == 0, err
    assert digest(club) == before
    assert dry.splitlines()[-1] == "dry run, nothing written: 1 member added, 1 updated, 0 unchanged"
    code, real, err = run(capsys, club, "member", "import", str(f))
    assert code == 0, err
    assert dry.splitlines()[:-1] == real.splitlines()[:-1] == ["Anna de Vries: rating 1850 → 1900",
                                                              "added: Bram Bos (rating 1500, federation id 9001)"]
    assert digest(club) != before


def test_dry_run_creates_no_database_and_upgrades_no_old_one(tmp_path, capsys):
    f = csv_file(tmp_path, "name\nAnna\n")
    nothing = tmp_path / "none.db"
    code, out, _ = run(capsys, nothing, "member", "import", str(f), "--dry-run")
    assert code == 0 and out.splitlines() == ["added: Anna", "dry run, nothing written: 1 member added, 0 updated, 0 unchanged"]
    assert not nothing.exists()
    old = tmp_path / "old.db"
    shutil.copy(DATA / "schema-v1.db", old)
    before = digest(old)
    assert run(capsys, old, "member", "import", str(f), "--dry-run")[0] == 0
    assert digest(old) == before


def test_a_refused_import_imports_nothing(club, tmp_path, capsys):
    # The first line is fine; the refusal of the second keeps the first out too.
    f = csv_file(tmp_path, "name;rating\nAnna de Vries;1999\nCor Smit;abc\n")
    refused(capsys, club, "member", "import", str(f), match="line 3, column 2: rating 'abc'")
    assert members(capsys, club)["Anna de Vries"]["rating"] == 1850
    missing = tmp_path / "none.db"
    refused(capsys, missing, "member", "import", str(f), match="line 3")
    assert not missing.exists()


def test_a_member_is_matched_by_one_line_and_one_member_by_a_line(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;fed_id;rating\nJan Jansen;;1750\nJ. Jansen;8123;1760\n")
    refused(capsys, club, "member", "import", str(f),
            match="line 3: federation id 8123 is Jan Jansen's, whom an earlier line of the file names already")
    for _ in range(2):
        assert run(capsys, club, "member", "add", "Piet Smit", "--allow-duplicate")[0] == 0
    g = csv_file(tmp_path, "name;rating\nPiet Smit;1500\n", "g.csv")
    refused(capsys, club, "member", "import", str(g),
            match="line 2: Piet Smit could be any of Piet Smit (id 4), Piet Smit (id 5); put federation ids in the file")


# -- member import: files that are cut off or broken ----------------------------------


@pytest.mark.parametrize("data, message", [
    # The last record has fewer fields than the header and no line end: cut off.
    (b"name;rating;fed_id\nAnna de Vries;1850;1\nBram;17", "line 3 has 2 of the header's 3 fields and the file ends there"),
    (b"Relatienummer;Naam;Titel;FED;Rating\r\n81;Anna;;NED;1850\r\n82;Bram;;N", "line 3 has 4 of the header's 5 fields"),
    # A short record in the middle is refused too.
    (b"name;rating;fed_id\nAnna de Vries;1850\nBram;1700;2\n", "line 2 has 2 of the header's 3 fields; add the missing"),
    # A quote that is never closed, named by the line it opens on.
    (b'name;rating\nAnna de Vries;1850\n"Bram;17', "line 3: a quote opened here is never closed"),
    (b'name;rating\nAnna de Vries;1850\n"Bram\nBos;1700\nCor;1600\n', "line 3: a quote opened here is never closed"),
    # UTF-8 cut in the middle of a character is not taken for Windows-1252.
    ("name;rating\nAnna de Vries;1850\nJü".encode("utf-8")[:-1], "line 3: the file ends in the middle of a character"),
    # A byte that no encoding we read has.
    (b"name;rating\nAnna de Vries;1850\nBr\x81m;1700\n", "line 3: byte 0x81 is neither UTF-8 nor Windows-1252"),
])
def test_cut_off_or_broken_files_are_refused_naming_the_line(club, tmp_path, capsys, data, message):
    f = csv_file(tmp_path, data)
    refused(capsys, club, "member", "import", str(f), match=message)
    refused(capsys, club, "member", "import", str(f), "--dry-run", match=message)
    assert set(members(capsys, club)) == {"Anna de Vries", "Jan Jansen", "Cor Smit"}


@pytest.mark.parametrize("rating", ["²", "١٨٥٠", "１８５０", "0" * 5000, "18.5", "-5", "4001"])
def test_ratings_are_ascii_whole_numbers(club, tmp_path, capsys, rating):
    f = csv_file(tmp_path, f"name;rating\nAnna de Vries;{rating}\n")
    refused(capsys, club, "member", "import", str(f), match="line 2, column 2: rating")
    refused(capsys, club, "member", "edit", "Anna", "--rating", rating, match="Invalid value for '--rating'")


@pytest.mark.parametrize("data", [
    "\ufeffname;rating\nJürgen Müller;1834\n".encode("utf-8"),
    "name;rating\r\nJürgen Müller;1834\r\n".encode("cp1252"),
    "name;rating\r\nJürgen Müller;1834\r\n".encode("utf-16"),
    "name;rating\nJürgen Müller;1834".encode("utf-8"),  # no line end, but every field is there
])
def test_encodings(tmp_path, capsys, data):
    db = tmp_path / "c.db"
    f = csv_file(tmp_path, data)
    code, out, err = run(capsys, db, "member", "import", str(f))
    assert code == 0, err
    assert members(capsys, db)["Jürgen Müller"]["rating"] == 1834


# -- namesakes -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["anna de vries", "  Anna   de Vries ", "Anna de Vriës", "Ａnna de Vries"])
def test_adding_a_namesake_needs_allow_duplicate(club, capsys, name):
    refused(capsys, club, "member", "add", name,
            match="is already a member: Anna de Vries (id 1); to have both, use --allow-duplicate")
    code, out, err = run(capsys, club, "member", "add", name, "--allow-duplicate")
    assert code == 0, err
    assert out == f"added member #4 {name.strip()}\n"


def test_import_refuses_namesakes_unless_allowed(club, tmp_path, capsys):
    # Another federation id: another person, whose name is Jan Jansen's.
    f = csv_file(tmp_path, "name;rating;fed_id\njan jansen;1500;9999\n")
    refused(capsys, club, "member", "import", str(f),
            match="line 2: jan jansen would be a second Jan Jansen (member id 2); use --allow-duplicate")
    code, out, err = run(capsys, club, "member", "import", str(f), "--allow-duplicate")
    assert code == 0 and "added: jan jansen (rating 1500, federation id 9999)" in out, err
    g = csv_file(tmp_path, "name;fed_id\nPiet Smit;1\nPiet Smít;2\n", "g.csv")
    refused(capsys, club, "member", "import", str(g), match="line 3: Piet Smít would be a second Piet Smit (added by line 2)")


def test_renaming_to_a_namesake_needs_allow_duplicate(club, tmp_path, capsys):
    refused(capsys, club, "member", "edit", "Cor", "--name", "ANNA DE VRIES", match="already a member: Anna de Vries (id 1)")
    f = csv_file(tmp_path, "name;fed_id\nanna de vries;8123\n")
    refused(capsys, club, "member", "import", str(f), "--update-names", match="would be a second Anna de Vries")
    code, out, err = run(capsys, club, "member", "edit", "Cor", "--name", "ANNA DE VRIES", "--allow-duplicate")
    assert code == 0, err


def test_the_exact_spelling_picks_among_namesakes(club, capsys):
    for name in ("Jan de Vries", "Jan de Vriës", "Piet Smit", "Piet Smit"):
        assert run(capsys, club, "member", "add", name, "--allow-duplicate")[0] == 0
    assert run(capsys, club, "member", "edit", "Jan de Vriës", "--rating", "1600")[1] == "#5 Jan de Vriës: rating none → 1600\n"
    assert run(capsys, club, "member", "edit", "jan de vries", "--rating", "1500")[1] == "#4 Jan de Vries: rating none → 1500\n"
    refused(capsys, club, "member", "edit", "Piet Smit", "--rating", "1400",
            match="'Piet Smit' matches several members: Piet Smit (id 6), Piet Smit (id 7); use the id shown")
    assert run(capsys, club, "member", "edit", "#7", "--rating", "1400")[1] == "#7 Piet Smit: rating none → 1400\n"
    # A namesake that is not spelled exactly so is ambiguous, and says which ones there are.
    refused(capsys, club, "member", "edit", "jan  de  vries", "--rating", "1", match="Jan de Vries (id 4), Jan de Vriës (id 5)")


def test_member_edit_says_what_changed(club, capsys):
    code, out, err = run(capsys, club, "member", "edit", "Anna", "--name", "Anna de Vries-Bos", "--rating", "1900",
                         "--fed-id", "77")
    assert code == 0, err
    assert out == "#1 Anna de Vries-Bos: renamed: Anna de Vries → Anna de Vries-Bos; rating 1850 → 1900; federation id none → 77\n"
    code, out, _ = run(capsys, club, "log", "--format", "json")
    assert json.loads(out)[0]["summary"].startswith("edit member #1 Anna de Vries-Bos: renamed")


# -- which row a name picks ----------------------------------------------------------


def people(*names: str) -> list[dict]:
    return [{"id": i, "name": name} for i, name in enumerate(names, 1)]


def test_a_whole_word_beats_a_part_of_a_word():
    rows = people("Hans Jansen", "Frans Bakker", "Ans Bakker", "Jansen")
    assert pick_by_name(rows, "Ans", "member", "list")["id"] == 3
    assert pick_by_name(rows, "ans bakker", "member", "list")["id"] == 3
    assert pick_by_name(rows, "Jansen", "member", "list")["id"] == 4  # the exact name first
    assert pick_by_name(rows, "Fran", "member", "list")["id"] == 2  # no whole word: a part will do
    with pytest.raises(StoreError, match=r"'Bakker' matches several members: Frans Bakker \(id 2\), Ans Bakker \(id 3\)"):
        pick_by_name(rows, "Bakker", "member", "list")
    with pytest.raises(StoreError, match="no member matches 'Wim'"):
        pick_by_name(rows, "Wim", "member", "list")
    with pytest.raises(StoreError, match="an empty member name"):
        pick_by_name(rows, "  ", "member", "list")


def test_players_are_listed_by_start_number(tmp_path, capsys):
    db = tmp_path / "c.db"
    for name in ("Ans Bakker", "Hans Jansen", "Frans Hals", "Ans de Wit"):
        assert run(capsys, db, "member", "add", name)[0] == 0
    assert run(capsys, db, "competition", "create", "Interne", "--all-members")[0] == 0
    refused(capsys, db, "player", "set", "Ans", "--category", "A",
            match="'Ans' matches several players: Ans Bakker (#1), Ans de Wit (#2); use the #number shown")
    code, out, err = run(capsys, db, "player", "set", "ans bakker", "--category", "A")
    assert code == 0, err
    code, out, err = run(capsys, db, "player", "list", "--format", "json")
    assert code == 0, err
    assert {p["name"]: p["category"] for p in json.loads(out)}["Ans Bakker"] == "A"


# Names as the store keeps them (NFC, no outer spaces); a small alphabet makes near-namesakes common.
names = st.one_of(st.text("aAáÁ b-", min_size=1, max_size=5), st.text(min_size=1, max_size=12)) \
    .map(lambda n: unicodedata.normalize("NFC", n).strip()).filter(bool)


@given(st.lists(names, min_size=1, max_size=6, unique=True), st.data())
def test_an_exact_name_always_picks_its_row(all_names, data):
    """Names that differ only in case, accents or spaces stay apart when spelled exactly."""
    rows = people(*all_names)
    row = data.draw(st.sampled_from(rows))
    assert pick_by_name(rows, row["name"], "member", "list") is row


# -- no input makes member import crash or write half --------------------------------


field = st.one_of(st.text(max_size=8), st.sampled_from(["1850", "²", "18", '"', '"a;b"', "Müller", "", "0" * 6]))
line = st.lists(field, max_size=5).map(lambda fs: ";".join(fs))
csv_text = st.tuples(st.sampled_from(["name;rating;fed_id", "Naam;Rating", "name", "x;y", ""]),
                     st.lists(line, max_size=5), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans()) \
    .map(lambda t: t[2].join([t[0], *t[1]]) + (t[2] if t[3] else ""))
garbage = st.one_of(
    st.binary(max_size=200),
    csv_text.map(lambda s: s.encode("utf-8")),
    csv_text.map(lambda s: s.encode("cp1252", errors="ignore")),
    csv_text.map(lambda s: s.encode("utf-16")),
    st.tuples(csv_text, st.integers(0, 400)).map(lambda t: t[0].encode("utf-8")[:t[1]]),
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=garbage, dry=st.booleans())
def test_member_import_of_anything_never_crashes_or_writes_half(capsys, data, dry):
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "club.db"
        assert run(capsys, db, "member", "add", "Anna de Vries", "--rating", "1850", "--fed-id", "1")[0] == 0
        f = Path(folder) / "list.csv"
        f.write_bytes(data)
        before = digest(db)
        code, out, err = run(capsys, db, "member", "import", str(f), *(["--dry-run"] if dry else []))
        assert code in (0, 1), err
        if code == 1 or dry:
            assert digest(db) == before
        if code == 1:
            assert len(err.splitlines()) == 1 and err.startswith("error: "), err
        else:
            assert err == ""


# -- found in review ------------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["99999999999999999999999", "#99999999999999999999999", "#²", "#-1", "１", "٣"])
def test_member_references_in_other_digits_or_out_of_range_are_one_line(club, capsys, ref):
    code, out, err = run(capsys, club, "member", "edit", ref, "--rating", "1500")
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_letters_without_a_decomposition_are_folded(club, capsys):
    assert run(capsys, club, "member", "add", "Łukasz Wójcik")[0] == 0
    code, out, err = run(capsys, club, "member", "edit", "Lukasz", "--rating", "1650")
    assert code == 0, err
    refused(capsys, club, "member", "add", "Lukasz Wojcik", match="already a member")


@pytest.mark.parametrize("name", ["\u200bAnna de Vries", "\ufeffAnna de Vries", "Anna de Vries\u2060"])
def test_invisible_characters_do_not_hide_a_namesake(club, capsys, name):
    refused(capsys, club, "member", "add", name, match="already a member")


@pytest.mark.parametrize("fed_id", ["9" * 100, "12\n34", "\t=1+1", "\r=1+1", "\u200b8123", "=HYPERLINK(1)"])
def test_federation_ids_are_checked(club, capsys, fed_id):
    refused(capsys, club, "member", "edit", "Anna", "--fed-id", fed_id, match="federation id")


def test_an_edit_that_changes_nothing_leaves_no_log_entry(club, capsys):
    before = run(capsys, club, "log", "--format", "json")[1]
    code, out, err = run(capsys, club, "member", "edit", "Anna", "--rating", "1850")
    assert code == 0 and run(capsys, club, "log", "--format", "json")[1] == before


def test_a_name_that_matches_no_member_shows_the_near_ones_and_applies_none(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;rating;fed_id\nAnna de Vriess;1860;\nJansen, Jan;1705;\nPiet Pieters;1500;\n"
                           "Kor Smit;;9999\n")
    before = digest(club)
    code, out, err = run(capsys, club, "member", "import", str(f), "--dry-run")
    assert code == 0, err
    assert digest(club) == before
    hints = [line for line in out.splitlines() if line.startswith("added: ")]
    assert hints == [
        "added: Anna de Vriess (rating 1860); did you mean 'Anna de Vries' (id 1)?",
        "added: Jansen, Jan (rating 1705); did you mean 'Jan Jansen' (id 2)?",  # 'Last, First' turned round
        "added: Piet Pieters (rating 1500)",  # nobody near
        "added: Kor Smit (federation id 9999); did you mean 'Cor Smit' (id 3)?",
    ]
    code, out2, err = run(capsys, club, "member", "import", str(f))
    assert code == 0, err
    assert [line for line in out2.splitlines() if line.startswith("added: ")] == hints  # the real import says the same
    got = members(capsys, club)
    # Never applied: the rows became new members, the near ones kept their ratings.
    assert got["Anna de Vries"]["rating"] == 1850 and got["Anna de Vriess"]["rating"] == 1860
    assert got["Jan Jansen"]["rating"] == 1700 and "Jansen, Jan" in got


def test_a_member_with_another_federation_id_or_matched_already_is_not_offered(club, tmp_path, capsys):
    f = csv_file(tmp_path, "name;rating;fed_id\nJan Janssen;1700;7777\nAnna de Vries;1860;\nAnna de Vriess;1870;\n")
    code, out, err = run(capsys, club, "member", "import", str(f), "--dry-run")
    assert code == 0, err
    assert "added: Jan Janssen (rating 1700, federation id 7777)\n" in out  # Jan Jansen has id 8123: another person
    assert "added: Anna de Vriess (rating 1870)\n" in out  # Anna de Vries is the line before's


def test_a_member_is_found_by_fide_id(club, capsys):
    assert run(capsys, club, "member", "edit", "Cor", "--fide-id", "1503014")[0] == 0
    code, out, err = run(capsys, club, "member", "edit", "fide:1503014", "--rating", "1600")
    assert code == 0, err
    assert members(capsys, club)["Cor Smit"]["rating"] == 1600
    code, out, err = run(capsys, club, "member", "edit", "1503014", "--rating", "1610")  # the number alone
    assert code == 0, err
    assert members(capsys, club)["Cor Smit"]["rating"] == 1610
    refused(capsys, club, "member", "edit", "fide:7000001", "--rating", "1", match="no member has FIDE id '7000001'")
    # A federation id wins over a FIDE id: 8123 is Jan Jansen's federation id and now Anna's FIDE id.
    assert run(capsys, club, "member", "edit", "Anna", "--fide-id", "8123")[0] == 0
    assert run(capsys, club, "member", "edit", "8123", "--rating", "1701")[0] == 0
    assert members(capsys, club)["Jan Jansen"]["rating"] == 1701
    assert run(capsys, club, "member", "edit", "fide:8123", "--rating", "1851")[0] == 0
    assert members(capsys, club)["Anna de Vries"]["rating"] == 1851


def test_a_federation_or_fide_id_belongs_to_one_member(tmp_path, capsys):
    from test_cli import digest, run

    db = tmp_path / "club.db"
    assert run(capsys, db, "member", "add", "Anna Hendriks", "--fed-id", "7626286", "--fide-id", "1503014")[0] == 0
    before = digest(db)
    code, _, err = run(capsys, db, "member", "add", "Bram", "--fed-id", "7626286")
    assert code != 0 and err.strip() == ("error: federation id 7626286 is already Anna Hendriks's (member #1); "
                                         "each member has an id of their own")
    code, _, err = run(capsys, db, "member", "add", "Cor", "--fide-id", "1503014")
    assert code != 0 and "FIDE id 1503014 is already Anna Hendriks's" in err
    assert digest(db) == before
    assert run(capsys, db, "member", "add", "Bram", "--fed-id", "7626287")[0] == 0
    code, _, err = run(capsys, db, "member", "edit", "Bram", "--fed-id", "7626286")
    assert code != 0 and "federation id 7626286 is already Anna Hendriks's" in err
    assert run(capsys, db, "member", "edit", "Anna Hendriks", "--fed-id", "7626286")[0] == 0  # her own: no change
