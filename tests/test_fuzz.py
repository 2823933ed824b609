"""Fuzzing the inputs people and other programs give keizer: season JSON and TRF files
(``keizer import``), results (``keizer result`` and ``result --file``) and the numbers,
dates, names and time controls of the command line.

Every case runs the CLI in-process and must end in exit status 0, or 1/2 with exactly one
line on stderr and the database byte-for-byte as before; never a traceback.  The number
of cases tried is printed at the end of the run ("fuzz: N cases tried …, tracebacks: 0").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from keizer.cli import main
from conftest import examples

CASES: Counter[str] = Counter()
ACCEPTED: Counter[str] = Counter()
#: Cases that ended in a traceback (an exception out of main, or one printed on stderr).
TRACEBACKS: Counter[str] = Counter()
#: More cases for a longer hunt: KEIZER_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz.py
FUZZ = settings(max_examples=int(os.environ.get("KEIZER_FUZZ_EXAMPLES", 0)) or examples(150), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def report(request):
    """Say how many cases were tried (shown with -q as well)."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():  # a passing test's output is otherwise swallowed
        kinds = ", ".join(f"{k} {v} ({ACCEPTED[k]} accepted)" for k, v in sorted(CASES.items()))
        reporter.write_line(f"\nfuzz: {sum(CASES.values())} cases tried: {kinds}; "
                            f"tracebacks: {sum(TRACEBACKS.values())}")


def _run(db: Path, args: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = 0
    try:
        main(["--db", str(db), *args])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> bytes:
    """A club: six members, a Keizer competition with round 1 played and round 2 paired."""
    db = tmp_path_factory.mktemp("fuzz") / "club.db"
    commands = [["member", "add", n, "--rating", r] for n, r in
                (("Anna de Vries", "1850"), ("Bram Jansen", "1720"), ("Cor Smit", "1690"),
                 ("Dirk O'Neill", "1600"), ("Eva Müller", "1550"), ("Gé Paard", "1400"))]
    commands += [["competition", "create", "Interne", "--all-members"],
                 ["timecontrol", "rapid 25+10", "--rounds", "1-"],
                 ["attend", "--date", "2026-09-08"], ["pair"], ["result", "1=1-0", "2=½-½", "3=0-1"], ["pair"]]
    for args in commands:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                main(["--db", str(db), *args])
            except SystemExit as e:
                assert not e.code, args
    return db.read_bytes()


@pytest.fixture
def check(template, tmp_path, capsys):
    """check(kind, args, files): run keizer on a fresh copy of the club and check the outcome."""
    db = tmp_path / "club.db"

    def run(kind: str, args: list[str], files: dict[str, bytes] | None = None) -> int:
        db.write_bytes(template)
        for name, data in (files or {}).items():
            (tmp_path / name).write_bytes(data)
        CASES[kind] += 1
        try:
            code, _, err = _run(db, [a.replace("{dir}", str(tmp_path)) for a in args], capsys)
        except Exception:
            TRACEBACKS[kind] += 1
            raise
        TRACEBACKS[kind] += "Traceback" in err
        assert "Traceback" not in err, err
        assert code in (0, 1, 2), (code, err)
        ACCEPTED[kind] += code == 0
        if code != 0:
            assert len(err.splitlines()) == 1, err
            assert err.startswith("error: "), err
            assert db.read_bytes() == template, f"a refused command changed the database: {err}"
        return code

    return run


# -- strategies ---------------------------------------------------------------------------------

HUGE = st.integers(min_value=2**63 - 2, max_value=2**80) | st.integers(min_value=-(2**80), max_value=-(2**63) + 1)
#: Text that real files and terminals produce, plus the awkward: digits int() accepts or refuses,
#: invisible and bidi characters, control characters, lone surrogates.
AWKWARD = st.sampled_from(["²", "٣", "１", "\u200b", "\u202e", "\u2066", "\u3164", "\n", "\t", "\x00", "\r", "½",
                           "=", "-", "+", "/", "#", ";", ",", " ", "é", "🐴", "<script>", "'", '"', "\udcff",
                           "\ufeff"])
TEXT = st.lists(st.one_of(AWKWARD, st.text(max_size=4), st.sampled_from(["1", "0", "12", "1-0", "0-1"])),
                max_size=6).map("".join)
NUMBER_TEXT = st.one_of(st.integers(-5, 40).map(str), HUGE.map(str), st.sampled_from(["", "0", "-0", "+3", "1_0", " 7 ",
                        "²", "٣", "1e3", "1.5", "9" * 30, "9" * 5000]), TEXT)
JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), HUGE, st.floats(allow_nan=True), TEXT,
                      st.sampled_from(["a", "b", "c", "1-0", "½-½", "excused", "win", "2026-09-08", "classic"]))
JSON_KEY = st.sampled_from(["a", "b", "id", "round", "x", ""]) | TEXT
JSON_ANY = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(JSON_KEY, inner, max_size=3), max_leaves=8)


def _often(common, rare, odds: int = 8):
    """``common`` ``odds`` times as often as ``rare`` (one_of would pick each equally)."""
    return st.sampled_from([True] * odds + [False]).flatmap(lambda pick: common if pick else rare)


