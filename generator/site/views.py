"""What pages are made of: the Page, a game's plan (its history and page names), its listing, and the views of
steps, rule versions and revisions that several kinds of page show. The game's pages (pages.py) and the
comparison pages (compare_pages.py) build on these; neither imports the other's internals.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import attrgetter, eq, is_not, itemgetter
from typing import Any

from markupsafe import Markup, escape

from ..cache import Cache
from ..engine.adoption import decimal_text
from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Change, EarlierProposal, Entry, Judgment, Proposal, Unrecorded, WrittenDecimal
from ..model.points import case_name
from ..model.urls import is_url_segment
from ..diffing.compare import change_notes, forget_texts
from ..diffing.redline import redline, render_html, summarize
from .history import GameHistory, Revision
from .markdown import render_markdown
from .paging import part_name
from .people import People, deeds, scored_players

# Long lists are cut into parts, so that no page grows with the game: the log (whose entries show the most: a
# part ends at LOG_PART entries, or before the entry that would take its texts past LOG_PART_CHARS, so that a
# part of a game of long proposals stays well under 300 KB), and the tables of proposals and of scores.
LOG_PART = 200
LOG_PART_CHARS = 150_000
ENTRY_CHARS = 300  # what an entry shows besides its text (its heading, facts, links), in characters of text
TABLE_PART = 250


@dataclass
class Page:
    """A page of the site: its path and how it is drawn. Its context is cheap to give (`context`) or made only
    when the page is drawn (`lazy`): listing a game's pages costs little, and serve draws only those asked for."""

    path: str  # relative to the site root, with forward slashes
    template: str
    context: dict[str, Any]
    kind: str = "html"
    lazy: Callable[[], dict[str, Any]] | None = None
    # A small page without the site's header (a redirect from an old rule number).
    stub: bool = False
    # Pages of one affinity (the pages of a few rules, of the proposals that changed them, their comparisons:
    # points.bucket_of) are drawn by one worker, so that the redlines they share are computed once. None: any.
    affinity: int | None = None

    def __post_init__(self) -> None:
        # Every link the templates build names a page by its path (after `root`, or from a page beside it),
        # so plain segments there keep every href a relative link: never `javascript:`, never out of the site.
        if not all(is_url_segment(segment) for segment in self.path.split("/")):
            raise ValueError(f"page path {self.path!r} is not made of plain URL segments")

    def full_context(self) -> dict[str, Any]:
        return {**self.context, **self.lazy()} if self.lazy else self.context

    @property
    def depth(self) -> int:
        return self.path.count("/")


class ScriptJSON(Markup):
    """JSON text made by `script_json`, which puts it in a script as it is: a long piece is joined from parts
    encoded once (points.py)."""


# What each kind of finding (the engine's codes, as the JSON report keeps them) is called on a page.
FINDING_KINDS = {
    "proposal-number": "proposal number", "rule-number": "rule number", "no-such-rule": "no such rule",
    "immutable": "immutable rule", "result": "result", "votes": "votes", "player": "player", "turn": "order of play",
    "die": "die", "formula": "scoring formula", "score": "score", "scores": "scores", "winner": "winner",
    "after-end": "after the game ended", "mutable-cap": "cap on mutable rules", "snapshot": "snapshot",
    "date": "date", "power": "power", "index": "adoption index", "by": "By line", "effect": "Effect line",
    "failed-change": "change recorded as failed", "action": "illegal action", "forced-division": "forced division",
    "unplayable": "unplayable game", "transmutation": "transmutation", "label": "label",
}


def finding_kind(kind: str) -> str:
    """A kind of finding in words: `proposal-number` is "proposal number" (an unknown code, its words)."""
    return FINDING_KINDS.get(kind, kind.replace("-", " "))


def script_json(value) -> ScriptJSON:
    """JSON safe inside <script> or a .js file: no way for text to close the script (the filter
    `tojson_script`). Each character is replaced alone, so the parts of a text encoded apart join to the text
    encoded whole."""
    if type(value) is ScriptJSON:
        return value
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return ScriptJSON(text)


# Stands for the cite of a redline's edits while its HTML is kept: a noncharacter, inside an attribute whose
# quotes rendered text never holds (Markdown escapes them).
_CITE = "\ufdd4"


