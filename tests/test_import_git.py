"""`nomic-archive import git`: small repositories built here, one commit per step of a game, in each shape a
git-kept game takes (docs/guide/import.md), and the game the import writes (its log, rules, game.toml, IMPORT.md
and corrections file). Every name and rule is invented; the shapes are those the real games show."""
from __future__ import annotations

import dataclasses
import re
import subprocess
import time

import pytest

from generator.cli import main
from helpers import git_commit, knows_format_1_2

needs_1_2 = pytest.mark.skipif(not knows_format_1_2(), reason="the log parser does not read format 1.2 yet "
                               "(## Unrecorded); enabled once it does")

RULES = """#Our rules

##101 Immutable - Scope

Everyone follows the rules in force.

##201 Mutable - Quorum

Quorum is half the players.
"""


def amended(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def imported(tmp_path, capsys, repo, *args: str, out: str = "game") -> tuple[int, dict[str, str], str]:
    folder = tmp_path / out
    code = main(["import", "git", str(repo), "-o", str(folder), *args])
    captured = capsys.readouterr()
    files = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in folder.rglob("*")
             if p.is_file()} if folder.exists() else {}
    return code, files, captured.out + captured.err


def imported_log(tmp_path, capsys, repo, *args: str) -> tuple[dict[str, str], dict[str, str], str]:
    """An import that must succeed: the files it wrote, its log's entries by heading, what it said."""
    code, files, said = imported(tmp_path, capsys, repo, *args)
    assert code == 0, said
    return files, entries(files["log.md"]), said


