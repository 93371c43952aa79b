"""A game of powers as Agorans read its site (a small game in Agora's manner, written here): verbatim texts kept
verbatim in every redline, a change its power did not permit said at the change, revisions and sections as the
FLR keeps them, co-authors and the text as proposed, the proposals by number with their decisions taken again,
the verification page in the game's own terms, and no word for what the game does not have."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import broken_links

GAME_TOML = """title = "Powers"
start = 2019-01-01
players = ["Ann", "Bob", "Cy"]

[adoption]
method = "index"

[numbering]
amend_renumbers = false
enact_takes_proposal_number = false
in_order = false

[turns]
order = "none"

[scoring]
turn = "none"
defeated = 0
against_adopted = 0

[limits]
max_mutable = 0

[rules]
power = true

[[sections]]
title = "Foundations"
note = "What the game *is*."
rules = [101]

[[sections]]
title = "Offices"
note = "# Who holds what\\n\\nEach office has one holder."
rules = [2139]
"""

RULES = """# Rules

## Mutable Rules

### 101. The Game
Power: 3.0
Revision: 4

This is the game.

Annotation: CFJ 1 found that it is a game.

### 2139. The Registrar
Power: 2.0
Revision: 11
History: Created by Proposal 1000 (Ann), 2010-01-01

```
The Registrar is an office; its holder keeps track of players.

The Registrar's weekly report includes:

1. A list of all players.

* Publishing the roster.
```
"""

LOG = """# The log

## Proposal 302: The second
Proposer: Bob
Date: 2019-01-03
Index: 3.0
Power: 3.0
Votes: for Ann x2, Bob x2
Result: adopted

Amend rule 101 by replacing "the game" with "the game of powers".

As proposed:

> # The second
>
> Rule 101 names the game of powers.

## Proposal 301: Registrar duties
Proposer: Ann
Co-authors: Cy
Date: 2019-01-04
Votes: for Ann, Bob, Cy
Result: adopted
Note: Assessor: [301.txt](https://example.org/assessor/301.txt).

Amend rule 2139 to read:

> ```
> The Registrar is an office; its holder keeps track of players.
>
> The Registrar's weekly report includes:
>
> 1. A list of all players.
>
> 2. The date each player joined.
>
> * Publishing the roster.
> ```

As proposed:

```
In rule 2139, add "2. The date each player joined." to the weekly report.
```

## Event: The Rulekeepor's correction
Date: 2019-01-05
By: cleaning (the Rulekeepor)

Amend rule 2139 to read:

> ```
> The Registrar is an office; its holder keeps track of players.
>
> The Registrar's weekly report includes:
>
> 1. A list of all players.
>
> * Publishing the roster.
> ```

## Proposal 303: Registrar duties, again
Proposer: Ann
Date: 2019-01-06
Index: 2.0
Power: 2.0
Quorum: 3
Votes: for Ann x2, Bob x2
Result: failed-quorum

Amend rule 2139 to read:

> ```
> The Registrar is an office.
> ```

# Why so short

Ann wanted the shortest text.

## Proposal 303A: Registrar duties, again
Proposer: Ann
Date: 2019-01-07
Index: 2.0
Power: 2.0
Votes: for Ann x2, Bob x2
Result: adopted

Amend rule 2139 to read:

> ```
> The Registrar is an office; its holder keeps track of players.
>
> The Registrar's weekly report includes:
>
> 1. A list of all players.
>
> 2. The date each player joined.
>
> * Publishing the roster.
> ```
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    content = tmp_path_factory.mktemp("content")
    game = content / "powers"
    game.mkdir()
    (game / "game.toml").write_text(GAME_TOML, encoding="utf-8")
    (game / "rules.md").write_text(RULES, encoding="utf-8")
    (game / "log.md").write_text(LOG, encoding="utf-8")
    out = content.parent / "site"
    assert main(["build", str(content), "-o", str(out), "--quiet"]) == 0
    return out / "powers"


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def text(site: Path, path: str) -> str:
    """A page's words, as a reader reads them."""
    main_part = page(site, path).split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main_part)).strip()
    return html.unescape(re.sub(r" ([,.:;)])", r"\1", words))


def test_a_verbatim_text_stays_verbatim_in_its_redlines(site):
    for path in ("proposals/301.html", "rules/2139.html", "log.html"):
        html = page(site, path)
        assert "```" not in html, path  # no fence shown as text, inserted or deleted
        assert "<li>" not in html.split('class="redline"', 1)[1].split("</div>", 1)[0], path  # its lists are text
    redline = page(site, "proposals/301.html").split('class="redline"', 1)[1].split("</div>", 1)[0]
    assert redline.count("<pre>") == 1 and "2. The date each player joined." in redline


