"""Reliability matrix, determinism (cases 18-19): the same input gives byte-identical output."""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.test_cli_and_output import tree_digest

MakeSite = Callable[..., Path]

FILES = {
    **{f"content/posts/p{i}.md": f"---\ntitle: Same title\ndate: 2024-01-01\nweight: 1\n"
                                 f"tags: [{', '.join(['b', 'a', 'İstanbul', 'ß'][: (i % 4) + 1])}]\n"
                                 f"categories: [Zeta, alpha]\n---\nBody {i} with `code` and $x$.\n" for i in range(12)},
    "content/_index.md": "---\ntitle: Home\n---\n",
    "data/cv.yaml": "basics: {name: Ada}\nwork: [{name: Lab, position: X, startDate: 2020}]\n",
    "content/cv.md": "---\nlayout: cv\n---\n",
}


def build_with(site: Path, out: Path, **env: str) -> str:
    subprocess.run([sys.executable, "-m", "sitegen", "build", "-q", "--no-cache", "--source", str(site),
                    "--output", str(out)], check=True, env={**os.environ, **env})
    (out / ".sitegen-manifest.json").unlink()
    return tree_digest(out)


# 18
def test_hash_seed_time_zone_and_locale_do_not_change_output(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site(FILES, layouts=False)
    variants = [
        {"PYTHONHASHSEED": "random"}, {"PYTHONHASHSEED": "0"}, {"PYTHONHASHSEED": "1"},
        {"TZ": "America/Los_Angeles", "LANG": "C", "LC_ALL": "C"},
        {"TZ": "Asia/Tokyo", "LANG": "tr_TR.UTF-8", "LC_ALL": "tr_TR.UTF-8"},
        {"TZ": "Europe/Berlin", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"},
    ]
    digests = {build_with(site, tmp_path / f"out{i}", **env) for i, env in enumerate(variants)}
    assert len(digests) == 1


def test_file_creation_order_does_not_change_output(make_site: MakeSite, tmp_path: Path) -> None:
    first = make_site(FILES, layouts=False, name="first")
    items = list(FILES.items())
    random.Random(7).shuffle(items)
    second = make_site(dict(items), layouts=False, name="second")
    assert build_with(first, tmp_path / "o1") == build_with(second, tmp_path / "o2")


# 19
def test_source_date_epoch_leaves_no_wall_clock_in_output(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site(FILES, layouts=False)
    out = tmp_path / "out"
    build_with(site, out, SOURCE_DATE_EPOCH="1700000000")
    today = dt.date.today()
    stamps = {today.isoformat(), today.strftime("%Y%m%d"), f"{today:%B} {today.day}, {today.year}"}
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for stamp in stamps:
                assert stamp.encode() not in data, (path, stamp)
    assert b"CreationDate" in (out / "cv.pdf").read_bytes()
    assert b"D:20231114" in (out / "cv.pdf").read_bytes()


@pytest.mark.parametrize("epoch", ["1700000000", "1800000000"])
def test_two_builds_at_different_times_are_identical(make_site: MakeSite, tmp_path: Path, epoch: str) -> None:
    site = make_site(FILES, layouts=False)
    one = build_with(site, tmp_path / "a", SOURCE_DATE_EPOCH=epoch)
    two = build_with(site, tmp_path / "b", SOURCE_DATE_EPOCH=epoch)
    assert one == two
