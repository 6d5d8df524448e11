// Adds a "Copy" button to every highlighted code block.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("div.highlight").forEach(function (block) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code to clipboard");
    button.addEventListener("click", function () {
      // Line numbers sit inside highlighted lines too (<span class="hll"><span class="linenos">), so drop
      // them from a copy of the block rather than skipping top-level nodes only.
      var code = (block.querySelector("code") || block.querySelector("pre")).cloneNode(true);
      code.querySelectorAll(".linenos").forEach(function (n) { n.remove(); });
      var text = code.textContent;
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done, function () {}); }
    });
    block.appendChild(button);
  });
});
