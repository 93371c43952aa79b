"""The plain-text ruleset importer: golden files for the seeds, the traps each seed sets, and escaping."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import generator
from generator.errors import ErrorCollector
from generator.cli import main
from generator.importers.rulesfile import read_ruleset, render_ruleset
from generator.importers.text import Note, RulesetImportError
from generator.parse.rules import parse_ruleset
from tests.helpers import import_ruleset

DATA = Path(__file__).parent / "data"
SEEDS = sorted((DATA / "seeds").glob("*.txt"))
BUNDLED_RULESETS = Path(generator.__file__).parent / "rulesets"

SOLITAIRE = "000_ec9ab227089d2a22"
SUBER_1982 = "001_580860fb29cbbaed"
LIVEJOURNAL = "002_78c66cb07e8cb7db"
WIKI = "003_93b7776574ab5021"
SUBER_2ND = "004_d5bfd86e72428250"

SUBER_CLASSES = {"Immutable Rules": list(range(101, 117)), "Mutable Rules": list(range(201, 214))}
EXPECTED_CLASSES = {
    SOLITAIRE: {"Immutable Rules": list(range(1, 13)), "Mutable Rules": [100, 101]},
    SUBER_1982: SUBER_CLASSES,
    LIVEJOURNAL: {"Immutable Rules": list(range(101, 116)), "Mutable Rules": list(range(201, 216))},
    WIKI: {"Immutable Rules": list(range(101, 117)),
           "Mutable Rules": list(range(201, 214)) + [303, 305, 309, 315, 316, 318, 319, 321, 322, 323]},
    SUBER_2ND: SUBER_CLASSES,
}
BUNDLED = {
    "suber-1982": (SUBER_1982, "Initial Set of Rules (Suber, 1982)"),
    "suber-2nd": (SUBER_2ND, "Initial Set of Rules (Suber, second edition)"),
    "livejournal": (LIVEJOURNAL, "Draft Initial Ruleset (LiveJournal Nomic, 2007)"),
    "solitaire": (SOLITAIRE, "Solitaire Nomic 1.0: Initial Ruleset"),
}
_RULE_HEADING = re.compile(r"### (\d+)(?:\. (.+))?")


def seed(stem: str) -> str:
    return (DATA / "seeds" / f"{stem}.txt").read_text(encoding="utf-8")


def imported(stem: str, **options: str) -> str:
    return import_ruleset(seed(stem), **options)


def rule_classes(rules_md: str) -> dict[str, list[int]]:
    """Rule numbers under each `##` class heading, in order."""
    classes: dict[str, list[int]] = {}
    current: list[int] = []
    for line in rules_md.split("\n"):
        if line.startswith("## "):
            current = classes.setdefault(line[3:], [])
        elif m := _RULE_HEADING.fullmatch(line):
            current.append(int(m.group(1)))
    return classes


def rule_titles(rules_md: str) -> dict[int, str | None]:
    return {int(m.group(1)): m.group(2) for line in rules_md.split("\n") if (m := _RULE_HEADING.fullmatch(line))}


def rule_blocks(rules_md: str, number: int) -> list[str]:
    """The Markdown blocks of one rule's text (a list counts as one block)."""
    body = re.search(rf"^### {number}(?:\. [^\n]*)?\n(.*?)(?=\n\n#{{1,3}} |\n*\Z)", rules_md, re.MULTILINE | re.DOTALL)
    assert body, f"no rule {number}"
    return body.group(1).split("\n\n")


def rendered_texts(rules_md: str) -> list[tuple[str, str]]:
    """(tag, plain text) of each heading, paragraph and list item as CommonMark renders it.

    Fails on any inline markup (emphasis, links, code, HTML): imported text must render as itself.
    """
    tokens = MarkdownIt("commonmark", {"html": False}).enable("table").parse(rules_md)
    texts = []
    for index, token in enumerate(tokens):
        if token.type == "inline":
            kinds = {child.type for child in token.children or []}
            assert kinds <= {"text"}, f"markup {kinds} in {token.content!r}"
            opening = tokens[index - 1]
            tag = "li" if opening.type == "paragraph_open" and index >= 2 and tokens[index - 2].type == "list_item_open" \
                else opening.tag
            texts.append((tag, "".join(child.content for child in token.children or [])))
        else:
            assert token.type in {"heading_open", "heading_close", "paragraph_open", "paragraph_close",
                                  "bullet_list_open", "bullet_list_close", "list_item_open", "list_item_close"}, token
    return texts


@pytest.mark.parametrize("path", SEEDS, ids=lambda path: path.stem)
def test_import_matches_golden_file(path: Path) -> None:
    golden = (DATA / "import" / f"{path.stem}.md").read_text(encoding="utf-8")
    assert import_ruleset(path.read_text(encoding="utf-8")) == golden


@pytest.mark.parametrize("stem", sorted(EXPECTED_CLASSES))
def test_rule_numbers_per_class(stem: str) -> None:
    assert rule_classes(imported(stem)) == EXPECTED_CLASSES[stem]


@pytest.mark.parametrize("path", SEEDS, ids=lambda path: path.stem)
def test_output_is_a_valid_ruleset_that_renders_as_plain_text(path: Path) -> None:
    rules_md = import_ruleset(path.read_text(encoding="utf-8"))
    errors = ErrorCollector()
    ruleset = parse_ruleset(rules_md, "rules.md", errors)
    assert errors.errors == []
    assert [rule.number for rule in ruleset.rules] == [n for numbers in rule_classes(rules_md).values() for n in numbers]
    rendered_texts(rules_md)
    assert rules_md.endswith(".\n") and not rules_md.endswith("\n\n")
    assert "\n\n\n" not in rules_md


@pytest.mark.parametrize(("stem", "numbers"), [
    (SUBER_1982, {108: 2, 211: 3, 213: 2}),
    (LIVEJOURNAL, {103: 2, 108: 2, 203: 3, 214: 6}),
    (WIKI, {103: 3, 201: 2, 202: 3, 316: 8}),
])
def test_multi_paragraph_rules_keep_their_paragraphs(stem: str, numbers: dict[int, int]) -> None:
    rules_md = imported(stem)
    assert {number: len(rule_blocks(rules_md, number)) for number in numbers} == numbers


