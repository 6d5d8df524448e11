"""The CV as every output sees it: sections of entries with titles, places, dates, Markdown and links."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sitegen.cv.i18n import format_month, labels, localize_venue
from sitegen.cv.schema import EXTENSION_SECTIONS, JSON_RESUME_SECTIONS
from sitegen.cv.validate import is_free_section, normalize_url, parse_cv_date
from sitegen.cv.variant import apply_variant

DEFAULT_ORDER = ["work", "education", "publications", "talks", "teaching", "awards", "projects", "open_source",
                 "patents", "service", "volunteer", "certificates", "skills", "languages", "interests",
                 "references"]


@dataclass
class Entry:
    """One item of a section, normalized across section kinds."""

    title: str
    subtitle: str = ""
    """Role, degree or level."""
    org: str = ""
    """Employer, institution, venue or event."""
    where: str = ""
    when: str = ""
    summary: str = ""
    """Markdown."""
    highlights: list[str] = field(default_factory=list)
    """Markdown items."""
    keywords: list[str] = field(default_factory=list)
    authors: list[tuple[str, bool]] = field(default_factory=list)
    """(name, is the CV's owner)."""
    links: list[tuple[str, str]] = field(default_factory=list)
    """(label, url)."""
    badges: list[str] = field(default_factory=list)
    """`oral`, `best paper`, `selected`."""
    url: str = ""
    tags: list[str] = field(default_factory=list)
    sort_key: tuple[int, int, int] = (0, 0, 0)


@dataclass
class Section:
    """A titled list of entries."""

    key: str
    title: str
    entries: list[Entry]


@dataclass
class CV:
    """One CV (one language, one variant)."""

    lang: str
    name: str
    label: str = ""
    email: str = ""
    phone: str = ""
    url: str = ""
    location: str = ""
    summary: str = ""
    profiles: list[tuple[str, str, str]] = field(default_factory=list)
    """(network, username, url)."""
    sections: list[Section] = field(default_factory=list)
    variant: str = ""
    labels: dict[str, str] = field(default_factory=dict)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _date_text(value: Any, lang: str, present: str) -> tuple[str, tuple[int, int, int]]:
    if isinstance(value, str) and value.strip().lower() == "present":
        return present, (9999, 12, 31)
    parsed = parse_cv_date(value)
    if parsed is None:
        return _text(value), (0, 0, 0)
    year, month, day = parsed
    return format_month(year, month, lang), (year, month or 0, day or 0)


def _range(item: dict[str, Any], lang: str, words: dict[str, str]) -> tuple[str, tuple[int, int, int]]:
    start = item.get("startDate")
    end = item.get("endDate")
    single = item.get("date") if item.get("date") is not None else item.get("releaseDate")
    if start is None and end is None:
        if single is None and item.get("year") is not None:
            single = item.get("year")
        text, key = _date_text(single, lang, words["present"]) if single is not None else ("", (0, 0, 0))
        return text, key
    start_text, start_key = _date_text(start, lang, words["present"]) if start is not None else ("", (0, 0, 0))
    end_text, end_key = (_date_text(end, lang, words["present"]) if end is not None
                         else (words["present"], (9999, 12, 31)))
    if start_text == end_text:
        return start_text, end_key
    return f"{start_text} – {end_text}".strip(" –"), end_key


def location_text(location: dict[str, Any], lang: str) -> str:
    """Where the CV's owner lives, as written: `Vienna, Austria`; `奥地利维也纳` in Chinese and Japanese (largest
    place first, no commas). The country is `country` as the author wrote it; `countryCode` (`AT`) only when that
    is all there is, since sitegen does not translate codes into names."""
    city, region = _text(location.get("city")), _text(location.get("region"))
    country = _text(location.get("country")) or _text(location.get("countryCode"))
    if lang.split("-")[0].lower() in ("zh", "ja") and location.get("country"):
        return "".join(dict.fromkeys(x for x in (country, region, city) if x))
    return ", ".join(dict.fromkeys(x for x in (city, region, country) if x))


def normalize_name(name: str) -> str:
    """How author names are compared: `A.  Lin` equals `a lin`."""
    return re.sub(r"[\s.]+", " ", name).strip().casefold()


def _entry(key: str, item: dict[str, Any], lang: str, words: dict[str, str], me: set[str]) -> Entry:
    """Map one raw item of section `key` onto the common Entry shape."""
    when, sort_key = _range(item, lang, words)
    get = item.get
    links: list[tuple[str, str]] = []
    entry = Entry(title="", when=when, sort_key=sort_key, summary=_text(get("summary")),
                  highlights=[_text(h) for h in get("highlights") or []], url=normalize_url(_text(get("url"))),
                  tags=[_text(t) for t in get("tags") or []], keywords=[_text(k) for k in get("keywords") or []])
    if key in ("work", "volunteer"):
        entry.title, entry.org = _text(get("position")), _text(get("name") or get("organization"))
        entry.where = _text(get("location"))
        entry.summary = entry.summary or _text(get("description"))
    elif key == "education":
        degree = " ".join(x for x in (_text(get("studyType")), _text(get("area"))) if x)
        entry.title, entry.org = degree or _text(get("institution")), _text(get("institution"))
        entry.subtitle = _text(get("score"))
        entry.keywords = [_text(c) for c in get("courses") or []]
    elif key == "awards":
        entry.title, entry.org = _text(get("title")), _text(get("awarder"))
    elif key == "certificates":
        entry.title, entry.org = _text(get("name")), _text(get("issuer"))
    elif key == "publications":
        entry.title = _text(get("name"))
        entry.org = localize_venue(_text(get("venue") or get("publisher")), lang)
        entry.subtitle = publication_type(_text(get("type")), entry.org, words)
        entry.authors = [(words["et_al"] if _text(a) == "et al." else _text(a), normalize_name(_text(a)) in me)
                         for a in get("authors") or []]
        if get("award"):
            entry.badges.append(_text(get("award")))
        if get("selected"):
            entry.badges.append(words["selected"])
        links += publication_links(_text(get("doi")), _text(get("arxiv")), _text(get("pdf")), _text(get("code")),
                                   _text(get("slides")), words)
    elif key in ("skills", "interests"):
        entry.title, entry.subtitle = _text(get("name")), _text(get("level"))
    elif key == "languages":
        entry.title, entry.subtitle = _text(get("language")), _text(get("fluency"))
    elif key == "references":
        entry.title, entry.summary = _text(get("name")), _text(get("reference"))
    elif key == "projects":
        entry.title, entry.org = _text(get("name")), _text(get("entity"))
        entry.summary = entry.summary or _text(get("description"))
        entry.subtitle = ", ".join(_text(r) for r in get("roles") or [])
    elif key == "talks":
        entry.title, entry.org, entry.where = _text(get("title")), _text(get("event")), _text(get("location"))
        for name in ("slides", "video"):
            if get(name):
                links.append((words[name], normalize_url(_text(get(name)))))
    elif key == "teaching":
        entry.title, entry.org, entry.subtitle = _text(get("course")), _text(get("institution")), _text(get("role"))
    elif key == "patents":
        entry.title, entry.subtitle = _text(get("title")), _text(get("number"))
        entry.org = _text(get("status"))
        entry.authors = [(_text(a), normalize_name(_text(a)) in me) for a in get("inventors") or []]
    elif key == "open_source":
        entry.title, entry.subtitle = _text(get("repository")), _text(get("role"))
        entry.summary = _text(get("description"))
        if get("stars") is not None:
            entry.badges.append(f"★ {get('stars')}")
    elif key == "service":
        entry.title, entry.org = _text(get("role")), _text(get("organization"))
    else:
        entry.title, entry.subtitle = _text(get("title")), _text(get("subtitle"))
        entry.where = _text(get("location"))
    entry.links = links
    return entry


def section_titles(data: dict[str, Any], lang: str) -> tuple[list[str], dict[str, str]]:
    """Section order and titles: `sections:` when given, else the default order then free sections."""
    words = labels(lang)
    present = [k for k in data if k in JSON_RESUME_SECTIONS or k in EXTENSION_SECTIONS or
               (k not in ("basics", "sections", "meta", "$schema") and is_free_section(data[k]))]
    titles = {k: words.get(k, "") or (data[k].get("title") if isinstance(data[k], dict) else "")
              or k.replace("_", " ").title() for k in present}
    for k in present:
        if isinstance(data[k], dict) and data[k].get("title"):
            titles[k] = str(data[k]["title"])
    refs = data.get("sections")
    if refs:
        order = []
        for ref in refs:
            k = str(ref.get("key")) if isinstance(ref, dict) else str(ref)
            if k in titles:
                order.append(k)
                if isinstance(ref, dict) and ref.get("title"):
                    titles[k] = str(ref["title"])
        return order, titles
    known = [k for k in DEFAULT_ORDER if k in present]
    return known + [k for k in present if k not in known], titles


def build_cv(data: dict[str, Any], lang: str, name_variants: list[str], variant: dict[str, Any] | None = None,
             variant_name: str = "") -> CV:
    """Normalize raw CV data (already validated) into a CV for one language and variant (`apply_variant`)."""
    data = apply_variant(data, variant)
    words = labels(lang)
    basics = data.get("basics") or {}
    me = {normalize_name(n) for n in [_text(basics.get("name")), *name_variants] if n}
    location = basics.get("location") or {}
    cv = CV(lang=lang, name=_text(basics.get("name")), label=_text(basics.get("label")),
            email=_text(basics.get("email")), phone=_text(basics.get("phone")),
            url=normalize_url(_text(basics.get("url"))),
            location=location_text(location, lang),
            summary=_text(basics.get("summary")),
            profiles=[(_text(p.get("network")), _text(p.get("username")), normalize_url(_text(p.get("url"))))
                      for p in basics.get("profiles") or []],
            variant=variant_name, labels=words)
    order, titles = section_titles(data, lang)
    for key in order:
        raw = data[key]
        items = raw["entries"] if isinstance(raw, dict) else raw
        entries = [_entry(key, item, lang, words, me) for item in items if isinstance(item, dict)]
        if entries:
            cv.sections.append(Section(key, titles[key], entries))
    return cv


def publication_links(doi: str, arxiv: str, pdf: str, code: str, slides: str,
                      words: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """A publication's (label, URL) links in the order the CV and the publications page show them; `words`
    (`sitegen.cv.i18n.labels`) translates the labels that are words (DOI, arXiv and PDF are names)."""
    words = words or labels("en")
    links = [("DOI", f"https://doi.org/{doi}" if doi else ""),
             ("arXiv", f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
             ("PDF", normalize_url(pdf)), (words["code"], normalize_url(code)),
             (words["slides"], normalize_url(slides))]
    return [(label, url) for label, url in links if url]


SELF_EVIDENT_TYPES = ("journal", "conference")
"""Publication types a venue already says (`MLSys 2024`): the CV does not print them after the title."""


def publication_type(kind: str, venue: str, words: dict[str, str]) -> str:
    """The type to print after a publication's title, in the CV's language, or "" when the venue already
    says it (`thesis` beside `PhD thesis, ...`, `preprint` beside `arXiv preprint`) or needs no saying."""
    if not kind or kind in SELF_EVIDENT_TYPES:
        return ""
    label = words.get(f"type_{kind}", kind)
    said = venue.casefold()
    if label.casefold() in said or kind.casefold() in said:
        return ""
    return label


_DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(.+)$")
_ARXIV_URL = re.compile(r"^https?://arxiv\.org/abs/(.+)$")


def link_target(url: str) -> str:
    """What a printed CV shows for a link, since paper has no hover: `doi:10.1/x`, `arXiv:2402.01234`, or the
    address without `https://` (`github.com/ada/remat`)."""
    if match := _DOI_URL.match(url):
        return f"doi:{match[1]}"
    if match := _ARXIV_URL.match(url):
        return f"arXiv:{match[1]}"
    text = re.sub(r"^https?://", "", url)
    return text[:-1] if text.endswith("/") and text.count("/") == 1 else text


def printed_link(label: str, url: str) -> str:
    """A link as a printed CV writes it: `doi:10.1/x`, `arXiv:2402.01234`, `Code: github.com/ada/remat`."""
    target = link_target(url)
    return target if target.startswith(("doi:", "arXiv:")) or target == label else f"{label}: {target}"