def test_a_change_its_power_did_not_permit_is_said_at_the_change_with_what_changed_the_rule_next(site):
    for path in ("proposals/301.html", "rules/2139.html"):
        words = text(site, path)
        assert ("Not permitted by the proposal's power (proposal 301 changes rule 2139 (power 2.0) with power 1.0): "
                "shown as the record applied it; the rule was changed next by event 'The Rulekeepor's correction'."
                in words), path
    assert "Not permitted" not in text(site, "proposals/302.html")


def test_revisions_count_on_from_the_ruleset_as_the_flr_cites_them(site):
    assert "Rule 2139/14: revision 14. Power 2.0." in text(site, "rules/2139.html")
    history = text(site, "rules/2139.html")
    assert [int(n) for n in re.findall(r"Revision (\d+), in force", history)] == [11, 12, 13, 14]
    assert 'class="anchor">2139/14</a>' in page(site, "rules/index.html")


def test_each_rule_in_the_list_of_rules_keeps_its_power_beside_it(site):
    """The list of the rules in force names each with its power: one item that never wraps between them, so that
    "(2.0)" at the start of a line is never read as the power of the number after it."""
    listed = page(site, "rules/index.html").split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    assert ('<span class="toc-item"><a href="#rule-2139">2139</a><span class="power" title="power"> (2.0)</span>'
            '</span>') in listed
    assert not re.search(r"</span>\s*<span class=\"power\"", listed)  # (no power outside its rule's item)


def test_the_rules_in_force_read_by_section_with_each_notes(site):
    words = text(site, "rules/by-section.html")
    assert words.startswith("Rules in force by section by number · grouped by power · By section")
    assert "Foundations: 101" in words and "Offices: 2139" in words
    assert "What the game is." in words
    assert "<em>is</em>" in page(site, "rules/by-section.html")
    assert 'href="by-section.html">by section</a>' in page(site, "rules/index.html")


def test_no_page_says_mutable_of_a_game_whose_rules_are_all_of_one_class(site):
    for path in ("rules/index.html", "rules/101.html", "rules/2139.html", "index.html"):
        assert "utable" not in text(site, path), path


def test_the_verification_page_says_what_was_checked_in_this_game_and_links_each_entry(site):
    words = text(site, "check.html")
    assert ("replayed 5 log entries (3 proposals, 1 of them decided again) and checked proposal and rule numbering, "
            "each result under the adoption method in force and each change against the power of the rules it "
            "changed.") in words
    assert not re.search(r"score|order of play|winner|mutable", words)
    assert '<td><a href="proposals/301.html">proposal 301</a></td><td>power</td>' in page(site, "check.html")
    assert "<td>power 1.0</td><td>power 2.0 or more</td>" in page(site, "check.html")
    assert "log.md:" not in words  # the archive's files mean nothing to a reader


def test_a_proposal_shows_its_co_authors_its_text_as_proposed_and_its_notes_linked(site):
    words = text(site, "proposals/301.html")
    assert "Co-authors Cy" in words
    assert ('As proposed In rule 2139, add "2. The date each player joined." to the weekly report.'
            in words)
    assert "The record's own words Amend rule 2139 to read:" in words  # (folded away: its changes are drawn above)
    assert '<a href="https://example.org/assessor/301.txt">301.txt</a>' in page(site, "proposals/301.html")


def test_a_keepers_headings_sit_under_the_headings_of_the_page(site):
    assert '<div class="section-note"><h3>Who holds what</h3>' in page(site, "rules/by-section.html")
    assert "<h2>As proposed</h2>\n<h3>The second</h3>" in page(site, "proposals/302.html")
    assert "</blockquote>\n<h3>Why so short</h3>" in page(site, "proposals/303.html")  # the record's text
    for path in ("rules/by-section.html", "proposals/302.html", "proposals/303.html"):
        assert page(site, path).count("<h1") == 1, path


def test_the_proposals_are_listed_by_number_each_decision_taken_again_by_its_name(site):
    rows = re.findall(r'<td class="num"><a href="\.\./proposals/([^"]+)">([^<]+)</a>', page(site, "proposals/index.html"))
    assert rows == [("301.html", "301"), ("302.html", "302"), ("303.html", "303"), ("303A.html", "303A")]
    assert "3 proposals, 1 of them decided again" in text(site, "index.html")


def test_the_players_page_says_only_what_the_record_knows(site):
    html = page(site, "players.html")
    assert "<th scope=\"col\" class=\"num\">Co-authored</th>" in html
    assert "Wins" not in html and "Status" not in html and "playing" not in html


def test_annotations_kept_with_the_ruleset_are_said_so_once(site):
    words = text(site, "rules/101.html")
    assert "Annotations Kept with the rule when this archive begins: CFJ 1 found that it is a game." in words
    assert words.count("archive begins") == 1


def test_no_link_is_broken(site):
    assert broken_links(site.parent) == []
