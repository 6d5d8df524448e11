"""Liquid in Jekyll content, expanded before Markdown: `expand_liquid(body, source, body_line, context=...)`.

Two passes. A small tokenizer (positions kept, for file:line warnings) first replaces the tags that belong to
Jekyll and its plugins rather than to Liquid itself: `{% highlight %}` (a fenced code block: escaped, never
live HTML), `{% link %}`, `{% post_url %}`, `{% include figure.liquid|figure.html|youtube.html|video.liquid %}`,
`{% cite %}`/`{% reference %}` (jekyll-scholar: a link to the entry on the publications page),
`{% bibliography %}` (the publications page lists them; elsewhere, or with options that select, the list is put
in place: `sitegen.dialects.scholar`). Any other include or unknown tag stays visible as
escaped text, with one warning per name. Then python-liquid renders what is Liquid proper (`{% raw %}`, `{% if %}`,
`{% for %}`, `{% assign %}`, `{{ site.baseurl }}`, `{{ page.title }}`, filters such as `relative_url`).
"""

from __future__ import annotations

import bisect
import datetime as dt
import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitegen.dialects.jekyll_urls import slugify
from sitegen.dialects.scholar import parse_options, render_bibliography, select_entries
from sitegen.errors import Diagnostic

if TYPE_CHECKING:
    import liquid

LIQUID_TAGS = frozenset({"if", "elsif", "else", "endif", "unless", "endunless", "case", "when", "endcase", "for",
                         "endfor", "break", "continue", "tablerow", "endtablerow", "assign", "capture", "endcapture",
                         "increment", "decrement", "cycle", "comment", "endcomment", "raw", "endraw", "echo",
                         "liquid"})
"""Liquid's own tags: python-liquid renders them."""
_NAME = re.compile(r"\w+")
_ARG = re.compile(r"""(?<![\w-])([\w-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"']+)""")


@dataclass(frozen=True)
class Tag:
    """One `{% name args %}` of a text, with its place."""

    start: int
    end: int
    name: str
    args: str

    def text(self, body: str) -> str:
        """The tag as written."""
        return body[self.start:self.end]


def tags(body: str) -> list[Tag]:
    """Every `{% ... %}` tag of a text, in order (a tokenizer: linear, positions kept). A `{%` that is never closed
    ends the scan, as it ends Liquid's."""
    found: list[Tag] = []
    pos = body.find("{%")
    while pos != -1:
        close = body.find("%}", pos + 2)
        if close == -1:
            break
        inner = body[pos + 2:close].rstrip("-").strip().removeprefix("-").lstrip()
        name = _NAME.match(inner)
        if name is not None:
            found.append(Tag(pos, close + 2, name.group(0), inner[name.end():].strip()))
        pos = body.find("{%", close + 2)
    return found


@dataclass(frozen=True)
class LiquidContext:
    """What Liquid in one page may read: the site and the page, and where other pages and citations are."""

    site: Mapping[str, Any] = field(default_factory=dict)
    """`site.*`: `_config.yml` keys, `site.data`, `site.baseurl`, `site.url`, `site.posts`, `site.pages`."""
    page: Mapping[str, Any] = field(default_factory=dict)
    """`page.*`: the page's front matter, `title`, `url`, `date`."""
    base_path: str = "/"
    """The site's base path (`/repo/`): what `relative_url` and `{% link %}` put before a path."""
    origin: str = ""
    """`https://host` of the site's URL, for `absolute_url`."""
    links: Mapping[str, str] = field(default_factory=dict)
    """A page's path in the site (`_posts/2024-01-02-x.md`, `about.md`) -> its URL without the base path."""
    posts: Mapping[str, str] = field(default_factory=dict)
    """A post's name for `{% post_url %}` (`2024-01-02-x`) -> its URL without the base path."""
    citations: Mapping[str, str] = field(default_factory=dict)
    """A BibTeX key -> the URL of its entry on the publications page (without the base path)."""
    bibliography: Sequence[Mapping[str, Any]] = ()
    """The BibTeX entries `{% bibliography --query ... %}` selects from (`SiteFacts.bibliography`)."""


