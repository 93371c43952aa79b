"""The history importers against records a hostile contributor wrote (issue 44): each input is small and made
here, and each import either refuses with exit 2 and writes nothing, or writes a game that `check` reads,
saying on standard error and in IMPORT.md what it could not take as it was."""
from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from generator.cli import main
from helpers import git_commit

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
