"""The walk every command takes, from a content folder to its replays and, for a site, to its pages:
load (parse, each entry's parse kept by its text) → replay (resumed from the game's last replay) → list (each
page a path and the maker of its page) → make → draw → write.

`Pipeline` holds what one walk hands the next: the parser's memo, each game's last replay, the Jinja environment
and the plans' memo. Its two drivers to a site: `build_site` (here), which draws every page and writes those
whose bytes changed, and serve, which draws the page a browser asks for from the current replays. `check`,
`diff` and `preview` stop at the replays (`replay_games`).
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from jinja2 import Environment

from .cache import Cache, digest, open_cache, program_digest
from .engine import replay_game
from .engine.replay import Replay
from .engine.solitaire import SolitaireReplay
from .errors import ArchiveError, SourceError
from .files import check_site_folder, site_folder, site_lock
from .model import Proposal
from .model.urls import base_url_problem, draft_page_name
from .parallel import available_cores
from .parse.game import inputs_digest, load_content, names_root
from .parse.log import LogParser
from .preview import preview_draft
from .progress import NO_PROGRESS, Progress
from .site.pages import SITE_TITLE, SiteGame, site_game, top_pages
from .site.render import build_pages, make_environment, page_bytes, templates_digest, unchanged_site
from .site.views import Memo, Page
from .terminal import counted

# The steps each says to a command's progress line (progress.py).
REPLAY_STEPS = 2  # reading the games, replaying them
BUILD_STEPS = REPLAY_STEPS + 2  # and listing the pages, drawing them

GameReplay = Replay | SolitaireReplay


def replay_games(content: Path, *, drafts: bool = False, cache: Cache | None = None, jobs: int = 1,
                 previous: Mapping[str, GameReplay] | None = None, checkpoints: bool = False,
                 parser: LogParser | None = None, progress: Progress = NO_PROGRESS) -> list[GameReplay]:
    """Replays of every game (their drafts parsed too when asked); raises ArchiveError when any input
    cannot be read or applied. `jobs`: cores to parse a long log on (forking: only where no thread runs).
    `previous` and `checkpoints`: earlier replays of the games, by slug, to resume from, and whether to keep
    checkpoints to resume these from (see replay_game); `parser`, one that parsed the logs before and remembers
    their entries; `progress`: told of its REPLAY_STEPS."""
    progress.step("reading the games")
    games = load_content(content, drafts=drafts, cache=cache, jobs=jobs, parser=parser)
    progress.step(f"replaying {counted(len(games), 'game')}")
    replays = [replay_game(game, previous=(previous or {}).get(game.slug), checkpoints=checkpoints) for game in games]
    fatal = [SourceError(e.file, e.line, f"{e.entry}: {e.message}" if e.entry else e.message)
             for r in replays for e in r.errors]
    if fatal:
        raise ArchiveError(fatal, root=str(names_root(content)))
    return replays


class Site:
    """A site's pages by path, so that routing a request to its page is a lookup: the pages above the games, each
    game's listing, and each game's search pieces, made when one of them is first asked for (serve makes them
    only when a reader searches; a build, while its other pages are drawn: `search_pieces`)."""

    def __init__(self, games: list[SiteGame], *, site: dict[str, str]):
        self._games = {game.slug: game for game in games}
        self._pieces: dict[str, dict[str, Page]] = {}  # each game's search pieces by path, once made
        self._listed: list[Page] | None = None
        self._top = {page.path: page for page in top_pages(games, self.listed_game_pages, site=site)}

    def page(self, path: str) -> Page | None:
        """The page at `path`, made; None when the site has none there."""
        if (page := self._top.get(path)) is not None:
            return page
        slug, _, rest = path.partition("/")
        game = self._games.get(slug)
        if game is None:
            return None
        if path in game.listing:
            return game.listing.make(path)
        return self._search_pieces(game).get(path) if rest.startswith("search/") else None

    def listed_game_pages(self) -> list[Page]:
        """Every page of every game's listing, made once (not the search pieces)."""
        if self._listed is None:
            self._listed = [game.listing.make(path) for game in self._games.values() for path in game.listing]
        return self._listed

    def listed_pages(self) -> list[Page]:
        """Every page of the site but the games' search pieces, made."""
        return self.listed_game_pages() + list(self._top.values())

    def search_pieces(self) -> list[Page]:
        """Every game's search pieces, made once."""
        return [page for game in self._games.values() for page in self._search_pieces(game).values()]

    def every_page(self) -> list[Page]:
        """Every page of the site, made."""
        return self.listed_pages() + self.search_pieces()

    def _search_pieces(self, game: SiteGame) -> dict[str, Page]:
        if game.slug not in self._pieces:
            self._pieces[game.slug] = {page.path: page for page in game.search_pieces()}
        return self._pieces[game.slug]


