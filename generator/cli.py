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
CONTENT_HELP = "content folder or one game (default: content/ in the working directory)"
PACKAGE_HELP = ("what the workflow installs nomic-archive from: a git URL pinned to a commit (git+https://…"
                "/nomic-archive.git@COMMIT), or a path inside the repository (default: where this copy came from, "
                "where GitHub can install exactly it; else nothing is written)")
POINT_NAMES = "312, 312-2, 8221A, judgment-1, entry-12, 2005-04-02, start, now"
LINK_BASE_HELP = "the web address of the repository's root as GitHub shows its files " \
    "(https://github.com/OWNER/REPO/blob/BRANCH/)"
QUIET_HELP = "print no progress (it is shown only on a terminal, for work that takes more than a second)"
COMMAND_MODULES = {"build": "build", "check": "check", "import": "importer", "new": "new", "serve": "serve",
                   "preview": "preview", "diff": "diff", "ruleset": "ruleset", "solve": "solve", "synth": "synth",
                   "github-workflow": "github"}


def _cache_help(shown: bool) -> str:
    """Where the cache is, for --help: the cache module (SQLite, platformdirs) is imported only to show it."""
    if not shown:
        return ""
    from .cache import MAX_CACHE_BYTES, default_cache_dir

    return (f"where to keep what the next run can reuse (default: $NOMIC_ARCHIVE_CACHE_DIR, else "
            f"{default_cache_dir()}); at most {MAX_CACHE_BYTES >> 20} MB, the files of the content folders "
            "built longest ago dropped first; deleting it costs only time")


def _examples(*lines: str) -> dict:
    """A command's help ends with examples, as git's and pip's do: each line a command, and after it, in
    parentheses, what it does where that is not plain."""
    return {"formatter_class": argparse.RawDescriptionHelpFormatter,
            "epilog": "examples:\n" + "\n".join(f"  {line}" for line in lines)}


def _add_content_and_cache(command: argparse.ArgumentParser, cache_help: str) -> None:
    """What build and check both read: the content folder, and the cache they keep between runs."""
    command.add_argument("content", nargs="?", type=Path, metavar="CONTENT", help=CONTENT_HELP)
    command.add_argument("--cache-dir", type=Path, metavar="FOLDER", help=cache_help)


def _command(commands, name: str, summary: str, *examples: str, more: str = "") -> argparse.ArgumentParser:
    """A command: `summary` is its line in the list of commands and the first line of its own --help (`more`,
    lines already folded, follows it there: what its exit codes mean, where they mean more than 0 and 2)."""
    description = summary[0].upper() + summary[1:] + "." + (f"\n{more}" if more else "")
    return commands.add_parser(name, help=summary, description=description, **_examples(*examples))


