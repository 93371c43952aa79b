#!/usr/bin/env python3
"""What keeping the cache's records as data costs, against the pickles it kept before (issue 52).

Usage: cache_records.py [PROPOSALS] [--rounds 5]

Writes a synthetic game of PROPOSALS (10,000 by default) in a temporary folder, parses its log, and times, in
one process, round after round, the best of each: every entry pickled and unpickled, every entry written as a
record and read back (generator/records.py), and a manifest of 18,000 pages read back both ways; then the
HMAC seals of all the entries' records. Alternated in one process, the ratios hold on a machine whose speed
swings (docs/benchmarks.md).
"""
from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.cache import _seal, _unsealed  # noqa: E402
from generator.parse.log import LogParser, ParsedEntry  # noqa: E402
from generator.records import decoded, encoded  # noqa: E402
from generator import manifest  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("proposals", nargs="?", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / "game"
        subprocess.run([sys.executable, "-m", "generator", "synth", str(game), "--proposals", str(args.proposals)],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        _, entries, _ = LogParser().parse_log_file("game/log.md", (game / "log.md").read_text(encoding="utf-8"))
    pages = {f"game/proposals/{n}.html": (os.urandom(20), 20_000 + n, 1_765_000_000_000_000_000 + n,
                                          1_765_000_000_000_000_001 + n) for n in range(18_000)}
    inputs = (os.urandom(20), {"games": 1, "pages": len(pages), "findings": 0})
    key, secret = os.urandom(20), os.urandom(32)
    pickles = [pickle.dumps(entry, pickle.HIGHEST_PROTOCOL) for entry in entries]
    records = [encoded(entry, ParsedEntry) for entry in entries]
    manifest_pickle = pickle.dumps((4, pages, inputs), pickle.HIGHEST_PROTOCOL)

    manifest_record = encoded(manifest.stored_manifest(pages, inputs), manifest.StoredManifest)

    class Stored:
        def manifest(self, output, kind):
            return decoded(manifest_record, kind)

    manifest.SITE_MARKER = Path(__file__).name  # (the manifest of a "site" that is this folder)
    work = {
        "entries pickled": lambda: [pickle.dumps(entry, pickle.HIGHEST_PROTOCOL) for entry in entries],
        "entries as records": lambda: [encoded(entry, ParsedEntry) for entry in entries],
        "entries unpickled": lambda: [pickle.loads(data) for data in pickles],
        "entries read from records": lambda: [decoded(data, ParsedEntry) for data in records],
        "manifest unpickled": lambda: pickle.loads(manifest_pickle),
        "manifest read from its record": lambda: manifest.read_record(Stored(), Path(__file__).parent),
        "entries' seals made and checked": lambda: [_unsealed(secret, key, _seal(secret, key, data) + data)
                                                     for data in records],
    }
    best = dict.fromkeys(work, float("inf"))
    for _ in range(args.rounds):
        for name, run in work.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    print(f"# {len(entries):,} entries ({sum(map(len, pickles)) / 1e6:.1f} MB pickled, "
          f"{sum(map(len, records)) / 1e6:.1f} MB as records), best of {args.rounds}, load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, seconds in best.items():
        print(f"{name}: {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
