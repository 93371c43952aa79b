"""`nomic-archive serve` for real: a subprocess, headless Chromium, files saved while the page is open."""
from __future__ import annotations

import contextlib
import http.client
import re
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.test_serve import edit, write_game

pytestmark = pytest.mark.browser
WAIT_MS = 10_000
HOSTILE = '<img src=x onerror="document.title=\'pwned\'">'


@contextlib.contextmanager
def serving(content: Path, said: list[str] | None = None):
    """The url of `serve` running on `content` on a free port, stopped with Ctrl-C (SIGINT) afterwards; what it
    said on the terminal is put in `said`."""
    process = subprocess.Popen([sys.executable, "-m", "generator", "serve", str(content), "--port", "0"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([process.stdout], [], [], 30)
        line = process.stdout.readline() if ready else ""
        found = re.match(r"serving at (http://127\.0\.0\.1:\d+/)$", line.strip())
        assert found, f"no URL printed: {line!r}"
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=10)
        finally:
            process.kill()
        errors = process.stderr.read()
    assert code == 0 and "Traceback" not in errors, errors
    if said is not None:
        said.extend(errors.splitlines())


@pytest.fixture
def served(tmp_path):
    """(url, game folder) of `serve` running on a free port."""
    game = write_game(tmp_path / "content")
    with serving(game.parent) as url:
        yield url, game


def test_a_game_half_written_at_the_start_is_its_problem_and_the_others_are_served(browser, tmp_path, artifacts):
    """A keeper with three games, one game.toml half-written: the other two are browsed as ever, with nothing
    over them; the home page's entry and the pages of the broken one name the problem at file:line; the terminal
    says it once; the save that mends it brings the game back, the open page reloaded."""
    content = tmp_path / "content"
    for name in ("alpha", "beta", "gamma"):
        write_game(content, name)
    edit(content / "beta" / "game.toml", 'title = "Tiny"', 'title = "Beta')
    said: list[str] = []
    with serving(content, said) as url:
        page = browser.new_page()
        page.goto(url)
        card = page.locator("li.card", has_text="beta")
        assert "beta/game.toml:1:14: not valid TOML" in card.inner_text()
        page.screenshot(path=str(artifacts / "serve-unreadable-game-home.png"), full_page=True)
        page.goto(url + "gamma/rules/201.html")
        assert "Players take turns in clockwise order." in page.locator("main").inner_text()
        page.wait_for_timeout(500)  # (long enough for the stream's first event to have come)
        assert page.locator("#nomic-error-overlay").count() == 0
        page.goto(url + "beta/rules/201.html")
        assert page.locator("h1").inner_text() == "beta cannot be read"
        assert "beta/game.toml:1:14: not valid TOML" in page.locator("main").inner_text()
        page.screenshot(path=str(artifacts / "serve-unreadable-game.png"))
        edit(content / "beta" / "game.toml", 'title = "Beta', 'title = "Beta"')
        page.wait_for_selector("main :text('Players take turns in clockwise order.')", timeout=WAIT_MS)
        page.close()
    assert [line for line in said if "beta/game.toml" in line] == [
        f"{content / 'beta' / 'game.toml'}:1:14: not valid TOML: Illegal character '\\n'"
        "; a quoted text is not closed on its line: end it with the quote it opens with"]


def test_saves_reload_the_page_and_errors_show_in_an_overlay(browser, served, artifacts):
    url, game = served
    page = browser.new_page()
    page.goto(url + "tiny/rules/201.html")
    assert "Players take turns in clockwise order." in page.locator("main").inner_text()

    edit(game / "rules.md", "in clockwise order", "in counter-clockwise order")
    page.wait_for_selector("main :text('counter-clockwise order')", timeout=WAIT_MS)

    edit(game / "log.md", "## Proposal 302: Snacks", f"## Propsal 302: {HOSTILE}")
    overlay = page.wait_for_selector("#nomic-error-overlay", timeout=WAIT_MS)
    assert "tiny/log.md:13" in overlay.inner_text()
    assert page.locator("#nomic-error-overlay .nomic-line").inner_text() == f"13 | ## Propsal 302: {HOSTILE}"
    assert page.locator("#nomic-error-overlay img").count() == 0 and page.title() != "pwned"
    page.screenshot(path=str(artifacts / "serve-error-overlay.png"))

    # The overlay can be put away to read the last good page, with Escape or its button.
    page.keyboard.press("Escape")
    assert page.locator("#nomic-error-overlay").count() == 0
    page.reload()
    page.wait_for_selector("#nomic-error-overlay", timeout=WAIT_MS)
    page.click("#nomic-error-close")
    assert page.locator("#nomic-error-overlay").count() == 0
    page.reload()
    page.wait_for_selector("#nomic-error-overlay", timeout=WAIT_MS)

    # A page opened while the site is broken shows the overlay too.
    other = browser.new_page()
    other.goto(url + "tiny/index.html")
    other.wait_for_selector("#nomic-error-overlay :text('tiny/log.md:13')", timeout=WAIT_MS)

    edit(game / "log.md", f"## Propsal 302: {HOSTILE}", "## Proposal 302: Snacks")
    for each in (page, other):
        each.wait_for_selector("#nomic-error-overlay", state="detached", timeout=WAIT_MS)
    assert "counter-clockwise order" in page.locator("main").inner_text()
    page.close()
    other.close()


@pytest.mark.parametrize("raw_path", ["/../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                                      "/..%2f..%2f..%2fetc%2fpasswd", "//etc/passwd", "/C:/Windows/win.ini",
                                      "/tiny/../../../../etc/passwd", "/static/..%5c..%5c..%5cetc%5cpasswd"])
def test_paths_outside_the_site_are_refused_over_http(served, raw_path):
    url, _ = served
    port = int(url.rsplit(":", 1)[1].strip("/"))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.putrequest("GET", raw_path, skip_accept_encoding=True)  # sent as written, not normalised
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    assert response.status in (403, 404) and b"root:" not in body


def test_more_pages_than_a_browser_opens_connections_to_a_host_all_load_and_all_reload(browser, served):
    """Nine pages of the site open in one browser (which opens at most six connections to a host over
    HTTP/1.1): each loads, each reloads after a save, and the overlay of a broken save shows on each, one of
    them listening to the event stream for all."""
    url, game = served
    context = browser.new_context()
    paths = ["tiny/index.html", "tiny/rules/201.html", "tiny/log.html", "tiny/proposals/301.html",
             "tiny/proposals/302.html", "tiny/proposals/303.html", "tiny/rules/index.html", "tiny/check.html",
             "index.html"]
    pages = []
    for path in paths:
        page = context.new_page()
        page.goto(url + path, timeout=WAIT_MS)  # the seventh waited for ever with a stream for each page
        pages.append(page)
    for page in pages:
        page.evaluate("window.notReloaded = true")
    edit(game / "rules.md", "in clockwise order", "in counter-clockwise order")
    for page in pages:
        page.wait_for_function("!window.notReloaded && document.readyState === 'complete'", timeout=WAIT_MS)
    assert "counter-clockwise order" in pages[1].locator("main").inner_text()
    edit(game / "log.md", "## Proposal 302: Snacks", "## Propsal 302: Snacks")
    for page in pages:
        page.wait_for_selector("#nomic-error-overlay :text('tiny/log.md:13')", timeout=WAIT_MS)
    late = context.new_page()  # opened while the site is broken: told by the page that listens
    late.goto(url + "tiny/rules/202.html", timeout=WAIT_MS)
    late.wait_for_selector("#nomic-error-overlay :text('tiny/log.md:13')", timeout=WAIT_MS)
    edit(game / "log.md", "## Propsal 302: Snacks", "## Proposal 302: Snacks")
    for page in pages + [late]:
        page.wait_for_selector("#nomic-error-overlay", state="detached", timeout=WAIT_MS)
    context.close()
