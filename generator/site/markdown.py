"""Rule text and log prose to HTML. Players write it, so raw HTML is off and links are checked."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markupsafe import Markup

SAFE_SCHEMES = {"http", "https", "mailto"}


def is_safe_link(url: str) -> bool:
    """Web and mail links, and relative links; never javascript:, data:, file: or others."""
    cleaned = "".join(ch for ch in url if ch > " " and ch != "\x7f").strip()
    scheme = urlsplit(cleaned).scheme.lower()
    return scheme in SAFE_SCHEMES if scheme else True


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.validateLink = is_safe_link
    return md


_MD = _renderer()


def markdown_to_html(text: str) -> Markup:
    """HTML of a Markdown text that shows on one page (a proposal's own text): not worth keeping."""
    return Markup(_MD.render(text))


@lru_cache(maxsize=16384)
def render_markdown(text: str) -> Markup:
    """HTML of a Markdown text; cached by the text itself, since rule versions repeat across pages."""
    return markdown_to_html(text)


@lru_cache(maxsize=65536)
def render_inline(text: str) -> Markup:
    return Markup(_MD.renderInline(text))
