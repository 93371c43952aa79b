"""The GitHub Actions workflow of a game played on GitHub (`.github/workflows/archive.yml` under the working
directory, the repository's root): on every pull request it installs nomic-archive and runs `check --format
github`, whose findings annotate the changed lines; on the main branch it builds the site and publishes it with
GitHub Pages' own actions. Written by `github-workflow` and by `new --github`; its template is archive.yml here.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

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


@dataclass(frozen=True)
class PackageSource:
    """What the workflow gives pip to install nomic-archive, and where that is, as the keeper is told."""

    requirement: str
    said: str


def write_workflow(content: Path, source: PackageSource, *, force: bool = False) -> Path:
    """Write the workflow for `content` (a folder under the working directory), installing `source`; say what was
    written, and what the keeper must still do, on stderr. Raises ArchiveError (exit 2) rather than replace a
    file, unless `force`."""
    named = check_workflow_place(content, force=force)
    write_atomic(WORKFLOW, workflow_text(named, source.requirement))
    print(f"wrote {WORKFLOW}: every pull request is checked, and each push to main publishes the site on GitHub "
          "Pages (turn Pages on once: Settings > Pages > Source: GitHub Actions); it installs nomic-archive from "
          f"{source.requirement} ({source.said})", file=sys.stderr)
    return WORKFLOW


def workflow_text(content: str, requirement: str) -> str:
    template = resources.files(__name__).joinpath("archive.yml").read_text(encoding="utf-8")
    # JSON strings are YAML's double-quoted strings: a name with quotes or backslashes stays one value.
    return (template.replace('"@PACKAGE@"', json.dumps(requirement)).replace('"@CONTENT@"', json.dumps(content))
            .replace("@VERSION@", __version__))


HINT = ("name what it installs: --package 'git+https://github.com/OWNER/nomic-archive.git@COMMIT' (the repository "
        "and the commit to install), or --package ./PATH (a copy of nomic-archive inside this repository)")


def package_source(package: str | None) -> PackageSource:
    """What the workflow installs: the keeper's `--package`, held to what a GitHub runner can reach; without it,
    the very code running now, where the program can vouch that the runner gets exactly it. Anything else (a
    name on a package index that this copy did not come from, which anyone may register) is refused: raises
    ArchiveError (exit 2) with a hint, before anything is written."""
    if package is not None:
        return chosen_source(package)
    source = installed_source()
    if isinstance(source, str):
        raise ArchiveError([SourceError("--package", 0, f"{source}, so the workflow cannot install this very "
                                        f"nomic-archive; {HINT}; nothing was written")])
    return source


def installed_source() -> PackageSource | str:
    """Where this copy of nomic-archive came from, as a requirement that gives a runner exactly it (PEP 610's
    direct_url.json): a git commit, or a file with its hash, at an https address; else why not."""
    try:
        distribution = metadata.distribution("nomic-archive")
    except metadata.PackageNotFoundError:
        return "this nomic-archive runs from a folder of source, not from an installed package"
    recorded = distribution.read_text("direct_url.json")
    if recorded is None:  # an index, or pip's --find-links: neither the file nor its hash is recorded
        return (f"this nomic-archive {__version__} was installed from a package index, which leaves no record of "
                "the file it installed nor of its hash")
    try:
        origin = json.loads(recorded)
        url = origin["url"]
        vcs, archive = origin.get("vcs_info"), origin.get("archive_info")
        where = urlsplit(url)
    except (ValueError, KeyError, TypeError, AttributeError):
        return "this nomic-archive's record of where it was installed from (direct_url.json) cannot be read"
    if where.scheme != "https":
        return f"this nomic-archive was installed from {_shown(url)}, which a GitHub runner cannot reach"
    if where.username or where.password:
        return "this nomic-archive was installed from an address holding a user name, which a workflow must not publish"
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and _is_commit(vcs.get("commit_id")):
        inside = f"#subdirectory={origin['subdirectory']}" if isinstance(origin.get("subdirectory"), str) else ""
        return PackageSource(f"nomic-archive @ git+{url}@{vcs['commit_id']}{inside}", "the git commit this copy was "
                             "installed from")
    if isinstance(archive, dict) and (digest := _sha256(archive)):
        return PackageSource(f"nomic-archive @ {url}#sha256={digest}", "the file this copy was installed from, "
                             "held to its hash")
    return f"this nomic-archive was installed from {url} without a commit or a hash that pins it"


def chosen_source(package: str) -> PackageSource:
    """The keeper's `--package`: an https or git+https address (alone, or as `NAME @ URL`), a path inside the
    repository (the working directory), or a requirement by name (the keeper's word for what the index holds).
    Raises ArchiveError (exit 2) for what a runner cannot reach, or an address that would publish a password."""
    def refused(why: str) -> ArchiveError:
        return ArchiveError([SourceError("--package", 0, f"{why}; {HINT}; nothing was written")])
    address = package.partition(" @ ")[2].strip() or package.strip()
    if "://" in address:
        where = urlsplit(address)
        if where.scheme not in ("https", "git+https"):
            raise refused(f"'{_shown(address)}' is not an https address, which a GitHub runner can reach")
        if where.password:
            raise refused("the address holds a password, which the workflow (a file of the repository) would publish")
        pinned = where.scheme != "git+https" or _is_commit(where.path.rpartition("@")[2])
        return PackageSource(package.strip(), "as --package says" + ("" if pinned else "; it names no commit, so "
                             "each run installs what the branch or tag holds then"))
    if package.startswith((".", "/", "~")) or os.sep in package or os.path.lexists(package):
        absolute = Path(os.path.abspath(os.path.expanduser(package)))
        if not absolute.is_relative_to(os.getcwd()):
            raise refused(f"{package} lies outside the working directory (the repository's root), where a GitHub "
                          "runner cannot reach it")
        if not (absolute.is_file() and absolute.name.endswith((".whl", ".tar.gz", ".zip"))
                or (absolute / "pyproject.toml").is_file() or (absolute / "setup.py").is_file()):
            raise refused(f"{package} is neither a folder holding pyproject.toml nor a wheel or an sdist")
        relative = absolute.relative_to(os.getcwd()).as_posix()
        return PackageSource(f"./{relative}", "a copy inside this repository, as --package says")
    return PackageSource(package.strip(), "as --package says: what the package index holds under that name")


def _is_commit(text: object) -> bool:
    return isinstance(text, str) and len(text) == 40 and all(c in "0123456789abcdef" for c in text.lower())


def _sha256(archive: dict) -> str | None:
    """The sha256 a PEP 610 archive_info records (`hashes`, or the older `hash` as `sha256=…`)."""
    hashes = archive.get("hashes")
    digest = hashes.get("sha256") if isinstance(hashes, dict) else None
    if digest is None and isinstance(archive.get("hash"), str) and archive["hash"].startswith("sha256="):
        digest = archive["hash"].removeprefix("sha256=")
    return digest if isinstance(digest, str) and len(digest) == 64 else None


def _shown(url: str) -> str:
    """A file: URL as the folder or file it names, as a keeper knows it."""
    return url2pathname(urlsplit(url).path) if url.startswith("file:") else url
