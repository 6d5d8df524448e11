"""Typeset a CV to PDF with Typst (the `typst` wheel: self-contained, no system packages, ~0.1 s a CV).

User text never becomes Typst markup: every piece is a Typst string literal joined in code mode, so no
character in a CV (`#`, `*`, `$`, `@`, `<`) can change the layout. Headings stick to the entry after them and
entries never break across pages. Fonts come with sitegen (Typst's own and the `rendercv-fonts` wheel) and the
system's are ignored, so the same CV gives the same bytes on every machine.
"""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

from markdown_it import MarkdownIt

from sitegen.cv.model import CV, Entry, link_target, printed_link
from sitegen.errors import ConfigError

_MD = MarkdownIt("commonmark", {"html": False})
LATIN_FONT = "Libertinus Serif"
"""The text face: embedded in Typst itself."""
CJK_FONTS = {"zh": "Noto Sans SC", "ja": "Noto Sans JP", "ko": "Noto Sans KR"}
"""The CJK faces shipped by `rendercv-fonts`, by language; a CV lists its own language's first, so Han
characters take Simplified Chinese shapes in Chinese and Japanese shapes in Japanese."""
REGIONS = {"zh": "cn", "ja": "jp", "ko": "kr"}
"""Typst's `region` when the CV's language tag names none (`zh` is written as in mainland China)."""
ACCENT = 'rgb("#0b5cad")'
COMPACT_SECTIONS = ("skills", "languages", "interests", "references")
"""Sections of short entries, typeset as one unbreakable block."""


