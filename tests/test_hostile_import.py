"""The history importers against records a hostile contributor wrote (issue 44): each input is small and made
here, and each import either refuses with exit 2 and writes nothing, or writes a game that `check` reads,
saying on standard error and in IMPORT.md what it could not take as it was."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from generator.cli import main
from helpers import git_commit
from test_import_agora import FIRST, index, records, rule_file  # noqa: F401 (records: a fixture)

RULES = "# Our rules\n\n##101 Immutable - Scope\n\nEveryone follows the rules in force.\n\n##201 Mutable - Quorum\n\n" \
        "Quorum is half the players.\n"


def run(capsys, *args: str) -> tuple[int, str]:
    code = main([*args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def program_that_leaves_a_mark(tmp_path: Path) -> tuple[Path, Path]:
    """A program that, if anything runs it, writes a file: (the program, the file it writes)."""
    mark = tmp_path / "it-ran"
    program = tmp_path / "program.sh"
    program.write_text(f"#!/bin/sh\ntouch '{mark}'\ncat\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program, mark


def sign_head(repo: Path) -> None:
    """Make HEAD a commit that carries a signature, as `git commit -S` makes (the signature need not verify)."""
    def git(*args: str, data: str | None = None) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, text=True,
                              check=True).stdout.strip()

    header, _, message = git("cat-file", "commit", "HEAD").partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    git("update-ref", "HEAD", git("hash-object", "-t", "commit", "-w", "--stdin",
                                  data=f"{header}\n{signature}\n\n{message}\n"))


def test_a_repository_config_that_would_run_a_program_runs_nothing(tmp_path, capsys) -> None:
    """Signature checks, a filesystem monitor, external diffs, text conversions and pagers, all set in the
    repository's own config to a program: the import runs none of them, and reads the game."""
    program, mark = program_that_leaves_a_mark(tmp_path)
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES, ".gitattributes": "* diff=conv\n"})
    git_commit(repo, "Proposal 301", {"rules.md": RULES.replace("half", "two thirds of")})
    sign_head(repo)
    for key in ("gpg.program", "gpg.ssh.program", "core.fsmonitor", "diff.external", "diff.conv.textconv",
                "core.pager", "pager.log", "pager.show", "core.hooksPath"):
        subprocess.run(["git", "-C", str(repo), "config", key, str(program)], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "log.showSignature", "true"], check=True)
    subprocess.run(["git", "-C", str(repo), "log", "-1"], capture_output=True, env={**os.environ, "PAGER": "cat"})
    assert mark.exists(), "the repository as built must run the program under a plain `git log`"
    mark.unlink()
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(tmp_path / "game"))
    assert code == 0, said
    assert not mark.exists()
    assert "## Proposal 301" in (tmp_path / "game" / "log.md").read_text(encoding="utf-8")


def test_the_callers_git_variables_do_not_redirect_git(tmp_path, capsys, monkeypatch) -> None:
    """GIT_DIR set by a hook that runs the import (as git sets it for hooks) must not make git read another
    repository than the one named."""
    repo, other = tmp_path / "repo", tmp_path / "other"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(other, "Start", {"elsewhere.md": "nothing\n"})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(tmp_path / "game"))
    assert code == 0, said


def yaml_bomb(key: str) -> str:
    """Ten aliases of ten aliases, nine deep: a billion strings in a few lines, the last one under `key`."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]" for n in range(1, 9)]
    return "\n".join(lines + [f"{key}: *l8"]) + "\n"


def test_a_yaml_bomb_in_a_rule_file_of_agora_refuses_the_import(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    commit = git_commit(ruleset, "Proposal 16", {"rules_data/rules/102": "id: 102\nname: Voting\n" + yaml_bomb("text")})
    out = tmp_path / "agora"
    code, said = run(capsys, "import", "agora", "--ruleset", str(ruleset), "--assessor", str(assessor), "-o", str(out))
    assert code == 2, said
    assert f"rules_data/rules/102 at {commit[:10]}, line 8: its aliases expand it past 4,194,304 characters (a YAML " \
           "bomb?): refused whole" in said
    assert "Traceback" not in said and not out.exists()


def test_a_yaml_bomb_in_front_matter_refuses_the_import(tmp_path, capsys) -> None:
    """In a git rules folder's front matter, and in `import rules/`: exit 2, naming the file."""
    repo = tmp_path / "repo"
    rule = "---\nrule: {n}\ntype: Mutable\n{extra}---\n\nThe text of rule {n}.\n"
    git_commit(repo, "Start", {"rules/201.md": rule.format(n=201, extra="")})
    commit = git_commit(repo, "Proposal 301", {"rules/301.md": rule.format(n=301, extra=yaml_bomb("status"))})
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules", "-o", str(out))
    assert code == 2, said
    assert f"rules/301.md at commit {commit[:10]}, line 9: front matter: its aliases expand it past 4,194,304 " \
           "characters" in said
    assert not out.exists()
    code, said = run(capsys, "import", str(repo / "rules"), "-o", str(tmp_path / "rules.md"))
    assert code == 2, said
    assert f"{repo / 'rules' / '301.md'}:9: front matter: its aliases expand it past 4,194,304 characters" in said
    assert not (tmp_path / "rules.md").exists()


