"""Reading archive files: only regular files, within the caps, as UTF-8 (a BOM and CRLF accepted); numbers
read with limits; the Markdown tokens with their lines; and an entry's key paragraph (the log's entries, a
solitaire log's turns, earlier.md's proposals)."""
from __future__ import annotations

import datetime as dt
import difflib
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar


from ..errors import ErrorCollector
from ..limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_LINE_CHARS
from ..model import WrittenDecimal, as_amount

if TYPE_CHECKING:  # imported when first used: a build with nothing to do reads files and no Markdown
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


# A fenced block's opening line (CommonMark: three or more backticks or tildes, indented at most three spaces);
# with re.MULTILINE, so that `FENCE.search(text)` asks whether a text holds one.
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)


def closes_fence(line: str, marker: str) -> bool:
    """Whether `line` closes the fenced block that `marker` opened: the same character, at least as many, and
    nothing after them (CommonMark: "```python" inside a block of backticks is its text)."""
    m = FENCE.match(line)
    return bool(m) and m.group(1)[0] == marker[0] and len(m.group(1)) >= len(marker) and not line[m.end():].strip()


def new_markdown() -> MarkdownIt:
    """The one Markdown dialect of archives: CommonMark with tables, raw HTML off (rule text is untrusted), in a
    parser of its own for a caller to adjust. With raw HTML off, the rules that look for it answer no at every
    line and every `<`: they are left out (a twentieth of the time, the same tokens)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").disable(["html_block", "html_inline"])


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The dialect's parser, shared: not to be adjusted."""
    return new_markdown()


