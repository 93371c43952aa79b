"""`nomic-archive serve`: rebuild on every save, only what the save affects, and reload the open pages.

Four parts, each usable alone:

- `SiteBuilder` keeps each game's parsed log, replay and keyed plan (site/keyed.py) between rebuilds and a
  RenderState of the pages written, so a save re-loads only its own game, plans again only the parts of it
  whose inputs moved and re-renders only the pages whose deps did. No threads or sockets: the tests drive it
  directly.
- `EventHub` carries rebuild outcomes to open pages as server-sent events; a page that opens its stream
  while the site is broken, or after a rebuild newer than the page, is told so first.
- `SiteServer` serves the site folder on 127.0.0.1, and nothing outside it (`resolve_request`).
- `LiveSite` wires them to a watchdog observer and a debounced rebuild thread.
"""
from __future__ import annotations

import gc
import json
import mimetypes
import os
import queue
import re
import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterable, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

from jinja2 import TemplateError
from markupsafe import Markup
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from .allocator import give_memory_back, trim_heap
from .pipeline import replay_games
from .engine.replay import Replay
from .engine.solitaire import SolitaireReplay
from .errors import ArchiveError, SourceError, bug_message
from .places import Places
from .parallel import available_cores
from .parse.game import game_folders, is_game
from .parse.log import LogParser
from .preview import DraftPreview, preview_draft
from .site.keyed import KeyedPlan, plan_keyed, replan
from .site.pages import SITE_TITLE, SolitaireGame, game_plan, site_pages, sitemap_paths, solitaire_game
from .site.compare_pages import compare_pages
from .site.views import GamePlan, Page, game_view
from .site.render import (RenderState, forget_drawn, make_environment, package_templates, template_problem,
                          write_pages)

EVENTS_PATH = "/__nomic/events"
# How LIVE_RELOAD opens the event stream: serve adds there which site the page was read from (EventHub.token).
EVENTS_OPENED = f'new EventSource("{EVENTS_PATH}")'
# Editors save in bursts (a temporary file, a rename, a metadata touch) within a few milliseconds.
QUIET_SECONDS = 0.025
SETTLE_AFTER_SECONDS = 0.3  # after a rebuild is published: see RebuildLoop.run
CONTENT_SUFFIXES = frozenset({".md", ".toml"})
TEMPLATE_SUFFIXES = frozenset({".html", ".xml", ".js", ".css", ".svg"})
KEEPALIVE_SECONDS = 15
# The problems the overlay lists, the first of them (with how many there are in all): a log broken on every
# line has thousands, and a page of thousands helps no one.
SHOWN_PROBLEMS = 300

# Injected at the end of every page's <body> in serve mode only. The overlay is built from text nodes:
# file text is shown, never parsed as HTML.
LIVE_RELOAD = Markup("""<script>
(function () {
  "use strict";
  var overlay = null;
  function show(data) {
    if (overlay) { overlay.remove(); overlay = null; }
    var problems = data.problems || [];
    if (!problems.length) return;
    overlay = document.createElement("div");
    overlay.id = "nomic-error-overlay";
    overlay.setAttribute("role", "alert");
    overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2rem;" +
      "background:rgba(24,24,27,.95);color:#fafafa;font:16px/1.5 system-ui,sans-serif;text-align:left";
    var heading = document.createElement("h2");
    heading.style.cssText = "margin:0 0 .5rem;color:#fca5a5;font-size:1.4rem";
    heading.textContent = "The site could not be rebuilt";
    var hint = document.createElement("p");
    hint.textContent = "The last good build is still served. Fix the file and this page reloads by itself.";
    // Dismissed with its button or Escape, to read the last good page; the next save shows it again.
    var close = document.createElement("button");
    close.type = "button";
    close.id = "nomic-error-close";
    close.textContent = "Hide (Esc)";
    close.style.cssText = "float:right;min-height:44px;padding:0 1rem;font:inherit;color:#18181b;" +
      "background:#fafafa;border:0;border-radius:4px;cursor:pointer";
    close.addEventListener("click", hide);
    overlay.setAttribute("aria-labelledby", "nomic-error-heading");
    heading.id = "nomic-error-heading";
    overlay.append(close, heading, hint);
    if (data.total > problems.length) {
      var count = document.createElement("p");
      count.id = "nomic-error-count";
      count.textContent = "The first " + problems.length + " of " + data.total + " problems:";
      overlay.append(count);
    }
    problems.forEach(function (problem) {
      var item = document.createElement("section");
      item.className = "nomic-problem";
      item.style.cssText = "margin:1rem 0;padding:.6rem .9rem;border-left:4px solid #f87171;background:#27272a";
      var where = document.createElement("code");
      where.className = "nomic-where";
      where.style.cssText = "font-weight:700;color:#fde68a";
      where.textContent = problem.where;
      var message = document.createElement("div");
      message.textContent = problem.message;
      item.append(where, message);
      if (problem.text) {
        var line = document.createElement("pre");
        line.className = "nomic-line";
        line.style.cssText = "margin:.4rem 0 0;padding:.4rem .6rem;background:#18181b;color:#e4e4e7;" +
          "white-space:pre-wrap;font:14px ui-monospace,monospace";
        line.textContent = problem.line + " | " + problem.text;
        item.append(line);
      }
      overlay.append(item);
    });
    document.body.append(overlay);
    close.focus();
  }
  function hide() {
    if (overlay) { overlay.remove(); overlay = null; }
  }
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });
  // The stream opens with the problems when the site is broken, or a reload when the page is older than it.
  var events = """ + EVENTS_OPENED + """;
  events.addEventListener("reload", function () { location.reload(); });
  // EventSource also fires "error" (without data) when the connection drops; only ours carry data.
  events.addEventListener("error", function (event) { if (event.data) show(JSON.parse(event.data)); });
})();
</script>
""")

