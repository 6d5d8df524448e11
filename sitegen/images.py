"""Images of pages, made web-ready at build time with Pillow: sizes, responsive widths and WebP.

The build catalogues every raster image of the site's content bundles and `static/` (`ImageCatalog.build`):
its width and height, and smaller copies (same format, and WebP) in a few widths. Each is memoized by the
image's content digest (`BuildMemo.blob`), so a warm build opens no image. Copies are build outputs like any
other file (the writer writes them). `rewrite_images` then gives every `<img>` of a page's HTML its `width`
and `height` (no layout shift), a `srcset` and a WebP `<source>`, and `loading="lazy" decoding="async"` after
the first image. `image_warnings` names, with file:line, each image that is missing, unreadable or has no alt.

`params.images.process: false` in sitegen.yaml turns all of it off (images are then copied as they are).
"""

from __future__ import annotations

import concurrent.futures
import functools
import io
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html import unescape
from typing import Any, TypeVar
from urllib.parse import unquote

from sitegen.errors import Diagnostic
from sitegen.memo import BuildMemo, digest, key_of

Made = TypeVar("Made")

RASTER = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}
"""What is processed (by output file extension); GIF (animation) and SVG are left as they are."""
_IMG = re.compile(r"<img\b[^>]*>", re.I)
_ATTR = re.compile(r'\s([a-zA-Z-]+)(?:="([^"]*)")?')


@dataclass(frozen=True)
class ImageSettings:
    """`params.images` of sitegen.yaml."""

    process: bool = True
    """Make sizes, widths and WebP copies (false: copy images as they are, add nothing to `<img>`)."""
    widths: tuple[int, ...] = (480, 960, 1440)
    """Widths of the smaller copies (only those narrower than the original are made)."""
    largest_webp: int = 1600
    """A WebP copy at the original width is made only up to this width (above it, the copies suffice)."""
    quality: int = 80
    """JPEG and WebP quality."""

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> ImageSettings:
        """Read `params.images` (a mapping, or `false` to turn processing off); bad values keep the defaults."""
        raw = params.get("images")
        if raw is False:
            return cls(process=False)
        if not isinstance(raw, dict):
            return cls()
        widths = raw.get("widths")
        quality = raw.get("quality")
        return cls(process=raw.get("process", True) is not False,
                   widths=tuple(sorted({int(w) for w in widths if isinstance(w, int) and w > 0}))
                   if isinstance(widths, list) else cls.widths,
                   quality=quality if isinstance(quality, int) and 1 <= quality <= 100 else cls.quality)


@dataclass(frozen=True)
class ImageInfo:
    """One processed image: its size and its copies, as (output path, width)."""

    width: int
    height: int
    copies: tuple[tuple[str, int], ...] = ()
    webp: tuple[tuple[str, int], ...] = ()


@dataclass
class ImageCatalog:
    """Every processed image of the site, by output path, with the files of its copies."""

    settings: ImageSettings = field(default_factory=ImageSettings)
    images: dict[str, ImageInfo] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    """Output path -> why Pillow could not read it."""
    files: dict[str, bytes] = field(default_factory=dict)
    """The copies, by output path (build outputs)."""
    shares: dict[str, str] = field(default_factory=dict)
    """Image output path -> its 1200×630 crop for link previews (OpenGraph, Twitter cards)."""

    @classmethod
    def build(cls, assets: dict[str, bytes], candidates: list[str], settings: ImageSettings,
              memo: BuildMemo, threads: int = 1) -> ImageCatalog:
        """Catalogue the `candidates` (output paths of content resources and the site's static files), the images
        that are not in the memo yet processed in `threads` threads (`side_by_side`)."""
        catalog = cls(settings)
        if not settings.process:
            return catalog
        paths = [p for p in sorted(candidates) if posixpath.splitext(p)[1].lower() in RASTER and p in assets]
        for path, (size, made) in zip(paths, side_by_side(
                functools.partial(_process, assets=assets, settings=settings, memo=memo), paths, threads), strict=True):
            if not size[0].isdigit():
                catalog.broken[path] = size
                continue
            width, height = (int(n) for n in size.split("x"))
            catalog.files.update((out, data) for out, _, _, data in made)
            catalog.images[path] = ImageInfo(width, height, tuple((out, w) for out, w, webp, _ in made if not webp),
                                             tuple((out, w) for out, w, webp, _ in made if webp))
        return catalog

    def add_share_crops(self, paths: set[str], assets: dict[str, bytes], memo: BuildMemo, threads: int = 1) -> None:
        """A 1200×630 JPEG (cropped to fill) of each catalogued image that a page shares, as link previews want
        (made in `threads` threads)."""
        todo = []
        for path in sorted(paths):
            info = self.images.get(path)
            if info is not None and (info.width, info.height) != SHARE_SIZE:
                todo.append(path)

        def crop(path: str) -> bytes:
            data = assets[path]
            return memo.blob(key_of("image-share", digest(data), SHARE_SIZE, self.settings.quality),
                             functools.partial(_share_crop, data, self.settings.quality))

        for path, data in zip(todo, side_by_side(crop, todo, threads), strict=True):
            out = path[: -len(posixpath.splitext(path)[1])] + ".share.jpg"
            self.files[out] = data
            self.shares[path] = out

    @property
    def key(self) -> str:
        """What pages' HTML depends on (for the output cache): every image's size and copies."""
        return key_of("images", self.settings, sorted(self.images.items()), sorted(self.broken),
                      sorted(self.shares.items()))


