"""Our float32 convolution is at least as close to float64 as upstream's (Note [Convolution
sums] in ops/conv.c): the mean over 10 seeded draws of the max |out32 - out64| of a
padded, batched conv1d with K = 192, both sides measured against upstream's float64 result
(tests/python/models/conv_error.py). A single GEMM over K was 2.4x upstream's error here."""
from __future__ import annotations

import json
import subprocess

from conftest import ROOT, UPSTREAM_PY

SCRIPT = ROOT / "tests" / "python" / "models" / "conv_error.py"


def run(python, *flags) -> dict:
    proc = subprocess.run([str(python), str(SCRIPT), *flags], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def mean_max_error(outs, refs) -> float:
    return sum(max(abs(a - b) for a, b in zip(o, r)) for o, r in zip(outs, refs)) / len(refs)


def test_conv_float32_error_not_above_upstreams(torch):
    ours, up = run(ROOT / ".venv" / "bin" / "python"), run(UPSTREAM_PY, "--outputs")
    assert ours["torch_file"].startswith(str(ROOT / "build" / "site")) and "/.venv-upstream/" in up["torch_file"]
    e_ours, e_up = mean_max_error(ours["f32"], up["f64"]), mean_max_error(up["f32"], up["f64"])
    print(f"conv1d K=192 mean max error vs float64: ours {e_ours:.3g}, upstream {e_up:.3g}")
    assert e_ours <= e_up