# Served for a missing page before any build succeeded: just enough for the overlay to show.
NO_SITE_YET = f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not built</title></head>" \
              f"<body><h1>No site yet</h1>{LIVE_RELOAD}</body></html>\n"


@dataclass
class RebuildResult:
    written: list[str] = field(default_factory=list)  # pages rendered, site-relative
    errors: list[SourceError] = field(default_factory=list)  # non-empty: nothing was written
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class _LoadedGame:
    replay: Replay | SolitaireReplay
    drafts: list[DraftPreview]
    plan: GamePlan | SolitaireGame | None = None  # what its pages were last planned from
    keyed: KeyedPlan | None = None  # and what each part of them read, to plan again only what an edit reached
    paths: frozenset[str] = frozenset()  # its pages
    sitemap: tuple[str, ...] = ()  # those the sitemap lists


class SiteBuilder:
    """Builds `content` into `out`, then rebuilds after changes, touching only what they affect."""

    def __init__(self, content: Path, out: Path, *, live_reload: str = LIVE_RELOAD):
        self.content = Path(os.path.abspath(content))  # so that "serve ." names its game
        self.out = Path(out)
        self.live_reload = live_reload
        self.overrides = self.content / "_templates"
        self.env = make_environment(self.overrides)
        self.state = RenderState()
        self.errors: list[SourceError] = []  # of the last rebuild
        self._games: dict[str, _LoadedGame] = {}  # by folder name
        self._broken: dict[str, list[SourceError]] = {}  # games that failed to load, retried every rebuild
        self._undrawn: set[str] = set()  # games loaded since their pages were last drawn
        self.parser = LogParser()  # remembers each log's entries from save to save
        self._gone: set[str] = set()  # the pages of games whose folders went, not yet removed
        self._unsettled = False  # a rebuild ran and left the collector off (see settle)
        self._root = self.content.resolve()
        self._template_roots = (package_templates().resolve(), self.overrides.resolve())
        self._out = self.out.resolve()
        # File names in errors are relative to the folder that holds the games.
        self.base = self.content.parent if is_game(self.content) else self.content

    def build_all(self, *, jobs: int = 1, settle: bool = True) -> RebuildResult:
        """Load every game and render every page, on `jobs` processes (forked: only before any other thread
        runs, as LiveSite.start calls it). `settle`: as `rebuild`."""
        try:
            return self._build_all(jobs)
        finally:
            if settle:
                self.settle()

    def _build_all(self, jobs: int) -> RebuildResult:
        self._games.clear()
        self._broken.clear()
        self._undrawn.clear()
        self.state = RenderState()
        result = self._update(stale=set(), templates_changed=True, jobs=jobs)
        forget_drawn()  # the whole site's HTML and redlines: an edit redraws a few pages
        # Bar the comparison of the start with now, whose parts an edit to a rule draws again: what they
        # show is drawn once more (their redlines, kept), or the first such edit would take twice the next.
        for game in self._games.values():
            if isinstance(game.plan, GamePlan):
                for page in compare_pages(game.plan):
                    if page.template == "compare.html":  # the parts of start-now
                        page.full_context()
        return result

    def rebuild(self, changed: Iterable[Path], *, settle: bool = True) -> RebuildResult:
        """Rebuild after the files `changed` were written, created, moved or deleted; `settle` after it, unless
        the caller will once the rebuild is shown (the collector is off until then)."""
        try:
            return self._rebuild(changed)
        finally:
            if settle:
                self.settle()

    def settle(self) -> None:
        """Put away what the last rebuild left, once it is shown (a few to a few hundred milliseconds): its cycles
        collected (a template's macro makes one with the page it draws), what outlives it frozen, so that the
        collector never walks the whole site again (and frozen, a cycle would never be collected), and the
        pages it freed handed back to the system (allocator.py)."""
        if self._unsettled:
            self._unsettled = False
            gc.collect()
            gc.freeze()
            gc.enable()
            trim_heap()

    def _rebuild(self, changed: Iterable[Path]) -> RebuildResult:
        stale: set[str] = set()
        templates_changed = False
        for path in map(_absolute, changed):
            if any(path.is_relative_to(root) for root in self._template_roots):
                templates_changed = True
            elif path.is_relative_to(self._root):
                relative = path.relative_to(self._root).parts
                stale.add(self.content.name if is_game(self.content) or not relative else relative[0])
        return self._update(stale, templates_changed)

    def affects(self, path: Path, *, directory: bool = False) -> bool:
        """Whether a change to `path` can change the site (editor backups and swap files cannot)."""
        path = _absolute(path)
        if path.is_relative_to(self._out) or path.name.startswith((".", "#")) or path.name.endswith("~"):
            return False
        if any(path.is_relative_to(root) for root in self._template_roots):
            return directory or path.suffix in TEMPLATE_SUFFIXES
        return path.is_relative_to(self._root) and (directory or path.suffix in CONTENT_SUFFIXES)

    def watched_folders(self) -> list[Path]:
        """The folders to watch: the content (its _templates included) and the bundled templates."""
        return [self._root, self._template_roots[0]]

    def problems(self, errors: list[SourceError] | None = None) -> list[dict]:
        """Errors as the overlay shows them: where, what, and the offending line of the file; the first
        SHOWN_PROBLEMS of them (a log broken on every line has thousands), each file read once."""
        files: dict[str, list[str]] = {}
        return [{"where": f"{e.file}:{e.line}" if e.line else e.file, "file": e.file, "line": e.line,
                 "message": e.message, "text": self._line_of(e.file, e.line, files)}
                for e in (self.errors if errors is None else errors)[:SHOWN_PROBLEMS]]

    def _line_of(self, file: str, line: int, files: dict[str, list[str]]) -> str:
        if line < 1:
            return ""
        if file not in files:
            try:
                files[file] = (self.base / file).read_bytes().decode("utf-8-sig", errors="replace").splitlines()
            except OSError:
                files[file] = []
        lines = files[file]
        return lines[line - 1].rstrip()[:500] if line <= len(lines) else ""

    def _update(self, stale: set[str], templates_changed: bool, jobs: int = 1) -> RebuildResult:
        started = time.perf_counter()
        written: list[str] = []
        folders = {folder.name: folder for folder in game_folders(self.content)} if self.content.is_dir() else {}
        for name in set(self._games) - set(folders):
            self._gone |= self._games.pop(name).paths
        for name in set(self._broken) - set(folders):
            del self._broken[name]
        self._undrawn &= set(folders)
        # Parsing, replaying and planning make many objects and few cycles: the collector stays off until the
        # rebuild is shown (see settle).
        gc.disable()
        try:
            for name, folder in folders.items():
                if name in stale or name in self._broken or name not in self._games:
                    if self._load(name, folder):
                        self._undrawn.add(name)
            errors = [error for name in sorted(self._broken) for error in self._broken[name]]
            if not folders:
                errors.append(SourceError(str(self.content), 0, "holds no game (a game is a folder with game.toml)"))
            if not errors:
                if templates_changed:
                    self.env = make_environment(self.overrides)
                    self.state.fingerprints.clear()
                    self._undrawn |= set(self._games)
                try:
                    pages, removed = self._plan(self._undrawn, whole=templates_changed)
                    written = write_pages(self.env, pages, self.out, self.state, live_reload=self.live_reload,
                                          overrides=self.overrides, remove=removed | self._gone, jobs=jobs)
                    self._undrawn, self._gone = set(), set()  # (a bug raised before this: drawn at the next save)
                except TemplateError as error:
                    errors.append(template_problem(error))
                except ArchiveError as error:  # a template's error, found while drawing a page
                    errors.extend(error.errors)
                finally:
                    for name in self._undrawn:  # not drawn: what changed since the pages were is unknown
                        self._games[name].keyed = None
        finally:
            self._unsettled = True
        self.errors = errors
        return RebuildResult(written, errors, time.perf_counter() - started)

    def _load(self, name: str, folder: Path) -> bool:
        """Parse and replay one game (resuming its last replay, see engine/replay.py); whether it loaded. A game
        that fails, even by a bug, stays broken and is retried at every rebuild, so its errors show (and nothing
        is rebuilt from its stale replay) until it is fixed."""
        previous = self._games.get(name)
        try:
            (replay_,) = replay_games(folder, drafts=True, previous=previous.replay if previous else None,
                                      checkpoints=True, parser=self.parser)
            loaded = _LoadedGame(replay_, [preview_draft(replay_, draft) for draft in replay_.game.drafts])
        except ArchiveError as error:
            self._broken[name] = error.errors
            return False
        except Exception as error:  # a bug: shown like any problem, naming the game, until the next good load
            where = folder.relative_to(self.base).as_posix() if folder.is_relative_to(self.base) else str(folder)
            self._broken[name] = [SourceError(where, 0, bug_message(error, "this game"))]
            return False
        self._broken.pop(name, None)
        if previous is not None:  # its pages as last drawn, and the plan the next one is made from
            loaded.plan, loaded.keyed = previous.plan, previous.keyed
            loaded.paths, loaded.sitemap = previous.paths, previous.sitemap
        self._games[name] = loaded
        return True

    def _plan(self, names: set[str], whole: bool = False) -> tuple[list[Page], set[str]]:
        """The pages of the games `names` and the pages above the games, and the paths of pages no longer
        planned. A game's pages are planned again where the edit reached (site/keyed.py), or, when it moved the
        game's skeleton (or `whole`: the templates changed), all of them; which of them to draw is the
        fingerprints' business (render.write_pages)."""
        pages: list[Page] = []
        removed: set[str] = set()
        games = [self._games[name] for name in sorted(self._games)]
        for name in sorted(names):
            game = self._games[name]
            if isinstance(game.replay, SolitaireReplay):
                game.plan = solitaire_game(game.replay)
                game_pages = game.plan.pages
                paths, sitemap = frozenset(page.path for page in game_pages), tuple(sitemap_paths(game_pages))
            else:
                replanned = replan(game.keyed, game.replay) if game.keyed is not None and not whole else None
                if replanned is None:
                    # The last plan lends its memo and search index, and is let go before the new one's pages are
                    # made: two whole plans of a long game at once are a hundred megabytes.
                    earlier, game.plan, game.keyed = game.keyed.plan if game.keyed else None, None, None
                    plan = game_plan(game.replay, earlier)
                    del earlier
                    keyed, game_pages = plan_keyed(plan)
                else:
                    keyed, game_pages = replanned
                game.plan, game.keyed, paths, sitemap = keyed.plan, keyed, keyed.paths, keyed.sitemap
            drafts = _draft_pages(game, SITE_TITLE)
            paths |= {page.path for page in drafts}
            removed |= game.paths - paths
            game.paths, game.sitemap = paths, sitemap
            pages += game_pages + drafts
        pages += site_pages([game.plan for game in games], pages, site_title=SITE_TITLE, base_url="",
                            sitemap=[path for game in games for path in game.sitemap])
        return pages, removed


