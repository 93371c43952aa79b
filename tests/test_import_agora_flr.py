"""`import agora` then `ruleset --format flr`: what the Rulekeepor's generator prints for each shape of his record, line
for line (issue 51: the FLR of the end equal to his), on a small repository of our own words."""
from __future__ import annotations

import re

import pytest

from generator.cli import main
from helpers import git_commit
from test_import_agora import run_import
from test_import_agora_whole import entry_yaml, sections

FLR = "{header}\n\n{ruleset}"
HEADER = "Rules: {num}\nHighest ID'd Rule Enacted: {hr}\n\n{toc}\n{powers}\n"


def rule_file(number: int, name: str, power: str, text: str, history: list[str], annotations: str = "") -> str:
    out = [f"id: {number}", f"name: {name}", f"power: {power}", "text: |", *(f"  {line}" for line in text.split("\n"))]
    return "\n".join(out + ["history:", *history]) + "\n" + annotations


def annotation(cases: list[tuple[str, str]], folded: list[str]) -> str:
    """One annotation in his YAML: its cases (number, called date) and a folded text of these lines."""
    out = ["- cfjs:"] + [f"  - id: '{number}'\n    called: {called}" for number, called in cases]
    return "\n".join(out + ["  text: >", *(f"    {line}" for line in folded)]) + "\n"


FIRST = annotation([("11", "2019-01-02")], ["First finding, with a tpyo."])
FIRST_FIXED = annotation([("11", "2019-01-02")], ["First finding, with no typo."])
# Two cases, the second's date ISO too; a line with two spaces inside, and one ending in a space (folded: two).
SECOND = annotation([("12", "2019-02-03"), ("13", "2019-03-04")], ["Second finding.  Two spaces", "kept by the ",
                                                                    "generator."])
THIRD = annotation([("14", "2019-04-05")], ["Third finding."])
ENACTED = entry_yaml("enactment", "2019-12-01", "proposal: '1'")
AMENDED = entry_yaml("amendment", "2020-02-10", "proposal: '2'")
BY_4 = entry_yaml("amendment", "2020-03-05", "proposal: '4'")
BY_5 = entry_yaml("amendment", "2020-03-03", "proposal: '5'")
BETWEEN = annotation([("15", "2020-03-14")], ["Added between."])
POWER_LATER = entry_yaml("power-change", "2020-02-20", "proposal: '3'", old_power="2.0", new_power="3.0")


