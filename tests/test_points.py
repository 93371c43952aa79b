"""Points of a game: one reading of their names (generator/model/points.py), the same for the site's addresses
and pickers (static/points.js reads the syntax the manifest carries) and `diff GAME@…`, with one meaning each."""
from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from generator.pipeline import replay_games
from generator.model.points import HINT, Point, PointError, page_names, point_index, read_point
from generator.site.render import package_templates

GAME_TOML = ('title = "Points"\nplayers = ["Ann", "Bob"]\n\n[numbering]\namend_renumbers = false\n\n[turns]\n'
             'order = "none"\n\n[scoring]\nturn = "none"\nadopted = 0\ndefeated = 0\nagainst_adopted = 0\n')
RULES = "# Rules\n\n## Mutable Rules\n\n### 201\nRule one.\n"


def _proposal(number: int, day: int, text: str) -> str:
    return (f"## Proposal {number}\nProposer: Ann\nDate: 2024-01-{day:02d}\nVotes: for Ann, Bob\nResult: adopted\n\n"
            f'Amend rule 201 to read:\n\n> {text}\n\n')


# Entries: 1 proposal 301, 2 proposal 302, 3 proposal 302 again (302-2), 4 judgment 1, 5 an event, 6 judgment 1
# again, 7 proposal 303, 8 a judgment named by its case (format 1.2), 9 a decision taken again on proposal 303
# (format 1.2, 303A); each changes rule 201's text to say which it is.
LOG = ("# Log\n\n" + _proposal(301, 1, "After 301.") + _proposal(302, 2, "After the first 302.")
       + _proposal(302, 3, "After the second 302.")
       + "## Judgment 1: A ruling\nJudge: Bob\nDate: 2024-01-04\n\nAmend rule 201 to read:\n\n> After judgment 1.\n\n"
       + "## Event: A holiday\nDate: 2024-01-05\n\nAmend rule 201 to read:\n\n> After the event.\n\n"
       + "## Judgment 1: Again\nJudge: Bob\nDate: 2024-01-06\n\nAmend rule 201 to read:\n\n> After judgment 1 again.\n\n"
       + _proposal(303, 7, "After 303.")
       + "## Judgment CFJ 4153: By its case\nJudge: Ann\nDate: 2024-01-08\n\nAmend rule 201 to read:\n\n"
         "> After CFJ 4153.\n\n"
       + _proposal(303, 9, "After 303A.").replace("Proposal 303", "Proposal 303A"))
