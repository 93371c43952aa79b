"""A game played on GitHub: `check --format github` as GitHub Actions workflow commands, escaped as GitHub
documents, and the workflow `github-workflow` (or `new --github`) writes, valid against GitHub's schema."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from generator.cli import main
from generator.commands.check import escape_data, escape_property, workflow_command
from generator.workflows import WORKFLOW, installed_source
from tests.helpers import ROOT

SLIPS = ROOT / "content" / "slips-example"


# --- The format -------------------------------------------------------------------------------------
# GitHub's toolkit (actions/toolkit, packages/core/src/command.ts): data escapes %, \r and \n; a property's
# value also : and ,.


def test_data_is_escaped_as_github_documents():
    assert escape_data("100% sure\r\nnext: a, b") == "100%25 sure%0D%0Anext: a, b"


def test_a_property_is_escaped_as_github_documents():
    assert escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"


def test_a_workflow_command_escapes_its_properties_and_message_and_cannot_start_another():
    line = workflow_command("error", "Scores says 50%\n::warning::forged", file="a,b:c/log.md", line=7,
                            title="score: wrong")
    assert line == ("::error file=a%2Cb%3Ac/log.md,line=7,title=score%3A wrong::Scores says 50%25%0A::warning"
                    "::forged")
    assert "\n" not in line
    # Controls that could drive a terminal (the log is shown as one) are replaced, as in every other format.
    assert workflow_command("notice", "a\x1b[2Jb") == "::notice::a\ufffd[2Jb"


def _game_in(folder: Path) -> Path:
    shutil.copytree(SLIPS, folder)
    return folder


def test_check_prints_each_finding_as_an_error_on_its_file_and_line(tmp_path, capsys, monkeypatch):
    game = _game_in(tmp_path / "content" / "slips, 1: ex")  # a folder name that needs escaping
    monkeypatch.chdir(tmp_path)
    assert main(["check", "content", "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    file = "content/slips%2C 1%3A ex/log.md"
    assert lines == [
        f"::error file={file},line=38,title=nomic-archive check%3A score::proposal 303: Scores says Cleo 7; "
        "replay gives 6 = 0 + die 6",
        f"::error file={file},line=46,title=nomic-archive check%3A proposal-number::proposal 303: numbered 303, "
        "but the next proposal is 304; 303 was already used at content/slips, 1: ex/log.md:32",
        f"::notice file={file},line=63,title=nomic-archive check%3A a judgment overrides the arithmetic::"
        "judgment 1 sets Ben's score to 0 (computed: -5)",
        "slips-1-ex: 4 proposals, 2 discrepancies",
    ]
    assert game.is_dir()


def test_check_of_a_consistent_archive_prints_no_error_and_exits_0(capsys):
    assert main(["check", str(ROOT / "content" / "suber-1982"), "--format", "github"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.startswith("::error")] and lines[-1].endswith("consistent, won by Isaac")


def test_an_archive_that_cannot_be_read_is_errors_on_its_files_and_exit_2(tmp_path, capsys, monkeypatch):
    game = _game_in(tmp_path / "content" / "g")
    (game / "log.md").write_text("## Proposal 301: x\nProposer: Ada\nDate: someday\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "content", "--format", "github"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("::error file=content/g/log.md,line=3,title=nomic-archive check%3A cannot read the "
                          "archive::'someday' is not a date like 1982-06-03\n", "")


# --- The workflow -----------------------------------------------------------------------------------


def _validate(workflow: Path) -> None:
    """GitHub's own workflow schema, as check-jsonschema ships it (no network)."""
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(workflow)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflow_checks_pull_requests_and_publishes_main_on_pages(tmp_path, capsys, monkeypatch):
    shutil.copytree(SLIPS, tmp_path / "archive" / "slips-example")
    monkeypatch.chdir(tmp_path)
    assert main(["github-workflow", "archive", "--package", "nomic-archive @ git+https://example.org/n.git@v1"]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {WORKFLOW}: every pull request is checked")
    _validate(tmp_path / WORKFLOW)
    workflow = YAML(typ="safe").load((tmp_path / WORKFLOW).read_text())
    assert workflow["env"] == {"NOMIC_ARCHIVE_PACKAGE": "nomic-archive @ git+https://example.org/n.git@v1",
                               "CONTENT": "archive"}
    triggers = workflow["on"]
    assert "pull_request" in triggers and triggers["push"] == {"branches": ["main"]}
    check, publish = workflow["jobs"]["check"], workflow["jobs"]["publish"]
    assert check["if"] == "github.event_name == 'pull_request'"
    runs = [step.get("run", "") for step in check["steps"]]
    assert 'python -m pip install "$NOMIC_ARCHIVE_PACKAGE"' in runs
    assert 'nomic-archive check "$CONTENT" --format github' in runs
    assert publish["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert publish["environment"]["name"] == "github-pages"
    uses = [step.get("uses", "").split("@")[0] for step in publish["steps"]]
    assert [u for u in uses if u.startswith("actions/") and "pages" in u] == [
        "actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]
    build = next(step for step in publish["steps"] if "nomic-archive build" in step.get("run", ""))
    assert build["run"] == 'nomic-archive build "$CONTENT" -o _site --base-url "$BASE_URL"'
    assert build["env"] == {"BASE_URL": "${{ steps.pages.outputs.base_url }}"}


def test_the_workflow_is_not_replaced_without_force(tmp_path, capsys, monkeypatch):
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / WORKFLOW).parent.mkdir(parents=True)
    (tmp_path / WORKFLOW).write_text("mine\n")
    assert main(["github-workflow"]) == 2
    assert capsys.readouterr().err == (f"{WORKFLOW}: exists, and github-workflow does not replace a file (it may be "
                                       "a keeper's only copy): choose another name, or add --force to replace it; "
                                       "nothing was written\n")
    assert (tmp_path / WORKFLOW).read_text() == "mine\n"
    assert main(["github-workflow", "--force", "--package", PINNED]) == 0
    _validate(tmp_path / WORKFLOW)


def test_the_workflow_needs_its_content_under_the_working_directory(tmp_path, capsys, monkeypatch):
    (tmp_path / "content").mkdir()
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    assert main(["github-workflow", "../content"]) == 2
    assert capsys.readouterr().err == ("../content: lies outside the working directory: run this from the root of "
                                       "the game's repository, where .github/ belongs; nothing was written\n")
    assert not (tmp_path / "repo" / ".github").exists()


def test_new_with_github_starts_the_game_and_its_workflow(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "content/my-game", "--player", "Ann", "--github", "--package", PINNED]) == 0
    assert (tmp_path / "content" / "my-game" / "game.toml").is_file()
    _validate(tmp_path / WORKFLOW)
    assert YAML(typ="safe").load((tmp_path / WORKFLOW).read_text())["env"]["CONTENT"] == "content"


def test_new_with_github_writes_nothing_when_a_workflow_is_there(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / WORKFLOW).parent.mkdir(parents=True)
    (tmp_path / WORKFLOW).write_text("mine\n")
    assert main(["new", "content/my-game", "--player", "Ann", "--github", "--package", PINNED]) == 2
    assert not (tmp_path / "content").exists() and (tmp_path / WORKFLOW).read_text() == "mine\n"


# --- What the workflow installs -------------------------------------------------------------------------
# Never a name nobody published: a source the keeper chose and a runner can reach, or the very code running
# now where the program can vouch that the runner gets exactly it; else nothing is written (exit 2).

PINNED = "git+https://github.com/OWNER/nomic-archive.git@" + "0123456789abcdef" * 2 + "01234567"
HINT = ("name what it installs: --package 'git+https://github.com/OWNER/nomic-archive.git@COMMIT' (the repository "
        "and the commit to install), or --package ./PATH (a copy of nomic-archive inside this repository); nothing "
        "was written\n")


def _installed_as(monkeypatch, direct_url: str | None, *, installed: bool = True) -> None:
    """This copy of nomic-archive as installed with that PEP 610 record (None: from an index), or not at all."""
    from generator import workflows

    class Installed:
        def read_text(self, name):
            assert name == "direct_url.json"
            return direct_url

    def distribution(name):
        if not installed:
            raise workflows.metadata.PackageNotFoundError(name)
        return Installed()
    monkeypatch.setattr(workflows.metadata, "distribution", distribution)


@pytest.mark.parametrize("direct_url, requirement", [
    ('{"url": "https://github.com/o/nomic-archive.git", "vcs_info": {"vcs": "git", "commit_id": "%s"}}' % ("ab" * 20),
     "nomic-archive @ git+https://github.com/o/nomic-archive.git@" + "ab" * 20),
    ('{"url": "https://github.com/o/games.git", "subdirectory": "tools/na", "vcs_info": {"vcs": "git", '
     '"commit_id": "%s"}}' % ("ab" * 20), "nomic-archive @ git+https://github.com/o/games.git@" + "ab" * 20
     + "#subdirectory=tools/na"),
    ('{"url": "https://example.org/nomic_archive-0.1.0.tar.gz", "archive_info": {"hashes": {"sha256": "%s"}}}'
     % ("0f" * 32), "nomic-archive @ https://example.org/nomic_archive-0.1.0.tar.gz#sha256=" + "0f" * 32),
    ('{"url": "https://example.org/n.whl", "archive_info": {"hash": "sha256=%s"}}' % ("0f" * 32),
     "nomic-archive @ https://example.org/n.whl#sha256=" + "0f" * 32),
])
def test_a_copy_installed_from_a_commit_or_a_hashed_file_is_what_the_workflow_installs(
        tmp_path, capsys, monkeypatch, direct_url, requirement):
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    _installed_as(monkeypatch, direct_url)
    assert main(["github-workflow"]) == 0
    assert capsys.readouterr().err.endswith(f"it installs nomic-archive from {requirement} (the "
                                            f"{'git commit' if 'git+' in requirement else 'file'} this copy was "
                                            f"installed from{'' if 'git+' in requirement else ', held to its hash'})\n")
    _validate(tmp_path / WORKFLOW)
    assert YAML(typ="safe").load((tmp_path / WORKFLOW).read_text())["env"]["NOMIC_ARCHIVE_PACKAGE"] == requirement


@pytest.mark.parametrize("direct_url, installed, why", [
    (None, False, "this nomic-archive runs from a folder of source, not from an installed package"),
    ('{"url": "file:///home/me/nomic-archive", "dir_info": {}}', True,  # the README's `pip install .`
     "this nomic-archive was installed from /home/me/nomic-archive, which a GitHub runner cannot reach"),
    ('{"url": "file:///home/me/nomic-archive", "dir_info": {"editable": true}}', True,
     "this nomic-archive was installed from /home/me/nomic-archive, which a GitHub runner cannot reach"),
    (None, True, "this nomic-archive VERSION was installed from a package index, which leaves no record of the file it "
     "installed nor of its hash"),
    ('{"url": "https://github.com/o/n.git", "vcs_info": {"vcs": "git", "requested_revision": "main"}}', True,
     "this nomic-archive was installed from https://github.com/o/n.git without a commit or a hash that pins it"),
    ('{"url": "https://example.org/n.tar.gz", "archive_info": {}}', True,
     "this nomic-archive was installed from https://example.org/n.tar.gz without a commit or a hash that pins it"),
    ('{"url": "ssh://git@example.org/n.git", "vcs_info": {"vcs": "git", "commit_id": "%s"}}' % ("ab" * 20), True,
     "this nomic-archive was installed from ssh://git@example.org/n.git, which a GitHub runner cannot reach"),
    ('{"url": "https://me:token@example.org/n.git", "vcs_info": {"vcs": "git", "commit_id": "%s"}}' % ("ab" * 20),
     True, "this nomic-archive was installed from an address holding a user name, which a workflow must not "
     "publish"),
    ('{"url": ', True, "this nomic-archive's record of where it was installed from (direct_url.json) cannot be read"),
])
def test_without_package_a_copy_the_program_cannot_vouch_for_writes_nothing_and_says_what_to_pass(
        tmp_path, capsys, monkeypatch, direct_url, installed, why):
    from generator import __version__

    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    _installed_as(monkeypatch, direct_url, installed=installed)
    assert main(["github-workflow"]) == 2
    assert capsys.readouterr().err == (f"--package: {why.replace('VERSION', __version__)}, so the workflow cannot "
                                       f"install this very nomic-archive; {HINT}")
    assert not (tmp_path / ".github").exists()
    assert main(["new", "content/g", "--player", "Ann", "--github"]) == 2  # nor does new start a game without it
    assert capsys.readouterr().err.startswith("--package: ") and not (tmp_path / "content" / "g").exists()


@pytest.mark.parametrize("package, requirement, said", [
    (PINNED, PINNED, "as --package says"),
    ("nomic-archive @ " + PINNED, "nomic-archive @ " + PINNED, "as --package says"),
    ("git+https://github.com/o/nomic-archive.git@v1", "git+https://github.com/o/nomic-archive.git@v1",
     "as --package says; it names no commit, so each run installs what the branch or tag holds then"),
    ("tools/nomic-archive", "./tools/nomic-archive", "a copy inside this repository, as --package says"),
    ("./tools/nomic-archive/", "./tools/nomic-archive", "a copy inside this repository, as --package says"),
    ("nomic-archive==0.1.0", "nomic-archive==0.1.0", "as --package says: what the package index holds under that "
     "name"),
])
def test_the_keepers_package_is_written_as_chosen(tmp_path, capsys, monkeypatch, package, requirement, said):
    (tmp_path / "content").mkdir()
    (tmp_path / "tools" / "nomic-archive").mkdir(parents=True)
    (tmp_path / "tools" / "nomic-archive" / "pyproject.toml").write_text("[project]\nname = 'nomic-archive'\n")
    monkeypatch.chdir(tmp_path)
    _installed_as(monkeypatch, None, installed=False)
    assert main(["github-workflow", "--package", package]) == 0
    assert capsys.readouterr().err.endswith(f"it installs nomic-archive from {requirement} ({said})\n")
    assert YAML(typ="safe").load((tmp_path / WORKFLOW).read_text())["env"]["NOMIC_ARCHIVE_PACKAGE"] == requirement


@pytest.mark.parametrize("package, why", [
    ("git+file:///home/me/nomic-archive", "'git+file:///home/me/nomic-archive' is not an https address, which a "
     "GitHub runner can reach"),
    ("nomic-archive @ file:///home/me/n.whl", "'/home/me/n.whl' is not an https address, which a GitHub runner can "
     "reach"),
    ("http://example.org/n.tar.gz", "'http://example.org/n.tar.gz' is not an https address, which a GitHub runner "
     "can reach"),
    ("git+https://me:token@github.com/o/n.git@" + "ab" * 20, "the address holds a password, which the workflow (a "
     "file of the repository) would publish"),
    ("OUTSIDE", "OUTSIDE lies outside the working directory (the repository's root), where a GitHub runner cannot "
     "reach it"),
    ("./notes", "./notes is neither a folder holding pyproject.toml nor a wheel or an sdist"),
    ("./missing", "./missing is neither a folder holding pyproject.toml nor a wheel or an sdist"),
])
def test_a_package_a_runner_cannot_reach_is_refused_and_nothing_written(tmp_path, capsys, monkeypatch, package, why):
    (tmp_path / "repo" / "content").mkdir(parents=True)
    (tmp_path / "repo" / "notes").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "pyproject.toml").write_text("")
    package, why = (text.replace("OUTSIDE", str(tmp_path / "outside")) for text in (package, why))
    monkeypatch.chdir(tmp_path / "repo")
    assert main(["github-workflow", "--package", package]) == 2
    assert capsys.readouterr().err == f"--package: {why}; {HINT}"
    assert main(["new", "content/g", "--player", "Ann", "--github", "--package", package]) == 2
    assert capsys.readouterr().err == f"--package: {why}; {HINT}"
    assert sorted(os.listdir(tmp_path / "repo")) == ["content", "notes"]
    assert not os.listdir(tmp_path / "repo" / "content")


def test_package_without_github_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "content/g", "--player", "Ann", "--package", PINNED]) == 2
    assert capsys.readouterr().err == ("--package: names what the GitHub workflow installs: add --github to write "
                                       "one; nothing was written\n")
    assert not (tmp_path / "content").exists()