def _draft_pages(game: _LoadedGame, site_title: str) -> list[Page]:
    about = game_view(game.replay)
    slug = about["slug"]
    common = {"game": about, "game_title": about["title"], "site_title": site_title, "base_url": ""}
    pages = [Page(f"{slug}/drafts/index.html", "drafts.html", {**common, "drafts": game.drafts},
                  deps=repr((about, game.drafts)))]
    for draft in game.drafts:
        pages.append(Page(f"{slug}/drafts/{draft.stem}.html", "draft.html", {**common, "preview": draft},
                          deps=repr((about, draft))))
    return pages


def _absolute(path: Path) -> Path:
    """An absolute path with symlinks resolved in its folder (the file itself may be gone)."""
    path = Path(os.path.abspath(path))
    return path.parent.resolve() / path.name


# --- Events to the open pages ----------------------------------------------------------------------


class EventHub:
    """Server-sent events for every open page, and the last problems for pages opened while broken."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.SimpleQueue] = []
        self.problems: list[dict] = []
        self.total = 0  # how many problems there are, of which `problems` are the first
        self.closed = threading.Event()
        # The site each outcome left, named by this process and a count: a page is served with the name of
        # the one it was read from, which its stream sends back (another process's name: serve restarted).
        self._process = secrets.token_hex(4)
        self._published = 0

    @property
    def token(self) -> str:
        """The name of the latest site."""
        return f"{self._process}-{self._published}"

    def subscribe(self, since: str | None = None) -> queue.SimpleQueue:
        """A stream's events. A page that opened the stream while the site is broken, or that was read from
        another site than the latest (`since`: the token it was served with), missed what was published
        while it loaded: its first event says so."""
        client: queue.SimpleQueue = queue.SimpleQueue()
        with self._lock:
            if self.problems:
                client.put(("error", self._payload()))
            elif since is not None and since != self.token:
                client.put(("reload", "{}"))
            self._clients.append(client)
        return client

    def unsubscribe(self, client: queue.SimpleQueue) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def publish(self, result: RebuildResult, problems: list[dict]) -> None:
        """`reload` after a successful rebuild, else `error` with the problems (the first of the result's
        errors) and how many there are, as JSON."""
        with self._lock:
            self.problems, self.total = problems, max(len(result.errors), len(problems))
            self._published += 1
            message = ("reload", "{}") if result.ok else ("error", self._payload())
            for client in self._clients:
                client.put(message)

    def _payload(self) -> str:
        return json.dumps({"total": self.total, "problems": self.problems}, ensure_ascii=False)

    def close(self) -> None:
        self.closed.set()
        with self._lock:
            for client in self._clients:
                client.put(None)


# --- HTTP ------------------------------------------------------------------------------------------


class Resolution(NamedTuple):
    status: int  # 200 a file, 301 a folder without its slash, 403 refused, 404 nothing there
    path: Path | None = None


# Percent-encoded slashes, backslashes and NUL would change how the path splits once decoded.
_ENCODED_SEPARATOR = re.compile(r"%(?:2f|5c|00)", re.IGNORECASE)
# No file system names a file longer (in bytes); asking it about one is an error, not "not found".
MAX_SEGMENT_BYTES = 255


def resolve_request(site: Path, request_path: str) -> Resolution:
    """The file a request path names inside `site`, refusing anything that could leave it."""
    path = request_path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/") or path.startswith("//") or _ENCODED_SEPARATOR.search(path):
        return Resolution(403)
    decoded = unquote(path, errors="strict")
    segments = decoded.split("/")[1:]
    # "..", "C:", backslashes: nothing a static site names, and each could reach outside it.
    if any(s in (".", "..") or ":" in s or "\\" in s or "\x00" in s for s in segments):
        return Resolution(403)
    if any(len(s.encode("utf-8", "surrogateescape")) > MAX_SEGMENT_BYTES for s in segments):
        return Resolution(404)
    try:
        root = site.resolve()
        target = root.joinpath(*segments).resolve()
        if not target.is_relative_to(root):
            return Resolution(403)  # a symlink leading out
        if target.is_dir():
            if not decoded.endswith("/"):
                return Resolution(301)  # so that the index's relative links resolve from the folder
            target = (target / "index.html").resolve()
            if not target.is_relative_to(root):
                return Resolution(403)
        return Resolution(200, target) if target.is_file() else Resolution(404)
    except OSError:  # a path the file system refuses to look up (too long, a loop): nothing served there
        return Resolution(404)


CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".xml": "application/xml; charset=utf-8",
                 ".svg": "image/svg+xml", ".json": "application/json", ".txt": "text/plain; charset=utf-8"}
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})


class SiteServer(ThreadingHTTPServer):
    """Serves `site` on 127.0.0.1 only, with the event stream of `hub`."""

    daemon_threads = True  # open event streams must not hold the process at exit
    # The listen backlog: socketserver's default of 5 dropped most of a burst (a page and its assets reloaded in
    # a few tabs, as live reload does after every save, is a hundred connections at once).
    request_queue_size = 128

    def __init__(self, site: Path, hub: EventHub, port: int = 0):
        self.site = Path(site)
        self.hub = hub
        super().__init__(("127.0.0.1", port), SiteRequestHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a page closed mid-response is normal
            super().handle_error(request, client_address)


class SiteRequestHandler(BaseHTTPRequestHandler):
    server: SiteServer
    server_version = "nomic-archive"

    def do_GET(self) -> None:
        self._respond(body=True)

    def do_HEAD(self) -> None:
        self._respond(body=False)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal is for rebuilds and errors, not for every request

    def _respond(self, body: bool) -> None:
        # Only local names: a page elsewhere cannot read this site by pointing its own name here (DNS rebinding).
        host = (self.headers.get("Host") or "127.0.0.1").rsplit(":", 1)[0]
        if host not in LOCAL_HOSTS:
            return self._send(403, "text/plain; charset=utf-8", b"forbidden\n", body)
        path = self.path.split("?", 1)[0]
        if path == EVENTS_PATH:
            return self._events(parse_qs(urlsplit(self.path).query).get("since", [None])[0])
        # Named before the file is read: a rebuild in between makes the page newer than its name says, and
        # the page is reloaded once more, never left older than the site.
        token = self.server.hub.token
        try:
            resolution = resolve_request(self.server.site, self.path)
        except UnicodeDecodeError:  # percent-encoded bytes that are not UTF-8
            resolution = Resolution(404)
        if resolution.status == 200:
            content_type = CONTENT_TYPES.get(resolution.path.suffix) or \
                mimetypes.guess_type(resolution.path.name)[0] or "application/octet-stream"
            try:
                data = resolution.path.read_bytes()
            except OSError:  # removed by a rebuild since it was found
                return self._send(404, "text/html; charset=utf-8", _named(self._not_found_page(), token), body)
            if content_type.startswith("text/html"):
                data = _named(data, token)
            return self._send(200, content_type, data, body)
        if resolution.status == 301:
            self.send_response(301)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if resolution.status == 403:
            return self._send(403, "text/plain; charset=utf-8", b"forbidden\n", body)
        return self._send(404, "text/html; charset=utf-8", _named(self._not_found_page(), token), body)

    def _not_found_page(self) -> bytes:
        page = self.server.site / "404.html"
        if not page.is_file():
            return NO_SITE_YET.encode("utf-8")
        # 404.html links from the host's root ("/static/style.css"), which is where serve puts the site.
        return page.read_bytes()

    def _send(self, status: int, content_type: str, data: bytes, body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _events(self, since: str | None) -> None:
        hub = self.server.hub
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        client = hub.subscribe(since)
        try:
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            while not hub.closed.is_set():
                try:
                    message = client.get(timeout=KEEPALIVE_SECONDS)
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")  # also finds out when the page has gone
                    self.wfile.flush()
                    continue
                if message is None:
                    break
                event, data = message
                self.wfile.write(f"event: {event}\ndata: {data}\n\n".encode("utf-8"))
                self.wfile.flush()
        except ConnectionError:
            pass
        finally:
            hub.unsubscribe(client)


def _named(page: bytes, token: str) -> bytes:
    """A page as served: its stream opened with the name of the site it was read from. LIVE_RELOAD ends the
    page's body, so the last such call is its own (player text escapes its quotes anyway)."""
    before, opened, after = page.rpartition(EVENTS_OPENED.encode())
    named = EVENTS_OPENED.replace(EVENTS_PATH, f"{EVENTS_PATH}?since={token}")
    return before + named.encode() + after if opened else page


