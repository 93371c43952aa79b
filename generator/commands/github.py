"""`nomic-archive github-workflow`: writes the GitHub Actions workflow of a game played on GitHub (see
generator/workflows) to `.github/workflows/archive.yml` under the working directory."""
from __future__ import annotations

from ..errors import ArchiveError
from ..parse.folders import not_a_folder
from ..workflows import check_workflow_place, package_source, write_workflow
from . import content_folder


def run(args) -> int:
    content = content_folder(args.content, "github-workflow")
    if problem := not_a_folder(content):
        raise ArchiveError([problem])
    check_workflow_place(content, force=args.force)  # what is wrong with the place first, as new does
    write_workflow(content, package_source(args.package), force=args.force)
    return 0
