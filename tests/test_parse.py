"""The parsers: game.toml (every setting), rules.md and snapshots, the log (keys, votes, change paragraphs,
blockquotes), the encodings accepted, and the line number of everything a finding may point at."""
from __future__ import annotations

import datetime as dt
import operator
import sqlite3
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.errors import ArchiveError, ErrorCollector
from generator.model import Event, Judgment, Proposal, Source
from generator.model.config import POWER_KEYS, SETTINGS, Config
from generator.parse.config import locate_keys, parse_config, parse_effect_value
from generator.parse.game import load_game
from generator.parse.log import LogParser, _block_markdown, _plain_entry_tokens, parse_log, split_entries
from generator.parse.rules import parse_rule_heading, parse_ruleset
from generator.parse.source import decode, unquote

TOML = "g/game.toml"
LOG = "g/log.md"
RULES = "g/rules.md"


def config_of(text: str) -> tuple[Config, list[str]]:
    errors = ErrorCollector()
    config = parse_config(text, TOML, errors)
    return config, [str(e) for e in errors.errors]


def entries_of(text: str, file: str = LOG, parser=None) -> tuple[list, list[str]]:
    errors = ErrorCollector()
    _, entries = parse_log([(file, text)], errors, parser=parser)
    return entries, [str(e) for e in errors.errors]


def ruleset_of(text: str, *, snapshot: bool = False, file: str = RULES):
    errors = ErrorCollector()
    ruleset = parse_ruleset(text, file, errors, snapshot=snapshot)
    return ruleset, [str(e) for e in errors.errors]


def proposal(body: str = "", keys: str = "", number: int = 301) -> str:
    return f"## Proposal {number}\nProposer: Alice\nDate: 1982-06-03\n{keys}\n{body}"


def one_change(body: str):
    entries, errors = entries_of(proposal(body))
    assert errors == []
    assert len(entries[0].changes) == 1, entries[0].changes
    return entries[0].changes[0]


# --- game.toml ------------------------------------------------------------------------------------------

# One valid, non-default value of every setting, as TOML source and as the parsed value.
EVERY_SETTING = {
    "title": ('"A game"', "A game"),
    "description": ('"By mail"', "By mail"),
    "start": ("1982-06-01", dt.date(1982, 6, 1)),
    "players": ('["Alice", " Bob "]', ("Alice", "Bob")),
    "variant": ('"solitaire"', "solitaire"),
    "numbering.first_proposal": ("1", 1),
    "numbering.amend_renumbers": ("false", False),
    "numbering.enact_takes_proposal_number": ("false", False),
    "adoption.method": ('"fraction"', "fraction"),
    "adoption.fraction": ("0.9", 0.9),
    "adoption.then": ('"majority"', "majority"),
    "adoption.after_circuits": ("3", 3),
    "adoption.unless_amended": ("206", 206),
    "adoption.transmutation": ('"majority"', "majority"),
    "scoring.turn": ('"formula"', "formula"),
    "scoring.die": ('"2d6"', "2d6"),
    "scoring.formula": ('"votes_for * 2 - die"', "votes_for * 2 - die"),
    "scoring.rounding": ('"half-even"', "half-even"),
    "scoring.adopted": ("5", 5),
    "scoring.defeated": ("-5", -5),
    "scoring.against_adopted": ("0", 0),
    "scoring.win": ("200", 200),
    "scoring.after_win": ("\"reset\"", "reset"),
    "limits.max_mutable": ("0", 0),
    "turns.order": ('"custom"', "custom"),
    "turns.collation": ('"_0123456789abcdefghijklmnopqrstuvwxyz"', "_0123456789abcdefghijklmnopqrstuvwxyz"),
    "numbering.in_order": ("false", False),
    "numbering.next_rule": ("2723", 2723),
    "adoption.index": ("1.7", Fraction(17, 10)),  # exact: seventeen tenths, not the float nearest 1.7
    "adoption.quorum": ("5", 5),
    "rules.power": ("true", True),
    "rules.power_default": ("0.5", Fraction(1, 2)),
    "rules.power_cap": ("4", Fraction(4)),
    "rules.power_exempt": ("3.0", Fraction(3)),
    "solitaire.tick": ('"before"', "before"),
    "solitaire.subsumer_cap": ("false", False),
    "solitaire.divide_initial": ("false", False),
    "solitaire.words": ('"letters"', "letters"),
    "solitaire.actions": ('"immutable"', "immutable"),
}


def test_every_setting_is_covered_here():
    assert set(EVERY_SETTING) == set(SETTINGS)


def test_every_setting_reads_in_its_section():
    sections: dict[str, list[str]] = {}
    for key, (source, _) in EVERY_SETTING.items():
        section, _, name = key.rpartition(".")
        sections.setdefault(section, []).append(f"{name} = {source}")
    text = "\n".join(sections.pop(""))
    for section, lines in sections.items():
        text += f"\n\n[{section}]\n" + "\n".join(lines)
    config, errors = config_of(text)
    assert errors == []
    for key, (_, value) in EVERY_SETTING.items():
        assert config.get(key) == value, key
        assert config.get(key) != Config().get(key) or key == "turns.collation", f"{key}: pick a non-default value"


@pytest.mark.parametrize("key", [k for k in EVERY_SETTING if "." in k])
def test_every_setting_reads_as_a_dotted_key(key):
    source, value = EVERY_SETTING[key]
    extra = 'adoption.fraction = 0.5\n' if key == "adoption.method" else ""
    extra += "rules.power = true\n" if key in POWER_KEYS else ""
    extra += 'variant = "solitaire"\n' if key.startswith("solitaire.") else ""
    config, errors = config_of(f"{key} = {source}\n{extra}")
    assert errors == [] and config.get(key) == value


def test_defaults_are_suber_initial_set():
    config, errors = config_of('title = "Three lines"\nstart = 1982-06-01\nplayers = ["A", "B", "C"]\n')
    assert errors == []
    assert (config.numbering.first_proposal, config.numbering.amend_renumbers,
            config.numbering.enact_takes_proposal_number) == (301, True, True)
    assert (config.adoption.method, config.adoption.then, config.adoption.transmutation) == ("unanimous", None, "unanimous")
    assert (config.scoring.turn, config.scoring.die, config.scoring.defeated, config.scoring.against_adopted,
            config.scoring.adopted, config.scoring.win) == ("die", "d6", -10, 10, 0, 100)
    assert config.limits.max_mutable == 25
    assert config.turns.order == "seating"


def test_inline_table_section():
    config, errors = config_of('scoring = {win = 50, die = "d8"}\n')
    assert errors == [] and (config.scoring.win, config.scoring.die) == (50, "d8")


@pytest.mark.parametrize("text, message", [
    ('[scoring]\nwin = "100"\n', 'g/game.toml:2: scoring.win must be an integer, not a string ("100")'),
    ('[scoring]\nwin = true\n', "g/game.toml:2: scoring.win must be an integer, not a boolean (true)"),
    ('[numbering]\nfirst_proposal = 1.5\n', "g/game.toml:2: numbering.first_proposal must be an integer, not a number (1.5)"),
    ('[numbering]\namend_renumbers = "yes"\n',
     'g/game.toml:2: numbering.amend_renumbers must be true or false, not a string ("yes")'),
    ('[adoption]\nfraction = "0.9"\nmethod = "fraction"\n',
     'g/game.toml:2: adoption.fraction must be a number, not a string ("0.9")'),
    ('title = 5\n', "g/game.toml:1: title must be a string, not an integer (5)"),
    ('players = "Alice"\n', 'g/game.toml:1: players must be a list of names, e.g. ["Alice", "Bob"]'),
    ('players = ["Alice", ""]\n', 'g/game.toml:1: players must be a list of names, e.g. ["Alice", "Bob"]'),
    ('players = ["Alice", "Alice "]\n', "g/game.toml:1: players names 'Alice' twice"),
    ('start = "June 1982"\n', 'g/game.toml:1: start must be a date like 1982-06-01, not "June 1982"'),
    ('start = 5\n', "g/game.toml:1: start must be a date like 1982-06-01, not 5"),
])
def test_wrong_types(text, message):
    assert config_of(text)[1] == [message]


@pytest.mark.parametrize("text, message", [
    ('[turns]\norder = "clockwise"\n', 'g/game.toml:2: turns.order must be one of "seating", "alphabetical", '
     '"surname", "custom", "rotating", "none", not "clockwise"'),
    ('[adoption]\nmethod = "Majority"\n', 'g/game.toml:2: adoption.method must be one of "unanimous", "majority", '
     '"fraction", "index", not "Majority"'),
    ('[adoption]\nthen = "plurality"\n', 'g/game.toml:2: adoption.then must be one of "unanimous", "majority", '
     '"fraction", "index", not "plurality"'),
    ('[scoring]\nturn = 1\n', 'g/game.toml:2: scoring.turn must be one of "die", "formula", "none", not 1'),
    ('variant = "team"\n', 'g/game.toml:1: variant must be one of "standard", "solitaire", not "team"'),
    ('variant = "solitaire"\n[solitaire]\ntick = "during"\n',
     'g/game.toml:3: solitaire.tick must be one of "after", "before", not "during"'),
    ('[scoring]\nrounding = "up"\n', 'g/game.toml:2: scoring.rounding must be one of "half-up", "half-even", '
     '"down", "floor", "ceiling", not "up"'),
])
def test_bad_choices(text, message):
    assert config_of(text)[1] == [message]


