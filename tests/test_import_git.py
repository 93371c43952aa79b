"""`nomic-archive import git`: small repositories built here, one commit per step of a game, in each layout a
git-kept game uses, and the game the import writes (its log, rules, game.toml and IMPORT.md)."""
from __future__ import annotations

import re
import subprocess

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


def imported(tmp_path, capsys, repo, *args: str) -> tuple[int, dict[str, str], str]:
    out = tmp_path / "game"
    code = main(["import", "git", str(repo), "-o", str(out), *args])
    captured = capsys.readouterr()
    files = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()} \
        if out.exists() else {}
    return code, files, captured.out + captured.err


def entries(log: str) -> dict[str, str]:
    """Each entry's heading -> its whole text."""
    parts = re.split(r"^## ", log, flags=re.MULTILINE)[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def check(capsys, folder) -> tuple[int, str]:
    code = main(["check", str(folder)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def small_game(tmp_path):
    """Three proposals, each a commit whose subject gives its number, by two players, one a merged branch."""
    repo = tmp_path / "repo"
    git_commit(repo, "Initial rules", {"rules.md": RULES, "README.md": "A game.\n"}, date="2020-06-01T10:00:00")
    text = amended(RULES, "half the players", "two thirds of the players")
    git_commit(repo, "Proposal 301: a higher quorum", {"rules.md": text}, date="2020-06-03T10:00:00", author="Bea")
    git_commit(repo, "Update README", {"README.md": "A game of ours.\n"}, date="2020-06-04T10:00:00")
    text += "\n##302 - Dice\n\nA die decides ties.\n"
    git_commit(repo, "Prop 302", {"rules.md": text}, date="2020-06-05T10:00:00")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-b", "branch"], check=True)
    text = amended(text, "##302 - Dice", "##302 - Dice and coins")
    git_commit(repo, "Rename the dice rule", {"rules.md": text}, date="2020-06-06T10:00:00", author="Cy")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Ann", "-c", "user.email=ann@example.org", "merge",
                    "-q", "--no-ff", "-m", "Merge pull request #303 from cy/branch", "branch"], check=True,
                   env={"GIT_COMMITTER_DATE": "2020-06-07T10:00:00", "GIT_AUTHOR_DATE": "2020-06-07T10:00:00",
                        "PATH": "/usr/bin:/bin"})
    return repo


def test_each_commit_that_changes_a_rule_is_a_proposal(tmp_path, capsys, small_game) -> None:
    code, files, said = imported(tmp_path, capsys, small_game, "--rules", "rules.md")
    assert code == 0, said
    assert sorted(files) == ["IMPORT.md", "game.toml", "log.md", "rules.md"]
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301: a higher quorum", "Proposal 302", "Proposal 303: Rename the dice rule"]
    first = log["Proposal 301: a higher quorum"]
    assert "Proposer: Bea\nDate: 2020-06-03\nResult: adopted\n" in first
    assert "Votes:" not in files["log.md"]  # ballots are unknown: no Votes line, never a guess
    assert "Amend rule 201 to read:\n\n> Quorum is two thirds of the players." in first
    assert "Enact rule 302: Dice\n\n> A die decides ties." in log["Proposal 302"]
    merged = log["Proposal 303: Rename the dice rule"]
    assert "Proposer: Cy\nDate: 2020-06-07\n" in merged  # the author of the merged branch, the merge's date
    assert 'Retitle rule 302 to "Dice and coins".' in merged
    assert "### 201. Quorum\nQuorum is half the players." in files["rules.md"]
    assert 'players = [\n  "Bea",\n  "Ann",\n  "Cy",\n]' in files["game.toml"]
    assert "start = 2020-06-01" in files["game.toml"]
    report = files["IMPORT.md"]
    assert "- Proposals: 3, one per commit that changed a rule (3 numbered as their subject says" in report
    assert "- Rule changes: 1 amend, 1 enact, 1 retitle." in report
    assert "- Unrecorded numbers: none." in report
    # It uses no format 1.2 syntax, so today's check reads it, and finds it consistent.
    code, report = check(capsys, tmp_path / "game")
    assert code == 0, report


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


def test_numbers_a_subject_does_not_give(tmp_path, capsys) -> None:
    """A typo'd subject takes the next number; a batch commit names its other numbers; a skipped number is
    Unrecorded; a number given twice is the second commit's only once."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    text = RULES + "\n##301 - One\n\nFirst new rule.\n"
    git_commit(repo, "Proposal 301", {"rules.md": text}, date="2020-01-02T12:00:00")
    text += "\n##302 - Two\n\nSecond new rule.\n"
    git_commit(repo, "Propsal 302 (typo)", {"rules.md": text}, date="2020-01-03T12:00:00")
    text += "\n##303 - Three\n\nThird.\n\n##304 - Four\n\nFourth.\n"
    git_commit(repo, "Proposals 303 and 304", {"rules.md": text}, date="2020-01-04T12:00:00")
    text += "\n##307 - Seven\n\nSeventh.\n"
    git_commit(repo, "P307", {"rules.md": text}, date="2020-01-05T12:00:00")
    text = amended(text, "Seventh.", "Seventh, amended.")
    git_commit(repo, "Proposal 307 again", {"rules.md": text}, date="2020-01-06T12:00:00")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 0, said
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301", "Proposal 302: Propsal 302 (typo)", "Proposal 303", "Unrecorded: 304",
                         "Unrecorded: 305-306", "Proposal 307", "Proposal 308: again"]
    assert "Enact rule 303: Three" in log["Proposal 303"] and "Enact rule 304: Four" in log["Proposal 303"]
    assert "Carried out in the same commit as proposal 303" in log["Unrecorded: 304"]
    assert "Note: The commit's subject says proposal 307, a number an earlier commit took; numbered 308." \
        in log["Proposal 308: again"]
    assert "- Unrecorded numbers: 305-306." in files["IMPORT.md"]
    assert "commit " in files["IMPORT.md"] and "subject says 307, taken earlier; numbered 308" in files["IMPORT.md"]


@needs_1_2
def test_a_game_with_gaps_checks_once_the_parser_reads_1_2(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 303", {"rules.md": RULES + "\n##303 - Three\n\nThird.\n"}, date="2020-01-02T12:00:00")
    assert imported(tmp_path, capsys, repo, "--rules", "rules.md")[0] == 0
    assert check(capsys, tmp_path / "game")[0] == 0


def test_same_day_enactment_and_repeal_and_an_unreadable_commit(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES}, date="2021-03-01T09:00:00")
    git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - Brief\n\nA brief rule.\n"},
               date="2021-03-02T09:00:00")
    git_commit(repo, "Oops, emptied the file", {"rules.md": "nothing here\n"}, date="2021-03-02T10:00:00")
    git_commit(repo, "Proposal 302", {"rules.md": RULES}, date="2021-03-02T11:00:00")
    emptied = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short=10", "HEAD~1"], capture_output=True,
                             text=True, check=True).stdout.strip()
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
    assert main(["check", str(tmp_path / "game")]) == 0


def test_a_folder_of_rule_files_with_front_matter(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    front = "---\nRULE: {n}\nType: {kind}\nStatus: {status}\n---\n\n# Rule\n\n{text}\n"
    git_commit(repo, "Initial Set", {
        "rules/rule101.md": front.format(n=101, kind="Immutable", status="Accepted", text="Follow the rules."),
        "rules/rule201.md": front.format(n=201, kind="Mutable", status="Accepted", text="Vote by majority."),
        "rules/rule301.md": front.format(n=301, kind="Mutable", status="Draft", text="A draft."),
        "rules/README.md": "How to add a rule.\n"}, date="2019-05-01T12:00:00")
    git_commit(repo, "Merge pull request #301 from bea/draft", {
        "rules/rule301.md": front.format(n=301, kind="Mutable", status="Accepted", text="A draft no longer."),
        "rules/rule201.md": front.format(n=201, kind="Immutable", status="Accepted", text="Vote by majority.")},
        date="2019-05-03T12:00:00", author="Bea")
    git_commit(repo, "Repeal the draft rule", {"rules/rule301.md": None}, date="2019-05-04T12:00:00")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules")
    assert code == 0, said
    log = entries(files["log.md"])
    assert list(log) == ["Proposal 301: Merge pull request #301 from bea/draft", "Proposal 302: Repeal the draft rule"]
    assert "Transmute rule 201 to immutable." in log["Proposal 301: Merge pull request #301 from bea/draft"]
    # (the file's `# Rule` heading is furniture, not text)
    assert "Enact rule 301\n\n> A draft no longer." in log["Proposal 301: Merge pull request #301 from bea/draft"]
    assert "Repeal rule 301." in log["Proposal 302: Repeal the draft rule"]
    assert "### 301" not in files["rules.md"]
    assert main(["check", str(tmp_path / "game")]) == 0


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
             (["--rules", "nowhere.md", str(small_game)], "no readable rules at nowhere.md")]
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
    assert "the following arguments are required: REPO, --rules" in capsys.readouterr().err


def test_the_same_clone_gives_the_same_files(tmp_path, capsys, small_game) -> None:
    first = imported(tmp_path / "a", capsys, small_game, "--rules", "rules.md")[1]
    second = imported(tmp_path / "b", capsys, small_game, "--rules", "rules.md")[1]
    assert first == second
