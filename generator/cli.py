"""The command line: parse arguments, call one command, map what happened to an exit code.

Exit codes: 0 all good, 1 discrepancies found (or, for diff, the rulesets differ), 2 the input could not be read
(or an output could not be written), 3 a bug in nomic-archive (one line naming the input; please report it),
130 interrupted (Ctrl-C), 141 the reader of the output stopped early (`check | head`), as for any program a
closed pipe stops. Set NOMIC_ARCHIVE_TRACEBACK=1 to see the traceback of a bug.
"""
from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from pathlib import Path

from . import __version__
from .errors import ArchiveError, bug_message
from .terminal import one_line

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE, EXIT_BUG = 0, 1, 2, 3
EXIT_INTERRUPTED, EXIT_PIPE_CLOSED = 128 + signal.SIGINT, 128 + 13  # 13: SIGPIPE, which Windows lacks
CACHE_HELP = ("where to keep what the next run can reuse (default: $NOMIC_ARCHIVE_CACHE_DIR, else the user's "
              "cache folder); safe to delete")
COMMAND_MODULES = {"build": "build", "check": "check", "import": "importer", "new": "new", "serve": "serve",
                   "preview": "preview", "diff": "diff", "solve": "solve", "synth": "synth"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nomic-archive", description="Publish and verify the archives of Nomic "
                                     "games: Markdown rulesets and logs in, a browsable static site out.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    build = commands.add_parser("build", help="build the static site from a content folder")
    build.add_argument("content", nargs="?", default="content", type=Path, help="content folder or one game (default: content)")
    build.add_argument("-o", "--output", default="site", type=Path, help="site folder to write (default: site)")
    build.add_argument("--cache-dir", type=Path, help=CACHE_HELP)
    build.add_argument("--jobs", type=int, help="processes drawing pages (default: one per core available)")
    build.add_argument("--base-url", default="", help="where the site will be published, an absolute http or https "
                       "address, e.g. https://example.org/nomic/ (used only where a format needs absolute "
                       "addresses: sitemap.xml, feeds and 404.html)")

    check = commands.add_parser("check", help="replay each game's log and report every discrepancy")
    check.add_argument("content", nargs="?", default="content", type=Path, help="content folder or one game")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--cache-dir", type=Path, help=CACHE_HELP)

    imp = commands.add_parser("import", help="turn a plain-text ruleset into rules.md")
    imp.add_argument("file", type=Path, help="the plain-text ruleset")
    imp.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    imp.add_argument("--force", action="store_true", help="replace the -o file if it exists")
    imp.add_argument("--title", help="the ruleset's title (default: Initial Set of Rules)")
    imp.add_argument("--start", help="text of the line where the rules begin, when the guess is wrong")
    imp.add_argument("--stop", help="text of the line where the rules end (that line excluded)")

    new = commands.add_parser("new", help="scaffold a new game from a bundled ruleset")
    new.add_argument("name", type=Path, help="folder of the new game, e.g. content/my-game")
    new.add_argument("--ruleset", default="suber-1982", help="suber-1982 (default), suber-2nd, livejournal or solitaire")
    new.add_argument("--player", action="append", dest="players", default=[], help="a player (repeat for each)")

    serve = commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on every save")
    serve.add_argument("content", nargs="?", default="content", type=Path, help="content folder or one game")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    serve.add_argument("--open", action="store_true", help="open the site in a web browser")
    serve.add_argument("-o", "--output", type=Path, help="where to keep the served site (default: a temporary folder)")
    serve.add_argument("--cache-dir", type=Path, help=CACHE_HELP)

    preview = commands.add_parser("preview", help="show what a drafted proposal would do to the rules in force")
    preview.add_argument("draft", type=Path, help="the draft, a proposal in the log's format")
    preview.add_argument("--game", type=Path, help="the game folder (default: the draft's folder's game)")
    preview.add_argument("-o", "--output", type=Path, help="write the preview page here")
    preview.add_argument("--force", action="store_true", help="replace the -o file if it exists")
    preview.add_argument("--text", action="store_true", help="print the redline in the terminal instead")

    diff = commands.add_parser("diff", help="compare two rulesets rule by rule")
    point = "ruleset file, game folder, or GAME@POINT (312, 312-2, judgment-1, entry-12, 2005-04-02, start, now)"
    diff.add_argument("old", help=point)
    diff.add_argument("new", help=point)
    diff.add_argument("--format", choices=("text", "html", "json"), default="text")
    diff.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    diff.add_argument("--force", action="store_true", help="replace the -o file if it exists")

    solve = commands.add_parser("solve", help="find the shortest win of a Solitaire Nomic game, as a log")
    solve.add_argument("game", type=Path, help="the game folder (variant = \"solitaire\")")
    solve.add_argument("--max-moves", type=_positive, default=60, metavar="N",
                       help="longest win to look for (default: 60)")
    solve.add_argument("--max-states", type=_positive, default=1_000_000, metavar="N",
                       help="positions to expand before giving up, exit 3 (default: 1000000)")
    solve.add_argument("--shuffle", metavar="SEED", help="renumber the immutable rules at random first, the same "
                       "way for the same SEED (any word or number)")
    solve.add_argument("-o", "--output", type=Path, help="write the log to this new file (with --shuffle: a new "
                       "folder, which gets the shuffled game: game.toml, rules.md and log.md)")

    synth = commands.add_parser("synth", help="write a large synthetic game that checks clean (for benchmarks)")
    synth.add_argument("out", type=Path, help="the game folder to write; it must be new or empty")
    synth.add_argument("--proposals", type=int, required=True, help="how many proposals the log holds")
    synth.add_argument("--players", type=int, default=3, help="players at the start (default: 3; one more joins)")
    synth.add_argument("--seed", type=int, default=42, help="the same seed gives the same files (default: 42)")
    synth.add_argument("--per-file", type=int, help="split the log into log/NNNN.md files of this many proposals")
    synth.add_argument("--weighted", action="store_true", help="a format 1.1 game of weighted decisions (Agora's kind)")
    return parser


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not '{text}'")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_UNREADABLE
    # Each command lives in its own module, imported only when used (start-up stays quick).
    module = importlib.import_module(f".commands.{COMMAND_MODULES[args.command]}", __package__)
    try:
        code = module.run(args)
        sys.stdout.flush()  # here, where a reader that has gone is caught, rather than at exit
        return code
    except ArchiveError as error:
        for problem in error.errors:
            print(problem, file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader has gone: say nothing more, and point stdout at nothing so that the flush at exit is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED
    except Exception as error:  # the last resort: a crash must never pass for "discrepancies found"
        if os.environ.get("NOMIC_ARCHIVE_TRACEBACK"):
            raise
        print(one_line(f"{_inputs(args)}: {bug_message(error)}"), file=sys.stderr)
        return EXIT_BUG


def entry() -> None:
    """The program's entry (`nomic-archive`, `python -m generator`): `main`, then out at once, as mypy's
    hard_exit does. Freeing a long game's objects one by one at exit takes longer than checking a short game
    (0.15 s after a build of 10,000 proposals); every command has closed its files and ended its workers by
    then."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _inputs(args: argparse.Namespace) -> str:
    """What the command was reading, as the user named it."""
    named = [str(getattr(args, name)) for name in ("content", "file", "draft", "name", "old", "new", "game")
             if getattr(args, name, None) is not None]
    return " and ".join(named) or "nomic-archive"
