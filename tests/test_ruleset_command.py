"""`nomic-archive ruleset GAME[@POINT]`: the rules in force at a point as the report a game's players read: the
keepers' layout where game.toml has a `[report]` (Agora's FLR and SLR, as the Rulekeepor's generator lays them
out, on a small game of that shape), else the plain one; and every input it cannot read, exit 2 with nothing
written."""
from __future__ import annotations

import contextlib
import shutil
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.site.views import renaming
from generator.site.ruleset_text import wrap
from tests.helpers import ROOT

GAME_TOML = """\
title = "Small Agora"
start = 2020-01-01
players = ["Ann", "Bob"]

[numbering]
first_proposal = 200
amend_renumbers = false
enact_takes_proposal_number = false

[adoption]
method = "index"

[scoring]
turn = "none"
defeated = 0
against_adopted = 0

[rules]
power = true

[[sections]]
title = "Foundations"
note = \"\"\"
The rules that say what the game is, and how it
changes.\"\"\"
rules = [101, 105]

[[sections]]
title = "Play"
note = "How players play."
rules = [2001]

[report]
full = '''
THE FULL REPORT

{header}

{line}

Table of Contents:

{toc}

{line}

Power Distribution:

{powers}

{ruleset}
'''
short = '''
THE SHORT REPORT

{header}

{ruleset}
'''
header = '''
Date of this ruleset: {date}
Last ratification: {ratification}
Number of rules currently enacted: {num}
Highest ID'd rule in this ruleset: {her}
Highest ID'd Proposal Passed: {hp}
Highest ID'd Rule Enacted: {hr}
'''
width = 40

[[report.ratifications]]
date = 2020-03-01
ruleset = 2020-02-01
"""

RULES = """\
# Small Agora's rules

## Mutable Rules

### 101. The Game
Power: 3
Revision: 2
History: Initial immutable rule 101, Agora's birth
History: Amended(1) by P10 'First' (Ann), 1999-09-27
History: Amended(2) by P20 'A rather long title that wraps' (Bob, Ann), 2005-08-06

```
This is a game.

Play it well.
```

Annotation: CFJ 7 (called 7 November 1995): Games are played by players who play.

### 105. Changes
Power: 2
Revision: 0
History: Enacted by P30 (Ann), 2010-01-02

```
Rules change by proposals.
```
"""

LOG = """\
## Proposal 200: Growth
Proposer: Ann
Co-authors: Bob
Date: 2020-02-01
Index: 3.0
Power: 3
Votes: for Ann, Bob
Result: adopted

Amend rule 101 by replacing "Play it well." with "Play it well and fairly."

Enact power 1.5 rule 2001: Turns

> ```
> Players take turns.
> ```

## Proposal 201: Fail
Proposer: Bob
Date: 2020-02-10
Index: 3.0
Votes: against Ann, Bob
Result: defeated

## Proposal 201A: Fail again
Proposer: Bob
Date: 2020-02-20
Index: 3.0
Power: 3
Votes: for Ann, Bob
Result: adopted

Retitle rule 105 to "Rule Changes".

## Event: Cleanup
Date: 2020-03-05
By: rule 105

Amend rule 2001 by replacing "turns." with "turns in order."

Annotate rule 2001:

> CFJ 12 (called 2020-03-04): Order means the order of the players' names.
"""

