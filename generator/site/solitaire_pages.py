"""The pages of a Solitaire Nomic game (seed 000): its home, each turn with its action as a redline and the
rules after it, the rules now and at the start, a timeline of rules living and dying, and the verification.

pages.site_game calls `solitaire_site` for a game whose replay is a SolitaireReplay; the rest of the site
(the index, the search) takes its summary and search entries as it takes a standard game's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..engine.solitaire import Death, LiveRule, SolitaireReplay, TurnStep
from ..model.points import page_names
from .markdown import render_markdown, render_prose
from .views import Page, game_view, redline_view

# Rule text starts with its number ("21. Precedence. ..."), and a subsumed rule's text starts a paragraph so;
# Markdown would read each as an ordered list, so the full stop is escaped for display.
_NUMBERED_LINE = re.compile(r"(?m)^([ \t]{0,3}\d{1,9})\.")

ROW, WIDTH, TOP = 22, 760, 28  # the timeline's geometry, in SVG units (drawn at 1:1, text at FONT_SIZE)
FONT_SIZE, CHAR_WIDTH = 13, 7.4  # CHAR_WIDTH: a generous average advance of the sans-serif at that size
LABEL_CHARS = 34


def display_markdown(text: str) -> str:
    return _NUMBERED_LINE.sub(r"\1\\.", text)


def solitaire_site(replay: SolitaireReplay) -> tuple[list[Page], dict[str, Any], list[dict[str, str]]]:
    """The game's pages, its summary for the site's index, and its entries in the search index."""
    slug = replay.game.slug
    base = {"game": game_view(replay)}
    names = page_names((step.index, step.entry.number) for step in replay.steps)
    pages: list[Page] = []

    def add(path: str, template: str, context: dict[str, Any]) -> None:
        pages.append(Page(f"{slug}/{path}", template, {**base, **context}))

    add("index.html", "solitaire/game.html", _home(replay, names))
    rules_now = [_rule_view(rule) for rule in replay.rules]
    add("rules/index.html", "solitaire/rules.html", {"heading": "Rules now", "rules": rules_now,
                                                     "after": replay.steps[-1].label if replay.steps else ""})
    add("rules/start.html", "solitaire/rules.html", {"heading": "Rules at the start",
                                                     "rules": [_rule_view(r) for r in replay.initial.rules],
                                                     "after": ""})
    rows = [_turn_row(step, names, replay.winning_step) for step in replay.steps]
    add("turns/index.html", "solitaire/turns.html", {"rows": rows, "preamble": render_prose(replay.game.log.preamble, 2)})
    for position, step in enumerate(replay.steps):
        previous = replay.steps[position - 1] if position else None
        following = replay.steps[position + 1] if position + 1 < len(replay.steps) else None
        add(f"turns/{names[step.index]}.html", "solitaire/turn.html", _turn_context(replay, step, previous, following,
                                                                                    names))
    add("timeline.html", "solitaire/timeline.html", {"chart": timeline_chart(replay), "font_size": FONT_SIZE})
    add("check.html", "solitaire/check.html", _check_context(replay, names))
    summary = {**base["game"], "findings": len(replay.findings), "players": [replay.setup.player], "turns": len(replay.steps), "proposals": 0,
               "rules": len(replay.rules), "winner": list(replay.winner), "variant": "solitaire",
               "first": _date(replay.steps[0]) if replay.steps else "",
               "last": _date(replay.steps[-1]) if replay.steps else ""}
    return pages, summary, _search_entries(replay, names)


def _date(step: TurnStep) -> str:
    return step.entry.date.isoformat() if step.entry.date else ""


def _rule_view(rule: LiveRule) -> dict[str, Any]:
    return {"number": rule.number, "title": rule.title, "rule_class": rule.rule_class, "span": rule.span,
            "html": render_markdown(display_markdown(rule.text))}


def _status(replay: SolitaireReplay) -> str:
    objective = replay.setup.objective
    if replay.won_at is not None:
        return f"Won by {replay.setup.player} at turn {replay.won_at}: only the Objective remains."
    if not any(rule.identity == objective for rule in replay.rules):
        return "The Objective is gone: the game can no longer be won."
    due = " Fewer than 2 mutable rules stand, so the next action must be a division (rule 6)." \
        if replay.division_due else ""
    return f"Turn {replay.next_turn} is next: {replay.setup.player} to play.{due}"


def _home(replay: SolitaireReplay, names: dict[int, str]) -> dict[str, Any]:
    rules = replay.rules
    return {"status": _status(replay), "score": replay.final_scores[replay.setup.player],
            "player": replay.setup.player, "turns": len(replay.steps), "won": replay.won_at is not None,
            "immutable": sum(1 for r in rules if not r.mutable), "mutable": sum(1 for r in rules if r.mutable),
            "findings": len(replay.findings), "rules": [_rule_view(rule) for rule in rules],
            "recent": [_turn_row(s, names, replay.winning_step) for s in replay.steps[-10:]][::-1],
            "preamble": str(render_prose(replay.game.log.preamble, 3)),
            "choices": _choices(replay)}


def _choices(replay: SolitaireReplay) -> list[tuple[str, str]]:
    """The readings of seed 000 this game follows (game.toml's [solitaire]), in words."""
    options = replay.setup.options
    return [
        ("Life spans run down", "after each turn's action" if options.tick == "after" else "before each turn's action"),
        ("A subsumer's life span", "at most 8" if options.subsumer_cap else "may pass 8"),
        ("Rules 100 and 101", "may be divided" if options.divide_initial else "may not be divided"),
        ("A word", "a run of characters between spaces" if options.words == "spaces" else "a run of letters and digits"),
        ("Actions", "as the initial rules describe them, throughout" if options.actions == "fixed"
         else "only while the rule describing each is immutable"),
    ]


def _turn_row(step: TurnStep, names: dict[int, str], won: TurnStep | None) -> dict[str, Any]:
    action = step.entry.action
    return {"label": step.label, "number": step.entry.number, "url": f"turns/{names[step.index]}.html",
            "action": action.text if action else "", "date": _date(step), "points": step.points,
            "score": step.scores[next(iter(step.scores))], "deaths": [d.rule.number for d in step.deaths],
            "findings": len(step.findings), "won": step is won}


def _turn_context(replay: SolitaireReplay, step: TurnStep, previous: TurnStep | None, following: TurnStep | None,
                  names: dict[int, str]) -> dict[str, Any]:
    turn = step.entry
    return {
        "turn": {"number": turn.number, "title": turn.title, "date": _date(step), "label": step.label,
                 "action": turn.action.text if turn.action else "", "source": str(turn.source),
                 "notes": list(turn.notes)},
        "body": render_markdown(turn.body),
        "changes": _changes(step, f"{names[step.index]}.html"),
        "deaths": [_death_view(d) for d in step.deaths if d.cause == "life span"],
        "applied": step.applied, "forced": step.forced, "points": step.points,
        "score": step.scores[replay.setup.player],
        "won": step is replay.winning_step, "winner": list(step.winner),
        "rules": [_rule_view(rule) for rule in step.rules],
        "findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "message": f.message} for f in step.findings],
        "previous": {"label": previous.label, "url": f"{names[previous.index]}.html"} if previous else None,
        "next": {"label": following.label, "url": f"{names[following.index]}.html"} if following else None,
    }


def _death_view(death: Death) -> dict[str, Any]:
    return {"number": death.rule.number, "title": death.rule.title, "cause": death.cause}


def _changes(step: TurnStep, cite: str) -> list[dict[str, Any]]:
    """The turn's action as redlines, rule by rule, each a revision as _revision.html shows it."""
    before = {rule.identity: rule for rule in step.before}
    after = {rule.identity: rule for rule in step.rules}
    subsumed = {d.rule.identity: d for d in step.deaths if d.cause != "life span"}
    changes = []
    def shown(rule: LiveRule | None) -> tuple | None:  # what an action changes; time alone moves only spans
        return (rule.number, rule.rule_class, rule.body) if rule else None

    touched = [i for i in sorted(set(before) | set(after), key=lambda i: (after.get(i) or before[i]).number)
               if shown(before.get(i)) != shown(after.get(i)) or i in step.born]
    for identity in touched:
        old, new = before.get(identity), after.get(identity)
        if new is None and identity not in subsumed:
            continue  # died of its life span: listed apart
        if new is None:
            old = subsumed[identity].rule
            html, _ = redline_view(display_markdown(old.full_text), "", cite)
            notes = [f"{subsumed[identity].cause}: it dies"]
            rule = old
        elif old is None:
            html, _ = redline_view("", display_markdown(new.full_text), cite)
            notes = [f"a duplicate numbered {new.number}, with {new.span} turns to live" if new.span is not None
                     else f"a duplicate numbered {new.number}"]
            rule = new
        else:
            html, summary = redline_view(display_markdown(old.full_text), display_markdown(new.full_text), cite)
            notes = (list(summary) if old.body != new.body else []) + _kept_rule_notes(step, old, new, subsumed,
                                                                                         before, after)
            rule = new
        changes.append({"kind": "changed", "identity": identity, "anchor": f"change-{identity}", "html": html,
                        "summary": notes,
                        "step": {"url": f"#rule-{rule.number}" if new else "", "label": f"rule {rule.number}",
                                 "title": rule.title, "date": ""}})
    return changes


def _kept_rule_notes(step: TurnStep, old: LiveRule, new: LiveRule, subsumed: dict[int, Any],
                     before: dict[int, LiveRule], after: dict[int, LiveRule]) -> list[str]:
    """What a turn's action did to a rule it kept, but its text: transmuted, renumbered, divided, its life span.
    `before` and `after`: the rules before and after the turn, by identity."""
    notes = []
    if old.rule_class != new.rule_class:
        notes.append(f"transmuted: immutable rule {old.number} is now mutable rule {new.number}")
    elif old.number != new.number:
        notes.append(f"renumbered {old.number} to {new.number}")
    born = new.identity in step.born
    if born and old.rule_class == new.rule_class:
        duplicate = next(after[identity] for identity in step.born if identity not in before)
        notes.append(f"divided: its duplicate is rule {duplicate.number}" + (
            f"; both have {new.span} turns to live" if new.span is not None else ""))
    elif new.span is not None and born:
        notes.append(f"{new.span} turns to live")
    elif new.span is not None and old.span is not None and new.span != old.span - 1:  # not time alone
        gave = next((d.rule for d in subsumed.values()), None)
        notes.append(f"life span {old.span} → {new.span}" + (
            f": it gains half of rule {gave.number}'s {gave.span} turns to live, less the turn that passes"
            if gave is not None and gave.span is not None else ""))
    return notes


def _check_context(replay: SolitaireReplay, names: dict[int, str]) -> dict[str, Any]:
    return {"findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "entry": f.entry, "message": f.message,
                          "expected": f.expected, "found": f.found, "url": f"turns/{names[step.index]}.html",
                          "cause": None, "cause_url": None} for step in replay.steps for f in step.findings],
            "turns": len(replay.steps), "won_at": replay.won_at}


