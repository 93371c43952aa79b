"""`import agora` dates each decision by what the record says of it now: the day its rule's history gives the
change it made (as the Rulekeepor corrected it since), never the day its batch's first change was first recorded;
a decision that changed no rule takes the day most of its batch has. A small record of the shape, in our own
words: one commit applying a batch with the days he first wrote, a later commit correcting them."""
from __future__ import annotations

import subprocess

from generator.cli import main
from helpers import git_commit
from test_import_agora import FIRST, batch, entries, index, rule_file, run_import

EARLY, RIGHT, NEXT = "2020-04-01", "2020-04-21", "2020-04-22"


def _records(tmp_path):
    ruleset, assessor = tmp_path / "ruleset", tmp_path / "assessor"
    start = {f"rules_data/rules/{n}": rule_file(n, f"Rule {n}", "1", f"Text {n}.", [FIRST])
             for n in (101, 102, 103, 104)}
    git_commit(ruleset, "Start", {"rules_data/config/index": index(101, 102, 103, 104), **start},
               date="2020-01-01T12:00:00")

    def amended(n: int, day: str, proposal: int) -> str:
        return rule_file(n, f"Rule {n}", "1", f"Text {n}, amended.",
                         [FIRST, ("amendment", day, f'proposal: "{proposal}"')])

    # One commit applies the batch, 20-24: he first dates 20, 21 and 23 a day weeks early; 24's entry says a day
    # after the others (its own day, as the record gives it).
    git_commit(ruleset, "Proposals 20-24", {"rules_data/rules/101": amended(101, EARLY, 20),
                                            "rules_data/rules/102": amended(102, EARLY, 21),
                                            "rules_data/rules/103": amended(103, EARLY, 23),
                                            "rules_data/rules/104": amended(104, NEXT, 24)},
               date="2020-04-25T12:00:00")
    # Later he corrects 20's and 21's day, and strikes 23's change (the rule's text back, its entry gone).
    git_commit(ruleset, "Fix the dates", {"rules_data/rules/101": amended(101, RIGHT, 20),
                                          "rules_data/rules/102": amended(102, RIGHT, 21),
                                          "rules_data/rules/103": start["rules_data/rules/103"]},
               date="2020-05-01T12:00:00")
    git_commit(assessor, "Code", {"README.md": "The Assessor's tools.\n"})
    subprocess.run(["git", "-C", str(assessor), "checkout", "-q", "--orphan", "gh-pages"], check=True)
    subprocess.run(["git", "-C", str(assessor), "rm", "-q", "-rf", "."], check=True)
    voted = ([("Bea", "FOR"), ("Cy", "FOR")], {}, 6, 0)
    git_commit(assessor, "20-24", {"json/20-24.txt": batch(
        (20, "1.0", "ADOPTED", *voted), (21, "1.0", "ADOPTED", *voted),
        (22, "1.0", "REJECTED", [("Bea", "AGAINST"), ("Cy", "AGAINST")], {}, 0, 6),
        (23, "1.0", "ADOPTED", *voted), (24, "1.0", "ADOPTED", *voted))}, date="2020-05-02T12:00:00")
    return ruleset, assessor


def test_each_decision_is_dated_by_the_day_the_record_gives_its_change(tmp_path, capsys) -> None:
    ruleset, assessor = _records(tmp_path)
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    assert code == 0, said
    log = entries(files["log/2020.md"])
    days = {heading.split(":")[0]: text.split("\nDate: ", 1)[1][:10] for heading, text in log.items()
            if heading.startswith("Proposal ")}
    # 20 and 21 by their corrected day; 22 (rejected) and 23 (its change struck since) by the batch's day, the
    # one most of it has; 24 by its own.
    assert days == {"Proposal 20": RIGHT, "Proposal 21": RIGHT, "Proposal 22": RIGHT, "Proposal 23": RIGHT,
                    "Proposal 24": NEXT}, days
    assert [heading.split(":")[0] for heading in log] == ["Proposal 20", "Proposal 21", "Proposal 22", "Proposal 23",
                                                          "Proposal 24"]
    # What he first recorded is still said, and the struck change is still one that failed.
    twenty = log["Proposal 20: Idea 20"]
    assert f"History: Amended(1) by P20, {RIGHT}\nRevision: 1\nCorrected: recorded at commit " in twenty \
        and f"(2020-04-25) as 'Amended(1) by P20, {EARLY}'\n" in twenty
    assert "Failed: Amend rule 103" in log["Proposal 23: Idea 23"]
    assert main(["check", str(tmp_path / "agora")]) == 0, capsys.readouterr().out


