"""A rule's label (`Label:` in rules.md, and in a change's record): the record's own name for a rule (B Nomic's
`1-12` and `4E83`, a game's `UC1`), shown beside its number wherever the rule is named. The case folders
tests/cases/engine/v14-labels and tests/cases/parse/label-problems hold the check's exact report."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import built_case, in_own_thread, page_words as _words

CASE = Path(__file__).resolve().parent / "cases" / "engine" / "v14-labels"


def _site(tmp_path: Path) -> Path:
    return built_case(tmp_path, CASE)


def test_a_rule_page_names_the_rule_by_its_label_and_says_each_label_it_had(tmp_path):
    rules = _site(tmp_path) / "rules"
    page = (rules / "2001.html").read_text(encoding="utf-8")
    assert "<title>Rule 2001 (2E1): Voting" in page and "<h1>Rule 2001 (2E1): Voting</h1>" in page
    assert "Called 1-1 → 2E1 in the record." in _words(page)
    enacted = _words((rules / "2002.html").read_text(encoding="utf-8"))
    assert "Rule 2002 (2E2): Dice" in enacted and "in the record" not in enacted  # one label: nothing to trace
    quiet = (rules / "1003.html").read_text(encoding="utf-8")
    assert "<h1>Rule 1003: Quiet</h1>" in quiet  # no label: the number alone, as before


def test_a_proposal_names_the_rules_it_changed_by_their_labels_then(tmp_path):
    page = _words((_site(tmp_path) / "proposals" / "301.html").read_text(encoding="utf-8"))
    assert "Rule 2001 (2E1): Voting" in page and "Rule 2002 (2E2): Dice" in page
    repeal = _words((_site(tmp_path / "again") / "proposals" / "302.html").read_text(encoding="utf-8"))
    assert "Rule 1002 (1-2): Scoring" in repeal  # a repealed rule: its label when it was repealed


def test_the_rules_in_force_list_labels_and_the_repealed_rule_keeps_its_own(tmp_path):
    site = _site(tmp_path)
    listed = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert '<a href="#rule-2001" title="rule 2001">2E1</a>' in listed  # the contents: the name players use
    assert '<a href="#rule-1003">1003</a>' in listed
    assert "2001 (2E1). Voting" in _words(listed) and "1003 . Quiet" in _words(listed)
    repealed = _words((site / "repealed.html").read_text(encoding="utf-8"))
    assert "Rule 1002 (1-2): Scoring" in repealed


def test_a_search_finds_a_rule_by_its_label(tmp_path):
    search = _site(tmp_path) / "search"
    docs = "".join(path.read_text(encoding="utf-8") for path in sorted(search.glob("docs-*.js")))
    terms = "".join(path.read_text(encoding="utf-8") for path in sorted(search.glob("terms-*.js")))
    assert '"Rule 2001 (2E1): Voting (was 1001)"' in docs
    assert '"2e1"' in terms  # the label is a word of the rule's title


def test_the_rules_at_any_point_carry_the_label_then(tmp_path, capsys):
    assert main(["ruleset", f"{CASE}@start", "--format", "short"]) == 0
    start = capsys.readouterr().out
    assert "Rule 1001 (1-1): Voting" in start and "Rule 1002 (1-2): Scoring" in start
    assert main(["ruleset", f"{CASE}@now", "--format", "short"]) == 0
    now = capsys.readouterr().out
    assert "Rule 2001 (2E1): Voting" in now and "Rule 2002 (2E2): Dice" in now and "Rule 1003: Quiet" in now
    assert "(1-2)" not in now  # repealed with its label


def test_a_label_is_never_part_of_the_rules_text(tmp_path):
    page = _words((_site(tmp_path) / "rules" / "2001.html").read_text(encoding="utf-8"))
    assert "Label:" not in page and "Each player has one vote." in page


def _previewed(tmp_path: Path, capsys, rule: str) -> tuple[int, str, Path]:
    """`preview --text` of a draft in the case's game that appends a sentence to `rule` (as the draft names it):
    its exit code, what it printed, and the draft."""
    drafts = tmp_path / "v14-labels" / "drafts"
    if not drafts.is_dir():
        shutil.copytree(CASE, drafts.parent)
        drafts.mkdir()
    draft = drafts / "idea.md"
    draft.write_text(f"## Proposal: Louder\nProposer: Ann\n\nAmend rule {rule} by appending:\n\n> Aloud.\n",
                     encoding="utf-8")
    code = main(["preview", str(draft), "--text"])
    return code, capsys.readouterr().out, draft


def test_a_drafts_preview_names_the_rule_it_would_change_by_its_label(tmp_path, capsys):
    code, said, _ = _previewed(tmp_path, capsys, "2001")
    assert code == 0 and "Rule 2001 (2E1): Voting (changed)" in said


def test_a_change_may_name_its_rule_by_its_label_and_is_shown_made_to_that_rule(tmp_path):
    """Proposal 303 amends rule 2E1 (the label proposal 301 gave rule 1001 as it renumbered it) and transmutes rule
    2E2: the replay applies each to the rule that has the label then, and the pages show the change under that
    rule, while the text as proposed keeps the record's words. (The case folder v14-label-references holds the
    findings: a label no rule in force has, one two rules have.)"""
    site = _site(tmp_path)
    page = _words((site / "proposals" / "303.html").read_text(encoding="utf-8"))
    assert "Rule 2001 (2E1): Voting appended a paragraph" in page and "inserted: Votes are cast in public." in page
    assert "Rule 2002 (2E2): Dice transmuted from mutable to immutable" in page
    assert "Amend rule 2E1 by appending:" in page and "Transmute rule 2E2 to immutable." in page  # as proposed
    history = _words((site / "rules" / "2001.html").read_text(encoding="utf-8"))
    assert "Votes are cast in public." in history and "Proposal 303" in history


def test_the_comparisons_name_rules_by_their_labels(tmp_path):
    page = _words((_site(tmp_path) / "compare" / "start-now.html").read_text(encoding="utf-8"))
    assert "Rule 1001 (1-1) is now 2001 (2E1): Voting" in page and "labelled 2E1 (was 1-1)" in page
    assert "Rule 1002 (1-2) removed: Scoring" in page and "Rule 2002 (2E2) added: Dice" in page


def test_a_draft_may_name_the_rule_it_changes_by_its_label(tmp_path, capsys):
    code, said, _ = _previewed(tmp_path, capsys, "2E1")
    assert code == 0 and "Rule 2001 (2E1): Voting (changed)" in said
    code, said, draft = _previewed(tmp_path, capsys, "1-1")  # the label rule 2001 had before
    assert code == 1 and "It changes no rule." in said
    assert (f"{draft}:4: no-such-rule: rule 1-1: no rule in force has the label '1-1' (rule 2001 had it, and is "
            "labelled '2E1' now)") in said


@pytest.mark.browser
def test_the_browsers_comparison_names_rules_by_their_labels_as_the_built_pages_do(tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    site = _site(tmp_path)
    headings: list[str] = []

    def look() -> None:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"{(site / 'compare' / 'index.html').as_uri()}?from=start&to=303")
            page.wait_for_selector("#compare-result .tally")
            headings.extend(page.eval_on_selector_all("#compare-result h2", "hs => hs.map(h => h.textContent)"))
            browser.close()

    in_own_thread(look)
    assert headings == ["Rule 1001 (1-1) is now 2001 (2E1): Voting", "Rule 1002 (1-2) removed: Scoring",
                        "Rule 2002 (2E2) added: Dice"]


def test_a_label_named_in_a_change_is_shown_as_text_never_as_markup(tmp_path):
    """A log from a player's pull request may name a rule by any run of characters: it reaches the pages (the
    finding, the text as proposed) escaped."""
    log = (CASE / "log.md").read_text(encoding="utf-8") + (
        "\n## Proposal 304: Markup\nProposer: Bob\nDate: 2026-02-01\nVotes: for Ann, Bob\nResult: adopted\n\n"
        "Repeal rule <img/src=x/onerror=alert(1)>.\n")
    site = built_case(tmp_path, CASE, log=log)
    pages = {path: path.read_text(encoding="utf-8") for path in site.rglob("*.html")}
    assert not any("<img/src=x" in page for page in pages.values())
    markup = "&lt;img/src=x/onerror=alert(1)&gt;"
    assert f"rule {markup}: no rule in force has the label '{markup}'" in _words(pages[site / "check.html"])
    assert f"Repeal rule {markup}." in _words(pages[site / "proposals" / "304.html"])  # as proposed
