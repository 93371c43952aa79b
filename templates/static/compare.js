/* nomic-archive: compare the rules at any two points of a game, in the browser.
   Reads window.NOMIC_GAME (data.js, loaded by a script tag: no fetch, so it works from file://).
   Matches rules as generator/compare.py does (same steps, thresholds and wording) and diffs their words
   like generator/redline.py, more simply: a longest common subsequence over word tokens.
   The DOM is built with textContent; only rule HTML rendered and escaped at build time uses innerHTML. */
(function () {
  "use strict";
  var data = window.NOMIC_GAME;
  var target = document.getElementById("compare-result");
  var beforeSelect = document.getElementById("compare-before");
  var afterSelect = document.getElementById("compare-after");
  if (!data || !target || !beforeSelect || !afterSelect) return;
  var base = target.getAttribute("data-base") || "";

  // The thresholds of generator/compare.py and generator/redline.py (the reasons are given there).
  var MATCH_SIMILARITY = 0.5, GROUP_SIMILARITY = 0.7, GROUP_GAIN = 0.1, PART_SIMILARITY = 0.3;
  var REWRITE_SHARE = 0.2;
  var PART_SEPARATOR = "\n\n";
  // Beyond this many cells the word table would be slow: the texts are shown whole, old and new.
  var MAX_TABLE = 4000000;
  var KINDS = ["equal", "changed", "renumbered", "split", "merged", "added", "removed"];

  var WORD_CHAR = "[\\p{L}\\p{N}\\p{M}\\u200c\\u200d]";
  var WORD = WORD_CHAR + "+(?:(?:['\\u2019\\u2010\\u2011-]|(?<=\\p{N})[.,:\\u2013](?=\\p{N}))" + WORD_CHAR + "+)*";
  var WORDS = new RegExp(WORD, "gu");
  var TOKENS = new RegExp(WORD + "|\\s+|[^]", "gu");
  var BLANK_LINE = /\n[^\S\n]*\n\s*/;

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

  function rulesAt(at) {
    return data.versions.filter(function (v) { return v[6] <= at && (v[7] === -2 || v[7] > at); })
      .map(function (v) {
        return { identity: v[0], number: v[1], ruleClass: v[2], title: v[3], text: v[4], html: v[5], page: v[8] };
      })
      .sort(function (a, b) { return a.number - b.number; });
  }

  function byNumber(a, b) { return a.number - b.number; }
  function numbers(rules) { return rules.map(function (rule) { return rule.number; }); }
  function lexical(x, y) {
    for (var i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }
  function identical(a, b) {
    return a.number === b.number && a.ruleClass === b.ruleClass && a.title === b.title && a.text === b.text;
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
        var parts = free.filter(function (part) { return score(whole, part) >= PART_SIMILARITY; });
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
    var old = numbers(pair.old).join(" and "), young = numbers(pair.new).join(" and ");
    return {
      changed: "Rule " + old + " changed", renumbered: "Rule " + old + " is now " + young,
      split: "Rule " + old + " split into " + young, merged: "Rules " + old + " merged into " + young,
      added: "Rule " + young + " added", removed: "Rule " + old + " removed"
    }[pair.kind];
  }

  function notes(pair) {
    if (pair.old.length !== 1 || pair.new.length !== 1) return [];
    var a = pair.old[0], b = pair.new[0], out = [];
    if (a.ruleClass !== b.ruleClass) out.push("transmuted from " + a.ruleClass + " to " + b.ruleClass);
    if (a.title !== b.title) {
      if (!a.title) out.push("titled \"" + b.title + "\"");
      else if (!b.title) out.push("title \"" + a.title + "\" removed");
      else out.push("retitled \"" + b.title + "\" (was \"" + a.title + "\")");
    }
    return out;
  }

  /* Word tokens of the old and new text: [["equal"|"delete"|"insert", text], ...], or null when the
     texts keep too little in common to be read as an edit (then they are shown whole). */
  function diffWords(oldText, newText) {
    var a = oldText.match(TOKENS) || [], b = newText.match(TOKENS) || [];
    // Runs of whitespace compare by kind, so re-spacing does not disturb the diff.
    function key(token) { return /^\s+$/.test(token) ? (token.indexOf("\n") >= 0 ? "\n" : " ") : token; }
    var ka = a.map(key), kb = b.map(key);
    var start = 0;
    while (start < a.length && start < b.length && ka[start] === kb[start]) start++;
    var endA = a.length, endB = b.length;
    while (endA > start && endB > start && ka[endA - 1] === kb[endB - 1]) { endA--; endB--; }
    var n = endA - start, m = endB - start;
    if ((n + 1) * (m + 1) > MAX_TABLE) return null;
    // lengths[i * (m + 1) + j]: the longest common subsequence of a[start + i:] and b[start + j:].
    var lengths = new Uint32Array((n + 1) * (m + 1));
    for (var i = n - 1; i >= 0; i--) {
      for (var j = m - 1; j >= 0; j--) {
        lengths[i * (m + 1) + j] = ka[start + i] === kb[start + j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1]);
      }
    }
    var ops = b.slice(0, start).map(function (t) { return ["equal", t]; });
    i = 0; j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && ka[start + i] === kb[start + j]) {
        ops.push(["equal", b[start + j]]); i++; j++;
      } else if (j < m && (i === n || lengths[i * (m + 1) + j + 1] >= lengths[(i + 1) * (m + 1) + j])) {
        ops.push(["insert", b[start + j]]); j++;
      } else {
        ops.push(["delete", a[start + i]]); i++;
      }
    }
    ops = ops.concat(b.slice(endB).map(function (t) { return ["equal", t]; }));
    var segments = canonical(ops);
    var kept = 0;
    segments.forEach(function (s) { if (s[0] === "equal") kept += words(s[1]).length; });
    if (kept < REWRITE_SHARE * Math.min(words(oldText).length, words(newText).length)) return null;
    return segments;
  }

  /* The token operations as segments: neighbours of one kind merged, each deletion before its insertion,
     and an equal stretch between two changes absorbed when it is no longer (in tokens) than the larger
     side of either change, as diff-match-patch's semantic cleanup does for generator/redline.py: so
     "one week" -> "interval" reads as one deletion and one insertion, not as confetti of common words. */
  function canonical(ops) {
    var runs = [];  // {equal: true, text, size} and {del, ins, dels, inss} (changes), sizes in tokens
    ops.forEach(function (op) {
      var last = runs[runs.length - 1];
      if (op[0] === "equal") {
        if (last && last.equal) { last.text += op[1]; last.size += 1; }
        else runs.push({ equal: true, text: op[1], size: 1 });
        return;
      }
      if (!last || last.equal) { last = { del: "", ins: "", dels: 0, inss: 0 }; runs.push(last); }
      if (op[0] === "delete") { last.del += op[1]; last.dels += 1; } else { last.ins += op[1]; last.inss += 1; }
    });
    for (var i = 1; i + 1 < runs.length;) {
      var before = runs[i - 1], kept = runs[i], after = runs[i + 1];
      if (kept.equal && !before.equal && !after.equal &&
          kept.size <= Math.max(before.dels, before.inss) && kept.size <= Math.max(after.dels, after.inss)) {
        runs.splice(i - 1, 3, {
          del: before.del + kept.text + after.del, ins: before.ins + kept.text + after.ins,
          dels: before.dels + kept.size + after.dels, inss: before.inss + kept.size + after.inss
        });
        i = Math.max(1, i - 2);  // the grown change may now absorb the stretch before it
      } else {
        i++;
      }
    }
    var segments = [];
    runs.forEach(function (run) {
      if (run.equal) { segments.push(["equal", run.text]); return; }
      if (run.del) segments.push(["delete", run.del]);
      if (run.ins) segments.push(["insert", run.ins]);
    });
    return segments;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* <del>/<ins> as generator/redline.py writes them: a hidden label for screen readers first. */
  function edit(tag, block) {
    var node = element(tag, block ? "block" : "");
    node.appendChild(element("span", "visually-hidden", (tag === "del" ? "deleted" : "inserted") + ": "));
    return node;
  }

  function wholeRule(tag, rules) {
    var node = edit(tag, true);
    rules.forEach(function (rule) {
      var text = element("div");
      text.innerHTML = rule.html; /* rendered and escaped at build time */
      node.appendChild(text);
    });
    return node;
  }

  function redline(pair) {
    var holder = element("div", "redline");
    if (pair.kind === "added") { holder.appendChild(wholeRule("ins", pair.new)); return holder; }
    if (pair.kind === "removed") { holder.appendChild(wholeRule("del", pair.old)); return holder; }
    var oldText = joined(pair.old), newText = joined(pair.new);
    if (oldText === newText) return null;
    var segments = diffWords(oldText, newText);
    if (!segments) {
      holder.appendChild(wholeRule("del", pair.old));
      holder.appendChild(wholeRule("ins", pair.new));
      return holder;
    }
    var paragraph = null;
    segments.forEach(function (segment) {
      segment[1].split(BLANK_LINE).forEach(function (piece, index) {
        if (index > 0 || !paragraph) {
          paragraph = element("p");
          paragraph.style.whiteSpace = "pre-line";  // line breaks inside a paragraph (lists) stay visible
          holder.appendChild(paragraph);
        }
        if (!piece) return;
        if (segment[0] === "equal") { paragraph.appendChild(document.createTextNode(piece)); return; }
        var node = edit(segment[0] === "delete" ? "del" : "ins", false);
        node.appendChild(document.createTextNode(piece));
        paragraph.appendChild(node);
      });
    });
    return holder;
  }

  function pairArticle(pair) {
    var article = element("article", "revision compare-" + pair.kind);
    var title = pair.new.concat(pair.old).map(function (rule) { return rule.title; }).filter(Boolean)[0];
    article.appendChild(element("h3", "", describe(pair) + (title ? ": " + title : "")));
    var links = element("p", "meta"), seen = new Set();
    pair.new.concat(pair.old).forEach(function (rule) {
      if (seen.has(rule.page)) return;
      if (seen.size) links.appendChild(document.createTextNode(" \u00b7 "));
      seen.add(rule.page);
      var a = element("a", "", "Rule " + rule.number);
      a.href = base + rule.page;
      links.appendChild(a);
    });
    article.appendChild(links);
    var lines = notes(pair);
    if (lines.length) {
      var list = element("ul", "summary");
      lines.forEach(function (line) { list.appendChild(element("li", "", line)); });
      article.appendChild(list);
    }
    var body = redline(pair);
    if (body) {
      var text = element("div", "rule-text redline");
      text.appendChild(body);
      article.appendChild(text);
    }
    return article;
  }

  function tally(pairs) {
    var counts = {};
    KINDS.forEach(function (kind) { counts[kind] = 0; });
    pairs.forEach(function (pair) { counts[pair.kind] += 1; });
    if (counts.equal === pairs.length) {
      return "No differences (" + pairs.length + " rule" + (pairs.length === 1 ? "" : "s") + ").";
    }
    var parts = KINDS.slice(1).filter(function (kind) { return counts[kind]; })
      .map(function (kind) { return counts[kind] + " " + kind; });
    return parts.join(", ") + (counts.equal ? "; " + counts.equal + " unchanged" : "") + ".";
  }

  function show() {
    var pairs = compare(rulesAt(parseInt(beforeSelect.value, 10)), rulesAt(parseInt(afterSelect.value, 10)));
    target.textContent = "";
    target.appendChild(element("p", "tally", tally(pairs)));
    pairs.forEach(function (pair) { if (pair.kind !== "equal") target.appendChild(pairArticle(pair)); });
  }

  beforeSelect.form.addEventListener("submit", function (event) { event.preventDefault(); });
  beforeSelect.addEventListener("change", show);
  afterSelect.addEventListener("change", show);
  show();
}());
