"""import agora's sections over time (importers/agora_sections.py): the fewest `[[sections]]` tables, each with the
days it held, give on each day of an arrangement of the Rulekeepor's index that arrangement: its sections in
its order, each rule in its section, the rules of a section in its order."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from generator.importers.agora_sections import section_spans
from generator.model.config import Config, Section, sections_on


def _tables(spans) -> list[dict]:
    return [{"title": span.title, "note": span.note, "rules": span.rules,
             **({"from": dt.date.fromisoformat(span.since)} if span.since else {}),
             **({"until": dt.date.fromisoformat(span.until)} if span.until else {})} for span in spans]


def _shown(sections, rules: set[int]) -> list[tuple[str, list[int]]]:
    """The sections as a report shows the rules `rules`: each with the rules of them it holds, in order."""
    return [(section.title, [rule for rule in section.rules if rule in rules]) for section in sections
            if any(rule in rules for rule in section.rules)]


def _random_arrangements(rng: random.Random) -> list[tuple[str, list[tuple[str, str, list[int]]]]]:
    titles = ["A", "B", "C", "D", "E"]
    sections = {title: [] for title in rng.sample(titles, 3)}
    next_rule, out, day = 100, [], dt.date(2020, 1, 1)
    for _ in range(rng.randint(3, 25)):
        move = rng.random()
        if move < 0.4 or not any(sections.values()):  # an enactment, into a section
            rng.choice(list(sections.values())).insert(rng.randint(0, 3), next_rule)
            next_rule += 1
        elif move < 0.55:  # a repeal
            held = rng.choice([rules for rules in sections.values() if rules])
            held.remove(rng.choice(held))
        elif move < 0.7:  # a rule moved to another section
            held = rng.choice([rules for rules in sections.values() if rules])
            rule = rng.choice(held)
            held.remove(rule)
            rng.choice(list(sections.values())).append(rule)
        elif move < 0.8:  # a section added, or one gone (its rules to another)
            spare = [title for title in titles if title not in sections]
            if spare and rng.random() < 0.5:
                sections[rng.choice(spare)] = []
            elif len(sections) > 1:
                gone = sections.pop(rng.choice(list(sections)))
                rng.choice(list(sections.values())).extend(gone)
        elif move < 0.9:  # the sections reordered
            order = list(sections)
            rng.shuffle(order)
            sections = {title: sections[title] for title in order}
        else:  # a rule moved within its section
            held = rng.choice([rules for rules in sections.values() if rules])
            held.append(held.pop(0))
        day += dt.timedelta(days=rng.randint(1, 30))
        out.append((day.isoformat(), [(title, f"About {title}.", list(rules)) for title, rules in sections.items()]))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_each_days_sections_are_that_days_arrangement(seed):
    rng = random.Random(seed)
    arrangements = _random_arrangements(rng)
    ever = {rule for _, sections in arrangements for _, _, rules in sections for rule in rules}
    final = {rule for _, _, rules in arrangements[-1][1] for rule in rules}
    spans = section_spans(arrangements, ever)
    config = Config().with_value("sections", _tables(spans))  # read as game.toml's: no rule in two at once
    for number, (day, sections) in enumerate(arrangements):
        on = dt.date.fromisoformat(day) if number else dt.date.min
        rules = {rule for _, _, held in sections for rule in held}
        assert _shown(sections_on(config.sections, on), rules) == [(title, held) for title, _, held in sections
                                                                    if held], (seed, day)
    assert _shown(sections_on(config.sections), final) == [(title, held) for title, _, held in arrangements[-1][1]
                                                          if held]


def test_a_section_that_only_gains_and_loses_rules_is_one_table():
    arrangements = [("2020-01-01", [("A", "", [1, 2]), ("B", "", [3])]),
                    ("2020-02-01", [("A", "", [1, 2, 4]), ("B", "", [3])]),
                    ("2020-03-01", [("A", "", [1, 4]), ("B", "", [3, 5])])]
    spans = section_spans(arrangements, {1, 2, 3, 4, 5})
    assert [(span.title, span.rules, span.since, span.until) for span in spans] == [
        ("A", [1, 2, 4], "", ""), ("B", [3, 5], "", "")]


def test_a_rule_moved_ends_both_sections_tables():
    arrangements = [("2020-01-01", [("A", "", [1, 2]), ("B", "", [3])]),
                    ("2020-02-01", [("A", "", [1]), ("B", "", [3, 2])])]
    spans = section_spans(arrangements, {1, 2, 3})
    assert [(span.title, span.rules, span.since, span.until) for span in spans] == [
        ("A", [1, 2], "", "2020-02-01"), ("B", [3], "", "2020-02-01"),
        ("A", [1], "2020-02-01", ""), ("B", [3, 2], "2020-02-01", "")]


@pytest.mark.parametrize("seed", range(20))
def test_two_sections_share_a_day_where_a_day_holds_both(seed):
    """Section.shares_a_day_with (game.toml's check that no rule is in two sections at once) says what
    Section.holds_on says of every day: some day holds both."""
    rng = random.Random(seed)
    days = [dt.date(2020, 1, 1) + dt.timedelta(days=n) for n in range(8)]

    def section() -> Section:
        since, until = rng.choice([None, *days[1:-1]]), rng.choice([None, *days[1:-1]])
        if since is not None and until is not None and until <= since:
            since, until = (until, since) if until < since else (since, None)
        return Section("S", "", (), since, until)

    for _ in range(50):
        one, other = section(), section()
        both = any(one.holds_on(day) and other.holds_on(day) for day in days)
        assert one.shares_a_day_with(other) is both and other.shares_a_day_with(one) is both, (one, other)