# --- Watching and rebuilding -----------------------------------------------------------------------


def print_result(result: RebuildResult, root: Path | None = None) -> None:
    """What a rebuild did, on the terminal; files named from the working directory when `root` says what the
    errors' names are relative to (the folder that holds the games)."""
    if result.ok:
        print(f"rebuilt {len(result.written)} pages in {result.seconds:.2f}s", file=sys.stderr)
    else:
        places = Places(root)
        for error in result.errors:
            print(places.error(error), file=sys.stderr)
        print("the last good site is still served; fix the file and it rebuilds", file=sys.stderr)


class RebuildLoop(threading.Thread):
    """Collects changed paths and rebuilds once they have been quiet for `quiet` seconds."""

    def __init__(self, builder: SiteBuilder, hub: EventHub, *, quiet: float = QUIET_SECONDS,
                 report: Callable[[RebuildResult], None] = print_result):
        super().__init__(name="nomic-rebuild", daemon=True)
        self.builder, self.hub, self.quiet, self.report = builder, hub, quiet, report
        self._changed: set[Path] = set()
        self._last_change = 0.0
        self._wake = threading.Condition()
        self._stopping = False

    def notify(self, paths: Iterable[Path]) -> None:
        with self._wake:
            self._changed.update(paths)
            self._last_change = time.monotonic()
            self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()

    def run(self) -> None:
        while True:
            with self._wake:
                while not self._changed and not self._stopping:
                    self._wake.wait()
                while not self._stopping and (wait := self._last_change + self.quiet - time.monotonic()) > 0:
                    self._wake.wait(wait)
                if self._stopping:
                    return
                changed, self._changed = self._changed, set()
            try:
                result = self.builder.rebuild(changed, settle=False)
            except Exception as error:  # a bug must not end serving: say so, and wait for the next save
                traceback.print_exc()  # for the terminal only: the overlay is for keepers
                result = RebuildResult(errors=[SourceError(str(self.builder.content), 0, "while rebuilding: "
                                                           + bug_message(error, "the content folder"))])
            self.report(result)
            self.hub.publish(result, self.builder.problems(result.errors))
            # Settled once the reload is out and the page read again: the collector holds the interpreter while it
            # runs (20-60 ms at 10,000 proposals), and the event and the browser's request would wait for it. A
            # change meanwhile settles it at once, before the next rebuild.
            with self._wake:
                self._wake.wait_for(lambda: self._changed or self._stopping, timeout=SETTLE_AFTER_SECONDS)
            self.builder.settle()