def _or_junk(valid, odds: int = 8):
    """Mostly the valid value, sometimes anything JSON holds."""
    return _often(valid, JSON_ANY, odds)


def _player(pid: str):
    return st.fixed_dictionaries({"id": _or_junk(st.just(pid))}, optional={
        "name": _or_junk(st.sampled_from(["Anna", "Bram", "Cor", "Gé 🐴", "<b>x</b>"]) | TEXT),
        "rating": _or_junk(st.integers(0, 4000)), "joined": _or_junk(st.integers(1, 3)),
        "withdrawn_after": _or_junk(st.integers(0, 3)), "category": _or_junk(st.sampled_from(["A", "B"]))})


PLAYERS = st.tuples(_player("a"), _player("b"), st.none() | _player("c")).map(lambda ps: [p for p in ps if p])
GAME = st.fixed_dictionaries({"white": _or_junk(st.sampled_from(["a", "b", "c"])),
                              "black": _or_junk(st.sampled_from(["a", "b", "c"]))},
                             optional={"result": _or_junk(st.sampled_from(["1-0", "0-1", "½-½", "+-", "--", None])),
                                       "board": _or_junk(st.integers(1, 3))})
#: A played round: a against b.
PLAYED = st.fixed_dictionaries({"games": st.just([{"white": "a", "black": "b", "result": "1-0"}])},
                               optional={"date": st.sampled_from(["2026-09-08", "2026-02-30", "20260908"]),
                                         "time_control": st.sampled_from(["rapid 25+10", "x" * 101, "a\nb"])})
ROUND = _often(PLAYED, st.fixed_dictionaries({}, optional={
    "round": _or_junk(st.integers(1, 3)), "date": _or_junk(st.sampled_from(["2026-09-08", "2026-02-30", "20260908"])),
    "games": _or_junk(st.lists(GAME, max_size=2)),
    "absent": _or_junk(st.dictionaries(st.sampled_from(["a", "b", "c"]), st.sampled_from(["excused", "club", "x"]))),
    "bye": _or_junk(st.lists(st.sampled_from(["a", "b", "c"]), max_size=1)),
    "external": _or_junk(st.dictionaries(st.sampled_from(["a", "b", "c"]), st.sampled_from(["win", "draw", "x"]))),
    "present": _or_junk(st.lists(st.sampled_from(["a", "b", "c"]), max_size=2)),
    "time_control": _or_junk(st.sampled_from(["rapid 25+10", "x" * 101]))}), 2)
SETTINGS = st.fixed_dictionaries({}, optional={
    "preset": _or_junk(st.sampled_from(["classic", "sharly", "nope"])), "top": _or_junk(st.integers(1, 100)),
    "decimals": _or_junk(st.integers(0, 3)), "ratio": _or_junk(st.sampled_from([3, "3/2", 0])),
    "bye": _or_junk(st.sampled_from(["2/3", "1", "9/2"])), "max_excused": _or_junk(st.integers(0, 5))})
SEASON = st.fixed_dictionaries(
    {"players": _or_junk(PLAYERS, 20)},
    optional={"format": _or_junk(st.just("keizer-season")), "version": _or_junk(st.just(1)),
              "name": _or_junk(st.sampled_from(["Fuzz", "Interne"])), "system": _or_junk(st.just("keizer")),
              "settings": _or_junk(SETTINGS), "initial_order": _or_junk(st.lists(st.sampled_from(["a", "b"]))),
              "rounds": _or_junk(st.lists(ROUND, max_size=3), 20)})


