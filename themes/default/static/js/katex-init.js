// Typeset math kept by sitegen as \( … \) and \[ … \] inside .math elements, with the KaTeX shipped in the theme.
document.addEventListener("DOMContentLoaded", function () {
  if (typeof renderMathInElement !== "function") return;
  document.querySelectorAll(".math").forEach(function (el) {
    renderMathInElement(el, {
      delimiters: [{ left: "\\[", right: "\\]", display: true }, { left: "\\(", right: "\\)", display: false }],
      throwOnError: false
    });
  });
});
