"""Rating lists: `keizer ratings import` of the KNSB's CSV and FIDE's TXT and XML lists, and
which rating (national or FIDE) a competition is ordered and frozen by."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from test_cli import bad, digest, run
from test_members import members

from keizer.formats.rating_lists import read, wanted
from keizer.formats.season_json import FormatError

# FIDE's TXT header, column for column as in its combined download (players_list_foa.txt).
FIDE_HEADER = ("ID Number      Name                                                         Fed Sex Tit  WTit OTit"
               "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")


def fide_line(fide_id: str, name: str, fed: str, rating: str, rapid: str = "", born: str = "1990") -> str:
    """A line of FIDE's TXT list, each value under its header column."""
    cols = {"ID Number": fide_id, "Name": name, "Fed": fed, "Sex": "M", "SRtng": rating, "SGm": "0", "SK": "20",
            "RRtng": rapid, "B-day": born}
    line = [" "] * (len(FIDE_HEADER) + 4)
    for header, value in cols.items():
        at = FIDE_HEADER.index(header if header != "Name" else "Name ")
        line[at:at + len(value)] = value
    return "".join(line).rstrip()


def fide_txt(*lines: str) -> bytes:
    return ("\r\n".join([FIDE_HEADER, *lines]) + "\r\n").encode("utf-8")


def fide_xml(*players: tuple[str, str, str]) -> bytes:
    body = "".join(f"<player><fideid>{i}</fideid><name>{n}</name><country>NED</country><sex>M</sex><title></title>"
                   f"<rating>{r}</rating><games>0</games><k>20</k><rapid_rating></rapid_rating>"
                   f"<birthday>1990</birthday><flag></flag></player>\n" for i, n, r in players)
    return f'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n{body}</playerslist>\n'.encode()


KNSB = ("Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
        "8100;Vries, Anna de;;NED;1875;24;1990;V\r\n"
        "8200;Müller, Jürgen;;NED;1710;12;1985;M\r\n"
        "8999;Someone, Else;;NED;1500;0;2001;M\r\n").encode("cp1252")

TXT = fide_txt(fide_line("1503014", "Carlsen, Magnus", "NOR", "2837", "2800"),
               fide_line("7000001", "Vries, Anna de", "NED", "1901"),
               fide_line("7000002", "Jansen, Bram", "NED", "1650"),
               fide_line("7000003", "Smit, Cor", "NED", ""))


def write(tmp_path: Path, name: str, data: bytes, zipped: bool = False) -> Path:
    path = tmp_path / (name + ".zip" if zipped else name)
    if zipped:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(name, data)
    else:
        path.write_bytes(data)
    return path


