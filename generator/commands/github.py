"""`nomic-archive github-workflow`: writes the GitHub Actions workflow of a game played on GitHub (see
generator/workflows) to `.github/workflows/archive.yml` under the working directory."""
from __future__ import annotations

import os

from ..errors import ArchiveError, SourceError
from ..workflows import check_workflow_place, package_source, write_workflow
from . import content_folder


def run(args) -> int:
    content = content_folder(args.content, "github-workflow")
    if not os.path.isdir(content):
        raise ArchiveError([SourceError(str(content), 0, "no such folder" if not os.path.lexists(content)
                                        else "is not a folder")])
    check_workflow_place(content, force=args.force)  # what is wrong with the place first, as new does
    write_workflow(content, package_source(args.package), force=args.force)
    return 0
