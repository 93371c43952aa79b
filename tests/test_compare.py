"""Comparing rulesets (generator/compare.py), the bundled examples, and the site's comparison pages."""
from __future__ import annotations

import json
import re

from pathlib import Path

import pytest

from generator.pipeline import replay_games
from generator.diffing.compare import Comparison, compare, to_json
from generator.errors import ErrorCollector
from generator.model import Rule, Source
from generator.parse.rules import parse_ruleset
from generator.site import compare_pages as comparisons
from generator.site.compare_pages import list_compare_pages
from generator.site.history import GameHistory
from generator.site.views import Listing, GamePlan, game_view, point_name
from tests.helpers import DATA, ROOT, broken_links, import_ruleset, in_own_thread, site_pages_of, write_site

EXAMPLES = ROOT / "examples"
SEED_LIVEJOURNAL = DATA / "seeds" / "002_78c66cb07e8cb7db.txt"


def rule(number: int, text: str, rule_class: str = "mutable", title: str = "") -> Rule:
    return Rule(number, rule_class, title, text, Source("test.md", number))  # type: ignore[arg-type]


def ruleset(path: Path) -> tuple[Rule, ...]:
    errors = ErrorCollector()
    rules = parse_ruleset(path.read_text(encoding="utf-8"), path.name, errors).rules
    errors.raise_if_any()
    return rules


def described(comparison: Comparison) -> list[str]:
    return [pair.describe() for pair in comparison.differences]


ADOPTION = "A rule-change is adopted if and only if the vote is unanimous among the eligible voters."
ADOPTION_EDITED = "A rule-change is adopted if and only if the vote is a simple majority of the eligible voters."
TURNS = "Players shall alternate in clockwise order, taking one whole turn apiece."
WINNER = "The winner is the first player to achieve 100 (positive) points."
EFFECT = "An adopted rule-change takes full effect at the moment of the completion of the vote that adopted it."
DEFEAT = "When a proposed rule-change is defeated, the player who proposed it loses 10 points."
CONSPIRE = "Players may not conspire or consult on the making of future rule-changes unless they are team-mates."
MAIL = "The first paragraph of this rule does not apply to games by mail or computer, where it cannot be enforced."
TIMING = "Each vote will last for one interval, which is defined as being four days from the proposal."


# --- Matching --------------------------------------------------------------------------------------


def test_identical_rulesets_are_equal():
    rules = [rule(101, TURNS, "immutable"), rule(201, ADOPTION)]
    comparison = compare(rules, [rule(101, TURNS, "immutable"), rule(201, ADOPTION)])
    assert comparison.equal
    assert [pair.kind for pair in comparison.pairs] == ["equal", "equal"]
    assert comparison.differences == ()
    assert comparison.tally() == "no differences (2 rules)"


def test_against_an_empty_ruleset_every_rule_is_added_or_removed():
    rules = [rule(101, TURNS), rule(201, ADOPTION)]
    added = compare([], rules)
    assert described(added) == ["rule 101 added", "rule 201 added"]
    assert added.tally() == "2 added"
    assert not added.equal
    removed = compare(rules, [])
    assert described(removed) == ["rule 101 removed", "rule 201 removed"]
    assert compare([], []).equal


def test_same_number_and_similar_text_is_a_change_with_its_redline():
    comparison = compare([rule(203, ADOPTION)], [rule(203, ADOPTION_EDITED)])
    (pair,) = comparison.pairs
    assert pair.kind == "changed" and pair.describe() == "rule 203 changed"
    assert pair.redline is not None and pair.redline.changed
    assert pair.summary() == ['replaced "unanimous among" with "a simple majority of"']


def test_a_renumbered_rule_is_matched_by_its_text():
    old = [rule(201, TURNS), rule(203, ADOPTION)]
    new = [rule(201, TURNS), rule(306, ADOPTION_EDITED)]
    (pair,) = compare(old, new).differences
    assert pair.describe() == "rule 203 is now 306"
    assert pair.kind == "renumbered" and pair.redline.changed


def test_renumbered_without_a_change_of_text():
    (pair,) = compare([rule(203, ADOPTION)], [rule(306, ADOPTION)]).differences
    assert pair.kind == "renumbered" and not pair.redline.changed and pair.summary() == []