class _ChangeHandler(FileSystemEventHandler):
    def __init__(self, builder: SiteBuilder, loop: RebuildLoop):
        self.builder, self.loop = builder, loop

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in ("created", "modified", "deleted", "moved", "closed"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a file inside changed, and that has its own event
        paths = [event.src_path] + ([event.dest_path] if event.event_type == "moved" else [])
        relevant = [Path(os.fsdecode(p)) for p in paths
                    if self.builder.affects(Path(os.fsdecode(p)), directory=event.is_directory)]
        if relevant:
            self.loop.notify(relevant)


class LiveSite:
    """Everything `serve` runs: the first build, the watcher, the rebuild thread and the HTTP server."""

    def __init__(self, content: Path, out: Path, *, port: int = 0, quiet: float = QUIET_SECONDS,
                 report: Callable[[RebuildResult], None] = print_result):
        give_memory_back()  # serve lives long and rebuilds in a thread of its own: see allocator.py
        self.builder = SiteBuilder(content, out)
        self.hub = EventHub()
        self.loop = RebuildLoop(self.builder, self.hub, quiet=quiet, report=report)
        self.observer = Observer()
        self.server = SiteServer(out, self.hub, port)

    def start(self) -> RebuildResult:
        """Build everything, then watch and rebuild in the background; serving is `serve_forever`."""
        result = self.builder.build_all(jobs=available_cores(), settle=False)  # no other thread yet: workers may fork
        self.hub.publish(result, self.builder.problems())
        self.builder.settle()
        handler = _ChangeHandler(self.builder, self.loop)
        for folder in self.builder.watched_folders():
            if folder.is_dir():
                self.observer.schedule(handler, str(folder), recursive=True)
        self.loop.start()
        self.observer.start()
        return result

    def serve_forever(self) -> None:
        self.server.serve_forever(poll_interval=0.2)

    def close(self) -> None:
        self.observer.stop()
        self.loop.stop()
        self.hub.close()
        self.server.server_close()
        if self.observer.is_alive():
            self.observer.join(timeout=2)
        if self.loop.is_alive():
            self.loop.join(timeout=5)
