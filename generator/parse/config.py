"""game.toml to the model's Config: TOML read with every problem tied to its line (tomllib keeps none)."""
from __future__ import annotations

import re
import tomllib
from typing import Any

from ..errors import ErrorCollector
from ..limits import MAX_DIGITS, MAX_NESTING, MAX_TOML_BYTES, MAX_TOML_LINE_CHARS
from ..model.config import POWER_KEYS, SECTION_CLASSES, Config, SettingError, alias_problems

_TOML_ERROR_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
# What tomllib's words for a keeper's usual slips mean, and what to write instead.
_TOML_HINTS = {
    "Invalid value": "a text needs quotes (title = \"Our Game\"), a date is written 2026-12-07, a list "
                     "[\"Ann\", \"Bob\"]",
    "Illegal character '\\n'": "a quoted text is not closed on its line: end it with the quote it opens with",
    "Found invalid character '\\n'": "a quoted text is not closed on its line: end it with the quote it opens with",
    "Unclosed array": "a list opened with [ above is not closed: end it with ], its items quoted and separated "
                      "by commas",
    "Expected newline or end of document after a statement": "something follows a value on its line: a text of "
                                                             "several words needs quotes, a date is written "
                                                             "2026-12-07, a comment starts with #",
    "Expected '=' after a key in a key/value pair": "a setting is written name = value",
    "Cannot overwrite a value": "this setting is set twice: keep one",
}
# What tomllib must not be given: brackets nested past its recursion limit, dotted keys of many parts (it
# takes the square of their length), and integers of thousands of digits (int() refuses them). Comments and
# strings are matched whole, so that what they hold does not count; a dot between digits is a number's.
_TOML_SHAPE = re.compile(r'''
    \#[^\n]*
  | """(?:[^"\\]|\\.|"(?!""))*(?:"""|\Z)
  | \'\'\'(?:[^']|'(?!''))*(?:\'\'\'|\Z)
  | "(?:[^"\\\n]|\\.)*"?
  | '[^'\n]*'?
  | (?P<open>[\[{])
  | (?P<close>[\]}])
  | (?<![A-Za-z0-9_])(?P<number>[0-9][0-9_]*)
  | (?P<dot>(?<![0-9])\.|\.(?![0-9]))
  | (?P<newline>\n)
''', re.VERBOSE | re.DOTALL)
_KEY_LINE = re.compile(r"""^\s*("[^"]*"|[A-Za-z0-9_.-]+)\s*=""")
_TABLE_LINE = re.compile(r"""^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]""")
_ARRAY_TABLE_LINE = re.compile(r"""^\s*\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]""")


def locate_keys(text: str) -> dict[str, int]:
    """Line of each dotted key in a TOML text; tomllib keeps no positions, and errors must name lines. Each
    table of an array of tables is numbered from 1 (the 2nd `[[sections]]` is "sections.2", its keys
    "sections.2.title"), and the array's name is at its first table."""
    lines: dict[str, int] = {}
    tables: dict[str, int] = {}  # how many tables of each array so far
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if m := _ARRAY_TABLE_LINE.match(line):
            tables[m.group(1)] = tables.get(m.group(1), 0) + 1
            lines.setdefault(m.group(1), number)
            table = f"{m.group(1)}.{tables[m.group(1)]}"
            lines.setdefault(table, number)
        elif m := _TABLE_LINE.match(line):
            table = m.group(1)
            lines.setdefault(table, number)
        elif m := _KEY_LINE.match(line):
            key = m.group(1).strip('"')
            lines.setdefault(f"{table}.{key}" if table else key, number)
    return lines


def toml_problem(text: str) -> tuple[int, str] | None:
    """The first line (1-based) of a TOML text that is too long, nests values too deep or writes a number with
    too many digits, and what is wrong; None when there is none. Checked before tomllib sees the text: it
    takes the square of a line's length over dotted keys, recurses once per bracket, and int() refuses
    numbers of more than 4,300 digits."""
    if len(text) > MAX_TOML_BYTES:
        return 1, f"is {len(text):,} characters long; game.toml may hold at most {MAX_TOML_BYTES:,}"
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_TOML_LINE_CHARS:
            return number, (f"line is {len(line):,} characters long; a line of TOML may hold at most "
                            f"{MAX_TOML_LINE_CHARS:,}")
    depth = dots = 0
    for token in _TOML_SHAPE.finditer(text):
        if token.group("open") or token.group("dot"):
            depth, dots = (depth + 1, dots) if token.group("open") else (depth, dots + 1)
            if depth > MAX_NESTING or dots > MAX_NESTING:
                return _line_at(text, token.start()), f"values nested more than {MAX_NESTING} deep"
        elif token.group("close"):
            depth = max(depth - 1, 0)
        elif token.group("newline"):
            dots = 0
        elif token.group("number") and len(token.group("number").replace("_", "").lstrip("0")) > MAX_DIGITS:
            return _line_at(text, token.start()), f"number too large (at most {MAX_DIGITS} digits)"
    return None


