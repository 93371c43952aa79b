"""The docs' examples are run: every `nomic-archive` command in a code block of README.md and docs/**/*.md, with
its exit code and, where the docs show it, its output. Docs that no longer match the program fail here.

The convention the docs follow:

- A command is a line of a code block (fenced with ``` or ~~~, or indented by four spaces) that starts with
  `nomic-archive ` or `$ nomic-archive `. A line ending in `\\` goes on on the next line.
- Output: after a command written with the prompt (`$ `), every line up to the next `$ ` line or the end of
  the block is what it prints, standard output and standard error together, as a pipe gets them (no colours,
  no progress line). A line `...` stands for any lines (or none), and `...` inside a line for any text. A
  command without the prompt shows no output, and only its exit code is checked.
- The exit code is 0, unless the line ends with a comment `# exit N` (`# exit 1: the slips`). Any other
  comment is for the reader.
- A command that needs a network, a git repository or a running server ends with `# not run: why`. It is
  read by the program's own argument parser (a misspelt option still fails) but not run, and the output shown
  after it is not compared. Keep them few.
- Other commands (`git clone`, the README's set-up commands, which tests/test_install.py holds to account) are
  not run here; no example may depend on them.
- The commands of one file run in order, as a keeper would type them, from a scratch folder that holds a copy
  of the bundled `content/` and `examples/`: `nomic-archive build`, `content/...` and `examples/...` work as
  written, and what one command writes the next one reads.

The program runs as `python -m generator` with PYTHONPATH set to this checkout, so that the test works from a
fresh clone after the README's second set-up command.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from generator import cli, limits
from tests.helpers import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PROGRAM = "nomic-archive"
NOT_RUN_MAX = 8  # examples the suite cannot run: few, or the docs stop being tested
EXIT = re.compile(r"exit (\d+)\b")


@dataclass
class Example:
    file: Path
    line: int  # 1-based, in the file
    command: str  # as written, without the prompt
    argv: list[str]
    exit_code: int = 0
    not_run: str | None = None  # why, when the example is not run
    output: list[str] | None = None  # the lines shown after it, when it was written with the prompt
    notes: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.file.relative_to(ROOT)}:{self.line}"


def examples_in(path: Path) -> list[Example]:
    """The commands of a Markdown file's code blocks, in order (the convention above)."""
    found: list[Example] = []
    for token in MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8")):
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        first = token.map[0] + (1 if token.type == "fence" else 0)  # the fence's own line holds no code
        lines = token.content.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        current: Example | None = None  # the last command written with the prompt: the lines after it are its output
        index = 0
        while index < len(lines):
            line, number = lines[index], first + index + 1
            prompted = line.startswith("$ ")
            text = line[2:] if prompted else line
            while text.endswith("\\") and index + 1 < len(lines):  # a command that goes on on the next line
                index += 1
                text = text[:-1] + " " + lines[index].strip()
            index += 1
            if prompted or text.startswith(PROGRAM + " "):
                current = None
                if text.startswith(PROGRAM + " "):
                    example = _example(path, number, text)
                    if prompted:
                        example.output = []
                        current = example
                    found.append(example)
            elif current is not None:
                current.output.append(line)
    return found


def _example(path: Path, number: int, text: str) -> Example:
    command, comment = _split_comment(text)
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    operators = [word for word in lexer if set(word) <= set("();<>|&")]
    example = Example(path, number, command.strip(), shlex.split(command)[1:])
    if operators:
        example.notes.append(f"not one command ({' '.join(operators)}): write it so, or mark it '# not run: why'")
    comment = comment.strip()
    if comment.startswith("not run"):
        example.not_run = comment.removeprefix("not run").lstrip(":").strip() or "no reason given"
    elif match := EXIT.match(comment):
        example.exit_code = int(match.group(1))
    return example


