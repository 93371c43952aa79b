"""What pages are made of: the Page, a game's plan (its history and page names), and the views of steps,
rule versions and revisions that several kinds of page show. Both the page plan (pages.py) and the
comparison pages (compare_pages.py) build on these; neither imports the other's internals.
"""
from __future__ import annotations

import datetime as dt
import json
import marshal
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter, is_
from typing import Any

from markupsafe import Markup, escape

from ..cache import Cache, digest
from ..engine.adoption import decimal_text
from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Change, Cited, Entry, Judgment, Proposal
from ..model.points import case_name
from ..model.urls import is_url_segment
from ..diffing.compare import change_notes
from ..diffing.redline import redline, render_html, summarize
from .history import GameHistory, Revision
from .markdown import render_markdown

# Long lists are cut into parts, so that an edit redraws one part: the log (whose entries show the most),
# and the tables of proposals and of scores.
LOG_PART = 200
TABLE_PART = 250
RUN = 256  # entries a summary of the whole game sums at a time (GamePlan.summaries)


@dataclass
class Page:
    path: str  # relative to the site root, with forward slashes
    template: str
    context: dict[str, Any]
    deps: Any = None  # None: always render
    kind: str = "html"
    # The costly part of the context (redlines, comparisons), built only when the page is rendered: a
    # page planned again is drawn only when its deps moved.
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

    def fingerprint(self) -> int:
        """Changes when the deps do, within one process (serve keeps them in memory): Python's hash serves,
        and costs a fraction of hashing the deps' repr."""
        try:
            return hash((self.template, self.deps))
        except TypeError:  # deps holding lists or dicts
            return hash((self.template, repr(self.deps)))

    def key(self, salt: bytes) -> bytes:
        """A stable digest of everything the page shows (`salt`: the templates' digest), for the manifest a
        site keeps between builds. Deps hold no sets, so their data is the same in every process."""
        return digest(salt, self.path, self.template, self.kind, _stable_bytes(self.deps))


def _stable_bytes(value: Any) -> bytes:
    """`value` as bytes that are the same in every process and run: marshal's layout 2, which shares nothing by
    reference, for plain data (tuples, lists, dicts, strings, bytes, numbers: the deps of most pages, written in
    half the time of their repr, which spells each byte of a digest out); else the repr."""
    try:
        return b"m" + marshal.dumps(value, 2)
    except ValueError:  # a date, a Fraction, an object of its own
        return b"r" + repr(value).encode("utf-8", "surrogatepass")


# The keys of what a part of a plan reads (GamePlan.reads): a view of an entry (its step_key, listed_key,
# score_key, record_key, its points.point_entry or points.point_place) or of a rule version (its version_key).
# Plain numbers: a long game's plan records some 100,000 of them.
STEP, LISTED, SCORE, RECORD, POINT, PLACE = range(6)
ENTRY_VIEWS = (STEP, LISTED, SCORE, RECORD, POINT, PLACE)
# Keys of the whole game: how many entries it has (read by the pages that show its end: the last part of a list,
# the last proposal's page, the rules now), the labels of a list's parts (read by each part's pager), the rules'
# old numbers (read by the redirects from them), the settings (read by the players page and the score chart).
_WHOLE = 1 << 40  # (above every entry's keys)
END = _WHOLE
OLD_NUMBERS = _WHOLE + 1  # the numbers rules once had, and the pages of the rules that had them
SETTINGS = _WHOLE + 2  # game.toml, and the mechanics, players and order of play the last entry leaves
ENTRY_LISTS = ("log", "index", "scores", "defeated")  # the lists of entries in parts, by their pages' stem


def pager_read(stem: str) -> int:
    return _WHOLE + 8 + ENTRY_LISTS.index(stem)


def entry_read(view: int, index: int) -> int:
    return index * 8 + view


def version_read(identity: int, start: int) -> int:
    return -((identity << 32) + start + 3)  # (start -1: the initial set)


def rule_read(identity: int) -> int:
    """The key of which versions a rule has (its page and the pieces that count them read it)."""
    return -((identity << 32) + 1)


def parts(count: int, size: int) -> list[range]:
    """A list of `count` items cut into parts of `size` (one part, maybe empty, when it is short)."""
    return [range(start, min(start + size, count)) for start in range(0, count, size)] or [range(0)]


def part_name(stem: str, part: int, suffix: str = ".html") -> str:
    """`log.html` for the first part of the log, `log-2.html` for the second, ..."""
    return f"{stem}{suffix}" if part == 0 else f"{stem}-{part + 1}{suffix}"


def pager(stem: str, ranges: list[range], current: int, label: Callable[[int], str], *,
          growing: bool = False) -> list[dict[str, Any]]:
    """Links to every part of a list, each named by its first and last item, the current one marked. A list
    `growing` at its end (the entries, in the log's order) names its last part by its first item alone
    ("onwards"), so that an entry added to it leaves every part's pager as it was."""
    if len(ranges) < 2:
        return []
    return [{"url": part_name(stem, part), "current": part == current,
             "label": (f"{label(span[0])} onwards" if growing and part == len(ranges) - 1
                       else f"{label(span[0])} – {label(span[-1])}" if len(span) > 1 else label(span[0]))}
            for part, span in enumerate(ranges)]


class ScriptJSON(Markup):
    """JSON text made by `script_json`, which puts it in a script as it is: a long piece is joined from parts
    encoded once (points.py)."""


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
    html, summary = redline_drawn(old, new)
    return Markup(html.replace(f' cite="{_CITE}"', f' cite="{escape(cite)}"' if cite else "")), summary


@lru_cache(maxsize=8192)
def redline_drawn(old: str, new: str) -> tuple[str, tuple[str, ...]]:
    """The redline of two texts drawn once, whatever page cites it: a rule's page, its proposal's page and
    the picker's comparisons show it, each citing the proposal from where it stands."""
    diff = redline(old, new)
    return str(render_html(diff, cite=_CITE, render_markdown=render_markdown)), tuple(summarize(diff))


_number, _date = attrgetter("entry.number"), attrgetter("entry.date")


class PlanMemo:
    """What a plan computed that the next plan of the same game may take as it is, each value kept by the
    very inputs it was made from: an immutable model object (by identity, the object kept alive beside its
    value, so that an id is never taken for another object's), or a text. A hit is what computing gives, by
    construction; nothing says which inputs an edit touched. serve keeps one per game from rebuild to rebuild:
    `turn`, at each whole plan, drops what that plan did not use; a keyed plan (site/keyed.py), which plans a
    few parts, lends it whole and `forget`s what the entries and versions it replaced kept. A build plans once
    and keeps none."""

    def __init__(self) -> None:
        # kind -> id of the source (or the source itself, kept by value) -> (source or None, beside, value, the
        # other objects it was made from)
        self._kept: dict[str, dict[Any, tuple[Any, Any, Any, tuple]]] = {}
        self._used: dict[str, dict[Any, tuple[Any, Any, Any, tuple]]] = {}
        self._with_others: set[str] = set()  # the kinds made from other objects too

    def of(self, kind: str, source: Any, make: Callable[[], Any], *, by_identity: bool = True,
           beside: Any = None, others: tuple = ()) -> Any:
        """The value `make` gives for `source` (an immutable object, or with `by_identity` false a hashable
        value such as a text), made once; `beside`, a value it is made from too; `others`, immutable objects it
        is made from too, each the very one."""
        key = id(source) if by_identity else source
        used = self._used.setdefault(kind, {})
        hit = used.get(key) or self._kept.get(kind, {}).get(key)
        if (hit is not None and hit[1] == beside and (hit[0] is source or not by_identity)
                and len(hit[3]) == len(others) and all(map(is_, hit[3], others))):
            used[key] = hit
            return hit[2]
        value = make()
        self._kept.get(kind, {}).pop(key, None)  # (what it holds may be what an edit replaced)
        used[key] = (source if by_identity else None, beside, value, others)
        if others:
            self._with_others.add(kind)
        return value

    def turn(self) -> None:
        self._kept, self._used = self._used, {}

    def forget(self, sources: Iterable[Any]) -> None:
        """Drop what was kept by these objects (the entries and versions an edit replaced, which no plan can ask
        for again): serve's keyed plans lend the memo whole, without a `turn`, and it would keep them alive."""
        gone = {id(source): source for source in sources}
        for table in (self._kept, self._used):
            for kind, entries in table.items():
                for key in gone.keys() & entries.keys():
                    if entries[key][0] is gone[key]:
                        del entries[key]
                if kind in self._with_others:  # (two objects alive at once never share an id)
                    for key in [key for key, (_, _, _, others) in entries.items()
                                if not gone.keys().isdisjoint(map(id, others))]:
                        del entries[key]


