#!/usr/bin/env python3
"""Edit-to-reload latency of `serve`: from writing a file to the rebuild's `reload` event on the wire.

Usage: serve_latency.py [N ...] [--runs R] [--per-file P] [--profile]   (default: N = 2000, R = 5)

Runs the real thing in-process: watchdog, the debounced rebuild thread and the HTTP server on a free port,
with a server-sent-events client connected. Each run appends a sentence to the last entry of a game's log
(a proposal edit) and times until `event: reload` arrives. Measured on a copy of the bundled content/
(when present) and on a synthetic archive of N proposals (bench/synthetic.py), its log in one file and,
with --per-file P, also split into files of P proposals (as large archives are kept). --profile adds a cProfile
of one rebuild of the largest archive, without threads.
"""
from __future__ import annotations

import argparse
import cProfile
import http.client
import pstats
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench.synthetic import make_archive  # noqa: E402
from generator.parse.game import game_folders, input_files  # noqa: E402
from generator.serve import EVENTS_PATH, LiveSite, RebuildResult  # noqa: E402

TIMEOUT = 120


def last_log_file(content: Path) -> Path:
    game = game_folders(content)[0]
    return [f for f in input_files(game) if f.name == "log.md" or f.parent.name == "log"][-1]


def measure(content: Path, out: Path, runs: int) -> dict:
    results: list[RebuildResult] = []
    live = LiveSite(content, out, report=results.append)
    started = time.perf_counter()
    first = live.start()
    first_build = time.perf_counter() - started
    assert first.ok, first.errors
    server = live.server
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    events = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=TIMEOUT)
    events.request("GET", EVENTS_PATH)
    response = events.getresponse()
    stream = response.fp  # read line by line: events arrive as they are sent
    stream.readline(), stream.readline()  # retry: and the blank line
    log = last_log_file(content)
    original = log.read_text(encoding="utf-8")
    latencies = []
    try:
        for run in range(runs):
            time.sleep(0.3)  # let the watcher settle between runs
            written = time.perf_counter()
            log.write_text(f"{original.rstrip()}\n\nEdited for the benchmark, run {run}.\n", encoding="utf-8")
            event = stream.readline()
            while event.startswith(b":"):  # a keep-alive comment, sent while a long rebuild runs
                stream.readline()
                event = stream.readline()
            latencies.append(time.perf_counter() - written)
            stream.readline(), stream.readline()  # data: and the blank line
            assert event == b"event: reload\n", (event, results[-1].errors if results else None)
    finally:
        events.close()
        server.shutdown()
        live.close()
    assert len(results) == runs, f"{len(results)} rebuilds for {runs} edits"
    return {"first build s": first_build, "pages": len(first.written),
            "runs": [f"{latency * 1000:.0f} ({result.seconds * 1000:.0f})" for latency, result in zip(latencies, results)],
            "median ms": round(statistics.median(latencies) * 1000),
            "rebuild ms": round(statistics.median(r.seconds for r in results) * 1000),
            "pages written": statistics.median(len(r.written) for r in results)}


def profile(content: Path, out: Path) -> None:
    from generator.serve import SiteBuilder

    builder = SiteBuilder(content, out)
    builder.build_all()
    log = last_log_file(content)
    log.write_text(log.read_text(encoding="utf-8") + "\nProfiled.\n", encoding="utf-8")
    profiler = cProfile.Profile()
    profiler.runcall(builder.rebuild, [log])
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(r"generator|markdown_it|jinja2|hashlib", 25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[2000], help="proposals in the synthetic archive")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--per-file", type=int, help="also measure the log split into files of this many proposals")
    parser.add_argument("--profile", action="store_true", help="profile one rebuild of the largest archive")
    args = parser.parse_args()
    bundled = HERE.parent / "content"
    print(f"{'archive':>28} {'pages':>7} {'first build s':>14} {'rebuild ms':>11} {'written':>8} "
          "edit-to-reload ms: median; each run (its rebuild)")
    with tempfile.TemporaryDirectory() as tmp:
        archives = []
        if bundled.is_dir() and game_folders(bundled):
            archives.append(("bundled content/", shutil.copytree(bundled, Path(tmp) / "bundled")))
        for n in args.sizes:
            archives.append((f"synthetic {n}", make_archive(Path(tmp) / f"synthetic-{n}", n)))
            if args.per_file:
                archives.append((f"synthetic {n}, {args.per_file}/file",
                                 make_archive(Path(tmp) / f"split-{n}", n, per_file=args.per_file)))
        for name, content in archives:
            row = measure(content, Path(tmp) / f"site-{content.name}", args.runs)
            print(f"{name:>28} {row['pages']:>7} {row['first build s']:>14.2f} {row['rebuild ms']:>11} "
                  f"{row['pages written']:>8} {row['median ms']:>8}; {', '.join(row['runs'])}", flush=True)
        if args.profile:
            profile(archives[-1][1], Path(tmp) / "site-profile")


if __name__ == "__main__":
    main()