@pytest.mark.parametrize("text, message", [
    ('[adoption]\nfraction = 1.5\n', "g/game.toml:2: adoption.fraction must be more than 0 and at most 1, not 1.5"),
    ('[adoption]\nfraction = 0\n', "g/game.toml:2: adoption.fraction must be more than 0 and at most 1, not 0"),
    ('[scoring]\nwin = 0\n', "g/game.toml:2: scoring.win must be a positive integer, not 0"),
    ('[numbering]\nfirst_proposal = -3\n', "g/game.toml:2: numbering.first_proposal must be a whole number, 0 or more, not -3"),
    ('[limits]\nmax_mutable = -1\n', "g/game.toml:2: limits.max_mutable must not be negative, not -1"),
    ('[adoption]\nafter_circuits = -1\n', "g/game.toml:2: adoption.after_circuits must not be negative, not -1"),
    ('[adoption]\nunless_amended = -1\n', "g/game.toml:2: adoption.unless_amended must be a rule number, not -1"),
    ('[scoring]\ndie = "d1"\n', 'g/game.toml:2: scoring.die: not dice notation: "d1" (expected e.g. "d6" or "2d6": 1 to 100 '
     'dice of 2 to 1000 sides)'),
    ('[scoring]\nformula = "proposal ** 2"\n', "g/game.toml:2: scoring.formula: '**' is not allowed"),
    ('[turns]\ncollation = "abcA"\n', "g/game.toml:2: turns.collation lists a character twice"),
    ('[adoption]\nmethod = "fraction"\n',
     'g/game.toml:2: adoption.method is "fraction" but adoption.fraction is not set'),
    ('title = "x"\n[solitaire]\ntick = "before"\n',
     'g/game.toml:2: [solitaire] applies only to a game with variant = "solitaire"'),
])
def test_values_out_of_range(text, message):
    assert config_of(text)[1] == [message]


def test_optional_settings_may_be_emptied():
    config, errors = config_of('[adoption]\nthen = ""\nunless_amended = ""\n')
    assert errors == [] and config.adoption.then is None and config.adoption.unless_amended is None


def test_unknown_keys_suggest_the_nearest_setting():
    assert config_of('[adoption]\nmethd = "majority"\n')[1] == [
        "g/game.toml:2: unknown setting 'adoption.methd' (did you mean 'adoption.method'?)"]
    assert config_of('titel = "x"\n')[1] == ["g/game.toml:1: unknown setting 'titel' (did you mean 'title'?)"]
    assert config_of('colour = "red"\n')[1] == ["g/game.toml:1: unknown setting 'colour'"]


def test_a_section_written_as_a_value():
    assert config_of('adoption = "majority"\n')[1] == ["g/game.toml:1: 'adoption' must be a table: [adoption]"]


def test_toml_syntax_errors_name_line_and_column():
    assert config_of('title = "x"\nplayers = ["A", "B" "C"]\n')[1] == [
        "g/game.toml:2:21: not valid TOML: Unclosed array"
        "; a list opened with [ above is not closed: end it with ], its items quoted and separated by commas"]
    assert config_of('title = "x"\ntitle = "y"\n')[1] == [
        "g/game.toml:2:12: not valid TOML: Cannot overwrite a value; this setting is set twice: keep one"]


def test_every_problem_in_game_toml_is_reported():
    _, errors = config_of('[scoring]\nwin = 0\ndie = "x"\n\n[turns]\norder = "up"\n')
    assert [e.split(":")[1] for e in errors] == ["2", "3", "6"]


def test_locate_keys():
    text = 'title = "x"\n\n[adoption]\n# a comment\nmethod = "majority"\n"fraction" = 0.5\n[ scoring ]\nwin = 5\n'
    assert locate_keys(text) == {"title": 1, "adoption": 3, "adoption.method": 5, "adoption.fraction": 6,
                                 "scoring": 7, "scoring.win": 8}


def test_with_value_validates_and_copies():
    config = Config()
    changed = config.with_value("scoring.win", 200)
    assert (changed.scoring.win, config.scoring.win) == (200, 100)
    with pytest.raises(ValueError, match="did you mean 'scoring.win'"):
        config.with_value("scoring.wins", 200)
    with pytest.raises(ValueError, match="must be one of"):
        config.with_value("adoption.method", "plurality")


@pytest.mark.parametrize("text, value", [('"majority"', "majority"), ("200", 200), ("0.75", 0.75), ("true", True),
                                         ('["A", "B"]', ["A", "B"])])
def test_effect_values_are_toml(text, value):
    assert parse_effect_value(text) == value


def test_effect_value_needs_quotes_for_strings():
    with pytest.raises(ValueError, match=r'not a TOML value: majority \(strings need quotes: "majority"\)'):
        parse_effect_value("majority")


# --- rules.md and snapshots -----------------------------------------------------------------------------

RULES_TEXT = """# Initial Set of Rules

Some words before the first rule.

## Immutable Rules

### 101
All players must always abide by all the rules.

### 102. Initial status
Initially rules in the 100's are immutable.

## Mutable Rules

### 201: Order
Players alternate.

| a | b |
|---|---|
| 1 | 2 |

- a list
- in a rule

### 202 Two words
One die.
"""


def test_ruleset_numbers_titles_classes_texts_and_lines():
    ruleset, errors = ruleset_of(RULES_TEXT)
    assert errors == []
    assert ruleset.title == "Initial Set of Rules"
    assert [(r.number, r.rule_class, r.title, r.source.line) for r in ruleset.rules] == [
        (101, "immutable", "", 7), (102, "immutable", "Initial status", 10), (201, "mutable", "Order", 15),
        (202, "mutable", "Two words", 25)]
    assert ruleset.rules[2].text == "Players alternate.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- a list\n- in a rule"
    assert ruleset.rules[0].text == "All players must always abide by all the rules."


@pytest.mark.parametrize("heading, parsed", [("101", (101, "")), ("102. Initial status", (102, "Initial status")),
                                             ("103: Title", (103, "Title")), ("104 Title words", (104, "Title words")),
                                             ("105.", (105, "")), ("0", (0, "")), ("-3", (None, "")),
                                             ("12a", (None, "")), ("Rule 5", (None, "5"))])
def test_rule_headings(heading, parsed):
    assert parse_rule_heading(heading) == parsed


def test_rule_appears_twice():
    _, errors = ruleset_of("## Mutable Rules\n\n### 203\nOne.\n\n### 204\nTwo.\n\n### 203\nThree.\n")
    assert errors == ["g/rules.md:9: rule 203 appears twice (first at line 3)"]


def test_rule_outside_a_class_section_and_a_misspelt_class():
    _, errors = ruleset_of("# Title\n\n### 101\nNo class.\n\n## Imutabel rules\n\n### 102\nStill none.\n\n"
                           "## Mutable rules\n\n### 201\nFine.\n")
    outside = "is outside a class section (put it under '## Immutable Rules', '## Mutable Rules', or '## Rules' when " \
        "its class is not recorded)"
    assert errors == [
        f"g/rules.md:3: rule 101 {outside}",
        "g/rules.md:6: section 'Imutabel rules': did you mean 'immutable'? (a level-2 heading says 'Immutable' or "
        "'Mutable', or names no class for rules of no recorded class, as '## Rules')",
        f"g/rules.md:8: rule 102 {outside}"]


def test_a_section_that_names_no_class_holds_rules_of_no_recorded_class_in_any_order():
    """Format 1.3: `## Rules` (or any level-2 heading naming no class, a topic) gives its rules no class; rules may
    be numbered from 0 and stand in any order."""
    ruleset, errors = ruleset_of("# Title\n\n## Voting\n\n### 7. Ballots\nOne each.\n\n### 0\nThe first rule.\n\n"
                                 "## Mutable Rules\n\n### 3\nA mutable rule.\n")
    assert errors == []
    assert [(rule.number, rule.rule_class, rule.title) for rule in ruleset.rules] == [
        (7, "unrecorded", "Ballots"), (0, "unrecorded", ""), (3, "mutable", "")]


def test_a_level_one_heading_after_the_title_is_a_topic_that_ends_the_rule_before_it():
    """Format 1.3: `# Voting` groups the rules under it (their classes still by their level-2 headings)."""
    ruleset, errors = ruleset_of("# Title\n\n# Voting\n\n## Mutable Rules\n\n### 1\nOne.\n\n# Points\n\n"
                                 "## Immutable Rules\n\n### 2\nTwo.\n\n#### A part of rule 2\nStill two.\n")
    assert errors == []
    assert ruleset.title == "Title"
    assert [(rule.number, rule.rule_class, rule.text) for rule in ruleset.rules] == [
        (1, "mutable", "One."), (2, "immutable", "Two.\n\n#### A part of rule 2\nStill two.")]


def test_rule_number_not_a_whole_number():
    _, errors = ruleset_of("## Mutable Rules\n\n### -1\nMinus.\n\n### x1\nNo.\n")
    assert errors == ["g/rules.md:3: rule heading '-1' does not start with a whole number",
                      "g/rules.md:6: rule heading 'x1' does not start with a whole number"]


def test_no_rules_at_all():
    assert ruleset_of("# Nothing\n\nText.\n")[1] == [
        "g/rules.md:1: no rules found (a rule is a level-3 heading '### 101' under '## Immutable Rules' or "
        "'## Mutable Rules')"]


def test_snapshot_after_and_date():
    body = "\n# Rules\n\n## Mutable Rules\n\n### 201\nText.\n"
    after, errors = ruleset_of("After: proposal 312\n" + body, snapshot=True)
    assert errors == [] and (after.after_proposal, after.as_of) == (312, None)
    dated, errors = ruleset_of("date: 2005-04-02\n" + body, snapshot=True)
    assert errors == [] and (dated.after_proposal, dated.as_of) == (None, dt.date(2005, 4, 2))
    assert dated.rules[0].source.line == 7


def test_snapshot_must_say_where_it_stands():
    assert ruleset_of("# Rules\n\n## Mutable Rules\n\n### 201\nText.\n", snapshot=True)[1] == [
        "g/rules.md:1: a snapshot must say where it stands: a line 'After: proposal 312' or 'Date: 2005-04-02' "
        "before its first heading"]
    assert ruleset_of("After: proposal twelve\n\n## Mutable Rules\n\n### 201\nText.\n", snapshot=True)[1][0] == \
        "g/rules.md:1: 'After: proposal twelve' needs a proposal number"
    assert ruleset_of("Keeper: Bob\nDate: 2005-13-02\n\n## Mutable Rules\n\n### 201\nText.\n", snapshot=True)[1][0] \
        == "g/rules.md:2: '2005-13-02' is not a date like 2005-04-02"


def test_after_line_in_rules_md_is_just_text():
    ruleset, errors = ruleset_of("After: proposal 312\n\n## Mutable Rules\n\n### 201\nText.\n")
    assert errors == [] and ruleset.after_proposal is None


