"""Pages to files: Jinja2 with autoescape, templates a keeper may override, output written atomically.

Two ways to write: `write_pages` (serve) keeps each page's fingerprint in memory and rewrites the pages whose
deps moved; `build_pages` (build) keeps a manifest of each page's digest in the cache, so that a build with
nothing changed renders and writes nothing, and a build after an edit replaces only the pages it changed.
Both render on every core available (forked workers, each drawing a share of the pages) when there are many
pages to draw.
"""
from __future__ import annotations

import os
import pickle
import shutil
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import (ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, Template, TemplateError,
                    TemplateSyntaxError, pass_context, select_autoescape)
from jinja2.runtime import Context
from markupsafe import Markup, escape

from ..cache import Cache, digest, unpickled
from ..compare import forget_matches
from ..errors import ArchiveError, SourceError
from ..files import SITE_MARKER, file_mode, new_staging_folder, swap_in, write_atomic, writing
from ..parallel import run_in_turn
from ..redline import forget_redlines
from ..model import amount_text
from .markdown import render_inline, render_markdown
from .views import Page, redline_drawn, script_json

# Bumped when what a page's digest stands for changes in a way its deps and the templates do not show.
PAGE_LAYOUT = "pages-1"
# Below this many pages to draw, forking workers costs more than it saves.
PARALLEL_FROM = 400


def package_templates() -> Path:
    """templates/ inside an installed wheel, else at the root of a source checkout."""
    installed = Path(__file__).resolve().parent.parent / "templates"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "templates"


try:
    from markupsafe import _escape_inner  # the C function markupsafe.escape (3.0 on) calls on a str
except ImportError:  # an older markupsafe, whose escape is all in C
    _escape_inner = None


def _escape(value: Any, _markup=Markup, _new=str.__new__) -> Markup:
    """markupsafe.escape, the same answers quicker: Markup as it is (it is immutable; escape would copy it) and a
    str escaped straight into a Markup (without Markup.__new__, a Python call). Templates call it for every
    value they show, some 1,000,000 times at 10,000 proposals."""
    kind = type(value)
    if kind is str:
        return _new(_markup, _escape_inner(value))
    if kind is _markup:
        return value
    if kind is int:  # digits and a sign: nothing to escape
        return _new(_markup, str(value))
    return escape(value)


class _Template(Template):
    """A template whose compiled code calls `_escape` for the `escape` it imports from jinja2.runtime."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        if _escape_inner is not None:
            template.root_render_func.__globals__["escape"] = _escape  # the namespace the code ran in
        return template


class _Environment(Environment):
    """Jinja2's environment, with templates kept by name (`get_template`) and `page.title` on a dict (most of what
    views hand templates) looking up the key first: Jinja2 tries the attribute first, and the AttributeError of
    every miss cost a tenth of drawing a site. The same answers: a name that is an attribute of dict (`items`,
    `get`...) still finds it first."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.templates_by_name: dict[str, Any] = {}

    def get_template(self, name, parent=None, globals=None):
        """A template loaded once, then taken by its name (pages, layouts and includes ask for them some 85,000
        times at 10,000 proposals; Jinja2's cache keys each anew and locks an LRU). auto_reload is off."""
        if globals is None and isinstance(name, str):
            template = self.templates_by_name.get(name)
            if template is None:
                template = self.templates_by_name[name] = super().get_template(name, parent)
            return template
        return super().get_template(name, parent, globals)

    template_class = _Template

    def make_globals(self, d):
        """A template's globals as one dict, not Jinja2's ChainMap over the environment's: every page and include
        copies them into its context, and a ChainMap is walked in Python. Globals are all set before any template
        is loaded (make_environment), as Jinja2 asks."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))


def make_environment(overrides: Path | None = None) -> Environment:
    folders = [str(overrides)] if overrides and overrides.is_dir() else []
    env = _Environment(loader=ChoiceLoader([FileSystemLoader(folders), FileSystemLoader(str(package_templates()))]),
                       autoescape=select_autoescape(("html", "xml", "js"), default_for_string=True),
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                       # A template changed while serving gets a new environment (serve.py): no need to look at
                       # every template's file again each time a page asks for it.
                       auto_reload=False)
    env.filters["tojson_script"] = script_json
    env.filters["signed"] = lambda n: ("-" if n < 0 else "+") + amount_text(abs(n))
    env.filters["article"] = _article
    env.filters["sentence"] = lambda text: text[:1].upper() + text[1:]  # capitalize would lower-case the rest
    env.nomic_headers = {}  # the header of each game at each depth, drawn once (see _header)
    env.nomic_articles = {}  # each comparison page's articles as last drawn, by page (see _article)
    env.nomic_drawing = {}  # the articles of the page being drawn
    return env


def template_problem(error: TemplateError) -> SourceError:
    """A template's error at its file and line, as a keeper who overrides templates must see it: a syntax error
    names them; an error while rendering has them in its traceback (Jinja2 rewrites it to template lines)."""
    if isinstance(error, TemplateSyntaxError):
        return SourceError(error.filename or error.name or "templates", error.lineno or 0, error.message or str(error))
    frames = [(frame.f_code.co_filename, line) for frame, line in traceback.walk_tb(error.__traceback__)]
    in_template = [(file, line) for file, line in frames if file.endswith((".html", ".xml", ".js"))]
    file, line = in_template[-1] if in_template else ("templates", 0)
    return SourceError(file, line, f"{type(error).__name__}: {error}")


def render_page(env: Environment, page: Page, *, live_reload: str = "") -> str:
    template = env.get_template(page.template)
    # Links are relative to the page's folder unless the page says where the site's root is (404.html).
    context = {"root": "../" * page.depth, **page.full_context()}
    if page.kind == "html" and not page.stub:
        context["header"] = _header(env, context, context["root"], live_reload)
    drawing = env.nomic_drawing = {}
    html = template.render(**context, page_path=page.path, live_reload=live_reload)
    if drawing:
        env.nomic_articles[page.path] = drawing
    return html


@pass_context
def _article(context: Context, pair: dict[str, Any]) -> Markup:
    """A pair of rules as templates/_pair.html draws it (from `pair` alone), taken from the page's last drawing
    when it showed the same: a part of start-now shows a hundred, which serve draws again after an edit to a
    rule's text, and the edit changes one or two."""
    env = context.environment
    key = (pair["kind"], pair["heading"], pair["title"], tuple(pair["notes"]), tuple(pair["summary"]),
           tuple(pair["links"]), pair["html"])
    article = env.nomic_articles.get(context.get("page_path"), {}).get(key)
    if article is None:
        article = Markup(env.get_template("_pair.html").render(pair=pair))
    env.nomic_drawing[key] = article
    return article


