"""Problems in an archive, each tied to the place in a file that a person must fix.

Parsing collects every problem it can before stopping, so a keeper sees all of them in one run.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import __version__
from .terminal import one_line


@dataclass(frozen=True, order=True)
class SourceError:
    """One problem at `file:line` (and column where it helps)."""

    file: str
    line: int
    message: str
    column: int | None = None

    def __str__(self) -> str:
        """`file:line: message` on one line, whatever the message quotes of player text (or a file's name)."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        if self.column:
            where += f":{self.column}"
        return one_line(f"{where}: {self.message}")


def bug_message(error: Exception, evidence: str = "the input that caused it") -> str:
    """What a crash says, on one line, wherever it surfaces (exit 3 on the command line, serve's overlay): what
    went wrong, that it is the program's fault, not the archive's, and what to send with a report. The
    traceback is for the terminal only (NOMIC_ARCHIVE_TRACEBACK=1, or serve's own output)."""
    return one_line(f"unexpected error ({type(error).__name__}: {error}); this is a bug in nomic-archive "
                    f"{__version__}: please report it with {evidence}")


class ArchiveError(Exception):
    """The input could not be read: carries every SourceError found (exit code 2).

    `root`: the folder the errors' file names are relative to (the one that holds the games), for a command to
    name them from where it runs (generator/places.py); None when they are named as the user named them."""

    def __init__(self, errors: list[SourceError], root: str | None = None):
        self.errors = sorted(errors, key=lambda e: (e.file, e.line, e.column or 0))
        self.root = root
        super().__init__("\n".join(str(e) for e in self.errors))

    def __reduce__(self):  # raised in a forked worker, it travels back to the parent pickled
        return ArchiveError, (self.errors, self.root)


class ErrorCollector:
    """Gathers errors while a parser goes on, then raises them all at once."""

    def __init__(self) -> None:
        self.errors: list[SourceError] = []

    def add(self, file: str, line: int, message: str, column: int | None = None) -> None:
        self.errors.append(SourceError(file, line, message, column))

    def extend(self, errors: list[SourceError]) -> None:
        self.errors.extend(errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ArchiveError(self.errors)