def side_by_side(work: Callable[[str], Made], items: list[str], threads: int) -> list[Made]:
    """`work` on each item, in up to `threads` threads: Pillow lets go of the interpreter's lock as it decodes,
    scales and encodes, so images are made side by side (the results, in order, are the same as one by one; the
    first item that fails raises, as it would have)."""
    threads = min(len(items), threads)
    if threads < 2:
        return [work(item) for item in items]
    with concurrent.futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sitegen-images") as pool:
        return list(pool.map(work, items))


def _process(path: str, assets: dict[str, bytes], settings: ImageSettings, memo: BuildMemo
             ) -> tuple[str, list[tuple[str, int, bool, bytes]]]:
    """One image's size (`WxH`, or why it cannot be read) and its copies: (output path, width, whether WebP, bytes)
    for each smaller width in its own format and in WebP (and WebP at its own width), from the memo or made."""
    ext = posixpath.splitext(path)[1].lower()
    data = assets[path]
    size = memo.blob(key_of("image-size-decoded", digest(data)), functools.partial(_measure, data)).decode()
    if not size[0].isdigit():
        return size, []
    width = int(size.split("x")[0])
    stem = path[: -len(ext)]
    source = _Decoded(data)  # decoded at most once, and only when some copy is not in the memo yet
    smaller = [w for w in settings.widths if w < width]
    plan = [*((w, RASTER[ext], f"{stem}.{w}w{ext}", False) for w in smaller),
            *((w, "WEBP", f"{stem}.{w}w.webp", True)
              for w in [*smaller, *([width] if width <= settings.largest_webp else [])])]
    return size, [(out, w, webp, memo.blob(key_of("image", digest(data), w, fmt, settings.quality),
                                           functools.partial(_resize, source, w, fmt, settings.quality)))
                  for w, fmt, out, webp in plan]


def _measure(data: bytes) -> bytes:
    """`WxH`, or why the image cannot be read (decoded whole, so a truncated file is caught here)."""
    from PIL import Image, UnidentifiedImageError  # Pillow loads in ~50 ms: only builds that process images pay it

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
        with Image.open(io.BytesIO(data)) as image:
            image.load()  # verify() checks little of a JPEG: a truncated one fails only when decoded
            return f"{image.width}x{image.height}".encode()
    except UnidentifiedImageError:
        return b"cannot read the image (not a format Pillow knows, or not an image)"
    except (OSError, SyntaxError, ValueError) as exc:
        return f"cannot read the image ({exc})".encode()


class _Decoded:
    """An image's pixels, decoded on first use and scaled once per width (for the copies of one image)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.scaled: dict[int, Any] = {}

    def at(self, width: int) -> Any:
        """The image `width` pixels wide (aspect kept)."""
        from PIL import Image  # see _measure

        if not self.scaled:
            with Image.open(io.BytesIO(self.data)) as opened:
                opened.load()
                self.scaled[opened.width] = opened.copy()
        if width not in self.scaled:
            full = self.scaled[max(self.scaled)]
            self.scaled[width] = full.resize((width, max(1, round(full.height * width / full.width))),
                                             Image.Resampling.LANCZOS)
        return self.scaled[width]


def _resize(source: _Decoded, width: int, fmt: str, quality: int) -> bytes:
    """The image scaled to `width` (aspect kept), in `fmt`; deterministic bytes."""
    image = source.at(width)
    if fmt == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    if fmt == "WEBP":
        # Pillow registers five formats first and, for any other, imports all of its ~45 format plugins (~25 ms):
        # WebP's own is enough to save one.
        from PIL import WebPImagePlugin  # noqa: F401
    out = io.BytesIO()
    options: dict[str, dict[str, Any]] = {"PNG": {"optimize": True},
                                          "JPEG": {"quality": quality, "optimize": True},
                                          "WEBP": {"quality": quality, "method": 4}}
    image.save(out, fmt, **options[fmt])
    return bytes(out.getvalue())


SHARE_SIZE = (1200, 630)
"""The size OpenGraph and Twitter's large card show without cropping."""


