#!/usr/bin/env python3
"""Where a build from nothing spends its processor time, in one process (no workers, no cache, no file written):
parsing and replaying, listing and making the pages, the search index, then each kind of page's context and its
drawing by Jinja.

Usage: build_profile.py GAME            (a game folder: `nomic-archive synth /tmp/g --proposals 10000` makes one)
       build_profile.py GAME --steps    a real build from nothing instead (every core, files written into a new
                                        folder): each step's wall time and this process's processor time

Processor time, which the machine's other work moves less than wall time; a build shares the same work between
its processes (see docs/benchmarks.md, "The cold build at 10,000 proposals").
"""
from __future__ import annotations

import dataclasses
import gc
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.build import build_site  # noqa: E402
from generator.cache import Cache  # noqa: E402
from generator.pipeline import Pipeline  # noqa: E402
from generator.progress import BUILD_STEPS, Progress  # noqa: E402
from generator.site.render import draw_page, page_batches  # noqa: E402
from generator.site.views import Page, forget_batch  # noqa: E402


def kind_of(page: Page) -> str:
    if page.stub:
        return "redirects from old rule numbers"
    if page.path.endswith(".js"):
        return ("the picker's comparison pieces" if "/compare/" in page.path
                else "rules as of a point" if "/points/" in page.path else "other data pieces")
    return page.template


class StepTimes(Progress):
    """The build's own progress steps (progress.py), each with the wall and processor time since the last."""

    def __init__(self) -> None:
        super().__init__("build", BUILD_STEPS, enabled=False)
        self.marks = [("starting: the inputs' digest, the cache", time.perf_counter(), time.process_time())]

    def step(self, what: str) -> None:
        super().step(what)
        self.marks.append((what, time.perf_counter(), time.process_time()))


def build_steps(game: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        times = StepTimes()
        build_site(game, Path(scratch) / "site", cache_dir=Path(scratch) / "cache", progress=times)
        times.marks.append(("end", time.perf_counter(), time.process_time()))
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"# {game}, load average {os.getloadavg()[0]:.2f}")
        print("| step | wall | this process's processor time |\n|---|---|---|")
        for (what, wall, cpu), (_, wall_after, cpu_after) in zip(times.marks, times.marks[1:]):
            print(f"| {what} | {wall_after - wall:.2f} s | {cpu_after - cpu:.2f} s |")
        print(f"| in all | {times.marks[-1][1] - times.marks[0][1]:.2f} s | {times.marks[-1][2] - times.marks[0][2]:.2f} s "
              f"(and the forked processes' {children.ru_utime + children.ru_stime:.2f} s) |")


def main() -> None:
    if "--steps" in sys.argv[2:]:
        return build_steps(Path(sys.argv[1]))
    gc.disable()  # as a build runs
    clock = time.process_time
    phases = {}
    started = clock()
    pipeline = Pipeline(Path(sys.argv[1]))
    replays = pipeline.replay(cache=Cache(None), jobs=1)
    phases["parsing and replaying"], started = clock() - started, clock()
    site = pipeline.site(replays)
    pages = site.listed_pages()
    phases["listing and making the pages"], started = clock() - started, clock()
    pieces = site.search_pieces()
    phases["the search index (its pieces made)"] = clock() - started
    context, jinja, count = defaultdict(float), defaultdict(float), defaultdict(int)
    for batch in [pieces] + page_batches(pages):  # as a build draws them: what a batch shares is drawn once
        for page in batch:
            kind = kind_of(page)
            started = clock()
            made = dataclasses.replace(page, context=page.full_context(), lazy=None)  # the costly context computed
            between = clock()
            draw_page(pipeline.env, made)  # and the page drawn from it, as draw_page draws any
            context[kind] += between - started
            jinja[kind] += clock() - between
            count[kind] += 1
        forget_batch()
    print(f"# {Path(sys.argv[1])}, load average {os.getloadavg()[0]:.2f}")
    print("| step, or pages | how many | context | Jinja |\n|---|---|---|---|")
    for name, seconds in phases.items():
        print(f"| {name} | | {seconds:.2f} s | |")
    for kind in sorted(count, key=lambda k: -(context[k] + jinja[k])):
        print(f"| {kind} | {count[kind]:,} | {context[kind]:.2f} s | {jinja[kind]:.2f} s |")
    total = sum(phases.values()) + sum(context.values()) + sum(jinja.values())
    print(f"\n{total:.2f} s of processor time in all")


if __name__ == "__main__":
    main()
