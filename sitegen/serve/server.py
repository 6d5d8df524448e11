"""The dev HTTP server: serves the last complete build from memory, with the reload channel beside it."""

from __future__ import annotations

import http.server
import ipaddress
import mimetypes
import socket
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import urlsplit

from sitegen.serve.livereload import CLIENT_JS, EVENTS_PATH, SCRIPT_PATH, WORKER_JS, WORKER_PATH, ReloadHub, inject
from sitegen.serve.notfound import with_notice
from sitegen.serve.paths import resolve_request

IDLE_TIMEOUT = 30.0
"""Seconds before a connection that sends nothing is closed (event streams write every 10 s)."""
_TEXT_TYPES = ("text/", "application/javascript", "application/json", "application/xml", "image/svg+xml",
               "application/atom+xml", "application/rss+xml")
mimetypes.add_type("application/atom+xml", ".atom")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("application/manifest+json", ".webmanifest")


BUILDING_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Building... - sitegen</title>
<meta http-equiv="refresh" content="2"></head>
<body><p>sitegen is building the site; this page reloads when it is ready.</p></body></html>"""
"""What every page request gets until the first build is complete (the live-reload script reloads it then; the
refresh covers `--no-reload`)."""


@dataclass(frozen=True)
class Snapshot:
    """One complete build: replaced as a whole, so a request never sees half of a rebuild."""

    files: Mapping[str, bytes]
    base_path: str = "/"
    left_out: dict[str, str] = field(default_factory=dict)
    """Output path of a page the build left out (draft, future, expired) -> why, for its 404 (`notfound.py`)."""
    building: bool = False
    """No build is complete yet: every page request gets the building page (503), never part of a site."""


@dataclass
class ServerState:
    """What every request handler reads."""

    snapshot: Snapshot
    hub: ReloadHub
    allowed_hosts: set[str] = field(default_factory=set)
    """Host headers accepted (`127.0.0.1:8000`, `localhost:8000`); empty means any (bound to the network)."""
    reload: bool = True


def content_type(path: str) -> str:
    """A Content-Type with `charset=utf-8` for text."""
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith(_TEXT_TYPES) else kind


class DevRequestHandler(http.server.BaseHTTPRequestHandler):
    """GET/HEAD over the snapshot; `/__sitegen/*` for the reload channel."""

    protocol_version = "HTTP/1.1"
    server_version = "sitegen"
    sys_version = ""
    timeout = IDLE_TIMEOUT
    """Seconds a connection may send nothing (socket timeout): idle keep-alive sockets are closed."""
    state: ServerState  # set on the subclass made by make_server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def version_string(self) -> str:
        return "sitegen"

    def _host_ok(self) -> bool:
        allowed = self.state.allowed_hosts
        host = (self.headers.get("Host") or "").lower()
        if allowed and host not in allowed:
            return False
        origin = self.headers.get("Origin")
        if origin is not None and self.path.startswith("/__sitegen/"):
            parts = urlsplit(origin)
            netloc = parts.netloc.lower()
            if parts.scheme != "http" or netloc != host or (allowed and netloc not in allowed):
                return False
        return True

    def _send(self, status: int, body: bytes, ctype: str = "text/plain; charset=utf-8",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        if not self._host_ok():
            self._send(HTTPStatus.FORBIDDEN, b"Forbidden: unexpected Host or Origin\n")
            return
        path = self.path
        if path.startswith("/__sitegen/"):
            self._sitegen(path.split("?", 1)[0])
            return
        snapshot = self.state.snapshot
        if snapshot.building:
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, inject(BUILDING_PAGE, self.state.hub)
                       if self.state.reload else BUILDING_PAGE, "text/html; charset=utf-8", {"Retry-After": "1"})
            return
        if snapshot.base_path != "/" and path.split("?")[0] in ("/", ""):
            self._send(HTTPStatus.FOUND, b"", extra={"Location": snapshot.base_path})
            return
        found = resolve_request(path, snapshot.files, snapshot.base_path)
        if found.status == 301:
            self._send(HTTPStatus.MOVED_PERMANENTLY, b"", extra={"Location": found.location})
        elif found.status == 200:
            self._file(found.key, HTTPStatus.OK)
        elif found.status == 400:
            self._send(HTTPStatus.BAD_REQUEST, b"Bad request\n")
        elif snapshot.left_out and (why := _left_out(path, snapshot)):
            body = with_notice(snapshot.files.get("404.html"), why)
            self._send(HTTPStatus.NOT_FOUND, inject(body, self.state.hub) if self.state.reload else body,
                       "text/html; charset=utf-8")
        elif "404.html" in snapshot.files:
            self._file("404.html", HTTPStatus.NOT_FOUND)
        else:
            self._send(HTTPStatus.NOT_FOUND, b"Not found\n")

    def _file(self, key: str, status: int) -> None:
        body = self.state.snapshot.files[key]
        ctype = content_type(key)
        if self.state.reload and ctype.startswith("text/html"):
            body = inject(body, self.state.hub)
        self._send(status, body, ctype)

    def _sitegen(self, path: str) -> None:
        if path == SCRIPT_PATH:
            self._send(HTTPStatus.OK, CLIENT_JS.encode(), "text/javascript; charset=utf-8")
        elif path == WORKER_PATH:
            self._send(HTTPStatus.OK, WORKER_JS.encode(), "text/javascript; charset=utf-8")
        elif path == EVENTS_PATH and self.state.reload:
            self._events()
        else:
            self._send(HTTPStatus.NOT_FOUND, b"Not found\n")

    def _events(self) -> None:
        hub = self.state.hub
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            hello = hub.hello()
            self.wfile.write(f"retry: 500\nevent: {hello.name}\ndata: {hello.data}\n\n".encode())
            self.wfile.flush()
            seq = -1
            while not hub.closed:
                seq, events = hub.wait(seq, timeout=10.0)
                if hub.closed:
                    break
                chunk = "".join(f"event: {e.name}\ndata: {e.data}\n\n" for e in events) or ": ping\n\n"
                self.wfile.write(chunk.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


def _left_out(path: str, snapshot: Snapshot) -> str | None:
    """The explanation for a request of a left-out page (`/posts/x/`, or `/posts/x` without the slash)."""
    found = resolve_request(path, set(snapshot.left_out), snapshot.base_path)
    if found.status == 301:
        found = resolve_request(found.location, set(snapshot.left_out), snapshot.base_path)
    return snapshot.left_out.get(found.key) if found.status == 200 else None


class DevServer(http.server.ThreadingHTTPServer):
    """Threads per connection (keep-alive and event streams), daemon threads so Ctrl-C is immediate."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser closing a tab (or an idle socket timing out) is normal, not a traceback on the terminal."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class DevServer6(DevServer):
    """The dev server on an IPv6 address."""

    address_family = socket.AF_INET6


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 and `localhost`."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(host: str, port: int, state: ServerState) -> DevServer:
    """Bind (raises OSError when the port is taken) and remember which Host headers to accept."""
    handler = type("BoundHandler", (DevRequestHandler,), {"state": state})
    server_class = DevServer6 if ":" in host else DevServer
    server = server_class((host, port), handler)
    bound = server.server_address[1]
    state.allowed_hosts = allowed_hosts(host, bound)
    return server


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers a loopback server accepts (empty: any, when bound to the network).

    On port 80 browsers leave the port out (`Host: localhost`), so both spellings are accepted.
    """
    if not is_loopback(host):
        return set()
    names = {host, "localhost", "127.0.0.1", "[::1]"} | ({f"[{host}]"} if ":" in host else set())
    return {f"{n}:{port}" for n in names} | (names if port == 80 else set())


def serve_in_thread(server: DevServer) -> threading.Thread:
    """Run the server loop in a daemon thread."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True,
                              name="sitegen-http")
    thread.start()
    return thread