def _header(env: Environment, context: dict, root: str, live_reload: str) -> Markup:
    """The site's header and navigation, the same on every page of a game at one depth: drawn once."""
    game = context.get("game")
    key = (root, bool(live_reload), context.get("site_title"), tuple(sorted(game.items())) if game else None)
    headers = env.nomic_headers
    if key not in headers:
        values = {"root": root, "live_reload": live_reload, "site_title": context.get("site_title", "")}
        if game is not None:
            values["game"] = game
        headers[key] = Markup(env.get_template("_header.html").render(**values))
    return headers[key]


def static_files(overrides: Path | None = None) -> list[tuple[Path, str]]:
    """The static files (style, scripts, icon) and their names in the site, a keeper's override first."""
    folder = package_templates() / "static"
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = f"static/{path.relative_to(folder).as_posix()}"
        override = overrides / name if overrides else None
        files.append((override if override and override.is_file() else path, name))
    return files


def _copy_static(out: Path, overrides: Path | None) -> None:
    for source, name in static_files(overrides):
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


# --- Drawing pages, on every core -----------------------------------------------------------------

def render_all(env: Environment, pages: list[Page], out: Path, *, live_reload: str = "", atomic: bool,
               jobs: int = 1, salt: bytes | None = None) -> dict[str, tuple]:
    """Render `pages` into `out`; returns each page's size and modification time, after its key (Page.key) when
    a `salt` is given (a build from nothing digests its pages on every core too). They are drawn a batch at a
    time: the pages of one affinity are a batch (what they share is drawn once, and still remembered when the
    next needs it), and the pages of none the first, which this process draws (see below). With `jobs` > 1
    and enough pages, this process and forked workers draw the batches (the same files, byte for byte),
    whichever is free taking the next."""
    jobs = min(jobs, max(1, len(pages) // (PARALLEL_FROM // 2)))
    by_affinity: dict[int, list[Page]] = {}
    others: list[Page] = []
    for page in pages:
        if page.affinity is None:
            others.append(page)
        else:
            by_affinity.setdefault(page.affinity, []).append(page)
    # The pages of no affinity are the game's lists, pieces and comparison of start and now: those serve's edits
    # redraw most, and what drawing them computed (compare's similarities) stays in this process, which serve
    # goes on in. Drawn first, the longest batch cannot be the one that ends last.
    batches = ([others] if others else []) + [by_affinity[affinity] for affinity in sorted(by_affinity)]
    written: dict[str, tuple] = {}
    for part in run_in_turn(lambda batch: _render_share(env, batches[batch], out, live_reload, atomic, salt),
                            len(batches), jobs):
        written.update(part)
    return written


def _render_share(env: Environment, pages: list[Page], out: Path, live_reload: str, atomic: bool,
                  salt: bytes | None) -> dict[str, tuple]:
    written = {}
    folders: set[Path] = set()
    mode = file_mode()
    stubs: dict[bytes, Path] = {}  # each stub's bytes, and the file this share wrote them to
    for page in pages:
        try:
            data = render_page(env, page, live_reload=live_reload).encode("utf-8")
        except TemplateError as error:  # in a keeper's override: their file and line (found here, in the
            raise ArchiveError([template_problem(error)]) from None  # process whose traceback names them)
        target = out / page.path
        if atomic:
            write_atomic(target, data)
            stat = target.stat()
        else:  # a new file in a staging folder: nothing to replace, so written directly
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            stat = _linked(stubs.get(data), target) if page.stub else None
            if stat is None:
                stat = _write_new(target, data, mode)
                if page.stub:
                    stubs.setdefault(data, target)
        written[page.path] = (stat.st_size, stat.st_mtime_ns) if salt is None else (
            page.key(salt), stat.st_size, stat.st_mtime_ns)
    return written


def _write_new(target: Path, data: bytes, mode: int) -> os.stat_result:
    handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view):]
        return os.fstat(handle)
    finally:
        os.close(handle)


