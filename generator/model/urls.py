"""Names that become addresses on the site: a game's folder, a draft's file.

A folder name is written by whoever set up the archive; on the site it becomes the first segment of
relative links (`href="NAME/index.html"` on the index). A name such as `javascript:alert(1)` would make that
a live script link, and `a?b`, `a#b` or `..` would point elsewhere. So a name is used as it is only when it
is a plain segment (ASCII letters, digits, '-', '_', '.', not starting with '.'); any other is slugged.
"""
from __future__ import annotations

import functools
import re
import unicodedata

_SAFE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")
# The site's own files and folders at its root, and serve's: a game named so would overwrite them.
RESERVED = frozenset({"index.html", "404.html", "search-index.js", "sitemap.xml", "static", "__nomic"})
MAX_SEGMENT_CHARS = 100


@functools.lru_cache(maxsize=65536)  # every page's path is checked, its game's segment on each
def is_url_segment(text: str) -> bool:
    """Whether `text` may stand as one segment of a relative link as it is (nothing to escape, no scheme)."""
    return len(text) <= MAX_SEGMENT_CHARS and _SAFE.fullmatch(text) is not None


def url_segment(name: str) -> str:
    """`name` itself when it is a plain segment, else a slug of it: accents dropped, every run of other
    characters one '-', no '.' or '-' at either end, at most MAX_SEGMENT_CHARS characters; "game" when
    nothing is left. `javascript:alert(document.domain)` gives `javascript-alert-document.domain`."""
    if is_url_segment(name):
        return name
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = _UNSAFE_RUN.sub("-", ascii_name)[:MAX_SEGMENT_CHARS].strip(".-")
    return slug or "game"


def draft_page_name(file: str) -> str:
    """The name of a draft's page (before `.html`): its file's name without `.md`, as a URL segment."""
    return url_segment(file.rsplit("/", 1)[-1].removesuffix(".md"))
