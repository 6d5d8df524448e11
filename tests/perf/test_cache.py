"""The build cache is never stale: after any edit, a warm build equals a cold build byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import sitegen
from sitegen import cache as cache_module
from sitegen.build import BuildOptions, build_site
from sitegen.cache import cache_path, load_memo, save_memo
from sitegen.cli import main
from sitegen.memo import BuildMemo, code_version

MakeSite = Callable[..., Path]

SITE = {
    "sitegen.yaml": "title: Cache test\nbase_url: https://example.org/\npaginate: 2\n",
    "content/_index.md": "---\ntitle: Home\n---\nHello.\n",
    "content/about.md": "---\ntitle: About\n---\nSee [a post](posts/p1.md).\n",
    **{f"content/posts/p{i}.md": f"---\ntitle: Post {i}\ndate: 2024-01-{i + 1:02d}\ntags: [t{i % 2}]\n---\n"
                                 f"Body {i}.\n\n<!--more-->\n\nMore {i}.\n" for i in range(6)},
    "content/posts/s.md": "---\ntitle: Summed\ndate: 2024-02-01\nsummary: First *summary*.\n---\nSame body.\n",
    "data/people.yaml": "- name: Ada\n",
    "data/cv.yaml": "basics: {name: Ada}\nwork: [{name: Lab, position: Scientist, startDate: 2020}]\n",
    "content/cv.md": "---\nlayout: cv\n---\n",
    "layouts/partials/extra.html": "<!-- extra -->",
    "data/a.bib": "@article{ada2024, title = {First Paper}, author = {Ada}, journal = {J}, year = 2024}\n",
    "data/b.bib": "@misc{ada2023, title = {Second Paper}, author = {Lin, Ada}, year = 2023, month = mar}\n",
}

EDITS: dict[str, Callable[[Path], None]] = {
    "page body": lambda s: (s / "content/posts/p3.md").write_text(
        "---\ntitle: Post 3\ndate: 2024-01-04\ntags: [t1]\n---\nNew body.\n"),
    "page front matter": lambda s: (s / "content/posts/p3.md").write_text(
        "---\ntitle: Renamed\ndate: 2024-02-04\ntags: [t9]\n---\nBody 3.\n"),
    "template": lambda s: (s / "layouts/partials/extra.html").write_text("<!-- changed -->"),
    "theme override": lambda s: (s / "layouts/single.html").write_text("{{ page.title }} / {{ site.data.people }}"),
    "data file": lambda s: (s / "data/people.yaml").write_text("- name: Grace\n"),
    "cv data": lambda s: (s / "data/cv.yaml").write_text("basics: {name: Grace}\n"),
    "config key": lambda s: (s / "sitegen.yaml").write_text("title: Renamed site\nbase_url: https://x.org/\n"),
    "deleted page": lambda s: (s / "content/posts/p1.md").unlink(),
    "front-matter summary": lambda s: (s / "content/posts/s.md").write_text(
        "---\ntitle: Summed\ndate: 2024-02-01\nsummary: Second *summary*.\n---\nSame body.\n"),
    "static file": lambda s: (s / "static").mkdir() or (s / "static/a.txt").write_text("a"),
    "bibtex entry": lambda s: (s / "data/a.bib").write_text(
        "@article{ada2024, title = {First Paper, Revised}, author = {Ada and Bo}, journal = {J}, year = 2024,\n"
        "  month = may, selected = {true}}\n"),
    "deleted bibtex file": lambda s: (s / "data/b.bib").unlink(),
}


def cold(site: Path) -> dict[str, bytes]:
    return build_site(BuildOptions(source=site, jobs=1)).files


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_warm_build_after_an_edit_equals_a_cold_build(make_site: MakeSite, edit: str) -> None:
    site = make_site(SITE, layouts=False)
    memo = BuildMemo()
    build_site(BuildOptions(source=site), memo)
    EDITS[edit](site)
    warm = build_site(BuildOptions(source=site), memo).files
    assert warm == cold(site)


def test_persistent_cache_through_the_cli(make_site: MakeSite, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    site = make_site(SITE, layouts=False)
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert cache_path(site).is_file()
    first = {p.relative_to(site / "public"): p.read_bytes() for p in (site / "public").rglob("*") if p.is_file()}
    EDITS["page body"](site)
    assert main(["build", "--source", str(site), "-q"]) == 0
    warm = {p.relative_to(site / "public"): p.read_bytes() for p in (site / "public").rglob("*") if p.is_file()}
    assert warm != first
    fresh = cold(site)
    assert {k.as_posix(): v for k, v in warm.items() if k.name != ".sitegen-manifest.json"} == fresh


def test_parallel_output_equals_serial(make_site: MakeSite) -> None:
    many = {f"content/posts/n{i}.md": f"---\ntitle: N{i}\ndate: 2023-01-01\ntags: [x]\n---\n## Part\n\n"
                                      f"Text {i} [about](../about.md)\n\n```python\nx = {i}\n```\n" for i in range(200)}
    site = make_site({**SITE, **many}, layouts=False)
    serial = build_site(BuildOptions(source=site, jobs=1)).files
    parallel = build_site(BuildOptions(source=site, jobs=2)).files
    assert serial == parallel


def test_corrupt_cache_is_ignored_and_rebuilt(make_site: MakeSite, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    site = make_site(SITE, layouts=False)
    assert main(["build", "--source", str(site), "-q"]) == 0
    data = cache_path(site).read_bytes()
    cache_path(site).write_bytes(data[: len(data) // 2])
    assert load_memo(site) is None
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert load_memo(site) is not None


def test_cache_signed_by_someone_else_is_not_loaded(make_site: MakeSite, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(SITE, layouts=False)
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "attacker")
    save_memo(site, BuildMemo())
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "me")
    assert load_memo(site) is None


def test_no_cache_flag_and_clean(make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    site = make_site(SITE, layouts=False)
    assert main(["build", "--source", str(site), "-q", "--no-cache"]) == 0
    assert not cache_path(site).exists()
    assert main(["build", "--source", str(site), "-q"]) == 0
    (site / "public/.git").mkdir()
    (site / "public/CNAME").write_text("x")
    assert main(["clean", "--source", str(site), "-q"]) == 0
    assert not (site / ".sitegen-cache").exists()
    assert sorted(p.name for p in (site / "public").iterdir()) == [".git", "CNAME"]


def test_a_cache_written_by_other_sitegen_code_is_not_loaded(make_site: MakeSite, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two releases the version stays the same while the code changes (a development install, a
    fork): the cache is keyed by a digest of sitegen's code, so such a cache is never reused."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    site = make_site(SITE, layouts=False)
    assert main(["build", "--source", str(site), "-q"]) == 0
    assert load_memo(site) is not None
    monkeypatch.setattr(cache_module, "code_version", lambda: "0.1.0+othercode")
    assert load_memo(site) is None


def test_code_version_names_the_release_and_digests_the_code() -> None:
    version, _, code = code_version().partition("+")
    assert version == sitegen.__version__ and len(code) == 32
    assert code_version() is code_version()  # read once per process


def test_saved_memo_loads_back_and_a_changed_byte_is_refused(make_site: MakeSite, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "me")
    site = make_site(SITE, layouts=False)
    memo = BuildMemo()
    build_site(BuildOptions(source=site, jobs=1), memo)
    cache_module.start_saving_memo(site, memo)()  # signed while it is pickled, in a forked copy
    loaded = load_memo(site)
    assert loaded is not None and loaded.outputs.keys() == memo.outputs.keys()
    assert all(loaded.outputs[k].files == memo.outputs[k].files for k in memo.outputs)
    data = bytearray(cache_path(site).read_bytes())
    data[len(data) // 2] ^= 1
    cache_path(site).write_bytes(bytes(data))
    assert load_memo(site) is None


def test_feeds_are_kept_in_memory_but_not_in_the_build_cache(make_site: MakeSite,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A feed is made again from its memoized entries: the cache file holds the entries, not the feeds, and a
    build that only made the feeds again leaves the cache as it is (nothing to save)."""
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "me")
    site = make_site(SITE, layouts=False)
    memo = BuildMemo()
    first = build_site(BuildOptions(source=site, jobs=1), memo).files
    feeds = {k for k in memo.blobs if k.startswith("feed:")}
    assert feeds and feeds == memo.memory_only.keys()
    assert any(k.startswith("feed-entry:") for k in memo.blobs)
    assert build_site(BuildOptions(source=site, jobs=1), memo).files == first and not memo.dirty
    assert all(parts <= memo.blobs.keys() for parts in memo.memory_only.values())  # the entries the feeds reused
    save_memo(site, memo)
    loaded = load_memo(site)
    assert loaded is not None and memo.blobs.keys() - loaded.blobs.keys() == feeds
    assert not loaded.memory_only
    assert build_site(BuildOptions(source=site, jobs=1), loaded).files == first
    assert not loaded.dirty and loaded.memory_only.keys() == feeds


def test_a_memory_only_blob_counts_the_parts_of_one_it_reuses() -> None:
    """A feed-like blob made from another memory-only blob that was already made: reusing the outer one keeps the
    inner one's parts too (they would otherwise be dropped from the cache while still needed)."""
    memo = BuildMemo()
    memo.blob("inner", lambda: memo.blob("part", lambda: b"p") + b"i", in_cache=False)
    memo.blob("outer", lambda: memo.blob("inner", lambda: b"unused", in_cache=False) + b"o", in_cache=False)
    assert memo.memory_only["outer"] == {"inner", "part"}
    memo.used_blobs.clear()
    assert memo.blob("outer", lambda: b"unused", in_cache=False) == b"pio"
    assert memo.used_blobs == {"outer", "inner", "part"}
