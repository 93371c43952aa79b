"""Property: an archive written with no Version 1.2 syntax gives exactly the results and findings it gave
before 1.2 was built (FORMAT.md, Version 1.2: "A valid 1.1 archive keeps its meaning").

The golden (tests/data/v11/check.json) is `check --format json` of the bundled games and of synthetic games,
each as written and with recorded facts slipped by a seeded hand, made by the program as it was before 1.2
(`python -m tests.test_v11_unchanged` writes it again; do so only when a 1.1 meaning is meant to change).
"""
from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.commands.synth import synthesize, synthesize_weighted

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "v11" / "check.json"
BUNDLED = ("bureau-2024", "livejournal-2007", "slips-example", "suber-1982", "wiki-2005")
SEEDS = range(6)
SLIPS = range(5)  # variants per seed: 0 as written, the others with slipped facts
SLIPPABLE = re.compile(r"^(Scores|Result|Die|Votes|Points|Date|## Proposal) ?:? ?")


def _slip(text: str, rng: random.Random, count: int) -> str:
    """`count` recorded facts changed, as a careless keeper would: a number off by one, a result or a vote
    turned round."""
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if SLIPPABLE.match(line)]
    for index in rng.sample(candidates, min(count, len(candidates))):
        line = lines[index]
        if line.startswith("Result:"):
            line = line.replace("adopted", "defeat\0").replace("defeated", "adopted").replace("defeat\0", "defeated")
        elif line.startswith("Votes:") and "for " in line:
            line = line.replace("for ", "against ", 1)
        else:
            digits = list(re.finditer(r"\d+", line))
            if digits:
                match = digits[rng.randrange(len(digits))]
                line = line[:match.start()] + str(int(match.group()) + 1).zfill(len(match.group())) + line[match.end():]
        lines[index] = line
    return "\n".join(lines)


def _synthetic(folder: Path, seed: int, slips: int) -> Path:
    game = folder / f"synth-{seed}-{slips}"
    if seed % 2:
        synthesize_weighted(game, 40, seed=seed)
    else:
        synthesize(game, 60, seed=seed, per_file=25 if seed % 4 == 2 else None)
    rng = random.Random(seed * 100 + slips)
    for log in sorted(game.rglob("*.md")):
        if log.name != "rules.md" and "snapshots" not in log.parts and slips:
            log.write_text(_slip(log.read_text(encoding="utf-8"), rng, slips), encoding="utf-8")
    return game


def _report(game: Path, capsys) -> dict:
    """check's JSON report, without `path` (a finding's file as named from the working directory, which varies
    with where the tests run; `file` says the same), nor `notes` where there are none (a field added since: a
    1.1 archive gets none)."""
    code = main(["check", str(game), "--format", "json"])
    out, err = capsys.readouterr()
    report = json.loads(out) if out.strip() else None
    for game_report in report["games"] if report else ():
        for item in game_report["findings"] + game_report["overrides"]:
            item.pop("path", None)
        if game_report.get("notes") == []:
            del game_report["notes"]
    return {"exit": code, "report": report, "stderr": err}


def test_the_bundled_games_check_as_before(capsys) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for name in BUNDLED:
        assert _report(ROOT / "content" / name, capsys) == golden[name], name


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.sampled_from(SEEDS), slips=st.sampled_from(SLIPS))
def test_a_synthetic_game_checks_as_before(seed: int, slips: int, tmp_path_factory, capsys) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    game = _synthetic(tmp_path_factory.mktemp("v11"), seed, slips)
    assert _report(game, capsys) == golden[game.name]


class _Capture:
    """capsys for the writer run outside pytest."""

    def readouterr(self):
        out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
        sys.stdout.seek(0), sys.stdout.truncate(), sys.stderr.seek(0), sys.stderr.truncate()
        return out, err


def _write_golden() -> None:
    import io
    import tempfile
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        capture, golden = _Capture(), {}
        for name in BUNDLED:
            golden[name] = _report(ROOT / "content" / name, capture)
        with tempfile.TemporaryDirectory() as folder:
            for seed in SEEDS:
                for slips in SLIPS:
                    game = _synthetic(Path(folder), seed, slips)
                    golden[game.name] = _report(game, capture)
                    shutil.rmtree(game)
    finally:
        sys.stdout, sys.stderr = real
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _write_golden()
