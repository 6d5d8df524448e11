"""Page images processed with Pillow at build time: sizes, responsive copies, WebP, warnings, memo."""

from __future__ import annotations

import datetime as dt
import io
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import sitegen.images
from sitegen.build import BuildOptions, build_site
from sitegen.memo import BuildMemo
from tests.conftest import build, html

MakeSite = Callable[..., Path]


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 80, 40)).save(out, "PNG")
    return out.getvalue()


POST = ("---\ntitle: P\n---\nIntro.\n\n![a wide chart](chart.png)\n\nMore.\n\n![the logo](/img/logo.png)\n\n"
        "![](/img/logo.png)\n\n![gone](missing.png)\n\n![broken one](broken.png)\n")


def _build(site: Path, memo: BuildMemo) -> dict[str, bytes]:
    return build_site(BuildOptions(source=site, now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC)), memo).files


def _site(make_site: MakeSite, config: str = "") -> Path:
    return make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\n" + config,
                      "content/posts/p/index.md": POST, "content/posts/p/chart.png": _png(1200, 600),
                      "content/posts/p/broken.png": b"not a png at all",
                      "static/img/logo.png": _png(300, 100)})


def test_images_get_sizes_widths_webp_and_lazy_loading_after_the_first(make_site: MakeSite) -> None:
    result = build(_site(make_site))
    page = html(result, "posts/p/index.html")
    assert ('<picture><source type="image/webp" srcset="chart.480w.webp 480w, chart.960w.webp 960w, '
            'chart.1200w.webp 1200w" sizes="(max-width: 42rem) 100vw, 672px"><img src="chart.png" alt="a wide chart" '
            'width="1200" height="600" srcset="chart.480w.png 480w, chart.960w.png 960w, chart.png 1200w"') in page
    assert ('<picture><source type="image/webp" srcset="/img/logo.300w.webp 300w" sizes="(max-width: 42rem) 100vw, '
            '300px"><img src="/img/logo.png" alt="the logo" width="300" height="100" loading="lazy" decoding="async">'
            '</picture>') in page
    assert "loading" not in page[page.index('<img src="chart.png"'):page.index("</picture>")]
    for name, width in (("posts/p/chart.480w.png", 480), ("posts/p/chart.960w.webp", 960),
                        ("img/logo.300w.webp", 300)):
        assert Image.open(io.BytesIO(result.files[name])).width == width


def test_missing_unreadable_and_alt_less_images_are_located_warnings(make_site: MakeSite) -> None:
    result = build(_site(make_site))
    found = sorted(w.format() for w in result.warnings if "image" in w.message)
    assert any(w.startswith("warning: content/posts/p/index.md:14: image missing.png not found") for w in found)
    assert any(w.startswith("warning: content/posts/p/index.md:16: image broken.png: cannot read the image")
               for w in found), found
    assert any(w.startswith("warning: content/posts/p/index.md:10: image /img/logo.png has no alt text")
               for w in found), found
    assert '<img src="broken.png" alt="broken one" loading="lazy" decoding="async">' in html(result,
                                                                                            "posts/p/index.html")


def test_the_author_can_turn_processing_off(make_site: MakeSite) -> None:
    result = build(_site(make_site, "params: {images: {process: false}}\n"))
    page = html(result, "posts/p/index.html")
    assert '<img src="chart.png" alt="a wide chart">' in page or '<img src="chart.png" alt="a wide chart" />' in page
    assert not [p for p in result.files if ".480w." in p]


def test_a_warm_build_does_no_image_work_and_output_is_deterministic(make_site: MakeSite,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    site = _site(make_site)
    memo = BuildMemo()
    first = _build(site, memo)
    cold_again = _build(site, BuildMemo())

    def refuse(*args: object) -> bytes:
        raise AssertionError("image work in a warm build")

    monkeypatch.setattr(sitegen.images, "_measure", refuse)
    monkeypatch.setattr(sitegen.images, "_resize", refuse)
    warm = _build(site, memo)
    assert warm == first == cold_again


def test_a_page_shares_a_1200_by_630_copy_of_its_first_image(make_site: MakeSite) -> None:
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\n",
                      "content/posts/p/index.md": "---\ntitle: P\n---\n![a chart](chart.png)\n",
                      "content/posts/p/chart.png": _png(900, 300)}, layouts=False)
    result = build(site)
    page = html(result, "posts/p/index.html")
    assert ('<meta property="og:image" content="https://e.org/posts/p/chart.share.jpg">\n'
            '<meta property="og:image:width" content="1200">\n<meta property="og:image:height" content="630">') in page
    assert Image.open(io.BytesIO(result.files["posts/p/chart.share.jpg"])).size == (1200, 630)


