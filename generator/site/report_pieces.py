"""The text report of the rules (site/ruleset_text.py) for any point, in the browser, beside "rules as of": its
pieces, each formatted here once, which static/report.js selects and joins for a point as `ruleset_text.assemble`
does, so that what the reader gets is what `nomic-archive ruleset GAME@POINT` prints, byte for byte. A file per
point would not do: Agora's thousands of points times a report of 600 KB.

- `<game>/report/index.js`: the layout (`ReportLayout`: templates, parts, words) and the files of the end's
  reports.
- `<game>/report/N.js`, beside each points piece (points.py): its points' figures (the start's too in piece 0)
  and, for each version the points piece holds and in the same order, its power and the lines the report prints
  of it; the versions in force at a point are found in the points pieces, as "rules as of" finds them.
- `<game>/report/notes.js`: every rule's history lines and annotations, each with the entries it spans (a full
  report's only); a history line that reads otherwise under another of the report's names lists (`[[report.names]]`),
  each of its texts once, and which one each list reads.
- `<game>/ruleset-full.txt`, `ruleset-short.txt`: the reports at the end, to link to.

Nothing is loaded before the reader asks for a report.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .points import PER_PIECE, piece_entries, piece_versions
from .ruleset_text import every_point_figures, report_layout, rule_notes, ruleset_text, version_piece
from .views import Listing, Page

# The end's reports as static files: their format and name.
END_FILES = (("full", "ruleset-full.txt"), ("short", "ruleset-short.txt"))


def list_report_pages(listing: Listing) -> None:
    """List the report's pieces and the end's report files."""
    plan = listing.plan
    listing.add("report/index.js", _layout_piece)
    for first in range(0, max(len(plan.replay.steps), 1), PER_PIECE):
        listing.add(f"report/{first // PER_PIECE}.js", _report_piece, first)
    listing.add("report/notes.js", _notes_piece)
    for form, name in END_FILES:
        listing.add(name, _end_file, form)


def _layout_piece(listing: Listing, path: str, _: Any) -> Page:
    plan = listing.plan
    return listing.new_page(path, "data-piece.js", {"key": path}, kind="js", lazy=lambda: {"data": {
        "layout": dataclasses.asdict(report_layout(plan)), "files": dict(END_FILES)}})


def _report_piece(listing: Listing, path: str, first: int) -> Page:
    """The figures of the points `first` onwards (the start's too in the first piece) and the report's lines of
    the versions the points piece of those entries holds: [identity, start, power, toc, block] each."""
    plan = listing.plan

    def data() -> dict[str, Any]:
        figures = plan.once("report figures", lambda: every_point_figures(plan))
        layout = report_layout(plan)
        entries = piece_entries(plan, first)
        points = [dataclasses.astuple(figures[index + 1]) for index in entries]
        versions = []
        for version in piece_versions(plan, first):
            piece = version_piece(plan, layout, version)
            versions.append([piece.identity, piece.start, piece.power, piece.toc, piece.block])
        made = {"first": first, "points": points, "versions": versions}
        if first == 0:
            made["start"] = dataclasses.astuple(figures[0])
        return {"data": made}
    return listing.new_page(path, "data-piece.js", {"key": path}, kind="js", lazy=data)


def _notes_piece(listing: Listing, path: str, _: Any) -> Page:
    """Every rule's notes, by identity: [history, annotations] (`_history_piece`), those of a rule without any left
    out."""
    plan = listing.plan

    def data() -> dict[str, Any]:
        layout = report_layout(plan)
        notes = {}
        for identity in sorted(plan.history.rules):
            made = rule_notes(plan, layout, identity)
            if made.history or made.annotations:
                notes[identity] = [list(map(_history_piece, made.history)), made.annotations]
        return {"data": notes}
    return listing.new_page(path, "data-piece.js", {"key": path}, kind="js", lazy=data)


def _history_piece(line: tuple[int, tuple[tuple[int, str], ...]]) -> list:
    """A history line as notes.js gives it: [made, text], or [made, texts, [[names list, text's index], ...]] where
    it reads otherwise under the report's names lists (each text once: names that alternate cost a number each)."""
    made, runs = line
    if len(runs) == 1:
        return [made, runs[0][1]]
    texts = list(dict.fromkeys(text for _, text in runs))
    return [made, texts, [[at, texts.index(text)] for at, text in runs]]


def _end_file(listing: Listing, path: str, form: str) -> Page:
    plan = listing.plan
    return listing.new_page(path, "report.txt", {}, kind="txt", lazy=lambda: {
        "text": ruleset_text(plan, len(plan.replay.steps) - 1, full=form == "full")})
