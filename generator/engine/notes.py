"""Notes on a replay: what the record may say that the replay did not read. Not discrepancies (the exit code and
the verdict stay the findings'), but a keeper should look: an adopted proposal whose text asks for a change to a
numbered rule, or for a new rule, in words the log's reader does not take for a change (`Change rule 201 so "one
day" becomes "two days".`, `Enact a rule called Tea:`), changes nothing, and would otherwise pass as consistent.

A proposal's own text is looked at, never what the record says around it: a paragraph that starts by asking for
a change and names a rule. The text kept `As proposed:` (format 1.2, Agora's) is not the record of what it did,
and a rule named in passing (`Its change to rule 2478 is the event of 2018-10-30`, `Why: rule 201 is unclear`)
asks for nothing."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Proposal, Source
from ..parse.source import FENCE, shorten
from .replay import _Placed, compare_snapshot, snapshot_points, entry_label

UNREAD_CHANGE = "unread-change"
# A paragraph that asks for a change to a numbered rule: a verb of change first and a rule's number within its
# first sentence; `In rule N,` and a verb of change; or a rule's number first, and a change done to it.
_CHANGE_VERB = (r"(?:please\s+)?(?:change|modify|edit|replace|rewrite|reword|revise|delete|remove|strike|insert|add|"
                r"append|create|rename|update|alter|substitute|swap)\b")
_ASKS_FOR_A_CHANGE = re.compile(
    rf"^{_CHANGE_VERB}[^.!?]*?\brules?\s+#?(\d+)"
    rf"|^in\s+rules?\s+#?(\d+)\s*,\s*{_CHANGE_VERB}"
    r"|^rules?\s+#?(\d+)\s+(?:(?:is|are|shall\s+be|will\s+be)\s+(?:hereby\s+)?(?:amended|changed|modified|"
    r"repealed|replaced|rewritten|renumbered|retitled|transmuted|deleted|reworded|edited)|(?:shall|will|is\s+to)\s+"
    r"read|becomes)\b",
    re.IGNORECASE)
# A paragraph that asks for a new rule in words the reader does not take for an enactment (`Enact a rule called
# Tea:`, `Create a new rule:`; `Enact rule: Tea` is one).
_ASKS_FOR_A_RULE = re.compile(r"^(?:please\s+)?(?:enact|create|add|make|adopt)\s+(?:a\s+|an\s+|the\s+following\s+)?"
                              r"(?:new\s+)?(?:(?:im)?mutable\s+)?rule\b(?!\s*:|\s+#?\d)", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True)
class Note(_Placed):
    """A place a keeper should look at, with what to do about it; never a discrepancy."""

    kind: str
    source: Source
    entry: str
    message: str
    index: int  # the step (entry) it is about
    rules: tuple[int, ...] = ()

    def shown(self, place) -> str:
        return f"{place(self.source)}: note: {self.described(place)}"

    def described(self, place) -> str:
        return f"{self.entry}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "kind": self.kind, "entry": self.entry,
                "message": self.message, "rules": list(self.rules)}


def unread_changes(replay) -> tuple[Note, ...]:
    """A note for each adopted proposal that changes no rule although its text asks for a change to a numbered
    rule, or for a new rule (a solitaire game's turns are no proposals: it has none)."""
    return tuple(note for step in replay.steps if (note := unread_change(step)) is not None)


def unread_change(step) -> Note | None:
    """The note on one step of a replay, when it is an adopted proposal that changes no rule although a paragraph
    of its text asks for a change to a numbered rule, or for a new rule."""
    entry = step.entry
    if not isinstance(entry, Proposal) or entry.changes or getattr(step, "result", None) != "adopted":
        return None
    paragraphs = _paragraphs(entry.body)
    asked = [(paragraph, match) for paragraph in paragraphs if (match := _ASKS_FOR_A_CHANGE.match(paragraph))]
    if not asked:
        new_rule = next((paragraph for paragraph in paragraphs if _ASKS_FOR_A_RULE.match(paragraph)), None)
        return None if new_rule is None else Note(
            UNREAD_CHANGE, entry.source, entry_label(entry), f"its text asks for a new rule ('{shorten(new_rule)}'), "
            "but no change is read from it: adopted, it enacts nothing. Write it as 'Enact rule: Title', its text "
            "below as a blockquote (docs/format.md's table of changes)", step.index)
    rules = tuple(dict.fromkeys(int(next(filter(None, match.groups()))) for _, match in asked))
    return Note(UNREAD_CHANGE, entry.source, entry_label(entry),
                f"its text asks for a change to rule{'s' if len(rules) > 1 else ''} {', '.join(map(str, rules))} "
                f"('{shorten(asked[0][0])}'), but no change is read from it: adopted, it changes no rule. "
                "Write each change in a form of docs/format.md's table of changes, e.g. "
                f"'Amend rule {rules[0]} by replacing \"old words\" with \"new words\".'", step.index, rules)


def _paragraphs(markdown: str) -> list[str]:
    """The paragraphs of Markdown prose, each on one line, a list's items each one: not what is quoted (`>`),
    indented as code or fenced."""
    paragraphs, current, fenced = [], [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            line = ""
        item = _LIST_ITEM.match(line)
        if fenced or item or line.startswith(("    ", "\t")) or line.lstrip().startswith(">") or not line.strip():
            if current:
                paragraphs.append(" ".join(current))
            current = [line[item.end():].strip()] if item and not fenced else []
            continue
        current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


CORRECTED = "corrected"


def corrected_changes(replay) -> tuple[Note, ...]:
    """Format 1.4: a note at each change whose record its keepers later corrected (`Corrected:`): the log gives
    what took effect as the later record says, the note what was recorded at the time."""
    return tuple(Note(CORRECTED, change.source, entry_label(step.entry), f"rule {change.rule}: the record was "
                      f"corrected: {change.corrected}", step.index, (change.rule,) if change.rule is not None else ())
                 for step in replay.steps for change in getattr(step.entry, "changes", ()) if change.corrected)


BEHIND = "behind"


def snapshots_behind(replay) -> tuple[Note, ...]:
    """Format 1.4: one note for each snapshot its `Behind:` line says lagged the log (the keepers' backlog, entries
    they corrected since), with the rules in which it differs from the replay and that cause; none where it
    agrees."""
    game = replay.game
    if not replay.steps or not any(snapshot.behind for snapshot in getattr(game, "snapshots", ())):
        return ()
    notes = []
    for index, snapshots in snapshot_points(game, [], behind=True).items():
        in_force = {version.number: version for version in replay.rules_at(index)}
        for snapshot in snapshots:
            found: list = []
            compare_snapshot(found, in_force, snapshot)
            rules = tuple(sorted({finding.rule for finding in found if finding.rule is not None}))
            if found:
                where = f"after proposal {snapshot.after_proposal}" if snapshot.after_proposal else \
                    f"on {snapshot.as_of}"
                notes.append(Note(BEHIND, snapshot.source, f"snapshot {where}", f"differs from the replay in "
                                  f"{len(rules)} rule{'s' if len(rules) != 1 else ''} ({', '.join(map(str, rules))}); "
                                  f"the record says why: {snapshot.behind}", max(index, 0), rules))
    return tuple(notes)


EARLIER_TITLE = "earlier-title"


def earlier_titles(replay) -> tuple[Note, ...]:
    """Format 1.4: a note at each proposal of earlier.md that the log holds too, where the two titles differ (the
    log's page is the proposal's; the record's title is only compared with it)."""
    earlier = {proposal.number: proposal for proposal in replay.game.earlier}
    notes, seen = [], set()
    for step in replay.steps if earlier else ():
        entry = step.entry
        if isinstance(entry, Proposal) and entry.number in earlier and entry.number not in seen:
            seen.add(entry.number)
            recorded = earlier[entry.number]
            if recorded.title and " ".join(recorded.title.split()).casefold() != " ".join(entry.title.split()).casefold():
                notes.append(Note(EARLIER_TITLE, recorded.source, entry_label(entry), f"earlier.md titles it "
                                  f"'{shorten(recorded.title)}', the log '{shorten(entry.title)}'; its page is "
                                  "the log's", step.index))
    return tuple(notes)


def replay_notes(replay) -> tuple[Note, ...]:
    """Every note on a replay, in the order of its entries."""
    return tuple(sorted(unread_changes(replay) + corrected_changes(replay) + snapshots_behind(replay)
                        + earlier_titles(replay), key=lambda note: note.index))