FULL_NOW = (
    'THE FULL REPORT\n'
    '\n'
    'Date of this ruleset: 05 Mar 2020\n'
    'Last ratification: 1 Feb 2020 ruleset on 1 Mar 2020\n'
    'Number of rules currently enacted: 3\n'
    "Highest ID'd rule in this ruleset: 2001\n"
    "Highest ID'd Proposal Passed: 201\n"
    "Highest ID'd Rule Enacted: 2001\n"
    '\n'
    '----------------------------------------\n'
    '\n'
    'Table of Contents:\n'
    '\n'
    'Foundations\n'
    '   * Rule  101: The Game\n'
    '   * Rule  105: Rule Changes\n'
    'Play\n'
    '   * Rule 2001: Turns\n'
    '\n'
    '\n'
    '----------------------------------------\n'
    '\n'
    'Power Distribution:\n'
    '\n'
    '1 with Power=1.5\n'
    '1 with Power=2\n'
    '1 with Power=3\n'
    '\n'
    '========================================\n'
    'Foundations\n'
    '   The rules that say what the game is,\n'
    '   and how it changes.\n'
    '----------------------------------------\n'
    'Rule 101/3 (Power=3)\n'
    'The Game\n'
    '\n'
    '      This is a game.\n'
    '      \n'
    '      Play it well and fairly.\n'
    '\n'
    'History:\n'
    '\n'
    "Initial immutable rule 101, Agora's\n"
    '   birth\n'
    "Amended(1) by P10 'First' (Ann), 27 Sep\n"
    '   1999\n'
    "Amended(2) by P20 'A rather long title\n"
    "   that wraps' (Bob, Ann), 06 Aug 2005\n"
    "Amended(3) by P200 'Growth' (Ann, Bob),\n"
    '   01 Feb 2020\n'
    '\n'
    'Annotations:\n'
    'CFJ 7 (called 07 Nov 1995): Games are\n'
    '    played by players who play.\n'
    '\n'
    '----------------------------------------\n'
    'Rule 105/1 (Power=2)\n'
    'Rule Changes\n'
    '\n'
    '      Rules change by proposals.\n'
    '\n'
    'History:\n'
    '\n'
    'Enacted by P30 (Ann), 02 Jan 2010\n'
    "Retitled by P201 'Fail again' (Bob), 20\n"
    '   Feb 2020\n'
    '\n'
    'Annotations:\n'
    '\n'
    '----------------------------------------\n'
    '========================================\n'
    'Play\n'
    '   How players play.\n'
    '----------------------------------------\n'
    'Rule 2001/1 (Power=1.5)\n'
    'Turns\n'
    '\n'
    '      Players take turns in order.\n'
    '\n'
    'History:\n'
    '\n'
    "Enacted by P200 'Growth' (Ann, Bob), 01\n"
    '   Feb 2020\n'
    'Amended(1) by R105, 05 Mar 2020\n'
    '\n'
    'Annotations:\n'
    'CFJ 12 (called 04 Mar 2020): Order means\n'
    "    the order of the players' names.\n"
    '\n'
    '----------------------------------------\n'
    '\n')

SHORT_AFTER_201 = (
    'THE SHORT REPORT\n'
    '\n'
    'Date of this ruleset: 10 Feb 2020\n'
    'Last ratification: none recorded\n'
    'Number of rules currently enacted: 3\n'
    "Highest ID'd rule in this ruleset: 2001\n"
    "Highest ID'd Proposal Passed: 200\n"
    "Highest ID'd Rule Enacted: 2001\n"
    '\n'
    '========================================\n'
    'Foundations\n'
    '   The rules that say what the game is,\n'
    '   and how it changes.\n'
    '----------------------------------------\n'
    'Rule 101/3 (Power=3)\n'
    'The Game\n'
    '\n'
    '      This is a game.\n'
    '      \n'
    '      Play it well and fairly.\n'
    '\n'
    '----------------------------------------\n'
    'Rule 105/0 (Power=2)\n'
    'Changes\n'
    '\n'
    '      Rules change by proposals.\n'
    '\n'
    '----------------------------------------\n'
    '========================================\n'
    'Play\n'
    '   How players play.\n'
    '----------------------------------------\n'
    'Rule 2001/0 (Power=1.5)\n'
    'Turns\n'
    '\n'
    '      Players take turns.\n'
    '\n'
    '----------------------------------------\n'
    '\n')

PLAIN_NOW = (
    "Small Agora: the rules after event 'Cleanup' (2020-03-05)\n"
    '=========================================================\n'
    '\n'
    '3 rules in force.\n'
    '\n'
    'Foundations\n'
    '-----------\n'
    '\n'
    'Rule 101: The Game (power 3, revision 3)\n'
    '\n'
    '    This is a game.\n'
    '\n'
    '    Play it well and fairly.\n'
    '\n'
    '  History:\n'
    "    Initial immutable rule 101, Agora's birth\n"
    "    Amended(1) by P10 'First' (Ann), 1999-09-27\n"
    "    Amended(2) by P20 'A rather long title that wraps' (Bob, Ann), 2005-08-06\n"
    "    Amended by proposal 200 'Growth' (Ann, Bob), 2020-02-01\n"
    '\n'
    '  Annotations:\n'
    '    CFJ 7 (called 7 November 1995): Games are played by players who\n'
    '      play.\n'
    '\n'
    'Rule 105: Rule Changes (power 2, revision 1)\n'
    '\n'
    '    Rules change by proposals.\n'
    '\n'
    '  History:\n'
    '    Enacted by P30 (Ann), 2010-01-02\n'
    "    Retitled by proposal 201A 'Fail again' (Bob), 2020-02-20\n"
    '\n'
    'Play\n'
    '----\n'
    '\n'
    'Rule 2001: Turns (power 1.5, revision 1)\n'
    '\n'
    '    Players take turns in order.\n'
    '\n'
    '  History:\n'
    "    Enacted by proposal 200 'Growth' (Ann, Bob), 2020-02-01\n"
    '    Amended by rule 105, 2020-03-05\n'
    '\n'
    '  Annotations:\n'
    "    CFJ 12 (called 2020-03-04): Order means the order of the players'\n"
    '      names.\n')


