"""torch.optim on upstream's CPU paths agrees with upstream: ten steps of SGD (plain, momentum +
weight decay, nesterov, maximize + dampening), Adam (plain, weight decay, amsgrad) and AdamW
(plain, amsgrad + weight decay), each on the for-loop path (CPU's default) and the foreach path
(ops/foreach.c), with gradients set by hand before each step (tests/python/models/optim_steps.py),
and clip_grad_norm_ (default foreach, foreach=False, inf norm, no clipping) and clip_grad_value_.

Tolerance: SGD and the clipping are compared bit for bit (they are additions, multiplications
and norms that round as upstream's). Adam and AdamW take the square root of the second moment:
upstream's float32 sqrt (MKL's vsSqrt in its CPU build) is not correctly rounded, ours is, so
their denominators can differ in the last bit (a few elements per step); they are compared
under compare.py's derived tolerance, |ours - up64| <= 2 E + ulp |up64| per step with E
upstream's own largest distance from its float64 run of the same ten steps.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, UPSTREAM_PY

STEPS = ROOT / "tests" / "python" / "models" / "optim_steps.py"
sys.path.insert(0, str(STEPS.parent))
sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
import compare  # noqa: E402
import optim_steps  # noqa: E402

EXACT = [c for c in optim_steps.CONFIGS if c.startswith("sgd")]
DERIVED = [c for c in optim_steps.CONFIGS if c.startswith("adam")]
CLIPS = ["clip_default", "clip_foreach_false", "clip_inf", "clip_no_clip", "clip_value"]


def run(python, *flags) -> dict:
    proc = subprocess.run([str(python), str(STEPS), *flags], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def both(torch):
    ours, up = run(ROOT / ".venv" / "bin" / "python"), run(UPSTREAM_PY, "--float64")
    assert ours["torch_file"].startswith(str(ROOT / "build" / "site"))
    assert "/.venv-upstream/" in up["torch_file"]
    return ours, up


@pytest.mark.parametrize("path", ["for_loop", "foreach"])
@pytest.mark.parametrize("config", EXACT)
def test_sgd_parameters_identical_after_every_step(config, path, both):
    ours, up = both
    key = f"{config}/{path}"
    assert len(ours[key]) == optim_steps.STEPS
    for step, (o, u) in enumerate(zip(ours[key], up[key])):
        assert o == u, f"{key}: step {step + 1} differs"


@pytest.mark.parametrize("path", ["for_loop", "foreach"])
@pytest.mark.parametrize("config", DERIVED)
def test_adam_parameters_within_derived_tolerance_after_every_step(config, path, both):
    ours, up = both
    key = f"{config}/{path}"
    assert len(ours[key]) == optim_steps.STEPS
    for step, (o, u, u64) in enumerate(zip(ours[key], up[key], up["float64"][key])):
        assert compare.compare_values(o, u, u64, "derived", f"{key} step {step + 1}") == []


@pytest.mark.parametrize("config", list(optim_steps.CONFIGS))
def test_foreach_path_identical_to_for_loop(config, both):
    """Upstream's CPU foreach kernels loop over the per-tensor ops, so both paths give the same
    bits there; ours must too."""
    ours, up = both
    assert up[f"{config}/foreach"] == up[f"{config}/for_loop"]
    assert ours[f"{config}/foreach"] == ours[f"{config}/for_loop"]


@pytest.mark.parametrize("config", CLIPS)
def test_clip_grad_identical(config, both):
    ours, up = both
    assert ours[config] == up[config]
