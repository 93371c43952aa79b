"""`nomic-archive check`: replay every game and report each discrepancy with its file:line."""
from __future__ import annotations

import gc
import json

from ..cache import open_cache
from ..engine.notes import replay_notes
from ..engine.replay import Replay
from ..parallel import available_cores
from ..errors import ArchiveError
from ..parse.folders import names_root
from ..replays import replay_games
from ..places import Places
from ..progress import REPLAY_STEPS, for_command
from ..terminal import counted, for_terminal, one_line
from . import content_folder

JSON_SCHEMA_VERSION = 1


def run(args) -> int:
    content = content_folder(args.content, "check")
    cache = open_cache(args.cache_dir, content)
    gc.disable()  # parsing and replaying make many objects and no cycles: the collector would only slow them
    try:
        with for_command("check", REPLAY_STEPS, quiet=args.quiet) as progress:
            replays = replay_games(content, cache=cache, jobs=available_cores(), progress=progress)
    except ArchiveError as error:
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
        print(json.dumps(report_json(replays, places), indent=2, sort_keys=True))
    elif args.format == "github":
        print(report_github(replays, places))
    else:
        print(report_text(replays, places))
    return 1 if any(r.findings for r in replays) else 0


def report_json(replays: list[Replay], places: Places) -> dict:
    """`file` as the model names it (relative to the folder holding the games), `path` as printed."""
    def placed(item) -> dict:
        return {**item.to_json(), "path": places.path(item.file)}
    return {
        "version": JSON_SCHEMA_VERSION,
        "games": [{
            "game": r.game.slug,
            "consistent": not r.findings,
            "findings": [placed(f) for f in r.findings],
            "overrides": [placed(o) for o in r.overrides],
            "notes": [placed(n) for n in replay_notes(r)],
            "scores": {player: score if isinstance(score, int) else float(score)  # a JSON number: 8.8
                       for player, score in r.final_scores.items()},
            "winner": list(r.winner),
        } for r in replays],
    }


def report_text(replays: list[Replay], places: Places) -> str:
    """One line per finding, override and note (player text in them escaped), then one per game."""
    lines = []
    for r in replays:
        for finding in r.findings:
            lines.append(places.finding(finding))
        for override in r.overrides:
            lines.append(places.finding(override) + " [judgment]")
        for note in replay_notes(r):
            lines.append(places.finding(note))
    return "\n".join(lines + _summaries(replays))


def _summaries(replays: list[Replay]) -> list[str]:
    lines = []
    for r in replays:
        noun = "turn" if r.game.config.variant == "solitaire" else "proposal"
        count, again = r.proposal_count
        decided = f" ({again} decided again)" if again else ""
        verdict = counted(len(r.findings), "discrepancy", "discrepancies") if r.findings else "consistent"
        winner = f", won by {', '.join(r.winner)}" if r.winner else ""
        notes = f"; {counted(len(noted), 'note')}" if (noted := replay_notes(r)) else ""
        lines.append(one_line(f"{r.game.slug}: {counted(count, noun)}{decided}, {verdict}{winner}{notes}"))
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


def report_github(replays: list[Replay], places: Places) -> str:
    """Each finding an `::error`, each judgment that overrode the arithmetic a `::notice` and each note a
    `::warning` (it fails nothing), on its file and line (named from the working directory, which in a workflow
    is the repository's root); then the summaries."""
    lines = []
    for r in replays:
        for kind, item, title in [("error", f, f"nomic-archive check: {f.kind}") for f in r.findings] + [
                ("notice", o, "nomic-archive check: a judgment overrides the arithmetic") for o in r.overrides] + [
                ("warning", n, "nomic-archive check: " + _NOTE_TITLES.get(n.kind, n.kind)) for n in replay_notes(r)]:
            lines.append(workflow_command(kind, item.described(places.place), file=places.path(item.file),
                                          line=item.line, title=title))
    return "\n".join(lines + _summaries(replays))  # a summary starts with a game's address, never `::`


def report_github_errors(error: ArchiveError) -> str:
    """What could not be read (exit 2), as `::error` commands on the files."""
    places = Places(error.root)
    return "\n".join(workflow_command("error", problem.message, file=places.path(problem.file), line=problem.line,
                                      title="nomic-archive check: cannot read the archive")
                     for problem in error.errors)
