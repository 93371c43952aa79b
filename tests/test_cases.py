"""Data-driven archives: every folder under tests/cases/*/ is one game that `check` must report exactly.

A case folder holds a game (game.toml, rules.md, log.md or log/*.md, optional snapshots/) and
`expected.txt`: its first line is `exit: N`, then the exact lines `check` prints, stdout first, then
stderr. A case may also hold `xfail.txt`: a known engine or parser defect; its text is the reason, and the
test must fail until the defect is fixed (strict), when the file is to be deleted.

Groups: engine/ (exit 0 or 1: the mechanics), parse/ (exit 2: unreadable input, exact messages),
broken/ (copies of the bundled games with one thing broken by hand), solitaire/ (Solitaire Nomic: each
action legal and illegal, life spans, forced division, claims; the finding names the clause it breaks),
hostile/ (archives broken as a careless or hostile player would: files that are not files, sizes past the
caps, numbers past int(), patterns that backtracked, escape codes, folder names that would be links; nothing
may crash, hang or be published).

A hostile case is checked in a copy, and may hold `recipe.txt` for what git cannot hold, one step a line,
paths relative to the game:

    name NEW-NAME                 the game's folder is called so
    symlink PATH TARGET           PATH becomes a symbolic link to TARGET (as `ln -s TARGET PATH`)
    fifo PATH                     PATH becomes a FIFO
    folder PATH                   PATH becomes an empty folder
    append PATH COUNT "TEXT"      TEXT (a JSON string) appended COUNT times
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.model.config import NOT_BY_EFFECT, SETTINGS
from tests.helpers import parse_html

CASES = Path(__file__).resolve().parent / "cases"
GROUPS = ("engine", "parse", "broken", "solitaire", "hostile")


def _case_dirs() -> list[Path]:
    return sorted(p for group in GROUPS if (CASES / group).is_dir()
                  for p in (CASES / group).iterdir() if p.is_dir())


def _params():
    params = []
    for case in _case_dirs():
        marks = []
        reason_file = case / "xfail.txt"
        if reason_file.is_file():
            marks.append(pytest.mark.xfail(strict=True, reason=reason_file.read_text(encoding="utf-8").strip()))
        params.append(pytest.param(case, marks=marks, id=f"{case.parent.name}/{case.name}"))
    return params


def read_expected(case: Path) -> tuple[int, list[str]]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].startswith("exit: "), f"{case}/expected.txt must start with 'exit: N'"
    return int(lines[0].removeprefix("exit: ")), lines[1:]


def materialize(case: Path, where: Path) -> Path:
    """The game a case folder describes: the folder itself, or for a hostile case a copy under `where` with
    its recipe applied."""
    if case.parent.name != "hostile":
        return case
    recipe = case / "recipe.txt"
    steps = [line.split(" ", 1) for line in recipe.read_text(encoding="utf-8").splitlines()] if recipe.is_file() else []
    name = next((argument for step, argument in steps if step == "name"), case.name)
    game = where / name
    shutil.copytree(case, game, ignore=shutil.ignore_patterns("expected.txt", "recipe.txt"))
    for step, argument in steps:
        if step == "name":
            continue
        path_text, _, rest = argument.partition(" ")
        path = game / path_text
        path.parent.mkdir(parents=True, exist_ok=True)
        if step != "append" and os.path.lexists(path):
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        if step == "symlink":
            path.symlink_to(rest)
        elif step == "fifo":
            os.mkfifo(path)
        elif step == "folder":
            path.mkdir()
        elif step == "append":
            count, _, text = rest.partition(" ")
            with path.open("a", encoding="utf-8", newline="") as handle:
                handle.write(json.loads(text) * int(count))
        else:
            raise ValueError(f"{recipe}: unknown step {step!r}")
    return game


@pytest.mark.parametrize("case", _params())
def test_case(case: Path, capsys, tmp_path, monkeypatch) -> None:
    """Run from the folder that holds the game, which names its files as expected.txt does (`case/log.md`)."""
    expected_exit, expected_lines = read_expected(case)
    game = materialize(case, tmp_path)
    monkeypatch.chdir(game.parent)
    code = main(["check", str(game)])
    out, err = capsys.readouterr()
    assert (code, out.splitlines() + err.splitlines()) == (expected_exit, expected_lines)


@pytest.mark.parametrize("case", [p for p in _params() if p.values[0].parent.name == "hostile"])
def test_a_hostile_case_is_built_or_refused_with_nothing_leaked(case: Path, capsys, tmp_path, monkeypatch) -> None:
    """build reads what check reads: refused as check refuses it (nothing written), else built, and then no
    page holds what was refused or a link that is not a plain relative or web address."""
    expected_exit, expected_lines = read_expected(case)
    content = tmp_path / "content"
    content.mkdir()
    monkeypatch.chdir(content)
    game = materialize(case, content)
    site = tmp_path / "site"
    code = main(["build", str(game), "-o", str(site)])
    err = capsys.readouterr().err
    if expected_exit == 2:
        assert code == 2 and err.splitlines() == expected_lines and not site.exists()
        return
    assert code == 0, err
    pages = list(site.rglob("*.html"))
    assert pages and not any("root:x:0:0" in page.read_text(encoding="utf-8") for page in pages)
    for page in pages:
        for _, attributes in parse_html(page).tags:
            for name in ("href", "src"):
                url = attributes.get(name) or ""
                assert ":" not in url.split("/")[0] or url.startswith(("http:", "https:", "mailto:")), (page, url)


def test_every_case_folder_is_complete() -> None:
    cases = _case_dirs()
    assert len(cases) >= 40
    for case in cases:
        assert (case / "expected.txt").is_file(), f"{case} has no expected.txt"
        assert (case / "game.toml").is_file(), f"{case} has no game.toml"
        exit_code, _ = read_expected(case)
        if case.parent.name == "parse":
            assert exit_code == 2, f"{case}: a parse case is unreadable input (exit 2)"

        else:
            assert exit_code in (0, 1, 2), case


def test_the_hostile_corpus_is_large() -> None:
    assert len([case for case in _case_dirs() if case.parent.name == "hostile"]) >= 40


def test_broken_copies_each_report_one_finding() -> None:
    """A hand-broken copy breaks ONE thing, so check reports exactly one problem (overrides aside)."""
    located = re.compile(r"^\S+:\d+(:\d+)?: ")
    for case in (c for c in _case_dirs() if c.parent.name == "broken"):
        exit_code, lines = read_expected(case)
        problems = [line for line in lines if located.match(line) and not line.endswith("[judgment]")]
        assert exit_code in (1, 2) and len(problems) == 1, f"{case}: {lines}"
        if exit_code == 1:
            assert lines[-1].endswith(", 1 discrepancy") or ", 1 discrepancy," in lines[-1], lines[-1]


def test_json_report_of_a_case(capsys) -> None:
    case = CASES / "engine" / "judgments"
    assert main(["check", str(case), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    game = report["games"][0]
    assert (report["version"], game["game"], game["consistent"], game["findings"]) == (1, "judgments", True, [])
    assert [(o["line"], o["what"], o["computed"], o["set"]) for o in game["overrides"]] == [
        (33, "the result of proposal 302", "adopted", "defeated"), (34, "Bob's score", "-6", "10"),
        (51, "the next player", "Dave", "Alice")]
    assert game["scores"] == {"Alice": 8, "Bob": 10, "Carol": 2, "Dave": 0}


def test_json_report_of_findings(capsys) -> None:
    case = CASES / "engine" / "formula-scoring"
    assert main(["check", str(case), "--format", "json"]) == 1
    finding, = json.loads(capsys.readouterr().out)["games"][0]["findings"]
    assert finding == {"file": "formula-scoring/log.md", "path": "tests/cases/engine/formula-scoring/log.md",
                       "line": 39, "kind": "score", "entry": "proposal 304",
                       "message": "Scores says Dan 6; replay gives 7 = 0 + 7 formula", "expected": "7", "found": "6",
                       "cause": None}


@pytest.mark.parametrize("case", sorted((CASES / "engine").glob("effect-*")), ids=lambda p: p.name)
def test_each_effect_case_depends_on_its_effect(case: Path, tmp_path: Path, capsys) -> None:
    """Without its Effect lines the same log checks differently: the case tests the Effect, not the defaults."""
    copy = tmp_path / case.name
    shutil.copytree(case, copy)
    for log in copy.glob("log*.md"):
        log.write_text("".join(line for line in log.read_text(encoding="utf-8").splitlines(keepends=True)
                               if not line.startswith("Effect:")), encoding="utf-8")
    main(["check", str(copy)])
    out, err = capsys.readouterr()
    assert out.splitlines() + err.splitlines() != read_expected(case)[1]


def test_there_is_an_effect_case_for_every_mechanic() -> None:
    keys = {line.partition("=")[0].removeprefix("Effect:").strip()
            for case in (CASES / "engine").glob("effect-*") for line in (case / "log.md").read_text().splitlines()
            if line.startswith("Effect:")}
    assert keys == set(SETTINGS) - set(NOT_BY_EFFECT)
