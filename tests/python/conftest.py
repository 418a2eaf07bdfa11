"""Shared fixtures. Every test here runs in .venv against torchnative; the oracle runs in
.venv-upstream in its own process. The first thing checked is that `import torch` gave ours."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
SITE = ROOT / "build" / "site"


def pytest_report_header(config):
    return f"torchnative tree: {SITE}"


_SESSION_START = time.time()
SUMMARIES = ROOT / "build" / "golden"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Exact counts the harness tests wrote this session (build/golden/summary-*.txt, from
    test_golden.py and test_surface_dirs.py; scripts/test.sh puts them on its SUMMARY line)."""
    for f in sorted(SUMMARIES.glob("summary-*.txt")):
        if f.stat().st_mtime >= _SESSION_START:
            for line in f.read_text().splitlines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def torch():
    import torch as t
    return t


def ours_or_die():
    """Fail loudly if this interpreter imported anything but torchnative's torch."""
    import torch
    tree = Path(torch.__file__).resolve().parent
    native = Path(torch._C.__file__).resolve()
    if tree != (SITE / "torch").resolve() or native.parent.name != "meson" or not hasattr(torch._C, "_torchnative"):
        raise SystemExit(f"tests imported the wrong torch: {torch.__file__} with {torch._C.__file__}")


if os.environ.get("TN_TESTS_ALLOW_UPSTREAM") != "1" and Path(sys.prefix).resolve() != (ROOT / ".venv-upstream").resolve():
    ours_or_die()
