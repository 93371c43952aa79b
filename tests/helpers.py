"""Shared test helpers: copying fixture games, reading a built site, checking its links."""
from __future__ import annotations

import hashlib
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
GAMES = DATA / "games"


def copy_games(tmp_path: Path, *names: str) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    for name in names:
        shutil.copytree(GAMES / name, content / name)
    return content


def tree_digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if attributes.get("id"):
            self.ids.add(attributes["id"])


def parse_html(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    return collector


def broken_links(site: Path) -> list[str]:
    """Every relative href/src in every page that names no file (or no anchor) in the site; a path from the
    root ("/static/style.css", as 404.html links) is taken from the site's root."""
    problems = []
    parsed = {p: parse_html(p) for p in site.rglob("*.html")}
    for page, collector in parsed.items():
        for tag, attributes in collector.tags:
            for name in ("href", "src"):
                url = attributes.get(name)
                if not url or url.startswith(("http:", "https:", "mailto:")):
                    continue
                parts = urlsplit(url)
                folder = site if parts.path.startswith("/") else page.parent
                target = (folder / unquote(parts.path).lstrip("/")).resolve() if parts.path else page
                if not target.is_file():
                    problems.append(f"{page.relative_to(site)}: {name}={url} (no file)")
                elif parts.fragment and target.suffix == ".html":
                    ids = parsed[target].ids if target in parsed else parse_html(target).ids
                    if parts.fragment not in ids:
                        problems.append(f"{page.relative_to(site)}: {name}={url} (no anchor)")
    return problems
