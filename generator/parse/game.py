"""A game folder (game.toml, rules.md, the log, snapshots, drafts) or a content folder of games to the model."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..cache import Cache
from ..errors import ArchiveError, ErrorCollector, SourceError
from ..limits import (MAX_FILE_BYTES, MAX_GAME_BYTES, MAX_LINE_CHARS, MAX_LOG_BYTES, MAX_TOML_BYTES,
                      MAX_TOML_LINE_CHARS)
from ..model import Game, Log, Proposal, Ruleset, Source, UnreadableDraft
from ..model.config import Config, Section
from ..model.urls import RESERVED, draft_page_name, former_url_segments, url_segment
from .config import locate_keys, parse_config
from .earlier import parse_earlier
from .folders import EARLIER_FILE, game_folders, input_files, names_root, not_a_folder
from .log import LogParser, parse_draft, parse_log
from .rules import parse_ruleset
from .solitaire import read_turn
from .source import read_text


def load_game(folder: Path, *, base: Path | None = None, drafts: bool = False, cache: Cache | None = None,
              jobs: int = 1, parser: LogParser | None = None) -> Game:
    """Parse one game; raises ArchiveError with every problem found in all its files.

    Drafts are read only when asked for (serve): they are not part of the archive, and a half-written one
    must not stop a keeper's build. With a cache, log entries parsed by an earlier run are read from it; with
    `jobs` > 1, a long log is parsed on that many cores; `parser`, one that parsed the game's log (and
    earlier.md) before."""
    errors = ErrorCollector()
    folder = Path(os.path.abspath(folder))  # see game_folders: `.` has no name and is its own parent
    base = base or folder.parent
    texts: dict[str, str] = {}
    unreadable: dict[str, list[SourceError]] = {}  # each draft's own problems: they stop no other page
    read = 0  # bytes of the game's files read so far
    _misnamed_files(folder, base, errors)
    for path in input_files(folder, drafts=drafts):
        name = path.relative_to(base).as_posix()
        toml = path.name == "game.toml"
        log = path.parent.name == "log" or path == folder / "log.md"
        draft = path.parent == folder / "drafts"
        said = ErrorCollector() if draft else errors
        text = read_text(path, name, said, root=base, missing="missing: a game needs game.toml and rules.md",
                         limit=MAX_TOML_BYTES if toml else MAX_LOG_BYTES if log else MAX_FILE_BYTES,
                         line_limit=MAX_TOML_LINE_CHARS if toml else MAX_LINE_CHARS)
        if text is None:
            if draft:
                unreadable[name] = said.errors
            continue
        read += len(text)  # (in characters: its bytes would take encoding the text again, at each save of serve's)
        if read > MAX_GAME_BYTES:  # (each file is within its cap: log/ may hold any number of them)
            errors.add(name, 0, f"the game's files come to more than {MAX_GAME_BYTES / 2**20:.0f} MB with this one, "
                       f"the most a game may hold (its log of 50,000 proposals takes about 22 MB): split the game "
                       "into rounds, a game folder each")
            raise ArchiveError(errors.errors, root=str(base))
        texts[name] = text
    try:
        return _build_game(url_segment(folder.name), folder.relative_to(base).as_posix(), texts, errors, cache, jobs,
                           parser, former_slugs=former_url_segments(folder.name), unreadable=unreadable)
    except ArchiveError as error:
        raise ArchiveError(error.errors, root=str(base)) from None


def _misnamed_files(folder: Path, base: Path, errors: ErrorCollector) -> None:
    """The log or the rules under another name (Log.md, log.txt, Rules.md): not read, and a game without log.md
    replays an empty log and says it is consistent, the keeper's record unread. Each said at its name (exit 2)."""
    missing = {stem: name for stem, name in (("log", "log.md"), ("rules", "rules.md"))
               if not os.path.lexists(folder / name) and not (stem == "log" and os.path.lexists(folder / "log"))}
    for path in sorted(folder.iterdir()) if missing else ():
        stem = path.name.lower().split(".")[0]
        if stem not in missing or not path.is_file():
            continue
        message = f"not read: the {stem} must be named {missing[stem]}"
        if stem == "log":
            message += " (or be files in log/)"
        message += f"; rename it {missing[stem]}"
        if stem == "rules" and path.suffix.lower() != ".md":
            message += (" (a plain-text ruleset becomes rules.md with: nomic-archive import text "
                        f"{os.path.relpath(path)} -o {os.path.relpath(folder / 'rules.md')})")
        errors.add(path.relative_to(base).as_posix(), 0, message)