def decode(data: bytes, file: str, errors: ErrorCollector) -> str | None:
    """Text of a file's bytes, or None (with an error naming the line) when it is not UTF-8. In NFC, so that
    whatever is compared (players' names, titles, quoted phrases, rule texts) is the same text however it was
    typed: `é` as one character or as e and a combining accent (as macOS and copies from PDFs give)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        errors.add(file, line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8", column)
        return None
    if not unicodedata.is_normalized("NFC", text):  # (quick: an ASCII text is looked at no further)
        text = unicodedata.normalize("NFC", text)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text  # (a long log: two copies spared)


# A web address named where a file or folder belongs (`https://...`, which a path reads as `https:/...`)
_WEB_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:/")


def not_there(name: str, missing: str, fetch: str) -> str:
    """What to say of a file or folder named that is not there: for a web address, that only this computer's files
    are read, and how to bring it here (`fetch`)."""
    if _WEB_ADDRESS.match(name):
        return f"{missing}: a web address, and nomic-archive reads only the files on this computer: {fetch}"
    return missing


def read_bytes(path: Path, file: str, errors: ErrorCollector, *, root: Path | None = None,
               root_name: str = "the content folder", limit: int = MAX_FILE_BYTES,
               missing: str = "no such file") -> bytes | None:
    """The bytes of a regular file, or None with an error saying why it was not read.

    Nothing but a regular file is opened (a FIFO would block, /dev/zero never ends), a symbolic link leading
    out of `root` (called `root_name` in the error) is not followed (a log linked to /etc/passwd must not be
    published), and nothing past `limit` is read."""
    if root is not None and not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root)):
        errors.add(file, 0, f"leads out of {root_name} through a symbolic link (to "
                   f"{os.path.realpath(path)}); only files inside it are read")
        return None
    try:
        # Non-blocking, so that a FIFO cannot hang the open (nothing is read from one: see below).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        errors.add(file, 0, f"is a symbolic link to nothing ({os.readlink(path)})" if os.path.islink(path) else
                   not_there(file, missing, "save the page's text to a file (a wiki page's wikitext: its Edit "
                                            "source) and name the file"))
        return None
    except OSError as error:
        errors.add(file, 0, f"cannot read: {error.strerror}")
        return None
    mode, size = (info := os.fstat(fd)).st_mode, info.st_size
    if not stat.S_ISREG(mode):
        os.close(fd)
        errors.add(file, 0, f"is {_kind_of(mode)}, not a file; nothing was read from it")
        return None
    with os.fdopen(fd, "rb") as handle:
        if size > limit:
            errors.add(file, 0, too_large(size, limit, file))
            return None
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            errors.add(file, 0, f"cannot read: {error.strerror}")
            return None
    if len(data) > limit:  # it grew while being read
        errors.add(file, 0, too_large(len(data), limit, file))
        return None
    return data


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def too_large(size: int, limit: int, file: str) -> str:
    is_log = file.endswith("log.md") or "/log/" in file
    hint = " (split a long log into log/*.md, which are read in name order)" if is_log else ""
    return f"is {_size(size)}; such a file may hold at most {_size(limit)}{hint}"


def _size(size: int) -> str:
    return f"{size:,} bytes" if size < 1024 * 1024 else f"{size / (1024 * 1024):.1f} MB"


def check_line_lengths(text: str, file: str, errors: ErrorCollector, limit: int = MAX_LINE_CHARS) -> bool:
    """Whether every line is at most `limit` characters; if not, an error at the first longer one."""
    if len(text) <= limit:
        return True
    # A line longer than `limit` holds a whole stretch [k * half, (k + 1) * half) without a line break: a
    # long file is looked at stretch by stretch, and line by line only when one such stretch is found.
    half = max(1, limit // 2)
    if all(text.find("\n", start, start + half) >= 0 for start in range(0, len(text) - half + 1, half)):
        return True
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > limit:
            errors.add(file, number, f"line is {len(line):,} characters long; a line may hold at most {limit:,} "
                       "(is this a text file?)")
            return False
    return True


def read_text(path: Path, file: str, errors: ErrorCollector, *, root: Path | None = None,
              root_name: str = "the content folder", limit: int = MAX_FILE_BYTES, line_limit: int = MAX_LINE_CHARS,
              missing: str = "no such file") -> str | None:
    """A text file within the caps (see read_bytes), decoded; None, with the errors, when it cannot be read."""
    data = read_bytes(path, file, errors, root=root, root_name=root_name, limit=limit, missing=missing)
    text = decode(data, file, errors) if data is not None else None
    if text is None or not check_line_lengths(text, file, errors, line_limit):
        return None
    return text


class NumberTooLarge(ValueError):
    """A number with more digits than an archive needs (see read_int and read_decimal)."""


def read_int(text: str, *, signed: bool = False) -> int:
    """A whole number in ASCII digits (after one '+' or '-' when `signed`), at most MAX_DIGITS of them.

    Raises NumberTooLarge past the cap, ValueError when it is not such a number. `isdigit()` alone lets
    through digits that int() refuses ('²'), and int() refuses thousands of digits (or takes its time)."""
    sign, digits = (text[0], text[1:]) if signed and text[:1] in ("+", "-") else ("", text)
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError("not a whole number")
    digits = digits.lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise NumberTooLarge(f"number too large (at most {MAX_DIGITS} digits)")
    return int(sign + digits)


def read_decimal(text: str) -> Fraction:
    """An exact decimal in ASCII digits (`3`, `1.5`, `0.25`) as a Fraction: a whole number as read_int reads
    it, then at most MAX_DIGITS digits after the point.

    Raises NumberTooLarge past either cap, ValueError when it is not such a number. Fraction() alone would
    take '1e9', '-1', '1/3' and ' 1_0', and int() refuses the thousands of digits of a long fraction."""
    whole, point, decimals = text.partition(".")
    if point and not (decimals.isascii() and decimals.isdigit()):
        raise ValueError("not a decimal")
    number = read_int(whole)
    decimals = decimals.rstrip("0")
    if len(decimals) > MAX_DIGITS:
        raise NumberTooLarge(f"number too precise (at most {MAX_DIGITS} digits after the point)")
    return number + Fraction(int(decimals or "0"), 10 ** len(decimals))


def read_number(file: str, line: int, text: str | None, what: str, errors: ErrorCollector) -> int | None:
    """The number an entry's heading gives (`what`: 'proposal', 'judgment'), as read_int reads it; None with an
    error at `line` when it is none (and when there is no `text`)."""
    if text is None:
        return None
    try:
        return read_int(text)
    except NumberTooLarge as error:
        errors.add(file, line, f"{what} number '{shorten(text)}': {error}")
    except ValueError:
        errors.add(file, line, f"{what} number '{shorten(text)}' is not a whole number")
    return None


Number = TypeVar("Number")


def read_key_number(file: str, found: tuple[str, int], key: str, read: Callable[[str], Number], what: str,
                    errors: ErrorCollector) -> Number | None:
    """The number a key's value gives (`Power: 1.5`), as `read` reads it (read_int, read_decimal; a ValueError
    for any other value it refuses); None with an error at the key's line saying it must be `what`."""
    value, line = found
    try:
        return read(value.strip())
    except NumberTooLarge as error:
        errors.add(file, line, f"{key.capitalize()} '{shorten(value)}': {error}")
    except ValueError:
        errors.add(file, line, f"{key.capitalize()} '{value}' must be {what}")
    return None


def read_written_decimal(text: str) -> WrittenDecimal:
    """A decimal as read_decimal reads it, keeping how it was written (a power's `2.0`, format 1.4)."""
    return WrittenDecimal(read_decimal(text), text)


