"""`import text` on the shapes of rules files real games keep (issue 50), one case folder each under
tests/cases/import/, in invented words (never a game's text): the survey of games kept on GitHub names the game
each imitates in its name (shape1: a README of bold numbers under topics, ... shape11: a Jekyll collection).

A case folder holds `input/` (the rules file or folder, as the repository has it), `args.txt` (the arguments
after `import text`, run from `input/`; any later line is a note for the reader), `expected.md` (the rules.md
printed) and `expected.txt` (`exit: N`, then what standard error says, one line each: what was left out, guessed
or written otherwise). Regenerate one after a deliberate change with `REGENERATE=1` and read the diff: every
rule of the input must be there once, its text without furniture, its class only as the record gives it."""
from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import ErrorCollector
from generator.parse.rules import parse_ruleset
from tests.test_cases import read_expected

CASES = Path(__file__).resolve().parent / "cases" / "import"


def _run(case: Path, capsys, monkeypatch) -> tuple[int, str, list[str]]:
    monkeypatch.chdir(case / "input")
    args = shlex.split((case / "args.txt").read_text(encoding="utf-8").splitlines()[0])
    code = main(["import", "text", *args])
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


@pytest.mark.parametrize("case", sorted(path for path in CASES.iterdir() if path.is_dir()), ids=lambda path: path.name)
def test_import_case(case: Path, capsys, monkeypatch) -> None:
    code, out, said = _run(case, capsys, monkeypatch)
    if os.environ.get("REGENERATE"):
        (case / "expected.md").write_text(out, encoding="utf-8")
        (case / "expected.txt").write_text("\n".join([f"exit: {code}", *said]) + "\n", encoding="utf-8")
    assert (code, said) == read_expected(case)
    assert out == (case / "expected.md").read_text(encoding="utf-8")
    errors = ErrorCollector()
    ruleset = parse_ruleset(out, "rules.md", errors)  # what import writes, check reads
    assert errors.errors == [] and ruleset.rules


def test_there_is_a_case_for_each_shape_of_the_issue_and_the_survey() -> None:
    shapes = {path.name.split("-")[0] for path in CASES.iterdir() if path.is_dir()}
    assert shapes >= {f"shape{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11)}
