"""Files named as a command prints them: relative to the working directory, absolute when outside it, as
compilers and linters name them, so that a printed `file:line` opens in an editor or a terminal as it stands.

The model names an archive's files relative to the folder that holds its games (`slips-example/log.md`), as
the site shows them; only what a command prints is named from where the command runs.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from .errors import SourceError
from .model import Source
from .terminal import one_line


class Places:
    """Names relative to `root` (the folder that holds the games), as printed from the working directory. With
    no root, names are the user's own (a folder named on the command line, an option) and stay as given."""

    def __init__(self, root: Path | str | None) -> None:
        self.root = os.path.abspath(root) if root is not None else None
        self.cwd = os.getcwd()

    def path(self, name: str) -> str:
        if self.root is None:
            return name
        absolute = os.path.normpath(os.path.join(self.root, name))  # an absolute name stays itself
        if absolute == self.cwd:
            return "."
        if absolute.startswith(self.cwd.rstrip(os.sep) + os.sep):
            return os.path.relpath(absolute, self.cwd)
        return absolute

    def place(self, source: Source) -> str:
        return f"{self.path(source.file)}:{source.line}"

    def error(self, error: SourceError) -> str:
        """`file:line: message` on one line, the file named from the working directory."""
        return str(dataclasses.replace(error, file=self.path(error.file)))

    def finding(self, finding) -> str:
        """A Finding or an Override, on one line, every place in it named from the working directory."""
        return one_line(finding.shown(self.place))