# --- the log: entries and keys --------------------------------------------------------------------------

LOG_TEXT = """# The log

A preamble.

## Proposal 301: A week to vote
Proposer: Alice
Date: 1982-06-03
Votes: for Alice, Bob; against Carol; abstain Dave
Result: Adopted.
Die: 4
Points: Bob +5 (rule 316)
Points: Carol -2
Scores: Alice 4, Bob 5, Carol -2
Winner: Alice, Bob
Effect: scoring.win = 200
Effect: adoption.method = "majority"
Note: first
Note: second

Some words.

Amend rule 203 to read:

> New text.

## Judgment 7: Does rule 318 count votes?
Judge: Carol
Date: 1982-06-05
Sets: score Bob 45
Sets: result 301 defeated
Sets: next-player Carol Ann
Points: Dave +1

Repeal rule 204.

## Event: Eve joins
Date: 1982-06-06
Players: +Eve, -Dave
Players: +Frank
Turn: Bob
Die: 3
Scores: Eve 0

## Proposal #302 - Extra
Proposer: Bob
Date: 1982-06-07
Turn: extra
Votes: none
Result: withdrawn
"""


def test_every_key_of_every_entry_with_its_line():
    entries, errors = entries_of(LOG_TEXT)
    assert errors == []
    p, j, e, x = entries
    assert isinstance(p, Proposal) and isinstance(j, Judgment) and isinstance(e, Event) and isinstance(x, Proposal)
    assert (p.number, p.title, p.source.line, p.proposer, p.proposer_source.line, p.date) == \
        (301, "A week to vote", 5, "Alice", 6, dt.date(1982, 6, 3))
    assert (p.votes.for_, p.votes.against, p.votes.abstain, p.votes_source.line) == \
        (("Alice", "Bob"), ("Carol",), ("Dave",), 8)
    assert (p.result.result, p.result.source.line) == ("adopted", 9)
    assert (p.die.total, p.die.source.line) == (4, 10)
    assert [(a.player, a.points, a.reason, a.source.line) for a in p.points] == [
        ("Bob", 5, "rule 316", 11), ("Carol", -2, "", 12)]
    assert (p.scores.scores, p.scores.source.line) == ((("Alice", 4), ("Bob", 5), ("Carol", -2)), 13)
    assert (p.winner.players, p.winner.source.line) == (("Alice", "Bob"), 14)
    assert [(f.key, f.value, f.source.line) for f in p.effects] == [
        ("scoring.win", 200, 15), ("adoption.method", "majority", 16)]
    assert p.notes == ("first", "second")
    assert p.extra_turn is False
    assert (p.changes[0].kind, p.changes[0].source.line, p.changes[0].text) == ("amend", 22, "New text.")
    assert p.body.startswith("Some words.")

    assert (j.number, j.title, j.judge, j.source.line) == (7, "Does rule 318 count votes?", "Carol", 26)
    assert [(s.what, s.player, s.value, s.proposal, s.result, s.source.line) for s in j.settings] == [
        ("score", "Bob", 45, 0, None, 29), ("result", "", 0, 301, "defeated", 30),
        ("next-player", "Carol Ann", 0, 0, None, 31)]
    assert [(a.player, a.points, a.source.line) for a in j.points] == [("Dave", 1, 32)]
    assert (j.changes[0].kind, j.changes[0].rule, j.changes[0].source.line) == ("repeal", 204, 34)

    assert (e.title, e.date, e.source.line) == ("Eve joins", dt.date(1982, 6, 6), 36)
    assert [(c.player, c.joins, c.source.line) for c in e.players] == [
        ("Eve", True, 38), ("Dave", False, 38), ("Frank", True, 39)]
    assert (e.turn_of, e.turn_source.line, e.die.total, e.die.source.line) == ("Bob", 40, 3, 41)

    assert (x.number, x.title, x.extra_turn, x.votes.voters, x.result.result) == (302, "Extra", True, (), "withdrawn")


def test_preamble_and_files_in_order():
    errors = ErrorCollector()
    preamble, entries = parse_log([("g/log/1.md", "# Title\n\nIntro.\n\n" + proposal()),
                                   ("g/log/2.md", "# Second file\n\nIgnored.\n\n" + proposal(number=302))], errors)
    assert errors.errors == []
    assert preamble == "# Title\n\nIntro."
    assert [(e.number, e.source.file, e.source.line) for e in entries] == [(301, "g/log/1.md", 5), (302, "g/log/2.md", 5)]


@pytest.mark.parametrize("votes, parsed", [
    ("for Alice, Bob; against Carol; abstain Dave", (("Alice", "Bob"), ("Carol",), ("Dave",))),
    ("For: Alice ; Against: Carol", (("Alice",), ("Carol",), ())),
    ("against Carol; for Alice; for Bob", (("Alice", "Bob"), ("Carol",), ())),
    ("for Ann Marie, _x, 9lives", (("Ann Marie", "_x", "9lives"), (), ())),
    ("none", ((), (), ())),
    ("-", ((), (), ())),
])
def test_votes_groups(votes, parsed):
    entries, errors = entries_of(proposal(keys=f"Votes: {votes}"))
    assert errors == []
    v = entries[0].votes
    assert (v.for_, v.against, v.abstain) == parsed


def test_votes_group_errors():
    """A group whose word is another's (`nay`, `yes`) or a slip of one (`fro`) says the one meant; one with no
    word, or no known one, says how a group is written."""
    must = "must start with 'for', 'against', 'abstain' or 'present'"
    assert entries_of(proposal(keys="Votes: for Alice; nay Bob"))[1] == [
        f"g/log.md:4: votes group 'nay Bob' {must} (did you mean 'against Bob'?)"]
    assert entries_of(proposal(keys="Votes: yes Alice, Bob"))[1] == [
        f"g/log.md:4: votes group 'yes Alice, Bob' {must} (did you mean 'for Alice, Bob'?)"]
    assert entries_of(proposal(keys="Votes: fro Alice"))[1] == [
        f"g/log.md:4: votes group 'fro Alice' {must} (did you mean 'for Alice'?)"]
    how = ": each group is the word, then the names, groups apart by ';': 'Votes: for Ann, Bob; against Cat'"
    assert entries_of(proposal(keys="Votes: Alice for, Bob for"))[1] == [
        f"g/log.md:4: votes group 'Alice for, Bob for' {must}{how}"]
    assert entries_of(proposal(keys="Votes: for Alice; Bob"))[1] == [f"g/log.md:4: votes group 'Bob' {must}{how}"]
    assert entries_of(proposal(keys="Votes: for Alice; against"))[1] == ["g/log.md:4: votes group 'against' names nobody"]


def test_decision_numbers_and_strengths_are_read_at_the_caps():
    """Index, Power, Quorum and ballot strengths are read by read_decimal and read_int: twelve digits either side
    of the point, leading zeros and trailing zeros after the point aside."""
    keys = ("Votes: for Alice x999999999999, Bob \u00d7007; against Carol x0\nIndex: 999999999999.000000000000000\n"
            "Quorum: 000000000000000000000000000005\nPower: 0.100000000000000000000000000000")
    entries, errors = entries_of(proposal(keys=keys))
    assert errors == []
    p = entries[0]
    assert (p.index, p.quorum, p.power) == (Fraction(999_999_999_999), 5, Fraction(1, 10))
    assert (p.votes.for_, p.votes.for_strengths, p.votes.against_strengths) == (("Alice", "Bob"), (999_999_999_999, 7), (0,))


def test_no_votes_line_is_not_votes_none():
    entries, _ = entries_of(proposal(keys="Result: adopted"))
    assert entries[0].votes is None and entries[0].votes_source is None


def test_a_wrapped_key_value_continues():
    entries, errors = entries_of(proposal(keys="Votes: for Alice, Bob;\n   against Carol\nScores: Alice 1,\n  Bob 2"))
    assert errors == []
    assert entries[0].votes.against == ("Carol",)
    assert entries[0].scores.scores == (("Alice", 1), ("Bob", 2))
    assert entries[0].scores.source.line == 6


def test_key_lines_only_in_the_first_paragraph():
    entries, errors = entries_of(proposal(body="Result: defeated\n\nDie: 9\n"))
    assert errors == [] and entries[0].result is None and entries[0].die is None


@pytest.mark.parametrize("keys, message", [
    ("Vote: for Alice", "g/log.md:4: unknown key 'Vote' on a proposal (did you mean 'Votes'?)"),
    ("Judge: Bob", "g/log.md:4: unknown key 'Judge' on a proposal"),
    ("Die: 4\nDie: 5", "g/log.md:5: 'Die' appears twice (first at line 4)"),
    ("Result: passed", "g/log.md:4: result 'passed' must be adopted, defeated, withdrawn, invalid or failed-quorum"),
    ("Die: 4.5", "g/log.md:4: Die '4.5' must be the total thrown, a whole number"),
    ("Points: Bob five", "g/log.md:4: cannot read 'Points: Bob five' (write 'Points: Bob +5 (rule 316)')"),
    ("Scores: Alice four", "g/log.md:4: cannot read score 'Alice four' (write 'Scores: Alice 4, Bob -10')"),
    ("Effect: scoring.win 200", "g/log.md:4: cannot read 'Effect: scoring.win 200' (write 'Effect: scoring.win = 200')"),
    ("Effect: scoring.wins = 200", "g/log.md:4: Effect names unknown setting 'scoring.wins' (did you mean 'scoring.win'?)"),
    ("Turn: Bob", "g/log.md:4: 'Turn: Bob' on a proposal: the only value is 'extra' (a proposal that takes no turn of "
     "its own)"),
    ("Votes: for Alice\nResult: defeated\nEffect: scoring.win = 5",
     "g/log.md:6: an Effect on a defeated proposal: only an adopted proposal changes the mechanics"),
    ('Effect: players = ["Ann"]', "g/log.md:4: Effect: players cannot be changed by an Effect: players join and "
     "leave by an event: 'Players: +Eve' or 'Players: -Dave'"),
    ('Effect: title = "New"', "g/log.md:4: Effect: title cannot be changed by an Effect: the title names the "
     "archive, not a rule of play: change it in game.toml"),
    ("Effect: start = 1990-01-01", "g/log.md:4: Effect: start cannot be changed by an Effect: the game began once: "
     "an Effect cannot move its start"),
    ('Effect: variant = "solitaire"', "g/log.md:4: Effect: variant cannot be changed by an Effect: the variant "
     "decides how the whole log is read: it cannot change mid-game"),
    ('Effect: sections = []', "g/log.md:4: Effect: sections cannot be changed by an Effect: the sections are the "
     "keepers' arrangement of the rules, not a rule of play: change them in game.toml"),
])
def test_key_errors(keys, message):
    assert entries_of(proposal(keys=keys))[1] == [message]


