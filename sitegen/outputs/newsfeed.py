"""The news feed (`/news/feed.xml`, Atom): one entry per item of `data/news.yaml`, newest first.

A `content/news/` section gets its feed from `feeds.py` like every section; this generator then leaves it alone.
"""

from __future__ import annotations

from markupsafe import Markup

import sitegen
from sitegen.content.dates import iso
from sitegen.content.news import URL
from sitegen.cv.html import inline_markdown
from sitegen.outputs.context import OutputContext
from sitegen.outputs.feeds import feed_settings
from sitegen.outputs.xmltext import escape, quoteattr

PATH = "news/feed.xml"


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """`news/feed.xml` when the site has news and no other output wrote that file."""
    state = ctx.state
    news = state.plan.news
    limit, _, enabled = feed_settings(state)
    if not news or not enabled or PATH in ctx.files:
        return {}
    urls, config = state.urls, state.config
    page = urls.absurl(URL)
    feed_url = urls.absurl("/" + PATH)
    author = config.author.name or config.title
    updated = max(item.date for item in news)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang={quoteattr(config.language)}>',
        f"  <title>{escape(f'News · {config.title}')}</title>",
        f"  <id>{escape(feed_url)}</id>",
        f"  <link rel=\"self\" type=\"application/atom+xml\" href={quoteattr(feed_url)}/>",
        f"  <link rel=\"alternate\" type=\"text/html\" href={quoteattr(page)}/>",
        f"  <updated>{iso(updated)}</updated>",
        f"  <author><name>{escape(author)}</name></author>",
        f'  <generator uri="{sitegen.PROJECT_URL}">sitegen</generator>',
    ]
    for item in news[:limit]:
        html = str(inline_markdown(item.text))
        link = urls.absurl(item.url) if item.url.startswith("/") else item.url or f"{page}#{item.id}"
        lines += [
            "  <entry>",
            f"    <title>{escape(Markup(html).striptags())}</title>",
            f"    <id>{escape(f'{page}#{item.id}')}</id>",
            f"    <link rel=\"alternate\" type=\"text/html\" href={quoteattr(link)}/>",
            f"    <published>{iso(item.date)}</published>",
            f"    <updated>{iso(item.date)}</updated>",
            f"    <content type=\"html\">{escape(html)}</content>",
            "  </entry>",
        ]
    lines.append("</feed>")
    return {PATH: ("\n".join(lines) + "\n").encode("utf-8")}