@FUZZ
@given(doc=SEASON, wrap=st.sampled_from(["plain", "plain", "plain", "deep", "bom", "latin-1", "cut"]))
def test_fuzz_season_json_import(check, doc, wrap):
    text = json.dumps(doc, ensure_ascii=False)
    data = {"plain": lambda: text.encode("utf-8", "surrogatepass"),
            "deep": lambda: ("[" * 5000 + text + "]" * 5000).encode("utf-8", "surrogatepass"),
            "bom": lambda: b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
            "latin-1": lambda: text.encode("latin-1", "replace"),
            "cut": lambda: text.encode("utf-8", "surrogatepass")[: len(text) // 2]}[wrap]()
    check("season-json", ["import", "{dir}/season.json"], {"season.json": data})


def _trf_player(start: str, name: str, rating: str, rounds: list[str]) -> str:
    return f"001 {start:>4}      {name:<33} {rating:>4} {'':<3} {'':>11} {'':<10} {'0.0':>4} {'':>4}" + \
        "".join(f"  {r}" for r in rounds)


TRF_RECORD = st.one_of(
    st.tuples(st.sampled_from(["XXR", "142", "XXS", "162", "362", "202", "132", "240", "320", "330", "300", "310",
                               "013", "092", "192", "352", "012"]), TEXT | NUMBER_TEXT).map(" ".join),
    st.sampled_from(["XXS W=1/0", "XXS W=1e99999", "XXR 99999999999", "XXS WW=1 BW=1.5", "162 W 3.0 D 1.0",
                     "240 F 1 1", "330 +- 1 1 2", "310   1 Team A                                         1    2",
                     "300 1 1 2 1 2", "132" + " " * 88 + "26/09/08  26/99/99"]))


@FUZZ
@given(records=_often(st.just([]), st.lists(TRF_RECORD, max_size=2), 1),
       start=_often(st.just("2"), NUMBER_TEXT, 4),
       opponent=_often(st.just("   2"), st.sampled_from(["0000", "   9", "   ²", "   1"]), 4),
       colour=_often(st.just("w"), st.sampled_from(["b", "-", "x", " "]), 4),
       code=_often(st.just("1"), st.sampled_from(list("0=+-DLWHFUZX ?")), 4),
       extra_rounds=st.integers(0, 3), name=_often(st.just("Bram"), TEXT, 4))
def test_fuzz_trf_import(check, records, start, opponent, colour, code, extra_rounds, name):
    lines = ["012 Fuzz cup", *records,
             _trf_player("1", "Anna", "1850", [f"{opponent} {colour} {code}"] + ["0000 - Z"] * extra_rounds),
             _trf_player(start[:4], name[:33] or "Bram", "1700", ["   1 b 0"])]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    check("trf", ["import", "{dir}/event.trf"], {"event.trf": data})


VALID_RESULT = st.sampled_from(["1-0", "0-1", "½-½", "1/2-1/2", "=", "+-", "-+", "--"])
RESULT_TEXT = _often(VALID_RESULT, st.just("clear") | TEXT, 3)
BOARD_TEXT = _often(st.integers(1, 3).map(str), st.integers(0, 5).map(str) | NUMBER_TEXT, 6)
#: Round 2 of the club is paired on boards 1-3.
CLEAN_ITEMS = st.lists(st.tuples(st.integers(1, 3).map(str), st.just("="), VALID_RESULT), min_size=1, max_size=3,
                       unique_by=lambda item: item[0])
ITEMS = _often(CLEAN_ITEMS, st.lists(st.tuples(BOARD_TEXT, st.sampled_from(["=", "==", " ", ""]), RESULT_TEXT),
                                     max_size=4, unique_by=lambda item: item[0]), 2)


@FUZZ
@given(items=ITEMS, round_no=_often(st.none(), st.sampled_from(["1", "2"]) | NUMBER_TEXT, 2),
       correct=st.booleans())
def test_fuzz_result_arguments(check, items, round_no, correct):
    args = ["result", *(f"{b}{sep}{r}" for b, sep, r in items)]
    if round_no is not None:
        args += ["--round", round_no]
    if correct:
        args.append("--correct")
    check("result", args)


@FUZZ
@given(lines=_often(CLEAN_ITEMS, st.lists(st.tuples(BOARD_TEXT, st.sampled_from(["=", " ", ";", ",", "\t", " = "]),
                                              RESULT_TEXT), max_size=4, unique_by=lambda item: item[0]), 2),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "latin-1"]),
       junk=_often(st.just(b""), st.binary(max_size=8), 2))
def test_fuzz_result_file(check, lines, encoding, junk):
    text = "\r\n".join(f"{b}{sep}{r}" for b, sep, r in lines)
    data = text.encode(encoding, "replace") + junk
    check("result-file", ["result", "--file", "{dir}/results.txt"], {"results.txt": data})


COMMANDS = st.one_of(
    st.tuples(st.just(["member", "add"]), TEXT, st.sampled_from(["--rating", "--fed-id"]), NUMBER_TEXT),
    st.tuples(st.just(["member", "edit", "Anna"]), st.sampled_from(["--name", "--rating"]), TEXT | NUMBER_TEXT),
    st.tuples(st.just(["player", "set", "Anna"]), st.sampled_from(["--joined", "--category"]), NUMBER_TEXT | TEXT),
    st.tuples(st.just(["log", "-n"]), NUMBER_TEXT),
    st.tuples(st.just(["attend", "--date"]), st.one_of(TEXT, st.dates().map(str), st.sampled_from(
        ["2026-02-30", "9999-12-31", "0001-01-01", "２０２６-09-08", "2026-9-8"]))),
    st.tuples(st.just(["attend", "--round"]), NUMBER_TEXT),
    st.tuples(st.just(["timecontrol"]), TEXT | st.text(min_size=95, max_size=110),
              st.sampled_from(["--rounds", "--round"]), NUMBER_TEXT | st.sampled_from(["1-3", "4-", "3-1", "0-", "-"])),
    st.tuples(st.sampled_from([["standings", "--round"], ["history", "Anna", "--round"], ["pairings", "--round"],
                               ["attendance", "--round"], ["pair", "--again", "--keep"]]), NUMBER_TEXT),
    st.tuples(st.just(["competition", "create"]), TEXT),
)


def _flatten(parts) -> list[str]:
    out: list[str] = []
    for part in parts:
        out.extend(part if isinstance(part, list) else [part])
    return out


@FUZZ
@given(command=COMMANDS)
def test_fuzz_command_line_numbers_dates_names(check, command):
    check("arguments", _flatten(command))
