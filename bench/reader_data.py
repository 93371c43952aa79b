#!/usr/bin/env python3
"""What a reader's browser loads, on a synthetic archive: `reader_data.py [N ...]` (default 1000 10000).

For each N: the script every page loads before the reader asks for anything (site.js, and on the as-of
and compare pages points.js and compare.js), then the data pieces a few requests load: search for a
number and for a common word, the rules at one point, and the comparison of the start with now. Pieces
are counted as the browser would load them (generator/site/search.py and points.py say which).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from bench.synthetic import make_archive  # noqa: E402


def _data(path: Path):
    text = path.read_text(encoding="utf-8")
    return json.loads(text.split("] = ", 1)[1].rstrip().rstrip(";"))


def _kb(paths: set[Path]) -> str:
    return f"{sum(p.stat().st_size for p in paths) / 1024:,.0f} KB in {len(paths)} files"


def search_loads(game: Path, query: str) -> set[Path]:
    manifest = _data(game / "search" / "index.js")
    words = re.findall(r"\w+", query.lower())
    terms = manifest["terms"]
    wanted = {game / "search" / "index.js"}
    hits: dict[int, int] = {}
    for word in words:
        for i, first in enumerate(terms):
            following = terms[i + 1] if i + 1 < len(terms) else None
            if first <= word + "\uffff" and (following is None or following > word):
                wanted.add(game / "search" / f"terms-{i}.js")
                for term, lists in _data(game / "search" / f"terms-{i}.js").items():
                    if term.startswith(word):
                        for doc in lists[0] + lists[1] + lists[2] + lists[3]:
                            hits[doc] = hits.get(doc, 0) + 1
    top = sorted(hits, key=lambda d: -hits[d])[:12]
    wanted |= {game / "search" / f"docs-{d // manifest['per']}.js" for d in top}
    return wanted


def point_loads(game: Path, index: int) -> set[Path]:
    manifest = _data(game / "points" / "index.js")
    return {game / "points" / "index.js", game / "points" / f"{max(index, 0) // manifest['per']}.js"}


def start_now_loads(game: Path) -> set[Path]:
    """The rules at both ends, then for each rule that differs its bucket (first and last texts, the
    first against the last) or, for one added since the start, the file of its last version."""
    manifest = _data(game / "points" / "index.js")
    last = manifest["count"] - 1
    loads = point_loads(game, -1) | point_loads(game, last)
    first, final = _data(game / "points" / "0.js"), _data(game / "points" / f"{last // manifest['per']}.js")
    at_start = {v[0]: v for v in first["versions"] if v[5] <= -1 and (v[6] == -2 or v[6] > -1)}
    at_end = {v[0]: v for v in final["versions"] if v[5] <= last and v[6] == -2}
    rules = game / "compare" / "rules"
    for identity in set(at_start) | set(at_end):
        if at_start.get(identity, [None] * 2)[1] == at_end.get(identity, [None] * 2)[1]:
            continue  # the same version at both ends
        loads.add(rules / f"{identity // 16}.js")
        version = at_end.get(identity)
        if version and identity not in at_start and version[11] > 4:
            loads.add(rules / f"{identity}-{version[1] // 32}.js")
    return loads


def main(sizes: list[int]) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            content = Path(tmp) / "content"
            make_archive(content, n)
            site = Path(tmp) / "site"
            subprocess.run([sys.executable, "-m", "generator", "build", str(content), "-o", str(site)],
                           check=True, stderr=subprocess.DEVNULL)
            game = site / "synthetic"
            static = site / "static"
            every_page = {static / "site.js"}
            print(f"{n:,} proposals: {sum(1 for _ in site.rglob('*')):,} files")
            print(f"  before asking, every page: {_kb(every_page)}; as-of and compare pages: "
                  f"{_kb(every_page | {static / 'points.js', static / 'compare.js'})}")
            print(f"  search '{300 + n // 2}': {_kb(search_loads(game, str(300 + n // 2)))}")
            print(f"  search 'rule player': {_kb(search_loads(game, 'rule player'))}")
            print(f"  rules at one point: {_kb(point_loads(game, n // 2))}")
            print(f"  compare start with now: {_kb(start_now_loads(game))}")
            pieces = list(game.glob("search/*.js")) + list(game.glob("points/*.js")) + list(game.glob("compare/rules/*.js"))
            largest = max(pieces, key=lambda p: p.stat().st_size)
            print(f"  largest piece: {largest.relative_to(site)} {largest.stat().st_size / 1024:,.0f} KB; "
                  f"all pieces {_kb(set(pieces))}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1000, 10000])
