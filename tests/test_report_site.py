"""The text report on the site: for any point, the browser's report (static/report.js joining the pieces
site/report_pieces.py writes) is what `nomic-archive ruleset GAME@POINT --format full|short` prints, byte for
byte; the end's reports are static files; the figures computed for every point in one pass are each point's."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from generator.pipeline import replay_games
from generator.site import points, report_pieces
from generator.site.pages import game_plan
from generator.site.render import package_templates
from generator.site.ruleset_text import every_point_figures, point_figures
from tests.helpers import copy_games, tree_digest
from tests.test_points import NODE_SITE
from tests.test_ruleset_command import (DATED_SECTIONS, GAME_TOML, RECORDED_LOG, REPORT_NAMES, with_sections,
                                        write_game)

NODE_HARNESS = NODE_SITE + r"""
const [pointsScript, reportScript, asks] = process.argv.slice(3);
const context = vm.createContext({ window: window, document: document });
vm.runInContext(fs.readFileSync(pointsScript, "utf8"), context);
vm.runInContext(fs.readFileSync(reportScript, "utf8"), context);
Promise.all(JSON.parse(asks).map(function (ask) {
  return window.NOMIC.resolvePoint(ask[0]).then(function (point) { return window.NOMIC.reportAt(point, ask[1]); });
})).then(function (texts) { process.stdout.write(JSON.stringify(texts)); },
         function (error) { process.stderr.write(String(error.stack)); process.exit(1); });
