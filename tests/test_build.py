"""The build command end to end: pages, links, determinism, atomic failure, untrusted text, overrides."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2 import UndefinedError
from markupsafe import Markup
from markupsafe import escape as markupsafe_escape

from generator.cli import main
from generator.terminal import one_line
from generator.build import build_site
from generator.site import render
from generator.site.jinja_patch import quick_escape
from generator.site.render import make_environment
from tests.helpers import ROOT, broken_links, copy_games, parse_html, tree_digest


@pytest.fixture
def built(tmp_path):
    content = copy_games(tmp_path, "mini")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) == 0
    return site


def test_build_writes_every_kind_of_page(built):
    for page in ["index.html", "404.html", "search-games.js", "mini/search/index.js", "mini/search/terms-0.js",
                 "mini/search/docs-0.js", "mini/points/index.js", "mini/points/0.js", "mini/compare/rules/0.js",
                 "static/style.css",
                 "mini/index.html", "mini/rules/index.html", "mini/rules/301.html", "mini/rules/203.html",
                 "mini/proposals/index.html", "mini/proposals/301.html", "mini/log.html", "mini/scores.html",
                 "mini/check.html", "mini/players.html", "mini/repealed.html", "mini/defeated.html",
                 "mini/as-of.html", "mini/feed.xml"]:
        assert (built / page).is_file(), page


def test_every_relative_link_resolves(built):
    assert broken_links(built) == []


def test_rules_in_force_have_stable_anchors(built):
    ids = parse_html(built / "mini/rules/index.html").ids
    assert {"rule-101", "rule-201", "rule-301"} <= ids
    assert "rule-302" not in ids  # repealed by proposal 304


def test_old_number_leads_to_the_present_page(built):
    page = (built / "mini/rules/203.html").read_text()
    assert 'href="301.html"' in page and "203 → 301" in page


def test_the_stubs_of_a_rules_old_numbers_are_one_file(tmp_path, monkeypatch):
    site = tmp_path / "site"
    assert main(["build", str(ROOT / "content"), "-o", str(site)]) == 0
    old = [site / "livejournal-2007/rules/203.html", site / "livejournal-2007/rules/301.html"]
    assert "numbered 203 → 301 → 310" in old[0].read_text() and os.path.samefile(*old)

    def refuse(source, target):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(os, "link", refuse)  # a file system without links: each written whole, the same bytes
    copy = tmp_path / "copy"
    assert main(["build", str(ROOT / "content"), "-o", str(copy)]) == 0
    assert tree_digest(copy) == tree_digest(site)
    assert not os.path.samefile(copy / "livejournal-2007/rules/203.html", copy / "livejournal-2007/rules/301.html")


def test_workers_drawing_in_batches_make_the_site_one_process_makes(tmp_path, monkeypatch):
    one = build_site(ROOT / "content", tmp_path / "one", cache_dir=tmp_path / "cache-one", jobs=1)
    monkeypatch.setattr(render, "PARALLEL_FROM", 4)  # every site worth forking for
    two = build_site(ROOT / "content", tmp_path / "two", cache_dir=tmp_path / "cache-two", jobs=2)
    assert one["pages"] == two["pages"] == two["written"] > 300
    assert tree_digest(tmp_path / "one") == tree_digest(tmp_path / "two")


def test_amendment_is_a_redline_with_its_proposal_cited(built):
    page = (built / "mini/rules/301.html").read_text()
    assert re.search(r'<del cite="../proposals/301.html"><span class="visually-hidden">deleted: </span>'
                     r"unanimous among the eligible voters</del>", page)
    assert '<ins cite="../proposals/301.html"><span class="visually-hidden">inserted: </span>a simple majority</ins>' in page
    assert "renumbered 203 to 301" in page
    assert 'class="legend"' in page


def test_judgment_override_shows_both_values(built):
    page = (built / "mini/check.html").read_text()
    assert "Judgment 1</a> sets Bob&#39;s score to <strong>8</strong>; the replay computed 6" in page


def test_same_input_gives_byte_identical_output(tmp_path):
    content = copy_games(tmp_path, "mini", "hostile")
    assert main(["build", str(content), "-o", str(tmp_path / "a")]) == 0
    assert main(["build", str(content), "-o", str(tmp_path / "b")]) == 0
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_failed_build_leaves_the_previous_site_intact(tmp_path, capsys):
    content = copy_games(tmp_path, "mini")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) == 0
    before = tree_digest(site)
    capsys.readouterr()
    (content / "mini/game.toml").write_text('title = "Mini"\nplayers = ["Alice", "Bob", "Carol"\n')
    assert main(["build", str(content), "-o", str(site)]) == 2
    assert capsys.readouterr().err == (f"{content}/mini/game.toml:2: not valid TOML: Unclosed array at the end of "
                                       "the file; a list opened with [ above is not closed: end it with ], its "
                                       "items quoted and separated by commas\n")  # named in full: run outside it
    assert tree_digest(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site"]  # no staging folder left behind


def test_untrusted_text_never_becomes_markup(tmp_path):
    content = copy_games(tmp_path, "hostile")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) == 0
    own_scripts = {"site.js", "points.js", "compare.js", "report.js"}
    for page in site.rglob("*.html"):
        for tag, attributes in parse_html(page).tags:
            assert not any(name.startswith("on") for name in attributes), (page, tag, attributes)
            for name in ("href", "src", "action", "formaction"):
                value = (attributes.get(name) or "").replace("\t", "").strip().lower()
                assert not value.startswith(("javascript:", "data:", "vbscript:")), (page, tag, attributes)
            own_chart = tag == "svg" and page.name == "scores.html" and (  # the chart and its legend's swatches
                attributes.get("role") == "img" or attributes.get("aria-hidden") == "true")
            assert tag not in ("iframe", "img", "svg", "object", "embed", "textarea") or own_chart, (page, tag)
            if tag == "script" and attributes.get("src"):
                assert Path(attributes["src"]).name in own_scripts, (page, attributes)
        text = page.read_text()
        assert "<script>alert" not in text
    pieces = list(site.glob("hostile/*/*.js")) + list(site.glob("hostile/compare/rules/*.js"))
    assert len(pieces) >= 6
    for script in pieces:  # data pieces hold player text: it must not close a script or escape its string
        text = script.read_text()
        assert "</script" not in text.lower() and "<" not in text.split("=", 1)[1], script


def test_keeper_templates_override_the_bundled_ones(tmp_path):
    content = copy_games(tmp_path, "mini")
    (content / "_templates").mkdir()
    (content / "_templates/404.html").write_text("custom not found page\n")
    (content / "_templates/static").mkdir()
    (content / "_templates/static/style.css").write_text("body { color: teal; }\n")
    assert main(["build", str(content), "-o", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site/404.html").read_text() == "custom not found page\n"
    assert (tmp_path / "site/static/style.css").read_text() == "body { color: teal; }\n"


def test_templates_read_a_dict_as_jinja2_does():
    """`x.name` on a dict finds the key quickly, but a dict's own attribute still comes first, as in Jinja2."""
    template = make_environment().from_string("{{ d.title }} {{ d.items() | list | length }} {{ d.get('title') }}")
    assert template.render(d={"title": "Fines", "items": "a key"}) == "Fines 2 Fines"
    with pytest.raises(UndefinedError):
        make_environment().from_string("{{ d.missing }}").render(d={"title": "Fines"})


