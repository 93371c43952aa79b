"""A rule's label (`Label:` in rules.md, and in a change's record): the record's own name for a rule (B Nomic's
`1-12` and `4E83`, a game's `UC1`), shown beside its number wherever the rule is named. The case folders
tests/cases/engine/v14-labels and tests/cases/parse/label-problems hold the check's exact report."""
from __future__ import annotations

import shutil
from pathlib import Path

from generator.cli import main
from tests.helpers import built_case, page_words as _words

CASE = Path(__file__).resolve().parent / "cases" / "engine" / "v14-labels"


def _site(tmp_path: Path) -> Path:
    return built_case(tmp_path, CASE)


def test_a_rule_page_names_the_rule_by_its_label_and_says_each_label_it_had(tmp_path):
    rules = _site(tmp_path) / "rules"
    page = (rules / "2001.html").read_text(encoding="utf-8")
    assert "<title>Rule 2001 (2E1): Voting" in page and "<h1>Rule 2001 (2E1): Voting</h1>" in page
    assert "Called 1-1 → 2E1 in the record." in _words(page)
    enacted = _words((rules / "2002.html").read_text(encoding="utf-8"))
    assert "Rule 2002 (2E2): Dice" in enacted and "Called" not in enacted  # one label: nothing to trace
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


def test_a_drafts_preview_names_the_rule_it_would_change_by_its_label(tmp_path, capsys):
    game = tmp_path / "v14-labels"
    shutil.copytree(CASE, game)
    (game / "drafts").mkdir()
    draft = game / "drafts" / "idea.md"
    draft.write_text("## Proposal: Louder\nProposer: Ann\n\nAmend rule 2001 by appending:\n\n> Aloud.\n",
                     encoding="utf-8")
    assert main(["preview", str(draft), "--text"]) == 0
    assert "Rule 2001 (2E1): Voting (changed)" in capsys.readouterr().out
