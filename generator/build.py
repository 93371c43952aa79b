"""A build's driver: the site folder checked and locked, then, when the site was made from the same inputs and is
as that build left it, nothing more; else every page drawn (`pipeline.draw_site`).

The question comes first and is asked with a small part of the program (the cache, the manifest, the games'
folders): the parser, the engine, the site's pages and Jinja are imported only when there is something to draw,
and importing them took longer than reading the inputs and the site's file times (a third of a build with
nothing to do at 10,000 proposals)."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .cache import digest, open_cache, program_digest
from .errors import ArchiveError, SourceError
from .files import check_site_folder, site_folder, site_lock
from .manifest import overrides_folder, templates_digest, unchanged_site
from .model.urls import base_url_problem
from .parallel import available_cores
from .parse.folders import inputs_digest
from .progress import NO_PROGRESS, Progress


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None, waiting: Callable[[], None] = lambda: None,
               progress: Progress = NO_PROGRESS) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages whose bytes changed (see render.build_pages). On any failure the previous
    site stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made. Another build
    writing the same folder is waited for (`waiting` is called when that starts). `progress`: told of its
    BUILD_STEPS (progress.py)."""
    started = time.perf_counter()
    if problem := base_url_problem(base_url):  # before anything is read or written
        raise ArchiveError([SourceError("--base-url", 0, f"'{base_url}' {problem}; nothing was written")])
    check_site_folder(output, content)
    output = site_folder(output)
    with site_lock(output, waiting):
        check_site_folder(output, content)  # as the other build left it
        cache = open_cache(cache_dir, content)
        try:
            games = inputs_digest(content)
            # Everything the site is made of: the games' files, the templates, the options, and this program.
            inputs = digest(program_digest(), templates_digest(overrides_folder(content)), base_url, games) \
                if games else None
            said = unchanged_site(cache, output, inputs) if inputs else None
            if said is not None:  # made from the same inputs and untouched since: nothing to parse, draw or write
                return {**said, "written": 0, "seconds": time.perf_counter() - started,
                        "cache_unusable": cache.unusable}
            from .pipeline import draw_site  # only now: see the module's docstring

            done = draw_site(content, output, cache, base_url=base_url, jobs=jobs or available_cores(),
                             inputs=inputs, games=games, progress=progress)
        finally:
            cache.close()
    return {**done, "seconds": time.perf_counter() - started, "cache_unusable": cache.unusable}
