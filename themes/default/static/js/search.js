// Client-side search over the sharded index in /searchindex/ (see sitegen/outputs/search.py): fetches
// meta.json, the packs of shards holding the query's words, and one small bundle per result shown. Prefixes match
// ("transf" finds transformer), words of five letters or more tolerate one typo, Chinese/Japanese/Korean
// text matches as character pairs, pages in the reader's language come first. No framework, no third party.
(function () {
  "use strict";
  var form = document.querySelector(".search-form");
  if (!form) return;
  var input = document.getElementById("search-input");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var more = document.getElementById("search-more");
  var base = form.getAttribute("data-index");
  var PAGE = 10, VERSION = 2;  // the index format this reads (sitegen/outputs/search.py VERSION)
  var CJK = "\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff";
  CJK += "\u{20000}-\u{3134f}";
  var CJK_RUN = new RegExp("[" + CJK + "]+", "gu");
  var LATIN = new RegExp("(?:(?![" + CJK + "])[\\p{L}\\p{N}]){1,40}", "gu");
  var meta = null, packs = {}, bundles = {}, current = 0, shown = [], hits = [];
  var packOf = null, bundleStarts = null;

  function get(path) {
    return fetch(base + path + "?h=" + (meta ? meta.h : "")).then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + path);
      return r.json();
    });
  }
  // meta.json is asked of the server each time the page loads (a cached copy of an older index would name files
  // that are gone); every other index file is fetched with its digest (?h=), so a cached one is the right one.
  function loadMeta() {
    if (meta) return Promise.resolve(meta);
    return fetch(base + "meta.json", { cache: "no-cache" }).then(function (r) { return r.json(); }).then(function (m) {
      if (m.v !== VERSION) throw new Error("search index version " + m.v);
      meta = m;
      return m;
    });
  }
  function shardName(key) {
    var out = "";
    for (var i = 0; i < key.length; i++) {
      var c = key[i], code = key.codePointAt(i);
      if (code > 0xffff) { i++; }
      out += /[a-z0-9]/.test(c) ? c : "_" + code.toString(16) + "_";
    }
    return out;
  }
  var CJK_FIRST = new RegExp("^[" + CJK + "]", "u");
  function isCjk(word) { return CJK_FIRST.test(word); }
  // A shard is published in a pack of consecutive shards (meta.packs: how many in each, one base-36 digit),
  // named after its first key.
  function loadShard(key) {
    if (!packOf) {
      packOf = Object.create(null);
      for (var i = 0, k = 0; i < meta.packs.length; i++) {
        var first = meta.keys[k];
        for (var n = parseInt(meta.packs[i], 36); n > 0; n--) packOf[meta.keys[k++]] = first;
      }
    }
    var name = packOf[key];
    if (!packs[name]) packs[name] = get("t/" + shardName(name) + ".json");
    return packs[name].then(function (pack) { return pack[key] || {}; });
  }

  // The query's words: lowercased words, and for CJK runs their character pairs (each must match).
  function words(query) {
    var q = query.toLowerCase(), out = [];
    (q.replace(CJK_RUN, " ").match(LATIN) || []).forEach(function (w) { out.push(w); });
    (q.match(CJK_RUN) || []).forEach(function (run) {
      var chars = Array.from(run);
      if (chars.length === 1) out.push(run);
      for (var i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    });
    return out.filter(function (w, i) { return out.indexOf(w) === i; });
  }

  // At most one edit (insertion, deletion, substitution or swap of neighbours) between a and b?
  function oneEdit(a, b) {
    if (Math.abs(a.length - b.length) > 1) return false;
    var i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  function keysFor(word) {
    var cjk = isCjk(word);
    return meta.keys.filter(function (k) {
      if (word.length < 2 && !cjk) return k === word;
      return word.indexOf(k) === 0 || (k.indexOf(word) === 0);
    });
  }

  // For one query word: page id -> score, and the index terms it matched (for highlighting).
  function match(word) {
    var typo = word.length >= 5 && !isCjk(word);
    return Promise.all(keysFor(word).map(loadShard)).then(function (loaded) {
      var scores = {}, terms = [];
      loaded.forEach(function (shard) {
        Object.keys(shard).forEach(function (term) {
          var factor = term === word ? 1 : term.indexOf(word) === 0 ? 0.7 : typo && oneEdit(term, word) ? 0.5 : 0;
          if (!factor) return;
          terms.push(term);
          var page = 0;
          shard[term].split(".").forEach(function (item) {
            var v = parseInt(item, 36);
            page += Math.floor(v / 16);
            var s = (v % 16) * factor;
            if (!scores[page] || scores[page] < s) scores[page] = s;
          });
        });
      });
      return { scores: scores, terms: terms };
    });
  }

  function search(query) {
    var ws = words(query);
    if (!ws.length) return Promise.resolve({ hits: [], terms: [] });
    return loadMeta().then(function () { return Promise.all(ws.map(match)); }).then(function (results) {
      var total = null;
      results.forEach(function (r) {
        var next = {};
        Object.keys(r.scores).forEach(function (p) {
          if (total === null || total[p] !== undefined) next[p] = (total ? total[p] : 0) + r.scores[p];
        });
        total = next;
      });
      // The reader's language: the page's <html lang>; a query written in Chinese, Japanese or Korean on a
      // page in another language prefers pages in those languages.
      var lang = (document.documentElement.lang || "").toLowerCase().split("-")[0];
      var asian = ["zh", "ja", "ko"], cjkQuery = CJK_FIRST.test(query.replace(/[^\S]|[\x00-\x7f]/g, ""));
      var prefer = cjkQuery && asian.indexOf(lang) < 0 ? asian : [lang];
      var hitsOut = Object.keys(total || {}).map(function (p) {
        var code = meta.doclang[p], pageLang = (meta.langs[parseInt(code, 36)] || "").toLowerCase().split("-")[0];
        return { id: +p, score: total[p], mine: prefer.indexOf(pageLang) >= 0 ? 1 : 0 };
      });
      hitsOut.sort(function (a, b) { return b.mine - a.mine || b.score - a.score || a.id - b.id; });
      var terms = [];
      results.forEach(function (r) { terms = terms.concat(r.terms); });
      return { hits: hitsOut, terms: terms.concat(ws) };
    });
  }

  // A page's result is published in a bundle of consecutive pages (meta.docs: how many in each, one base-36
  // digit), named after its first page.
  function loadDoc(id) {
    if (!bundleStarts) {
      bundleStarts = [];
      for (var i = 0, at = 0; i < meta.docs.length; i++) { bundleStarts.push(at); at += parseInt(meta.docs[i], 36); }
    }
    var lo = 0, hi = bundleStarts.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (bundleStarts[mid] <= id) lo = mid; else hi = mid - 1;
    }
    var start = bundleStarts[lo];
    if (!bundles[start]) bundles[start] = get("p/" + start + ".json");
    return bundles[start].then(function (bundle) { return bundle[id - start]; });
  }

  // The text around the first match, with every match marked (as DOM nodes: no HTML from the index).
  function excerpt(text, terms) {
    var lower = text.toLowerCase(), first = -1;
    terms.forEach(function (t) {
      var at = lower.indexOf(t);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    });
    var start = Math.max(0, first - 80), end = Math.min(text.length, Math.max(first, 0) + 220);
    var piece = text.slice(start, end), pieceLower = piece.toLowerCase();
    var p = document.createElement("p");
    p.className = "summary search-excerpt";
    if (start > 0) p.appendChild(document.createTextNode("…"));
    var sorted = terms.slice().sort(function (a, b) { return b.length - a.length; });
    var i = 0, plain = "";
    while (i < piece.length) {
      var hit = null;
      for (var k = 0; k < sorted.length; k++) {
        if (sorted[k] && pieceLower.substr(i, sorted[k].length) === sorted[k]) { hit = sorted[k]; break; }
      }
      if (hit) {
        if (plain) { p.appendChild(document.createTextNode(plain)); plain = ""; }
        var mark = document.createElement("mark");
        mark.textContent = piece.substr(i, hit.length);
        p.appendChild(mark);
        i += hit.length;
      } else { plain += piece[i]; i++; }
    }
    if (plain) p.appendChild(document.createTextNode(plain));
    if (end < text.length) p.appendChild(document.createTextNode("…"));
    return p;
  }

  function showMore(run, terms) {
    var batch = hits.slice(shown.length, shown.length + PAGE);
    shown = shown.concat(batch);
    if (more) more.hidden = shown.length >= hits.length;
    return Promise.all(batch.map(function (h) { return loadDoc(h.id); })).then(function (loaded) {
      if (run !== current) return;
      loaded.forEach(function (doc) {
        var li = document.createElement("li"), a = document.createElement("a"), h3 = document.createElement("h3");
        a.href = doc.u; a.textContent = doc.t; h3.appendChild(a);
        li.appendChild(h3);
        if (doc.d) {
          var date = document.createElement("p");
          date.className = "meta"; date.textContent = doc.d;
          li.appendChild(date);
        }
        li.appendChild(excerpt(doc.x, terms));
        list.appendChild(li);
      });
    });
  }

  var lastTerms = [];
  function render(query) {
    var run = ++current;
    return search(query).then(function (result) {
      if (run !== current) return;
      list.textContent = "";
      hits = result.hits; shown = []; lastTerms = result.terms;
      if (!query.trim()) { status.textContent = ""; if (more) more.hidden = true; return; }
      status.textContent = hits.length + (hits.length === 1 ? " result" : " results");
      return showMore(run, lastTerms);
    }).catch(function () { if (run === current) status.textContent = "Search is unavailable right now."; });
  }

  function sync(query) {  // the address shows the query, so a search can be shared as a link
    var url = new URL(location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  }

  var timer = null;
  form.addEventListener("submit", function (e) { e.preventDefault(); sync(input.value); render(input.value); });
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { sync(input.value); render(input.value); }, 120);
  });
  if (more) more.addEventListener("click", function () { showMore(current, lastTerms); });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; render(initial); }
})();