def test_required_keys_and_headings():
    _, errors = entries_of("## Proposal 301\nVotes: for Alice\n\n## Judgment 2\nDate: 1982-06-01\n\n"
                           "## Event: nothing\nNote: x\n\n## Proposal 3x1\nProposer: A\nDate: 1982-06-01\n\n"
                           "## Minutes\nText.\n\n## Proposal 303\nProposer: A\nDate: 1982-02-30\n")
    assert errors == [
        "g/log.md:1: this proposal has no Date (write 'Date: 1982-06-03')",
        "g/log.md:1: proposal 301 has no Proposer",
        "g/log.md:4: judgment 2 has no Judge",
        "g/log.md:7: this event has no Date (write 'Date: 1982-06-03')",
        "g/log.md:10: proposal number '3x1' is not a whole number",
        "g/log.md:14: '## Minutes' is not an entry: a log heading starts with 'Proposal 301', 'Judgment 7', 'Event:' or 'Unrecorded:'",
        "g/log.md:19: '1982-02-30' is not a date like 1982-06-03",
    ]


def test_a_draft_moved_into_the_log_unnumbered_is_told_to_take_its_number():
    """A draft may leave its number out; moved into the log as it was (a keeper's first hour did), the heading
    said only what headings there are."""
    _, errors = entries_of("## Proposal: Longer turns\nProposer: A\nDate: 1982-06-01\n\n## Proposal:\nProposer: A\n")
    assert errors == [
        "g/log.md:1: '## Proposal: Longer turns' has no number: a proposal in the log is numbered, as "
        "'## Proposal N: Longer turns' (only a draft's number may be left out)",
        "g/log.md:5: '## Proposal:' has no number: a proposal in the log is numbered, as '## Proposal N: Title' "
        "(only a draft's number may be left out)"]


def test_a_misspelt_first_key_is_named():
    assert sorted(entries_of("## Proposal 301\nProposr: Alice\nDate: 1982-06-03\n")[1]) == [
        "g/log.md:1: proposal 301 has no Proposer",
        "g/log.md:2: unknown key 'Proposr' on a proposal (did you mean 'Proposer'?)",
    ]


@pytest.mark.parametrize("text, message", [
    ("Sets: score Bob", "g/log.md:4: cannot read 'Sets: score Bob' (write 'Sets: score Bob 45', 'Sets: result 305 "
     "adopted' or 'Sets: next-player Carol')"),
    ("Sets: result 305 passed", "g/log.md:4: cannot read 'Sets: result 305 passed' (write 'Sets: score Bob 45', "
     "'Sets: result 305 adopted' or 'Sets: next-player Carol')"),
])
def test_sets_errors(text, message):
    assert entries_of(f"## Judgment 1\nJudge: Carol\nDate: 1982-06-01\n{text}\n")[1] == [message]


def test_players_errors():
    assert entries_of("## Event: x\nDate: 1982-06-01\nPlayers: Eve\n")[1] == [
        "g/log.md:3: 'Players: Eve' must be '+Name' (joins), '-Name' (leaves) or 'Old -> New' (renamed)"]


# --- change paragraphs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("paragraph, expected", [
    ('Repeal rule 204.', dict(kind="repeal", rule=204)),
    ('repeal rule 204', dict(kind="repeal", rule=204)),
    ('Transmute rule 109 to mutable.', dict(kind="transmute", rule=109, rule_class="mutable")),
    ('Transmute rule 109.', dict(kind="transmute", rule=109, rule_class=None)),
    ('Renumber rule 305 to 220.', dict(kind="renumber", rule=305, new_number=220)),
    ('Renumber rule 305 as 220', dict(kind="renumber", rule=305, new_number=220)),
    ('Retitle rule 203 to "Quorum".', dict(kind="retitle", rule=203, title="Quorum")),
    ('Retitle rule 203 to \u201cQuorum\u201d.', dict(kind="retitle", rule=203, title="Quorum")),
    ('Amend rule 203 by replacing "unanimous" with "a majority".',
     dict(kind="replace", rule=203, edits=(("unanimous", "a majority"),))),
    ('Amend rule 203 by replacing \u201cunanimous\u201d with \u201ca majority\u201d.',
     dict(kind="replace", rule=203, edits=(("unanimous", "a majority"),))),
    ('Amend rule 203 by replacing "a" with "b" and "c" with "d", and "e" with \u201cf\u201d.',
     dict(kind="replace", rule=203, edits=(("a", "b"), ("c", "d"), ("e", "f")))),
    ('Amend rule 203 by replacing "a" with "b" and deleting "c" and "d".',
     dict(kind="replace", rule=203, edits=(("a", "b"), ("c", ""), ("d", "")))),
    ('Amend rule 203 by deleting "one week".', dict(kind="replace", rule=203, edits=(("one week", ""),))),
    ('Amend rule 203 by replacing "x" with "".', dict(kind="replace", rule=203, edits=(("x", ""),))),
    ('Amend rule 203\nby replacing "a\nb" with "c".', dict(kind="replace", rule=203, edits=(("a b", "c"),))),
])
def test_change_paragraphs(paragraph, expected):
    change = one_change(paragraph + "\n")
    for name, value in expected.items():
        assert getattr(change, name) == value, name
    assert change.source.line == 5


@pytest.mark.parametrize("paragraph, expected", [
    ('Enact rule:', dict(kind="enact", rule=None, title="", rule_class=None)),  # (the game's: mutable, unless none is recorded)
    ('Enact rule: Quorum', dict(kind="enact", rule=None, title="Quorum", rule_class=None)),
    ('Enact immutable rule 117: "Dice"', dict(kind="enact", rule=117, title="Dice", rule_class="immutable")),
    ('Enact mutable rule 220', dict(kind="enact", rule=220, title="", rule_class="mutable")),
    ('Amend rule 203 to read:', dict(kind="amend", rule=203)),
    ('Amend rule 203 by appending:', dict(kind="append", rule=203)),
])
def test_change_paragraphs_with_a_blockquote(paragraph, expected):
    change = one_change(f"{paragraph}\n\n> The text.\n")
    for name, value in expected.items():
        assert getattr(change, name) == value, name
    assert change.text == "The text."


def test_several_changes_in_order_with_their_lines():
    entries, errors = entries_of(proposal("Repeal rule 204.\n\nWhy: free text.\n\nAmend rule 203 to read:\n\n"
                                          "> One.\n> Two.\n\nTransmute rule 109.\n"))
    assert errors == []
    assert [(c.kind, c.rule, c.source.line) for c in entries[0].changes] == [
        ("repeal", 204, 5), ("amend", 203, 9), ("transmute", 109, 14)]
    assert entries[0].changes[1].text == "One.\nTwo."


def test_blockquote_with_lists_and_paragraphs_inside():
    change = one_change("Enact rule: Lists\n\n> Items:\n>\n> - one\n> - two\n>   continued\n>\n> 1. first\n"
                        ">\n> > nested quote\n>\n> **End.**\n\nNot quoted.\n")
    assert change.text == "Items:\n\n- one\n- two\n  continued\n\n1. first\n\n> nested quote\n\n**End.**"


def test_blockquote_lazy_continuation_and_markers_without_space():
    change = one_change("Amend rule 203 to read:\n\n>First line\nlazy line\n   > indented marker\n")
    assert change.text == "First line\nlazy line\nindented marker"


def test_unquote():
    assert unquote(["> a", ">", ">  b", "c", "> "]) == "a\n\n b\nc"


@pytest.mark.parametrize("paragraph, message", [
    ("Amend rule to read:\n\n> x\n", "g/log.md:5: change 'Amend rule to read:' names no rule (write e.g. "
     "'Repeal rule 204.')"),
    ("Repeal rules about dice.\n", "g/log.md:5: change 'Repeal rules about dice.' names no rule (write e.g. "
     "'Repeal rule 204.')"),
    ("Amend rule 203 to read:\n\nNo quote.\n", "g/log.md:5: 'Amend rule 203 to read:' must be followed by the new "
     "text as a blockquote (lines starting with '>')"),
    ("Enact rule: X\n", "g/log.md:5: 'Enact rule: X' must be followed by the new rule's text as a blockquote "
     "(lines starting with '>')"),
    ("Amend rule 203 by appending:\n", "g/log.md:5: 'Amend rule 203 by appending:' must be followed by the text to "
     "append as a blockquote (lines starting with '>')"),
    ('Amend rule 203 by replacing "x" by "y".\n', "g/log.md:5: cannot read the edits in 'Amend rule 203 by "
     "replacing \"x\" by \"y\".' (write 'by replacing \"x\" with \"y\" and \"z\" with \"w\".' or 'by deleting \"x\".')"),
    ('Amend rule 203 by replacing "" with "y".\n', "g/log.md:5: a phrase to replace or delete is empty"),
    ("Repeal rule 204 and rule 202.\n", "g/log.md:5: cannot read the change 'Repeal rule 204 and rule 202.'; a "
     "change reads like 'Amend rule 203 to read:'; 'Amend rule 203 by replacing \"x\" with \"y\".'; 'Amend rule 203 "
     "by deleting \"x\".'; 'Amend rule 203 by appending:'; 'Repeal rule 204.'"),
])
def test_change_errors(paragraph, message):
    assert entries_of(proposal(paragraph))[1] == [message]