def entries(log: str) -> dict[str, str]:
    """Each entry's heading -> its whole text."""
    parts = re.split(r"^## ", log, flags=re.MULTILINE)[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def check(capsys, folder) -> tuple[int, str]:
    code = main(["check", str(folder)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def short(repo, revision: str = "HEAD") -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "--short=10", revision], capture_output=True,
                          text=True, check=True).stdout.strip()


def merge_pull_request(repo, number: int, owner: str, branch: str, title: str, commits: list[tuple[str, dict]],
                       date: str, merger: str = "Ann", author: str = "", email: str | None = None) -> None:
    """A pull request as GitHub merges it: the branch's commits by `owner` (or `author`, at `email`), then a merge
    commit by `merger` whose subject names the request's number and the branch, and whose second paragraph is its
    title."""
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-b", branch], check=True)
    for message, files in commits:
        git_commit(repo, message, files, date=date, author=author or owner.capitalize(), email=email)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", f"user.name={merger}", "-c", "user.email=m@example.org", "merge",
                    "-q", "--no-ff", "-m", f"Merge pull request #{number} from {owner}/{branch}", "-m", title, branch],
                   check=True, env={"GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date, "PATH": "/usr/bin:/bin"})


@pytest.fixture
def small_game(tmp_path):
    """Three proposals, each a commit whose subject gives its number, by two players, one a merged pull request."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES, "README.md": "A game.\n"}, date="2020-06-01T10:00:00")
    text = amended(RULES, "half the players", "two thirds of the players")
    git_commit(repo, "Proposal 301: a higher quorum", {"rules.md": text}, date="2020-06-03T10:00:00", author="Bea")
    git_commit(repo, "Update README", {"README.md": "A game of ours.\n"}, date="2020-06-04T10:00:00")
    text += "\n##302 - Dice\n\nA die decides ties.\n"
    git_commit(repo, "Prop 302", {"rules.md": text}, date="2020-06-05T10:00:00")
    merge_pull_request(repo, 3, "cy", "dice", "303: Rename the dice rule",
                       [("Rename the dice rule", {"rules.md": amended(text, "##302 - Dice",
                                                                      "##302 - Dice and coins")})],
                       "2020-06-07T10:00:00")
    return repo


def test_each_commit_that_changes_a_rule_is_read_for_what_it_did(tmp_path, capsys, small_game) -> None:
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md")
    assert code == 0, said
    assert sorted(files) == ["IMPORT.md", "corrections.txt", "game.toml", "log.md", "rules.md"]
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301: a higher quorum", "Proposal 302", "Proposal 303: Rename the dice rule"]
    first = log["Proposal 301: a higher quorum"]
    assert "Proposer: Bea\nDate: 2020-06-03\nResult: adopted\n" in first
    assert "Votes:" not in files["log.md"]  # ballots are unknown: no Votes line, never a guess
    assert "Amend rule 201 to read:\n\n> Quorum is two thirds of the players." in first
    assert "Enact rule 302: Dice\n\n> A die decides ties." in log["Proposal 302"]
    merged = log["Proposal 303: Rename the dice rule"]
    # the pull request's author, from "from cy/dice" (not who pressed merge), and the game's number, not #3
    assert "Proposer: cy\nDate: 2020-06-07\n" in merged
    assert 'Retitle rule 302 to "Dice and coins".' in merged
    assert "### 201. Quorum\nQuorum is half the players." in files["rules.md"]
    assert 'players = [\n  "Bea",\n  "Ann",\n  "cy",\n]' in files["game.toml"]
    assert "start = 2020-06-01" in files["game.toml"]
    report = files["IMPORT.md"]
    assert "- Proposals: 3; 3 carried out in 3 commits" in report
    assert "- Rule changes: 1 amend, 1 enact, 1 retitle." in report
    assert "- Unrecorded numbers (no record holds them): none." in report
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_what_was_guessed_is_said_and_written_for_the_keeper_to_correct(tmp_path, capsys, small_game) -> None:
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md")
    first, second, merge = short(small_game, "HEAD~3"), short(small_game, "HEAD~1"), short(small_game)
    lines = files["corrections.txt"].splitlines()
    assert any(line.startswith(f"commit {first} proposal 301 by Bea ") and "guessed: the proposer is the commit's "
               "author" in line and "the record: its title 'Proposal 301: a higher quorum'" in line for line in lines)
    assert any(line.startswith(f"commit {second} proposal 302 by Ann ") for line in lines)
    # a pull request's author is the record's word, not a guess
    assert any(line.startswith(f"commit {merge} proposal 303 by cy ") and "guessed" not in line
               and "the record: its title '303: Rename the dice rule'" in line for line in lines)
    assert [line for line in lines if line.startswith("player ")][0].startswith("player Ann = Ann")
    guess = f"commit {first}: proposal 301 by Bea: guessed: the proposer is the commit's author"
    # on standard error each guess once, with the commits it was made for
    assert f"guessed for 2 commits ({first}, {second}): the proposer is the commit's author" in said
    assert guess in files["IMPORT.md"] and "## What was guessed, and how to correct it" in files["IMPORT.md"]


def test_the_history_shows_as_the_rules_on_each_date(tmp_path, capsys, small_game) -> None:
    assert imported(tmp_path, capsys, small_game, "--rules", "rules.md")[0] == 0
    code = main(["diff", f"{tmp_path / 'game'}@start", f"{tmp_path / 'game'}@2020-06-05"])
    out = capsys.readouterr().out
    assert code == 1
    assert "302" in out and "201" in out


def test_from_and_to_choose_the_commits(tmp_path, capsys, small_game) -> None:
    log_ids = subprocess.run(["git", "-C", str(small_game), "log", "--first-parent", "--format=%H"],
                             capture_output=True, text=True, check=True).stdout.split()
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md", "--from", log_ids[3],
                                 "--to", log_ids[1])
    assert code == 0, said
    assert list(entries(files["log.md"])) == ["Proposal 302"]
    assert "Quorum is two thirds of the players." in files["rules.md"]  # the rules at --from


def test_numbers_are_the_games_own(tmp_path, capsys) -> None:
    """Batches written every way a keeper writes them; a pull request's number never; a commit without a number
    once the game numbers its proposals is the keeper's, not a proposal numbered 301 with "Unrecorded 16-300";
    numbers no commit carried out are Unrecorded between the game's own; out of order is as the record is."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n## Rule 1\n\nPlay fair.\n"
    git_commit(repo, "Initial rule for the round", {"rules.md": text})
    for subject, number in [("Proposal 3", 2), ("Proposals 5 + 6", 3), ("Proposals 8 and 9", 4), ("P10-11", 5),
                            ("Crier appointed, after #12 (#13)", 0), ("Proposal 15", 6), ("Proposal 14", 7)]:
        text = text + f"\n## Rule {number}\n\nRule {number} says something.\n" if number else \
            amended(text, "Play fair.", "Play fair. The crier is Elm.")
        git_commit(repo, subject, {"rules.md": text})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 3", "Unrecorded: 4", "Proposal 5", "Proposal 6",
                         "Unrecorded: 7", "Proposal 8", "Proposal 9", "Proposal 10", "Proposal 11",
                         "Event: Crier appointed, after #12", "Unrecorded: 12-13", "Proposal 15", "Proposal 14"]
    assert "rule 3\n\n> Rule 3 says something." in log["Proposal 5"] and "Enact" not in log["Proposal 6"]
    assert "Carried out in the same commit as proposal 5" in log["Proposal 6"]
    assert "By: Ann, no proposal" in log["Event: Crier appointed, after #12"]
    assert "301" not in files["log.md"] and "first_proposal = 3" in files["game.toml"]
    assert "in_order = false" in files["game.toml"]
    assert "where the game names its proposals in their titles: the keeper's own change" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_proposal_carried_out_in_several_commits_is_one_proposal(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    text = RULES + "\n##301 - One\n\nFirst.\n"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301", {"rules.md": text}, date="2020-01-02T12:00:00")
    text = amended(text, "First.", "First, and more.")
    git_commit(repo, "Proposal 301 effects", {"rules.md": text}, date="2020-01-03T12:00:00")
    text += "\n##302 - Two\n\nA rule made by temporary rule.\n"
    git_commit(repo, "Temp Prop 302", {"rules.md": text}, date="2020-01-04T12:00:00")
    text = amended(text, "Two\n\nA rule made by temporary rule.", "Two\n\nIts real text.") + \
        "\n##303 - Three\n\nThird.\n"
    git_commit(repo, "Proposals 302 + 303", {"rules.md": text}, date="2020-01-05T12:00:00")
    text = amended(text, "Third.", "Third, mended.")
    git_commit(repo, "Proposal 301 again", {"rules.md": text}, date="2020-01-06T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Proposal 302: Temp", "Proposal 303", "Event: again"]
    assert "Enact rule 301" in log["Proposal 301"] and "Amend rule 301" in log["Proposal 301"]
    assert re.search(r"Commits `[0-9a-f]{10}`, `[0-9a-f]{10}`\.", log["Proposal 301"])
    assert "completes proposal 302, which an earlier commit began" in log["Proposal 303"]
    assert "Amend rule 302" in log["Proposal 303"] and "Enact rule 303" in log["Proposal 303"]
    assert "By: proposal 301" in log["Event: again"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_judgment_a_temporary_rule_and_a_non_rule_change_are_no_proposals(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Initial Set", {"rules.md": RULES})
    text = amended(RULES, "half the players", "half the players, rounded up")
    git_commit(repo, "Judgment II", {"rules.md": text}, date="2020-02-01T12:00:00", author="Kim")
    text += "\n##601 - Beans\n\nA poet has ten beans.\n"
    git_commit(repo, "Temporary Rule 601", {"rules.md": text}, date="2020-02-02T12:00:00")
    text = amended(text, "Everyone follows", "Every player follows")
    git_commit(repo, "Non-rule-change: wording", {"rules.md": text}, date="2020-02-03T12:00:00", author="Lee")
    text = amended(text, "A poet has ten beans.", "A poet has *ten* beans.")
    git_commit(repo, "Tidy up", {"rules.md": text}, date="2020-02-04T12:00:00", author="Lee")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Judgment 2", "Event: Temporary Rule 601", "Event: wording", "Event: Tidy up"]
    assert "Judge: Kim\nDate: 2020-02-01\nNote: The record names it Judgment II." in log["Judgment 2"]
    assert "By: temporary rule 601" in log["Event: Temporary Rule 601"]
    assert "Enact rule 601: Beans" in log["Event: Temporary Rule 601"]
    assert "By: cleaning (Lee)" in log["Event: wording"] and "Amend rule 101" in log["Event: wording"]
    assert "By: cleaning (Lee)" in log["Event: Tidy up"]
    assert "it changes the rules' formatting only: a cleaning, not a proposal" in said
    assert "players = []" in files["game.toml"] and "Proposals: 0" in files["IMPORT.md"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report  # a cleaning of an immutable rule is no rule-change (Suber 103 is not broken)


def test_a_game_of_pull_requests(tmp_path, capsys) -> None:
    """Numbers from the branch's name, from `Rule N:` titles, and from the rule a proposal makes where the game's
    proposals make rules numbered as themselves; an amendment that renumbers is one rule's history."""
    repo = tmp_path / "repo"
    text = RULES
    git_commit(repo, "Initial Ruleset", {"rules.md": text}, date="2021-01-01T12:00:00")
    text = amended(text, "Quorum is half the players.", "Quorum is a third of the players.")
    merge_pull_request(repo, 5, "alice", "rule-change-301", "Lower the quorum", [("quorum", {"rules.md": text})],
                       "2021-01-02T12:00:00")
    text += "\n##302 - Tea\n\nTea is served at noon.\n"
    merge_pull_request(repo, 6, "bob", "tea", "Points for tea", [("tea", {"rules.md": text})], "2021-01-03T12:00:00")
    text = amended(text, "##302 - Tea\n\nTea is served at noon.", "##304 - Tea\n\nTea is served at noon and at four.")
    merge_pull_request(repo, 8, "bob", "twice", "Rule 304: Tea twice", [("twice", {"rules.md": text})],
                       "2021-01-04T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301: Lower the quorum", "Proposal 302: Points for tea", "Unrecorded: 303",
                         "Proposal 304: Tea twice"]
    assert "Proposer: alice" in log["Proposal 301: Lower the quorum"]
    assert "Renumber rule 302 to 304.\n\nAmend rule 304 to read:\n\n> Tea is served at noon and at four." \
        in log["Proposal 304: Tea twice"]
    assert "Repeal" not in files["log.md"]
    assert "numbered 302, the number of the rule it makes" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


FRONT = "---\nRULE: {n}\nAuthor: {author}\nStatus: Accepted\nType: {kind}\n---\n\n{text}\n"


def test_rule_files_followed_from_the_top_folder_into_rules(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    files = {"README.md": "How we play.\n",
             "rule101.md": FRONT.format(n=101, author="Suber", kind="Immutable", text="Obey the rules."),
             "rule201.md": FRONT.format(n=201, author="Suber", kind="Mutable", text="Majority wins.")}
    git_commit(repo, "Add the rules", files, date="2016-01-01T12:00:00")
    merge_pull_request(repo, 11, "jo", "winning", "rule301: Winning", [("win", {"rule301.md": FRONT.format(
        n=301, author="Jo", kind="Mutable", text="The first to 100 points wins.")})], "2016-01-02T12:00:00")
    subprocess.run(["git", "-C", str(repo), "mv", "rule101.md", "rule201.md", "rule301.md", "rules/"], check=False)
    (repo / "rules").mkdir(exist_ok=True)
    for name in ("rule101.md", "rule201.md", "rule301.md"):
        subprocess.run(["git", "-C", str(repo), "mv", name, f"rules/{name}"], check=True)
    git_commit(repo, "move rules to subdirectory (#34)", {}, date="2017-07-02T12:00:00", author="Mo")
    text = (repo / "rules/rule201.md").read_text()
    git_commit(repo, "Use consistent markdown (#35)", {"rules/rule201.md": text.replace("Majority wins.",
                                                                                        "Majority  *wins*.")},
               date="2017-07-03T12:00:00", author="Mo")
    code, files_out, said = imported(tmp_path, capsys, repo, "--rules", "rules/")
    assert code == 0, said
    log = entries(files_out["log.md"])
    assert list(log) == ["Proposal 301: rule301: Winning", "Event: Use consistent markdown"]
    assert "Enact rule 301" in log["Proposal 301: rule301: Winning"]
    assert "By: cleaning (Mo)" in log["Event: Use consistent markdown"]
    assert "The rules moved" not in files_out["IMPORT.md"]  # followed back from rules/: read from the start
    assert "### 101" in files_out["rules.md"] and "start = 2016-01-01" in files_out["game.toml"]
    code, again, _ = imported(tmp_path, capsys, repo, "--rules", ".", out="game2")
    assert code == 0
    assert again["log.md"] == files_out["log.md"].replace("(rules)", "(.)") or \
        list(entries(again["log.md"])) == list(log)
    assert "The rules moved from `.` to `rules` at commit" in again["IMPORT.md"]


def test_rules_removed_end_the_game_and_from_starts_a_round(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Round 1 begins", {"rules.md": RULES})
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - One\n\nOne.\n"})
    subprocess.run(["git", "-C", str(repo), "rm", "-q", "rules.md"], check=True)
    git_commit(repo, "Round 1 is over", {"notes.md": "Round 1 is over.\n"})
    second = git_commit(repo, "Round 2 begins", {"rules.md": "# Rules\n\n## Rule 1\n\nBe kind.\n"})
    git_commit(repo, "Proposal 1", {"rules.md": "# Rules\n\n## Rule 1\n\nBe kind.\n\n## Rule 2\n\nShare.\n"})
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    assert list(entries(files["log.md"])) == ["Proposal 301"]
    assert "The import ends early: the rules were removed at commit" in files["IMPORT.md"]
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--from", second, out="round2")
    assert code == 0, said
    assert list(entries(files["log.md"])) == ["Proposal 1"] and "first_proposal = 1" in files["game.toml"]


def test_the_keepers_corrections_are_followed(tmp_path, capsys, small_game) -> None:
    code, files, _ = imported(tmp_path, capsys, small_game, "--rules", "rules.md")
    first, second, merge = short(small_game, "HEAD~3"), short(small_game, "HEAD~1"), short(small_game)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(files["corrections.txt"].replace(
        f"commit {second} proposal 302 by Ann", f"commit {second} proposal 302 by Dee, Eve").replace(
        f"commit {merge} proposal 303 by cy", f"commit {merge} cleaning by cy").replace(
        "player Bea = Bea", "player Bea = Beatrice"), encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md", "--corrections",
                                 str(corrections), out="corrected")
    assert code == 0, said
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301: a higher quorum", "Proposal 302", "Event: Rename the dice rule"]
    assert "Proposer: Beatrice" in log["Proposal 301: a higher quorum"]
    assert "Proposer: Dee\nCo-authors: Eve\n" in log["Proposal 302"]
    assert "By: cleaning (cy)" in log["Event: Rename the dice rule"]
    assert 'players = [\n  "Beatrice",\n  "Dee",\n]' in files["game.toml"]
    assert '[aliases]\n"Beatrice" = ["Bea"]\n' in files["game.toml"]  # the name the record gave, played under
    line = next(n for n, text in enumerate(corrections.read_text().splitlines(), 1)
                if text.startswith(f"commit {second}"))
    assert f"{corrections}:{line}: commit {second}: proposal 302 by Dee, Eve" in said
    assert f"{corrections}:{line}: commit {second}: proposal 302 by Dee, Eve" in files["IMPORT.md"]
    assert f"commit {second} proposal 302 by Dee, Eve" in files["corrections.txt"]  # kept for the next import
    assert "your correction" in files["corrections.txt"]
    assert f"commit {first}: proposal 301" not in said  # the keeper's line, left as it was, confirms the guess
    assert f"{corrections}: 3 lines confirmed what the import reads" in said


def test_a_guessed_number_the_keeper_leaves_is_confirmed_and_one_made_a_cleaning_says_its_number(tmp_path,
                                                                                                capsys) -> None:
    """Commits no record numbers are numbered in sequence: the keeper who makes the second a cleaning and leaves
    the others' lines as written is told what the import read of it (proposal 2, never the placeholder -1), and
    the lines left alone confirm (the first keeps its number; the third keeps 3, so 2 is Unrecorded)."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n## 1 - Play\n\nPlay fair.\n\n## 2 - Win\n\nThe first to 10 points wins.\n"
    git_commit(repo, "Initial rules", {"rules.md": text})
    for subject, old, new in [("stickers", "fair.", "fair, with stickers."), ("fix the wording", "first to", "first one to"),
                              ("bugs", "10 points", "10 points and no bugs")]:
        text = amended(text, old, new)
        git_commit(repo, subject, {"rules.md": text}, author="Kit")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    typo = short(repo, "HEAD~1")
    assert f"commit {typo} proposal 2 by Kit " in files["corrections.txt"]
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(files["corrections.txt"].replace(f"commit {typo} proposal 2 by Kit ",
                                                            f"commit {typo} cleaning by Kit "), encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections", str(corrections),
                                 out="corrected")
    assert code == 0, said
    assert f"commit {typo}: cleaning by Kit (the import read: proposal 2 by Kit)" in said
    # (no proposal -1: said of the files, whose names hold pytest's folder, pytest-104 say)
    assert "-1" not in said.replace(str(tmp_path), "") and "-1" not in files["corrections.txt"] \
        and "-1" not in files["IMPORT.md"].replace(str(tmp_path), "")
    assert f"{corrections}: " in said and "lines confirmed what the import reads" in said
    assert said.count("(the import read:") == 1, said
    assert "as your line says; guessed: no record numbers it: numbered 1, next in sequence" in files["corrections.txt"]
    assert list(entries(files["log.md"])) == ["Proposal 1: stickers", "Event: fix the wording", "Unrecorded: 2",
                                              "Proposal 3: bugs"]


@pytest.mark.parametrize("line, message", [
    ("commit 0123456789 proposal 9 by Ann", "commit 0123456789: names no commit among those that changed the rules"),
    ("rule 999 immutable", "rule 999: no rule 999 is in any version of the rules read"),
    ("player Nobody = Somebody", "player Nobody: the name 'Nobody' is not in the names the import read"),
    ("commit 0123456789 proposal nine", "'proposal nine' is not `proposal N`"),
    ("commit 0123456789 proposal 9 by Ann, Bo, Ann", "'proposal 9 by Ann, Bo, Ann' names an author twice"),
    ("commit 0123456789 judgment  by Cy", "a judgment is named as the record names it: `judgment NAME by JUDGE`"),
    ("make it so", "not a correction: a line is `commit ID proposal N by NAME`"),
    ("player Ann = Ann, Bea", "the name 'Ann, Bea' cannot be a player's name: a ',' or ';' parts names on a Votes "
     "line"),
    ("player Ann = Be\u200ba", "the name 'Be\\u200ba' cannot be a player's name: it holds invisible characters "
     "(U+200B ZERO WIDTH SPACE)"),
])
def test_a_correction_that_names_nothing_is_refused_and_nothing_is_written(tmp_path, capsys, small_game, line,
                                                                           message) -> None:
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(f"# a comment\n\n{line}   # why\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md", "--corrections",
                                 str(corrections))
    assert code == 2 and files == {}
    assert f"{corrections}:3: {message}" in said, said
    assert "Traceback" not in said and not (tmp_path / "game").exists()


def test_same_day_enactment_and_repeal_and_an_unreadable_commit(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES}, date="2021-03-01T09:00:00")
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - Brief\n\nA brief rule.\n"},
               date="2021-03-02T09:00:00")
    git_commit(repo, "Oops, emptied the file", {"rules.md": "nothing here\n"}, date="2021-03-02T10:00:00")
    git_commit(repo, "Proposal 302", {"rules.md": RULES}, date="2021-03-02T11:00:00")
    emptied = short(repo, "HEAD~1")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 1, said  # read with a problem, said on standard error and in IMPORT.md
    problem = f"rules.md at {emptied}: no numbered rules found"
    assert problem in said
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301", "Proposal 302"]
    assert "Date: 2021-03-02" in log["Proposal 301"] and "Date: 2021-03-02" in log["Proposal 302"]
    assert "Repeal rule 301." in log["Proposal 302"]
    assert "## Problems in the record (1)" in files["IMPORT.md"] and problem in files["IMPORT.md"]
    assert "not read: the next readable commit carries its changes" in files["IMPORT.md"]
    assert "--start" not in said  # (said of the commit, not with `import text`'s options)
    assert main(["check", str(tmp_path / "game")]) == 0


@pytest.mark.parametrize("begun", ["# Our Nomic\n\n## Table of contents\n\n", "Our Nomic\n=========\n", "OUR RULES\n",
                                   "# our-nomic\nA game of Nomic, played by pull requests.\n"])
def test_a_rules_file_begun_with_its_title_alone_holds_no_rules_yet(tmp_path, capsys, begun) -> None:
    """The first commits of a game may make its rules file with a title and nothing else (or GitHub's README, a
    title and a description): no rules yet, and no problem; the first commit with rules starts the game. Rules
    emptied after that are a problem."""
    repo = tmp_path / "repo"
    git_commit(repo, "Create rules.md", {"rules.md": begun}, date="2021-03-01T09:00:00")
    git_commit(repo, "Add the rules", {"rules.md": RULES}, date="2021-03-02T09:00:00")
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - Brief\n\nA brief rule.\n"},
               date="2021-03-03T09:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301"] and "no numbered rules" not in said + files["IMPORT.md"]
    assert f"from commit `{short(repo, 'HEAD~1')}`" in files["IMPORT.md"]
    assert "### 201" in files["rules.md"]
    git_commit(repo, "Start over", {"rules.md": begun}, date="2021-03-04T09:00:00")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", out="emptied")
    assert code == 1 and f"rules.md at {short(repo)}: no numbered rules found" in said


def test_a_rules_file_that_never_holds_a_rule_is_refused_with_what_each_commit_held(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Create rules.md", {"rules.md": "# Our Nomic\n"})
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 2 and files == {}
    assert f"rules.md at {short(repo)}: no numbered rules found" in said and "no readable rules at rules.md" in said


def test_a_folder_of_rules_begun_with_a_readme_alone_holds_no_rules_yet(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Initial commit", {"README.md": "A game of Nomic, with rules in files that say what they are.\n"})
    front = "---\nrule: {n}\ntype: Mutable\n---\n\n{text}\n"
    git_commit(repo, "The rules", {"rule101.md": front.format(n=101, text="Follow the rules.")})
    git_commit(repo, "Proposal 102", {"rule102.md": front.format(n=102, text="Vote.")})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", ".")
    assert list(log) == ["Proposal 102"] and "no rules found" not in said + files["IMPORT.md"]


def test_a_folder_of_rule_files_with_front_matter(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    front = "---\nRULE: {n}\nType: {kind}\nStatus: {status}\n---\n\n# Rule\n\n{text}\n"
    git_commit(repo, "Initial Set", {
        "rules/rule101.md": front.format(n=101, kind="Immutable", status="Accepted", text="Follow the rules."),
        "rules/rule201.md": front.format(n=201, kind="Mutable", status="Accepted", text="Vote by majority."),
        "rules/rule301.md": front.format(n=301, kind="Mutable", status="Draft", text="A draft."),
        "rules/README.md": "How to add a rule.\n"}, date="2019-05-01T12:00:00")
    git_commit(repo, "Proposal 301", {
        "rules/rule301.md": front.format(n=301, kind="Mutable", status="Accepted", text="A draft no longer."),
        "rules/rule201.md": front.format(n=201, kind="Immutable", status="Accepted", text="Vote by majority.")},
        date="2019-05-03T12:00:00", author="Bea")
    git_commit(repo, "Proposal 302: repeal the draft rule", {"rules/rule301.md": None}, date="2019-05-04T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules")
    assert list(log) == ["Proposal 301", "Proposal 302: repeal the draft rule"]
    assert "Transmute rule 201 to immutable." in log["Proposal 301"]
    # A file among the rules that says `Status: Draft` is read as in force (a game's adopted rule may keep its
    # draft's status; the import says so), and the file's `# Rule` heading is furniture, not text.
    assert "Amend rule 301 to read:\n\n> A draft no longer." in log["Proposal 301"]
    assert "Repeal rule 301." in log["Proposal 302: repeal the draft rule"]
    assert "### 301\nA draft.\n" in files["rules.md"]
    assert main(["check", str(tmp_path / "game")]) == 0


def test_a_folder_of_rule_files_named_otherwise_is_read_where_they_open_with_front_matter(tmp_path, capsys) -> None:
    """A Jekyll site's collection of rules (`_rules/0001.rule`, front matter and text): read whatever their
    extension; a picture beside them is left out, unread as a rule."""
    repo = tmp_path / "repo"
    rule = "---\nlayout: rule\nnumber: {n}\nname: {name}\n---\n{text}\n"
    git_commit(repo, "Start", {"_rules/0001.rule": rule.format(n=1, name="1", text="Follow the rules."),
                               "_rules/0002.rule": rule.format(n=2, name="Turns", text="Take turns."),
                               "_rules/logo.png": "\x89PNG not a rule\n"})
    git_commit(repo, "Proposal 3", {"_rules/0003.rule": rule.format(n=3, name="Tea", text="Tea at four.")},
               author="Kit")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "_rules")
    # (a title that repeats the number is none)
    assert "### 1\nFollow the rules." in files["rules.md"] and "### 2. Turns" in files["rules.md"]
    assert "Enact rule 3: Tea\n\n> Tea at four." in log["Proposal 3"]
    assert "- `not a text file of rules` (first at commit" in files["IMPORT.md"]  # (the picture)


def test_refusals_say_why_and_write_nothing(tmp_path, capsys, small_game) -> None:
    taken = tmp_path / "game"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, _, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md")
    assert code == 2
    assert f"{taken}: already exists and is not an empty folder" in said
    assert sorted(p.name for p in taken.iterdir()) == ["notes.txt"]
    out = tmp_path / "elsewhere"
    cases = [(["--rules", "rules.md", str(tmp_path)], "is not a git repository"),
             (["--rules", "rules.md", "--from=--output=x", str(small_game)], "'--output=x' names no commit"),
             (["--rules", "nowhere.md", str(small_game)], "no readable rules at nowhere.md in the history up to "
              f"{short(small_game)} (it holds rules.md: --rules names a path as the repository spells it)"),
             (["--rules", "RULES.MD", str(small_game)], "(it holds rules.md: --rules names a path as the repository "
              "spells it)"),
             (["--rules", "rules.md", "--corrections", str(tmp_path / "none.txt"), str(small_game)],
              "none.txt: no such file (--corrections names the file an import wrote")]
    for args, message in cases:
        repo = args.pop()
        assert main(["import", "git", repo, "-o", str(out), *args]) == 2
        err = capsys.readouterr().err
        assert message in err, err
        assert "Traceback" not in err
        assert not out.exists()
    with pytest.raises(SystemExit) as stopped:  # argparse's usage error
        main(["import", "git", "-o", str(out)])
    assert stopped.value.code == 2
    assert "the following arguments are required: REPO" in capsys.readouterr().err
    assert main(["import", "git", str(small_game), "-o", str(out)]) == 2
    assert "--rules: is needed: the rules file or folder in the repository" in capsys.readouterr().err


def test_the_same_clone_gives_the_same_files(tmp_path, capsys, small_game) -> None:
    first = imported(tmp_path / "a", capsys, small_game, "--rules", "rules.md")[1]
    second = imported(tmp_path / "b", capsys, small_game, "--rules", "rules.md")[1]
    assert first == second


RECORDS = """[proposals]
file = "data/proposals.json"
list = "proposals"
number = "n"
proposer = "author"
result = "status"
date = "timestamp"
votes = "votes"
ballots = { "1" = "for", "-1" = "against", "0" = "abstain" }
results = { passed = "adopted", failed = "defeated", voting = "undecided" }
adoption = "majority"
"""


def bot_game(tmp_path):
    """A game kept by a bot: a commit per action, the rules changed in commits of their own after the decision
    that made them, and the decisions with their ballots in a JSON file, players named by numbers."""
    import json

    repo = tmp_path / "repo"
    proposals = []
    day = 1_587_000_000

    def decide(number, author, status, votes):
        proposals.append({"n": number, "author": author, "status": status, "votes": votes,
                          "timestamp": day + number * 3600})
        return json.dumps({"proposals": proposals})

    git_commit(repo, "Initial commit", {"rules.md": RULES, "data/proposals.json": json.dumps({"proposals": []})},
               date="2020-04-16T00:00:00", author="Keeper")
    git_commit(repo, "Wren#0001 submitted proposal #1", {"data/proposals.json": decide(1, 111, "voting", {})},
               date="2020-04-16T01:00:00", author="Bot")
    proposals[-1].update(status="passed", votes={"111": 1, "222": 1, "333": -1})
    git_commit(repo, "Kit#0002 passed proposal #1", {"data/proposals.json": json.dumps({"proposals": proposals})},
               date="2020-04-16T01:30:00", author="Bot")
    git_commit(repo, "Kit#0002 changed the content of rule section `%quorum`",
               {"rules.md": amended(RULES, "half the players", "a third of the players")},
               date="2020-04-16T01:31:00", author="Bot")
    git_commit(repo, "Kit#0002 submitted proposal #2", {"data/proposals.json": decide(2, 222, "failed",
                                                                                      {"111": 1, "222": 1})},
               date="2020-04-16T03:00:00", author="Bot")
    git_commit(repo, "Kit#0002 submitted proposal #3", {"data/proposals.json": decide(3, 222, "failed",
                                                                                      {"111": -1, "333": 0})},
               date="2020-04-16T04:00:00", author="Bot")
    git_commit(repo, "Kit#0002 submitted proposal #4", {"data/proposals.json": decide(4, 111, "voting",
                                                                                      {"111": 1})},
               date="2020-04-16T05:00:00", author="Bot")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    return repo, records


def test_decisions_kept_beside_the_rules_are_checked_not_assumed(tmp_path, capsys) -> None:
    repo, records = bot_game(tmp_path)
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    # 4 is still being voted on: Unrecorded, saying so
    assert list(log) == ["Proposal 1", "Proposal 2", "Proposal 3", "Unrecorded: 4"]
    assert "still being voted on at the last commit read" in log["Unrecorded: 4"]
    first = log["Proposal 1"]
    # its proposer named by the commit that submitted it (a guess, in the corrections file); ballots as recorded
    assert "Proposer: Wren#0001\nDate: 2020-04-16\nVotes: for Wren#0001, Kit#0002; against 333\nResult: adopted\n" \
        in first
    assert "Amend rule 201 to read:" in first
    assert "Votes: for Wren#0001, Kit#0002\nResult: defeated" in log["Proposal 2"]
    assert "proposal 1, the last decided before it (commit" in said
    assert "player 111 = Wren#0001  # guessed: commit" in files["corrections.txt"]
    # a voter no commit names stays the bot's identifier, said, with the line that names them
    assert re.search(r"^player 333 = 333 +# a bot.s identifier for a player no record names", files["corrections.txt"],
                     re.MULTILINE)
    assert "- Players known only by a bot's identifiers, whom no record names: 1 (333); a line `player 333 = NAME` " \
        "of `corrections.txt` names one." in files["IMPORT.md"]
    assert 'method = "majority"' in files["game.toml"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 1
    # the record's one slip, found: two for, none against, and "failed"
    assert "proposal 2: Result says defeated; the votes (2 for, 0 against) give adopted under a simple majority" \
        in report
    assert "1 discrepancy" in report


def test_a_records_file_that_cannot_be_read_is_refused(tmp_path, capsys) -> None:
    repo, records = bot_game(tmp_path)
    for text, message in [("[proposals]\nfile = 1\n", "records.toml:2: proposals.file: must be a string"),
                          ("[proposals]\nfile = \"x\"\nnumber = \"n\"\nproposer = \"a\"\nresult = \"s\"\nwho = 1\n",
                           "records.toml:6: proposals.who: not a key of the mapping"),
                          (RECORDS.replace("data/proposals.json", "data/none.json"),
                           "no file data/none.json at commit"),
                          (RECORDS.replace(', voting = "undecided"', ""),
                           "data/proposals.json at commit")]:
        records.write_text(text, encoding="utf-8")
        code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
        assert code == 2 and files == {}, said
        assert message in said, said


WEBSITE_RECORDS = """[rulesets]
list = "Rules/Archive/index.json"
file = "Rules/Archive/rules.{ruleset}.json"
proposal = "proposition"
date = "timestamp"
title = "summary"

[proposals]
file = "Propositions/propositions.json"
number = "index"
proposer = "author"
date = "timestamp"
votes = "votes"
ballot_lists = ["for", "against", "", "abstain"]
adopted = "rulesets"
adoption = "majority"

[players]
file = "Players/players.json"
id = "PID"
name = "name"
"""


def website_game(tmp_path, lost: bool = False, current: bool = False):
    """A website's archive: one ruleset per adopted proposition, propositions with four lists of ballots, players
    in a file of their own, everything numbered from 0; `lost`: the list names a ruleset never committed;
    `current`: the rules in force, a file of their own, hold that last ruleset's rules."""
    import json

    repo = tmp_path / "repo"
    rules = [{"id": 0, "title": "Winning", "content": "The first to 10 points wins."},
             {"id": 1, "title": "Voting", "content": "A majority adopts a proposition."}]
    archive = {"Rules/Archive/rules.0.json": json.dumps(rules)}
    rules = rules + [{"id": 2, "title": "Dice", "content": "A die has six sides."}]
    archive["Rules/Archive/rules.1.json"] = json.dumps(rules)
    rules = [rules[0], {"id": 1, "title": "Voting", "content": "Two thirds adopt a proposition."}, rules[2]]
    archive["Rules/Archive/rules.2.json"] = json.dumps(rules)
    index = [{"ruleset": 0, "timestamp": 1653105600, "proposition": None, "summary": "Initial"},
             {"ruleset": 1, "timestamp": 1653200000, "proposition": 0, "summary": "Dice added by Ann"},
             {"ruleset": 2, "timestamp": 1653400000, "proposition": 2, "summary": "Voting changed by Bo"}]
    if lost:
        index.append({"ruleset": 3, "timestamp": 1653500000, "proposition": None, "summary": "Lost"})
    propositions = [{"author": 0, "timestamp": 1653150000, "votes": [[0, 1], [2], [], []]},
                    {"author": 1, "timestamp": 1653250000, "votes": [[1], [0, 2], [], []]},
                    {"author": 1, "timestamp": 1653300000, "votes": [[1], [0, 2], [2], []]}]
    players = [{"name": "Ann", "PID": 0}, {"name": "Bo", "PID": 1}, {"name": "Cy", "PID": 2}]
    if current:
        archive["Rules/rules.json"] = json.dumps(rules + [{"id": 3, "title": "End", "content": "The game ends."}])
    git_commit(repo, "Synced changes", {**archive, "Rules/Archive/index.json": json.dumps(index),
                                        "Propositions/propositions.json": json.dumps(propositions),
                                        "Players/players.json": json.dumps(players)})
    records = tmp_path / "records.toml"
    records.write_text(WEBSITE_RECORDS, encoding="utf-8")
    return repo, records


def test_a_websites_archive_of_rulesets_and_propositions_numbered_from_0(tmp_path, capsys) -> None:
    """Everything numbered from 0, players named in a file of their own: the keeper's one slip found, nothing
    invented."""
    repo, records = website_game(tmp_path)
    files, log, said = imported_log(tmp_path, capsys, repo, "--records", str(records))
    assert list(log) == ["Proposal 0: Dice added by Ann", "Proposal 1", "Proposal 2: Voting changed by Bo"]
    first = log["Proposal 0: Dice added by Ann"]
    assert "Proposer: Ann\nDate: 2022-05-22\nVotes: for Ann, Bo; against Cy\nResult: adopted" in first
    assert "Enact rule 2: Dice" in first
    assert "Result: defeated" in log["Proposal 1"]
    assert "Amend rule 1 to read:\n\n> Two thirds adopt a proposition." in log["Proposal 2: Voting changed by Bo"]
    assert "first_proposal = 0" in files["game.toml"] and "### 0. Winning" in files["rules.md"]
    assert re.search(r"^player 1 = Bo +# the record: its file of players$", files["corrections.txt"], re.MULTILINE)
    code, report = check(capsys, tmp_path / "game")
    assert code == 1
    # the keeper's slip: proposition 2 archived as adopted with one vote for and two against
    assert "proposal 2: Result says adopted; the votes (1 for, 2 against) give defeated" in report
    assert "1 discrepancy" in report


HISTORY_RULES = """# OUR RULES (LONG FORMAT)
---
## 101/0 (IMMUTABLE)

Play fair.

##### *History*

[*Initial immutable Rule 101, Jan 1, 2020*](https://example.org/101)

## 201/0

Each turn a player proposes.

##### *History*

[*Initial mutable Rule 201, Jan 1, 2020*](https://example.org/201)
"""


def test_history_lines_name_each_proposal_and_its_author(tmp_path, capsys) -> None:
    """A rules file whose History lines name each change's proposal and author, kept by a keeper who commits
    everything: the History line a commit adds is the record, not the commit's subject or author."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial Set", {"rules.md": HISTORY_RULES}, date="2020-01-01T12:00:00", author="Keeper")
    text = HISTORY_RULES.replace("Each turn a player proposes.", "Each turn a player proposes once.").replace(
        "(https://example.org/201)", "(https://example.org/201)  \n[*Amended (1) by Proposal 5 (Wren), Feb 1, 2020*]"
        "(https://example.org/5)")
    git_commit(repo, "Proposal 5 (rules.md)", {"rules.md": text}, date="2020-02-01T12:00:00", author="Keeper")
    text = text.replace("## 201/0", "## 201/2").replace("proposes once.", "proposes once or twice.").replace(
        "(https://example.org/5)", "(https://example.org/5)  \n[*Amended (2) by Proposal 7 (Lu), Feb 3, 2020*](u)")
    text += ("\n## 306/0\n\nA die has six sides.\n\n##### *History*\n\n"
             "[*Enacted by Proposal 6 (Kit), Feb 2, 2020*](https://example.org/6)\n")
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2020-02-03T12:00:00", author="Keeper")
    text = text.replace("(https://example.org/101)\n", "(https://example.org/101)\n\n##### *Judgments*\n\n"
                        "*\"Fair\" means within the rules. (Moe), Mar 1, 2020*\n")
    git_commit(repo, "Judgment I", {"rules.md": text}, date="2020-03-01T12:00:00", author="Keeper")
    text += ("\n## 601/0\n\nA poet has ten beans.\n\n##### *History*\n\n"
             "[*Created from Temporary Rule 601 (Wren), Mar 2, 2020*](https://example.org/601)\n")
    git_commit(repo, "Temporary Rule 601", {"rules.md": text}, date="2020-03-02T12:00:00", author="Keeper")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 5", "Proposal 6", "Proposal 7", "Judgment 1", "Event: Temporary Rule 601"]
    assert "Proposer: Wren" in log["Proposal 5"] and "Amend rule 201" in log["Proposal 5"]
    # one commit, two proposals: each change in the entry of the proposal its History line names
    assert "Proposer: Kit" in log["Proposal 6"] and "Enact rule 306" in log["Proposal 6"]
    assert "Proposer: Lu" in log["Proposal 7"] and "Amend rule 201" in log["Proposal 7"]
    assert "Enact" not in log["Proposal 7"] and "Amend" not in log["Proposal 6"]
    assert "Judge: Moe" in log["Judgment 1"] and "Annotate rule 101:" in log["Judgment 1"]
    assert "By: temporary rule 601 (Wren)" in log["Event: Temporary Rule 601"]
    assert "History" not in files["rules.md"].split("### 201")[1].split("###")[0].replace("History:", "")
    assert "Keeper" not in files["game.toml"]
    assert not re.search(r"commit [0-9a-f]{10}: .*guessed|guessed for", said)  # (the reader's class guess is said)
    assert "the record: its History line 'Amended (1) by Proposal 5 (Wren), Feb 1, 2020 (rules.md:" \
        in files["corrections.txt"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report  # a judgment's note on an immutable rule is no amendment of it


def test_a_reformatting_beside_a_real_change_is_a_cleaning_of_its_own(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    text = amended(RULES, "Everyone follows the rules in force.", "Everyone  *follows*  the rules in force.")
    text = amended(text, "half the players", "a third of the players")
    git_commit(repo, "Proposal 301: lower quorum, tidy 101", {"rules.md": text}, author="Bea")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Event: lower quorum, tidy 101 (formatting)", "Proposal 301: lower quorum, tidy 101"]
    assert "By: cleaning (Bea)" in log["Event: lower quorum, tidy 101 (formatting)"]
    assert "Amend rule 101" in log["Event: lower quorum, tidy 101 (formatting)"]
    assert "Amend rule 101" not in log["Proposal 301: lower quorum, tidy 101"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_the_keepers_word_on_a_decision_and_a_reason_check_verifies(tmp_path, capsys) -> None:
    repo, records = bot_game(tmp_path)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("proposal 2 invalid: depends on proposal 1 (dependency resolution)\n"
                           "proposal 3 invalid: spam, ten open proposals\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--corrections", str(corrections))
    assert code == 0, said
    log = entries(files["log.md"])
    assert "Result: invalid\nReason: depends on proposal 1 (dependency resolution)\n" in log["Proposal 2"]
    assert f"{corrections}:1: proposal 2: invalid: depends on proposal 1 (dependency resolution) (the record: " \
        "failed)" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 1 and "1 discrepancy" in report
    # proposal 1 was adopted: what proposal 2 depended on did not fail
    assert "proposal 2: Reason says it depends on proposal 1, but proposal 1 was adopted" in report
    corrections.write_text("proposal 9 defeated\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--corrections", str(corrections), out="again")
    assert code == 2 and files == {}
    assert f"{corrections}:1: proposal 9: no decision on proposal 9 is in the records file" in said


def second_round(tmp_path):
    """A game whose first round's rules.md is moved to round1.md at its end, and a second round's rules.md made:
    the repository and the commit that made it."""
    repo = tmp_path / "repo"
    git_commit(repo, "Round 1 begins", {"rules.md": RULES})
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - One\n\nOne.\n"})
    subprocess.run(["git", "-C", str(repo), "mv", "rules.md", "round1.md"], check=True)
    git_commit(repo, "Round 1 archived", {})
    return repo, git_commit(repo, "Round 2 begins", {"rules.md": "# Rules\n\n## Rule 1\n\nBe kind.\n"})


def test_a_rules_file_made_again_after_the_rules_moved_is_named_as_a_new_round(tmp_path, capsys) -> None:
    repo, second = second_round(tmp_path)
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    assert list(entries(files["log.md"])) == ["Proposal 301"]
    assert "The rules moved from `rules.md` to `round1.md` at commit" in files["IMPORT.md"]
    assert f"A new `rules.md` was made at commit `{second[:10]}`" in files["IMPORT.md"]
    assert f"--rules rules.md --from {second[:10]}" in files["IMPORT.md"]


def test_a_rounds_archived_rules_are_read_from_the_rules_file_that_round_made(tmp_path, capsys) -> None:
    """Each round makes `rules.md` again and moves it to its archive at the end: `--rules round2.md` reads round
    2 from the `rules.md` it made, not from round 1's (no --from needed)."""
    repo, second = second_round(tmp_path)
    git_commit(repo, "Proposal 2", {"rules.md": "# Rules\n\n## Rule 1\n\nBe kind.\n\n## Rule 2\n\nBe brief.\n"})
    subprocess.run(["git", "-C", str(repo), "mv", "rules.md", "round2.md"], check=True)
    git_commit(repo, "Round 2 archived", {})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "round2.md")
    assert list(log) == ["Proposal 2"] and "Enact rule 2" in log["Proposal 2"]
    assert f"first-parent history from commit `{second[:10]}`" in files["IMPORT.md"]
    assert "Be kind." in files["rules.md"] and "One." not in files["rules.md"]


def test_a_turns_player_in_the_subject_is_the_proposer(tmp_path, capsys) -> None:
    """A keeper who commits each turn as `Round 1, Turn 4 (Kit)`: the player is the game's byline, not the
    committer; the turn numbers its proposal (test_a_game_that_numbers_its_proposals_by_turn_is_read_so)."""
    repo = tmp_path / "repo"
    git_commit(repo, "Ruleset", {"rules.md": RULES}, author="Keeper")
    git_commit(repo, "Round 1, Turn 4 (Kit)", {"rules.md": amended(RULES, "half", "a third of")}, author="Keeper")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposer: Kit" in log["Proposal 4: Round 1, Turn 4 (Kit)"]
    assert "proposer is" not in files["IMPORT.md"] and "next in sequence" not in files["IMPORT.md"]


def test_a_ruleset_the_list_names_but_the_archive_lacks_is_said(tmp_path, capsys) -> None:
    repo, records = website_game(tmp_path, lost=True)
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records))
    assert code == 1, said
    assert "Rules/Archive/rules.3.json at " in said and "Rules/Archive/index.json names this ruleset, which is not " \
        "in the repository" in said
    assert len(entries(files["log.md"])) == 3


def test_the_rules_in_force_stand_for_the_last_ruleset_the_archive_lacks(tmp_path, capsys) -> None:
    """The records file's `current` names the file of the rules in force: where the archive lacks the list's last
    ruleset (the website archives it later), that file is read in its place."""
    repo, records = website_game(tmp_path, lost=True, current=True)
    current = 'title = "summary"\ncurrent = "Rules/rules.json"\n'
    records.write_text(WEBSITE_RECORDS.replace('title = "summary"\n', current), encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--records", str(records))
    assert list(log)[-1] == "Event: Lost" and "Enact rule 3: End" in log["Event: Lost"]
    assert "which is not in the repository" not in said


def test_a_websites_rule_with_no_text_of_its_own_and_the_keepers_word_on_a_decision_kept(tmp_path, capsys) -> None:
    """A website's tree gains a rule that only heads the rules under it (no text of its own): it is enacted with
    an empty blockquote, which check reads. A leftvote (a fourth kind of ballot the keeper maps to against) counts
    against. The keeper's word on a decision is kept in the new corrections file, and importing again with that
    file gives the same game."""
    import json

    repo, records = website_game(tmp_path)
    records.write_text(WEBSITE_RECORDS.replace('["for", "against", "", "abstain"]',
                                               '["for", "against", "against", "abstain"]'), encoding="utf-8")
    tree = {"summary": "Rules", "content": "", "subrules": [
        {"id": 0, "summary": "Winning", "content": "The first to 10 points wins."},
        {"id": 1, "summary": "Voting", "content": "Two thirds adopt a proposition."},
        {"id": 2, "summary": "Dice", "content": "A die has six sides."},
        {"id": 3, "summary": "Board", "content": "", "subrules": [
            {"id": 4, "summary": "Squares", "content": "The board has nine squares."}]}]}
    index = json.loads(subprocess.run(["git", "-C", str(repo), "show", "HEAD:Rules/Archive/index.json"],
                                      capture_output=True, text=True, check=True).stdout)
    index.append({"ruleset": 3, "timestamp": 1653600000, "proposition": 3, "summary": "Board added by Cy"})
    propositions = [{"author": 0, "timestamp": 1653150000, "votes": [[0, 1], [2], [], []]},
                    {"author": 1, "timestamp": 1653250000, "votes": [[1], [0, 2], [], []]},
                    {"author": 1, "timestamp": 1653300000, "votes": [[1, 2], [0], [], []]},  # (no slip now)
                    {"author": 2, "timestamp": 1653550000, "votes": [[0, 1, 2], [], [], []]},
                    {"author": 0, "timestamp": 1653560000, "votes": [[0], [], [1, 2], []]}]
    git_commit(repo, "Synced changes", {"Rules/Archive/rules.3.json": json.dumps(tree),
                                        "Rules/Archive/index.json": json.dumps(index),
                                        "Propositions/propositions.json": json.dumps(propositions)})
    corrections = tmp_path / "mine.txt"
    corrections.write_text("proposal 1 withdrawn   # its author took it back\n", encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                    str(corrections))
    board = log["Proposal 3: Board added by Cy"]
    assert "Enact rule 3: Board\n\n>\n\nEnact rule 4: Squares\n\n> The board has nine squares." in board
    assert "Votes: for Ann; against Bo, Cy\nResult: defeated" in log["Proposal 4"]  # two leftvotes against one
    assert f"{corrections}:1: proposal 1: withdrawn (the record: named by no ruleset)" in said
    assert re.search(r"^proposal 1 withdrawn +# your correction \(the record: ", files["corrections.txt"], re.MULTILINE)
    assert "player 1 written" not in said  # (no line of the keeper's about players)
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
    again = tmp_path / "again.txt"
    again.write_text(files["corrections.txt"], encoding="utf-8")
    code, second, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections", str(again),
                                  out="again")
    assert code == 0, said
    # its player lines and its rulesets' lines, as the import reads them
    assert f"{again}: 6 lines confirmed what the import reads" in said
    assert {name: text for name, text in second.items() if name not in ("IMPORT.md", "corrections.txt")} == \
        {name: text for name, text in files.items() if name not in ("IMPORT.md", "corrections.txt")}


def test_a_game_whose_proposals_are_its_pull_requests_says_so_by_its_keepers_word(tmp_path, capsys) -> None:
    """A game numbering its proposals by their pull requests (nothing else names them): without the keeper's word
    no pull request's number is a proposal's, and the corrections file says how to give it; with
    --proposals-are-pull-requests each merged pull request is the proposal of its number, by its author, and the
    keeper's own commits are no proposals; the new corrections file keeps the convention, so importing again with
    it gives the same game. A convention the import does not know is refused at its line."""
    repo = tmp_path / "repo"
    text = RULES
    git_commit(repo, "Initial Ruleset", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    text = amended(text, "half the players", "a third of the players")
    merge_pull_request(repo, 2, "alice", "patch-1", "Lower the quorum", [("quorum", {"rules.md": text})],
                       "2021-01-02T12:00:00", merger="Keeper")
    text = amended(text, "a third of the players.", "a third of the players, two at least.")
    git_commit(repo, "Clarifying the scope", {"rules.md": text}, date="2021-01-03T12:00:00", author="Keeper")
    text += "\n##202 Mutable - Tea\n\nTea is served at noon.\n"
    merge_pull_request(repo, 4, "bob", "patch-2", "Tea", [("tea", {"rules.md": text})], "2021-01-04T12:00:00",
                       merger="Keeper")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert not any(heading.startswith(("Proposal 2:", "Proposal 4:")) for heading in log)  # never #2 or #4 alone
    assert "2 commits merged pull requests, whose numbers were not taken for proposals'" in files["corrections.txt"]
    assert "import again with --proposals-are-pull-requests" in files["corrections.txt"]

    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--proposals-are-pull-requests",
                                 out="numbered")
    assert code == 0, said
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 2: Lower the quorum", "Event: Clarifying the scope", "Unrecorded: 3",
                         "Proposal 4: Tea"]
    assert "Proposer: alice" in log["Proposal 2: Lower the quorum"] and "Proposer: bob" in log["Proposal 4: Tea"]
    assert "By: Keeper, no proposal" in log["Event: Clarifying the scope"]
    assert "first_proposal = 2" in files["game.toml"]
    assert re.search(r"^convention proposals-are-pull-requests +# ", files["corrections.txt"], re.MULTILINE)
    assert "import again with --proposals-are-pull-requests" not in files["corrections.txt"]
    code, report = check(capsys, tmp_path / "numbered")
    assert code == 0, report

    again = tmp_path / "again.txt"
    again.write_text(files["corrections.txt"], encoding="utf-8")
    code, second, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections", str(again),
                                  out="again")
    assert code == 0, said
    assert second["log.md"] == files["log.md"]

    def readings(corrections: str) -> list[str]:
        return [line.split("  #")[0].strip() for line in corrections.splitlines() if not line.startswith("#")]
    assert readings(second["corrections.txt"]) == readings(files["corrections.txt"])

    again.write_text("convention proposals-are-merges\n", encoding="utf-8")
    code, nothing, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections", str(again),
                                   out="refused")
    assert code == 2 and nothing == {}
    assert f"{again}:1: 'proposals-are-merges' is not a convention the import knows (proposals-are-pull-requests)" \
        in said


