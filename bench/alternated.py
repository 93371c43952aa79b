#!/usr/bin/env python3
"""This checkout against another (an older commit's, checked out elsewhere), alternated in one sitting: the
floor, then each side's build from nothing, build with nothing changed and check with the cache that build
left, round after round (each side first in every other round); medians, and ratios to the floor's median of
the same sitting.

Usage: alternated.py OTHER_CHECKOUT [--proposals 10000] [--rounds 4] [--keep DIR]

    git worktree add --detach /tmp/before main && python bench/alternated.py /tmp/before

On a machine whose speed swings by a factor of two within minutes (see docs/benchmarks.md), one run of each
side, one after the other, compares two moments more than two programs; taken in turns, each round meets both
sides under about the same load. Each side's runs write into folders of their own, deleted only at the end.
"""
from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import scale

SIDES = ("before", "after")
STEPS = ("build", "nothing changed", "check")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the checkout to compare with (its generator/ is run)")
    parser.add_argument("--proposals", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--keep", type=Path, help="write into this folder (kept)")
    args = parser.parse_args()
    roots = {"before": args.other.resolve(), "after": scale.ROOT}
    for root in roots.values():
        compileall.compile_dir(root / "generator", quiet=1)  # as an installed copy runs (see scale.py)
    with tempfile.TemporaryDirectory(dir=args.keep) as scratch:
        work = Path(scratch)
        game = work / "game"
        subprocess.run(scale.generator("synth", str(game), "--proposals", str(args.proposals)), check=True,
                       stdout=subprocess.DEVNULL, env=scale.environment(work / "unused"))
        scale.floor_pages(game, work / "floor-src")
        times: dict[str, list[float]] = {"floor": []}
        peaks: dict[str, float] = {}
        loads = [os.getloadavg()[0]]
        print(f"# {scale.load()}", flush=True)
        for round_ in range(args.rounds):
            times["floor"].append(scale.run([sys.executable, str(scale.FLOOR), str(work / "floor-src"),
                                             str(work / f"floor-out-{round_}")]).seconds)
            # Each side first in every other round: the one that runs second meets the disk still writing back
            # the first one's 18,000 files.
            for side in SIDES if round_ % 2 == 0 else SIDES[::-1]:
                root = roots[side]
                env = {**os.environ, "PYTHONPATH": str(root), scale.CACHE_ENV: str(work / f"cache-{side}-{round_}")}
                build = [sys.executable, "-m", "generator", "build", str(game), "-o", str(work / f"site-{side}-{round_}"),
                         "-q"]
                check = [sys.executable, "-m", "generator", "check", str(game), "-q"]
                for step, command in zip(STEPS, (build, build, check)):
                    ran = scale.run(command, cwd=root, env=env)
                    times.setdefault(f"{side}: {step}", []).append(ran.seconds)
                    peaks[side] = max(peaks.get(side, 0), ran.peak_mb)
            loads.append(os.getloadavg()[0])
            print(f"round {round_ + 1}: " + ", ".join(f"{name} {values[-1]:.2f} s" for name, values in times.items())
                  + f" (load {loads[-1]:.2f})", flush=True)
        floor = statistics.median(times["floor"])
        print(f"\nload average {min(loads):.2f}-{max(loads):.2f}; floor {floor:.2f} s (median of "
              f"{', '.join(f'{t:.2f}' for t in times['floor'])})\n")
        print("| | " + " | ".join(SIDES) + " |")
        print("|---|" + "---|" * len(SIDES))
        for step in STEPS:
            cells = [statistics.median(times[f"{side}: {step}"]) for side in SIDES]
            print(f"| {step} | " + " | ".join(f"{cell:.2f} s, {cell / floor:.2f}×" for cell in cells) + " |")
        print("| peak RSS (the largest process) | " + " | ".join(f"{peaks[side]:.0f} MB" for side in SIDES) + " |")


if __name__ == "__main__":
    main()