class _Shown:
    def __html__(self):
        return "<b>shown</b>"


@pytest.mark.parametrize("value", ["plain", "<script>alert('x') & \"y\"</script>", "", Markup("<i>safe</i>"), 42, -7,
                                   3.5, None, True, _Shown(), type("Sub", (str,), {})("a<b")])
def test_templates_escape_every_value_as_markupsafe_does(value):
    """Templates escape with jinja_patch.quick_escape, a quicker markupsafe.escape: the same text and type for
    every kind, in the environment pages are drawn in."""
    shown = make_environment().from_string("{{ v }}").render(v=value)
    assert shown == str(markupsafe_escape(value))
    assert type(quick_escape(value)) is Markup and quick_escape(value) == markupsafe_escape(value)


def test_missing_content_is_an_error_not_a_traceback(tmp_path, capsys):
    assert main(["build", str(tmp_path / "nowhere"), "-o", str(tmp_path / "site")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'nowhere'}: no such folder"
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("ruleset", ["suber-1982", "suber-2nd", "livejournal", "solitaire"])
def test_new_game_scaffold_builds_and_checks_clean(tmp_path, ruleset):
    game = tmp_path / "content" / "my-game"
    players = ["--player", "Ann"] + ([] if ruleset == "solitaire" else ["--player", "Bo"])
    assert main(["new", str(game), "--ruleset", ruleset, *players]) == 0
    assert main(["check", str(tmp_path / "content")]) == 0
    assert main(["build", str(tmp_path / "content"), "-o", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site/my-game/rules/index.html").is_file()


def test_new_refuses_to_overwrite(tmp_path, capsys):
    game = tmp_path / "g"
    game.mkdir()
    (game / "keep.txt").write_text("mine")
    assert main(["new", str(game), "--player", "Ann"]) == 2
    assert "already exists and is not an empty folder; nothing was written" in capsys.readouterr().err
    assert sorted(p.name for p in game.iterdir()) == ["keep.txt"]


@pytest.mark.parametrize("command", [["new"], ["synth", "--proposals", "10"], ["import", "git", "REPO", "--rules", "rules.md", "-o"]],
                         ids=["new", "synth", "import"])
def test_a_whole_game_is_never_written_through_a_link(tmp_path, capsys, command):
    """A link, even to an empty folder or to nothing, is not a new folder: what is written would land elsewhere."""
    (tmp_path / "empty").mkdir()
    for target in ("empty", "nothing"):
        link = tmp_path / f"to-{target}"
        link.symlink_to(target)
        assert main([*command, str(link)]) == 2
        assert f"{link}: already exists and is not an empty folder; nothing was written" in capsys.readouterr().err
    assert list((tmp_path / "empty").iterdir()) == [] and not (tmp_path / "nothing").exists()


def test_help_lists_the_commands():
    result = subprocess.run([sys.executable, "-m", "generator", "--help"], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    for command in ("build", "check", "import", "new", "serve", "preview", "diff"):
        assert re.search(rf"^\s+{command}\s", result.stdout, re.MULTILINE), command


def test_base_url_makes_sitemap_feed_and_404_absolute_and_nothing_else(tmp_path):
    """Without --base-url there is no sitemap (its <loc>s must be absolute), and 404.html links from the
    host's root; with it, from the site's address. Either way not from the missing page's folder."""
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "a"), "--base-url", "https://example.org/nomic"]) == 0
    assert main(["build", str(content), "-o", str(tmp_path / "b")]) == 0
    sitemap = (tmp_path / "a/sitemap.xml").read_text()
    assert "<loc>https://example.org/nomic/mini/rules/301.html</loc>" in sitemap
    feed = (tmp_path / "a/mini/feed.xml").read_text()
    assert '<link rel="alternate" href="https://example.org/nomic/mini/proposals/301.html"/>' in feed
    assert not (tmp_path / "b/sitemap.xml").exists()
    a, b = tree_digest(tmp_path / "a"), tree_digest(tmp_path / "b")
    with_base, without = (tmp_path / "a/404.html").read_text(), (tmp_path / "b/404.html").read_text()
    assert '<link rel="stylesheet" href="https://example.org/nomic/static/style.css">' in with_base
    assert '<a href="https://example.org/nomic/index.html">Back to the games</a>' in with_base
    assert '<link rel="stylesheet" href="/static/style.css">' in without and "<base" not in with_base + without
    assert '<a class="skip" href="#main">' in with_base  # no <base>: the skip link stays on the page
    assert set(a) - set(b) == {"sitemap.xml"} and set(b) <= set(a)
    assert {path for path in b if a[path] != b[path]} == {"mini/feed.xml", "404.html"}


@pytest.mark.parametrize("url, problem", [
    ("javascript:alert(document.domain)//", "must be an absolute http or https address, like "
                                            "https://example.org/nomic/"),
    ("//evil.example/", "must be an absolute http or https address, like https://example.org/nomic/ (perhaps "
                        "https://evil.example/)"),
    ("example.org/nomic/", "must be an absolute http or https address, like https://example.org/nomic/ (perhaps "
                           "https://example.org/nomic/)"),
    ("https://example.org/\n</loc><loc>https://evil.example/", "holds the character U+000A; an address is one "
                                                               "line, without spaces or control characters"),
    ("https://example.org/\u202enomic/", "holds the character U+202E; an address is one line, without spaces or "
                                         "control characters"),
    ("https://example.org/my nomic/", "holds a space (write it as %20); an address is one line, without spaces "
                                      "or control characters"),
    ("https:\\\\evil.example\\", "holds a backslash (a path is written with /); an address is one line, without "
                                 "spaces or control characters"),
    ("ftp://example.org/", "must be an absolute http or https address, like https://example.org/nomic/"),
    ("https:example.org/", "must be an absolute http or https address, like https://example.org/nomic/"),
    ("https:///nomic/", "names no host; it must be an absolute http or https address, like "
                        "https://example.org/nomic/"),
    ("https://example.org:port/", "is not a valid address (Port could not be cast to integer value as 'port'), "
                                  "like https://example.org/nomic/"),
    ("https://example.org/?page=", "must be where the site's files are, without '?' or '#': like "
                                   "https://example.org/nomic/"),
], ids=["javascript", "scheme-relative", "no-scheme", "line-break", "bidi-override", "space", "backslash", "ftp",
        "no-slashes", "no-host", "bad-port", "query"])
def test_a_base_url_that_is_no_absolute_http_address_is_exit_2_and_nothing_is_written(tmp_path, capsys, url,
                                                                                       problem):
    content = copy_games(tmp_path, "mini")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) == 0
    before = tree_digest(site)
    capsys.readouterr()
    assert main(["build", str(content), "-o", str(site), "--base-url", url]) == 2
    assert capsys.readouterr().err == one_line(f"--base-url: '{url}' {problem}; nothing was written") + "\n"
    assert tree_digest(site) == before  # the output folder untouched
    assert main(["build", str(content), "-o", str(tmp_path / "new"), "--base-url", url]) == 2
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("url", ["https://example.org/nomic/", "http://127.0.0.1:8000/", "HTTPS://Example.org/a%20b/",
                                 "https://b\u00fccher.example/"])