def test_a_failure_the_ballots_do_not_give_is_read_for_the_reason_the_record_states(tmp_path, capsys) -> None:
    """A bot's decisions that failed though most of their ballots favour them: where the proposal's text states a condition
    the game's rules give (it depends on one that failed; it is incompatible with itself) it is `Result: invalid`
    with that `Reason:`, which check verifies; where its own author failed it, `withdrawn`. Each is a guess, said
    and written to the corrections file; a condition the record does not bear out (it depends on one adopted) is
    no reason, and the finding stays."""
    import json

    repo, records = bot_game(tmp_path)
    records.write_text(RECORDS + 'text = "content"\n', encoding="utf-8")
    proposals = json.loads(subprocess.run(["git", "-C", str(repo), "show", "HEAD:data/proposals.json"],
                                          capture_output=True, text=True, check=True).stdout)["proposals"]
    for number, author, text in [(5, 222, "This proposal depends on #3.\n\nAdd a bean."),
                                 (6, 222, "Add two beans."), (7, 111, "This proposal is incompatible with #7."),
                                 (8, 111, "Depends on proposal 1. Add a cup.")]:
        proposals.append({"n": number, "author": author, "status": "failed", "votes": {"111": 1, "222": 1},
                          "timestamp": 1_587_000_000 + number * 3600, "content": text})
        git_commit(repo, f"Kit#0002 submitted proposal #{number}",
                   {"data/proposals.json": json.dumps({"proposals": proposals})},
                   date=f"2020-04-16T{number + 5:02}:00:00", author="Bot")
    git_commit(repo, "Kit#0002 failed proposal #6", {"data/proposals.json": json.dumps({"proposals": proposals})},
               date="2020-04-16T20:00:00", author="Bot")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert "Result: invalid\nReason: depends on proposal 3\n" in log["Proposal 5"]
    assert "Result: withdrawn\nReason: its author failed it\n" in log["Proposal 6"]
    assert "Result: invalid\nReason: incompatible with proposal 7\n" in log["Proposal 7"]
    assert "Result: defeated\n" in log["Proposal 8"] and "Reason" not in log["Proposal 8"]
    # each with its own words, as the record keeps them (its `text`): shown as proposed, never read as changes
    assert "As proposed:\n\n> This proposal depends on #3.\n>\n> Add a bean.\n" in log["Proposal 5"]
    assert "proposal 5: invalid: depends on proposal 3: guessed: its text says 'depends on #3', and proposal 3 was " \
        "defeated; most of its ballots favour it, the record says it failed" in said
    assert re.search(r"^proposal 6 withdrawn: its author failed it +# guessed: commit [0-9a-f]{10} 'Kit#0002 failed "
                     r"proposal #6'", files["corrections.txt"], re.MULTILINE)
    code, report = check(capsys, tmp_path / "game")
    assert code == 1, report
    assert "proposal 8: Result says defeated; the votes (2 for, 0 against) give adopted" in report
    assert "proposal 5" not in report and "proposal 6" not in report and "proposal 7" not in report


