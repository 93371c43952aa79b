"""The built site in real headless Chromium, from file:// and over HTTP under a base URL."""
from __future__ import annotations

import re
from html import unescape

import pytest

from generator.cli import main
from tests.e2e.conftest import serving
from tests.helpers import ROOT, copy_games

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    content = copy_games(root, "mini", "hostile")
    assert main(["build", str(content), "-o", str(root / "public" / "site")]) == 0
    return root / "public" / "site"


@pytest.fixture(scope="module")
def http_base(site):
    """The site served under a base path (/site/), as a host might publish it."""
    with serving(site.parent) as base:
        yield base + "site/"


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.errors = []  # console errors and uncaught exceptions, checked by the tests
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()


def _follow_to_rule_history(page, start_url):
    page.goto(start_url)
    page.get_by_role("link", name="Mini", exact=True).first.click()
    page.get_by_role("link", name="Rules", exact=True).click()
    page.locator("#rule-301").get_by_role("link", name="history").click()
    assert page.locator("h1").inner_text() == "Rule 301"


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_links_lead_from_the_index_to_a_rule_history_with_a_redline(page, site, http_base, scheme):
    start = (site / "index.html").as_uri() if scheme == "file" else http_base + "index.html"
    _follow_to_rule_history(page, start)
    deleted = page.locator("del", has_text="unanimous among the eligible voters").first
    inserted = page.locator("ins", has_text="a simple majority").first
    assert "line-through" in deleted.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "underline" in inserted.evaluate("e => getComputedStyle(e).textDecorationLine")
    red, green, blue = inserted.evaluate(
        "e => getComputedStyle(e).color.match(/\\d+/g).slice(0, 3).map(Number)")
    assert red > 150 and green < 80 and blue < 80, (red, green, blue)
    assert page.locator(".legend").count() == 1
    # The hidden words that screen readers announce are in the text, but not shown.
    assert deleted.locator(".visually-hidden").inner_text() == "deleted:"
    assert page.errors == []


def test_search_finds_a_rule_and_opens_it(page, site):
    page.goto((site / "mini" / "proposals" / "index.html").as_uri())
    page.fill("#search-box", "simple majority")
    result = page.locator("#search-results a", has_text="Rule 301")  # found by its text
    result.first.wait_for(timeout=5000)
    result.first.click()
    assert page.locator("h1").inner_text() == "Rule 301"
    assert page.errors == []


def test_rules_as_of_a_past_proposal(page, site):
    page.goto((site / "mini" / "as-of.html").as_uri())
    page.wait_for_selector("#as-of-result #rule-301")
    page.goto((site / "mini" / "as-of.html").as_uri() + "?at=start")
    page.wait_for_selector("#as-of-result #rule-203")
    assert page.locator("#as-of-result #rule-301").count() == 0
    assert "unanimous" in page.locator("#as-of-result #rule-203").inner_text()
    assert page.errors == []


def _open(page, html) -> None:
    """Open a page and wait for it to load; a page an old rule number leads to forwards the reader at once,
    and then the page it leads to is the one loaded."""
    page.goto(html.as_uri(), wait_until="commit")
    if 'http-equiv="refresh"' in html.read_text(encoding="utf-8"):
        page.wait_for_url(lambda url: url != html.as_uri())
    page.wait_for_load_state("load")


def test_no_page_logs_a_console_error(page, site):
    # 404.html links from the host's root, as a host serves it: test_reader_browser.py opens it on one.
    for html in sorted(p for p in site.rglob("*.html") if p.name != "404.html"):
        _open(page, html)
        assert page.errors == [], html


def test_an_old_rule_number_forwards_to_the_rules_page(page, site):
    _open(page, site / "mini" / "rules" / "203.html")
    page.wait_for_url("**/mini/rules/301.html")
    assert page.locator("h1").inner_text() == "Rule 301"


