"""`nomic-archive build`: parse, replay, plan, render what changed, and put it in place at once."""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from ..cache import digest, open_cache, program_digest
from ..files import check_site_folder
from ..parallel import available_cores
from ..site.pages import plan_site
from ..parse.game import inputs_digest
from ..progress import NO_PROGRESS, Progress, for_command
from ..site.render import build_pages, make_environment, templates_digest, unchanged_site
from . import content_folder, counted
from .check import STEPS as CHECK_STEPS, check_games

STEPS = CHECK_STEPS + 2  # reading and replaying the games, planning the pages, drawing them


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None, progress: Progress = NO_PROGRESS) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages that changed (see render.build_pages). On any failure the previous site
    stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made."""
    started = time.perf_counter()
    check_site_folder(output, content)
    cache = open_cache(cache_dir, content)
    overrides = (content / "_templates") if content.is_dir() else None
    games = inputs_digest(content)
    # Everything the site is made of: the games' files, the templates, the options, and this program.
    inputs = digest(program_digest(), templates_digest(overrides), base_url, games) if games else None
    said = unchanged_site(cache, output, inputs) if inputs else None
    if said is not None:  # made from the same inputs and untouched since: nothing to parse, draw or write
        cache.close()
        return {**said, "written": 0, "seconds": time.perf_counter() - started}
    # Parsing, replaying and planning make millions of objects that live to the end and form no cycles:
    # the collector would walk them again and again for nothing. Frozen, forked workers share them without
    # copying; drawing pages makes no cycles either, so the collector stays off in this short-lived process.
    gc.disable()
    try:
        jobs = jobs or available_cores()
        replays = check_games(content, cache=cache, jobs=jobs, progress=progress)
        env = make_environment(overrides)
        progress.step("planning the pages")
        pages = plan_site(replays, base_url=base_url, store=cache, jobs=jobs)
        gc.freeze()
        progress.step(f"drawing what changed of {len(pages):,} pages")
        summary = {"games": len(replays), "pages": len(pages), "findings": sum(len(r.findings) for r in replays)}
        result = build_pages(env, pages, output, cache=cache, overrides=overrides, jobs=jobs,
                             inputs=(inputs, summary) if inputs else None)
    finally:
        gc.enable()
        cache.close()
    return {**summary, "written": result.written, "seconds": time.perf_counter() - started}


def run(args) -> int:
    content = content_folder(args.content, "build")
    with for_command("build", STEPS, quiet=args.quiet) as progress:
        summary = build_site(content, args.output, base_url=args.base_url, cache_dir=args.cache_dir, jobs=args.jobs,
                             progress=progress)
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

