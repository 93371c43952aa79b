"""The randomized differential test: after each of a sequence of random edits of the kinds a keeper makes, every
page serve answers (fetched over HTTP, serve drawing it from its current replays) and the site `build` updates in
place must each be, byte for byte, the site a build from nothing gives. The games: Solitaire and another bundled
one, one of format 1.2's case folders and a synthetic one.

Edits: numbers, words, titles, votes, results, scores, Effects, key lines; entries appended (a defeated
proposal at the end, the commonest edit), deleted, moved and duplicated; Solitaire's turn headings; the log's
preamble; rules.md; labels (in rules.md and the log, and a change naming its rule by one); game.toml; snapshots;
drafts; a template override; a game broken and fixed later (while another is edited); two games at once. Each
run makes every kind of edit at least once, in an order of its own.
A failure names the seed and the edits that led to it, so that

    NOMIC_DIFFERENTIAL_SEED=<seed> python -m pytest tests/test_differential.py

replays it. NOMIC_DIFFERENTIAL_EDITS=<n> runs longer sequences (the default makes each kind once a run).
"""
from __future__ import annotations

import hashlib
import http.client
import os
import random
import re
import shutil
import threading
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import ArchiveError
from generator.build import build_site
from generator.serve import EventHub, LiveSite, SiteServer
from tests.helpers import ROOT, site_digest

SEED = int(os.environ.get("NOMIC_DIFFERENTIAL_SEED", "20261129"))
BUNDLED = sorted(p.parent.name for p in (ROOT / "content").glob("*/game.toml") if p.parent.name != "solitaire")
FORMAT_12_GAMES = sorted(p.parent for p in (ROOT / "tests" / "cases" / "engine").glob("v12-*/game.toml"))


# Each edit takes (rng, game folder) and changes one file or several; it returns a description of what it did,
# or None when it found nothing to do.

def _log_files(game: Path) -> list[Path]:
    return [p for p in [game / "log.md", *sorted((game / "log").glob("*.md"))] if p.is_file()]


def _lines_edit(change):
    def edit(rng: random.Random, game: Path) -> str | None:
        files = _log_files(game)
        if not files:
            return None
        path = rng.choice(files)
        lines = path.read_text(encoding="utf-8").split("\n")
        what = change(rng, lines)
        if what is None:
            return None
        path.write_text("\n".join(lines), encoding="utf-8")
        return f"{path.name}: {what}"
    edit.__name__ = change.__name__
    return edit


def _headings(lines: list[str]) -> list[int]:
    fenced, found = False, []
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif line.startswith("## ") and not fenced:
            found.append(index)
    return found


def _entry_span(lines: list[str], rng: random.Random) -> tuple[int, int] | None:
    heads = _headings(lines)
    if not heads:
        return None
    at = rng.randrange(len(heads))
    return heads[at], heads[at + 1] if at + 1 < len(heads) else len(lines)


@_lines_edit
def number(rng, lines):
    candidates = [i for i, line in enumerate(lines) if re.search(r"\d", line)]
    if not candidates:
        return None
    i = rng.choice(candidates)
    match = rng.choice(list(re.finditer(r"\d+", lines[i])))
    new = str(max(0, int(match.group()) + rng.choice([-1, 1, 2, -10, 100])))
    lines[i] = lines[i][:match.start()] + new + lines[i][match.end():]
    return f"number at line {i + 1}"


@_lines_edit
def word(rng, lines):
    candidates = [i for i, line in enumerate(lines) if len(line.split()) > 3 and not line.startswith("#")]
    if not candidates:
        return None
    i = rng.choice(candidates)
    words = lines[i].split(" ")
    k = rng.randrange(len(words))
    words[k] = rng.choice(["bird", "the", "rule", "Points", words[k][::-1]])
    lines[i] = " ".join(words)
    return f"word at line {i + 1}"


@_lines_edit
def delete_entry(rng, lines):
    if len(_headings(lines)) < 3:
        return None
    start, end = _entry_span(lines, rng)
    del lines[start:end]
    return f"entry at line {start + 1} deleted"


@_lines_edit
def move_entry(rng, lines):
    if len(_headings(lines)) < 3:
        return None
    start, end = _entry_span(lines, rng)
    block = lines[start:end]
    moved = rng.random() < 0.6
    if moved:
        del lines[start:end]
    to = rng.choice(_headings(lines) + [len(lines)])
    lines[to:to] = block if block[-1] == "" else block + [""]
    return f"entry at line {start + 1} {'moved' if moved else 'copied'} to line {to + 1}"