def test_wrapped_line_starting_with_a_number_is_not_a_rule() -> None:
    rules_md = imported(SUBER_1982)
    assert "The numbers must begin with 301, and each rule change proposed" in rule_blocks(rules_md, 108)[0]
    # Even "301." at the start of a wrapped line continues the sentence before it.
    rules_md = import_ruleset(seed(SUBER_1982).replace("begin with\n301, and each", "begin with\n301. And each"))
    assert rule_classes(rules_md) == SUBER_CLASSES
    assert "The numbers must begin with 301. And each rule change" in rule_blocks(rules_md, 108)[0]


def test_page_furniture_before_the_rules_is_dropped() -> None:
    rules_md = imported(SUBER_2ND)
    assert rule_classes(rules_md) == SUBER_CLASSES  # the lone "101" of "cwbe coordinatez" is no rule
    assert rule_blocks(rules_md, 101)[0].startswith("All players must always abide")
    for furniture in ("coordinatez", "63564", "Nomic is a game in which", "edvard gray", "*"):
        assert furniture not in rules_md
    rules_md = imported(SUBER_1982)
    for furniture in ("INITIAL SET OF RULES", "Peter Suber", "Earlham", "israel"):
        assert furniture not in rules_md


def test_trailing_chatter_is_dropped() -> None:
    rules_md = imported(LIVEJOURNAL)
    for chatter in ("So, yes.", "[Poll", "Feel free", "the comm will need a name", "Added text is shown"):
        assert chatter not in rules_md
    assert rule_blocks(rules_md, 215)[-1] == "This rule takes precedence over every other rule determining the winner."
    rules_md = imported(SUBER_1982)
    assert "Bruce Israel" not in rules_md and "--" not in rules_md


def test_source_text_is_kept_as_written() -> None:
    rules_md = imported(LIVEJOURNAL)
    assert "Each proposal will go to vote oneweekinterval after the beginning" in rules_md
    assert "defined asthe period" in rules_md and "Sundaybeing four days" in rules_md
    assert "If they are adpoted, they must guide play" in imported(SUBER_1982)


def test_wiki_titles_and_lists() -> None:
    rules_md = imported(WIKI)
    titles = rule_titles(rules_md)
    assert {number: title for number, title in titles.items() if title} == {
        303: "Silly naming rule", 305: "Time limit with punishment", 309: "Gaming board",
        315: "The score is what the score is", 316: "Chessoid rules", 318: "Real Men",
        319: "Last vote updates game", 321: "Smoothie tax", 322: "Nomic:Game 2005-04-02:Proposal 322",
        323: "Sloth and negativism are sins"}
    assert rule_blocks(rules_md, 103)[:2] == [
        "A rule-change is any of the following:",
        "- the enactment, repeal, or amendment of a mutable rule;\n"
        "- the enactment, repeal, or amendment of an amendment of a mutable rule; or\n"
        "- the transmutation of an immutable rule into a mutable rule or vice versa."]
    assert rule_blocks(rules_md, 303) == ["Every new rule and rule proposal must have one and only one name. "
                                          "Names are declared before the rule-text with a level 4 heading."]


def test_solitaire_numbering_and_titles() -> None:
    rules_md = imported(SOLITAIRE)
    assert list(rule_titles(rules_md).items()) == [
        (1, "Two classes of Rules"), (2, "Objective"), (3, "Life Span"), (4, "Rule Changes"), (5, "Death"),
        (6, "Actions"), (7, "Transmutation"), (8, "Mutation"), (9, "Subsumption"), (10, "Division"),
        (11, "Precedence"), (12, "Rule Numbers"), (100, "Scoring"), (101, "Permissibility of the Unprohibited")]
    assert rule_blocks(rules_md, 1) == [
        "There shall be two classes of rules: immutable and mutable. Immutable rules shall have numbers less "
        "than 20 and greater than 0; mutable rules shall have numbers 20 or greater. Immutable rules shall not be "
        "subject to mutation, death or division."]
    assert rule_blocks(rules_md, 101) == ["Whatever is not regulated or prohibited by these rules is permitted."]
    assert "neat trick" not in rules_md and "\n-\n" not in rules_md


def test_long_first_sentences_mean_no_titles() -> None:
    for stem in (SUBER_1982, LIVEJOURNAL, SUBER_2ND):
        assert not any(rule_titles(imported(stem)).values())


