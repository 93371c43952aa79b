"""`nomic-archive build`: parse, replay, plan, render what changed, and put it in place at once."""
from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..cache import digest, open_cache, program_digest
from ..files import check_site_folder, site_lock
from ..parallel import available_cores
from ..site.pages import plan_site
from ..parse.game import inputs_digest
from ..site.render import build_pages, make_environment, templates_digest, unchanged_site
from .check import check_games


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None, waiting: Callable[[], None] = lambda: None) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages that changed (see render.build_pages). On any failure the previous site
    stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made. Another build
    writing the same folder is waited for (`waiting` is called when that starts)."""
    started = time.perf_counter()
    check_site_folder(output, content)
    with site_lock(output, waiting):
        check_site_folder(output, content)  # as the other build left it
        return _build_locked(content, output, base_url, cache_dir, jobs, started)


def _build_locked(content: Path, output: Path, base_url: str, cache_dir: Path | None, jobs: int | None,
                  started: float) -> dict:
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
    summary = build_site(args.content, args.output, base_url=args.base_url, cache_dir=args.cache_dir, jobs=args.jobs,
                         waiting=lambda: print(f"waiting for another build writing {args.output} ...", file=sys.stderr))
    findings = f"; {summary['findings']} discrepancies (see each game's check page or run nomic-archive check)" \
        if summary["findings"] else ""
    changed = "" if summary["written"] == summary["pages"] else f" ({summary['written']} written, the rest unchanged)"
    print(f"built {summary['pages']} pages{changed} for {summary['games']} games into {args.output} "
          f"in {summary['seconds']:.2f}s{findings}", file=sys.stderr)
    return 0