@_lines_edit
def append_defeated(rng, lines):
    numbers = [int(m.group(1)) for line in lines if (m := re.match(r"## Proposal (\d+)", line))]
    if not numbers:
        return None
    proposer = next((line.split(":", 1)[1].strip() for line in reversed(lines) if line.startswith("Proposer:")), "A")
    while lines and lines[-1] == "":
        lines.pop()
    lines += ["", f"## Proposal {max(numbers) + 1}: Appended", f"Proposer: {proposer}", "Votes: none",
              "Result: defeated", "", "Enact rule: Appended", "", "> A rule nobody wanted.", ""]
    return "a defeated proposal appended"


@_lines_edit
def blank_lines(rng, lines):
    i = rng.randrange(len(lines) + 1)
    lines[i:i] = [""] * rng.randint(1, 3)
    return f"blank lines at line {i + 1}"


@_lines_edit
def delete_line(rng, lines):
    i = rng.randrange(len(lines))
    del lines[i]
    return f"line {i + 1} deleted"


@_lines_edit
def duplicate_line(rng, lines):
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return f"line {i + 1} duplicated"


def _line_starting(rng: random.Random, lines: list[str], *starts: str) -> int | None:
    """A line chosen at random among those that start with one of `starts`."""
    candidates = [i for i, line in enumerate(lines) if line.startswith(starts)]
    return rng.choice(candidates) if candidates else None


@_lines_edit
def result(rng, lines):
    if (i := _line_starting(rng, lines, "Result:")) is None:
        return None
    lines[i] = "Result: " + rng.choice(["adopted", "defeated", "failed-quorum", "withdrawn"])
    return f"result at line {i + 1}"


@_lines_edit
def title(rng, lines):
    if (i := _line_starting(rng, lines, "## ", "### ")) is None:
        return None
    lines[i] += rng.choice([" bis", " <b>x</b>", " \u202eevil", " and more"])
    return f"title at line {i + 1}"


@_lines_edit
def votes(rng, lines):
    if (i := _line_starting(rng, lines, "Votes:")) is None:
        return None
    lines[i] = (lines[i].replace("for ", "against ", 1) if rng.random() < 0.5
                else lines[i].replace("against ", "for ", 1))
    return f"votes at line {i + 1}"


@_lines_edit
def key_line(rng, lines):
    i = rng.randrange(len(lines) + 1)
    lines.insert(i, rng.choice(["Note: hi", "Points: Brook +3", "Index: 2.0", "Quorum: 3", "Power: 2.0",
                                "Sets: score Alice 5", "Effect: scoring.win = 50", "Scores: Alice 3"]))
    return f"key line at line {i + 1}"


@_lines_edit
def preamble(rng, lines):
    heads = _headings(lines)
    end = heads[0] if heads else len(lines)
    candidates = [i for i in range(end) if lines[i].strip() and not lines[i].startswith("#")]
    if candidates:
        i = rng.choice(candidates)
        lines[i] += " Edited in the preamble."
    else:
        lines[end:end] = ["A preamble written later.", ""]
    return "preamble"