@pytest.mark.parametrize(("front_matter", "message"), [
    ("a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n", "4: front matter: it holds more than 100 aliases"),
    ("a: " + "[" * 40 + "]" * 40 + "\n", "3: front matter: its values nest more than 32 deep"),
    ("a: &a [*a]\n", "3: front matter: the alias *a stands inside the value it names"),
    ("a: [\n" + " [\n" * 1_000_000, "34: front matter: its values nest more than 32 deep"),
], ids=["aliases", "nesting", "recursion", "a million brackets"])
def test_yaml_is_bounded_as_it_is_read(tmp_path, capsys, front_matter, message) -> None:
    """Each bound refuses the file at once (a million brackets take libyaml minutes to refuse on its own)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "101.md").write_text(f"---\nrule: 101\n{front_matter}---\n\nText.\n", encoding="utf-8")
    code, said = run(capsys, "import", str(rules))
    assert code == 2 and f"{rules / '101.md'}:{message} (a YAML bomb?): refused whole" in said, said


def small_game(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301", {"rules.md": RULES.replace("half", "two thirds of")})
    return repo


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def test_a_failed_write_leaves_nothing_and_a_retry_works(tmp_path, capsys, monkeypatch) -> None:
    import generator.commands.importer as command
    from generator.errors import ArchiveError, SourceError

    repo, out = small_game(tmp_path), tmp_path / "game"
    written = []

    def full_disk(path: Path, data: str) -> None:
        if written:
            raise ArchiveError([SourceError(str(path), 0, "cannot write: No space left on device")])
        written.append(path)
        original(path, data)

    original = command.write_atomic
    monkeypatch.setattr(command, "write_atomic", full_disk)
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 2 and "cannot write: No space left on device" in said, said
    assert not out.exists() and leftovers(tmp_path) == []
    monkeypatch.setattr(command, "write_atomic", original)
    out.mkdir()  # an empty folder is as good as none
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 0, said
    assert sorted(path.name for path in out.iterdir()) == ["IMPORT.md", "corrections.txt", "game.toml", "log.md",
                                                           "rules.md"]


DIES_AFTER_TWO_FILES = (
    "import os, signal, sys\n"
    "import generator.commands.importer as command\n"
    "original, written = command.write_atomic, []\n"
    "def dying(path, data):\n"
    "    original(path, data)\n"
    "    written.append(path)\n"
    "    if len(written) == 2:\n"
    "        os.kill(os.getpid(), signal.SIGKILL)\n"
    "command.write_atomic = dying\n"
    "from generator.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n")
ENVIRONMENT = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}


def killed_import(*args: str) -> None:
    """The command `args`, killed once it has written two files of the game (IMPORT.md and game.toml)."""
    killed = subprocess.run([sys.executable, "-c", DIES_AFTER_TWO_FILES, *args], env=ENVIRONMENT, capture_output=True)
    assert killed.returncode == -9


def test_an_import_killed_midway_leaves_no_game_and_the_next_one_cleans_up(tmp_path) -> None:
    repo, out = small_game(tmp_path), tmp_path / "game"
    args = ["import", "git", str(repo), "--rules", "rules.md", "-o", str(out)]
    killed_import(*args)
    assert not out.exists()
    assert len(leftovers(tmp_path)) == 1  # the staging folder, hidden beside -o
    done = subprocess.run([sys.executable, "-m", "generator", *args], env=ENVIRONMENT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (out / "log.md").is_file() and leftovers(tmp_path) == []


def test_what_a_killed_import_leaves_in_a_content_folder_is_no_game(tmp_path, capsys) -> None:
    """Its staging folder (`.NAME.building.PID.*`, with game.toml and IMPORT.md) waits for the next import to
    remove it; meanwhile `check` and `build` of the content folder read the games beside it, not it."""
    repo, content = small_game(tmp_path), tmp_path / "content"
    assert run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(content / "ours"))[0] == 0
    killed_import("import", "git", str(repo), "--rules", "rules.md", "-o", str(content / "theirs"))
    assert [path.name for path in content.iterdir() if path.name.startswith(".theirs.building.")]
    code, said = run(capsys, "check", str(content))
    assert code == 0 and ".building." not in said, said
    assert "ours" in said and "theirs" not in said


def test_a_game_check_would_refuse_is_not_written(tmp_path, capsys, monkeypatch) -> None:
    """The last guard: whatever an importer gets wrong, `check` reads the game before it is moved into place."""
    import generator.importers.git as importer

    monkeypatch.setattr(importer, "_game_toml", lambda *args: 'title = "x"\nplayers = ["A, B"]\n')
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(small_game(tmp_path)), "--rules", "rules.md", "-o", str(out))
    assert code == 2
    assert "game: the game imported would not pass check, so nothing was written: this is a bug in the importer" \
        in said
    assert "game/game.toml:2: " in said and ".building." not in said
    assert not out.exists() and leftovers(tmp_path) == []


def agora_import(tmp_path: Path, capsys, ruleset: Path, assessor: Path | None, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "agora"
    code, said = run(capsys, "import", "agora", "--ruleset", str(ruleset),
                     *(["--assessor", str(assessor)] if assessor else []), "-o", str(out), *args)
    assert "Traceback" not in said and "bug in nomic-archive" not in said, said
    return code, said, out


def test_a_repository_of_the_wrong_kind_is_refused(tmp_path, capsys, records) -> None:
    """The ruleset given as the Assessor's (it has a gh-pages branch too, but no json/), and the reverse."""
    ruleset, assessor = records
    subprocess.run(["git", "-C", str(ruleset), "branch", "gh-pages"], check=True)
    code, said, out = agora_import(tmp_path, capsys, ruleset, ruleset)
    assert code == 2 and "--assessor: is not a clone of AgoraNomic/assessor (its gh-pages branch holds the " \
        "Assessor's decisions in json/; this one has no such folder)" in said, said
    assert not out.exists()
    code, said, out = agora_import(tmp_path, capsys, assessor, None)
    assert code == 2 and "--ruleset: is not a clone of AgoraNomic/ruleset (no commit holds the Rulekeepor's index " \
        "of rules" in said, said
    assert not out.exists()


