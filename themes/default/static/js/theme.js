// Keyboard-scrollable wide blocks, and the light/dark toggle: shown once this runs (without JavaScript the page follows the system setting). A choice
// is remembered in localStorage ("sitegen-theme") and applied before the first paint by the inline script in
// partials/theme-init.html, so a reload never flashes the other theme.
(function () {
  // Code blocks and tables wider than the screen scroll sideways: let the keyboard reach and scroll them too.
  document.querySelectorAll(".highlight pre, .prose table, .math.block").forEach(function (el) {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  });
  var root = document.documentElement;
  var button = document.querySelector(".theme-toggle");
  if (!button) return;
  var system = window.matchMedia("(prefers-color-scheme: dark)");
  function current() { return root.getAttribute("data-theme") || (system.matches ? "dark" : "light"); }
  function show() { button.setAttribute("aria-pressed", current() === "dark" ? "true" : "false"); }
  button.hidden = false;
  show();
  button.addEventListener("click", function () {
    var next = current() === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("sitegen-theme", next); } catch (e) { /* private mode: the choice lasts this page */ }
    show();
  });
  if (system.addEventListener) system.addEventListener("change", show);
})();
