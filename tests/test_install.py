"""A plain (not editable) install builds a site: templates and rulesets ship inside the wheel."""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sysconfig
import venv

from pathlib import Path

import pytest

from tests.helpers import GAMES, ROOT

pytestmark = pytest.mark.slow


def test_wheel_install_builds_a_site(tmp_path):
    source = tmp_path / "source"
    # Copy the checkout without build output, so the install sees only what git would.
    top_level_output = {"site", "build", "dist", "test-artifacts", ".venv"}
    everywhere = shutil.ignore_patterns(".git", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis")

    def ignore(folder, names):
        skipped = set(everywhere(folder, names))
        return skipped | (top_level_output & set(names) if folder == str(ROOT) else set())

    shutil.copytree(ROOT, source, ignore=ignore)
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    # The wheel goes in without its dependencies (no download); the environment running the tests has them.
    # Not the system's site packages: they are the base Python's, which lack them when the tests run in a
    # virtual environment (as after the README's `pip install '.[test]'` in a fresh venv). The new venv is
    # pointed at this environment's instead, after its own: the installed copy of the package comes first.
    ours = site.getsitepackages()
    new_site = sysconfig.get_paths(vars={"base": str(environment), "platbase": str(environment)})["purelib"]
    (Path(new_site) / "_tests_environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    python = environment / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet", str(source)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copytree(GAMES / "mini", elsewhere / "content" / "mini")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = environment / "bin" / "nomic-archive"
    built = subprocess.run([script, "build"], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert built.returncode == 0, built.stderr
    assert (elsewhere / "site" / "mini" / "rules" / "301.html").is_file()
    assert (elsewhere / "site" / "static" / "style.css").is_file()
    new = subprocess.run([script, "new", "content/fresh", "--ruleset", "suber-2nd", "--player", "Ann"], cwd=elsewhere,
                         capture_output=True, text=True, env=env)
    assert new.returncode == 0, new.stderr
    assert "### 213" in (elsewhere / "content" / "fresh" / "rules.md").read_text()
    module = subprocess.run([python, "-c", "import generator, sys; print(generator.__file__)"], cwd=elsewhere,
                            capture_output=True, text=True, env=env, check=True)
    assert str(environment) in module.stdout  # the installed copy, not the checkout