def redline_view(old: str, new: str, cite: str) -> tuple[Markup, tuple[str, ...]]:
    """The redline of two texts as HTML, its edits citing `cite` (none when empty), and its summary."""
    html, summary = redline_rendered(old, new)
    return Markup(html.replace(f' cite="{_CITE}"', f' cite="{escape(cite)}"' if cite else "")), summary


def forget_batch() -> None:
    """Forget the redlines drawn, and what comparing texts kept, once a batch of pages is drawn: the pages that
    share a redline are one batch (Page.affinity), so no later batch asks for it again (of 10,113 redlines at
    10,000 proposals, 465 were asked for again), and each drawing process held them all to its end (some 30 MB)."""
    redline_rendered.cache_clear()
    forget_texts()


@lru_cache(maxsize=8192)
def redline_rendered(old: str, new: str) -> tuple[str, tuple[str, ...]]:
    """The redline of two texts rendered once, whatever page cites it: a rule's page, its proposal's page and
    the picker's comparisons show it, each citing the proposal from where it stands."""
    diff = redline(old, new)
    return str(render_html(diff, cite=_CITE, render_markdown=render_markdown)), tuple(summarize(diff))




class Recent:
    """Values each made from its key alone, kept while together they hold at most RECENT_CHARACTERS (`size`
    counts a value's), those used longest ago forgotten first: one forgotten is made again, the same, so the
    bound costs time, never a different page. For what many pages drawn one after another share (a version in
    force across the keyframes of its time): kept whole, at 100,000 entries, they grew the build's process by
    150 MB in the last seconds of its drawing, the keyframes and report pieces it draws last."""

    def __init__(self, size: Callable[[Any], int]) -> None:
        self._kept: dict[Any, Any] = {}  # in the order of their last use
        self._limit, self._size, self._held = RECENT_CHARACTERS, size, 0

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        value = self._kept.pop(key, _MISSING)
        if value is _MISSING:
            value = make()
            self._held += self._size(value)
            while self._held > self._limit and self._kept:
                self._held -= self._size(self._kept.pop(next(iter(self._kept))))
        self._kept[key] = value
        return value


# What a plan keeps of each kind of value Recent holds, in characters.
RECENT_CHARACTERS = 16 << 20


