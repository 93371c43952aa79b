"""A drafted proposal against the rules in force: what it would change, the numbers the rules would take,
how hypothetical votes would go, and what the engine objects to.

Pure: a replay and a draft in, a view model out; `serve` and `nomic-archive preview` both render it. The
draft is replayed as the next proposal of the log, as if adopted, so every check the engine makes on a
real proposal (phrases found once, rules that exist, the mutable cap, immutable rules) applies to it too.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from markupsafe import Markup

from .engine.adoption import describe
from .engine.notes import unread_change
from .engine.replay import Replay, replay
from .model import Proposal, ResultClaim
from .model.urls import draft_page_name
from .site.history import GameHistory
from .site.markdown import render_markdown
from .site.views import notes_beyond_text, redline_view

# Findings about what a keeper records after the vote (the die, the result, the date, claims): a draft has
# none of these yet, so they are not objections to it.
RECORD_KINDS = frozenset({"die", "result", "date", "winner", "score", "scores", "proposal-number"})


@dataclass(frozen=True)
class RuleChange:
    """One rule as the draft would leave it."""

    kind: str  # "enacted" | "changed" | "repealed"
    number: int  # the number it would have afterwards (a repealed rule: the number it had)
    before_number: int | None  # None when enacted
    title: str
    label: str  # the record's own name for the rule (format 1.4's `Label:`), "" where none is given
    rule_class: str
    old_text: str
    new_text: str
    html: Markup  # the redline
    summary: tuple[str, ...]
    rule_page: str | None  # the rule's page in the game's site ("rules/203.html"); None for a new rule


@dataclass(frozen=True)
class Objection:
    kind: str
    file: str
    line: int
    message: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class VoteOutcome:
    result: str  # "adopted" | "defeated"
    method: str  # in words: "unanimity", "a simple majority"
    tally: str


@dataclass(frozen=True)
class DraftPreview:
    source: str  # the draft's file
    stem: str  # its name without .md, as a URL segment: the page's name
    title: str
    proposer: str
    number: int  # the number it would take
    drafted_number: int | None  # the number written in the draft, if any
    changes: tuple[RuleChange, ...]
    objections: tuple[Objection, ...]
    vote: VoteOutcome | None  # None without a Votes line
    notes: tuple[str, ...]  # what adoption would do besides the text (Effects), and what it needs
    body: Markup


def preview_draft(base: Replay, draft: Proposal) -> DraftPreview:
    """The draft replayed as the next proposal of `base`'s game, adopted whatever its votes say."""
    game = base.game
    number = base.next_proposal
    # Adopted, so that its changes apply and can be shown; claims about after the vote are dropped.
    hypothetical = dataclasses.replace(draft, number=number, result=ResultClaim(draft.source, "adopted"),
                                       scores=None, winner=None)
    extended_game = dataclasses.replace(game, log=dataclasses.replace(
        game.log, entries=game.log.entries + (hypothetical,)))
    extended = replay(extended_game)
    index = len(game.log.entries)
    step = extended.steps[index]

    adoption = base.mechanics.adoption
    # The replay is a fold, so the errors before the draft are the base replay's; the rest are the draft's.
    problems = [f for f in step.findings if f.kind not in RECORD_KINDS] + list(extended.errors[len(base.errors):])
    objections = [Objection(f.kind, f.file, f.line, str(f.message)) for f in problems]

    notes = list(step.notes)
    vote = None
    if draft.votes is not None and draft.votes.voters and step.decision:
        vote = VoteOutcome(step.decision.result, describe(step.method, adoption.fraction), step.decision.tally())
    if any(c.kind == "transmute" for c in draft.changes):
        needs = describe(adoption.transmutation, adoption.fraction)
        if adoption.transmutation != adoption.method:
            notes.append(f"it transmutes a rule, so it needs {needs} "
                         f"(not {describe(adoption.method, adoption.fraction)})")
        if vote and vote.result == "defeated":
            objections.append(Objection("transmutation", draft.source.file, draft.source.line,
                                        f"transmuting a rule needs {needs}; these votes ({vote.tally}) do not give it"))
    if draft.number and draft.number != number:
        notes.append(f"drafted as proposal {draft.number}, but the next proposal is {number}")
    if (unread := unread_change(step)) is not None:
        notes.append(unread.message)

    return DraftPreview(
        source=draft.source.file, stem=draft_page_name(draft.source.file),
        title=draft.title, proposer=draft.proposer, number=number, drafted_number=draft.number or None,
        changes=tuple(_changes(base, extended, index)),
        objections=tuple(sorted(objections, key=lambda o: (o.file, o.line))), vote=vote,
        notes=tuple(notes), body=render_markdown(draft.body))


def _changes(base: Replay, extended: Replay, index: int) -> list[RuleChange]:
    # Identities are assigned in the same order in both replays, so they name the same rules.
    pages = GameHistory(base).page_number
    changes = []
    history = GameHistory(extended)
    for revision in history.revisions_by_step.get(index, ()):
        before, after = revision.before, revision.after
        rule = after or before
        html, summary = redline_view(before.text if before else "", after.text if after else "", "")
        if before is None:
            kind, summary = "enacted", (f"enacted as rule {after.number}",)
        elif after is None:
            kind, summary = "repealed", (f"repealed rule {before.number}",)
        else:
            kind = "changed"
            summary = summary if before.text != after.text else ()
            if before.number != after.number:
                summary += (f"rule {before.number} would become rule {after.number}",)
            summary += tuple(notes_beyond_text(before, after))
        page = pages.get(rule.identity)
        changes.append(RuleChange(kind=kind, number=rule.number, before_number=before.number if before else None,
                                  title=rule.title, label=rule.label,
                                  rule_class=rule.rule_class,
                                  old_text=before.text if before else "", new_text=after.text if after else "",
                                  html=html, summary=tuple(summary), rule_page=f"rules/{page}.html" if page else None))
    return changes
