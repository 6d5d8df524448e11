"""The reload channel: server-sent events from a hub, a small client script, and its injection into HTML."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass

SCRIPT_PATH = "/__sitegen/reload.js"
WORKER_PATH = "/__sitegen/worker.js"
EVENTS_PATH = "/__sitegen/events"

CLIENT_JS = r"""// sitegen dev server: live reload, stylesheet swaps and the build-error overlay.
// All tabs share one event stream through a SharedWorker (browsers allow only ~6 connections per host).
(function () {
  "use strict";
  var me = document.currentScript;
  var server = me.getAttribute("data-server");
  var epoch = parseInt(me.getAttribute("data-epoch"), 10);
  var key = "sitegen-scroll:" + location.pathname;
  var saved = sessionStorage.getItem(key);
  if (saved !== null) {
    sessionStorage.removeItem(key);
    var restore = function () { window.scrollTo(0, parseInt(saved, 10)); };
    if (document.readyState === "complete") restore(); else window.addEventListener("load", restore);
  }
  function reload() {
    sessionStorage.setItem(key, String(window.scrollY));
    location.reload();
  }
  function overlay(text) {
    var box = document.getElementById("sitegen-error-overlay");
    if (!text) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "sitegen-error-overlay";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:0;z-index:2147483647;background:rgba(20,20,24,.92);" +
        "color:#ffd7d7;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:2rem;overflow:auto";
      var title = document.createElement("div");
      title.style.cssText = "color:#fff;font-weight:bold;margin-bottom:1rem";
      title.textContent = "sitegen: the last change does not build (showing the last good version)";
      var pre = document.createElement("pre");
      pre.style.cssText = "white-space:pre-wrap;margin:0";
      box.appendChild(title); box.appendChild(pre);
      document.body.appendChild(box);
    }
    box.querySelector("pre").textContent = text;
  }
  function swapCss(paths) {
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    Array.prototype.forEach.call(links, function (link) {
      var url = new URL(link.href, location.href);
      if (paths.indexOf(url.pathname) < 0) return;
      var next = link.cloneNode();
      url.searchParams.set("sitegen", String(Date.now()));
      next.href = url.pathname + url.search;
      next.onload = function () { link.remove(); };
      link.after(next);
    });
  }
  function handle(name, raw) {
    var data = JSON.parse(raw);
    if (name === "hello") {
      document.documentElement.dataset.sitegenLive = "connected";  // for tools and tests: the stream is up
      if (data.server !== server || data.epoch > epoch) {
        if (data.error) { overlay(data.error); return; }
        reload();
        return;
      }
      overlay(data.error || "");
    } else if (name === "reload") {
      if (data.epoch > epoch) { epoch = data.epoch; reload(); }
    } else if (name === "css") {
      epoch = data.epoch; overlay(""); swapCss(data.paths);
    } else if (name === "error-overlay") {
      overlay(data.message);
    }
  }
  if (window.SharedWorker) {
    var worker = new SharedWorker("/__sitegen/worker.js", { name: "sitegen-livereload" });
    worker.port.onmessage = function (e) { handle(e.data.name, e.data.data); };
    worker.port.start();
  } else {
    var source = new EventSource("/__sitegen/events");
    ["hello", "reload", "css", "error-overlay"].forEach(function (name) {
      source.addEventListener(name, function (e) { handle(name, e.data); });
    });
  }
})();
"""

WORKER_JS = r"""// sitegen dev server: one event stream shared by every open tab.
var ports = [], source = null, state = null;
function send(name, data) { ports.forEach(function (p) { p.postMessage({ name: name, data: data }); }); }
function connect() {
  source = new EventSource("/__sitegen/events");
  source.addEventListener("hello", function (e) { state = JSON.parse(e.data); send("hello", e.data); });
  source.addEventListener("reload", function (e) {
    if (state) { state.epoch = JSON.parse(e.data).epoch; state.error = null; } send("reload", e.data);
  });
  source.addEventListener("css", function (e) {
    if (state) { state.epoch = JSON.parse(e.data).epoch; state.error = null; } send("css", e.data);
  });
  source.addEventListener("error-overlay", function (e) {
    if (state) state.error = JSON.parse(e.data).message; send("error-overlay", e.data);
  });
}
onconnect = function (e) {
  var port = e.ports[0];
  ports.push(port);
  port.start();
  if (!source) connect(); else if (state) port.postMessage({ name: "hello", data: JSON.stringify(state) });
};
"""


@dataclass(frozen=True)
class Event:
    """One message to every open tab."""

    seq: int
    name: str
    data: str


class ReloadHub:
    """Keeps the build epoch and the last error, and wakes every waiting event stream."""

    def __init__(self) -> None:
        self.server_id = secrets.token_hex(8)
        self.epoch = 1
        self.error: str | None = None
        self._events: list[Event] = []
        self._seq = 0
        self._cond = threading.Condition()
        self.closed = False

    def _publish(self, name: str, payload: dict[str, object]) -> None:
        with self._cond:
            self._seq += 1
            self._events.append(Event(self._seq, name, json.dumps(payload)))
            del self._events[:-50]
            self._cond.notify_all()

    def built(self, css_only: list[str] | None) -> None:
        """A new build is live: swap stylesheets when only CSS changed, else reload."""
        with self._cond:
            self.epoch += 1
            self.error = None
        if css_only:
            self._publish("css", {"epoch": self.epoch, "paths": css_only})
        else:
            self._publish("reload", {"epoch": self.epoch})

    def failed(self, message: str) -> None:
        """The last change does not build: show the overlay, keep serving the last good site."""
        with self._cond:
            self.error = message
        self._publish("error-overlay", {"message": message})

    def hello(self) -> Event:
        """The first event of a stream: who the server is, which build is live, and any error."""
        return Event(0, "hello", json.dumps({"server": self.server_id, "epoch": self.epoch, "error": self.error}))

    def wait(self, after: int, timeout: float) -> tuple[int, list[Event]]:
        """Events newer than `after` (blocks up to `timeout` seconds)."""
        with self._cond:
            if after == -1:
                after = self._seq
            if not self.closed and not any(e.seq > after for e in self._events):
                self._cond.wait(timeout)
            fresh = [e for e in self._events if e.seq > after]
            return (fresh[-1].seq if fresh else after), fresh

    def close(self) -> None:
        """Wake every stream so that it ends (server shutdown)."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()


def inject(html: bytes, hub: ReloadHub) -> bytes:
    """Add the reload script once, just before `</body>` (or at the end)."""
    tag = (f'<script src="{SCRIPT_PATH}" data-server="{hub.server_id}" data-epoch="{hub.epoch}"></script>'
           ).encode()
    # Only the tag itself counts as already injected: a page that merely mentions the path (a post about the
    # dev server) has it escaped or in text, and still needs the script.
    if f'<script src="{SCRIPT_PATH}"'.encode() in html:
        return html
    index = html.lower().rfind(b"</body>")
    return html[:index] + tag + html[index:] if index >= 0 else html + tag
