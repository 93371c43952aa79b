"""Players' names as the archive compares them, and the names no reader could tell apart.

- Every text is read in NFC (parse/source.py): `José` typed with a precomposed é and `José` with an e and a
  combining accent (as macOS and copies from PDFs give) are one name; `normal` does the same to a name from
  anywhere else (a TOML escape, the command line).
- A name holding an invisible format character (Unicode category Cf: zero-width spaces and joiners, bidi
  controls, the BOM), or a control character, is refused where it is read: `Bo\u200bb` votes beside Bob, and every reader sees Bob
  vote twice (`name_problem`, `invisible`).
- Two players whose names look alike (`Аnn`, with a Cyrillic А, and `Ann`) are a finding: their TR39
  skeletons (Unicode Technical Standard #39, section 4) are the same (`skeleton`, `look_alike`).

The skeleton is TR39's: the name in NFD, its default-ignorable characters removed, each character replaced by
its prototype in Unicode's table of confusables, and NFD again. The table is Unicode's confusables.txt as the
package confusable_homoglyphs keeps it: every pair of the file, both ways (`{"А": [{"c": "A"}], "A": [... "А"
...]}`), right-to-left characters between U+200E marks. A character that the file maps has one entry, its
prototype (a prototype is never mapped in turn), and a prototype lists the characters mapped to it: so a
character's prototype is its one entry, unless that entry lists it alone as well, the pair of a prototype and
its only look-alike, where either stands for both (the lesser, here). `_prototypes` reads it so, once, when a
name that is not ASCII asks for it (reading it takes a tenth of a second); names in ASCII alone are
compared by the table's ASCII part, `ASCII_PROTOTYPES`, which tests/test_names.py holds to the package's.
"""
from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources

# The prototypes of the printable ASCII characters that have one (TR39): `m` looks like `rn`, `I`, `1` and
# `|` like `l`, `0` like `O`. (The rest of the table maps other characters to these.)
ASCII_PROTOTYPES = {'"': "''", "%": "\u00ba/\u2080", "0": "O", "1": "l", "I": "l", "`": "'", "m": "rn", "|": "l"}
# A space, then x (or ×) and digits: what a Votes line reads as a ballot's strength (format 1.1).
_STRENGTH_SUFFIX = re.compile(r" [x\u00d7][0-9]+$")
# Default-ignorable code points (Unicode's DerivedCoreProperties) other than the format characters (Cf):
# invisible, and removed from a skeleton. (Category Cf is removed too, less U+FFF9-FFFB, U+13430-1343F and
# the prepended concatenation marks, which are shown.)
_IGNORABLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U0001bca0-\U0001bca3"
                        "\U000e0000-\U000e0fff]")
_SHOWN_FORMAT = frozenset(chr(c) for c in [*range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440), 0x0600, 0x0601,
                                           0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2,
                                           0x110BD, 0x110CD])


def normal(name: str) -> str:
    """A name as the archive compares it: NFC, without spaces at either end."""
    return unicodedata.normalize("NFC", name.strip())


def invisible(name: str) -> list[str]:
    """The invisible characters in a name, each once, in order: format characters (category Cf), and controls
    (Cc: a tab, DEL), which no reader sees either."""
    if name.isascii() and name.isprintable():  # (most names: none of either)
        return []
    return list(dict.fromkeys(c for c in name if unicodedata.category(c) in ("Cf", "Cc")))


def code_points(characters: list[str]) -> str:
    """`U+200B ZERO WIDTH SPACE, U+202E RIGHT-TO-LEFT OVERRIDE`."""
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '<control>')}" for c in characters)


def shown(name: str) -> str:
    """A name with every character outside printable ASCII written as its escape (`\\u0410nn`): what tells
    two look-alike names apart in a message, which shows them in the same glyphs."""
    return "".join(c if " " <= c <= "~" and c != "\\" else
                   f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in name)


def invisible_escaped(name: str) -> tuple[str, list[str]]:
    """A name with each invisible character written as its escape (`Bo\\u200bb`), as an importer writes what a
    record holds; and those characters (see invisible), none when the name is written as it is."""
    hidden = invisible(name)
    return ("".join(shown(c) if c in hidden else c for c in name) if hidden else name), hidden


def invisible_problem(name: str, what: str = "name") -> str | None:
    """Why a name (or a rule's title, `what`) cannot stand as it is written, when it holds invisible characters;
    else None."""
    hidden = invisible(name)
    if not hidden:
        return None
    seen = "".join(c for c in name if c not in hidden)
    return (f"the {what} '{shown(name)}' holds invisible characters ({code_points(hidden)}): every reader sees "
            f"'{seen}'; remove them")


def label_problem(label: str) -> str | None:
    """Why a `Label:` (the record's own name for a rule) cannot stand as written; else None."""
    if not label:
        return "'Label:' is empty: it gives the record's own name for the rule, like 'Label: 4E83'"
    return invisible_problem(label, "label")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's (in game.toml, `new --player`, `Players: +Name`): none that a Votes line
    could not write, nor one a reader cannot see. None when it can be."""
    if not name.strip():
        return "a player's name is empty"
    if problem := invisible_problem(name):
        return problem
    if "," in name or ";" in name:
        return (f"player '{name}' holds a '{',' if ',' in name else ';'}', which a Votes line reads as between two "
                "names (for A, B; against C): such a name cannot be written; rename the player")
    if _STRENGTH_SUFFIX.search(name):
        return (f"player '{name}' ends in a space, x and digits, which a Votes line reads as the strength of a "
                "ballot (format 1.1): such a name cannot be written; rename the player")
    return None


def skeleton(name: str) -> str:
    """The TR39 skeleton of a name: two names with the same skeleton look alike."""
    text = unicodedata.normalize("NFD", name)
    if text.isascii():
        prototypes = ASCII_PROTOTYPES
    else:
        prototypes = _prototypes()
        text = "".join(c for c in text if not _ignorable(c))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in text))


def look_alike(names: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """Each name that looks like an earlier one (a different name of the same skeleton), with that one."""
    first: dict[str, str] = {}
    pairs = []
    for name in names:
        key = skeleton(name)
        if key in first and first[key] != name:
            pairs.append((name, first[key]))
        first.setdefault(key, name)
    return pairs


def looks_like(name: str, other: str) -> str:
    """`\\u0410nn looks like Ann`: the two names told apart."""
    return f"{shown(name)} looks like {shown(other)}"


def _ignorable(character: str) -> bool:
    if unicodedata.category(character) == "Cf":
        return character not in _SHOWN_FORMAT
    return _IGNORABLE.match(character) is not None


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each character's prototype, from confusable_homoglyphs' table (see the module's docstring)."""
    table = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_bytes())
    mapped: dict[str, list[str]] = {}
    for key, entries in table.items():
        mapped.setdefault(key.replace("\u200e", ""), []).extend(e["c"].replace("\u200e", "") for e in entries)
    prototypes = {}
    for character, entries in mapped.items():
        if len(character) != 1 or len(entries) != 1:
            continue  # a prototype of several characters, or of several look-alikes
        target = entries[0]
        if mapped.get(target) == [character]:  # a prototype and its one look-alike: the lesser stands for both
            target = min(character, target)
        if target != character:
            prototypes[character] = target
    # A prototype's characters are prototypes themselves, but where a pair's lesser stands for both.
    for character, target in prototypes.items():
        if len(target) > 1:
            prototypes[character] = "".join(prototypes.get(c, c) for c in target)
    return prototypes
