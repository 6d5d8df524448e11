"""Landing pages: a page made of sections, in the two shapes Hugo academic sites write them.

    content/_index.md   type: landing                          (Hugo Blox)
                        sections: [{block: resume-biography, content: {username: admin}}, {block: collection, ...}]
    content/home/*.md   widget: about | pages | featured | experience | contact | blank | ...   (Wowchemy)
                        weight: 20, active: true, headless bundle `content/home/index.md`

Two steps, as the rest of the pipeline: `read_landing` (parsing, pure) turns a page's blocks or a widget file into
plain records (`kind`, `title`, `subtitle`, `text` with its shortcodes expanded, items, a collection's filters),
with a located warning for each block sitegen's theme has no section for (its title and text are still shown);
`plan_landing` (planning) gives each landing page its blocks in order (a Wowchemy home page: the active widget
files by weight), a collection the pages its filters select, and a biography or résumé block its author's profile
(`content/authors/<username>/_index.md`, or `data/authors/<username>`). The records are the page's
`landing` field (not its params: a user's `landing:` key is only a param), which
`themes/default/layouts/partials/landing.html` renders.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sitegen.content.dates import DateParseError, parse_date
from sitegen.content.frontmatter import FrontMatter
from sitegen.dialects.base import Dialect
from sitegen.errors import Diagnostic

if TYPE_CHECKING:  # page.py reads landing blocks and tree.py reads pages: the tree is only a type here
    from sitegen.content.tree import ContentTree

KINDS: dict[str, str] = {
    # Hugo Blox blocks (and their older `about.*` names)
    "about.biography": "biography", "about.avatar": "biography", "biography": "biography",
    "resume-biography": "biography", "resume-biography-2": "biography", "resume-biography-3": "biography",
    "resume-experience": "experience", "experience": "experience", "resume-awards": "awards",
    "resume-skills": "skills", "skills": "skills", "resume-languages": "languages",
    "collection": "collection", "portfolio": "collection", "featured": "collection", "pages": "collection",
    "markdown": "markdown", "text": "markdown", "blank": "markdown",
    "contact": "contact", "contact-info": "contact",
    "cta-card": "cta", "cta-button-list": "cta", "cta-image-paragraph": "cta", "hero": "cta", "hero-minimal": "cta",
    "features": "features", "featurette": "features",
    "tag_cloud": "tags", "tag-cloud": "tags",
    # Wowchemy widgets that differ from the blocks above
    "about": "biography", "accomplishments": "awards",
}
"""Block or widget name -> the section of sitegen's theme that shows it."""
PROFILE_KINDS = frozenset({"biography", "experience", "awards", "skills", "languages"})
"""Blocks that show an author's profile."""
_LINK = re.compile(r"\[([^\[\]]+)\]\(([^\s()]+)\)")
_DEFAULT_COUNT = 5
"""How many pages a collection lists when it does not say (Hugo Blox's default)."""


