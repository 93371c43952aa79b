"""Pages to HTML, and a site to files: Jinja2 with autoescape, templates a keeper may override.

`page_bytes` draws one page (serve draws the one a browser asks for). `build_pages` draws every page, on every
core available (forked workers, each drawing a share), and writes those whose bytes differ from what the
manifest kept in the cache says the site holds: a build after an edit replaces only the pages it changed.
"""
from __future__ import annotations

import gc
import math
import os
import shutil
import time
import traceback
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import (BaseLoader, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError,
                    TemplateNotFound, TemplateSyntaxError, select_autoescape)
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from ..cache import Cache, digest
from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import (SITE_MARKER, file_mode, is_own_temporary, new_staging_folder, swap_in, write_atomic,
                     writing)
from ..limits import MAX_FILE_BYTES
from ..manifest import (OVERRIDES, Known, override_files, package_templates, read_manifest, site_files,
                        write_manifest)
from ..parallel import run_in_turn
from ..model import amount_text
from ..parse.source import read_bytes, read_text
from . import bounds
from .bounds import bounded_filters, check_binop, checked_call, past_deadline
from .jinja_patch import QuickEscapeTemplate
from .views import Page, finding_kind, forget_batch, script_json

# Below this many pages to draw, forking workers costs more than it saves.
PARALLEL_FROM = 400
# Threads writing a drawing process's files (see _draw_share).
WRITERS = 4
# The most files a drawing process has written or waiting to be, before it waits for the oldest: a write held
# until its share ends (a future and its lock, the bytes for one not yet written) held, for the share of pages
# of no affinity at 100,000 entries, 90,000 of them: 225 MB.
WRITES_PENDING = 256


