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


def test_bench_renderers_return_their_markdown():
    """tools/bench.py's render_* functions build the docs' sections; a merge once cut render_fed's
    return line, so `bench.py --fed` measured for minutes and then failed writing None. Each must
    end by returning text."""
    import ast
    tree = ast.parse((ROOT / "tools" / "bench.py").read_text())
    renderers = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("render")]
    assert len(renderers) >= 5, [f.name for f in renderers]
    silent = [f.name for f in renderers if not isinstance(f.body[-1], ast.Return)]
    assert silent == [], f"render functions that do not end in a return: {silent}"