def test_the_text_wins_over_the_number():
    # Suber's 203 (adoption) and the LiveJournal draft's 206, though both sets have a rule 203.
    old = [rule(203, ADOPTION), rule(208, WINNER)]
    new = [rule(203, TIMING), rule(206, ADOPTION_EDITED), rule(211, WINNER)]
    assert described(compare(old, new)) == ["rule 203 is now 206", "rule 203 added", "rule 208 is now 211"]


def test_matching_is_greedy_best_first():
    # Both old rules are alike to new 301; the closer one gets it, the other finds its own match.
    old = [rule(203, ADOPTION), rule(204, ADOPTION_EDITED)]
    new = [rule(301, ADOPTION_EDITED), rule(302, ADOPTION)]
    assert described(compare(old, new)) == ["rule 203 is now 302", "rule 204 is now 301"]


def test_an_unmatched_rule_under_its_own_number_is_a_rewrite_in_place():
    (pair,) = compare([rule(210, CONSPIRE)], [rule(210, TIMING)]).pairs
    assert pair.kind == "changed"
    assert pair.similarity is not None and pair.similarity < 0.5


def test_unrelated_rules_under_different_numbers_are_removed_and_added():
    assert described(compare([rule(210, CONSPIRE)], [rule(220, TIMING)])) == ["rule 210 removed", "rule 220 added"]


def test_a_rule_split_in_two_keeping_its_number_for_one_half():
    old = [rule(201, TURNS), rule(210, f"{CONSPIRE}\n\n{MAIL}")]
    new = [rule(201, TURNS), rule(210, CONSPIRE), rule(230, MAIL)]
    comparison = compare(old, new)
    (pair,) = comparison.differences
    assert pair.kind == "split" and pair.describe() == "rule 210 split into 210 and 230"
    assert [r.number for r in pair.new] == [210, 230]
    assert not pair.redline.changed  # the two halves together read as the whole
    assert comparison.tally() == "1 split; 1 unchanged"


def test_a_rule_split_into_two_new_numbers():
    (pair,) = compare([rule(210, f"{CONSPIRE}\n\n{MAIL}")], [rule(301, CONSPIRE), rule(302, MAIL)]).pairs
    assert pair.describe() == "rule 210 split into 301 and 302"


def test_two_rules_merged_into_one():
    old = [rule(205, EFFECT), rule(206, DEFEAT), rule(208, WINNER)]
    new = [rule(205, f"{EFFECT} {DEFEAT}"), rule(208, WINNER)]
    (pair,) = compare(old, new).differences
    assert pair.kind == "merged" and pair.describe() == "rules 205 and 206 merged into 205"
    assert pair.redline.changed  # two paragraphs became one


def test_an_edited_rule_beside_an_unrelated_new_rule_is_not_a_split():
    old = [rule(203, ADOPTION)]
    new = [rule(203, ADOPTION_EDITED), rule(204, TIMING)]
    assert described(compare(old, new)) == ["rule 203 changed", "rule 204 added"]


def test_changes_of_class_and_title_are_noted():
    old = [rule(109, ADOPTION, "immutable"), rule(110, TURNS, title="Order"), rule(111, WINNER, title="Win")]
    new = [rule(109, ADOPTION, "mutable"), rule(110, TURNS, title="Order of play"), rule(111, WINNER)]
    notes = [pair.notes() for pair in compare(old, new).differences]
    assert notes == [["transmuted from immutable to mutable"], ['retitled "Order of play" (was "Order")'],
                     ['title "Win" removed']]


def test_the_result_does_not_depend_on_the_order_of_the_input():
    old = [rule(201, TURNS), rule(203, ADOPTION), rule(210, f"{CONSPIRE}\n\n{MAIL}")]
    new = [rule(230, MAIL), rule(306, ADOPTION_EDITED), rule(210, CONSPIRE), rule(201, TURNS)]
    forward = compare(old, new)
    assert described(forward) == described(compare(old[::-1], new[::-1]))
    assert described(forward) == ["rule 203 is now 306", "rule 210 split into 210 and 230"]


# --- JSON ------------------------------------------------------------------------------------------


