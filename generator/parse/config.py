"""game.toml to the model's Config: TOML read with every problem tied to its line (tomllib keeps none)."""
from __future__ import annotations

import re
import tomllib
from typing import Any

from ..errors import ErrorCollector
from ..model.config import POWER_KEYS, SECTION_CLASSES, Config

_TOML_ERROR_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_KEY_LINE = re.compile(r"""^\s*("[^"]*"|[A-Za-z0-9_.-]+)\s*=""")
_TABLE_LINE = re.compile(r"""^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]""")


def locate_keys(text: str) -> dict[str, int]:
    """Line of each dotted key in a TOML text; tomllib keeps no positions, and errors must name lines."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if m := _TABLE_LINE.match(line):
            table = m.group(1)
            lines.setdefault(table, number)
        elif m := _KEY_LINE.match(line):
            key = m.group(1).strip('"')
            lines.setdefault(f"{table}.{key}" if table else key, number)
    return lines


def parse_config(text: str, file: str, errors: ErrorCollector, *, default_title: str = "") -> Config:
    """Read game.toml; problems go to `errors` (each with its line) and defaults stand in for bad values."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        m = _TOML_ERROR_POSITION.search(message)
        if m:
            line, column = int(m.group(1)), int(m.group(2))
        else:  # "(at end of document)": point at the last line
            line, column = max(len(text.splitlines()), 1), None
        reason = _TOML_ERROR_POSITION.sub("", message).replace(" (at end of document)", " at the end of the file")
        errors.add(file, line, f"not valid TOML: {reason}", column)
        return Config(title=default_title)
    positions = locate_keys(text)
    config = Config(title=default_title)
    for key, value in _flatten(data):
        line = positions.get(key, positions.get(key.rpartition(".")[0], 1))
        if key in SECTION_CLASSES:
            errors.add(file, line, f"'{key}' must be a table: [{key}]")
            continue
        try:
            config = config.with_value(key, value)
        except ValueError as error:
            errors.add(file, line, str(error))
    for key in POWER_KEYS:
        if key in positions and not config.rules.power:
            errors.add(file, positions[key], f"{key} means something only with rules.power = true")
    if config.adoption.method == "fraction" and "adoption.fraction" not in positions:
        errors.add(file, positions.get("adoption.method", 1), "adoption.method is \"fraction\" but adoption.fraction is not set")
    if config.variant != "solitaire" and isinstance(data.get("solitaire"), dict):
        errors.add(file, positions.get("solitaire", 1), "[solitaire] applies only to a game with variant = \"solitaire\"")
    return config


def _flatten(data: dict[str, Any]) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict) and key in SECTION_CLASSES:
            items.extend((f"{key}.{sub}", subvalue) for sub, subvalue in value.items())
        else:
            items.append((key, value))
    return items


def parse_effect_value(text: str) -> Any:
    """The TOML value of an `Effect: key = value` line; raises ValueError in a person's words."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        raise ValueError(f"not a TOML value: {text} (strings need quotes: \"majority\")") from None