def _linked(source: Path | None, target: Path) -> os.stat_result | None:
    """`target` made another name of `source`, a file of the same bytes: the stubs of a rule's old numbers are
    alike, and making a file costs the file system far more than naming one again (thousands in a long game).
    None when there is no such file or the file system cannot link: the caller writes one."""
    if source is None:
        return None
    try:
        os.link(source, target)
    except OSError:
        return None
    return target.stat()


def forget_drawn() -> None:
    """Drop what drawing pages kept to draw the next ones quicker (rendered Markdown, redlines, words): after
    serve's first build, the whole site's worth (some 50 MB at 10,000 proposals), of which an edit redraws a
    few pages."""
    forget_redlines()
    forget_matches()
    for memo in (render_markdown, render_inline, redline_drawn):
        memo.cache_clear()


# --- serve: fingerprints in memory ----------------------------------------------------------------


@dataclass
class RenderState:
    """Fingerprints of the pages last written, so a rebuild writes only what changed."""

    fingerprints: dict[str, int] = field(default_factory=dict)


def write_pages(env: Environment, pages: list[Page], out: Path, state: RenderState | None = None,
                *, live_reload: str = "", overrides: Path | None = None, remove: Iterable[str] = (),
                jobs: int = 1) -> list[str]:
    """Render pages into `out`; with a state, skip the pages whose fingerprint is the one last written, and
    delete the pages at `remove` (planned no more). Returns the paths written."""
    todo = []
    fingerprints = {}
    for page in pages:
        fingerprint = page.fingerprint() if state is not None and page.deps is not None else None
        if fingerprint is not None and state.fingerprints.get(page.path) == fingerprint:
            continue
        todo.append(page)
        fingerprints[page.path] = fingerprint
    written = render_all(env, todo, out, live_reload=live_reload, atomic=state is not None, jobs=jobs)
    if state is not None:
        for path, fingerprint in fingerprints.items():
            if fingerprint is not None:
                state.fingerprints[path] = fingerprint
            else:
                state.fingerprints.pop(path, None)
        for path in sorted(remove):
            (out / path).unlink(missing_ok=True)
            state.fingerprints.pop(path, None)
    _copy_static(out, overrides)
    return [page.path for page in todo if page.path in written]


# --- build: digests in a manifest kept in the cache -----------------------------------------------


def templates_digest(overrides: Path | None) -> bytes:
    """A digest of every template and static file (a keeper's overrides included): any change redraws all."""
    parts: list[bytes | str] = [PAGE_LAYOUT]
    for folder in (package_templates(), overrides):
        if folder and folder.is_dir():
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                parts += [path.relative_to(folder).as_posix(), path.read_bytes()]
        parts.append("|")
    return digest(*parts)


@dataclass
class BuildResult:
    pages: int
    written: int


