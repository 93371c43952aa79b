"""A keeper's templates (content/_templates/) are anyone's pull request: rendered in Jinja2's sandbox, read as
every other input is, and every mistake in one is exit 2 naming its file and line, never "a bug"."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.site import bounds
from generator.site.render import make_environment, package_templates

from tests.helpers import copy_games

# Known ways out of a Jinja2 template into Python (each would run `id` on the keeper's machine, or read its
# files, in a plain Environment). The sandbox must refuse every one: exit 2 at the template's line.
ESCAPES = [
    "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
    "{{ joiner.__init__.__globals__.os.popen('id').read() }}",
    "{{ namespace.__init__.__globals__.os.popen('id').read() }}",
    "{{ lipsum.__globals__['os'].popen('id').read() }}",
    "{{ lipsum.__globals__.__builtins__.__import__('os').popen('id').read() }}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen('id').read() }}",
    "{{ self.__init__.__globals__.__builtins__.open('/etc/passwd').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ ''.__class__.__mro__[-1].__subclasses__()[0] }}",
    "{{ ().__class__.__base__.__subclasses__() }}",
    "{{ [].__class__.__base__.__subclasses__() }}",
    "{{ {}.__class__.__base__.__subclasses__() }}",
    "{{ range.__self__ }}",
    "{{ dict.__init__.__globals__ }}",
    "{{ ''|attr('__class__')|attr('__mro__') }}",
    "{{ ''|attr('\\x5f\\x5fclass\\x5f\\x5f') }}",
    "{{ cycler|attr('__init__')|attr('__globals__') }}",
    "{{ ''['__class__'] }}",
    "{{ lipsum['__globals__'] }}",
    "{{ '{0.__class__.__mro__}'.format('') }}",
    "{{ '{0.__init__.__globals__}'.format(cycler) }}",
    "{{ '{x.__class__}'.format_map({'x': ''}) }}",
    "{{ '{x.__class__}'.format(x=cycler) }}",
    "{% set f = '{0.__globals__}'.format %}{{ f(lipsum) }}",
    "{{ (lipsum|attr('__globals__')).os }}",
    "{{ page_path.__class__ }}",
    "{{ root.__add__.__self__.__class__ }}",
    "{{ game.__class__ }}",
    "{{ game.items.__self__.__class__ }}",
    "{{ header.__html__.__globals__ }}",
    "{{ header.__class__.__mro__ }}",
    "{% for c in ().__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
    "{{ range(100000000) | list }}",
]


def _build_with(tmp_path: Path, files: dict[str, str | bytes], *, game: str = "mini") -> Path:
    content = copy_games(tmp_path, game)
    for name, data in files.items():
        path = content / "_templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return content


def _run_build(tmp_path: Path, content: Path, capsys, monkeypatch) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    code = main(["build", content.name, "-o", "site", "--cache-dir", "cache"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("escape", ESCAPES)
def test_every_known_escape_from_a_template_is_refused_at_its_line(tmp_path, capsys, monkeypatch, escape):
    content = _build_with(tmp_path, {"index.html": '{% extends "base.html" %}\n{% block main %}\n'
                                                   f"{escape}\n{{% endblock %}}\n"})
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 2, err
    assert err.startswith("_templates/index.html:3: "), err
    assert "unsafe" in err or "SecurityError" in err or "OverflowError" in err or "Undefined" in err, err
    assert "bug" not in err
    assert not (tmp_path / "site").exists()  # nothing published, the output of `id` least of all
    assert "uid=" not in err


def test_an_unsafe_attribute_names_the_file_the_line_and_the_attribute(tmp_path, capsys, monkeypatch):
    content = _build_with(tmp_path, {"404.html": "line one\n{{ cycler.__init__.__globals__.os.popen('id').read() }}\n"})
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 2
    assert err == ("_templates/404.html:2: SecurityError: access to attribute '__init__' of 'type' object is "
                   "unsafe.\n")


@pytest.mark.parametrize("main, shown", [
    # Loops, filters, macros, a dict's methods, string methods, format and a namespace: a keeper's tools.
    ("{% set ns = namespace(n=0) %}{% macro shout(x) %}{{ x|upper }}{% endmacro %}"
     "{% for i in range(3) %}{% set ns.n = ns.n + i %}{% endfor %}"
     "{{ ns.n }} {{ shout('a') }} {{ '%s-%d'|format('x', 4) }} {{ '{}:{}'.format(1, 'b') }} "
     "{{ 'a,b'.split(',')|join('+') }} {{ {'k': 1}.items()|list|length }} {{ site_title|length > 0 }}",
     "3 A x-4 1:b a+b 1 True"),
    # What bounds.py measures, within the bounds: as Jinja2 makes it.
    ("[{{ 'x'|center(5) }}][{{ 'a'.ljust(3) }}][{{ '{:>4}'.format(1) }}][{{ '%-3s'|format('b') }}]"
     "[{{ 'a' ~ 'b' ~ 1 }}][{{ ([1] + [2])|join(',') }}][{{ 'abab'|replace('a', 'cd') }}][{{ 'l1\nl2'|indent(2) }}]"
     "[{{ [1, 2, 3]|batch(2, 0)|list }}][{{ '<' ~ 'i' ~ '>' }}]",
     "[  x  ][a  ][   1][b  ][ab1][1,2][cdbcdb][l1\n  l2][[[1, 2], [3, 0]]][&lt;i&gt;]"),
], ids=["tools", "within-bounds"])
def test_what_a_template_may_do_still_works_in_the_sandbox(tmp_path, capsys, monkeypatch, main, shown):
    template = '{% extends "base.html" %}{% block main %}<p id=k>' + main + "</p>{% endblock %}\n"
    content = _build_with(tmp_path, {"index.html": template})
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 0, err
    assert f"<p id=k>{shown}</p>" in (tmp_path / "site/index.html").read_text()


@pytest.mark.parametrize("data, message", [
    ("<p>caf\u00e9</p>\n".encode("utf-16"), "_templates/404.html:1:1: not UTF-8 text (byte 0xff); save the file as "
                                             "UTF-8"),
    ("<p>one</p>\n<p>caf\u00e9</p>\n".encode("latin-1"), "_templates/404.html:2:7: not UTF-8 text (byte 0xe9); save "
                                                          "the file as UTF-8"),
    (b'{% include "404.html" %}\n', "_templates/404.html:1: RecursionError: maximum recursion depth exceeded"),
    (b"<p>\n{{ 1 // 0 }}\n", "_templates/404.html:2: ZeroDivisionError: integer division or modulo by zero"),
    (b"<p>\n{{ 1 / 0 }}\n", "_templates/404.html:2: ZeroDivisionError: division by zero"),
    (b"<p>\n\n{% for x in %}\n", "_templates/404.html:3: Expected an expression, got 'end of statement block'"),
    (b"<p>\n{{ nosuch.thing }}\n", "_templates/404.html:2: UndefinedError: 'nosuch' is undefined"),
    (b"{{ 'x' * -1 }}{{ [1][5] }}\n", "_templates/404.html:1: UndefinedError: list object has no element 5"),
    (b"\n{{ int('x') }}\n", "_templates/404.html:2: UndefinedError: 'int' is undefined"),
    (b"\n{{ 'abc'|int + none }}\n", "_templates/404.html:2: TypeError: unsupported operand type(s) for +: 'int' "
                                     "and 'NoneType'"),
    (b'\n{% include "no-such.html" %}\n', "_templates/404.html:2: TemplateNotFound: no-such.html"),
    (b'\n{% extends "404.html" %}\n', "_templates/404.html:2: RecursionError: maximum recursion depth exceeded"),
    (b"\n{{ 'x' * 10**10 }}\n", "_templates/404.html:2: OverflowError: a sequence of 1 repeated 10,000,000,000 times "
                                  "is too long for a template (at most 1,000,000 items)"),
    (b"\n{{ 7 ** (10 ** 8) }}\n", "_templates/404.html:2: OverflowError: 7 ** 100000000 is too large for a template (a "
                             "power of at most 1024)"),
], ids=["utf-16", "latin-1", "includes-itself", "floor-division-by-zero", "division-by-zero", "syntax", "undefined",
        "no-such-element", "no-such-function", "type-error", "includes-nothing", "extends-itself", "gigabytes",
        "a-huge-power"])
def test_every_template_mistake_is_exit_2_naming_its_file_and_line(tmp_path, capsys, monkeypatch, data, message):
    content = _build_with(tmp_path, {"404.html": data})
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    # (A recursion's message goes on differently in different Pythons: its start is what is said.)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert "bug" not in err
    assert not (tmp_path / "site").exists()


# Each asks for gigabytes (or hours) in one operation the sandbox does not bound itself, or doubles a value in a
# loop: each is measured before it is made, and refused at its line (exit 2), nothing written.
AMPLIFIERS = [
    ("{{ 'ab'|center(400000000) }}", "center would make 400,000,000 characters"),
    ("{{ 'a'.ljust(400000000) }}", "ljust would make 400,000,000 characters"),
    ("{{ 'a'|indent(400000000, true) }}", "indent would make 400,000,001 characters"),
    ("{{ 'a\tb'.expandtabs(400000000) }}", "expandtabs would make 400,000,003 characters"),
    ("{{ (range(1000)|join(','))|replace(',', 'x' * 900000) }}", "replace would make 899,103,889 characters"),
    ("{{ '%400000000s'|format(1) }}", "format would make 400,000,011 characters"),
    ("{{ '%*s'|format(400000000, 'a') }}", "format would make 400,000,004 characters"),
    ("{{ '{:>400000000}'.format(1) }}", "format would make 400,000,013 characters"),
    ("{{ '{:{}}'.format(1, 400000000) }}", "format would make 800,000,005 characters"),
    ("{{ ([('x' * 900000)] * 100000)|join }}", "join would make 90,000,000,000 characters"),
    ("{{ ''.join([('x' * 900000)] * 100000) }}", "join would make 90,000,000,000 characters"),
    ("{{ [1]|batch(400000000, 'x')|list }}", "batch would make 400,000,000 items"),
    ("{{ [1]|slice(400000000, 'x')|list }}", "slice would make 400,000,000 lists"),
    ("{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "~ would make 16,777,216 characters"),
    ("{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
     "+ would make 16,777,216 characters"),
    ("{% set l = [1] %}{% for i in range(60) %}{{ l.extend(l) or '' }}{% endfor %}", "extend would make 16,777,216 items"),
    ("{{ lipsum(10000000) }}", "UndefinedError: 'lipsum' is undefined"),
]


@pytest.mark.parametrize("template, message", AMPLIFIERS, ids=[m.split(" ")[0] for _, m in AMPLIFIERS])
def test_a_template_asking_for_gigabytes_is_refused_before_it_makes_them(tmp_path, capsys, monkeypatch, template,
                                                                         message):
    content = _build_with(tmp_path, {"404.html": f"<p>\n{template}\n"})
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    prefix = "" if message.startswith("Undefined") else "OverflowError: "
    assert code == 2 and err.startswith(f"_templates/404.html:2: {prefix}{message}"), err
    if prefix:
        assert err.endswith("too many for a template (at most 10,000,000)\n"), err
    assert not (tmp_path / "site").exists()


def test_a_template_looping_for_hours_is_stopped_at_its_line(tmp_path, capsys, monkeypatch):
    """Two loops of the sandbox's longest range, one within the other (10,000,000,000 turns, hours), stop at the
    page's deadline (here half a second, MAX_DRAW_SECONDS) where the inner loop next calls `range`: exit 2 at the
    template's line, nothing written."""
    monkeypatch.setattr(bounds, "MAX_DRAW_SECONDS", 0.5)
    content = _build_with(tmp_path, {"404.html": "<p>\n{% for i in range(100000) %}{% for j in range(100000) %}"
                                                 "{% endfor %}{% endfor %}\n"})
    started = time.monotonic()
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 2 and err == ("_templates/404.html:2: TimeoutError: drawing the page took over 0.5 s, too long "
                                 "for a template\n"), err
    assert time.monotonic() - started < 30
    assert not (tmp_path / "site").exists()


