"""The Jinja2 environment: site layouts before theme layouts, strict undefined, URL helpers and filters."""

from __future__ import annotations

import datetime as dt
import os
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
from markupsafe import Markup

import sitegen
from sitegen.config import SiteConfig
from sitegen.confine import ALLOW_HINT
from sitegen.content.urls import UrlHelper
from sitegen.errors import TemplateError
from sitegen.i18n import Strings, Translator
from sitegen.memo import BuildMemo

_ZH_MONTHS = "一二三四五六七八九十"


class MissingTemplate(TemplateError):
    """No template exists for a page (the message lists where sitegen looked)."""


def format_date(value: dt.datetime | dt.date | None, fmt: str = "%B %-d, %Y", lang: str = "en") -> str:
    """Format a date for a language: English month names (locale-independent), or `2024年3月10日` for zh/ja."""
    if value is None:
        return ""
    if lang.split("-")[0] in ("zh", "ja"):
        return f"{value.year}年{value.month}月{value.day}日"
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"]
    fmt = fmt.replace("%B", months[value.month - 1]).replace("%b", months[value.month - 1][:3])
    fmt = fmt.replace("%-d", str(value.day)).replace("%-m", str(value.month))
    return value.strftime(fmt)


def _page_lang(context: jinja2.runtime.Context) -> str | None:
    """The language of the page being rendered (its `lang`, else its site's), if the context has a page."""
    page = context.get("page")
    lang = getattr(page, "lang", None) if page is not None else None
    return lang if isinstance(lang, str) and lang else None


