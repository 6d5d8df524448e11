"""External link checking for `sitegen check --external`: concurrent, polite, cached. Never used by tests
against the network (they point it at a server on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

CACHE_TTL = 7 * 24 * 3600
"""A good result is trusted for a week."""


@dataclass(frozen=True)
class ExternalResult:
    """What one external URL answered."""

    url: str
    ok: bool
    status: int | None
    error: str = ""


class _HostLimiter:
    """At most one request per `interval` seconds to each host."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.next_time: dict[str, float] = defaultdict(float)
        self.lock = threading.Lock()

    def wait(self, host: str) -> float:
        """Sleep until this host's next free slot; returns the slot's start (time.monotonic() clock)."""
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_time[host])
            self.next_time[host] = start + self.interval
        if start > now:
            time.sleep(start - now)
        return start


def _fetch(url: str, timeout: float, retries: int, limiter: _HostLimiter) -> ExternalResult:
    host = urlsplit(url).netloc
    error = ""
    status: int | None = None
    for attempt in range(retries + 1):
        limiter.wait(host)
        for method in ("HEAD", "GET"):
            request = urllib.request.Request(url, method=method, headers={"User-Agent": "sitegen-check"})
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                    return ExternalResult(url, True, response.status)
            except urllib.error.HTTPError as exc:
                status, error = exc.code, f"HTTP {exc.code}"
                if exc.code in (405, 501) and method == "HEAD":
                    continue
                if exc.code < 500 and exc.code != 429:
                    return ExternalResult(url, False, status, error)
                break
            except (urllib.error.URLError, OSError) as exc:
                error = str(getattr(exc, "reason", exc))
                break
        if attempt < retries:
            time.sleep(min(2.0, 0.2 * 2 ** attempt))
    return ExternalResult(url, False, status, error)


def check_external(urls: list[str], cache_file: Path | None, *, workers: int = 8, timeout: float = 10.0,
                   retries: int = 2, per_host_interval: float = 0.5, now: float | None = None
                   ) -> list[ExternalResult]:
    """Check URLs concurrently; good results are cached in `cache_file` so a second run is fast."""
    now = time.time() if now is None else now
    cache: dict[str, float] = {}
    if cache_file is not None and cache_file.is_file():
        try:
            cache = {k: float(v) for k, v in json.loads(cache_file.read_text("utf-8")).items()}
        except (ValueError, OSError, AttributeError):
            cache = {}
    todo = [u for u in urls if now - cache.get(u, -CACHE_TTL * 2) > CACHE_TTL]
    limiter = _HostLimiter(per_host_interval)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda u: _fetch(u, timeout, retries, limiter), todo))
    for result in results:
        if result.ok:
            cache[result.url] = now
    if cache_file is not None:
        _save(cache_file, json.dumps(cache, sort_keys=True, indent=0))
    cached = [ExternalResult(u, True, None, "cached") for u in urls if u not in todo]
    return sorted(results + cached, key=lambda r: r.url)


def _save(cache_file: Path, text: str) -> None:
    """Replace the cache file atomically through a fresh temporary file (never through a link); a cache that
    cannot be written only costs the next run its cache."""
    try:
        fd, tmp = tempfile.mkstemp(dir=cache_file.parent, prefix=".external-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, cache_file)
    except OSError:
        return
