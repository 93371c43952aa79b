#!/usr/bin/env python3
"""What the site's costliest features add to a build from nothing, against the floor, in one run.

Usage: feature_costs.py [--proposals 10000] [--rounds 3] [--keep DIR]

Writes the synthetic game as bench/scale.py does (its log in one file), then, round after round, times the
floor and `nomic-archive build` from nothing (a new site, an empty cache): the whole program, and the
program with the work of one feature or several taken out, the site then lacking them:

- redlines: no two versions diffed and no redline drawn (every page that shows a change shows none);
- pieces: no data for the compare picker and "rules as of" (`site/points.py`);
- search: no search index (the proposals' HTML is then drawn with their pages).

It answers one question, which the targets in docs/benchmarks.md cite: how near the floor a build could come
by giving a feature up. A build without a feature is this script run again (`--child`), which replaces the
functions doing that feature's work before calling the program's entry; it stops, naming the function, when
one of them is gone (tests/test_feature_costs.py builds a small game each way). Ratios are against the floor
of the same round; nothing is deleted before the end (see bench/scale.py).
"""
from __future__ import annotations

import argparse
import compileall
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scale import FLOOR, ROOT, environment, floor_pages, generator, load, run

FEATURES = ("redlines", "pieces", "search")
# Each feature alone, then together, the costliest last.
WITHOUT = [(), ("search",), ("pieces",), ("redlines",), ("pieces", "search"), ("redlines", "pieces"), FEATURES]


def take_out(features: tuple[str, ...]) -> None:
    """Replace the functions that do the work of `features` (in this process, before the program runs)."""
    from generator.diffing import compare, redline
    from generator.site import pages, points, views

    def replace(module, name: str, value) -> None:
        if not hasattr(module, name):
            raise SystemExit(f"{module.__name__}.{name} is gone: this benchmark no longer takes out what it says")
        setattr(module, name, value)

    if "redlines" in features:
        unchanged = redline.Redline(())
        # (a cache, as the one it replaces: a build clears it after each batch of pages, views.forget_batch)
        replace(views, "redline_rendered", functools.lru_cache(maxsize=1)(lambda old, new: ("", ())))
        for module in (points, compare):
            replace(module, "redline", lambda old, new: unchanged)
    if "pieces" in features:
        replace(pages, "list_points_pages", lambda pages: None)
    if "search" in features:
        replace(pages, "_search_pieces", lambda plan: [])


def child(features: str, argv: list[str]) -> None:
    take_out(tuple(name for name in features.split(",") if name))
    from generator.cli import entry
    sys.argv = ["nomic-archive", *argv]
    entry()


def name(features: tuple[str, ...]) -> str:
    if not features:
        return "whole"
    return "without " + (features[0] if len(features) == 1 else f"{', '.join(features[:-1])} and {features[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proposals", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the game, sites and caches in this folder")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "generator", quiet=1)  # as an installed copy runs (see bench/scale.py)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {args.proposals:,} proposals, {load()}", flush=True)
    floors: list[float] = []
    builds: dict[tuple[str, ...], list[tuple[float, float]]] = {features: [] for features in WITHOUT}
    with tempfile.TemporaryDirectory(dir=args.keep) as scratch:
        tmp = Path(scratch)
        game = tmp / "game"
        run(generator("synth", str(game), "--proposals", str(args.proposals)), env=environment(tmp / "unused"))
        floor_pages(game, tmp / "floor-src")
        script = str(Path(__file__).resolve())
        for attempt in range(args.rounds):
            floor = run([sys.executable, str(FLOOR), str(tmp / "floor-src"), str(tmp / f"floor-{attempt}")])
            floors.append(floor.seconds)
            print(f"round {attempt + 1}: floor {floor.seconds:.2f} s ({load()})", flush=True)
            for features in WITHOUT:
                label = "-".join(features) or "whole"
                built = run([sys.executable, script, "--child", ",".join(features), "build", str(game), "-o",
                             str(tmp / f"site-{label}-{attempt}")],
                            env=environment(tmp / f"cache-{label}-{attempt}"))
                builds[features].append((built.seconds, built.cpu))
                print(f"  {name(features)}: {built.seconds:.2f} s, {built.seconds / floor.seconds:.2f}×, "
                      f"CPU {built.cpu:.2f} s", flush=True)
    print()
    print("| build | wall time, each round | against the floor of its round | CPU, median |")
    print("|---|---|---|---|")
    print(f"| (the floor) | {', '.join(f'{s:.2f} s' for s in floors)} | | |")
    for features, timed in builds.items():
        ratios = [seconds / floor for (seconds, _), floor in zip(timed, floors)]
        print(f"| {name(features)} | {', '.join(f'{s:.2f} s' for s, _ in timed)} | "
              f"{min(ratios):.2f}× to {max(ratios):.2f}× | {statistics.median(c for _, c in timed):.2f} s |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:  # feature_costs.py --child redlines,pieces build GAME -o SITE
        child(sys.argv[2], sys.argv[3:])
    main()
