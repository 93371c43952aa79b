"""`nomic-archive import agora` of a Rulekeepor's repository from its first commit, through each layout the
ruleset repository has had (2017: one YAML file per rule named by its title, in a folder per section and then
in one folder, with an index of titles; 2017-10: files named by number, the index still of titles; 2018: an index
of numbers in config/; 2020: rules_data/), built here in our own words, and the game the import writes."""
from __future__ import annotations

import re
import subprocess

import pytest

from generator.cli import main
from helpers import git_commit
from test_import_agora import entries, run_import

FIRST_DAY = "2017-05-01T12:00:00"


def titled_rule(number: int, name: str, power: str, text: str, lines: list[str], *, rev: int | None = None,
                cfj: bool = False) -> str:
    """A rule file of 2017: its history as the FLR's lines, its annotations under `cfjs`."""
    out = ["---", f"name: {name}", "history:"] + [f"- {line}" for line in lines] + ["text: |"]
    out += [f"  {line}" if line else "" for line in text.split("\n")]
    if cfj:
        out += ["cfjs:", "- cfjs:", "  - id: '77'", "    called: 20 June 2007", "  text:", "    text: A finding."]
    out += [f"id: {number}"] + ([f"rev: {rev}"] if rev is not None else []) + [f"power: {power}"]
    return "\n".join(out) + "\n"


def entry_yaml(kind: str, date: str, agent: str | None = None, **change: str) -> str:
    lines = ["- change:", f"    type: {kind}"] + [f"    {key.replace('_', '-')}: {value}" for key, value in change.items()]
    lines.append(f"  date: {date}")
    if agent:
        lines += ["  agent:", f"    {agent}"]
    return "\n".join(lines)


GAME_HISTORY = [entry_yaml("initial", "1993-06-30", mutability="immutable", id="101"),
                entry_yaml("mutation", "1995-03-15", "proposal: '14'", old_mi="unanimity", new_mi="3"),
                entry_yaml("amendment", "2005-08-06", "proposal: '20'")]


def numbered_rule(number: int, name: str, power: str, text: str, history: list[str], *, called: bool = False) -> str:
    """A rule file of 2017-10 on: its history as entries."""
    out = [f"id: {number}", f"name: {name}", f"power: {power}", "text: |"]
    out += [f"  {line}" if line else "" for line in text.split("\n")]
    out += ["history:"] + history
    if called:
        out += ["annotations:", "- cfjs:", "  - id: '77'", "    called:", "      between: 2007-06-01",
                "      and: 2007-06-30", "  text: A finding."]
    return "\n".join(out) + "\n"


def sections(*groups: tuple[str, list]) -> str:
    return "".join(f"- name: {name}\n  note: |\n    About {name}.\n  rules:\n" + "".join(f"  - {rule}\n" for rule in rules)
                   for name, rules in groups)


