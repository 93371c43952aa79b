"""`nomic-archive import FILE`: a plain-text ruleset (a mail, a wiki page, a forum post) to rules.md.

`-o` never replaces an existing file unless `--force` says so: rules.md may be a keeper's only copy."""
from __future__ import annotations

import sys

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import refuse_to_replace, write_atomic
from ..parse.importer import RulesetImportError, import_ruleset
from ..parse.source import read_text


def run(args) -> int:
    if args.output:
        refuse_to_replace(args.output, "import", force=args.force)
    errors = ErrorCollector()
    text = read_text(args.file, str(args.file), errors)
    errors.raise_if_any()
    try:
        rules_md = import_ruleset(text, title=args.title, start=args.start, stop=args.stop)
    except RulesetImportError as error:
        raise ArchiveError([SourceError(str(args.file), getattr(error, "line", 0) or 0, str(error))]) from None
    if args.output:
        write_atomic(args.output, rules_md)
    else:
        sys.stdout.write(rules_md)
    return 0
