"""Hostile input (issue 15, part B): crafted nesting, numbers, macros and regex food give located errors in
bounded time, never a crash, a hang or a traceback. Crashes and hangs are run in a subprocess with a timeout."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.config import SiteConfig, parse_config
from sitegen.content.page import parse_page
from sitegen.content.sources import parse_by_extension as parse_cv_text
from sitegen.content.sources import parse_data_file
from sitegen.cv.bibtex import parse_bibtex
from sitegen.errors import SitegenError
from sitegen.yamlload import check_size, load_yaml
from tests.conftest import build

MakeSite = Callable[..., Path]
REPO = Path(__file__).resolve().parents[2]


def run_isolated(code: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run Python code in a fresh interpreter (a segfault or a hang must not take the test run with it)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


DEEP = 30_000
# (what, the call, the location the message must start with)
DEEP_INPUTS = [
    ("yaml front matter", f"parse_page('p.md', '---\\na: ' + '[' * {DEEP} + '\\n---\\n', SiteConfig())", "p.md:2:"),
    ("yaml data", f"parse_data_file('x.yaml', '[' * {DEEP})", "data/x.yaml:1:101"),
    ("yaml block data", f"parse_data_file('x.yaml', '- ' * {DEEP} + 'x')", "data/x.yaml:1:"),
    ("yaml config", f"parse_config('a: ' + '{{' * {DEEP})", "sitegen.yaml:1:"),
    ("yaml cv", f"parse_cv_text('basics: ' + '[' * {DEEP}, 'data/cv.yaml')", "data/cv.yaml:1:"),
    ("json data", f"parse_data_file('x.json', '[' * {DEEP})", "data/x.json:1:101"),
    ("json front matter", f"parse_page('p.md', '{{\"a\": ' + '[' * {DEEP}, SiteConfig())", "p.md:1:"),
    ("json cv", f"parse_cv_text('[' * {DEEP}, 'data/cv.json')", "data/cv.json:1:"),
    ("toml data", f"parse_data_file('x.toml', 'a = ' + '[' * {DEEP})", "data/x.toml:1:"),
    ("toml inline tables", f"parse_data_file('x.toml', 'a = ' + '{{b = ' * {DEEP})", "data/x.toml:1:"),
    ("toml front matter", f"parse_page('p.md', '+++\\na = ' + '[' * {DEEP} + '\\n+++\\n', SiteConfig())", "p.md:2:"),
    ("toml dotted key", f"parse_data_file('x.toml', 'a' + '.a' * {DEEP} + ' = 1')", "data/x.toml:1:1"),
]


@pytest.mark.parametrize("what, call, location", DEEP_INPUTS, ids=[d[0] for d in DEEP_INPUTS])
def test_deep_nesting_is_a_located_error_not_a_segfault_or_traceback(what: str, call: str, location: str) -> None:
    proc = run_isolated(f"""
        from sitegen.config import SiteConfig, parse_config
        from sitegen.content.page import parse_page
        from sitegen.content.sources import parse_data_file
        from sitegen.content.sources import parse_by_extension as parse_cv_text
        from sitegen.errors import SitegenError
        try:
            {call}
        except SitegenError as exc:
            print(exc.format())
        else:
            print("no error")
        """)
    assert proc.returncode == 0, f"{what}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
    assert proc.stdout.startswith(location), proc.stdout
    assert "nesting deeper than 100 levels" in proc.stdout or "more than 100 parts" in proc.stdout, proc.stdout


def test_nesting_within_the_limit_and_brackets_in_strings_are_fine() -> None:
    assert parse_data_file("x.json", "[" * 90 + "]" * 90)
    deep_ok = parse_data_file("x.yaml", "[" * 99 + "]" * 99)
    assert isinstance(deep_ok, list)
    text = json.dumps({"code": "[" * 500, "more": ["{" * 300]})
    assert parse_data_file("x.json", text)["code"] == "[" * 500
    toml = 'code = "' + "[" * 500 + '"\n# ' + "{" * 300 + "\nlit = '" + "[" * 200 + "'\nml = '''\n" + "[" * 200 + \
        "\n'''\n"
    assert parse_data_file("x.toml", toml)["code"] == "[" * 500
    assert parse_data_file("x.yaml", "a: '" + "[" * 300 + "'\n")["a"] == "[" * 300
    assert parse_data_file("x.toml", "version = 1.2\n" + "".join(f"k{i}.a.b = {i}.5\n" for i in range(200)))


BIG = "1" * 5000
BIG_INPUTS = [
    (lambda: parse_data_file("x.toml", f"a = 1\nb = {BIG}\n"), "data/x.toml:2:5"),
    (lambda: parse_data_file("x.json", f'{{"a":\n {BIG}}}'), "data/x.json:2:2"),
    (lambda: parse_data_file("x.yaml", f"a: 1\nb: {BIG}\n"), "data/x.yaml:2:4"),
    (lambda: parse_config(f"title: x\nbig: {BIG}\n"), "sitegen.yaml:2:6"),
    (lambda: parse_page("p.md", f"+++\nb = {BIG}\n+++\n", SiteConfig()), "p.md:2:5"),
    (lambda: parse_page("p.md", f'{{"b": {BIG}}}\n', SiteConfig()), "p.md:1:7"),
    (lambda: parse_cv_text(f"basics: {{name: {BIG}}}", "data/cv.yaml"), "data/cv.yaml:1:16"),
]


@pytest.mark.parametrize("call, location", BIG_INPUTS, ids=range(len(BIG_INPUTS)))
def test_a_5000_digit_integer_is_a_located_error(call: Callable[[], object], location: str) -> None:
    with pytest.raises(SitegenError) as info:
        call()
    assert info.value.format().startswith(f"{location}: a number with more than 4,300 digits"), info.value.format()


def test_a_quoted_long_number_is_text() -> None:
    assert parse_data_file("x.yaml", f"a: '{BIG}'\n") == {"a": BIG}


def test_a_long_ordinary_data_file_is_not_an_alias_bomb() -> None:
    # 220,000 nodes and no alias: the old check counted nodes (limit 200,000), so long files were refused.
    assert len(load_yaml("- [a, b, c, d, e, f, g, h, i, j]\n" * 20_000)) == 20_000
    check_size([str(i) for i in range(300_000)])


def test_an_alias_bomb_is_still_refused() -> None:
    bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + "".join(
        f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
        for prev, name in zip("abcdefgh", "bcdefghi", strict=True))
    with pytest.raises(SitegenError, match="alias bomb"):
        parse_data_file("x.yaml", bomb)


def test_bibtex_string_doubling_is_bounded_with_a_located_error() -> None:
    lines = ["@string{a0 = {xxxxxxxx}}"] + [f"@string{{a{i + 1} = a{i} # a{i}}}" for i in range(20)]
    text = "\n".join(lines) + "\n@misc{k, title = a20, year = 2024}\n"
    publications, errors = parse_bibtex(text, "data/p.bib")
    assert not publications
    first = errors[0].format()
    assert first.startswith("data/p.bib:15:1: @string `a14`: the value expands to more than 100,000 characters"), first


@pytest.mark.parametrize("latex", ["\\verb", "\\href{a}", "$" + "{" * 3000 + "}" * 3000])
def test_latex_pylatexenc_cannot_read_is_a_located_error(latex: str) -> None:
    text = "@misc{k,\n  title = {A " + latex + "},\n  year = 2024,\n}\n"
    publications, errors = parse_bibtex(text, "data/p.bib")
    assert not publications
    assert [e.format().split("\n")[0][:60] for e in errors] == [
        "data/p.bib:2:3: entry `k`: field `title`: cannot read the LaTeX"[:60]]


def test_a_json_cv_that_yaml_cannot_read_reports_its_errors_instead_of_looping() -> None:
    # Found by bench/fuzz.py: a key over 1,024 characters is JSON but not YAML, so no key has a line, and
    # looking up a line for an error went up the key path forever.
    proc = run_isolated("""
        from sitegen.content.sources import parse_by_extension as parse_cv_text
        from sitegen.cv.validate import key_lines, validate_cv
        text = '{"basics": {"name": "A"}, "' + 'k' * 1100 + '": 1}'
        print([e.message.split(": ")[-1][:20] for e in validate_cv(parse_cv_text(text, "data/cv.json"), "data/cv.json",
                                                     key_lines(text))])
        """, timeout=30)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "unknown section" in proc.stdout, proc.stdout


# Inputs that took seconds to minutes before (exponential or quadratic regexes); together they must finish
# well inside the timeout. Each line prints its own time, so a failure names the slow one.
REGEX_FOOD = """
    import time
    from sitegen.markdown import MarkdownRenderer, RenderContext
    from sitegen.markdown.highlight import parse_info
    from sitegen.content.page import parse_page
    from sitegen.content.text import plain_text
    from sitegen.config import SiteConfig
    from sitegen.check.extract import extract, xml_urls
    from sitegen.errors import SitegenError
    md = MarkdownRenderer()
    ctx = RenderContext(source="x.md", resolve_link=lambda h: h)
    cases = {
        "div attributes (24 s at 109 bytes)": lambda: md.render("<div " + "a=a " * 40 + "\\nx\\n", ctx),
        "fence options {": lambda: parse_info("py " + "{" * 100000),
        "fence options a=\\"": lambda: parse_info("py {" + 'a=" ' * 25000 + "}"),
        "fence options word": lambda: parse_info("py {" + "a" * 100000 + "}"),
        "heading spaces": lambda: md.render("# t {" + " " * 100000 + "x}\\n", ctx),
        "title from a heading": lambda: parse_page("p.md", "# " + "# " * 50000 + "x\\n", SiteConfig()),
        "front matter key lines": lambda: parse_page("p.md", "---\\n" + " \\n" * 50000 + "{title: [1]}\\n---\\n",
                                                     SiteConfig()),
        "plain text <": lambda: plain_text("<p" * 50000),
        "unclosed markdown divs": lambda: md.render('<div markdown="1">\\n\\n' * 8000, ctx),
        "nested markdown divs": lambda: md.render('<div markdown="1">\\n' * 2000 + "</div>\\n" * 2000, ctx),
        "check <a<a": lambda: extract("<a" * 50000),
        "check attributes": lambda: extract("<a " + "--:" * 30000 + ">"),
        "check <title>": lambda: extract("<title>" * 20000),
        "check comments": lambda: extract("<!--" * 30000),
        "sitemap <loc>": lambda: xml_urls("<loc>" * 30000),
        "autolink scheme colons a: (32 s at 80 KB)": lambda: md.render("a:" * 40000, ctx),
        "autolink http: that is no URL": lambda: md.render("http:x " * 15000, ctx),
        "reference-like [a]: <": lambda: md.render("[a]: <" * 20000, ctx),
        "one heading 20,000 times": lambda: md.render("# h\\n" * 20000, ctx),
    }
    for name, case in cases.items():
        started = time.perf_counter()
        try:
            case()
        except SitegenError:
            pass
        print(f"{time.perf_counter() - started:8.3f}s {name}", flush=True)
"""


def run_bounded(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run `code` isolated; a timeout fails the test, listing what finished before it."""
    try:
        proc = run_isolated(code, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"timed out; finished so far:\n{exc.stdout}") from None
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def test_crafted_regex_input_finishes_in_bounded_time() -> None:
    proc = run_bounded(REGEX_FOOD, timeout=60)
    assert proc.stdout.count("\n") == 19
    slow = [line for line in proc.stdout.splitlines() if float(line.split("s ", 1)[0]) > 5]
    assert not slow, slow  # each took 0.3 s or less when fixed; the quadratic ones took 10-30 s


# Every module-level pattern over input made of its own characters: a quadratic one takes minutes on these.
EVERY_PATTERN = """
    import importlib, pkgutil, re, time
    import sitegen
    patterns = {}
    for info in pkgutil.walk_packages(sitegen.__path__, "sitegen."):
        if not info.name.endswith("__main__"):
            for name, value in vars(importlib.import_module(info.name)).items():
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    patterns[f"{info.name}.{name}"] = value
    assert len(patterns) > 40, len(patterns)
    units = [" ", "\\n", "\\t\\n", "a", "0", "<", "<a", "<p", "a=a ", "a=[a", 'a="', "{#a ", "# ", "- ", "[", "{",
             "-", ":", "--:", "<!--", "<title>", "<loc>", 'id="x" ', "\\\\", "@a{", "1-", "a.", "''", "中"]
    for name, pattern in sorted(patterns.items()):
        started = time.perf_counter()
        for unit in units:
            text = unit * (20000 // len(unit))
            pattern.search(text)
            pattern.findall(text)
            pattern.sub("", text)
        print(f"{time.perf_counter() - started:8.3f}s {name}", flush=True)
"""


def test_every_pattern_is_linear_on_crafted_input() -> None:
    run_bounded(EVERY_PATTERN, timeout=120)


def test_a_page_with_crafted_attributes_builds(make_site: MakeSite) -> None:
    site = make_site({"content/a.md": "---\ntitle: A\n---\n<div " + "a=a " * 30 + "\nx\n\n## B {#b .c}\n"})
    result = build(site)
    assert b'<h2 id="b" class="c">B</h2>' in result.files["a/index.html"]


def build_errors(site: Path) -> str:
    """The formatted errors of a build that must fail."""
    with pytest.raises(SitegenError) as info:
        build(site)
    return info.value.format()


@pytest.mark.parametrize("first, second", [("data/x.yaml", "data/x/y.yaml"), ("data/x.json", "data/x.yaml")])
def test_a_data_file_beside_a_folder_or_file_of_the_same_name_is_an_error_naming_both(
        make_site: MakeSite, first: str, second: str) -> None:
    site = make_site({first: '{"a": 1}\n', second: '{"b": 2}\n', "data/x/z.yaml": "c: 3\n"} if "/x/" in second else
                     {first: '{"a": 1}\n', second: '{"b": 2}\n'})
    message = build_errors(site)
    assert "both define `data.x`" in message and first in message, message
    assert (("the folder `data/x/`" in message) if "/x/" in second else (second in message)), message
    assert message.count("both define") == 1, message


@pytest.mark.parametrize("url", ["/\\evil.example", "/\t/evil.example", "//evil.example"])
def test_a_cv_url_that_browsers_read_as_another_host_is_refused(make_site: MakeSite, url: str) -> None:
    site = make_site({"data/cv.yaml": f"basics:\n  name: A\n  url: {json.dumps(url)}\n"})
    assert "data/cv.yaml:3: basics.url" in build_errors(site)


def test_a_site_path_in_the_cv_is_still_a_link(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics:\n  name: A\n  url: /about/\n"})
    build(site)


@pytest.mark.parametrize("config, expected", [
    ("cv: {pdf: 5}", "sitegen.yaml: `cv.pdf`: expected a mapping, got 5"),
    ("cv: {name_variants: 5}", "sitegen.yaml: `cv.name_variants`: expected a list of names, got 5"),
    ("cv: {pdf: {font_paths: 5}}", "sitegen.yaml: `cv.pdf.font_paths`: expected a list of folders, got 5"),
])
def test_wrong_types_in_the_cv_config_are_messages(make_site: MakeSite, config: str, expected: str) -> None:
    site = make_site({"sitegen.yaml": f"title: T\nbase_url: https://example.org/\n{config}\n",
                      "data/cv.yaml": "basics: {name: A}\n"})
    assert expected in build_errors(site)


def test_sections_that_are_not_a_list_are_a_message(make_site: MakeSite) -> None:
    site = make_site({"data/cv.yaml": "basics: {name: A}\nsections: 5\n"})
    assert "data/cv.yaml:2: sections: expected a list, got int 5" in build_errors(site)


@pytest.mark.parametrize("rel", ["content/a.md", "data/x.yaml", "data/cv.yaml", "sitegen.yaml"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_utf16_or_utf32_file_is_named_as_such(make_site: MakeSite, rel: str, encoding: str) -> None:
    text = "title: T\nbase_url: https://example.org/\n" if rel == "sitegen.yaml" else "---\ntitle: A\n---\nx\n" \
        if rel.endswith(".md") else "basics: {name: A}\n"
    site = make_site({rel: text.encode(encoding)})
    message = build_errors(site)
    assert f"{rel}:1:1: the file is saved as {encoding[:6].upper()}; sitegen reads UTF-8" in message, message