@pytest.fixture
def ruleset(tmp_path):
    """Proposals 130 to 135 in four layouts, and a proposal recorded with no change to the rules."""
    repo = tmp_path / "ruleset"
    game = ["Initial immutable rule 101, Agora's birth", "Mutated from MI=unanimity to MI=3 by Proposal 14, "
            "15 March 1995", "Amended(1) by Proposal 20 (Oldname), 6 August 2005"]
    git_commit(repo, "Initial commit.", {
        "rules/index": "---\nBasics:\n- The Game\n- Voting\nLater:\n- Old Rule\n",
        "rules/Basics/The Game": titled_rule(101, "The Game", "3", "Play the game.", game, rev=1, cfj=True),
        "rules/Basics/Voting": titled_rule(102, "Voting", "2", "Each ballot counts.",
                                           ["Created by Proposal 5 (Cy), 1 January 2001"]),
        "rules/Later/Old Rule": titled_rule(103, "Old Rule", "1", "Something old.",
                                            ["Created by Proposal 6, Sep. 5 2002"])}, date=FIRST_DAY)
    git_commit(repo, "Apply 130 Quick Fix.", {"rules/Basics/Voting": titled_rule(
        102, "Voting", "2", "Each ballot counts once.", ["Created by Proposal 5 (Cy), 1 January 2001",
                                                          'Amended(1) by Proposal 130 "Quick Fix" (Dee), 2 May 2017'])},
        date="2017-05-02T12:00:00")
    flat = {f"rules/{name}": subprocess.run(["git", "-C", str(repo), "show", f"HEAD:rules/{folder}/{name}"],
                                            capture_output=True, text=True, check=True).stdout
            for folder, name in (("Basics", "The Game"), ("Basics", "Voting"), ("Later", "Old Rule"))}
    git_commit(repo, "Change rule structure.", {**flat, "rules/Basics/The Game": None, "rules/Basics/Voting": None,
                                                "rules/Later/Old Rule": None}, date="2017-05-10T12:00:00")
    git_commit(repo, "Merge branch '131-new-rule'", {
        "rules/index": "---\nBasics:\n- The Game\n- Voting\nLater:\n- Old Rule\n- New Rule\n",
        "rules/New Rule": titled_rule(104, "New Rule", "1", "Something new.", [])}, date="2017-06-01T12:00:00")
    git_commit(repo, "Proposal 132", {"rules/Old Rule": None}, date="2017-07-01T12:00:00")  # the index lags
    git_commit(repo, "Fix the index", {"rules/index": "---\nBasics:\n- The Game\n- Voting\nLater:\n- New Rule\n"},
               date="2017-07-02T12:00:00")
    voting = [entry_yaml("enactment", "2001-01-01", "proposal: '5'"),
              entry_yaml("amendment", "2017-05-02", "proposal: '130'")]
    new_rule = [entry_yaml("enactment", "2017-06-01", "proposal: '131'")]
    git_commit(repo, "Name files by ID number, not title.", {
        "rules/index": None, "rules/The Game": None, "rules/Voting": None, "rules/New Rule": None,
        "index": "- name: Basics\n  rules:\n  - The Game\n  - Voting\n- name: Later\n  rules:\n  - New Rule\n",
        "rules/101": numbered_rule(101, "The Game", "3", "Play the game.", GAME_HISTORY),
        "rules/102": numbered_rule(102, "Voting", "2", "Each ballot counts once.", voting),
        "rules/104": numbered_rule(104, "New Rule", "1", "Something new.", new_rule)}, date="2017-10-30T12:00:00")
    new_rule.append(entry_yaml("amendment", "2018-07-30", "proposal: '133'"))
    git_commit(repo, "Transition to Python and Proposal 133", {
        "index": None, "config/index": sections(("Basics", [101, 102]), ("Later", [104])),
        "rules/104": numbered_rule(104, "New Rule", "1", "Something newer.", new_rule)}, date="2018-07-31T12:00:00")
    new_rule.append(entry_yaml("amendment", "2020-07-10", "proposal: '134'"))
    git_commit(repo, "Move ruleset data into new directory", {
        "config/index": None, "rules/101": None, "rules/102": None, "rules/104": None,
        "rules_data/config/index": sections(("Basics", [101, 102]), ("Later", [104])),
        "rules_data/rules/101": numbered_rule(101, "The Game", "3", "Play the game.", GAME_HISTORY, called=True),
        "rules_data/rules/102": numbered_rule(102, "Voting", "2", "Each ballot counts once.", voting),
        "rules_data/rules/104": numbered_rule(104, "New Rule", "1", "Something newer.", new_rule[:-1]),
        "rules_data/proposals/20": "id: '20'\ntitle: Tidy the game\nauthor: Oldname\n",
        "rules_data/proposals/131": "id: '131'\nname: Newly\nauthor: Cy\n",  # (as 8166's note, `name:`)
        "rules_data/proposals/134": "id: '134'\nauthor: Dee\n",
        "rules_data/proposals/133": "id: '133'\ntitle: Newer\nauthor: Oldname\ncoauthors:\n- Dee\n",
        "name_replacement_data": "Oldname:Newname\n"}, date="2020-07-01T12:00:00")
    git_commit(repo, "Proposal 134", {"rules_data/rules/104": numbered_rule(104, "New Rule", "1", "The newest.",
                                                                           new_rule)}, date="2020-07-11T12:00:00")
    git_commit(repo, "Proposal 135", {"rules_data/proposals/135": "id: '135'\ntitle: Words only\nauthor: Dee\n"
                                                                "power: '2.0'\n"}, date="2020-07-12T12:00:00")
    return repo