def test_the_deadline_counts_the_templates_drawing_not_the_making_of_the_pages_data(tmp_path, monkeypatch):
    """The deadline is the bound on a keeper's template, which makes no page's data: a page whose data takes
    longer than it (the comparison of a game's start with now at 98,000 proposals took 9-14 s) is drawn whole.
    It stopped the build of a game under the caps, named as `site: cannot write: drawing the page took over 10 s`."""
    from generator.site.render import draw_page
    from generator.site.views import Page

    monkeypatch.setattr(bounds, "MAX_DRAW_SECONDS", 0.2)
    (tmp_path / "_templates").mkdir()
    (tmp_path / "_templates" / "slow.html").write_text("{% for i in range(3) %}{{ i }}{% endfor %}{{ made }}")
    env = make_environment(tmp_path / "_templates")
    page = Page("slow.html", "slow.html", {}, kind="txt", lazy=lambda: time.sleep(0.4) or {"made": "!"})
    assert draw_page(env, page) == "012!"


def test_a_template_mistake_in_serve_shows_its_file_and_line(tmp_path):
    from generator.serve import LiveSite
    content = _build_with(tmp_path, {"404.html": "<p>\n{{ 1 // 0 }}\n"})
    live = LiveSite(content, live_reload="")
    assert live.update().ok  # (it compiles: the mistake shows when the page is drawn)
    answer = live.answer("/no/such/page.html")
    assert answer.status == 500
    assert b"_templates/404.html:2</code>: ZeroDivisionError: integer division or modulo by zero" in answer.data