def test_scores_kept_beside_the_rules_are_checked_not_assumed(tmp_path, capsys) -> None:
    """A file per player holding their score (and a folder's other file, which holds none): the records file's
    [scores] reads them at the last commit into a Scores line on the last entry, which check holds to the replay
    under the points the game gives an adopted proposal; a score the replay does not give is a finding. Without
    [proposals], only the scores are read."""
    repo = tmp_path / "repo"
    player = "# Player: {name}\n\nGitHub handle: @{handle}\n\nCurrent score: {score}\n"
    git_commit(repo, "Initial rules", {"rules.md": RULES, "players/README.md": "One file per player.\n",
                                       "players/a.md": player.format(name="Al", handle="alice", score=0),
                                       "players/b.md": player.format(name="Bo", handle="bob", score=0)},
               date="2021-01-01T12:00:00")
    text = amended(RULES, "half the players", "a third of the players")
    merge_pull_request(repo, 5, "alice", "patch-1", "301: Lower the quorum", [("quorum", {"rules.md": text})],
                       "2021-01-02T12:00:00")
    text += "\n##302 - Tea\n\nTea is served at noon.\n"
    merge_pull_request(repo, 6, "bob", "patch-2", "302: Tea", [("tea", {"rules.md": text})], "2021-01-03T12:00:00")
    git_commit(repo, "Points", {"players/a.md": player.format(name="Al", handle="alice", score=1),
                                "players/b.md": player.format(name="Bo", handle="bob", score=1.5)},
               date="2021-01-04T12:00:00")
    records = tmp_path / "records.toml"
    records.write_text("[scores]\nfiles = \"players/*.md\"\nname = 'GitHub handle: @(\\S+)'\n"
                       "score = 'Current score: (-?[0-9]+(?:[.][0-9]+)?)'\nadopted = 1\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert code == 1, said  # (the file that holds no score is a problem of the record, said)
    log = entries(files["log.md"])
    assert "Scores: alice 1, bob 1.5\n" in log["Proposal 302: Tea"]
    assert "adopted = 1" in files["game.toml"]
    assert "players/README.md" in said and "holds no player's name and score" in said
    assert "Votes" not in files["log.md"]  # no file of decisions: ballots unknown, as without --records
    code, report = check(capsys, tmp_path / "game")
    assert code == 1 and "1 discrepancy" in report
    assert "proposal 302: Scores says bob 1.5; replay gives 1" in report  # half a point no proposal explains

    records.write_text("[scores]\nfiles = \"players/*.md\"\nscore = 'Current score: (x'\n", encoding="utf-8")
    code, nothing, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                   out="refused")
    assert code == 2 and nothing == {}
    assert f"{records}:3: scores.score: is not a regular expression" in said


def test_scores_the_record_kept_over_time_are_checked_where_they_changed(tmp_path, capsys) -> None:
    """Scores kept in a file per player over time: each entry after which the record's scores changed claims
    them as they stood before the next entry (not only the last), so that check finds a slip where it was made,
    at its entry's line."""
    repo = tmp_path / "repo"
    player = "GitHub handle: @{handle}\n\nCurrent score: {score}\n"
    git_commit(repo, "Initial rules", {"rules.md": RULES, "players/a.md": player.format(handle="alice", score=0),
                                       "players/b.md": player.format(handle="bob", score=0)}, date="2021-01-01T12:00:00")
    text = amended(RULES, "half the players", "a third of the players")
    git_commit(repo, "Proposal 301: Lower the quorum", {"rules.md": text}, date="2021-01-02T12:00:00", author="alice")
    git_commit(repo, "Points for 301", {"players/a.md": player.format(handle="alice", score=1)},
               date="2021-01-02T13:00:00")
    text += "\n##302 - Tea\n\nTea is served at noon.\n"
    git_commit(repo, "Proposal 302: Tea", {"rules.md": text}, date="2021-01-03T12:00:00", author="bob")
    git_commit(repo, "Points for 302", {"players/b.md": player.format(handle="bob", score=2)},
               date="2021-01-03T13:00:00")
    text += "\n##303 - Cake\n\nCake on Sundays.\n"
    git_commit(repo, "Proposal 303: Cake", {"rules.md": text}, date="2021-01-04T12:00:00", author="alice")
    git_commit(repo, "Points for 303", {"players/a.md": player.format(handle="alice", score=2)},
               date="2021-01-04T13:00:00")
    records = tmp_path / "records.toml"
    records.write_text("[scores]\nfiles = \"players/*.md\"\nname = 'GitHub handle: @(\\S+)'\n"
                       "score = 'Current score: (-?[0-9]+)'\nadopted = 1\n", encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert "Scores: alice 1, bob 0\n" in log["Proposal 301: Lower the quorum"]
    assert "Scores: alice 1, bob 2\n" in log["Proposal 302: Tea"]
    assert "Scores: alice 2, bob 2\n" in log["Proposal 303: Cake"]
    code, report = check(capsys, tmp_path / "game")
    line = files["log.md"].splitlines().index("Scores: alice 1, bob 2") + 1
    assert code == 1 and "1 discrepancy" in report, report
    # the keeper's slip found where it was made (bob's point doubled), at that entry's line of log.md
    assert re.search(rf"log\.md:{line}: proposal 302: Scores says bob 2; replay gives 1", report), report


def test_decimal_scores_the_record_kept_over_time_are_drawn(tmp_path, capsys) -> None:
    """Half points the record gives over time, which the replay follows from the log's figures: the site draws
    the scores chart with them (whole bounds, the labels as decimals)."""
    repo = tmp_path / "repo"
    player = "GitHub handle: @{handle}\n\nCurrent score: {score}\n"
    git_commit(repo, "Initial rules", {"rules.md": RULES, "players/a.md": player.format(handle="alice", score=0)},
               date="2021-01-01T12:00:00")
    text = RULES
    for day, (rule, score) in enumerate([(301, "1.5"), (302, "2.5")], start=2):
        text += f"\n##{rule} - Rule {rule}\n\nRule {rule} holds.\n"
        git_commit(repo, f"Proposal {rule}", {"rules.md": text}, date=f"2021-01-0{day}T12:00:00", author="alice")
        git_commit(repo, "Points", {"players/a.md": player.format(handle="alice", score=score)},
                   date=f"2021-01-0{day}T13:00:00")
    records = tmp_path / "records.toml"
    records.write_text("[scores]\nfiles = \"players/*.md\"\nname = 'GitHub handle: @(\\S+)'\n"
                       "score = 'Current score: ([0-9.]+)'\nadopted = 1\n", encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert "Scores: alice 1.5\n" in log["Proposal 301"] and "Scores: alice 2.5\n" in log["Proposal 302"]
    assert main(["build", str(tmp_path / "game"), "-o", str(tmp_path / "site"), "-q", "--cache-dir",
                 str(tmp_path / "cache")]) == 0, capsys.readouterr().err
    chart = next((tmp_path / "site").rglob("scores.html")).read_text(encoding="utf-8")
    assert ">alice 2.5<" in chart


ARCHIVE_RECORDS = """[proposals]
file = "old_proposals.md"
heading = '^#+(?P<number>[0-9]+|[A-Z]{4}) - (?P<title>.*) - (?P<result>[A-Za-z]+)\\s*$'
byline = '^Proposed by: (.+?)(?:\\s+[+-][0-9].*)?\\s*$'
ballot = '^(?P<voter>[A-Z][^:\\n]*?):\\s*(?P<ballot>For|Against|Abstain)\\b'
ballots = { For = "for", Against = "against", Abstain = "abstain" }
results = { passed = "adopted", Passed = "adopted", defeated = "defeated" }
adoption = "majority"
"""


def test_a_keepers_markdown_archive_of_proposals_is_the_record_of_decisions(tmp_path, capsys) -> None:
    """A keeper who commits every change as "Update rules.md" and archives each decided proposal under a heading
    (`#302 - Title - passed`, its byline, a line per ballot): the archive is the record. A commit that makes a rule
    numbered as an adopted proposal is that proposal; any other (a typo fixed) is the keeper's own, never a number
    invented in sequence; a defeated proposal is its own entry in its place; one the record names by letters is an
    event by it, outside the numbering."""
    repo = tmp_path / "repo"
    archive = ("Archived proposals.\n\n#301 - Dice - defeated\n\nProposed by: Ann -10pts\n\nDice are rolled.\n\nA fine "
               "idea, all the same.\n\nAnn: For  \nBo: Against  \nCy: Against  \n\n#302 - Tea - passed\n\nProposed by: "
               "Bo +3 (a roll)\n\nThis proposal would create rule 302:\n\n> Tea is served\nat noon.\n\nThe speaker "
               "consents.\n\nQuorum: 2 votes\n\nAnn: For  \nBo: For  \nCy: Against  \n\n#QUIT - Quitting - Passed\n\n"
               "Proposed by: Cy\n\nAnn: For\nCy: For\n")
    git_commit(repo, "Start", {"rules.md": RULES, "old_proposals.md": "Archived proposals.\n"},
               date="2016-10-01T12:00:00", author="Keeper")
    git_commit(repo, "Update rules.md", {"rules.md": amended(RULES, "Quorum is half", "Quorum  is half")},
               date="2016-10-02T12:00:00", author="Keeper")
    text = RULES + "\n##302 Mutable - Tea\n\nTea is served at noon.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2016-10-05T12:00:00", author="Keeper")
    text = amended(text, "Quorum is half the players.", "Quorum is a third of the players.")
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2016-10-06T12:00:00", author="Keeper")
    text += "\n##QUIT Mutable - Quitting\n\nA player may quit.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text, "old_proposals.md": archive}, date="2016-10-07T12:00:00",
               author="Keeper")
    records = tmp_path / "records.toml"
    records.write_text(ARCHIVE_RECORDS, encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    # (the first commit only re-spaced a line, which changes no rule's text: no entry)
    assert list(log) == ["Proposal 301: Dice", "Proposal 302: Tea", "Event: Update rules.md",
                         "Event: proposal QUIT: Quitting"]
    # (undated: the day of the entry above it, here the game's start)
    dice = log["Proposal 301: Dice"]
    assert "Proposer: Ann\nDate: 2016-10-01\nVotes: for Ann; against Bo, Cy\nResult: defeated" in dice
    # (two paragraphs between its byline and its ballots, none quoted: which are the proposal's is not shown)
    assert "As proposed" not in dice
    tea = log["Proposal 302: Tea"]
    # its words: after its byline, through the rule's text it quotes; not the keeper's note, field and ballots
    assert tea.endswith("As proposed:\n\n> This proposal would create rule 302:\n>\n> > Tea is served\n> at noon.\n\n")
    assert "Proposer: Bo\n" in tea and "Votes: for Ann, Bo; against Cy\nResult: adopted" in tea
    assert "Enact rule 302: Tea" in tea
    assert "By: Keeper, no proposal" in log["Event: Update rules.md"]  # no number invented for it
    quit_entry = log["Event: proposal QUIT: Quitting"]
    assert "By: proposal QUIT (Cy)" in quit_entry and "its decision: Passed (votes: for Ann, Cy)" in quit_entry
    assert "Unrecorded" not in files["log.md"]
    assert "the record of decisions holds the game's proposals: the keeper's own change" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
    records.write_text(ARCHIVE_RECORDS.replace("(?P<number>", "(?P<n>"), encoding="utf-8")
    code, nothing, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                   out="refused")
    assert code == 2 and nothing == {}
    assert f"{records}:3: proposals.heading: must hold (?P<number>...)" in said


