"""A rule's history in the words of Agora's Full Logical Ruleset, from the Rulekeepor's history entries: the
change ("Amended(4)", "Mutated from MI=unanimity to MI=3", "Initial immutable rule 101"), who made it
("P4833 'Tension makes a tangle' (Maud)", "R2430", "cleaning (Janet)") and when, as the Rulekeepor's own generator
(AgoraNomic/ruleset, src/.../report/Readable.kt) writes them, dates in ISO form; and the revision number the FLR
gives a rule (`Rule 2139/12`).

Until 2017-10 the Rulekeepor kept each history entry as a line of text in those words ("Created by Proposal 7815
(Alexis, aranea), 28 October 2016"); `free_text_entry` reads such a line as an entry, keeping the line."""
from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from .text import MAX_TITLE_CHARS, clean_line

AGORAS_BIRTH = "1993-06-30"

# The change types of a history entry, as what they did to a rule's text and title (None: nothing the log writes).
KIND_OF_TYPE = {"amendment": "amend", "null-amendment": "amend", "infection-amendment": "amend", "enactment": "enact",
                "creation": "enact", "initial": "enact", "reenactment": "reenact", "repeal": "repeal",
                "retitling": "retitle", "power-change": "power"}
_PLAIN_CHANGES = {"enactment": "Enacted", "creation": "Created", "renumbering": "Renumbered", "infection": "Infected",
                  "repeal": "Repealed", "authority-vanished": "Disappeared as authority removed",
                  "unknown": "History unknown..."}
# A line of the FLR of 2017: its first words say what the change was.
_LINE_TYPES = (("infected and amended", "infection-amendment"), ("null-amended", "null-amendment"),
               ("re-enacted", "reenactment"), ("reenacted", "reenactment"), ("power changed", "power-change"),
               ("created", "enactment"), ("enacted", "enactment"), ("initial", "initial"), ("amended", "amendment"),
               ("repealed", "repeal"), ("retitled", "retitling"), ("mutated", "mutation"),
               ("renumbered", "renumbering"), ("infected", "infection"))
_LINE_PROPOSAL = re.compile(r"\bby\s+proposal\s+([0-9]{1,12})\b", re.IGNORECASE)
# What a line says of the proposal it names: 'by Proposal 7850 "Yet Another Scam" (ais523)', '(Murphy; disi.)'
_LINE_PROPOSAL_SAID = re.compile(r"\s*(?:[\"\u201c]([^\"\u201d]+)[\"\u201d])?\s*(?:\(([^)]*)\))?")
_LINE_CAUSE = re.compile(r"\b(?:by|via)\s+", re.IGNORECASE)
_YEAR = re.compile(r"[0-9]{4}")
_LINE_RULE = re.compile(r"\b(?:by|via)\s+rule\s+([0-9]{1,12})\b", re.IGNORECASE)
_MONTHS = {name: number for number, names in enumerate(
    (("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")), start=1) for name in names}
_DAY_MONTH_YEAR = re.compile(r"\b([0-9]{1,2})\s+([A-Za-z]+)\.?,?\s+([0-9]{4})\b")
_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]+)\.?\s+([0-9]{1,2}),?\s+([0-9]{4})\b")
_ISO_DAY = re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b")
_QUOTED_TITLE = re.compile(r"^\s*[\"'\u201c]")


def free_text_entry(line: str) -> dict:
    """A history line of the FLR of 2017 as an entry: its change type, the proposal or rule it names, its day
    (when it gives one), and the line itself, which stays what the history says. Only as much of it is read as a
    History: line holds (a longer one is cut there)."""
    read = line[:MAX_TITLE_CHARS]
    lowered = read.strip().lower()
    kind = next((kind for start, kind in _LINE_TYPES if lowered.startswith(start)), "")
    agent = None
    if proposal := _LINE_PROPOSAL.search(read):
        agent = {"proposal": proposal.group(1)}
    elif rule := _LINE_RULE.search(read):
        agent = {"rule": rule.group(1)}
    elif cause := _LINE_CAUSE.search(read):  # "by cleaning (G.), 24 May 2017": who, without the date
        said, comma, last = read[cause.end():].rpartition(",")
        agent = {"said": (said if comma and _YEAR.search(last) else read[cause.end():]).strip()}
    return {"change": {"type": kind}, "agent": agent, "date": _day_in(read), "line": line}


