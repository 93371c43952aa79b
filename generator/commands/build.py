"""`nomic-archive build`: the site drawn from the content folder (pipeline.build_site), and a line saying so."""
from __future__ import annotations

import sys

from ..pipeline import build_site


def run(args) -> int:
    summary = build_site(args.content, args.output, base_url=args.base_url, cache_dir=args.cache_dir, jobs=args.jobs,
                         waiting=lambda: print(f"waiting for another build writing {args.output} ...", file=sys.stderr))
    findings = f"; {summary['findings']} discrepancies (see each game's check page or run nomic-archive check)" \
        if summary["findings"] else ""
    changed = "" if summary["written"] == summary["pages"] else f" ({summary['written']} written, the rest unchanged)"
    print(f"built {summary['pages']} pages{changed} for {summary['games']} games into {args.output} "
          f"in {summary['seconds']:.2f}s{findings}", file=sys.stderr)
    return 0