def test_hostile_text_runs_no_script(page, site):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for html in sorted((site / "hostile").rglob("*.html")):
        _open(page, html)
        page.mouse.move(10, 10)
    assert dialogs == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rule_history_screenshots(browser, site, artifacts, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.goto((site / "mini" / "rules" / "301.html").as_uri())
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    dark_background = sum(int(v) for v in background[4:-1].split(",")[:3]) < 200
    assert dark_background == (scheme == "dark")
    page.screenshot(path=str(artifacts / f"rule-history-{scheme}.png"), full_page=True)
    context.close()


def test_theme_toggle_switches_and_remembers(browser, site):
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.goto((site / "mini" / "index.html").as_uri())
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    context.close()


@pytest.fixture(scope="module")
def bundled_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("bundled") / "site"
    assert main(["build", str(ROOT / "content"), "-o", str(site)]) == 0
    return site


def test_a_newcomer_reads_how_livejournal_rule_203_came_to_read_as_it_does(page, bundled_site, artifacts):
    """Issue 5's promise: from site/index.html to seed 002's red and struck words, by clicking."""
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto((bundled_site / "index.html").as_uri())
    page.get_by_role("link", name="ljnomic, 2007", exact=True).first.click()
    page.get_by_role("link", name="Rules", exact=True).click()
    # The old number still leads somewhere: its page forwards the reader to the rule's present page.
    page.goto(page.url.replace("rules/index.html", "rules/203.html"), wait_until="commit")
    page.wait_for_url("**/rules/310.html")
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == "Rule 310"
    assert "203 → 301 → 310" in page.locator(".lineage").inner_text()
    change = page.locator("article", has=page.get_by_role("link", name="Proposal 301"))
    struck = [t.removeprefix("deleted: ") for t in change.locator("del").all_text_contents()]
    added = [t.removeprefix("inserted: ") for t in change.locator("ins").all_text_contents()]
    assert struck.count("one week") == 3 and added.count("interval") == 3 and "being four days" in added
    assert "line-through" in change.locator("del").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert page.errors == []
    page.screenshot(path=str(artifacts / "livejournal-rule-310.png"), full_page=True)


def test_a_newcomer_follows_the_solitaire_game_from_its_home_to_a_turns_redline(page, bundled_site, artifacts):
    """Issue 14: the shortest win, its timeline drawn without scripts, and a subsumption's struck rule."""
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto((bundled_site / "index.html").as_uri())
    page.get_by_role("link", name="Solitaire Nomic 1.0", exact=True).first.click()
    assert "Won by Solo at turn 16" in page.locator("main").inner_text()
    page.get_by_role("link", name="Timeline", exact=True).first.click()
    chart = page.locator("figure.timeline svg")
    assert chart.bounding_box()["height"] > 300 and chart.locator("rect").count() == 14
    # Every label inside the drawing (none cut off at the left, no × past the right), text at page size.
    boxes = chart.evaluate("""svg => [...svg.querySelectorAll('text')].map(t => {
        const b = t.getBBox(); return [t.textContent, b.x, b.x + b.width]; })""")
    width = chart.evaluate("svg => svg.viewBox.baseVal.width")
    assert [text for text, x1, x2 in boxes if x1 < 0 or x2 > width] == []
    assert chart.evaluate("svg => svg.getBoundingClientRect().width") == width  # drawn at 1:1
    page.screenshot(path=str(artifacts / "solitaire-timeline.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 900})  # a phone: the drawing scrolls inside its region
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    page.set_viewport_size({"width": 1000, "height": 900})
    page.get_by_role("link", name="Turns", exact=True).first.click()
    page.get_by_role("link", name="14", exact=True).click()
    assert page.locator("h1").inner_text() == "Turn 14"
    struck = page.locator("article", has=page.get_by_role("link", name="Rule 28")).locator("del")
    assert "Rules may not be changed" in struck.first.inner_text()
    for html in sorted((bundled_site / "solitaire").rglob("*.html")):
        page.goto(html.as_uri())
    assert page.errors == []


def test_a_date_in_parentheses_sits_against_them(page, bundled_site, artifacts):
    """"until proposal 309 (2007-03-05)", never "( 2007-03-05)": a rule's history dates each revision's end."""
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto((bundled_site / "livejournal-2007" / "rules" / "310.html").as_uri())
    gaps = page.evaluate("""() => [...document.querySelectorAll('time')].flatMap(time => {
        const before = time.previousSibling;
        if (!before || before.nodeType !== Node.TEXT_NODE || !before.data.endsWith('(')) return [];
        const range = document.createRange();
        range.setStart(before, before.data.length - 1);
        range.setEnd(before, before.data.length);
        return [time.getBoundingClientRect().left - range.getBoundingClientRect().right];
    })""")
    assert gaps and all(gap < 1 for gap in gaps), gaps
    page.screenshot(path=str(artifacts / "livejournal-rule-310-dates.png"), full_page=True)


@pytest.mark.parametrize("path, shows", [
    ("index.html", "Nomic, invented by Peter Suber in 1982, is a game whose moves change its own rules"),
    ("livejournal-2007/index.html", "mike2600 (left)"),
    ("slips-example/check.html", "proposal number"),
    ("bureau-2024/proposals/501.html", "Recorded in bureau-2024/log.md."),
])
def test_the_sites_words_as_a_reader_sees_them(page, bundled_site, artifacts, path, shows):
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto((bundled_site / path).as_uri())
    text = page.locator("body").inner_text()
    assert shows in text
    assert ("Judge's ruling" in page.locator("footer").inner_text()) == path.startswith("slips-example")
    page.screenshot(path=str(artifacts / ("words-" + path.replace("/", "-").replace(".html", ".png"))),
                    full_page=True)


def test_a_page_at_a_games_former_address_takes_the_reader_to_it(page, tmp_path):
    """A folder named `Ørjan` was at `rjan/` before its letters were spelled: a link kept from then still arrives."""
    content = copy_games(tmp_path, "mini")
    (content / "mini").rename(content / "Ørjan")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    page.goto((site / "rjan/log.html").as_uri(), wait_until="commit")
    page.wait_for_url((site / "Orjan/log.html").as_uri())
    page.wait_for_load_state("load")
    title = re.search(r"<title>(.*?)</title>", (site / "Orjan/log.html").read_text())[1]
    assert page.title() == unescape(title) and page.locator("h1").count() == 1
    assert page.errors == []