def isodate(value: dt.datetime | None) -> str:
    """RFC 3339 timestamp for `<time datetime>` and feeds."""
    return value.isoformat(timespec="seconds") if value else ""


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that refuses a template whose links lead out of the folders it may read (the site, and
    each theme's own folder), so that `layouts/base.html -> /etc/passwd` is not published."""

    def __init__(self, searchpath: list[Path], roots: list[Path]) -> None:
        super().__init__([str(p) for p in searchpath])
        self.roots = [Path(os.path.realpath(r)) for r in roots]

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """The template's source, after checking where its file really is."""
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except jinja2.TemplateNotFound:
            raise
        except OSError as exc:
            raise TemplateError(f"cannot read the template {template}: {exc.strerror or exc}",
                                path=exc.filename and str(exc.filename),
                                hint="check that it is a readable file") from None
        real = Path(os.path.realpath(filename))
        if not any(real.is_relative_to(root) for root in self.roots):
            raise TemplateError(f"a symbolic link to outside the site ({real})", path=filename,
                                hint=ALLOW_HINT)
        return source, filename, uptodate


def make_loader(search_path: list[Path], theme_layouts: list[Path], *, confined: bool = True) -> jinja2.BaseLoader:
    """Site layouts shadow theme layouts by name; `theme/<name>` always reaches the theme's own file, so a
    site's `base.html` can `{% extends "theme/base.html" %}` and override a single block.

    With `confined` (unless the site sets `allow_symlinks_outside`), a template read through a link must stay
    inside the site folder (the parent of the first search path) or inside its theme's folder."""
    if not confined:
        return jinja2.ChoiceLoader([
            jinja2.FileSystemLoader([str(p) for p in search_path]),
            jinja2.PrefixLoader({"theme": jinja2.FileSystemLoader([str(p) for p in theme_layouts])}),
        ])
    site = search_path[0].parent
    roots = [site, *(p.parent for p in search_path[1:] if not p.is_relative_to(site))]
    return jinja2.ChoiceLoader([
        ConfinedLoader(search_path, roots),
        jinja2.PrefixLoader({"theme": ConfinedLoader(theme_layouts, roots)}),
    ])


def make_environment(search_path: list[Path], config: SiteConfig,
                     markdownify: Callable[[str], str], extra_globals: dict[str, Any] | None = None,
                     bytecode_cache: jinja2.BytecodeCache | None = None, urls: UrlHelper | None = None,
                     translator: Translator | None = None) -> jinja2.Environment:
    """One environment per build (per language): loader over site layouts then theme layouts; `urls` builds
    the URLs (the plan's, which knows a language's prefix); `translator` gives the theme's strings (`i18n`,
    `T`) and the `date` and `number` filters in the page's language."""
    env = jinja2.Environment(
        loader=make_loader(search_path, search_path[1:], confined=not config.allow_symlinks_outside),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=bytecode_cache,
        extensions=["jinja2.ext.loopcontrols"],
    )
    urls = urls or UrlHelper(config)
    env.globals.update(url=urls.url, relurl=urls.url, absurl=urls.absurl, sitegen_version=sitegen.__version__)
    env.globals.update(extra_globals or {})
    translator = translator or Translator(Strings(), config.language, date_format=config.date_format)

    @jinja2.pass_context
    def i18n(context: jinja2.runtime.Context, key: str, count: int | float | None = None, **params: Any) -> str:
        return translator(key, count, lang=params.pop("lang", None) or _page_lang(context), **params)

    @jinja2.pass_context
    def date(context: jinja2.runtime.Context, value: dt.datetime | dt.date | None, fmt: str | None = None,
             lang: str | None = None) -> str:
        return translator.format_date(value, fmt, lang or _page_lang(context))

    @jinja2.pass_context
    def number(context: jinja2.runtime.Context, value: int | float, lang: str | None = None) -> str:
        return translator.number(value, lang or _page_lang(context))

    env.globals.update(i18n=i18n, T=i18n)
    env.filters.update(
        date=date,
        number=number,
        isodate=isodate,
        markdownify=lambda text: Markup(markdownify(str(text))),
        url=urls.url,
        absurl=urls.absurl,
    )
    return env


def select_template(env: jinja2.Environment, candidates: Iterable[str], page_label: str) -> jinja2.Template:
    """The first existing template among `candidates`; an error lists everywhere it looked."""
    names = list(dict.fromkeys(candidates))
    try:
        return env.select_template(names)
    except jinja2.TemplateSyntaxError as exc:
        raise template_error(exc, page_label) from None
    except jinja2.TemplatesNotFound:
        loader = env.loader
        first = loader.loaders[0] if isinstance(loader, jinja2.ChoiceLoader) else loader
        roots = getattr(first, "searchpath", [])
        raise MissingTemplate(
            f"no template for {page_label}", path=page_label,
            causes=[f"looked for {', '.join(names)}", f"in {', '.join(str(r) for r in roots)}"],
            hint="create one of those files in layouts/, or fix the page's `layout`") from None


def template_error(exc: BaseException, page_label: str | None) -> TemplateError:
    """Turn any exception raised while rendering into a TemplateError naming the template line and page (none
    when the template is compiled before any page renders)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return TemplateError(f"template syntax error: {exc.message}", path=exc.filename or exc.name,
                             line=exc.lineno, causes=[f"while rendering {page_label}"] if page_label else [],
                             hint="check the matching {% ... %} / {{ ... }} pairs")
    path, line = None, None
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename and frame.filename.endswith((".html", ".xml", ".txt", ".json", ".j2")):
            path, line = frame.filename, frame.lineno
            break
    kind = "undefined variable" if isinstance(exc, jinja2.UndefinedError) else type(exc).__name__
    return TemplateError(f"{kind}: {exc}", path=path, line=line, causes=[f"while rendering {page_label}"],
                         hint="fix the template, or guard optional values with `is defined`")


class MemoBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in the build memo (so the dev server and the build cache compile a template
    once per version of its source); Jinja checks each entry's checksum and Python magic before using it."""

    def __init__(self, memo: BuildMemo) -> None:
        self.memo = memo

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from the memo when this exact source was compiled before."""
        key = f"jinja:{bucket.key}:{bucket.checksum}"
        data = self.memo.blobs.get(key)
        if data is not None:
            self.memo.used_blobs.add(key)
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Remember a freshly compiled template."""
        self.memo.blob(f"jinja:{bucket.key}:{bucket.checksum}", bucket.bytecode_to_string)
