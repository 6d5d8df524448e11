"""Markdown rendering: one configured markdown-it-py parser per build, a pure `render(text, ctx) -> Rendered`."""

from sitegen.markdown.render import Link, MarkdownRenderer, RenderContext, Rendered, TocEntry

__all__ = ["Link", "MarkdownRenderer", "RenderContext", "Rendered", "TocEntry"]
