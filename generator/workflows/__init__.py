"""The GitHub Actions workflow of a game played on GitHub (`.github/workflows/archive.yml` under the working
directory, the repository's root): on every pull request it installs nomic-archive and runs `check --format
github`, whose findings annotate the changed lines; on the main branch it builds the site and publishes it with
GitHub Pages' own actions. Written by `github-workflow` and by `new --github`; its template is archive.yml here.
"""
from __future__ import annotations

import json
import os
import sys
from importlib import metadata, resources
from pathlib import Path

from .. import __version__
from ..errors import ArchiveError, SourceError
from ..files import refuse_to_replace, write_atomic

WORKFLOW = Path(".github") / "workflows" / "archive.yml"


def check_workflow_place(content: Path, *, force: bool = False) -> str:
    """`content` as the workflow names it, from the working directory; raises ArchiveError (exit 2) when it lies
    outside, or when the workflow file exists and `force` does not say to replace it."""
    absolute = Path(os.path.abspath(content))
    if not absolute.is_relative_to(os.getcwd()):
        raise ArchiveError([SourceError(str(content), 0, "lies outside the working directory: run this from the "
                                        "root of the game's repository, where .github/ belongs; nothing was "
                                        "written")])
    refuse_to_replace(WORKFLOW, "github-workflow", force=force)
    return absolute.relative_to(os.getcwd()).as_posix()


def write_workflow(content: Path, *, package: str | None, force: bool = False) -> Path:
    """Write the workflow for `content` (a folder under the working directory); say what was written, and what
    the keeper must still do, on stderr. Raises ArchiveError (exit 2) rather than replace a file, unless `force`."""
    named = check_workflow_place(content, force=force)
    requirement, reachable = (package, True) if package else installed_requirement()
    write_atomic(WORKFLOW, workflow_text(named, requirement))
    print(f"wrote {WORKFLOW}: every pull request is checked, and each push to main publishes the site on GitHub "
          "Pages (turn Pages on once: Settings > Pages > Source: GitHub Actions)", file=sys.stderr)
    if not reachable:
        print(f"note: this nomic-archive was not installed from a package index or a repository that GitHub can "
              f"reach, so the workflow installs '{requirement}': set NOMIC_ARCHIVE_PACKAGE in {WORKFLOW} (or run "
              "again with --package) to where it can, e.g. git+https://github.com/OWNER/nomic-archive.git",
              file=sys.stderr)
    return WORKFLOW


def workflow_text(content: str, requirement: str) -> str:
    template = resources.files(__name__).joinpath("archive.yml").read_text(encoding="utf-8")
    # JSON strings are YAML's double-quoted strings: a name with quotes or backslashes stays one value.
    return (template.replace('"@PACKAGE@"', json.dumps(requirement)).replace('"@CONTENT@"', json.dumps(content))
            .replace("@VERSION@", __version__))


def installed_requirement() -> tuple[str, bool]:
    """What pip should install to get this very program, and whether a GitHub runner can: the repository and
    commit it was installed from (PEP 610's direct_url.json), or its name and version on the package index;
    for a copy installed from a local folder, the name and version, which the keeper must change."""
    pinned = f"nomic-archive=={__version__}"
    try:
        recorded = metadata.distribution("nomic-archive").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return pinned, False  # run from a source tree: nothing says where it came from
    if not recorded:
        return pinned, True  # installed from an index
    try:
        origin = json.loads(recorded)
        url = origin["url"]
    except (ValueError, KeyError, TypeError):
        return pinned, False
    if url.startswith("file:"):
        return pinned, False
    vcs = origin.get("vcs_info")
    if vcs:
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        return f"{vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else ""), True
    return url, True
