"""Words a CV prints in each language: section titles, months, "present". Extend `LABELS` for more languages."""

from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "work": "Experience", "volunteer": "Volunteering", "education": "Education", "awards": "Awards",
        "certificates": "Certificates", "publications": "Publications", "skills": "Skills",
        "languages": "Languages", "interests": "Interests", "references": "References", "projects": "Projects",
        "talks": "Talks", "teaching": "Teaching", "patents": "Patents", "open_source": "Open source",
        "service": "Service", "present": "present", "download_pdf": "PDF", "download_json": "JSON Resume",
        "other_language": "中文版", "selected": "selected", "stars": "stars", "abstract": "Abstract",
        "undated": "Undated", "no_publications": "No publications yet.", "cv": "CV", "link": "Link",
        "code": "Code", "slides": "Slides", "video": "Video", "et_al": "et al.",
        "type_thesis": "thesis", "type_preprint": "preprint", "type_book": "book", "type_chapter": "book chapter",
        "type_report": "report", "type_patent": "patent", "type_journal": "journal", "type_conference": "conference",
        "comma": ", ",
    },
    "zh": {
        "work": "工作经历", "volunteer": "志愿经历", "education": "教育背景", "awards": "荣誉奖项",
        "certificates": "证书", "publications": "发表论文", "skills": "技能", "languages": "语言",
        "interests": "兴趣", "references": "推荐人", "projects": "项目", "talks": "学术报告",
        "teaching": "教学", "patents": "专利", "open_source": "开源项目", "service": "学术服务",
        "present": "至今", "download_pdf": "PDF 版", "download_json": "JSON 简历",
        "other_language": "English", "selected": "代表作", "stars": "星", "abstract": "摘要",
        "undated": "未注明日期", "no_publications": "暂无论文。", "cv": "简历", "link": "链接",
        "code": "代码", "slides": "幻灯片", "video": "视频", "et_al": "等",
        "type_thesis": "学位论文", "type_preprint": "预印本", "type_book": "专著", "type_chapter": "书籍章节",
        "type_report": "技术报告", "type_patent": "专利", "type_journal": "期刊论文", "type_conference": "会议论文",
        "comma": "，",
    },
}
VENUE_WORDS: dict[str, dict[str, str]] = {
    "zh": {"arXiv preprint": "arXiv 预印本", "PhD thesis": "博士学位论文", "Master's thesis": "硕士学位论文",
           "Thesis": "学位论文", "Technical report": "技术报告", "Patent": "专利"},
}
"""The words sitegen itself writes into a BibTeX entry's venue (`sitegen.cv.publication._venue`), translated."""
MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
}


def labels(lang: str) -> dict[str, str]:
    """The label table for a BCP 47 tag (`zh-CN` -> `zh`), falling back to English."""
    base = lang.split("-")[0].lower()
    return {**LABELS["en"], **LABELS.get(base, {})}


def format_month(year: int, month: int | None, lang: str) -> str:
    """`Sep 2015` / `2015年9月`, or just the year."""
    base = lang.split("-")[0].lower()
    if month is None:
        return f"{year}年" if base in ("zh", "ja") else str(year)
    if base in ("zh", "ja"):
        return f"{year}年{month}月"
    return f"{MONTHS['en'][month - 1]} {year}"


def localize_venue(venue: str, lang: str) -> str:
    """A venue with the words sitegen wrote into it in English (`PhD thesis, ...`) in the CV's language."""
    words = VENUE_WORDS.get(lang.split("-")[0].lower(), {})
    for english, local in words.items():
        if venue == english or venue.startswith(english + " ") or venue.startswith(english + ","):
            rest = venue[len(english):]
            return local + (rest.replace(", ", "，", 1) if lang.startswith("zh") else rest)
    return venue