@dataclass
class GamePlan:
    replay: Replay
    history: GameHistory
    slug: str
    proposal_pages: dict[int, str] = field(default_factory=dict)  # step index -> page name
    # Keys are computed once each: a step shows on its page, its neighbours', a part of the log and lists.
    _step_keys: dict[int, bytes] = field(default_factory=dict)
    _listed_keys: dict[int, tuple] = field(default_factory=dict)
    _version_keys: dict[tuple[int, int], bytes] = field(default_factory=dict)
    # What the browser's points pieces list of each entry, by step index, and of each rule version, by
    # (identity, start) (points.py).
    point_entries: dict[int, list[str]] = field(default_factory=dict)
    point_versions: dict[tuple[int, int], ScriptJSON] = field(default_factory=dict)
    search_index: Any = None  # the index last planned (search.SearchIndex), which the next plan patches
    # What search.plan_documents last made: the names it read (the same objects: nothing renamed), the documents'
    # subjects, the documents and how many are the rules' (the proposals' follow)
    documents_made: tuple | None = None
    # The views of a comparison page's pairs, by the page's name, as it last drew them (compare_pages.comparison_view).
    pair_views: dict[str, dict[tuple, tuple]] = field(default_factory=dict)
    # What the feed sums over every entry: the latest date.
    _latest: dt.date | None = None
    # Proposals' texts drawn, by step index, when the plan read them for the search index (one parse for both);
    # those missing (a build that took the index from its cache) are drawn with their pages.
    body_html: dict[int, Markup] = field(default_factory=dict)
    store: Cache | None = None  # the cache a build keeps between runs (serve keeps its plans in memory)
    jobs: int = 1  # the cores a build plans on (forked: serve, whose threads forbid forking, plans on one)
    memo: PlanMemo = field(default_factory=PlanMemo)  # what the next plan of the game may take as it is
    # Format 1.2: the proposal steps of each number decided more than once (`Proposal 8188A`), in log order;
    # by rule identity, what rules.md keeps beside an initial rule's text (its `History:` lines and
    # `Annotation:` texts) and the annotations entries made ((change, step index), in log order).
    decisions: dict[int, list[Step]] = field(init=False)
    rule_notes: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = field(init=False)
    annotations: dict[int, list[tuple[Change, int]]] = field(init=False)
    # While serve plans a part of the site (site/keyed.py), the keys of what it reads through the views below
    # (`entry_read`, `version_read`).
    reads: set[int] | None = None
    _lists: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        proposal_steps = self.history.proposal_steps
        # (counted in C: serve makes a plan at every save)
        reused = {number for number, count in Counter(map(_number, proposal_steps)).items() if count > 1}
        by_number: dict[int, list[Step]] = {}
        for step in proposal_steps if reused else ():
            if step.entry.number in reused:
                by_number.setdefault(step.entry.number, []).append(step)
        self.decisions = {number: steps for number, steps in by_number.items()
                          if any(step.entry.decision for step in steps)}
        noted = [rule for rule in self.replay.game.rules.rules if rule.history or rule.annotations]
        initial = {v.number: v.identity for v in self.replay.versions if v.start == -1} if noted else {}
        self.rule_notes = {initial[rule.number]: (rule.history, tuple(text for text, _ in rule.annotations))
                           for rule in noted if rule.number in initial}
        self.annotations = {}
        for identity, change, index in self.replay.annotations:
            self.annotations.setdefault(identity, []).append((change, index))

    def read(self, key: int) -> None:
        """Record, while serve plans a part (site/keyed.py), that the part reads `key`: a view of an entry or version
        (entry_read, version_read), which versions a rule has (rule_read), or a key of the whole game (END, ...)."""
        if self.reads is not None:
            self.reads.add(key)

    def read_entries(self, view: int, indices: Iterable[int]) -> None:
        """Record that the part being planned reads `view` of each of these entries (`read`, at once)."""
        if self.reads is not None:
            if isinstance(indices, range) and indices.step == 1:  # (every entry's, at C's pace)
                self.reads.update(range(entry_read(view, indices.start), entry_read(view, indices.stop), 8))
            else:
                self.reads.update([entry_read(view, index) for index in indices])

    def summaries(self, kind: str, steps: Sequence[Step], summarize: Callable[[int, tuple[Step, ...]], Any],
                  size: int = RUN, given: Any = None) -> list[Any]:
        """`summarize(start, run)` of each run of `size` entries of `steps` (`start`: where the run stands in
        them), kept (PlanMemo) by the run's entries, its place and `given` (whatever else it is made from): an
        entry appended or the last deleted sums the last run again, not the whole game. `summarize` reads nothing
        else; a hit records no reads, so the caller records what it stands for (`read_entries`)."""
        summaries = []
        for start in range(0, len(steps), size):
            run = tuple(steps[start:start + size])
            summaries.append(self.memo.of(kind, run[0], lambda start=start, run=run: summarize(start, run),
                                          beside=(start, given), others=run))
        return summaries

    def once(self, name: str, make: Callable[[], Any]) -> Any:
        """A value several parts of the plan read (a list of the entries some pages show), made once per plan."""
        if name not in self._lists:
            self._lists[name] = make()
        return self._lists[name]

    def latest_date(self) -> dt.date | None:
        """The latest date of any entry."""
        if self._latest is None:
            self._latest = max(filter(None, map(_date, self.replay.steps)), default=None)
        return self._latest

    def step_key(self, step: Step | None) -> bytes | None:
        """A digest of what pages show of an entry's step: the entry as written (its file, not its lines: an
        edit above it moves it without changing its pages) and what the replay made of it, as `step_facts`
        shows it (the lines its findings and score reasons name included: an edit above moves those)."""
        if step is None:
            return None
        self.read(entry_read(STEP, step.index))
        key = self._step_keys.get(step.index)
        if key is None:
            # A step whose facts name no lines is shown the same while it is the same object (lines are the one
            # thing an edit above changes in place, see model.Source): its key is kept by identity.
            anchor = self.entry_anchor(step)
            key = self._step_keys[step.index] = (
                self.memo.of("step", step, lambda: digest(repr(_shown(step)), anchor), beside=anchor)
                if not names_lines(step) else digest(repr(_shown(step)), anchor))
        return key

    def listed_key(self, step: Step) -> tuple:
        """What the pages that list entries show of one (its label, date, title, result, link, findings): a
        change to its text or votes alone leaves them as they are."""
        self.read(entry_read(LISTED, step.index))
        key = self._listed_keys.get(step.index)
        if key is None:
            entry = step.entry
            key = self._listed_keys[step.index] = (
                step.label, entry.date.isoformat() if entry.date else "", entry.month_only, entry.title, entry.kind,
                getattr(entry, "number", None), getattr(entry, "proposer", None), step.result, len(step.findings),
                self.entry_anchor(step))
        return key

    def version_key(self, version: RuleVersion | None) -> bytes | None:
        """A digest of what pages show of a rule version, with the page its links lead to (which a later
        renumbering moves)."""
        if version is None:
            return None
        self.read(version_read(version.identity, version.start))
        key = self._version_keys.get((version.identity, version.start))
        if key is None:
            page = self.rule_page(version.identity)
            shown = (version.identity, version.number, version.rule_class, version.title, version.text, version.power)
            key = self._version_keys[(version.identity, version.start)] = self.memo.of(
                "version", version, lambda: digest(repr(shown), page), beside=page)
        return key

    def score_key(self, step: Step) -> tuple:
        """What the scores pages show of an entry beside its listing: the scores after it and what it paid."""
        self.read(entry_read(SCORE, step.index))
        return tuple(sorted(step.scores.items())), tuple((d.player, d.points) for d in step.deltas)

    def record_key(self, step: Step) -> tuple:
        """What the players page counts of an entry: a proposal's proposer and result, who voted on it, and who
        had won after it."""
        self.read(entry_read(RECORD, step.index))
        entry = step.entry
        if isinstance(entry, Proposal):
            return entry.proposer, step.result, entry.votes.voters if entry.votes else (), step.winner
        return None, None, (), step.winner

    def keys_of(self, item: tuple[str, int]) -> tuple:
        """What the plan keeps of a search document's subject: a proposal's step key and listing, or the keys of a
        rule's versions. A build reads the documents on every core (search.py): there, these are computed too,
        and taken back with `keep_keys`, which leaves less for the plan's one core."""
        kind, which = item
        if kind == "step":
            step = self.replay.steps[which]
            return self.step_key(step), self.listed_key(step)
        return tuple(map(self.version_key, self.history.rules[which].versions))

    def keep_keys(self, item: tuple[str, int], keys: tuple) -> None:
        kind, which = item
        if kind == "step":
            self._step_keys[which], self._listed_keys[which] = keys
        else:
            for version, key in zip(self.history.rules[which].versions, keys):
                self._version_keys[version.identity, version.start] = key

    def entry_anchor(self, step: Step) -> str:
        entry = step.entry
        if isinstance(entry, Proposal):
            return f"proposals/{self.proposal_pages[step.index]}.html"
        return f"{self.log_page(step.index)}#{log_anchor(step)}"

    def log_page(self, index: int) -> str:
        """The part of the log that shows entry `index`."""
        return part_name("log", index // LOG_PART)

    def rule_page(self, identity: int) -> str:
        return f"rules/{self.history.page_number[identity]}.html"


class GamePages(list):
    """A game's pages as they are planned: each with the game's header in its context and deps."""

    def __init__(self, plan: GamePlan):
        super().__init__()
        self.plan = plan
        self.base = {"game": game_view(plan.replay)}
        self.game_key = tuple(sorted(self.base["game"].items()))  # hashable, as fingerprints need

    def add(self, path: str, template: str, context: dict[str, Any], deps: Any = None, kind: str = "html",
            lazy: Callable[[], dict[str, Any]] | None = None, stub: bool = False, affinity: int | None = None) -> None:
        """A page whose deps are derived from what it is given: the game's header, its context as given (so a
        value put there cannot be left out of them), and `deps`, what the `lazy` part of its context reads."""
        self.append(Page(f"{self.plan.slug}/{path}", template, {**self.base, **context},
                         deps=(self.game_key, repr(context) if context else None, deps),
                         kind=kind, lazy=lazy, stub=stub, affinity=affinity))


def judgment_name(entry: Judgment) -> str:
    """`judgment-7`, or for a judgment named by its case (format 1.2) `judgment-cfj-4153`."""
    return f"judgment-{case_name(entry.case) if entry.case else entry.number}"


def case_example(plan: GamePlan) -> str | None:
    """The point of the game's first judgment named by its case (`judgment-cfj-4153`, format 1.2), which the
    points form's hint gives as an example; None in a game without one. (An entry appended or deleted moves END;
    a judgment named anew moves the skeleton, site/keyed.py.)"""
    plan.read(END)
    return plan.once("case example", lambda: next((judgment_name(step.entry) for step in plan.replay.steps
                                                   if isinstance(step.entry, Judgment) and step.entry.case), None))


def log_anchor(step: Step) -> str:
    entry = step.entry
    return judgment_name(entry) if isinstance(entry, Judgment) else f"entry-{step.index + 1}"


def entry_key(entry: Entry) -> tuple:
    """What pages show of an entry as written: every field but the lines (the file shows, not the line)."""
    return (entry.kind, entry.title, getattr(entry, "number", None), getattr(entry, "proposer", None), entry.date,
            repr(getattr(entry, "votes", None)), getattr(entry, "result", None) and entry.result.result,
            getattr(entry, "index", None), getattr(entry, "quorum", None), getattr(entry, "power", None),
            getattr(entry, "die", None) and entry.die.total, getattr(entry, "extra_turn", None), entry.notes,
            entry.source.file, entry.body, getattr(entry, "judge", None),
            tuple((c.player, c.joins, c.renamed_to) for c in getattr(entry, "players", ())), getattr(entry, "turn_of", None),
            entry.month_only, entry.by, getattr(entry, "decision", None), getattr(entry, "case", None),
            getattr(entry, "ranges", None))


def _shown(step: Step) -> tuple:
    """What pages show of a step (its entry as written, what the replay made of it), as plain data."""
    return entry_key(step.entry), step_facts(step), step.label, repr(step.decision), step.power


def names_lines(step: Step) -> bool:
    """Whether what pages show of a step names lines of its file (its findings' places, a reason citing one)."""
    return bool(step.findings) or any(isinstance(delta.reason, Cited) for delta in step.deltas)


def change_words(change: Change) -> str:
    """A change paragraph in words, as a keeper writes it (`Amend rule 2608 by replacing "x" with "y".`)."""
    rule = f"rule {change.rule}" if change.rule is not None else "rule"
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
            "expected_player": step.expected_player,
            "failed": [{"words": change_words(change), "html": render_markdown(change.text) if change.text else "",
                        "why": why} for change, why in step.failed]}