def test_nothing_readable_from_the_assessor_is_refused_with_each_problem(tmp_path, capsys, records) -> None:
    """A truncated file and resolutions that are not a list: no decision is left, which is not an import."""
    ruleset, assessor = records
    git_commit(assessor, "damaged", {"json/10-11.txt": '{"resolutions": [{"proposal": 10, ',
                                     "json/13-14.txt": '{"resolutions": {"proposal": 13}}',
                                     "json/14A-16.txt": None})
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 2, said
    assert "json/10-11.txt at " in said and ", line 1: not JSON: Expecting property name" in said
    assert "json/13-14.txt at " in said and ": holds no list of resolutions: none of its decisions is read" in said
    assert "--assessor: no decision could be read from the 2 files of json/ on gh-pages" in said
    assert not out.exists()


def test_a_damaged_rule_file_speaks_and_changes_nothing_it_cannot_read(tmp_path, capsys, records) -> None:
    """No text: no empty amendment by "unknown"; no power: the rule keeps its power, never a silent 1.0; each a
    line naming the file, the commit and what was written instead; exit 1."""
    ruleset, assessor = records
    no_text = git_commit(ruleset, "Proposal 16", {"rules_data/rules/102": "id: 102\nname: Voting\npower: 1\n"},
                         date="2020-03-20T12:00:00")
    no_power = git_commit(ruleset, "Proposal 16", {"rules_data/rules/101": "id: 101\nname: The Whole Game\n"
                                                   "text: |\n  A new text.\nhistory: []\n"}, date="2020-03-21T12:00:00")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    assert f"rules_data/rules/102 at {no_text[:10]}: no text: the rule is read as it was before" in said
    assert f"rules_data/rules/101 at {no_power[:10]}: no power: it keeps its power 2" in said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "Amend rule 102" not in log.split("## Proposal 16")[1]
    assert "Change the power of rule 101" not in log.split("## Proposal 16")[1]
    assert "Amend rule 101 to read:\n\n> ```\n> A new text.\n> ```" in log
    report = (out / "IMPORT.md").read_text(encoding="utf-8")
    assert f"rules_data/rules/102 at {no_text[:10]}: no text" in report
    assert run(capsys, "check", str(out))[0] == 0


def test_numbers_past_the_caps_and_in_other_digits_are_problems_never_a_crash(tmp_path, capsys, records) -> None:
    """The Assessor's numbers held to check's caps (10^12 is refused, not a range of a trillion), `true` is no
    number, nor '\u00b2' in a file's name, the index or a history entry; each a problem, and check reads the game."""
    ruleset, assessor = records
    odd = {"quorum": True, "proposals": [{"number": 20, "title": "Odd", "author": "Bea", "decision_ai": "0"}],
           "resolutions": [{"proposal": number, "resolution": {"result": "REJECTED", "votes": []}}
                           for number in (10 ** 12, True, -5, "20", 1e400)]
           + [{"proposal": 20, "resolution": {"result": "REJECTED", "strength_against": 10 ** 40,
                                              "votes": [{"voter": "Bea", "vote": "AGAINST"}]},
               "strengths": [{"person": "Bea", "final": 10 ** 40}, {"person": "Cy", "final": -3}]}]}
    git_commit(assessor, "odd numbers", {"json/20.txt": json.dumps(odd).replace("Infinity", "1e400")})
    squared_index = index(101, 102) + "  - \u00b2\n  - '1000000000000'\n"
    git_commit(ruleset, "Proposal \u00b2", {"rules_data/config/index": squared_index,
                                            "rules_data/rules/\u00b2": "id: 2\nname: Two\npower: 1\ntext: x\n",
                                            "rules_data/proposals/\u00b2": "title: squared\n",
                                            "rules_data/rules/101": rule_file(101, "The Whole Game", "2", "New.", [
                                                FIRST, ("amendment", "2020-04-01", 'proposal: "\u00b2"')])},
               date="2020-04-01T12:00:00")
    for option in ("--from", "--to"):
        code, said, out = agora_import(tmp_path, capsys, ruleset, assessor, option, "\u00b2")
        assert code == 2 and f"{option}: must be a proposal number, such as 8253 (got '\u00b2')" in said
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    for problem in ("a resolution of proposal 1000000000000, not a proposal number (a whole number from 1, of at most "
                    "12 digits): left out", "a resolution of proposal true, not a proposal number",
                    "a resolution of proposal -5, not a proposal number", "a resolution of proposal '20', not a "
                    "proposal number", "a resolution of proposal Infinity, not a proposal number",
                    "its quorum true is not a whole number of ballots (of at most 12 digits): its decisions are "
                    "written without a Quorum",
                    "proposal 20: the strength 10000000000000000000000000000000000000000 of 'Bea' is not a whole "
                    "number of 0 or more (of at most 12 digits): the default is written",
                    "proposal 20: the strength -3 of 'Cy' is not a whole number",
                    "proposal 20: its adoption index '0' is not a decimal above 0: written without an Index (1.0 "
                    "applies)",
                    "rules_data/config/index at ", ": lists '\u00b2', not a rule number (at most 12 digits): left out",
                    ": lists '1000000000000', not a rule number"):
        assert problem in said, problem
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    twenty = log.split("## Proposal 20: Odd\n")[1].split("\n## ")[0]
    assert "Index" not in twenty and "Quorum" not in twenty and "Votes: against Bea x3\n" in twenty
    assert "Amend rule 101" in log.split("## Event: Proposal \u00b2")[1]  # a change no readable proposal made
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_decisions_past_z_and_the_next_rule_after_from(tmp_path, capsys, records) -> None:
    """A 28th decision on one proposal has no letter to be written with (the 27th was written '100['); with
    --from, a rule the first imported proposal enacts is not counted in numbering.next_rule."""
    ruleset, assessor = records
    again = [{"proposal": 20, "resolution": {"result": "REJECTED", "votes": [{"voter": "Bea", "vote": "AGAINST"}]}}]
    git_commit(assessor, "decided again and again", {"json/20.txt": json.dumps({"resolutions": again * 28,
                                                                         "proposals": [{"number": 20, "author": "Bea"}]})})
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert "json/20.txt at " in said and ": proposal 20: decided a 28th time, and the format letters a decision " \
        "taken again A to Z: left out" in said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "## Proposal 20Z\n" in log and "## Proposal 20[" not in log
    assert run(capsys, "check", str(out))[0] in (0, 1)
    code, said, out = agora_import(tmp_path / "from", capsys, ruleset, assessor, "--from", "11")
    assert "next_rule = 103" in (out / "game.toml").read_text(encoding="utf-8")  # 104 is proposal 11's
    code, report = run(capsys, "check", str(out))
    assert code == 0, report


