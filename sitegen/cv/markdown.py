"""The CV as Markdown (`sitegen cv --format md`), for pasting into other tools."""

from __future__ import annotations

from sitegen.cv.model import CV


def render_markdown_cv(cv: CV) -> str:
    """A plain Markdown CV with the owner's name bold in author lists."""
    out = [f"# {cv.name}", ""]
    if cv.label:
        out += [f"*{cv.label}*", ""]
    contacts = [c for c in (cv.email, cv.phone, cv.location, cv.url) if c]
    contacts += [f"[{n}]({u})" for n, _, u in cv.profiles if u]
    if contacts:
        out += [" · ".join(contacts), ""]
    if cv.summary:
        out += [cv.summary, ""]
    for section in cv.sections:
        out += [f"## {section.title}", ""]
        for e in section.entries:
            head = f"**{e.title}**" + (f" · {e.subtitle}" if e.subtitle else "") + (f" ({e.when})" if e.when else "")
            out.append(f"- {head}")
            if e.authors:
                out.append("  " + ", ".join(f"**{n}**" if me else n for n, me in e.authors))
            where = cv.labels.get("comma", ", ").join(x for x in (e.org, e.where) if x)
            if where or e.badges:
                out.append(f"  *{where}*" + "".join(f" [{b}]" for b in e.badges))
            if e.summary:
                out.append(f"  {e.summary}")
            out += [f"  - {h}" for h in e.highlights]
            if e.keywords:
                out.append("  " + ", ".join(e.keywords))
            if e.links:
                out.append("  " + " · ".join(f"[{label}]({url})" for label, url in e.links))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
