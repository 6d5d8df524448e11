"""`sitegen serve` as a process: the address it prints, Ctrl-C and SIGTERM, ports in use."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.serve.conftest import SITE

MakeSite = Callable[..., Path]


def start(site: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--source", str(site), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("Serving "):
            return proc, line.split(" at ", 1)[1].split(" ", 1)[0]
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("server did not start")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_within_a_second_and_frees_the_port(make_site: MakeSite, sig: int) -> None:
    site = make_site(SITE)
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    proc, url = start(site, "--port", "0")
    assert urllib.request.urlopen(url).status == 200  # noqa: S310 - loopback only
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    started = time.monotonic()
    proc.send_signal(sig)
    proc.wait(timeout=5)
    assert time.monotonic() - started < 1.0
    assert proc.returncode == 0
    with socket.socket() as sock:  # a new server (SO_REUSEADDR, as every server sets) can take the port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen()
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before, "serve never writes into the site folder"


def test_port_in_use_is_a_clear_error(make_site: MakeSite) -> None:
    site = make_site(SITE)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "sitegen", "serve", "--source", str(site), "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert f"port {port} is in use" in proc.stderr and "--port" in proc.stderr


def test_busy_default_port_moves_to_the_next_free_one_and_says_so(make_site: MakeSite) -> None:
    site = make_site(SITE)
    with socket.socket() as busy:
        try:
            busy.bind(("127.0.0.1", 8000))
            busy.listen()
        except OSError:
            pass  # already taken by something else: just as busy
        proc = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--source", str(site)],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (lines and lines[-1].startswith("Serving ")):
            lines.append(proc.stdout.readline())
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=5)
    moved = [line for line in lines if line.startswith("Port 8000 is in use; using ")]
    assert moved, lines
    port = moved[0].split("using ", 1)[1].split(" ", 1)[0]
    assert int(port) > 8000 and f"127.0.0.1:{port}/" in lines[-1]


def test_non_loopback_host_warns(make_site: MakeSite) -> None:
    site = make_site(SITE)
    proc = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--source", str(site), "--host", "0.0.0.0",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    time.sleep(0.1)
    deadline = time.monotonic() + 20
    assert proc.stdout is not None and proc.stderr is not None
    while time.monotonic() < deadline and not proc.stdout.readline().startswith("Serving"):
        pass
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=5)
    assert "reachable from the network" in err
