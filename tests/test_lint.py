"""ruff, mypy and the import layers stay clean (test extras; skipped when not installed)."""

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


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed")
def test_imports_follow_the_layers() -> None:
    """No import cycles: each module imports only from layers below it (pyproject's importlinter contract)."""
    proc = subprocess.run(["lint-imports", "--no-cache"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
