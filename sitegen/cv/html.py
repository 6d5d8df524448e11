"""The CV as template data: Markdown already rendered to safe HTML, the owner's name in bold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from sitegen.cv.model import CV, printed_link

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False})


def inline_markdown(text: str) -> Markup:
    """Inline Markdown (`**bold**`, links, code) as HTML, raw HTML escaped."""
    return Markup(_MD.renderInline(text)) if text else Markup("")


def authors_html(authors: list[tuple[str, bool]]) -> Markup:
    """`A. Lin, B. Chen` with the CV owner's name bold."""
    parts = [Markup('<strong class="author-self">{}</strong>').format(name) if me else escape(name)
             for name, me in authors]
    return Markup(", ").join(parts)


@dataclass
class CVPage:
    """What `partials/cv.html` receives as `cv`."""

    cv: CV
    pdf_url: str
    json_url: str
    alternates: list[dict[str, str]] = field(default_factory=list)
    """Other languages: `{lang, url, label}`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cv, name)

    @property
    def summary_html(self) -> Markup:
        return inline_markdown(self.cv.summary)

    @property
    def sections(self) -> list[dict[str, Any]]:
        """Sections with entries whose text fields are safe HTML; each link also as print shows it
        (`printed`: `doi:10.1/x`, `Code: github.com/ada/remat`), since paper has no hover."""
        return [{"key": s.key, "title": s.title, "entries": [{
            "title": inline_markdown(e.title), "subtitle": e.subtitle, "org": e.org, "where": e.where,
            "when": e.when, "summary": inline_markdown(e.summary),
            "highlights": [inline_markdown(h) for h in e.highlights], "keywords": e.keywords,
            "authors": authors_html(e.authors), "badges": e.badges, "url": e.url,
            "links": [{"label": label, "url": url, "printed": printed_link(label, url)} for label, url in e.links],
            "printed_url": printed_link(self.cv.labels["link"], e.url) if e.url and not e.links else "",
        } for e in s.entries]} for s in self.cv.sections]
