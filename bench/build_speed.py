#!/usr/bin/env python3
"""Build time of a synthetic archive against the floor, measured in one run on the same machine.

Usage: build_speed.py [N ...]   (default: 1000 10000)

The floor is ../shared/bench/floor.py's work (markdown-it-py and one Jinja2 template) over the same
proposals as plain pages, one per proposal. Prints seconds, peak memory and the ratio for each N.
"""
from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench.synthetic import make_archive  # noqa: E402

FLOOR = HERE.parent.parent / "shared" / "bench" / "floor.py"


def floor_pages(game: Path, out: Path) -> None:
    """One Markdown page per proposal, cut from the synthetic log, for the floor to render."""
    out.mkdir(parents=True)
    text = (game / "log.md").read_text()
    for i, chunk in enumerate(text.split("\n## ")[1:]):
        (out / f"p{i:05d}.md").write_text("## " + chunk)


def timed(command: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return time.perf_counter() - started, max(peak, before)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    print(f"{'proposals':>10} {'build s':>9} {'floor s':>9} {'ratio':>7} {'build peak MB':>14}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            content = make_archive(Path(tmp) / "content", n)
            floor_pages(content / "synthetic", Path(tmp) / "floor-src")
            floor_s, _ = timed([sys.executable, str(FLOOR), f"{tmp}/floor-src", f"{tmp}/floor-out"])
            build_s, peak = timed([sys.executable, "-m", "generator", "build", str(content), "-o", f"{tmp}/site"])
            print(f"{n:>10} {build_s:>9.2f} {floor_s:>9.2f} {build_s / floor_s:>7.2f} {peak / 1024:>14.0f}")


if __name__ == "__main__":
    main()
