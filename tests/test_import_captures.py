"""A game kept as rulesets captured on days (B Nomic's wiki, as the Internet Archive copied it): the records file
lists them, `[rulesets] files`, and each capture after the first is an event of the proposals between them."""
from __future__ import annotations

import subprocess

from helpers import git_commit
from test_import_git import check, entries, imported

FIRST = """# Rules of a game - July 19, 2007

## Section 1: Foundation

### Rule 1-1: The Game

The name of this game is B.

### Rule 1-2: Objects

Everything in the game is an Object.
"""

SECOND = FIRST.replace("Everything in the game is an Object.", "Everything in the game is an Object, or a Player.")

THIRD = """# Rules of a game - February 1, 2008

## Foundation

### Rule 4E1: The Game

The name of this game is B.

### Rule 4E2: Objects

Everything in the game is an Object, or a Player.

### Rule 4E3: Eras

The Fourth Era began on 10 December 2007.
"""

RECORDS = """# the Internet Archive's captures of the game's wiki
[rulesets]
files = [
  { file = "rules/rules.2007-07-19.md", date = 2007-07-19 },
  { file = "rules/rules.2007-09-06.md", date = 2007-09-06, title = "The rules of 6 September 2007" },
  { file = "rules/rules.2008-02-01.md", date = 2008-02-01, title = "The rules of 1 February 2008" },
]
"""


def captured_game(tmp_path, records: str = RECORDS):
    repo = tmp_path / "repo"
    git_commit(repo, "All the captures", {"rules/rules.2007-07-19.md": FIRST, "rules/rules.2007-09-06.md": SECOND,
                                          "rules/rules.2008-02-01.md": THIRD})
    path = tmp_path / "records.toml"
    path.write_text(records, encoding="utf-8")
    return repo, path


def test_each_capture_after_the_first_is_an_event_of_the_proposals_the_record_lacks(tmp_path, capsys):
    repo, records = captured_game(tmp_path)
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--title", "B")
    assert code == 0, said
    log = entries(files["log.md"])
    assert list(log) == ["Event: The rules of 6 September 2007", "Event: The rules of 1 February 2008"]
    first = log["Event: The rules of 6 September 2007"]
    assert "Date: 2007-09-06\nBy: proposals not in the record\n" in first
    assert "Amend rule 1002 to read:\n\n> Everything in the game is an Object, or a Player." in first
    # the era renumbered the rules (1-1 is 4E1), and one rule is new
    second = log["Event: The rules of 1 February 2008"]
    assert "Renumber rule 1001 to 4001" in second and "Enact rule 4003: Eras" in second
    assert "start = 2007-07-19" in files["game.toml"] and "### 1001. The Game" in files["rules.md"]
    # the record's names for the rules: each rule's at the start, and the Fourth Era's as it gave them
    assert "### 1001. The Game\nLabel: 1-1\n" in files["rules.md"]
    assert "Renumber rule 1001 to 4001.\n\nLabel: 4E1\n" in second and "> The Fourth Era began on 10 December " \
        "2007.\n\nLabel: 4E3\n" in second
    assert files["rules.md"].startswith("# The rules at commit ")  # (the first capture has no title)
    assert "each ruleset the records file lists is an entry" in files["game.toml"]
    # each capture's topics, over time: the sections of 2007, then the Fourth Era's
    assert 'title = "Section 1: Foundation"\nrules = [1001, 1002]\nuntil = 2008-02-01' in files["game.toml"]
    assert 'title = "Foundation"\nrules = [4001, 4002, 4003]\nfrom = 2008-02-01' in files["game.toml"]
    assert "read the rulesets the records file's rulesets.files names, in the repository repo at commit" in \
        files["IMPORT.md"]
    assert "ruleset 1 event by proposals not in the record  # the record: ruleset 1 names no proposal" in \
        files["corrections.txt"]
    assert check(capsys, tmp_path / "game")[0] == 0


def test_the_keeper_names_a_captures_proposal_in_the_corrections_file(tmp_path, capsys):
    repo, records = captured_game(tmp_path)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("ruleset 1 proposal 12 by Ann\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                 str(corrections))
    assert code == 0, said
    log = entries(files["log.md"])
    assert "Proposal 12: The rules of 6 September 2007" in log
    assert "Proposer: Ann" in log["Proposal 12: The rules of 6 September 2007"]
    assert f"{corrections}:1: ruleset 1: proposal 12 by Ann" in said


def test_the_first_captures_title_is_the_rules_title(tmp_path, capsys):
    repo, records = captured_game(tmp_path, RECORDS.replace("date = 2007-07-19 }",
                                                            'date = 2007-07-19, title = "The rules of 19 July 2007" }'))
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records))
    assert code == 0, said
    assert files["rules.md"].startswith("# The rules of 19 July 2007\n")


def test_a_list_of_captures_that_cannot_be_read_is_refused_at_its_line(tmp_path, capsys):
    for records, message in [
            (RECORDS.replace("date = 2007-09-06", 'date = "September"'),
             "records.toml:3: rulesets.files: ruleset 1 (from 0) must be a table"),
            (RECORDS.replace('{ file = "rules/rules.2007-07-19.md", date = 2007-07-19 }', "{ date = 2007-07-19 }"),
             "rulesets.files: ruleset 0 (from 0) must be a table { file = \"PATH\""),
            (RECORDS + 'list = "index.json"\n', "rulesets.list: reads a list kept in the repository"),
            (RECORDS.replace("rules.2008-02-01.md", "rules.2009-01-01.md"),
             "the records file's rulesets.files names this ruleset, which is not in the repository: the game ends at "
             "the ruleset before it")]:
        repo, path = captured_game(tmp_path / str(len(message)), records)
        code, files, said = imported(tmp_path / str(len(message)), capsys, repo, "--records", str(path))
        if "game ends" in message:  # (the last capture missing: said, and the game ends before it)
            assert code == 1 and message in said, said
        else:
            assert code == 2 and files == {} and message in said, said


def test_captures_in_a_folder_outside_git_are_refused_with_the_commands_that_make_it_a_repository(tmp_path, capsys):
    folder = tmp_path / "captures"
    for name, text in {"rules/rules.2007-07-19.md": FIRST, "rules/rules.2007-09-06.md": SECOND,
                       "rules/rules.2008-02-01.md": THIRD}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, folder, "--records", str(records))
    assert code == 2 and files == {}
    assert said.strip() == (f'{folder}: is not a git repository: rulesets captured on days are read from one that '
                            'holds them; in the folder, run git init, git add . and git commit -m "The captures" '
                            '(docs/guide/import.md, "Rulesets captured on days")')
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=K", "-c", "user.email=k@example.org", "commit",
                                                   "-q", "-m", "The captures"]):
        subprocess.run(["git", *command], cwd=folder, check=True)
    code, files, said = imported(tmp_path, capsys, folder, "--records", str(records))
    assert code == 0 and list(entries(files["log.md"])) == ["Event: The rules of 6 September 2007",
                                                           "Event: The rules of 1 February 2008"], said