def read_landing(data: Mapping[str, Any], fm: FrontMatter, source: str, dialect: Dialect
                 ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """A page's landing blocks (Hugo Blox `sections:`, or the one block of a Wowchemy widget file), each a plain
    record, and a warning for each block sitegen shows only as its title and text. Not a landing page: `[]`."""
    sections = data.get("sections")
    if isinstance(sections, list) and any(isinstance(s, dict) and "block" in s for s in sections):
        blocks: list[dict[str, Any]] = []
        notes: list[Diagnostic] = []
        lines = _block_lines(fm.text)
        for i, item in enumerate(s for s in sections if isinstance(s, dict) and "block" in s):
            line = lines[i] if i < len(lines) else fm.key_line("sections")
            content = _mapping(item.get("content"))
            block = _block(str(item["block"]), item, content, str(content.get("text") or ""), source, line,
                           dialect, notes, "Hugo Blox block")
            if block is not None:
                blocks.append(block)
        return blocks, notes
    widget = data.get("widget")
    if isinstance(widget, str) and posixpath.dirname(source) == "home" and data.get("active") is not False:
        notes = []
        content = _mapping(data.get("content"))
        block = _block(widget, data, content, fm.body, source, fm.key_line("widget"), dialect, notes,
                       "Wowchemy widget", body_line=fm.body_line)
        weight = data.get("weight")
        if block is not None:  # the file's name is the section's anchor (`/#contact`), as in Wowchemy
            block["weight"] = weight if isinstance(weight, int) and not isinstance(weight, bool) else 0
            block["id"] = block["id"] or posixpath.splitext(posixpath.basename(source))[0]
        return ([block] if block is not None else []), notes
    return [], []


def _block_lines(text: str) -> list[int]:
    """The file line of each `block:` key of a `sections:` list (YAML or TOML front matter), in order."""
    return [text.count("\n", 0, m.start()) + 2
            for m in re.finditer(r"^[ \t]*(?:-[ \t]+)?[\"']?block[\"']?[ \t]*[:=]", text, re.M)]


def _block(name: str, item: Mapping[str, Any], content: Mapping[str, Any], text: str, source: str,
           line: int | None, dialect: Dialect, notes: list[Diagnostic], what: str,
           body_line: int | None = None) -> dict[str, Any] | None:
    """One block as a record; None for a Hugo Blox block switched off (`demo: true` shows only on Hugo Blox's
    demo site)."""
    if item.get("demo") is True:
        return None
    kind = KINDS.get(name, "unknown")
    title = content.get("title", item.get("title"))
    expanded, expand_notes = dialect.expand(text, source, body_line or line or 1) if text.strip() else ("", [])
    notes.extend(dataclasses.replace(n, path=n.path.removeprefix("content/")) if n.path else n
                 for n in expand_notes)
    block: dict[str, Any] = {
        "kind": kind, "name": name, "id": str(item.get("id") or ""), "source": source, "line": line or 0,
        "title": str(title) if isinstance(title, str | int | float) and title else "",
        "subtitle": _text(content.get("subtitle", item.get("subtitle"))),
        "text": expanded,
        "username": _text(content.get("username") or item.get("author") or "admin"),
    }
    if kind == "unknown":
        notes.append(Diagnostic(
            f"{what} `{name}` has no section in sitegen's theme: only its title and text are shown",
            path=source, line=line, col=1,
            hint="use a block sitegen renders (docs/hugo.md lists them), or write the section as Markdown"))
    elif kind == "collection":
        block["filter"] = _filter(name, content)
    elif kind == "cta":
        block["buttons"] = _buttons(item, content, source, line, notes)
    elif kind == "features":
        block["items"] = _items(content.get("items") or item.get("feature"))
    elif kind in ("experience", "awards"):
        inline = item.get("experience") if kind == "experience" else item.get("item")
        if isinstance(inline, list):  # a Wowchemy widget lists its entries itself
            block["items"] = _items(inline)
    elif kind == "contact":
        block["contact"] = {k: content[k] for k in ("email", "phone", "address", "office_hours") if content.get(k)}
    return block


def _list(value: Any, key: str, path: str | None, notes: list[Diagnostic], line: int | None = None) -> list[Any]:
    """`value` when it is a list; nothing (with a warning naming the file and key) when it is another value."""
    if isinstance(value, list):
        return value
    if value is not None and value != "" and value is not False:
        note = Diagnostic(f"`{key}` should be a list, not `{value!r}`: it is left out", path=path, line=line,
                          col=1 if line else None, hint=f"write `{key}` as a list of entries, or remove it")
        if note not in notes:  # the same profile shown by two blocks: one warning
            notes.append(note)
    return []


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    return str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else ""


def _filter(name: str, content: Mapping[str, Any]) -> dict[str, Any]:
    """A collection's filters: the folders (Hugo Blox `filters.folders`, Wowchemy `page_type`), taxonomy terms,
    featured or not, past or future, how many and in which order."""
    raw = _mapping(content.get("filters"))
    folders = raw.get("folders") or content.get("page_type") or ("project" if name == "portfolio" else None)
    folders = [folders] if isinstance(folders, str) else folders
    count = content.get("count", _DEFAULT_COUNT)
    offset = content.get("offset", 0)
    return {
        "folders": [str(f).strip("/") for f in folders if str(f).strip("/")] if isinstance(folders, list) else [],
        "tag": _text(raw.get("tag")), "category": _text(raw.get("category")),
        "featured_only": raw.get("featured_only") is True or name == "featured",
        "exclude_featured": raw.get("exclude_featured") is True,
        "exclude_past": raw.get("exclude_past") is True, "exclude_future": raw.get("exclude_future") is True,
        "count": count if isinstance(count, int) and count >= 0 else _DEFAULT_COUNT,
        "offset": offset if isinstance(offset, int) and offset >= 0 else 0,
        "ascending": str(content.get("order") or "desc").lower() == "asc",
    }


def _buttons(item: Mapping[str, Any], content: Mapping[str, Any], source: str, line: int | None,
             notes: list[Diagnostic]) -> list[dict[str, str]]:
    """A call to action's links: `button`, `buttons`, `primary_action`/`secondary_action` (Hugo Blox), `cta` and
    `cta_alt` (Wowchemy's hero)."""
    found: list[Any] = [content.get("button"), *_list(content.get("buttons"), "buttons", source, notes, line),
                        content.get("primary_action"), content.get("secondary_action"), item.get("cta"),
                        item.get("cta_alt")]
    out = []
    for b in found:
        if isinstance(b, dict) and b.get("url"):
            out.append({"text": _text(b.get("text") or b.get("label") or b["url"]), "url": str(b["url"])})
    return out


def _items(entries: Any) -> list[dict[str, Any]]:
    """Résumé and feature entries as one shape: `title`, `org` (with `org_url`), `location`, `start`, `end`,
    `text` (Markdown). Reads Wowchemy's and Hugo Blox's names for each (`company`, `company_name`, `institution`,
    `awarder`, `organization`; `description`, `summary`)."""
    out = []
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict):
            continue
        org = _text(e.get("company") or e.get("company_name") or e.get("institution") or e.get("awarder")
                    or e.get("organization") or e.get("org"))
        link = _LINK.fullmatch(org.strip())  # `[RIT](https://rit.edu)`: a name and its link
        out.append({
            "title": _text(e.get("title") or e.get("position") or e.get("area") or e.get("course")
                           or e.get("name") or e.get("degree") or e.get("role") or e.get("label")),
            "org": link[1] if link else org,
            "org_url": link[2] if link else _text(e.get("company_url") or e.get("organization_url") or e.get("url")),
            "location": _text(e.get("location")),
            "start": _date(e.get("date_start") or e.get("start") or e.get("date") or e.get("year")),
            "end": _date(e.get("date_end") or e.get("end")),
            "text": _text(e.get("description") or e.get("summary")),
        })
    return out


