/* nomic-archive: points of a game in the browser, for "rules as of" and "compare" (static/compare.js).
   A point is named as in URLs, comparison pages and `diff GAME@…`, with one meaning each
   (generator/model/points.py, whose syntax the manifest carries): start, now, a proposal's page name (312,
   the first proposal numbered 312; 312-2, the second; 8221A, a decision taken again on 8221), judgment-N (the first judgment numbered N),
   judgment-cfj-4153 (the first judgment named by its case, CFJ 4153), entry-N, or a date (after the last
   entry dated on or before it).
   Its data comes in pieces (generator/site/points.py) loaded through NOMIC.load from site.js. */
(function () {
  "use strict";
  var NOMIC = window.NOMIC;
  var form = document.querySelector("form.point-form");
  if (!NOMIC || !form) return;
  var root = form.getAttribute("data-root") || "";
  var game = form.getAttribute("data-game");

  /* A piece of the game's data (`points/3.js`), loaded once; static/report.js loads the report's through it. */
  NOMIC.game = game;
  NOMIC.gamePiece = function (path) { return NOMIC.load(root, game + "/" + path); };
  function piece(n) { return NOMIC.gamePiece("points/" + n + ".js"); }

  /* A point's name read as generator/model/points.py reads it, with the syntax the manifest carries from
     there (and the hint that says what a point is): {kind, name, number, use}, or null when it names no point. */
  function read(manifest, text) {
    var name = text.trim().toLowerCase().replace(/^proposal\s+/, "");
    if (name === "start" || name === "now") return { kind: name, name: name };
    if (name === "") return { kind: "now", name: "now" };
    var kinds = Object.keys(manifest.syntax);
    for (var k = 0; k < kinds.length; k++) {
      var m = new RegExp(manifest.syntax[kinds[k]]).exec(name);
      if (!m) continue;
      if (kinds[k] === "case") return { kind: "case", name: name };  // found by its name (the manifest's)
      var proposal = kinds[k] === "proposal";  // its second group is a decision's letter (8221A), its third the use
      var letter = proposal && m[2] ? m[2].toUpperCase() : "", used = proposal ? m[3] : m[2];
      var number = m[1] === undefined ? 0 : +m[1], use = used === undefined ? 1 : +used;
      if (use < 1 || (kinds[k] === "entry" && number < 1)) return null;
      var day = kinds[k] === "date" ? new Date(name + "T00:00:00Z") : null;  // 2005-02-30 is no date
      if (day && (isNaN(day) || day.toISOString().slice(0, 10) !== name)) return null;
      var point = { kind: kinds[k], number: number, use: use };
      point.name = kinds[k] === "date" ? name : proposal ? (use === 1 ? number + letter :
        number + letter + "-" + use) : kinds[k] + "-" + number;
      return point;
    }
    return null;
  }

  /* The piece numbers worth looking in for a point: for a date, newest first (the last entry on or before
     it); for a proposal or a judgment, oldest first (its first use, as `diff GAME@…` and the log's anchors
     take it; a reused proposal number's later uses are named 312-2, ...). */
  function candidates(manifest, point) {
    var all = manifest.pieces.map(function (_, i) { return i; });
    var found = all.filter(function (i) {
      var p = manifest.pieces[i];
      if (point.kind === "date") return p[0] && p[0] <= point.name;
      if (point.kind === "judgment") return p[3] && p[3][0] <= point.number && point.number <= p[3][1];
      if (point.kind === "case") return p[4] && p[4].indexOf(point.name) >= 0;
      if (point.kind === "proposal") return p[2] && p[2][0] <= point.number && point.number <= p[2][1];
      return false;
    });
    return point.kind === "date" ? found.reverse() : found;
  }

  /* A promise of {index, entry} for a point's name, or a rejection saying what is wrong. */
  NOMIC.resolvePoint = function (text) {
    return NOMIC.load(root, game + "/points/index.js").then(function (manifest) {
      var last = manifest.count - 1, point = read(manifest, text);
      var missing = "No entry is named \u201c" + text.trim() + "\u201d in this game.";
      if (!point) throw new Error(missing + " " + manifest.hint.charAt(0).toUpperCase() + manifest.hint.slice(1) + ".");
      if (point.kind === "start") return { index: -1, name: "start" };
      if (point.kind === "now") return last < 0 ? { index: -1, name: "start" } : at(manifest, last);
      if (point.kind === "entry") {
        if (point.number <= manifest.count) return at(manifest, point.number - 1);
        throw new Error(missing);
      }
      var date = point.kind === "date";
      var look = candidates(manifest, point);
      var next = function () {
        if (!look.length) {
          if (date) return { index: -1, name: point.name };  // before the first dated entry: the initial set
          throw new Error(missing);
        }
        var n = look.shift();
        return piece(n).then(function (data) {
          var count = data.entries.length;
          for (var j = 0; j < count; j++) {
            var i = date ? count - 1 - j : j, e = data.entries[i];
            if (date ? e[3] && e[3] <= point.name : e[0] === point.name) {
              return { index: data.first + i, name: date ? point.name : e[0], entry: e };
            }
          }
          return next();
        });
      };
      return next();
    });
  };

  function at(manifest, index) {
    return piece(Math.floor(index / manifest.per)).then(function (data) {
      var e = data.entries[index - data.first];
      return { index: index, name: e[0], entry: e };
    });
  }

  /* The numbers of the pieces that hold the versions in force after entry `index` (-1: the start): the keyframe
     before the point's piece, and the pieces from there to the point's (whose last holds the point). The report's
     pieces (static/report.js) go by the same numbers. */
  NOMIC.piecesAt = function (index) {
    return NOMIC.load(root, game + "/points/index.js").then(function (manifest) {
      var last = Math.max(0, Math.floor(index / manifest.per)), numbers = [];
      for (var n = last - last % manifest.keyframe; n <= last; n++) numbers.push(n);
      return numbers;
    });
  };

  /* The versions in force after entry `index` (-1: the start), by number: from the keyframe before the
     point's piece (the ruleset in force at its first entry) and the versions that came into force in it
     and in the pieces up to the point's. */
  NOMIC.rulesAt = function (index) {
    return NOMIC.piecesAt(index).then(function (numbers) {
      return Promise.all(numbers.map(piece));
    }).then(function (pieces) {
      var versions = [].concat.apply([], pieces.map(function (data) { return data.versions; }));
      return versions.filter(function (v) { return v[5] <= index && (v[6] === -2 || v[6] > index); })
        .sort(function (a, b) { return a[2] - b[2]; });
    });
  };

  /* "after <a>proposal 312</a>: Title (date)", or "at the start of the game", as DOM. */
  NOMIC.describePoint = function (point, prefix) {
    var span = document.createElement("span");
    if (point.index === -1) {
      span.textContent = point.name === "start" ? "at the start of the game" : "on " + point.name +
        ", before the first entry (the initial set)";
      return span;
    }
    var e = point.entry;
    span.appendChild(document.createTextNode("after "));
    var a = document.createElement("a");
    a.href = prefix + e[4];
    a.textContent = e[1];
    span.appendChild(a);
    span.appendChild(document.createTextNode((e[2] ? ": " + e[2] : "") + (e[3] ? " (" + e[3] + ")" : "")));
    return span;
  };

  /* The form's fields from the URL (?at=312, or #at=312), and back when a view is picked. */
  NOMIC.pointParams = function (names) {
    var params = new URLSearchParams(location.search);
    var hash = new URLSearchParams(location.hash.replace(/^#/, ""));
    var values = {};
    names.forEach(function (n) {
      var field = form.elements[n];
      field.value = params.get(n) || hash.get(n) || field.defaultValue;
      values[n] = field.value;
    });
    return values;
  };
  NOMIC.pushPoints = function (names) {
    var params = new URLSearchParams();
    names.forEach(function (n) { params.set(n, form.elements[n].value.trim()); });
    var url = "?" + params.toString();
    if (url !== location.search) history.pushState(null, "", url);
  };

  NOMIC.showProblem = function (target, error) {
    target.textContent = "";
    var p = document.createElement("p");
    p.className = "problem";
    p.setAttribute("role", "alert");
    p.textContent = error.message;
    target.appendChild(p);
  };

  var target = document.getElementById("as-of-result");
  if (!target) return;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show() {
    var values = NOMIC.pointParams(["at"]);
    NOMIC.resolvePoint(values.at).then(function (point) {
      return NOMIC.rulesAt(point.index).then(function (rules) {
        target.textContent = "";
        var heading = element("p", "as-of-point");
        heading.appendChild(document.createTextNode("The rules "));
        heading.appendChild(NOMIC.describePoint(point, ""));
        heading.appendChild(document.createTextNode(": " + rules.length + " rule" + (rules.length === 1 ? "" : "s") + "."));
        target.appendChild(heading);
        /* In their classes where the rules then are of two (in a game of powers all are of one, named nowhere) */
        var classes = ["immutable", "mutable"].filter(function (cls) {
          return rules.some(function (v) { return v[3] === cls; });
        });
        classes.forEach(function (cls) {
          var some = rules.filter(function (v) { return v[3] === cls; });
          var section = element("section", "rule-class");
          if (classes.length > 1) {
            section.appendChild(element("h2", "", cls.charAt(0).toUpperCase() + cls.slice(1) + " Rules"));
          }
          some.forEach(function (v) {
            var article = element("article", "rule");
            article.id = "rule-" + v[2];
            var heading = element(classes.length > 1 ? "h3" : "h2"); /* under its class's, or the page's */
            var link = element("a", "", String(v[2]) + (v[4] ? ". " + v[4] : ""));
            link.href = "rules/" + v[7];
            heading.appendChild(link);
            var text = element("div", "rule-text");
            text.innerHTML = v[8]; /* rendered and escaped at build time */
            article.appendChild(heading);
            article.appendChild(text);
            section.appendChild(article);
          });
          target.appendChild(section);
        });
        /* The text report of these rules, when the reader asks for it (static/report.js) */
        document.dispatchEvent(new CustomEvent("nomic:rules-shown", { detail: point }));
        /* A link to a rule as of a point (the verification page's) lands on it once it is drawn */
        var named = location.hash && document.getElementById(location.hash.slice(1));
        if (named) named.scrollIntoView();
      });
    }).catch(function (error) { NOMIC.showProblem(target, error); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    NOMIC.pushPoints(["at"]);
    show();
  });
  window.addEventListener("popstate", show);
  show();
}());