class Memo:
    """Values a pipeline keeps from one plan of a game to the next, each under the very values it was made from
    (a text, a tuple of texts): a hit is what computing gives, by construction, and nothing says what an edit
    touched. `turn`, each time the values are listed again, drops what the listing before did not use, so that
    what an edit replaced goes."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, Any], Any] = {}
        self._used: dict[tuple[str, Any], Any] = {}
        self._last: dict[str, tuple[Any, Any]] = {}  # of each kind, the last key and what was made from it
        self._compared: tuple = (None, None, [])  # the last two sequences `each` compared, and where they differ

    def last(self, kind: str, key: Any, make: Callable[[Any], Any], same: Callable[[Any, Any], bool] = eq) -> Any:
        """`make(key)`, a value made from `key` alone, taken from the plan before when it was made from a key
        equal to this one (`same`). One value of each kind is kept, and its key compared, never hashed: a key may be
        as long as a replay (all its versions, which an edit that changed no rule leaves the very same tuple)."""
        kept = self._last.get(kind)
        value = kept[1] if kept is not None and same(kept[0], key) else make(key)
        self._last[kind] = (key, value)
        return value

    def each(self, kind: str, items: Sequence[Any], make: Callable[[Any], Any]) -> tuple[Any, ...]:
        """`make` of each of `items` (a replay's steps), as a tuple: an item that is the very object the last call
        of `kind` had at its place takes the value made of it then, so that after an edit only the steps the
        replay made anew are read (reading a field of 10,000 entries scattered in memory costs milliseconds)."""
        items = tuple(items)
        kept = self._last.get(kind)
        if kept is None:
            values = tuple(map(make, items))
        else:
            before, made = kept
            common = min(len(items), len(before))
            # (the kinds of one plan compare the same two replays' steps: where they differ is found once)
            compared_items, compared_before, places = self._compared
            if compared_items is not items or compared_before is not before:
                places = list(compress(range(common), map(is_not, items, before)))
                self._compared = (items, before, places)
            if places or common < len(made) or common < len(items):
                remade = list(made[:common]) + [make(item) for item in items[common:]]
                for place in places:
                    remade[place] = make(items[place])
                values = tuple(remade)
            else:
                values = made
        self._last[kind] = (items, values)
        return values

    def kept(self, kind: str) -> Any:
        """The value of `kind` made last (from another key, maybe): what the next may take parts of, each part under
        what it was made from (RuleIndex)."""
        kept = self._last.get(kind)
        return kept[1] if kept is not None else None

    def of(self, kind: str, key: Any, make: Callable[[], Any]) -> Any:
        """The value `make` gives from the values `key` names (hashable, compared by value), made once."""
        found = self._used.get((kind, key), _MISSING)
        if found is _MISSING:
            found = self._kept.pop((kind, key), _MISSING)
            if found is _MISSING:
                found = make()
            self._used[kind, key] = found
        return found

    def turn(self) -> None:
        self._kept, self._used = self._used, {}


_MISSING = object()


@dataclass
class GamePlan:
    """What a game's pages are made from: its replay, the replay's indices and the proposals' page names, and
    what several pages read, made once (`once`). Made anew for each replay; nothing in it outlives the replay."""

    replay: Replay
    history: GameHistory
    slug: str
    proposal_pages: dict[int, str] = field(default_factory=dict)  # step index -> page name
    store: Cache | None = None  # the cache a build keeps between runs
    memo: Memo = field(default_factory=Memo)  # what the next plan of the game may take as it is
    # Format 1.2: the proposal steps of each number decided more than once (`Proposal 8188A`), in log order;
    # by rule identity, what rules.md keeps beside an initial rule's text (its `History:` lines and
    # `Annotation:` texts) and the annotations entries made ((change, step index), in log order).
    decisions: dict[int, list[Step]] = field(init=False)
    rule_notes: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = field(init=False)
    # Format 1.2: by rule identity, the revision an initial rule had when the archive starts (its `Revision:`);
    # None where the game keeps no revisions.
    revisions: dict[int, int] | None = field(init=False)
    annotations: dict[int, list[tuple[Change, int]]] = field(init=False)
    _made: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        proposal_steps = self.history.proposal_steps
        reused = self.memo.last("numbers decided again",
                                self.memo.each("proposal numbers", self.replay.steps, proposal_number), _decided_again)
        by_number: dict[int, list[Step]] = {}
        for step in proposal_steps if reused else ():
            if step.entry.number in reused:
                by_number.setdefault(step.entry.number, []).append(step)
        self.decisions = {number: steps for number, steps in by_number.items()
                          if any(step.entry.decision for step in steps)}
        initial_rules = self.replay.game.rules.rules
        noted = [rule for rule in initial_rules if rule.history or rule.annotations]
        revised = [rule for rule in initial_rules if rule.revision is not None]
        initial = {v.number: v.identity for v in self.replay.versions if v.start == -1} if noted or revised else {}
        self.rule_notes = {initial[rule.number]: (rule.history, tuple(text for text, _ in rule.annotations))
                           for rule in noted if rule.number in initial}
        self.revisions = {initial[rule.number]: rule.revision for rule in revised if rule.number in initial} \
            if revised else None
        self.annotations = {}
        for identity, change, index in self.replay.annotations:
            self.annotations.setdefault(identity, []).append((change, index))

    def once(self, name: str, make: Callable[[], Any]) -> Any:
        """A value several pages read (a list of the entries some pages show), made once per plan."""
        if name not in self._made:
            self._made[name] = make()
        return self._made[name]

    @property
    def people(self) -> People:
        """The game's players, each with their record and page (site/people.py)."""
        def made(key: tuple) -> People:
            return People(*key, TABLE_PART)
        return self.once("people", lambda: self.memo.last("people", (
            self.memo.each("deeds", self.replay.steps, deeds), scored_players(self.replay),
            self.replay.game.config.aliases), made))

    def person_view(self, name: str, from_dir: str) -> dict[str, str]:
        """A name as the record writes it, linked to its person's page (no link for a stranger), with the person's
        name where it is another (an alias, a former name)."""
        page, person = self.people.page(name), self.people.person(name)
        return {"name": name, "url": f"{from_dir}{page}" if page else "", "person": person if person != name else ""}

    def latest_date(self) -> dt.date | None:
        """The latest date of any entry."""
        return self.once("latest date", lambda: max(filter(None, (s.entry.date for s in self.replay.steps)),
                                                    default=None))

    def entry_anchor(self, step: Step) -> str:
        entry = step.entry
        if isinstance(entry, Proposal):
            return f"proposals/{self.proposal_pages[step.index]}.html"
        return f"{self.log_page(step.index)}#{log_anchor(step)}"

    def log_page(self, index: int) -> str:
        """The part of the log that shows entry `index`."""
        return part_name("log", bisect_right(self.log_parts(), index, key=attrgetter("start")) - 1)

    def log_parts(self) -> list[range]:
        """The entries each part of the log shows (see LOG_PART)."""
        return self.once("log parts", lambda: self.memo.last(
            "log parts", self.memo.each("entry lengths", self.replay.steps, _shown_length), _log_cut))

    def rule_page(self, identity: int) -> str:
        return f"rules/{self.history.page_number[identity]}.html"

    def revision(self, version: RuleVersion) -> int | None:
        """A version's revision, as its keepers count a rule's changes (Agora's `Rule 2139/12`): the initial
        rule's `Revision:`, one more for each version since (a rule made in the archive starts at 0); None
        where the game keeps no revisions."""
        if self.revisions is None and not self.recorded("revision"):
            return None
        return self.once("revisions", self._revisions)[version.identity, version.start]

    def _revisions(self) -> dict[tuple[int, int], int]:
        """Each version's revision: a change's `Revision:` (format 1.4) where one of those that made it gives one,
        else one more than the version before."""
        out = {}
        for identity, rule in self.history.rules.items():
            count = (self.revisions or {}).get(identity, 0) - 1
            for version in rule.versions:
                given = [change.revision for change in version.changes if change.revision is not None]
                count = given[-1] if given else count + 1
                out[identity, version.start] = count
        return out

    def earlier(self) -> list[EarlierProposal]:
        """Format 1.4: the proposals of earlier.md that have a page of their own, by number: those the log does
        not hold (a number the log holds keeps the log's page)."""
        def made() -> list[EarlierProposal]:
            earlier = self.replay.game.earlier
            if not earlier:  # (most games: the log's 10,000 proposal numbers not read at every save)
                return []
            logged = {step.entry.number for step in self.history.proposal_steps}
            return [p for p in earlier if p.number not in logged]
        return self.once("earlier", made)

    def proposal_url(self, number: int, from_dir: str) -> str | None:
        """The page of proposal `number`: the log's (its first, for a number it holds more than once), else
        earlier.md's, else the log's `Unrecorded` entry that names it (saying what the record holds); None when
        none does."""
        def made() -> dict[int, str]:
            pages = {p.number: str(p.number) for p in self.earlier()}
            for step in self.history.proposal_steps:
                pages.setdefault(step.entry.number, self.proposal_pages[step.index])
            return pages
        name = self.once("proposal numbers", made).get(number)
        if name is not None:
            return f"{from_dir}proposals/{name}.html"

        def runs() -> list[tuple[int, int, Step]]:  # (a run may be long: looked up, never spelled out)
            return sorted(((low, high, step) for step in self.replay.steps if isinstance(step.entry, Unrecorded)
                           for low, high in step.entry.ranges), key=itemgetter(0, 1))
        unrecorded = self.once("unrecorded runs", runs)
        at = bisect_right(unrecorded, number, key=itemgetter(0)) - 1
        return f"{from_dir}{self.entry_anchor(unrecorded[at][2])}" if at >= 0 and unrecorded[at][1] >= number \
            else None

    def recorded(self, key: str) -> bool:
        """Whether some change of the log gives `key` in its record (format 1.4: "revision")."""
        return self.once(f"recorded {key}", lambda: any(self.memo.each(
            f"recorded {key}", self.replay.steps, lambda step: any(
                getattr(change, key) not in (None, "") for change in getattr(step.entry, "changes", ())))))


def proposal_number(step: Step) -> tuple[int, str] | None:
    """A proposal's number and decision (`8188`, `A`); None for any other entry."""
    return (step.entry.number, step.entry.decision) if isinstance(step.entry, Proposal) else None


def _decided_again(numbered: tuple[tuple[int, str] | None, ...]) -> set[int]:
    """The numbers of proposals decided more than once (`proposal_number` of each step)."""
    return {number for number, count in Counter(map(itemgetter(0), filter(None, numbered))).items() if count > 1}


def _shown_length(step: Step) -> int:
    return ENTRY_CHARS + len(step.entry.body)


def _log_cut(lengths: tuple[int, ...]) -> list[range]:
    """The log's parts, from what each entry shows (`_shown_length`)."""
    starts, size = [0], 0
    for index, shown in enumerate(lengths):
        if index > starts[-1] and (index - starts[-1] == LOG_PART or size + shown > LOG_PART_CHARS):
            starts.append(index)
            size = 0
        size += shown
    return [range(start, end) for start, end in zip(starts, starts[1:] + [len(lengths)])]


def summaries(steps: Sequence[Step], summarize: Callable[[int, tuple[Step, ...]], Any], size: int = 256) -> list[Any]:
    """`summarize(start, run)` of each run of `size` entries of `steps` (`start`: where the run stands in them)."""
    return [summarize(start, tuple(steps[start:start + size])) for start in range(0, len(steps), size)]


# How a listed page is made: from the game's listing (its plan and the context every page has), the page's path
# and an argument (a rule's identity, a proposal's place, a part of a list...).
Maker = Callable[["Listing", str, Any], Page]


class Listing(dict):
    """A game's listing: each of its pages' paths with the function that makes the page and that function's
    argument. Adding a path costs a dict entry; the page is made (`make`) when asked for, and its costly context
    when it is drawn."""

    def __init__(self, slug: str, base: dict[str, Any], plan: GamePlan | None = None):
        super().__init__()
        self.slug, self.plan = slug, plan
        self.base = base  # in every page's context: the game's header, the site's title and address

    def add(self, path: str, maker: Maker, argument: Any = None) -> None:
        """List the page at `path` (under the game's folder), made by `maker(self, path, argument)`."""
        self[f"{self.slug}/{path}"] = (maker, argument)

    def add_made(self, page: Page) -> None:
        """List a page made already (a solitaire game's: a few; a draft's), given the context every page has."""
        page.context = {**self.base, **page.context}
        self[page.path] = (_made_already, page)

    def make(self, path: str) -> Page:
        """The page listed at `path` (its full path), made."""
        maker, argument = self[path]
        return maker(self, path, argument)

    def new_page(self, path: str, template: str, context: dict[str, Any], **options: Any) -> Page:
        """A page of this game: `context` and the context every page of it has."""
        return Page(path, template, {**self.base, **context}, **options)


def _made_already(listing: Listing, path: str, page: Page) -> Page:
    return page


def judgment_name(entry: Judgment) -> str:
    """`judgment-7`, or for a judgment named by its case (format 1.2) `judgment-cfj-4153`."""
    return f"judgment-{case_name(entry.case) if entry.case else entry.number}"


def case_example(plan: GamePlan) -> str | None:
    """The point of the game's first judgment named by its case (`judgment-cfj-4153`, format 1.2), which the
    points form's hint gives as an example; None in a game without one."""
    return plan.once("case example", lambda: next((judgment_name(step.entry) for step in plan.replay.steps
                                                   if isinstance(step.entry, Judgment) and step.entry.case), None))


def log_anchor(step: Step) -> str:
    entry = step.entry
    return judgment_name(entry) if isinstance(entry, Judgment) else f"entry-{step.index + 1}"


def change_words(change: Change) -> str:
    """A change paragraph in words, as a keeper writes it (`Amend rule 2608 by replacing "x" with "y".`)."""
    named = change.rule_label or change.rule  # (as the keeper wrote it: by label, where they named it so)
    rule = f"rule {named}" if named is not None else "rule"
    power = f"power {decimal_text(change.power)} " if change.power is not None else ""
    if change.kind == "replace":
        edits = " and ".join(f'replacing "{old}" with "{new}"' if new else f'deleting "{old}"' for old, new in change.edits)
        return f"Amend {rule} by {edits}."
    return {"amend": f"Amend {rule} to read:", "append": f"Amend {rule} by appending:", "repeal": f"Repeal {rule}.",
            "enact": f"Enact {power}{rule}" + (f": {change.title}" if change.title else "."),
            "reenact": f"Reenact {power}{rule}" + (f": {change.title}" if change.title else "."),
            "transmute": f"Transmute {rule}" + (f" to {change.rule_class}." if change.rule_class else "."),
            "renumber": f"Renumber {rule} to {change.new_number}.", "retitle": f'Retitle {rule} to "{change.title}".',
            "power": f"Change the power of {rule} to {decimal_text(change.power or 0)}.",
            "annotate": f"Annotate {rule}:"}[change.kind]


def step_facts(step: Step) -> dict[str, Any]:
    """What the replay made of an entry, as the proposal page and the log show it."""
    return {"result": step.result, "computed": step.computed_result, "method": step.method,
            "why": step.decision.why() if step.decision else None,
            "deltas": [(d.player, d.points, d.reason) for d in step.deltas],
            "scores": sorted(step.scores.items(), key=lambda kv: (-kv[1], kv[0])),
            "findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "message": f.message} for f in step.findings],
            "overrides": [{"what": o.what, "computed": o.computed, "set": o.set_to, "by": o.judgment}
                          for o in step.overrides],
            "notes": list(step.notes), "winner": list(step.winner), "turn_of": step.turn_of,
            "left": departed(step),
            "expected_player": step.expected_player,
            "failed": [{"words": change_words(change), "html": render_markdown(change.text) if change.text else "",
                        "why": why} for change, why in step.failed]}


def departed(step: Step) -> list[str]:
    """The players scored by the time of `step` who had left the game by then (`Players: -Dave`): a score keeps
    every player it ever had."""
    playing = set(step.players)
    return sorted(name for name in step.scores if name not in playing)


def notes_beyond_text(before: RuleVersion, after: RuleVersion) -> list[str]:
    """A change to a rule's class, title, label or power, in words (the redline shows only its text):
    change_notes's, and its power, which a rule version carries under format 1.1."""
    notes = change_notes(before, after)
    if before.power != after.power and after.power is not None:
        notes.append(f"power {power_text(before.power)} → {power_text(after.power)}")
    return notes


def power_text(power) -> str | None:
    """A rule's power as its record writes it (format 1.4's WrittenDecimal: `2` or `2.0`, as the report heads the
    rule), else as a keeper writes it (1.5, 3.0); None where rules carry no power."""
    if isinstance(power, WrittenDecimal):
        return power.written
    return decimal_text(power) if power is not None else None


def revision_view(plan: GamePlan, revision: Revision, from_dir: str) -> dict[str, Any]:
    """A revision ready for a template: who changed what, the redline, and the summary in words."""
    step = plan.history.step_of(revision)
    cite = f"{from_dir}{plan.entry_anchor(step)}" if step else ""
    before, after = revision.before, revision.after
    html, kind, summary = _shown_change(before, after, step, cite)
    rule = after or before
    ended = after.end if after is not None else None
    # A change made beyond the proposal's power: the format applies it as the record does, and says so here
    beyond = next((f.message for f in step.findings if f.kind == "power" and f.rule == (before or after).number),
                  None) if step else None
    # Format 1.4: the record's own lines for the changes (its keepers' words), and what it said at the time
    records = changes_making(step.entry, before, after) if step else ()
    return {
        "anchor": revision_anchor(plan, step),
        # The span the version was in force: until the entry that changed it next (None: still in force).
        "until": step_view(plan, plan.replay.steps[ended], from_dir) if ended is not None else None,
        "as_of": f"{from_dir}as-of.html?at={point_name(plan, step.index if step else -1)}",
        "kind": kind, "html": html, "summary": summary, "cite": cite, "beyond_power": beyond,
        "number": rule.number, "before_number": before.number if before else None, "title": rule.title,
        "label": rule.label,
        "revision": plan.revision(rule) if after is not None else None,
        "rule_class": rule.rule_class, "identity": rule.identity, "power": power_text(rule.power),
        "rule_url": f"{from_dir}{plan.rule_page(rule.identity)}",
        "step": step_view(plan, step, from_dir) if step else None,
        "history": [history_html(plan, line, from_dir) for change in records for line in change.history],
        "corrected": "; ".join(change.corrected for change in records if change.corrected),
        # recorded after changes that took effect later (format 1.4's `Place:`): the record lists it before them
        "late": any(change.place is not None and change.history for change in records),
        "authors": authors(plan, step, from_dir) if step else [],
    }


def authors(plan: GamePlan, step: Step, from_dir: str) -> list[dict[str, str]]:
    """Who made an entry, each linked to their page: a proposal's proposer and co-authors, a judgment's judge."""
    entry = step.entry
    names = ([entry.proposer, *entry.coauthors] if isinstance(entry, Proposal)
             else [entry.judge] if isinstance(entry, Judgment) else [])
    return [plan.person_view(name, from_dir) for name in names]


def _shown_change(before: RuleVersion | None, after: RuleVersion | None, step: Step | None,
                  cite: str) -> tuple[str, str, list[str]]:
    """A revision's HTML (the initial text, or the redline of the change), its kind, and its summary in words."""
    notes: list[str] = []
    if before is None and after is not None and step is None:
        html, kind = render_markdown(after.text), "initial"
        summary = (f"power {power_text(after.power)}",) if after.power is not None else ()
    elif before is None and after is not None:
        html, _ = redline_view("", after.text, cite)
        again = any(change.kind == "reenact" and change.rule == after.number for change in step.entry.changes)
        kind, summary = "enacted", (f"{'re-enacted' if again else 'enacted'} as rule {after.number}"
                                    + (f", power {power_text(after.power)}" if after.power is not None else ""),)
    elif after is None:
        html, summary = redline_view(before.text, "", cite)
        kind, summary = "repealed", (f"repealed rule {before.number}",)
    else:
        html, summary = redline_view(before.text, after.text, cite)
        kind = "changed"
        if before.number != after.number:
            notes.append(f"renumbered {before.number} to {after.number}")
        notes += notes_beyond_text(before, after)
        if before.text == after.text:
            summary = ()
    return html, kind, list(summary) + notes


def changes_making(entry, before: RuleVersion | None, after: RuleVersion | None) -> tuple[Change, ...]:
    """The entry's changes that made `after` (or, for a repeal, that repealed `before`): those whose record
    (format 1.4's `History:` lines) a revision carries."""
    if after is not None:
        return after.changes
    return tuple(change for change in getattr(entry, "changes", ())
                 if change.kind == "repeal" and before is not None and change.rule == before.number)


# A proposal a history line names as the agent of a change: `by P1234 'Title' (Ann)`, `by Proposal 7850` (not
# `by P7729 #1`, one of two proposals its record numbered alike).
PROPOSAL_CITED = re.compile(r"\bby (P|Proposal )([0-9]{1,12})(?![0-9]| #[0-9])")


def point_date(plan: GamePlan, index: int) -> dt.date | None:
    """The date of the rules after entry `index`: that of the last dated entry up to it (the game's start before
    any)."""
    for step in reversed(plan.replay.steps[:index + 1]):
        if step.entry.date is not None:
            return step.entry.date
    return plan.replay.game.config.start


def renaming(pairs: tuple[tuple[str, str], ...]) -> Callable[[str], str]:
    """A line with each whole name the record gives (`pairs`' first) as the report writes it (their second): in
    one pass, as the keepers' generator resolves a name once."""
    if not pairs:
        return str
    names = dict(pairs)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?!\w)")
    return lambda line: pattern.sub(lambda m: names[m.group(0)], line)


