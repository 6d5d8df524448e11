// A talk's time in the visitor's own zone, beside the time where it happens (only when the two differ).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("time[data-local]").forEach(function (t) {
    var text = t.getAttribute("datetime") || "";
    var when = new Date(text);
    var offset = /([+-])(\d{2}):(\d{2})$/.exec(text);
    if (isNaN(when.getTime()) || !offset) { return; }
    var minutes = (offset[1] === "-" ? -1 : 1) * (parseInt(offset[2], 10) * 60 + parseInt(offset[3], 10));
    if (minutes === -when.getTimezoneOffset()) { return; }
    var format = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    var local = document.createElement("span");
    local.className = "talk-local";
    local.textContent = "Your time: " + format.format(when);
    t.parentNode.appendChild(local);
  });
});
