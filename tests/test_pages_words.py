"""Pages say what the engine knows, in a player's words: the order of play it follows, the mechanics in force
(rules by their present number), each result with its arithmetic, and findings linked to their entries."""
from __future__ import annotations

from generator.engine.replay import replay
from generator.errors import ErrorCollector
from generator.parse.game import _build_game, load_game

from tests.helpers import ROOT, site_pages_of

RULES = """## Immutable Rules

### 101
Obey the rules.

## Mutable Rules

### 201
Players alternate.

### 203
A rule-change is adopted if the vote is unanimous.
"""


def page_context(replayed, path: str) -> dict:
    page = next(p for p in site_pages_of([replayed]) if p.path == path)
    return page.full_context()


def game(log: str, toml: str) -> object:
    return replay(_build_game("g", "g", {"g/game.toml": toml, "g/rules.md": RULES, "g/log.md": log},
                              ErrorCollector()))


def test_the_players_page_shows_the_order_the_engine_follows():
    replayed = replay(load_game(ROOT / "content" / "livejournal-2007"))
    assert page_context(replayed, "livejournal-2007/players.html")["order"] == ["_quasar", "9th_wave", "mike_k",
                                                                                "packbat"]


def test_a_game_without_turns_shows_no_order():
    replayed = game("", 'players = ["Ann", "Bob"]\n[turns]\norder = "none"\n')
    assert page_context(replayed, "g/players.html")["order"] == []


def test_the_mechanics_name_the_switch_rule_by_its_present_number_and_the_turn_in_words():
    toml = ('players = ["Ann", "Bob"]\n[adoption]\nthen = "majority"\nafter_circuits = 2\nunless_amended = 203\n'
            '[scoring]\nturn = "formula"\nformula = "round((proposal - 291) * for_fraction)"\n')
    log = "## Event: The Rulekeepor renumbers\nDate: 1982-06-01\n\nRenumber rule 203 to 313.\n"
    mechanics = dict(page_context(game(log, toml), "g/index.html")["mechanics"])
    assert mechanics["Then"] == "a simple majority after 2 complete circuits, unless rule 313 is amended"
    assert mechanics["Each turn"] == ("proposal number minus 291, times the share of votes for, rounded "
                                      "(halves rounded up)")
    mechanics = dict(page_context(game("", 'players = ["Ann"]\n[scoring]\ndie = "2d6"\n'), "g/index.html")["mechanics"])
    assert mechanics["Each turn"] == "two dice, 2d6"


def test_a_result_gives_its_arithmetic():
    replayed = replay(load_game(ROOT / "content" / "livejournal-2007"))
    step = page_context(replayed, "livejournal-2007/proposals/301.html")["step"]
    assert (step["result"], step["why"]) == ("adopted", "5 for, 0 against (90% needed)")


def test_findings_link_to_their_entry_and_to_the_slip_they_stem_from():
    log = ("## Proposal 301\nProposer: Ann\nDate: 1982-06-01\nVotes: for Ann, Bob\nResult: adopted\nDie: 4\n"
           "Scores: Ann 5\n\n## Proposal 302\nProposer: Bob\nDate: 1982-06-02\nVotes: for Ann, Bob\n"
           "Result: adopted\nDie: 1\nScores: Ann 9\n")
    findings = page_context(game(log, 'players = ["Ann", "Bob"]\n'), "g/check.html")["findings"]
    assert [(f["url"], f["cause"], f["cause_url"]) for f in findings] == [
        ("proposals/301.html", None, None), ("proposals/302.html", "g/log.md:7", "proposals/301.html")]


# --- The site's words, as a reader meets them (issue 52) ----------------------------------------------------

import re  # noqa: E402

import pytest  # noqa: E402

from generator.cli import main  # noqa: E402
from generator.site.views import FINDING_KINDS  # noqa: E402

JUDGE_SENTENCE = "A Judge's ruling stands above the program's arithmetic."


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    site = tmp_path_factory.mktemp("words") / "site"
    assert main(["build", str(ROOT / "content"), "-o", str(site), "--quiet"]) == 0
    return site


def _footer(page) -> str | None:
    """The page's footer (a redirect from a rule's old number has none)."""
    found = re.search(r'<footer class="site">(.*?)</footer>', page.read_text(encoding="utf-8"))
    return found and found[1]


@pytest.mark.parametrize("game, judged", [("slips-example", True), ("suber-1982", True), ("wiki-2005", True),
                                          ("livejournal-2007", False), ("bureau-2024", False), ("solitaire", False)])
def test_only_a_game_a_judge_ruled_in_says_the_ruling_stands_above_the_arithmetic(bundled, game, judged):
    footers = {_footer(page) for page in (bundled / game).rglob("*.html")} - {None}
    assert footers == {"Built by nomic-archive." + (f" {JUDGE_SENTENCE}" if judged else "")}
    assert _footer(bundled / "index.html") == "Built by nomic-archive."


def test_the_verification_page_names_each_kind_of_finding_in_words(bundled):
    page = (bundled / "slips-example" / "check.html").read_text(encoding="utf-8")
    kinds = re.findall(r"</td><td>([^<]*)</td><td>(?:numbered|Scores)", page)
    assert sorted(kinds) == ["proposal number", "score"]
    assert "proposal-number" not in page


