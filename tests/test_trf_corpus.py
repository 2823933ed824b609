"""Every file of the shared TRF corpus (other projects' test data, ../shared/data/trf-corpus/,
never committed): it imports, gives the standing 'keizer trf standings' gives, and continues
to a paired next round; or it is refused with one line naming its line and column (the
deliberately broken ones); or the next round has no legal pairing, as the file intends.
Skipped when the corpus is absent (see tests/data/SOURCES.md)."""

from __future__ import annotations

import json

import pytest

from conftest import EXTERNAL, external
from test_cli import run

CORPUS = EXTERNAL / "trf-corpus"

#: file → what happens: "paired" (the next round), "raised" (paired after 'keizer swiss rounds N':
#: every planned round is played), "team" (a team Swiss, paired with 'keizer team next'),
#: "no pairing" (the engine finds none, as the file's name says) or the refusal's start.
OUTCOMES = {
    "py4swiss__burstein_late_entries.trf": "paired",
    "py4swiss__burstein_late_entries_black.trf": "paired",
    "py4swiss__comments.trf": "paired",
    "py4swiss__dubov_bye_for_high_tpn.trf": "paired",
    "py4swiss__dutch_d2_criterion_d.trf": "paired",
    "py4swiss__dutch_e2_both_absolute_higher_favored.trf": "paired",
    "py4swiss__dutch_e2_both_absolute_lower_favored.trf": "paired",
    "py4swiss__incompatible_color.trf": "error: line 2, column 137: round 5: player 3 (line 3) has the same colour",
    "py4swiss__incompatible_result.trf": "error: line 2, column 139: round 5: result 1 against 1 of player 3 (line 3)",
    "py4swiss__incorrect_points.trf": "raised",
    "py4swiss__invalid_code.trf": "paired",
    "py4swiss__javafo_example.trf": "paired",
    "py4swiss__missing_result.trf": "error: line 2, columns 132-135: round 5: player 3 (line 3) does not name 2 back",
    "py4swiss__missing_starting_number.trf": "paired",
    "py4swiss__no_legal_pairings.trf": "no pairing",
    "py4swiss__no_legal_pairings_odd.trf": "no pairing",
    "py4swiss__too_many_results.trf": "raised",
    "sharly__2020_06.trf": "raised",
    "sharly__2021_03.trf": "raised, no pairing",  # nine players, nine rounds: everybody has met everybody
    "sharly__trf-import-test.trf": "raised",
    "sharly__trf-team-import-test.trf": "team",
}


def test_the_table_names_every_file_of_the_corpus():
    if not CORPUS.exists():
        pytest.skip("the TRF corpus comes from other public repositories and is not committed")
    assert sorted(p.name for p in CORPUS.glob("*.trf")) == sorted(OUTCOMES)


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_corpus_file_imports_and_continues_or_is_refused_in_one_line(name, tmp_path, capsys):
    path = external(CORPUS / name)
    db = tmp_path / "c.db"
    expected = OUTCOMES[name]
    code, out, err = run(capsys, db, "import", str(path))
    if expected.startswith("error:"):
        assert code != 0 and err == expected + "\n"
        return
    assert code == 0, err
    code, out, err = run(capsys, db, "standings", "--format", "json")
    assert code == 0, err
    if expected == "team":
        code, out, err = run(capsys, db, "team", "next")
        assert code == 0, err
        return
    ours = json.loads(out)
    code, out, err = run(capsys, db, "trf", "standings", str(path), "--format", "json")
    assert code == 0, err
    theirs = json.loads(out)
    assert [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in ours] == \
           [(r["rank"], r["name"], r["points"], r["tiebreaks"]) for r in theirs]
    if expected.startswith("raised"):
        code, out, err = run(capsys, db, "pair")
        assert code != 0 and "rounds are paired; add rounds with 'keizer swiss rounds N'" in err
        assert run(capsys, db, "swiss", "rounds", "20")[0] == 0
    code, out, err = run(capsys, db, "pair")
    if expected.endswith("no pairing"):
        assert code != 0 and "has no pairing without a rematch" in err and len(err.splitlines()) == 1
        return
    assert code == 0, err
    assert out.startswith("Round ")


@pytest.mark.parametrize("name", sorted(n for n, outcome in OUTCOMES.items() if not outcome.startswith("error")))
def test_a_corpus_file_continues_as_a_keizer_competition(name, tmp_path, capsys):
    path = external(CORPUS / name)
    db = tmp_path / "k.db"
    code, out, err = run(capsys, db, "import", str(path), "--system", "keizer")
    assert code == 0, err
    code, out, err = run(capsys, db, "pair")
    if OUTCOMES[name] == "team":  # as an individual tournament: its round 2 is paired, the results to enter
        assert "round 2 is paired and not finished" in run(capsys, db, "import", str(path), "--system", "keizer",
                                                           "--name", "again")[1]
        assert code != 0 and "round 2 is already paired" in err
        return
    assert code == 0, err


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_corpus_file_dry_run_says_what_the_import_would_do_and_writes_nothing(name, tmp_path, capsys):
    from test_cli import digest

    path = external(CORPUS / name)
    db = tmp_path / "c.db"
    assert run(capsys, db, "member", "add", "Someone")[0] == 0
    before = digest(db)
    code, out, err = run(capsys, db, "import", str(path), "--dry-run")
    assert digest(db) == before
    expected = OUTCOMES[name]
    if expected.startswith("error:"):
        assert code != 0 and err == expected + "\n"  # the refusal the import gives, word for word
        return
    assert code == 0, err
    assert out.startswith("would import ") and "the standing it would give" in out
    assert out.splitlines()[-1] == f"nothing written to {db} (--dry-run)"
    if expected != "team":  # a file's rank column is compared, or it is said why not
        from keizer.formats.trf_import import read

        ranks = [line for line in out.splitlines() if line.startswith("the file's ranks")]
        assert len(ranks) == (1 if any(p.rank for p in read(path).players) else 0)