def proposal_said(line: str) -> tuple[int, dict] | None:
    """The proposal a line of the FLR of 2017 names, with its title and authors where the line gives them, as the
    Rulekeepor's note of a proposal holds them: (7850, {"title": "Yet Another Scam", "author": "ais523"})."""
    line = line[:MAX_TITLE_CHARS]
    found = _LINE_PROPOSAL.search(line)
    if found is None:
        return None
    said = _LINE_PROPOSAL_SAID.match(line, found.end())
    title, people = said.group(1), said.group(2)
    names = [name.strip() for name in re.split(r"[,;]", people or "") if name.strip() and name.strip() != "disi."]
    note = {"title": title.strip()} if title and title.strip() else {}
    if names:
        note.update(author=names[0], coauthors=names[1:])
    return int(found.group(1)), note


def _day_in(line: str) -> str | None:
    """The last day a line names ("17 May 2017", "Sep. 5 1994", "2017-05-17"), in ISO form; None without one."""
    found = []
    for match in _DAY_MONTH_YEAR.finditer(line):
        found.append((match.start(), match.group(3), match.group(2), match.group(1)))
    for match in _MONTH_DAY_YEAR.finditer(line):
        found.append((match.start(), match.group(3), match.group(1), match.group(2)))
    for match in _ISO_DAY.finditer(line):
        found.append((match.start(), match.group(1), match.group(2), match.group(3)))
    for _, year, month, day in sorted(found, reverse=True):
        number = int(month) if month.isdigit() else _MONTHS.get(month.lower())
        try:
            return datetime.date(int(year), number, int(day)).isoformat() if number else None
        except ValueError:
            continue
    return None


def change_type(entry: dict) -> str:
    change = entry.get("change")
    return str(change.get("type")) if isinstance(change, dict) else ""


def _counts(entry: dict) -> int:
    """How many revisions the change adds (the FLR's count: amendments and re-enactments, not titles or powers)."""
    change = entry.get("change") if isinstance(entry.get("change"), dict) else {}
    kind = change_type(entry)
    if kind == "amendment":
        return 0 if str(change.get("uncounted", "")).lower() == "true" else 1
    return 1 if kind in ("null-amendment", "reenactment", "infection-amendment") else 0


def revisions(entries: list[dict]) -> tuple[list[int], int]:
    """Each entry's revision number (what "Amended(N)" says) and the rule's revision after them all, as the FLR
    counts: one more for each counted change, from an entry's own `revision:` where it sets one."""
    bases, current = [], 0
    for entry in entries:
        forced = entry.get("revision")
        previous = int(forced) - 1 if isinstance(forced, str) and forced.isdigit() else current
        bases.append(previous + 1)
        current = previous + _counts(entry)
    return bases, current


def history_lines(entries: list[dict], cause: Callable[[dict], str | None]) -> list[str]:
    """A rule's history entries in the FLR's words: `cause` says who made a change (the agent's words)."""
    bases, _ = revisions(entries)
    return [_line(entry, base, cause) for entry, base in zip(entries, bases)]


def _line(entry: dict, revision: int, cause: Callable[[dict], str | None]) -> str:
    if isinstance(entry.get("line"), str):
        return clean_line(entry["line"])
    agent = entry.get("agent")
    who = cause(agent) if isinstance(agent, dict) and agent else None
    when = date_words(entry.get("date"))
    return clean_line(_change_words(entry, revision) + (f" by {who}" if who else "") + (f", {when}" if when else ""))


