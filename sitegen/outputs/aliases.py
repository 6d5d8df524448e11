"""Redirect pages for `aliases:` (old URLs) that work without JavaScript: meta refresh plus canonical link."""

from __future__ import annotations

from sitegen.content.urls import output_path_for
from sitegen.errors import ContentError, SitegenError, raise_if_any
from sitegen.outputs.context import OutputContext
from sitegen.redirects import redirect_page


def generate(ctx: OutputContext) -> dict[str, bytes]:
    """One redirect page per alias; an alias that collides with a real page is an error naming both."""
    state = ctx.state
    owners = {output_path_for(path).casefold(): source for source, path in state.tree.urls.items()}
    out: dict[str, bytes] = {}
    errors: list[SitegenError] = []
    claimed: dict[str, str] = {}
    for source in sorted(state.tree.pages):
        page = state.tree.pages[source]
        target = state.tree.urls.get(source)
        if target is None:
            continue
        for alias in page.aliases:
            path = output_path_for(alias)
            key = path.casefold()
            if owners.get(key) == source:
                continue  # an alias of the page's own URL (`redirect_from: [/projects]` on `/projects/`): no redirect
            other = owners.get(key) or claimed.get(key)
            if other is not None or path in ctx.files:
                errors.append(ContentError(
                    f"alias `{alias}` collides with content/{other or path}", path=f"content/{source}",
                    line=None, hint="remove the alias or move the other page"))
                continue
            claimed[key] = source
            out[path] = redirect_page(state.urls.url(target), state.urls.absurl(target))
    raise_if_any(errors)
    if out and "_redirects" not in ctx.files:
        # Netlify reads `_redirects` and answers with a real 301; other hosts fall back to the pages above.
        # `301!` (forced): Netlify skips a rule whose path has a file (shadowing), and each alias has its page.
        lines = sorted(f"{state.urls.url(p)} {state.urls.url(t)} 301!" for p, t in _pairs(state))
        out["_redirects"] = ("\n".join(lines) + "\n").encode("utf-8")
    return out


def _pairs(state: object) -> list[tuple[str, str]]:
    """(alias, target site path) for every alias of every page."""
    tree = state.tree  # type: ignore[attr-defined]
    return [(alias, tree.urls[source]) for source, page in tree.pages.items() if source in tree.urls
            for alias in page.aliases]
