"""Notes: an adopted proposal whose text asks for a change to a numbered rule that the log's reader did not take
for a change is said (in every form of the report, on the Verification page and on the proposal's page), without
changing the verdict or the exit code; and proposals that rightly change no rule (Agora's, whose own text is kept
`As proposed:`, or a rule named in passing) get none."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.notes import _ASKS_FOR_A_CHANGE, _paragraphs

GAME_TOML = """title = "Notes"
start = 2026-01-01
players = ["Ann", "Bob"]

[scoring]
turn = "none"
defeated = 0
against_adopted = 0

[turns]
order = "none"
"""
RULES = """# Initial rules

## Mutable Rules

### 201. Days

A turn lasts one day.

### 202. Votes

A proposal needs a simple majority.
"""


def proposal(number: int, text: str, result: str = "adopted") -> str:
    return (f"## Proposal {number}: Longer days\nProposer: Ann\nDate: 2026-01-0{number - 299}\nVotes: for Ann, Bob\n"
            f"Result: {result}\n\n{text}\n\n") if result == "adopted" else \
        (f"## Proposal {number}: Longer days\nProposer: Ann\nDate: 2026-01-0{number - 299}\nVotes: against Ann, "
         f"Bob\nResult: {result}\n\n{text}\n\n")


def game(tmp_path: Path, log: str) -> Path:
    folder = tmp_path / "content" / "g"
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(GAME_TOML, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text(log, encoding="utf-8")
    return folder


UNREAD = 'Change rule 201 so "one day" becomes "two days".'
NOTE = ("content/g/log.md:1: note: proposal 301: its text asks for a change to rule 201 ('Change rule 201 so \"one "
        "day\" becomes \"two days\".'), but no change is read from it: adopted, it changes no rule. Write each "
        "change in a form of docs/format.md's table of changes, e.g. 'Amend rule 201 by replacing \"old words\" "
        "with \"new words\".'")


def test_an_adopted_proposal_whose_change_was_not_read_is_a_note_and_the_verdict_stands(tmp_path, capsys,
                                                                                       monkeypatch):
    game(tmp_path, proposal(301, UNREAD))
    monkeypatch.chdir(tmp_path)
    assert main(["check", "content"]) == 0
    assert capsys.readouterr().out == f"{NOTE}\ng: 1 proposal, consistent; 1 note\n"

    assert main(["check", "content", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["games"][0]
    assert report["consistent"] and report["findings"] == []
    assert report["notes"] == [{"file": "g/log.md", "path": "content/g/log.md", "line": 1, "kind": "unread-change",
                                "entry": "proposal 301", "message": NOTE.split(": proposal 301: ", 1)[1],
                                "rules": [201]}]

    assert main(["check", "content", "--format", "github"]) == 0  # a warning fails no pull request
    warning, summary = capsys.readouterr().out.splitlines()
    assert warning.startswith("::warning file=content/g/log.md,line=1,title=nomic-archive check%3A a change not "
                              "read::proposal 301: its text asks for a change to rule 201")
    assert summary == "g: 1 proposal, consistent; 1 note"

    assert main(["build", "content", "-o", "site", "-q"]) == 0
    check_page = (tmp_path / "site" / "g" / "check.html").read_text(encoding="utf-8")
    assert "The log is consistent" in check_page
    assert re.search(r'<h2>Notes</h2>.*<li><a href="proposals/301.html">Proposal 301</a>: its text asks for a '
                     r"change to rule 201", check_page, re.DOTALL)
    page = (tmp_path / "site" / "g" / "proposals" / "301.html").read_text(encoding="utf-8")
    assert "<p>Adopted; it changed no rule's text.</p>\n<p class=\"note\" role=\"note\">Note: Its text asks" in page


def test_a_draft_whose_change_would_not_be_read_says_so_in_its_preview(tmp_path, capsys):
    folder = game(tmp_path, "")
    (folder / "drafts").mkdir()
    (folder / "drafts" / "d.md").write_text(f"## Proposal: Longer days\nProposer: Ann\n\n{UNREAD}\n", encoding="utf-8")
    assert main(["preview", str(folder / "drafts" / "d.md"), "--text"]) == 0
    assert "Note: its text asks for a change to rule 201 ('Change rule 201 so" in capsys.readouterr().out


@pytest.mark.parametrize("log", [
    # Agora's, as import agora writes them: the proposal's own text kept as proposed, the record's words around it.
    proposal(301, "Assessor: [8243-8247.txt](https://example.org/8243-8247.txt).\n\nIts change to rule 201 is the "
             "event of 2019-09-07 where the Rulekeepor recorded it, after later changes to the rule.\n\nAs proposed:"
             f"\n\n```\n{UNREAD}\n```"),
    proposal(301, f"As proposed:\n\n> {UNREAD}\n> Amend rule 202 to read: whatever."),
    # A rule named in passing, a question, a quotation, code, a change asked for without a number.
    proposal(301, "Why: rule 201 is unclear, and the keepers asked about it.\n\nRule 201 is fine as it is."),
    proposal(301, f"> {UNREAD}\n\n    {UNREAD}\n\nReplace the timer. Rule 201 says why."),
    proposal(301, "Change the rule on days so that they last longer."),
    # Not adopted, or its change read: the replay did what the record asks.
    proposal(301, UNREAD, result="defeated"),
    proposal(301, f"{UNREAD}\n\nAmend rule 201 by replacing \"one day\" with \"two days\"."),
], ids=["agora-record", "agora-quoted", "in-passing", "quoted-or-code", "no-number", "defeated", "read"])
def test_a_proposal_that_rightly_changes_no_rule_gets_no_note(tmp_path, capsys, log):
    folder = game(tmp_path, log)
    assert main(["check", str(folder), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"][0]["notes"] == []


def test_a_new_rule_asked_for_in_words_no_change_reads_is_a_note(tmp_path, capsys):
    folder = game(tmp_path, proposal(301, "Enact a rule called Tea:\n\n> Tea is served at four.")
                  + proposal(302, "Create a new rule on days."))
    assert main(["check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "content/g/log.md:1: note: proposal 301: its text asks for a new rule ('Enact a rule called Tea:'), but no " \
        "change is read from it: adopted, it enacts nothing. Write it as 'Enact rule: Title', its text below as a " \
        "blockquote (docs/format.md's table of changes)" in out
    assert "proposal 302: its text asks for a new rule ('Create a new rule on days.')" in out
    assert out.endswith("g: 2 proposals, consistent; 2 notes\n")


@pytest.mark.parametrize("paragraph, rule", [
    (UNREAD, 201),
    ("In rule 202, replace \"simple majority\" with \"two thirds\".", 202),
    ("Please update Rule #202 to say two thirds.", 202),
    ("Rule 201 is hereby amended to read: a turn lasts two days.", 201),
    ("Rule 201 shall read: a turn lasts two days.", 201),
    ("Rule 201 becomes immutable.", 201),
    ("Delete the last sentence of rule 202.", 202),
])
def test_the_forms_of_a_change_asked_for(paragraph, rule):
    match = _ASKS_FOR_A_CHANGE.match(paragraph)
    assert match and int(next(filter(None, match.groups()))) == rule


@pytest.mark.parametrize("paragraph", [
    "Its change to rule 2478 is the event of 2018-10-30 where the Rulekeepor recorded it.",
    "Why: rule 201 is unclear.", "Rule 201 is unclear.", "Replace the timer. See rule 201.",
    "Make sure nobody cheats, as rule 201 says.", "Ballots the Assessor resolved: Kate (conditional).",
])
def test_a_rule_named_in_passing_asks_for_nothing(paragraph):
    assert _ASKS_FOR_A_CHANGE.match(paragraph) is None


def test_paragraphs_are_prose_each_list_item_one():
    text = ("Why: x\n\n- Change rule 201 so a\n  goes on\n- Repeal it\n\n```\nChange rule 3\n```\n"
            "> Change rule 4\n\n    code\n")
    assert _paragraphs(text) == ["Why: x", "Change rule 201 so a goes on", "Repeal it"]
