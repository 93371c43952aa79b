"""`nomic-archive diff`: golden output of the bundled examples, the sides it reads, exit codes and colour.

The golden files in tests/data/diff/ are compared byte for byte. After a deliberate change of output,
rewrite them with `NOMIC_UPDATE_GOLDEN=1 python -m pytest tests/test_diff_command.py` and read the diff.
"""
from __future__ import annotations

import io
import json
import os
import re
import sys

import pytest

from generator.cli import main
from generator.commands.diff import load_side
from generator.diffing.compare import compare, to_json
from generator.model.points import HINT
from tests.helpers import DATA, ROOT
from tests.test_compare import ADOPTION_EDITED, CONSPIRE, DEFEAT, EFFECT, MAIL, TURNS, WINNER, write_game

GOLDEN = DATA / "diff"
EXAMPLES = {
    "livejournal": ("examples/livejournal-before.md", "examples/livejournal-after.md"),
    "suber-livejournal": ("examples/suber-2nd.md", "examples/livejournal-after.md"),
}


@pytest.fixture
def in_root(monkeypatch):
    # The golden output names the sides as given: relative to the repository's root.
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)


def diff(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["diff", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- Golden output ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_golden_output(in_root, capsys, name, fmt):
    code, out, err = diff(capsys, *EXAMPLES[name], "--format", fmt)
    assert (code, err) == (1, "")
    golden = GOLDEN / f"{name}.{'txt' if fmt == 'text' else 'json'}"
    if os.environ.get("NOMIC_UPDATE_GOLDEN"):
        golden.write_bytes(out.encode("utf-8"))
    assert out.encode("utf-8") == golden.read_bytes()


# Headers of the text form: everything not indented, between the two side lines and the tally.
_HEADER = re.compile(
    r"rule (?P<changed>\d+) changed|rule (?P<added>\d+) added|rule (?P<removed>\d+) removed"
    r"|rule (?P<old>\d+) is now (?P<new>\d+)|rule (?P<whole>\d+) split into (?P<parts>\d+ and \d+)"
    r"|rules (?P<merged>\d+ and \d+) merged into (?P<into>\d+)")


def parse_text(report: str) -> dict[str, list]:
    """Which rules the text form says changed, were added, removed, renumbered, split or merged."""
    lines = report.split("\n")
    assert lines[0].startswith("--- ") and lines[1].startswith("+++ ") and lines[2] == ""
    found: dict[str, list] = {"changed": [], "added": [], "removed": [], "renumbered": [], "split": [], "merged": []}
    for line in lines[3:-2]:
        if not line or line.startswith((" ", "Key: ")):
            continue
        match = _HEADER.match(line)
        assert match, line
        groups = {key: value for key, value in match.groupdict().items() if value}
        if "old" in groups:
            found["renumbered"].append((int(groups["old"]), int(groups["new"])))
        elif "whole" in groups:
            found["split"].append((int(groups["whole"]), tuple(map(int, groups["parts"].split(" and ")))))
        elif "merged" in groups:
            found["merged"].append((tuple(map(int, groups["merged"].split(" and "))), int(groups["into"])))
        else:
            ((kind, number),) = groups.items()
            found[kind].append(int(number))
    return found


def from_json(data: dict) -> dict[str, list]:
    """The same facts from the JSON form."""
    found: dict[str, list] = {"changed": [], "added": [], "removed": [], "renumbered": [], "split": [], "merged": []}
    for pair in data["pairs"]:
        old = [rule["number"] for rule in pair["old"]]
        new = [rule["number"] for rule in pair["new"]]
        if pair["kind"] in ("changed", "removed"):
            found[pair["kind"]].append(old[0])
        elif pair["kind"] == "added":
            found["added"].append(new[0])
        elif pair["kind"] == "renumbered":
            found["renumbered"].append((old[0], new[0]))
        elif pair["kind"] == "split":
            found["split"].append((old[0], tuple(new)))
        elif pair["kind"] == "merged":
            found["merged"].append((tuple(old), new[0]))
    return found


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_text_and_json_forms_parse_back_to_the_comparison(in_root, capsys, name):
    old, new = EXAMPLES[name]
    _, text, _ = diff(capsys, old, new)
    _, raw, _ = diff(capsys, old, new, "--format", "json")
    data = json.loads(raw)
    assert data == to_json(compare(load_side(old), load_side(new)), old=old, new=new)
    assert parse_text(text) == from_json(data)
    assert text.rstrip("\n").split("\n")[-1] == compare(load_side(old), load_side(new)).tally()


def test_livejournal_text_shows_rule_203_alone(in_root, capsys):
    _, text, _ = diff(capsys, *EXAMPLES["livejournal"])
    assert parse_text(text) == {"changed": [203], "added": [], "removed": [], "renumbered": [], "split": [],
                                "merged": []}
    assert "vote [-one week-]{+interval+} after" in text
    assert text.endswith("\n1 changed; 29 unchanged\n")


def test_suber_against_livejournal_pairs_the_rules_that_moved(in_root, capsys):
    _, text, _ = diff(capsys, *EXAMPLES["suber-livejournal"])
    found = parse_text(text)
    assert (203, 206) in found["renumbered"] and (212, 214) in found["renumbered"]
    assert 201 in found["changed"] and 105 in found["changed"]
    assert found["added"] == [203, 204, 205] and found["removed"] == [111, 210]


# --- Sides -----------------------------------------------------------------------------------------


def test_identical_rulesets_exit_0_with_no_differences(in_root, capsys):
    code, out, _ = diff(capsys, "examples/suber-2nd.md", "examples/suber-2nd.md")
    assert code == 0
    assert out.endswith("\nno differences (29 rules)\n")


def test_a_plain_text_side_is_imported(in_root, capsys):
    # Seed 004 is the plain text that examples/suber-2nd.md was imported from.
    code, out, _ = diff(capsys, "tests/data/seeds/004_d5bfd86e72428250.txt", "examples/suber-2nd.md")
    assert (code, out.split("\n")[-2]) == (0, "no differences (29 rules)")


def test_game_points_by_proposal_and_by_date(tmp_path, capsys):
    game = write_game(tmp_path / "splits")
    assert diff(capsys, f"{game}@301", f"{game}@2005-04-01")[0] == 0  # 301 is the last entry of April 1
    code, out, _ = diff(capsys, f"{game}@301", f"{game}@302")
    assert code == 1 and parse_text(out)["split"] == [(210, (210, 302))]
    # April 2 saw proposals 302 and 303: the date means after the later one.
    assert diff(capsys, f"{game}@303", f"{game}@2005-04-02")[0] == 0
    # Before the first entry: the initial set.
    code, out, _ = diff(capsys, f"{game}@2005-03-31", str(game / "rules.md"))
    assert code == 0
    assert diff(capsys, f"{game}@start", str(game / "rules.md"))[0] == 0
    assert diff(capsys, f"{game}@start", f"{game}@301")[0] == 1
    # The folder alone: the rules in force at the end of the log (proposal 306 was defeated).
    assert diff(capsys, f"{game}@305", game)[0] == 0
    code, out, _ = diff(capsys, game / "rules.md", game)
    assert parse_text(out) == {"changed": [101, 203, 210], "added": [305], "removed": [], "renumbered": [(201, 220)],
                               "split": [], "merged": [((205, 206), 205)]}


def test_a_posted_snapshot_against_the_replay(tmp_path, capsys):
    game = write_game(tmp_path / "splits")
    snapshot = game / "snapshots" / "after-302.md"
    snapshot.parent.mkdir()
    rules = [(201, TURNS), (203, ADOPTION_EDITED), (205, WINNER), (206, DEFEAT), (210, CONSPIRE), (302, MAIL)]
    snapshot.write_text("After: proposal 302\n\n## Immutable Rules\n\n### 101\n" + EFFECT + "\n\n## Mutable Rules\n\n"
                        + "".join(f"### {number}\n{text}\n\n" for number, text in rules), encoding="utf-8")
    assert diff(capsys, snapshot, f"{game}@302")[0] == 0
    code, out, _ = diff(capsys, snapshot, f"{game}@303")
    assert code == 1 and parse_text(out)["merged"] == [((205, 206), 205)]


def test_json_form_of_a_game_point(tmp_path, capsys):
    game = write_game(tmp_path / "splits")
    code, out, _ = diff(capsys, f"{game}@302", f"{game}@303", "--format", "json")
    data = json.loads(out)
    assert (code, data["old"], data["counts"]["merged"]) == (1, f"{game}@302", 1)
    (merged,) = [pair for pair in data["pairs"] if pair["kind"] == "merged"]
    assert merged["description"] == "rules 205 and 206 merged into 205"


# --- Unreadable sides: exit 2, file:line: messages --------------------------------------------------


def test_a_proposal_not_in_the_log(tmp_path, capsys, monkeypatch):
    game = write_game(tmp_path / "splits")
    monkeypatch.chdir(tmp_path)
    code, out, err = diff(capsys, f"{game}@999", game)
    assert (code, out) == (2, "")
    assert err == "splits/log.md: proposal 999 is not in the log (its proposals run from 301 to 306)\n"


def test_a_point_that_is_neither_number_nor_date(tmp_path, capsys):
    game = write_game(tmp_path / "splits")
    code, _, err = diff(capsys, f"{game}@tuesday", game)
    assert code == 2
    assert err == f"{game}@tuesday: no such point; {HINT}\n"  # (the hint's words: test_points.py)


def test_missing_file_and_folder_that_is_no_game(tmp_path, capsys):
    code, _, err = diff(capsys, tmp_path / "nothing.md", tmp_path)
    assert code == 2 and err == f"{tmp_path / 'nothing.md'}: no such file or game folder\n"
    code, _, err = diff(capsys, tmp_path, tmp_path)
    assert code == 2 and err.startswith(f"{tmp_path}: not a game folder")


def test_broken_rules_file_names_every_line(tmp_path, capsys):
    broken = tmp_path / "broken.md"
    broken.write_text("# Rules\n\n## Mutable Rules\n\n### 201\nOne.\n\n### 201\nTwo.\n\n### two\nThree.\n")
    code, out, err = diff(capsys, broken, "examples/suber-2nd.md")
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"{broken}:8: rule 201 appears twice (first at line 5)",
                                f"{broken}:11: rule heading 'two' does not start with a whole number"]


def test_not_utf8_and_not_a_ruleset(tmp_path, capsys):
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"### 101\nCaf\xe9\n")
    code, _, err = diff(capsys, latin, latin)
    assert code == 2 and err.startswith(f"{latin}:2:4: not UTF-8 text")
    prose = tmp_path / "prose.txt"
    prose.write_text("Nomic is a game in which changing the rules is a move.\n")
    code, _, err = diff(capsys, prose, prose)
    assert code == 2 and err.startswith(f"{prose}: no numbered rules found")


