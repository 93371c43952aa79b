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


@lru_cache(maxsize=256)
def render_prose(text: str, top: int) -> Markup:
    """A keeper's prose placed under a page's headings: its headings demoted so that the first level is
    `top` (a preamble's `# Title` becomes an h2 under the page's one h1), their order kept."""
    tokens = _MD.parse(text)
    levels = [int(t.tag[1]) for t in tokens if t.type in ("heading_open", "heading_close")]
    shift = max(0, top - min(levels)) if levels else 0
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + shift)}"
    return Markup(_MD.renderer.render(tokens, _MD.options, {}))


@lru_cache(maxsize=65536)
def render_inline(text: str) -> Markup:
    return Markup(_MD.renderInline(text))


@lru_cache(maxsize=65536)
def plain_text(text: str) -> str:
    """The words of a Markdown text without its markup, for search snippets: blocks and lines joined by spaces."""
    parts: list[str] = []
    for token in _MD.parse(text):
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
        if token.type in ("paragraph_close", "heading_close", "list_item_close", "code_block", "fence",
                          "th_close", "td_close"):
            parts.append(token.content if token.type in ("code_block", "fence") else " ")
    return " ".join("".join(parts).split())
