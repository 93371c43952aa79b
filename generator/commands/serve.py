"""`nomic-archive serve`: the site on 127.0.0.1, each page drawn when a browser asks for it, open pages reloaded
after every save."""
from __future__ import annotations

import errno
import signal
import sys
import threading
import webbrowser
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..parse.folders import names_root, not_a_folder
from ..places import Places
from ..serve import Update, Watcher
from ..terminal import counted
from . import content_folder


class UpdatePrinter:
    """What each update did, on the terminal; files named from the working directory (`root`: the folder the
    errors' names are relative to, the one that holds the games). An update that finds the very problems the one
    before it found says nothing: a save by rename (vim, `sed -i`) comes as several file events, often two
    updates, and the keeper needs to read the problems once."""

    def __init__(self, root: Path) -> None:
        self.places = Places(root)
        self.shown: list[str] = []  # the problems printed last, as printed
        self.drafts: list[tuple[str, str]] = []  # the unreadable drafts' problems printed last
        self.games: list[str] = []  # the unreadable games' problems printed last, as printed
        self.drawn = False  # an update has replayed every game: there is a last good site to serve

    def __call__(self, update: Update) -> None:
        problems = [self.places.error(error) for error in update.errors]
        if update.ok:
            self.drawn = True
            print(f"replayed {counted(update.games, 'game')} in {update.seconds:.2f}s", file=sys.stderr)
            self.say_unreadable(update)
        elif problems != self.shown:
            for problem in problems:
                print(problem, file=sys.stderr)
            print("the last good site is still served; fix the file and it is drawn again" if self.drawn else
                  "there is no site to serve yet: each page says what is wrong until the file is fixed",
                  file=sys.stderr)
        self.shown = problems

    def say_unreadable(self, update: Update) -> None:
        """Why each game and draft serve cannot read is not served, once for each change of what is wrong (their
        pages say so too), each file named from the working directory: a keeper reads it where they started serve."""
        games = [self.places.error(error) for error in update.unreadable_games]
        if games and games != self.games:
            for problem in games:
                print(problem, file=sys.stderr)
            print("a game that cannot be read is not served: its pages say what is wrong until the file is fixed; "
                  "every other game is served", file=sys.stderr)
        self.games = games
        self.say_drafts(update)

    def say_drafts(self, update: Update) -> None:
        """Why each draft serve cannot read is not previewed, once (its page says so too), its file named from the
        working directory: a proposer previewing a draft reads it where they started serve."""
        if update.drafts != self.drafts:
            for file, problem in update.drafts:
                print(f"{self.places.path(file)}{problem.removeprefix(file)} (the draft is not previewed; every other "
                      "page is served)", file=sys.stderr)
        self.drafts = update.drafts


def _stop_serving(server):
    """A signal handler that ends `server.serve_forever` from a thread of its own (the only way: shutdown waits for
    the serving loop). Raising KeyboardInterrupt there instead lands wherever the loop is: while a request's
    thread starts, socketserver took it for a failed request, and serving went on after Ctrl-C."""
    def stop(signum, frame) -> None:
        threading.Thread(target=server.shutdown, name="nomic-stop", daemon=True).start()
    return stop


def _serving_here(port: int) -> bool:
    """Whether what answers on 127.0.0.1:`port` is nomic-archive's serve (a keeper who ran serve twice)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("HEAD", "/")
        return (connection.getresponse().getheader("Server") or "").startswith("nomic-archive")
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def run(args) -> int:
    content = content_folder(args.content, "serve")
    if problem := not_a_folder(content):
        raise ArchiveError([problem])
    print_update = UpdatePrinter(names_root(content))
    try:
        watcher = Watcher(content, port=args.port, report=print_update)
    except (OSError, OverflowError) as error:  # the port is taken, or is no port
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        taken = isinstance(error, OSError) and error.errno == errno.EADDRINUSE
        hint = (", by another nomic-archive serve: its site is at http://127.0.0.1:{0}/ (Ctrl-C in its terminal stops "
                "it)".format(args.port) if taken and _serving_here(args.port) else "") + \
            ("; --port 0 picks a free one" if taken else "")
        raise ArchiveError([SourceError(f"127.0.0.1:{args.port}", 0, f"cannot serve there: {reason}{hint}")]) \
            from None
    try:  # (until serving starts, SIGTERM is Ctrl-C, as for every command: cli.main)
        first = watcher.start()
        for each in (signal.SIGINT, signal.SIGTERM):
            signal.signal(each, _stop_serving(watcher.server))
        if first.ok:
            print(f"read {counted(first.games, 'game')} in {first.seconds:.2f}s; each page is drawn when it is "
                  "asked for", file=sys.stderr)
            print_update.say_unreadable(first)
        else:
            print_update(first)
        url = watcher.server.url
        if args.port == 0:
            print(f"--port 0 picked port {watcher.server.server_port}, a free one", file=sys.stderr)
        # On stdout, alone on its line: scripts (and the tests) read the port from it when --port is 0.
        print(f"serving at {url}", flush=True)
        print("watching for changes; Ctrl-C stops", file=sys.stderr)
        if args.open:
            webbrowser.open(url)
        watcher.server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C stops a slow close
        watcher.close()
    return 0