def test_an_empty_blockquote_enacts_or_amends_a_rule_to_no_text_of_its_own():
    """1.3: a rule that only heads the rules under it (a website's tree) has no text: a lone `>` says so, where a
    missing quote is still an error (above) and an empty one after `Annotate` or `by appending` too."""
    entries, errors = entries_of(proposal("Enact rule 5: Board\n\n>\n\nAmend rule 203 to read:\n\n>\n"))
    assert errors == []
    assert [(change.kind, change.rule, change.title, change.text) for change in entries[0].changes] == [
        ("enact", 5, "Board", ""), ("amend", 203, "", "")]
    assert entries_of(proposal("Amend rule 203 by appending:\n\n>\n"))[1] == [
        "g/log.md:5: 'Amend rule 203 by appending:' must be followed by the text to append as a blockquote (lines "
        "starting with '>')"]


def test_a_rulesets_topics_group_its_rules_in_the_files_order():
    """1.3: level-1 headings after the title are topics, each holding the rules under it (of either class)."""
    errors = ErrorCollector()
    ruleset = parse_ruleset("# Title\n\n## Rules\n\n### 9. Before any topic\nNine.\n\n# Voting\n\n## Immutable "
                            "Rules\n\n### 5. Votes\nFive.\n\n## Mutable Rules\n\n### 2. Ballots\nTwo.\n\n"
                            "# Winning\n\n## Mutable Rules\n\n### 7. Points\nSeven.\n", "rules.md", errors)
    assert errors.errors == []
    assert ruleset.topics == (("Voting", (5, 2)), ("Winning", (7,)))
    assert [rule.number for rule in ruleset.rules] == [9, 5, 2, 7]


def test_text_mentioning_rules_is_not_a_change():
    entries, errors = entries_of(proposal("This amends the spirit of rule 203.\n\nWe repeal nothing.\n"))
    assert errors == [] and entries[0].changes == ()


# --- encodings and whole games --------------------------------------------------------------------------

def test_decode_bom_and_line_ends():
    errors = ErrorCollector()
    assert decode("\ufeffa\r\nb\rc\n".encode("utf-8"), "f", errors) == "a\nb\nc\n"
    assert errors.errors == []


def test_decode_not_utf8_names_line_and_column():
    errors = ErrorCollector()
    assert decode(b"one\ntwo caf\xe9\n", "g/log.md", errors) is None
    assert [str(e) for e in errors.errors] == ["g/log.md:2:8: not UTF-8 text (byte 0xe9); save the file as UTF-8"]


def write_game(folder, *, toml: str, rules: str, log: str, encode=lambda text: text.encode("utf-8")):
    folder.mkdir()
    (folder / "game.toml").write_bytes(encode(toml))
    (folder / "rules.md").write_bytes(encode(rules))
    (folder / "log.md").write_bytes(encode(log))


def crlf_bom(text: str) -> bytes:
    return b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")


def test_crlf_and_bom_input_reads_like_lf(tmp_path):
    log = LOG_TEXT
    write_game(tmp_path / "plain", toml='players = ["Alice"]\n', rules=RULES_TEXT, log=log)
    write_game(tmp_path / "dos", toml='players = ["Alice"]\n', rules=RULES_TEXT, log=log, encode=crlf_bom)
    plain, dos = load_game(tmp_path / "plain"), load_game(tmp_path / "dos")
    assert dos.config.players == ("Alice",)
    assert [(r.number, r.title, r.text, r.source.line) for r in dos.rules.rules] == \
        [(r.number, r.title, r.text, r.source.line) for r in plain.rules.rules]
    strip = lambda entry: (entry.source.line, entry.body, entry.changes and entry.changes[0].text,
                           getattr(entry, "votes", None), entry.scores and (entry.scores.scores, entry.scores.source.line))
    assert [strip(e) for e in dos.log.entries] == [strip(e) for e in plain.log.entries]
    assert "\r" not in dos.log.entries[0].body


def test_crlf_errors_keep_their_lines(tmp_path):
    write_game(tmp_path / "g", toml='players = ["Alice"]\n\n[scoring]\nwin = 0\n', rules=RULES_TEXT,
               log="# Log\n\n## Proposal 301\nProposer: Alice\nDate: 1982-06-33\n", encode=crlf_bom)
    with pytest.raises(ArchiveError) as raised:
        load_game(tmp_path / "g")
    assert [str(e) for e in raised.value.errors] == [
        "g/game.toml:4: scoring.win must be a positive integer, not 0",
        "g/log.md:5: '1982-06-33' is not a date like 1982-06-03"]


def test_load_game_reads_log_folder_in_name_order_and_snapshots(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text('players = ["Alice"]\n')
    (folder / "rules.md").write_text(RULES_TEXT)
    (folder / "log").mkdir()
    (folder / "log" / "10.md").write_text(proposal(number=302))
    (folder / "log" / "09.md").write_text(proposal(number=301))
    (folder / "snapshots").mkdir()
    (folder / "snapshots" / "a.md").write_text("After: proposal 301\n\n## Mutable Rules\n\n### 201\nX.\n")
    game = load_game(folder)
    assert game.log.files == ("g/log/09.md", "g/log/10.md")
    assert [e.number for e in game.log.entries] == [301, 302]
    assert game.snapshots[0].after_proposal == 301
    assert game.snapshots[0].rules[0].source == Source("g/snapshots/a.md", 5)


def test_missing_files_are_reported(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text('players = ["Alice"]\n')
    with pytest.raises(ArchiveError) as raised:
        load_game(folder)
    assert [str(e) for e in raised.value.errors] == ["g/rules.md: missing: a game needs game.toml and rules.md"]


def test_a_die_on_an_event_needs_a_turn():
    assert entries_of("## Event: hold\nDate: 1982-06-01\nDie: 4\n")[1] == [
        "g/log.md:3: a Die on an event counts only for a turn: add 'Turn: Name' (the player whose turn it was)"]


# --- Entry by entry: each entry's parse is kept by its text and moved to its line --------------------------

# Logs whose cut into entries only Markdown can confirm: fences (of both kinds, nested, unclosed, inside a
# list or a quote), setext headings in an entry and in the preamble, indented and empty headings, repeated
# keys (whose message names a line), a last entry without a final newline.
TRICKY_LOGS = [
    "# T\n\n## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n```\n## Proposal 302: in code\n```\n\n"
    "## Proposal 303: B\nProposer: B\nDate: 2001-01-02\n",
    "Intro\n-----\n\n## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\nSetext\n------\n\n## Proposal 302: B\nProposer: A\n"
    "Date: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n- x\n\n  ```\n## Proposal 302: B\n  ```\nProposer: A\n"
    "Date: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n````\n```\n## Proposal 302: B\n````\n## Proposal 303: C\n"
    "Proposer: A\nDate: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n~~~\n## Proposal 302: B\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n   ## Proposal 302: B\nProposer: B\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n##\n## Proposal 302\nProposer: B\nDate: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n> ```\n> x\n## Proposal 302: B\nProposer: B\n"
    "Date: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n``` not`fence\n## Proposal 302: B\nProposer: B\n"
    "Date: 2001-01-01\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n- a\n  ```\n## Proposal 302: B\nProposer: B\n"
    "Date: 2001-01-01\n```\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\nVotes: for A\nVotes: for B\n\n## Proposal 302: B\n"
    "Proposer: B\nDate: 2001-01-01\nVotes: for A\nVotes: for B\n",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n## Proposal 302: B\nProposer: A\nDate: 2001-01-01",
    "## Proposal 301: A\nProposer: A\nDate: 2001-01-01\n\n\n\n",
    # A fence in a list item of the preamble, closed by the list's end; the next one hides the heading:
    "Intro\n\n- a\n  ```\n```\n## Proposal 302: B\nProposer: B\nDate: 2001-01-01\n```\n",
    # No heading where the file is cut, one where Markdown reads it (a list item's fence hid it from the cut):
    "word ## Proposal 301: A\n\n- x\n\n  ```\n## Proposal 302: B\n  ```\nProposer: A\nDate: 2001-01-01\n",
]


@pytest.mark.parametrize("text", TRICKY_LOGS)
def test_a_log_parsed_entry_by_entry_is_the_log_parsed_whole(text):
    from generator.parse import log

    for shifted in (text, "\n\n\n" + text):  # and again, every entry three lines down
        parser = log.LogParser()
        assert parser.parse_log_file(LOG, shifted) == log._parse_whole(LOG, shifted)
        assert parser.parse_log_file(LOG, shifted) == log._parse_whole(LOG, shifted)  # from the kept parses


# What an edit may write into a log: headings (entries come, go and join), fences left open or closed, keys,
# newlines, words; each edit writes one at some place, or deletes some text.
LOG_EDITS = ["## Proposal 309: New\nProposer: B\nDate: 2001-01-03\n", "\n## Proposal 310\n", "##", "\n", "```\n",
             "\n```\n", "~~~", "Proposer: C\n", "word ", "Setext\n---\n", "   ## indented\n", ""]


@settings(max_examples=300, deadline=None)
# The last entry, parsed as the file's end, is followed by a new one (its parse ends a line earlier), or a
# code block left open at the file's end hides the heading written after it:
@example(LOG_TEXT, [(1.0, 0, LOG_EDITS[0])])
@example(TRICKY_LOGS[0], [(0.0, 0, "```\n"), (1.0, 0, LOG_EDITS[0])])
@given(st.sampled_from(TRICKY_LOGS + [LOG_TEXT]),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 30), st.sampled_from(LOG_EDITS)), min_size=1, max_size=6))
def test_a_log_edited_again_and_again_is_cut_and_parsed_as_the_log_parsed_whole(text, edits):
    """Serve cuts again only the text an edit changed (log._cut): after each edit of a series, the entries are
    those of the log parsed whole, and the cut is the one of the whole text."""
    from generator.parse import log

    parser = log.LogParser()
    parser.parse_log_file(LOG, text)
    for where, deleted, written in edits:
        at = int(where * len(text))
        text = text[:at] + written + text[at + (0 if written else deleted):]
        if (last := parser.last_parse.get((LOG, log.Dialect()))) is not None:
            assert parser._cut(LOG, log.Dialect(), text)[:2] == log.split_entries(text), last
        assert parser.parse_log_file(LOG, text) == log._parse_whole(LOG, text)


