/* nomic-archive: search, theme toggle and the rules-as-of page. Works from file:// (no fetch). */
(function () {
  "use strict";
  var root = document.documentElement;
  Array.prototype.forEach.call(document.querySelectorAll("form.search, form.as-of"), function (form) {
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  });
  var toggle = document.getElementById("theme-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var dark = root.dataset.theme ? root.dataset.theme === "dark"
        : window.matchMedia("(prefers-color-scheme: dark)").matches;
      root.dataset.theme = dark ? "light" : "dark";
      try { localStorage.setItem("nomic-theme", root.dataset.theme); } catch (e) { /* storage may be off */ }
    });
  }

  var box = document.getElementById("search-box");
  var list = document.getElementById("search-results");
  if (box && list && window.NOMIC_SEARCH) {
    var prefix = box.getAttribute("data-root") || "";
    var entries = window.NOMIC_SEARCH.map(function (e) {
      return { e: e, hay: (e.t + " " + e.x).toLowerCase() };
    });
    box.addEventListener("input", function () {
      var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      list.textContent = "";
      if (!words.length) return;
      var found = entries.filter(function (item) {
        return words.every(function (w) { return item.hay.indexOf(w) !== -1; });
      }).slice(0, 12);
      found.forEach(function (item) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = prefix + item.e.u;
        a.textContent = item.e.t;
        var small = document.createElement("small");
        small.textContent = item.e.g + ": " + item.e.x.slice(0, 120);
        li.appendChild(a);
        li.appendChild(small);
        list.appendChild(li);
      });
      if (!found.length) {
        var none = document.createElement("li");
        none.textContent = "Nothing found.";
        list.appendChild(none);
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { list.textContent = ""; }
    });
  }

  var target = document.getElementById("as-of-rules");
  var select = document.getElementById("as-of-entry");
  if (target && select && window.NOMIC_GAME) {
    var show = function () {
      var at = parseInt(select.value, 10);
      var live = window.NOMIC_GAME.versions.filter(function (v) {
        return v[6] <= at && (v[7] === -2 || v[7] > at);
      }).sort(function (a, b) { return a[1] - b[1]; });
      target.textContent = "";
      ["immutable", "mutable"].forEach(function (cls) {
        var rules = live.filter(function (v) { return v[2] === cls; });
        if (!rules.length) return;
        var h2 = document.createElement("h2");
        h2.textContent = cls.charAt(0).toUpperCase() + cls.slice(1) + " Rules";
        target.appendChild(h2);
        rules.forEach(function (v) {
          var article = document.createElement("article");
          article.className = "rule";
          article.id = "rule-" + v[1];
          var h3 = document.createElement("h3");
          var link = document.createElement("a");
          link.href = v[8];
          link.textContent = String(v[1]) + (v[3] ? ". " + v[3] : "");
          h3.appendChild(link);
          var text = document.createElement("div");
          text.className = "rule-text";
          text.innerHTML = v[5]; /* rendered and escaped at build time */
          article.appendChild(h3);
          article.appendChild(text);
          target.appendChild(article);
        });
      });
    };
    select.addEventListener("change", show);
    show();
  }
}());
