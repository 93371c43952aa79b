/* nomic-archive: compare the rules at any two points of a game, in the browser.
   The points come from the URL (?from=start&to=2005-04-02) or the form, and are resolved by static/points.js.
   Rules are matched as generator/compare.py matches them (same steps, thresholds and order); each pair is
   then shown with the article the build drew for it (generator/site/points.py), so that the redlines,
   summaries and headings are the comparison pages' own. The redlines are never computed here. */
(function () {
  "use strict";
  var NOMIC = window.NOMIC;
  var form = document.querySelector("form.compare-form");
  var target = document.getElementById("compare-result");
  if (!NOMIC || !form || !target || !NOMIC.resolvePoint) return;
  var root = form.getAttribute("data-root") || "";
  var game = form.getAttribute("data-game");
  var RULES_PER_PIECE = 16;  // generator/site/points.py

  // The thresholds of generator/compare.py and generator/redline.py (the reasons are given there).
  var MATCH_SIMILARITY = 0.5, GROUP_SIMILARITY = 0.7, GROUP_GAIN = 0.1, PART_SIMILARITY = 0.3;
  var PART_SEPARATOR = "\n\n", MAX_PARTS = 8;
  var KINDS = ["equal", "changed", "renumbered", "split", "merged", "added", "removed"];

  var WORD_CHAR = "[\\p{L}\\p{N}\\p{M}\\u200c\\u200d]";
  var WORD = WORD_CHAR + "+(?:(?:['\\u2019\\u2010\\u2011-]|(?<=\\p{N})[.,:\\u2013](?=\\p{N}))" + WORD_CHAR + "+)*";
  var WORDS = new RegExp(WORD, "gu");

  function words(text) { return text.match(WORDS) || []; }

  /* Share of words two texts have in common (Dice over the words counted with repetition, any case). */
  function similarity(a, b) {
    var counts = new Map(), shared = 0, x = words(a), y = words(b);
    if (!x.length && !y.length) return 1;
    x.forEach(function (w) { w = w.toLowerCase(); counts.set(w, (counts.get(w) || 0) + 1); });
    y.forEach(function (w) {
      w = w.toLowerCase();
      var left = counts.get(w) || 0;
      if (left) { shared += 1; counts.set(w, left - 1); }
    });
    return 2 * shared / (x.length + y.length);
  }

  function byNumber(a, b) { return a.number - b.number; }
  function numbers(rules) { return rules.map(function (rule) { return rule.number; }); }
  /* A rule's number as a pair's heading names it, with its label where the record gives one (compare.py's). */
  function named(rules) {
    return rules.map(function (rule) { return rule.label ? rule.number + " (" + rule.label + ")" : "" + rule.number; });
  }
  function lexical(x, y) {
    for (var i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }
  function identical(a, b) {
    return a.number === b.number && a.ruleClass === b.ruleClass && a.title === b.title && a.digest === b.digest;
  }
  function joined(rules) { return rules.map(function (rule) { return rule.text; }).join(PART_SEPARATOR); }

  /* The pairs of generator/compare.py's compare(), in the same order. */
  function compare(oldRules, newRules) {
    var pairs = [];
    var newAt = new Map(newRules.map(function (b) { return [b.number, b]; }));
    var equalNew = new Set(), old = [], young = [];
    oldRules.forEach(function (a) {
      var b = newAt.get(a.number);
      if (b && identical(a, b)) { pairs.push({ kind: "equal", old: [a], new: [b] }); equalNew.add(b); }
      else old.push(a);
    });
    newRules.forEach(function (b) { if (!equalNew.has(b)) young.push(b); });

    var scores = new Map();
    function alike(a, b) {
      var row = scores.get(a);
      if (!row) { row = new Map(); scores.set(a, row); }
      if (!row.has(b)) row.set(b, similarity(a.text, b.text));
      return row.get(b);
    }
    var partnerOfOld = new Map(), partnerOfNew = new Map(), grouped = new Set();
    function link(a, b) { partnerOfOld.set(a, b); partnerOfNew.set(b, a); }
    function unlinkOld(a) {
      if (partnerOfOld.has(a)) { partnerOfNew.delete(partnerOfOld.get(a)); partnerOfOld.delete(a); }
    }
    function unlinkNew(b) {
      if (partnerOfNew.has(b)) { partnerOfOld.delete(partnerOfNew.get(b)); partnerOfNew.delete(b); }
    }
    function freeOld() { return old.filter(function (a) { return !partnerOfOld.has(a) && !grouped.has(a); }); }
    function freeNew() { return young.filter(function (b) { return !partnerOfNew.has(b) && !grouped.has(b); }); }

    // Within one game the same identity is the same rule, whatever its number and text became.
    var youngIdentity = new Map(young.map(function (b) { return [b.identity, b]; }));
    old.forEach(function (a) {
      var b = youngIdentity.get(a.identity);
      if (b) link(a, b);
    });
    // The same number and similar texts.
    var youngAt = new Map(freeNew().map(function (b) { return [b.number, b]; }));
    freeOld().forEach(function (a) {
      var b = youngAt.get(a.number);
      if (b && alike(a, b) >= MATCH_SIMILARITY) link(a, b);
    });
    // The rest by similarity, best first.
    var candidates = [];
    freeOld().forEach(function (a) {
      freeNew().forEach(function (b) { var s = alike(a, b); if (s >= MATCH_SIMILARITY) candidates.push([s, a, b]); });
    });
    candidates.sort(function (x, y) { return y[0] - x[0] || x[1].number - y[1].number || x[2].number - y[2].number; });
    candidates.forEach(function (c) { if (!partnerOfOld.has(c[1]) && !partnerOfNew.has(c[2])) link(c[1], c[2]); });

    // Splits and merges, best first.
    var groups = [];
    function groupCandidates(wholes, free, partners, score, split) {
      wholes.forEach(function (whole) {
        var parts = free.filter(function (part) { return score(whole, part) >= PART_SIMILARITY; })
          .sort(function (x, y) { return score(whole, y) - score(whole, x) || x.number - y.number; })
          .slice(0, MAX_PARTS);
        if (partners.has(whole)) parts = parts.concat([partners.get(whole)]).sort(byNumber);
        for (var i = 0; i < parts.length; i++) {
          for (var j = i + 1; j < parts.length; j++) {
            var together = similarity(whole.text, joined([parts[i], parts[j]]));
            if (together >= GROUP_SIMILARITY &&
                together >= Math.max(score(whole, parts[i]), score(whole, parts[j])) + GROUP_GAIN) {
              groups.push(split ? { score: together, old: [whole], new: [parts[i], parts[j]] }
                                : { score: together, old: [parts[i], parts[j]], new: [whole] });
            }
          }
        }
      });
    }
    groupCandidates(old, freeNew(), partnerOfOld, alike, true);
    groupCandidates(young, freeOld(), partnerOfNew, function (whole, part) { return alike(part, whole); }, false);
    groups.sort(function (x, y) {
      return y.score - x.score || lexical(numbers(x.old.concat(x.new)), numbers(y.old.concat(y.new)));
    });
    groups.forEach(function (g) {
      var rules = g.old.concat(g.new);
      if (rules.some(function (rule) { return grouped.has(rule); })) return;
      var split = g.old.length === 1;
      var whole = split ? g.old[0] : g.new[0], parts = split ? g.new : g.old;
      var partners = split ? partnerOfNew : partnerOfOld;
      if (parts.some(function (part) { return partners.has(part) && partners.get(part) !== whole; })) return;
      g.old.forEach(unlinkOld);
      g.new.forEach(unlinkNew);
      rules.forEach(function (rule) { grouped.add(rule); });
      pairs.push({ kind: split ? "split" : "merged", old: g.old, new: g.new });
    });

    // The same number still unmatched on both sides: a rewrite in place.
    var leftover = new Map(freeNew().map(function (b) { return [b.number, b]; }));
    freeOld().forEach(function (a) { if (leftover.has(a.number)) link(a, leftover.get(a.number)); });

    old.forEach(function (a) {
      if (!partnerOfOld.has(a)) return;
      var b = partnerOfOld.get(a);
      pairs.push({ kind: a.number === b.number ? "changed" : "renumbered", old: [a], new: [b] });
    });
    freeOld().forEach(function (a) { pairs.push({ kind: "removed", old: [a], new: [] }); });
    freeNew().forEach(function (b) { pairs.push({ kind: "added", old: [], new: [b] }); });
    function position(pair) {
      var first = pair.old.length ? pair.old[0].number : pair.new[0].number;
      return [first, pair.old.length ? 0 : 1].concat(numbers(pair.new));
    }
    return pairs.sort(function (x, y) { return lexical(position(x), position(y)); });
  }

  function describe(pair) {
    var old = named(pair.old).join(" and "), young = named(pair.new).join(" and ");
    return {
      changed: "Rule " + old + " changed", renumbered: "Rule " + old + " is now " + young,
      split: "Rule " + old + " split into " + young, merged: "Rules " + old + " merged into " + young,
      added: "Rule " + young + " added", removed: "Rule " + old + " removed"
    }[pair.kind];
  }


  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function capitalize(text) { return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase(); }

  /* One line, as Comparison.tally() words it. */
  function tally(pairs) {
    var counts = {};
    KINDS.forEach(function (kind) { counts[kind] = 0; });
    pairs.forEach(function (pair) { counts[pair.kind] += 1; });
    if (counts.equal === pairs.length) {
      return "no differences (" + pairs.length + " rule" + (pairs.length === 1 ? "" : "s") + ")";
    }
    var amended = pairs.filter(function (pair) {
      if (pair.kind !== "renumbered") return false;
      var a = pair.old[0], b = pair.new[0];
      return a.blocks !== b.blocks || a.ruleClass !== b.ruleClass || a.title !== b.title;
    }).length;
    var words = [];
    KINDS.slice(1).forEach(function (kind) {
      if (kind === "renumbered") {
        if (amended) words.push(amended + " renumbered and changed");
        if (counts.renumbered - amended) words.push((counts.renumbered - amended) + " renumbered");
      } else if (counts[kind]) {
        words.push(counts[kind] + " " + kind);
      }
    });
    var line = words.join(", ");
    return counts.equal ? line + "; " + counts.equal + " unchanged" : line;
  }

  function rule(version) {
    return { identity: version[0], ordinal: version[1], number: version[2], ruleClass: version[3],
             title: version[4], page: version[7], digest: version[9], blocks: version[10], count: version[11],
             label: version[12], text: "" };
  }

  /* Which file holds what the build drew of a rule's version (generator/site/points.py, _rules_pieces):
     the rule's bucket for a short history, else the block of versions holding it. */
  var SHORT_HISTORY = 4, BLOCK = 16; /* as generator/site/points.py writes them */
  function bucketFile(identity) { return game + "/compare/rules/" + Math.floor(identity / RULES_PER_PIECE) + ".js"; }
  function entryFile(identity, ordinal, count) {
    return count <= SHORT_HISTORY ? bucketFile(identity)
      : game + "/compare/rules/" + identity + "-" + Math.floor(ordinal / BLOCK) + ".js";
  }
  function textFile(r) {
    return r.ordinal === 0 || r.ordinal === r.count - 1 ? bucketFile(r.identity) : entryFile(r.identity, r.ordinal, r.count);
  }

  /* The files' rules merged: {identity: {entries: {ordinal: {text, blocks, into}}, ends, whole}}. */
  var known = {};
  function loadAll(files) {
    return Promise.all(Object.keys(files).map(function (file) { return NOMIC.load(root, file); })).then(function (loaded) {
      loaded.forEach(function (data) {
        Object.keys(data).forEach(function (identity) {
          var into = known[identity] = known[identity] || { entries: {}, ends: {} };
          var rule = data[identity];
          Object.assign(into.entries, rule.entries || {});
          Object.assign(into.ends, rule.ends || {});
          if (rule.whole) into.whole = rule.whole;
        });
      });
    });
  }
  function textOf(r) {
    var rule = known[r.identity], entry = rule.entries[r.ordinal];
    return entry ? entry.text : rule.ends[r.ordinal];
  }

  /* What the build drew for a pair, as [file, how to take it from `known`] steps: one article, or for a
     rule changed several times between points in the middle of its life (a pair no page shows), each of
     its changes in turn; rules matched by their texts (other rules, a split, a merge) are shown whole. */
  function plan(pair) {
    var a = pair.old[0], b = pair.new[0];
    function entry(r, what) { return { file: entryFile(r.identity, r.ordinal, r.count), identity: r.identity, ordinal: r.ordinal, what: what, rule: r }; }
    if (pair.kind === "added") return [entry(b, "added")];
    if (pair.kind === "removed") return [entry(a, "removed")];
    if (pair.old.length === 1 && pair.new.length === 1 && a.identity === b.identity) {
      if (b.ordinal === a.ordinal + 1) return [entry(b, "into")];
      if (a.ordinal === 0 && b.ordinal === b.count - 1) return [{ file: bucketFile(a.identity), identity: a.identity, what: "whole" }];
      var steps = [{ note: describe(pair) + ", in " + (b.ordinal - a.ordinal) + " changes, each as the build drew it" }];
      for (var n = a.ordinal + 1; n <= b.ordinal; n++) {
        steps.push(entry({ identity: a.identity, ordinal: n, count: a.count }, "into"));
      }
      return steps;
    }
    return [{ note: describe(pair) + " (matched by their texts): the rules before and after" }]
      .concat(pair.old.map(function (r) { return entry(r, "removed"); }))
      .concat(pair.new.map(function (r) { return entry(r, "added"); }));
  }

  function html(step) {
    var rule = known[step.identity];
    return step.what === "whole" ? rule.whole : rule.entries[step.ordinal][step.what];
  }

  /* A rule added or removed whole, as the build draws one (templates/_pair.html): its Markdown blocks, drawn
     and escaped at build time, each marked inserted or deleted as generator/redline.py marks them. */
  function whole(step) {
    var r = step.rule, kind = step.what, tag = kind === "added" ? "ins" : "del";
    var article = element("article", "revision compare-" + kind);
    article.appendChild(element("h2", null, "Rule " + named([r])[0] + " " + kind + (r.title ? ": " + r.title : "")));
    var meta = element("p", "meta"), link = element("a", null, "Rule " + r.number);
    link.href = "../rules/" + r.page;
    meta.appendChild(link);
    article.appendChild(meta);
    var text = element("div", "rule-text redline"), redline = element("div", "redline");
    known[step.identity].entries[step.ordinal].blocks.forEach(function (block) {
      var mark = element(tag, "block");
      mark.appendChild(element("span", "visually-hidden", (tag === "ins" ? "inserted" : "deleted") + ": "));
      mark.insertAdjacentHTML("beforeend", block); /* drawn and escaped at build time */
      redline.appendChild(mark);
    });
    text.appendChild(redline);
    article.appendChild(text);
    return article;
  }

  var legend = document.getElementById("compare-legend");

  function render(points, pairs, plans) {
    target.textContent = "";
    var meta = element("p", "meta");
    meta.appendChild(document.createTextNode("The rules "));
    meta.appendChild(NOMIC.describePoint(points[0], "../"));
    meta.appendChild(document.createTextNode(", against the rules "));
    meta.appendChild(NOMIC.describePoint(points[1], "../"));
    meta.appendChild(document.createTextNode("."));
    target.appendChild(meta);
    var holder = element("div", "comparison");
    holder.appendChild(element("p", "tally", capitalize(tally(pairs)) + "."));
    if (plans.length && legend) holder.appendChild(legend.content.cloneNode(true));
    plans.forEach(function (steps) {
      steps.forEach(function (step) {
        if (step.note) { holder.appendChild(element("p", "meta", step.note + ":")); return; }
        if (step.what === "added" || step.what === "removed") { holder.appendChild(whole(step)); return; }
        var box = document.createElement("div");
        box.innerHTML = html(step); /* drawn and escaped at build time */
        while (box.firstChild) holder.appendChild(box.firstChild);
      });
    });
    target.appendChild(holder);
  }

  function show() {
    var values = NOMIC.pointParams(["from", "to"]);
    target.setAttribute("aria-busy", "true");
    Promise.all([NOMIC.resolvePoint(values.from), NOMIC.resolvePoint(values.to)]).then(function (points) {
      return Promise.all([NOMIC.rulesAt(points[0].index), NOMIC.rulesAt(points[1].index)]).then(function (sides) {
        var oldRules = sides[0].map(rule), newRules = sides[1].map(rule);
        var newAt = new Map(newRules.map(function (b) { return [b.number, b]; }));
        var unequal = oldRules.filter(function (a) { var b = newAt.get(a.number); return !(b && identical(a, b)); });
        var oldAt = new Map(oldRules.map(function (a) { return [a.number, a]; }));
        unequal = unequal.concat(newRules.filter(function (b) { var a = oldAt.get(b.number); return !(a && identical(a, b)); }));
        var files = {};
        unequal.forEach(function (r) { files[textFile(r)] = true; });
        return loadAll(files).then(function () {
          unequal.forEach(function (r) { r.text = textOf(r); });
          var pairs = compare(oldRules, newRules);
          var plans = pairs.filter(function (pair) { return pair.kind !== "equal"; }).map(plan);
          var more = {};
          plans.forEach(function (steps) { steps.forEach(function (step) { if (step.file) more[step.file] = true; }); });
          return loadAll(more).then(function () { render(points, pairs, plans); });
        });
      });
    }).catch(function (error) { NOMIC.showProblem(target, error); })
      .then(function () { target.removeAttribute("aria-busy"); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    NOMIC.pushPoints(["from", "to"]);
    show();
  });
  window.addEventListener("popstate", show);
  show();
}());
