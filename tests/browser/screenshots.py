"""Screenshots of the default theme for the README: `python -m tests.browser.screenshots [OUT_DIR]`.

Builds the example site, serves it on 127.0.0.1, and saves home, a post, the CV and the publications page in light
and dark, on a phone (360 px) and a desktop (1280 px), as palette PNGs (default docs/screenshots/).
"""

from __future__ import annotations

import functools
import http.server
import io
import sys
import tempfile
import threading
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from sitegen.build import BuildOptions, build_site
from sitegen.writer import write_output
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, REPO

SHOTS = {"home": "/", "post": "/posts/profiling-dataloaders/", "cv": "/cv/", "publications": "/publications/"}
SIZES = {"phone": (360, 740), "desktop": (1280, 860)}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _small_png(data: bytes, width: int) -> bytes:
    """The screenshot scaled to `width` and quantised to 128 colours: readable, a few dozen KB."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


def take(out_dir: Path) -> list[Path]:
    """Write every screenshot into `out_dir`; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        public = Path(tmp) / "public"
        write_output(build_site(BuildOptions(source=REPO, base_url="/")).files, public, REPO)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(public)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        root = f"http://127.0.0.1:{server.server_address[1]}"
        written = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for device, (width, height) in SIZES.items():
                for scheme in ("light", "dark"):
                    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
                    page = ctx.new_page()
                    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(root) else r.abort())
                    for name, path in SHOTS.items():
                        page.goto(root + path, wait_until="load")
                        data = page.screenshot(full_page=False)
                        target = out_dir / f"{name}-{device}-{scheme}.png"
                        target.write_bytes(_small_png(data, 640 if device == "desktop" else 360))
                        written.append(target)
                    ctx.close()
            browser.close()
        server.shutdown()
    return written


if __name__ == "__main__":
    for path in take(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"):
        print(path, path.stat().st_size)