def test_a_truncated_jpeg_is_a_located_warning_not_a_failed_build(make_site: MakeSite) -> None:
    out = io.BytesIO()
    Image.new("RGB", (2000, 1500), (200, 80, 40)).save(out, "JPEG")
    site = make_site({"sitegen.yaml": "title: T\n",
                      "content/posts/p/index.md": "---\ntitle: P\n---\n![a photo](cut.jpg)\n",
                      "content/posts/p/cut.jpg": out.getvalue()[: len(out.getvalue()) // 3]})
    result = build(site)
    found = [w.format() for w in result.warnings if "cut.jpg" in w.message]
    assert any("content/posts/p/index.md:4: image cut.jpg: cannot read the image" in w for w in found), found


def test_images_made_side_by_side_are_those_made_one_by_one(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # Copies and share crops are made in threads, one image each, as many as --jobs (else the cores) allows
    # (Pillow lets go of the interpreter's lock).
    posts = {f"content/posts/p{i}/index.md": f"---\ntitle: P{i}\n---\n![photo {i}](photo.png)\n" for i in range(6)}
    photos = {f"content/posts/p{i}/photo.png": _png(900 + 40 * i, 500) for i in range(6)}
    site = make_site({"sitegen.yaml": "title: T\nbase_url: https://e.org/\n", **posts, **photos,
                      "content/posts/p9/index.md": "---\ntitle: P9\n---\n![broken](broken.png)\n",
                      "content/posts/p9/broken.png": b"not a png at all"})
    meet = threading.Barrier(2, timeout=20)  # the first two copies are made at the same time, or this fails
    calls: list[str] = []
    resize = sitegen.images._resize

    def recording(*args: object) -> bytes:
        calls.append(threading.current_thread().name)
        if len(calls) <= 2 and meet.parties == 2:
            meet.wait()
        return resize(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sitegen.images, "_resize", recording)
    side_by_side = _built(site, jobs=4)
    assert len(set(calls[:2])) == 2 and all(name.startswith("sitegen-images") for name in calls)
    meet = threading.Barrier(1)
    assert _built(site, jobs=1) == side_by_side
    assert all(f"posts/p{i}/photo.share.jpg" in side_by_side for i in range(6))
    assert "posts/p9/broken.480w.png" not in side_by_side


def _built(site: Path, jobs: int) -> dict[str, bytes]:
    return build_site(BuildOptions(source=site, jobs=jobs, now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC)),
                      BuildMemo()).files


def test_webp_copies_load_webps_plugin_not_all_of_pillows(make_site: MakeSite) -> None:
    """Saving WebP makes Pillow import every format plugin it has (~45, ~25 ms) unless WebP's own is loaded
    first: a build that makes WebP copies loads only the formats it reads and writes."""
    site = make_site({"sitegen.yaml": "title: T\n", "content/a.md": "---\ntitle: A\n---\n![chart](chart.png)\n",
                      "content/chart.png": _png(1200, 600)})
    script = ("import sys\nfrom pathlib import Path\nfrom sitegen.build import BuildOptions, build_site\n"
              "files = build_site(BuildOptions(source=Path(sys.argv[1]), jobs=1)).files\n"
              "print(sum(p.endswith('.webp') for p in files), sorted(m for m in sys.modules if m.endswith('Plugin')))")
    proc = subprocess.run([sys.executable, "-c", script, str(site)], capture_output=True, text=True, check=True)
    webp, plugins = proc.stdout.strip().split(" ", 1)
    assert int(webp) > 0
    assert "PIL.WebPImagePlugin" in plugins and "PIL.PdfImagePlugin" not in plugins