def build_pages(env: Environment, pages: list[Page], output: Path, *, cache: Cache, overrides: Path | None,
                jobs: int = 1, inputs: tuple[bytes, Any] | None = None) -> BuildResult:
    """Write the site into `output` (checked by the caller: absent, empty or a site a build made).

    Without a usable manifest, the whole site is drawn in a staging folder and swapped in. With one, only
    the pages whose digest moved (or whose file is not as the manifest left it) are drawn, in a staging
    folder first, then moved into place, and pages no longer planned are removed; with nothing changed,
    nothing is drawn or written. Either way a failure while drawing leaves the site as it was. `inputs`: a
    digest of everything the site was made from and what to say of it, kept with the manifest (see
    `unchanged_site`)."""
    salt = templates_digest(overrides)
    statics = {name: digest(source.read_bytes()) for source, name in static_files(overrides)}
    known = _read_manifest(cache, output)
    if known is not None:
        keys = {page.path: page.key(salt) for page in pages}
        present = _site_files(output)

        def unchanged(path: str, key: bytes) -> bool:
            entry = known.get(path)
            return entry is not None and entry[0] == key and present.get(path) == entry[1:]
        todo = [page for page in pages if not unchanged(page.path, keys[page.path])]
        stale = sorted(set(present) - set(keys) - set(statics) - {SITE_MARKER})
        if not todo and not stale and all(unchanged(name, key) for name, key in statics.items()):
            _write_manifest(cache, output, known, inputs)
            return BuildResult(len(pages), 0)
    else:
        todo = pages
    staging = new_staging_folder(output)
    try:
        with writing(output):
            written = render_all(env, todo, staging, atomic=False, jobs=jobs, salt=salt)
            if known is None:
                _copy_static(staging, overrides)
                swap_in(staging, output)
            else:
                for path in written:
                    target = output / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staging / path, target)
                shutil.rmtree(staging, ignore_errors=True)
                for source, name in static_files(overrides):
                    if not unchanged(name, statics[name]):
                        write_atomic(output / name, source.read_bytes())
                _remove(output, stale)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    # A rename keeps the modification time: the staged file's is the site's.
    entries = {page.path: written.get(page.path) or known[page.path] for page in pages}
    for path, key in statics.items():
        stat = (output / path).stat()
        entries[path] = (key, stat.st_size, stat.st_mtime_ns)
    _write_manifest(cache, output, entries, inputs)
    return BuildResult(len(pages), len(written))


def unchanged_site(cache: Cache, output: Path, inputs: bytes) -> Any:
    """What the last build into `output` said of its site, when it was made from the same `inputs` and every
    file in it is as that build left it (none added, removed or touched): then there is nothing to do, not
    even to parse. Else None."""
    record = _read_record(cache, output)
    if record is None or record[1] is None or record[1][0] != inputs:
        return None
    known = record[0]
    present = _site_files(output)
    present.pop(SITE_MARKER, None)
    if present.keys() != known.keys() or any(present[path] != entry[1:] for path, entry in known.items()):
        return None
    return record[1][1]


def _site_files(site: Path) -> dict[str, tuple[int, int]]:
    """Every file in the site (symbolic links included, not followed) with its size and modification time."""
    files: dict[str, tuple[int, int]] = {}
    folders = [(site, "")]
    while folders:
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((Path(entry.path), f"{prefix}{entry.name}/"))
                else:
                    stat = entry.stat(follow_symlinks=False)
                    files[prefix + entry.name] = (stat.st_size, stat.st_mtime_ns)
    return files


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


# A manifest: (MANIFEST_FORMAT, {path: (digest, size, mtime)}, (inputs digest, summary) or None).
MANIFEST_FORMAT = 2


def _write_manifest(cache: Cache, output: Path, entries: dict, inputs: tuple[bytes, Any] | None) -> None:
    cache.set_manifest(output, pickle.dumps((MANIFEST_FORMAT, entries, inputs), pickle.HIGHEST_PROTOCOL))


def _read_record(cache: Cache, output: Path) -> tuple[dict[str, tuple[bytes, int, int]], Any] | None:
    """The manifest of the site at `output` and the inputs it was made from; None when there is none that can
    be used (damaged, from another version, or the folder is no site a build made): build it all again."""
    if not (output / SITE_MARKER).is_file():
        return None
    record = unpickled(cache.manifest(output))
    if not (isinstance(record, tuple) and len(record) == 3 and record[0] == MANIFEST_FORMAT
            and isinstance(record[1], dict)):
        return None
    return record[1], record[2]


def _read_manifest(cache: Cache, output: Path) -> dict[str, tuple[bytes, int, int]] | None:
    record = _read_record(cache, output)
    return record[0] if record is not None else None
