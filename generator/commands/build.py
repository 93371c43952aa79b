"""`nomic-archive build`: parse, replay, plan, render, and swap the finished site in at once."""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from jinja2 import TemplateError

from ..errors import ArchiveError
from ..files import check_site_folder, new_staging_folder, swap_in, writing
from ..site.pages import plan_site
from ..site.render import make_environment, template_problem, write_pages
from .check import check_games


def build_site(content: Path, output: Path, *, base_url: str = "") -> dict:
    """Build into a staging folder and swap it in; on any failure the previous site stays untouched.

    The output folder is checked first: a build never replaces anything but a site it made."""
    started = time.perf_counter()
    check_site_folder(output, content)
    replays = check_games(content)
    overrides = (content / "_templates") if content.is_dir() else None
    env = make_environment(overrides)
    pages = plan_site(replays, base_url=base_url)
    staging = new_staging_folder(output)
    try:
        with writing(output):
            write_pages(env, pages, staging, overrides=overrides)
        swap_in(staging, output)
    except TemplateError as error:  # in a keeper's override of a template: their file, their line
        shutil.rmtree(staging, ignore_errors=True)
        raise ArchiveError([template_problem(error)]) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return {"games": len(replays), "pages": len(pages), "findings": sum(len(r.findings) for r in replays),
            "seconds": time.perf_counter() - started}


def run(args) -> int:
    summary = build_site(args.content, args.output, base_url=args.base_url)
    findings = f"; {summary['findings']} discrepancies (see each game's check page or run nomic-archive check)" \
        if summary["findings"] else ""
    print(f"built {summary['pages']} pages for {summary['games']} games into {args.output} "
          f"in {summary['seconds']:.2f}s{findings}", file=sys.stderr)
    return 0
