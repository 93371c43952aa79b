"""The walk every command takes, from a content folder to its replays and, for a site, to its pages:
load (parse, each entry's parse kept by its text) → replay (resumed from the game's last replay) → list (each
page a path and the maker of its page) → make → draw → write.

`Pipeline` holds what one walk hands the next: the parser's memo, each game's last replay, the Jinja environment
and the plans' memo. Its two drivers to a site: a build (`draw_site` here, under build.build_site, which first
asks whether there is anything to do), which draws every page and writes those whose bytes changed, and serve,
which draws the page a browser asks for from the current replays. `check`, `diff` and `preview` stop at the
replays (`replays.replay_games`).
"""
from __future__ import annotations

import gc
from functools import partial
from pathlib import Path
from typing import NamedTuple

from jinja2 import Environment

from .cache import Cache
from .checked import checked_key, store_checks
from .engine.replay import Replay
from .engine.solitaire import SolitaireReplay
from .manifest import overrides_folder
from .model import Proposal
from .model.urls import draft_page_name, is_url_segment
from .parse.log import LogParser
from .preview import preview_draft
from .progress import NO_PROGRESS, Progress
from .replays import GameReplay, replay_games
from .site.pages import SITE_TITLE, SiteGame, moved_addresses, moved_page, site_game, top_pages
from .site.render import build_pages, make_environment, page_bytes
from .site.views import Memo, Page


class UnreadableGame(NamedTuple):
    """A game serve could not read since it started (its folder's name, the first of its problems as
    `file:line: message`, how many there are): its pages and its entry on the index say what is wrong, and every
    other game is served."""

    title: str
    problems: tuple[str, ...]
    total: int


