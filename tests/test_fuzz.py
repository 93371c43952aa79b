"""Fuzzing the parsers and the formula language: whatever a player types, the program answers with its own
errors (each one line, at a line of the file) or findings, never with an exception, and quickly.

Inputs are built from the pieces archives are made of (headings, keys, change paragraphs, TOML keys and
values) mixed with arbitrary text and the characters that broke the program before: digits that are not
ASCII digits, numbers of thousands of digits, brackets nested past the recursion limit, runs of spaces,
control characters. Each example has a deadline (generous: the machine may be busy); the bench script
bench/hostile_inputs.py measures the large inputs.
"""
from __future__ import annotations

import datetime as dt
import sys
from contextlib import contextmanager

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.engine.replay import replay
from generator.importers import mdtext, rulesfile
from generator.importers.text import RulesetImportError
from generator.errors import ArchiveError, ErrorCollector, SourceError
from generator.model.config import SETTINGS
from generator.model.formula import SCORING_NAMES, FormulaError, compile_formula
from generator.parse.config import parse_config, parse_effect_value
from generator.parse.game import _build_game
from generator.parse.log import parse_log
from generator.parse.rules import parse_ruleset
from generator.parse.source import decode

FUZZ = settings(max_examples=60, deadline=dt.timedelta(seconds=5),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

NASTY = st.sampled_from(["\u00b2", "\u0664", "\uff14", "9" * 5000, "1" * 13, "-", "+", " " * 300, "\t", "\x1b[2J",
                         "\u202e", "\x00", "\r", "\n", "\n\n", "[" * 60, "{" * 60, "(" * 60, '"', "\u201c", "\u201d",
                         ":", ".", ",", ";", "#", "> ", "---", "***", "`", "\\", "<script>", "javascript:x"])
WORD = st.sampled_from(["Alice", "Bob", "Carol", "rule", "301", "203", "for", "against", "abstain", "adopted",
                        "defeated", "none", "extra", "score", "result", "next-player", "x3"])
TEXT = st.lists(st.one_of(NASTY, WORD, st.text(max_size=12)), max_size=8).map(" ".join)

LOG_PIECES = st.sampled_from([
    "## Proposal 301", "## Proposal 302: Title", "## Proposal #303 - Title", "## Proposal", "## Judgment 1: Q",
    "## Judgement 2", "## Event: Eve joins", "## Event", "## Something else", "Proposal 304\n---",
    "Proposer: ", "Date: 1982-06-03", "Date: ", "Votes: for ", "Votes: none", "Votes: for Alice; against ",
    "Result: ", "Die: ", "Points: Bob +", "Points: ", "Scores: Alice ", "Scores: ", "Winner: ", "Sets: score Bob ",
    "Sets: result ", "Sets: next-player ", "Sets: ", "Effect: scoring.win = ", "Effect: ", "Players: +",
    "Players: -", "Turn: ", "Note: ", "Judge: ", "Amend rule 203 to read:", "Amend rule 203 by replacing \"",
    "Amend rule 203 by deleting \"unanimous\".", "Amend rule 201 by appending:", "Repeal rule ", "Enact rule: ",
    "Enact immutable rule ", "Transmute rule 109 to ", "Renumber rule 203 to ", "Retitle rule 203 to \"",
    "> quoted text", "> ", "", "",
])


def _as_read(text: str) -> str:
    """The text as the parsers get it from a file: line ends made "\n" (and the BOM dropped) by `decode`."""
    return decode(text.encode("utf-8", "surrogatepass"), "g", ErrorCollector()) or ""


LINES = st.lists(st.tuples(LOG_PIECES, TEXT).map("".join), max_size=30).map("\n".join).map(_as_read)

RULE_PIECES = st.sampled_from(["# Title", "## Immutable Rules", "## Mutable Rules", "## Other", "### 101",
                               "### 102. Title", "### 103: Title", "### ", "After: proposal ", "Date: ",
                               "Text of a rule.", "- a list item", "> a quote", "", ""])
RULES = st.lists(st.tuples(RULE_PIECES, TEXT).map("".join), max_size=30).map("\n".join).map(_as_read)

TOML_KEYS = st.sampled_from(list(SETTINGS) + ["[numbering]", "[adoption]", "[scoring]", "[limits]", "[turns]",
                                              "unknown", "a.b.c", "scoring.win.a.b"])
TOML_VALUES = st.one_of(
    st.integers(min_value=-10**30, max_value=10**30).map(str), st.sampled_from(
        ['"majority"', '"d6"', '"round(proposal * 2)"', '"x"', "true", "1982-06-01", "0.5", "nan", "inf", "[]",
         '["Alice", "Bob"]', '["Alice", "Alice"]', "{}", "[" * 40 + "]" * 40, "1" + "0" * 5000, '"""a"""', "'a'"]),
    TEXT)
TOML = st.lists(st.one_of(st.tuples(TOML_KEYS, TOML_VALUES).map(lambda kv: f"{kv[0]} = {kv[1]}"), TOML_KEYS,
                          TEXT), max_size=15).map("\n".join).map(_as_read)

FORMULA = st.lists(st.one_of(st.sampled_from(sorted(SCORING_NAMES) + [
    "+", "-", "*", "/", "//", "%", "**", "(", ")", ",", "round(", "floor(", "ceil(", "min(", "max(", "abs(",
    "__import__", "os", ".", "[", "]", "lambda", ":", "1e308", "9" * 50, "0.5", "0", "1", "\u00b2", "if", "else"]),
    TEXT), max_size=20).map("".join)


def _one_line_errors(errors: list[SourceError], file: str, lines: int) -> None:
    for error in errors:
        assert error.file == file and 0 <= error.line <= lines + 1, error
        assert "\n" not in str(error) and "\x1b" not in str(error), str(error)


@FUZZ
@given(LINES)
def test_the_log_parser_answers_with_its_own_errors(text: str) -> None:
    errors = ErrorCollector()
    parse_log([("g/log.md", text)], errors)
    _one_line_errors(errors.errors, "g/log.md", text.count("\n") + 1)


@FUZZ
@given(RULES, st.booleans())
def test_the_rules_parser_answers_with_its_own_errors(text: str, snapshot: bool) -> None:
    errors = ErrorCollector()
    parse_ruleset(text, "g/rules.md", errors, snapshot=snapshot)
    _one_line_errors(errors.errors, "g/rules.md", text.count("\n") + 1)


@FUZZ
@given(TOML)
def test_the_game_toml_reader_answers_with_its_own_errors(text: str) -> None:
    errors = ErrorCollector()
    parse_config(text, "g/game.toml", errors)
    _one_line_errors(errors.errors, "g/game.toml", text.count("\n") + 1)


@FUZZ
@given(TOML_VALUES)
def test_an_effect_value_is_a_value_or_a_value_error(text: str) -> None:
    try:
        parse_effect_value(text)
    except ValueError:
        pass


@FUZZ
@given(FORMULA, st.dictionaries(st.sampled_from(sorted(SCORING_NAMES)),
                                st.one_of(st.integers(-10**15, 10**15), st.floats(allow_nan=True))))
def test_the_formula_language_raises_only_formula_errors(text: str, values: dict) -> None:
    try:
        formula = compile_formula(text, SCORING_NAMES)
    except FormulaError:
        return
    try:
        formula.evaluate({name: values.get(name, 1) for name in formula.names_used})
    except FormulaError:
        pass


@settings(FUZZ, max_examples=40)
@given(TOML, RULES, LINES)
def test_a_whole_game_is_read_and_replayed_or_refused(toml: str, rules: str, log: str) -> None:
    """From text to replay, the path `check` takes: an ArchiveError naming lines, or a replay."""
    texts = {"g/game.toml": 'players = ["Alice", "Bob", "Carol"]\n' + toml,
             "g/rules.md": "## Mutable Rules\n\n### 203\nA rule-change is adopted if unanimous.\n\n" + rules,
             "g/log.md": log}
    try:
        game = _build_game("g", "g", texts, ErrorCollector())
    except ArchiveError as error:
        assert all("\n" not in str(problem) for problem in error.errors)
        return
    replay(game)


# A rules file's lines as games write them: the Markdown blocks a rule holds, each of which may start or end
# another (a list item followed at once by a quote line once made the reader loop for ever).
MARKDOWN_PIECES = st.sampled_from([
    "- item", "* item", "+ item", "1. item", "2) item", "-", "1.", "  - nested", "    deeper", "  continued", "text",
    "more text", "> quote", ">", "  > quote in an item", "```", "~~~", "  ```", "# Heading", "#### Deep", "===",
    "---", "***", "| a | b |", "|---|---|", "History: Enacted", "[a link](rules/1.md)", "`code [x](y)`", "",
    "**101** *Title*", "## Rule 3", "### 102. Title", "<!-- note -->", "Rule 7"])
MARKDOWN = st.lists(st.tuples(MARKDOWN_PIECES, st.sampled_from(["", " ", "  ", " text", "\\"])).map("".join),
                    max_size=30)


@contextmanager
def _bounded_work(files: set[str], budget: int):
    """Fail, from inside the code, once the functions of `files` have run `budget` lines between them: a loop
    that makes no progress is then an error, where it would otherwise never return (a deadline is only looked at
    after a call returns)."""
    steps = 0

    def each_line(frame, event, arg):
        nonlocal steps
        if event == "line":
            steps += 1
            if steps > budget:
                raise AssertionError(f"more than {budget} lines run: a loop that makes no progress")
        return each_line

    def each_call(frame, event, arg):
        return each_line if frame.f_code.co_filename in files else None

    previous = sys.gettrace()
    sys.settrace(each_call)
    try:
        yield
    finally:
        sys.settrace(previous)


@settings(FUZZ, max_examples=300)
@given(MARKDOWN, st.sets(st.integers(0, 30)))
def test_a_rules_text_in_markdown_is_read_with_bounded_work(lines: list[str], hard_breaks: set[int]) -> None:
    """Whatever the blocks and their order, reading a rule's Markdown (and a rules file of it) ends, after work
    that grows at most with the square of its lines (a paragraph's end is looked for from each line)."""
    budget = 400 * (len(lines) + 1) ** 2
    with _bounded_work({mdtext.__file__}, budget):
        mdtext.rule_markdown(lines, hard_breaks, link_base=None, path="rules.md")
    with _bounded_work({mdtext.__file__, rulesfile.__file__}, 10 * budget):
        try:
            rulesfile.read_ruleset("\n".join(lines), file="rules.md")
        except RulesetImportError:
            pass


def test_the_work_bound_stops_a_loop_that_makes_no_progress() -> None:
    """The bound itself: a loop of this file that never ends is stopped, with the reason."""
    def spin() -> None:
        while True:
            pass

    try:
        with _bounded_work({__file__}, 1000):
            spin()
    except AssertionError as stopped:
        assert "no progress" in str(stopped)
    else:
        raise AssertionError("the loop was not stopped")
