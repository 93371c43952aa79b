"""`nomic-archive serve`: each page drawn when a browser asks for it, from the current replays, and open pages
told to reload after every save. Lektor's server records what each page read while it renders it and rebuilds,
in the background, the pages whose sources changed; this one records nothing: a save replays the games it
changed and lists their pages again, and a request draws the page it names from the current replay, so that no
page can be left stale by a dependency no one recorded. `LiveSite` updates and answers without threads or
sockets (the tests drive it directly); `EventHub`
carries each update's outcome to open pages as server-sent events; `SiteServer` answers on 127.0.0.1;
`Watcher` wires them to a watchdog observer and a debounced update thread.
"""
from __future__ import annotations

import errno
import gc
import json
import os
import queue
import secrets
import socket
import stat
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterable, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

from jinja2 import Environment, TemplateError
from markupsafe import Markup, escape
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

from .allocator import give_memory_back
from .errors import ArchiveError, SourceError, bug_message
from .parse.folders import game_folders, is_game, names_root
from .parse.game import address_problems
from .model.urls import url_segment
from .pipeline import Pipeline, Site, UnreadableGame
from .site.render import make_environment, package_templates, static_files, template_names, template_problem

EVENTS_PATH = "/__nomic/events"
# Where LIVE_RELOAD names the event stream: serve adds there which site the page was drawn from (EventHub.token).
EVENTS_OPENED = f'var stream = "{EVENTS_PATH}";'
# Editors save in bursts (a temporary file, a rename, a metadata touch) within a few milliseconds.
QUIET_SECONDS = 0.025
CONTENT_SUFFIXES = frozenset({".md", ".toml"})
TEMPLATE_SUFFIXES = frozenset({".html", ".xml", ".js", ".css", ".svg", ".txt"})
KEEPALIVE_SECONDS = 15
# How often serve looks whether a watched folder was replaced (removed and made again, renamed away and another
# put in its place): a watch follows the folder it was put on, not its name.
REARM_SECONDS = 0.5
# The problems the overlay lists, the first of them (with how many there are in all): a log broken on every
# line has thousands, and a page of thousands helps no one.
SHOWN_PROBLEMS = 300

# At the end of every page's <body> in serve only.
LIVE_RELOAD = Markup(f"<script>\n{Path(__file__).with_name('live_reload.js').read_text(encoding='utf-8')}</script>\n")

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".xml": "application/xml; charset=utf-8",
                 ".svg": "image/svg+xml", ".json": "application/json", ".txt": "text/plain; charset=utf-8",
                 ".ico": "image/x-icon", ".png": "image/png"}
HTML = CONTENT_TYPES[".html"]