def test_a_template_mistake_in_preview_is_exit_2(tmp_path, capsys):
    content = _build_with(tmp_path, {"draft.html": "<p>\n{{ 1 // 0 }}\n"})
    draft = content / "mini" / "drafts" / "idea.md"
    draft.parent.mkdir()
    draft.write_text("## Proposal: An idea\nProposer: Alice\n\nEnact rule 301:\n\n> Players may rest.\n")
    assert main(["preview", str(draft), "-o", str(tmp_path / "preview.html")]) == 2
    assert capsys.readouterr().err == "_templates/draft.html:2: ZeroDivisionError: integer division or modulo by zero\n"


@pytest.mark.parametrize("name", ["404.html", "static/style.css", "solitaire/turn.html", "_header.html"])
def test_a_link_leading_out_of_the_content_folder_is_refused_with_its_path(tmp_path, capsys, monkeypatch, name):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0\n")
    content = _build_with(tmp_path, {})
    link = content / "_templates" / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(secret)
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert (code, err) == (2, f"_templates/{name}: leads out of the content folder through a symbolic link (to "
                              f"{os.path.realpath(secret)}); only files inside it are read\n")
    assert not (tmp_path / "site").exists()


def test_a_folder_linked_out_of_the_content_folder_is_refused(tmp_path, capsys, monkeypatch):
    outside = tmp_path / "outside"
    (outside / "static").mkdir(parents=True)
    (outside / "static" / "style.css").write_text("stolen\n")
    content = _build_with(tmp_path, {})
    (content / "_templates").mkdir()
    (content / "_templates" / "static").symlink_to(outside / "static")
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 2
    assert err.startswith("_templates/static: leads out of the content folder through a symbolic link"), err
    assert not (tmp_path / "site").exists()