def _split_comment(text: str) -> tuple[str, str]:
    """A shell line's command and its comment: the first `#` outside quotes that starts a word."""
    quote = None
    for position, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (position == 0 or text[position - 1].isspace()):
            return text[:position], text[position + 1:]
    return text, ""


def matches(shown: list[str], printed: str) -> bool:
    """Whether what the docs show is what was printed: trailing spaces and blank lines aside, `...` a wildcard."""
    shown_lines = _trimmed(shown)
    pattern = "".join("(?:[^\n]*\n)*?" if line.strip() == "..." else
                      ".*?".join(re.escape(part) for part in line.split("...")) + "\n" for line in shown_lines)
    return re.fullmatch(pattern, "".join(line + "\n" for line in _trimmed(printed.split("\n"))), re.DOTALL) is not None


def _trimmed(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def scratch_folder(root: Path) -> Path:
    """A folder as a keeper has it: the bundled games in content/ and the examples in examples/."""
    work = root / "work"
    shutil.copytree(ROOT / "content", work / "content")
    shutil.copytree(ROOT / "examples", work / "examples")
    (root / "tmp").mkdir()
    return work


def run(example: Example, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "PYTHONUNBUFFERED": "1",  # standard output and error in the order a terminal shows them
           "TMPDIR": str(cwd.parent / "tmp"), "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "generator", *example.argv], cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=120)


def parses(argv: list[str]) -> str | None:
    """Why the program's argument parser refuses these arguments, or None."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            cli._parser(help_shown=False).parse_args(cli._with_import_kind(argv))
    except SystemExit:
        return said.getvalue() or "refused"
    return None


EXAMPLES = {path: examples_in(path) for path in DOCS}


@pytest.mark.parametrize("path", [path for path, found in EXAMPLES.items() if found],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_the_examples_run_as_the_docs_say(path, tmp_path):
    work = scratch_folder(tmp_path)
    failures = []
    for example in EXAMPLES[path]:
        failures += [f"{example.where}: {note}" for note in example.notes]
        if example.not_run is not None:
            if refused := parses(example.argv):
                failures.append(f"{example.where}: `{example.command}` is not a command: {refused.strip()}")
            continue
        done = run(example, work)
        if done.returncode != example.exit_code:
            failures.append(f"{example.where}: `{example.command}` exited {done.returncode}, the docs say "
                            f"{example.exit_code} (mark another with '# exit N'); it printed:\n{done.stdout}")
        elif example.output is not None and not matches(example.output, done.stdout):
            failures.append(f"{example.where}: `{example.command}` printed\n{done.stdout}\nwhere the docs show\n"
                            + "\n".join(example.output))
    assert not failures, "\n\n".join(failures)


def test_the_docs_have_examples_and_few_are_not_run():
    every = [example for found in EXAMPLES.values() for example in found]
    not_run = [example.where for example in every if example.not_run is not None]
    assert len(every) >= 30, "the examples were not found: has the convention changed?"
    assert len(not_run) <= NOT_RUN_MAX, f"too many examples are not run ({len(not_run)}): {not_run}"
    shown = [example for example in every if example.output]
    assert len(shown) >= 10, "few examples show their output"


def test_the_readme_tours_the_six_commands():
    commands = {example.argv[0] for example in EXAMPLES[ROOT / "README.md"]}
    assert {"build", "check", "serve", "import", "diff", "new"} <= commands, commands


# --- The convention itself ------------------------------------------------------------------------------


def test_the_convention_reads_commands_outputs_exit_codes_and_what_is_not_run(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("Some text `nomic-archive build` inline is not run.\n\n"
                   "```console\n"
                   "$ nomic-archive check content/slips-example   # exit 1: the slips\n"
                   "content/slips-example/log.md:38: ...\n"
                   "...\n"
                   "$ git status\n"
                   "nothing to commit\n"
                   "```\n\n"
                   "    nomic-archive build -o 'my site'   # the site\n"
                   "    nomic-archive serve \\\n"
                   "        --port 0   # not run: a server\n"
                   "    nomic-archive check | head   # exit 1\n",
                   encoding="utf-8")
    check, build, serve, piped = examples_in(doc)
    assert (check.line, check.argv, check.exit_code, check.output) == (
        4, ["check", "content/slips-example"], 1, ["content/slips-example/log.md:38: ...", "..."])
    assert (build.line, build.argv, build.exit_code, build.output) == (11, ["build", "-o", "my site"], 0, None)
    assert (serve.argv, serve.not_run) == (["serve", "--port", "0"], "a server")
    assert piped.notes and piped.exit_code == 1


def test_an_ellipsis_stands_for_any_lines_or_any_text():
    printed = "built 373 pages for 6 games into site in 0.68s\nsecond\nthird\n"
    assert matches(["built 373 pages for 6 games into site in ...s", "...", "third", ""], printed)
    assert matches(["built ... pages ...", "second", "...", "third"], printed)
    assert not matches(["built 373 pages for 6 games into site in ...s"], printed)
    assert not matches(["...", "fourth"], printed)
    assert matches([], "")


def test_a_command_not_run_is_still_held_to_the_parser():
    assert parses(["serve", "--port", "0"]) is None
    assert parses(["import", "git", "CLONE", "--rules", "rules.md", "-o", "content/g"]) is None
    assert "unrecognized arguments: --prot" in parses(["serve", "--prot", "0"])
    assert "required" in parses(["import", "git", "--rules", "rules.md", "-o", "content/g"])  # (no CLONE)


def test_the_reference_gives_the_caps_of_generator_limits():
    """docs/guide/reference.md's table of caps is generator/limits.py's, each at its value."""
    reference = (ROOT / "docs" / "guide" / "reference.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(MAX_[A-Z_]+)` \| ([^|]+) \|", reference, re.MULTILINE))
    caps = {name: value for name, value in vars(limits).items() if name.startswith("MAX_")}
    assert set(rows) == set(caps)
    units = {"MB": 1 << 20, "KB": 1 << 10}
    for name, shown in rows.items():
        number, _, unit = shown.strip().partition(" ")
        assert int(number.replace(",", "")) * units.get(unit, 1) == caps[name], name


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_links_of_the_readme_and_the_guide_lead_somewhere():
    """Every relative link (and picture) of README.md and docs/guide/ names a file there is, and a heading of it
    where it names one (as GitHub makes a heading's anchor)."""
    broken = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]:
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            if not linked.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{doc.relative_to(ROOT)}: {target}: no such heading")
    assert not broken, "\n".join(broken)


def _anchors(path: Path) -> set[str]:
    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    titles = [tokens[index + 1].content for index, token in enumerate(tokens) if token.type == "heading_open"]
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-") for title in titles}


# --- --help ends with examples -------------------------------------------------------------------------

HELPS = [[], *([command] for command in cli.COMMAND_MODULES if command != "import"),
         *(["import", kind] for kind in cli.IMPORT_KINDS)]


@pytest.mark.parametrize("command", HELPS, ids=lambda command: " ".join(command) or "nomic-archive")
def test_every_commands_help_ends_with_examples_the_program_reads(command, capsys):
    """`import` itself lists its kinds, whose helps have the examples."""
    with pytest.raises(SystemExit) as done:
        cli.main([*command, "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    heading = re.search(r"^examples?:\n", shown, re.MULTILINE)
    assert heading, f"no examples at the end of:\n{shown}"
    examples = [line.strip() for line in shown[heading.end():].splitlines() if line.startswith("  nomic-archive ")]
    assert examples and all(line.split()[1] == (command or [line.split()[1]])[0] for line in examples), shown
    for line in examples:
        words = shlex.split(re.split(r"\s{2,}\(", line)[0])  # the command, without what it does in parentheses
        assert parses(words[1:]) is None, f"{line}: {parses(words[1:])}"
