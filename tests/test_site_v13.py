"""Format 1.3 on the site: rules of no recorded class, and numbers from 0, built from the engine's case folders."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import broken_links
from tests.test_site_v12 import built_site, text

GAMES = ("v13-class-unrecorded", "v13-numbered-from-zero", "v13-topics")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory, GAMES)


def test_a_rule_of_no_recorded_class_is_called_so_and_listed_apart(site):
    assert "Class not recorded." in text(site, "v13-class-unrecorded/rules/3.html")
    assert "Immutable." in text(site, "v13-class-unrecorded/rules/2.html")
    # In force at the end: rule 0 and 1 of the other game were never given a class, and the page says so; nor was
    # the rule its proposal enacted, in a game that records no class at all (none is invented for it).
    rules = text(site, "v13-numbered-from-zero/rules/index.html")
    assert "Immutable Rules" not in rules and "Mutable Rules" not in rules  # (one class: no class headings)
    assert "utable" not in text(site, "v13-numbered-from-zero/rules/2.html")


def test_proposal_and_rule_zero_have_their_pages(site):
    assert "When a player wins, the game ends at once." in text(site, "v13-numbered-from-zero/rules/0.html")
    assert "Proposal 0" in text(site, "v13-numbered-from-zero/proposals/0.html")
    assert broken_links(site) == []


def test_the_rules_topics_are_shown_as_the_rulesets_parts(site):
    """rules.md's topics (its level-1 headings) are the parts of the rules page by section, each rule under its
    own, in the keepers' order; a rule enacted later, under none, is with the other rules."""
    page = text(site, "v13-topics/rules/by-section.html")
    assert "Playing: 101 305 Winning: 203 Other rules: 306" in page
    assert page.index("Playing 101 . Obey") < page.index("305 . Turns") < page.index("Winning 203 . Thirty points")
    assert "by section" in text(site, "v13-topics/rules/index.html")
    assert not (site / "v13-class-unrecorded/rules/by-section.html").exists()  # no topics: no such page
