"""The bundled site as its readers use it (issue 17): phones, accessibility, views with URLs, search, the
compare picker, the 404 page on a real host, and screenshots kept in test-artifacts/ to be looked at.

One browser for the session (conftest.py) and one page per kind of check, reused across the site's pages.
"""
from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path

import pytest

from generator.cli import main
from generator.pipeline import replay_games
from generator.engine.solitaire import SolitaireReplay
from generator.diffing.compare import compare
from generator.site.compare_pages import comparison_page
from generator.site.pages import game_plan
from generator.site.render import make_environment, draw_all
from tests.helpers import ROOT

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("reader") / "site"
    assert main(["build", str(ROOT / "content"), "-o", str(site)]) == 0
    return site


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    yield page
    context.close()


def _kind(path: Path) -> str:
    """The kind of page, for one sample of each: proposals/301.html and proposals/302.html are one kind."""
    name = path.as_posix()
    if "/players/" in name:  # a player's page, named by the player
        return "players/NAME.html"
    return re.sub(r"[^/]*/", "", re.sub(r"\d[\w-]*", "N", name), count=1) if "/" in name else name


def _axe():
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install '.[test]'")
    return axe.Axe()


# axe-core started on a page without waiting for it, and its violations read later: one page is audited while
# the next one loads in another tab.
_START_AXE = "() => { window.nomicAxe = axe.run({resultTypes: ['violations']}); }"
_AXE_VIOLATIONS = "() => window.nomicAxe.then(results => results.violations)"


def test_no_page_scrolls_sideways_on_a_phone_and_axe_finds_nothing_serious(browser, site):
    """Every page of the bundled site at 390 px: no sideways scroll, no serious or critical axe-core
    violation; and on one page of each kind, no moderate one either.

    Every page is audited in full; what is saved is the wait: axe-core is loaded by the browser as each page
    starts (an init script, not 500 kB sent over the wire to every page), and two tabs take turns, one loading
    the next page while axe-core audits the other."""
    axe = _axe()
    # 404.html links from the host's root: test_the_404_page_works_at_any_depth_on_a_real_host checks it.
    # A page an old rule number leads to forwards the reader at once to a page checked here.
    pages = sorted(p for p in site.rglob("*.html")
                   if p.name != "404.html" and 'http-equiv="refresh"' not in p.read_text(encoding="utf-8"))
    assert len(pages) > 200
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(script=axe.axe_script)
    tabs = [context.new_page() for _ in range(2)]
    for tab in tabs:
        tab.errors = []
        tab.on("pageerror", lambda error, tab=tab: tab.errors.append(str(error)))
        tab.on("console", lambda message, tab=tab: message.type == "error" and tab.errors.append(message.text))
    sideways, serious, moderate, sampled, audited = [], [], [], set(), []
    auditing: list[tuple] = []  # (tab, page, the tab's errors before axe-core ran)

    def finish(tab, relative: Path, ours: int) -> None:
        violations = tab.evaluate(_AXE_VIOLATIONS)
        del tab.errors[ours:]  # axe-core's own requests for the stylesheets, refused from file://
        for violation in violations:
            where = f"{relative}: {violation['id']} ({len(violation['nodes'])}) {violation['nodes'][0]['html'][:120]}"
            if violation["impact"] in ("serious", "critical"):
                serious.append(where)
            elif violation["impact"] == "moderate" and _kind(relative) not in sampled:
                moderate.append(where)
        sampled.add(_kind(relative))
        audited.append(relative)

    for number, html in enumerate(pages):
        tab = tabs[number % len(tabs)]
        if len(auditing) == len(tabs):
            finish(*auditing.pop(0))
        relative = html.relative_to(site)
        tab.goto(html.as_uri())
        width = tab.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            sideways.append(f"{relative}: {width} px wide")
        auditing.append((tab, relative, len(tab.errors)))
        tab.evaluate(_START_AXE)
    while auditing:
        finish(*auditing.pop(0))
    context.close()
    assert sorted(audited) == [p.relative_to(site) for p in pages]  # each page audited, in full
    assert sideways == [] and serious == [] and moderate == []
    assert len(sampled) >= 15 and [error for tab in tabs for error in tab.errors] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_sample_of_each_kind_passes_axe_in_both_themes(browser, site, scheme):
    axe = _axe()
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    seen, problems = set(), []
    for html in sorted(p for p in site.rglob("*.html") if p.name != "404.html"):
        kind = _kind(html.relative_to(site))
        if kind in seen:
            continue
        seen.add(kind)
        page.goto(html.as_uri())
        problems += [f"{html.relative_to(site)}: {v['id']} {v['impact']}" for v in axe.run(page).response["violations"]
                     if v["impact"] in ("moderate", "serious", "critical")]
    context.close()
    assert problems == []