@pytest.mark.parametrize("path", SEEDS, ids=lambda path: path.stem)
def test_bom_and_crlf_give_the_same_output(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert import_ruleset("\ufeff" + text.replace("\n", "\r\n")) == import_ruleset(text)


def test_title_argument() -> None:
    assert imported(SUBER_1982).startswith("# Initial Set of Rules\n\n## Immutable Rules\n\n### 101\nAll players")
    assert imported(SUBER_1982, title="My Game").startswith("# My Game\n\n")


def test_stop_option_ends_the_rules() -> None:
    assert rule_classes(imported(SUBER_1982, stop="Mutable Rules")) == {"Immutable Rules": list(range(101, 117))}


def test_start_option_begins_the_rules() -> None:
    rules_md = imported(SUBER_2ND, start="102. Initially")
    # Rules before any class heading take the 100s-immutable convention.
    assert rule_classes(rules_md) == {"Immutable Rules": list(range(102, 117)), "Mutable Rules": list(range(201, 214))}


def test_start_and_stop_cut_rules_out_of_a_message() -> None:
    message = ("Agenda for Friday:\n1. Buy dice.\n2. Print the rules.\n\nOur rules:\n"
               "101. Be nice to each other.\n102. Vote within a week.\n\nThanks!\nAnn\n")
    assert rule_classes(import_ruleset(message)) == {"Rules": [1, 2, 101, 102]}  # (no class recorded: `## Rules`)
    rules_md = import_ruleset(message, start="Our rules", stop="Thanks")
    assert rules_md == ("# Initial Set of Rules\n\n## Rules\n\n### 101\nBe nice to each other.\n\n"
                        "### 102\nVote within a week.\n")


def test_missing_start_or_stop_text_is_an_error() -> None:
    with pytest.raises(RulesetImportError, match="start text 'Nowhere' not found"):
        imported(SUBER_1982, start="Nowhere")
    with pytest.raises(RulesetImportError, match="stop text 'Nowhere' not found after the start of the rules"):
        imported(SUBER_1982, stop="Nowhere")


@pytest.mark.parametrize("text", ["", "Just a note.\nNothing numbered here.\n", "Immutable Rules\n\nNone yet.\n"])
def test_text_without_rules_is_an_error(text: str) -> None:
    with pytest.raises(RulesetImportError, match="no numbered rules found"):
        import_ruleset(text)


def test_duplicate_rule_is_an_error_with_its_line() -> None:
    with pytest.raises(RulesetImportError, match=r"rule 101 appears twice \(first at line 2\)") as caught:
        import_ruleset("Immutable Rules\n101. One.\n\nMutable Rules\n101. Two.\n")
    assert caught.value.line == 5


def test_markdown_syntax_in_the_text_is_escaped() -> None:
    paragraphs = [
        "Stars *like this*, _underscores_, `ticks`, <http://example.com>, <b>tags</b>, [a link](http://x) "
        "and [ref]: here, &amp; entities, a back\\slash and \\* too.",
        "1. This line is not an ordered list, and the next ones are no markup either.",
        "+ plus",
        "* star",
        "# not a heading",
        "> not a quote",
        "~~~ not a fence",
        "snake_case_name and 5 * 3 stay as they are, with no backslash added.",
    ]
    items = ["1. not a nested list", "# nor a heading", "---"]
    text = ("Immutable Rules\n\n101. " + "\n\n".join(paragraphs) + "\n\n"
            + "\n".join(f"- {item}" for item in items) + "\n")
    rules_md = import_ruleset(text, title="Rules #1 *draft* #")
    assert "snake_case_name and 5 * 3 stay" in rules_md
    # A heading's text is read as it is written, never rendered: the title is written so, a closing # kept.
    assert parse_ruleset(rules_md, "rules.md", ErrorCollector()).title == "Rules #1 *draft* #"
    assert rendered_texts(rules_md.split("\n", 1)[1]) == (
        [("h2", "Immutable Rules"), ("h3", "101")]
        + [("p", paragraph) for paragraph in paragraphs] + [("li", item) for item in items])


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_ruleset_is_the_import_of_its_seed(name: str) -> None:
    stem, title = BUNDLED[name]
    bundled = (BUNDLED_RULESETS / f"{name}.md").read_text(encoding="utf-8")
    expected = imported(stem, title=title)
    if name == "livejournal":
        # The seed's flattened red and struck words ("oneweekinterval") would start every new game garbled:
        # the bundled draft has its amendments applied, as examples/livejournal-after.md reconstructs them.
        after = (DATA.parent.parent / "examples" / "livejournal-after.md").read_text(encoding="utf-8")
        expected = expected.replace(_rule(expected, 203), _rule(after, 203))
        assert "oneweek" not in bundled
    assert bundled == expected


def _rule(rules_md: str, number: int) -> str:
    """The text of one rule of a rules.md, heading included."""
    return re.search(rf"^### {number}\b.*?(?=^##)", rules_md, re.MULTILINE | re.DOTALL).group(0)


# --- The shapes of rules files that games kept in git use (fixtures in our own words) ---------------------

HEADINGS_WITH_CLASS_IN_PARENTHESES = """# OUR GAME'S RULES
---
## 101 (IMMUTABLE)

Everyone follows the rules in force.

## 102 (IMMUTABLE)

Rules in the hundreds cannot be changed.

## 201 (MUTABLE)

Turns go round the table.

## 305

A map of the table:

#### The corners
1. North corner
2. South corner

Each corner has a flag.
"""

HEADINGS_WITH_CLASS_IN_TITLE = """#Our rules

A note on pronouns before the rules.

##101 Immutable - Scope

Everyone follows the rules then in force, in the form
in which they are then in force.

##109 

*Amended, to become rule 322.*

##201 Mutable - Quorum
Quorum is half the players.

##302 - Random numbers

A die decides.

##ABCD - Named, not numbered

This rule has letters for a number.

##322 - Identifiers

Each proposal gets a name.
"""


def test_headings_with_the_class_in_parentheses() -> None:
    rules_md = import_ruleset(HEADINGS_WITH_CLASS_IN_PARENTHESES)
    # Both classes are marked on headings, so 305's unmarked heading records none.
    assert rule_classes(rules_md) == {"Immutable Rules": [101, 102], "Mutable Rules": [201], "Rules": [305]}
    assert rule_titles(rules_md) == {101: None, 102: None, 201: None, 305: None}
    # Rules written as Markdown headings are Markdown: a deeper heading (at level 4 or more, below rules.md's own)
    # and a numbered list stay in the rule's text, as the keeper wrote them.
    assert rule_blocks(rules_md, 305) == ["A map of the table:", "#### The corners", "1. North corner\n2. South corner",
                                          "Each corner has a flag."]


def test_headings_with_no_space_and_the_class_in_the_title() -> None:
    read = read_ruleset(HEADINGS_WITH_CLASS_IN_TITLE)
    # A rule known by four capital letters is numbered by them (ABCD = 01020304), its letters its key; an empty
    # stub (`##109` with only a note that it was amended away) is no rule in force.
    assert [(rule.number, rule.rule_class, rule.title, rule.key) for rule in read.rules] == [
        (101, "Immutable Rules", "Scope", None), (201, "Mutable Rules", "Quorum", None),
        (302, None, "Random numbers", None), (1020304, None, "Named, not numbered", "ABCD"),
        (322, None, "Identifiers", None)]
    assert read.left_out == [
        Note(None, 3, "line 3, before the first rule, not a rule"),
        Note(None, 10, "'##109' is a heading with only a note, '*Amended, to become rule 322.*': not a rule in "
             "force")]
    assert read.guessed == [Note(None, 21, "rules known by letters are numbered by them, two digits a letter "
                                           "(A = 01): ABCD = 1020304")]
    assert read.rules[2].text == "A die decides."
    assert read.rules[0].text == "Everyone follows the rules then in force, in the form in which they are then in force."


def test_rule_files_with_front_matter(tmp_path, capsys) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "rule101.md").write_text("---\nRULE: 101\nType: Immutable\nStatus: Accepted\nDate: 2019-02-30\n---\n\n"
                                       "Everyone follows the rules.\n", encoding="utf-8")
    (folder / "rule202.md").write_text("---\nrule: 202\ntype: Mutable\nstatus: Accepted\ntitle: Voting\n---\n"
                                       "A proposal needs a majority.\n", encoding="utf-8")
    (folder / "rule301.md").write_text("---\nRULE: 301\nType: Mutable\nStatus: Draft\n---\nNot yet.\n",
                                       encoding="utf-8")
    (folder / "README.md").write_text("How to propose a rule.\n", encoding="utf-8")
    (folder / "template.md").write_text("---\ntitle: A new rule\nrule: NNN\n---\nIts text.\n", encoding="utf-8")
    output = tmp_path / "rules.md"
    assert main(["import", str(folder), "-o", str(output)]) == 0
    rules_md = output.read_text(encoding="utf-8")
    # A draft among the rules is read as a rule (a game's adopted rule may keep its draft's status), and said.
    assert rule_classes(rules_md) == {"Immutable Rules": [101], "Mutable Rules": [202, 301]}
    assert rule_titles(rules_md) == {101: None, 202: "Voting", 301: None}
    assert rule_blocks(rules_md, 202) == ["A proposal needs a majority."]
    err = capsys.readouterr().err
    # said at the front matter's own line for it
    assert f"{folder / 'rule301.md'}:4: guessed: rule 301 has status 'Draft': read as in force, as a file among " \
        "the rules" in err
    assert f"{folder / 'README.md'}: left out: names no rule: no front matter giving a number, no number in its " \
        "name, no numbered rule heading in it" in err
    assert f"{folder / 'template.md'}:3: left out: its front matter's rule number 'NNN' is not a number (a " \
        "template?)" in err


