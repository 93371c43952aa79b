"""`nomic-archive build`: parse, replay, plan, render what changed, and put it in place at once."""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from ..cache import digest, open_cache, program_digest
from ..errors import ArchiveError, SourceError
from ..files import check_site_folder
from ..model.urls import base_url_problem
from ..parallel import available_cores
from ..site.pages import plan_site
from ..parse.game import inputs_digest
from ..site.render import build_pages, make_environment, templates_digest, unchanged_site
from .check import check_games


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages that changed (see render.build_pages). On any failure the previous site
    stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made."""
    started = time.perf_counter()
    if problem := base_url_problem(base_url):  # before anything is read or written
        raise ArchiveError([SourceError("--base-url", 0, f"'{base_url}' {problem}; nothing was written")])
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
        replays = check_games(content, cache=cache, jobs=jobs)
        env = make_environment(overrides)
        pages = plan_site(replays, base_url=base_url, store=cache, jobs=jobs)
        gc.freeze()
        summary = {"games": len(replays), "pages": len(pages), "findings": sum(len(r.findings) for r in replays)}
        result = build_pages(env, pages, output, cache=cache, overrides=overrides, jobs=jobs,
                             inputs=(inputs, summary) if inputs else None)
    finally:
        gc.enable()
        cache.close()
    return {**summary, "written": result.written, "seconds": time.perf_counter() - started}


def run(args) -> int:
    summary = build_site(args.content, args.output, base_url=args.base_url, cache_dir=args.cache_dir, jobs=args.jobs)
    findings = f"; {summary['findings']} discrepancies (see each game's check page or run nomic-archive check)" \
        if summary["findings"] else ""
    changed = "" if summary["written"] == summary["pages"] else f" ({summary['written']} written, the rest unchanged)"
    print(f"built {summary['pages']} pages{changed} for {summary['games']} games into {args.output} "
          f"in {summary['seconds']:.2f}s{findings}", file=sys.stderr)
    return 0