def test_an_absolute_http_base_url_is_taken(tmp_path, url):
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--base-url", url]) == 0
    assert url in (tmp_path / "site/sitemap.xml").read_text()


@pytest.mark.parametrize("ruleset", ["suber-1982", "suber-2nd", "livejournal"])
def test_the_example_in_a_new_games_readme_checks_clean_once_copied_into_the_log(tmp_path, ruleset, capsys):
    """`new` writes how to keep the game in its README.md, which nothing reads: its example proposal, copied into
    the (empty) log, is a proposal with a change and a Scores line that the game's first turn makes true."""
    game = tmp_path / "content" / "my-game"
    assert main(["new", str(game), "--ruleset", ruleset, "--player", "Ann", "--player", "Bo"]) == 0
    assert (game / "log.md").read_text(encoding="utf-8") == ""
    example = re.search(r"```markdown\n(.*?)```", (game / "README.md").read_text(encoding="utf-8"), re.DOTALL)[1]
    (game / "log.md").write_text(example, encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(game)]) == 0, capsys.readouterr()
    assert capsys.readouterr().out == "my-game: 1 proposal, consistent\n"


def test_a_build_with_nothing_to_do_imports_no_parser_engine_site_or_jinja(tmp_path):
    """The question "has anything changed?" is asked with a small part of the program (build.py): the rest is
    imported only when there is something to draw. The same site either way: the first build draws it."""
    content, site, cache = copy_games(tmp_path, "mini"), tmp_path / "site", tmp_path / "cache"
    heavy = ("generator.parse.log", "generator.parse.game", "generator.engine", "generator.site", "generator.pipeline",
             "jinja2", "markdown_it")
    script = ("import sys; from generator.cli import main; code = main(sys.argv[1:]); "
              f"print(code, *sorted(m for m in sys.modules if m.startswith({heavy!r})))")

    def build() -> list[str]:
        ran = subprocess.run([sys.executable, "-c", script, "build", str(content), "-o", str(site), "--cache-dir",
                              str(cache), "-q"], cwd=ROOT, capture_output=True, text=True, check=True)
        return ran.stdout.split()
    first = build()
    assert first[0] == "0" and set(heavy) <= set(first[1:])
    drawn = tree_digest(site)
    assert build() == ["0"]  # nothing changed: none of them imported
    assert tree_digest(site) == drawn
    (content / "mini" / "game.toml").write_text((content / "mini" / "game.toml").read_text() + "\n")
    assert set(heavy) <= set(build()[1:])  # an input changed: drawn again