def log_of(files: dict[str, str]) -> dict[str, str]:
    return {heading: text for name, log in sorted(files.items()) if name.startswith("log/")
            for heading, text in entries(log).items()}


def test_every_layout_is_read_from_the_first_commit(tmp_path, capsys, ruleset) -> None:
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    assert code == 0, said
    log = log_of(files)
    assert [heading for heading in log if heading.startswith(("Proposal", "Unrecorded"))] == [
        "Proposal 130: Quick Fix", "Proposal 131: Newly", "Unrecorded: 132", "Proposal 133: Newer", "Proposal 134",
        "Proposal 135: Words only"]
    assert "Amend rule 102 to read:\n\n> ```\n> Each ballot counts once.\n> ```" in log["Proposal 130: Quick Fix"]
    assert "Proposer: Dee\nDate: 2017-05-02\n" in log["Proposal 130: Quick Fix"]  # as the FLR's line says
    assert "Enact power 1 rule 104: New Rule" in log["Proposal 131: Newly"]  # credited by the merge's branch
    # No record names 132's author (as none does 7879's): its number is unrecorded, its change an event by it. Its
    # file was removed, and the index fixed a commit later.
    assert "Proposal 132: The Rulekeepor applied it" in log["Unrecorded: 132"]
    assert "By: proposal 132\n\nRepeal rule 103." in log["Event: Proposal 132: rule 103"]
    assert "Amend rule 104 to read:\n\n> ```\n> Something newer.\n> ```" in log["Proposal 133: Newer"]
    assert "Amend rule 104 to read:\n\n> ```\n> The newest.\n> ```" in log["Proposal 134"]
    assert [heading for heading in log if heading.startswith("Event")] == ["Event: Proposal 132: rule 103"]  # (no layout change
    # is a change of the rules)
    assert "Proposer: Newname\nCo-authors: Dee\n" in log["Proposal 133: Newer"]
    toml = files["game.toml"]
    assert "first_proposal = 130" in toml and "start = 2017-05-01" in toml
    # The FLR's sections at the end, each with its note: a way to read the rules in force; those of the layout
    # before (no notes yet) held until the day its index changed, and Later's until 103 was repealed.
    assert ('[[sections]]\ntitle = "Basics"\nuntil = 2018-07-30\nrules = [101, 102]\n\n'
            '[[sections]]\ntitle = "Later"\nuntil = 2017-07-02\nrules = [103, 104]\n\n'
            '[[sections]]\ntitle = "Later"\nfrom = 2017-07-02\nuntil = 2018-07-30\nrules = [104]\n\n'
            '[[sections]]\ntitle = "Basics"\nnote = "About Basics."\nfrom = 2018-07-30\n'
            'rules = [101, 102]\n\n'
            '[[sections]]\ntitle = "Later"\nnote = "About Later."\nfrom = 2018-07-30\nrules = [104]\n') in toml
    assert "The end: 3 of the 3 rules in force in the Rulekeepor's ruleset" in files["IMPORT.md"]
    assert main(["check", str(tmp_path / "agora")]) == 0, capsys.readouterr()


def test_a_proposal_recorded_without_a_change_is_an_entry_with_its_power(tmp_path, capsys, ruleset) -> None:
    """Proposal 135's note is the only trace of it (as 9361's): adopted, changing no rule, its power its Power."""
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    entry = log_of(files)["Proposal 135: Words only"]
    assert entry.startswith("Proposal 135: Words only\nProposer: Dee\nDate: 2020-07-12\nPower: 2.0\nResult: adopted\n")
    assert "the Rulekeepor recorded it adopted, changing no rule" in entry
    assert re.search(r"Rulekeepor: \[[0-9a-f]{10}\]\(https://github\.com/AgoraNomic/ruleset/commit/[0-9a-f]{40}\)\.",
                     entry)
    assert "- Adopted, changing no rule: 135." in files["IMPORT.md"]