def write_game(folder: Path, toml: str = GAME_TOML) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text(LOG, encoding="utf-8")
    return folder


@pytest.fixture
def game(tmp_path) -> Path:
    return write_game(tmp_path / "content" / "small")


def ruleset(capsys, *args) -> tuple[int, str, str]:
    code = main(["ruleset", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_full_report_in_the_keepers_layout(game, capsys):
    """Contents by section, powers, then each rule: `Rule N/R (Power=P)`, title, text indented, history (the
    record's lines re-dated, then each change in the Rulekeepor's words), annotations; lines wrapped at the width."""
    assert ruleset(capsys, game) == (0, FULL_NOW, "")
    assert ruleset(capsys, f"{game}@now", "--format", "flr") == (0, FULL_NOW, "")


def test_the_short_report_at_a_point_has_that_points_texts_revisions_and_figures(game, capsys):
    """After proposal 201 (defeated): 2001 not yet amended, 105 not yet retitled (the decision taken again, 201A,
    comes after), no ratification yet, and the highest proposal passed is 200."""
    assert ruleset(capsys, f"{game}@201", "--format", "slr") == (0, SHORT_AFTER_201, "")
    code, out, _ = ruleset(capsys, f"{game}@201A", "--format", "short")
    assert code == 0 and "Rule 105/1 (Power=2)\nRule Changes\n" in out and "Passed: 201\n" in out


def test_a_date_before_the_first_entry_is_the_initial_set(game, capsys):
    code, out, _ = ruleset(capsys, f"{game}@2020-01-15", "--format", "short")
    assert code == 0 and "Number of rules currently enacted: 2\n" in out and "Rule 2001" not in out
    assert "Date of this ruleset: 15 Jan 2020\n" in out  # the day asked for
    code, out, _ = ruleset(capsys, f"{game}@start", "--format", "short")
    assert code == 0 and "Date of this ruleset: 01 Jan 2020\n" in out  # the game's start


def test_the_plain_layout(game, capsys):
    assert ruleset(capsys, game, "--plain") == (0, PLAIN_NOW, "")


def test_a_game_without_a_report_table_is_shown_plain_by_class(tmp_path, capsys):
    toml = GAME_TOML[:GAME_TOML.index("[[sections]]")]
    game = write_game(tmp_path / "g", toml)
    code, out, _ = ruleset(capsys, f"{game}@start", "--format", "short")
    assert code == 0
    assert out == ("Small Agora: the rules at the start (2020-01-01)\n"
                   "================================================\n\n2 rules in force.\n\n"
                   "Mutable rules\n-------------\n\n"
                   "Rule 101: The Game (power 3, revision 2)\n\n    This is a game.\n\n    Play it well.\n\n"
                   "Rule 105: Changes (power 2, revision 0)\n\n    Rules change by proposals.\n")


def test_a_rule_no_section_holds_is_listed_last(tmp_path, capsys):
    toml = GAME_TOML.replace("rules = [2001]", "rules = []")
    game = write_game(tmp_path / "g", toml)
    code, out, _ = ruleset(capsys, game, "--format", "short")
    assert code == 0
    assert out.endswith("========================================\nRules in no section\n"
                        "----------------------------------------\nRule 2001/1 (Power=1.5)\nTurns\n\n"
                        "      Players take turns in order.\n\n----------------------------------------\n\n")


DATED_SECTIONS = """
[[sections]]
title = "Early"
rules = [101, 105, 2001]
until = 2020-02-05

[[sections]]
title = "Foundations"
rules = [101, 105]
from = 2020-02-05

[[sections]]
title = "Play"
rules = [2001]
from = 2020-02-05
"""


def with_sections(toml: str, sections: str) -> str:
    """A game.toml of the shape of GAME_TOML with its [[sections]] replaced by `sections`."""
    end = toml.find("[report]")
    return toml[:toml.index("[[sections]]")] + sections.lstrip("\n") + "\n" + (toml[end:] if end >= 0 else "")


def test_sections_that_held_for_a_time_arrange_the_report_of_those_days(tmp_path, capsys):
    """A section with `until` holds up to the day before, one with `from` from that day: the report of a day is
    arranged by the sections of that day (the one of a point named otherwise, by its date); the site's view by
    section is the end's."""
    game = write_game(tmp_path / "content" / "g", with_sections(GAME_TOML, DATED_SECTIONS))
    code, out, _ = ruleset(capsys, f"{game}@2020-02-04", "--format", "short")
    assert code == 0 and "=\nEarly\n-" in out and "Foundations" not in out and "Rules in no section" not in out
    code, out, _ = ruleset(capsys, f"{game}@2020-02-05")
    assert code == 0 and "Early" not in out
    assert "Table of Contents:\n\nFoundations\n   * Rule  101: The Game\n   * Rule  105: Changes\nPlay\n" \
           "   * Rule 2001: Turns\n" in out
    code, now, _ = ruleset(capsys, str(game))
    assert code == 0 and "Early" not in now and "=\nFoundations\n" in now
    assert main(["build", str(game.parent), "-o", str(tmp_path / "site"), "--cache-dir", str(tmp_path / "c")]) == 0
    by_section = (tmp_path / "site" / "g" / "rules" / "by-section.html").read_text(encoding="utf-8")
    assert "Foundations" in by_section and "Early" not in by_section


def test_the_day_asked_for_dates_the_report_where_the_header_asks(tmp_path, capsys):
    """`{asked}`: the day a report was asked for, as the keepers date one (`5 Feb 2020`); empty for a point named
    otherwise, the spaces before it on its line gone."""
    game = write_game(tmp_path / "g", GAME_TOML.replace("Date of this ruleset: {date}", "Dated: {asked}"))
    code, out, _ = ruleset(capsys, f"{game}@2020-02-05", "--format", "short")
    assert code == 0 and "\nDated: 5 Feb 2020\n" in out
    for point in ("200", "now", "start"):
        code, out, _ = ruleset(capsys, f"{game}@{point}", "--format", "short")
        assert code == 0 and "\nDated:\n" in out, point


@pytest.mark.parametrize("sections, key, message", [
    ('[[sections]]\ntitle = "A"\nrules = [101]\nuntil = 2020-02-01\nfrom = 2020-03-01\n', "until",
     "sections: the 1st section: until (2020-02-01) must be after from (2020-03-01)"),
    ('[[sections]]\ntitle = "A"\nrules = [101]\nfrom = "soon"\n', "from",
     "sections: the 1st section: from must be a date, like from = 2019-05-08"),
    ('[[sections]]\ntitle = "A"\nrules = [101]\nuntil = 2020-03-01\n\n'
     '[[sections]]\ntitle = "B"\nrules = [105, 101]\nfrom = 2020-02-01\n', "rules",
     "sections: the 2nd section ('B') holds rule 101, which 'A' holds already on some of the same days"),
    ('[[sections]]\ntitle = "A"\nrules = [101]\nsince = 2020-03-01\n', "since",
     "sections: the 1st section: unknown key 'since'"),
])
def test_a_section_whose_days_cannot_be_read_is_said_at_its_line(tmp_path, capsys, sections, key, message):
    toml = with_sections(GAME_TOML, sections)
    game = write_game(tmp_path / "g", toml)
    code, _, err = ruleset(capsys, str(game))
    lines = [n for n, text in enumerate(toml.splitlines(), 1) if text.startswith(f"{key} =")]
    assert code == 2 and f"game.toml:{lines[-1]}: {message}" in err


def test_a_rule_in_two_sections_on_days_apart_is_read(tmp_path, capsys):
    toml = with_sections(GAME_TOML, '[[sections]]\ntitle = "A"\nrules = [101]\nuntil = 2020-02-01\n\n'
                                     '[[sections]]\ntitle = "B"\nrules = [101]\nfrom = 2020-02-01\n')
    code, out, _ = ruleset(capsys, f"{write_game(tmp_path / 'g', toml)}@2020-01-31", "--format", "short")
    assert code == 0 and "=\nA\n-" in out and "=\nB\n-" not in out


def test_written_to_a_file_and_never_over_one(game, tmp_path, capsys):
    out = tmp_path / "flr.txt"
    assert ruleset(capsys, game, "-o", out) == (0, "", "")
    assert out.read_text(encoding="utf-8") == FULL_NOW
    out.write_text("the keeper's own copy", encoding="utf-8")
    code, printed, err = ruleset(capsys, game, "-o", out)
    assert (code, printed) == (2, "") and "exists, and ruleset does not replace a file" in err
    assert out.read_text(encoding="utf-8") == "the keeper's own copy"
    assert ruleset(capsys, game, "-o", out, "--force")[0] == 0 and out.read_text(encoding="utf-8") == FULL_NOW


@pytest.mark.parametrize("spec, message", [
    ("{game}@202", "small/log.md: proposal 202 is not in the log (its proposals run from 200 to 201)"),
    ("{game}@201B", "small/log.md: proposal 201B is not in the log (no decision B was taken again on proposal 201)"),
    ("{game}@tuesday", "small@tuesday: no such point; a point is start, now, a proposal number"),
    ("{game}@2020-02-30", "small@2020-02-30: no such date (a date is written 2005-04-02)"),
    ("nothing", "nothing: no such game folder"),
    ("nothing@201", "nothing: no such game folder"),
    (".", ".: not a game folder (a game is a folder with game.toml)"),
])
def test_what_cannot_be_read_is_said_exit_2(game, capsys, spec, message):
    with contextlib.chdir(game.parent):  # named from the working directory
        code, out, err = ruleset(capsys, spec.format(game=game.name))
    assert (code, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


BROKEN_REPORTS = [  # (what is replaced, by what, the line the problem is said at, the message)
    ("width = 40", "width = 10", "width = 10", "report.width must be a whole number from 20 to 1000, not 10"),
    ("width = 40", "widht = 40", "widht = 40", "report: unknown key 'widht' (it has full, short, header, width, "
                                               "ratification, ratifications, names)"),
    ("{ruleset}\n'''\nshort", "{rules}\n'''\nshort", "full = ",
     "report.full: no placeholder is named {rules} (they are {header}, {num}"),
    ("date = 2020-03-01", 'date = "March"', "[[report.ratifications]]",
     "report.ratifications: the 1st must be a table with a date"),
]


@pytest.mark.parametrize("was, broken, at, message", BROKEN_REPORTS)
def test_a_report_table_that_cannot_be_read_is_said_at_its_line(tmp_path, capsys, was, broken, at, message):
    toml = GAME_TOML.replace(was, broken, 1)
    line = toml[:toml.index(at)].count("\n") + 1
    game = write_game(tmp_path / "g", toml)
    with contextlib.chdir(tmp_path):
        code, out, err = ruleset(capsys, "g")
    assert (code, out) == (2, "")
    assert err.startswith(f"g/game.toml:{line}: {message}"), err


def test_an_effect_cannot_change_the_report(game, capsys):
    log = game / "log.md"
    log.write_text(log.read_text(encoding="utf-8").replace("Result: defeated", "Result: defeated\nEffect: report = {}"),
                   encoding="utf-8")
    code, _, err = ruleset(capsys, game)
    assert code == 2 and "Effect: report cannot be changed by an Effect: the report is the keepers' layout" in err


def test_a_solitaire_game_has_no_ruleset_report(capsys):
    code, out, err = ruleset(capsys, ROOT / "content" / "solitaire")
    assert (code, out) == (2, "") and "a Solitaire Nomic game has no ruleset report" in err


@pytest.mark.parametrize("seed", range(30))
def test_wrapping_keeps_every_word_and_the_width(seed):
    """As the Rulekeepor's generator wraps: the words in order, one space apart (two spaces keep an empty word),
    no line past the width but one holding a single longer word, each line after the first indented."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdef") for _ in range(rng.randint(0, 14))) for _ in range(rng.randint(1, 60))]
    text = " ".join(words)
    width = rng.randint(20, 50)
    lines = wrap(text, width, "", "   ")
    assert all(line.startswith("   ") for line in lines[1:])
    assert " ".join([lines[0]] + [line[3:] for line in lines[1:]]) == text.strip(" ")  # (each line of it stripped)
    assert all(len(line) <= width or " " not in line.strip(" ") for line in lines)


def test_the_plain_layout_wraps_prose_and_keeps_lists_and_fenced_text(tmp_path, capsys):
    game = write_game(tmp_path / "g", GAME_TOML[:GAME_TOML.index("[[sections]]")])
    words = " ".join(f"word{n}" for n in range(30))
    (game / "rules.md").write_text(
        "# Rules\n\n## Mutable Rules\n\n### 101. Prose\nPower: 3\n\n" + words.replace(" word15", "\nword15") + "\n\n"
        "- a list item\n- another\n\n### 105. Kept\nPower: 2\n\n```\n" + words + "\n```\n", encoding="utf-8")
    (game / "log.md").write_text("", encoding="utf-8")
    code, out, _ = ruleset(capsys, game, "--format", "short")
    assert code == 0
    assert ("Rule 101: Prose (power 3)\n\n"
            "    word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10\n"
            "    word11 word12 word13 word14 word15 word16 word17 word18 word19\n"
            "    word20 word21 word22 word23 word24 word25 word26 word27 word28\n"
            "    word29\n\n    - a list item\n    - another\n\n") in out
    assert f"Rule 105: Kept (power 2)\n\n    {words}\n" in out  # a fenced text is kept line for line


def test_import_agora_writes_the_rulekeepors_templates_and_the_ratifications_his_header_named(tmp_path, capsys):
    """The templates of rules_data/config/ become [report], the header's last-ratification words {ratification};
    each ratification any version of the header named is listed (a lone date that is a date of one said in full
    is that one), and the report at each point names the last one by then."""
    from helpers import git_commit
    from test_import_agora import FIRST, index, rule_file

    repo = tmp_path / "ruleset"
    config = {"rules_data/config/flr_format": "FULL\n\n{header}\n\n{ruleset}\n",
              "rules_data/config/slr_format": "SHORT\n\n{header}\n\n{ruleset}\n"}
    git_commit(repo, "Start", {**config, "rules_data/config/index": index(101),
                               "rules_data/rules/101": rule_file(101, "The Game", "3", "A game.", [FIRST]),
                               "rules_data/config/header": "Date of last SLR ratification: 8 May 2019\n\nRules: {num}\n"},
               date="2020-01-01T12:00:00")
    git_commit(repo, "Proposal 10", {"rules_data/rules/101": rule_file(
        101, "The Game", "3", "A good game.", [FIRST, ("amendment", "2020-02-01", 'proposal: "10"')])},
        date="2020-02-01T12:00:00")
    git_commit(repo, "Ratified", {"rules_data/config/header": "Date of last SLR ratification: 3 Mar 2020\n\n"
                                                              "Rules: {num}\n"}, date="2020-03-03T12:00:00")
    git_commit(repo, "Said in full", {"rules_data/config/header": "Date of this ruleset:\nLast SLR ratification: 1 Feb "
                                                                  "2020 ruleset on 3 Mar 2020\n\nRules: {num}\n"},
               date="2020-03-04T12:00:00")
    game = tmp_path / "agora"
    assert main(["import", "agora", "--ruleset", str(repo), "-o", str(game), "-q"]) in (0, 1)
    toml = (game / "game.toml").read_text(encoding="utf-8")
    assert ("[report]\nfull = '''\nFULL\n\n{header}\n\n{ruleset}\n'''\nshort = '''\nSHORT\n\n{header}\n\n{ruleset}\n"
            "'''\nheader = '''\nDate of this ruleset: {asked}\nLast SLR ratification: {ratification}\n\n"
            "Rules: {num}\n'''\n\n"
            "[[report.ratifications]]\ndate = 2019-05-08\n\n"
            "[[report.ratifications]]\ndate = 2020-03-03\nruleset = 2020-02-01") in toml
    capsys.readouterr()
    code, out, _ = ruleset(capsys, f"{game}@start", "--format", "short")
    # (a point named otherwise than by a day: "Date of this ruleset:" is left as he leaves it, without a space)
    assert code == 0 and out.startswith("SHORT\n\nDate of this ruleset:\nLast SLR ratification: 8 May 2019\n\n"
                                        "Rules: 1\n\n=====")
    assert "Rule 101/0 (Power=3)\nThe Game\n\n      A game.\n" in out
    code, out, _ = ruleset(capsys, f"{game}@entry-1")  # no record names 10's author: an event `By: proposal 10`
    assert code == 0 and out.startswith("FULL\n\nDate of this ruleset:\nLast SLR ratification: 8 May 2019\n")
    assert "History:\n\nEnacted by P1, 01 Dec 2019\nAmended(1) by P10, 01 Feb 2020\n" in out
    code, out, _ = ruleset(capsys, f"{game}@2020-03-03")
    assert code == 0 and out.startswith("FULL\n\nDate of this ruleset: 3 Mar 2020\nLast SLR ratification: 1 Feb 2020 "
                                        "ruleset on 3 Mar 2020\n")


RECORDED_LOG = LOG + """
## Proposal 202: Recorded
Proposer: Ann
Date: 2020-04-01
Index: 3.0
Power: 3
Votes: for Ann, Bob
Result: adopted

Amend rule 2001 to read:

> Players take turns in the order of their names.

History: Amended(2) by P202 'Recorded' (Ann), 2020-04-02
Revision: 2

Unannotate rule 2001:

> CFJ 12 (called 2020-03-04): Order means the order of the players' names.

## Event: The keeper rewraps rule 2001
Date: 2020-04-03
By: cleaning (Bob)

Amend rule 2001 to read:

> Players take turns
> in the order of their names.

Revision: 2
"""


def test_a_record_of_history_lines_is_printed_as_kept_and_a_removed_annotation_is_gone(tmp_path, capsys):
    """Where the log carries the keepers' own history lines (format 1.4), the keepers' layout prints those, re-dated,
    and nothing for a change their history does not name (a rewrap); an annotation taken away is no longer shown."""
    game = write_game(tmp_path / "g")
    (game / "log.md").write_text(RECORDED_LOG, encoding="utf-8")
    code, out, _ = ruleset(capsys, game)
    rule = " ".join(out[out.index("Rule 2001/2"):].split())  # the report's width is 40: lines wrap
    assert code == 0 and "History: Amended(2) by P202 'Recorded' (Ann), 02 Apr 2020 Annotations:" in rule
    assert "cleaning" not in rule and "Amended(1)" not in rule  # changes no History: line names are not shown
    assert "CFJ 12" not in rule
    code, out, _ = ruleset(capsys, f"{game}@201A")  # before its removal the annotation is there
    assert code == 0 and "CFJ 12" not in out[out.index("Rule 2001"):]  # nor before it was made
    code, out, _ = ruleset(capsys, f"{game}@2020-03-10")
    assert code == 0 and "CFJ 12 (called 04 Mar 2020)" in " ".join(out.split())


REPORT_NAMES = """
[[report.names]]
name = "Ann"
as = "Annabel Lee"
from = 2020-03-01
until = 2020-05-01

[[report.names]]
name = "Annabel Lee"
as = "Ann"
from = 2020-05-01

[[report.names]]
name = "Bob"
as = "Robert"
from = 2020-05-01
"""


def test_a_report_names_players_as_the_names_of_its_day(tmp_path, capsys):
    """`[[report.names]]` (the Rulekeepor's name_replacement_data over time): a report of a day writes, in each
    history line, the name its list of that day gives for a whole name the record gives (rules.md's lines
    and the log's alike; `Anne`, `Annex` untouched), in one pass, and wraps
    the line after (the width is 40); before the first list and where none holds, as the record writes it. The
    site's pages show the names of the end's report."""
    assert renaming((("Ann", "Bea"), ("Bea", "Cy")))("Ann, Bea, Beatrix") == "Bea, Cy, Beatrix"  # one pass
    game = write_game(tmp_path / "content" / "g", GAME_TOML + REPORT_NAMES)
    (game / "log.md").write_text(RECORDED_LOG.replace("(Ann), 2020-04-02", "(Ann, Anne), 2020-04-02")
                                 + "\n## Event: Annex\nDate: 2020-06-01\n", encoding="utf-8")
    reports = {}
    for day in ("2020-02-20", "2020-04-10", "2020-06-10"):
        code, out, err = ruleset(capsys, f"{game}@{day}")
        assert (code, err) == (0, "")
        reports[day] = out
    assert "Amended(1) by P10 'First' (Ann), 27 Sep\n   1999" in reports["2020-02-20"]
    assert "Amended(1) by P10 'First' (Annabel Lee),\n   27 Sep 1999" in reports["2020-04-10"]
    assert "Amended(2) by P202 'Recorded' (Annabel\n   Lee, Anne), 02 Apr 2020" in reports["2020-04-10"]
    assert "Amended(1) by P10 'First' (Ann), 27 Sep\n   1999" in reports["2020-06-10"]
    assert "Amended(2) by P202 'Recorded' (Ann,\n   Anne), 02 Apr 2020" in reports["2020-06-10"]
    assert "that wraps' (Bob, Annabel Lee), 06\n" in reports["2020-04-10"]
    assert "that wraps' (Robert, Ann), 06 Aug\n" in reports["2020-06-10"]
    assert reports["2020-02-20"].replace("Annabel Lee", "Ann") == reports["2020-02-20"]
    code, now, _ = ruleset(capsys, game)
    assert code == 0 and now == reports["2020-06-10"].replace("10 Jun 2020", "01 Jun 2020")
    assert main(["build", str(game.parent), "-o", str(tmp_path / "site"), "-q"]) == 0
    capsys.readouterr()
    page = (tmp_path / "site" / "g" / "rules" / "101.html").read_text(encoding="utf-8")
    assert "that wraps&#39; (Robert, Ann), 2005-08-06" in page and "Annabel" not in page and "(Bob" not in page


def test_a_report_name_is_taken_literally_and_shown_escaped(tmp_path, capsys):
    """A name holding a pattern's characters replaces itself only (never `Bob` through `B.b`), and what it is
    replaced by is text: escaped in the site's pages, as written in the report."""
    names = '\n[[report.names]]\nname = "B.b"\nas = "<b>Bo</b>"\n\n[[report.names]]\nname = "Ann"\nas = "<script>x</script>"\n'
    game = write_game(tmp_path / "content" / "g", GAME_TOML + names)
    code, out, _ = ruleset(capsys, game)
    words = " ".join(out.split())  # (the width is 40)
    assert code == 0 and "(Bob, <script>x</script>)" in words and "<b>Bo</b>" not in words
    assert main(["build", str(game.parent), "-o", str(tmp_path / "site"), "-q"]) == 0
    capsys.readouterr()
    page = (tmp_path / "site" / "g" / "rules" / "101.html").read_text(encoding="utf-8")
    assert "(Bob, &lt;script&gt;x&lt;/script&gt;)" in page and "<script>x" not in page


def test_report_names_that_overlap_or_lack_a_name_are_said_at_their_line(tmp_path, capsys):
    for names, at, message in [
            (REPORT_NAMES.replace("from = 2020-05-01", "from = 2020-04-01").replace('name = "Annabel Lee"',
                                                                                  'name = "Ann"'),
             'name = "Ann"\nas = "Ann"', "report.names: the 2nd gives a name for 'Ann', which the 1st gives on some "
                                       "of the same days"),
            ('\n[[report.names]]\nname = "Ann"\n', "[[report.names]]",
             'report.names: the 1st needs as, a name on one line, like name = "Jason", as = "Janet"'),
            ('\n[[report.names]]\nname = "Ann"\nas = "B"\nsince = 2020-01-01\n', "since = ",
             "report.names: the 1st: unknown key 'since' (it has name, as, and from and until"),
            ('\n[[report.names]]\nname = "Ann"\nas = "B"\nfrom = 2020-05-01\nuntil = 2020-03-01\n', "until = ",
             "report.names: the 1st: until (2020-03-01) must be after from (2020-05-01)")]:
        toml = GAME_TOML + names
        line = toml[:toml.index(at)].count("\n") + 1
        shutil.rmtree(tmp_path / "g", ignore_errors=True)
        write_game(tmp_path / "g", toml)
        with contextlib.chdir(tmp_path):
            code, out, err = ruleset(capsys, "g")
        assert (code, out) == (2, "")
        assert err.startswith(f"g/game.toml:{line}: {message}"), err


def _wrapped_word_by_word(text: str, width: int, first: str, following: str) -> list[str]:
    """The Rulekeepor's wrapping as his generator does it: word by word, each while it fits."""
    lines: list[str] = []
    for word in " ".join(line.strip() for line in text.split("\n")).split(" "):
        if not lines:
            lines.append(first + word)
        elif len(lines[-1]) + len(word) + 1 > width:
            lines.append(following + word)
        else:
            lines[-1] += " " + word
    return lines


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["a", "bb", "cccccc", " ", "\n", "éé", "x" * 20]), max_size=60).map("".join),
       st.integers(0, 30), st.sampled_from(["", "  ", "    ", "x" * 12]), st.sampled_from(["", "   ", "y" * 40]))
def test_wrapping_is_the_word_by_word_wrapping(text, width, first, following):
    """`wrap` finds each line by a regular expression: the lines are those of wrapping word by word, two spaces
    (an empty word), a word longer than the width, and prefixes longer than it included."""
    assert wrap(text, width, first, following) == _wrapped_word_by_word(text, width, first, following)
