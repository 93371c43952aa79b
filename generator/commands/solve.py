"""`nomic-archive solve GAME`: the shortest win of a Solitaire Nomic game, printed as a log that check accepts.

Exit codes: 0 a win was found; 1 no win exists within --max-moves (the search is complete: none is shorter or
equal); 3 the search stopped at --max-states before it could decide; 2 the input could not be read.
"""
from __future__ import annotations

import dataclasses
import json
import re
import sys
import time
from pathlib import Path

from ..engine.solitaire import initial_position
from ..engine.solve import Puzzle, PlayedTurn, play_out, search, shuffle_immutable
from ..errors import ArchiveError, SourceError
from ..files import occupied_folder_error, write_atomic
from ..model import Game, Ruleset
from ..parse.folders import is_game
from ..parse.game import load_game
from ..terminal import counted

EXIT_FOUND, EXIT_NO_WIN, EXIT_GAVE_UP = 0, 1, 3


def run(args) -> int:
    game = _solitaire_game(args.game)
    mapping: dict[int, int] = {}
    if args.shuffle is not None:
        shuffled, mapping = shuffle_immutable(game.rules, args.shuffle)
        game = dataclasses.replace(game, rules=shuffled, config=game.config.with_value(
            "title", f"{game.config.title} (shuffled: {args.shuffle})"))  # both games may stand on one site
    _check_output(args.output, folder=args.shuffle is not None)
    setup, position, problems = initial_position(game)
    if problems:
        raise ArchiveError(problems)
    started = time.perf_counter()
    answer = search(Puzzle.of(setup, position), max_moves=args.max_moves, max_states=args.max_states)
    seconds = time.perf_counter() - started
    explored = f"{counted(answer.states, 'state')} explored in {seconds:.2f}s"
    if answer.moves is None:
        if not answer.complete:
            print(f"{game.slug}: no win found before the search reached {args.max_states} states ({explored}); "
                  "raise --max-states to search further", file=sys.stderr)
            return EXIT_GAVE_UP
        why = f": {answer.reason}" if answer.reason else f" in {args.max_moves} turns or fewer"
        print(f"{game.slug}: no win{why} ({explored})", file=sys.stderr)
        return EXIT_NO_WIN
    turns = play_out(game, answer.moves)
    log = solution_log(game, turns, answer.states, args.shuffle, mapping)
    if args.output is None:
        sys.stdout.write(log)
    elif args.shuffle is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        write_atomic(args.output / "game.toml", retitled(args.game / "game.toml", game.config.title))
        write_atomic(args.output / "rules.md", ruleset_markdown(game.rules))
        write_atomic(args.output / "log.md", log)
    else:
        write_atomic(args.output, log)
    where = f"; written to {args.output}" if args.output else ""
    print(f"{game.slug}: the shortest win takes {len(turns)} turns ({explored}){where}", file=sys.stderr)
    return EXIT_FOUND


def _solitaire_game(folder: Path) -> Game:
    if not is_game(folder):
        raise ArchiveError([SourceError(str(folder), 0, "is not a game (a game is a folder with game.toml)")])
    game = load_game(folder)
    if game.config.variant != "solitaire":
        raise ArchiveError([SourceError(f"{game.slug}/game.toml", 0, "solve plays Solitaire Nomic: the game needs "
                                        "variant = \"solitaire\"")])
    return game


def _check_output(output: Path | None, *, folder: bool) -> None:
    """A keeper's files are never overwritten: the log goes to a new file, a shuffled game to a new folder."""
    if output is None:
        return
    if folder and (error := occupied_folder_error(output, "with --shuffle, -o names a new folder for the shuffled "
                                                 "game")):
        raise ArchiveError([error])
    if not folder and output.exists():
        raise ArchiveError([SourceError(str(output), 0, "already exists; nothing was written (choose a new file)")])


