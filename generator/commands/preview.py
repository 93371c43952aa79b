"""`nomic-archive preview DRAFT.md`: what a drafted proposal would do to the rules in force, as one
self-contained page or, with --text, as a redline in the terminal.

The page is never written into the archive: by default it goes to a new folder in the system's temporary
folder (its path is printed), and `-o` inside the content folder is refused.

Exit codes: 0 the draft would apply cleanly, 1 the engine objects to something (the preview still shows),
2 the game or the draft cannot be read.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import folder_mode, refuse_to_replace, write_atomic, writing
from ..model import Proposal
from ..parse.folders import is_game
from ..parse.log import parse_draft
from ..parse.source import decode, read_text
from ..places import Places
from ..preview import DraftPreview, preview_draft
from ..diffing.redline import ansi_key, redline, render_ansi
from ..site.views import Page
from ..site.render import OVERRIDES, draw_page, make_environment, static_files
from ..terminal import one_line
from ..replays import replay_games


def run(args) -> int:
    if not os.path.lexists(args.draft):
        raise ArchiveError([SourceError(str(args.draft), 0, "no such file; name a draft, e.g. "
                                        "content/GAME/drafts/NAME.md")])
    if os.path.isdir(args.draft):  # a game's folder, or its drafts/, named where a draft belongs
        folder = Path(args.draft)
        drafts = folder / "drafts" if is_game(folder) else folder if is_game(folder.parent) else folder / "GAME/drafts"
        raise ArchiveError([SourceError(str(args.draft), 0, f"is a folder: preview shows one draft, so name its "
                                        f"file, e.g. {drafts / 'NAME.md'} (serve shows every draft of every game)")])
    draft_path = Path(os.path.abspath(args.draft))
    game = Path(os.path.abspath(args.game)) if args.game else _game_of(draft_path)
    if args.output and not args.text:
        _refuse_inside(args.output, game.parent)
        refuse_to_replace(args.output, "preview", force=args.force)
    (base,) = replay_games(game)
    if base.game.config.variant == "solitaire":  # a solitaire turn is played, not drafted and voted on
        raise ArchiveError([SourceError(str(draft_path), 0, "a solitaire game has no proposals to preview: play the "
                                        "turn in its log, and nomic-archive check names any clause it breaks")])
    preview = preview_draft(base, _read_draft(draft_path, game, power=base.game.config.rules.power))
    if args.text:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")  # https://no-color.org
        print(render_text(preview, color=color, places=Places(game.parent)))
    else:
        output = args.output or _temporary_page(preview.stem)
        write_atomic(output, render_standalone(preview, base.game.config.title, game.parent / "_templates"))
        print(f"wrote {output}", file=sys.stderr)
    return 1 if preview.objections else 0


def _refuse_inside(output: Path, content: Path) -> None:
    """A preview is not part of the archive: never written among a keeper's files."""
    if Path(os.path.realpath(output)).is_relative_to(os.path.realpath(content)):
        raise ArchiveError([SourceError(str(output), 0, f"lies inside the content folder ({content}): a preview "
                                        "is not part of the archive; write it elsewhere, or leave -o out to "
                                        "write it to a temporary folder; nothing was written")])


def _temporary_page(stem: str) -> Path:
    """A new folder of its own in the system's temporary folder (modes as the umask allows, as for -o)."""
    with writing(Path(tempfile.gettempdir())):
        folder = Path(tempfile.mkdtemp(prefix="nomic-preview-"))
        os.chmod(folder, folder_mode())
    return folder / f"{stem}.html"


def _game_of(draft: Path) -> Path:
    """The game a draft belongs to: GAME/drafts/NAME.md, or a draft kept in the game's own folder."""
    for folder in (draft.parent.parent, draft.parent):
        if is_game(folder):
            return folder
    raise ArchiveError([SourceError(str(draft), 0, "no game.toml in the folders above this draft; "
                                    "name the game with --game DIR")])


def _read_draft(path: Path, game: Path, *, power: bool) -> Proposal:
    # Named as the game's own files are in errors: relative to the folder that holds the game.
    name = path.relative_to(game.parent).as_posix() if path.is_relative_to(game.parent) else str(path)
    errors = ErrorCollector()
    text = read_text(path, name, errors)
    draft = parse_draft(name, text, errors, power=power) if text is not None else None
    if errors.errors:
        raise ArchiveError(errors.errors, root=str(game.parent))
    return draft


def render_text(preview: DraftPreview, *, color: bool, places: Places | None = None) -> str:
    """The preview for a terminal: titles, names and messages on one line each (player text in them escaped),
    the redlines cleaned by render_ansi; the objections' files named by `places` (as the model has them
    without)."""
    places = places or Places(None)
    lines = [one_line(f"Draft{': ' + preview.title if preview.title else ''} by {preview.proposer}, "
                      f"would be proposal {preview.number}")]
    if preview.vote:
        lines.append(f"With these votes: {preview.vote.result} under {preview.vote.method} ({preview.vote.tally})")
    lines += [one_line(f"Note: {note}") for note in preview.notes]
    if preview.changes:
        lines += ["", ansi_key(color=color)]
    for change in preview.changes:
        before = change.before_number if change.before_number is not None else change.number
        renumbered = f" -> rule {change.number}" if before != change.number else ""
        label = f" ({change.label})" if change.label else ""
        title = f": {change.title}" if change.title else ""
        lines += ["", one_line(f"Rule {before}{renumbered}{label}{title} ({change.kind})")]
        lines += [one_line(f"  {line}") for line in change.summary]
        lines += ["", render_ansi(redline(change.old_text, change.new_text), color=color)]
    if not preview.changes:
        lines += ["", "It changes no rule."]
    if preview.objections:
        lines += ["", "Objections:"] + [one_line(f"  {places.path(o.file)}:{o.line}: {o.kind}: {o.message}")
                                         for o in preview.objections]
    return "\n".join(lines)


def render_standalone(preview: DraftPreview, game_title: str, overrides: Path) -> str:
    """The serve page of a draft as one file: no game navigation, the style and script inlined."""
    env = make_environment(overrides)
    statics = dict(static_files(overrides))
    page = Page(f"{preview.stem}.html", "draft.html", {"preview": preview, "game_title": game_title,
                                                       "site_title": game_title, "base_url": ""})
    html = draw_page(env, page)

    def asset(name: str) -> str:
        errors = ErrorCollector()
        text = decode(statics[name], f"{OVERRIDES}/{name}", errors)  # the bundled files are UTF-8
        errors.raise_if_any()
        return text.replace("</", "<\\/")  # nothing in it may close the element it is inlined in

    html = html.replace('<link rel="stylesheet" href="static/style.css">',
                        f"<style>\n{asset('static/style.css')}</style>")
    html = html.replace('<script src="static/site.js"></script>', f"<script>\n{asset('static/site.js')}</script>")
    # No site around the page: no favicon file (search says it has no index, as there is no site).
    return re.sub(r'<link rel="icon"[^>]*>\n?', "", html)
