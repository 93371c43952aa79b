"""import agora's sections over time (importers/agora_sections.py): the fewest `[[sections]]` tables, each with the
days it held, give on each day of an arrangement of the Rulekeepor's index that arrangement: its sections in
its order, each rule in its section, the rules of a section in its order."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from generator.importers.agora_sections import SectionSpan, _parts, section_spans
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
@pytest.mark.parametrize("kept", [False, True])
def test_each_days_sections_are_that_days_arrangement(seed, kept):
    """Also where the log keeps in force, at random, rules the index left out (`kept`): they may stay in their
    tables, which change nothing of what the index lists."""
    rng = random.Random(seed)
    arrangements = _random_arrangements(rng)
    ever = {rule for _, sections in arrangements for _, _, rules in sections for rule in rules}
    final = {rule for _, _, rules in arrangements[-1][1] for rule in rules}
    spans = section_spans(arrangements, ever, lambda rule, since, until: kept and random.Random(
        f"{seed} {rule} {since}").random() < 0.5)
    config = Config().with_value("sections", _tables(spans))  # read as game.toml's: no rule in two at once
    for number, (day, sections) in enumerate(arrangements):
        on = dt.date.fromisoformat(day) if number else dt.date.min
        rules = {rule for _, _, held in sections for rule in held}
        assert _shown(sections_on(config.sections, on), rules) == [(title, held) for title, _, held in sections
                                                                    if held], (seed, day)
    assert _shown(sections_on(config.sections), final) == [(title, held) for title, _, held in arrangements[-1][1]
                                                          if held]
    # Each table holds on each of its days no rule its section had left by then: those at the end hold the
    # index's last arrangement, as a keeper reads it in game.toml.
    for number, (day, sections) in enumerate(arrangements):
        on = dt.date.fromisoformat(day) if number else dt.date.min
        listed = {title: held for title, _, held in sections}
        rules = {rule for held in listed.values() for rule in held}
        enacted = {rule for _, later in arrangements[:number + 1] for _, _, held in later for rule in held}
        for section in sections_on(config.sections, on):
            assert [rule for rule in section.rules if rule in enacted and (rule in rules or not kept)] \
                == listed[section.title], (seed, day)
    if not kept:
        assert [(section.title, list(section.rules)) for section in sections_on(config.sections) if section.rules] \
            == [(title, held) for title, _, held in arrangements[-1][1] if held], seed


def test_a_section_that_only_gains_rules_is_one_table_and_one_that_loses_one_ends():
    arrangements = [("2020-01-01", [("A", "", [1, 2]), ("B", "", [3])]),
                    ("2020-02-01", [("A", "", [1, 2, 4]), ("B", "", [3])]),
                    ("2020-03-01", [("A", "", [1, 4]), ("B", "", [3, 5])]),
                    ("2020-04-01", [("A", "", [1, 4, 6]), ("B", "", [3, 5])])]
    spans = section_spans(arrangements, {1, 2, 3, 4, 5, 6})
    # 2 repealed: A's table ends that day, and the next holds the rules the index gives A from then on.
    assert [(span.title, span.rules, span.since, span.until) for span in spans] == [
        ("A", [1, 2, 4], "", "2020-03-01"), ("A", [1, 4, 6], "2020-03-01", ""), ("B", [3, 5], "", "")]


def test_a_rule_the_index_left_out_while_the_log_has_it_in_force_stays_in_its_table():
    arrangements = [("2020-01-01", [("A", "", [1, 2])]),
                    ("2020-02-01", [("A", "", [1])]),         # 2 left out: the log repeals it on 2020-02-20
                    ("2020-03-01", [("A", "", [1, 3])]),
                    ("2020-04-01", [("A", "", [1, 3, 4])])]
    spans = section_spans(arrangements, {1, 2, 3, 4}, lambda rule, since, until: rule == 2 and since < "2020-02-20")
    assert [(span.title, span.rules, span.since, span.until) for span in spans] == [
        ("A", [1, 2], "", "2020-03-01"), ("A", [1, 3, 4], "2020-03-01", "")]


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
        return Section("S", "", (), since=since, until=until)

    for _ in range(50):
        one, other = section(), section()
        both = any(one.holds_on(day) and other.holds_on(day) for day in days)
        assert one.shares_a_day_with(other) is both and other.shares_a_day_with(one) is both, (one, other)


@pytest.mark.parametrize("seed", range(200))
def test_a_tables_parts_print_on_each_day_what_the_whole_did(seed):
    """_parts cuts a table where a rule left its section: on each day, the part that holds prints every rule of
    the whole its section listed or the log has in force, in the whole's order; a part ends only where one goes."""
    rng = random.Random(seed)
    rules = list(range(1, rng.randint(2, 8)))
    days = sorted(rng.sample([f"2020-{month:02}-01" for month in range(2, 13)], rng.randint(1, 8)))
    days = [""] + days
    listed = [{rule for rule in rules if rng.random() < 0.5} for _ in days]
    alive = {rule: {day for day in days if rng.random() < 0.3} for rule in rules}  # days the log has it in force
    span = SectionSpan("A", "", rules, "", "")
    held = [(day, {("A", ""): members}) for day, members in zip(days, listed)]

    def in_force(rule: int, since: str, until: str) -> bool:
        return any(since <= day and (not until or day < until) for day in alive[rule])

    parts = _parts(span, held, in_force)
    assert [part.since for part in parts][0] == "" and parts[-1].until == ""
    assert all(one.until == other.since for one, other in zip(parts, parts[1:]))
    for day, members in zip(days, listed):
        part = next(part for part in parts if part.since <= day and (not part.until or day < part.until))
        assert part.rules == [rule for rule in rules if rule in set(part.rules)]  # the whole's order
        assert {rule for rule in rules if rule in members or day in alive[rule]} <= set(part.rules), (seed, day)
    for one, other in zip(parts, parts[1:]):  # a part ends only where one of its rules went
        members = listed[days.index(other.since)]
        assert any(rule not in members and other.since not in alive[rule] for rule in one.rules), (seed, other.since)
