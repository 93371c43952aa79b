"""Shared test helpers: copying fixture games, reading a built site, checking its links."""
from __future__ import annotations

import hashlib
import re
import shutil
import threading
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


def page_words(html: str) -> str:
    """A page's words as a reader sees them: its tags as spaces, its runs of white space as one."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def built_case(tmp_path: Path, case: Path, log: str | None = None) -> Path:
    """The site of a case folder's game (its log replaced by `log`, where given), built under tmp_path: the
    game's folder in it."""
    from generator.cli import main  # (helpers is imported by tests that never build)

    game = tmp_path / "content" / case.name
    shutil.copytree(case, game)
    (game / "expected.txt").unlink()
    if log is not None:
        (game / "log.md").write_text(log, encoding="utf-8")
    assert main(["build", str(game), "-o", str(tmp_path / "site"), "-q"]) == 0
    return tmp_path / "site" / case.name


def tree_digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def site_digest(folder: Path) -> dict[str, str]:
    """A site's files as a reader gets them: the build's marker and other dot files left out."""
    return {path: sha for path, sha in tree_digest(folder).items()
            if not any(part.startswith(".") for part in path.split("/"))}


def served_tree(live, built: Path) -> dict[str, str]:
    """What serve (a LiveSite without its live reload) answers at each path of the site `built` and at each of
    its own pages (but its drafts'), as site_digest gives a site: equal to site_digest(built) when serve draws
    the site that was built, no page more or less."""
    paths = set(site_digest(built)) | {page.path for page in live.site.every_page() if "/drafts/" not in page.path}
    return {path: hashlib.sha256(live.answer(f"/{path}").data).hexdigest() for path in sorted(paths)}


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
                elif parts.fragment and target.suffix == ".html" and target.name != "as-of.html":  # (drawn by its script)
                    ids = parsed[target].ids if target in parsed else parse_html(target).ids
                    if parts.fragment not in ids:
                        problems.append(f"{page.relative_to(site)}: {name}={url} (no anchor)")
    return problems


def git_commit(repo: Path, message: str, files: dict[str, str | None], *, date: str = "2020-01-01T12:00:00",
               author: str = "Ann", email: str | None = None) -> str:
    """Write (or, for None, delete) `files` in `repo` (made if new), commit them as `author` (at `email`, else
    theirs at example.org) on `date`; the id.

    The history importers' tests build their repositories this way: each commit a step of a game."""
    import os
    import subprocess

    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    for name, text in files.items():
        path = repo / name
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    email = email or f"{author.lower()}@example.org"
    env = dict(os.environ, GIT_AUTHOR_NAME=author, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=author,
               GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", message], check=True, env=env)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def knows_format_1_2() -> bool:
    """Whether this build's log parser reads format 1.2 (`## Unrecorded:`): tests of imports that write 1.2
    run `check` only then (the parser lands separately)."""
    from generator.errors import ErrorCollector
    from generator.parse.log import parse_log

    errors = ErrorCollector()
    parse_log([("log.md", "## Unrecorded: 2\n")], errors)
    return not errors.errors


def site_pages_of(replays) -> list:
    """Every page a build lists for these replays, none drawn."""
    from generator.pipeline import Pipeline

    return Pipeline(ROOT / "content").site(replays).every_page()


def write_site(pages, folder: Path) -> None:
    """Draw `pages` into `folder` (new), with the static files, as a build from nothing writes them."""
    from generator.site.render import make_environment, draw_all, static_files

    draw_all(make_environment(), pages, folder)
    for name, data in static_files():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


def in_own_thread(work) -> None:
    """Run `work` in a thread of its own: Playwright's sync API refuses a thread whose asyncio loop is
    running, as the browser tests' session-wide Playwright leaves the main thread's."""
    failures: list[BaseException] = []

    def target() -> None:
        try:
            work()
        except BaseException as error:  # handed to the test's thread below
            failures.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def import_ruleset(text: str, *, title: str | None = None, start: str | None = None, stop: str | None = None,
                   file: str | None = None) -> str:
    """rules.md for the ruleset in `text`, as `import text` writes it (read by rulesfile.read_ruleset, the notes
    dropped); `start`/`stop` name a line where the rules begin / end (exclusive)."""
    from generator.importers.rulesfile import read_ruleset, render_ruleset
    from generator.importers.text import DEFAULT_TITLE

    return render_ruleset(title or DEFAULT_TITLE, read_ruleset(text, file=file, start=start, stop=stop).rules)
