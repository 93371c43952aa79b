"""`nomic-archive build`: the site drawn from the content folder (build.build_site), and a line saying so."""
from __future__ import annotations

import sys
from pathlib import Path

from ..build import build_site
from ..progress import BUILD_STEPS, for_command
from ..terminal import counted
from . import content_folder, say_cache_unusable


def run(args) -> int:
    content = content_folder(args.content, "build")
    with for_command("build", BUILD_STEPS, quiet=args.quiet) as progress:
        summary = build_site(content, args.output, base_url=args.base_url, cache_dir=args.cache_dir, jobs=args.jobs,
                             progress=progress, waiting=lambda: print(
                                 f"waiting for another build writing {args.output} ...", file=sys.stderr))
    say_cache_unusable(summary["cache_unusable"])
    if not args.quiet:
        print(build_summary(summary, args.output), file=sys.stderr)
    return 0


def build_summary(summary: dict, output: Path) -> str:
    findings = summary["findings"]
    found = (f"; {counted(findings, 'discrepancy', 'discrepancies')} (see each game's check page or run "
             "nomic-archive check)") if findings else ""
    changed = "" if summary["written"] == summary["pages"] else f" ({summary['written']} written, the rest unchanged)"
    return (f"built {counted(summary['pages'], 'page')}{changed} for {counted(summary['games'], 'game')} into "
            f"{output} in {summary['seconds']:.2f}s{found}")