def test_inputs_and_buttons_are_big_enough_to_tap(site, phone):
    def all_big_enough(page):
        shown = [control for control in phone.locator("input, button").all() if control.is_visible()]
        assert shown, page
        for control in shown:  # (a control not shown yet, as the report's before it is asked for, is not tapped)
            box = control.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, (page, control.evaluate("e => e.outerHTML"))
            assert control.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 16

    for page in ("wiki-2005/compare/index.html", "wiki-2005/as-of.html", "index.html"):
        phone.goto((site / page).as_uri())
        all_big_enough(page)
    # The text report's controls, once the reader asks for it.
    phone.goto((site / "wiki-2005/as-of.html").as_uri())
    phone.click("button[data-report=full]")
    phone.wait_for_selector(".report-copy", state="visible")
    all_big_enough("wiki-2005/as-of.html, its report asked for")


def test_rules_as_of_a_point_comes_from_the_url_and_survives_a_reload(site, phone):
    phone.goto((site / "livejournal-2007" / "as-of.html").as_uri() + "?at=301")
    phone.wait_for_selector("#as-of-result #rule-301")
    assert "after proposal 301" in phone.locator(".as-of-point").inner_text()
    assert phone.locator("#as-of-result #rule-203").count() == 0
    # By date, through the form: the URL follows, and a reload restores the view.
    phone.fill("#at", "2007-01-01")
    phone.click("form.point-form button")
    phone.wait_for_selector("#as-of-result #rule-203")
    assert phone.url.endswith("as-of.html?at=2007-01-01")
    phone.reload()
    phone.wait_for_selector("#as-of-result #rule-203")
    assert phone.input_value("#at") == "2007-01-01" and "one week" in phone.locator("#as-of-result #rule-203").inner_text()
    phone.go_back()
    phone.wait_for_selector("#as-of-result #rule-301")
    phone.goto((site / "livejournal-2007" / "as-of.html").as_uri() + "?at=999")
    assert "No entry is named" in phone.locator("#as-of-result .problem").inner_text()
    assert phone.errors == []


def test_rules_as_of_any_point_of_a_long_game_are_the_replays_own(phone, tmp_path, monkeypatch):
    """Points pieces of 4 entries with a keyframe every third piece or more (as many as the rules in force
    fill, 4 to a piece), so that the rules as of a point come from a keyframe and the pieces after it: every
    point shows the rules the replay had in force there."""
    from generator.site import points
    monkeypatch.setattr(points, "PER_PIECE", 4)
    monkeypatch.setattr(points, "KEYFRAME", 3)
    game = tmp_path / "content" / "long"
    assert main(["synth", str(game), "--proposals", "40", "--seed", "3"]) == 0
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site), "--cache-dir", str(tmp_path / "cache")]) == 0
    (replay,) = replay_games(game.parent)
    points_shown = 0
    for index in [-1, 0, 3, 4, 11, 12, 13, 25, len(replay.steps) - 1]:
        phone.goto((site / "long" / "as-of.html").as_uri() + f"?at={'start' if index < 0 else f'entry-{index + 1}'}")
        phone.wait_for_selector("#as-of-result article", timeout=WAIT_MS)
        shown = phone.eval_on_selector_all("#as-of-result article[id^=rule-]", "els => els.map(e => +e.id.slice(5))")
        assert sorted(shown) == [v.number for v in replay.rules_at(index)], index  # shown by class, then number
        points_shown += 1
    assert points_shown == 9 and phone.errors == []


