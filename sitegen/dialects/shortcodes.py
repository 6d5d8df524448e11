"""Hugo shortcodes in content, expanded to Markdown and HTML before Markdown is rendered (a pure function).

    expand_shortcodes(body, source, body_line, resolve_ref=..., params=...) -> (text, diagnostics)

Both forms are read: `{{< name args >}}` (its output is HTML that Markdown leaves alone) and `{{% name args %}}`
(its output is Markdown), with positional or named arguments (`"quoted"`, `` `raw` `` or bare), paired
(`{{< x >}}inner{{< /x >}}`) or standalone, self-closing (`{{< x />}}`), nested, and escaped as Hugo shows them
(`{{</* x */>}}` is the text `{{< x >}}`). The tags are read by `shortcode_syntax.ShortcodeReader`.

Rendered: Hugo's built-ins `ref`/`relref`, `figure`, `highlight`, `youtube`, `vimeo`, `gist`, `tweet`/`x`,
`instagram`, `param`, `details`, PaperMod's `rawhtml`, Hugo Blox's `spoiler`, `math`, `button`, `card(s)` and
`steps`, and the themes' callouts `notice`, `admonition`, `callout`, `alert`, `hint`.
Embeds that would fetch at build time (gist, tweet, instagram) become links; YouTube and Vimeo players are
the third-party frames the author asked for (YouTube's privacy-enhanced `youtube-nocookie.com`). Any other
shortcode (a theme's or the site's own `layouts/shortcodes/NAME.html`, which is a Go template sitegen cannot
run) keeps its inner text and is warned about once per name with file:line.

Block output (a shortcode alone on its lines) is one line of raw HTML opened by `<!---->`: an HTML comment
starts a Markdown HTML block that ends on that same line, so the text after it stays Markdown; code keeps its
line breaks as `&#10;`; the lines the shortcode spanned are kept as blank lines, so later file:line numbers hold.
This module is also what `sitegen import` uses to turn shortcodes into plain Markdown/HTML.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from sitegen.dialects.shortcode_syntax import Node, ShortcodeReader, Tag
from sitegen.errors import Diagnostic

RefResolver = Callable[[str], str | None]
"""A page path as written in `ref` (`x.md`, `/posts/x`, `posts/x.md`, no anchor) -> its URL, or None if absent."""

_MD_SPECIAL = re.compile(r"[\\`*_\[\]{}$|~!#+\-]")
CALLOUT_SHORTCODES = frozenset({"notice", "admonition", "callout", "alert", "hint"})
_CALLOUT_TYPES = {"note": "note", "info": "info", "tip": "tip", "warning": "warning", "warn": "warning",
                  "danger": "danger", "caution": "caution", "important": "important", "error": "error",
                  "success": "success", "question": "question", "example": "example", "abstract": "abstract",
                  "bug": "bug", "failure": "failure", "quote": "quote", "todo": "todo"}
ONCE_PER_SITE = "is not one sitegen can render"
"""In the warning about a shortcode sitegen cannot run; a build reports it once per name, where first met."""


class _Expander(ShortcodeReader):
    """Writes each shortcode of a page as Markdown or HTML (the handlers below), with what it may look up."""

    def __init__(self, body: str, source: str, body_line: int, resolve_ref: RefResolver | None,
                 params: Mapping[str, Any] | None, site_url: Callable[[str], str]) -> None:
        super().__init__(body, source, body_line)
        self.resolve_ref, self.params, self.site_url = resolve_ref, params or {}, site_url

    def render(self, items: list[str | Node]) -> str:
        return "".join(i if isinstance(i, str) else self.shortcode(i) for i in items)

    def shortcode(self, node: Node) -> str:
        tag = node.tag
        inner = self.render(node.children) if node.children is not None else None
        handler = _HANDLERS.get(tag.name.lower())
        if handler is None:
            self.warn(f"shortcode `{tag.name}` {ONCE_PER_SITE} (a theme's or the site's own "
                      f"`layouts/shortcodes/{tag.name}.html` is a Go template): "
                      + ("its inner text is shown" if inner else "left out"), tag.start,
                      hint="replace it with Markdown or HTML, or with a shortcode sitegen knows (docs/hugo.md)",
                      once=tag.name)
            return inner or ""
        out = handler(self, tag, inner)
        if isinstance(out, _Block):
            return self.block(node, out.html)
        return out

    def block(self, node: Node, html_text: str) -> str:
        """Raw HTML on one line that Markdown leaves alone, keeping the line count of the shortcode's span."""
        spanned = self.body.count("\n", node.tag.start, node.end)
        line_start = self.body.rfind("\n", 0, node.tag.start) + 1
        alone = not self.body[line_start:node.tag.start].strip()
        one_line = "<!---->" + html_text.replace("\n", " ")
        if not alone:
            return one_line.removeprefix("<!---->") + "\n" * spanned
        return one_line + "\n" * spanned

    def arg(self, tag: Tag, name: str, index: int | None = None, default: str = "") -> str:
        if name in tag.named:
            return tag.named[name]
        if index is not None and index < len(tag.positional):
            return tag.positional[index]
        return default