def expand_liquid(body: str, source: str, body_line: int, *, context: LiquidContext
                  ) -> tuple[str, list[Diagnostic]]:
    """The Markdown a Jekyll page's body becomes once its Liquid is expanded, and a warning (file:line) for
    each construct that could not be (once per tag or include name). `source` is the file's path in the site
    as messages name it; `body_line` the file line of the body's first line. Pure: no file is read."""
    if "{%" not in body and "{{" not in body:
        return body, []
    notes: list[Diagnostic] = []
    warned: set[str] = set()

    def warn(name: str, offset: int, message: str, hint: str) -> None:
        if name not in warned:
            warned.add(name)
            notes.append(Diagnostic(message, path=source, line=body_line + body.count("\n", 0, offset), hint=hint))

    text = _jekyll_tags(body, context, warn)
    if "{{" not in text and "{%" not in text:
        return text, notes  # no Liquid proper left: python-liquid would return the text unchanged
    # python-liquid is imported here, not at start-up: sitegen's own and Hugo sites never load it (~90 ms).
    from liquid.exceptions import LiquidError, UnknownFilterError

    env = _environment(context)
    for _ in range(20):  # each round may meet one more filter of the site's plugins
        try:
            return env.from_string(text).render(site=dict(context.site), page=dict(context.page)), notes
        except UnknownFilterError as exc:
            name = re.search(r"unknown filter '([^']+)'", str(exc))
            if name is None or name.group(1) in env.filters:
                break
            # A filter of the site's `_plugins/`: its value passes through unchanged, with one warning.
            env.filters[name.group(1)] = lambda value, *args, **kwargs: value
            offset = body.find(name.group(1))
            warn(f"filter {name.group(1)}", max(offset, 0), f"Liquid filter `{name.group(1)}` (a plugin's) is not "
                 "run by sitegen: its input is shown unchanged", "replace it, or run `sitegen import jekyll`")
        except LiquidError as exc:
            line = getattr(getattr(exc, "token", None), "start_index", None)
            where = body_line + text.count("\n", 0, line) if isinstance(line, int) else body_line
            notes.append(Diagnostic(f"Liquid could not be rendered: {getattr(exc, 'message', exc)}", path=source,
                                    line=where,
                                    hint="fix the tag, or wrap literal `{{`/`{%` text in {% raw %}...{% endraw %}"))
            break
    return _escape_liquid(text), notes


def _jekyll_tags(body: str, context: LiquidContext, warn: Callable[[str, int, str, str], None]) -> str:
    """The first pass: Jekyll's and its plugins' tags replaced, unknown ones escaped (Liquid's own kept)."""
    out: list[str] = []
    pos = 0
    raw_depth = False
    fences: list[str] = []
    all_tags = tags(body)
    ends = [t.start for t in all_tags if t.name == "endhighlight"]
    for match in all_tags:
        name, args = match.name, match.args
        if raw_depth:
            raw_depth = name != "endraw"
            continue
        out.append(body[pos:match.start])
        pos = match.end
        if name == "raw":
            raw_depth = True
            out.append(match.text(body))
            continue
        if name in LIQUID_TAGS:
            out.append(match.text(body))
        elif name == "highlight" and bisect.bisect_left(ends, pos) < len(ends) and not fences:
            # A fenced code block (escaped, highlighted by sitegen); Liquid inside still runs, as in Jekyll.
            lang = args.split()[0] if args.split() else ""
            code = body[pos:ends[bisect.bisect_left(ends, pos)]]
            fences.append("`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", code)), default=0)))
            out.append(fences[-1] + lang + ("" if code.startswith("\n") else "\n"))
        elif name == "endhighlight" and fences:
            out.append(("" if body[match.start - 1:match.start] == "\n" else "\n") + fences.pop())
        elif name == "link":
            target = args.strip("\"' ")
            url = context.links.get(target.lstrip("/"))
            if url is None and not target.lower().endswith((".md", ".markdown", ".html")):
                url = "/" + target.lstrip("/")  # a static file (`/assets/cv.pdf`), copied at its own path
            if url is None:
                warn(f"link {args}", match.start, f"`{{% link {args} %}}`: no page at `{args}`",
                     "give the page's path from the site folder, e.g. `_posts/2024-01-02-title.md`")
                url = args
            out.append(url)  # as GitHub Pages' Jekyll 3 writes it; a Markdown link gets the base path from sitegen
        elif name == "post_url":
            url = context.posts.get(args.strip("\"' ").removesuffix(".md").rsplit("/", 1)[-1])
            if url is None:
                warn(f"post_url {args}", match.start, f"`{{% post_url {args} %}}`: no post named `{args}`",
                     "name a file of _posts/ without its extension, e.g. `2024-01-02-title`")
                url = args
            out.append(url)
        elif name in ("cite", "reference"):
            keys = [k for k in re.split(r"[\s,]+", args) if k and not k.startswith("--")]
            out.append(", ".join(_citation(k, context, warn, match.start) for k in keys))
        elif name in ("bibliography", "bibliography_count"):
            out.append(_bibliography(args, context, warn, match.start, all_tags, count=name != "bibliography"))
        elif name == "include":
            out.append(_include(args, context, warn, match.start, match.text(body)))
        else:
            warn(name, match.start, f"Liquid tag `{{% {name} %}}` is not run by sitegen: shown as text",
                 "replace it with Markdown or HTML, or run `sitegen import jekyll` to convert the site")
            out.append(_escape_liquid(match.text(body)))
    out.append(body[pos:])
    return _close_outputs("".join(out))


