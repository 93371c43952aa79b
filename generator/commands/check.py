"""`nomic-archive check`: replay every game and report each discrepancy with its file:line.

What it says of games whose files are as a build or a check last found them is read from the cache (checked.py):
the parser and the engine's replay are imported only when there is something to replay."""
from __future__ import annotations

import gc
import json

from ..cache import open_cache
from ..checked import CheckedGame, stored_checks, store_checks
from ..errors import ArchiveError
from ..parse.folders import names_root
from ..places import Places
from ..progress import REPLAY_STEPS, for_command
from ..terminal import counted, for_terminal, one_line
from . import content_folder, say_cache_unusable

JSON_SCHEMA_VERSION = 1


def run(args) -> int:
    content = content_folder(args.content, "check")
    cache = open_cache(args.cache_dir, content)
    say_cache_unusable(cache.unusable)
    gc.disable()  # parsing and replaying make many objects and no cycles: the collector would only slow them
    try:
        key, games = stored_checks(cache, content)
        if games is None:
            from ..parallel import available_cores  # only now: see the module's docstring
            from ..replays import replay_games

            with for_command("check", REPLAY_STEPS, quiet=args.quiet) as progress:
                replays = replay_games(content, cache=cache, jobs=available_cores(), progress=progress)
            games = store_checks(cache, content, key, replays)
    except ArchiveError as error:
        if args.format == "json":  # the data a script reads, then the same lines on stderr as ever (exit 2)
            print(json.dumps(report_json_errors(error), indent=2, sort_keys=True))
        if args.format != "github":
            raise
        print(report_github_errors(error))  # on stdout, where the runner reads workflow commands
        return 2
    finally:
        cache.close()
        gc.freeze()  # what it made lives to the end: the collector, back on, need not walk it
        gc.enable()
    places = Places(names_root(content))
    if args.format == "json":
        print(json.dumps(report_json(games, places), indent=2, sort_keys=True))
    elif args.format == "github":
        print(report_github(games, places))
    else:
        print(report_text(games, places))
    return 1 if any(game.findings for game in games) else 0


def report_json(games: list[CheckedGame], places: Places) -> dict:
    """`file` as the model names it (relative to the folder holding the games), `path` as printed."""
    def placed(item) -> dict:
        return {**item.to_json(), "path": places.path(item.file)}
    return {
        "version": JSON_SCHEMA_VERSION,
        "games": [{
            "game": game.slug,
            "consistent": not game.findings,
            "findings": [placed(f) for f in game.findings],
            "overrides": [placed(o) for o in game.overrides],
            "notes": [placed(n) for n in game.notes],
            "scores": {player: score if isinstance(score, int) else float(score)  # a JSON number: 8.8
                       for player, score in game.scores.items()},
            "winner": list(game.winner),
        } for game in games],
    }


def report_json_errors(error: ArchiveError) -> dict:
    """What could not be read (exit 2), as data: no game, and each problem where it is (`column` where known)."""
    places = Places(error.root)
    return {"version": JSON_SCHEMA_VERSION, "games": [],
            "errors": [{"file": problem.file, "path": places.path(problem.file), "line": problem.line,
                        "column": problem.column, "message": problem.message} for problem in error.errors]}


def report_text(games: list[CheckedGame], places: Places) -> str:
    """One line per finding, override and note (player text in them escaped), then one per game."""
    lines = []
    for game in games:
        for finding in game.findings:
            lines.append(places.finding(finding))
        for override in game.overrides:
            lines.append(places.finding(override) + " [judgment]")
        for note in game.notes:
            lines.append(places.finding(note))
    return "\n".join(lines + _summaries(games))


def _summaries(games: list[CheckedGame]) -> list[str]:
    lines = []
    for game in games:
        noun = "turn" if game.solitaire else "proposal"
        decided = f" ({game.decided_again} decided again)" if game.decided_again else ""
        verdict = counted(len(game.findings), "discrepancy", "discrepancies") if game.findings else "consistent"
        winner = f", won by {', '.join(game.winner)}" if game.winner else ""
        notes = f"; {counted(len(game.notes), 'note')}" if game.notes else ""
        lines.append(one_line(f"{game.slug}: {counted(game.proposals, noun)}{decided}, {verdict}{winner}{notes}"))
    return lines


# --- GitHub Actions ------------------------------------------------------------------------------
# Workflow commands, as GitHub documents them: `::error file=F,line=L,title=T::MESSAGE` on a line of its own.
# The message's `%`, CR and LF are escaped, and a property's `:` and `,` too: nothing a player wrote can end
# the command or start another.


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, *, file: str | None = None, line: int = 0,
                     title: str | None = None) -> str:
    properties = [("file", file), ("line", str(line) if line else None), ("title", title)]
    listed = ",".join(f"{name}={escape_property(for_terminal(value))}" for name, value in properties if value)
    return f"::{command}{' ' + listed if listed else ''}::{escape_data(for_terminal(message))}"


_NOTE_TITLES = {"unread-change": "a change not read", "corrected": "the record was corrected",
                "behind": "a snapshot behind the log", "earlier-title": "a title earlier.md gives otherwise"}


def report_github(games: list[CheckedGame], places: Places) -> str:
    """Each finding an `::error`, each judgment that overrode the arithmetic a `::notice` and each note a
    `::warning` (it fails nothing), on its file and line (named from the working directory, which in a workflow
    is the repository's root); then the summaries."""
    lines = []
    for game in games:
        for kind, item, title in [("error", f, f"nomic-archive check: {f.kind}") for f in game.findings] + [
                ("notice", o, "nomic-archive check: a judgment overrides the arithmetic") for o in game.overrides] + [
                ("warning", n, "nomic-archive check: " + _NOTE_TITLES.get(n.kind, n.kind)) for n in game.notes]:
            lines.append(workflow_command(kind, item.described(places.place), file=places.path(item.file),
                                          line=item.line, title=title))
    return "\n".join(lines + _summaries(games))  # a summary starts with a game's address, never `::`


def report_github_errors(error: ArchiveError) -> str:
    """What could not be read (exit 2), as `::error` commands on the files."""
    places = Places(error.root)
    return "\n".join(workflow_command("error", problem.message, file=places.path(problem.file), line=problem.line,
                                      title="nomic-archive check: cannot read the archive")
                     for problem in error.errors)
