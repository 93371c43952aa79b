/* serve's live reload and error overlay, at the end of every page serve draws (generator/serve.py). The overlay
   is built from text nodes: a file's text is shown, never parsed as HTML. */
(function () {
  "use strict";
  var overlay = null;
  function show(data) {
    if (overlay) { overlay.remove(); overlay = null; }
    var problems = data.problems || [];
    if (!problems.length) return;
    overlay = document.createElement("div");
    overlay.id = "nomic-error-overlay";
    overlay.setAttribute("role", "alert");
    overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2rem;" +
      "background:rgba(24,24,27,.95);color:#fafafa;font:16px/1.5 system-ui,sans-serif;text-align:left";
    var heading = document.createElement("h2");
    heading.style.cssText = "margin:0 0 .5rem;color:#fca5a5;font-size:1.4rem";
    heading.textContent = "The site could not be rebuilt";
    var hint = document.createElement("p");
    hint.textContent = "The last good build is still served. Fix the file and this page reloads by itself.";
    // Dismissed with its button or Escape, to read the last good page; the next save shows it again.
    var close = document.createElement("button");
    close.type = "button";
    close.id = "nomic-error-close";
    close.textContent = "Hide (Esc)";
    close.style.cssText = "float:right;min-height:44px;padding:0 1rem;font:inherit;color:#18181b;" +
      "background:#fafafa;border:0;border-radius:4px;cursor:pointer";
    close.addEventListener("click", hide);
    overlay.setAttribute("aria-labelledby", "nomic-error-heading");
    heading.id = "nomic-error-heading";
    overlay.append(close, heading, hint);
    if (data.total > problems.length) {
      var count = document.createElement("p");
      count.id = "nomic-error-count";
      count.textContent = "The first " + problems.length + " of " + data.total + " problems:";
      overlay.append(count);
    }
    problems.forEach(function (problem) {
      var item = document.createElement("section");
      item.className = "nomic-problem";
      item.style.cssText = "margin:1rem 0;padding:.6rem .9rem;border-left:4px solid #f87171;background:#27272a";
      var where = document.createElement("code");
      where.className = "nomic-where";
      where.style.cssText = "font-weight:700;color:#fde68a";
      where.textContent = problem.where;
      var message = document.createElement("div");
      message.textContent = problem.message;
      item.append(where, message);
      if (problem.text) {
        var line = document.createElement("pre");
        line.className = "nomic-line";
        line.style.cssText = "margin:.4rem 0 0;padding:.4rem .6rem;background:#18181b;color:#e4e4e7;" +
          "white-space:pre-wrap;font:14px ui-monospace,monospace";
        line.textContent = problem.line + " | " + problem.text;
        item.append(line);
      }
      overlay.append(item);
    });
    document.body.append(overlay);
    close.focus();
  }
  function hide() {
    if (overlay) { overlay.remove(); overlay = null; }
  }
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });

  // serve names here the site this page was drawn from ("?since=" and its name): the stream's first event
  // says the site it serves now ("site"), or that it is broken ("error").
  var stream = "/__nomic/events";
  var drawnFrom = stream.split("since=")[1] || "";
  function heard(kind, data) {
    if (kind === "reload" || kind === "site" && data.site !== drawnFrom) location.reload();
    else if (kind === "error") show(data);
    else hide();  // the site this page was drawn from, served again: nothing is broken
  }
  function listen(onEvent) {
    var events = new EventSource(stream);
    ["reload", "site", "error"].forEach(function (kind) {
      // EventSource also fires "error" (without data) when the connection drops; only ours carry data.
      events.addEventListener(kind, function (event) { if (event.data) onEvent(kind, JSON.parse(event.data)); });
    });
  }
  // One stream for all the site's pages open in this browser: it allows six connections to a host (HTTP/1.1),
  // so a stream for each page left the seventh waiting for ever. The page that holds the lock listens and
  // passes on what it hears; the others hear it from the channel, ask it for the last state when they open,
  // and one of them takes the lock when that page goes.
  if (!window.BroadcastChannel || !navigator.locks) {
    listen(heard);
    return;
  }
  var channel = new BroadcastChannel("nomic-archive-live-reload");
  var last = null;  // the listening page's: the stream's last event, none since a reload
  channel.onmessage = function (message) {
    var said = message.data;
    if (said.kind === "hello") {
      if (last) channel.postMessage(last);
    } else {
      heard(said.kind, said.data);
    }
  };
  navigator.locks.request("nomic-archive-live-reload", function () {
    listen(function (kind, data) {
      // A reload makes what was heard before it stale: a page that reloads first and asks, while this one has yet
      // to go, must not be shown the error the reload's save fixed.
      last = kind === "reload" ? null : {kind: kind, data: data};
      channel.postMessage({kind: kind, data: data});
      heard(kind, data);
    });
    return new Promise(function () {});  // held while this page is open
  });
  channel.postMessage({kind: "hello"});
})();