def _parser(*, help_shown: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nomic-archive", description="Publish and verify the archives of Nomic "
                                     "games: Markdown rulesets and logs in, a browsable static\nsite out.",
                                     **_examples(
                                         "nomic-archive build                          (every game in content/, "
                                         "into site/)",
                                         "nomic-archive check content/slips-example    (each discrepancy as "
                                         "file:line: what is wrong)"))
    parser.epilog += ("\n\nEach command's --help ends with examples. The guide, a page per task: docs/guide/ in "
                      "the source.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    cache_help = _cache_help(help_shown)

    build = _command(commands, "build", "build the static site from a content folder",
                     "nomic-archive build                          (the games in content/, into site/)",
                     "nomic-archive build content -o public --base-url https://example.org/nomic/",
                     more="Discrepancies are counted in its summary line and shown on each game's Verification "
                     "page; the\nsite is built all the same (exit 0).")
    _add_content_and_cache(build, cache_help)
    build.add_argument("-o", "--output", default="site", type=Path, metavar="FOLDER",
                       help="site folder to write (default: site)")
    build.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP + ", nor the summary line")
    build.add_argument("--jobs", type=_positive, metavar="N",
                       help="processes drawing pages (default: one per core available)")
    build.add_argument("--base-url", default="", metavar="URL", help="where the site will be published, an "
                       "absolute http or https address, e.g. https://example.org/nomic/ (used only where a format "
                       "needs absolute addresses: sitemap.xml, feeds and 404.html)")

    check = _command(commands, "check", "replay each game's log and report every discrepancy",
                     "nomic-archive check content/slips-example    (exit 1: it has discrepancies)",
                     "nomic-archive check content --format github  (as the GitHub workflow runs it)",
                     more="Exit 0: every game is consistent (notes may be printed). 1: discrepancies, each as "
                     "file:line: what is\nwrong. 2: the content could not be read.")
    _add_content_and_cache(check, cache_help)
    check.add_argument("--format", choices=("text", "json", "github"), default="text",
                       help="text: file:line: message, one a line (default); json: the report as data "
                       "(docs/format.md); github: GitHub Actions workflow commands (::error file=…,line=…::…), "
                       "which annotate a pull request's changed lines")
    check.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)

    _add_import(commands)

    new = _command(commands, "new", "start a new game from a bundled ruleset or your own",
                   "nomic-archive new content/my-game --ruleset suber-2nd --player Alice --player Bob --player Carol",
                   "nomic-archive new content/my-game --rules rules.txt --player Alice --player Bob")
    new.add_argument("name", type=Path, metavar="FOLDER", help="folder of the new game, e.g. content/my-game (new, "
                     "empty, or holding only the rules.md that import wrote)")
    new.add_argument("--ruleset", metavar="NAME", help="suber-1982 (the default), suber-2nd, livejournal or "
                     "solitaire: its rules and its mechanics in game.toml")
    new.add_argument("--rules", type=Path, metavar="FILE", help="start from your own ruleset instead (rules.md, or "
                     "plain text as import reads it), with --ruleset's mechanics in game.toml to adjust")
    new.add_argument("--player", action="append", dest="players", default=[], metavar="NAME",
                     help="a player, in seating order (required: repeat it for each player)")
    new.add_argument("--github", action="store_true", help="also write .github/workflows/archive.yml in the "
                     "working directory (see github-workflow)")
    new.add_argument("--package", metavar="SOURCE", help="with --github: what the workflow installs (see "
                     "github-workflow)")

    serve = _command(commands, "serve", "serve the site on 127.0.0.1, each page drawn when asked for, and reload "
                     "open pages on every save",
                     "nomic-archive serve --open                    (content/, at http://127.0.0.1:8000/)",
                     "nomic-archive serve content/my-game --port 0  (one game, on a free port)",
                     more="It writes nothing to disk. Exit 0 when stopped (Ctrl-C); 2 when the port is in use or "
                     "the content cannot be read.")
    serve.add_argument("content", nargs="?", type=Path, metavar="CONTENT", help=CONTENT_HELP)
    serve.add_argument("--port", type=int, default=8000, metavar="PORT",
                       help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    serve.add_argument("--open", action="store_true", help="open the site in a web browser")

    preview = _command(commands, "preview", "show what a drafted proposal would do to the rules in force",
                       "nomic-archive preview content/livejournal-2007/drafts/back-from-hiatus.md --text",
                       "nomic-archive preview content/my-game/drafts/idea.md -o idea.html",
                       more="Exit 0: the engine has no objection to the draft. 1: it objects (each objection "
                       "is shown).\n2: the draft or its game could not be read, or the page could not be written.")
    preview.add_argument("draft", type=Path, metavar="DRAFT", help="the draft, a proposal in the log's format")
    preview.add_argument("--game", type=Path, metavar="FOLDER", help="the game folder (default: the draft's "
                         "folder's game)")
    preview.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the preview page here (default: "
                         "a new file in a temporary folder)")
    preview.add_argument("--force", action="store_true", help="replace the -o file if it exists")
    preview.add_argument("--text", action="store_true", help="print the redline in the terminal instead")

    diff = _command(commands, "diff", "compare two rulesets rule by rule, across renumbering",
                    "nomic-archive diff content/livejournal-2007@start content/livejournal-2007",
                    "nomic-archive diff examples/suber-2nd.md examples/livejournal-after.md --format html -o diff.html",
                    more="Exit 0: the rulesets are the same. 1: they differ. 2: a side could not be read, or the -o "
                    "file\nwritten.")
    point = f"ruleset file, game folder, or GAME@POINT ({POINT_NAMES})"
    diff.add_argument("old", metavar="OLD", help=point)
    diff.add_argument("new", metavar="NEW", help=point)
    diff.add_argument("--format", choices=("text", "html", "json"), default="text",
                      help="text: each rule's redline, marked in colour on a terminal (default); html: a page of "
                      "redlines; json: the comparison as data")
    diff.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of standard output")
    diff.add_argument("--force", action="store_true", help="replace the -o file if it exists")

    ruleset = _command(commands, "ruleset", "print the rules in force at any point of a game, as the report its "
                       "players read",
                       "nomic-archive ruleset content/agora                 (the Full Logical Ruleset now)",
                       "nomic-archive ruleset content/agora@8221A --format short -o slr.txt",
                       "nomic-archive ruleset content/suber-1982@2005-04-02 --format short",
                       more="In the game's own layout where its game.toml has a [report] table (Agora's FLR and SLR), "
                       "else a plain\none. Exit 0: printed. 2: the game or the point could not be read, or the -o "
                       "file written.")
    ruleset.add_argument("game", metavar="GAME[@POINT]", help="a game folder, and a point of it: " + POINT_NAMES
                         + " (default: now)")
    ruleset.add_argument("--format", choices=("full", "short", "flr", "slr"), default="full",
                         help="full: each rule with its history and annotations (default); short: the texts alone; "
                         "flr and slr: Agora's names for them")
    ruleset.add_argument("--plain", action="store_true", help="the plain layout even where the game has its own")
    ruleset.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of standard output")
    ruleset.add_argument("--force", action="store_true", help="replace the -o file if it exists")

    solve = _command(commands, "solve", "find the shortest win of a Solitaire Nomic game, as a log",
                     "nomic-archive solve content/solitaire         (16 turns)",
                     "nomic-archive solve content/solitaire --shuffle 7 -o content/solitaire-7",
                     more="Exit 0: a win was found. 1: there is none in --max-moves turns or fewer. 2: the game "
                     "could not be\nread. 3: the search reached --max-states before deciding.")
    solve.add_argument("game", type=Path, metavar="GAME", help="the game folder (variant = \"solitaire\")")
    solve.add_argument("--max-moves", type=_positive, default=60, metavar="N",
                       help="longest win to look for (default: 60)")
    solve.add_argument("--max-states", type=_positive, default=1_000_000, metavar="N",
                       help="positions to expand before giving up, exit 3 (default: 1000000)")
    solve.add_argument("--shuffle", metavar="SEED", help="renumber the immutable rules at random first, the same "
                       "way for the same SEED (any word or number)")
    solve.add_argument("-o", "--output", type=Path, metavar="PATH", help="write the log to this new file (with "
                       "--shuffle: a new folder, which gets the shuffled game: game.toml, rules.md and log.md)")

    synth = _command(commands, "synth", "write a large synthetic game that checks clean (for benchmarks)",
                     "nomic-archive synth big-game --proposals 10000 --per-file 500",
                     "nomic-archive synth weighted-game --proposals 3000 --weighted")
    synth.add_argument("out", type=Path, metavar="FOLDER", help="the game folder to write; it must be new or empty")
    synth.add_argument("--proposals", type=int, required=True, metavar="N", help="how many proposals the log holds")
    synth.add_argument("--players", type=int, default=3, metavar="N",
                       help="players at the start (default: 3; one more joins)")
    synth.add_argument("--seed", type=int, default=42, metavar="N",
                       help="the same seed gives the same files (default: 42)")
    synth.add_argument("--per-file", type=int, metavar="N",
                       help="split the log into log/NNNN.md files of N proposals each")
    synth.add_argument("--weighted", action="store_true", help="a format 1.1 game of weighted decisions (Agora's kind)")

    workflow = _command(commands, "github-workflow", "write .github/workflows/archive.yml: check every pull request, "
                        "publish the site on GitHub Pages from main",
                        "nomic-archive github-workflow content --package "
                        "'git+https://github.com/OWNER/nomic-archive.git@COMMIT'",
                        "nomic-archive github-workflow content       (where this copy was installed from a git "
                        "commit)")
    workflow.add_argument("content", nargs="?", type=Path, metavar="CONTENT", help=CONTENT_HELP)
    workflow.add_argument("--package", metavar="SOURCE", help=PACKAGE_HELP)
    workflow.add_argument("--force", action="store_true", help="replace the workflow file if it exists")
    return parser


IMPORT_KINDS = ("text", "git", "agora")
IMPORT_EXIT = ("Exit 0: the record was read whole. 1: the game was written, and each problem in the record (a line\n"
               "on standard error naming its file, commit and line) is listed in its IMPORT.md too. 2: nothing was\n"
               "written.")


def _add_import(commands) -> None:
    """`import KIND`: each kind a subcommand with its own options and help, as git's and pip's are."""
    imp = commands.add_parser("import", help="turn a plain-text ruleset into rules.md, or a game's history (in git, "
                              "or Agora's records) into a game", description="Import a ruleset (text) or a game's "
                              "whole history (git, agora): 'nomic-archive import KIND --help' lists each kind's "
                              "options. 'import FILE' is 'import text FILE' (a file named text, git or agora: write "
                              "./git).")
    kinds = imp.add_subparsers(dest="kind", metavar="KIND", required=True)

    text = kinds.add_parser("text", help="a ruleset in plain text, or a game's rules file, folder or JSON, to "
                            "rules.md", description="A ruleset in plain text (a mail, a wiki page, a forum post), or "
                            "a game's rules file, folder of rule files,\nJSON or wiki page's wikitext as its keepers "
                            "kept it, to rules.md; "
                            "what it left out or guessed is said, with file:line.", **_examples(
                                "nomic-archive import text rules.txt -o content/my-game/rules.md",
                                "nomic-archive import rules/ -o content/my-game/rules.md    (the same as 'import "
                                "text rules/')",
                                "nomic-archive import text Ruleset.wiki --link-base 'https://wiki.example.org/index.php"
                                "?title=' -o content/my-game/rules.md"))
    text.add_argument("files", type=Path, nargs="+", metavar="PATH", help="the rules file (plain text, Markdown, "
                      "JSON, a wiki page's wikitext), or a folder of rule files; several are read as one ruleset")
    text.add_argument("-o", "--output", type=Path, metavar="FILE", help="write rules.md here instead of standard "
                      "output")
    text.add_argument("--force", action="store_true", help="replace the -o file if it exists")
    text.add_argument("--title", help="the ruleset's title (default: Initial Set of Rules)")
    text.add_argument("--start", help="text of the line where the rules begin, when the guess is wrong")
    text.add_argument("--stop", help="text of the line where the rules end (that line excluded)")
    text.add_argument("--link-base", metavar="URL", help=LINK_BASE_HELP + ", run from the repository's root: a "
                      "relative link in a rule is made absolute with it (without it, written as its text); for a "
                      "wiki page, the address a page's name follows (https://wiki.example.org/index.php?title=)")
    text.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)

    git = kinds.add_parser("git", help="a game kept in git: each commit that changes the rules a proposal",
                           description="A game kept in a git repository: each commit on the first-parent line that "
                           "changes the rules is a\nproposal, into a new game folder.\n" + IMPORT_EXIT, **_examples(
                               "nomic-archive import git CLONE --rules rules.md -o content/my-game",
                               "nomic-archive import git CLONE --rules rules/ --from v2 --title 'Our Nomic' -o "
                               "content/our-nomic"))
    git.add_argument("repo", type=Path, metavar="REPO", help="the game's repository (a local clone)")
    git.add_argument("--rules", action="append", default=[], metavar="PATH", help="the rules file or folder "
                     "(the files directly in it; '.' is the top folder), as a path inside the repository; again for "
                     "where they were kept before or after (a move git records is followed without it), or at "
                     "once (a folder for each class: one ruleset)")
    git.add_argument("--corrections", type=Path, metavar="FILE", help="the keeper's corrections: the file "
                     "corrections.txt an earlier import wrote, edited (docs/guide/import.md)")
    git.add_argument("--records", type=Path, metavar="FILE", help="where the game keeps its decisions beside the "
                     "rules (a JSON file of proposals with ballots) and how to read them: a small TOML file the "
                     "keeper writes once (docs/guide/import.md)")
    git.add_argument("--proposals-are-pull-requests", action="store_true", help="the game's proposals are its merged "
                     "pull requests, each numbered as its pull request is (without it, a pull request's number is "
                     "never taken for a proposal's); any other commit is the keeper's own")
    git.add_argument("--title", help="the game's title (default: the repository's folder name)")
    git.add_argument("--link-base", metavar="URL", help=LINK_BASE_HELP + ": a relative link in a rule is made "
                     "absolute with it (without it, written as its text)")
    _add_history_options(git, "REV", "the commit whose rules start the game (default: the first that has them)",
                         "the last commit read (default: HEAD)")

    agora = kinds.add_parser("agora", help="Agora's records: the Rulekeepor's and the Assessor's repositories",
                             description="Agora's records, the Rulekeepor's repository of rules and the Assessor's of "
                             "decisions, into a\nnew game folder.\n" + IMPORT_EXIT, **_examples(
                                 "git clone https://github.com/AgoraNomic/ruleset",
                                 "git clone https://github.com/AgoraNomic/assessor",
                                 "nomic-archive import agora --ruleset ruleset --assessor assessor -o content/agora"))
    agora.add_argument("--ruleset", type=Path, required=True, metavar="CLONE", help="a clone of AgoraNomic/ruleset")
    agora.add_argument("--assessor", type=Path, metavar="CLONE", help="a clone of AgoraNomic/assessor (its gh-pages "
                       "branch holds the ballots); without it, proposals have no ballots")
    agora.add_argument("--corrections", type=Path, metavar="FILE", help="the keeper's word on who is who: lines "
                       "'player Telna = Telnaior' make two names one player (spellings that differ only in case or "
                       "accents are one without it; docs/format.md)")
    _add_history_options(agora, "N", "the first proposal number (default: the Assessor's first)",
                         "the last proposal number")


