"""`nomic-archive diff OLD NEW`: two rulesets compared rule by rule (exit 0 equal, 1 different, 2 unreadable).

Each side is a ruleset file (rules.md, a snapshot, or plain text that `import` reads), a game folder (its
rules in force at the end of the log), or a point in a game, named as the site names it (model/points.py):
`GAME@312` (after proposal 312; `GAME@312-2`, the second proposal numbered 312), `GAME@judgment-7`,
`GAME@entry-12`, `GAME@2005-04-02` (after the last entry dated on or before that day), `GAME@start` (the
initial set) or `GAME@now`.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from markupsafe import Markup

from ..diffing.compare import Comparison, Pair, RuleLike, compare, to_json
from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import refuse_to_replace, write_atomic
from ..parse.folders import is_game
from ..parse.rules import parse_ruleset
from ..diffing.redline import ansi_key, render_ansi
from ..terminal import one_line
from ..replays import replay_games
from . import game_point, read_ruleset

_BOLD, _RESET = "\x1b[1m", "\x1b[0m"
INDENT = "    "


def run(args) -> int:
    if args.output:
        refuse_to_replace(args.output, "diff", force=args.force)
    old, new = load_side(args.old), load_side(args.new)
    comparison = compare(old, new)
    if args.format == "json":
        output = json.dumps(to_json(comparison, old=args.old, new=args.new), indent=2, ensure_ascii=False) + "\n"
    elif args.format == "html":
        output = render_page(comparison, args.old, args.new)
    else:
        color = args.output is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        output = render_text(comparison, args.old, args.new, color=color)
    if args.output:
        write_atomic(args.output, output)
    else:
        sys.stdout.write(output)
    return 0 if comparison.equal else 1


# --- Reading a side ------------------------------------------------------------------------------


def load_side(spec: str) -> Sequence[RuleLike]:
    """The rules a command-line side names; raises ArchiveError (exit 2) when they cannot be read."""
    path = Path(spec)
    exists = os.path.lexists(spec)  # not Path.exists(): it raises for a name too long to be a file's
    if not exists and "@" in spec:
        game, point = spec.rsplit("@", 1)
        return _game_rules(Path(game), point, spec)
    if os.path.isdir(spec):
        return _game_rules(path, None, spec)
    if not exists:
        raise ArchiveError([SourceError(spec, 0, "no such file or game folder")])
    return _file_rules(path)


def _file_rules(path: Path) -> Sequence[RuleLike]:
    errors = ErrorCollector()
    ruleset = parse_ruleset(read_ruleset(path), str(path), errors)
    errors.raise_if_any()
    return ruleset.rules


def _game_rules(folder: Path, point: str | None, spec: str) -> Sequence[RuleLike]:
    if not is_game(folder):
        raise ArchiveError([SourceError(str(folder), 0, "not a game folder (a game is a folder with game.toml)")])
    replay = replay_games(folder)[0]  # raises for unreadable files and changes that cannot apply
    index = len(replay.steps) - 1 if point is None else game_point(replay.game, point, spec, folder)
    return replay.rules_at(index)


# --- Text ----------------------------------------------------------------------------------------


def render_text(comparison: Comparison, old: str, new: str, *, color: bool) -> str:
    """A header per difference (`rule 203 is now 306`), its notes and redline indented below, a tally last.
    Headers and notes quote titles, which could drive the terminal (render_ansi cleans the rule text)."""
    lines = [f"--- {one_line(old)}", f"+++ {one_line(new)}", ""]
    if any(_body(pair, color) for pair in comparison.differences):
        lines += [ansi_key(color=color), ""]
    for pair in comparison.differences:
        header = pair.describe() + (f": {pair.title}" if pair.title else "")
        lines.append(f"{_BOLD}{one_line(header)}{_RESET}" if color else one_line(header))
        lines += [f"{INDENT}* {one_line(note)}" for note in pair.notes()]
        body = _body(pair, color)
        lines += [f"{INDENT}{line}" if line else "" for line in body.split("\n")] if body else []
        lines.append("")
    lines.append(comparison.tally())
    return "\n".join(lines) + "\n"


def _body(pair: Pair, color: bool) -> str:
    if pair.redline is None or not pair.redline.changed:
        return ""  # renumbered only: the header says it all
    return render_ansi(pair.redline, color=color)


# --- HTML ----------------------------------------------------------------------------------------

# A page of its own, styles inline, so that the file can be mailed or opened anywhere.
_STANDALONE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{% endblock %}</title>
<style>
{{ css }}</style>
</head>
<body>
<main id="main">
{% block main %}{% endblock %}
</main>
</body>
</html>
"""


def render_page(comparison: Comparison, old: str, new: str) -> str:
    # The site's modules (Jinja2 and the page plan) load only when HTML is asked for.
    from ..site.compare_pages import comparison_view
    from ..site.render import make_environment, package_templates

    env = make_environment()
    layout = env.from_string(_STANDALONE)
    css = (package_templates() / "static" / "style.css").read_text(encoding="utf-8")
    context = {"before": {"label": old, "url": ""}, "after": {"label": new, "url": ""}, **comparison_view(comparison)}
    # Markup: the package's own stylesheet, not player text.
    return env.get_template("compare.html").render(layout=layout, css=Markup(css), **context)

