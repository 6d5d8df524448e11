"""ruff and mypy stay clean (both are test extras; skipped when not installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_is_clean() -> None:
    proc = subprocess.run(["ruff", "check", "sitegen", "tests", "bench"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy")
    proc = subprocess.run([sys.executable, "-m", "mypy", "sitegen"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout
