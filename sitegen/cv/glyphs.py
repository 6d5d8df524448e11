"""Characters a CV PDF cannot show: the PDF is set only in the bundled fonts (never the system's), so an emoji
that none of them has prints as an empty box. The build names each one with its file:line instead.

Only characters from U+1F000 up (emoji, pictographs) are checked: no font built into Typst has any there, so
the bundled font files, whose character maps are read here, decide alone.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

from sitegen.cv.pdf import font_setup
from sitegen.errors import Diagnostic, SitegenError

FIRST_CHECKED = 0x1F000


def font_files(folders: list[str]) -> tuple[str, ...]:
    """The .ttf/.otf files in the font folders handed to Typst, sorted."""
    found: list[str] = []
    for folder in folders:
        path = Path(folder)
        if path.is_dir():
            found.extend(str(p) for p in path.rglob("*") if p.suffix.lower() in (".ttf", ".otf"))
    return tuple(sorted(found))


@functools.lru_cache(maxsize=4)
def covered(files: tuple[str, ...]) -> frozenset[int]:
    """The code points from U+1F000 up that some font file has a glyph for."""
    points: set[int] = set()
    for file in files:
        try:
            points |= _astral_cmap(Path(file).read_bytes())
        except (OSError, struct.error, ValueError):
            continue  # an unreadable font covers nothing
    return frozenset(points)


def _astral_cmap(data: bytes) -> set[int]:
    """Code points >= U+1F000 in a TrueType/OpenType font's format 12 character map (the only format that
    reaches past U+FFFF, apart from the rare format 13)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            break
    else:
        return set()
    points: set[int] = set()
    count = struct.unpack_from(">H", data, offset + 2)[0]
    for i in range(count):
        _, _, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        start = offset + sub
        if struct.unpack_from(">H", data, start)[0] != 12:
            continue
        groups = struct.unpack_from(">I", data, start + 12)[0]
        for g in range(groups):
            first, last, _ = struct.unpack_from(">III", data, start + 16 + 12 * g)
            if last >= FIRST_CHECKED:
                points.update(range(max(first, FIRST_CHECKED), last + 1))
    return points


def missing_glyph_warnings(label: str, text: str, files: tuple[str, ...]) -> list[Diagnostic]:
    """A warning for each distinct character of a CV file (`text`, read from `label`) that the PDF's fonts
    lack, at its first line and column."""
    if not any(ord(char) >= FIRST_CHECKED for char in text):
        return []  # the usual case: no need to read the fonts' maps
    have = covered(files)
    warnings: list[Diagnostic] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        for col, char in enumerate(line, 1):
            if ord(char) >= FIRST_CHECKED and ord(char) not in have and char not in seen:
                seen.add(char)
                warnings.append(Diagnostic(
                    f"{char} (U+{ord(char):04X}) has no glyph in the fonts of the CV PDF: it prints there as an "
                    "empty box", path=label, line=number, col=col,
                    hint="leave it out of the CV, or give the folder of a font that has it in "
                         "`cv: {pdf: {font_paths: [...]}}` (the CV web page shows it with the reader's fonts)"))
    return warnings


def cv_glyph_warnings(site_dir: Path, labels: list[str], fonts: list[str], font_paths: list[str]) -> list[Diagnostic]:
    """The missing-glyph warnings of every CV file (`data/cv.yaml`, ...), for the fonts the PDF is set in; none
    when a font of the system's is used too (it may have them)."""
    try:
        paths, system = font_setup(fonts, font_paths)
    except SitegenError:
        return []  # the PDF itself reports the missing font
    if system:
        return []
    warnings: list[Diagnostic] = []
    for label in labels:
        try:
            text = (site_dir / label).read_text("utf-8", errors="replace")
        except OSError:
            continue
        warnings.extend(missing_glyph_warnings(label, text, font_files(paths)))
    return warnings