def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _too_deep(data: dict[str, Any]) -> str | None:
    """The first key whose value nests tables or arrays more than MAX_NESTING deep, as dotted keys
    (`a.b.c… = 1`) can (brackets were checked before parsing); None when all are shallower."""
    stack: list[tuple[str, Any, int]] = [(key, value, 1) for key, value in reversed(data.items())]
    while stack:
        key, value, depth = stack.pop()
        if depth > MAX_NESTING:
            return key
        if isinstance(value, dict):
            stack.extend((key, item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((key, item, depth + 1) for item in value)
    return None


def read_toml(text: str, file: str, errors: ErrorCollector) -> dict | None:
    """A TOML text read within the caps, each problem at its line (tomllib keeps none); None when it cannot be
    read (the problems in `errors`)."""
    if problem := toml_problem(text):
        errors.add(file, *problem)
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        m = _TOML_ERROR_POSITION.search(message)
        if m:
            line, column = int(m.group(1)), int(m.group(2))
        else:  # "(at end of document)": point at the last line
            line, column = max(len(text.splitlines()), 1), None
        said = _TOML_ERROR_POSITION.sub("", message)
        reason = said.replace(" (at end of document)", " at the end of the file")
        hint = _TOML_HINTS.get(said.removesuffix(" (at end of document)"))
        errors.add(file, line, f"not valid TOML: {reason}" + (f"; {hint}" if hint else ""), column)
        return None
    if (deep := _too_deep(data)) is not None:
        positions = locate_keys(text)
        line = min((at for key, at in positions.items() if key == deep or key.startswith(f"{deep}.")), default=1)
        errors.add(file, line, f"'{deep}': values nested more than {MAX_NESTING} deep")
        return None
    return data


def parse_config(text: str, file: str, errors: ErrorCollector, *, default_title: str = "") -> Config:
    """Read game.toml; problems go to `errors` (each with its line) and defaults stand in for bad values."""
    data = read_toml(text, file, errors)
    if data is None:
        return Config(title=default_title)
    positions = locate_keys(text)
    config = Config(title=default_title)
    for key, value in _flatten(data):
        line = _line_of(key, positions)
        if key in SECTION_CLASSES:
            errors.add(file, line, f"'{key}' must be a table: [{key}]")
            continue
        try:
            config = config.with_value(key, value)
        except SettingError as error:  # a table of an array, or a key in it
            errors.add(file, _line_of(error.key, positions), str(error))
        except ValueError as error:
            errors.add(file, line, str(error))
    for key in POWER_KEYS:
        if key in positions and not config.rules.power:
            errors.add(file, positions[key], f"{key} means something only with rules.power = true")
    if config.adoption.method == "fraction" and "adoption.fraction" not in positions:
        errors.add(file, positions.get("adoption.method", 1), "adoption.method is \"fraction\" but adoption.fraction is not set")
    for key, message in alias_problems(config):
        errors.add(file, _line_of(key, positions), message)
    if config.variant != "solitaire" and isinstance(data.get("solitaire"), dict):
        errors.add(file, positions.get("solitaire", 1), "[solitaire] applies only to a game with variant = \"solitaire\"")
    return config


def _line_of(key: str, positions: dict[str, int]) -> int:
    """The line of a dotted key, else of the nearest table that holds it (a key left out, or written inline)."""
    while key not in positions and "." in key:
        key = key.rpartition(".")[0]
    return positions.get(key, 1)


def _flatten(data: dict[str, Any]) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict) and key in SECTION_CLASSES:
            for sub, subvalue in value.items():
                if key == "scoring" and sub == "awards" and isinstance(subvalue, dict):  # one item per award
                    items.extend((f"scoring.awards.{name}", award) for name, award in subvalue.items())
                else:
                    items.append((f"{key}.{sub}", subvalue))
        else:
            items.append((key, value))
    return items


def parse_effect_value(text: str) -> Any:
    """The TOML value of an `Effect: key = value` line; raises ValueError in a person's words."""
    line = f"value = {text}"
    if problem := toml_problem(line):
        raise ValueError(problem[1])
    try:
        data = tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        raise ValueError(f"not a TOML value: {text} (strings need quotes: \"majority\")") from None
    if _too_deep(data) is not None:
        raise ValueError(f"values nested more than {MAX_NESTING} deep")
    return data["value"]
