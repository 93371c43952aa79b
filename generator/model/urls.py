"""Names that become addresses on the site (a game's folder, a draft's file), and the address it is published at.

A folder name is written by whoever set up the archive; on the site it becomes the first segment of
relative links (`href="NAME/index.html"` on the index). A name such as `javascript:alert(1)` would make that
a live script link, and `a?b`, `a#b` or `..` would point elsewhere. So a name is used as it is only when it
is a plain segment (ASCII letters, digits, '-', '_', '.', not starting with '.'); any other is slugged.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import urlsplit

_SAFE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")
# The site's own files and folders at its root, and serve's: a game named so would overwrite them.
# The site's own names beside the games' folders (lower case: a disk that ignores case takes `Static` for them).
# (Files, with a suffix no game's folder has, where they can be: a game may be named `search`.)
RESERVED = frozenset({"index.html", "404.html", "search-games.js", "search-index.js", "sitemap.xml", "static",
                      "__nomic"})
MAX_SEGMENT_CHARS = 100
# Latin letters that no decomposition takes to ASCII, spelled as their languages spell them without the letter
_SPELLED = str.maketrans({"Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "ß": "ss", "Ł": "L",
                          "ł": "l", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "ı": "i"})


@functools.lru_cache(maxsize=65536)  # every page's path is checked, its game's segment on each
def is_url_segment(text: str) -> bool:
    """Whether `text` may stand as one segment of a relative link as it is (nothing to escape, no scheme)."""
    return len(text) <= MAX_SEGMENT_CHARS and _SAFE.fullmatch(text) is not None


def url_segment(name: str, empty: str = "game") -> str:
    """`name` itself when it is a plain segment, else a slug of it: the Latin letters that no decomposition takes to
    ASCII spelled as their languages spell them without the letter (`Ørjan` -> `Orjan`, `Straße` -> `Strasse`),
    other accents dropped, every run of other characters one '-', no '.' or '-' at either end, at most
    MAX_SEGMENT_CHARS characters; `empty` when nothing is left. `javascript:alert(document.domain)` gives
    `javascript-alert-document.domain`."""
    if is_url_segment(name):
        return name
    spelled = name.translate(_SPELLED)
    return spelled if is_url_segment(spelled) else _slug(spelled, empty)


def former_url_segments(name: str) -> tuple[str, ...]:
    """The segments that sites built before these letters were spelled made of `name` (they were dropped: `Ørjan`
    was `rjan`), where url_segment makes another now: the addresses a game's folder had, which a site keeps
    working."""
    former = name if is_url_segment(name) else _slug(name, "game")
    return (former,) if former != url_segment(name) else ()


def _slug(name: str, empty: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = _UNSAFE_RUN.sub("-", ascii_name)[:MAX_SEGMENT_CHARS].strip(".-")
    return slug or empty


def draft_page_name(file: str) -> str:
    """The name of a draft's page (before `.html`): its file's name without `.md`, as a URL segment."""
    return url_segment(file.rsplit("/", 1)[-1].removesuffix(".md"))


def base_url_problem(text: str) -> str | None:
    """What is wrong with `--base-url` (the address a site is published at), or None. It is written into the
    404 page, the feeds and the sitemap: it must be an absolute http or https address of a host, on one line.
    `javascript:…//` would be a live link, `//evil.example/` would make the 404 page load its script from
    another host, a line break would land inside a sitemap's <loc>, and `example.org/nomic/` (no scheme) would
    make a sitemap of relative addresses."""
    if not text:
        return None  # no base URL: the site's links stay relative
    for character in text:
        if unicodedata.category(character) in ("Cc", "Cf", "Zl", "Zp") or character.isspace() or character == "\\":
            what, hint = {" ": ("a space", " (write it as %20)"), "\\": ("a backslash", " (a path is written with /)")
                          }.get(character, (f"the character U+{ord(character):04X}", ""))
            return f"holds {what}{hint}; an address is one line, without spaces or control characters"
    parts = urlsplit(text)
    example = "like https://example.org/nomic/"
    if parts.scheme.lower() not in ("http", "https") or not text.lower().startswith(f"{parts.scheme.lower()}://"):
        hint = f" (perhaps https://{text.lstrip('/')})" if not parts.scheme else ""
        return f"must be an absolute http or https address, {example}{hint}"
    try:
        host, _ = parts.hostname, parts.port  # a port that is no number is an error here
    except ValueError as error:
        return f"is not a valid address ({error}), {example}"
    if not host:
        return f"names no host; it must be an absolute http or https address, {example}"
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        return f"must be where the site's files are, without '?' or '#': {example}"
    return None