def names_now(plan: GamePlan) -> Callable[[str], str]:
    """A history line with its names as the keepers' report of the end writes them (`[[report.names]]` on the
    day of the last dated entry): the site's pages show them so."""
    def make() -> Callable[[str], str]:
        report = plan.replay.game.config.report
        day = point_date(plan, len(plan.replay.steps) - 1) or dt.date.min
        return renaming(tuple((name.record, name.report) for name in (report.names if report else ())
                              if name.holds_on(day)))
    return plan.once("names now", make)


def history_html(plan: GamePlan, line: str, from_dir: str) -> Markup:
    """A history line (its keepers' words) as HTML, each proposal it names as an agent linked to its page (the
    log's, else earlier.md's) where the archive has one; its names as the end's report writes them."""
    line = names_now(plan)(line)
    parts, last = [], 0
    for m in PROPOSAL_CITED.finditer(line):
        url = plan.proposal_url(int(m.group(2)), from_dir)
        if url is not None:
            start = m.start(1)
            parts += [escape(line[last:start]), Markup('<a href="{}">{}</a>').format(url, line[start:m.end()])]
            last = m.end()
    return Markup("").join(parts + [escape(line[last:])])


def point_name(plan: GamePlan, index: int) -> str:
    """A point of the game as URLs and comparison pages name it: `start` (the initial set), a proposal's
    page name (`301`, `301-2` for a reused number), `judgment-7`, `entry-12` (the log's anchors)."""
    if index == -1:
        return "start"
    entry = plan.replay.steps[index].entry
    if isinstance(entry, Proposal):
        return plan.proposal_pages[index]
    if isinstance(entry, Judgment):
        return judgment_name(entry)
    return f"entry-{index + 1}"