def test_an_entry_moved_by_an_edit_above_keeps_its_parse_at_its_new_lines(monkeypatch):
    from generator.parse import log

    second = proposal(body="\nAmend rule 201 to read:\n\n> New text.\n", keys="Votes: for Alice", number=302)
    first = proposal(number=301)
    parser = log.LogParser()  # as serve's, parsing the log at each save
    before, _ = entries_of(first + "\n" + second, parser=parser)

    def lines(entry):
        return entry.source.line, entry.votes_source.line, entry.changes[0].source.line

    was = lines(before[1])
    parsed = []
    real = log._parse_chunk
    monkeypatch.setattr(log, "_parse_chunk", lambda *args, **kw: parsed.append(args[1][:16]) or real(*args, **kw))
    after, errors = entries_of(first + "\nThree\n\nmore lines.\n" + second, parser=parser)  # three lines more
    assert errors == [] and parsed == ["## Proposal 301\n"]  # only the edited entry is parsed again
    assert after[1] is before[1]  # the same entry, moved: the replay sees one entry changed
    assert lines(after[1]) == tuple(line + 3 for line in was)
    assert after[1] == log._parse_whole(LOG, first + "\nThree\n\nmore lines.\n" + second)[1][1]


@settings(max_examples=300, deadline=None)
@given(shared=st.text("ab\n", max_size=30), a=st.text("abc", max_size=12), b=st.text("abc", max_size=12),
       tail=st.text("ab\n", max_size=30), stretch=st.integers(1, 8))
def test_what_two_texts_share_at_their_start_and_end_is_found_by_stretches(shared, a, b, tail, stretch):
    """log._shared_start and _shared_end (a save's edited region in a long log) give what comparing character
    by character gives, whatever the length of the first stretch compared."""
    from generator.parse import log

    old, new = shared + a + tail, shared + b + tail

    def naive_start(x, y):
        return next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(log, "_FIRST_STRETCH", stretch)
        assert log._shared_start(old, new) == naive_start(old, new)
        for limit in (len(old) + len(new), len(tail), 0):
            assert log._shared_end(old, new, limit) == min(naive_start(old[::-1], new[::-1]), limit)


def test_a_clean_log_edited_at_a_save_is_parsed_from_the_edit_alone(monkeypatch):
    """serve's save of a long log (log._parse_edit): only the edited entries are parsed, no pass is made over
    the others (the last entry deleted included), and the parse is the log parsed whole: the entries after the
    edit moved to their new lines, the same objects."""
    from generator.parse import log

    entries = [proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 321)]
    text = "# Log\n\n" + "\n".join(entries)
    parser = log.LogParser()
    parser.parse_log_file(LOG, text)
    monkeypatch.setattr(parser, "_parse_entries", lambda *args: pytest.fail("every entry looked at again"))
    edits = [(text.replace("Text of 310.", "Text of 310, edited."), 1),  # a word: one entry parsed again
             (text.replace("Text of 310.", "Text of 310.\n\nTwo lines more."), 1),  # those after it move down
             # Two entries edited, one edited back; those between are kept:
             (text.replace("Text of 305.", "Text.").replace("Text of 315.", "Text of 315.\n\nAnd more."), 3),
             # 305 and 315 back, 310 as it was (the same object), 320 no longer the last, one added:
             (text + "\n" + proposal(body="\nAdded.\n", number=321), 4),
             (text.replace("Text of 320.", "Text of 320, the last."), 1),  # the last entry, 321 gone
             (text, 1),  # and back
             # The last entry deleted: the one now last, read again as the file's end, stays the same object
             (text[:text.rindex("## Proposal 320")], 0),
             (text, 1)]
    for edited, parsed_again in edits:
        kept = set(map(id, parser.files[(LOG, log.Dialect())][1][1]))
        parsed = parser.parse_log_file(LOG, edited)
        assert parsed == log._parse_whole(LOG, edited)
        assert sum(id(entry) not in kept for entry in parsed[1]) == parsed_again


def test_an_entry_appended_keeps_the_last_entry_it_follows(monkeypatch):
    """A keeper's commonest save: an entry appended after the last, its blank lines written anew. The entry that
    was last, parsed again as no longer last, parses the same: it stays the same object (so the replay resumes
    after it, from its checkpoint at the end), and the parse is the log parsed whole."""
    from generator.parse import log

    text = "# Log\n\n" + "\n".join(proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 321))
    for blank_lines in ("\n", "\n\n", "\n\n\n"):
        parser = log.LogParser()
        before = parser.parse_log_file(LOG, text)[1]
        edited = text.rstrip("\n") + blank_lines + proposal(body="\nAdded.\n", number=321)
        parsed = parser.parse_log_file(LOG, edited)
        assert parsed == log._parse_whole(LOG, edited)
        assert all(map(operator.is_, parsed[1][:20], before)) and parsed[1][20].number == 321


# Saves that keep a clean log clean: (what, the entry it is done to, a word or line it writes).
CLEAN_SAVES = st.lists(st.tuples(st.sampled_from(["word", "lines", "append", "delete", "copy"]), st.integers(0, 30),
                                 st.sampled_from(["Again", "More text", "x"])), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), CLEAN_SAVES)
def test_a_clean_log_saved_again_and_again_is_the_log_parsed_whole(size, saves):
    """Words and lines written into entries, entries appended, deleted, and one's text written twice, save after
    save (log._parse_edit, and the full pass where it declines): after each save the parse is the log parsed
    whole (every place at its line) and the kept cut is the text's."""
    from generator.parse import log

    texts = [proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 301 + size)]
    parser = log.LogParser()
    parser.parse_log_file(LOG, "# Log\n\n" + "\n".join(texts))
    for what, which, written in saves:
        at = which % len(texts)
        if what == "word":
            texts[at] = texts[at].replace(".\n", f" {written}.\n", 1)
        elif what == "lines":
            texts[at] += f"\n{written}.\n"
        elif what == "append":
            texts.append(proposal(body=f"\n{written}.\n", number=400 + len(texts)))
        elif what == "delete" and len(texts) > 1:
            del texts[at]
        elif what == "copy":
            texts.insert(at, texts[(at + 1) % len(texts)])
        text = "# Log\n\n" + "\n".join(texts)
        assert parser.parse_log_file(LOG, text) == log._parse_whole(LOG, text)
        assert parser._cut(LOG, log.Dialect(), text)[:2] == log.split_entries(text)


def test_a_save_the_quick_parse_cannot_take_is_parsed_as_ever():
    """An edit that leaves an error, removes the last entries, or edits the preamble: the whole pass, the same
    parse as the log parsed whole, and the quick one again once the log is clean."""
    from generator.parse import log

    text = "# Log\n\n" + "\n".join(proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 306))
    parser = log.LogParser()
    parser.parse_log_file(LOG, text)
    for edited in (text.replace("Date: 1982-06-03", "Date: someday", 1), text,
                   text[:text.index("## Proposal 305")], text, text.replace("# Log", "# The log"), text):
        assert parser.parse_log_file(LOG, edited) == log._parse_whole(LOG, edited)


def test_an_entry_written_twice_is_two_entries_each_at_its_own_lines():
    twice = proposal(body="\nAmend rule 201 to read:\n\n> Again.\n", number=301) + "\n"
    text = twice + twice
    for edited in (text, "Preamble.\n\n" + text, "Preamble.\n\n" + twice + "\n\n" + twice):
        entries, _ = entries_of(edited)
        assert entries[0] is not entries[1]
        assert [e.changes[0].source.line for e in entries] == [
            n for n, line in enumerate(edited.split("\n"), 1) if line.startswith("Amend")]


def test_the_places_of_an_edited_entry_follow_it_and_what_named_them_names_the_new_lines():
    """What an earlier parse gave of an entry an edit replaced (a replay's findings and versions hold its
    Sources) names the lines of the file as it is now, edit after edit."""
    first = proposal(body="\nSome words.\n\nAmend rule 201 to read:\n\n> New text.\n", number=301)
    second = proposal(number=302, keys="Votes: for Alice")
    parser = LogParser()  # as serve's, parsing the log at each save
    before, _ = entries_of(first + "\n" + second, parser=parser)
    change, votes = before[0].changes[0].source, before[1].votes_source
    lines = change.line, votes.line
    edited, _ = entries_of(first.replace("Some words.", "Some words.\n\nTwo lines more.") + "\n" + second,
                          parser=parser)
    assert edited[0] is not before[0] and edited[1] is before[1]
    assert (change.line, votes.line) == (lines[0] + 2, lines[1] + 2) == (edited[0].changes[0].source.line,
                                                                        edited[1].votes_source.line)
    entries_of(first + "\n" + second, parser=parser)  # and back
    assert (change.line, votes.line) == lines


def test_entries_come_back_from_the_cache_as_parsed_and_a_damaged_cache_is_replaced(tmp_path, monkeypatch):
    from generator.cache import Cache
    from generator.parse import log

    text = "".join(proposal(body=f"\nAmend rule 201 by appending:\n\n> Point {n}.\n", number=n) + "\n"
                   for n in range(301, 311))
    parsed = []
    real = log._parse_chunk
    monkeypatch.setattr(log, "_parse_chunk", lambda *args, **kw: parsed.append(args[2]) or real(*args, **kw))

    parser = log.LogParser()

    def run(source: str, *, new_process: bool = True):
        if new_process:  # nothing kept in memory
            nonlocal parser
            parser = log.LogParser()
        cache = Cache(tmp_path / "cache", tmp_path)
        try:
            return parser.parse_log_file(LOG, source, cache=cache)
        finally:
            cache.close()

    fresh = run(text)
    assert len(parsed) == 10 and fresh == log._parse_whole(LOG, text)
    parsed.clear()
    assert run(text) == fresh and parsed == []  # the file as it was
    assert run("\n" + text) == log._parse_whole(LOG, "\n" + text) and parsed == []  # each entry, moved a line
    edited = text.replace("Point 305.", "Point five.")
    assert run(edited) == log._parse_whole(LOG, edited) and len(parsed) == 1  # only the edited entry
    # The file read whole from the cache, then an edit that moves the entries below it (serve's first save):
    # they are the entries read, moved.
    parsed.clear()
    _, read, _ = run(text)
    lines_added = text.replace("Point 305.", "Point 305.\n\nTwo lines more.")
    _, moved, _ = run(lines_added, new_process=False)
    assert len(parsed) == 1 and all(a is b for a, b in zip(read[5:], moved[5:]))
    assert moved == log._parse_whole(LOG, lines_added)[1]
    # The file's record names its entries' records: one of those lost, that entry alone is parsed again.
    probe = Cache(tmp_path / "cache", tmp_path)
    probe.close()
    gone = log._entry_key((LOG, text[text.index("## Proposal 303"):text.index("## Proposal 304")], log.Dialect(),
                           False))
    with sqlite3.connect(probe.path) as db:
        assert db.execute("DELETE FROM records WHERE key = ?", (gone,)).rowcount == 1
    db.close()
    parsed.clear()
    assert run(text) == fresh and parsed == [text.count("\n", 0, text.index("## Proposal 303"))]
    parsed.clear()
    assert run(text) == fresh and parsed == []
    probe.path.write_bytes(b"not a database")
    parsed.clear()
    assert run(text) == fresh and len(parsed) == 10  # parsed again, silently
    assert run(text) == fresh and len(parsed) == 10  # and kept again