def test_an_archives_entry_written_apart_from_its_change_is_paired_with_the_change_next_to_it(tmp_path, capsys) -> None:
    """A keeper who writes a proposal's entry into the archive in one commit and changes the rules in the next (or
    the one before): that change carried it out, where the record ties them (its words name the rule changed)."""
    repo = tmp_path / "repo"
    entry = "#{n} - {title} - passed\n\nProposed by: {who}\n\n{text}\n\nAnn: For\nBo: For\n\n"
    archive = "Archived proposals.\n\n"
    git_commit(repo, "Start", {"rules.md": RULES, "old_proposals.md": archive}, date="2016-10-01T12:00:00",
               author="Keeper")
    archive += entry.format(n=301, title="Quorum", who="Bo", text="This proposal would amend rule 201.")
    git_commit(repo, "Update old_proposals.md", {"old_proposals.md": archive}, date="2016-10-02T12:00:00",
               author="Keeper")
    git_commit(repo, "Update rules.md", {"rules.md": amended(RULES, "half the players", "two players")},
               date="2016-10-03T12:00:00", author="Keeper")
    records = tmp_path / "records.toml"
    records.write_text(ARCHIVE_RECORDS, encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert list(log) == ["Proposal 301: Quorum"]
    assert "Proposer: Bo\n" in log["Proposal 301: Quorum"] and "Amend rule 201" in log["Proposal 301: Quorum"]
    assert "proposal 301: its entry in old_proposals.md written as adopted by commit" in files["corrections.txt"]


def test_an_archives_entry_shows_the_proposals_words_only_where_its_structure_does(tmp_path) -> None:
    """The words after the byline's line up to the first ballot, blank line or not (a keeper's archive that lists
    the ballots right under the text); several unquoted paragraphs, or no byline: not shown."""
    from generator.importers.decisions import read_decisions, read_mapping

    records = tmp_path / "records.toml"
    records.write_text(ARCHIVE_RECORDS, encoding="utf-8")
    archive = ("#301 - Dice - passed\n\nProposed by: Ann\nDice are rolled  \non Sundays.  \nAnn: For\nBo: For\n\n"
               "#302 - Tea - defeated\n\nProposed by: Bo\n\nTea at four.\n\nA good idea, the keeper says.\n\n"
               "Ann: Against\n\n#303 - Cake - passed\n\nCake on Fridays.\n\nAnn: For\n")
    words = {decision.number: decision.text for decision in read_decisions(read_mapping(records), archive)}
    assert words == {301: "Dice are rolled  \non Sundays.", 302: "", 303: ""}


def test_a_records_files_expression_that_backtracks_without_end_is_stopped_at_its_line(tmp_path, capsys,
                                                                                        monkeypatch) -> None:
    """A records file from anyone's repository whose expression backtracks without end on a line of the record
    ((a|aa)+ before a `$` the line never reaches tries every way to split the run of a's: years) is stopped once
    the file's expressions have spent their time, the import refused at the expression's line, exit 2, nothing
    written; so is one whose counted repetitions would unroll into a billion copies when compiled, before it is.
    The scores' expressions too, whose failures elsewhere are problems of the record, not refusals."""
    monkeypatch.setattr("generator.importers.decisions.MAX_MATCHING_SECONDS", 0.5)
    repo = tmp_path / "repo"
    archive = "#301 - Dice - defeated\n\nProposed by: " + "a" * 40 + "!\n\nAnn: For\n"
    git_commit(repo, "Start", {"rules.md": RULES, "old_proposals.md": archive,
                               "players/a.md": "Current score: " + "1" * 40 + "!\n"}, date="2016-10-01T12:00:00")
    git_commit(repo, "Update rules.md", {"rules.md": RULES + "\n##302 Mutable - Tea\n\nTea is served.\n"},
               date="2016-10-05T12:00:00")
    records = tmp_path / "records.toml"
    for key, hostile, line in (("byline", "'^Proposed by: ((?:a|aa)+)$'", 4),
                               ("byline", "'^Proposed by: ((?:(?:a{1000}){1000}){1000})'", 4),
                               ("score", "'Current score: ((?:1|11)+)$'", None)):
        text = ARCHIVE_RECORDS
        if key == "score":
            text += "\n[scores]\nfiles = \"players/*.md\"\nscore = " + hostile + "\n"
            line = text.splitlines().index("score = " + hostile) + 1
        else:
            text = re.sub(rf"^{key} = .*$", lambda _: f"{key} = {hostile}", text, flags=re.MULTILINE)
        records.write_text(text, encoding="utf-8")
        started = time.monotonic()
        code, nothing, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                       out="refused")
        assert time.monotonic() - started < 30
        assert code == 2 and nothing == {}, said
        where = "scores" if key == "score" else "proposals"
        assert f"{records}:{line}: {where}.{key}: " in said, said
        assert ("backtracks without end" if "|" in hostile else "multiplied together") in said
        assert "Traceback" not in said


def test_rules_numbered_in_their_own_sequence_give_no_proposal_its_number(tmp_path, capsys) -> None:
    """A game that numbers its rules one after another (its first commit makes three at once) is not numbering
    them as Suber's proposals: a later commit making one rule is a proposal numbered in sequence, not numbered as
    its rule (which once counted the whole game's proposals back from it). A heading's title in bold is the title;
    the subject GitHub's web editor gives a commit ("Update rules.md") is no proposal's title."""
    repo = tmp_path / "repo"
    text = "## Rules\n\n#### 101: **Winning**\n> Nobody wins.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2020-01-01T12:00:00")
    text += "\n#### 102: Points\n> Points start at 0.\n\n#### 103: Votes\n> One vote each.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2020-01-02T12:00:00")
    text += "\n#### 104: Ending\n> The game ends in June.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2020-01-03T12:00:00", author="Bea")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 1", "Proposal 2"]
    assert "Enact rule 104: Ending" in log["Proposal 2"]
    assert "first_proposal = 1" in files["game.toml"] and "Suber's numbering" not in said
    assert "### 101. Winning\nNobody wins." in files["rules.md"]


OUTLINE = """# Our game: rules

## <a name='meta'/> Meta

The rules bind.
"""


def test_an_outlines_sections_numbered_by_place_are_no_proposals_numbers(tmp_path, capsys) -> None:
    """A bot entering the rules section by section before any proposal: the second section, numbered 2 by its
    place, is not proposal 2 of the record of decisions; proposal 2 is the change made after it passed."""
    import json

    repo = tmp_path / "repo"
    voting = OUTLINE + "\n## <a name='voting'/> Voting\n\nMost votes win.\n"
    git_commit(repo, "Initial commit", {"rules.md": OUTLINE, "data/proposals.json": json.dumps({"proposals": []})},
               date="2020-04-16T00:00:00", author="Bot")
    git_commit(repo, "Kit#0002 added new rule section `%voting`", {"rules.md": voting}, date="2020-04-16T00:10:00",
               author="Bot")
    decided = [{"n": 1, "author": 111, "status": "voting", "votes": {}, "timestamp": 1_587_000_000},
               {"n": 2, "author": 222, "status": "passed", "votes": {"111": 1, "222": 1}, "timestamp": 1_587_003_600}]
    git_commit(repo, "Kit#0002 passed proposal #2", {"data/proposals.json": json.dumps({"proposals": decided})},
               date="2020-04-16T02:00:00", author="Bot")
    git_commit(repo, "Kit#0002 changed the content of rule section `%voting`",
               {"rules.md": amended(voting, "Most votes win.", "Two thirds win.")}, date="2020-04-16T02:01:00",
               author="Bot")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    # (the section entered before any proposal is among the starting rules: test_starting_rules_a_bot_enters_...)
    assert [heading for heading in log if not heading.startswith("Unrecorded")] == ["Proposal 2"]
    assert "Voting" in files["rules.md"] and "Amend rule 2 to read:\n\n> Two thirds win." in log["Proposal 2"]
    assert "the number of the rule it makes" not in said