def revision_anchor(plan: GamePlan, step: Step | None) -> str:
    """The id of a revision on its rule's page, named by the entry that made it (`proposal-301`), so
    that the entry's pages link straight to it."""
    if step is None:
        return "initial"
    name = point_name(plan, step.index)
    return f"proposal-{name}" if isinstance(step.entry, Proposal) else name


def game_view(replay: Replay, history: GameHistory | None = None) -> dict[str, Any]:
    """What every page of a game shows of it (its header, its navigation), and what its pages read to say only
    what the game has; `history`, the replay's indices, where made."""
    config = replay.game.config
    return {"slug": replay.game.slug, "title": config.title, "description": config.description,
            "scores": keeps_scores(replay), "variant": config.variant,
            # Whether a Judge ruled in it: only then do its pages say that a ruling stands above the arithmetic
            "judged": any(isinstance(step.entry, Judgment) for step in replay.steps),
            # Whether its rules are of two classes, immutable and mutable (in a game of powers, as Agora's, all
            # are of one, which no page names)
            "classes": len(history.index.classes if history is not None
                           else {version.rule_class for version in getattr(replay, "versions", ())}) > 1}


def keeps_scores(replay: Replay) -> bool:
    """Whether the game has scores to show: its mechanics pay points, or some entry paid some (a game
    decided by votes alone, as Agora's, has none, and gets no empty scores page). A solitaire game's rule 100
    pays its points."""
    if replay.game.config.variant == "solitaire":
        return True
    scoring = replay.mechanics.scoring
    return (scoring.turn != "none" or bool(scoring.adopted or scoring.defeated or scoring.against_adopted)
            or any(step.deltas for step in replay.steps))


