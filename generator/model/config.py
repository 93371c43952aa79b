"""The mechanics of a game: the typed schema of game.toml, with the Suber Initial Set as defaults.

Each setting is declared once (type, default, allowed values) beside its section, as MkDocs declares its
config options. The same validation serves game.toml (parse/config.py reads the file) and the `Effect:`
lines of the log, which the engine applies mid-game.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..limits import MAX_DIGITS
from .dice import parse_dice
from .formula import ROUNDING_MODES, SCORING_NAMES, FormulaError, compile_formula
from .names import invisible_problem, name_problem, normal

METHODS = ("unanimous", "majority", "fraction", "index")
ORDERS = ("seating", "alphabetical", "surname", "custom", "rotating", "none")
VARIANTS = ("standard", "solitaire")
TICKS = ("after", "before")
WORDS = ("spaces", "letters")
ACTION_SOURCES = ("fixed", "immutable")


def _option(default: Any, *, choices: tuple[str, ...] = (), optional: bool = False, help: str = "",
            words: bool = False) -> Any:
    """A setting. `words`: the game's own words, or how its keepers arrange its rules, which no replay reads
    (a change to one takes the last replay whole: `Config.with_words`)."""
    return field(default=default, metadata={"choices": choices, "optional": optional, "help": help, "words": words})


@dataclass(frozen=True)
class Numbering:
    first_proposal: int = _option(301, help="the first proposal's number (Suber 108)")
    amend_renumbers: bool = _option(True, help="an amended or transmuted rule takes the proposal's number")
    enact_takes_proposal_number: bool = _option(True, help="an enacted rule takes the proposal's number")
    in_order: bool = _option(True, help="false: the log is in order of resolution (format 1.1)")
    next_rule: int | None = _option(None, optional=True, help="the least number a new rule may take (format 1.2)")


@dataclass(frozen=True)
class Adoption:
    method: str = _option("unanimous", choices=METHODS)
    fraction: float = _option(0.5, help="share of votes cast needed when method is fraction")
    then: str | None = _option(None, choices=METHODS, optional=True)
    after_circuits: int = _option(2)
    unless_amended: int | None = _option(None, optional=True)
    transmutation: str = _option("unanimous", choices=METHODS)
    index: Fraction = _option(Fraction(1), help="the adoption index of a proposal without an Index line (1.1)")
    quorum: int = _option(0, help="the ballots a decision needs; 0: none (1.1)")


AWARD_WHEN = ("adopted", "defeated", "resolved")
AWARD_TO = ("proposer", "for", "against", "voters", "all", "others")
AWARDS_PREFIX = "scoring.awards."


@dataclass(frozen=True, kw_only=True)
class Held:
    """(An extension) the days a setting of the keepers held over, where it changed in time (a section, a name
    their reports gave): from `since`, up to the day before `until` (None: from the start, to the end)."""

    since: dt.date | None = None
    until: dt.date | None = None

    def holds_on(self, day: dt.date | None) -> bool:
        """Whether it held on `day` (None: at the end)."""
        if day is None:
            return self.until is None
        return (self.since is None or self.since <= day) and (self.until is None or day < self.until)

    def shares_a_day_with(self, other: Held) -> bool:
        """Whether the two held on a day in common: on the later of their first days, if either has one (each
        holds on it or on no day after its first), else on the first day of all."""
        firsts = [day for day in (self.since, other.since) if day is not None]
        return not firsts or self.holds_on(max(firsts)) and other.holds_on(max(firsts))


@dataclass(frozen=True)
class Section(Held):
    """Format 1.2, `[[sections]]`: a part of the ruleset as its keepers arrange it (Agora's FLR: its categories),
    with their note on it and the rules it holds, by number; held for a time where the arrangement changed."""

    title: str
    note: str
    rules: tuple[int, ...]


def sections_on(sections: tuple[Section, ...], day: dt.date | None = None) -> tuple[Section, ...]:
    """The sections that held on `day`, in their order (None: those that hold at the end)."""
    return tuple(section for section in sections if section.holds_on(day))


@dataclass(frozen=True)
class Ratification:
    """A ratification of the ruleset (`[[report.ratifications]]`): when it took effect, and the date of the
    ruleset it ratified (None: not recorded)."""

    date: dt.date
    ruleset: dt.date | None = None


@dataclass(frozen=True)
class ReportName(Held):
    """(An extension) `[[report.names]]`: a name the keepers' reports write for a name their record gives (Agora's
    `name_replacement_data`: a player renamed), in the reports of the days it held."""

    record: str
    report: str


# The placeholders of a report's templates (docs/format.md, `[report]`), as the Rulekeepor's generator names them.
REPORT_PLACEHOLDERS = ("header", "num", "her", "hr", "hp", "line", "toc", "powers", "ruleset", "ratification", "date",
                       "asked")


@dataclass(frozen=True)
class Report:
    """`[report]`: the keepers' own text report of the rules in force (Agora's Full and Short Logical Rulesets):
    the templates of the full and the short report, the header both include, the width lines are wrapped and
    ruled at, the words of the last ratification, and the ratifications the header names."""

    full: str
    short: str
    header: str = ""
    width: int = 72
    ratification: str = "{ruleset} ruleset on {date}"
    ratifications: tuple[Ratification, ...] = ()
    names: tuple[ReportName, ...] = ()


@dataclass(frozen=True)
class Award:
    """Format 1.2, `[scoring.awards.NAME]`: points paid on what happens to a proposal (JamesWP rule 305: +5 to
    each who voted for an adopted proposal)."""

    name: str
    when: str  # adopted | defeated | resolved (either)
    to: str  # proposer | for | against | voters | all | others (all but the proposer)
    points: str  # a formula of the scoring names, as scoring.formula


@dataclass(frozen=True)
class Scoring:
    turn: str = _option("die", choices=("die", "formula", "none"))
    die: str = _option("d6")
    formula: str = _option("round((proposal - 291) * for_fraction)")
    rounding: str = _option("half-up", choices=ROUNDING_MODES)
    adopted: int = _option(0)
    defeated: int = _option(-10)
    against_adopted: int = _option(10)
    win: int = _option(100)
    after_win: str = _option("end", choices=("end", "reset"), help="reset: every score becomes 0 and play goes on")
    # Format 1.2: set by [scoring.awards.NAME] tables and by Effects naming one; in name order.
    awards: tuple[Award, ...] = field(default=(), metadata={"awards": True})


@dataclass(frozen=True)
class Limits:
    max_mutable: int = _option(25, help="0: no cap")


@dataclass(frozen=True)
class Rules:
    """Rule power (format 1.1, Agora's R1688): each rule carries a power that limits what may change it."""

    power: bool = _option(False, help="rules carry a power (a 'Power:' line in rulesets)")
    power_default: Fraction = _option(Fraction(1), help="the power of an enactment that names none")
    power_cap: Fraction | None = _option(None, optional=True, help="a proposal's power is at most this")
    power_exempt: Fraction | None = _option(None, optional=True,
                                            help="a proposal of at least this power is not power-checked")


@dataclass(frozen=True)
class Turns:
    order: str = _option("seating", choices=ORDERS)
    collation: str = _option("_0123456789abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Solitaire:
    """Where seed 000 is ambiguous, the reading the engine and the solver follow (docs/format.md)."""

    tick: str = _option("after", choices=TICKS, help="life spans run down after each turn's action, or before it")
    subsumer_cap: bool = _option(True, help="a subsumer's life span is capped at 8 too (rule 3's last sentence)")
    divide_initial: bool = _option(True, help="the mutable rules the game began with (100, 101) may be divided")
    words: str = _option("spaces", choices=WORDS, help="a word is a run of non-spaces, or of letters and digits")
    actions: str = _option("fixed", choices=ACTION_SOURCES,
                           help="an action stays available once its rule is transmuted, or only while it is immutable")


@dataclass(frozen=True)
class Aliases:
    """game.toml's `[aliases]` (an extension, after git's .mailmap): each person by the name the game knows them by,
    with the other names the record gives them (`Telnaior = ["Telna"]`). A ballot, a proposal or a score under
    one of those names is that person's, everywhere the replay reads a name."""

    people: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (name, the names played under besides it), as written

    @cached_property
    def person(self) -> dict[str, str]:
        """Each name played under -> the person's name (a frozen dataclass keeps this in its __dict__)."""
        return {alias: name for name, aliases in self.people for alias in aliases}

    def of(self, name: str) -> str:
        """The person a name in the record stands for: their name, or `name` itself when it is no alias."""
        return self.person.get(name, name)

    def names_of(self, name: str) -> tuple[str, ...]:
        """The names the person `name` played under besides it, as game.toml lists them."""
        return next((aliases for person, aliases in self.people if person == name), ())


@dataclass(frozen=True)
class Config:
    title: str = _option("", words=True)
    description: str = _option("", words=True)
    start: dt.date | None = _option(None, optional=True)
    players: tuple[str, ...] = _option(())
    variant: str = _option("standard", choices=VARIANTS)
    numbering: Numbering = field(default_factory=Numbering)
    adoption: Adoption = field(default_factory=Adoption)
    scoring: Scoring = field(default_factory=Scoring)
    limits: Limits = field(default_factory=Limits)
    turns: Turns = field(default_factory=Turns)
    rules: Rules = field(default_factory=Rules)
    solitaire: Solitaire = field(default_factory=Solitaire)
    sections: tuple[Section, ...] = field(default=(), metadata={"sections": True, "words": True})
    report: Report | None = field(default=None, metadata={"sections": True, "words": True})
    # (an extension) read by the replay, so not `words`: a change to it replays the game
    aliases: Aliases = field(default_factory=Aliases, metadata={"sections": True})

    def with_words(self, other: Config) -> Config:
        """This config with the words of `other` (the settings declared `words`, which no replay reads): equal
        to `other` when the two differ in nothing a replay reads."""
        return dataclasses.replace(self, **{name: getattr(other, name) for name in WORDS_SETTINGS})

    def get(self, key: str) -> Any:
        section, _, name = key.rpartition(".")
        return getattr(getattr(self, section) if section else self, name)

    def with_value(self, key: str, value: Any) -> "Config":
        """A copy with one validated setting changed; raises ValueError with a person's message."""
        if key.startswith(AWARDS_PREFIX):
            award = _award(key.removeprefix(AWARDS_PREFIX), value)
            awards = sorted([a for a in self.scoring.awards if a.name != award.name] + [award], key=lambda a: a.name)
            return dataclasses.replace(self, scoring=dataclasses.replace(self.scoring, awards=tuple(awards)))
        if key == "sections":
            return dataclasses.replace(self, sections=_sections(value))
        if key == "report":
            return dataclasses.replace(self, report=_report(value))
        if key == "aliases":
            return dataclasses.replace(self, aliases=_aliases(value))
        spec = _SCHEMA.get(key)
        if spec is None:
            raise ValueError(_unknown_key_message(key, value))
        checked = _check_value(key, spec, value)
        section, _, name = key.rpartition(".")
        if not section:
            return dataclasses.replace(self, **{name: checked})
        return dataclasses.replace(self, **{section: dataclasses.replace(getattr(self, section), **{name: checked})})


# The settings that are the game's own words (see _option), read off their declarations.
WORDS_SETTINGS = tuple(f.name for f in dataclasses.fields(Config) if f.metadata.get("words"))

SECTION_CLASSES = {"numbering": Numbering, "adoption": Adoption, "scoring": Scoring, "limits": Limits, "turns": Turns,
                   "rules": Rules, "solitaire": Solitaire}


def _schema() -> dict[str, dataclasses.Field]:
    schema: dict[str, dataclasses.Field] = {}
    for f in dataclasses.fields(Config):
        if f.name in SECTION_CLASSES:
            for sub in dataclasses.fields(SECTION_CLASSES[f.name]):
                schema[f"{f.name}.{sub.name}"] = sub
        else:
            schema[f.name] = f
    return schema


_SCHEMA = {key: spec for key, spec in _schema().items()
           if not spec.metadata.get("awards") and not spec.metadata.get("sections")}
SETTINGS: tuple[str, ...] = tuple(_SCHEMA)


def _award(name: str, value: Any) -> Award:
    """One award table, validated; raises ValueError in a person's words."""
    key = f"{AWARDS_PREFIX}{name}"
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ValueError(f"{key}: an award's name is letters, digits, '-' and '_'")
    if not isinstance(value, dict):
        raise ValueError(f'{key} must be a table, like {{when = "adopted", to = "for", points = "5"}}')
    unknown = sorted(set(value) - {"when", "to", "points"})
    if unknown:
        raise ValueError(f"{key}: unknown key '{unknown[0]}' (an award has when, to and points)")
    for part, choices in (("when", AWARD_WHEN), ("to", AWARD_TO)):
        if value.get(part) not in choices:
            allowed = ", ".join(f'"{c}"' for c in choices)
            raise ValueError(f"{key}.{part} must be one of {allowed}, not {_show(value.get(part, ''))}")
    points = value.get("points")
    if not isinstance(points, str):
        raise ValueError(f'{key}.points must be a formula in quotes, like points = "5"')
    try:
        compile_formula(points, SCORING_NAMES)
    except FormulaError as error:
        raise ValueError(f"{key}.points: {error}") from None
    return Award(name, value["when"], value["to"], points)

class SettingError(ValueError):
    """A setting that cannot be read, with the dotted key of what is wrong in it ("sections.2.rules": the 2nd
    `[[sections]]` table's rules), so that game.toml's reader can name that line."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


def _sections(value: Any) -> tuple[Section, ...]:
    """The `[[sections]]` tables, validated; raises SettingError in a person's words."""
    example = '[[sections]] tables, like title = "Foundations", note = "...", rules = [101, 102]'
    if not isinstance(value, list) or not all(isinstance(table, dict) for table in value):
        raise ValueError(f"sections must be {example}")
    sections: list[Section] = []
    placed: dict[int, list[Section]] = {}
    for number, table in enumerate(value, 1):
        where, key = f"sections: the {number}{_ordinal_suffix(number)} section", f"sections.{number}"
        section = _section(table, where, key)
        for rule in section.rules:
            if other := next((other for other in placed.get(rule, ()) if other.shares_a_day_with(section)), None):
                timed = other.since or other.until or section.since or section.until
                raise SettingError(f"{where} ('{section.title}') holds rule {rule}, which '{other.title}' holds "
                                   f"already" + (" on some of the same days" if timed else ""), f"{key}.rules")
            placed.setdefault(rule, []).append(section)
        sections.append(section)
    return tuple(sections)


def _section(table: dict, where: str, key: str) -> Section:
    """One `[[sections]]` table, validated (`where` names it in a message, `key` in game.toml)."""
    unknown = sorted(set(table) - {"title", "note", "rules", "from", "until"})
    if unknown:
        raise SettingError(f"{where}: unknown key '{unknown[0]}' (a section has title, note, rules, and from "
                           f"and until where it held for a time)", f"{key}.{unknown[0]}")
    held = _held(table, where, key)
    title, note, rules = table.get("title"), table.get("note", ""), table.get("rules", [])
    if not isinstance(title, str) or not title.strip() or not isinstance(note, str):
        raise SettingError(f"{where} needs a title, and its note (if any) is a string",
                           f"{key}.note" if isinstance(title, str) and title.strip() else f"{key}.title")
    if problem := invisible_problem(title, "title"):
        raise SettingError(f"{where}: {problem}", f"{key}.title")
    if not isinstance(rules, list) or not all(isinstance(n, int) and not isinstance(n, bool) and
                                              0 <= n < 10**MAX_DIGITS for n in rules):
        raise SettingError(f"{where} ('{title}'): rules must be a list of rule numbers, like [101, 102]",
                           f"{key}.rules")
    return Section(normal(title), normal(note), tuple(rules), **held)


def _held(table: dict, where: str, key: str) -> dict[str, dt.date | None]:
    """A table's `from` and `until` (Held's `since` and `until`), validated."""
    since, until = table.get("from"), table.get("until")
    for name, day in (("from", since), ("until", until)):
        if day is not None and (not isinstance(day, dt.date) or isinstance(day, dt.datetime)):
            raise SettingError(f"{where}: {name} must be a date, like {name} = 2019-05-08", f"{key}.{name}")
    if since is not None and until is not None and until <= since:
        raise SettingError(f"{where}: until ({until}) must be after from ({since})", f"{key}.until")
    return {"since": since, "until": until}


def _aliases(value: Any) -> Aliases:
    """The `[aliases]` table, validated; raises SettingError in a person's words, with the key at fault. (That
    an alias is no player's name of its own is checked once the whole file is read: `alias_problems`.)"""
    if not isinstance(value, dict):
        raise ValueError('aliases must be a table: [aliases], with lines like Telnaior = ["Telna"]')
    people: list[tuple[str, tuple[str, ...]]] = []
    claimed: dict[str, str] = {}  # alias -> whose
    for raw, names in value.items():
        key = f"aliases.{raw}"
        person = normal(raw)
        if problem := name_problem(person):
            raise SettingError(f"aliases: {problem}", key)
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise SettingError(f'aliases.{person} must be a list of the names the player played under, like '
                               f'["{person.lower() if person.lower() != person else person.upper()}"]', key)
        aliases = tuple(normal(n) for n in names)
        for alias in aliases:
            if problem := name_problem(alias):
                raise SettingError(f"aliases.{person}: {problem}", key)
            if alias == person:
                raise SettingError(f"aliases.{person} lists {person}, the player's own name", key)
            if alias in claimed:
                raise SettingError(f"aliases: {alias} is claimed by both {claimed[alias]} and {person}; a name "
                                   "stands for one player", key)
            claimed[alias] = person
        people.append((person, aliases))
    for person, _ in people:
        if person in claimed:
            raise SettingError(f"aliases: {person} is an alias of {claimed[person]}, and has aliases of its own: list "
                               f"them under {claimed[person]}", f"aliases.{person}")
    return Aliases(tuple(people))


def alias_problems(config: Config) -> list[tuple[str, str]]:
    """(key, message) for each alias that is a player's name of its own in `players`: the two would be one."""
    players = set(config.players)
    return [(f"aliases.{person}", f"aliases: {alias} is listed as {person}'s alias and as a player of its own in "
             f"players; a ballot under {alias} would count for {person}: remove one")
            for person, aliases in config.aliases.people for alias in aliases if alias in players]


def _report(value: Any) -> Report:
    """The `[report]` table, validated; raises SettingError in a person's words, with the key at fault."""
    keys = ("full", "short", "header", "width", "ratification", "ratifications", "names")
    if not isinstance(value, dict):
        raise ValueError('report must be a table: [report], with full = """...""" and short = """..."""')
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise SettingError(f"report: unknown key '{unknown[0]}' (it has {', '.join(keys)})", f"report.{unknown[0]}")
    for key in ("full", "short"):
        if not isinstance(value.get(key), str) or not value[key].strip():
            raise SettingError(f'report.{key} must be the report\'s template, a string like """...{{ruleset}}..."""',
                               f"report.{key}" if key in value else "report")
    for key in ("header", "ratification"):
        if not isinstance(value.get(key, ""), str):
            raise SettingError(f"report.{key} must be a string", f"report.{key}")
    for key in ("full", "short", "header", "ratification"):
        for name in re.findall(r"\{([a-z_]+)\}", value.get(key, "")):
            if name not in REPORT_PLACEHOLDERS:
                raise SettingError(f"report.{key}: no placeholder is named {{{name}}} (they are "
                                   + ", ".join(f"{{{n}}}" for n in REPORT_PLACEHOLDERS) + ")", f"report.{key}")
    width = value.get("width", 72)
    if not isinstance(width, int) or isinstance(width, bool) or not 20 <= width <= 1000:
        raise SettingError(f"report.width must be a whole number from 20 to 1000, not {_show(width)}", "report.width")
    ratifications = value.get("ratifications", [])
    example = "[[report.ratifications]] tables, like date = 2026-05-11, ruleset = 2025-10-12"
    if not isinstance(ratifications, list) or not all(isinstance(table, dict) for table in ratifications):
        raise SettingError(f"report.ratifications must be {example}", "report.ratifications")
    read = []
    for number, table in enumerate(ratifications, 1):
        key = f"report.ratifications.{number}"
        if set(table) - {"date", "ruleset"} or type(table.get("date")) is not dt.date \
                or type(table.get("ruleset", dt.date.min)) is not dt.date:
            raise SettingError(f"report.ratifications: the {number}{_ordinal_suffix(number)} must be a table with a "
                               f"date and, if known, the ruleset's date, like date = 2026-05-11, ruleset = 2025-10-12",
                               key)
        read.append(Ratification(table["date"], table.get("ruleset")))
    return Report(value["full"], value["short"], value.get("header", ""), width,
                  value.get("ratification", Report.ratification), tuple(read), _report_names(value.get("names", [])))


def _report_names(value: Any) -> tuple[ReportName, ...]:
    """`[[report.names]]`, validated: each a name of the record (`name`), the one the reports write (`as`) and the
    days it held (`from`, `until`); two for one name may not hold on a day in common."""
    example = '[[report.names]] tables, like name = "Jason", as = "Janet", from = 2022-11-27'
    if not isinstance(value, list) or not all(isinstance(table, dict) for table in value):
        raise SettingError(f"report.names must be {example}", "report.names")
    names: list[ReportName] = []
    for number, table in enumerate(value, 1):
        where, key = f"report.names: the {number}{_ordinal_suffix(number)}", f"report.names.{number}"
        unknown = sorted(set(table) - {"name", "as", "from", "until"})
        if unknown:
            raise SettingError(f"{where}: unknown key '{unknown[0]}' (it has name, as, and from and until where it "
                               "held for a time)", f"{key}.{unknown[0]}")
        for field_key in ("name", "as"):
            written = table.get(field_key)
            if not isinstance(written, str) or not written.strip() or "\n" in written:
                raise SettingError(f"{where} needs {field_key}, a name on one line, like name = \"Jason\", as = \"Janet\"",
                                   f"{key}.{field_key}" if field_key in table else key)
            if problem := invisible_problem(written, field_key):
                raise SettingError(f"{where}: {problem}", f"{key}.{field_key}")
        name = ReportName(normal(table["name"].strip()), normal(table["as"].strip()), **_held(table, where, key))
        if other := next((at for at, other in enumerate(names, 1)
                          if other.record == name.record and other.shares_a_day_with(name)), None):
            raise SettingError(f"{where} gives a name for '{name.record}', which the {other}{_ordinal_suffix(other)} "
                               "gives on some of the same days", f"{key}.name")
        names.append(name)
    return tuple(names)


def _ordinal_suffix(number: int) -> str:
    return "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


# Settings that describe the game rather than its mechanics: an `Effect:` may not change them, and says why.
NOT_BY_EFFECT = {
    "title": "the title names the archive, not a rule of play: change it in game.toml",
    "description": "the description is the archive's, not a rule of play: change it in game.toml",
    "start": "the game began once: an Effect cannot move its start",
    "players": "players join and leave by an event: 'Players: +Eve' or 'Players: -Dave'",
    "variant": "the variant decides how the whole log is read: it cannot change mid-game",
    "rules.power": "it decides how rules.md and the snapshots are read: set it in game.toml",
    "sections": "the sections are the keepers' arrangement of the rules, not a rule of play: change them in "
                "game.toml",
    "report": "the report is the keepers' layout of the rules, not a rule of play: change it in game.toml",
    "aliases": "the names a player played under are the record's, for the whole game: list them in game.toml",
    **{f"solitaire.{f.name}": "a reading of Solitaire Nomic, whose log has no Effects: set it in game.toml"
       for f in dataclasses.fields(Solitaire)},
}

# The rules.* keys that mean something only while rules.power is true.
POWER_KEYS = ("rules.power_default", "rules.power_cap", "rules.power_exempt")


def _unknown_key_message(key: str, value: Any = None) -> str:
    import difflib

    if isinstance(value, dict):  # a table: `[scorring]` is [scoring] mistyped, not one of its settings
        close = difflib.get_close_matches(key, [*SECTION_CLASSES, "sections", "report", "aliases"], n=1)
        return f"unknown table [{key}]" + (f" (did you mean [{close[0]}]?)" if close else "")
    close = difflib.get_close_matches(key, SETTINGS, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown setting '{key}'{hint}"


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _check_value(key: str, spec: dataclasses.Field, value: Any) -> Any:
    """Validate one value against its declared type and choices; returns the value to store."""
    declared = spec.type if isinstance(spec.type, str) else str(spec.type)
    meta = spec.metadata
    if value is None or (meta.get("optional") and value == ""):
        if meta.get("optional"):
            return None
        raise ValueError(f"{key} needs a value")
    if meta.get("choices"):
        if not isinstance(value, str) or value not in meta["choices"]:
            allowed = ", ".join(f'"{c}"' for c in meta["choices"])
            raise ValueError(f"{key} must be one of {allowed}, not {_show(value)}")
    check = next((check for prefix, check in _TYPE_CHECKS if declared.startswith(prefix)), None)
    if check is not None:
        value = check(key, value)
    _check_meaning(key, value)
    return value


def _checked_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer, not {_type_name(value)} ({_show(value)})")
    if abs(value) >= 10**MAX_DIGITS:  # the engine's arithmetic stays within numbers a game can reach
        raise ValueError(f"{key}: number too large (at most {MAX_DIGITS} digits)")
    return value


def _checked_bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, not {_type_name(value)} ({_show(value)})")
    return value


def _checked_fraction(key: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a decimal number, not {_type_name(value)} ({_show(value)})")
    return Fraction(str(value))  # exact: 1.7 is seventeen tenths, as written (repr is the shortest decimal)


def _checked_float(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a number, not {_type_name(value)} ({_show(value)})")
    return value


def _checked_str(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a string, not {_type_name(value)} ({_show(value)})")
    return value


def _checked_names(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{key} must be a list of names, e.g. [\"Alice\", \"Bob\"]")
    value = tuple(normal(v) for v in value)  # as every text is read: NFC (model/names.py)
    if len(set(value)) != len(value):
        twice = next(v for v in value if value.count(v) > 1)
        raise ValueError(f"{key} names '{twice}' twice")
    return value


def _checked_date(key: str, value: Any) -> dt.date:
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{key} must be a date like 1982-06-01, not {_show(value)}") from None
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        raise ValueError(f"{key} must be a date like 1982-06-01, not {_show(value)}")
    return value


# Each declared type (the start of its annotation) and the check of a value of it.
_TYPE_CHECKS = (("int", _checked_int), ("bool", _checked_bool), ("Fraction", _checked_fraction),
                ("float", _checked_float), ("str", _checked_str), ("tuple", _checked_names), ("dt.date", _checked_date))


def _check_meaning(key: str, value: Any) -> None:
    """Range checks and the little languages (dice, formula, collation)."""
    if key == "adoption.fraction" and not 0 < value <= 1:
        raise ValueError(f"adoption.fraction must be more than 0 and at most 1, not {value}")
    if key == "scoring.win" and value < 1:
        raise ValueError(f"{key} must be a positive integer, not {value}")
    if key == "numbering.first_proposal" and value < 0:  # format 1.3: a game may number its proposals from 0
        raise ValueError(f"{key} must be a whole number, 0 or more, not {value}")
    if key in ("adoption.index", "rules.power_cap", "rules.power_exempt") and value is not None and value <= 0:
        raise ValueError(f"{key} must be more than 0, not {_show(value)}")
    if key == "rules.power_default" and value < 0:
        raise ValueError(f"{key} must not be negative, not {_show(value)}")
    if key in ("limits.max_mutable", "adoption.after_circuits", "adoption.quorum") and value < 0:
        raise ValueError(f"{key} must not be negative, not {value}")
    if key in ("numbering.next_rule", "adoption.unless_amended") and value is not None and value < 0:
        raise ValueError(f"{key} must be a rule number, not {value}")
    if key == "scoring.die":
        try:
            parse_dice(value)
        except ValueError as error:
            raise ValueError(f"scoring.die: {error}") from None
    if key == "scoring.formula":
        try:
            compile_formula(value, SCORING_NAMES)
        except FormulaError as error:
            raise ValueError(f"scoring.formula: {error}") from None
    if key == "players":
        for name in value:
            if problem := name_problem(name):
                raise ValueError(problem)
    if key == "turns.collation":
        lowered = value.lower()
        if len(set(lowered)) != len(lowered):
            raise ValueError("turns.collation lists a character twice")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"  # as TOML writes it
    if isinstance(value, Fraction):
        return f"{float(value):g}"
    return f'"{value}"' if isinstance(value, str) else repr(value)