@dataclass(frozen=True)
class _Block:
    html: str


_HTML_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def _text(value: str) -> str:
    """Text for HTML that Markdown will not read as Markdown (`*`, `_`, `$` become character references)."""
    return "".join(_HTML_SPECIAL.get(ch) or (f"&#{ord(ch)};" if _MD_SPECIAL.match(ch) else ch) for ch in value)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _url(value: str) -> str:
    return quote(value, safe="/#?&=%:@!$'()*+,;~-._")


def _site(ex: _Expander, path: str) -> str:
    """A site-rooted path (`/img/a.png`) with the base path; other URLs as written (encoded)."""
    return ex.site_url(path) if path.startswith("/") and not path.startswith("//") else _url(path)


def _ref(ex: _Expander, tag: Tag, inner: str | None) -> str:
    target = ex.arg(tag, "path", 0)
    path, sep, anchor = target.partition("#")
    if not path:
        return _url(sep + anchor)
    if ex.resolve_ref is None:  # no site to look in (`sitegen import`): the path as written, for a later build
        return _url(target)
    url = ex.resolve_ref(path)
    if url is None:
        ex.warn(f"`{tag.name}` to missing page `{target}`: its link goes nowhere", tag.start,
                hint="fix the path (relative to this page or to content/), or remove the shortcode")
        return "#"
    return url + (sep + _url(anchor) if sep else "")