def test_a_heading_made_of_a_rules_first_line_is_a_cleaning(tmp_path, capsys) -> None:
    """A plain file whose rules open with a name on a line of its own, given Markdown headings later: the
    names become titles and no word moves, a cleaning and not a proposal."""
    repo = tmp_path / "repo"
    git_commit(repo, "Create RULES", {"RULES": "OUR RULES\n"}, date="2020-01-01T12:00:00")
    plain = "OUR RULES\n\n1. PLAYING\n\nEach player plays `fair`.\n\n2. WINNING\n\nThe first to 10 points wins.\n"
    git_commit(repo, "Update RULES", {"RULES": plain}, date="2020-01-02T12:00:00")
    headed = plain.replace("1. PLAYING", "### 1. PLAYING").replace("2. WINNING", "### 2. WINNING")
    git_commit(repo, "add headings", {"RULES": headed}, date="2020-01-03T12:00:00")
    git_commit(repo, "Proposal 7", {"RULES": headed.replace("10 points", "12 points")}, date="2020-01-04T12:00:00")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "RULES")
    log = entries(files["log.md"])
    assert code == 0 and list(log) == ["Event: add headings", "Proposal 7"]
    assert "By: cleaning (Ann)" in log["Event: add headings"]
    assert 'Retitle rule 2 to "WINNING".' in log["Event: add headings"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_link_base_makes_a_rules_relative_links_absolute(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    text = "# Rules\n\n## 1\n\nSee [the players](players.md) and [rule 2](#rule-2).\n"
    git_commit(repo, "Start", {"rules.md": text})
    git_commit(repo, "Proposal 2", {"rules.md": text + "\n## 2\n\nBe kind.\n"})
    base = "https://github.com/o/r/blob/main/"
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--link-base", base)
    assert code == 1, said  # the place in the page is still written as its text, and said
    assert f"See [the players]({base}players.md) and rule 2." in files["rules.md"]
    assert "links written as their text: #rule-2 (a place in the rules file" in said and "--link-base" not in said


def test_a_list_in_a_commits_message_is_quoted_an_item_a_line(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    message = ("Proposal 301: a higher quorum\n\nWhat it does:\n\n- raise the quorum\n- keep rule 101 as it\n  is, "
               "unchanged\n* Repeal rule 201. is not a change here\n\n1. first\n2) second\n\nA closing  line\nwrapped.")
    git_commit(repo, message, {"rules.md": amended(RULES, "half the players", "two thirds of the players")})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert ("> What it does:\n>\n> - raise the quorum\n> - keep rule 101 as it is, unchanged\n"
            "> * Repeal rule 201. is not a change here\n>\n> 1. first\n> 2) second\n>\n> A closing line wrapped.") \
        in log["Proposal 301: a higher quorum"]
    assert "Amend rule 201" in log["Proposal 301: a higher quorum"] and "Repeal" not in files["log.md"].split(
        "whose message says")[0]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
def test_a_web_edits_pull_request_is_its_editors_and_a_decisions_proposer_is_the_records(tmp_path, capsys) -> None:
    """GitHub names the branch of a web edit in the game's own repository `kit-patch-1`: the pull request is
    Kit's, not the repository owner's. A proposal a bot carried out is credited, in the corrections file too, to
    the proposer its decision names, not to the bot."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    merge_pull_request(repo, 3, "keeper", "kit-patch-1", "Proposal 301: a die",
                       [("Update rules.md", {"rules.md": RULES + "\n##301 - Die\n\nA die decides.\n"})],
                       "2020-06-07T10:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposer: kit\n" in log["Proposal 301: a die"]
    assert f"commit {short(repo)} proposal 301 by kit " in files["corrections.txt"]
    repo, records = bot_game(tmp_path / "bot")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 out="bot-game")
    carried = next(line for line in files["corrections.txt"].splitlines() if "the last decided before it" in line)
    assert " proposal 1 by Wren#0001 " in carried and "the commit's author" not in carried


def test_rules_numbered_by_place_move_up_when_one_is_taken_out_and_down_when_one_comes_in(tmp_path, capsys) -> None:
    """A game whose rules are numbered by their place: taking rule 2 out renumbers 3 and 4 (each keeps its
    history), and a rule put in at the top moves every rule down, the last first so that each lands on a free
    number."""
    repo = tmp_path / "repo"
    rules = [("Names", "Each rule has a name."), ("Points", "Points start at zero and only go up."),
             ("Turns", "Players take turns in the order they joined."), ("Winning", "Ten points win the game.")]

    def text(chosen):
        return "# Rules\n" + "".join(f"\n## {n}. {title}\n\n{body}\n" for n, (title, body) in enumerate(chosen, 1))
    git_commit(repo, "Start", {"rules.md": text(rules)})
    git_commit(repo, "Proposal 7", {"rules.md": text([rules[0], rules[2], rules[3]])})
    top = ("Spirit", "Play in the spirit of the game, whatever the rules say of it.")
    git_commit(repo, "Proposal 8", {"rules.md": text([top, rules[0], rules[2], rules[3]])})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Repeal rule 2.\n\nRenumber rule 3 to 2.\n\nRenumber rule 4 to 3.\n" in log["Proposal 7"]
    assert "Amend" not in log["Proposal 7"] and "Retitle" not in log["Proposal 7"]
    assert "Renumber rule 3 to 4.\n\nRenumber rule 2 to 3.\n\nRenumber rule 1 to 2.\n\nEnact rule 1: Spirit" \
        in log["Proposal 8"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_two_rules_that_swap_numbers_are_read_as_amended() -> None:
    """Moves that go round (1 to 2 and 2 to 1) have no order a log can write: each number's rule is amended."""
    from generator.importers.git import _changes
    from generator.importers.text import ImportedRule

    one, two = ImportedRule(1, None, "One", "The first rule, long enough.", 1), \
        ImportedRule(2, None, "Two", "The second rule, quite other.", 2)
    changes, cleaned = _changes({1: one, 2: two}, {1: dataclasses.replace(two, number=1),
                                                   2: dataclasses.replace(one, number=2)})
    assert [(c.kind, c.rule) for c in changes] == [("amend", 1), ("retitle", 1), ("amend", 2), ("retitle", 2)]
    assert cleaned == []


def test_the_keepers_corrections_line_names_a_proposer_above_the_record_of_decisions(tmp_path, capsys) -> None:
    """A proposal whose decision names its proposer is the keeper's to credit otherwise: a corrections line
    `proposal 1 by Ash` writes Ash in the log, not the decision's proposer."""
    repo, records = bot_game(tmp_path / "bot")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 out="first")
    assert "Proposer: Wren#0001\n" in entries(files["log.md"])[next(h for h in entries(files["log.md"])
                                                                   if h.startswith("Proposal 1"))], said
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(files["corrections.txt"].replace(" proposal 1 by Wren#0001 ", " proposal 1 by Ash "),
                           encoding="utf-8")
    assert corrections.read_text(encoding="utf-8") != files["corrections.txt"]
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--corrections", str(corrections), out="second")
    log = entries(files["log.md"])
    assert "Proposer: Ash\n" in log[next(h for h in log if h.startswith("Proposal 1"))], said


def test_a_decisions_proposer_keeps_the_co_authors_the_history_line_names(tmp_path, capsys) -> None:
    """A record of decisions names a proposal's proposer; the History line the commit added names its co-author
    too. The log writes the record's proposer and keeps the co-author (the keeper's line still names others)."""
    import json

    repo = tmp_path / "repo"
    decisions = {"proposals": [{"n": 5, "author": "Wren", "status": "passed", "votes": {"Wren": 1, "Lu": 1},
                                "timestamp": 1_580_515_200}]}
    git_commit(repo, "Initial Set", {"rules.md": HISTORY_RULES, "data/proposals.json": json.dumps(decisions)},
               date="2020-01-01T12:00:00", author="Keeper")
    text = HISTORY_RULES.replace("Each turn a player proposes.", "Each turn a player proposes once.").replace(
        "(https://example.org/201)", "(https://example.org/201)  \n[*Amended (1) by Proposal 5 (Wren, Lu), Feb 1, "
        "2020*](https://example.org/5)")
    git_commit(repo, "Proposal 5", {"rules.md": text}, date="2020-02-01T12:00:00", author="Keeper")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert "Proposer: Wren\nCo-authors: Lu\n" in entries(files["log.md"])["Proposal 5"], said
    assert f"commit {short(repo)} proposal 5 by Wren, Lu " in files["corrections.txt"]


def test_a_decision_recorded_before_the_rules_begin_numbers_no_change_of_them(tmp_path, capsys) -> None:
    """A bot's commit that says a proposal passed, before this game's rules file was made (an earlier round's),
    is not the proposal a later change of these rules carries out."""
    repo = tmp_path / "repo"
    git_commit(repo, "Kit passed proposal #7", {"old/rules.md": RULES})
    git_commit(repo, "New round", {"rules.md": RULES})
    git_commit(repo, "A change", {"rules.md": amended(RULES, "half the players", "a third of the players")})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 1: A change"] and "proposal 7" not in files["corrections.txt"]


def test_a_gap_between_the_proposals_one_commit_carries_out_is_written_between_them(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    added = RULES + "\n##301 - One\n\nThe first.\n\n##304 - Four\n\nThe fourth.\n"
    git_commit(repo, "Proposals 301, 304", {"rules.md": added})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Unrecorded: 302-303", "Proposal 304"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_branch_named_for_the_rule_it_changes_numbers_no_proposal(tmp_path, capsys) -> None:
    """A pull request's branch `201` that amends rule 201 names the rule, not its proposal."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - Brief\n\nA brief rule.\n"})
    merge_pull_request(repo, 2, "kit", "201", "Change the quorum",
                       [("Update rules.md", {"rules.md": amended(RULES, "half the players", "a third of the players")
                                             + "\n##301 - Brief\n\nA brief rule.\n"})], "2020-06-07T10:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Event: Change the quorum"]  # (the game names its proposals in titles)


def test_a_rule_given_back_its_initial_number_leaves_suber_numbering_standing(tmp_path, capsys) -> None:
    """Rule 201 renumbered to 301 (a proposal 301, by Suber's numbering), then given back its number: a change
    undone, no sign the game numbers its rules otherwise; the next new rule, 305, is still proposal 305."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Quorum moved", {"rules.md": RULES.replace("##201 Mutable", "##301 Mutable")})
    git_commit(repo, "Quorum moved back", {"rules.md": RULES})
    git_commit(repo, "Dice", {"rules.md": RULES + "\n##305 - Dice\n\nA die has six sides.\n"})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert [heading for heading in log if heading.startswith("Proposal")] == [
        "Proposal 301: Quorum moved", "Proposal 302: Quorum moved back", "Proposal 305: Dice"]


def test_the_keepers_line_says_which_proposal_an_archived_ruleset_carried_out(tmp_path, capsys) -> None:
    """A website's list may name the wrong proposition for a ruleset (its rule's own history says another): the
    corrections file's `ruleset N proposal M` line is followed, adoption included; one naming no ruleset is
    refused."""
    repo, records = website_game(tmp_path)
    files, log, said = imported_log(tmp_path, capsys, repo, "--records", str(records))
    assert re.search(r"^ruleset 2 proposal 2 by Bo +# the record: ruleset 2 names proposal 2", files["corrections.txt"],
                     re.MULTILINE)
    corrections = tmp_path / "mine.txt"
    corrections.write_text("ruleset 2 proposal 1 by Bo\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                 str(corrections), out="corrected")
    log = entries(files["log.md"])
    carried = log["Proposal 1: Voting changed by Bo"]  # (the title: the list's summary of the ruleset)
    assert "Amend rule 1 to read:" in carried and "Result: adopted" in carried
    assert "Result: defeated" in log["Proposal 2"] and "named by no ruleset" in log["Proposal 2"]
    assert f"{corrections}:1: ruleset 2: proposal 1 by Bo (the import read: proposal 2 by Bo)" in said
    corrections.write_text("ruleset 9 proposal 1\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                 str(corrections), out="refused")
    assert code == 2 and files == {}
    assert f"{corrections}:1: ruleset 9: the records file's list of rulesets names no ruleset 9 after the first" in said


def test_lists_of_voters_the_records_file_does_not_name_one_for_one_are_said(tmp_path, capsys) -> None:
    """Each proposition holds four lists of voters; a records file naming three kinds reads the first three and
    not the fourth: said as a problem of the record, which the keeper settles in ballot_lists."""
    repo, records = website_game(tmp_path)
    records.write_text(WEBSITE_RECORDS.replace('["for", "against", "", "abstain"]', '["for", "against", "abstain"]'),
                       encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records))
    assert code == 1 and "log.md" in files, said
    problem = "its proposals hold 4 lists of voters where the records file's proposals.ballot_lists names 3 (for, " \
        "against, abstain): each list is read as the kind named at its place, and a list beyond them is not read"
    assert problem in said and problem in files["IMPORT.md"]
    repo, records = website_game(tmp_path / "fits")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), out="fits-game")
    assert code == 0 and "lists of voters where" not in said


def test_a_keepers_ruleset_line_that_changes_only_the_proposer_is_a_correction(tmp_path, capsys) -> None:
    """A `ruleset N` line names no commit, and an archived ruleset names no proposer (its decision does): a line
    naming another proposer is followed and said as a correction, one naming the decision's proposer (or none)
    confirms the import's reading."""
    repo, records = website_game(tmp_path)
    corrections = tmp_path / "mine.txt"
    corrections.write_text("ruleset 2 proposal 2 by Cy\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                 str(corrections), out="corrected")
    assert code == 0, said
    assert "Proposer: Cy\n" in entries(files["log.md"])["Proposal 2: Voting changed by Bo"]
    followed = f"{corrections}:1: ruleset 2: proposal 2 by Cy (the import read: proposal 2 by Bo)"
    assert followed in said and "confirmed what the import reads" not in said
    assert "## Corrections followed" in files["IMPORT.md"] and followed in files["IMPORT.md"]
    assert re.search(r"^ruleset 2 proposal 2 by Cy +# your correction \(the import read: proposal 2 by Bo\)",
                     files["corrections.txt"], re.MULTILINE)
    for n, line in enumerate(["ruleset 2 proposal 2 by Bo", "ruleset 2 proposal 2"]):
        corrections.write_text(line + "\n", encoding="utf-8")
        code, files, said = imported(tmp_path, capsys, repo, "--records", str(records), "--corrections",
                                     str(corrections), out=f"confirmed{n}")
        assert code == 0 and f"{corrections}: 1 line confirmed what the import reads" in said, said
        assert "Proposer: Bo\n" in entries(files["log.md"])["Proposal 2: Voting changed by Bo"]


def test_a_keepers_commit_line_is_compared_with_the_proposer_the_record_of_decisions_names(tmp_path,
                                                                                          capsys) -> None:
    """Where the record of decisions names a proposal's proposer, the import credits them, not the commit's
    author: a commit line naming the commit's author corrects that, one naming the decision's proposer confirms."""
    repo, records = bot_game(tmp_path)
    carried = short(repo, "HEAD~3")  # (the bot's commit that carried out proposal 1)
    corrections = tmp_path / "mine.txt"
    corrections.write_text(f"commit {carried} proposal 1 by Kit#0002\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--corrections", str(corrections), out="corrected")
    assert code == 0, said
    assert "Proposer: Kit#0002\n" in entries(files["log.md"])["Proposal 1"]
    assert f"{corrections}:1: commit {carried}: proposal 1 by Kit#0002 (the import read: proposal 1 by Wren#0001)" \
        in said
    corrections.write_text(f"commit {carried} proposal 1 by Wren#0001\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--corrections", str(corrections), out="confirmed")
    assert code == 0 and f"{corrections}: 1 line confirmed what the import reads" in said, said
    assert "Proposer: Wren#0001\n" in entries(files["log.md"])["Proposal 1"]


def test_a_commits_co_authored_by_trailers_name_the_players_among_them_as_co_authors(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301: Dice", {"rules.md": RULES + "\n##301 - Dice\n\nA die has six sides.\n"}, author="Lu")
    git_commit(repo, "Proposal 302: Coins\n\nCo-authored-by: Lu <lu@example.org>\nco-authored-by: Kit <k@example.org>\n"
               "Co-authored-by: Claude Opus 4.6 <noreply@anthropic.com>",
               {"rules.md": RULES + "\n##301 - Dice\n\nA die has six sides.\n\n##302 - Coins\n\nA coin has two.\n"},
               author="Kit")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    # Lu plays (she proposed 301); the tool that helped write the commit does not, and is said as guessed
    assert "Proposer: Kit\nCo-authors: Lu\n" in log["Proposal 302: Coins"]  # (the author is no co-author of his own)
    assert "Claude" not in files["game.toml"] and "Co-authors: Lu, Claude" not in files["log.md"]
    assert f"commit {short(repo)} proposal 302 by Kit, Lu " in files["corrections.txt"]
    assert "Claude Opus 4.6, whom its Co-authored-by names, plays no other part in the record: no co-author" in \
        files["IMPORT.md"]


def test_a_game_that_numbers_its_proposals_by_turn_is_read_so(tmp_path, capsys) -> None:
    """Titles that name the turn (`Round 1, Turn 4 (Bo)`) number its proposal, the player in brackets its proposer;
    a turn no commit carries out is Unrecorded; where two commits in a row name one turn for two players, the
    earlier is the turn before (a guess, said); a later round's turn is its player's proposal, numbered next in
    sequence (its turns start again, and number none)."""
    repo = tmp_path / "repo"
    rules = RULES
    git_commit(repo, "Start", {"rules.md": rules}, author="Keeper")
    for turn, player, rule in [(1, "Ann", 301), (4, "Bo", 302), (6, "Cy", 303), (6, "Di", 304)]:
        rules += f"\n##{rule} Mutable - Rule {rule}\n\nRule {rule} holds.\n"
        git_commit(repo, f"Round 1, Turn {turn} ({player})", {"rules.md": rules}, author="Keeper")
    rules += "\n##305 Mutable - Again\n\nA new round.\n"
    git_commit(repo, "Round 2, Turn 1 (Ann)", {"rules.md": rules}, author="Keeper")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert [heading.split(":")[0] for heading in log] == [
        "Proposal 1", "Unrecorded", "Proposal 4", "Proposal 5", "Proposal 6", "Proposal 7"]
    assert "Proposer: Ann\n" in log["Proposal 7: Round 2, Turn 1 (Ann)"]
    assert re.search(r"proposal 7 by Ann +# guessed: no record numbers it: numbered 7, next in sequence \(the record: "
                     r"its title 'Round 2, Turn 1 \(Ann\)' names a turn of a later round", files["corrections.txt"])
    assert "Proposer: Bo\n" in log["Proposal 4: Round 1, Turn 4 (Bo)"] and "Unrecorded: 2-3" in log
    assert "Proposer: Cy\n" in log["Proposal 5: Round 1, Turn 6 (Cy)"]
    assert re.search(r"^commit \w+ proposal 4 by Bo +# the record: its title 'Round 1, Turn 4 \(Bo\)' names its "
                     r"turn: the game numbers its proposals by turn$", files["corrections.txt"], re.MULTILINE)
    slip = "proposal 5 by Cy: guessed: its title names turn 6, as the next commit's does for Di: a turn is one " \
        "player's: turn 5, which no commit names"
    assert slip in files["IMPORT.md"] and slip in said
    assert "- Turns: the game numbers its proposals by turn, as the titles of 4 commits name it" in files["IMPORT.md"]


def test_rules_in_restructuredtext_are_followed_back_where_git_saw_them_renamed(tmp_path, capsys) -> None:
    """`--rules ruleset.rst`, a file once `ruleset.md` that git saw renamed: read from the first commit, a file,
    not a folder of that name."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"ruleset.md": RULES})
    git_commit(repo, "Proposal 301: Dice", {"ruleset.md": RULES + "\n##301 Mutable - Dice\n\nA die has six sides.\n"})
    subprocess.run(["git", "-C", str(repo), "mv", "ruleset.md", "ruleset.rst"], check=True)
    git_commit(repo, "Proposal 302: Coins", {"ruleset.rst": RULES + "\n##301 Mutable - Dice\n\nA die has six sides."
                                             "\n\n##302 Mutable - Coins\n\nA coin has two sides.\n"})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "ruleset.rst")
    assert list(log) == ["Proposal 301: Dice", "Proposal 302: Coins"]
    assert "from `ruleset.md` to `ruleset.rst`" in files["IMPORT.md"] or "`ruleset.rst` or `ruleset.md`" in \
        files["IMPORT.md"]


def test_a_rules_file_named_without_an_extension_is_read_as_the_name_git_saw_it_renamed_to(tmp_path, capsys) -> None:
    """`Rules` renamed to `Rules.rst`, its text the same: read as reStructuredText before the rename too (the name
    it was given says how it is written), so that the rename changes no rule."""
    repo = tmp_path / "repo"
    rules = "#Rule 1: \nEveryone plays fair.  \nBe kind.\n\n#Rule 3:\nA die has six sides.\n"
    git_commit(repo, "Start", {"Rules": rules})
    git_commit(repo, "Proposal 4: Dice", {"Rules": rules.replace("six", "eight")})
    subprocess.run(["git", "-C", str(repo), "mv", "Rules", "Rules.rst"], check=True)
    git_commit(repo, "Rename Rules to Rules.rst", {})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "Rules.rst")
    assert list(log) == ["Proposal 4: Dice"]
    assert "Everyone plays fair.\n\nBe kind." in files["rules.md"]


def test_rules_kept_in_a_folder_for_each_class_are_one_ruleset(tmp_path, capsys) -> None:
    """`--rules immutable_rules --rules mutable_rules`, both there at once: one ruleset, each rule's class its
    folder's, its title the file's name (or its own first line); a rule moved from one folder to the other is
    transmuted, and a pull request titled `(N) Title` is proposal N."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"immutable_rules/101_Obey-the-rules.md": "Everyone obeys the rules.\n",
                                       "mutable_rules/201_Quorum.md": "Quorum is half the players.\n",
                                       "README.md": "How we play.\n"}, date="2017-04-01T12:00:00")
    merge_pull_request(repo, 4, "kit", "tea", "(302) Tea Every Afternoon",
                       [("tea", {"mutable_rules/302_Tea-Every-Afternoon.md":
                                 "# Tea Every Afternoon\n\nTea is served at four.\n\n## Scones\n\nWith scones.\n"})],
                       "2017-04-02T12:00:00")
    subprocess.run(["git", "-C", str(repo), "mv", "immutable_rules/101_Obey-the-rules.md",
                    "mutable_rules/101_Obey-the-rules.md"], check=True)
    git_commit(repo, "Proposal 303: make 101 mutable", {}, date="2017-04-03T12:00:00", author="Lee")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "immutable_rules",
                                    "--rules", "mutable_rules")
    rules = files["rules.md"]
    assert "## Immutable Rules\n\n### 101. Obey the rules\n" in rules
    assert "## Mutable Rules\n\n### 201. Quorum\n" in rules
    assert "Suber" not in said  # (the folders say the classes: nothing guessed)
    assert list(log) == ["Proposal 302: Tea Every Afternoon", "Proposal 303: make 101 mutable"]
    assert "Enact rule 302: Tea Every Afternoon\n\n> Tea is served at four.\n>\n> #### Scones" \
        in log["Proposal 302: Tea Every Afternoon"]
    assert "Transmute rule 101 to mutable." in log["Proposal 303: make 101 mutable"]
    assert "the record: its title '(302) Tea Every Afternoon'" in files["corrections.txt"]
    assert "Repeal" not in files["log.md"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_proposal_number_given_again_names_its_last_submitter(tmp_path, capsys) -> None:
    """A bot gives a deleted proposal's number again: the file of decisions holds the last proposal of that
    number, so its submitter is the one the last `submitted proposal #N` names."""
    import json

    repo = tmp_path / "repo"
    git_commit(repo, "Initial commit", {"rules.md": RULES, "data/proposals.json": json.dumps({"proposals": []})},
               date="2020-04-16T00:00:00", author="Keeper")
    git_commit(repo, "Cy#0003 submitted proposal #1", {"data/proposals.json": json.dumps({"proposals": [
        {"n": 1, "author": 333, "status": "voting", "votes": {}, "timestamp": 1_587_000_000}]})},
        date="2020-04-16T01:00:00", author="Bot")
    git_commit(repo, "Cy#0003 permanently deleted proposal #1", {"data/proposals.json": json.dumps({"proposals": []})},
               date="2020-04-16T01:10:00", author="Bot")
    decided = {"n": 1, "author": 111, "status": "passed", "votes": {"111": 1, "333": 1}, "timestamp": 1_587_003_600}
    git_commit(repo, "Wren#0001 submitted proposal #1", {"data/proposals.json": json.dumps({"proposals": [decided]})},
               date="2020-04-16T01:20:00", author="Bot")
    git_commit(repo, "Wren#0001 passed proposal #1", {}, date="2020-04-16T02:00:00", author="Bot")
    git_commit(repo, "Wren#0001 changed the content of rule section `%quorum`",
               {"rules.md": amended(RULES, "half the players", "a third of the players")},
               date="2020-04-16T02:01:00", author="Bot")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    files, log, _ = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert "Proposer: Wren#0001\n" in log["Proposal 1"]
    assert "player 111 = Wren#0001  # guessed: commit" in files["corrections.txt"]
    assert "player 333 = 333" in files["corrections.txt"]  # (Cy's number names Cy nowhere the file holds)


def test_starting_rules_a_bot_enters_over_several_commits_before_any_proposal_are_the_starting_rules(tmp_path,
                                                                                                   capsys) -> None:
    """A bot that enters the starting rules a section per commit, before anyone submits a proposal: the rules
    after its last such commit are the starting rules (IMPORT.md says so, and which --from reads them as changes
    instead); its later commits are read as ever."""
    import json

    repo = tmp_path / "repo"
    git_commit(repo, "Initial commit", {"data/proposals.json": json.dumps({"proposals": []})}, author="Keeper")
    rules = "#Our rules\n\n##101 Immutable - Scope\n\nEveryone follows the rules in force.\n"
    began = git_commit(repo, "Kit#0002 added new rule section `%scope`", {"rules.md": rules}, author="Bot")
    for number, title in [(201, "Quorum"), (202, "Dice"), (203, "Turns")]:
        rules += f"\n##{number} Mutable - {title}\n\n{title} as the players agree.\n"
        git_commit(repo, f"Kit#0002 added new rule section `%{title.lower()}`", {"rules.md": rules}, author="Bot")
    proposal = {"n": 1, "author": 111, "status": "passed", "votes": {"111": 1, "222": 1}, "timestamp": 1_587_000_000}
    git_commit(repo, "Wren#0001 submitted proposal #1", {"data/proposals.json": json.dumps({"proposals": [
        dict(proposal, status="voting", votes={})]})}, author="Bot")
    git_commit(repo, "Kit#0002 passed proposal #1", {"data/proposals.json": json.dumps({"proposals": [proposal]})},
               author="Bot")
    git_commit(repo, "Kit#0002 changed the content of rule section `%dice`",
               {"rules.md": rules.replace("Dice as the players agree.", "A die has six sides.")}, author="Bot")
    records = tmp_path / "records.toml"
    records.write_text(RECORDS, encoding="utf-8")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records))
    assert list(log) == ["Proposal 1"] and "Amend rule 202 to read:" in log["Proposal 1"]
    assert "### 203. Turns" in files["rules.md"] and "keeper's own change" not in files["IMPORT.md"]
    assert f"The rules began at commit `{began[:10]}`" in files["IMPORT.md"]
    assert "Bot went on entering them over 3 more commits" in files["IMPORT.md"]
    assert f"import with `--from {began[:10]}`" in files["IMPORT.md"]
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records),
                                 "--from", began, out="from")
    assert [heading.split(":")[0] for heading in entries(files["log.md"])] == ["Event"] * 3 + ["Proposal 1"]
    assert "went on entering" not in files["IMPORT.md"]