def read_amount(text: str) -> int | Fraction:
    """A score or a payment (after one '+' or '-'): a whole number as read_int reads it, or an exact decimal
    (format 1.2: `8.8`, `-2.5`) as a Fraction; a decimal that is whole (`9.0`) is the whole number."""
    sign, digits = (text[0], text[1:]) if text[:1] in ("+", "-") else ("", text)
    if "." not in digits:
        return read_int(text, signed=True)
    if not digits[:1].isdigit():  # read_decimal would take '.5'; a keeper writes 0.5
        raise ValueError("not a decimal")
    value = read_decimal(digits)
    return as_amount(-value if sign == "-" else value)


# Days written otherwise than the format's YYYY-MM-DD, each one day only (not 03/06/1982: June or March?).
_DAY_FORMS = ("%d %b %Y", "%d %B %Y", "%b %d, %Y", "%B %d, %Y", "%b %d %Y", "%B %d %Y", "%Y-%m-%d", "%Y/%m/%d",
              "%Y.%m.%d")


def day_written_otherwise(text: str) -> str:
    """`: write 2026-12-07` where `text` is one day written otherwise (`7 Dec 2026`, `December 7, 2026`,
    `2026/12/7`), to follow a message that it is no date; else ""."""
    for form in _DAY_FORMS:
        try:
            return f": write {dt.datetime.strptime(text.strip(), form).date().isoformat()}"
        except ValueError:
            continue
    return ""


def shorten(text: str, limit: int = 60) -> str:
    """Player text quoted in a message: its start, at most `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


# A line of a key paragraph: `Key: value`.
KEY_LINE = re.compile(r"^([A-Za-z][A-Za-z-]*)\s*:\s*(.*)$")
# Keys that tell a key paragraph from prose, whatever the kind of entry: a first paragraph naming one is keys.
_TELLING_KEYS = frozenset({"proposer", "judge", "date"})


@dataclass
class Keys:
    """The key paragraph of one entry: each value with its line."""

    values: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    end_line: int = 0  # 0-based line after the paragraph

    def one(self, key: str) -> tuple[str, int] | None:
        found = self.values.get(key)
        return found[0] if found else None

    def all(self, key: str) -> list[tuple[str, int]]:
        return self.values.get(key, [])


def read_keys(file: str, tokens: list[Token], blocks: list[tuple[int, Token]], allowed: tuple[str, ...],
              kind: str, errors: ErrorCollector, *, repeatable: Collection[str] = (),
              refuse: Callable[[str], str | None] | None = None) -> Keys:
    """The key paragraph of an entry whose blocks after its heading are `blocks` (each a token's index and the
    token): the first, when it is a paragraph and one of its lines names a key (`allowed`, or one of _TELLING_KEYS:
    a misspelt first key is named as such, not taken for prose). A line that is not a key continues the
    value above it. Errors at their lines: a key not `allowed` on a `kind` of entry (with the closest one), a key
    given twice that is not `repeatable`, and a line that `refuse` says why it must not continue a value."""
    keys = Keys()
    if not blocks or blocks[0][1].type != "paragraph_open":
        return keys
    index, paragraph = blocks[0]
    raw_lines = tokens[index + 1].content.split("\n")
    known = _TELLING_KEYS.union(allowed)
    if not any((m := KEY_LINE.match(raw)) and m.group(1).lower() in known for raw in raw_lines):
        return keys
    keys.end_line = paragraph.map[1]
    last_key: str | None = None
    wrapped: dict[tuple[str, int], list[str]] = {}  # joined once at the end: joining per line costs the square
    for offset, raw in enumerate(raw_lines):
        line = paragraph.map[0] + offset + 1
        m = KEY_LINE.match(raw)
        if not m:
            if refuse is not None and (why := refuse(raw.strip())):
                errors.add(file, line, why)
            elif last_key is not None:  # a wrapped value continues the key above it
                wrapped.setdefault((last_key, len(keys.values[last_key]) - 1), []).append(raw.strip())
            continue
        key, value = m.group(1).lower(), m.group(2).strip()
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.7)  # (0.6: 'Votes', did you mean 'Note'?)
            hint = f" (did you mean '{close[0].capitalize()}'?)" if close else ""
            errors.add(file, line, f"unknown key '{m.group(1)}' on a {kind}{hint}")
            last_key = None
            continue
        if key in keys.values and key not in repeatable:
            errors.add(file, line, f"'{m.group(1)}' appears twice (first at line {keys.values[key][0][1]})")
            last_key = None
            continue
        keys.values.setdefault(key, []).append((value, line))
        last_key = key
    for (key, index), parts in wrapped.items():
        value, value_line = keys.values[key][index]
        keys.values[key][index] = (" ".join(part for part in (value, *parts) if part), value_line)
    return keys


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