def _share_crop(data: bytes, quality: int) -> bytes:
    """The image scaled to cover 1200×630 and cropped around its centre, as JPEG on white."""
    from PIL import Image, ImageOps  # see _measure

    with Image.open(io.BytesIO(data)) as opened:
        image: Image.Image = opened.convert("RGBA")
    plate = Image.new("RGBA", image.size, (255, 255, 255, 255))
    plate.alpha_composite(image)
    # Close to the card's shape: fill it (crop the edges); a tall or very wide image (a diagram) is fitted whole
    # on white instead, so nothing that matters is cut.
    rgb = plate.convert("RGB")
    if 1.5 <= image.width / image.height <= 2.4:
        fitted = ImageOps.fit(rgb, SHARE_SIZE, Image.Resampling.LANCZOS)
    else:
        fitted = ImageOps.pad(rgb, SHARE_SIZE, Image.Resampling.LANCZOS, color=(255, 255, 255))
    out = io.BytesIO()
    fitted.save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def _attrs(tag: str) -> dict[str, str]:
    return {name.lower(): unescape(value or "") for name, value in _ATTR.findall(tag[4:])}


def image_target(src: str, page_path: str, base_path: str) -> str | None:
    """The output path an `<img src>` of the page at `page_path` refers to, or None for remote/data images."""
    if not src or src.startswith(("http://", "https://", "//", "data:")):
        return None
    src = unquote(src.split("#", 1)[0].split("?", 1)[0])
    if src.startswith("/"):
        prefix = base_path.rstrip("/")
        path = src[len(prefix):] if prefix and src.startswith(prefix + "/") else src
    else:
        path = posixpath.join(page_path, src)
    return posixpath.normpath(path).lstrip("/")


def _url(out: str, src: str, target: str) -> str:
    """A copy's URL written like the original's `src` (relative stays relative)."""
    return src[: len(src) - len(posixpath.basename(target))] + posixpath.basename(out) if src.endswith(
        posixpath.basename(target)) else "/" + out


def rewrite_images(html: str, page_path: str, catalog: ImageCatalog, base_path: str = "/") -> str:
    """The page HTML with every catalogued `<img>` sized, given its widths and WebP, lazy after the first."""
    if not catalog.settings.process or "<img" not in html:
        return html
    seen = 0

    def one(match: re.Match[str]) -> str:
        nonlocal seen
        seen += 1
        tag = match.group(0)
        attrs = _attrs(tag)
        extra = []
        lazy = ['loading="lazy" decoding="async"'] if seen > 1 and "loading" not in attrs else []
        target = image_target(attrs.get("src", ""), page_path, base_path)
        info = catalog.images.get(target) if target else None
        if info is None or target is None:
            return tag[:-1].rstrip("/ ") + "".join(" " + e for e in lazy) + ">" if lazy else tag
        src = attrs["src"]
        if "width" not in attrs and "height" not in attrs:
            extra.append(f'width="{info.width}" height="{info.height}"')
        extra += lazy
        sizes = f"(max-width: 42rem) 100vw, {min(info.width, 672)}px"
        if info.copies:
            srcset = ", ".join([*(f"{_url(out, src, target)} {w}w" for out, w in info.copies), f"{src} {info.width}w"])
            extra.append(f'srcset="{srcset}" sizes="{sizes}"')
        img = tag[:-1].rstrip("/ ") + "".join(" " + e for e in extra) + ">"
        if not info.webp:
            return img
        webp = ", ".join(f"{_url(out, src, target)} {w}w" for out, w in info.webp)
        return f'<picture><source type="image/webp" srcset="{webp}" sizes="{sizes}">{img}</picture>'

    return _IMG.sub(one, html)


def image_warnings(html: str, page_path: str, catalog: ImageCatalog, assets: set[str], source: str, body: str,
                   body_line: int, base_path: str = "/") -> Iterator[Diagnostic]:
    """A located warning for each image of a page that is missing, unreadable or has no alt text."""
    for tag in _IMG.findall(html):
        attrs = _attrs(tag)
        src = attrs.get("src", "")
        offset = body.find(src) if src else -1
        line = body_line + body[:offset].count("\n") if offset >= 0 else None
        target = image_target(src, page_path, base_path)
        if not attrs.get("alt", "").strip():
            yield Diagnostic(f"image {src or '(no src)'} has no alt text", path=source, line=line,
                             hint="describe it: ![what the image shows](path); alt=\"\" only for decoration")
        if target is None:
            continue
        if target not in assets:
            yield Diagnostic(f"image {src} not found", path=source, line=line,
                             hint="put it in the page's bundle folder or in static/, and check the path")
        elif target in catalog.broken:
            yield Diagnostic(f"image {src}: {catalog.broken[target]}", path=source, line=line,
                             hint="re-export it as PNG, JPEG or WebP")
