"""The text report beside "rules as of", in headless Chromium: asked for at a point, shown, downloaded and copied
as `nomic-archive ruleset GAME@POINT` prints it; a decision taken again (`as-of.html?at=201A`, as Agora's 8221A)
is a point; axe-core finds nothing on the view; a screenshot kept in test-artifacts/."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from tests.e2e.conftest import serving
from tests.test_ruleset_command import write_game

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    content = tmp_path_factory.mktemp("report") / "content"
    write_game(content / "small")
    return content


@pytest.fixture(scope="module")
def site(content) -> Path:
    site = content.parent / "site"
    assert main(["build", str(content), "-o", str(site), "--cache-dir", str(content.parent / "cache")]) == 0
    return site


@pytest.fixture(scope="module")
def http_base(site):
    with serving(site) as base:
        yield base


def _errors(page) -> list[str]:
    page.errors = []
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page.errors


def _command(content: Path, point: str, form: str, capsys) -> str:
    assert main(["ruleset", f"{content / 'small'}@{point}", "--format", form]) == 0
    return capsys.readouterr().out


def test_a_decision_taken_again_is_a_point_of_rules_as_of(browser, site):
    """A re-decided proposal's "all the rules then" link answers with the rules, not "No entry is named"."""
    page = browser.new_page()
    errors = _errors(page)
    page.goto((site / "small" / "as-of.html").as_uri() + "?at=201A")
    page.wait_for_selector("#as-of-result #rule-105")
    assert "proposal 201A" in page.locator(".as-of-point").inner_text()
    assert page.locator("#as-of-result h2 a", has_text="Rule Changes").count() == 1  # 201A retitled rule 105
    assert page.locator(".problem").count() == 0 and errors == []
    page.close()


def test_the_report_of_a_point_is_shown_downloaded_and_copied_as_the_command_prints_it(
        browser, site, http_base, content, capsys, tmp_path):
    context = browser.new_context(accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=http_base.rstrip("/"))
    page = context.new_page()
    errors = _errors(page)
    loaded = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto(http_base + "small/as-of.html?at=2020-02-15")
    page.wait_for_selector("#as-of-result #rule-2001")
    assert not [url for url in loaded if "/report/" in url]  # nothing of the report before it is asked for
    page.get_by_role("button", name="Full report").click()
    page.wait_for_selector(".report-text:not([hidden])")
    full = _command(content, "2020-02-15", "full", capsys)
    assert page.locator(".report-text").text_content() == full
    assert page.get_by_role("button", name="Full report").get_attribute("aria-pressed") == "true"
    with page.expect_download() as download:
        page.get_by_role("link", name="Download as .txt").click()
    assert download.value.suggested_filename == "small-2020-02-15-full.txt"
    saved = tmp_path / "saved.txt"
    download.value.save_as(saved)
    assert saved.read_bytes() == full.encode("utf-8")
    page.get_by_role("button", name="Copy the text").click()
    page.wait_for_selector(".report-status:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == full
    # Another point asked for: the report shown is that point's, in the form last asked for
    page.get_by_role("button", name="Short report").click()
    page.fill("#at", "201")
    page.get_by_role("button", name="Show").click()
    short = _command(content, "201", "short", capsys)
    page.wait_for_function("text => document.querySelector('.report-text').textContent === text", arg=short)
    assert errors == []
    context.close()


def test_the_end_reports_are_linked_files(browser, site, content, capsys):
    page = browser.new_page()
    page.goto((site / "small" / "as-of.html").as_uri())
    href = page.get_by_role("link", name="the full report").get_attribute("href")
    assert (site / "small" / href).read_text(encoding="utf-8") == _command(content, "now", "full", capsys)
    page.close()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1100, "height": 900}])
def test_the_report_view_on_a_phone_and_wide_axe_finds_nothing(browser, site, artifacts, viewport):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install '.[test]'").Axe()
    context = browser.new_context(viewport=viewport)
    context.add_init_script(script=axe.axe_script)
    page = context.new_page()
    page.goto((site / "small" / "as-of.html").as_uri() + "?at=now")
    page.get_by_role("button", name="Full report").click()
    page.wait_for_selector(".report-text:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # the report scrolls alone
    violations = page.evaluate("() => axe.run({resultTypes: ['violations']}).then(r => r.violations)")
    assert [(v["id"], v["impact"], v["nodes"][0]["html"][:100]) for v in violations] == []
    page.screenshot(path=str(artifacts / f"report-view-{viewport['width']}.png"), full_page=False)
    context.close()