def solution_log(game: Game, turns: list[PlayedTurn], states: int, shuffle: str | None,
                 mapping: dict[int, int]) -> str:
    """The win as a log: one turn per action, its score and, on the last, the winner, with a line of why."""
    options = game.config.solitaire
    lines = [f"# {game.config.title}: the shortest win", "",
             f"Found by `nomic-archive solve`: {len(turns)} turns, the fewest that win under this game's reading of "
             f"seed 000 (game.toml's [solitaire]: tick = \"{options.tick}\", subsumer_cap = "
             f"{str(options.subsumer_cap).lower()}, divide_initial = {str(options.divide_initial).lower()}, "
             f"words = \"{options.words}\", actions = \"{options.actions}\"); the search expanded {states} "
             "positions."]
    if shuffle is not None:
        moved = ", ".join(f"{old} → {new}" for old, new in sorted(mapping.items()))
        lines += ["", f"The immutable rules were renumbered at random first (`--shuffle {shuffle}`): {moved}."]
    player = game.config.players[0] if game.config.players else "Player"
    for number, turn in enumerate(turns, start=1):
        played = turn.played
        lines += ["", f"## Turn {number}", f"Action: {turn.action.text}", f"Scores: {player} {played.position.score}"]
        if number == len(turns):
            lines.append(f"Winner: {player}")
        lines += ["", _narrate(turn)]
    return "\n".join(lines) + "\n"


def _narrate(turn: PlayedTurn) -> str:
    """One sentence on what the turn did, for a reader of the log."""
    action, played = turn.action, turn.played
    after = {rule.number: rule for rule in played.position.rules}

    def named(rule) -> str:
        return f"rule {rule.number} ({rule.title})" if rule.title else f"rule {rule.number}"

    if action.kind == "transmute":
        rule = after[action.number]
        said = (f"The greatest immutable rule, {action.rule} ({rule.title}), becomes mutable rule {action.number} "
                f"with {rule.span} turns to live." if rule.title else
                f"The greatest immutable rule, {action.rule}, becomes mutable rule {action.number} with {rule.span} "
                "turns to live.")
    elif action.kind == "subsume":
        gone = next(d.rule for d in played.deaths if d.cause != "life span")
        said = (f"{_upper_first(named(after[action.rule]))} appends the text of {named(gone)}, gaining half its "
                f"{gone.span} turns to live, and rule {gone.number} dies.")
    elif action.kind == "divide":
        said = f"{_upper_first(named(after[action.rule]))} divides; its duplicate is rule {action.number}."
    else:
        said = "A mutation of a rule's number, which changes no clause: the turn passes while spans run down."
    died = [named(d.rule) for d in played.deaths if d.cause == "life span"]
    if died:
        said += f" {_upper_first(' and '.join(died))} " \
                f"{'die' if len(died) > 1 else 'dies'}: {'their' if len(died) > 1 else 'its'} life span ran out."
    return said


def retitled(path: Path, new_title: str) -> str:
    """A game.toml's text with a new title, the rest as the keeper wrote it."""
    text = path.read_text(encoding="utf-8")
    title = f"title = {json.dumps(new_title)}"
    line = re.compile(r"^title\s*=.*$", re.MULTILINE)
    table = re.search(r"^\s*\[", text, re.MULTILINE)  # the title is a top-level key, before any table
    found = line.search(text)
    if found and (table is None or found.start() < table.start()):
        return text[:found.start()] + title + text[found.end():]
    return f"{title}\n{text}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def ruleset_markdown(ruleset: Ruleset) -> str:
    """rules.md for a ruleset, each rule's text as it was written."""
    lines = [f"# {ruleset.title}"] if ruleset.title else []
    for rule_class in ("immutable", "mutable"):
        rules = [rule for rule in ruleset.rules if rule.rule_class == rule_class]
        if rules:
            lines += ["", f"## {rule_class.capitalize()} Rules"]
        for rule in rules:
            lines += ["", f"### {rule.number}. {rule.title}" if rule.title else f"### {rule.number}",
                      rule.text.strip("\n")]
    return "\n".join(lines).lstrip("\n") + "\n"
