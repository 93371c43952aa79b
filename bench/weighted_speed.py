#!/usr/bin/env python3
"""Check and build time of a format 1.1 archive of weighted decisions (Agora's kind), measured in one run.

Usage: weighted_speed.py [N ...]   (default: 3000 6000)

The archive is `nomic-archive synth --weighted`: twelve voters with strengths, an adoption index and a quorum
on every decision, rules with powers, batches resolved out of order. Prints seconds and peak memory of
`check` and of `build` for each N (each with a cache of its own), and the ballots the archive holds.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench.scale import environment, generator, run  # noqa: E402


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [3000, 6000]
    print(f"{'decisions':>10} {'ballots':>8} {'check s':>8} {'build s':>8} {'pages':>7} {'peak MB':>8}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            game = Path(tmp) / "weighted"
            env = environment(Path(tmp) / "cache")
            subprocess.run(generator("synth", str(game), "--proposals", str(n), "--weighted"), check=True,
                           stdout=subprocess.DEVNULL, env=env)
            ballots = len(re.findall(r" x\d+", (game / "log.md").read_text()))
            check = run(generator("check", str(game)), env=env)
            build = run(generator("build", str(game), "-o", f"{tmp}/site"), env=env)
            pages = sum(1 for _ in Path(tmp, "site").rglob("*.html"))
            print(f"{n:>10} {ballots:>8} {check.seconds:>8.2f} {build.seconds:>8.2f} {pages:>7} "
                  f"{max(check.peak_mb, build.peak_mb):>8.0f}")


if __name__ == "__main__":
    main()