"""

WORDS = "players rules vote game turn points score proposal judge order time law each any must may not".split()


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def random_game(folder: Path, seed: int, *, report: bool, dated: bool = False) -> Path:
    """A game of the Agora shape (powers, sections, a [report] with ratifications, histories and annotations, a
    decision taken again) whose proposals enact, amend, retitle, renumber, repeal, re-power, annotate and
    unannotate its rules at random; `dated`: its sections held for a time (`from`, `until`), its header dated by
    the day asked for (`{asked}`), its players renamed in its reports over time (`[[report.names]]`, with a report)."""
    rng = random.Random(seed)
    toml = GAME_TOML if report else GAME_TOML[:GAME_TOML.index("[report]")]
    if dated:
        toml = with_sections(toml, DATED_SECTIONS).replace("Date of this ruleset: {date}", "Dated: {asked}") \
            + (REPORT_NAMES if report else "")
    folder = write_game(folder, toml)
    numbers, next_number, notes = {101: 3, 105: 2}, 2001, {}  # number -> power; number -> annotations standing
    entries, day = [], 0
    for n in range(200, 200 + rng.randint(25, 45)):
        day += rng.choice((0, 1, 3, 9))
        date = f"2020-{1 + day // 28:02d}-{1 + day % 28:02d}"
        changes = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(("enact", "amend", "amend", "retitle", "repeal", "power", "annotate", "unannotate",
                               "renumber"))
            rule = rng.choice(sorted(numbers)) if numbers else None
            if kind == "enact" or rule is None:
                power = rng.choice(("1", "1.5", "2"))
                changes.append(f"Enact power {power} rule {next_number}: {_text(rng, 2)[:-1]}\n\n> ```\n> "
                               f"{_text(rng, rng.randint(3, 30))}\n> ```")
                numbers[next_number] = power
                next_number += 1
            elif kind == "amend":
                changes.append(f"Amend rule {rule} to read:\n\n> ```\n> {_text(rng, rng.randint(3, 40))}\n>\n> "
                               f"{_text(rng, 5)}\n> ```")
            elif kind == "retitle":
                changes.append(f'Retitle rule {rule} to "{_text(rng, 3)[:-1]}".')
            elif kind == "repeal" and len(numbers) > 2:
                changes.append(f"Repeal rule {rule}.")
                del numbers[rule]
                notes.pop(rule, None)
            elif kind == "power":
                numbers[rule] = rng.choice(("1", "2", "2.5", "3"))
                changes.append(f"Change the power of rule {rule} to {numbers[rule]}.")
            elif kind == "annotate":
                words = f"CFJ {n} (called {date}): {_text(rng, rng.randint(3, 25))}"
                changes.append(f"Annotate rule {rule}:\n\n> {words}")
                notes.setdefault(rule, []).append(words)
            elif kind == "unannotate" and notes.get(rule):
                changes.append(f"Unannotate rule {rule}:\n\n> {notes[rule].pop(0)}")
            elif kind == "renumber":
                changes.append(f"Renumber rule {rule} to {next_number}.")
                numbers[next_number] = numbers.pop(rule)
                if rule in notes:
                    notes[next_number] = notes.pop(rule)
                next_number += 1
        adopted = bool(changes) or rng.random() < 0.5
        votes = "for Ann, Bob" if adopted else "against Ann, Bob"
        proposer = ("Ann", "Bob")[n % 2]  # in turn; a decision taken again is its proposal's, no turn of its own
        entries.append(f"## Proposal {n}: {_text(rng, 2)[:-1]}\nProposer: {proposer}\n"
                       f"Date: {date}\nIndex: 3.0\nPower: 3\nVotes: {votes}\nResult: {'adopted' if adopted else 'defeated'}"
                       + "".join(f"\n\n{change}" for change in changes))
        if not adopted and rng.random() < 0.5:  # decided again, as Agora's 8221A
            entries.append(f"## Proposal {n}A: Again\nProposer: {proposer}\nDate: {date}\nIndex: 3.0\nPower: 3\n"
                           f"Votes: for Ann, Bob\nResult: adopted")
    (folder / "log.md").write_text("\n\n".join(entries) + "\n", encoding="utf-8")
    return folder


def _build(content: Path, site: Path, monkeypatch) -> None:
    # Pieces of a few entries, a keyframe every two: a small game crosses pieces and keyframes as Agora does.
    for module in (points, report_pieces):
        monkeypatch.setattr(module, "PER_PIECE", 4)
    monkeypatch.setattr(points, "KEYFRAME", 2)
    assert main(["build", str(content), "-o", str(site), "--cache-dir", str(site.parent / "cache")]) == 0


def _browser_reports(site: Path, game: str, asks: list[tuple[str, bool]]) -> list[str]:
    static = package_templates() / "static"
    done = subprocess.run(["node", "-e", NODE_HARNESS, str(site), game, str(static / "points.js"),
                           str(static / "report.js"), json.dumps(asks)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _command_report(capsys, game: Path, name: str, full: bool) -> str:
    assert main(["ruleset", f"{game}@{name}", "--format", "full" if full else "short"]) == 0
    return capsys.readouterr().out


def _points(rng: random.Random, game: Path, count: int) -> list[str]:
    """Names of points of the game, at random: entries' names, dates (some between entries, some before the
    first), start and now."""
    plan = game_plan(replay_games(game)[0])
    from generator.site.views import point_name
    names = [point_name(plan, index) for index in range(len(plan.replay.steps))]
    dates = [f"2020-{m:02d}-{d:02d}" for m in range(1, 4) for d in (1, 2, 15, 27)] + ["2019-12-31"]
    return rng.sample(names, min(count, len(names))) + rng.sample(dates, 4) + ["start", "now"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("seed, report, dated", [(1, True, False), (2, True, True), (3, False, False),
                                                 (4, False, True)])
def test_the_browsers_report_of_a_point_is_the_commands(tmp_path, capsys, monkeypatch, seed, report, dated):
    content = tmp_path / "content"
    random_game(content / "g", seed, report=report, dated=dated)
    _build(content, tmp_path / "site", monkeypatch)
    rng = random.Random(seed)
    asks = [(name, full) for name in _points(rng, content / "g", 12) for full in (True, False)]
    browser = _browser_reports(tmp_path / "site", "g", asks)
    for (name, full), text in zip(asks, browser):
        assert text == _command_report(capsys, content / "g", name, full), (name, full)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_browsers_report_equals_the_commands_in_a_game_of_recorded_history_and_one_of_classes(
        tmp_path, capsys, monkeypatch):
    """The keepers' own history lines (format 1.4; one dated on no day, as Agora's record has `2023-05-32`, printed
    as written) and a removed annotation; a game without sections or a [report] table, listed by class (the
    bundled mini game)."""
    content = copy_games(tmp_path, "mini")
    recorded = write_game(content / "recorded")
    (recorded / "log.md").write_text(RECORDED_LOG.replace("(Ann), 2020-04-02", "(Ann), 2020-04-31"), encoding="utf-8")
    _build(content, tmp_path / "site", monkeypatch)
    assert "(Ann), 2020-04-31 Annotations:" in " ".join(_command_report(capsys, recorded, "now", True).split())
    for game in ("recorded", "mini"):
        asks = [(name, full) for name in _points(random.Random(7), content / game, 30) for full in (True, False)]
        for (name, full), text in zip(asks, _browser_reports(tmp_path / "site", game, asks)):
            assert text == _command_report(capsys, content / game, name, full), (game, name, full)


def test_the_end_reports_are_files_of_the_site(tmp_path, capsys):
    content = tmp_path / "content"
    write_game(content / "small")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache")]) == 0
    for form, name in report_pieces.END_FILES:
        assert main(["ruleset", str(content / "small"), "--format", form]) == 0
        assert (tmp_path / "site" / "small" / name).read_text(encoding="utf-8") == capsys.readouterr().out
    as_of = (tmp_path / "site" / "small" / "as-of.html").read_text(encoding="utf-8")
    assert '<a href="ruleset-full.txt">the full report</a>' in as_of


@pytest.mark.parametrize("seed", range(4))
def test_every_points_figures_in_one_pass_are_each_points_own(tmp_path, seed):
    game = random_game(tmp_path / "g", seed, report=True)
    plan = game_plan(replay_games(game)[0])
    every = every_point_figures(plan)
    assert every == [point_figures(plan, index) for index in range(-1, len(plan.replay.steps))]


@pytest.mark.parametrize("seed", [5, 6])
def test_the_site_is_the_same_whatever_the_versions_and_notes_kept_between_pages(tmp_path, monkeypatch, seed):
    """What keyframes and report pieces share (a version's data and printed block, a rule's notes) is kept up to
    a bound, the values used longest ago forgotten: with a bound so small that each is forgotten as the next is
    made, every file is the one drawn with everything kept."""
    from generator.site import views

    content = tmp_path / "content"
    random_game(content / "g", seed, report=True, dated=seed == 6)
    (write_game(content / "recorded") / "log.md").write_text(RECORDED_LOG, encoding="utf-8")
    _build(content, tmp_path / "kept", monkeypatch)
    monkeypatch.setattr(views, "RECENT_CHARACTERS", 1)
    _build(content, tmp_path / "forgotten", monkeypatch)
    assert tree_digest(tmp_path / "forgotten") == tree_digest(tmp_path / "kept")


def test_recent_values_are_those_made_and_held_within_the_bound(monkeypatch):
    from generator.site import views

    monkeypatch.setattr(views, "RECENT_CHARACTERS", 40)
    recent, made = views.Recent(len), []

    def make(key: int):
        made.append(key)
        return "x" * (key % 17)
    rng = random.Random(3)
    for key in (rng.randrange(30) for _ in range(2000)):
        assert recent.get(key, lambda: make(key)) == "x" * (key % 17)
        assert recent._held == sum(map(len, recent._kept.values())) and (recent._held <= 40 or len(recent._kept) == 1)
    assert 30 < len(made) < 2000  # kept some, forgot some
