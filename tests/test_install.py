"""The README's two set-up commands, as a new user types them on a stock Debian or Ubuntu (`python3`, no `python`,
pip refusing the system's environment): the first, run as written in a copy of the checkout, installs into a
virtual environment and builds the bundled games (templates and rulesets ship inside the wheel); the second is
what CI runs (.ci/run)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from markdown_it import MarkdownIt

from tests.helpers import ROOT


def setup_commands() -> list[str]:
    """The README's set-up commands: its first two code blocks, before any heading but the title."""
    tokens = MarkdownIt("commonmark").parse((ROOT / "README.md").read_text(encoding="utf-8"))
    second_heading = [index for index, token in enumerate(tokens) if token.type == "heading_open"][1]
    return [token.content.strip() for token in tokens[:second_heading] if token.type in ("code_block", "fence")]


def test_the_readme_sets_up_in_a_virtual_environment_with_python3():
    """A stock Debian has no `python`, and its pip refuses to install outside a virtual environment."""
    install, tests = setup_commands()
    for command in (install, tests):
        steps = [step.strip() for step in command.split("&&")]
        assert steps[0] == "python3 -m venv .venv", command
        assert all(step.startswith(".venv/bin/") for step in steps[1:]), command  # nothing outside it
    assert install.split("&&")[1:] == [" .venv/bin/pip install . ", " .venv/bin/nomic-archive build"]
    assert tests.split("&&")[1:] == [" .venv/bin/pip install '.[test]' ", " .venv/bin/python -m pytest"]


def test_ci_runs_the_readmes_test_command_after_debians_packages():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == setup_commands()[1]
    installing = script.index("apt-get install")
    assert script.index("apt-get update") < installing < script.index(setup_commands()[1])
    assert re.search(r"missing\+=\(chromium\b", script) and "missing+=(python3-venv)" in script


@pytest.mark.slow
def test_the_readmes_first_command_installs_and_builds_the_bundled_games(tmp_path):
    source = tmp_path / "clone"
    # A copy of the checkout without build output, as a fresh clone has it.
    top_level_output = {"site", "build", "dist", "test-artifacts", ".venv", "venv"}
    everywhere = shutil.ignore_patterns(".git", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis")

    def ignore(folder, names):
        skipped = set(everywhere(folder, names))
        return skipped | (top_level_output & set(names) if folder == str(ROOT) else set())

    shutil.copytree(ROOT, source, ignore=ignore)
    # Not this checkout's code, nor the environment running the tests: only what the command installs.
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = setup_commands()[0]
    done = subprocess.run(["bash", "-c", install], cwd=source, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"built [\d,]+ pages for \d+ games into site in", done.stderr), done.stderr
    games = sorted(path.name for path in (source / "content").iterdir() if (path / "game.toml").is_file())
    assert games and all((source / "site" / game / "index.html").is_file() for game in games)
    assert (source / "site" / "static" / "style.css").is_file()

    # The installed copy works anywhere: new finds its rulesets, and it is the environment's copy that runs.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = source / ".venv" / "bin" / "nomic-archive"
    new = subprocess.run([script, "new", "content/fresh", "--ruleset", "suber-2nd", "--player", "Ann"],
                         cwd=elsewhere, capture_output=True, text=True, env=env)
    assert new.returncode == 0, new.stderr
    assert "### 213" in (elsewhere / "content" / "fresh" / "rules.md").read_text()
    python = source / ".venv" / "bin" / "python"
    shown = subprocess.run([python, "-c", "import generator, importlib.metadata as m; print(generator.__file__); "
                            "print(*[f for f in m.files('nomic-archive') if f.name == 'LICENSE'])"],
                           cwd=elsewhere, capture_output=True, text=True, env=env, check=True).stdout.splitlines()
    assert shown[0].startswith(str(source / ".venv"))  # the installed copy, not the checkout
    assert shown[1].endswith("LICENSE")  # the licence pyproject names ships with it
