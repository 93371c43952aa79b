"""`nomic-archive import FILE`: a plain-text ruleset (a mail, a wiki page, a forum post) to rules.md.

`-o` never replaces an existing file unless `--force` says so: rules.md may be a keeper's only copy."""
from __future__ import annotations

import sys

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import refuse_to_replace, write_atomic
from ..parse.importer import RulesetImportError, import_ruleset
from ..parse.source import read_text
from ..progress import for_command


def run(args) -> int:
    if args.output:
        refuse_to_replace(args.output, "import", force=args.force)
    errors = ErrorCollector()
    with for_command("import", 3, quiet=args.quiet) as progress:
        progress.step(f"reading {args.file}")
        text = read_text(args.file, str(args.file), errors)
        errors.raise_if_any()
        progress.step("finding the rules")
        try:
            rules_md = import_ruleset(text, title=args.title, start=args.start, stop=args.stop)
        except RulesetImportError as error:
            raise ArchiveError([SourceError(str(args.file), getattr(error, "line", 0) or 0, str(error))]) from None
        progress.step(f"writing {args.output or 'the rules'}")
        if args.output:
            write_atomic(args.output, rules_md)
    if not args.output:
        sys.stdout.write(rules_md)
    return 0