def _change_words(entry: dict, revision: int) -> str:
    change = entry.get("change") if isinstance(entry.get("change"), dict) else {}
    kind = change_type(entry)

    def value(*keys: str) -> str | None:
        return next((str(change[key]) for key in keys if change.get(key) not in (None, "")), None)

    if kind == "initial":
        return f"Initial {value('mutability') or 'mutable'} rule {value('id') or ''}".strip()
    if kind == "mutation":
        old, new = value("old-mi", "oldmi"), value("new-mi", "newmi")
        return "Mutated" + (f" from MI={old}" if old else "") + (f" to MI={new}" if new else "")
    if kind == "power-change":
        old, new = value("old-power"), value("new-power")
        return "Power changed" + (f" from {old}" if old else "") + (f" to {new}" if new else "")
    if kind == "retitling":
        old, new = value("old-title"), value("new-title")
        return "Retitled" + (f" from '{old}'" if old else "") + (f" to '{new}'" if new else "")
    if kind == "committee-assignment":
        return f"Assigned to the {value('committee') or 'committee'}"
    if kind == "reenactment":
        power = value("power")
        return f"Re-enacted({revision})" + (f" at Power={power}" if power else "") + \
            ("" if "unchanged" in change else " and amended")
    if kind == "amendment":
        return "Amended" if _counts(entry) == 0 else f"Amended({revision})"
    if kind == "null-amendment":
        return f"Null-amended({revision})"
    if kind == "infection-amendment":
        return f"Infected and amended({revision})"
    return _PLAIN_CHANGES.get(kind, kind.replace("-", " ").capitalize() or "Changed")


def date_words(date) -> str | None:
    """A date of the record in words: "2005-08-06", "around 1994-05-01", "between 1994-10-01 and 1994-10-31",
    "Agora's birth"; None when unknown."""
    if isinstance(date, dict):
        if "between" in date:
            return f"between {date_words(date.get('between'))} and {date_words(date.get('and'))}"
        if "around" in date:
            return f"around {date_words(date.get('around'))}"
        return " ".join(f"{key} {value}" for key, value in date.items()) or None
    if date is None or str(date).strip() in ("", "unknown"):
        return None
    text = clean_line(str(date))
    return "Agora's birth" if text == AGORAS_BIRTH else text


def proposal_words(number: str, note: dict, name: Callable[[str], str]) -> str:
    """A proposal as the FLR names it: P4833 'Tension makes a tangle' [disi.] (Maud, Murphy)."""
    title = note.get("title")
    tags = [str(note["chamber"])] if note.get("chamber") else []
    if str(note.get("disinterested", "")).lower() == "true":
        tags.append("disi.")
    people = [name(str(note["author"]))] if note.get("author") else []
    people += [name(str(person)) for person in note.get("coauthors") or [] if isinstance(person, str)]
    return clean_line(f"P{number}" + (f" '{title}'" if isinstance(title, str) and title.strip() else "")
                      + (f" [{', '.join(tags)}]" if tags else "") + (f" ({', '.join(people)})" if people else ""))


def with_titles(line: str, notes: dict[int, dict], name: Callable[[str], str]) -> str:
    """A line of the FLR of 2017 with the title and authors of each proposal it names where it gives none."""
    line = line[:MAX_TITLE_CHARS]  # (all a History: line holds)

    def named(match: re.Match[str]) -> str:
        note = notes.get(int(match.group(1)))
        if not note:
            return match.group(0)
        rest = line[match.end():]
        title = note.get("title")
        added = f" '{title}'" if isinstance(title, str) and title.strip() and not _QUOTED_TITLE.match(rest) else ""
        people = [name(str(note["author"]))] if note.get("author") else []
        if people and not rest.lstrip().startswith(("(", '"', "'", "\u201c")):
            added += f" ({', '.join(people)})"
        return match.group(0) + added

    return clean_line(_LINE_PROPOSAL.sub(named, line))