def test_history_before_the_archive_is_the_flrs_with_titles_and_authors(tmp_path, capsys, ruleset) -> None:
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    rules = files["rules.md"]
    game = rules.split("### 101. The Game\n")[1].split("\n### ")[0]
    # As the Rulekeepor keeps it now: the FLR's revision (Rule 101/1), the initial rule credited to the initial
    # ruleset, the mutability change a line of its own, proposal 20 with its title and its author as named now.
    assert game.startswith("Power: 3\nRevision: 1\nHistory: Initial immutable rule 101, Agora's birth\n"
                           "History: Mutated from MI=unanimity to MI=3 by P14, 1995-03-15\n"
                           "History: Amended(1) by P20 'Tidy the game' (Newname), 2005-08-06\n"), game
    # The annotation as the Rulekeepor writes it now (its call date as today's FLR gives it), not as in 2017.
    assert "Annotation: CFJ 77 (called between 2007-06-01 and 2007-06-30): A finding." in game
    assert "20 June 2007" not in game
    assert "correction" not in rules
    old = rules.split("### 103. Old Rule\n")[1]  # repealed before any structured history: the FLR's own line
    assert "History: Created by Proposal 6, Sep. 5 2002\n" in old


def test_annotation_dates_read_as_words(tmp_path, capsys, ruleset) -> None:
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--from", "134")
    assert "Annotation: CFJ 77 (called between 2007-06-01 and 2007-06-30): A finding." in files["rules.md"]
    assert "{" not in files["rules.md"]


def test_a_change_recorded_after_later_ones_is_written_where_it_was_recorded(tmp_path, capsys, ruleset) -> None:
    """Proposal 136 amends rule 102, proposal 137 amends it again; then a judgement says 136 failed and that proposal 134
    (decided before them) amended it: the Rulekeepor's text then holds 134's and 137's changes. Written with 134,
    his text would be undone by 136's and 137's: it stands where he recorded it, and the end is his (as rule 2651's
    in 2026)."""
    voting = [entry_yaml("enactment", "2001-01-01", "proposal: '5'"),
              entry_yaml("amendment", "2017-05-02", "proposal: '130'")]
    text = {136: "Each ballot counts twice.", 137: "Each ballot counts twice, loudly."}
    for number in (136, 137):
        voting.append(entry_yaml("amendment", f"2020-08-{number - 130:02}", f"proposal: '{number}'"))
        git_commit(ruleset, f"Proposal {number}", {"rules_data/rules/102": numbered_rule(
            102, "Voting", "2", text[number], voting), f"rules_data/proposals/{number}": "author: Cy\n"},
            date=f"2020-08-{number - 130:02}T12:00:00")
    judged = voting[:2] + [entry_yaml("amendment", "2020-07-10", "proposal: '134'"), voting[3]]
    git_commit(ruleset, "Apply judgement in CFJ 12", {"rules_data/rules/102": numbered_rule(
        102, "Voting", "2", "Each ballot counts, loudly.", judged)}, date="2020-09-01T12:00:00")
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    assert code == 0, said
    log = log_of(files)
    event = log["Event: Proposal 134 (Dee): rule 102"]
    assert event.startswith("Event: Proposal 134 (Dee): rule 102\nDate: 2020-09-01\nBy: proposal 134 (Dee)\n")
    assert "Each ballot counts, loudly." in event and "The Rulekeepor's history gives this change of 2020-07-10" in event
    assert "Its change to rule 102 is the event of 2020-09-01 where the Rulekeepor recorded it" in log["Proposal 134"]
    report = files["IMPORT.md"]
    assert "The end: 3 of the 3 rules in force" in report
    assert "rule 102: by proposal 134 (Dee) of 2020-07-10, recorded at commit" in report
    assert "rule 102: Amended(2) by P136 (Cy), 2020-08-06, removed at commit" in report
    assert main(["check", str(tmp_path / "agora")]) == 0, capsys.readouterr()


def test_the_end_is_held_against_the_rulekeepors(tmp_path, capsys, ruleset, monkeypatch) -> None:
    """A change the log lost is said, rule by rule, as a problem (exit 1)."""
    from generator.importers import agora

    real = agora._Importer._changes

    def losing(self, commit, date, subject, *args):
        found = real(self, commit, date, subject, *args)
        return [] if subject == "Proposal 134" else found

    monkeypatch.setattr(agora._Importer, "_changes", losing)
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    assert code == 1
    assert re.search(r"commit [0-9a-f]{10}: rule 104, after the log's last entry, differs in its text from the "
                     r"Rulekeepor's ruleset", said)
    assert "The end: 2 of the 3 rules in force" in files["IMPORT.md"]