def test_json_round_trips_and_its_redline_rebuilds_both_texts():
    old = [rule(201, TURNS), rule(203, ADOPTION), rule(210, CONSPIRE, title="Conspiracy")]
    new = [rule(201, TURNS), rule(306, ADOPTION_EDITED), rule(220, TIMING)]
    data = to_json(compare(old, new), old="a.md", new="b.md")
    assert json.loads(json.dumps(data)) == data
    assert data["version"] == 1 and data["equal"] is False
    assert data["counts"] == {"equal": 1, "changed": 0, "renumbered": 1, "split": 0, "merged": 0,
                              "added": 1, "removed": 1}
    renumbered = next(p for p in data["pairs"] if p["kind"] == "renumbered")
    segments = [s for block in renumbered["redline"] for s in block["segments"]]
    assert "".join(text for op, text in segments if op != "insert") == ADOPTION
    assert "".join(text for op, text in segments if op != "delete") == ADOPTION_EDITED
    assert renumbered["description"] == "rule 203 is now 306"
    removed = next(p for p in data["pairs"] if p["kind"] == "removed")
    assert removed["old"] == [{"number": 210, "class": "mutable", "title": "Conspiracy", "text": CONSPIRE}]
    assert removed["similarity"] is None and removed["new"] == []


# --- The bundled examples --------------------------------------------------------------------------


def _seed_rules() -> tuple[Rule, ...]:
    errors = ErrorCollector()
    return parse_ruleset(import_ruleset(SEED_LIVEJOURNAL.read_text(encoding="utf-8")), "seed", errors).rules


def _livejournal_comparison() -> Comparison:
    return compare(ruleset(EXAMPLES / "livejournal-before.md"), ruleset(EXAMPLES / "livejournal-after.md"))


def test_livejournal_example_differs_in_rule_203_alone():
    comparison = _livejournal_comparison()
    assert described(comparison) == ["rule 203 changed"]
    assert comparison.counts()["equal"] == 29
    # Every other rule is the importer's reading of the seed, word for word.
    after = ruleset(EXAMPLES / "livejournal-after.md")
    assert [(r.number, r.text) for r in _seed_rules() if r.number != 203] == \
        [(r.number, r.text) for r in after if r.number != 203]


def test_livejournal_example_strikes_and_adds_the_seeds_words():
    (pair,) = _livejournal_comparison().differences
    segments = [segment for block in pair.redline.blocks for segment in block.segments]
    period = "the period from Monday to the following Thursday, or from Friday to the following Sunday"
    assert [s.text for s in segments if s.op == "delete"] == ["one week", "one week", period, "one week"]
    assert [s.text for s in segments if s.op == "insert"] == ["interval", "interval", "being four days", "interval"]
    # The seed lost the spaces around its struck and red words: without whitespace, it is the redline's
    # text, kept, struck and added, in order.
    seed_203 = next(r.text for r in _seed_rules() if r.number == 203)
    assert re.sub(r"\s", "", "".join(s.text for s in segments)) == re.sub(r"\s", "", seed_203)


def test_suber_against_livejournal_pairs_rules_across_renumbering():
    comparison = compare(ruleset(EXAMPLES / "suber-2nd.md"), ruleset(EXAMPLES / "livejournal-after.md"))
    matched = {(p.old[0].number, p.new[0].number): p.kind for p in comparison.pairs if len(p.old) == len(p.new) == 1}
    assert matched[(201, 201)] == "changed"  # turn order: clockwise became alphabetical by username
    assert matched[(203, 206)] == "renumbered"  # adoption: unanimity became a 90% supermajority
    assert matched[(212, 214)] == "renumbered"  # the Judge
    assert matched[(208, 211)] == "renumbered"  # the winner: 100 points became 200
    assert matched[(105, 105)] == "changed"  # rewritten under its own number
    assert [p.new[0].number for p in comparison.pairs if p.kind == "added"] == [203, 204, 205]
    assert [p.old[0].number for p in comparison.pairs if p.kind == "removed"] == [111, 210]
    assert not any(p.kind in ("split", "merged") for p in comparison.pairs)


# --- The site's comparison pages -------------------------------------------------------------------

GAME_RULES = f"""# Initial Set

## Immutable Rules

### 101
{EFFECT}

## Mutable Rules

### 201
{TURNS}

### 203
{ADOPTION}

### 205
{WINNER}

### 206
{DEFEAT}

### 210
{CONSPIRE}

{MAIL}
"""


def _proposal(number: int, proposer: str, day: int, body: str, result: str = "adopted") -> str:
    return (f"## Proposal {number}\nProposer: {proposer}\nDate: 2005-04-0{day}\n"
            f"Votes: for Ann, Bob\nResult: {result}\n\n{body}\n")