@dataclass
class Update:
    games: int  # the games replayed
    errors: list[SourceError]  # non-empty: the last good site is still served
    seconds: float
    # The drafts it cannot read (their pages say why), each problem with its draft's file: (file, `file:line: ...`)
    drafts: list[tuple[str, str]] = field(default_factory=list)
    # The problems of the games never read since serve started (their pages say why; every other game is served)
    unreadable_games: list[SourceError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class Answer(NamedTuple):
    status: int  # 200, 301 (a folder without its slash: `data` is where to), 404, 500 (a template's error)
    content_type: str
    data: bytes


class LiveSite:
    """The site of `content` as serve answers it: its pages listed after each update, each drawn when asked."""

    def __init__(self, content: Path, *, live_reload: str = LIVE_RELOAD):
        self.content = Path(os.path.abspath(content))  # so that "serve ." names its game
        self.live_reload = live_reload
        self.pipeline = Pipeline(self.content, serving=True)
        self.site: Site | None = None  # the last good one
        self.errors: list[SourceError] = []  # of the last update
        self._drawn: dict[str, bytes] = {}  # pages of `site` drawn since it was listed
        self._statics: dict[str, bytes] = {}
        self._broken: dict[str, list[SourceError]] = {}  # games that failed to load, retried every update
        # Templates changed since the last good site: checked, in an environment of their own, once the content
        # can be read (a template saved while the log is broken is not forgotten).
        self._templates_pending = True
        self._lock = threading.Lock()  # one drawing at a time: the plans' indices keep a cursor
        self._root = self.content.resolve()
        self._template_roots = (package_templates().resolve(), (self.content / "_templates").resolve())
        self.base = names_root(self.content)  # what file names in errors are relative to

    def update(self, changed: Iterable[Path] | None = None) -> Update:
        """Replay the games the `changed` files belong to (every game: None) and list the site's pages again;
        what was drawn before is drawn again when asked for. A game that cannot be read keeps the last good site
        served, and `errors` say why until it is fixed; one never read since serve started is served as its
        problems (`unreadable_games`), beside every other game."""
        started = time.perf_counter()
        stale, templates_changed = self._stale(changed)
        self._templates_pending |= templates_changed
        folders = {folder.name: folder for folder in game_folders(self.content)} if self.content.is_dir() else {}
        slugs = {name: url_segment(name) for name in folders}  # each game's name on the site, as the pipeline's
        for slug in set(self.pipeline.replays) - set(slugs.values()):
            self.pipeline.forget(slug)
        for name in set(self._broken) - set(folders):
            del self._broken[name]
        # Replaying makes many objects and few cycles: the collector is kept off meanwhile, and what the
        # replays keep is frozen after, so that it never traverses them again.
        gc.disable()
        try:
            replayed = self._replay(folders, slugs, stale)
            # A game read before keeps its last good replay served, its problems over every page; one never read
            # has nothing to serve: its pages say what is wrong, and every other game is served meanwhile.
            unreadable = {name: problems for name, problems in sorted(self._broken.items())
                          if slugs[name] not in self.pipeline.replays}
            errors = self._problems(folders, unreadable) or self._publish(folders, slugs, unreadable)
        finally:
            gc.collect()
            gc.freeze()
            gc.enable()
        self.errors = errors
        drafts = sorted((draft.file, problem) for replay in self.pipeline.replays.values()
                        for draft in replay.game.unreadable_drafts for problem in draft.problems)
        return Update(sum(replayed), errors, time.perf_counter() - started, drafts,
                      [error for problems in unreadable.values() for error in problems])

    def _replay(self, folders: dict[str, Path], slugs: dict[str, str], stale: set[str] | None) -> list[bool]:
        """Each game a change touched (every game: `stale` None), broken, or not yet replayed, replayed; whether
        each loaded. Folders one address stands for (a problem `_problems` says) may each have left their replay
        there: read again every time, so that the one kept once the other is renamed is its own."""
        shared = {slug for slug, count in Counter(slugs.values()).items() if count > 1}
        return [self._load(name, folder) for name, folder in folders.items()
                if stale is None or name in stale or name in self._broken
                or slugs[name] not in self.pipeline.replays or slugs[name] in shared]

    def _problems(self, folders: dict[str, Path], unreadable: dict[str, list[SourceError]]) -> list[SourceError]:
        """What keeps the site from being listed again: two folders one address stands for, a game read before
        and broken since (not one never read: it is served as its problems), no game at all."""
        errors = address_problems(list(folders.values()))
        errors += [error for name in sorted(self._broken) if name not in unreadable for error in self._broken[name]]
        if not folders:
            errors.append(SourceError(str(self.content), 0, "holds no game (a game is a folder with game.toml)"))
        return errors

    def _publish(self, folders: dict[str, Path], slugs: dict[str, str],
                 unreadable: dict[str, list[SourceError]]) -> list[SourceError]:
        """The site listed again from the games' replays, and served, with the templates checked where they
        changed; what is wrong with the templates, if anything (then the last good site stays served)."""
        env = statics = None
        if self._templates_pending:
            env = make_environment(self.pipeline.overrides)
            statics, errors = self._templates_checked(env)
            if errors:
                return errors
        site = self.pipeline.site(
            [self.pipeline.replays[slugs[name]] for name in folders if name not in unreadable],
            unreadable={slugs[name]: UnreadableGame(name, tuple(map(str, problems[:SHOWN_PROBLEMS])), len(problems))
                        for name, problems in unreadable.items()})
        with self._lock:  # the site, and the templates it is drawn with, change together
            self.site, self._drawn = site, {}
            if env is not None:
                self.pipeline.env, self._statics, self._templates_pending = env, statics, False
        return []

    def _stale(self, changed: Iterable[Path] | None) -> tuple[set[str] | None, bool]:
        """The games (by folder) the `changed` files belong to (None: every game), and whether a template
        changed."""
        if changed is None:
            return None, True
        stale: set[str] = set()
        templates_changed = False
        for path in map(_absolute, changed):
            if any(path.is_relative_to(root) for root in self._template_roots):
                templates_changed = True
            elif path.is_relative_to(self._root):
                relative = path.relative_to(self._root).parts
                stale.add(self.content.name if is_game(self.content) or not relative else relative[0])
        return stale, templates_changed

    def _load(self, name: str, folder: Path) -> bool:
        """Parse and replay one game (resuming its last replay); whether it loaded. A game that fails, even by a
        bug, stays broken and is retried at every update, so its errors show (and nothing is drawn from its
        stale replay) until it is fixed."""
        try:
            self.pipeline.replay(folder)  # kept in pipeline.replays
        except ArchiveError as error:
            self._broken[name] = error.errors
            return False
        except Exception as error:  # a bug: shown like any problem, naming the game, until the next good load
            where = folder.relative_to(self.base).as_posix() if folder.is_relative_to(self.base) else str(folder)
            self._broken[name] = [SourceError(where, 0, bug_message(error, "this game"))]
            return False
        self._broken.pop(name, None)
        return True

    def _templates_checked(self, env: Environment) -> tuple[dict[str, bytes], list[SourceError]]:
        """Every template compiled in `env` and the static files read, as pages will need them: the static
        files, and what is wrong with either (then the last good site is served, with its templates)."""
        try:
            for name in template_names(self.pipeline.overrides):
                env.get_template(name)
            return dict(static_files(self.pipeline.overrides)), []
        except ArchiveError as error:
            return {}, error.errors
        except TemplateError as error:
            return {}, [template_problem(error)]

    def answer(self, path: str) -> Answer:
        """What serve answers to a GET of `path` (percent-decoded, without its query): a page of the site drawn
        (with the live reload script), a static file, a redirect from a folder to its index, or the site's 404
        page."""
        name = path.lstrip("/")
        if name == "" or name.endswith("/"):
            name += "index.html"
        if name in self._statics:
            return Answer(200, CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream"),
                          self._statics[name])
        with self._lock:
            site = self.site
            if site is None:  # the content could not be read yet
                return Answer(404, HTML, _problems_page(self.problems()))
            try:
                page = site.page(name)
                if page is None and site.page(f"{name}/index.html") is not None:
                    # From the name, not the path asked for: "/%2Fgame" must not send the browser to //game/.
                    return Answer(301, HTML, f"/{name}/".encode())
                status = 200 if page is not None else 404
                page = page or site.page("404.html")
                data = self._drawn.get(page.path) or self._draw(page)
            except ArchiveError as error:  # a template's error, found when drawing the page
                return Answer(500, HTML, _problems_page(self.problems(error.errors)))
            except Exception as error:  # a bug: said on this page and in the terminal, and serving goes on
                traceback.print_exc()
                where = SourceError(name, 0, bug_message(error, "this page"))
                return Answer(500, HTML, _problems_page(self.problems([where])))
        return Answer(status, CONTENT_TYPES.get(os.path.splitext(page.path)[1], HTML), data)

    def _draw(self, page) -> bytes:
        data = self._drawn[page.path] = self.pipeline.draw(page, live_reload=self.live_reload)
        return data

    def affects(self, path: Path, *, directory: bool = False) -> bool:
        """Whether a change to `path` can change the site (editor backups and swap files cannot)."""
        path = _absolute(path)
        if path.name.startswith((".", "#")) or path.name.endswith("~"):
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


def _absolute(path: Path) -> Path:
    """An absolute path with symlinks resolved in its folder (the file itself may be gone)."""
    path = Path(os.path.abspath(path))
    return path.parent.resolve() / path.name


def _problems_page(problems: list[dict]) -> bytes:
    """A page that cannot be drawn (the content cannot be read, or the page's template fails): the problems, and
    the live reload that draws it once a save fixes them."""
    items = "".join(f"<li><code>{escape(p['where'])}</code>: {escape(p['message'])}</li>" for p in problems)
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Cannot draw this page</title>"
            f"</head><body><h1>This page cannot be drawn</h1><ul>{items}</ul>{LIVE_RELOAD}</body></html>\n").encode()