def zip_bytes(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return out.getvalue()


@pytest.fixture
def club(tmp_path, capsys) -> Path:
    db = tmp_path / "club.db"
    for args in (["Anna de Vries", "--rating", "1850", "--fed-id", "8100", "--fide-id", "7000001"],
                 ["Jürgen Müller", "--rating", "1700", "--fed-id", "8200"],
                 ["Bram Jansen", "--rating", "1600", "--fide-id", "7000002", "--fide-rating", "1640"],
                 ["Dirk O'Brien <script>", "--rating", "1500", "--fed-id", "8400", "--fide-id", "7999999"]):
        code, _, err = run(capsys, db, "member", "add", *args)
        assert code == 0, err
    return db


# -- the national list ---------------------------------------------------------------------


@pytest.mark.parametrize("zipped", [False, True])
def test_knsb_list_updates_national_ratings_by_federation_id(club, tmp_path, capsys, zipped):
    path = write(tmp_path, "KLASSIEK.csv", KNSB, zipped)
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err
    assert out.splitlines() == [
        "Anna de Vries: rating 1850 → 1875",
        "Jürgen Müller: rating 1700 → 1710",
        "not found: Dirk O'Brien <script> (federation id 8400): not in the list",
        "without a federation id: Bram Jansen (set it with 'keizer member edit', or use --match-names)",
        "national rating list: 2 members changed, 0 unchanged, 1 not found, 1 without a federation id",
    ]
    got = members(capsys, club)
    assert (got["Anna de Vries"]["rating"], got["Anna de Vries"]["fide_rating"]) == (1875, None)
    assert got["Jürgen Müller"]["rating"] == 1710
    assert got["Bram Jansen"]["rating"] == 1600  # never guessed by name


@pytest.mark.parametrize("rating", ["0", ""])
def test_a_knsb_player_listed_unrated_keeps_his_rating(club, tmp_path, capsys, rating):
    path = write(tmp_path, "KLASSIEK.csv",
                 f"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n8100;Vries, Anna de;;NED;{rating};0;1990;V\r\n"
                 .encode("cp1252"))
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err
    assert "Anna de Vries: rating" not in out and members(capsys, club)["Anna de Vries"]["rating"] == 1850


def test_a_knsb_list_saved_as_utf16_reads_the_same(club, tmp_path, capsys):
    path = write(tmp_path, "KLASSIEK.csv", KNSB.decode("cp1252").encode("utf-16"))
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err
    assert out.splitlines()[:2] == ["Anna de Vries: rating 1850 → 1875", "Jürgen Müller: rating 1700 → 1710"]


def test_dry_run_lists_the_changes_and_writes_nothing(club, tmp_path, capsys):
    before = digest(club)
    path = write(tmp_path, "fide.txt", TXT)
    code, out, err = run(capsys, club, "ratings", "import", str(path), "--dry-run")
    assert code == 0, err
    assert "Anna de Vries: FIDE rating none → 1901" in out
    assert "Bram Jansen: FIDE rating 1640 → 1650" in out
    assert out.splitlines()[-1].startswith("dry run, nothing written: FIDE rating list: 2 members changed")
    assert digest(club) == before


def test_match_names_only_when_asked(club, tmp_path, capsys):
    path = write(tmp_path, "KLASSIEK.csv", KNSB)
    code, out, err = run(capsys, club, "ratings", "import", str(path), "--match-names")
    assert code == 0, err
    assert "Bram Jansen" in out.splitlines()[-2]  # still without an id: Bram is not in this list
    txt = write(tmp_path, "fide.txt", fide_txt(fide_line("7000009", "Müller, Jürgen", "NED", "1722"),
                                                  fide_line("7000001", "Vries, Anna de", "NED", "1901")))
    code, out, err = run(capsys, club, "ratings", "import", str(txt), "--match-names")
    assert code == 0, err
    assert "Jürgen Müller: FIDE id none → 7000009 (by name, line 2), FIDE rating none → 1722" in out
    got = members(capsys, club)["Jürgen Müller"]
    assert (got["fide_id"], got["fide_rating"], got["rating"]) == ("7000009", 1722, 1710)


def test_a_name_twice_in_the_list_is_not_guessed(club, tmp_path, capsys):
    txt = write(tmp_path, "fide.txt", fide_txt(fide_line("7000008", "Müller, Jürgen", "GER", "2000"),
                                                  fide_line("7000009", "Müller, Jürgen", "NED", "1722")))
    before = digest(club)
    code, out, err = run(capsys, club, "ratings", "import", str(txt), "--match-names")
    assert code == 0, err
    assert "not found: Jürgen Müller: 2 players of that name in the list" in out
    assert digest(club) == before  # nothing to change: nothing written, not even the log


# -- FIDE's lists --------------------------------------------------------------------------


@pytest.mark.parametrize("name,data", [("players_list_foa.txt", TXT),
                                       ("players_list_xml_foa.xml", fide_xml(("7000001", "Vries, Anna de", "1901"),
                                                                             ("7000002", "Jansen, Bram", "1650"),
                                                                             ("7000003", "Smit, Cor", "")))])
@pytest.mark.parametrize("zipped", [False, True])
def test_fide_list_sets_the_fide_rating_and_keeps_the_national_one(club, tmp_path, capsys, name, data, zipped):
    path = write(tmp_path, name, data, zipped)
    code, out, err = run(capsys, club, "ratings", "import", str(path))
    assert code == 0, err
    assert "not found: Dirk O'Brien <script> (FIDE id 7999999): not in the list" in out
    got = members(capsys, club)
    assert (got["Anna de Vries"]["rating"], got["Anna de Vries"]["fide_rating"]) == (1850, 1901)
    assert (got["Bram Jansen"]["rating"], got["Bram Jansen"]["fide_rating"]) == (1600, 1650)


def test_the_standard_only_list_names_its_rating_column_after_the_month():
    header = FIDE_HEADER.split(" SRtng")[0] + " DEC25 Gms  K  B-day Flag"
    line = "7000001".ljust(15) + "Vries, Anna de".ljust(61) + "NED F" + " " * (header.index("DEC25") - 81) + "1901"
    found = read(io.BytesIO(f"{header}\n{line}\n".encode()), {"fide": {"7000001"}, "national": set()})
    assert found.by_id["7000001"].rating == 1901


def test_reading_keeps_only_the_players_asked_for():
    lines = [fide_line(str(1000000 + i), f"Player, Number {i}", "NED", "1500") for i in range(500)]
    found = read(io.BytesIO(fide_txt(*lines)), wanted([{"fed_id": None, "rating": None, "fide_id": "1000007",
                                                        "fide_rating": None}]))
    assert list(found.by_id) == ["1000007"] and found.by_name == {}
    lines.append(fide_line("7000002", "Jansen, Bram", "NED", "1650"))
    found = read(io.BytesIO(fide_txt(*lines)), {"fide": set(), "national": set()}, names={"bram jansen"})
    assert list(found.by_id) == ["7000002"] and list(found.by_name) == ["bram jansen"]
    xml = fide_xml(*[(str(1000000 + i), f"Player, Number {i}", "1500") for i in range(50)],
                   ("7000002", "Jansen, Bram", "1650"), ("7000009", "Müller, Jürgen", "1722"))
    found = read(io.BytesIO(xml), {"fide": {"1000003"}, "national": set()}, names={"bram jansen", "jurgen muller"})
    assert sorted(found.by_id) == ["1000003", "7000002", "7000009"]
    assert found.by_id["7000009"].line == 52 and found.by_id["7000009"].rating == 1722


# -- broken files: one line, nothing written -----------------------------------------------


@pytest.mark.parametrize("name,data,match", [
    ("fide.txt", TXT[:-80], "cut off"),
    ("fide.txt.zip", zip_bytes("fide.txt", TXT)[:-30], "cut off"),
    ("fide.txt", fide_txt(fide_line("7000001", "Vries, Anna de", "NED", "19x1")), "rating '19x1'"),
    ("fide.txt", fide_txt("70000O1        Vries, Anna de"), "is not a number"),
    ("fide.txt", fide_txt(fide_line("7000001", "A", "NED", "1901"), fide_line("7000001", "B", "NED", "1902")),
     "twice"),
    ("fide.txt", b"ID Number      Name\nsomething\n", "'SRtng'"),
    ("fide.xml", fide_xml(("7000001", "Vries, Anna de", "1901"))[:-30], "cut off"),
    ("fide.xml", b"<html><body>Not found</body></html>", "no <player>"),
    ("list.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a rating list"),
    ("list.csv", b"Relatienummer;Naam;Rating\n8100;Anna;9999\n", "rating '9999'"),
    ("list.zip", b"PK\x03\x04" + b"\x00" * 40, "damaged"),
    ("list.csv", b"Relatienummer;Naam;Rating\n8100;Anna;1850\n8100;Anna;1850\n", "twice"),
])
def test_a_broken_list_is_refused_in_one_line(club, tmp_path, capsys, name, data, match):
    path = write(tmp_path, name, data)
    err = bad(capsys, club, "ratings", "import", str(path), match=match)
    assert f"error: {path.name}: " in err  # which of the officer's files is broken


def test_a_damaged_or_crowded_zip_is_refused(club, tmp_path, capsys):
    path = write(tmp_path, "fide.txt", TXT, zipped=True)
    raw = path.read_bytes()
    path.write_bytes(raw[:30] + bytes(b ^ 0xFF for b in raw[30:60]) + raw[60:])
    bad(capsys, club, "ratings", "import", str(path), match="download it again")
    middle = len(raw) // 2  # inside the compressed data: zlib or the CRC check notices
    path.write_bytes(raw[:middle] + bytes(b ^ 0x55 for b in raw[middle:middle + 20]) + raw[middle + 20:])
    bad(capsys, club, "ratings", "import", str(path), match="damaged")
    two = tmp_path / "two.zip"
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.txt", TXT)
        archive.writestr("b.xml", fide_xml())
    bad(capsys, club, "ratings", "import", str(two), match="holds 2 rating lists")


def test_fide_ids_and_ratings_are_checked(club, capsys):
    bad(capsys, club, "member", "edit", "Bram", "--fide-id", "12ab", match="FIDE id '12ab' is not valid")
    bad(capsys, club, "member", "edit", "Bram", "--fide-rating", "4001", match="4001")


def test_member_reading_rejects_foreign_bytes_in_memory():
    with pytest.raises(FormatError, match="not a number"):
        read(io.BytesIO(fide_txt("１２３           Name")), {"fide": set(), "national": set()})


# -- which rating orders a competition, and frozen ratings ---------------------------------


def order(capsys, db: Path) -> list[tuple[str, object]]:
    code, out, err = run(capsys, db, "competition", "order", "--format", "json")
    assert code == 0, err
    return [(p["name"], p["rating"]) for p in json.loads(out)["order"]] if isinstance(json.loads(out), dict) \
        else [(p["name"], p["rating"]) for p in json.loads(out)]


def test_a_competition_is_ordered_by_the_list_it_names(club, capsys):
    assert run(capsys, club, "competition", "create", "Interne", "--all-members")[0] == 0
    assert order(capsys, club)[0] == ("Anna de Vries", 1850)
    code, out, err = run(capsys, club, "competition", "settings", "--format", "json")
    assert json.loads(out)["rating_list"] == "national"
    bad(capsys, club, "competition", "settings", "--set", "rating_list=elo", match="national, fide")
    code, out, err = run(capsys, club, "competition", "settings", "--set", "rating_list=fide")
    assert code == 0 and "rating_list" in out and "fide" in out, err
    assert order(capsys, club)[:2] == [("Bram Jansen", 1640), ("Anna de Vries", None)]


def test_a_competition_can_name_its_list_when_created(club, capsys):
    code, _, err = run(capsys, club, "competition", "create", "FIDE-rated", "--set", "rating_list=fide", "--all-members")
    assert code == 0, err
    assert order(capsys, club)[0] == ("Bram Jansen", 1640)
    bad(capsys, club, "competition", "create", "Other", "--set", "rating_list=knsb", match="national, fide")


def test_a_swiss_names_its_list_too(club, capsys):
    assert run(capsys, club, "competition", "create", "Rapid", "--system", "swiss", "--rounds", "5",
               "--all-members")[0] == 0
    code, out, err = run(capsys, club, "competition", "settings", "--set", "rating_list=fide", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rating_list"] == "fide"


@pytest.mark.parametrize("rating_list,frozen", [("national", 1600), ("fide", 1640)])
def test_ratings_freeze_from_the_competitions_list_and_a_new_list_changes_no_round(club, tmp_path, capsys,
                                                                                   rating_list, frozen):
    assert run(capsys, club, "competition", "create", "Interne", "--all-members")[0] == 0
    assert run(capsys, club, "competition", "settings", "--set", f"rating_list={rating_list}")[0] == 0
    code, _, err = run(capsys, club, "pair")
    assert code == 0, err
    assert dict(order(capsys, club))["Bram Jansen"] == frozen
    code, out, _ = run(capsys, club, "standings", "--format", "json")
    standing = out
    bad(capsys, club, "competition", "settings", "--set",
        f"rating_list={'fide' if rating_list == 'national' else 'national'}", match="frozen")
    for path in (write(tmp_path, "KLASSIEK.csv", KNSB), write(tmp_path, "fide.txt", TXT)):
        assert run(capsys, club, "ratings", "import", str(path))[0] == 0
    assert run(capsys, club, "member", "edit", "Bram", "--rating", "2400", "--fide-rating", "2450")[0] == 0
    assert dict(order(capsys, club))["Bram Jansen"] == frozen
    assert run(capsys, club, "standings", "--format", "json")[1] == standing


def test_schema_7_upgrade_keeps_the_national_rating(tmp_path, capsys):
    import shutil

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).resolve().parent / "data" / "schema-v1.db", db)
    code, out, err = run(capsys, db, "competition", "settings", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rating_list"] == "national"


# FIDE's layouts as published (https://ratings.fide.com/download_lists.phtml): each value under
# its header word, every line as wide as the header.
CARLSEN = ("1503014        Carlsen, Magnus                                              NOR M   GM                "
           "           2823  0   10 2801  12  10 2860  0   10 1990      ")


def _otit_line(otit: str, rating: str) -> str:
    """A line of players_list_foa.txt whose other titles ('OTit', 15 wide) may overflow: the
    later columns move right by as much, as in a few lines of the published list."""
    head = "7000001".ljust(15) + "Vries, Anna de".ljust(61) + "NED F   " + " " * 10
    tail = f"{rating:<6}0   20 0     0   20 0     0   20 1990  w   "
    return head + otit.ljust(15) + "    " + tail if len(otit) <= 15 else head + otit + "    " + tail


@pytest.mark.parametrize("otit", ["", "FA,IA", "SI,FI,LSI,SLI,NA", "IA,FA,IO,FST,DI,NI", "IA,FA,IO,FST,DI,NI,SI"])
def test_the_combined_fide_list_as_published_with_overflowing_titles(otit):
    line = _otit_line(otit, "2105")
    assert len(FIDE_HEADER) == len(CARLSEN) == 162 and len(line) == 162 + max(0, len(otit) - 15)
    found = read(io.BytesIO(fide_txt(CARLSEN, line)), {"fide": {"1503014", "7000001"}, "national": set()})
    assert (found.by_id["1503014"].rating, found.by_id["1503014"].name) == (2823, "Carlsen, Magnus")
    assert (found.by_id["7000001"].rating, found.by_id["7000001"].name) == (2105, "Vries, Anna de")


def test_the_standard_and_legacy_fide_lists_as_published():
    standard = FIDE_HEADER.split(" SRtng")[0] + " OCT26 Gms K  B-day Flag"
    line = CARLSEN[:113] + "2823  0   10 1990      "
    assert len(standard) == len(line) == 136
    found = read(io.BytesIO((standard + "\r\n" + line + "\r\n").encode("ascii")), {"fide": {"1503014"}, "national": set()})
    assert found.by_id["1503014"].rating == 2823
    legacy = FIDE_HEADER.replace("           FOA SRtng", "           SRtng")
    line = ("10207538       A E M, Doshtagir                                             BAN M                     "
            "       1840  0   40 1836  0   20 1860  0   20 1974      ")
    assert len(legacy) == len(line) == 158
    found = read(io.BytesIO((legacy + "\r\n" + line + "\r\n").encode("ascii")), {"fide": {"10207538"}, "national": set()})
    assert found.by_id["10207538"].rating == 1840


def test_the_fide_xml_list_as_published_without_a_declaration():
    xml = (b"<playerslist><player><fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country>"
           b"<sex>M</sex><title>GM</title><w_title></w_title><o_title></o_title><foa_title></foa_title>"
           b"<rating>2823</rating><games>0</games><k>10</k><rapid_rating>2801</rapid_rating><rapid_games>12"
           b"</rapid_games><rapid_k>10</rapid_k><blitz_rating>2860</blitz_rating><blitz_games>0</blitz_games>"
           b"<blitz_k>10</blitz_k><birthday>1990</birthday><flag></flag></player></playerslist>")
    found = read(io.BytesIO(xml), {"fide": {"1503014"}, "national": set()})
    assert found.by_id["1503014"].rating == 2823  # the standard rating, not the rapid or blitz one