TEXTS = ["Rule one.", "After 301.", "After the first 302.", "After the second 302.", "After judgment 1.",
         "After the event.", "After judgment 1 again.", "After 303.", "After CFJ 4153.",
         "After 303A."]  # by index + 1


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("points") / "content" / "g"
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(GAME_TOML, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text(LOG, encoding="utf-8")
    return folder


# (name, the entry after which it stands: None when it names no point or none of this log)
NAMES = [
    ("start", -1), ("now", 8), ("  Now ", 8), ("301", 0), ("proposal 301", 0), ("Proposal 302", 1), ("302", 1),
    ("302-1", 1), ("0302", 1), ("302-2", 2), ("302-3", None), ("302-0", None), ("303", 6), ("304", None),
    ("judgment-1", 3), ("JUDGMENT-1", 3), ("judgment-2", None), ("entry-1", 0), ("entry-5", 4), ("entry-7", 6),
    ("entry-8", 7), ("entry-9", 8), ("entry-10", None), ("entry-0", None), ("2023-12-31", -1), ("2024-01-03", 2), ("2024-01-05", 4),
    ("2024-02-01", 8), ("2024-02-30", None), ("2024-13-01", None), ("tuesday", None), ("302-2-2", None),
    ("-1", None), ("judgment-", None), ("9" * 13, None), ("entry-1x", None),
    ("judgment-cfj-4153", 7), ("Judgment-CFJ-4153", 7), ("judgment-cfj-4154", None), ("judgment-cfj", None),
    ("judgment-cfj-41a", None), ("judgment-0", None), ("judgment-cfj-" + "9" * 13, None),
    ("303A", 8), ("303a", 8), ("proposal 303A", 8), ("303A-1", 8), ("303A-2", None), ("303B", None), ("301A", None),
    ("303AB", None), ("304A", None),
]


@pytest.mark.parametrize("name, index", NAMES)
def test_a_point_names_one_entry(game, name, index):
    (replay,) = replay_games(game)
    if index is None:
        with pytest.raises(PointError):
            point_index(read_point(name), replay.game.log.entries)
    else:
        assert point_index(read_point(name), replay.game.log.entries) == index


def test_a_reused_number_names_the_same_entry_in_diff_as_on_the_site(game, capsys):
    """`302` is the page proposals/302.html, the first proposal numbered 302; `302-2` the second's page."""
    (replay,) = replay_games(game)
    names = page_names((s.index, s.entry.name) for s in replay.steps if s.entry.kind == "proposal")
    assert names == {0: "301", 1: "302", 2: "302-2", 6: "303", 8: "303A"}
    for name, index in NAMES:
        if index is None:
            continue
        assert main(["diff", f"{game}@{name}", str(_ruleset(game.parent, TEXTS[index + 1])), "--format", "json"]) == 0, name
        capsys.readouterr()


@pytest.mark.parametrize("cut", range(0, 8))
def test_proposals_named_after_those_named_before_are_named_as_all_at_once(cut):
    """serve names the proposals an edit appended after the names of those before them (keyed._replan_tail)."""
    numbered = [(0, "301"), (1, "302"), (2, "302"), (3, "8188A"), (5, "302"), (6, "303"), (7, "8188A"), (9, "301")]
    whole = page_names(numbered)
    before = {index: name for index, name in whole.items() if index < numbered[cut][0]}
    assert before | page_names(numbered[cut:], set(before.values())) == whole


def _ruleset(folder: Path, text: str) -> Path:
    path = folder / f"rules-{abs(hash(text))}.md"
    path.write_text(f"# Rules\n\n## Mutable Rules\n\n### 201\n{text}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name, message", [
    ("302-3", "g/log.md: proposal 302-3 is not in the log (it has 2 proposals numbered 302: 302, 302-2)"),
    ("304", "g/log.md: proposal 304 is not in the log (its proposals run from 301 to 303)"),
    ("judgment-2", "g/log.md: judgment 2 is not in the log (its judgments run from 1 to 1)"),
    ("entry-10", "g/log.md: entry-10 is not in the log (it has 9 entries)"),
    ("303B", "g/log.md: proposal 303B is not in the log (no decision B was taken again on proposal 303)"),
    ("303A-2", "g/log.md: proposal 303A-2 is not in the log (it has 1 proposal numbered 303A: 303A)"),
    ("judgment-cfj-4154", "g/log.md: judgment CFJ 4154 is not in the log (no judgment is named by that case)"),
    ("tuesday", "{game}@tuesday: no such point; a point is start, now, a proposal number (312; 312-2 for the "
                "second proposal numbered 312; 8221A for a decision taken again on proposal 8221), judgment-N (judgment-cfj-4153 for one named by its case), entry-N "
                "(the log's N-th entry) or a date (2005-04-02)"),
    ("2024-02-30", "{game}@2024-02-30: no such date (a date is written 2005-04-02)"),
    ("9" * 13, "{game}@" + "9" * 13 + ": number too large (at most 12 digits)"),
])
def test_diff_says_why_a_point_names_nothing_exit_2(game, capsys, name, message):
    with contextlib.chdir(game.parent):  # files are named from the working directory
        assert main(["diff", f"{game.name}@{name}", game.name]) == 2
    assert capsys.readouterr().err == message.format(game=game.name) + "\n"


def test_point_names_read_back_as_pages_write_them():
    assert [read_point(n).name for n in ("312", "312-2", "Proposal 0312", "judgment-7", "entry-12", "2005-04-02",
                                         "start", "now", "Judgment-CFJ-4153", "8221a")] == [
        "312", "312-2", "312", "judgment-7", "entry-12", "2005-04-02", "start", "now", "judgment-cfj-4153", "8221A"]
    assert read_point("312-2") == Point("proposal", 312, 2)
    assert read_point("8221a") == Point("proposal", 8221, decision="A") and read_point("8221A-2").name == "8221A-2"


# --- The browser's reading: static/points.js, run by Node.js on the site's own data ------------------

# The site's pieces loaded from its folder as the browser loads them (NOMIC.load), and a page of the game's
NODE_SITE = r"""
const fs = require("fs"), vm = require("vm");
const [site, game] = process.argv.slice(1);  // (node -e: no script name)
const store = {};
const window = { NOMIC: {}, NOMIC_DATA: store };
window.NOMIC.load = function (root, path) {
  if (!(path in store)) vm.runInNewContext(fs.readFileSync(site + "/" + path, "utf8"), { window: window });
  return Promise.resolve(store[path]);
};
const form = { getAttribute: function (name) { return name === "data-game" ? game : ""; } };
const document = { querySelector: function () { return form; }, getElementById: function () { return null; } };
"""
NODE_HARNESS = NODE_SITE + r"""
const [script, names] = process.argv.slice(3);
vm.runInNewContext(fs.readFileSync(script, "utf8"), { window: window, document: document, Promise: Promise,
                                                      Error: Error, RegExp: RegExp, Object: Object, Date: Date,
                                                      String: String, isNaN: isNaN, Math: Math });
Promise.all(JSON.parse(names).map(function (name) {
  return window.NOMIC.resolvePoint(name).then(function (p) { return p.index; }, function (e) { return e.message; });
})).then(function (indexes) { console.log(JSON.stringify(indexes)); });
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_pickers_read_every_name_as_diff_does(game, tmp_path):
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site), "--cache-dir", str(tmp_path / "cache")]) == 0
    manifest = (site / "g" / "points" / "index.js").read_text(encoding="utf-8")
    assert '"syntax":' in manifest  # the syntax the browser reads names with is model/points.py's
    names = [name for name, _ in NAMES]
    done = subprocess.run(["node", "-e", NODE_HARNESS, str(site), "g", str(package_templates() / "static/points.js"),
                           json.dumps(names)], capture_output=True, text=True, timeout=60, check=True)
    found = dict(zip(names, json.loads(done.stdout)))
    assert {name: None if isinstance(index, str) else index for name, index in found.items()} == dict(NAMES)
    # A name that is no point is told what a point is in model/points.py's words, as `diff GAME@…` tells it
    assert found["tuesday"] == "No entry is named \u201ctuesday\u201d in this game. " + HINT[0].upper() + HINT[1:] + "."
    assert found["304"] == "No entry is named \u201c304\u201d in this game."


def test_the_picker_finds_a_rules_versions_in_the_files_the_build_writes_them_in():
    """static/compare.js names a long history's block files as site/points.py writes them."""
    from generator.site import points
    from generator.site.render import package_templates

    script = (package_templates() / "static" / "compare.js").read_text(encoding="utf-8")
    assert f"var SHORT_HISTORY = {points.SHORT_HISTORY}, BLOCK = {points.BLOCK};" in script
