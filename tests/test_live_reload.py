"""serve's live reload (generator/live_reload.js) among several open pages, step by step in Node: one page
listens to the server's stream and passes on what it hears over a BroadcastChannel; the order in which pages
reload and ask is set by the test, not left to a browser's timing (tests/e2e/test_serve_browser.py drives the
real thing)."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.helpers import ROOT

# Pages sharing one channel and one lock, with a server's stream each listening page opens. Each step of the
# script is [action, page, argument]; after each, every message sent is delivered. Prints, for each page, how often
# it reloaded and the text of its overlay ("" for none).
HARNESS = r"""
const fs = require("fs");
const source = fs.readFileSync(process.argv[1], "utf8");
const steps = JSON.parse(process.argv[2]);
const pages = {}, channels = [], queue = [], waiting = [];
let holder = null;

function element() {
  return {style: {}, children: [], textContent: "", setAttribute() {}, addEventListener() {}, focus() {},
          append(...items) { this.children.push(...items); },
          remove() { this.page.body.children = this.page.body.children.filter(item => item !== this); }};
}
function text(node) { return node.textContent + (node.children || []).map(text).join(" "); }
function grant(page) { holder = page; page.granted(); }

function open(name, since) {
  const page = {name, reloaded: 0, gone: false, body: {children: [], append(...items) { this.children.push(...items); }}};
  const document = {body: page.body, addEventListener() {},
                    createElement() { const made = element(); made.page = page; return made; }};
  class BroadcastChannel {
    constructor() { this.page = page; channels.push(this); }
    postMessage(message) {
      const data = JSON.parse(JSON.stringify(message));
      for (const other of channels) if (other !== this && !other.page.gone)
        queue.push(() => other.onmessage && other.onmessage({data}));
    }
  }
  class EventSource {
    constructor() { this.listeners = {}; page.stream = this; }
    addEventListener(kind, listener) { this.listeners[kind] = listener; }
  }
  const navigator = {locks: {request(name, callback) {
    page.granted = () => callback();
    if (holder === null) queue.push(() => grant(page)); else waiting.push(page);
  }}};
  const location = {reload() { page.reloaded += 1; }};
  const script = source.replace('"/__nomic/events"', JSON.stringify("/__nomic/events?since=" + since));
  new Function("window", "document", "navigator", "location", "BroadcastChannel", "EventSource", script)(
    {BroadcastChannel}, document, navigator, location, BroadcastChannel, EventSource);
  pages[name] = page;
}

for (const [action, name, argument] of steps) {
  if (action === "open") open(name, argument);
  else if (action === "hear") pages[name].stream.listeners[argument.kind]({data: JSON.stringify(argument.data)});
  else if (action === "close") {
    pages[name].gone = true;
    waiting.splice(0, waiting.length, ...waiting.filter(page => !page.gone));
    if (holder === pages[name]) { holder = null; const next = waiting.shift(); if (next) queue.push(() => grant(next)); }
  }
  while (queue.length) queue.shift()();
}
const said = {};
for (const [name, page] of Object.entries(pages)) said[name] = [page.reloaded, page.body.children.map(text).join(" ")];
console.log(JSON.stringify(said));
"""

ERROR = {"kind": "error", "data": {"problems": [{"where": "tiny/log.md:13", "message": "not an entry"}], "total": 1}}


def run(steps: list) -> dict[str, list]:
    done = subprocess.run(["node", "-e", HARNESS, str(ROOT / "generator" / "live_reload.js"), json.dumps(steps)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_page_that_reloads_before_the_listening_page_goes_is_not_shown_the_error_its_save_fixed():
    said = run([["open", "A", "site-1"], ["open", "B", "site-1"],     # A holds the lock and listens
                ["hear", "A", {"kind": "site", "data": {"site": "site-1"}}],
                ["hear", "A", ERROR],                                # a save broke the site: both show it
                ["open", "probe", "site-1"]])                        # (a page opened now is told, by A)
    assert all("tiny/log.md:13" in said[name][1] for name in ("A", "B", "probe"))
    said = run([["open", "A", "site-1"], ["open", "B", "site-1"],
                ["hear", "A", {"kind": "site", "data": {"site": "site-1"}}], ["hear", "A", ERROR],
                ["hear", "A", {"kind": "reload", "data": {}}],       # the next save fixed it: every page reloads
                ["close", "B", None], ["open", "B again", "site-2"],  # B is back before A has gone, and asks A
                ["close", "A", None],                                # A goes; the page left listens from now on
                ["hear", "B again", {"kind": "site", "data": {"site": "site-2"}}]])
    assert said["A"][0] == 1 and said["B"][0] == 1
    assert said["B again"] == [0, ""]  # neither reloaded again nor shown the error the save fixed


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_site_a_page_was_drawn_from_served_again_puts_its_overlay_away():
    said = run([["open", "A", "site-1"], ["open", "B", "site-1"], ["hear", "A", ERROR],
                ["hear", "A", {"kind": "site", "data": {"site": "site-1"}}]])  # (the stream opened again: good)
    assert said == {"A": [0, ""], "B": [0, ""]}
    said = run([["open", "A", "site-1"], ["hear", "A", {"kind": "site", "data": {"site": "site-2"}}]])
    assert said == {"A": [1, ""]}  # a site other than the page's: it reloads
