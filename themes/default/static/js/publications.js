// The publications page: a "Copy" button on each BibTeX block, and filters by year and type.
// Without JavaScript the page is a plain list and <details> still folds abstracts and BibTeX.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll(".pub-bibtex").forEach(function (box) {
    var code = box.querySelector("code");
    if (!code) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "pub-copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy BibTeX to clipboard");
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard) { navigator.clipboard.writeText(code.textContent).then(done, function () { button.textContent = "Copy failed"; }); }
    });
    box.querySelector("pre").before(button);
  });

  var form = document.querySelector("[data-pub-filter]");
  var entries = Array.prototype.slice.call(document.querySelectorAll(".pub[data-year]"));
  if (!form || entries.length < 2) { return; }
  var values = function (attr) {
    var seen = [];
    entries.forEach(function (e) { var v = e.getAttribute(attr); if (v && seen.indexOf(v) < 0) { seen.push(v); } });
    return seen;
  };
  var fill = function (select, items, label) {
    items.forEach(function (v) { var o = document.createElement("option"); o.value = v; o.textContent = label(v); select.appendChild(o); });
  };
  fill(form.elements.year, values("data-year").sort().reverse(), function (v) { return v; });
  fill(form.elements.type, values("data-type").sort(), function (v) { return v.charAt(0).toUpperCase() + v.slice(1); });
  var count = form.querySelector(".pub-count");
  var apply = function () {
    var year = form.elements.year.value, type = form.elements.type.value, shown = 0;
    entries.forEach(function (e) {
      var ok = (!year || e.getAttribute("data-year") === year) && (!type || e.getAttribute("data-type") === type);
      e.hidden = !ok;
      if (ok) { shown += 1; }
    });
    document.querySelectorAll(".pub-year").forEach(function (s) { s.hidden = !s.querySelector(".pub:not([hidden])"); });
    count.textContent = shown + " of " + entries.length;
  };
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.hidden = false;
  apply();
});