def rules_word(rng: random.Random, game: Path) -> str | None:
    path = game / "rules.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    candidates = [i for i, line in enumerate(lines) if len(line.split()) > 3 and not line.startswith("#")]
    if not candidates:
        return None
    i = rng.choice(candidates)
    lines[i] = lines[i].replace(" ", rng.choice([" very ", " not ", "  "]), 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    return f"rules.md: line {i + 1}"


def label(rng: random.Random, game: Path) -> str | None:
    """A rule given a label: in rules.md under its heading, or in the log after a change's quoted text."""
    name = f"{rng.randrange(1, 9)}E{rng.randrange(100)}"
    for path in rng.sample([game / "rules.md", game / "log.md"], 2):
        lines = path.read_text(encoding="utf-8").split("\n") if path.is_file() else []
        if path.name == "rules.md":
            places = [i + 1 for i, line in enumerate(lines) if line.startswith("### ")]
        else:  # the end of a blockquote that follows a change
            places = [i + 1 for i, line in enumerate(lines) if line.startswith(">") and i + 1 < len(lines)
                      and not lines[i + 1].startswith(">")]
        if places:
            i = rng.choice(places)
            lines[i:i] = [f"Label: {name}"] if path.name == "rules.md" else ["", f"Label: {name}"]
            path.write_text("\n".join(lines), encoding="utf-8")
            return f"{path.name}: label {name} at line {i + 1}"
    return None


def rule_by_label(rng: random.Random, game: Path) -> str | None:
    """A change naming its rule by a label (format 1.4) instead of its number: one the game gives, or another."""
    files = [path for path in [game / "rules.md", *_log_files(game)] if path.is_file()]
    given = sorted({m.group(1) for path in files for m in re.finditer(r"(?m)^Label: (\S+)$", path.read_text("utf-8"))})
    for path in rng.sample(_log_files(game), len(_log_files(game))):
        lines = path.read_text(encoding="utf-8").split("\n")
        places = [i for i, line in enumerate(lines)
                  if re.match(r"(?:Failed: )?(?:Amend|Repeal|Transmute|Retitle|Renumber) rule [0-9]+\b", line)]
        if places:
            i, name = rng.choice(places), rng.choice(given + ["9E9"])
            lines[i] = re.sub(r"rule [0-9]+", f"rule {name}", lines[i], count=1)
            path.write_text("\n".join(lines), encoding="utf-8")
            return f"{path.name}: line {i + 1} names rule {name}"
    return None


def game_setting(rng: random.Random, game: Path) -> str | None:
    path = game / "game.toml"
    text = path.read_text(encoding="utf-8")
    choices = [(r'(?m)^title = "([^"\n]*)"', lambda m: f'title = "{m.group(1)} (edited)"'),
               (r'(?m)^description = "([^"\n]*)"', lambda m: f'description = "{m.group(1)} Edited."'),
               (r"(?m)^win = (\d+)", lambda m: f"win = {int(m.group(1)) + 5}"),
               (r"(?m)^fraction = ([0-9.]+)", lambda m: "fraction = 0.75")]
    rng.shuffle(choices)
    for pattern, replace in choices:
        if re.search(pattern, text):
            path.write_text(re.sub(pattern, replace, text, count=1), encoding="utf-8")
            return f"game.toml: {pattern.split('^')[1].split(' ')[0]}"
    return None


def snapshot_word(rng: random.Random, game: Path) -> str | None:
    snapshots = sorted((game / "snapshots").glob("*.md"))
    if not snapshots:
        return None
    path = rng.choice(snapshots)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(" the ", " a ", 1), encoding="utf-8")
    return f"{path.name}: a word"


def draft(rng: random.Random, game: Path) -> str | None:
    folder = game / "drafts"
    existing = sorted(folder.glob("*.md"))
    if existing and rng.random() < 0.4:
        existing[0].unlink()
        return f"draft {existing[0].name} deleted"
    folder.mkdir(exist_ok=True)
    rules = re.findall(r"(?m)^#{2,3} (\d+)", (game / "rules.md").read_text(encoding="utf-8"))
    target = rng.choice(rules) if rules else "101"
    (folder / "idea.md").write_text(f"## Proposal: An idea\nProposer: Someone\n\nAmend rule {target} by "
                                    f"appending:\n\n> And {rng.randrange(100)} more.\n", encoding="utf-8")
    return "a draft written"


def template_override(rng: random.Random, game: Path) -> str | None:
    folder = game.parent / "_templates"
    if folder.exists() and rng.random() < 0.5:
        shutil.rmtree(folder)
        return "template override removed"
    folder.mkdir(exist_ok=True)
    base = (ROOT / "templates" / "rule.html").read_text(encoding="utf-8")
    (folder / "rule.html").write_text(base.replace("</article>", f"<p>Kept by us ({rng.randrange(9)}).</p></article>", 1),
                                      encoding="utf-8")
    return "template override of rule.html"


@_lines_edit
def turn_heading(rng, lines):
    """A Solitaire turn renumbered (the last, most often): the pages that name the turn after which the rules
    stand, and the turn's own page, move."""
    turns = [i for i, line in enumerate(lines) if re.match(r"## Turn \d+", line)]
    if not turns:
        return None
    i = turns[-1] if rng.random() < 0.6 else rng.choice(turns)
    lines[i] = re.sub(r"\d+", lambda m: str(int(m.group()) + rng.choice([1, 2, 10])), lines[i], count=1)
    return f"turn heading at line {i + 1}"


KINDS = [number, word, delete_entry, move_entry, append_defeated, blank_lines, delete_line, duplicate_line, result,
         title, votes, key_line, preamble, turn_heading, rules_word, label, rule_by_label, game_setting, snapshot_word,
         draft, template_override]
EDITS = int(os.environ.get("NOMIC_DIFFERENTIAL_EDITS", str(len(KINDS))))


def _fresh(content: Path, work: Path, step: int) -> dict[str, str] | None:
    """The site a build from nothing gives (its own new cache), or None when the archive cannot be read."""
    out = work / f"fresh-{step}"
    try:
        build_site(content, out, cache_dir=work / f"fresh-cache-{step}", jobs=1)
    except ArchiveError:
        return None
    try:
        return site_digest(out)
    finally:
        shutil.rmtree(out)
        shutil.rmtree(work / f"fresh-cache-{step}")