GAME_LOG = "\n".join([
    "# Log\n",
    _proposal(301, "Ann", 1, f"Amend rule 203 to read:\n\n> {ADOPTION_EDITED}"),
    _proposal(302, "Bob", 2, f"Amend rule 210 to read:\n\n> {CONSPIRE}\n\nEnact rule:\n\n> {MAIL}"),
    _proposal(303, "Ann", 2, f"Amend rule 205 to read:\n\n> {WINNER} {DEFEAT}\n\nRepeal rule 206."),
    _proposal(304, "Bob", 3, "Renumber rule 201 to 220.\n\nTransmute rule 101 to mutable."),
    _proposal(305, "Ann", 4, f"Enact rule: Timing\n\n> {TIMING}\n\nRepeal rule 302."),
    _proposal(306, "Bob", 5, "Repeal rule 220.", result="defeated"),
])


def write_game(folder: Path) -> Path:
    """A small game whose proposals change, split, merge, renumber, transmute, enact and repeal rules."""
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text('title = "Splits"\nplayers = ["Ann", "Bob"]\n\n[numbering]\n'
                                      "amend_renumbers = false\n\n[scoring]\nturn = \"none\"\ndefeated = 0\n",
                                      encoding="utf-8")
    (folder / "rules.md").write_text(GAME_RULES, encoding="utf-8")
    (folder / "log.md").write_text(GAME_LOG, encoding="utf-8")
    return folder


@pytest.fixture
def game_plan(tmp_path) -> GamePlan:
    (replay,) = replay_games(write_game(tmp_path / "content" / "splits"))
    plan = GamePlan(replay, GameHistory(replay), replay.game.slug)
    plan.proposal_pages.update({step.index: str(step.entry.number) for step in replay.steps})
    return plan


def compare_pages(plan: GamePlan) -> list:
    """The game's comparison pages, each made."""
    listing = Listing(plan.slug, {"game": game_view(plan.replay)}, plan)
    list_compare_pages(listing)
    return [listing.make(path) for path in listing]