def test_a_game_starts_where_there_are_rules(tmp_path, capsys, records) -> None:
    """The first commit brings every rule, credited to the proposals that made them long ago: a game from
    --from 1 (or with no Assessor to say where) starts after it, never with no rules at all."""
    ruleset, assessor = records
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor, "--from", "1")
    assert "### 101. The Game" in (out / "rules.md").read_text(encoding="utf-8")
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_a_commit_message_never_becomes_a_change_and_never_a_heading(tmp_path, capsys) -> None:
    """A body that says 'Repeal rule 201.' is quoted: check finds the rule in force, as the repository has it; a
    merge message's paragraphs go neither into the log's first heading nor make entries (`## Proposal 999`);
    --title names the game."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301: a higher quorum\n\nRepeal rule 201.\n\nAmend rule 101 to read:\n\n> Nothing.\n\n"
               "## Proposal 999\nProposer: Mallory\nDate: 2020-01-01\nResult: adopted\n\nEnact rule 666\n\n> Evil.",
               {"rules.md": RULES.replace("half", "two thirds of")})
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-b", "branch"], check=True)
    git_commit(repo, "More", {"rules.md": RULES.replace("half", "all")}, author="Cy")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Ann", "-c", "user.email=ann@example.org", "merge", "-q",
                    "--no-ff", "-m", "Merge pull request #302 from cy/branch", "-m", "All of us\n## Proposal 999\n"
                    "Proposer: Mallory", "branch"], check=True)
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out), "--title", "x" * 5000)
    assert code == 2 and "--title: is 5,000 characters long: game.toml, where it is written, holds lines of at most " \
        "4,000" in said and not out.exists()
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out), "--title", "Our game")
    assert code == 0, said
    log = (out / "log.md").read_text(encoding="utf-8")
    assert log.startswith("# Our game: the log\n")
    assert 'title = "Our game"' in (out / "game.toml").read_text(encoding="utf-8")
    assert [line for line in log.splitlines() if line.startswith("#")] == [
        "# Our game: the log", "## Proposal 301: a higher quorum", "## Event: All of us"]
    assert "Commit `" in log and "whose message says:\n\n> Repeal rule 201.\n>\n> Amend rule 101 to read:" in log
    code, report = run(capsys, "check", str(out), "--format", "json")
    assert code == 0, report
    assert "rule 201 changed: Quorum\n" in run(capsys, "diff", f"{out}@start", f"{out}@now")[1]  # not repealed


def test_names_and_titles_are_written_as_check_reads_them_and_shown_as_they_are(tmp_path, capsys) -> None:
    """Authors named 'Dave x3', 'Bo\u200bb' or 'Ann, Bea', a rule titled 'New <b>rule</b>' (no backslash on the
    site nor in IMPORT.md's code spans) or with U+202E: each written in a form check reads, and said."""
    repo = tmp_path / "repo"
    bold = RULES + "\n##301 Mutable - New <b>rule</b>\n\nBold.\n"
    turned = bold + "\n##302 Mutable - \u202eevil\n\nTurned.\n\n##PRIV <b>x</b> `y`\n\nNot a rule.\n"
    for subject, rules, author in (("Start", RULES, "Ann"), ("Proposal 301", bold, "Dave x3"),
                                   ("Proposal 302", turned, "Bo\u200bb"),
                                   ("Proposal 303", turned.replace("Bold.", "Bolder."), "Ann, Bea")):
        git_commit(repo, subject, {"rules.md": rules}, author=author)
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 1, said
    for problem in ("the name 'Dave x3' cannot be written as it is (a space, x and digits at its end read as "
                    "a ballot's strength): written 'Dave-x3'",
                    "the name 'Bo\\u200bb' cannot be written as it is (it holds invisible characters "
                    "(U+200B ZERO WIDTH SPACE)): written 'Bo\\u200bb'",
                    "the name 'Ann, Bea' cannot be written as it is (a ',' or ';' parts names on a Votes "
                    "line): written 'Ann Bea'",
                    "rules.md at ", ", line 15: rule 302: the title '\\u202eevil' held invisible characters, written "
                    "as their escapes"):
        assert problem in said, problem
    toml = (out / "game.toml").read_text(encoding="utf-8")
    assert '"Dave-x3",\n  "Bo\\\\u200bb",\n  "Ann Bea",' in toml
    assert "Enact rule 301: New <b>rule</b>\n" in (out / "log.md").read_text(encoding="utf-8")
    spans = [child.content for token in MarkdownIt("commonmark").parse((out / "IMPORT.md").read_text(encoding="utf-8"))
             for child in token.children or [] if child.type == "code_inline"]
    assert any("'##PRIV <b>x</b> `y`' names no numbered rule" in span for span in spans)  # shown as it is written
    code, report = run(capsys, "check", str(out))
    assert code == 0, report
    site = tmp_path / "site"
    assert run(capsys, "build", str(out), "-o", str(site), "--cache-dir", str(tmp_path / "cache"), "-q")[0] == 0
    page = (site / "game" / "rules" / "301.html").read_text(encoding="utf-8")
    assert "Rule 301: New &lt;b&gt;rule&lt;/b&gt;" in page and "\\&lt;" not in page


def test_check_refuses_a_rule_title_holding_invisible_characters(tmp_path, capsys) -> None:
    """A title gets a player's name's rules: U+202E would turn it round on every page."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.toml").write_text('title = "G"\nplayers = ["Ann"]\n', encoding="utf-8")
    (game / "rules.md").write_text("# R\n\n## Mutable Rules\n\n### 201. \u202eevil\nText.\n", encoding="utf-8")
    (game / "log.md").write_text("## Proposal 301\nProposer: Ann\nDate: 2020-01-01\nVotes: for Ann\n\n"
                                 "Retitle rule 201 to \"a\u200bb\".\n", encoding="utf-8")
    code, said = run(capsys, "check", str(game))
    assert code == 2
    assert "rules.md:5: rule 201: the title '\\u202eevil' holds invisible characters (U+202E RIGHT-TO-LEFT " \
        "OVERRIDE): every reader sees 'evil'; remove them" in said
    assert "log.md:6: the title 'a\\u200bb' holds invisible characters (U+200B ZERO WIDTH SPACE)" in said


def test_voters_and_authors_of_agora_are_written_as_check_reads_them(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    voters = ["Dave x3", "Bo\u200bb", "\u202eevil", "Ann; Bea"]
    batch = {"proposals": [{"number": 20, "title": "Names", "author": "Dave x3", "coauthors": ["Bo\u200bb"]}],
             "resolutions": [{"proposal": 20, "resolution": {"result": "REJECTED", "votes": [
                 {"voter": voter, "vote": "AGAINST"} for voter in voters]}}]}
    git_commit(assessor, "names", {"json/20.txt": json.dumps(batch)})
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    assert said.count("json/20.txt at ") == 4  # each name once, where it was first read
    assert "proposal 20: the name '\\u202eevil' cannot be written as it is (it holds invisible characters (U+202E " \
        "RIGHT-TO-LEFT OVERRIDE)): written '\\u202eevil'" in said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "Proposer: Dave-x3\n" in log
    assert "Votes: against Dave-x3 x3, Bo\\u200bb x3, \\u202eevil x3, Ann Bea x3" in log
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_lines_titles_rules_and_files_past_the_caps_never_make_a_game_check_refuses(tmp_path, capsys) -> None:
    """A 30,000-character line, a rule of 150,000 characters, a 5 MB rules file: their commits are not read (a
    problem each, the next readable commit carrying their changes). A 30,000-character subject is cut; a
    paragraph of 30,000 characters in short lines is wrapped, which the reader joins again."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    long_line = git_commit(repo, "Proposal 301", {"rules.md": RULES + "\n##301 - Long\n\n" + "x" * 30_000 + "\n"})
    huge_rule = git_commit(repo, "Proposal 302", {"rules.md": RULES + "\n##302 - Huge\n\n" + "word and\n" * 16_000})
    huge_file = git_commit(repo, "Proposal 303", {"rules.md": RULES + "\n##303 - Big\n\n" + "big words.\n\n" * 480_000})
    paragraph = "Many short lines\n" * 2_000
    git_commit(repo, "Proposal 304: " + "t" * 30_000, {"rules.md": RULES + "\n##304 - Wrapped\n\n" + paragraph})
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 1, said
    for problem in (f"rules.md at {long_line[:10]}, line 13: line is 30,000 characters long; a line may hold at most "
                    "20,000", f"rules.md at {huge_rule[:10]}, line 11: rule 302's text is 156,183 characters long; a "
                    "rule's text may hold at most 100,000", f"rules.md at {huge_file[:10]}: is 5.5 MB; such a file may "
                    "hold at most 4.0 MB", "its subject: it is 30,014 characters long, cut to 10,000"):
        assert problem in said, problem
    log = (out / "log.md").read_text(encoding="utf-8")
    assert max(len(line) for line in log.splitlines()) <= 20_000
    code, report = run(capsys, "check", str(out), "--format", "json")
    assert code == 0, report
    assert "1 added; 2 unchanged" in run(capsys, "diff", f"{out}@start", f"{out}@now")[1]  # rule 304, wrapped


def test_a_long_log_is_split_in_files_check_reads_as_one(tmp_path, capsys, monkeypatch) -> None:
    import generator.importers.archive as archive

    monkeypatch.setattr(archive, "MAX_LOG_BYTES", 400)  # a few entries a file, as 32 MB would be for a long game
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    for number in range(301, 306):
        git_commit(repo, f"Proposal {number}", {"rules.md": RULES.replace("half", f"{number} of")})
    out = tmp_path / "game"
    assert run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))[0] == 0
    assert not (out / "log.md").exists() and len(list((out / "log").glob("*.md"))) >= 3
    code, report = run(capsys, "check", str(out))
    assert code == 0 and "5 proposals, consistent" in report, report