def class_and_title_notes(before: RuleVersion, after: RuleVersion) -> list[str]:
    """A change to a rule's class, title or power, in words (the redline shows only its text): change_notes's,
    and its power, which a rule version carries under format 1.1."""
    notes = change_notes(before, after)
    if before.power != after.power and after.power is not None:
        notes.append(f"power {power_text(before.power)} → {power_text(after.power)}")
    return notes


def power_text(power) -> str | None:
    """A rule's power as a keeper writes it (1.5, 3.0); None where rules carry no power."""
    return decimal_text(power) if power is not None else None


def revision_view(plan: GamePlan, revision: Revision, from_dir: str) -> dict[str, Any]:
    """A revision ready for a template: who changed what, the redline, and the summary in words."""
    step = revision.step
    cite = f"{from_dir}{plan.entry_anchor(step)}" if step else ""
    before, after = revision.before, revision.after
    notes: list[str] = []
    if before is None and after is not None and step is None:
        html, kind = render_markdown(after.text), "initial"
        summary = (f"power {power_text(after.power)}",) if after.power is not None else ()
    elif before is None and after is not None:
        html, _ = redline_view("", after.text, cite)
        kind, summary = "enacted", (f"enacted as rule {after.number}"
                                    + (f", power {power_text(after.power)}" if after.power is not None else ""),)
    elif after is None:
        html, summary = redline_view(before.text, "", cite)
        kind, summary = "repealed", (f"repealed rule {before.number}",)
    else:
        html, summary = redline_view(before.text, after.text, cite)
        kind = "changed"
        if before.number != after.number:
            notes.append(f"renumbered {before.number} to {after.number}")
        notes += class_and_title_notes(before, after)
        if before.text == after.text:
            summary = ()
    rule = after or before
    ended = after.end if after is not None else None
    return {
        "anchor": revision_anchor(plan, step),
        # The span the version was in force: until the entry that changed it next (None: still in force).
        "until": step_view(plan, plan.replay.steps[ended], from_dir) if ended is not None else None,
        "as_of": f"{from_dir}as-of.html?at={point_name(plan, step.index if step else -1)}",
        "kind": kind, "html": html, "summary": list(summary) + notes, "cite": cite,
        "number": rule.number, "before_number": before.number if before else None, "title": rule.title,
        "rule_class": rule.rule_class, "identity": rule.identity, "power": power_text(rule.power),
        "rule_url": f"{from_dir}{plan.rule_page(rule.identity)}",
        "step": step_view(plan, step, from_dir) if step else None,
    }


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


def game_view(replay: Replay) -> dict[str, Any]:
    """What every page's header shows of the game it belongs to (its navigation): a change here redraws every
    page of the game, so nothing an ordinary edit moves (the count of discrepancies is on the game's home and
    verification pages, and on the site's index)."""
    config = replay.game.config
    return {"slug": replay.game.slug, "title": config.title, "description": config.description,
            "scores": keeps_scores(replay), "variant": config.variant}


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
    """An entry as the pages that link to it show it: what its listing holds (GamePlan.listed_key)."""
    plan.read(entry_read(LISTED, step.index))
    entry = step.entry
    return {"label": step.label, "date": date_attribute(entry), "date_text": date_text(entry),
            "url": f"{from_dir}{plan.entry_anchor(step)}", "title": entry.title, "kind": entry.kind,
            "result": step.result, "number": getattr(entry, "number", None)}


def version_view(version, from_dir: str, plan: GamePlan) -> dict[str, Any]:
    return {"number": version.number, "title": version.title, "rule_class": version.rule_class,
            "power": power_text(version.power),
            "html": render_markdown(version.text), "url": f"{from_dir}{plan.rule_page(version.identity)}",
            "page": f"{plan.history.page_number[version.identity]}.html", "identity": version.identity}