class Pipeline:
    """A content folder's walk to its site, and what one walk hands the next (serve's, from save to save).
    `serving`: the pipeline is serve's, which parses each game's drafts and draws their previews, and keeps
    checkpoints of each replay to resume the next from; a build walks once and shows no drafts."""

    def __init__(self, content: Path, *, serving: bool = False):
        self.content = content
        self.overrides = content / "_templates" if content.is_dir() else None
        self.serving = serving
        self.parser = LogParser()
        self.replays: dict[str, GameReplay] = {}  # each game's last, by slug
        self._memos: dict[str, Memo] = {}  # each game's plans', by slug
        self._env: Environment | None = None

    @property
    def env(self) -> Environment:
        """The environment pages are drawn in (serve sets another when the templates change)."""
        if self._env is None:
            self._env = make_environment(self.overrides)
        return self._env

    @env.setter
    def env(self, env: Environment) -> None:
        self._env = env

    def replay(self, folder: Path | None = None, *, cache: Cache | None = None, jobs: int = 1,
               progress: Progress = NO_PROGRESS) -> list[GameReplay]:
        """The replays of the games of `folder` (the content folder, or one of its games), each resumed from the
        game's last replay when the pipeline is serve's, and kept for the next."""
        replays = replay_games(folder or self.content, drafts=self.serving, cache=cache, jobs=jobs,
                               previous=self.replays if self.serving else None, checkpoints=self.serving,
                               parser=self.parser, progress=progress)
        for replay in replays:
            if (last := self.replays.get(replay.game.slug)) is not None:  # log files gone: the parser forgets them
                self.parser.forget(set(last.game.log.files) - set(replay.game.log.files))
            self.replays[replay.game.slug] = replay
        return replays

    def forget(self, slug: str) -> None:
        """A game whose folder went: its replay, its plans' memo and its log files' last parses."""
        if (last := self.replays.pop(slug, None)) is not None:
            self.parser.forget(last.game.log.files)
        self._memos.pop(slug, None)

    def site(self, replays: list[GameReplay], *, base_url: str = "", store: Cache | None = None) -> Site:
        """The site of these replays: its pages listed, none made. `store`, the cache a build keeps, lends what
        an earlier build made from the same inputs (the search index)."""
        common = {"site_title": SITE_TITLE, "base_url": base_url + "/" if base_url and not base_url.endswith("/")
                  else base_url}
        games = [site_game(replay, site=common, memo=self._memos.setdefault(replay.game.slug, Memo()), store=store)
                 for replay in replays]
        for game, replay in zip(games, replays):
            for page in self._draft_pages(replay):
                game.listing.add_made(page)
        return Site(games, site=common)

    def _draft_pages(self, replay: GameReplay) -> list[Page]:
        """A game's drafts and their list (serve's: a build shows none), each draft previewed (a replay of the
        game and the draft) when a page that shows it is drawn."""
        if not self.serving or isinstance(replay, SolitaireReplay):
            return []
        slug, context, drafts = replay.game.slug, {"game_title": replay.game.config.title}, replay.game.drafts
        return [Page(f"{slug}/drafts/index.html", "drafts.html", context,
                     lazy=lambda: {"drafts": [preview_draft(replay, draft) for draft in drafts]})] + [
            Page(f"{slug}/drafts/{draft_page_name(draft.source.file)}.html", "draft.html", context,
                 lazy=partial(_previewed, replay, draft)) for draft in drafts]

    def draw(self, page: Page, *, live_reload: str = "") -> bytes:
        return page_bytes(self.env, page, live_reload=live_reload)


def _previewed(replay: Replay, draft: Proposal) -> dict:
    return {"preview": preview_draft(replay, draft)}


def build_site(content: Path, output: Path, *, base_url: str = "", cache_dir: Path | None = None,
               jobs: int | None = None, waiting: Callable[[], None] = lambda: None,
               progress: Progress = NO_PROGRESS) -> dict:
    """Build the site into `output`: a new site is drawn in a staging folder and swapped in; a site an earlier
    build made gets only the pages whose bytes changed (see render.build_pages). On any failure the previous
    site stays as it was.

    The output folder is checked first: a build never replaces anything but a site it made. Another build
    writing the same folder is waited for (`waiting` is called when that starts). `progress`: told of its
    BUILD_STEPS."""
    started = time.perf_counter()
    if problem := base_url_problem(base_url):  # before anything is read or written
        raise ArchiveError([SourceError("--base-url", 0, f"'{base_url}' {problem}; nothing was written")])
    check_site_folder(output, content)
    output = site_folder(output)
    with site_lock(output, waiting):
        check_site_folder(output, content)  # as the other build left it
        return _build_locked(content, output, base_url, cache_dir, jobs, started, progress)


def _build_locked(content: Path, output: Path, base_url: str, cache_dir: Path | None, jobs: int | None,
                  started: float, progress: Progress) -> dict:
    cache = open_cache(cache_dir, content)
    pipeline = Pipeline(content)
    games = inputs_digest(content)
    # Everything the site is made of: the games' files, the templates, the options, and this program.
    inputs = digest(program_digest(), templates_digest(pipeline.overrides), base_url, games) if games else None
    said = unchanged_site(cache, output, inputs) if inputs else None
    if said is not None:  # made from the same inputs and untouched since: nothing to parse, draw or write
        cache.close()
        return {**said, "written": 0, "seconds": time.perf_counter() - started}
    # Parsing and replaying make millions of objects that live to the end and form no cycles: the collector
    # would traverse them again and again for nothing. Frozen, forked workers share them without copying; drawing
    # pages makes no cycles either, so the collector stays off in this short-lived process.
    gc.disable()
    try:
        jobs = jobs or available_cores()
        replays = pipeline.replay(cache=cache, jobs=jobs, progress=progress)
        progress.step("listing the pages")
        site = pipeline.site(replays, base_url=base_url, store=cache)
        pages = site.listed_pages()
        gc.freeze()
        progress.step(f"drawing {len(pages):,} pages and the search index")
        summary = {"games": len(replays), "findings": sum(len(r.findings) for r in replays)}
        # The search index is made by this process while forked workers draw the other pages: it is the one
        # part of the site that reads every text, and made before the drawing it kept the other core idle.
        result = build_pages(pipeline.env, pages, output, cache=cache, overrides=pipeline.overrides, jobs=jobs,
                             later=site.search_pieces, inputs=inputs, summary=summary)
    finally:
        gc.enable()
        cache.close()
    return {**summary, "pages": result.pages, "written": result.written, "seconds": time.perf_counter() - started}
