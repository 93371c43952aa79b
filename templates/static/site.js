/* nomic-archive: the theme toggle, search, and the loader of data pieces. Works from file://: data comes in
   scripts (no fetch) that file themselves under their path in window.NOMIC_DATA, loaded only when asked.
   The DOM is built with textContent; no player text goes through innerHTML here. */
(function () {
  "use strict";
  var html = document.documentElement;
  var NOMIC = window.NOMIC = window.NOMIC || {};
  var loading = {};

  /* The data piece at `path` (site-relative), loaded once: a promise of its value. */
  NOMIC.load = function (root, path) {
    if (!loading[path]) {
      loading[path] = new Promise(function (resolve, reject) {
        var store = window.NOMIC_DATA = window.NOMIC_DATA || {};
        if (path in store) { resolve(store[path]); return; }
        var script = document.createElement("script");
        script.src = root + path;
        script.onload = function () { path in store ? resolve(store[path]) : reject(new Error(path)); };
        script.onerror = function () { reject(new Error("could not load " + path)); };
        document.head.appendChild(script);
      });
    }
    return loading[path];
  };

  /* Lower case without accents, as generator/site/search.py normalizes the index. */
  NOMIC.normalize = function (text) {
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  };

  var toggle = document.getElementById("theme-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var dark = html.dataset.theme ? html.dataset.theme === "dark"
        : window.matchMedia("(prefers-color-scheme: dark)").matches;
      html.dataset.theme = dark ? "light" : "dark";
      try { localStorage.setItem("nomic-theme", html.dataset.theme); } catch (e) { /* storage may be off */ }
    });
  }

  var box = document.getElementById("search-box");
  var list = document.getElementById("search-results");
  if (!box || !list) return;
  var root = box.getAttribute("data-root") || "";
  var here = box.getAttribute("data-game") || "";
  var widened = !here;
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  list.parentNode.insertBefore(status, list);
  var MAX_RESULTS = 12;
  var asked = 0;

  function queryWords(text) { return NOMIC.normalize(text).match(/[\p{L}\p{N}]+/gu) || []; }

  /* The term pieces that may hold words starting with `word`: piece i holds words from terms[i] on. */
  function termPieces(manifest, word) {
    var pieces = [];
    manifest.terms.forEach(function (first, i) {
      var next = manifest.terms[i + 1];
      if (first <= word + "\uffff" && (next === undefined || next > word)) pieces.push(i);
    });
    return pieces;
  }

  /* Scores of one game's documents for the query: every word must be found. A document that is rule or
     proposal N comes first for "N", then the rule that was numbered N, then matches in titles, then in
     text; whole words above prefixes. */
  function scoreGame(game, words) {
    return NOMIC.load(root, game + "/search/index.js").then(function (manifest) {
      var wanted = {};
      words.forEach(function (w) { termPieces(manifest, w).forEach(function (i) { wanted[i] = true; }); });
      return Promise.all(Object.keys(wanted).map(function (i) {
        return NOMIC.load(root, game + "/search/terms-" + i + ".js");
      })).then(function (pieces) {
        var scores = null;
        words.forEach(function (w) {
          var found = {};
          pieces.forEach(function (piece) {
            Object.keys(piece).forEach(function (term) {
              if (term.lastIndexOf(w, 0) !== 0) return;
              var whole = term === w, lists = piece[term];
              lists[0].forEach(function (id) { found[id] = Math.max(found[id] || 0, whole ? 30 : 20); });
              lists[1].forEach(function (id) { found[id] = Math.max(found[id] || 0, whole ? 3 : 2); });
              if (whole) lists[2].forEach(function (id) { found[id] = (found[id] || 0) + 1000; });
              if (whole) lists[3].forEach(function (id) { found[id] = (found[id] || 0) + 500; });
            });
          });
          if (scores === null) { scores = found; return; }
          var both = {};
          Object.keys(scores).forEach(function (id) { if (id in found) both[id] = scores[id] + found[id]; });
          scores = both;
        });
        return Object.keys(scores || {}).map(function (id) {
          return { game: game, title: manifest.title, id: Number(id), score: scores[id], per: manifest.per };
        });
      });
    });
  }

  /* Where the query's words first occur in `text`, as [start, end] in the text itself. */
  function firstMatch(text, words) {
    var folded = "", at = [];
    for (var i = 0; i < text.length; i++) {
      var piece = NOMIC.normalize(text[i]);
      for (var j = 0; j < piece.length; j++) { folded += piece[j]; at.push(i); }
    }
    var best = null;
    words.forEach(function (w) {
      var re = new RegExp("(^|[^\\p{L}\\p{N}])" + w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "u");
      var m = re.exec(folded);
      if (m) {
        var start = at[m.index + m[1].length], end = at[m.index + m[0].length - 1] + 1;
        if (!best || start < best[0]) best = [start, end];
      }
    });
    return best;
  }

  /* The words around the match, as text, the match marked. */
  function snippet(text, words) {
    var span = document.createElement("small");
    var match = firstMatch(text, words);
    var from = 0, to = Math.min(text.length, 160);
    if (match) {
      from = Math.max(0, match[0] - 60);
      to = Math.min(text.length, match[1] + 100);
      if (from > 0) from = text.indexOf(" ", from) + 1 || from;
    }
    if (to < text.length) { var cut = text.lastIndexOf(" ", to); if (cut > from) to = cut; }
    var lead = (from > 0 ? "\u2026" : "");
    if (match) {
      span.appendChild(document.createTextNode(lead + text.slice(from, match[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(match[0], match[1]);
      span.appendChild(mark);
      span.appendChild(document.createTextNode(text.slice(match[1], to)));
    } else {
      span.appendChild(document.createTextNode(lead + text.slice(from, to)));
    }
    if (to < text.length) span.appendChild(document.createTextNode("\u2026"));
    return span;
  }

  function note(text) {
    var li = document.createElement("li");
    li.className = "note";
    li.textContent = text;
    return li;
  }

  function show(results, words, many) {
    list.textContent = "";
    results.forEach(function (r) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + r.game + "/" + r.doc[2];
      var title = document.createElement("span");
      title.className = "title";
      title.textContent = r.doc[1] + (many ? " \u00b7 " + r.title : "");
      a.appendChild(title);
      a.appendChild(snippet(r.doc[3], words));
      li.appendChild(a);
      list.appendChild(li);
    });
    if (!results.length) list.appendChild(note("Nothing found" + (widened ? "." : " in this game.")));
    if (!widened) {
      var li = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Search all games";
      button.addEventListener("click", function () { widened = true; run(); box.focus(); });
      li.appendChild(button);
      list.appendChild(li);
    }
    status.textContent = results.length ? results.length + (results.length === MAX_RESULTS ? " or more" : "") +
      " results" : "Nothing found";
  }

  function run() {
    var words = queryWords(box.value);
    var ticket = ++asked;
    if (!words.length) { close(); return; }
    var games = widened ? NOMIC.load(root, "search-games.js").then(function (all) {
      var slugs = all.map(function (g) { return g[0]; });
      return here ? [here].concat(slugs.filter(function (s) { return s !== here; })) : slugs;
    }) : Promise.resolve([here]);
    games.then(function (slugs) {
      return Promise.all(slugs.map(function (slug) { return scoreGame(slug, words); })).then(function (perGame) {
        var all = [].concat.apply([], perGame);  // games in order: this one first
        all.sort(function (a, b) { return b.score - a.score; });  // stable: game order, then document order
        var top = all.slice(0, MAX_RESULTS);
        return Promise.all(top.map(function (r) {
          return NOMIC.load(root, r.game + "/search/docs-" + Math.floor(r.id / r.per) + ".js").then(function (docs) {
            r.doc = docs[r.id % r.per];
            return r;
          });
        })).then(function (results) {
          if (ticket === asked) show(results, words, slugs.length > 1);
        });
      });
    }).catch(function () {
      if (ticket !== asked) return;
      list.textContent = "";
      list.appendChild(note("The search index could not be loaded."));
    });
  }

  function close() {
    list.textContent = "";
    status.textContent = "";
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a, button")); }

  var timer = null;
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 80); });
  box.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) first.click();
  });
  document.addEventListener("keydown", function (event) {
    var items = links(), at = items.indexOf(document.activeElement);
    if (event.key === "Escape" && (at >= 0 || document.activeElement === box)) {
      close();
      box.focus();
    } else if (event.key === "ArrowDown" && (document.activeElement === box || at >= 0) && items.length) {
      event.preventDefault();
      items[Math.min(at + 1, items.length - 1)].focus();
    } else if (event.key === "ArrowUp" && at >= 0) {
      event.preventDefault();
      (at === 0 ? box : items[at - 1]).focus();
    }
  });
}());
