"""`nomic-archive import FILE`: a plain-text ruleset (a mail, a wiki page, a forum post, a game's rules file, or
a folder of one file per rule) to rules.md; `import git REPO --rules PATH` and `import agora --ruleset CLONE`:
a game's whole history from where it is kept, to a new game folder.

`-o` never replaces an existing file unless `--force` says so: rules.md may be a keeper's only copy; the
history importers write only into a new or empty folder."""
from __future__ import annotations

import sys
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import refuse_to_replace, write_atomic
from ..parse.importer import DEFAULT_TITLE, RulesetImportError, read_rule_files, read_ruleset, render_ruleset
from ..parse.source import read_text
from ..progress import for_command

HISTORY_SOURCES = ("git", "agora")


def run(args) -> int:
    if str(args.file) in HISTORY_SOURCES:
        return _run_history(args)
    if args.output:
        refuse_to_replace(args.output, "import", force=args.force)
    errors = ErrorCollector()
    with for_command("import", 3, quiet=args.quiet) as progress:
        progress.step(f"reading {args.file}")
        try:
            if args.file.is_dir():
                files = sorted(path for path in args.file.iterdir() if path.is_file() and not path.name.startswith("."))
                texts = [(str(path), read_text(path, str(path), errors)) for path in files]
                errors.raise_if_any()
                progress.step("finding the rules")
                read = read_rule_files([(name, text) for name, text in texts if text is not None])
            else:
                text = read_text(args.file, str(args.file), errors)
                errors.raise_if_any()
                progress.step("finding the rules")
                read = read_ruleset(text, start=args.start, stop=args.stop)
        except RulesetImportError as error:
            raise ArchiveError([SourceError(error.file or str(args.file), error.line, str(error))]) from None
        rules_md = render_ruleset(args.title or DEFAULT_TITLE, read.rules)
        progress.step(f"writing {args.output or 'the rules'}")
        if args.output:
            write_atomic(args.output, rules_md)
    for line, what in read.left_out:
        print(SourceError(str(args.file), line, f"left out: '{what}' names no numbered rule" if line else
                          f"left out: {what}"), file=sys.stderr)
    if not args.output:
        sys.stdout.write(rules_md)
    return 0


def _run_history(args) -> int:
    from ..importers.archive import check_new_folder, write_game

    if args.output is None:
        raise ArchiveError([SourceError(f"import {args.file}", 0, "needs -o FOLDER, the new game's folder")])
    check_new_folder(args.output)
    if str(args.file) == "git":
        from ..importers.git import GitImportError, import_git
        if args.repo is None or not args.rules:
            raise ArchiveError([SourceError("import git", 0, "needs the repository and --rules: import git REPO "
                                            "--rules PATH -o FOLDER")])
        try:
            result = import_git(Path(args.repo), args.rules, start=args.start_rev, end=args.end_rev,
                                title=args.title)
        except GitImportError as error:
            raise ArchiveError([SourceError(str(args.repo), 0, str(error).removeprefix(f"{args.repo}: "))]) from None
        summary = f"{result.proposals} proposals"
    else:
        from ..importers.agora import AgoraImportError, import_agora
        if not args.ruleset:
            raise ArchiveError([SourceError("import agora", 0, "needs --ruleset CLONE (a clone of AgoraNomic/ruleset)")])
        try:
            result = import_agora(Path(args.ruleset), Path(args.assessor) if args.assessor else None,
                                  first=args.start_rev, last=args.end_rev)
        except AgoraImportError as error:
            raise ArchiveError([SourceError(error.where, 0, str(error))]) from None
        summary = f"{result.proposals} decisions"
    write_game(args.output, result.files)
    print(f"imported {summary} into {args.output}; IMPORT.md says what was read and what was not; "
          f"check it with: nomic-archive check {args.output}")
    return 0