def test_a_parse_kept_by_another_version_of_the_program_is_never_read(tmp_path, monkeypatch):
    """The cache keeps parses under a digest of the program's own code, not a layout number a change to the parser
    must remember to bump: a parser changed since (a developer's edit, an upgrade) parses every entry again."""
    from generator import cache as cache_module
    from generator.cache import Cache
    from generator.parse import log

    text = "".join(proposal(body=f"\nRepeal rule {n}.\n", number=n) + "\n" for n in range(301, 304))
    parsed = []
    real = log._parse_chunk
    monkeypatch.setattr(log, "_parse_chunk", lambda *args, **kw: parsed.append(args[2]) or real(*args, **kw))

    def run(program: bytes):
        monkeypatch.setattr(log, "program_digest", lambda: program)
        cache = Cache(tmp_path / "cache", tmp_path)
        try:
            return log.LogParser().parse_log_file(LOG, text, cache=cache)
        finally:
            cache.close()

    this_version = cache_module.program_digest()
    assert run(this_version) == log._parse_whole(LOG, text) and len(parsed) == 3
    parsed.clear()
    assert run(this_version) == log._parse_whole(LOG, text) and parsed == []  # kept, and read back
    assert run(b"another version" + this_version[15:]) == log._parse_whole(LOG, text) and len(parsed) == 3


def test_entries_parsed_on_two_cores_are_kept_by_a_forked_process_and_come_back(tmp_path, monkeypatch):
    from generator.cache import Cache
    from generator.parse import log

    text = "".join(proposal(body=f"\nAmend rule 201 by appending:\n\n> Point {n}.\n", number=n) + "\n"
                   for n in range(301, 341))
    monkeypatch.setattr(log, "PARALLEL_ENTRIES", 8)  # a long log, as far as the parser can tell
    parser = log.LogParser()
    cache = Cache(tmp_path, tmp_path)
    first = parser.parse_log_file(LOG, text, cache=cache, jobs=2)
    assert len(cache._writers) == 1  # the entries are being kept beside
    cache.close()
    assert first == log._parse_whole(LOG, text) and len(first[1]) == 40
    parser = log.LogParser()
    parsed = []
    real = log._parse_chunk
    monkeypatch.setattr(log, "_parse_chunk", lambda *args, **kw: parsed.append(args[2]) or real(*args, **kw))
    cache = Cache(tmp_path, tmp_path)
    edited = text.replace("Point 320.", "Point twenty.")  # the file's record is missed: each entry is read alone
    assert parser.parse_log_file(LOG, edited, cache=cache) == log._parse_whole(LOG, edited)
    cache.close()
    assert parsed == [text.count("\n", 0, text.index("## Proposal 320"))]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab\n", max_size=60), st.integers(min_value=1, max_value=12))
def test_a_long_line_is_found_however_the_file_is_looked_at(text, limit):
    from generator.parse.source import check_line_lengths

    errors = ErrorCollector()
    assert check_line_lengths(text, "f", errors, limit) == (max(map(len, text.split("\n"))) <= limit)
    assert bool(errors.errors) != (max(map(len, text.split("\n"))) <= limit)


# Entries near the edges of what _plain_entry_tokens writes out: headings of every kind, lines starting with a
# letter or with what might start another block, marks of quotes and lists, characters Markdown strips.
HEADINGS = ["## Proposal 301: Title", "## A"] * 5 + ["## A #", "## A ##", "##A", "### A", "## 1", "## A ", "  ## A",
            "## Proposal\tX", "## É", "Setext"]
ENTRY_LINE_STARTS = ["A", "z", "é", "> A", ">", "- A", "> - A"] * 15 + [
    "1", "1.", "#", "## B", ">A", ">  A", "> > A", "> -A", "> ", "-", "-A", "-  A", "- - A", "- > A", "  - A", "+ A", "* A",
    "=", "---", "```", "~~~", "|", " ", "    ", "\t", "[a]: /b", "<div>", "_"]
ENTRY_CHARACTERS = list("abc XYZ é9,.;:") * 6 + list("'\"#>-*_`[]|") + ["  ", "\t", "\u00a0", "\r", "\x00", "```"]
entry_lines = st.tuples(st.sampled_from(ENTRY_LINE_STARTS), st.lists(st.sampled_from(ENTRY_CHARACTERS), max_size=8)).map(
    lambda parts: parts[0] + "".join(parts[1]))
entries = st.tuples(st.sampled_from(HEADINGS), st.lists(st.tuples(st.sampled_from(["\n", "\n", "\n\n", "\n\n\n", "\n \n"]),
                                                                   entry_lines), max_size=8),
                    st.sampled_from(["", "\n", "\n\n", "\n\n\n"])).map(
    lambda parts: parts[0] + "".join(separator + line for separator, line in parts[1]) + parts[2])


@settings(max_examples=3000, deadline=None)
@given(text=entries)
@example(text="## Proposal 301: Title\n> \n\n")  # quotes that close on blank lines run on past them
@example(text="## Proposal 301: Title\n> A\n>\n>\n\n")
@example(text="## Proposal 301: Title\n> A\n>\n> \n\n")
def test_an_entry_of_plain_blocks_has_the_tokens_markdown_it_gives_it(text):
    """The log writes out the tokens of an entry of plain blocks instead of parsing it: whatever it writes out is
    what markdown-it's block parser gives, field for field."""
    written = _plain_entry_tokens(text)
    if written is not None:
        assert [token.as_dict() for token in written] == [token.as_dict() for token in _block_markdown().parse(text)]


def test_most_entries_of_a_synthetic_game_are_written_out_as_markdown_it_parses_them(tmp_path):
    from generator.cli import main

    assert main(["synth", str(tmp_path / "game"), "--proposals", "300", "--seed", "3"]) == 0
    _, chunks = split_entries((tmp_path / "game" / "log.md").read_text(encoding="utf-8"))
    written = [(chunk, _plain_entry_tokens(chunk + "\n")) for _, chunk in chunks]
    assert sum(tokens is not None for _, tokens in written) > 0.8 * len(chunks)
    for chunk, tokens in written:
        if tokens is not None:
            assert [t.as_dict() for t in tokens] == [t.as_dict() for t in _block_markdown().parse(chunk + "\n")]


def test_the_format_reference_is_complete_and_inside_the_repository():
    """docs/format.md is what a keeper writes from: every key of every entry, every change, every setting, and
    no link to a file outside the repository."""
    import re
    from pathlib import Path

    from generator.model.config import SETTINGS
    from generator.parse.log import CHANGE_EXAMPLES, EVENT_KEYS, JUDGMENT_KEYS, PROPOSAL_KEYS, UNRECORDED_KEYS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "format.md").read_text(encoding="utf-8")
    for key in {*PROPOSAL_KEYS, *JUDGMENT_KEYS, *EVENT_KEYS, *UNRECORDED_KEYS}:
        assert f"`{key.capitalize()}" in doc, key
    for change in CHANGE_EXAMPLES:
        assert change.split(" rule")[0] in doc, change
    for setting in SETTINGS:
        assert setting.rpartition(".")[2] in doc, setting
    for heading in ("## Proposal 8188A", "## Judgment CFJ 4153", "## Event:", "## Unrecorded:", "Failed:",
                    "Reenact rule", "Annotate rule", "History:", "Annotation:", "Tally:", "[scoring.awards.",
                    "Revision:", "As proposed:", "[[sections]]"):
        assert heading in doc, heading
    assert not re.search(r"\]\(\.\./", doc), "a link leaves the repository"


# --- Format 1.2: what a keeper's record keeps beside the game -----------------------------------------------


def test_sections_arrange_the_rules_as_their_keepers_do():
    config, errors = config_of('[[sections]]\ntitle = "Foundations"\nnote = "The *first* rules."\nrules = [101, 102]\n\n'
                               '[[sections]]\ntitle = "Play"\nrules = [0, 201]\n')  # (format 1.3: a rule 0)
    assert errors == []
    assert [(s.title, s.note, s.rules) for s in config.sections] == [("Foundations", "The *first* rules.", (101, 102)),
                                                                     ("Play", "", (0, 201))]


