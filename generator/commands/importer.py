"""`nomic-archive import KIND`: `import text FILE`, a plain-text ruleset (a mail, a wiki page, a forum post, a
game's rules file, or a folder of one file per rule) to rules.md; `import git REPO --rules PATH` and `import
agora --ruleset CLONE`: a game's whole history from where it is kept, to a new game folder.

`-o` never replaces an existing file unless `--force` says so: rules.md may be a keeper's only copy; the
history importers write only into a new or empty folder, and write a game whole or not at all."""
from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import occupied_folder_error, refuse_to_replace, write_atomic
from ..importers.rulesfile import is_rules_text_name, merged, read_rule_files, read_ruleset, render_ruleset
from ..importers.text import DEFAULT_TITLE, Note, RulesetImportError
from ..parse.source import read_text
from ..progress import for_command
from ..terminal import counted
from . import say_import_notes


def run(args) -> int:
    if args.kind == "text":
        return _run_text(args)
    from ..importers.archive import ImportRefused

    if error := occupied_folder_error(args.output, "an import writes a whole game into a new folder"):
        raise ArchiveError([error])
    with for_command("import", 2, quiet=args.quiet) as progress:  # reading the record, checking the game
        progress.step(f"reading {args.repo if args.kind == 'git' else args.ruleset}")
        try:
            result, summary = _import_git(args) if args.kind == "git" else _import_agora(args)
        except ImportRefused as refused:
            for problem in refused.problems:
                print(problem, file=sys.stderr)
            raise ArchiveError([SourceError(refused.where, 0, str(refused))]) from None
        _write_game(args.output, result.files, progress)
    for problem in result.problems:
        print(problem, file=sys.stderr)
    for line in result.said:
        print(line, file=sys.stderr)
    said = f", with {counted(len(result.problems), 'problem')} in the record (above, and in IMPORT.md)" \
        if result.problems else ""
    print(f"imported {summary} into {args.output}{said}; IMPORT.md says what was read and what was not; "
          f"check it with: nomic-archive check {args.output}")
    return 1 if result.problems else 0


def _run_text(args) -> int:
    if args.output:
        refuse_to_replace(args.output, "import", force=args.force)
    if len(args.files) > 1 and (args.start or args.stop):
        raise ArchiveError([SourceError("--start", 0, "--start and --stop say where one file's rules begin and end: "
                                        "give one file with them")])
    with for_command("import", 3, quiet=args.quiet) as progress:
        progress.step(f"reading {', '.join(str(path) for path in args.files)}")
        parts = []
        for path in args.files:
            try:
                parts.append(_read_rules(path, args))
            except RulesetImportError as error:
                raise ArchiveError([SourceError(error.file or str(path), error.line, str(error))]) from None
        progress.step("finding the rules")
        try:
            read = merged(parts) if len(parts) > 1 else parts[0]
        except RulesetImportError as error:
            raise ArchiveError([SourceError(error.file or str(args.files[0]), error.line, str(error))]) from None
        rules_md = render_ruleset(args.title or DEFAULT_TITLE, read.rules)
        progress.step(f"writing {args.output or 'the rules'}")
        if args.output:
            write_atomic(args.output, rules_md)
    say_import_notes(read, str(args.files[0]))
    if not args.output:
        sys.stdout.write(rules_md)
    return 0


def _read_rules(path: Path, args):
    """One path of `import text`: a rules file, or a folder of rule files (its files, not its folders, read; a
    file that cannot hold rules by its name named, unread). A file's path as given is its path in the repository
    that --link-base names."""
    errors = ErrorCollector()
    if path.is_dir():
        entries = sorted(path.iterdir())
        texts = [(str(entry), read_text(entry, str(entry), errors, root=path, root_name="the folder imported")
                  if is_rules_text_name(entry.name) else None) for entry in entries if entry.is_file()]
        errors.raise_if_any()
        read = read_rule_files([(_repository_path(name), text) for name, text in texts], link_base=args.link_base)
        folders = [Note(str(entry), 0, "a folder: the files of a folder of rules are read, not its folders")
                   for entry in entries if entry.is_dir() and not entry.name.startswith(".")]
        return dataclasses.replace(read, left_out=read.left_out + folders)
    text = read_text(path, str(path), errors)
    errors.raise_if_any()
    return read_ruleset(text, file=_repository_path(str(path)), start=args.start, stop=args.stop,
                        link_base=args.link_base)


def _repository_path(name: str) -> str:
    """A file named on the command line as its path in the repository --link-base names: relative to the working
    directory (the repository's root), as given when it lies outside it."""
    relative = os.path.relpath(name)
    return name if relative.startswith("..") else relative


def _import_git(args):
    from ..importers.git import import_git

    from ..importers.corrections import read_corrections
    from ..importers.decisions import read_mapping

    corrections = read_corrections(args.corrections) if args.corrections else None
    records = read_mapping(args.records) if args.records else None
    if not args.rules and not (records and records.rulesets):
        raise ArchiveError([SourceError("--rules", 0, "is needed: the rules file or folder in the repository (or "
                                        "a records file whose [rulesets] says where a website keeps them)")])
    result = import_git(args.repo, args.rules, start=args.start, end=args.end, title=args.title,
                        corrections=corrections, records=records,
                        by_pull_requests=args.proposals_are_pull_requests, link_base=args.link_base)
    return result, counted(result.proposals, "proposal")


def _import_agora(args):
    from ..importers.agora import import_agora

    from ..importers.corrections import read_corrections

    corrections = read_corrections(args.corrections) if args.corrections else None
    result = import_agora(args.ruleset, args.assessor, first=args.start, last=args.end, corrections=corrections)
    return result, counted(result.proposals, "decision")


def _write_game(folder: Path, files: dict[str, str], progress) -> None:
    """The game, whole or not at all, as `build` writes a site: drawn in a staging folder beside `folder`, read
    by `check`'s own parser and replay (an importer never leaves a game that `check` cannot read), then renamed
    into place. A failed import leaves nothing; a killed one, a staging folder the next one removes."""
    from ..files import SITE_MARKER, new_staging_folder, writing
    from ..replays import replay_games

    staging = new_staging_folder(folder)
    try:
        progress.step(f"checking the game before writing it into {folder}")
        for name in sorted(files):
            write_atomic(staging / name, files[name])
        try:
            replay_games(staging)
        except ArchiveError as error:
            # The errors name the staging folder's files: named as they would have been.
            named = [SourceError(e.file.replace(staging.name, folder.name, 1), e.line, e.message, e.column)
                     for e in error.errors]
            raise ArchiveError([SourceError(folder.name, 0, "the game imported would not pass check, so nothing was "
                                            "written: this is a bug in the importer; please report it with the "
                                            "repositories it read")] + named, root=error.root) from None
        (staging / SITE_MARKER).unlink()  # the marker that let a killed import's staging folder be removed
        with writing(folder):
            os.replace(staging, folder)  # `folder` is absent or empty: a rename, or refused if it filled meanwhile
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