def _add_history_options(kind: argparse.ArgumentParser, position: str, start: str, end: str) -> None:
    """What both imports of a history take: the new game's folder, where to start and stop (`position` names
    a point of the record: a commit, a proposal number), and quiet."""
    kind.add_argument("-o", "--output", type=Path, required=True, metavar="FOLDER", help="the new game's folder "
                      "(new or empty)")
    kind.add_argument("--from", dest="start", metavar=position, help=start)
    kind.add_argument("--to", dest="end", metavar=position, help=end)
    kind.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)


def _with_import_kind(argv: list[str]) -> list[str]:
    """`import FILE`, as it was written before the kinds were subcommands, is `import text FILE`."""
    if argv[:1] == ["import"] and len(argv) > 1 and argv[1] not in (*IMPORT_KINDS, "-h", "--help"):
        return ["import", "text", *argv[1:]]
    return argv


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not '{text}'")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    argv = _with_import_kind(sys.argv[1:] if argv is None else argv)
    parser = _parser(help_shown=any(argument in ("-h", "--help") for argument in argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_UNREADABLE
    # Each command lives in its own module, imported only when used (start-up stays quick).
    module = importlib.import_module(f".commands.{COMMAND_MODULES[args.command]}", __package__)
    terminated = signal.getsignal(signal.SIGTERM)
    try:
        # A service manager's or CI's SIGTERM stops a command as Ctrl-C does: its workers ended, its staging gone
        signal.signal(signal.SIGTERM, _interrupt)
        code = module.run(args)
        sys.stdout.flush()  # here, where a reader that has gone is caught, rather than at exit
        return code
    except ArchiveError as error:
        from .places import Places  # the model it reads is imported only when there is something to name

        places = Places(error.root)
        for problem in error.errors:
            print(places.error(problem), file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        from .parallel import end_workers  # (a cache writer, a worker whose share was cut short)

        end_workers()
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
    finally:
        signal.signal(signal.SIGTERM, terminated)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


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
    named = [str(getattr(args, name)) for name in ("content", "file", "repo", "ruleset", "draft", "name", "old", "new",
                                                   "game")
             if getattr(args, name, None) is not None]
    return " and ".join(named) or "nomic-archive"
