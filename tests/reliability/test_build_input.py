"""Reliability matrix, build input (cases 1-13): bad input gets a located message, never a traceback."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.cli import main
from sitegen.errors import SitegenError
from tests.conftest import build, html
from tests.integration.test_cli_and_output import tree_digest

MakeSite = Callable[..., Path]


BOMB = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + "".join(
    f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True))

# Every error input of cases 1-13, as (file, content, the location the message must start with).
ERROR_INPUTS = [
    ("content/e.md", "---\ntitle: x\n\nbody\n", "content/e.md:1:1: "),
    ("content/e.md", "---\ntitle: ok\ntags: [a]\nbad: : :\n---\n", "content/e.md:4:"),
    ("content/e.md", "---\ntitle: t\ndate: 2024-13-01\n---\n", "content/e.md:3:1: "),
    ("content/e.md", "---\nx: !!python/object/apply:os.system ['true']\n---\n", "content/e.md:2:"),
    ("content/e.md", f"---\n{BOMB}---\n", "content/e.md:"),
    ("content/e.md", b"---\ntitle: t\n---\n1\n2\n3\nbad \xff byte\n", "content/e.md:7:5: "),
    ("content/about.md", "---\nurl: /a/\n---\n", "content/"),
    ("content/e.md", "---\nlayout: ../../../etc/passwd\n---\n", "content/e.md:2:1: "),
    ("layouts/page.html", "ok\n{% for %}\n", "layouts/page.html:2"),
    ("layouts/page.html", "ok\n{{ page.missing.deeper }}\n", "layouts/page.html:2"),
    ("content/e.md", "---\nslug: ../../x\n---\n", "content/e.md:2:1: "),
    ("content/e.md", "---\naliases: [/../../x/]\n---\n", "content/e.md:2:1: "),
    ("content/e.md", "word " * (4 * 1024 * 1024), "content/e.md: "),
]


# 1-13 through the CLI: a located message, exit 1, and the site built before left byte for byte
@pytest.mark.parametrize("rel, content, location", ERROR_INPUTS, ids=range(len(ERROR_INPUTS)))
def test_every_input_error_exits_non_zero_with_its_location_and_keeps_the_previous_output(
        make_site: MakeSite, capsys: pytest.CaptureFixture[str], rel: str, content: str | bytes,
        location: str) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\nGood.\n"})
    assert main(["build", "--source", str(site), "-q"]) == 0
    before = tree_digest(site / "public")
    capsys.readouterr()
    path = site / rel
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["build", "--source", str(site), "-q"]) == 1
    err = capsys.readouterr().err
    assert location in err and "Traceback" not in err, err
    assert tree_digest(site / "public") == before


def error_text(site: Path, **options: object) -> str:
    with pytest.raises(SitegenError) as info:
        build(site, **options)
    return info.value.format()


# 1
def test_unclosed_front_matter_is_located(make_site: MakeSite) -> None:
    assert "content/a.md:1:1: front matter opened with `---` on line 1 is never closed" in error_text(
        make_site({"content/a.md": "---\ntitle: x\n\nbody\n"}))


def test_bad_yaml_on_line_4_is_reported_on_line_4(make_site: MakeSite) -> None:
    text = error_text(make_site({"content/a.md": "---\ntitle: ok\ntags: [a]\nbad: : :\n---\n"}))
    assert "content/a.md:4:" in text


def test_empty_file_is_an_empty_page(make_site: MakeSite) -> None:
    result = build(make_site({"content/empty.md": ""}))
    assert "empty/index.html" in result.files


def test_file_without_front_matter_takes_title_from_heading(make_site: MakeSite) -> None:
    assert "<title>Plain heading</title>" in html(build(make_site({"content/p.md": "# Plain heading\n"})),
                                                  "p/index.html")


def test_cli_never_prints_a_traceback_for_bad_input(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/a.md": "---\ntitle: [\n---\n", "content/b.md": "\xff".encode("latin-1")})
    assert main(["build", "--source", str(site)]) == 1
    assert "Traceback" not in capsys.readouterr().err


# 2
def test_three_broken_files_reported_together_sorted_by_path(make_site: MakeSite) -> None:
    text = error_text(make_site({"content/c.md": "---\ndate: nope\n---\n", "content/a.md": "---\ntitle: [\n---\n",
                                 "content/b.md": "---\nx\n"}))
    positions = [text.index(f"content/{name}.md:") for name in "abc"]
    assert positions == sorted(positions)
    assert "3 error(s)" in text


def test_strict_turns_warnings_into_a_failure(make_site: MakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"sitegen.yaml": "title: x\ntitel: typo\n", "content/a.md": "x"})
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert main(["build", "--source", str(site), "-q", "--strict"]) == 1
    assert "sitegen.yaml:2:1: unknown configuration key `titel`" in capsys.readouterr().err


# 3
@pytest.mark.parametrize("line, attribute, expected", [
    ("title: no", "title", "no"),
    ("title: 2024-01-01", "title", "2024-01-01"),
    ("version: 1.10", "params.version", "1.10"),
    ("slug: 010", "slug", "010"),
])
def test_strings_stay_strings(make_site: MakeSite, line: str, attribute: str, expected: str) -> None:
    site = make_site({"content/a.md": f"---\n{line}\n---\n", "layouts/page.html": "{{ page." + attribute + " }}"})
    out = build(site).files
    assert expected in {v.decode() for k, v in out.items() if k.endswith("index.html") and "/" in k}


# 4
def test_date_is_the_same_in_every_time_zone(make_site: MakeSite, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    site = make_site({"content/a.md": "---\ndate: 2024-03-01\n---\n", "layouts/page.html": "{{ page.date | isodate }}"})
    outputs = set()
    for tz in ("America/Los_Angeles", "Asia/Tokyo"):
        out = tmp_path / tz.replace("/", "-")
        subprocess.run([sys.executable, "-m", "sitegen", "build", "-q", "--source", str(site), "--output", str(out)],
                       check=True, env=dict(os.environ, TZ=tz))
        outputs.add((out / "a/index.html").read_text())
    assert outputs == {"2024-03-01T00:00:00+00:00"}


def test_impossible_date_is_located(make_site: MakeSite) -> None:
    assert "content/a.md:3:1: `date`: '2024-13-01' is not a valid date" in error_text(
        make_site({"content/a.md": "---\ntitle: t\ndate: 2024-13-01\n---\n"}))


# 5
def test_python_tags_are_rejected_and_nothing_runs(make_site: MakeSite, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    site = make_site({"content/a.md": f"---\nx: !!python/object/apply:os.system ['touch {marker}']\n---\n"})
    assert "content/a.md:2:" in error_text(site)
    assert not marker.exists()


def test_alias_bomb_is_rejected_quickly(make_site: MakeSite) -> None:
    bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        bomb += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    started = time.monotonic()
    assert "alias bomb" in error_text(make_site({"content/a.md": f"---\n{bomb}---\n"}))
    assert time.monotonic() - started < 5


# 6
def test_bom_and_crlf_parse_like_lf_and_never_reach_output(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "\ufeff---\r\ntitle: T\r\n---\r\nLine one\r\nline two\r\n".encode(),
                      "content/b.md": b"---\ntitle: T\n---\nLine one\nline two\n"})
    result = build(site)
    assert html(result, "a/index.html") == html(result, "b/index.html")
    assert not any(b"\xef\xbb\xbf" in v or "\ufffd".encode() in v for v in result.files.values())


def test_invalid_utf8_names_line_and_byte_offset(make_site: MakeSite) -> None:
    raw = b"---\ntitle: t\n---\n1\n2\n3\nbad \xff byte\n"
    text = error_text(make_site({"content/a.md": raw}))
    offset = raw.index(b"\xff")
    assert f"content/a.md:7:5: invalid UTF-8 byte 0xff at byte offset {offset}" in text


# 7
@pytest.mark.parametrize("files", [
    {"content/a.md": "---\nurl: /same/\n---\n", "content/b.md": "---\nurl: /same/\n---\n"},
    {"content/a.md": "---\nslug: Foo Bar\n---\n", "content/b.md": "---\nslug: foo-bar\n---\n"},
    {"content/About.md": "x", "content/about.md": "y"},
])
def test_pages_claiming_one_output_name_both(make_site: MakeSite, files: dict[str, str]) -> None:
    if "content/About.md" in files:
        probe = make_site({}, name="probe")
        (probe / "X").write_text("1")
        if (probe / "x").exists():
            pytest.skip("case-insensitive file system")
    text = error_text(make_site(files))
    names = sorted(files)
    assert f"content/{names[0].split('/')[-1]}" in text or names[0] in text
    assert all(name in text for name in names) and "same output" in text


# 8 (issue 16: an unknown layout is no longer an error; Hugo and Jekyll fall back to the kind's template)
def test_unknown_layout_falls_back_to_the_kinds_template(make_site: MakeSite) -> None:
    result = build(make_site({"content/a.md": "---\nlayout: nope\n---\nText\n"}))
    assert "Text" in result.files["a/index.html"].decode()


def test_layout_outside_the_layouts_is_refused(make_site: MakeSite) -> None:
    text = error_text(make_site({"content/a.md": "---\nlayout: ../../../etc/passwd\n---\n"}))
    assert "content/a.md:2:1: `layout`" in text and "root:" not in text


# 9
@pytest.mark.parametrize("template, needle", [
    ("ok\n{% for %}\n", "layouts/page.html:2"),
    ("ok\n{{ page.missing.deeper }}\n", "layouts/page.html:2"),
    ("ok\n\n{{ 'x' | date }}\n", "layouts/page.html:3"),
])
def test_template_errors_name_template_line_and_page(make_site: MakeSite, template: str, needle: str) -> None:
    text = error_text(make_site({"layouts/page.html": template, "content/a.md": "x"}))
    assert needle in text and "content/a.md" in text


# 10
@pytest.mark.parametrize("front", ["slug: ../../x", "url: /../../tmp/pwn", "slug: '%2e%2e'", "aliases: [/../../x/]",
                                   "url: '/%2e%2e/%2e%2e/tmp/x/'"])
def test_paths_leaving_the_output_are_refused(make_site: MakeSite, front: str, tmp_path: Path) -> None:
    site = make_site({"content/a.md": f"---\n{front}\n---\n"})
    assert "content/a.md:2:1" in error_text(site)
    assert main(["build", "--source", str(site), "-q"]) == 1
    assert not (tmp_path / "x").exists() and not Path("/tmp/pwn").exists()


# 11
@pytest.mark.parametrize("body", [">" * 5000, "- " * 5000, "[" * 20000, "*a " * 20000, "`" * 20000])
def test_pathological_markdown_finishes_within_a_bound(make_site: MakeSite, body: str) -> None:
    started = time.monotonic()
    build(make_site({"content/a.md": body}))
    assert time.monotonic() - started < 20


def test_a_20_mb_file_is_refused_naming_it(make_site: MakeSite) -> None:
    site = make_site({"content/huge.md": "word " * (4 * 1024 * 1024)})
    assert "content/huge.md: file is 20.0 MB" in error_text(site)


# 12
def test_unicode_file_names_get_one_stable_nfc_url(make_site: MakeSite) -> None:
    nfd = unicodedata.normalize("NFD", "Übersicht")
    site = make_site({f"content/{nfd}.md": "u", "content/日本語.md": "j", "content/♪.md": "n",
                      "content/links.md": "[a](Übersicht.md) [b](日本語.md) [c](♪.md)"})
    result = build(site)
    assert {"übersicht/index.html", "日本語/index.html", "♪/index.html"} <= set(result.files)
    links = html(result, "links/index.html")
    assert 'href="/%C3%BCbersicht/"' in links and 'href="/%E6%97%A5%E6%9C%AC%E8%AA%9E/"' in links
    assert 'href="/%E2%99%AA/"' in links and not result.warnings


# 13
def test_symlinks_inside_the_site_are_followed(make_site: MakeSite) -> None:
    site = make_site({"shared/note.md": "---\ntitle: Shared\n---\n"})
    (site / "content").mkdir(exist_ok=True)
    (site / "content/note.md").symlink_to(site / "shared/note.md")
    assert "note/index.html" in build(site).files


def test_symlink_outside_the_site_is_refused_with_a_message(make_site: MakeSite, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    site = make_site({"content/a.md": "x"})
    (site / "content/leak.md").symlink_to(outside)
    assert "content/leak.md: symlink points outside the site" in error_text(site)
