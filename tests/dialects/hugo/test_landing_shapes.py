"""Landing pages with missing or wrong-shaped inputs: a user's `landing:` key is only a param, a profile block
with no profile and a hugo-resume switch with no data file leave their section empty, and a value of the wrong
shape is skipped with a warning naming its file and key; the build never fails on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import build, html, write_files
from tests.dialects.hugo.site import build_hugo

RESUME_TOML = 'baseURL = "https://example.org/"\ntitle = "T"\n[params]\n'


@pytest.mark.parametrize("value", ["true", "intro", "[1, 2]", "{a: 1}"])
def test_a_landing_front_matter_key_is_only_a_param(tmp_path: Path, value: str) -> None:
    site = write_files(tmp_path, {"sitegen.yaml": "title: T\n",
                                  "content/posts/p1.md": f"---\ntitle: P\nlanding: {value}\n---\nHello.\n"})
    result = build(site)
    assert "Hello." in html(result, "posts/p1/index.html")


@pytest.mark.parametrize("block", ["resume-experience", "resume-awards", "resume-skills", "resume-languages"])
def test_a_profile_block_without_a_profile_builds_with_a_warning(tmp_path: Path, block: str) -> None:
    result = build_hugo(tmp_path, {"content/_index.md": f"---\ntype: landing\nsections:\n  - block: {block}\n"
                                                        "    content: {username: admin}\n---\n"})
    notes = [w for w in result.warnings if "profile of `admin`" in w.message]
    assert [(n.path, n.line) for n in notes] == [("content/_index.md", 4)]
    assert "index.html" in result.files


@pytest.mark.parametrize("switch, data", [("showExperience", "experience"), ("showEducation", "education")])
def test_a_resume_switch_without_its_data_file_builds_with_a_warning(tmp_path: Path, switch: str, data: str) -> None:
    result = build_hugo(tmp_path, {"hugo.toml": f"{RESUME_TOML}{switch} = true\n",
                                   "content/_index.md": "---\ntitle: x\n---\n"})
    notes = [w for w in result.warnings if w.path == f"data/{data}.json"]
    assert len(notes) == 1 and switch.lower() in notes[0].message
    assert "index.html" in result.files


AUTHOR = "---\ntitle: Ada\n{extra}\n---\nBio.\n"
LANDING = ("---\ntype: landing\nsections:\n  - block: resume-biography\n    content: {username: admin}\n"
           "  - block: resume-skills\n    content: {username: admin}\n---\n")


@pytest.mark.parametrize("files, path, key", [
    ({"content/_index.md": "---\ntype: landing\nsections:\n  - block: hero\n    content: {buttons: 5}\n---\n"},
     "content/_index.md", "buttons"),
    ({"content/_index.md": LANDING, "content/authors/admin/_index.md": AUTHOR.format(extra="social: 5")},
     "content/authors/admin/_index.md", "social"),
    ({"content/_index.md": LANDING, "content/authors/admin/_index.md": AUTHOR.format(extra="organizations: 3")},
     "content/authors/admin/_index.md", "organizations"),
    ({"content/_index.md": LANDING, "content/authors/admin/_index.md": AUTHOR.format(extra="interests: 4")},
     "content/authors/admin/_index.md", "interests"),
    ({"content/_index.md": LANDING, "content/authors/admin/_index.md": AUTHOR.format(extra="skills: [{items: 3}]")},
     "content/authors/admin/_index.md", "items"),
    ({"content/_index.md": LANDING, "data/authors.yaml": "- name: Ada\n"}, "data/authors", "list"),
    ({"hugo.toml": f"{RESUME_TOML}showSkills = true\n", "content/_index.md": "---\ntitle: x\n---\n",
      "data/skills.json": '[{"grouping": "x", "skills": 5}]'}, "data/skills.json", "skills"),
    ({"hugo.toml": f"{RESUME_TOML}showExperience = true\n", "content/_index.md": "---\ntitle: x\n---\n",
      "data/experience.json": "5"}, "data/experience.json", "experience"),
])
def test_wrong_shaped_values_are_skipped_with_a_warning(tmp_path: Path, files: dict[str, str], path: str,
                                                       key: str) -> None:
    result = build_hugo(tmp_path, files)
    notes = [w for w in result.warnings if w.path == path and key in w.message]
    assert len(notes) == 1, [str(w) for w in result.warnings]
    assert "index.html" in result.files