class PageEnvironment(SandboxedEnvironment):
    """Jinja2's sandboxed environment (a keeper's override is a template anyone may have sent: it reaches no
    Python beyond what pages are given, jinja2.sandbox), with templates kept by name (`get_template`) and
    `page.title` on a dict (most of what views hand templates) looking up the key first: Jinja2 tries the
    attribute first, and the AttributeError of every miss cost a tenth of drawing a site. The same answers: a
    name that is an attribute of dict (`items`, `get`...) still finds it first, through the sandbox."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.templates_by_name: dict[str, Any] = {}
        # The site's header of each game at each depth, drawn once (see _header): the same on all its pages.
        self.headers: dict[tuple, Markup] = {}

    def get_template(self, name, parent=None, globals=None):
        """A template loaded once, then taken by its name (pages, layouts and includes ask for them some 85,000
        times at 10,000 proposals; Jinja2's cache keys each anew and locks an LRU). auto_reload is off."""
        if globals is None and isinstance(name, str):
            template = self.templates_by_name.get(name)
            if template is None:
                template = self.templates_by_name[name] = super().get_template(name, parent)
            return template
        return super().get_template(name, parent, globals)

    template_class = QuickEscapeTemplate
    # What a template makes is measured before it is made (bounds.py): the sandbox bounds `range` alone. (Only
    # templates that add, multiply or raise to a power pay the call for those.)
    intercepted_binops = frozenset(["*", "**", "+"])

    def call_binop(self, context, operator, left, right):
        check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    # When the page being drawn must be done (draw_page sets it, where a keeper's templates may be drawn: the
    # seconds `drawing` allows): a template's loops, which call `range` at each turn of the loop around them, are
    # stopped at their next call.
    deadline = drawing = math.inf

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja2's names: no keyword is shadowed)
        past_deadline(__self.deadline)
        return checked_call(lambda obj, *a, **k: SandboxedEnvironment.call(__self, __context, obj, *a, **k),
                            __obj, args, kwargs)

    def make_globals(self, d):
        """A template's globals as one dict, not Jinja2's ChainMap over the environment's: every page and include
        copies them into its context, and a ChainMap is searched in Python. Globals are all set before any template
        is loaded (make_environment), as Jinja2 asks."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]  # a value a view put there: data, not a way into Python
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))


class OverrideLoader(BaseLoader):
    """A keeper's templates (`content/_templates/`), read as every other input is (parse/source.py): only regular
    files inside the content folder (a link leading out is refused with its path), in UTF-8, within the caps.
    A template that cannot be read so is an ArchiveError naming it (exit 2); one that is not there is the
    bundled one's to give."""

    def __init__(self, folder: Path, root: Path):
        self.folder, self.root = folder, root

    def get_source(self, environment: Environment, template: str):
        parts = split_template_path(template)  # TemplateNotFound for "..": nothing above the folder
        path = self.folder.joinpath(*parts)
        if not os.path.lexists(path):
            raise TemplateNotFound(template)
        name = "/".join([OVERRIDES, *parts])
        errors = ErrorCollector()
        text = read_text(path, name, errors, root=self.root, line_limit=MAX_FILE_BYTES)
        if text is None:
            raise ArchiveError(errors.errors)
        # The name is the file's in errors, and in the tracebacks Jinja2 writes for the template's lines.
        return text, name, lambda: True


def make_environment(overrides: Path | None = None) -> PageEnvironment:
    """The environment pages are drawn in: a keeper's templates in `overrides` (content/_templates) first, then
    the bundled ones; sandboxed, whoever wrote them."""
    loaders = [OverrideLoader(overrides, overrides.parent)] if overrides else []
    env = PageEnvironment(loader=ChoiceLoader([*loaders, FileSystemLoader(str(package_templates()))]),
                       autoescape=select_autoescape(("html", "xml", "js"), default_for_string=True),
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                       # A template changed while serving gets a new environment (serve.py): no need to look at
                       # every template's file again each time a page asks for it.
                       auto_reload=False)
    bounded_filters(env.filters)
    if overrides:
        env.drawing = bounds.MAX_DRAW_SECONDS
    del env.globals["lipsum"]  # (it makes as many paragraphs as asked: no page needs one)
    env.filters["tojson_script"] = script_json
    env.filters["signed"] = lambda n: ("-" if n < 0 else "+") + amount_text(abs(n))
    env.filters["sentence"] = lambda text: text[:1].upper() + text[1:]  # capitalize would lower-case the rest
    env.filters["finding_kind"] = finding_kind
    return env


def template_problem(error: BaseException) -> SourceError | None:
    """A template's error at its file and line, as a keeper who overrides templates must see it (exit 2, never
    "a bug"): a syntax error names them; an error while rendering has them in its traceback (Jinja2 rewrites
    it to template lines). Any error raised by Jinja2 is a template's; any other (a division by zero, a
    recursion without end, a range too long for the sandbox) is a keeper's template's when it passed through
    one, and else None: then it is this program's, a bug."""
    if isinstance(error, TemplateSyntaxError):
        return SourceError(error.filename or error.name or "templates", error.lineno or 0, error.message or str(error))
    frames = [(frame.f_code.co_filename, line) for frame, line in traceback.walk_tb(error.__traceback__)]
    in_template = [(file, line) for file, line in frames if file.endswith((".html", ".xml", ".js", ".txt"))]
    in_override = [(file, line) for file, line in in_template if file.startswith(f"{OVERRIDES}/")]
    if isinstance(error, TemplateError):
        file, line = in_template[-1] if in_template else ("templates", 0)
    elif in_override:
        file, line = in_override[-1]
    else:
        return None
    return SourceError(file, line, f"{type(error).__name__}: {error}")


def draw_page(env: PageEnvironment, page: Page, *, live_reload: str = "") -> str:
    """The page drawn, its templates within MAX_DRAW_SECONDS where a keeper's may be drawn (the page's data, made
    by this program first, is not theirs to bound); a template's error raised as an ArchiveError naming its file
    and line (found here, in the process whose traceback names them); any other error is a bug, raised as it is."""
    try:
        template = env.get_template(page.template)
        # Links are relative to the page's folder unless the page says where the site's root is (404.html).
        context = {"root": "../" * page.depth, **page.full_context()}
        env.deadline = time.monotonic() + env.drawing
        if page.kind == "html" and not page.stub:
            context["header"] = _header(env, context, context["root"], live_reload)
        return template.render(**context, page_path=page.path, live_reload=live_reload)
    except ArchiveError:
        raise
    except Exception as error:
        problem = template_problem(error)
        if problem is None:
            raise
        raise ArchiveError([problem]) from None
    finally:
        env.deadline = math.inf


def _header(env: PageEnvironment, context: dict, root: str, live_reload: str) -> Markup:
    """The site's header and navigation, the same on every page of a game at one depth: drawn once."""
    game = context.get("game")
    key = (root, bool(live_reload), context.get("site_title"), tuple(sorted(game.items())) if game else None)
    headers = env.headers
    if key not in headers:
        values = {"root": root, "live_reload": live_reload, "site_title": context.get("site_title", "")}
        if game is not None:
            values["game"] = game
        headers[key] = Markup(env.get_template("_header.html").render(**values))
    return headers[key]


def _template_file(env: Environment, name: str) -> str:
    """A template's file as errors name it: a keeper's `_templates/NAME`, else the bundled file."""
    template = env.templates_by_name.get(name)
    return template.filename if template is not None and template.filename else name


def template_names(overrides: Path | None) -> list[str]:
    """The name of every template a page may be drawn with, the bundled ones' and a keeper's."""
    folder = package_templates()
    names = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    names |= {name.removeprefix(f"{OVERRIDES}/") for name, _ in override_files(overrides)} if overrides else set()
    return sorted(name for name in names
                  if not name.startswith("static/") and name.endswith((".html", ".xml", ".js", ".txt")))


def static_files(overrides: Path | None = None) -> list[tuple[str, bytes]]:
    """The static files (style, scripts, icon): each name in the site and its bytes, a keeper's override's where
    there is one (read as every input is: see OverrideLoader; an ArchiveError when one cannot be)."""
    folder = package_templates() / "static"
    files, errors = [], ErrorCollector()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = f"static/{path.relative_to(folder).as_posix()}"
        override = overrides / name if overrides else None
        if override is not None and os.path.lexists(override):
            data = read_bytes(override, f"{OVERRIDES}/{name}", errors, root=overrides.parent)
        else:
            data = path.read_bytes()
        files.append((name, data))
    errors.raise_if_any()
    return files


# --- Drawing pages, on every core, and writing those that changed -----------------------------------

def page_batches(pages: list[Page]) -> list[list[Page]]:
    """`pages` in the batches a build draws them in: first the pages of no affinity (the game's lists, pieces
    and comparison of start and now: drawn first, the longest batch cannot be the one that ends last), then the
    pages of each affinity, which share what is drawn once for them (Page.affinity)."""
    by_affinity: dict[int, list[Page]] = {}
    others: list[Page] = []
    for page in pages:
        if page.affinity is None:
            others.append(page)
        else:
            by_affinity.setdefault(page.affinity, []).append(page)
    return [others] + [by_affinity[affinity] for affinity in sorted(by_affinity)]


def draw_all(env: Environment, pages: list[Page], out: Path, *, jobs: int = 1,
             known: dict[str, Known] | None = None, later: Callable[[], list[Page]] = list) -> dict[str, Known]:
    """Draw `pages` and write into `out` (a staging folder) those whose bytes are not what `known` says the site
    holds (all without it); returns what the manifest says of each page (of one not written, `known`'s). The
    pages are drawn a batch at a time: the pages of one affinity are a batch (what they share is drawn once, and
    still remembered when the next needs it), and the pages of none the first. With `jobs` > 1 and enough
    pages, this process and forked workers draw the batches (the same files, byte for byte), whichever is free
    taking the next. The pages `later()` makes are made and drawn by this process first, while the workers
    draw the others (a build's search index: what this process alone may write into the cache)."""
    jobs = min(jobs, max(1, len(pages) // (PARALLEL_FROM // 2)))
    batches = page_batches(pages)

    def draw(batch: int) -> dict[str, Known]:  # batch 0 in this process (a new list: _draw_share empties it)
        drawn = _draw_share(env, (later() if batch == 0 else []) + batches[batch], out, known or {})
        forget_batch()
        return drawn
    drawn: dict[str, Known] = {}
    for part in run_in_turn(draw, len(batches), jobs):
        drawn.update(part)
    return drawn


def page_bytes(env: Environment, page: Page, *, live_reload: str = "") -> bytes:
    """A page drawn (draw_page) as the bytes written or served."""
    try:
        return draw_page(env, page, live_reload=live_reload).encode("utf-8")
    except UnicodeEncodeError as error:  # "\ud800" written in a template: no UTF-8 holds it
        drawn = error.object[error.start]
        raise ArchiveError([SourceError(_template_file(env, page.template), 0, f"draws {drawn!r}, which is no "
                                        "character and cannot be written in UTF-8")]) from None


# A template's macros hold the context they were called in, and it holds them: each page that calls one leaves
# a cycle, which only the collector frees, and a build draws with it off (pipeline.draw_site). So it is run every
# COLLECT_EVERY pages, on the youngest generations only: they hold what the pages since made (what outlives them
# is not walked again). Left to the end of a batch, or of the build, at 100,000 entries, they were 300 MB.
COLLECT_EVERY = 256


def _draw_share(env: Environment, pages: list[Page], out: Path, known: dict[str, Known]) -> dict[str, Known]:
    """Draw `pages`, each written by a writer thread while the next is drawn: making a file blocks on the disk
    (half of a build's time on this machine's ext4, where the processes stood waiting), and a thread waiting on
    the disk holds no lock Python's other threads need. `pages` is emptied as they are drawn: a page the list
    alone held (a search piece and its postings) goes once drawn, not when the share ends."""
    drawn: dict[str, Known | tuple[bytes, Future]] = {}
    folders: set[Path] = set()
    mode = file_mode()
    stubs: dict[bytes, tuple[Future, Path]] = {}  # each stub's bytes, the first file this share wrote them to
    pending: deque[str] = deque()  # the pages being written, oldest first
    pages.reverse()
    with ThreadPoolExecutor(WRITERS, thread_name_prefix="nomic-writer") as writers:
        while pages:
            page = pages.pop()
            if len(drawn) % COLLECT_EVERY == 0:
                gc.collect(1)
            data = page_bytes(env, page)
            key = digest(data)
            kept = known.get(page.path)
            if kept is not None and kept[0] == key:
                drawn[page.path] = kept
                continue
            target = out / page.path
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            first = stubs.get(data) if page.stub else None
            writing = writers.submit(_write_new, target, data, mode) if first is None else \
                writers.submit(_linked, *first, target, data, mode)
            if page.stub and first is None:
                stubs[data] = (writing, target)
            drawn[page.path] = (key, writing)
            pending.append(page.path)
            while pending and (len(pending) > WRITES_PENDING or drawn[pending[0]][1].done()):
                _written(drawn, pending.popleft())
    for path in pending:
        _written(drawn, path)
    return drawn  # type: ignore[return-value]


def _written(drawn: dict, path: str) -> None:
    """The manifest's entry of `path` made from its write, once done (a write that failed raises here)."""
    key, writing = drawn[path]
    stat = writing.result()
    drawn[path] = (key, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def _write_new(target: Path, data: bytes, mode: int) -> os.stat_result:
    handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view):]
        return os.fstat(handle)
    finally:
        os.close(handle)


def _linked(writing: Future, first: Path, target: Path, data: bytes, mode: int) -> os.stat_result:
    """`target` made another name of `first`, a file of the same bytes (the stubs of a rule's old numbers are
    alike, and making a file costs the file system far more than naming one again: thousands in a long game);
    written where the file system cannot link. `first` was handed to the writers before (`writing`), so it is written
    or being written: waiting for it cannot wait for this."""
    writing.result()
    try:
        os.link(first, target)
    except OSError:
        return _write_new(target, data, mode)
    return target.stat()


@dataclass
class BuildResult:
    pages: int
    written: int


def build_pages(env: Environment, pages: list[Page], output: Path, *, cache: Cache, overrides: Path | None,
                jobs: int = 1, later: Callable[[], list[Page]] = list, inputs: bytes | None = None,
                summary: dict[str, Any] | None = None) -> BuildResult:
    """Write the site into `output` (checked by the caller: absent, empty or a site a build made).

    Every page is drawn. Without a usable manifest, the whole site is written in a staging folder and swapped
    in. With one, the pages whose bytes differ from the manifest's (or whose file is not as the manifest left
    it) are written in a staging folder, then moved into place, and files no longer made are removed. Either way
    a failure while drawing leaves the site as it was. `later`: pages made while the others are drawn (see
    draw_all). `inputs`: a digest of everything the site was made from, kept with the manifest and what to say
    of the site (`summary` and how many pages it has; see manifest.unchanged_site)."""
    files = dict(static_files(overrides))
    known = read_manifest(cache, output)
    made_before: set[str] = set()
    if known is not None:  # (a file changed by hand since is drawn again: its manifest entry is not kept)
        present, links = site_files(output)
        made_before = set(known)
        known = {path: entry for path, entry in known.items() if present.get(path) == entry[1:]} if not links \
            else None  # a link in the site, which a page written into place could follow: the site is made anew
    staging = new_staging_folder(output)
    try:
        with writing(output):
            drawn = draw_all(env, pages, staging, jobs=jobs, known=known, later=later)
            if known is not None:
                _refuse_files_of_the_keepers(output, set(present) - made_before - set(drawn) - set(files))
            if known is None:
                for name, data in files.items():
                    _write_file(staging / name, data)
                swap_in(staging, output)
                written = len(drawn)
            else:
                moved = [path for path, entry in drawn.items() if known.get(path) != entry]
                for path in moved:
                    os.replace(staging / path, _folder_made(output / path))
                shutil.rmtree(staging, ignore_errors=True)
                for name, data in files.items():
                    entry = known.get(name)
                    if entry is None or entry[0] != digest(data):
                        write_atomic(_folder_made(output / name), data)
                _remove(output, sorted(set(present) - set(drawn) - set(files) - {SITE_MARKER}))
                written = len(moved)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    drawn_pages = len(drawn)
    for name, data in files.items():
        drawn[name] = (digest(data), 0, 0, 0)  # (the times are the site's, below)
    # A rename keeps the modification time but sets the change time, and so does a link made or removed to a
    # page's file: each file's times are taken once the site is in place. (One not as this build wrote it, were
    # anything else writing the site meanwhile, is left out: it is drawn again next time.) Each is read where it
    # is and its entry made the manifest's in place: a listing of the site and a second dictionary of every page
    # were the build's peak at 100,000 entries.
    known = present = None  # (an edit's build: what the site held before, done with)
    folder = str(output)
    for path in list(drawn):
        try:
            stat = os.lstat(os.path.join(folder, path))
        except OSError:
            stat = None
        if stat is None or (path not in files and (stat.st_size, stat.st_mtime_ns) != drawn[path][1:3]):
            del drawn[path]
        else:
            drawn[path] = (drawn[path][0], stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    said = (inputs, {**(summary or {}), "pages": drawn_pages}) if inputs is not None else None
    write_manifest(cache, output, drawn, said)
    return BuildResult(drawn_pages, written)


def _refuse_files_of_the_keepers(site: Path, unknown: set[str]) -> None:
    """Refuse to build (nothing written) where the site holds files no build made (the last build's manifest does
    not list them, this one does not draw them): a keeper's page put there by hand, which the build would remove
    as a page no longer made. The program's own are not the keeper's: its marker, and a write's temporary file."""
    theirs = sorted(path for path in unknown if path != SITE_MARKER and not is_own_temporary(site / path))
    if theirs:
        more = f" (nor {len(theirs) - 1} more: {', '.join(theirs[1:4])}{', ...' if len(theirs) > 4 else ''})" \
            if len(theirs) > 1 else ""
        raise ArchiveError([SourceError(str(site / theirs[0]), 0, f"no build made this file{more}: the site holds only "
                                        "what a build makes, and building would remove it. Move it out of "
                                        f"{site} (keep your own pages beside the site, not in it), or delete it; "
                                        "nothing was written")])


def _folder_made(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def _write_file(target: Path, data: bytes) -> None:
    _folder_made(target).write_bytes(data)


def _remove(site: Path, paths: list[str]) -> None:
    """Remove files a build no longer makes, and the folders they leave empty (as a new build would)."""
    folders = set()
    for path in paths:
        (site / path).unlink(missing_ok=True)
        folders.update(parent for parent in (site / path).parents if parent != site and parent.is_relative_to(site))
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:  # not empty
            pass
