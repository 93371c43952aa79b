"""The README's two pictures, taken in headless Chromium from the bundled games: a proposal's redline and a
Verification page with findings. They are written to docs/images/ only when asked:

    NOMIC_UPDATE_SCREENSHOTS=1 python -m pytest tests/e2e/test_screenshots.py

Otherwise the pictures are taken all the same, and the test checks that what makes each worth looking at is
in view and that the files in docs/images/ are there, of the same size.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass

import pytest

from generator.cli import main
from tests.helpers import ROOT

pytestmark = pytest.mark.browser

IMAGES = ROOT / "docs" / "images"
VIEWPORT = {"width": 1000, "height": 800}


@dataclass(frozen=True)
class Shot:
    file: str
    page: str  # in the site built from content/
    top: str | None  # scrolled to just above this element; None: the top of the page
    in_view: tuple[str, ...]  # elements that must be on the picture, whole


SHOTS = [
    # Proposal 301 of the LiveJournal game: "one week" struck, "interval" added, three times, and a sentence
    # rewritten, under the proposal's votes and result.
    Shot("redline.png", "livejournal-2007/proposals/301.html", "h1",
         ("h1", ".legend", "del >> nth=0", "ins >> nth=0", "ins >> nth=-1")),
    # The slips example's Verification page: its two findings, what the record says and what the replay
    # gives, and the judgment that overrides the arithmetic.
    Shot("verification.png", "slips-example/check.html", None,
         ("h1", "table", "text=Judgment 1")),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("screenshots")
    # One process: the browser's driver is running, and the pictures need no speed.
    assert main(["build", str(ROOT / "content"), "-o", str(root / "site"), "--jobs", "1", "--quiet"]) == 0
    return root / "site"


@pytest.mark.parametrize("shot", SHOTS, ids=lambda shot: shot.file)
def test_the_readme_pictures_show_a_redline_and_the_findings(browser, site, shot):
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, color_scheme="light",
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto((site / shot.page).as_uri())
        if shot.top:
            page.locator(shot.top).first.evaluate(
                "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 16)")
        for selector in shot.in_view:
            box = page.locator(selector).first.bounding_box()
            assert box is not None, f"{shot.file}: no {selector} on {shot.page}"
            assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"], (
                f"{shot.file}: {selector} is out of the picture: {box}")
        picture = page.screenshot()
    finally:
        context.close()
    assert _size(picture) == (VIEWPORT["width"], VIEWPORT["height"])
    path = IMAGES / shot.file
    if os.environ.get("NOMIC_UPDATE_SCREENSHOTS") == "1":
        IMAGES.mkdir(exist_ok=True)
        path.write_bytes(picture)
    else:
        assert path.is_file(), f"{path} is missing: take it with NOMIC_UPDATE_SCREENSHOTS=1 (see the README)"
        assert _size(path.read_bytes()) == _size(picture), f"{path} is not {VIEWPORT}: take it again"


def _size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])