def test_a_rules_text_of_a_day_holds_the_batchs_changes_only_from_the_recorded_day(tmp_path, capsys) -> None:
    ruleset, assessor = _records(tmp_path)
    assert run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))[0] == 0
    for day, amended in (("2020-04-10", False), (RIGHT, True)):
        assert main(["ruleset", f"{tmp_path / 'agora'}@{day}", "--format", "flr"]) == 0
        assert ("Text 101, amended." in capsys.readouterr().out) is amended, day


def _mistyped_record(tmp_path, days: dict[int, str]):
    """A ruleset and an assessor's record: one commit applying proposals 30 on, each amending a rule of its own with
    the history date `days` gives it, all adopted."""
    ruleset, assessor = tmp_path / "ruleset", tmp_path / "assessor"
    rules = tuple(range(101, 101 + len(days)))
    git_commit(ruleset, "Start", {"rules_data/config/index": index(*rules), **{
        f"rules_data/rules/{n}": rule_file(n, f"Rule {n}", "1", f"Text {n}.", [FIRST]) for n in rules}},
               date="2020-01-01T12:00:00")
    git_commit(ruleset, "Proposals", {f"rules_data/rules/{n}": rule_file(
        n, f"Rule {n}", "1", f"Text {n}, amended.", [FIRST, ("amendment", days[number], f'proposal: "{number}"')])
        for n, number in zip(rules, days)}, date="2021-03-25T12:00:00")
    git_commit(assessor, "Code", {"README.md": "The Assessor's tools.\n"})
    subprocess.run(["git", "-C", str(assessor), "checkout", "-q", "--orphan", "gh-pages"], check=True)
    subprocess.run(["git", "-C", str(assessor), "rm", "-q", "-rf", "."], check=True)
    voted = ([("Bea", "FOR"), ("Cy", "FOR")], {}, 6, 0)
    git_commit(assessor, "batch", {"json/batch.txt": batch(*((n, "1.0", "ADOPTED", *voted) for n in days))},
               date="2021-03-26T12:00:00")
    return ruleset, assessor


def test_a_leap_day_that_no_other_year_holds_is_read_as_written(tmp_path, capsys) -> None:
    """29 February 2020 among proposals of 2021: with their year it is no day, so nothing reads it otherwise."""
    ruleset, assessor = _mistyped_record(tmp_path, {30: "2021-02-27", 31: "2020-02-29", 32: "2021-03-01"})
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    assert code in (0, 1) and "mistyped" not in said and "bug" not in said, said
    assert "Date: 2020-02-29" in files["log/2020.md"]


def test_a_history_date_with_its_year_mistyped_is_read_as_the_proposals_beside_it_say(tmp_path, capsys) -> None:
    """January's slip (a new year's change dated with last year's year) and a digit slip (2010 for 2020): each
    date out of step with the proposals numbered beside it that fits between them with their year is read so,
    and said; a proposal adopted a few days out of its number's order keeps its day."""
    days = {30: "2021-01-10", 31: "2020-01-12", 32: "2021-01-12", 33: "2021-01-09", 34: "2010-01-20",
            35: "2021-01-21"}  # 31: January's slip; 33: adopted before 32; 34: 2010 for 2021
    ruleset, assessor = _mistyped_record(tmp_path, days)
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    assert code == 1, said
    assert ("proposal 31: the history entry's date 2020-01-12 is out of step with proposals 30 (2021-01-10) and 32 "
            "(2021-01-12): read as 2021-01-12, its year mistyped") in said
    assert "proposal 34: the history entry's date 2010-01-20 is out of step with proposals 33 (2021-01-09) and 35 " \
           "(2021-01-21): read as 2021-01-20, its year mistyped" in said
    assert "proposal 33:" not in said and "log/2020.md" not in files, said
    log = entries(files["log/2021.md"])
    found = {heading.split(":")[0]: text.split("\nDate: ", 1)[1][:10] for heading, text in log.items()
             if heading.startswith("Proposal ")}
    assert found == {f"Proposal {n}": day for n, day in {**days, 31: "2021-01-12", 34: "2021-01-20"}.items()}, found
    # the history line keeps the record's words: the FLR prints what the Rulekeepor wrote
    assert "2020-01-12" in log["Proposal 31: Idea 31"]