def _main_text(html: str) -> str:
    main = html[html.index("<main"):html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", main)).strip()


def test_start_against_now_and_the_picker_and_no_page_repeating_a_proposals(game_plan):
    pages = {page.path: page for page in compare_pages(game_plan)}
    assert list(pages) == ["splits/compare/start-now.html", "splits/compare/index.html"]
    assert [p["heading"] for p in pages["splits/compare/start-now.html"].full_context()["pairs"]] == [
        "rule 101 changed", "rule 201 is now 220", "rule 203 changed", "rules 205 and 206 merged into 205",
        "rule 210 changed", "rule 305 added"]
    # What one proposal changed is on its page, the class change included.
    proposal = next(p for p in site_pages_of([game_plan.replay]) if p.path == "splits/proposals/304.html")
    assert [r["summary"] for r in proposal.full_context()["revisions"]] == [
        ["transmuted from immutable to mutable"], ["renumbered 201 to 220"]]


def test_comparison_pages_render_with_working_links(game_plan, tmp_path):
    site = tmp_path / "site"
    pages = site_pages_of([game_plan.replay])
    write_site(pages, site)
    assert broken_links(site) == []
    text = _main_text((site / "splits/compare/start-now.html").read_text(encoding="utf-8"))
    assert text.startswith("The rules now against the initial set The rules at the start of the game, against the "
                           "rules now, after proposal 306 (2005-04-05).")
    assert "Rules 205 and 206 merged into 205 Rule 205 · Rule 206" in text
    index = (site / "splits/compare/index.html").read_text(encoding="utf-8")
    assert "static/points.js" in index and "static/compare.js" in index
    assert 'href="start-now.html"' in index and 'href="../proposals/index.html"' in index


def test_a_long_comparison_of_the_start_with_now_is_cut_in_parts_that_show_each_pair_once(game_plan, tmp_path,
                                                                                         monkeypatch):
    """Parts of 2 of the numbers where the two sides differ (101, 201, 203, 205, 206, 210, 220, 305): a pair
    stands at its first old rule's number (the merge at 205, rule 201 at 201 though it is now 220), an added
    rule at its own; every part shows the whole comparison's tally and links to every other."""
    whole = [p["heading"] for p in compare_pages(game_plan)[0].full_context()["pairs"]]
    monkeypatch.setattr(comparisons, "COMPARE_PART", 2)
    pages = [page for page in compare_pages(game_plan) if page.template == "compare.html"]
    assert [page.path for page in pages] == [f"splits/compare/start-now{suffix}.html"
                                             for suffix in ("", "-2", "-3", "-4")]
    shown = [[p["heading"] for p in page.full_context()["pairs"]] for page in pages]
    assert shown == [["rule 101 changed", "rule 201 is now 220"], ["rule 203 changed", "rules 205 and 206 merged into 205"],
                     ["rule 210 changed"], ["rule 305 added"]]
    assert sum(shown, []) == whole
    assert {page.full_context()["tally"] for page in pages} == {compare_pages(game_plan)[0].full_context()["tally"]}
    site = tmp_path / "site"
    write_site(site_pages_of([game_plan.replay]), site)
    assert broken_links(site) == []
    second = (site / "splits/compare/start-now-2.html").read_text(encoding="utf-8")
    assert re.findall(r'<a href="(start-now[^"]*)">([^<]*)</a>', second) == [
        ("start-now.html", "Rule 101 – Rule 201"), ("start-now-3.html", "Rule 206 – Rule 210"),
        ("start-now-4.html", "Rule 220 – Rule 305")] * 2  # above the pairs and below: the numbers each covers
    assert '<span aria-current="page">Rule 203 – Rule 205</span>' in second


@pytest.mark.browser
def test_the_picker_compares_any_two_points_as_the_python_side_does(game_plan, tmp_path):
    """Every pair of points, named in the URL: the tally is compare()'s; a rule matched with itself shows the
    article the build drew; a split, matched by texts, shows both sides whole under compare()'s words."""
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    site = tmp_path / "site"
    write_site(site_pages_of([game_plan.replay]), site)
    replay = game_plan.replay
    points = range(-1, len(replay.steps))
    errors: list[str] = []

    def check_in_browser() -> None:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            index = (site / "splits/compare/index.html").as_uri()
            for before in points:
                for after in points:
                    names = point_name(game_plan, before), point_name(game_plan, after)
                    page.goto(f"{index}?from={names[0]}&to={names[1]}")
                    page.wait_for_selector("#compare-result .tally")
                    expected = compare(replay.rules_at(before), replay.rules_at(after), by_identity=True)
                    assert page.text_content("#compare-result .tally") == expected.tally().capitalize() + "."
                    text = page.text_content("#compare-result").lower()
                    for pair in expected.differences:
                        assert pair.describe() in text, names
            page.goto(f"{index}?from=start&to=301")
            page.wait_for_selector("#compare-result .tally")
            deleted = page.eval_on_selector_all("#compare-result article del", "ds => ds.map(d => d.textContent)")
            inserted = page.eval_on_selector_all("#compare-result article ins", "ds => ds.map(d => d.textContent)")
            assert deleted == ["deleted: unanimous among"] and inserted == ["inserted: a simple majority of"]
            browser.close()

    in_own_thread(check_in_browser)
    assert errors == []


def test_points_of_one_game_pair_rules_by_identity(tmp_path):
    # suber-1982's rule 105 was transmuted (307) and rewritten (308): the text shares little, but within
    # one game the replay knows it is the same rule.
    from generator.engine.replay import replay
    from generator.parse.game import load_game
    from tests.helpers import ROOT

    history = replay(load_game(ROOT / "content" / "suber-1982"))
    start, now = history.rules_at(-1), history.rules_at(len(history.steps) - 1)
    by_text = {p.old[0].number: [r.number for r in p.new] for p in compare(start, now).pairs if p.old}
    by_identity = {p.old[0].number: [r.number for r in p.new] for p in compare(start, now, by_identity=True).pairs
                   if p.old}
    assert by_identity[105] == [308]
    assert by_text[105] != [308]


def test_sweeping_rules_at_agrees_with_the_replay_at_every_point():
    from generator.engine.replay import replay
    from generator.parse.game import load_game
    from generator.site.history import GameHistory
    from tests.helpers import ROOT

    for game in ("suber-1982", "wiki-2005", "livejournal-2007"):
        history = replay(load_game(ROOT / "content" / game))
        sweep = GameHistory(history)
        points = list(range(-1, len(history.steps))) + [3, -1, len(history.steps) - 1]  # forward, then back
        for index in points:
            assert sweep.rules_at(index) == history.rules_at(index), (game, index)