def test_a_players_commit_name_is_read_as_the_login_their_pull_requests_give(tmp_path, capsys) -> None:
    """`Kit Marlowe` commits outside pull requests, and `kmarlowe` merges pull requests whose commits are all
    Kit Marlowe's: one player, named by the login (a guess, in the corrections file). A login whose branches hold
    another's commits, or whose name reads otherwise, keeps its own."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2021-01-01T12:00:00", author="Keeper")
    text = amended(RULES, "half the players", "a third of the players")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-b", "third"], check=True)
    git_commit(repo, "quorum", {"rules.md": text}, date="2021-01-02T12:00:00", author="Kit Marlowe")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "merge", "-q", "--no-ff", "-m", "Merge pull request #2 from kmarlowe/third",
                    "-m", "Proposal 301: a lower quorum", "third"], check=True,
                   env={"GIT_COMMITTER_DATE": "2021-01-02T13:00:00", "GIT_AUTHOR_DATE": "2021-01-02T13:00:00",
                        "GIT_AUTHOR_NAME": "Keeper", "GIT_AUTHOR_EMAIL": "k@example.org",
                        "GIT_COMMITTER_NAME": "Keeper", "GIT_COMMITTER_EMAIL": "k@example.org",
                        "PATH": "/usr/bin:/bin"})
    text += "\n##302 - Tea\n\nTea is served at four.\n"
    git_commit(repo, "Proposal 302: tea", {"rules.md": text}, date="2021-01-03T12:00:00", author="Kit Marlowe")
    text = amended(text, "at four", "at five")
    merge_pull_request(repo, 4, "cy", "later", "Proposal 303: later tea", [("later", {"rules.md": text})],
                       "2021-01-04T12:00:00")  # (its commits by "Cy")
    git_commit(repo, "Proposal 304: no tea", {"rules.md": RULES}, date="2021-01-05T12:00:00", author="Cyril Jones")
    files, log, _ = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposer: kmarlowe\n" in log["Proposal 301: a lower quorum"]
    assert "Proposer: kmarlowe\n" in log["Proposal 302: tea"]
    assert re.search(r"player Kit Marlowe = kmarlowe +# guessed: the commits of kmarlowe's pull requests \(as "
                     r"commit", files["corrections.txt"])
    assert "Proposer: cy\n" in log["Proposal 303: later tea"]  # (its branch by Cy, not Cyril Jones)
    assert "Proposer: Cyril Jones\n" in log["Proposal 304: no tea"]


def _pull_request_by(repo, number: int, source: str, title: str, commits: list[tuple[str, str, str]], text: str,
                     date: str) -> None:
    """A pull request `from source` (OWNER/branch) whose own commits are `commits` (author, address, message), the
    last leaving the rules as `text`; merged by the keeper."""
    branch = source.split("/", 1)[1]
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-b", branch], check=True)
    for n, (author, email, message) in enumerate(commits, 1):
        (repo / "rules.md").write_text(text if n == len(commits) else text + "\n" * n, encoding="utf-8")
        subprocess.run(["git", "-C", str(repo), "commit", "-q", "-am", message], check=True,
                       env={"GIT_AUTHOR_NAME": author, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": author,
                            "GIT_COMMITTER_EMAIL": email, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date,
                            "PATH": "/usr/bin:/bin"})
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "merge", "-q", "--no-ff", "-m", f"Merge pull request #{number} from "
                    f"{source}", "-m", title, branch], check=True,
                   env={"GIT_AUTHOR_NAME": "Keeper", "GIT_AUTHOR_EMAIL": "k@example.org", "GIT_COMMITTER_NAME":
                        "Keeper", "GIT_COMMITTER_EMAIL": "k@example.org", "GIT_AUTHOR_DATE": date,
                        "GIT_COMMITTER_DATE": date, "PATH": "/usr/bin:/bin"})


def test_a_pull_request_from_the_repositorys_own_branch_is_its_commits_authors(tmp_path, capsys) -> None:
    """GitHub names a branch pushed to the game's own repository `from OWNER/branch`, whoever opened the request:
    where an owner's requests come from several people's branches, none under a name that reads as the owner,
    each is its branch's author's (a guess, said; also where one person's commits bear a login their address
    names, `BoL` for Bo Lind signing as `BoL@users.noreply.github.com`). A branch two people wrote keeps the owner; a
    person's own fork (`kmarlowe/...`), and a branch signed with the owner's own address, keep the login."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2021-01-01T12:00:00", author="Keeper")
    text = RULES + "\n##301 - Tea\n\nTea is served at four.\n"
    _pull_request_by(repo, 2, "ourgame/tea", "Proposal 301: tea", [("Kit Marlowe", "kit@example.org", "tea")],
                     text, "2021-01-02T12:00:00")
    text = amended(text, "half the players", "a third of the players")
    _pull_request_by(repo, 3, "ourgame/quorum", "Proposal 302: quorum",
                     [("BoL", "bo@example.org", "draft"), ("Bo Lind", "BoL@users.noreply.github.com", "quorum")],
                     text, "2021-01-03T12:00:00")
    text = amended(text, "at four", "at five")
    _pull_request_by(repo, 4, "ourgame/later", "Proposal 303: later",
                     [("Kit Marlowe", "kit@example.org", "later"), ("Bo Lind", "bo@example.org", "agreed")],
                     text, "2021-01-04T12:00:00")
    text = amended(text, "at five", "at six")
    _pull_request_by(repo, 5, "kmarlowe/six", "Proposal 304: six", [("Cy", "cy@example.org", "six")],
                     text, "2021-01-05T12:00:00")
    text = amended(text, "at six", "at seven")
    _pull_request_by(repo, 6, "ourgame/seven", "Proposal 305: seven", [("BoL", "bo@example.org", "seven")],
                     text, "2021-01-06T12:00:00")
    text = amended(text, "at seven", "at eight")
    _pull_request_by(repo, 7, "ourgame/eight", "Proposal 306: eight", [("Ann Owen", "OurGame@example.org", "eight")],
                     text, "2021-01-07T12:00:00")  # (signed with the owner's own address: the owner's request)
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposer: ourgame\n" in log["Proposal 306: eight"]
    assert "Proposer: Kit Marlowe\n" in log["Proposal 301: tea"]
    # (Bo Lind signs as GitHub's address for BoL, a name of the record: one player, written as the login)
    assert "Proposer: BoL\n" in log["Proposal 302: quorum"] and "Proposer: BoL\n" in log["Proposal 305: seven"]
    assert re.search(r"player Bo Lind = BoL +# guessed: Bo Lind signs commits as BoL@users.noreply.github.com, "
                     r"GitHub's address for BoL", files["corrections.txt"])
    assert "Proposer: ourgame\n" in log["Proposal 303: later"]
    assert "Proposer: kmarlowe\n" in log["Proposal 304: six"]
    guess = "the proposer is the author of its branch's commits (ourgame's pull requests come from several " \
        "people's branches)"
    assert f"guessed for 3 commits ({short(repo, 'HEAD~5')}, {short(repo, 'HEAD~4')}, {short(repo, 'HEAD~1')}): " \
        f"{guess}" in said
    assert re.search(rf"commit {short(repo, 'HEAD~4')} proposal 302 by BoL +# .*guessed: {re.escape(guess)}",
                     files["corrections.txt"])


def test_a_keepers_pull_is_read_as_the_pull_requests_it_brought(tmp_path, capsys) -> None:
    """The keeper's own line runs through `git pull`s (`Merge branch 'main' of github.com:o/game`), the pull requests
    merged on GitHub's line behind them: each pull request is read as its own proposal, where the keeper's side
    changed no rule, not the pull as one change by whoever made the last of them."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2021-01-01T12:00:00", author="Keeper")
    run = lambda *args: subprocess.run(["git", "-C", str(repo), *args], check=True,  # noqa: E731
                                       env={"GIT_AUTHOR_NAME": "Keeper", "GIT_AUTHOR_EMAIL": "k@example.org",
                                            "GIT_COMMITTER_NAME": "Keeper", "GIT_COMMITTER_EMAIL": "k@example.org",
                                            "GIT_AUTHOR_DATE": "2021-01-05T12:00:00",
                                            "GIT_COMMITTER_DATE": "2021-01-05T12:00:00", "PATH": "/usr/bin:/bin"})
    run("checkout", "-q", "-b", "hub")  # (GitHub's line)
    text = RULES + "\n##301 - Tea\n\nTea is served at four.\n"
    merge_pull_request(repo, 2, "kit", "tea", "Proposal 301: tea", [("tea", {"rules.md": text})],
                       "2021-01-02T12:00:00")
    run("checkout", "-q", "hub")
    run("merge", "-q", "--ff-only", "main")
    text = amended(text, "at four", "at five")
    merge_pull_request(repo, 3, "bo", "five", "Proposal 302: five", [("five", {"rules.md": text})],
                       "2021-01-03T12:00:00")
    run("checkout", "-q", "hub")
    run("merge", "-q", "--ff-only", "main")
    run("checkout", "-q", "main")
    run("reset", "-q", "--hard", "HEAD~2")  # (the keeper's line, before the pull)
    git_commit(repo, "Scores", {"scores.md": "Kit 1\n"}, date="2021-01-04T12:00:00", author="Keeper")
    run("merge", "-q", "--no-ff", "-m", "Merge branch 'main' of github.com:o/game", "hub")
    files, log, _ = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301: tea", "Proposal 302: five"]
    assert "Proposer: kit\nDate: 2021-01-02\n" in log["Proposal 301: tea"]
    assert "Proposer: bo\nDate: 2021-01-03\n" in log["Proposal 302: five"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_rules_unreadable_to_the_end_are_said_to_end_the_game(tmp_path, capsys) -> None:
    """A rules file that cannot be read from some commit on (a rule with no text): the game is read up to the
    commit before, and IMPORT.md says so, not that a next readable commit carries the changes."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2021-01-01T12:00:00", author="Keeper")
    text = RULES + "\n##301 - Tea\n\nTea is served at four.\n"
    git_commit(repo, "Proposal 301: tea", {"rules.md": text}, date="2021-01-02T12:00:00", author="Kit")
    broken = "Our rules were lost.\n"
    unread = git_commit(repo, "Proposal 302: oops", {"rules.md": broken}, date="2021-01-03T12:00:00", author="Bo")
    git_commit(repo, "Proposal 303: still lost", {"rules.md": broken + "Really.\n"}, date="2021-01-04T12:00:00",
               author="Bo")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 1, said
    assert f"rules.md at {unread[:10]}" in said and "not read, nor any later commit's rules: the game is read up " \
        "to the commit before the first of them" in said
    assert "the next readable commit" not in said
    assert f"The import ends early: the rules could not be read at commit {unread[:10]} (2021-01-03, Proposal 302: " \
        "oops), nor at the 1 later commit that changed them" in files["IMPORT.md"]
    assert list(entries(files["log.md"])) == ["Proposal 301: tea"]


def test_a_rule_given_a_number_another_holds_is_read_under_its_own(tmp_path, capsys) -> None:
    """A player writes a new rule under the number of one in force (two rules 109): the one like the rule read under
    109 before keeps it, wherever it stands in the file; the new one is read under a number no rule holds, at the
    end too (a guess, said, in the corrections file as `rule 109 twice at COMMIT as N`), and keeps it while the file
    repeats the number. The keeper's line gives it another; a number a rule holds is refused."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n## 108: Tea\nTea at four.\n\n## 109: Cake\nCake on Sundays.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    text = text.replace("## 108: Tea", "## 109: Scones\nScones for all.\n\n## 108: Tea")
    twice = git_commit(repo, "Proposal 3: scones", {"rules.md": text}, date="2021-01-02T12:00:00", author="Kit")
    text = text.replace("Scones for all.", "Scones for all, with jam.")
    git_commit(repo, "Proposal 4: jam", {"rules.md": text}, date="2021-01-03T12:00:00", author="Bo")
    text += "\n## 110: Biscuits\nBiscuits on Mondays.\n"
    git_commit(repo, "Proposal 5: biscuits", {"rules.md": text}, date="2021-01-04T12:00:00", author="Cy")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    log = entries(files["log.md"])
    assert "Enact rule 111: Scones" in log["Proposal 3: scones"]
    assert "Amend rule 111 to read:" in log["Proposal 4: jam"] and "109" not in log["Proposal 4: jam"]
    assert "Enact rule 110: Biscuits" in log["Proposal 5: biscuits"]
    guess = f"rules.md at {twice[:10]}: guessed: rule 109 is written twice (lines 3 and 9): the one new at this " \
        "commit ('Scones') is read as rule 111, a number no rule holds (the corrections line `rule 109 twice at " \
        f"{twice[:10]} as N` gives it another)"
    assert guess in said
    assert re.search(rf"^rule 109 twice at {twice[:10]} as 111 +# guessed: ", files["corrections.txt"], re.MULTILINE)
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(f"rule 109 twice at {twice[:10]} as 107\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections", str(corrections),
                                 out="game-2")
    assert code == 0, said
    assert "Enact rule 107: Scones" in entries(files["log.md"])["Proposal 3: scones"]
    assert f"corrections.txt:1: rule 109 twice at {twice[:10]} as 107 (the import read: as 111)" in said
    first = short(repo, "HEAD~3")
    for line, refused in [(f"rule 109 twice at {twice[:10]} as 108", f"rule 109 twice at {twice[:10]} as 108: the "
                           f"rules at commit {twice[:10]} hold a rule 108: give it a number no rule holds"),
                          (f"rule 109 twice at {first} as 107", f"rule 109 twice at {first}: the rules read do not "
                           "first number two rules 109 at that commit")]:
        corrections.write_text(line + "\n", encoding="utf-8")
        code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections",
                                     str(corrections), out="game-3")
        assert code == 2 and files == {}
        assert f"corrections.txt:1: {refused}" in said


def test_a_rule_written_twice_word_for_word_is_read_once(tmp_path, capsys) -> None:
    """A rule pasted twice (the same number, title and text) is one rule: read once, and said once."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n## 108: Tea\nTea at four.\n\n## 109: Cake\nCake on Sundays.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    text += "\n## 110: Jam\nJam with scones.\n\n## 109: Cake\nCake on Sundays.\n"
    pasted = git_commit(repo, "Proposal 110: jam", {"rules.md": text}, date="2021-01-02T12:00:00", author="Kit")
    git_commit(repo, "Proposal 111: more jam", {"rules.md": text.replace("with scones", "with all")},
               date="2021-01-03T12:00:00", author="Kit")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 1, said
    assert said.count("is written twice") == 1
    assert f"rules.md at {pasted[:10]}, line 12: rule 109 is written twice, word for word: read once" in said
    log = entries(files["log.md"])
    assert "Enact rule 110: Jam" in log["Proposal 110: jam"] and "109" not in log["Proposal 110: jam"]
    assert "Amend rule 110 to read:" in log["Proposal 111: more jam"]


