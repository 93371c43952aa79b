"""An adopted Effect as a player would say it ("from now on a majority adopts"), never as a setting
(`adoption.method becomes "majority"`): the replay's notes, which the pages show."""
from __future__ import annotations

from ..model.config import AWARDS_PREFIX, Award, Config
from .adoption import decimal_text, describe

# The order of play (turns.order) in words, as every sentence puts it: the game's page ("Order of play: ..."), an
# adopted Effect ("players move ...") and a finding ("it was Ann's turn, not Bob's (...)").
ORDER_WORDS = {"seating": "in seating order", "alphabetical": "in alphabetical order", "surname": "in order of surname",
               "custom": "in the game's collation order", "rotating": "in seating order, each circuit starting one "
               "seat later", "none": "in no set order"}
_AWARD_TO = {"proposer": "the proposer", "for": "each who voted for", "against": "each who voted against",
             "voters": "each who voted", "all": "every player", "others": "every player but the proposer"}
_AWARD_WHEN = {"adopted": "adopted", "defeated": "defeated", "resolved": "adopted or defeated"}


def _points(value: int) -> str:
    return f"{value} point{'' if abs(value) == 1 else 's'}"


def _switch(value: bool, yes: str, no: str) -> str:
    return yes if value else no


def effect_words(key: str, config: Config) -> str:
    """What the Effect on `key` made of the mechanics, `config` being those in force after it."""
    if key.startswith(AWARDS_PREFIX):
        name = key.removeprefix(AWARDS_PREFIX)
        award = next(a for a in config.scoring.awards if a.name == name)
        return _award_words(award)
    adoption, rules = config.adoption, config.rules
    value = config.get(key)
    words = {
        "adoption.method": lambda: "from now on " + {"unanimous": "only a unanimous vote adopts",
                                                     "majority": "a majority adopts",
                                                     "index": "a proposal is adopted by its adoption index"}.get(
            value, f"{describe(value, adoption.fraction)} adopt"),
        "adoption.fraction": lambda: f"from now on {describe('fraction', value)} adopt (where a share decides)",
        "adoption.then": lambda: (f"after {adoption.after_circuits} complete circuits, {describe(value, adoption.fraction)}"
                                  " will adopt" if value else "adoption will not change after the circuits"),
        "adoption.after_circuits": lambda: f"the change of adoption waits for {value} complete circuits",
        "adoption.unless_amended": lambda: (f"the change of adoption is off if rule {value} is amended first" if value
                                            else "the change of adoption no longer depends on a rule"),
        "adoption.transmutation": lambda: f"from now on a transmutation needs {describe(value, adoption.fraction)}",
        "adoption.index": lambda: f"a proposal with no Index line has index {decimal_text(value)}",
        "adoption.quorum": lambda: f"a decision needs {value} ballots" if value else "a decision needs no quorum",
        "scoring.turn": lambda: {"die": "each turn scores a throw of the die", "formula": "each turn scores by the formula",
                                 "none": "a turn scores nothing"}[value],
        "scoring.die": lambda: f"the die thrown is {value}",
        "scoring.formula": lambda: f"a turn scores {value}",
        "scoring.rounding": lambda: f"the formula's points are rounded {value}",
        "scoring.adopted": lambda: f"an adopted proposal pays its proposer {_points(value)}",
        "scoring.defeated": lambda: (f"a defeated proposal costs its proposer {_points(-value)}" if value < 0
                                     else f"a defeated proposal pays its proposer {_points(value)}"),
        "scoring.against_adopted": lambda: f"each who votes against an adopted proposal gains {_points(value)}",
        "scoring.win": lambda: f"the winning score becomes {value}",
        "scoring.after_win": lambda: _switch(value == "reset", "after a win every score becomes 0 and play goes on",
                                             "a win ends the game"),
        "limits.max_mutable": lambda: f"at most {value} rules may be mutable" if value else "any number of rules may "
                                                                                            "be mutable",
        "turns.order": lambda: f"from the next circuit, players move {ORDER_WORDS[value]}",
        "turns.collation": lambda: "from the next circuit, names are sorted in a new collation order",
        "numbering.first_proposal": lambda: f"proposals are numbered from {value} on",
        "numbering.amend_renumbers": lambda: _switch(value, "an amended rule takes the proposal's number",
                                                     "an amended rule keeps its number"),
        "numbering.enact_takes_proposal_number": lambda: _switch(value, "an enacted rule takes the proposal's number",
                                                                 "an enacted rule takes the number it names"),
        "numbering.in_order": lambda: _switch(value, "proposals are recorded in the order of their numbers",
                                              "proposals are recorded in the order they took effect"),
        "numbering.next_rule": lambda: f"the next new rule is numbered {value} or more" if value
        else "new rules may take any free number",
        "rules.power_default": lambda: f"a rule enacted without a power has power {decimal_text(rules.power_default)}",
        "rules.power_cap": lambda: (f"a proposal takes effect with power {decimal_text(value)} at most" if value
                                    is not None else "a proposal's power has no cap"),
        "rules.power_exempt": lambda: (f"a proposal of power {decimal_text(value)} or more may change any rule"
                                       if value is not None else "no proposal is exempt from rule powers"),
    }.get(key)
    return words() if words else f"{key} is now {value}"


def _award_words(award: Award) -> str:
    if award.points.strip() == "0":
        return f"the award '{award.name}' pays nothing from now on"
    points = f"{award.points} points" if award.points.strip() != "die" else "a throw of the die"
    return f"from now on {_AWARD_TO[award.to]} gains {points} when a proposal is {_AWARD_WHEN[award.when]}"