def test_names_are_as_the_players_go_by_now(tmp_path, capsys, ruleset) -> None:
    """name_replacement_data's former names, and a committer's full name that starts with one, are written as the
    player is named now: in events' headings, By: lines, proposers and History: lines."""
    git_commit(ruleset, "Oldname Surname cleans Rule 102", {"rules_data/rules/102": numbered_rule(
        102, "Voting", "2", "Each ballot counts once only.",
        [entry_yaml("enactment", "2001-01-01", "proposal: '5'"), entry_yaml("amendment", "2017-05-02", "proposal: '130'"),
         entry_yaml("amendment", "2020-08-01", "cleaning:\n      by: Oldname Surname")])},
        date="2020-08-01T12:00:00", author="Oldname Surname")
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    assert '\n[aliases]\n"Newname" = ["Oldname"]\n' in files["game.toml"]  # the name played under, kept there
    assert "Oldname" not in "".join(files.values()).replace("Oldname -> Newname", "").replace('["Oldname"]', ""), said
    event = log_of(files)["Event: Cleaning (Newname): rule 102"]
    assert "By: cleaning (Newname)" in event
    assert "Proposer: Newname\n" in log_of(files)["Proposal 133: Newer"]


def test_the_preamble_says_where_import_md_is_without_a_link(tmp_path, capsys, ruleset) -> None:
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    for name, text in files.items():
        if name.startswith("log/"):
            preamble = text.split("\n## ")[0]
            assert "`IMPORT.md` in the game's folder, which is not part of the site" in preamble
            assert re.search(r"(?<!`)IMPORT\.md(?!`)", preamble) is None
    assert "IMPORT.md" not in files["game.toml"]


def test_annotations_added_later_are_events_and_a_rewording_removes_the_old_text(tmp_path, capsys, ruleset) -> None:
    """An annotation a commit adds is an `Annotate` change of an event; one reworded on the same case is the old
    text removed (`Unannotate`, format 1.4) and the new added, so that those in force at the end are the
    Rulekeepor's."""
    def with_notes(*notes: tuple[str, str]) -> str:
        return numbered_rule(101, "The Game", "3", "Play the game.", GAME_HISTORY) + "annotations:\n" + "".join(
            f"- cfjs:\n  - id: '{case}'\n    called: 2020-07-01\n  text: {text}\n" for case, text in notes)

    git_commit(ruleset, "Add some annotations", {"rules_data/rules/101": with_notes(
        ("77", "A finding."), ("88", "Another finding."))}, date="2020-08-01T12:00:00")
    git_commit(ruleset, "Reword an annotation", {"rules_data/rules/101": with_notes(
        ("77", "A finding."), ("88", "Another finding, reworded."))}, date="2020-08-02T12:00:00")
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset))
    assert code == 0, said
    log = "".join(text for name, text in files.items() if name.startswith("log/"))
    assert ("## Event: The Rulekeepor, annotating: rule 101\nDate: 2020-08-01\nBy: the Rulekeepor, annotating\n\n"
            "Annotate rule 101:\n\n> CFJ 88 (called 2020-07-01): Another finding.\n") in log
    assert ("Date: 2020-08-02\nBy: the Rulekeepor, annotating\n\nUnannotate rule 101:\n\n> CFJ 88 (called 2020-07-01): "
            "Another finding.\n\nAnnotate rule 101:\n\n> CFJ 88 (called 2020-07-01): Another finding, reworded.\n") in log
    assert main(["check", str(tmp_path / "agora")]) == 0, capsys.readouterr()


def test_a_batchs_name_is_a_link_whatever_it_holds() -> None:
    """The Assessor's file names are the record's: a comma and a space are escaped in the address, and
    brackets cannot end the link's words early."""
    from generator.importers.agora import _sources

    assert _sources("9354, 9356.txt", []) == ("Assessor: [9354, 9356.txt](https://github.com/AgoraNomic/assessor/blob/"
                                              "gh-pages/9354%2C%209356.txt).")
    assert "(https://github.com/AgoraNomic/assessor/blob/gh-pages/x%5D%28javascript%3Ay%29.txt)" in \
        _sources("x](javascript:y).txt", [])
    assert "[x\\](javascript:y).txt]" in _sources("x](javascript:y).txt", [])
