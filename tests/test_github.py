"""A game played on GitHub: `check --format github` as GitHub Actions workflow commands, escaped as GitHub
documents, and the workflow `github-workflow` (or `new --github`) writes, valid against GitHub's schema."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from generator.cli import main
from generator.commands.check import escape_data, escape_property, workflow_command
from generator.workflows import WORKFLOW, installed_requirement
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
    assert main(["github-workflow", "--force", "--package", "nomic-archive==0.1.0"]) == 0
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
    assert main(["new", "content/my-game", "--github"]) == 0
    assert (tmp_path / "content" / "my-game" / "game.toml").is_file()
    _validate(tmp_path / WORKFLOW)
    assert YAML(typ="safe").load((tmp_path / WORKFLOW).read_text())["env"]["CONTENT"] == "content"


def test_new_with_github_writes_nothing_when_a_workflow_is_there(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / WORKFLOW).parent.mkdir(parents=True)
    (tmp_path / WORKFLOW).write_text("mine\n")
    assert main(["new", "content/my-game", "--github"]) == 2
    assert not (tmp_path / "content").exists() and (tmp_path / WORKFLOW).read_text() == "mine\n"


@pytest.mark.parametrize("direct_url, requirement, reachable", [
    (None, "nomic-archive==VERSION", True),  # from a package index
    ('{"url": "https://github.com/o/nomic-archive.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}',
     "git+https://github.com/o/nomic-archive.git@abc123", True),
    ('{"url": "file:///home/me/nomic-archive", "dir_info": {"editable": true}}', "nomic-archive==VERSION", False),
    ('{"url": "https://example.org/nomic_archive-0.1.0.tar.gz", "archive_info": {}}',
     "https://example.org/nomic_archive-0.1.0.tar.gz", True),
])
def test_the_workflow_installs_what_this_copy_was_installed_from(monkeypatch, direct_url, requirement, reachable):
    from generator import __version__, workflows

    class Installed:
        def read_text(self, name):
            assert name == "direct_url.json"
            return direct_url

    monkeypatch.setattr(workflows.metadata, "distribution", lambda name: Installed())
    assert installed_requirement() == (requirement.replace("VERSION", __version__), reachable)