def _figure(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    a = {k.lower(): v for k, v in tag.named.items()}
    src, link = a.get("src", ex.arg(tag, "src", 0)), a.get("link", "")
    img_attrs = [f'src="{_attr(_site(ex, src))}"']
    alt = a.get("alt") or re.sub(r"[*_`]|\[([^\]]*)\]\([^)]*\)", r"\1", a.get("caption", ""))
    img_attrs.append(f'alt="{_attr(alt)}"')
    for key in ("width", "height", "loading"):
        if a.get(key):
            img_attrs.append(f'{key}="{_attr(a[key])}"')
    img = f"<img {' '.join(img_attrs)}>"
    if link:
        extra = "".join(f' {k}="{_attr(a[k])}"' for k in ("target", "rel") if a.get(k))
        img = f'<a href="{_attr(_site(ex, link))}"{extra}>{img}</a>'
    classes = " ".join(c for c in ("align-center" if a.get("align") == "center" else "", a.get("class", "")) if c)
    cls = f' class="{_attr(classes)}"' if classes else ""  # `align`: PaperMod's figure
    caption = ""
    if a.get("title") or a.get("caption") or a.get("attr"):
        parts = []
        if a.get("title"):
            parts.append(f"<h4>{_text(a['title'])}</h4>")
        if a.get("caption") or a.get("attr"):
            text = _inline_markdown(a.get("caption", ""))
            if a.get("attr"):
                credit = _inline_markdown(a["attr"])
                if a.get("attrlink"):
                    credit = f'<a href="{_attr(_url(a["attrlink"]))}">{credit}</a>'
                text += credit
            parts.append(f"<p>{text}</p>")
        caption = f"<figcaption>{''.join(parts)}</figcaption>"
    return _Block(f"<figure{cls}>{img}{caption}</figure>")


# Each span's text excludes its own delimiter, so a scan stops at the next one: linear on any input.
_EMPH = re.compile(r"\*\*(?P<s1>[^*]+)\*\*|__(?P<s2>[^_]+)__|\*(?P<e1>[^*]+)\*|_(?P<e2>[^_]+)_|`(?P<code>[^`]+)`"
                   r"|\[(?P<text>[^\[\]]+)\]\((?P<href>[^()\s]+)\)")


def _inline_markdown(text: str) -> str:
    """The little Markdown Hugo's figure renders in a caption (emphasis, code, links), as HTML."""
    out, pos = [], 0
    for m in _EMPH.finditer(text):
        out.append(_text(text[pos:m.start()]))
        strong, em = m["s1"] or m["s2"], m["e1"] or m["e2"]
        if strong is not None:
            out.append(f"<strong>{_text(strong)}</strong>")
        elif em is not None:
            out.append(f"<em>{_text(em)}</em>")
        elif m["code"] is not None:
            out.append(f"<code>{_text(m['code'])}</code>")
        else:
            out.append(f'<a href="{_attr(_url(m["href"]))}">{_text(m["text"])}</a>')
        pos = m.end()
    out.append(_text(text[pos:]))
    return "".join(out)


def _highlight(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """A fenced code block, so the renderer highlights it (and escapes it) like any other code."""
    lang = ex.arg(tag, "lang", 0)
    opts = ex.arg(tag, "options", 1)
    if inner is None:  # no `{{< /highlight >}}`: the code after it is not inside, and shows as text
        ex.warn("`highlight` has no closing `{{< /highlight >}}`: the code after it is shown as text", tag.start,
                hint="end the code with `{{< /highlight >}}`")
    code = (inner or "").removeprefix("\r").removeprefix("\n")
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    pairs = [o.strip().partition("=") for o in opts.split(",") if o.strip()]
    options = " ".join(f'{k.strip()}="{v.strip()}"' if " " in v.strip() else f"{k.strip()}={v.strip()}"
                       for k, _, v in pairs)
    info = lang + (" {" + options + "}" if options else "")
    line_start = ex.body.rfind("\n", 0, tag.start) + 1
    before = ex.body[line_start:tag.start]
    indent, lead = (before, "") if not before.strip() else ("", "\n")  # in a list item, the fence stays in it
    last = code.rfind("\n") + 1
    if not code[last:].strip():  # the indentation before `{{< /highlight >}}` is not code
        code = code[:last]
    trail = "" if code.endswith("\n") or not code else "\n"
    return f"{lead}{fence}{info}\n{code}{trail}{indent}{fence}"


def _youtube(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    video = ex.arg(tag, "id", 0)
    if not video:
        ex.warn("`youtube` without a video id: the player shows nothing", tag.start,
                hint='write `{{< youtube VIDEO_ID >}}` or `{{< youtube id="VIDEO_ID" >}}`')
    title = ex.arg(tag, "title", None, "YouTube video")
    query = "?autoplay=1" if ex.arg(tag, "autoplay", 1).lower() == "true" else ""
    src = f"https://www.youtube-nocookie.com/embed/{quote(video, safe='')}{query}"
    return _Block(_frame(src, title, ex.arg(tag, "class", None, "video")))


def _vimeo(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    video = ex.arg(tag, "id", 0)
    if not video:
        ex.warn("`vimeo` without a video id: the player shows nothing", tag.start,
                hint='write `{{< vimeo VIDEO_ID >}}` or `{{< vimeo id="VIDEO_ID" >}}`')
    title = ex.arg(tag, "title", None, "Vimeo video")
    src = f"https://player.vimeo.com/video/{quote(video, safe='')}?dnt=1"
    return _Block(_frame(src, title, ex.arg(tag, "class", None, "video")))


def _frame(src: str, title: str, cls: str) -> str:
    return (f'<div class="{_attr(cls)}" style="position:relative;padding-bottom:56.25%;height:0;overflow:hidden">'
            f'<iframe src="{_attr(src)}" title="{_attr(title)}" loading="lazy" allowfullscreen '
            'referrerpolicy="strict-origin-when-cross-origin" allow="encrypted-media; picture-in-picture" '
            'style="position:absolute;top:0;left:0;width:100%;height:100%;border:0"></iframe></div>')


def _link_block(url: str, label: str, cls: str) -> _Block:
    return _Block(f'<p class="{cls}"><a href="{_attr(url)}">{_text(label)}</a></p>')


def _gist(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    user, gist = ex.arg(tag, "user", 0), ex.arg(tag, "id", 1)
    file = ex.arg(tag, "file", 2)
    url = f"https://gist.github.com/{quote(user)}/{quote(gist)}" + (f"#file-{quote(file.replace('.', '-'))}"
                                                                     if file else "")
    return _link_block(url, f"View the gist {file or gist} by {user} on GitHub", "embed gist")


def _tweet(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    user = ex.arg(tag, "user", None)
    post = ex.arg(tag, "id", 0 if not user else None) or (tag.positional[-1] if tag.positional else "")
    url = f"https://x.com/{quote(user or 'i')}/status/{quote(post)}"
    return _link_block(url, f"View the post by @{user} on X" if user else "View the post on X", "embed tweet")


def _instagram(ex: _Expander, tag: Tag, inner: str | None) -> _Block:
    post = ex.arg(tag, "id", 0)
    return _link_block(f"https://www.instagram.com/p/{quote(post)}/", "View the post on Instagram",
                       "embed instagram")


def _param(ex: _Expander, tag: Tag, inner: str | None) -> str:
    key = ex.arg(tag, "name", 0)
    value: Any = ex.params
    for part in key.split("."):
        if not isinstance(value, Mapping):
            value = None
            break
        folded = {str(k).lower(): v for k, v in value.items()}
        value = folded.get(part.lower())
    if value is None or isinstance(value, Mapping | list):
        ex.warn(f"`param {key}`: no such parameter in the page's front matter or the site's params", tag.start,
                hint=f"add `{key}` to the front matter or to `params` in the config")
        return ""
    return _text(str(value).lower() if isinstance(value, bool) else str(value))


def _callout(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """A `> [!TYPE] Title` callout (sitegen's callout markup), its inner text kept as Markdown."""
    kind = (tag.named.get("type") or tag.named.get("kind") or tag.named.get("context")
            or (tag.positional[0] if tag.positional else "") or ("info" if tag.name == "hint" else "note")).lower()
    title = tag.named.get("title") or (tag.positional[1] if len(tag.positional) > 1 else "")
    if tag.name == "alert" and kind not in _CALLOUT_TYPES and not title:
        title = ""
    mapped = _CALLOUT_TYPES.get(kind, "note")
    title = re.sub(r"\s+", " ", title).strip()
    return _quoted(ex, tag, f"[!{mapped.upper()}]" + (f" {title}" if title else ""), inner or "")


def _raw_html(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """PaperMod's (and many sites') `rawhtml`, Hugo Blox's `math`: the inner text as written, which Markdown
    passes through (HTML) or reads as math (`$$...$$`)."""
    return inner or ""


def _button(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """Hugo Blox's `button url="..."` (its inner text the label): a link styled as a button."""
    url = ex.arg(tag, "url", 0) or ex.arg(tag, "link", None)
    label = (inner or "").strip() or ex.arg(tag, "text", None, url)
    return f'<a class="button" href="{_attr(_site(ex, url))}">{_text(label)}</a>'


def _card(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """Hugo Blox's (and Hextra's) `card url= title= subtitle=`: a link with its title and subtitle."""
    title, subtitle = ex.arg(tag, "title", None), ex.arg(tag, "subtitle", None)
    url = ex.arg(tag, "url", None) or ex.arg(tag, "link", None)
    body = f"<strong>{_text(title)}</strong>" + (f" <span>{_text(subtitle)}</span>" if subtitle else "")
    return f'<a class="card" href="{_attr(_site(ex, url))}">{body}</a>' if url else f'<p class="card">{body}</p>'


def _details(ex: _Expander, tag: Tag, inner: str | None) -> str:
    """Hugo's `details`: `<details>` with a `<summary>`, the inner text as Markdown."""
    summary = ex.arg(tag, "summary", None, "") or ex.arg(tag, "text", None, "Details")  # Hugo Blox `spoiler`
    is_open = ex.arg(tag, "open", None, "false").lower() == "true"
    summary = " ".join(summary.split())
    return _quoted(ex, tag, f"[!NOTE]{'+' if is_open else '-'} {summary}", inner or "")


def _quoted(ex: _Expander, tag: Tag, marker: str, inner: str) -> str:
    """A blockquote at the tag's indentation (a callout inside a list item stays in it)."""
    line_start = ex.body.rfind("\n", 0, tag.start) + 1
    before = ex.body[line_start:tag.start]
    indent, lead = (before, "") if not before.strip() else ("", "\n")
    lines = textwrap.dedent(inner.strip("\n")).split("\n") if inner.strip() else []
    body = "".join(f"\n{indent}> {line}" if line.strip() else f"\n{indent}>" for line in lines)
    return f"{lead}> {marker}{body}\n"


_HANDLERS: dict[str, Callable[[_Expander, Tag, str | None], str | _Block]] = {
    "ref": _ref, "relref": _ref, "figure": _figure, "highlight": _highlight, "youtube": _youtube,
    "vimeo": _vimeo, "gist": _gist, "tweet": _tweet, "x": _tweet, "instagram": _instagram, "param": _param,
    "details": _details, "spoiler": _details, "rawhtml": _raw_html, "math": _raw_html,
    "button": _button, "card": _card, "cards": _raw_html, "steps": _raw_html,
    **dict.fromkeys(CALLOUT_SHORTCODES, _callout),
}
KNOWN_SHORTCODES = frozenset(_HANDLERS)
"""The shortcodes sitegen renders; any other keeps its inner text, with a warning."""


def expand_shortcodes(body: str, source: str = "<string>", body_line: int = 1, *,
                      resolve_ref: RefResolver | None = None,
                      params: Mapping[str, Any] | None = None,
                      site_url: Callable[[str], str] | None = None) -> tuple[str, list[Diagnostic]]:
    """Expand Hugo shortcodes in a page body to Markdown and HTML (see the module docstring).

    `source` and `body_line` (the file line of the body's first line) place the warnings; `resolve_ref` maps a
    `ref`/`relref` target without its anchor to a URL (None: missing, warned, and the link goes to `#`; no
    resolver: the target as written, `x.md#part`, for a later build to resolve); `params` is what
    `{{< param key >}}` reads (the page's front matter over the site's params; dotted keys go down mappings,
    case-insensitively); `site_url` gives a site path such as a figure's `/img/a.png` the site's base path.
    Pure: no files, no network.
    """
    if "{{<" not in body and "{{%" not in body:
        return body, []
    ex = _Expander(body, source, body_line, resolve_ref, params, site_url or str)
    return ex.render(ex.tree()), ex.notes
