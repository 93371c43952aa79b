"""The walk every command takes, from a content folder to its replays and, for a site, to its pages on disk:
load (parse, with the cache) → replay → plan → render → write. `check`, `diff` and `preview` stop at the
replays; `build` (here) and `serve` (serve.SiteBuilder) are its two drivers to a site: `build` plans every page
and keeps the pages' digests on disk (a manifest in the cache), `serve` plans again the parts whose recorded
reads moved (site/keyed.py) and keeps fingerprints in memory, and both draw exactly the pages whose deps moved
since the site was last drawn.
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

from .cache import Cache, digest, open_cache, program_digest
from .engine import replay_game
from .engine.replay import Replay
from .errors import ArchiveError, SourceError
from .files import check_site_folder, site_lock
from .model.urls import base_url_problem
from .parallel import available_cores
from .parse.game import inputs_digest, load_content, names_root
from .parse.log import LogParser
from .progress import NO_PROGRESS, Progress
from .site.pages import plan_site
from .site.render import build_pages, make_environment, templates_digest, unchanged_site
from .terminal import counted

# The steps each says to a command's progress line (progress.py).
REPLAY_STEPS = 2  # reading the games, replaying them
BUILD_STEPS = REPLAY_STEPS + 2  # and planning the pages, drawing them


def replay_games(content: Path, *, drafts: bool = False, cache: Cache | None = None, jobs: int = 1,
                 previous: Replay | None = None, checkpoints: bool = False,
                 parser: LogParser | None = None, progress: Progress = NO_PROGRESS) -> list[Replay]:
    """Replays of every game (their drafts parsed too when asked); raises ArchiveError when any input
    cannot be read or applied. `jobs`: cores to parse a long log on (forking: only where no thread runs).
    `previous` and `checkpoints`: an earlier replay of the one game `content` names, to resume from, and
    whether to keep checkpoints to resume this one from (see replay_game); `parser`, one that parsed the logs
    before and remembers their entries (serve's, from save to save); `progress`: told of its REPLAY_STEPS."""
    progress.step("reading the games")
    games = load_content(content, drafts=drafts, cache=cache, jobs=jobs, parser=parser)
    progress.step(f"replaying {counted(len(games), 'game')}")
    replays = [replay_game(game, previous=previous, checkpoints=checkpoints) for game in games]
    fatal = [SourceError(e.file, e.line, f"{e.entry}: {e.message}" if e.entry else e.message)
             for r in replays for e in r.errors]
    if fatal:
        raise ArchiveError(fatal, root=str(names_root(content)))
    return replays


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None, waiting: Callable[[], None] = lambda: None,
               progress: Progress = NO_PROGRESS) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages that changed (see render.build_pages). On any failure the previous site
    stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made. Another build
    writing the same folder is waited for (`waiting` is called when that starts). `progress`: told of its
    BUILD_STEPS."""
    started = time.perf_counter()
    if problem := base_url_problem(base_url):  # before anything is read or written
        raise ArchiveError([SourceError("--base-url", 0, f"'{base_url}' {problem}; nothing was written")])
    check_site_folder(output, content)
    with site_lock(output, waiting):
        check_site_folder(output, content)  # as the other build left it
        return _build_locked(content, output, base_url, cache_dir, jobs, started, progress)


def _build_locked(content: Path, output: Path, base_url: str, cache_dir: Path | None, jobs: int | None,
                  started: float, progress: Progress) -> dict:
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
        replays = replay_games(content, cache=cache, jobs=jobs, progress=progress)
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