def _search_entries(replay: SolitaireReplay, names: dict[int, str]) -> list[dict[str, str]]:
    slug, title = replay.game.slug, replay.game.config.title
    entries = [{"t": f"Rule {rule.number}" + (f": {rule.title}" if rule.title else ""), "g": title,
                "u": f"{slug}/rules/index.html#rule-{rule.number}", "x": " ".join(rule.text.split())[:600]}
               for rule in replay.rules]
    entries += [{"t": f"Turn {step.entry.number}: {step.entry.action.text if step.entry.action else ''}", "g": title,
                 "u": f"{slug}/turns/{names[step.index]}.html", "x": " ".join(step.entry.body.split())[:400]}
                for step in replay.steps]
    return entries


# --- The timeline ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    x1: float
    x2: float
    kind: str  # "immutable" | "mutable"


@dataclass(frozen=True)
class Lane:
    """One rule across the game: its label, its bars, and how it ended, in words for the text version."""

    y: float
    label: str
    bars: tuple[Bar, ...]
    end_x: float | None  # where it died
    end: str  # "died at turn 13 (life span)", "" while it stands
    story: str
    objective: bool


@dataclass(frozen=True)
class Timeline:
    width: int
    height: int
    left: int
    top: int
    lanes: tuple[Lane, ...]
    ticks: tuple[tuple[float, str], ...]
    won_x: float | None
    turns: int


