"""`import agora` then `ruleset --format flr`: what the Rulekeepor's generator prints for each shape of his record, line
for line (issue 51: the FLR of the end equal to his), on a small repository of our own words."""
from __future__ import annotations

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
    code, _, said = run_import(tmp_path, capsys, "--ruleset", str(repo))
    assert code == 0, said
    out = tmp_path / "flr.txt"
    assert main(["ruleset", str(tmp_path / "agora"), "--format", "flr", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_a_power_is_printed_as_the_record_writes_it_and_counted_as_its_value(flr):
    assert "Rule 101/0 (Power=2.0)\nWritten\n" in flr
    assert "Rule 102/1 (Power=3)\nLater\n" in flr  # (his entry's 3.0 is the file's 3)
    assert "1 with Power=2\n1 with Power=3\n" in flr


def test_a_reworded_annotation_keeps_its_place_and_spaces_within_a_line_are_kept(flr):
    rule = flr[flr.index("Rule 101/0"):flr.index("Rule 102/1")]
    assert rule.endswith("Annotations:\n"
                         "CFJ 11 (called 02 Jan 2019): First finding, with no typo.\n"
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