class Site:
    """A site's pages by path, so that routing a request to its page is a lookup: the pages above the games, each
    game's listing, and each game's search pieces, made when one of them is first asked for (serve makes them
    only when a reader searches; a build, while its other pages are drawn: `search_pieces`)."""

    def __init__(self, games: list[SiteGame], *, site: dict[str, str],
                 unreadable: dict[str, UnreadableGame] | None = None):
        unreadable = unreadable or {}
        self._games = {game.slug: game for game in games}
        self._unreadable = unreadable  # serve's games it cannot read, by slug: each of their pages says why
        self._moved = moved_addresses(games)  # a game's former address -> the game
        self._pieces: dict[str, dict[str, Page]] = {}  # each game's search pieces by path, once made
        self._listed: list[Page] | None = None
        self._top = {page.path: page for page in top_pages(
            games, self.listed_game_pages, site=site,
            unreadable=[{"slug": slug, **game._asdict()} for slug, game in sorted(unreadable.items())])}
        self._site = site

    def page(self, path: str) -> Page | None:
        """The page at `path`, made; None when the site has none there."""
        if (page := self._top.get(path)) is not None:
            return page
        slug, _, rest = path.partition("/")
        if (unreadable := self._unreadable.get(slug)) is not None:
            # Any page of the game, at its own address (so that its links lead where the site's do), says why
            return Page(path, "game_unreadable.html", {**self._site, **unreadable._asdict()}) \
                if path.endswith(".html") and all(map(is_url_segment, path.split("/"))) else None
        game = self._games.get(slug)
        if game is None:
            moved = self._moved.get(slug)
            if moved is None or (now := f"{moved.slug}/{rest}") not in moved.listing:
                return None
            return moved_page(moved.listing.make(now), slug, moved.title)
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
        return self.listed_game_pages() + self.moved_pages() + list(self._top.values())

    def moved_pages(self) -> list[Page]:
        """The pages at the addresses games had on sites built before (pages.moved_addresses), made."""
        pages = [moved_page(page, address, game.title) for address, game in self._moved.items()
                 for page in self.listed_game_pages() if page.path.startswith(f"{game.slug}/")]
        return [page for page in pages if page is not None]

    def search_pieces(self) -> list[Page]:
        """Every game's search pieces: those a search made already (serve's), else made now and not kept. A
        build's are drawn once, and the postings they hold (tens of MB at 10,000 proposals) go as each is drawn,
        not at the end of the build."""
        return [page for game in self._games.values()
                for page in (self._pieces[game.slug].values() if game.slug in self._pieces else game.search_pieces())]

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
    checkpoints of each replay and the parser's memo to resume the next from; a build walks once, shows no drafts
    and keeps neither."""

    def __init__(self, content: Path, *, serving: bool = False):
        self.content = content
        self.overrides = overrides_folder(content)
        self.serving = serving
        self.parser = LogParser(remembers=serving)
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
            if (last := self.replays.get(replay.game.slug)) is not None:  # files gone: the parser forgets them
                self.parser.forget(set(last.game.parsed_files) - set(replay.game.parsed_files))
            self.replays[replay.game.slug] = replay
        return replays

    def forget(self, slug: str) -> None:
        """A game whose folder went: its replay, its plans' memo and its files' last parses."""
        if (last := self.replays.pop(slug, None)) is not None:
            self.parser.forget(last.game.parsed_files)
        self._memos.pop(slug, None)

    def site(self, replays: list[GameReplay], *, base_url: str = "", store: Cache | None = None,
             unreadable: dict[str, UnreadableGame] | None = None) -> Site:
        """The site of these replays: its pages listed, none made. `store`, the cache a build keeps, lends what
        an earlier build made from the same inputs (the search index); `unreadable`, serve's games it cannot read
        (by slug), each page of which says why."""
        common = {"site_title": SITE_TITLE, "base_url": base_url + "/" if base_url and not base_url.endswith("/")
                  else base_url}
        games = [site_game(replay, site=common, memo=self._memos.setdefault(replay.game.slug, Memo()), store=store)
                 for replay in replays]
        for game, replay in zip(games, replays):
            for page in self._draft_pages(replay):
                game.listing.add_made(page)
        return Site(games, site=common, unreadable=unreadable)

    def _draft_pages(self, replay: GameReplay) -> list[Page]:
        """A game's drafts and their list (serve's: a build shows none), each draft previewed (a replay of the
        game and the draft) when a page that shows it is drawn."""
        if not self.serving or isinstance(replay, SolitaireReplay):
            return []
        slug, context, drafts = replay.game.slug, {"game_title": replay.game.config.title}, replay.game.drafts
        unreadable = replay.game.unreadable_drafts
        pages = [Page(f"{slug}/drafts/index.html", "drafts.html", {**context, "unreadable": unreadable},
                      lazy=lambda: {"drafts": [preview_draft(replay, draft) for draft in drafts]})] + [
            Page(f"{slug}/drafts/{draft_page_name(draft.source.file)}.html", "draft.html", context,
                 lazy=partial(_previewed, replay, draft)) for draft in drafts]
        paths = {page.path for page in pages}
        for draft in unreadable:  # (one whose page another draft's, or the list, already is: listed only)
            path = f"{slug}/drafts/{draft_page_name(draft.file)}.html"
            if path not in paths:
                paths.add(path)
                pages.append(Page(path, "draft_unreadable.html", {**context, "draft": draft}))
        return pages

    def draw(self, page: Page, *, live_reload: str = "") -> bytes:
        return page_bytes(self.env, page, live_reload=live_reload)


def _previewed(replay: Replay, draft: Proposal) -> dict:
    return {"preview": preview_draft(replay, draft)}


def draw_site(content: Path, output: Path, cache: Cache, *, base_url: str, jobs: int, inputs: bytes | None,
              games: bytes | None = None, progress: Progress = NO_PROGRESS) -> dict:
    """Every page of the site drawn into `output` (its lock held by build.build_site) and those that changed
    written; `inputs`, the digest of what it is made from, kept for the next build; `games`, the digest of the
    games' files, under which what `check` says of them is kept (checked.py). Says what it did."""
    pipeline = Pipeline(content)
    # Parsing and replaying make millions of objects that live to the end and form no cycles: the collector
    # would traverse them again and again for nothing. Frozen, forked workers share them without copying; the
    # collector stays off, and the cycles drawing makes are freed batch by batch (render.draw_all).
    gc.disable()
    try:
        replays = pipeline.replay(cache=cache, jobs=jobs, progress=progress)
        store_checks(cache, content, checked_key(games) if games else None, replays)  # a check after has nothing to do
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
    return {**summary, "pages": result.pages, "written": result.written}