def _date(value: Any) -> dt.datetime | str:
    """A résumé date as a date when it reads as one (`2017-01-01`), else its text (`2022`, `Present`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    try:
        return parse_date(value) or ""
    except DateParseError:
        return _text(value)


def plan_landing(tree: ContentTree, pages: Iterable[Any], data: Mapping[str, Any], now: dt.datetime,
                 dialect: Dialect, params: Mapping[str, Any] | None = None) -> tuple[ContentTree, list[Diagnostic]]:
    """The tree with each landing page's `landing` blocks complete: a Wowchemy home page gets the blocks of the
    active widget files of `content/home/` by weight (a hugo-resume home page: the sections its `params.show*`
    switch on, `resume_blocks`), a collection the sources of the pages it lists, a profile
    block its author's profile (its text expanded by `dialect` when the profile page itself is not published).
    A missing profile is warned about where the block names it; paths in the warnings are from the site root."""
    by_source = {p.source: p for p in pages}
    widgets = sorted((b for p in by_source.values() if posixpath.dirname(p.source) == "home"
                      for b in p.landing), key=lambda b: (b.get("weight", 0), b["source"]))
    notes: list[Diagnostic] = []
    changed = {}
    for source, page in tree.pages.items():
        own = page.landing
        home = (widgets or resume_blocks(params or {}, data, notes)) if page.kind == "home" else None
        blocks = own or home
        if not blocks:
            continue
        resolved = [_resolve(b, tree, by_source, data, now, dialect, notes) for b in blocks]
        changed[source] = dataclasses.replace(page, landing=resolved)
    if not changed:
        return tree, notes
    return dataclasses.replace(tree, pages={**tree.pages, **changed}), notes


RESUME_SECTIONS = (
    ("showskills", "skills", "skills", ""), ("showprojects", "collection", "projects", "projects/creations"),
    ("showopensource", "collection", "", "projects/contributions"),
    ("showpublications", "collection", "publications", "publications"), ("showexperience", "experience", "work", ""),
    ("showeducation", "education", "education", ""), ("showblog", "collection", "", "blog"))
"""hugo-resume's home page, in its order: (switch in `params`, block kind, title's translation key, folder)."""


def resume_blocks(params: Mapping[str, Any], data: Mapping[str, Any], notes: list[Diagnostic] | None = None
                  ) -> list[dict[str, Any]]:
    """hugo-resume's data-driven home sections (`params.showSkills`, `showExperience`...): skills, experience and
    education from `data/skills|experience|education.json`, projects, open source, publications and blog from their
    sections; `[]` for a site that switches none on."""
    notes = [] if notes is None else notes
    switches = {str(k).lower(): v for k, v in params.items()}
    blocks = []
    for switch, kind, title_key, folder in RESUME_SECTIONS:
        if switches.get(switch) is not True:
            continue
        block: dict[str, Any] = {"kind": kind, "name": switch, "id": title_key or folder.rsplit("/", 1)[-1],
                                 "source": "_index.md", "line": 0, "title": "", "title_key": title_key,
                                 "subtitle": "", "text": "", "username": ""}
        if kind == "collection":
            block["filter"] = {**_filter("pages", {"count": 0}), "folders": [folder]}
            if switch == "showopensource":
                block["title"] = _text(switches.get("opensourcealternatename")) or "Open Source"
            elif switch == "showblog":
                block["title"] = "Blog"
        elif kind == "skills":
            block["items"] = [{"title": _text(g.get("grouping")), "org": "", "org_url": "", "location": "",
                               "start": "", "end": "", "text": ", ".join(
                                   _text(x.get("name") if isinstance(x, dict) else x)
                                   for x in _list(g.get("skills"), "skills", "data/skills.json", notes))}
                              for g in _list(data.get("skills"), "skills", "data/skills.json", notes)
                              if isinstance(g, dict)]
        else:
            rows = _list(data.get(kind), kind, f"data/{kind}.json", notes)
            block["kind"] = "experience" if kind == "experience" else "awards"
            block["items"] = _items([{"title": r.get("role") or ", ".join(
                                          str(x) for x in (r.get("degree"), r.get("major")) if x),
                                      "org": r.get("company") or r.get("school"), "start": r.get("range"),
                                      "summary": r.get("summary") or r.get("notes"), "url": r.get("url")}
                                     for r in rows if isinstance(r, dict)])
        blocks.append(block)
    return blocks


def _resolve(block: dict[str, Any], tree: ContentTree, pages: Mapping[str, Any], data: Mapping[str, Any],
             now: dt.datetime, dialect: Dialect, notes: list[Diagnostic]) -> dict[str, Any]:
    out = dict(block)
    if block["kind"] == "collection":
        out["pages"] = _collect(block["filter"], tree, now)
    elif block["kind"] in PROFILE_KINDS and not block["username"]:  # hugo-resume: its entries are data files
        name = {"showexperience": "experience", "showeducation": "education"}.get(block["name"], "skills")
        if not block.get("items") and not data.get(name):  # a value of the wrong shape is warned about already
            notes.append(Diagnostic(
                f"`params.{block['name']}` is on, and this file is missing or has no entries: the section is empty",
                path=f"data/{name}.json",
                hint=f"write data/{name}.json (a list of entries), or switch `{block['name']}` off"))
    elif block["kind"] in PROFILE_KINDS:
        profile = author_profile(block["username"], tree, pages, data, notes)
        if profile is None and not block.get("items"):
            notes.append(Diagnostic(
                f"`{block['name']}` shows the profile of `{block['username']}`, and there is none",
                path=f"content/{block['source']}", line=block["line"] or None, col=1,
                hint=f"write content/authors/{block['username']}/_index.md (or name an existing author)"))
        elif profile is not None and profile["body"] and not profile["source"]:
            page = pages[profile["page"]] if profile["page"] else None
            profile["body"], expand_notes = dialect.expand(profile["body"], profile["page"] or block["source"],
                                                           page.body_line if page is not None else 1)
            notes.extend(n for n in expand_notes if n not in notes)
        out["author"] = profile
    return out


def _collect(f: Mapping[str, Any], tree: ContentTree, now: dt.datetime) -> list[str]:
    """The published pages a collection's filters select, newest first (or oldest with `order: asc`)."""
    chosen = []
    for source in tree.regular:
        page = tree.pages[source]
        if f["folders"] and not any(page.folder == d or page.folder.startswith(d + "/") for d in f["folders"]):
            continue
        if page.hidden or (f["tag"] and f["tag"] not in page.taxonomies.get("tags", [])):
            continue
        if f["category"] and f["category"] not in page.taxonomies.get("categories", []):
            continue
        featured = page.params.get("featured") is True
        if (f["featured_only"] and not featured) or (f["exclude_featured"] and featured):
            continue
        when = page.date
        if when is not None and ((f["exclude_past"] and when < now) or (f["exclude_future"] and when > now)):
            continue
        chosen.append(page)
    epoch = dt.datetime.min.replace(tzinfo=dt.UTC)
    chosen.sort(key=lambda p: (p.date or epoch, p.source), reverse=not f["ascending"])
    picked = chosen[f["offset"]:]
    return [p.source for p in (picked[: f["count"]] if f["count"] else picked)]


