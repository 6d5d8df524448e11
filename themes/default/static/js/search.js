// Client-side search over /search/index.json: case-insensitive substring matching (works for CJK text).
(function () {
  "use strict";
  var form = document.querySelector(".search-form");
  if (!form) return;
  var input = document.getElementById("search-input");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var pages = null;

  function load() {
    if (pages) return Promise.resolve(pages);
    return fetch(form.getAttribute("data-index")).then(function (r) { return r.json(); })
      .then(function (data) { pages = data.pages; return pages; });
  }

  function score(page, terms) {
    var title = page.title.toLowerCase(), meta = (page.summary + " " + page.terms.join(" ")).toLowerCase();
    var text = page.text.toLowerCase(), total = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i], s = 0;
      if (title.indexOf(t) >= 0) s += 10;
      if (meta.indexOf(t) >= 0) s += 4;
      if (text.indexOf(t) >= 0) s += 1;
      if (s === 0) return 0;
      total += s;
    }
    return total;
  }

  function render(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!terms.length) { status.textContent = ""; return; }
    var hits = pages.map(function (p) { return { page: p, score: score(p, terms) }; })
      .filter(function (h) { return h.score > 0; })
      .sort(function (a, b) { return b.score - a.score || (a.page.date < b.page.date ? 1 : -1); });
    status.textContent = hits.length + (hits.length === 1 ? " result" : " results");
    hits.slice(0, 50).forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a"), h3 = document.createElement("h3");
      var meta = document.createElement("p"), summary = document.createElement("p");
      a.href = h.page.url; a.textContent = h.page.title; h3.appendChild(a);
      meta.className = "meta"; meta.textContent = h.page.date;
      summary.className = "summary"; summary.textContent = h.page.summary;
      li.appendChild(h3); li.appendChild(meta); li.appendChild(summary); list.appendChild(li);
    });
  }

  form.addEventListener("submit", function (e) { e.preventDefault(); });
  input.addEventListener("input", function () { load().then(function () { render(input.value); }); });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; load().then(function () { render(initial); }); }
})();
