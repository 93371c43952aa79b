/* nomic-archive: the text report of the rules shown by "rules as of", for any point, when the reader asks.
   Its pieces are formatted by the build (generator/site/report_pieces.py, from site/ruleset_text.py); this
   script only selects and joins them, in the steps of ruleset_text.assemble (keep the two alike), so that
   the text is what `nomic-archive ruleset GAME@POINT --format full|short` prints, byte for byte
   (tests/test_report_site.py holds them to that). */
(function () {
  "use strict";
  var NOMIC = window.NOMIC;
  if (!NOMIC || !NOMIC.gamePiece) return;  // (static/points.js, loaded before, found no game's points form)
  var ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

  function load(path) { return NOMIC.gamePiece("report/" + path); }

  /* The report of the versions in force after entry `index` (`rules`, by number: each {identity, number,
     rule_class, power, toc, block}), as ruleset_text.assemble makes it. */
  function assemble(layout, rules, notes, point, index, full, asked) {
    var date = asked || point[2];
    var chosen = layout.arrangements[0][1];  // the groups of the arrangement that held on `date`
    layout.arrangements.forEach(function (arrangement) { if (arrangement[0] <= date) chosen = arrangement[1]; });
    var groups = chosen.map(function (at) { return layout.groups[at]; });
    var namesAt = 0;  // the names list that held on `date`
    layout.names.forEach(function (list, at) { if (list[0] <= date) namesAt = at; });
    var byNumber = {}, placed = {};
    rules.forEach(function (rule) { byNumber[rule.number] = rule; });
    groups.forEach(function (group) {
      if (group.numbers !== null) group.numbers.forEach(function (number) { placed[number] = true; });
    });
    var width = rules.reduce(function (w, rule) { return Math.max(w, String(rule.number).length); }, 0);
    var body = [], toc = [];
    groups.forEach(function (group) {
      var held;
      if (group.numbers !== null) {
        held = group.numbers.filter(function (n) { return n in byNumber; }).map(function (n) { return byNumber[n]; });
      } else if (group.rest) {
        held = rules.filter(function (rule) { return !placed[rule.number]; });
      } else {
        held = rules.filter(function (rule) { return rule.rule_class === group.rule_class; });
      }
      if (!held.length) return;
      body.push(group.head);
      toc.push(group.toc + held.map(function (rule) {
        return layout.toc_line + String(rule.number).padStart(width) + rule.toc;
      }).join("\n") + "\n");
      held.forEach(function (rule) {
        body.push(rule.block);
        if (full) body.push(notesText(layout, notes[rule.identity], index, namesAt));
        body.push(layout.rule_tail);
      });
    });
    var counts = {};
    rules.forEach(function (rule) { if (rule.power >= 0) counts[rule.power] = (counts[rule.power] || 0) + 1; });
    var ranks = Object.keys(counts).map(Number).sort(function (a, b) { return a - b; });
    var countWidth = ranks.reduce(function (w, rank) { return Math.max(w, String(counts[rank]).length); }, 0);
    var last = null;
    layout.ratifications.forEach(function (ratified) {
      if (date && ratified[0] <= date && (last === null || ratified[0] > last[0])) last = ratified;
    });
    var heading = layout.title + ": the rules " + point[3] + (date ? " (" + date + ")" : "");
    var values = {
      num: String(rules.length),
      her: rules.length ? String(Math.max.apply(null, rules.map(function (rule) { return rule.number; }))) : "",
      hr: point[0], hp: point[1],
      ratification: last === null ? layout.unratified : last[1],
      date: date ? date.slice(8, 10) + " " + layout.months[+date.slice(5, 7) - 1] + " " + (+date.slice(0, 4)) : "",
      line: layout.line, toc: toc.join(""),
      powers: ranks.map(function (rank) {
        return String(counts[rank]).padEnd(countWidth) + layout.powers[rank];
      }).join("\n") || layout.powerless,
      heading: heading, underline: "=".repeat(Array.from(heading).length),
      counted: rules.length + " rule" + (rules.length === 1 ? "" : "s"), ruleset: body.join(""),
      asked: asked ? (+asked.slice(8, 10)) + " " + layout.months[+asked.slice(5, 7) - 1] + " " + (+asked.slice(0, 4)) : ""
    };
    var text = full ? layout.full : layout.short;
    layout.placeholders.forEach(function (name) {
      if (!values[name]) text = text.replace(new RegExp(" *\\{" + name + "\\}", "g"), "");
      text = text.split("{" + name + "}").join(values[name]);
    });
    return layout.keepers ? text : text.replace(/\n+$/, "") + "\n";
  }

  /* A history line is [made, text], or [made, texts, [[names list, index into texts], ...]] where the names
     lists differ on it (report_pieces._history_piece). */
  function notesText(layout, notes, index, namesAt) {
    var history = notes ? notes[0].filter(function (h) { return h[0] <= index; }).map(function (h) {
      if (typeof h[1] === "string") return h[1];
      return h[1][h[2].filter(function (run) { return run[0] <= namesAt; }).pop()[1]];
    }) : [];
    var annotations = notes ? notes[1].filter(function (a) {
      return a[0] <= index && (a[1] === -2 || a[1] > index);
    }).map(function (a) { return a[2]; }) : [];
    var out = "";
    if (history.length || layout.always) out += layout.history_head + history.join("") + layout.history_tail;
    if (annotations.length || layout.always) {
      out += layout.annotations_head + annotations.join("") + layout.annotations_tail;
    }
    return out;
  }

  /* A promise of the report (full or short) of the point `point` (as NOMIC.resolvePoint gives it): the versions
     in force from the points pieces, their lines from the report's pieces of the same numbers. */
  NOMIC.reportAt = function (point, full) {
    var index = point.index;
    return NOMIC.piecesAt(index).then(function (numbers) {
      return Promise.all([load("index.js"), NOMIC.rulesAt(index), full ? load("notes.js") : {}]
        .concat(numbers.map(function (n) { return load(n + ".js"); })));
    }).then(function (loaded) {
      var layout = loaded[0].layout, versions = loaded[1], notes = loaded[2], pieces = loaded.slice(3);
      var lines = {};
      pieces.forEach(function (data) {
        data.versions.forEach(function (v) { lines[v[0] + "/" + v[1]] = v; });
      });
      var rules = versions.map(function (v) {
        var line = lines[v[0] + "/" + v[5]];
        return { identity: v[0], number: v[2], rule_class: v[3], power: line[2], toc: line[3], block: line[4] };
      });
      var own = pieces[pieces.length - 1];
      var figures = index < 0 ? own.start : own.points[index - own.first];
      var asked = ISO_DAY.test(point.name) ? point.name : "";
      return assemble(layout, rules, notes, figures, index, full, asked);
    });
  };

  var box = document.getElementById("as-of-report");
  if (!box) return;
  var shown = null, wanted = null, url = null, asks = 0;
  var text = box.querySelector(".report-text");
  var status = box.querySelector(".report-status");
  var actions = box.querySelector(".report-actions");
  var download = box.querySelector(".report-download");

  function say(words) { status.textContent = words; }

  function draw() {
    if (!shown || !wanted) return;
    var point = shown, full = wanted === "full", ask = ++asks;
    say("Assembling the " + wanted + " report\u2026");
    NOMIC.reportAt(point, full).then(function (report) {
      if (ask !== asks) return;  // another point or form was asked for meanwhile
      text.textContent = report;
      text.hidden = false;
      actions.hidden = false;
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(new Blob([report], { type: "text/plain;charset=utf-8" }));
      download.href = url;
      download.download = NOMIC.game + "-" + point.name + "-" + wanted + ".txt";
      var lines = report.split("\n").length - 1;
      say("The " + wanted + " report of these rules: " + lines.toLocaleString("en") + " lines.");
    }).catch(function (error) { if (ask === asks) say(error.message); });
  }

  box.querySelectorAll("button[data-report]").forEach(function (button) {
    button.addEventListener("click", function () {
      wanted = button.getAttribute("data-report");
      box.querySelectorAll("button[data-report]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(b === button));
      });
      draw();
    });
  });

  box.querySelector(".report-copy").addEventListener("click", function () {
    var copied = navigator.clipboard && navigator.clipboard.writeText(text.textContent);
    (copied || Promise.reject(new Error())).then(function () { say("Copied."); }, function () {
      var range = document.createRange();  // no clipboard here (a file:// page): selected, for Ctrl+C
      range.selectNodeContents(text);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      say("Selected: copy it with Ctrl+C.");
    });
  });

  document.addEventListener("nomic:rules-shown", function (event) {
    shown = event.detail;
    box.hidden = false;
    text.hidden = actions.hidden = true;  // the last point's report is not this one's
    say("");
    if (wanted) draw();
  });
}());