def test_compare_points_come_from_the_url_or_the_hash_and_survive_a_reload(site, phone):
    index = (site / "livejournal-2007" / "compare" / "index.html").as_uri()
    phone.goto(index + "#from=start&to=301")
    phone.wait_for_selector("#compare-result .tally")
    assert phone.locator("#compare-result .tally").inner_text() == "1 renumbered and changed; 29 unchanged."
    phone.fill("#from", "301")
    phone.fill("#to", "now")
    phone.click("form.point-form button")
    phone.wait_for_function("document.querySelector('#compare-result .tally').textContent.includes('29 unchanged') === false")
    assert "?from=301&to=now" in phone.url
    tally = phone.locator("#compare-result .tally").inner_text()
    phone.reload()
    phone.wait_for_selector("#compare-result .tally")
    assert phone.locator("#compare-result .tally").inner_text() == tally
    assert phone.input_value("#from") == "301" and phone.errors == []


def test_a_judgment_named_by_its_case_is_a_point_the_picker_reads(phone, tmp_path):
    """Format 1.2: proposal 302's "against the rules before it" names the judgment before it by its case
    (`?from=judgment-cfj-4154`); the picker reads that name, and the rules as of it, as `diff` does."""
    site = tmp_path / "site"
    assert main(["build", str(ROOT / "tests/cases/engine/v12-judgment-by-case"), "-o", str(site)]) == 0
    game = site / "v12-judgment-by-case"
    link = re.search(r'href="(\.\./compare/index\.html\?from=judgment-cfj-4154[^"]*)"',
                     (game / "proposals/302.html").read_text(encoding="utf-8"))
    assert link, "proposal 302 links to the rules before it by the judgment's case"
    phone.goto((game / "compare/index.html").as_uri() + "?" + link.group(1).replace("&amp;", "&").split("?")[1])
    phone.wait_for_selector("#compare-result .tally")
    (replay,) = replay_games(ROOT / "tests/cases/engine/v12-judgment-by-case")  # CFJ 4154 is its third entry
    expected = compare(replay.rules_at(2), replay.rules_at(3), by_identity=True).tally()
    assert phone.locator("#compare-result .tally").inner_text() == expected.capitalize() + "."
    assert phone.input_value("#from") == "judgment-cfj-4154" and "No entry is named" not in phone.content()
    phone.goto((game / "as-of.html").as_uri() + "?at=judgment-cfj-4153")
    phone.wait_for_selector("#as-of-result #rule-301")  # rule 202, amended by proposal 301
    assert "after judgment CFJ 4153" in phone.locator(".as-of-point").inner_text()
    assert "one or more rule-changes" in phone.locator("#as-of-result #rule-301").inner_text()
    assert phone.errors == []


