"""Reading archive files: UTF-8 (a BOM and CRLF accepted), and the Markdown tokens with their lines."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..errors import ErrorCollector


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The one Markdown dialect of archives: CommonMark with tables, raw HTML off (rule text is untrusted)."""
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def decode(data: bytes, file: str, errors: ErrorCollector) -> str | None:
    """Text of a file's bytes, or None (with an error naming the line) when it is not UTF-8."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        errors.add(file, line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8", column)
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: Path, file: str, errors: ErrorCollector) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as error:
        errors.add(file, 0, f"cannot read: {error.strerror}")
        return None
    return decode(data, file, errors)


def top_level_blocks(text: str) -> list[Token]:
    """The opening token of each top-level block (level 0), in order; each has a `.map` of lines."""
    return [t for t in markdown().parse(text) if t.level == 0 and t.nesting >= 0 and t.map is not None]


def slice_lines(lines: list[str], start: int, end: int) -> str:
    """Lines [start, end) (0-based, as token maps give them) joined, without blank lines at either end."""
    chunk = lines[start:end]
    while chunk and not chunk[0].strip():
        chunk.pop(0)
    while chunk and not chunk[-1].strip():
        chunk.pop()
    return "\n".join(chunk)


def unquote(lines: list[str]) -> str:
    """The Markdown inside a blockquote: each line without its `>` marker (lazy lines kept as they are)."""
    out = []
    for line in lines:
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3 and stripped.startswith(">"):
            stripped = stripped[1:]
            if stripped.startswith(" "):
                stripped = stripped[1:]
            out.append(stripped)
        else:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return "\n".join(out)