def _games_for(seed: int, synthetic: Path) -> list[tuple[str, Path]]:
    """Solitaire and another bundled game, a game of format 1.2's case folders (decisions again, unrecorded
    numbers, renames, annotations...) and the synthetic one."""
    rng = random.Random(seed)
    v12 = rng.choice(FORMAT_12_GAMES)
    return [("solitaire", ROOT / "content" / "solitaire"), (name := rng.choice(BUNDLED), ROOT / "content" / name),
            (v12.name, v12), ("long", synthetic)]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("synth") / "long"
    assert main(["synth", str(folder), "--proposals", "60", "--seed", "3", "--per-file", "25"]) == 0
    return folder


@pytest.fixture
def served(tmp_path):
    """serve's site of tmp_path/content, on a port of its own (without its live reload: a page as a build draws
    it), and a way to fetch a page from it."""
    live = LiveSite(tmp_path / "content", live_reload="")
    server = SiteServer(live, EventHub())
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)

    def fetch(path: str) -> bytes:
        connection.request("GET", f"/{path}")
        return connection.getresponse().read()
    yield live, fetch
    connection.close()
    server.shutdown()
    server.server_close()


def _edit(rng: random.Random, kind, content: Path, games: list[str]) -> str | None:
    """`kind` made to one of `games` at random, the first that has something to edit."""
    for name in rng.sample(games, len(games)):
        if (what := kind(rng, content / name)) is not None:
            return f"{name}: {kind.__name__}: {what}"
    return None


@pytest.mark.parametrize("run", range(3))
def test_serve_and_an_incremental_build_equal_a_build_from_nothing_after_random_edits(run, tmp_path, synthetic,
                                                                                      small_parts, served):
    seed = SEED + run
    rng = random.Random(seed)
    content = tmp_path / "content"
    originals = tmp_path / "originals"
    for name, source in _games_for(seed, synthetic):
        shutil.copytree(source, content / name)
        shutil.copytree(source, originals / name)
    games = sorted(p.name for p in content.iterdir())
    site, cache = tmp_path / "site", tmp_path / "cache"
    build_site(content, site, cache_dir=cache, jobs=1)
    live, fetch = served
    assert live.update().ok
    schedule = [kind for _ in range(-(-EDITS // len(KINDS))) for kind in rng.sample(KINDS, len(KINDS))][:EDITS]
    done: list[str] = []
    broken: str | None = None
    for step, kind in enumerate(schedule):
        if broken is not None and rng.random() < 0.5:  # fix the broken game: its files as they were
            shutil.rmtree(content / broken)
            shutil.copytree(originals / broken, content / broken)
            done.append(f"{broken}: restored")
            broken = None
        done.append(_edit(rng, kind, content, games) or f"{kind.__name__}: nothing to edit")
        if rng.random() < 0.15:  # sometimes two games at once
            done.append(_edit(rng, rng.choice(KINDS), content, games) or "nothing to edit")
        want = _fresh(content, tmp_path, step)
        if want is None and broken is None:  # a game no longer reads: keep it so for an edit or two, then fix it
            broken = _broken_game(content, games, tmp_path)
        update = live.update([content / name for name in games])
        trail = f"seed {seed}, after: " + "; ".join(done[-6:])
        if want is None:
            assert not update.ok, f"serve drew a site that cannot be built ({trail})"
            with pytest.raises(ArchiveError):
                build_site(content, site, cache_dir=cache, jobs=1)
            continue
        assert update.ok, f"{update.errors[:3]} ({trail})"
        paths = set(want) | {page.path for page in live.site.every_page() if "/drafts/" not in page.path}
        got = {path: hashlib.sha256(fetch(path)).hexdigest() for path in paths}
        differ = sorted(path for path in paths if want.get(path) != got[path])
        assert not differ, f"serve: {len(differ)} pages differ from a build from nothing, e.g. {differ[:5]} ({trail})"
        build_site(content, site, cache_dir=cache, jobs=1)
        built = site_digest(site)
        differ = sorted(k for k in set(want) | set(built) if want.get(k) != built.get(k))
        assert not differ, f"build: {len(differ)} files differ from a build from nothing, e.g. {differ[:5]} ({trail})"
    made = {entry.split(": ")[1] for entry in done if entry.count(": ") >= 2}
    assert made >= {kind.__name__ for kind in schedule} - {"snapshot_word"}, "kinds of edit never made"


def _broken_game(content: Path, games: list[str], work: Path) -> str | None:
    """The game that no longer reads, found by building each alone."""
    for name in games:
        try:
            build_site(content / name, work / "alone", cache_dir=work / "alone-cache", jobs=1)
        except ArchiveError:
            return name
        finally:
            shutil.rmtree(work / "alone", ignore_errors=True)
            shutil.rmtree(work / "alone-cache", ignore_errors=True)
    return None