def author_profile(username: str, tree: ContentTree, pages: Mapping[str, Any], data: Mapping[str, Any],
                   notes: list[Diagnostic] | None = None) -> dict[str, Any] | None:
    """An author's profile: `content/authors/<username>/_index.md` (Wowchemy and Hugo Blox: name, role,
    organizations, interests, education, work, awards, links, the body as the biography), else
    `data/authors/<username>`; None when neither exists."""
    page = next((pages[s] for s in (f"authors/{username}/_index.md", f"authors/{username}/index.md",
                                    f"authors/{username}.md") if s in pages), None)
    if page is not None:
        p: Mapping[str, Any] = page.params
        name = _text(p.get("name")) or page.title  # older Academic profiles write `name:`
        source = page.source if page.source in tree.pages else ""
        body, origin = ("", page.source) if source else (page.body, page.source)
    elif isinstance(data.get("authors"), dict) and isinstance(data["authors"].get(username), dict):
        p = data["authors"][username]
        raw_name = p.get("name")
        name = _text(raw_name.get("display") if isinstance(raw_name, dict) else raw_name or p.get("title"))
        source, body, origin = "", _text(p.get("bio")), ""
    else:
        if data.get("authors") and not isinstance(data.get("authors"), dict) and notes is not None:
            note = Diagnostic("data/authors should map each username to a profile, not be a list: it is not read",
                              path="data/authors", hint=f"write `{username}: {{name: ..., bio: ...}}`")
            if note not in notes:
                notes.append(note)
        return None
    notes = [] if notes is None else notes
    where = f"content/{page.source}" if page is not None else f"data/authors/{username}"

    def listed(*keys: str) -> list[Any]:
        key = next((k for k in keys if p.get(k)), keys[0])
        return _list(p.get(key), key, where, notes)

    education = p.get("education")
    if isinstance(education, dict):  # Wowchemy: `education: {courses: [...]}`
        education = education.get("courses")
    links = []
    for entry in listed("social", "profiles", "links"):
        url = entry.get("link") or entry.get("url") if isinstance(entry, dict) else None
        if isinstance(url, str) and url:
            links.append({"url": url, "label": _text(entry.get("label") or entry.get("icon") or url)})
    organizations = [{"name": _text(o.get("name")), "url": _text(o.get("url"))}
                     for o in listed("organizations", "affiliations") if isinstance(o, dict)]
    return {
        "name": name, "role": _text(p.get("role")), "bio": _text(p.get("bio")) if page is not None else "",
        "organizations": organizations,
        "interests": [str(i) for i in listed("interests") if isinstance(i, str | int | float)],
        "education": _items(education), "work": _items(p.get("work") or p.get("experience")),
        "awards": _items(p.get("awards")), "languages": _items(p.get("languages")),
        "skills": _items([i for group in listed("skills") if isinstance(group, dict)
                          for i in _list(group.get("items"), "skills: items", where, notes)]),
        "links": links, "email": _text(p.get("email")), "source": source, "body": body, "page": origin,
    }