def test_a_rule_numbered_below_the_proposals_before_it_numbers_no_proposal(tmp_path, capsys) -> None:
    """Proposals numbered from 301 made rules 301 and 302; then a new constitution makes a rule 103: no proposal
    is numbered 103 after 301 and 302 were carried out, so it is the next in sequence (a guess)."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n**101.** Play fair.\n\n**102.** Vote often.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    for number, day in ((301, 2), (302, 3)):
        text += f"\n**{number}.** Rule of day {day}.\n"
        git_commit(repo, f"Day {day}", {"rules.md": text}, date=f"2021-01-0{day}T12:00:00", author="Kit")
    text = text.replace("**102.** Vote often.\n", "**102.** Vote often.\n\n**103.** A new constitution.\n")
    git_commit(repo, "A new constitution", {"rules.md": text}, date="2021-01-04T12:00:00", author="Bo")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301: Day 2", "Proposal 302: Day 3", "Proposal 303: A new constitution"]
    assert "Enact rule 103" in log["Proposal 303: A new constitution"]
    assert re.search(r"commit \S+ proposal 303 by Bo +# guessed: no record numbers it: numbered 303, next in "
                     "sequence", files["corrections.txt"])


def test_a_rule_enacted_under_a_topic_stands_under_it(tmp_path, capsys) -> None:
    """The rules file arranges its rules under topics (`# Voting`): game.toml's sections are the last file's, so
    that a rule enacted later stands under its topic, not among "other rules"."""
    repo = tmp_path / "repo"
    text = "# Voting\n\n## 1 - Majority\nMost votes win.\n\n# Play\n\n## 2 - Turns\nTake turns.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00")
    text = text.replace("Most votes win.\n", "Most votes win.\n\n## 3 - Ties\nA die breaks ties.\n")
    git_commit(repo, "Proposal 3: ties", {"rules.md": text}, date="2021-01-02T12:00:00", author="Bea")
    files, log, _ = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "# Voting\n\n## Rules\n\n### 1. Majority" in files["rules.md"]
    assert '[[sections]]\ntitle = "Voting"\nrules = [1, 3]\n\n[[sections]]\ntitle = "Play"\nrules = [2]\n' \
        in files["game.toml"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_rules_file_that_stops_marking_classes_transmutes_its_immutable_rules(tmp_path, capsys) -> None:
    """A new constitution drops the file's class headings and amends the immutable rules: from then on the game
    amends and repeals them as mutable ones. The format has no class "not recorded" to turn a recorded one into,
    so they are read as transmuted to mutable (a guess, said with the corrections line that keeps one immutable)."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n## Immutable Rules\n\n**101.** Play fair.\n\n## Mutable Rules\n\n**201.** Vote often.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    text = "# Rules\n\n**101.** Play well.\n\n**201.** Vote often.\n"
    git_commit(repo, "Proposal 301: a new constitution", {"rules.md": text}, date="2021-01-02T12:00:00",
               author="Bo")
    git_commit(repo, "Proposal 302: no more votes", {"rules.md": "# Rules\n\n**101.** Play well.\n"},
               date="2021-01-03T12:00:00", author="Bo")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    constitution = log["Proposal 301: a new constitution"]
    assert "Transmute rule 101 to mutable.\n\nAmend rule 101 to read:" in constitution
    assert "201" not in constitution  # (a mutable rule is no immutable one to transmute)
    guess = "the rules file marks no rule's class from it on: rule 101, immutable before, read as transmuted to " \
            "mutable by it"
    assert guess in said and guess in files["corrections.txt"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
    corrections = tmp_path / "corrections.txt"  # the keeper's word: rule 101 stayed immutable
    corrections.write_text(files["corrections.txt"] + "rule 101 immutable\n", encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--corrections", str(corrections),
                                 out="corrected")
    assert code == 0, said
    assert "Transmute" not in files["log.md"]
    code, report = check(capsys, tmp_path / "corrected")
    assert code == 1 and "proposal 301: rule 101 is immutable: it must be transmuted before it is amended" in report


def test_a_bots_title_names_its_proposal_and_proposer_and_a_title_numbers_it_over_its_branch(tmp_path, capsys):
    """A game's pull requests come from branches of its own repository: one opened as `302-dice` was merged as
    "303 Dice" (the game's rules number a proposal in its title, the branch's name a slip); a bot merges others as
    "Resolving Proposal for @kmarlowe", naming no number (the next in sequence) but its proposer, whose commits
    are signed kmarlowe@example.org: one person."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n**301.** Play fair.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    text += "\n**302.** Ties go to the older proposal.\n"
    merge_pull_request(repo, 1, "ourgame", "302-ties", "302 Ties", [("Ties", {"rules.md": text})],
                       "2021-01-02T12:00:00", author="Bo Dee")
    text += "\n**303.** A die decides.\n"
    merge_pull_request(repo, 2, "ourgame", "302-dice", "303 Dice", [("Dice", {"rules.md": text})],
                       "2021-01-03T12:00:00", author="Kit Marlowe", email="kmarlowe@example.org")
    text = text.replace("**301.** Play fair.\n", "")
    merge_pull_request(repo, 3, "ourgame", "no-fairness", "Resolving Proposal for @kmarlowe",
                       [("No fairness", {"rules.md": text})], "2021-01-04T12:00:00", merger="Bot",
                       author="Kit Marlowe", email="kmarlowe@example.org")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 302: Ties", "Proposal 303: Dice",
                         "Proposal 304: Resolving Proposal for @kmarlowe"]
    assert "Enact rule 303" in log["Proposal 303: Dice"]
    assert "its title '303 Dice' (its branch's name '302-dice' says 302)" in files["corrections.txt"]
    assert "Proposer: kmarlowe\n" in log["Proposal 303: Dice"]
    assert "Proposer: kmarlowe\n" in log["Proposal 304: Resolving Proposal for @kmarlowe"]
    assert "Repeal rule 301." in log["Proposal 304: Resolving Proposal for @kmarlowe"]
    assert "player Kit Marlowe = kmarlowe" in files["corrections.txt"]
    assert "Kit Marlowe signs commits as kmarlowe@example.org, an address named as kmarlowe" in files["corrections.txt"]


def test_rules_changed_directly_before_a_game_played_by_pull_requests_say_where_it_may_begin(tmp_path, capsys):
    """A keeper wrote a template's rules over several commits; years later others played it by pull requests. The
    import says where the game may have begun, and the --from that starts it there; it takes nothing itself."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n**101.** Play fair.\n"
    git_commit(repo, "Update rules.md", {"rules.md": text}, date="2016-01-01T12:00:00", author="Scribe")
    for day in (2, 3):
        text += f"\n**10{day}.** Rule of day {day}.\n"
        git_commit(repo, "Update rules.md", {"rules.md": text}, date=f"2016-01-0{day}T12:00:00", author="Scribe")
    template = short(repo)
    for number, (owner, day) in enumerate((("bo", 4), ("cy", 5)), 1):
        text += f"\n**11{number}.** {owner}'s rule.\n"
        merge_pull_request(repo, number, "keeper", f"{owner}-patch-1", f"Rule {owner}",
                           [("Update rules.md", {"rules.md": text})], f"2024-06-0{day}T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    hint = f"before a pull request first did at `{short(repo, 'HEAD~1')}` (2024-06-04); pull requests made 2 of " \
           f"the 2 changes since. If the game began there, its rules then the starting rules, import it with " \
           f"`--from {template}`."
    assert hint in files["IMPORT.md"]
    assert f"import it with --from {template}." in said
    assert "Proposal 102" in log and "Proposal 103" in log  # (said, not taken: the template's changes stay)
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--from", template, out="from")
    assert code == 0, said
    assert "import it with" not in files["IMPORT.md"] and "Proposal 102" not in files["log.md"]


def test_topics_the_rules_file_rearranged_are_sections_over_time(tmp_path, capsys) -> None:
    """The rules file moved rule 2 from `# Play` to a new topic `# Turns` one day: game.toml's sections keep both
    arrangements, each table with the days it held, so that the rules of a day are arranged as the file was; a
    rule enacted or repealed under a topic leaves its table as it is (the report prints the rules then in force)."""
    repo = tmp_path / "repo"
    text = "# Voting\n\n## 1 - Majority\nMost votes win.\n\n# Play\n\n## 2 - Turns\nTake turns.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00")
    text = text.replace("Most votes win.\n", "Most votes win.\n\n## 3 - Ties\nA die breaks ties.\n")
    git_commit(repo, "Proposal 3: ties", {"rules.md": text}, date="2021-01-02T12:00:00", author="Bea")
    text = text.replace("# Play\n", "# Turns\n")
    git_commit(repo, "Proposal 4: a topic of its own", {"rules.md": text.replace("## 3 - Ties\nA die breaks ties.\n\n",
                                                                               "")},
               date="2021-01-03T12:00:00", author="Bea")
    files, log, _ = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert '[[sections]]\ntitle = "Voting"\nrules = [1, 3]\n\n' in files["game.toml"]
    assert '[[sections]]\ntitle = "Play"\nrules = [2]\nuntil = 2021-01-03\n\n' \
           '[[sections]]\ntitle = "Turns"\nrules = [2]\nfrom = 2021-01-03\n' in files["game.toml"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
    for day, topic in (("2021-01-02", "Play"), ("2021-01-03", "Turns")):
        assert main(["ruleset", f"{tmp_path / 'game'}@{day}"]) == 0
        assert topic in capsys.readouterr().out


def test_a_number_written_below_every_proposal_before_it_is_read_as_its_digits_slipped(tmp_path, capsys):
    """Titles number proposals 301 to 315; one says 134, below all of them: in another order its digits make 314,
    the one number among the game's that no commit names (143, 341, 413 and 431 are outside them): read so, a
    guess, said."""
    repo = tmp_path / "repo"
    text = "# Rules\n\n**101.** Play fair.\n"
    git_commit(repo, "Initial rules", {"rules.md": text}, date="2021-01-01T12:00:00", author="Keeper")
    for day, number in enumerate((301, 302, 134, 305, 315), 2):
        text += f"\n**{day}0{day}.** Rule of day {day}.\n"
        git_commit(repo, f"Proposal {number}: day {day}", {"rules.md": text}, date=f"2021-01-0{day}T12:00:00",
                   author="Kit")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposal 314: day 4" in log and "Proposal 134: day 4" not in log
    guess = "its number is written 134, below every proposal carried out before it (301 on): read as 314, its " \
            "digits in another order, the one number between 301 and 315 that no commit names"
    assert guess in said and guess in files["corrections.txt"]
    assert list(log) == ["Proposal 301: day 2", "Proposal 302: day 3", "Unrecorded: 303-304, 306-313",
                         "Proposal 314: day 4", "Proposal 305: day 5", "Proposal 315: day 6"]


def test_a_commit_that_says_it_corrects_typos_and_changes_a_few_words_is_a_cleaning(tmp_path, capsys) -> None:
    """The keeper's commit says it fixes typos and changes a word of an immutable rule: a cleaning (which may touch
    an immutable rule), a guess, said; one that says so but rewrites a rule is read as before (here the keeper's own
    change: the game names its proposals in their titles)."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": amended(RULES, "Everyone follows", "Everyone folows")},
               date="2021-01-01T12:00:00", author="Keeper")
    text = amended(RULES, "Everyone follows", "Everyone folows")
    git_commit(repo, "Proposal 301: quorum", {"rules.md": amended(text, "half the", "a third of the")},
               date="2021-01-02T12:00:00", author="Bo")
    git_commit(repo, "Tidy the rules\n\n- Fix a typo in rule 101", {"rules.md": amended(
        RULES, "half the", "a third of the")}, date="2021-01-03T12:00:00", author="Keeper")
    git_commit(repo, "Fix typos", {"rules.md": amended(RULES, "Quorum is half the players.",
                                                         "Every vote needs all players present and awake.")},
               date="2021-01-04T12:00:00", author="Keeper")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "By: cleaning (Keeper)" in log["Event: Tidy the rules"]
    assert "its message says it corrects typo, and it changes a few words of each rule it amends: a cleaning" in said
    assert "By: Keeper, no proposal" in log["Event: Fix typos"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_a_rule_the_record_names_by_letters_keeps_its_name_when_enacted_later(tmp_path, capsys) -> None:
    """Rules known by letters (`K1`), one enacted by a later commit: rules.md gives the first its `Label:`, the
    enactment's record gives the second's, and the site shows each name beside the number made of it."""
    repo = tmp_path / "repo"
    constants = "# Constants\n\n## K1 - Pull requests only\nChanges come by pull request.\n"
    numbered = "\n# Rules\n\n## 1 - Formatting\nEach rule has a heading.\n\n## 2 - Numbering\nIn order.\n"
    git_commit(repo, "Initial rules", {"RULES.md": constants + numbered}, date="2020-01-01T12:00:00")
    git_commit(repo, "Proposal 3: be kind", {"RULES.md": constants + "\n## K2 - Be kind\nBe kind to each other.\n"
                                             + numbered}, date="2020-01-02T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "RULES.md")
    assert "### 991101. Pull requests only\nLabel: K1\n" in files["rules.md"]
    assert "Enact rule 991102: Be kind\n\n> Be kind to each other.\n\nLabel: K2\n" in log["Proposal 3: be kind"]
    assert main(["build", str(tmp_path / "game"), "-o", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "game" / "rules" / "991102.html").read_text(encoding="utf-8")
    assert "<h1>Rule 991102 (K2): Be kind</h1>" in page


def test_what_was_rewritten_in_the_rules_is_said_once_also_after_they_moved(tmp_path, capsys) -> None:
    """A keeper who moved a finished game's rules into a folder of their own (`rules.md` to `first/rules.md`) moved
    what the import rewrites in them too (a tag, written as its Markdown): said at the commit it came, not again at
    the move, though its line is another there."""
    repo = tmp_path / "repo"
    tagged = RULES + "\n##301 Mutable - Water\n\nWater is H<sub>2</sub>O.\n"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301: Water", {"rules.md": tagged})
    git_commit(repo, "Proposal 302: Notes", {"rules.md": "A note.\n\n" + tagged})
    (repo / "first").mkdir()
    subprocess.run(["git", "-C", str(repo), "mv", "rules.md", "first/rules.md"], check=True)
    git_commit(repo, "One folder for each game", {})
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "first/rules.md")
    assert code == 1, said
    assert said.count("HTML tags (<sub>)") == 1, said
    assert files["IMPORT.md"].count("HTML tags (\\<sub>)") == 1
    assert f"rules.md at {short(repo, 'HEAD~2')}, line 13: HTML tags (<sub>)" in said


def test_from_a_commit_before_the_rules_moved_reads_them_where_they_were(tmp_path, capsys) -> None:
    """--from a commit where the rules were still `rules.md`, named by where they are now, `rules/rules.md`: the
    history is read from there, following the move (the import's own hint names such a commit)."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    began = git_commit(repo, "A new game", {"rules.md": RULES.replace("half the players", "two players")})
    git_commit(repo, "Proposal 301: Water", {"rules.md": RULES.replace("half the players", "two players")
                                             + "\n##301 Mutable - Water\n\nWater is wet.\n"})
    (repo / "rules").mkdir()
    subprocess.run(["git", "-C", str(repo), "mv", "rules.md", "rules/rules.md"], check=True)
    git_commit(repo, "A folder for the rules", {})
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules/rules.md", "--from", began)
    assert code == 0, said
    assert "`nomic-archive import git` read `rules/rules.md` or `rules.md`" in files["IMPORT.md"]
    assert list(entries(files["log.md"])) == ["Proposal 301: Water"]


def test_a_pull_request_titled_as_its_branch_takes_its_commits_subject_for_a_title(tmp_path, capsys) -> None:
    """GitHub names a fork's branch `kit/game:master`, and a request left titled so has no title of its own: its
    proposal's title is its commit's subject, as where the merge commit holds no title at all."""
    repo = tmp_path / "repo"
    text = RULES + "\n##301 - Tea\n\nTea is served at noon.\n"
    git_commit(repo, "Initial Ruleset", {"rules.md": RULES}, date="2021-01-01T12:00:00")
    merge_pull_request(repo, 2, "kit", "master", "kit/game:master", [("Points for tea", {"rules.md": text})],
                       "2021-01-02T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301: Points for tea"]
    assert "Proposer: kit" in log["Proposal 301: Points for tea"]


def test_a_change_before_the_first_proposal_the_rules_number_is_the_keepers_own(tmp_path, capsys) -> None:
    """The rules say the proposals' numbers begin with 301, and proposal 301 is the first the record names: a
    commit before it that names no proposal (the keeper tidying the starting rules) is no proposal, where counting
    back from 301 would give it 300, a number the game never gave."""
    repo = tmp_path / "repo"
    rules = RULES + "\n##102 Immutable - Numbers\n\nEach proposal gets a number. The numbers shall begin with 301.\n"
    git_commit(repo, "Start", {"rules.md": rules})
    rules = amended(rules, "half the players", "half of the players")
    git_commit(repo, "201 tweak", {"rules.md": rules}, author="Lee")
    git_commit(repo, "Proposal 301", {"rules.md": rules + "\n##301 Mutable - Dice\n\nA die has six sides.\n"})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Event: 201 tweak", "Proposal 301"]
    assert "By: Lee, no proposal" in log["Event: 201 tweak"]
    assert "comes before proposal 301, the first the rules number (rule 102)" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_rules_kept_as_a_program_are_refused(tmp_path, capsys) -> None:
    """A game played by changing a program (`--rules game.py`, its rules comments over code): no rules in words to
    read, and the import says so, exit 2, writing nothing, rather than reading its comments as rules."""
    repo = tmp_path / "repo"
    program = "# 201. Players take turns in the order of their names\ndef next_player(players):\n    return 0\n"
    git_commit(repo, "Start", {"game.py": program})
    git_commit(repo, "Turns", {"game.py": program.replace("return 0", "return 1")})
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "game.py")
    assert code == 2 and files == {}
    assert f"game.py at commit {short(repo)} is not text (a program's source, a picture, data)" in said


def test_a_keepers_commit_saying_the_previous_was_another_proposal_is_believed(tmp_path, capsys) -> None:
    """A keeper titled a commit `Proposal 303` that carried out proposal 302, then said so in the next commit
    (`Previous proposal was proposal 302`), which puts the rule's number right: the first is proposal 302, the
    second a cleaning, and the later `Proposal 303` is proposal 303, not a second carrying out of it."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    rules = RULES + "\n##301 Mutable - Dice\n\nA die has six sides.\n"
    git_commit(repo, "Proposal 301", {"rules.md": rules})
    git_commit(repo, "Proposal 303", {"rules.md": rules + "\n##303 Mutable - Coins\n\nA coin has two sides.\n"})
    rules += "\n##302 Mutable - Coins\n\nA coin has two sides.\n"
    git_commit(repo, "Previous proposal was proposal 302", {"rules.md": rules})
    git_commit(repo, "Proposal 303", {"rules.md": amended(rules, "six sides", "eight sides")})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Proposal 302", "Event: Previous proposal was proposal 302", "Proposal 303"]
    assert "Enact rule 303" in log["Proposal 302"]
    assert "By: cleaning (Ann)" in log["Event: Previous proposal was proposal 302"]
    assert "Renumber rule 303 to 302." in log["Event: Previous proposal was proposal 302"]
    assert "Amend rule 301" in log["Proposal 303"]
    assert f"commit {short(repo, 'HEAD~2')} proposal 302 by Ann" in files["corrections.txt"]
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


def test_two_players_pull_requests_naming_one_proposal_are_said(tmp_path, capsys) -> None:
    """Two players each took the next number at once: two pull requests titled `302: ...`. The later is read as an
    event by the first's proposal, as a second commit carrying a proposal out is, and the import says that it may
    be another proposal, which only the keeper can number (a corrections line)."""
    repo = tmp_path / "repo"
    text = RULES
    git_commit(repo, "Initial Ruleset", {"rules.md": text}, date="2021-01-01T12:00:00")
    text = amended(text, "half the players", "a third of the players")
    merge_pull_request(repo, 4, "kit", "quorum", "302: Lower the quorum", [("quorum", {"rules.md": text})],
                       "2021-01-02T12:00:00")
    text += "\n##303 - Dice\n\nA die has six sides.\n"
    merge_pull_request(repo, 5, "kit", "dice", "303: Dice", [("dice", {"rules.md": text})], "2021-01-03T12:00:00")
    text += "\n##302 - Tea\n\nTea is served at noon.\n"
    merge_pull_request(repo, 6, "mo", "tea", "302: Tea", [("tea", {"rules.md": text})], "2021-01-04T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 302: Lower the quorum", "Proposal 303: Dice", "Event: Tea"]
    guess = "two players' pull requests name proposal 302 (#4, then this one, #6): read as an event by the first's"
    assert guess in said and guess in files["corrections.txt"]


def test_a_commit_changing_an_immutable_rule_untransmuted_is_named_as_a_possible_new_start(tmp_path, capsys) -> None:
    """A class's keeper set the rules anew for a new semester, amending immutable rule 101 outright, which no
    proposal may: the import says where, and the `--from` that imports the semester from there; it takes nothing
    itself (check finds the amendment)."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES}, date="2023-09-01T12:00:00")
    rules = RULES + "\n##301 Mutable - Dice\n\nA die has six sides.\n"
    git_commit(repo, "Proposal 301", {"rules.md": rules}, date="2023-09-08T12:00:00")
    git_commit(repo, "Fix base_rules for the semester", {"rules.md": amended(rules, "Everyone follows", "Every student "
                                                                     "follows")}, date="2024-08-25T12:00:00")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    start = short(repo)
    hint = ("(2024-08-25, Fix base_rules for the semester) changes immutable rule 101 without transmuting it, as "
            "no change made in play may: if the keeper set the rules anew there (a new round, a semester), import "
            "the game from it with")
    assert f"Commit {start} {hint} --from {start}." in said
    assert f"Commit `{start}` {hint} `--from {start}`." in files["IMPORT.md"]
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--from", start, out="semester")
    assert code == 0 and "rules anew" not in said


def test_a_login_whose_several_pull_requests_are_all_one_persons_names_that_person(tmp_path, capsys) -> None:
    """`oakleaf`'s three pull requests hold commits by `Rowan Hart` alone, who also commits to the game directly:
    one player, though the login reads nothing like the name (a guess, in the corrections file)."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2021-01-01T12:00:00", author="Rowan Hart")
    text = RULES
    for number, day in ((301, 2), (302, 3), (303, 4)):
        text += f"\n##{number} - Rule {number}\n\nThe {number}th rule holds.\n"
        merge_pull_request(repo, number - 299, "oakleaf", f"r{number}", f"{number}: Rule {number}",
                           [(f"r{number}", {"rules.md": text})], f"2021-01-0{day}T12:00:00", author="Rowan Hart")
    text += "\n##304 - Rule 304\n\nThe 304th rule holds.\n"
    git_commit(repo, "Proposal 304", {"rules.md": text}, date="2021-01-05T12:00:00", author="Rowan Hart")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Proposer: oakleaf\n" in log["Proposal 304"]
    assert "player Rowan Hart = oakleaf" in files["corrections.txt"]
    assert "are by Rowan Hart, all 3 of them" in files["corrections.txt"]


def test_rules_renumbered_from_roman_numerals_to_below_zero_keep_their_history_and_labels(tmp_path, capsys) -> None:
    """A game's starting rules numbered in Roman numerals, then below zero (rmetzler/bliki's `Rule xviii.`, then
    `Rule -111.`): each commit reads, the rules renumbered with their new labels, the game consistent."""
    repo = tmp_path / "repo"
    roman = "# Game\n\n## Immutable Rules\n\n### Rule i.\n\nAll play.\n\n## Mutable Rules\n\n### Rule ii.\n\n" \
            "Turns go round:\n\n1. propose;\n2. vote.\n"
    git_commit(repo, "Start", {"rules.md": roman})
    git_commit(repo, "Negative numbers", {"rules.md": roman.replace("Rule i.", "Rule -201.").replace(
        "Rule ii.", "Rule -101.")}, date="2020-01-02T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "### 1\nLabel: i\n" in files["rules.md"] and "### 2\nLabel: ii\n" in files["rules.md"]
    entry = log["Proposal 1: Negative numbers"]
    assert "Renumber rule 1 to 999999799.\n\nLabel: -201\n" in entry
    assert "Renumber rule 2 to 999999899.\n\nLabel: -101\n" in entry
    assert "-201 = 999999799, -101 = 999999899" in said
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report