# --- Events to the open pages ----------------------------------------------------------------------


class EventHub:
    """Server-sent events for every open page, and the last problems for pages opened while broken."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.SimpleQueue] = []
        self.error: str | None = None  # while the site is broken: the problems, as JSON (see publish)
        self.closed = threading.Event()
        # The site each outcome left, named by this process and a count: a page is served with the name of
        # the one it was drawn from, which its stream sends back (another process's name: serve restarted).
        self._process = secrets.token_hex(4)
        self._published = 0

    @property
    def token(self) -> str:
        """The name of the latest site."""
        return f"{self._process}-{self._published}"

    def subscribe(self, since: str | None = None) -> queue.SimpleQueue:
        """A stream's events. The first says what the site is now: broken (`error`), another than the one the
        page was drawn from (`since`: the token it was served with, so it missed what was published while it
        loaded: `reload`), or else which it is (`site`, for the other pages the stream's page speaks for)."""
        client: queue.SimpleQueue = queue.SimpleQueue()
        with self._lock:
            if self.error is not None:
                client.put(("error", self.error))
            elif since is not None and since != self.token:
                client.put(("reload", self._site()))
            else:
                client.put(("site", self._site()))
            self._clients.append(client)
        return client

    def _site(self) -> str:
        return json.dumps({"site": self.token})

    def unsubscribe(self, client: queue.SimpleQueue) -> None:
        with self._lock:
            self._clients.remove(client)

    def publish(self, update: Update, problems: list[dict]) -> None:
        """`reload` after a good update, else `error` with the problems (the first of the update's errors) and
        how many there are in all, as JSON."""
        with self._lock:
            self.error = None if update.ok else json.dumps(
                {"total": max(len(update.errors), len(problems)), "problems": problems}, ensure_ascii=False)
            self._published += 1
            for client in self._clients:
                client.put(("reload", self._site()) if update.ok else ("error", self.error))

    def close(self) -> None:
        self.closed.set()
        with self._lock:
            for client in self._clients:
                client.put(None)


# --- HTTP ------------------------------------------------------------------------------------------

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
# A connection's request line and headers must have come within this; one that has not is closed (a client
# that sends them slowly, or never, would hold its thread and its file for ever).
HEAD_SECONDS = 10.0
# A connection that sends or takes nothing for this long is closed (a page that stopped reading its stream).
IDLE_SECONDS = 60.0
# The most connections served at once (each a thread and a file): past it, the one waiting longest for its
# request is closed to make room (clients that never finish cannot keep a page from being answered), else the
# new one. Far above what a keeper's tabs use, far below the usual 1,024 open files.
MAX_CONNECTIONS = 256
# After accept() fails for want of files, memory or buffers, the next would fail alike: waiting this long
# first keeps the serving loop from spinning a core until a connection closes.
ACCEPT_BACKOFF_SECONDS = 0.1
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class SiteServer(ThreadingHTTPServer):
    """Serves `site`'s answers on 127.0.0.1 only, with the event stream of `hub`: at most MAX_CONNECTIONS at
    once, each closed when its request has not come within HEAD_SECONDS."""

    daemon_threads = True  # open event streams must not hold the process at exit
    # The listen backlog: socketserver's default of 5 dropped most of a burst (a page and its assets reloaded in
    # a few tabs, as live reload does after every save, is a hundred connections at once).
    request_queue_size = 128

    def __init__(self, site: LiveSite, hub: EventHub, port: int = 0):
        self.site = site
        self.hub = hub
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._awaited: dict[socket.socket, float] = {}  # connections whose request has not come, by deadline
        self._awaited_lock = threading.Lock()
        self._closing = threading.Event()
        super().__init__(("127.0.0.1", port), SiteRequestHandler)
        threading.Thread(target=self._close_late, name="nomic-late-requests", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def get_request(self):
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in _OUT_OF_RESOURCES:
                self._closing.wait(ACCEPT_BACKOFF_SECONDS)
            raise  # (socketserver passes over a failed accept)

    def process_request(self, request, client_address) -> None:
        if not self._slots.acquire(blocking=False):
            with self._awaited_lock:
                oldest = min(self._awaited, key=self._awaited.__getitem__, default=None)
            if oldest is not None:
                self._close(oldest)  # its thread ends, and gives its slot back
            if oldest is None or not self._slots.acquire(timeout=1):
                self.shutdown_request(request)
                return
        with self._awaited_lock:
            self._awaited[request] = time.monotonic() + HEAD_SECONDS
        try:
            super().process_request(request, client_address)  # a thread of its own
        except BaseException:
            self._done(request)
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._done(request)

    def request_came(self, request) -> None:
        with self._awaited_lock:
            self._awaited.pop(request, None)

    def _done(self, request) -> None:
        self.request_came(request)
        self._slots.release()

    def _close_late(self) -> None:
        """Close, twice a second, the connections whose request has not come by its deadline."""
        while not self._closing.wait(0.5):
            now = time.monotonic()
            with self._awaited_lock:
                late = [request for request, deadline in self._awaited.items() if deadline < now]
                for request in late:
                    del self._awaited[request]
            for request in late:
                self._close(request)

    def _close(self, request) -> None:
        """End a connection whose request has not come (its thread, waiting to read it, then ends)."""
        with self._awaited_lock:
            self._awaited.pop(request, None)
        try:
            request.shutdown(socket.SHUT_RDWR)
        except OSError:  # closed meanwhile
            pass

    def server_close(self) -> None:
        self._closing.set()
        super().server_close()

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):  # a page closed mid-response
            super().handle_error(request, client_address)


class SiteRequestHandler(BaseHTTPRequestHandler):
    server: SiteServer
    server_version = "nomic-archive"
    timeout = IDLE_SECONDS

    def parse_request(self) -> bool:
        parsed = super().parse_request()  # (reads the headers)
        self.server.request_came(self.connection)
        return parsed

    def do_GET(self) -> None:
        self._respond(body=True)

    def do_HEAD(self) -> None:
        self._respond(body=False)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal is for updates and errors, not for every request

    def _respond(self, body: bool) -> None:
        # Only local names: a page elsewhere cannot read this site by pointing its own name here (DNS rebinding).
        host = (self.headers.get("Host") or "127.0.0.1").rsplit(":", 1)[0]
        if host not in LOCAL_HOSTS:
            return self._send(403, "text/plain; charset=utf-8", b"forbidden\n", body)
        path = urlsplit(self.path).path
        if path == EVENTS_PATH:
            return self._events(parse_qs(urlsplit(self.path).query).get("since", [None])[0])
        # Named before the page is drawn: an update in between makes the page newer than its name says, and
        # the page is reloaded once more, never left older than the site.
        token = self.server.hub.token
        try:
            answer = self.server.site.answer(unquote(path, errors="strict"))
        except UnicodeDecodeError:  # percent-encoded bytes that are not UTF-8: no page is named so
            answer = self.server.site.answer("/404.html")._replace(status=404)
        if answer.status == 301:
            self.send_response(301)
            self.send_header("Location", answer.data.decode())
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        data = _named(answer.data, token) if answer.content_type == HTML else answer.data
        return self._send(answer.status, answer.content_type, data, body)

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
    """A page as served: its stream opened with the name of the site it was drawn from. LIVE_RELOAD ends the
    page's body, so the last such call is its own (player text escapes its quotes anyway)."""
    before, opened, after = page.rpartition(EVENTS_OPENED.encode())
    named = EVENTS_OPENED.replace(EVENTS_PATH, f"{EVENTS_PATH}?since={token}")
    return before + named.encode() + after if opened else page


# --- Watching and updating -------------------------------------------------------------------------


class UpdateLoop(threading.Thread, FileSystemEventHandler):
    """Takes the paths watchdog says changed and updates the site once they have been quiet for `quiet` seconds;
    between changes, every REARM_SECONDS, asks `rearm` whether a watched folder was replaced, and then updates
    every game."""

    def __init__(self, site: LiveSite, hub: EventHub, *, report: Callable[[Update], None],
                 quiet: float = QUIET_SECONDS, rearm: Callable[[], bool] = lambda: False):
        super().__init__(name="nomic-update", daemon=True)
        self.site, self.hub, self.quiet, self.report, self.rearm = site, hub, quiet, report, rearm
        self._changes: queue.SimpleQueue = queue.SimpleQueue()  # paths, and None to stop

    def notify(self, paths: Iterable[Path]) -> None:
        for path in paths:
            self._changes.put(path)

    def on_any_event(self, event) -> None:
        if event.event_type not in ("created", "modified", "deleted", "moved", "closed"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a file inside changed, and that has its own event
        paths = [event.src_path] + ([event.dest_path] if event.event_type == "moved" else [])
        self.notify(path for path in map(Path, map(os.fsdecode, paths))
                    if self.site.affects(path, directory=event.is_directory))

    def stop(self) -> None:
        self._changes.put(None)

    def run(self) -> None:
        changed: set[Path] = set()
        while True:
            try:
                path = self._changes.get(timeout=self.quiet if changed else REARM_SECONDS)
            except queue.Empty:  # quiet for long enough
                if changed:
                    self._update(changed)
                    changed = set()
                elif self._rearmed():
                    self._update(None)
                continue
            if path is None:
                return
            changed.add(path)

    def _rearmed(self) -> bool:
        try:
            return self.rearm()
        except Exception:  # noqa: BLE001 - a bug must not end serving: said on the terminal, tried again
            traceback.print_exc()
            return False

    def _update(self, changed: set[Path] | None) -> None:
        try:
            update = self.site.update(changed)
        except Exception as error:  # a bug must not end serving: say so, and wait for the next save
            traceback.print_exc()  # for the terminal only: the overlay is for keepers
            update = Update(0, [SourceError(str(self.site.content), 0, "while updating: "
                                            + bug_message(error, "the content folder"))], 0.0)
        self.report(update)
        self.hub.publish(update, self.site.problems(update.errors))


class Watches(FileSystemEventHandler):
    """The watches on serve's folders, each put again on the folder that stands at its name when that is another
    than the one watched: a folder removed and made again (a re-import, a fresh clone, a restore) or renamed away
    and copied back is watched again, not left with a watch on what went. Another folder is one of another
    device and inode, or one made after the watched one was removed (the system may give it the same inode):
    the events watchdog passes on to `handler` say that."""

    def __init__(self, observer: Observer, handler: FileSystemEventHandler, folders: list[Path]):
        self.observer, self.handler, self.folders = observer, handler, folders
        self._watched: dict[Path, tuple[tuple[int, int] | None, object]] = {}  # the folder watched, its watch
        self._removed: set[Path] = set()  # watched folders removed since the last look
        self._lock = threading.Lock()

    def dispatch(self, event) -> None:
        if event.is_directory and event.event_type in ("deleted", "moved"):
            path = Path(os.fsdecode(event.src_path))
            if path in self._watched:
                with self._lock:
                    self._removed.add(path)
        self.handler.dispatch(event)

    def arm(self) -> bool:
        """Watch each folder as it stands now; whether any was replaced (or went, or came) since the last call."""
        replaced = False
        with self._lock:
            removed, self._removed = self._removed, set()
        for folder in self.folders:
            identity = _identity(folder)
            watched, watch = self._watched.get(folder, (None, None))
            if folder in self._watched and identity == watched and folder not in removed:
                continue
            replaced |= folder in self._watched
            if watch is not None:
                try:
                    self.observer.unschedule(watch)
                except (KeyError, OSError):  # its emitter ended with the folder
                    pass
            try:
                watch = self.observer.schedule(self, str(folder), recursive=True) if identity else None
            except OSError:  # gone again meanwhile: tried at the next look
                identity, watch = None, None
            self._watched[folder] = (identity, watch)
        return replaced


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(folder)
    except OSError:
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISDIR(status.st_mode) else None


class Watcher:
    """Everything `serve` runs: the first update, the watcher, the update thread and the HTTP server."""

    def __init__(self, content: Path, *, report: Callable[[Update], None], port: int = 0):
        give_memory_back()  # serve lives long and updates in a thread of its own: see allocator.py
        self.site = LiveSite(content)
        self.hub = EventHub()
        self.observer = Observer()
        self.loop = UpdateLoop(self.site, self.hub, report=report)
        self.watches = Watches(self.observer, self.loop, self.site.watched_folders())
        self.loop.rearm = self.watches.arm
        self.server = SiteServer(self.site, self.hub, port)

    def start(self) -> Update:
        """Read every game, then watch and update in the background; serving is `server.serve_forever`."""
        update = self.site.update()
        self.hub.publish(update, self.site.problems())
        self.watches.arm()
        self.loop.start()
        self.observer.start()
        return update

    def close(self) -> None:
        self.observer.stop()
        self.loop.stop()
        self.hub.close()
        self.server.server_close()
        if self.observer.is_alive():
            self.observer.join(timeout=2)
        if self.loop.is_alive():
            self.loop.join(timeout=5)
