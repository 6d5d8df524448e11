"""`sitegen serve`: preview with live reload on 127.0.0.1 (see sitegen/serve/)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import webbrowser
from pathlib import Path
from types import FrameType

from sitegen.build import BuildOptions
from sitegen.parallel import tune_gc_for_builds
from sitegen.serve.server import is_loopback
from sitegen.serve.session import ServeSession


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of `sitegen serve`."""
    parser.add_argument("--source", "-s", type=Path, default=Path("."), help="site folder (default: .)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", "-p", type=int, default=None,
                        help="port (default: 8000, or the next free one); 0 picks any free port")
    parser.add_argument("--drafts", action="store_true", help="include draft pages")
    parser.add_argument("--future", action="store_true", help="include future-dated pages")
    parser.add_argument("--open", action="store_true", help="open the site in a browser")
    parser.add_argument("--no-reload", action="store_true", help="serve without live reload")


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM."""
    say = (lambda _msg: None) if args.quiet else (lambda msg: print(msg, flush=True))
    options = BuildOptions(source=args.source, drafts=args.drafts, future=args.future)
    tune_gc_for_builds()
    session = ServeSession(options, reload=not args.no_reload, say=say)
    if not is_loopback(args.host):
        print(f"warning: binding {args.host}: the preview (drafts included) is reachable from the network",
              file=sys.stderr)
    port = 8000 if args.port is None else args.port
    stopped = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stopped.set()

    # Everything from the first build on runs inside `try`: a signal at any moment, even right after the address
    # is printed, stops the server through `finally`. Until the server runs, SIGTERM raises KeyboardInterrupt
    # (sitegen.cli), so that it also cuts a long first build short; then it just ends the wait.
    previous = None
    started = False

    def listening(host: str, bound: int) -> None:
        # The browser can be opened at once: it shows a building page until the first build is complete.
        if args.port is None and bound != port:
            say(f"Port {port} is in use; using {bound} instead.")
        say(f"Building {args.source}; {_url(host, bound)} shows the site once it is built")
        if args.open:
            webbrowser.open(_url(host, bound))

    try:
        host, bound = session.start(args.host, port, auto_port=args.port is None, listening=listening)
        started = True
        previous = signal.signal(signal.SIGTERM, on_signal)
        url = _url(host, bound, session.state.snapshot.base_path)
        print(f"Serving {args.source} at {url} (Ctrl-C to stop)", flush=True)
        while not stopped.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        session.stop()
        if started:
            say("Stopped.")
    return 0


def _url(host: str, port: int, base_path: str = "/") -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{base_path}"