def test_agora_values_past_the_caps(tmp_path, capsys, records) -> None:
    """A rule file past 4 MB, a rule with a 30,000-character line, a name folded to 30,000 characters, a JSON
    file past 4 MB, and 3,000 ballots on one decision (a Votes line the reader joins from many); 10,000 players,
    whom game.toml could not list, refuse the import."""
    ruleset, assessor = records
    big = git_commit(ruleset, "Proposal 16", {"rules_data/rules/102": "id: 102\nname: Voting\npower: 1\ntext: |\n"
                                              + "  a line\n" * 600_000}, date="2020-03-20T12:00:00")
    wide = git_commit(ruleset, "Proposal 16", {"rules_data/rules/102": "id: 102\nname: Voting\npower: 1\ntext: |\n  "
                                               + "y" * 30_000 + "\n"}, date="2020-03-21T12:00:00")
    named = git_commit(ruleset, "Proposal 16", {"rules_data/rules/101": "id: 101\nname: >\n" + "  long name\n" * 3_000
                                                + "power: 2\ntext: |\n  New.\n"}, date="2020-03-22T12:00:00")
    ballots = [{"voter": f"Voter{n}", "vote": "FOR"} for n in range(3_000)]
    git_commit(assessor, "many ballots", {"json/20.txt": json.dumps({"proposals": [{"number": 20, "author": "Bea"}],
                                                                     "resolutions": [
        {"proposal": 20, "resolution": {"result": "ADOPTED", "votes": ballots}}]}),
        "json/21.txt": json.dumps({"resolutions": [], "padding": "p" * 5_300_000})})
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    for problem in (f"rules_data/rules/102 at {big[:10]}: is 5.1 MB; such a file may hold at most 4.0 MB: not read",
                    f"rules_data/rules/102 at {wide[:10]}: its text is 30,008 characters long, a line of it 30,000",
                    f"rules_data/rules/101 at {named[:10]}: it is 29,999 characters long, cut to 10,000",
                    "json/21.txt at ", ": is 5.1 MB; such a file may hold at most 4.0 MB: none of its decisions is "
                    "read"):
        assert problem in said, problem
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert max(len(line) for line in log.splitlines()) <= 20_000 and "Voter2999 x3" in log
    assert run(capsys, "check", str(out))[0] in (0, 1)
    git_commit(assessor, "more ballots", {"json/20.txt": json.dumps({"proposals": [{"number": 20, "author": "Bea"}],
                                                                     "resolutions": [{"proposal": 20, "resolution": {
        "result": "ADOPTED", "votes": [{"voter": f"Voter{n}", "vote": "FOR"} for n in range(10_000)]}}]})})
    code, said, out = agora_import(tmp_path / "more", capsys, ruleset, assessor)
    assert code == 2 and "players, whom game.toml lists: it would be a file that is 150,159 bytes; such a file may " \
        "hold at most 65,536 bytes" in said
    assert not out.exists()