def test_every_kind_the_json_report_lists_has_words_on_the_site():
    reference = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    listed = reference[reference.index("(or in full when the file is outside it). Kinds:"):]
    kinds = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", listed[:listed.index("A solitaire game's report")]))
    assert kinds and kinds <= set(FINDING_KINDS), kinds - set(FINDING_KINDS)
    assert all("-" not in words for words in FINDING_KINDS.values())


def test_a_proposal_with_no_outcome_to_show_has_no_outcome_section(bundled):
    """Bureau keeps no scores: its proposals' pages say where they are recorded, under no empty heading."""
    page = (bundled / "bureau-2024" / "proposals" / "501.html").read_text(encoding="utf-8")
    assert "<h2>Outcome</h2>" not in page
    assert '<p class="source">Recorded in <code>bureau-2024/log.md</code>.</p>\n</main>' in page
    scored = (bundled / "suber-1982" / "proposals" / "305.html").read_text(encoding="utf-8")
    assert re.search(r"<h2>Outcome</h2>.*<h3>Scores after</h3>.*</section>\n<p class=\"source\">Recorded in", scored,
                     re.DOTALL)


def test_the_home_page_says_what_nomic_is(bundled):
    page = (bundled / "index.html").read_text(encoding="utf-8")
    assert "<p>Nomic, invented by Peter Suber in 1982, is a game whose moves change its own rules:" in page


def test_players_who_left_are_marked_in_the_scores(bundled):
    home = (bundled / "livejournal-2007" / "index.html").read_text(encoding="utf-8")
    assert '<tr><td>mike2600 <span class="left">(left)</span></td><td class="num">-33</td></tr>' in home
    assert '<tr><td>packbat</td>' in home  # still playing: unmarked
    scores = (bundled / "wiki-2005" / "scores.html").read_text(encoding="utf-8")
    assert '<th scope="col" class="num">Stefan Krämer <span class="left">(left)</span></th>' in scores
    assert '<th scope="col" class="num">Anna Vogel</th>' in scores


def test_counts_agree_with_their_nouns(tmp_path):
    """A game of one proposal with one slip: every count of one is in the singular."""
    from tests.helpers import copy_games

    content = copy_games(tmp_path, "mini")
    log = content / "mini" / "log.md"
    first = log.read_text(encoding="utf-8").split("\n## Proposal 302")[0]
    log.write_text(first.replace("Scores: Alice 4,", "Scores: Alice 5,"), encoding="utf-8")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--quiet"]) == 0
    pages = [tmp_path / "site" / "index.html", tmp_path / "site" / "mini" / "index.html",
             tmp_path / "site" / "mini" / "check.html"]
    text = " ".join(" ".join(re.sub(r"<[^>]+>", "", p.read_text(encoding="utf-8")).split()) for p in pages)
    for one in ("1 proposal,", "1 discrepancy.", "1 proposal (", "1 discrepancy found", "1 log entry (1 proposal)",
                "1 discrepancy between"):
        assert one in text, one
    assert not re.search(r"\b1 (?:proposals|discrepancies|log entries|turns|players)\b", text)


def test_a_game_with_no_proposal_says_so_where_proposals_are_listed(tmp_path):
    """A game whose log holds events alone (rulesets captured on days, say) lists no proposal, and says so: not an
    empty table, nor 'every proposal was adopted'."""
    from generator.cli import main

    folder = tmp_path / "content" / "g"
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text('title = "G"\nplayers = ["Ann"]\n', encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text("## Event: The rules of a later day\nDate: 1982-06-01\n\nAmend rule 201 to read:\n\n"
                                   "> Players take turns.\n", encoding="utf-8")
    assert main(["build", str(tmp_path / "content"), "-o", str(tmp_path / "site")]) == 0
    for page, link in (("proposals/index.html", "../log.html"), ("defeated.html", "log.html")):
        html = (tmp_path / "site" / "g" / page).read_text(encoding="utf-8")
        assert f'<p>No proposal is recorded in <a href="{link}">the log</a>.</p>' in html
        assert "<table" not in html and "Every proposal was adopted" not in html


def test_the_logs_parts_are_named_by_their_entries_cut_short(small_parts):
    """A keeper's correction may name a hundred rules in its title (Agora's do): each part of the log is linked by
    its first and last entries, each cut to a readable length inside its quotes, the whole title kept on the
    entry itself."""
    long_title = "Cleaning: rules " + ", ".join(str(n) for n in range(202, 302))
    log = "".join(f"## Event: {long_title if n % 40 == 0 else f'Note {n}'}\nDate: 2020-01-01\n\nNothing.\n\n"
                  for n in range(80))
    replayed = game(log, 'title = "G"\nplayers = ["Ann", "Bob"]\n')
    page = page_context(replayed, "g/log-2.html")
    labels = [part["label"] for part in page["pager"]]
    cut = "event 'Cleaning: rules 202, 203, 204, 205, 206, 207, 208, \u2026'"
    assert labels[0].startswith(f"{cut} – event 'Note ")
    assert long_title not in str(labels)
    assert all(len(label) <= 60 for part in labels for label in part.removesuffix(" onwards").split(" – "))
    assert long_title in str(page_context(replayed, "g/log.html")["entries"][0])