def _build_game(slug: str, prefix: str, texts: dict[str, str], errors: ErrorCollector, cache: Cache | None = None,
                jobs: int = 1, parser: LogParser | None = None, *, former_slugs: tuple[str, ...] = (),
                unreadable: dict[str, list[SourceError]] | None = None) -> Game:
    def under(sub: str) -> list[str]:
        return sorted(name for name in texts if name.startswith(f"{prefix}/{sub}/"))

    toml_name, rules_name = f"{prefix}/game.toml", f"{prefix}/rules.md"
    config = (parse_config(texts[toml_name], toml_name, errors, default_title=slug)
              if toml_name in texts else Config(title=slug))
    if not config.title:
        config = config.with_value("title", slug)
    power = config.rules.power  # format 1.1: rulesets carry `Power:` lines, the log may change powers
    rules = (parse_ruleset(texts[rules_name], rules_name, errors, power=power) if rules_name in texts
             else Ruleset("", (), Source(rules_name, 0)))
    if rules.topics and not config.sections:  # format 1.3: rules.md's topics are the ruleset's parts on the site
        config = dataclasses.replace(config, sections=tuple(Section(name, "", numbers) for name, numbers in rules.topics))
    log_files = [f"{prefix}/log.md"] if f"{prefix}/log.md" in texts else []
    log_files += under("log")
    solitaire = config.variant == "solitaire"
    preamble, entries = parse_log([(name, texts[name]) for name in log_files], errors, power=power,
                                  read_entry=read_turn if solitaire else None, cache=cache, jobs=jobs, parser=parser)
    if solitaire and under("snapshots"):
        errors.add(under("snapshots")[0], 1, "a solitaire game has no snapshots: each turn's page shows the "
                   "rules after it")
    earlier_name = f"{prefix}/{EARLIER_FILE}"
    earlier = parse_earlier(earlier_name, texts[earlier_name], errors, parser) if earlier_name in texts else ()
    snapshots = tuple(parse_ruleset(texts[name], name, errors, snapshot=True, power=power)
                      for name in under("snapshots"))
    drafts: list[Proposal] = []
    unreadable = dict(unreadable or {})  # a draft's problems are its page's, never the game's
    names = sorted([*under("drafts"), *unreadable])
    for problem in draft_page_problems(names) if not solitaire else ():
        unreadable.setdefault(problem.file, []).append(problem)
    for name in under("drafts") if not solitaire else ():  # a solitaire turn is played, not drafted
        said = ErrorCollector()
        draft = parse_draft(name, texts[name], said, power=power)
        if said.errors or draft is None:
            unreadable.setdefault(name, []).extend(said.errors)
        elif name not in unreadable:
            drafts.append(draft)
    errors.raise_if_any()
    players_line = locate_keys(texts[toml_name]).get("players") if toml_name in texts else None
    return Game(slug=slug, config=config, rules=rules, log=Log(preamble, tuple(entries), tuple(log_files)),
                snapshots=snapshots, drafts=tuple(drafts),
                unreadable_drafts=tuple(UnreadableDraft(name, tuple(map(str, problems)))
                                        for name, problems in sorted(unreadable.items())),
                earlier=earlier, former_slugs=former_slugs,
                players_source=Source(toml_name, players_line) if players_line else None)


def load_content(content: Path, *, drafts: bool = False, cache: Cache | None = None, jobs: int = 1,
                 parser: LogParser | None = None) -> list[Game]:
    """Every game under a content folder (or the one game it is); all problems of all games at once."""
    if problem := not_a_folder(content):
        raise ArchiveError([problem])
    try:
        folders = game_folders(content)
    except OSError as error:
        raise ArchiveError([SourceError(str(content), 0, f"cannot read: {error.strerror}")]) from None
    if not folders:
        raise ArchiveError([SourceError(str(content), 0, "holds no game (a game is a folder with game.toml)")])
    games, problems = [], address_problems(folders)
    for folder in folders:
        try:
            games.append(load_game(folder, drafts=drafts, cache=cache, jobs=jobs, parser=parser))
        except ArchiveError as error:
            problems.extend(error.errors)
    if problems:
        raise ArchiveError(problems, root=str(names_root(content)))
    return games


def address_problems(folders: list[Path]) -> list[SourceError]:
    """Games whose addresses on the site would be the same, or would be one of the site's own files, on a disk
    that tells letters' cases apart or on one that does not (macOS's and Windows': `Game` would be `game`)."""
    problems, first = [], {}
    for folder in folders:
        address = url_segment(folder.name)
        if address.casefold() in RESERVED:
            problems.append(SourceError(folder.name, 0, f"a game's folder cannot be named '{address}': the site's "
                                        "own files use that name; rename the folder"))
        elif (other := first.get(address.casefold())) is not None:
            taken = url_segment(other.name)
            unspelled = [name for name in (folder.name, other.name) if not url_segment(name, empty="")]
            problems.append(SourceError(folder.name, 0, f"its address on the site would be '{address}', as "
                                        f"{other.name}'s is" + (f" ('{taken}': one folder on a disk that ignores "
                                        "case, as macOS's and Windows' do)" if taken != address else "")
                                        + (f" ({' and '.join(unspelled)}: no letter an address spells, which are "
                                           "Latin letters and digits: 'game' stands for them)" if unspelled else "")
                                        + "; rename one of the folders"))
        else:
            first[address.casefold()] = folder
    return problems


def draft_page_problems(names: list[str]) -> list[SourceError]:
    """Drafts whose pages would have one name (`Idée.md` and `Idee.md` are both drafts/Idee.html), or the name
    of the list of drafts (drafts/index.html): one page would silently replace the other in serve."""
    problems, first = [], {}
    for name in names:
        page = draft_page_name(name)
        if page == "index":
            problems.append(SourceError(name, 0, "its page on the site would be drafts/index.html, the list of "
                                        "drafts; rename the file"))
        elif page in first:
            problems.append(SourceError(name, 0, f"its page on the site would be drafts/{page}.html, as "
                                        f"{first[page]}'s is; rename one of the files"))
        else:
            first[page] = name
    return problems