def date_attribute(entry: Entry) -> str:
    """An entry's date for a `datetime` attribute: `2019-07-20`, or `2019-07` for a month (format 1.2)."""
    if entry.date is None:
        return ""
    return entry.date.strftime("%Y-%m") if entry.month_only else entry.date.isoformat()


def date_text(entry: Entry) -> str:
    """An entry's date as a reader sees it: `2019-07-20`, or `July 2019` where only the month is known."""
    if entry.date is None:
        return ""
    return f"{entry.date:%B %Y}" if entry.month_only else entry.date.isoformat()


def step_view(plan: GamePlan, step: Step, from_dir: str) -> dict[str, Any]:
    """An entry as the pages that link to it show it."""
    entry = step.entry
    return {"label": step.label, "date": date_attribute(entry), "date_text": date_text(entry),
            "url": f"{from_dir}{plan.entry_anchor(step)}", "title": entry.title, "kind": entry.kind,
            "result": step.result, "number": getattr(entry, "number", None)}


def version_view(version, from_dir: str, plan: GamePlan) -> dict[str, Any]:
    return {"number": version.number, "title": version.title, "rule_class": version.rule_class,
            "power": power_text(version.power), "revision": plan.revision(version), "label": version.label,
            "html": render_markdown(version.text), "url": f"{from_dir}{plan.rule_page(version.identity)}",
            "page": f"{plan.history.page_number[version.identity]}.html", "identity": version.identity}