def timeline_chart(replay: SolitaireReplay) -> Timeline:
    """Each rule as a lane over the turns: thin while immutable, thick while mutable, ended where it died."""
    count = len(replay.steps)

    # Each rule's life: the positions (0: the start, i: after the i-th turn) where it is in each class.
    lives: dict[int, dict[str, Any]] = {}
    for rule in replay.initial.rules:
        lives[rule.identity] = {"first": rule, "numbers": [rule.number], "classes": [(0, rule.rule_class)],
                                "end": None}
    for position, step in enumerate(replay.steps, start=1):
        for rule in step.rules:
            life = lives.setdefault(rule.identity, {"first": rule, "numbers": [], "classes": [], "end": None,
                                                    "born": position})
            if not life["numbers"] or life["numbers"][-1] != rule.number:
                life["numbers"].append(rule.number)
            if not life["classes"] or life["classes"][-1][1] != rule.rule_class:
                life["classes"].append((position, rule.rule_class))
        for death in step.deaths:
            lives[death.rule.identity]["end"] = (position, step.label, death.cause)
    def name(life: dict[str, Any]) -> str:
        numbers = " → ".join(str(n) for n in life["numbers"])
        return f"{numbers} {life['first'].title}"[:LABEL_CHARS].rstrip() if life["first"].title else numbers

    # The labels stand left of the plot, as wide as the longest, so that none is cut off.
    left = 16 + round(CHAR_WIDTH * max((len(name(life)) for life in lives.values()), default=0))
    plot = WIDTH - left - 30  # the rest, but room for a death's × at the end

    def x(position: int) -> float:
        return round(left + plot * position / max(count, 1), 1)

    lanes = []
    for row, (identity, life) in enumerate(sorted(lives.items(), key=lambda kv: (kv[1].get("born", 0), kv[0]))):
        end = life["end"]
        stop = end[0] if end else count
        bars = []
        for (start, rule_class), following in zip(life["classes"], life["classes"][1:] + [(stop, "")]):
            bars.append(Bar(x(start), x(max(following[0], start)), rule_class))
        first: LiveRule = life["first"]
        numbers = " → ".join(str(n) for n in life["numbers"])
        born = f"made at turn {replay.steps[life['born'] - 1].entry.number}, " if "born" in life else ""
        changes = [f"mutable from {replay.steps[p - 1].label}" for p, cls in life["classes"] if p and cls == "mutable"]
        ended = f"died at {end[1]} ({end[2]})" if end else "stands"
        story = f"Rule {numbers}" + (f" ({first.title})" if first.title else "") + ": " + born + \
            ", ".join([("mutable" if life["classes"][0][1] == "mutable" else "immutable") + " at first"] + changes
                      + [ended]) + "."
        lanes.append(Lane(TOP + row * ROW, name(life), tuple(bars), x(end[0]) if end else None, ended if end else "",
                          story, identity == replay.setup.objective))
    every = max(1, count // 12)
    ticks = ((x(0), "start"),) + tuple((x(i + 1), str(s.entry.number)) for i, s in enumerate(replay.steps)
                                       if (i + 1) % every == 0 or i + 1 == count)
    won = replay.winning_step
    return Timeline(WIDTH, TOP + len(lanes) * ROW + 24, left, TOP, tuple(lanes), ticks,
                    x(won.index + 1) if won else None, count)