def test_nesting_that_would_stop_python_is_not_json_and_no_assessor_is_said(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    deep = '{"resolutions": [], "proposals": [{"number": 20, "title": ' + "[" * 900 + "]" * 900 + "}]}"
    git_commit(assessor, "deep", {"json/20.txt": deep})
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1 and "json/20.txt at " in said and ": not JSON: its values nest more than 32 deep; none of its " \
        "decisions is read" in said, said
    code, said, out = agora_import(tmp_path / "alone", capsys, ruleset, None)
    report = (out / "IMPORT.md").read_text(encoding="utf-8")
    assert "(no --assessor: the proposals the Rulekeepor applied have no ballots)" in report
    assert "Assessor's (AgoraNomic/assessor" not in report
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_sections_of_the_index_are_written_as_check_reads_them(tmp_path, capsys, records) -> None:
    """The index's sections become game.toml's [[sections]]: one with no name is left out, a name holding invisible
    characters is written with their escapes, a note past what a line of game.toml holds is cut, a rule listed in
    two sections stays in the first, and Markdown in a note shows as written; each a problem, and check reads it."""
    ruleset, assessor = records
    git_commit(ruleset, "Proposal 18", {"rules_data/config/index": (
        "- name: ''\n  rules:\n  - 101\n"
        "- name: \"Bad\\u202e\"\n  note: |\n    A *starred* note.\n\n    Its second paragraph.\n  rules:\n  - 101\n"
        "- name: Long\n  note: " + "word " * 2_000 + "\n  rules:\n  - 101\n  - 102\n")}, date="2020-03-21T12:00:00")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    toml = (out / "game.toml").read_text(encoding="utf-8")
    assert "the section 'Bad\\u202e': the title 'Bad\\u202e' held invisible characters, written as their escapes" in said
    assert "the note of the section 'Long' is 9,999 characters long, cut to 991" in said
    assert '[[sections]]\ntitle = "Bad\\\\u202e"\nnote = "A \\\\*starred\\\\* note.\\n\\nIts second paragraph."\n' \
           'from = 2020-03-21\nrules = [101]\n' in toml  # (the index's sections before it: until that day)
    assert 'title = "Long"' in toml and "rules = [102]" in toml and "title = \"\"" not in toml
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_the_layouts_of_2017_are_read_within_bounds(tmp_path, capsys) -> None:
    """Rule files named by title, with an index of titles and history as lines of text: a number past 12 digits is
    no rule, a title the index lists that no file holds is said, a history line of 40,000 characters full of 'by '
    is read in time and cut where a History: line ends, an invisible character in a title is escaped (the index
    names it as its file does), and a file that is no rule (the index's neighbours) is not one; check reads it."""
    repo = tmp_path / "ruleset"
    rule = "---\nname: {name}\nhistory:\n- {line}\ntext: |\n  {text}\nid: {number}\npower: 1\n"
    odd = rule.format(name="\"Odd\\u202e\"", line="Created by Rule 101, 2 May 2001", text="Odd.", number=102)
    git_commit(repo, "Initial commit.", {
        "rules/index": "---\nAll:\n- First\n- Huge\n- Ghost\n- \"Odd\\u202e\"\n",
        "rules/First": rule.format(name="First", line="Created by Rule 5, 1 May 2001", text="A.", number=101),
        "rules/Huge": rule.format(name="Huge", line="Created", text="Huge.", number="1" * 13),
        "rules/Odd": odd, "rules/keywords": "---\nplayer: 101\n"}, date="2017-05-01T12:00:00")
    git_commit(repo, "Proposal 130", {"rules/First": rule.format(
        name="First", line="Amended(1) by Proposal 130 (Bea), 3 May 2017", text="B.", number=101)},
        date="2017-05-03T12:00:00")
    long_line = "Amended(2) " + "by " * 13_000 + ", 4 May 2017"
    git_commit(repo, "Proposal 131", {"rules/First": rule.format(name="First", line=long_line, text="C.", number=101)},
               date="2017-05-04T12:00:00")
    out = tmp_path / "agora"
    code, said = run(capsys, "import", "agora", "--ruleset", str(repo), "-o", str(out))
    assert code == 1, said
    assert "rules/First at " in said and ": a history entry or an annotation of 39,023 characters is cut to 10,000" \
        in said
    rules = (out / "rules.md").read_text(encoding="utf-8")
    assert "### 101. First" in rules and "### 102. Odd\\u202e" in rules and "111111" not in rules
    report = (out / "IMPORT.md").read_text(encoding="utf-8")
    assert "- Ghost, at commit " in report and "- Huge, at commit " in report
    log = (out / "log" / "2017.md").read_text(encoding="utf-8")
    assert "## Proposal 130\nProposer: Bea\n" in log and "## Event: By by by" in log  # (named by its agent)
    assert "The Rulekeepor's commit: \u201cProposal 131\u201d." in log
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_separators_in_a_message_or_a_name_are_text_like_any_other(tmp_path, capsys, records) -> None:
    """A message holding \\x1e and an author named with \\x1f (the separators git's output was once split on):
    each commit is read whole, a control character read as a space as everywhere, never a crash or a shifted field."""
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Proposal 301\n\nA body with\x1e in it.", {"rules.md": RULES.replace("half", "two thirds of")})
    git_commit(repo, "Proposal 302", {"rules.md": RULES.replace("half", "all")}, author="Ev\x1fe")
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 0, said
    log = (out / "log.md").read_text(encoding="utf-8")
    assert "## Proposal 301\nProposer: Ann\n" in log and "## Proposal 302\nProposer: Ev e\n" in log
    assert "whose message says:\n\n> A body with in it." in log
    assert run(capsys, "check", str(out))[0] == 0
    ruleset, assessor = records
    git_commit(ruleset, "Oldname\x1fcleans\x1e Rule 102", {"rules_data/rules/102": rule_file(
        102, "Voting", "1", "Each ballot counts, once.", [FIRST])}, date="2020-03-20T12:00:00")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "Date: 2020-03-20\n" in log and "The Rulekeepor's commit: \u201cNewname cleans Rule 102\u201d." in log



def test_a_batch_is_dated_whatever_its_file_is_named_and_however_it_came(tmp_path, capsys, records) -> None:
    """A file named with a quote, which git writes C-quoted unless asked for NUL-separated names, is dated by the
    commit that adds it; one no commit adds (made in a merge) by the Assessor's last commit, which is said."""
    ruleset, assessor = records
    rejected = json.dumps({"proposals": [{"number": 99, "title": "Odd", "author": "Bea"}], "resolutions": [
        {"proposal": 99, "resolution": {"result": "REJECTED", "votes": [{"voter": "Bea", "vote": "AGAINST"}]}}]})
    git_commit(assessor, "quoted", {'json/99-zz"q.txt': rejected}, date="2020-04-01T12:00:00")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "## Proposal 99: Odd\nProposer: Bea\nDate: 2020-04-01\n" in log
    subprocess.run(["git", "-C", str(assessor), "checkout", "-q", "-b", "side"], check=True)
    git_commit(assessor, "side", {"README.md": "A side branch.\n"}, date="2020-04-02T12:00:00")
    subprocess.run(["git", "-C", str(assessor), "checkout", "-q", "gh-pages"], check=True)
    subprocess.run(["git", "-C", str(assessor), "-c", "user.name=Ann", "-c", "user.email=ann@example.org", "merge",
                    "-q", "--no-ff", "--no-commit", "side"], check=True)  # a fresh machine has no git identity
    git_commit(assessor, "Merge side, with a batch", {"json/99-zz.txt": rejected.replace("99", "98")},
               date="2020-04-03T12:00:00")
    code, said, out = agora_import(tmp_path / "merged", capsys, ruleset, assessor)
    assert code == 1, said
    assert "json/99-zz.txt at " in said and ": no commit of gh-pages adds it (it came in a merge): dated by its " \
        "changes, else as the batch after it, else by the last commit (2020-04-03)" in said
    log = (out / "log" / "2020.md").read_text(encoding="utf-8")
    assert "## Proposal 98: Odd\nProposer: Bea\nDate: 2020-04-03\n" in log
    assert run(capsys, "check", str(out))[0] in (0, 1)


def test_a_rule_file_linked_out_of_the_folder_is_not_read(tmp_path, capsys) -> None:
    """`import FOLDER` reads the files inside it: a link rules/201.md -> ../secret.txt is refused, exit 2, and
    nothing is written; a link to a file inside the folder is read."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "101.md").write_text("---\nrule: 101\ntype: Mutable\n---\n\nText.\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("---\nrule: 201\ntype: Mutable\n---\n\nA secret.\n", encoding="utf-8")
    (rules / "201.md").symlink_to("../secret.txt")
    out = tmp_path / "rules.md"
    code, said = run(capsys, "import", str(rules), "-o", str(out))
    assert code == 2 and f"{rules / '201.md'}: leads out of the folder imported through a symbolic link (to " \
        f"{tmp_path / 'secret.txt'}); only files inside it are read" in said, said
    assert "A secret" not in said and not out.exists()
    (rules / "201.md").unlink()
    (rules / "kept").mkdir()
    (rules / "kept" / "202.txt").write_text("---\nrule: 202\ntype: Mutable\n---\n\nLinked.\n", encoding="utf-8")
    (rules / "202.md").symlink_to("kept/202.txt")
    code, said = run(capsys, "import", str(rules), "-o", str(out))
    assert code == 0, said
    assert "### 202\nLinked.\n" in out.read_text(encoding="utf-8")


def test_names_to_replace_past_the_cap_are_not_read(tmp_path, capsys, records) -> None:
    """name_replacement_data is held to the cap on a file read, as every file of the records is: past it, a
    problem, and players are named as the records name them."""
    ruleset, assessor = records
    git_commit(ruleset, "Many names", {"name_replacement_data": "Oldname:Newname\n" + "x" * 4_300_000 + "\n"},
               date="2020-03-20T12:00:00")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 1, said
    assert "name_replacement_data at " in said and ": is 4.1 MB; such a file may hold at most 4.0 MB: not read, so " \
        "players are named as the records name them" in said
    assert "Proposer: Oldname\n" in (out / "log" / "2020.md").read_text(encoding="utf-8")


def test_what_git_writes_is_read_up_to_a_cap(tmp_path, capsys, monkeypatch) -> None:
    """A history whose messages pass what one git command may write to the importer (a message of a gigabyte, in
    a hostile repository) is refused, exit 2, with nothing written, never held in memory whole."""
    import generator.importers.gitread as gitread

    monkeypatch.setattr(gitread, "MAX_GIT_OUTPUT_BYTES", 3 << 20)  # (the real cap is far larger than a test's repo)
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    (repo / "rules.md").write_text(RULES.replace("half", "all"), encoding="utf-8")
    (tmp_path / "message").write_text("Proposal 301\n\n" + "A long message.\n" * 250_000, encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Ann", "-c", "user.email=ann@example.org", "commit", "-q",
                    "-a", "-F", str(tmp_path / "message")], check=True)
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 2, said
    assert f"{repo}: git log wrote more than 3 MB, more than an import reads from one git command" in said
    assert not out.exists() and leftovers(tmp_path) == []


def damage(repo: Path, revision: str) -> None:
    """Make the object `revision` names unreadable, as a disk error or a bad copy would: its loose file cut short."""
    object_id = subprocess.run(["git", "-C", str(repo), "rev-parse", revision], capture_output=True, text=True,
                               check=True).stdout.strip()
    loose = repo / ".git" / "objects" / object_id[:2] / object_id[2:]
    loose.chmod(0o644)
    loose.write_bytes(loose.read_bytes()[:10])


def test_a_damaged_repository_is_refused_not_read_as_missing_files(tmp_path, capsys, records) -> None:
    """A file git cannot read is not a file that is absent: its commit is not skipped, its proposal merged into the
    next (git), nor its rule repealed (Agora); the import is refused, exit 2, naming it, and nothing is written."""
    repo = small_game(tmp_path)
    middle = git_commit(repo, "Proposal 302", {"rules.md": RULES.replace("half", "all")})
    git_commit(repo, "Proposal 303", {"rules.md": RULES.replace("half", "none of")})
    damage(repo, f"{middle}:rules.md")
    out = tmp_path / "game"
    code, said = run(capsys, "import", "git", str(repo), "--rules", "rules.md", "-o", str(out))
    assert code == 2, said
    assert f"{repo}: git cannot read rules.md at commit {middle[:10]}: the repository is damaged (git fsck says " \
        "how)" in said
    assert not out.exists() and leftovers(tmp_path) == []
    ruleset, assessor = records
    amended = git_commit(ruleset, "Proposal 16", {"rules_data/rules/102": rule_file(102, "Voting", "1", "Once.", [
        FIRST, ("amendment", "2020-03-20", 'proposal: "16"')])}, date="2020-03-20T12:00:00")
    damage(ruleset, f"{amended}:rules_data/rules/102")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 2 and f"{ruleset}: git cannot read rules_data/rules/102 at commit {amended[:10]}: the repository " \
        "is damaged" in said, said
    assert not out.exists()
    tip = git_commit(assessor, "20", {"json/20.txt": '{"resolutions": []}'})
    damage(assessor, f"{tip}:json/20.txt")
    code, said, out = agora_import(tmp_path, capsys, ruleset, assessor)
    assert code == 2 and f"{assessor}: --assessor: git cannot read json/20.txt at commit {tip[:10]}" in said, said
    assert not out.exists()