def test_rule_files_with_unreadable_front_matter(tmp_path, capsys) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "rule101.md").write_text("---\nRULE: [101\n---\nText.\n", encoding="utf-8")
    assert main(["import", str(folder)]) == 2
    assert capsys.readouterr().err == f"{folder / 'rule101.md'}:3: its front matter is not YAML: did not find " \
        "expected ',' or ']' (while parsing a flow sequence at line 2)\n"


def test_the_command_names_each_heading_left_out(tmp_path, capsys) -> None:
    source = tmp_path / "rules.txt"
    source.write_text(HEADINGS_WITH_CLASS_IN_TITLE, encoding="utf-8")
    assert main(["import", str(source)]) == 0
    captured = capsys.readouterr()
    assert f"{source}:10: left out: '##109' is a heading with only a note, '*Amended, to become rule 322.*': not a " \
        "rule in force" in captured.err
    assert f"{source}:21: guessed: rules known by letters are numbered by them" in captured.err
    assert "### 101. Scope\nEveryone follows the rules then in force, in the form in which they are then in force." \
        in captured.out
    assert "### 322. Identifiers" in captured.out


def test_each_kind_of_import_is_a_subcommand_and_import_file_still_works(tmp_path, capsys) -> None:
    source = tmp_path / "rules.txt"
    source.write_text(HEADINGS_WITH_CLASS_IN_TITLE, encoding="utf-8")
    assert main(["import", "text", str(source)]) == 0
    as_text = capsys.readouterr().out
    assert main(["import", str(source)]) == 0  # as it was written before the kinds were subcommands
    assert capsys.readouterr().out == as_text
    for kind, own, foreign in (("text", "--start", "--rules"), ("git", "--rules", "--ruleset"),
                               ("agora", "--assessor", "--stop")):
        with pytest.raises(SystemExit) as done:
            main(["import", kind, "--help"])
        assert done.value.code == 0
        shown = capsys.readouterr().out
        assert own in shown and foreign not in shown, shown
        assert "example" in shown and f"nomic-archive import {kind}" in shown


# --- The reader of a game's rules file: what the file's structure says (issue 50) ---------------------------

def test_the_commonest_markup_style_makes_the_rules_and_numbered_lists_stay_text() -> None:
    text = ("# Our game\n\n1. Ada\n2. Ben\n\n## Immutable Rules\n\n**7** *Zero*\n\nNumbers start at zero:\n\n"
            "1. the first is 0;\n2. the next is 1.\n\n**0** *First*\n\nThe first rule.\n")
    read = read_ruleset(text, file="README.md")
    assert [(rule.number, rule.title, rule.rule_class) for rule in read.rules] == [
        (7, "Zero", "Immutable Rules"), (0, "First", "Immutable Rules")]  # numbers from 0, in the file's order
    assert read.rules[0].text == "Numbers start at zero:\n\n1. the first is 0;\n2. the next is 1."
    assert read.left_out == [Note("README.md", 3, "lines 3-4, before the first rule, not a rule")]


def test_a_heading_of_another_style_where_rules_are_bold_is_said_with_its_text() -> None:
    read = read_ruleset("**1** One.\n\n# Contributing\n\nOpen a pull request.\n\n**2** Two.\n", file="README.md")
    assert [rule.number for rule in read.rules] == [1, 2]
    assert read.left_out == [Note("README.md", 3, "'# Contributing' names no numbered rule: it and the text under it "
                                                  "are left out")]