def s(text: str) -> str:
    """A Typst string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def inline(markdown: str) -> str:
    """Inline Markdown as a Typst code expression (strong, emph, links, code; everything else is text)."""
    if not markdown:
        return '[]'
    tokens = _MD.parseInline(markdown)[0].children or []
    stack: list[list[str]] = [[]]
    wrappers: list[str] = []
    hrefs: list[str] = []
    for token in tokens:
        if token.type in ("text", "html_inline"):
            stack[-1].append(f"text({s(token.content)})")
        elif token.type in ("softbreak", "hardbreak"):
            stack[-1].append('[ ]')
        elif token.type == "code_inline":
            stack[-1].append(f"raw({s(token.content)})")
        elif token.type.endswith("_open") and token.type in ("strong_open", "em_open", "link_open"):
            href = str(token.attrs.get("href", ""))
            wrappers.append({"strong_open": "strong", "em_open": "emph"}.get(token.type, f"link({s(href)})"))
            hrefs.append(href)
            stack.append([])
        elif token.type in ("strong_close", "em_close", "link_close") and wrappers:
            body = " + ".join(stack.pop()) or "[]"
            wrapper, href = wrappers.pop(), hrefs.pop()
            stack[-1].append(f"{wrapper}({body})" if not wrapper.startswith("link(") else f"{wrapper}[#({body})]")
            if wrapper.startswith("link(") and href.startswith(("http://", "https://")):
                stack[-1].append(f"text({s(' (' + link_target(href) + ')')})")  # printed: no hover
    while len(stack) > 1:
        stack[-2].extend(stack.pop())
    return "(" + (" + ".join(stack[0]) or "[]") + ")"


def _entry(e: Entry, accent: str, link_label: str = "Link", comma: str = ", ", abstract: bool = False) -> str:
    head = [f"strong({inline(e.title)})"]
    if e.subtitle:
        head.append(f"text({s(' · ' + e.subtitle)})")
    lines = [f"grid(columns: (1fr, auto), column-gutter: 1em, {' + '.join(head)}, "
             f"text(size: 9pt, fill: luma(90), {s(e.when)}))"]
    org = comma.join(x for x in (e.org, e.where) if x)
    if e.authors:
        names = " + text(\", \") + ".join(f"strong({s(n)})" if me else f"text({s(n)})" for n, me in e.authors)
        lines.append(f"text(size: 9pt, {names})")
    if org or e.badges:
        badge = "".join(f" [{b}]" for b in e.badges)
        lines.append(f"emph(text(fill: luma(60), {s(org + badge)}))")
    if e.summary and abstract:  # a publication's summary is its abstract: smaller, under the title
        lines.append(f"text(size: 9pt, fill: luma(60), {inline(e.summary)})")
    elif e.summary:
        lines.append(inline(e.summary))
    if e.highlights:
        items = ", ".join(f"[#{inline(h)}]" for h in e.highlights)
        lines.append(f"list(tight: true, spacing: 0.35em, {items})")
    if e.keywords:
        lines.append(f"text(size: 9pt, fill: luma(70), {s(', '.join(e.keywords))})")
    links = [(label, url) for label, url in e.links] + ([(link_label, e.url)] if e.url and not e.links else [])
    if links:  # the target as text (doi:10.1/x, github.com/...): a printed CV has no hover
        parts = " + text(\" · \") + ".join(f"link({s(url)}, text(fill: {accent}, {s(printed_link(label, url))}))"
                                         for label, url in links)
        lines.append(f"text(size: 9pt, {parts})")
    body = ", ".join(lines)
    return f"#block(breakable: false, below: 0.8em, width: 100%)[#stack(dir: ttb, spacing: 0.4em, {body})]"


def typst_source(cv: CV, paper: str, fonts: list[str] | None = None, date: dt.datetime | None = None) -> str:
    """The Typst document for a CV, set in `fonts` (first face that has a glyph wins), dated `date` (the
    build's SOURCE_DATE_EPOCH; None leaves the document undated)."""
    paper_name = "us-letter" if paper == "letter" else "a4"
    contacts = [c for c in (cv.email, cv.phone, cv.location) if c]
    contact_exprs = [f"text({s(c)})" for c in contacts]
    if cv.url:
        contact_exprs.append(f"link({s(cv.url)}, text(fill: {ACCENT}, {s(link_target(cv.url))}))")
    contact_exprs += [f"link({s(url)}, text(fill: {ACCENT}, {s(link_target(url))}))"
                      for network, user, url in cv.profiles if url]
    lang, region = language_and_region(cv.lang)
    families = ", ".join(s(f) for f in (fonts or font_families(cv, []))) + ","
    when = (f"datetime(year: {date.year}, month: {date.month}, day: {date.day}, hour: {date.hour}, "
            f"minute: {date.minute}, second: {date.second})" if date else "none")
    out = [
        f"#set document(title: {s(cv.name + ' — ' + cv.labels.get('cv', 'CV'))}, author: {s(cv.name)}, date: {when})",
        f"#set page(paper: {s(paper_name)}, margin: (x: 1.7cm, y: 1.6cm), "
        "footer: context align(right, text(size: 8pt, fill: luma(120), "
        "counter(page).display(\"1 / 1\", both: true))))",
        f"#set text(font: ({families}), size: 10pt, lang: {s(lang)}, region: {s(region) if region else 'none'}, "
        "fallback: true)",
        "#set par(justify: false, leading: 0.6em)",
        "#set list(indent: 0.6em, body-indent: 0.5em)",
        "#show heading.where(level: 2): it => block(above: 1.15em, below: 0.55em, sticky: true, width: 100%)["
        f"#text(size: 11pt, weight: \"bold\", fill: {ACCENT}, upper(it.body)) #v(-0.7em) "
        "#line(length: 100%, stroke: 0.5pt + luma(160))]",
        f"#align(center)[#text(size: 20pt, weight: \"bold\", {s(cv.name)})]",
    ]
    if cv.label:
        out.append(f"#align(center)[#text(size: 11pt, fill: luma(60), {s(cv.label)})]")
    if contact_exprs:
        out.append("#align(center)[#text(size: 9pt, " + " + text(\"  ·  \") + ".join(contact_exprs) + ")]")
    if cv.summary:
        out.append(f"#v(0.4em)\n#({inline(cv.summary)})")
    for section in cv.sections:
        entries = [_entry(e, ACCENT, cv.labels.get("link", "Link"), cv.labels.get("comma", ", "),
                          abstract=section.key == "publications") for e in section.entries]
        heading = f"#heading(level: 2, {s(section.title)})"
        if section.key in COMPACT_SECTIONS:  # a line or two each: kept together, never one line left alone
            body = "\n".join([heading, *entries])
            out.append(f"#block(breakable: false, above: 1.15em, width: 100%)[\n{body}\n]")
        else:
            out.append(heading)
            out.extend(entries)
    return "\n".join(out) + "\n"


def bundled_font_paths() -> list[str]:
    """The folders of the fonts sitegen ships (the `rendercv-fonts` wheel): the same on every machine."""
    import rendercv_fonts

    return [str(path) for path in sorted(rendercv_fonts.paths_to_font_folders)]


def font_families(cv: CV, named: list[str]) -> list[str]:
    """The font list of the document: the author's fonts, the text face, then CJK faces, the CV's language first."""
    lang = cv.lang.split("-")[0].lower()
    cjk = [CJK_FONTS[lang]] if lang in CJK_FONTS else []
    cjk += [font for font in CJK_FONTS.values() if font not in cjk]
    return list(dict.fromkeys([*named, LATIN_FONT, *cjk]))


def language_and_region(lang_tag: str) -> tuple[str, str | None]:
    """Typst's `lang` and `region` for a BCP 47 tag (`zh` -> zh, cn; `zh-TW` -> zh, tw; `en` -> en, None)."""
    parts = lang_tag.replace("_", "-").split("-")
    lang = parts[0].lower()
    region = next((p.lower() for p in parts[1:] if len(p) == 2 and p.isalpha()), None)
    return lang, region or REGIONS.get(lang)


@functools.lru_cache(maxsize=8)
def _families(paths: tuple[str, ...], system: bool) -> frozenset[str]:
    import typst

    found = typst.Fonts(include_system_fonts=system, include_embedded_fonts=True, font_paths=list(paths))
    return frozenset(name.casefold() for name in found.families())


def font_setup(named: list[str], configured_paths: list[str], source_label: str = "") -> tuple[list[str], bool]:
    """The font folders to hand Typst, and whether it may also look at the system's fonts.

    Only the bundled fonts (plus `cv.pdf.font_paths`) are used, so a PDF comes out byte-identical on every
    machine; the system's fonts are searched only for a font named in `cv.pdf.font` that those lack.
    """
    paths = [*bundled_font_paths(), *(p for p in configured_paths if Path(p).exists())]
    if not named:
        return paths, False
    missing = [f for f in named if f.casefold() not in _families(tuple(paths), False)]
    if not missing:
        return paths, False
    nowhere = [f for f in missing if f.casefold() not in _families(tuple(paths), True)]
    if nowhere:
        raise ConfigError(
            f"`cv.pdf.font` (site config): no font named {', '.join(repr(f) for f in nowhere)} is bundled or "
            "installed",
            path=source_label,
            hint="bundled: " + ", ".join(sorted(_display_families(tuple(paths)))) + "; or install the font, or "
                 "give its folder in `cv: {pdf: {font_paths: [...]}}`")
    return paths, True


def _display_families(paths: tuple[str, ...]) -> list[str]:
    import typst

    return typst.Fonts(include_system_fonts=False, include_embedded_fonts=True, font_paths=list(paths)).families()


def render_pdf(cv: CV, *, paper: str = "a4", font_paths: list[str] | None = None, fonts: list[str] | None = None,
               source_label: str = "", date: dt.datetime | None = None) -> bytes:
    """Compile the CV to PDF bytes with the bundled fonts (system fonts only for a `fonts` entry they lack)."""
    import typst

    paths, system = font_setup(list(fonts or []), list(font_paths or []), source_label)
    source = typst_source(cv, paper, font_families(cv, list(fonts or [])), date)
    try:
        pdf: bytes = typst.compile(source.encode("utf-8"), font_paths=paths,  # type: ignore[misc]
                                   ignore_system_fonts=not system)
        return pdf
    except Exception as exc:  # noqa: BLE001 - typst raises its own error types
        raise ConfigError(f"could not typeset the CV PDF: {exc}", path=source_label,
                          hint="this is a sitegen bug if the CV validated; please report it") from None