def _bibliography(args: str, context: LiquidContext, warn: Callable[[str, int, str, str], None], offset: int,
                  all_tags: list[Tag], count: bool = False) -> str:
    """jekyll-scholar's list (`sitegen.dialects.scholar`): nothing on the publications page when the tag takes
    the whole bibliography (that page lists it), else the entries its options select; with `count`
    (`{% bibliography_count %}`), how many they are."""
    scholar = context.site.get("scholar")
    options = parse_options(args, scholar if isinstance(scholar, Mapping) else {})
    line_key = f"bibliography@{offset}"
    for name in options.unsupported:
        warn(f"{line_key} {name}", offset, f"`{{% bibliography %}}` option `{name}` is not supported by sitegen: "
             "ignored (the list is shown)", "sitegen reads --file, --query, --cited, --cited_in_order, --max and "
             "--group_by")
    for unread in options.problems:
        warn(f"{line_key} {unread}", offset, f"`{{% bibliography %}}`: {unread}: ignored", "write a number")
    page_url = str(context.page.get("url") or "")
    listing = {_join(context.base_path, url.split("#", 1)[0]) for url in context.citations.values()}
    if not options.selects and page_url in listing and not count:
        return ""  # the publications page: its layout lists every entry
    cited = [k for t in all_tags if t.name in ("cite", "reference")
             for k in re.split(r"[\s,]+", t.args) if k and not k.startswith("-")]
    entries = [{**e, "url": _join(context.base_path, str(e["url"])) if e.get("url") else ""}
               for e in context.bibliography]

    def problem(message: str) -> None:
        warn(f"{line_key} {message}", offset, f"`{{% bibliography %}}`: {message}",
             "see the README: what sitegen reads of jekyll-scholar")

    if count:
        return str(len(select_entries(options, entries, cited, problem)))
    text = render_bibliography(options, entries, cited, problem)
    return text.replace("{", "&#123;").replace("}", "&#125;")


def _close_outputs(text: str) -> str:
    """A `{{` never closed by `}}` is text (escaped): Liquid would stop the page there, and its lexer is slow on
    thousands of them."""
    last_close = text.rfind("}}")
    cut = text.find("{{", last_close + 2 if last_close != -1 else 0)
    return text if cut == -1 else text[:cut] + _escape_liquid(text[cut:])


def _citation(key: str, context: LiquidContext, warn: Callable[[str, int, str, str], None], offset: int) -> str:
    url = context.citations.get(key)
    if url is None:
        warn(f"cite {key}", offset, f"`{{% cite {key} %}}`: no BibTeX entry `{key}` in _bibliography/",
             "check the key, or add the entry to a .bib file")
        return f"[{html.escape(key)}]"
    return f'<a class="citation" href="{html.escape(_join(context.base_path, url))}">{html.escape(key)}</a>'