def test_several_paths_are_one_ruleset_and_a_number_in_two_is_refused_naming_both(tmp_path, capsys) -> None:
    (tmp_path / "a.md").write_text("## 1\n\nOne.\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("## 2\n\nTwo.\n\n## 1\n\nAgain.\n", encoding="utf-8")
    (tmp_path / "c.md").write_text("## 3\n\nThree.\n", encoding="utf-8")
    assert main(["import", "text", str(tmp_path / "a.md"), str(tmp_path / "c.md")]) == 0
    assert rule_classes(capsys.readouterr().out) == {"Rules": [1, 3]}
    assert main(["import", "text", str(tmp_path / "a.md"), str(tmp_path / "b.md"), "-o", str(tmp_path / "r.md")]) == 2
    assert capsys.readouterr().err == f"{tmp_path / 'b.md'}:5: rule 1 is also in {tmp_path / 'a.md'} (line 1)\n"
    assert not (tmp_path / "r.md").exists()
    assert main(["import", "text", str(tmp_path / "a.md"), str(tmp_path / "c.md"), "--start", "One"]) == 2
    assert "--start and --stop say where one file's rules begin and end" in capsys.readouterr().err


def test_a_relative_link_is_made_absolute_from_the_files_path_or_written_as_its_text() -> None:
    text = ("## 1\n\nSee [the list](../players.md), [the start](/initial/), [rule 2](#rule-2), [out](../../x) "
            "and [a site](https://example.org/a).\n")
    base = "https://github.com/o/r/blob/abc/"
    read = read_ruleset(text, file="rules/rules.md", link_base=base)
    assert read.rules[0].text == (f"See [the list]({base}players.md), [the start]({base}initial/), rule 2, out and "
                                  "[a site](https://example.org/a).")
    assert read.rewritten == [Note("rules/rules.md", 3, "links written as their text: #rule-2 (a place in the rules "
                                                        "file, which the archive's pages do not keep), ../../x "
                                                        "(outside the repository)")]
    unknown = read_ruleset(text + "\nSee [nothing]().\n", file="rules/rules.md")
    assert unknown.rules[0].text == "See the list, the start, rule 2, out and [a site](https://example.org/a).\n\n" \
        "See nothing."
    assert unknown.rewritten[0].message.startswith("links written as their text: ../players.md (no web address is "
                                                   "known for the file: --link-base gives one), /initial/ (no web")
    assert unknown.rewritten[-1].message.endswith("() (an empty link)")


def test_markdown_text_is_the_same_however_the_file_wraps_it() -> None:
    """A keeper re-wrapping the file changes no rule: each paragraph and list item is one line in rules.md."""
    one = "## 1\n\nA proposal passes with a majority of the votes cast,\nabstentions aside.\n\n- a\n  item\n"
    two = "## 1\n\nA proposal passes with a majority\nof the votes cast, abstentions aside.\n\n- a item\n"
    assert read_ruleset(one, file="r.md").rules[0].text == read_ruleset(two, file="r.md").rules[0].text == (
        "A proposal passes with a majority of the votes cast, abstentions aside.\n\n- a item")


def test_the_class_is_never_guessed_from_a_number_unless_a_rule_says_so() -> None:
    plain = read_ruleset("## 101\n\nObey.\n\n## 201\n\nVote.\n", file="r.md")
    assert [rule.rule_class for rule in plain.rules] == [None, None] and plain.guessed == []
    said = read_ruleset("## 101\n\nObey.\n\n## 102\n\nInitially rules in the 100's are immutable and rules in the "
                        "200's are mutable.\n\n## 201\n\nVote.\n\n## 301\n\nNew.\n", file="r.md")
    assert [rule.rule_class for rule in said.rules] == ["Immutable Rules", "Immutable Rules", "Mutable Rules", None]
    assert said.guessed == [Note("r.md", 5, "rules 101-102, 201 classed by Suber's numbering (immutable in the "
                                            "100s, mutable in the 200s), which rule 102 says applies")]


def test_hostile_json_and_markdown_are_refused_or_read_never_a_crash() -> None:
    with pytest.raises(RulesetImportError, match="^not JSON: nested too deep$"):  # (a file holds no such line)
        read_ruleset("[\n" * 100_000 + "]\n" * 100_000, file="deep.json")
    chain = {f"t{n}": {"tag": f"t{n}", "title": f"T{n}", "content": "x", "parent_tag": f"t{n - 1}" if n else "root",
                       "child_tags": [f"t{n + 1}"]} for n in range(20_000)}
    read = read_ruleset(__import__("json").dumps({"rules": chain}), file="rules.json")
    assert len(read.rules) == 20_000 and read.rules[-1].label == "t19999"
    # Fences never closed: in Markdown one runs to the rule's end and is closed there (not on into rule 2); in plain
    # text none is a fence. No line is looked at again for each one.
    fences = "## 1\n\n" + "~~~ x\n" * 10_000 + "\n## 2\n\nTwo.\n"
    markdown = read_ruleset(fences, file="r.md")
    assert markdown.rules[0].text.endswith("~~~ x\n~~~") and markdown.rules[0].text.count("~~~ x") == 10_000
    rules_md = render_ruleset("T", markdown.rules)
    assert [rule.number for rule in parse_ruleset(rules_md, "rules.md", ErrorCollector()).rules] == [1, 2]
    assert [rule.number for rule in read_ruleset(fences, file="r.txt").rules] == [1, 2]


def test_a_list_item_followed_at_once_by_a_block_of_its_own_ends_the_list() -> None:
    """A quote, a fence or a table right under a list item (no blank line between) ends the list; the block is
    read as itself (the reader once looped for ever on the quote)."""
    read = read_ruleset("## 1\n\n- vote\n> a note\n\n- tally\n\n  ```\n  x\n  ```\n\n## 2\n\nTwo.\n", file="r.md")
    assert read.rules[0].text == "- vote\n\n> a note\n\n- tally\n\n  ```\n  x\n  ```"  # a fence as written
    assert [rule.number for rule in read.rules] == [1, 2]


def test_a_heading_numbered_as_a_part_of_a_rule_is_a_heading_in_its_text() -> None:
    """Sections numbered 2.0, 2.1, 2.1.1 under rule 2, more of them than rules: the rules are still the whole
    numbers, each part a heading inside its rule (never a second rule 2)."""
    text = ("# Rules\n\n## 1  FIRST\nText one.\n\n## 2  AGENDA\nIntro.\n\n### 2.0  START\nText a.\n\n"
            "### 2.1  MIDDLE\nText b.\n\n### 2.1.1  DEEPER\nText c.\n\n### 2.2  END\nText d.\n")
    read = read_ruleset(text, file="RULES.md")
    assert [(rule.number, rule.title) for rule in read.rules] == [(1, "FIRST"), (2, "AGENDA")]
    assert read.rules[1].text == ("Intro.\n\n#### 2.0 START\n\nText a.\n\n#### 2.1 MIDDLE\n\nText b.\n\n"
                                  "#### 2.1.1 DEEPER\n\nText c.\n\n#### 2.2 END\n\nText d.")


def test_a_rule_whose_heading_slipped_a_level_is_a_rule_in_its_place() -> None:
    """Rules headed `##N` with one headed `#N` or `###N` among them, numbered between its neighbours: a rule
    whose heading slipped a level (its text neither left out nor run into the rule above). A heading of another
    level numbered out of the sequence is not one."""
    text = ("#Our rules\n\n##101 Immutable - Play\n\nPlay fair.\n\n#102 Immutable - Vote\n\nVote once.\n\n"
            "##103 Immutable - Count\n\nCount the votes.\n\n###104 - Score\n\nKeep a score.\n\n"
            "##105 - Win\n\nWin at ten.\n\n###1 - Note\n\nA part of rule 105.\n")
    read = read_ruleset(text, file="rules.md")
    assert [(rule.number, rule.title, rule.text) for rule in read.rules] == [
        (101, "Play", "Play fair."), (102, "Vote", "Vote once."), (103, "Count", "Count the votes."),
        (104, "Score", "Keep a score."), (105, "Win", "Win at ten.\n\n###1 - Note\n\nA part of rule 105.")]
    assert read.left_out == []


def test_html_tags_in_a_markdown_rule_are_read_as_markdown_and_said(tmp_path, capsys) -> None:
    """A README's rules carry inline HTML (`H<sub>2</sub>O`, `<b>`, a link), which the site would show as written:
    read as their Markdown or dropped, and said; a code span keeps its tags as written."""
    rules = tmp_path / "README.md"
    rules.write_text("# Rules\n\n## 101. Water\nWater is H<sub>2</sub>O.<br>\nA <b>bold</b> rule, see "
                     "<a href=\"https://example.org/x\">the site</a>.\n\n## 102. Code\nWrite `<b>` to bold.\n",
                     encoding="utf-8")
    assert main(["import", "text", str(rules)]) == 0
    out, err = capsys.readouterr()
    assert "### 101. Water\nWater is H₂O.\\\n        A **bold** rule, see [the site](https://example.org/x).\n" in out
    assert "### 102. Code\nWrite `<b>` to bold.\n" in out
    assert f"{rules}:4: HTML tags (<a>, <b>, <br>, <sub>) written as their Markdown or dropped" in err


@pytest.mark.parametrize("html, markdown", [
    ("the 4<sup>th</sup> turn, note<sup>1</sup>, x<sup>n+1</sup>", "the 4th turn, note¹, xⁿ⁺¹"),  # (raised if it can be)
    ("KOMIKER <br> <br> One player <br>", "KOMIKER\\\n        One player"),  # (one hard break between, none after)
    ("- one<br>more\n- two", "- one\\\n        more\n- two"),  # (the item goes on)
    ("| a<br>b | c |\n|---|---|", "| a b | c |\n|---|---|"),  # (a row stays one line)
    ("<b>a</b> <i>b</i> <em>c</em>", "**a** *b* *c*"),
])
def test_a_rules_html_tags_as_markdown(html, markdown) -> None:
    from generator.importers.mdtext import rule_markdown
    assert rule_markdown(html.split("\n"))[0] == markdown


PLACED_RULES = """# Rules of a game - 19 July 2007

### Rule 0: In Case of Emergency

Anyone may press the button.

## Section 1: Foundation

### Rule 1-1: The Game

The name of this game is B.

### Rule 1-12 Eras

An era ends when the players say so.

## Section 2: Gameplay

### 2-3. Turns

A turn lasts 7-day weeks.
"""


def test_rules_numbered_within_a_section_or_an_era_keep_their_places() -> None:
    """B Nomic numbers its rules within sections (`Rule 1-12`) and, later, eras (`Rule 4E83`): each is a rule of its
    own, numbered by section and place, the section in thousands, its key kept and the guess said; a date in the
    file's title and "7-day" in a rule's text are no such numbers."""
    read = read_ruleset(PLACED_RULES)
    assert [(rule.number, rule.title, rule.key, rule.topic) for rule in read.rules] == [
        (0, "In Case of Emergency", None, None), (1001, "The Game", "1-1", "Section 1: Foundation"),
        (1012, "Eras", "1-12", "Section 1: Foundation"), (2003, "Turns", "2-3", "Section 2: Gameplay")]
    assert read.rules[3].text == "A turn lasts 7-day weeks."
    assert read.guessed == [Note(None, 9, "rules known by a section or an era and a place are numbered by both, the "
                                          "section in thousands: 1-1 = 1001, 1-12 = 1012, 2-3 = 2003")]
    era = read_ruleset("# Rules - 27 August 2008\n\n## Foundation\n\n### Rule 4E83: The Game of Monopoly\n\n"
                       "Monopoly is played.\n\n### Rule 4E2: Game Objects\n\nObjects exist.\n")
    assert [(rule.number, rule.title, rule.key) for rule in era.rules] == [
        (4083, "The Game of Monopoly", "4E83"), (4002, "Game Objects", "4E2")]


def test_a_ruleset_numbered_by_sections_becomes_a_game_that_checks(tmp_path, capsys) -> None:
    source = tmp_path / "b-nomic.md"
    source.write_text(PLACED_RULES, encoding="utf-8")
    assert main(["import", "text", str(source), "-o", str(tmp_path / "rules.md")]) == 0
    assert "1-12 = 1012" in capsys.readouterr().err
    assert main(["new", str(tmp_path / "game"), "--rules", str(tmp_path / "rules.md"), "--player", "Ann",
                 "--player", "Bob"]) == 0
    assert main(["check", str(tmp_path / "game")]) == 0
    rules = (tmp_path / "game" / "rules.md").read_text(encoding="utf-8")
    assert "### 1012. Eras" in rules and "### 0. In Case of Emergency" in rules


def test_a_title_in_quotes_between_the_number_and_the_class_names_the_rule() -> None:
    """A dead game's page writes `101/0 "Title" (Immutable)`: rule 101, revision 0, its title, its class; not text
    of the rule before it, nor page furniture."""
    read = read_ruleset('Our Association\n101/0 "Play By The Rules" (Immutable)\n\nEveryone obeys.\n\n\n'
                        "102/0 (Immutable)\n\nRules start immutable.\n\n\n"
                        "318/1 \u201cMore Rules!\u201d (Mutable)\n\nNo more than 150 rules.\n")
    assert [(rule.number, rule.revision, rule.title, rule.rule_class) for rule in read.rules] == [
        (101, 0, "Play By The Rules", "Immutable Rules"), (102, 0, None, "Immutable Rules"),
        (318, 1, "More Rules!", "Mutable Rules")]
    assert read.rules[2].text == "No more than 150 rules."


@pytest.mark.parametrize("immutable, mutable", [("I. Immutable Rules", "II. Mutable Rules"),
                                                 ("Initial Imutable Rules", "Initial Mutable Rules"),
                                                 ("A) The Immutable Rules:", "B) The Mutable Rules:")])
def test_class_headings_as_dead_games_pages_write_them(immutable, mutable) -> None:
    """An outline's numeral before a class heading, `Initial` before it, or its word a letter short, is a class
    heading still: it ends the rule before it, never its text."""
    read = read_ruleset(f"Nomic\n\n   {immutable}\n\n101. Obey the rules.\n102.\nRules start immutable.\n\n"
                        f"   {mutable}\n\n201. Take turns.\n")
    assert [(rule.number, rule.rule_class, rule.text) for rule in read.rules] == [
        (101, "Immutable Rules", "Obey the rules."),
        (102, "Immutable Rules", "Rules start immutable."), (201, "Mutable Rules", "Take turns.")]


def test_a_forum_posts_lists_under_class_headings_are_its_rules_numbered_by_place() -> None:
    """A forum game numbers no rules: `#Immutable rules:` and a list under it, `#New rules:` and another. Each
    item is a rule, numbered by its place, of its heading's class (none under another heading); the words around
    the lists are left out, each said; the guess is said."""
    read = read_ruleset("I will try to start a game here.\n#Immutable rules:\n*Rules can never be removed.\n"
                        "*The judge is not a player,\n  nor ever becomes one.\n#New rules:\n* The first to 30 points "
                        "wins:\n  - by dice,\n  - or by votes.\nHave fun!\n")
    assert [(rule.number, rule.rule_class, rule.text) for rule in read.rules] == [
        (1, "Immutable Rules", "Rules can never be removed."),
        (2, "Immutable Rules", "The judge is not a player, nor ever becomes one."),
        (3, None, "The first to 30 points wins:\n\n- by dice,\n- or by votes.")]
    assert read.left_out == [Note(None, 1, "line 1, before the first rule, not a rule"),
                             Note(None, 10, "line 10, not in a list of rules, not a rule")]
    assert read.guessed == [Note(None, 3, "the file numbers no rules: each of the 3 items of its lists under class "
                                          "headings is read as a rule, numbered 1 to 3 by its place in the file")]


def test_a_markdown_file_of_class_headings_over_lists_is_read_item_by_item_not_as_an_outline() -> None:
    read = read_ruleset("# Our game\n\n## Immutable Rules\n\n- Rules can never be removed.\n\n## Mutable Rules\n\n"
                        "- The first to 30 points wins.\n- A proposal needs a majority.\n", file="rules.md")
    assert [(rule.number, rule.rule_class, rule.text) for rule in read.rules] == [
        (1, "Immutable Rules", "Rules can never be removed."), (2, "Mutable Rules", "The first to 30 points wins."),
        (3, "Mutable Rules", "A proposal needs a majority.")]


def test_a_list_of_numbered_rules_is_read_rule_by_rule() -> None:
    """A wiki's or a forum's rules as a list, `* 201. text` (a rule's whole text in bold too, as a wiki page
    leaves it: `*'''101. text`): each item a rule; items under one, `- 1. of those voting`, its list."""
    read = read_ruleset("Rules of our game\n\n- **101. Everyone must obey the rules in force.**\n"
                        "* 201. Only three rules may be voted on at a time.\n"
                        "* 203. A rule-change is adopted by a majority:\n  - 1. of those voting,\n  - 2. within a day.\n")
    assert [(rule.number, rule.title, rule.text) for rule in read.rules] == [
        (101, None, "Everyone must obey the rules in force."),
        (201, None, "Only three rules may be voted on at a time."),
        (203, None, "A rule-change is adopted by a majority:\n\n- 1\\. of those voting,\n- 2\\. within a day.")]


def test_a_heading_right_over_a_numbered_rule_is_the_topic_of_the_rules_under_it() -> None:
    """`## Voting` then `201. ...`: the rules under it are of that topic, and it is no text of the rule before;
    a heading over a rule's own text (`### Exceptions`, then words) stays in the rule."""
    read = read_ruleset("# Rules\n\n## Players\n\n101. Everyone must obey the rules.\n\n### Exceptions\n\n"
                        "None yet.\n\n102. Players take turns.\n\n## Voting\n\n201. A majority adopts.\n",
                        file="rules.md")
    assert [(rule.number, rule.topic) for rule in read.rules] == [(101, "Players"), (102, "Players"),
                                                                   (201, "Voting")]
    assert "Exceptions" in read.rules[0].text and "Voting" not in read.rules[1].text


def test_a_mailed_ruleset_of_the_nineties_classes_in_capitals_and_each_rules_origin_noted() -> None:
    """A list's ruleset mail: `IMMUTABLE` over the class, `Rule 101. [immutable] (Initial Rule)` with the title on
    the next line (a question too, where every rule is titled so), `Rule 201. [mutable] by Storm, last changed
    ...`: the class, the title, and the note of where the rule came from as its History line, none of it text."""
    read = read_ruleset("Subject: Current rule set\n\nIMMUTABLE\n\nRule 101. [immutable] (Initial Rule)\n"
                        "Obey The Rules\nAll players must always obey the rules then in effect.\n\nMUTABLE\n\n"
                        "Rule 201. [mutable] by Storm, last changed Tue Jan 19 1993\nWho plays next?\n"
                        "Players take turns in alphabetical order.\n")
    assert [(rule.number, rule.rule_class, rule.title, rule.text, [said for _, said in rule.history])
            for rule in read.rules] == [
        (101, "Immutable Rules", "Obey The Rules", "All players must always obey the rules then in effect.",
         ["Initial Rule"]),
        (201, "Mutable Rules", "Who plays next?", "Players take turns in alphabetical order.",
         ["by Storm, last changed Tue Jan 19 1993"])]


def test_asterisks_before_a_rule_and_its_history_line_under_it_are_not_its_title() -> None:
    """A later ruleset of the same list marks each rule's class with asterisks too (`**` immutable, `*` mutable),
    lists what it holds in numbered notes first, and writes the proposals that made a rule under its number."""
    read = read_ruleset("NOTES:\n1. Rules are listed in numerical order.\n2. A ** marks an immutable rule.\n\n"
                        "**Rule 101. [immutable] (Initial Rule)\nObey The Rules\nAll players must obey the rules.\n\n"
                        "*Rule 103. [mutable] by Storm, last changed Tue Jan 19 1993\nHistory:103,1064,1094\n"
                        "What proposals may do\nA proposal may enact, amend or repeal a rule.\n")
    assert [(rule.number, rule.rule_class, rule.title, [said for _, said in rule.history]) for rule in read.rules] == [
        (101, "Immutable Rules", "Obey The Rules", ["Initial Rule"]),
        (103, "Mutable Rules", "What proposals may do", ["by Storm, last changed Tue Jan 19 1993", "103,1064,1094"])]
    assert read.rules[1].text == "A proposal may enact, amend or repeal a rule."


def test_a_line_in_emphasis_saying_who_proposed_a_rule_and_when_is_its_history() -> None:
    """A keeper who closes each rule with who proposed it and who amended it last, in italics after a hard
    break: its history, not its text."""
    read = read_ruleset("Mutable Rules\n=============\n\n**201** Turns go clockwise.  \n*Proposed by Founders on "
                        "N/A, last amended by Kit (305) on 2/3/12*\n\n**301** Tea at four.  \n*Proposed by Lu on "
                        "1/5/12, last amended by N/A on N/A*\n", file="mutable_rules.md")
    assert [(rule.number, rule.text, [said for _, said in rule.history]) for rule in read.rules] == [
        (201, "Turns go clockwise.", ["*Proposed by Founders on N/A, last amended by Kit (305) on 2/3/12*"]),
        (301, "Tea at four.", ["*Proposed by Lu on 1/5/12, last amended by N/A on N/A*"])]


def test_a_markdown_list_written_1_throughout_is_numbered_as_the_page_shows_it(capsys) -> None:
    """A keeper who lets Markdown number the list writes every item `1.` (or `0.`, the page then counting from 0):
    the items at the margin are the rules, numbered by their place, a guess said; the items under each are its
    list, dedented so as not to be read as code."""
    text = ("# Rules\n\n1. Play fair.\n1. Turns\n    1. Each player has one.\n        1. In order.\n"
            "    1. Nobody skips.\n1. The first to 10 points wins.\n")
    read = read_ruleset(text, file="rules.md")
    assert [(rule.number, rule.text) for rule in read.rules] == [
        (1, "Play fair."), (2, "Turns\n\n1. Each player has one.\n    1. In order.\n1. Nobody skips."),
        (3, "The first to 10 points wins.")]
    assert [note.message for note in read.guessed] == ["each of its 3 rules is written '1.' (Markdown numbers a "
                                                       "list's items itself): numbered 1 to 3 by their place, as "
                                                       "the page shows them"]
    assert not read.left_out
    assert [rule.number for rule in read_ruleset(text.replace("1.", "0."), file="rules.md").rules] == [0, 1, 2]
    # numbers that differ are the keeper's own
    assert [rule.number for rule in read_ruleset("1. A.\n2. B.\n2. C.\n3. D.\n", file="rules.md").rules] == [1, 2, 3]


def test_one_heading_over_a_files_rules_is_its_title_and_a_bold_title_may_end_in_a_colon() -> None:
    """`## Rules` over every rule of a file is its title, no topic; `- **Rule 22: Redistribution:**` is rule 22
    titled so, its text under it."""
    read = read_ruleset("## Rules\n\n101: **Victory**\nThe first to 100 points wins.\n\n102: **Points**\n"
                        "Everyone starts at 0.\n")
    assert [(rule.number, rule.topic) for rule in read.rules] == [(101, None), (102, None)]
    read = read_ruleset("- **Rule 21: Taxes:**\nEach player pays a coin.\n\n- **Rule 22: Redistribution of wealth:**\n"
                        "The bank shares its coins.\n")
    assert [(rule.number, rule.title, rule.text) for rule in read.rules] == [
        (21, "Taxes", "Each player pays a coin."), (22, "Redistribution of wealth", "The bank shares its coins.")]


def test_rules_numbered_below_zero_or_in_roman_numerals_get_numbers_and_keep_theirs_as_labels(tmp_path, capsys) -> None:
    """A game numbered its starting rules below zero (`### Rule -202.`), so that its proposals could take the
    numbers from 1, and before that in Roman numerals (`### Rule ii.`): each is a rule numbered so that rules.md can
    write it (below zero: down from 1,000,000,000, above any number another rule is read under, in the game's order;
    a numeral: its value), the record's name its label, said as a guess; the lists inside them stay their text."""
    source = tmp_path / "rules.md"
    source.write_text("# Our Game\n\n### Rule -202.\n\nA rule-change is any of:\n\n1. a new rule;\n2. a repeal.\n\n"
                      "### Rule -201.\n\nProposals are numbered from 1 up.\n\n1. one\n", encoding="utf-8")
    assert main(["import", "text", str(source), "-o", str(tmp_path / "out.md")]) == 0
    said = capsys.readouterr().err
    assert f"{source}:3: guessed: rules numbered below zero are numbered down from 1,000,000,000, in the game's " \
        "order, above any other rule's number: -202 = 999999798, -201 = 999999799" in said
    written = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert "### 999999798\nLabel: -202\n\nA rule-change is any of:\n\n1. a new rule;\n2. a repeal.\n" in written
    assert "### 999999799\nLabel: -201\n" in written
    read = read_ruleset("## Immutable Rules\n\n### Rule xix.\n\nAll play.\n\n### Rule XX: Title\n\nVoting.\n\n"
                        "### Rule mix up\n\nNot a numeral.\n")
    assert [(rule.number, rule.label, rule.title) for rule in read.rules] == [(19, "xix", None), (20, "XX", "Title")]


@pytest.mark.parametrize("ending, kept", [
    ("Best regards,\nAnn Smith", False), ("Cheers, Ann", False), ("Thanks! -- Bo", False),
    ("Love thy neighbour.", True), ("Thanks are due to the Judge.", True),
])
def test_a_mails_sign_off_after_the_last_rule_is_left_out_and_said(ending, kept):
    """A closing word opening the last paragraph, a name or two after it, is the mail's, not the last rule's; a rule's
    own last sentence is longer, or names no one."""
    text = f"101. All players must obey the rules.\n\n201. Turns go clockwise.\n\n{ending}\n"
    read = read_ruleset(text, file="mail.txt")
    assert (ending.split("\n")[0] in read.rules[-1].text) == kept
    lines = "lines 5-6" if ending.count("\n") else "line 5"
    assert [note.message for note in read.left_out] == ([] if kept else [
        f"{lines}, after the rules, not a rule (a signature or a sign-off, or text repeated from before the rules)"])