@pytest.fixture
def flr(tmp_path, capsys):
    repo = tmp_path / "ruleset"

    def commit(subject: str, day: str, files: dict[str, str]) -> None:
        git_commit(repo, subject, files, date=f"{day}T12:00:00")

    config = {"rules_data/config/flr_format": FLR, "rules_data/config/slr_format": FLR,
              "rules_data/config/header": HEADER, "rules_data/config/index": sections(("All", [101, 102]))}
    commit("Start", "2020-01-01", {**config,
                                   "rules_data/rules/101": rule_file(101, "Written", "2.0", "Power as written.",
                                                                     [ENACTED], "annotations:\n" + FIRST + SECOND + THIRD),
                                   "rules_data/rules/102": rule_file(102, "Later", "3", "Power 3.", [ENACTED])})
    # A rewording of the first annotation: it keeps its place.
    commit("Fix a typo", "2020-02-01", {"rules_data/rules/101": rule_file(
        101, "Written", "2.0", "Power as written.", [ENACTED], "annotations:\n" + FIRST_FIXED + SECOND + THIRD)})
    commit("Proposal 2", "2020-02-10", {"rules_data/rules/102": rule_file(102, "Later", "3", "Power three.",
                                                                          [ENACTED, AMENDED])})
    # A change of power no commit shows, `3.0` in the entry, `3` in the rule's file.
    commit("Histories", "2020-03-01", {"rules_data/rules/102": rule_file(102, "Later", "3", "Power three.",
                                                                         [ENACTED, AMENDED, POWER_LATER])})
    # A change recorded after a later one: his history puts it before that one.
    commit("Proposal 4", "2020-03-05", {"rules_data/rules/102": rule_file(102, "Later", "3", "Power 3!",
                                                                          [ENACTED, AMENDED, POWER_LATER, BY_4])})
    commit("Proposal 5", "2020-03-10", {"rules_data/rules/102": rule_file(
        102, "Later", "3", "Power 3!!", [ENACTED, AMENDED, POWER_LATER, BY_5, BY_4])})
    # An annotation added between others.
    commit("Annotate", "2020-03-15", {"rules_data/rules/101": rule_file(
        101, "Written", "2.0", "Power as written.", [ENACTED], "annotations:\n" + FIRST_FIXED + BETWEEN + SECOND + THIRD)})
    # A rule enacted by a proposal no history names now, taken out by a commit that records no repeal.
    commit("Proposal 6", "2020-03-20", {"rules_data/rules/109": rule_file(109, "Gone", "1", "Never was.", [
        entry_yaml("enactment", "2020-03-20", "proposal: '6'")]), "rules_data/config/index": sections(
        ("All", [101, 102, 109]))})
    commit("Some fixes", "2020-03-25", {"rules_data/rules/109": None, "rules_data/config/index": config[
        "rules_data/config/index"]})
    code, _, said = run_import(tmp_path, capsys, "--ruleset", str(repo))
    assert code == 0, said
    out = tmp_path / "flr.txt"
    assert main(["ruleset", str(tmp_path / "agora"), "--format", "flr", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8"), "\n".join((tmp_path / "agora" / name).read_text(encoding="utf-8")
                                                      for name in ("log/2020.md", "IMPORT.md"))


def test_a_power_is_printed_as_the_record_writes_it_and_counted_as_its_value(flr):
    flr, _ = flr
    assert "Rule 101/0 (Power=2.0)\nWritten\n" in flr
    assert "Rule 102/3 (Power=3)\nLater\n" in flr  # (his entry's 3.0 is the file's 3)
    assert "1 with Power=2\n1 with Power=3\n" in flr


def test_a_reworded_annotation_keeps_its_place_and_spaces_within_a_line_are_kept(flr):
    flr, _ = flr
    rule = flr[flr.index("Rule 101/0"):flr.index("Rule 102/3")]
    assert rule.endswith("Annotations:\n"
                         "CFJ 11 (called 02 Jan 2019): First finding, with no typo.\n"
                         "CFJ 15 (called 14 Mar 2020): Added between.\n"
                         "CFJ 12 (called 03 Feb 2019), CFJ 13 (called 04 Mar 2019): Second\n"
                         "    finding.  Two spaces kept by the  generator.\n"
                         "CFJ 14 (called 05 Apr 2019): Third finding.\n\n"
                         "------------------------------------------------------------------------\n"), rule


def test_an_entry_that_removes_and_adds_annotations_rewords_them_in_place():
    """Its first Annotate takes the first removed one's place (listed right after it, struck), the rest go last."""
    from generator.engine.replay import annotation_spans
    from generator.model import Change, Source

    def change(kind: str, text: str) -> Change:
        return Change(kind, Source("log.md", 1), rule=1, text=text)

    spans = annotation_spans(["A", "B", "C"], [(change("unannotate", "A"), 4), (change("unannotate", "C"), 4),
                                               (change("annotate", "A2"), 4), (change("annotate", "C2"), 4),
                                               (change("annotate", "D"), 4), (change("unannotate", "B"), 5),
                                               (change("annotate", "E"), 6)])
    assert [(span.text, span.made, span.removed) for span in spans] == [
        ("A", -1, 4), ("A2", 4, None), ("B", -1, 5), ("C", -1, 4), ("C2", 4, None), ("D", 4, None), ("E", 6, None)]


def test_a_power_as_written_survives_a_record_and_a_pickle_and_computes_as_its_value():
    import pickle
    from fractions import Fraction

    from generator.model import Change, Source, WrittenDecimal
    from generator.parse.source import read_written_decimal
    from generator.records import decoded, encoded

    power = read_written_decimal("2.50")
    assert power == Fraction(5, 2) and hash(power) == hash(Fraction(5, 2)) and str(power) == "2.50"
    assert type(power + 1) is Fraction and power + 1 == Fraction(7, 2)
    made = Change("power", Source("log.md", 3), rule=1, power=power)
    for back in (decoded(encoded(made, Change), Change).power, pickle.loads(pickle.dumps(power))):
        assert type(back) is WrittenDecimal and back.written == "2.50" and back == power
    plain = decoded(encoded(Change("power", Source("log.md", 3), rule=1, power=Fraction(3)), Change), Change).power
    assert type(plain) is Fraction and plain == 3


def test_history_lines_in_the_records_order_a_change_recorded_late_at_its_place(flr):
    flr, log = flr
    assert "History: Amended(2) by P5, 2020-03-03\nRevision: 3\nPlace: 3\n" in log
    assert flr[flr.index("Rule 102/3"):].startswith(
        "Rule 102/3 (Power=3)\nLater\n\n      Power 3!!\n\nHistory:\n\nEnacted by P1, 01 Dec 2019\n"
        "Amended(1) by P2, 10 Feb 2020\nPower changed from 2.0 to 3.0 by P3, 20 Feb 2020\n"
        "Amended(2) by P5, 03 Mar 2020\nAmended(3) by P4, 05 Mar 2020\n\nAnnotations:\n")


def test_a_rule_the_record_struck_whole_is_failed_and_counts_in_no_header(flr):
    flr, log = flr
    assert "Highest ID'd Rule Enacted: 102\n" in flr and "Gone" not in flr
    assert ("Failed: Enact power 1 rule 109: Gone\n\n> ```\n> Never was.\n> ```\n\nCorrected: recorded at commit "
            in log)
    assert "the Rulekeepor later took rule 109 out of his record (no rule's history now names proposal 6, which " \
        "enacted it)" in " ".join(log.split())
    assert re.search(r"## Rules the Rulekeepor took out of his record whole \(each change to them failed\) \(1\)\n\n"
                     r"- rule 109, enacted by proposal 6 at commit [0-9a-f]{10}, taken out at commit [0-9a-f]{10} "
                     r"\(Some fixes\)\n", log)


def test_a_report_of_a_day_names_players_as_his_name_list_of_that_day(tmp_path, capsys):
    """His generator replaces names as name_replacement_data says when he publishes: each version of the file
    becomes `[[report.names]]` from its day to the day a version no longer gave it; History lines keep the
    record's names, and a report of a day names players as that day's list did. An event's `By:` names the
    player as now."""
    repo = tmp_path / "ruleset"
    by_2 = entry_yaml("amendment", "2020-01-05", "proposal: '2'")
    cleaned = entry_yaml("amendment", "2020-01-10", "cleaning:\n      by: Ann")
    config = {"rules_data/config/flr_format": FLR, "rules_data/config/slr_format": FLR,
              "rules_data/config/header": HEADER, "rules_data/config/index": sections(("All", [101]))}
    for subject, day, files in [
            ("Start", "2020-01-01", {**config, "rules_data/rules/101": rule_file(101, "Kept", "1", "Keep",
                                                                                 [ENACTED])}),
            ("Proposal 2", "2020-01-05", {"rules_data/rules/101": rule_file(101, "Kept", "1", "Keep it.",
                                                                            [ENACTED, by_2])}),
            ("Clean", "2020-01-10", {"rules_data/rules/101": rule_file(101, "Kept", "1", "Keep it!",
                                                                       [ENACTED, by_2, cleaned])}),
            ("Ann is Anna", "2020-02-01", {"name_replacement_data": "Ann:Anna\nBo:Bea\n"}),
            ("Ann again", "2020-03-01", {"name_replacement_data": "Bo:Bea\n"}),
            ("Ann is Annie", "2020-04-01", {"name_replacement_data": "Bo:Bea\nAnn:Annie\n"})]:
        git_commit(repo, subject, files, date=f"{day}T12:00:00")
    code, _, said = run_import(tmp_path, capsys, "--ruleset", str(repo))
    assert code == 0, said
    game = tmp_path / "agora"
    toml = (game / "game.toml").read_text(encoding="utf-8")
    assert toml.endswith("as that day's.\n[[report.names]]\nname = \"Ann\"\nas = \"Anna\"\nfrom = 2020-02-01\n"
                         "until = 2020-03-01\n\n[[report.names]]\nname = \"Bo\"\nas = \"Bea\"\nfrom = 2020-02-01\n\n"
                         "[[report.names]]\nname = \"Ann\"\nas = \"Annie\"\nfrom = 2020-04-01\n"), toml
    log = (game / "log" / "2020.md").read_text(encoding="utf-8")
    assert "By: cleaning (Annie)\n" in log and "History: Amended(2) by cleaning (Ann), 2020-01-10\n" in log
    for day, name in [("2020-01-20", "Ann"), ("2020-02-20", "Anna"), ("2020-03-20", "Ann"), ("2020-04-20", "Annie")]:
        assert main(["ruleset", f"{game}@{day}", "--format", "flr"]) == 0
        assert f"Amended(2) by cleaning ({name}), 10 Jan 2020\n" in capsys.readouterr().out, day