@pytest.mark.parametrize("text, message", [
    ('title = "T"\nsections = 3\n', "g/game.toml:2: sections must be [[sections]] tables"),
    ('title = "T"\n\n[[sections]]\nnote = "x"\n', "g/game.toml:3: sections: the 1st section needs a title"),
    ('title = "T"\n[[sections]]\ntitle = "A"\nrules = [101]\n[[sections]]\ntitle = "B"\nrules = ["x"]\n',
     "g/game.toml:7: sections: the 2nd section ('B'): rules must be a list of rule numbers"),
    ('title = "T"\n[[sections]]\ntitle = "A"\nrules = [101]\n[[sections]]\ntitle = "B"\nrules = [101]\n',
     "g/game.toml:7: sections: the 2nd section ('B') holds rule 101, which 'A' holds already"),
    ('[[sections]]\ntitle = "A"\n\n[[sections]]\ntitle = "B"\ncolour = "red"\n',
     "g/game.toml:6: sections: the 2nd section: unknown key 'colour' (a section has title, note, rules, and from "
     "and until where it held for a time)"),
    ('[[sections]]\ntitle = "A"\nnote = 3\n', "g/game.toml:3: sections: the 1st section needs a title, and its note"),
    ('[[sections]]\ntitle = "A\\u202e"\n',
     "g/game.toml:2: sections: the 1st section: the title 'A\\u202e' holds invisible"),
    ('sections = [{title = "A", rules = [1]},\n            {title = "B", rules = [1]}]\n',  # inline: its line
     "g/game.toml:1: sections: the 2nd section ('B') holds rule 1"),
])
def test_a_section_that_cannot_be_read_says_why_at_its_line(text, message):
    _, errors = config_of(text)
    assert len(errors) == 1 and errors[0].startswith(message), errors


def test_locate_keys_numbers_each_table_of_an_array_and_keeps_its_keys_apart():
    text = 'title = "x"\n\n[[sections]]\ntitle = "A"\n\n[[ sections ]]\nrules = [1]\n[rules]\npower = true\n'
    assert locate_keys(text) == {"title": 1, "sections": 3, "sections.1": 3, "sections.1.title": 4, "sections.2": 6,
                                 "sections.2.rules": 7, "rules": 8, "rules.power": 9}


def test_a_rules_revision_is_read_after_its_power_and_before_its_history():
    errors = ErrorCollector()
    ruleset = parse_ruleset("## Mutable Rules\n\n### 2139. The Registrar\nPower: 3.0\nRevision: 12\n"
                            "History: Created by Proposal 1, 1993\n\nThe Registrar is an office.\n", RULES, errors,
                            power=True)
    assert errors.errors == []
    (rule,) = ruleset.rules
    assert (rule.power, rule.revision, rule.history, rule.text) == (
        Fraction(3), 12, ("Created by Proposal 1, 1993",), "The Registrar is an office.")


def test_a_rules_revision_after_its_history_is_an_error_that_says_the_order():
    _, errors = ruleset_of("## Mutable Rules\n\n### 2139. The Registrar\nHistory: Created by Proposal 1, 1993\n\n"
                           "Revision: 12\n\nThe Registrar is an office.\n")
    assert errors == ["g/rules.md:6: rule 2139's 'Revision:' line comes after its 'History:' lines: write it before "
                      "them (the order is 'Power:', 'Revision:', then 'History:')"]


def test_an_annotation_line_inside_a_fenced_text_is_its_text_even_after_a_line_with_an_info_string():
    text = "```\nA log line:\n```python\n\nAnnotation: quoted, not an annotation.\n```"
    ruleset, errors = ruleset_of(f"## Mutable Rules\n\n### 201\n{text}\n\nAnnotation: a real one.\n")
    assert errors == []
    (rule,) = ruleset.rules
    assert rule.text == text and [note for note, _ in rule.annotations] == ["a real one."]


def test_a_rules_revision_that_is_no_whole_number_is_named():
    ruleset, errors = ruleset_of("## Mutable Rules\n\n### 201\nRevision: twelve\n\nText.\n")
    assert errors == [f"{RULES}:4: rule 201's revision 'twelve' must be a whole number, like 'Revision: 12'"]
    assert ruleset.rules[0].revision is None


def test_co_authors_are_names_as_the_proposer_is():
    (entry,), errors = entries_of(proposal("\nRepeal rule 201.", "Co-authors: Janet, Gaelan"))
    assert errors == [] and entry.coauthors == ("Janet", "Gaelan")
    _, errors = entries_of(proposal("\nRepeal rule 201.", "Co-authors: Ja\u200bnet"))
    assert len(errors) == 1 and "invisible" in errors[0]


@pytest.mark.parametrize("quoted, proposed", [
    ("> Amend rule 201 by appending:\n>\n> > More.", "Amend rule 201 by appending:\n\n> More."),
    ("```\nIn rule 201, change \"a\" to \"b\".\n\n    indented\n```", "```\nIn rule 201, change \"a\" to \"b\".\n\n"
                                                              "    indented\n```"),
])
def test_a_proposals_own_text_as_proposed_is_apart_from_what_the_record_says_it_did(quoted, proposed):
    body = f"Repeal rule 201.\n\nThe Rulekeepor's record.\n\nAs proposed:\n\n{quoted}\n\nA last word.\n"
    (entry,), errors = entries_of(proposal(body))
    assert errors == []
    assert entry.proposed == proposed
    assert entry.body == "Repeal rule 201.\n\nThe Rulekeepor's record.\n\nA last word."
    assert [change.kind for change in entry.changes] == ["repeal"]  # nothing in the text as proposed is a change


def test_as_proposed_is_read_in_any_case_as_keys_are():
    (entry,), errors = entries_of(proposal("Repeal rule 201.\n\nAS PROPOSED:\n\n> Repeal rule 201, please.\n"))
    assert errors == [] and entry.proposed == "Repeal rule 201, please."


@pytest.mark.parametrize("body, message", [
    ("As proposed:\n\nJust prose.\n", "'As proposed:' must be followed by the proposal's text"),
    ("As proposed:\n\n> One.\n\nAs proposed:\n\n> Two.\n", "a second 'As proposed:' (the first is at line 5)"),
])
def test_an_as_proposed_without_its_text_or_twice_is_named(body, message):
    _, errors = entries_of(proposal(body))
    assert len(errors) == 1 and message in errors[0], errors


def test_the_parsers_memo_is_bounded_by_the_last_parses_and_forgets_a_file_gone(monkeypatch):
    """Serve's parser remembers the entries of each file's last cut and at most as many again (with a few spare):
    however many saves there were; and nothing of a file whose game (or log) went. Each parse is still the log
    parsed whole."""
    from generator.parse import log

    monkeypatch.setattr(log, "_SPARE_ENTRIES", 5)
    parser = log.LogParser()
    texts = [proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 311)]
    for save in range(60):  # each save a new word in an entry: 60 texts, each replaced by the next save there
        texts[save % 10] = texts[save % 10].replace(".\n", f" w{save}.\n", 1)
        text = "# Log\n\n" + "\n".join(texts)
        assert parser.parse_log_file(LOG, text) == log._parse_whole(LOG, text)
        parser.parse_log_file("g/log/other.md", texts[0])
        assert len(parser.entries) <= 2 * 11 + 5
    parser.forget([LOG])
    assert {key[0] for key in parser.entries} == {"g/log/other.md"}
    assert set(parser.files) == set(parser.last_parse) == {("g/log/other.md", log.Dialect())}


def test_a_parser_that_parses_once_keeps_nothing_and_parses_as_one_that_remembers(tmp_path):
    """A build's and a check's parser (remembers=False) keeps no text, cut or entry after a parse, with a cache or
    without: the same parse as serve's, whose memo holds them, from nothing and from the cache's records (whole
    file, and entry by entry after an edit)."""
    from generator.cache import Cache
    from generator.parse import log

    text = "# Log\n\n" + "\n".join(proposal(body=f"\nText of {n}.\n", number=n) for n in range(301, 321))
    edited = text.replace("Text of 310.", "Text of ten.")
    for version in (text, text, edited):  # parsed, read whole, read by entries and one parsed
        cache = Cache(tmp_path / "cache", tmp_path)
        once = log.LogParser(remembers=False)
        parsed = once.parse_log_file(LOG, version, cache=cache)
        cache.close()
        assert parsed == log._parse_whole(LOG, version) == log.LogParser().parse_log_file(LOG, version)
        assert not once.entries and not once.files and not once.last_parse


def test_aliases_are_read_as_each_person_and_the_names_they_played_under():
    config, errors = config_of('players = ["Jessamy", "Åsa"]\n\n[aliases]\nJessamy = ["Jess"]\n'
                               '"A\\u030asa" = ["Aasa", "åsa"]\n')  # (a key in NFD is read in NFC)
    assert errors == []
    assert config.aliases.people == (("Jessamy", ("Jess",)), ("Åsa", ("Aasa", "åsa")))
    assert config.aliases.of("Jess") == "Jessamy" and config.aliases.of("Ann") == "Ann"
    assert config.aliases.names_of("Åsa") == ("Aasa", "åsa") and config.aliases.names_of("Ann") == ()


@pytest.mark.parametrize("text, message", [
    ('aliases = ["Jess"]\n', "g/game.toml:1: aliases must be a table: [aliases]"),
    ('[aliases]\nAnn = []\n', "g/game.toml:2: aliases.Ann must be a list of the names the player played under"),
    ('[aliases]\nAnn = ["Ann"]\n', "g/game.toml:2: aliases.Ann lists Ann, the player's own name"),
    ('[aliases]\nAnn = ["Annie"]\n"Annie" = ["A"]\n',
     "g/game.toml:3: aliases: Annie is an alias of Ann, and has aliases of its own: list them under Ann"),
    ('[aliases]\nAnn = ["An\\u200bn"]\n', "g/game.toml:2: aliases.Ann: the name 'An\\u200bn' holds invisible"),
    ('[aliases]\nAnn = ["A, B"]\n', "g/game.toml:2: aliases.Ann: player 'A, B' holds a ','"),
    ('players = ["Ann", "Bo"]\n[aliases]\nAnn = ["Bo"]\n',
     "g/game.toml:3: aliases: Bo is listed as Ann's alias and as a player of its own in players"),
])
def test_an_alias_that_cannot_be_read_says_why_at_its_line(text, message):
    _, errors = config_of(text)
    assert len(errors) == 1 and errors[0].startswith(message), errors


def test_an_effect_cannot_change_the_aliases():
    _, errors = entries_of('## Proposal 301\nProposer: Ann\nDate: 2020-01-01\nEffect: aliases = {Ann = ["A"]}\n')
    assert errors == ["g/log.md:4: Effect: aliases cannot be changed by an Effect: the names a player played under "
                      "are the record's, for the whole game: list them in game.toml"]
