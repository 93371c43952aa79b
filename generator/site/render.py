"""Pages to files: Jinja2 with autoescape, templates a keeper may override, output written atomically."""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import traceback

from jinja2 import (ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError,
                    select_autoescape)
from markupsafe import Markup

from ..errors import SourceError
from .views import Page


def package_templates() -> Path:
    """templates/ inside an installed wheel, else at the root of a source checkout."""
    installed = Path(__file__).resolve().parent.parent / "templates"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "templates"


def make_environment(overrides: Path | None = None) -> Environment:
    folders = [str(overrides)] if overrides and overrides.is_dir() else []
    env = Environment(loader=ChoiceLoader([FileSystemLoader(folders), FileSystemLoader(str(package_templates()))]),
                      autoescape=select_autoescape(("html", "xml", "js"), default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["tojson_script"] = _json_for_script
    env.filters["signed"] = lambda n: f"{n:+d}"
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


def _json_for_script(value) -> Markup:
    """JSON safe inside <script> or a .js file: no way for text to close the script."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


def render_page(env: Environment, page: Page, *, live_reload: str = "") -> str:
    template = env.get_template(page.template)
    # Links are relative to the page's folder unless the page says where the site's root is (404.html).
    context = {"root": "../" * page.depth, **page.full_context()}
    return template.render(**context, page_path=page.path, live_reload=live_reload)


def static_files() -> list[tuple[Path, str]]:
    folder = package_templates() / "static"
    return sorted((p, f"static/{p.relative_to(folder).as_posix()}") for p in folder.rglob("*") if p.is_file())


@dataclass
class RenderState:
    """Fingerprints of the pages last written, so a rebuild writes only what changed."""

    fingerprints: dict[str, int] = field(default_factory=dict)


def write_pages(env: Environment, pages: list[Page], out: Path, state: RenderState | None = None,
                *, live_reload: str = "", overrides: Path | None = None) -> list[str]:
    """Render pages into `out`; with a state, skip unchanged pages and delete vanished ones. Returns paths written."""
    from ..files import write_atomic

    written = []
    seen = set()
    for page in pages:
        seen.add(page.path)
        fingerprint = page.fingerprint() if state is not None and page.deps is not None else None
        if fingerprint is not None and state.fingerprints.get(page.path) == fingerprint:
            continue
        html = render_page(env, page, live_reload=live_reload)
        target = out / page.path
        if state is None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        else:
            write_atomic(target, html)
        written.append(page.path)
        if fingerprint is not None:
            state.fingerprints[page.path] = fingerprint
    if state is not None:
        for vanished in sorted(set(state.fingerprints) - seen):
            (out / vanished).unlink(missing_ok=True)
            del state.fingerprints[vanished]
    for source, name in static_files():
        override = overrides / name if overrides else None
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(override if override and override.is_file() else source, target)
    return written
