#!/usr/bin/env python3
"""Check and build time of a format 1.1 archive of weighted decisions (Agora's kind), measured in one run.

Usage: weighted_speed.py [N ...]   (default: 3000 6000)

The archive is bench/synthetic.py's make_weighted_archive: twelve voters with strengths, an adoption index
and a quorum on every decision, rules with powers, batches resolved out of order. Prints seconds and peak
memory of `check` and of `build` for each N, and the ballots the archive holds.
"""
from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench.build_speed import timed  # noqa: E402
from bench.synthetic import make_weighted_archive  # noqa: E402


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [3000, 6000]
    print(f"{'decisions':>10} {'ballots':>8} {'check s':>8} {'build s':>8} {'pages':>7} {'peak MB':>8}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            content = make_weighted_archive(Path(tmp) / "content", n)
            ballots = len(re.findall(r" x\d+", (content / "weighted" / "log.md").read_text()))
            check_s, _ = timed([sys.executable, "-m", "generator", "check", str(content)])
            build_s, peak = timed([sys.executable, "-m", "generator", "build", str(content), "-o", f"{tmp}/site"])
            pages = sum(1 for _ in Path(tmp, "site").rglob("*.html"))
            print(f"{n:>10} {ballots:>8} {check_s:>8.2f} {build_s:>8.2f} {pages:>7} {peak / 1024:>8.0f}")


if __name__ == "__main__":
    main()
