#!/usr/bin/env python3
"""The cost of build-time image processing (sitegen/images.py): a cold build of a site whose posts show N photos,
the same with `params.images.process: false`, and a warm build (the memo holds every size and copy).

    python bench/images.py --images 20

Figures are printed, never asserted: this machine is shared.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from sitegen.build import BuildOptions, build_site  # noqa: E402
from sitegen.memo import BuildMemo  # noqa: E402


def _photo(seed: int) -> bytes:
    """A 2000×1333 JPEG with some detail (a gradient and bands), like a camera export."""
    image = Image.linear_gradient("L").resize((2000, 1333)).convert("RGB")
    for x in range(0, 2000, 80 + seed):
        image.paste((seed * 9 % 255, 120, 200), (x, 0, x + 20, 1333))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


def _site(root: Path, count: int, process: bool) -> None:
    root.mkdir(parents=True)
    (root / "sitegen.yaml").write_text("title: Bench\nbase_url: https://e.org/\n"
                                       + ("" if process else "params: {images: {process: false}}\n"))
    for i in range(count):
        post = root / "content" / "posts" / f"p{i}"
        post.mkdir(parents=True)
        (post / "index.md").write_text(f"---\ntitle: Post {i}\ndate: 2024-01-01\n---\n![photo {i}](photo.jpg)\n")
        (post / "photo.jpg").write_bytes(_photo(i))


def main() -> None:
    """Time cold, off and warm builds."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for process in (False, True):
            root = Path(tmp) / ("on" if process else "off")
            _site(root, args.images, process)
            memo = BuildMemo()
            started = time.perf_counter()
            result = build_site(BuildOptions(source=root, jobs=1), memo)
            cold = time.perf_counter() - started
            label = "processing on " if process else "processing off"
            copies = len([p for p in result.files if ".share." in p or "w." in p.rsplit("/", 1)[-1]])
            print(f"{label}: cold build {cold:.2f} s ({args.images} photos 2000x1333, {copies} copies made)")
            if process:
                started = time.perf_counter()
                build_site(BuildOptions(source=root, jobs=1), memo)
                print(f"processing on : warm build {time.perf_counter() - started:.2f} s (memo: no image opened)")


if __name__ == "__main__":
    main()
