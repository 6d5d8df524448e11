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


def test_no_function_level_imports_of_sitegen_modules_without_a_reason() -> None:
    """A function-level import of sitegen's own code hides a cycle unless it is a commented lazy import
    (one that keeps a heavy library out of start-up)."""
    import ast

    found = []
    for path in sorted((REPO / "sitegen").rglob("*.py")):
        text = path.read_text("utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                names = ([a.name for a in inner.names] if isinstance(inner, ast.Import)
                         else [inner.module or ""] if isinstance(inner, ast.ImportFrom) and inner.level == 0
                         else ["."] if isinstance(inner, ast.ImportFrom) else [])
                if any(n == "sitegen" or n.startswith(("sitegen.", ".")) for n in names) \
                        and "#" not in lines[inner.lineno - 1]:
                    found.append(f"{path.relative_to(REPO)}:{inner.lineno}: {lines[inner.lineno - 1].strip()}")
    assert found == []
