"""A game folder (game.toml, rules.md, the log, snapshots, drafts) or a content folder of games to the model."""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector
from ..model import Game, Log, Proposal, Ruleset, Source
from ..model.config import Config
from .config import parse_config
from .log import parse_draft, parse_log
from .rules import parse_ruleset
from .solitaire import read_turn
from .source import decode


def is_game(folder: Path) -> bool:
    return (folder / "game.toml").is_file()


def game_folders(content: Path) -> list[Path]:
    """The games a path names: itself when it is a game, else its sub-folders that are games, by name."""
    if is_game(content):
        return [content]
    return sorted((p for p in content.iterdir() if p.is_dir() and is_game(p)), key=lambda p: p.name)


def input_files(folder: Path, *, drafts: bool = False) -> list[Path]:
    """Every file of a game that the parser reads, in reading order; drafts only when asked for."""
    files = [folder / "game.toml", folder / "rules.md"]
    if (folder / "log.md").is_file():
        files.append(folder / "log.md")
    files += sorted((folder / "log").glob("*.md")) if (folder / "log").is_dir() else []
    files += sorted((folder / "snapshots").glob("*.md")) if (folder / "snapshots").is_dir() else []
    files += sorted((folder / "drafts").glob("*.md")) if drafts and (folder / "drafts").is_dir() else []
    return files


def load_game(folder: Path, *, base: Path | None = None, drafts: bool = False) -> Game:
    """Parse one game; raises ArchiveError with every problem found in all its files.

    Drafts are read only when asked for (serve): they are not part of the archive, and a half-written one
    must not stop a keeper's build."""
    errors = ErrorCollector()
    base = base or folder.parent
    texts: dict[str, str] = {}
    hashes: dict[str, str] = {}
    for path in input_files(folder, drafts=drafts):
        name = path.relative_to(base).as_posix()
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            errors.add(name, 0, "missing: a game needs game.toml and rules.md")
            continue
        except OSError as error:
            errors.add(name, 0, f"cannot read: {error.strerror}")
            continue
        hashes[name] = hashlib.sha256(data).hexdigest()
        text = decode(data, name, errors)
        if text is not None:
            texts[name] = text
    return _build_game(folder.name, folder.relative_to(base).as_posix(), texts, hashes, errors)


def _build_game(slug: str, prefix: str, texts: dict[str, str], hashes: dict[str, str],
                errors: ErrorCollector) -> Game:
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
    log_files = [f"{prefix}/log.md"] if f"{prefix}/log.md" in texts else []
    log_files += under("log")
    solitaire = config.variant == "solitaire"
    preamble, entries = parse_log([(name, texts[name]) for name in log_files], errors, power=power,
                                  read_entry=read_turn if solitaire else None)
    if solitaire and under("snapshots"):
        errors.add(under("snapshots")[0], 1, "a solitaire game has no snapshots: each turn's page shows the "
                   "rules after it")
    snapshots = tuple(parse_ruleset(texts[name], name, errors, snapshot=True, power=power)
                      for name in under("snapshots"))
    drafts: list[Proposal] = []
    for name in under("drafts") if not solitaire else ():  # a solitaire turn is played, not drafted
        draft = parse_draft(name, texts[name], errors, power=power)
        if draft is not None:
            drafts.append(draft)
    errors.raise_if_any()
    return Game(slug=slug, config=config, rules=rules, log=Log(preamble, tuple(entries), tuple(log_files)),
                snapshots=snapshots, drafts=tuple(drafts), inputs=hashes)


def load_content(content: Path, *, drafts: bool = False) -> list[Game]:
    """Every game under a content folder (or the one game it is); all problems of all games at once."""
    if not content.is_dir():
        raise ArchiveError([_missing(content)])
    folders = game_folders(content)
    if not folders:
        raise ArchiveError([_missing(content, "holds no game (a game is a folder with game.toml)")])
    games, problems = [], []
    for folder in folders:
        try:
            games.append(load_game(folder, drafts=drafts))
        except ArchiveError as error:
            problems.extend(error.errors)
    if problems:
        raise ArchiveError(problems)
    return games


def _missing(path: Path, what: str = "is not a folder"):
    from ..errors import SourceError

    return SourceError(str(path), 0, what)