def _normalized(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


def test_the_pickers_redline_is_the_static_comparisons_own(site, phone, tmp_path):
    """For start-now and for what every rule-changing entry of the bundled games did (the build no longer
    writes those, but draws them the same way on request: comparison_page), the picker given the same two
    points shows the same tally, headings, summaries and redlines, node for node."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    for replay in replay_games(ROOT / "content"):
        if isinstance(replay, SolitaireReplay):
            continue
        plan = game_plan(replay)
        spans = [(index - 1, index) for index in sorted(plan.history.revisions_by_step)]
        pages = [comparison_page(plan, before, after) for before, after in spans]
        for page in pages:
            page.context.setdefault("site_title", "Nomic archives")
        draw_all(make_environment(), pages, copy)
    compared = 0
    for page in sorted(copy.glob("*/compare/*.html")):
        if page.stem == "index":
            continue
        before, after = ("start", "now") if page.stem == "start-now" else re.fullmatch(
            r"(start|judgment-\d+|entry-\d+|\d+(?:-\d+)?)-(judgment-\d+|entry-\d+|\d+(?:-\d+)?)", page.stem).groups()
        phone.goto(page.as_uri())
        static = _normalized(phone.inner_html("main .comparison"))
        phone.goto((page.parent / "index.html").as_uri() + f"?from={before}&to={after}")
        phone.wait_for_selector("#compare-result .comparison")
        assert _normalized(phone.inner_html("#compare-result .comparison")) == static, page
        compared += 1
    assert compared >= 40 and phone.errors == []


def test_search_puts_the_rule_first_and_works_from_the_keyboard(site, phone):
    phone.goto((site / "suber-1982" / "index.html").as_uri())
    phone.fill("#search-box", "203")
    phone.wait_for_selector("#search-results a")
    assert phone.locator("#search-results a .title").first.inner_text() == "Rule 305 (was 203)"
    phone.goto((site / "wiki-2005" / "index.html").as_uri())
    phone.fill("#search-box", "203")
    phone.wait_for_selector("#search-results a")
    titles = phone.locator("#search-results a .title").all_inner_texts()
    assert titles[0] == "Rule 203" and len(titles) > 1
    snippet = phone.locator("#search-results a small").first.inner_text()
    assert "#" not in snippet and "**" not in snippet and len(snippet) < 300
    assert phone.locator("#search-results mark").first.inner_text() == "203"
    # Scoped to this game, with a way to widen.
    assert all("wiki-2005/" in href for href in phone.locator("#search-results a").evaluate_all(
        "links => links.map(a => a.href)"))
    phone.get_by_role("button", name="Search all games").click()
    phone.wait_for_function("[...document.querySelectorAll('#search-results a')].some(a => !a.href.includes('wiki-2005/'))")
    # Keyboard: down into the results, Escape back out, Enter opens the first.
    phone.focus("#search-box")
    phone.keyboard.press("ArrowDown")
    assert phone.evaluate("document.activeElement.closest('#search-results') !== null")
    phone.keyboard.press("Escape")
    assert phone.evaluate("document.activeElement.id") == "search-box"
    assert phone.locator("#search-results li").count() == 0
    phone.fill("#search-box", "misprint bounty")
    phone.wait_for_selector("#search-results a")
    phone.keyboard.press("Enter")
    phone.wait_for_load_state()
    assert "303" in phone.locator("h1").inner_text() and phone.errors == []


def test_no_page_loads_a_data_piece_before_the_reader_asks(browser, site):
    """Search, as-of and compare data load on first use: a page loads site.js alone until asked."""
    page = browser.new_page()
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto((site / "wiki-2005" / "rules" / "index.html").as_uri())
    assert [url for url in loaded if url.endswith(".js")] == [(site / "static" / "site.js").as_uri()]
    page.fill("#search-box", "scores")
    page.wait_for_selector("#search-results a")
    pieces = sorted(url.rsplit("/", 2)[-2] + "/" + url.rsplit("/", 1)[-1] for url in loaded if "/search/" in url)
    assert pieces == ["search/docs-0.js", "search/index.js", "search/terms-0.js"]
    page.close()


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """The site built with --base-url and served under /nomic/ by a host that answers every missing
    address with 404.html, as static hosts do."""
    root = tmp_path_factory.mktemp("host")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    base = f"http://127.0.0.1:{server.server_address[1]}/nomic/"
    assert main(["build", str(ROOT / "content"), "-o", str(root / "nomic"), "--base-url", base]) == 0

    class Host(http.server.SimpleHTTPRequestHandler):
        def send_error(self, code, message=None, explain=None):
            if code != 404:
                return super().send_error(code, message, explain)
            body = (root / "nomic" / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server.RequestHandlerClass = functools.partial(Host, directory=str(root))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base
    server.shutdown()
    server.server_close()


def test_the_404_page_works_at_any_depth_on_a_real_host(browser, host):
    page = browser.new_page()
    response = page.goto(host + "wiki-2005/rules/no/such/page.html")
    assert response.status == 404 and page.locator("h1").inner_text() == "Not found"
    # Styled: the stylesheet loaded from the site's address, not from the missing page's folder.
    assert page.evaluate("getComputedStyle(document.querySelector('header.site')).borderBottomStyle") == "solid"
    # Skip to content stays on the page (a <base> would send it to the root).
    assert page.eval_on_selector("a.skip", "a => a.href") == host + "wiki-2005/rules/no/such/page.html#main"
    problems = [v["id"] for v in _axe().run(page).response["violations"] if v["impact"] != "minor"]
    assert problems == []
    page.get_by_role("link", name="Back to the games").click()
    assert page.url == host + "index.html" and page.locator("h1").inner_text() == "Nomic archives"
    page.close()


def test_screenshots_of_the_chart_and_a_rule_page_on_a_phone(browser, site, artifacts):
    """Kept in test-artifacts/ to be looked at; here, that the chart's labels stay inside it and apart."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme)
        page = context.new_page()
        page.goto((site / "wiki-2005" / "scores.html").as_uri())
        chart = page.locator("svg.chart-narrow")
        assert chart.is_visible() and not page.locator("svg.chart-wide").is_visible()
        boxes = chart.evaluate("""svg => [...svg.querySelectorAll('text')].map(t => {
            const b = t.getBBox(); return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height]; })""")
        width, height = chart.evaluate("svg => [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height]")
        for text, x1, y1, x2, y2 in boxes:
            assert x1 >= 0 and y1 >= 0 and x2 <= width and y2 <= height, text
        labels = [b for b in boxes if b[1] > chart.evaluate("svg => svg.querySelector('line.axis').x2.baseVal.value")]
        for n, a in enumerate(labels):
            for b in labels[n + 1:]:
                assert a[4] <= b[2] or b[4] <= a[2], (a[0], b[0])  # no two end labels overlap
        font = chart.evaluate("svg => parseFloat(getComputedStyle(svg.querySelector('text')).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
        assert font >= 11  # text about the page's size, not a shrunk picture's
        page.locator("figure.chart").screenshot(path=str(artifacts / f"chart-390-{scheme}.png"))
        page.goto((site / "livejournal-2007" / "rules" / "310.html").as_uri())
        page.screenshot(path=str(artifacts / f"rule-310-390-{scheme}.png"), full_page=True)
        context.close()


def test_the_header_has_one_height_on_every_game(browser, site):
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 800})
        heights = set()
        for log in sorted(site.glob("*/log.html")):
            page.goto(log.as_uri())
            heights.add(page.evaluate("document.querySelector('header.site').getBoundingClientRect().height"))
        page.close()
        assert len(heights) == 1, (width, heights)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_players_page_and_a_part_of_their_ballots_pass_axe(browser, tmp_path, small_parts, scheme):
    """A player's page with every section (aliases, proposals, co-authored, judgments, score, ballots in parts),
    and the second part of their ballots: no axe-core violation of any impact, nothing wider than a phone."""
    axe = _axe()
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests/cases/engine/aliases", content / "aliases")
    log = content / "aliases/log.md"
    written = log.read_text(encoding="utf-8")
    log.write_text(written.replace("Proposer: Bobby Tables\n", "Proposer: Bobby Tables\nCo-authors: Caz\n")
                   + "".join(f"\n## Proposal {306 + n}\nProposer: Bob\nDate: 1990-02-0{1 + n}\nVotes: for Alice, Caz"
                             f"\nResult: adopted\nTurn: extra\n" for n in range(6))
                   + "\n## Judgment 1: Is it so?\nJudge: Caz\nDate: 1990-03-01\n", encoding="utf-8")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) in (0, 1)
    context = browser.new_context(color_scheme=scheme, viewport=PHONE)
    page = context.new_page()
    problems = []
    for name in ("Carol.html", "Carol-2.html"):
        page.goto((site / "aliases/players" / name).as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        problems += [f"{name}: {v['id']} {v['impact']} {v['nodes'][0]['html'][:120]}"
                     for v in axe.run(page).response["violations"]]
    context.close()
    text = (site / "aliases/players/Carol.html").read_text(encoding="utf-8")
    assert all(heading in text for heading in ("<h2>Co-authored</h2>", "<h2>Judgments</h2>", "<h2>Score</h2>",
                                               "<h2>Ballots</h2>", 'aria-label="Parts of this list"'))
    assert problems == []
