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
    session = ServeSession(options, reload=not args.no_reload, say=say)
    if not is_loopback(args.host):
        print(f"warning: binding {args.host}: the preview (drafts included) is reachable from the network",
              file=sys.stderr)
    port = 8000 if args.port is None else args.port
    host, bound = session.start(args.host, port, auto_port=args.port is None)
    if args.port is None and bound != port:
        say(f"Port {port} is in use; using {bound} instead.")
    shown = f"[{host}]" if ":" in host else host
    base = session.state.snapshot.base_path
    url = f"http://{shown}:{bound}{base}"
    print(f"Serving {args.source} at {url} (Ctrl-C to stop)", flush=True)
    if args.open:
        webbrowser.open(url)
    stopped = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stopped.set()

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        while not stopped.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        session.stop()
        say("Stopped.")
    return 0