def test_a_link_inside_the_content_folder_is_read(tmp_path, capsys, monkeypatch):
    content = _build_with(tmp_path, {"shared.css": "body { color: teal; }\n"})
    (content / "_templates" / "static").mkdir()
    (content / "_templates" / "static" / "style.css").symlink_to(content / "_templates" / "shared.css")
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert code == 0, err
    assert (tmp_path / "site/static/style.css").read_text() == "body { color: teal; }\n"


def test_a_fifo_in_the_templates_is_refused_not_waited_on(tmp_path, capsys, monkeypatch):
    content = _build_with(tmp_path, {})
    (content / "_templates").mkdir()
    os.mkfifo(content / "_templates" / "404.html")
    code, err = _run_build(tmp_path, content, capsys, monkeypatch)
    assert (code, err) == (2, "_templates/404.html: is a FIFO (named pipe), not a file; nothing was read from it\n")


def test_the_bundled_templates_render_in_the_sandbox_as_before():
    """The sandbox changes nothing the bundled templates draw (the golden site tests hold every page); a page
    asks for nothing the sandbox refuses."""
    env = make_environment()
    for path in sorted(package_templates().rglob("*.html")):
        name = path.relative_to(package_templates()).as_posix()
        env.get_template(name)  # every template compiles in the sandbox