def test_a_game_whose_files_cannot_be_read(tmp_path, capsys):
    game = write_game(tmp_path / "splits")
    (game / "log.md").write_text("## Proposal 301\nProposer: Ann\nDate: someday\n")
    code, _, err = diff(capsys, game, game)  # from outside the game: named in full
    assert code == 2 and err.startswith(f"{game}/log.md:3: ")


# --- Output ----------------------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_in_a_terminal_and_never_with_no_color(in_root, monkeypatch):
    def run(**env: str) -> str:
        for key in ("NO_COLOR",):
            monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        terminal = FakeTerminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        assert main(["diff", *EXAMPLES["livejournal"]]) == 1
        return terminal.getvalue()

    coloured = run()
    assert "\x1b[9mone week\x1b[0m\x1b[31;4minterval\x1b[0m" in coloured
    assert "\x1b[1mrule 203 changed\x1b[0m" in coloured
    assert "\x1b[" not in run(NO_COLOR="1")
    assert "\x1b[" in run(NO_COLOR="")  # NO_COLOR counts only when it is set to something


def test_no_colour_when_piped_or_written_to_a_file(in_root, capsys, tmp_path, monkeypatch):
    code, out, _ = diff(capsys, *EXAMPLES["livejournal"])
    assert "\x1b[" not in out
    monkeypatch.setattr(sys, "stdout", FakeTerminal())
    target = tmp_path / "out" / "diff.txt"
    assert main(["diff", *EXAMPLES["livejournal"], "-o", str(target)]) == 1
    assert sys.stdout.getvalue() == ""
    assert target.read_text(encoding="utf-8") == out
    assert [p.name for p in target.parent.iterdir()] == ["diff.txt"]  # no temporary file left behind


def test_html_is_a_page_of_its_own(in_root, capsys):
    code, out, _ = diff(capsys, *EXAMPLES["livejournal"], "--format", "html")
    assert code == 1
    assert out.startswith("<!doctype html>") and "<style>" in out and "<link" not in out and "<script" not in out
    assert "<h1>examples/livejournal-before.md against examples/livejournal-after.md</h1>" in out
    assert ('<del><span class="visually-hidden">deleted: </span>one week</del>'
            '<ins><span class="visually-hidden">inserted: </span>interval</ins>') in out
    assert "<p class=\"tally\">1 changed; 29 unchanged.</p>" in out


def test_titles_cannot_drive_the_terminal(tmp_path, capsys):
    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_text("## Mutable Rules\n\n### 201\nPlayers alternate.\n")
    new.write_text("## Mutable Rules\n\n### 201. Order\x1b[2J\nPlayers alternate.\n")
    code, out, err = diff(capsys, old, new)  # a title with a control character in it is refused, as a name is
    assert code == 2 and out == "" and "\x1b" not in err
    assert err == (f"{new}:3: rule 201: the title 'Order\\u001b[2J' holds invisible characters (U+001B <control>): "
                   "every reader sees 'Order[2J'; remove them\n")
