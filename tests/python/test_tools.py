"""Every command-line tool in tools/ parses its own arguments. No test times them (benchmarks are
run by hand, side by side with upstream), so without this a tool broken at import or at argument
parsing (a merge that registered `--worker` twice left tools/bench.py unrunnable) is found only
by the next person who needs its numbers."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

TOOLS = sorted(p.name for p in (ROOT / "tools").glob("*.py"))


@pytest.mark.parametrize("tool", TOOLS)
def test_help_exits_zero(tool):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / tool), "--help"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "usage:" in r.stdout, r.stdout[-500:]