def test_the_cycles_pages_leave_are_freed_as_the_build_draws(tmp_path, monkeypatch):
    """A template's macros and the context they were called in hold each other: a cycle for some pages, which the
    collector, off while a build draws, never freed (each context holds its page's data: 300 MB at 100,000
    entries). The contexts alive as the build draws stay fewer than the pages between two collections, where
    without them they pile up; the site is the same either way."""
    import gc

    import jinja2.runtime

    content = tmp_path / "content"
    assert main(["synth", str(content / "long"), "--proposals", "600"]) == 0
    monkeypatch.setattr(render, "COLLECT_EVERY", 16)
    forget = render.forget_batch

    def contexts_alive(name: str, collect) -> list[int]:
        alive: list[int] = []

        def counted() -> None:
            forget()
            alive.append(sum(isinstance(thing, jinja2.runtime.Context) for thing in gc.get_objects()))
        monkeypatch.setattr(render, "forget_batch", counted)
        monkeypatch.setattr(render.gc, "collect", collect)
        assert main(["build", str(content), "-o", str(tmp_path / name), "--jobs", "1", "--quiet", "--cache-dir",
                     str(tmp_path / f"{name}-cache")]) == 0
        return alive
    collected = contexts_alive("site", gc.collect)
    uncollected = contexts_alive("uncollected", lambda generation: 0)
    assert max(collected) <= render.COLLECT_EVERY < max(uncollected), (collected, uncollected)
    assert tree_digest(tmp_path / "site") == tree_digest(tmp_path / "uncollected")


def test_a_site_drawn_waiting_on_each_write_is_the_site(tmp_path, monkeypatch, capsys):
    """A drawing process waits for its oldest write past WRITES_PENDING (their futures, held to the end of a
    share, were 225 MB at 100,000 entries): waiting on every write gives the same site, and the same manifest
    (a build after it writes nothing)."""
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--quiet"]) == 0
    monkeypatch.setattr(render, "WRITES_PENDING", 0)
    assert main(["build", str(content), "-o", str(tmp_path / "waited"), "--quiet", "--cache-dir",
                 str(tmp_path / "other")]) == 0
    assert tree_digest(tmp_path / "waited") == tree_digest(tmp_path / "site")
    capsys.readouterr()
    assert main(["build", str(content), "-o", str(tmp_path / "waited"), "--cache-dir", str(tmp_path / "other")]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err