def _include(args: str, context: LiquidContext, warn: Callable[[str, int, str, str], None], offset: int,
             written: str) -> str:
    """al-folio's and academicpages' media includes as HTML; other includes escaped, with a warning."""
    name = args.split()[0] if args.split() else ""
    params = {k: _value(v, context) for k, v in _ARG.findall(args[len(name):])}
    if name in ("figure.liquid", "figure.html"):
        src = params.get("path") or params.get("image") or params.get("image_path") or ""
        caption = params.get("caption", "")
        alt = params.get("alt") or params.get("title") or caption
        # As al-folio's figure.liquid writes them: `url` is the src as given, `loading` defaults to lazy.
        attributes = [("class", params.get("class")), ("width", params.get("width")),
                      ("height", params.get("height")), ("title", params.get("title")),
                      ("loading", params.get("loading") or "lazy")]
        img = (f'<img src="{html.escape(params.get("url") or _asset(src, context))}" alt="{html.escape(alt)}"'
               + "".join(f' {name}="{html.escape(value)}"' for name, value in attributes if value)
               + (" data-zoomable" if str(params.get("zoomable", "")).lower() not in ("", "false") else "") + ">")
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        return f"<figure>{img}{cap}</figure>"
    if name == "base_path":  # minimal-mistakes' and academicpages' `{% include base_path %}`
        return "{% assign base_path = site.url | append: site.baseurl %}"
    if name in ("youtube.html", "youtube.liquid", "youtubePlayer.html"):
        video = params.get("id") or params.get("video_id") or ""
        return (f'<p class="video"><a href="https://www.youtube.com/watch?v={html.escape(video)}">'
                f"YouTube video {html.escape(video)}</a></p>")
    if name in ("video.liquid", "video.html"):
        src = params.get("path") or params.get("src") or ""
        if "://" in src:
            return f'<p class="video"><a href="{html.escape(src)}">{html.escape(src)}</a></p>'
        caption = params.get("caption", "")
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        return f'<figure><video src="{html.escape(_asset(src, context))}" controls></video>{cap}</figure>'
    warn(f"include {name}", offset, f"`{{% include {name} %}}`: the site's own include is not run by sitegen: "
         "shown as text", "replace it with Markdown or HTML (sitegen renders figure, youtube and video includes)")
    return _escape_liquid(written)


def _value(written: str, context: LiquidContext) -> str:
    """An include argument: a quoted string, or a variable such as `page.image`."""
    if written[:1] in "\"'":
        return written[1:-1]
    if written in ("true", "false") or written.replace(".", "", 1).isdigit():  # Liquid literals, not variables
        return written
    node: Any = {"site": context.site, "page": context.page}
    for part in written.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return "" if node is None else str(node)


def _asset(path: str, context: LiquidContext) -> str:
    """A file path as al-folio's `relative_url` makes it (`assets/img/x.jpg` -> `/base/assets/img/x.jpg`)."""
    if "://" in path or path.startswith("//") or not path:
        return path
    return _join(context.base_path, path)


def _join(base_path: str, url: str) -> str:
    if "://" in url or url.startswith(("#", "mailto:", "//")):
        return url
    if base_path != "/" and url.startswith(base_path):
        return url
    return base_path.rstrip("/") + "/" + url.lstrip("/")


def _escape_liquid(text: str) -> str:
    """Liquid written as text stays visible to readers, and is not read as Liquid or HTML again."""
    return html.escape(text, quote=False).replace("{", "&#123;").replace("}", "&#125;")


def _environment(context: LiquidContext) -> liquid.Environment:
    import liquid  # lazily, with expand_liquid's import of its exceptions

    env = liquid.Environment()
    env.filters["relative_url"] = lambda value: _join(context.base_path, str(value or ""))
    env.filters["absolute_url"] = lambda value: context.origin + _join(context.base_path, str(value or ""))
    env.filters["slugify"] = lambda value, mode="default": slugify(str(value or ""), str(mode))
    env.filters["markdownify"] = lambda value: str(value or "")  # the page's Markdown renders it
    env.filters["xml_escape"] = lambda value: html.escape(str(value or ""))
    env.filters["date_to_string"] = lambda value: _date(value, "%d %b %Y")
    env.filters["date_to_long_string"] = lambda value: _date(value, "%d %B %Y")
    env.filters["number_of_words"] = lambda value: len(str(value or "").split())
    env.filters["jsonify"] = lambda value: json.dumps(value, default=str)
    return env


def _date(value: Any, fmt: str) -> str:
    if isinstance(value, dt.date):
        return value.strftime(fmt)
    return str(value or "")
