// Adds a "Copy" button to every highlighted code block.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("div.highlight").forEach(function (block) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code to clipboard");
    button.addEventListener("click", function () {
      var code = block.querySelector("code") || block.querySelector("pre");
      var text = Array.prototype.map.call(code.childNodes, function (node) {
        return node.classList && node.classList.contains("linenos") ? "" : node.textContent;
      }).join("");
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done, function () {}); }
    });
    block.appendChild(button);
  });
});
