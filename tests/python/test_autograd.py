"""Autograd beyond single ops, each side in its own subprocess (tests/python/models/autograd_checks.py):

- torch.autograd.gradcheck (float64, upstream's default checks including undefined-gradient
  support through torch._C._functions.UndefinedGrad) on a representative list of differentiable
  kernels (autograd_checks.GRADCHECK): passes on upstream and on ours, function by function;
- tensor and node hooks, retain_grad (also on a view), output_nr, grad_fn.name() /
  next_functions, register_multi_grad_hook, post-accumulate hooks, the non-leaf .grad warning:
  float64 polynomials, compared exactly;
- torch.utils.checkpoint through transformers' gradient checkpointing on the sweep's tiny Llama,
  use_reentrant=False (saved-tensor hooks, _make_saved_tensor) and True (CheckpointFunction, an
  autograd.Function running a nested backward): every parameter's gradient is bit-identical to
  the run without checkpointing (the recomputation runs the same kernels) and agrees with
  upstream's checkpointed run under the derived tolerance of tests/python/golden/compare.py.

In-place ops on views (CopySlices) and autograd.Function are golden cases
(tests/python/golden/cases_inplace_backward.py, cases_autograd_function.py).
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, UPSTREAM_PY

CHECKS = ROOT / "tests" / "python" / "models" / "autograd_checks.py"
OURS_PY = ROOT / ".venv" / "bin" / "python"
sys.path.insert(0, str(CHECKS.parent))
sys.path.insert(0, str(ROOT / "tools"))
import autograd_checks  # noqa: E402
import sweep  # noqa: E402


def run(python, *args) -> dict:
    proc = subprocess.run([str(python), str(CHECKS), *args], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    res = json.loads(proc.stdout)
    if python == UPSTREAM_PY:
        assert "/.venv-upstream/" in res["torch_file"], res["torch_file"]
    else:
        assert res["torch_file"].startswith(str(ROOT / "build" / "site")), res["torch_file"]
    return res["results"]


@pytest.fixture(scope="module")
def gradchecks():
    return run(OURS_PY, "gradcheck"), run(UPSTREAM_PY, "gradcheck")


@pytest.mark.parametrize("name", list(autograd_checks.GRADCHECK))
def test_gradcheck(name, gradchecks):
    ours, up = gradchecks
    assert up[name] is True, f"upstream: {up[name]}"
    assert ours[name] is True, f"ours: {ours[name]}"


def test_gradcheck_list_is_complete(gradchecks):
    ours, up = gradchecks
    assert len(ours) == len(up) == len(autograd_checks.GRADCHECK) == 49


def test_hooks_retain_grad_and_names():
    ours, up = run(OURS_PY, "hooks"), run(UPSTREAM_PY, "hooks")
    assert sorted(ours) == sorted(up)
    for key in up:
        assert ours[key] == up[key], key


@pytest.fixture(scope="module")
def checkpoint_runs():
    sweep.ensure_weights("llama")
    return run(OURS_PY, "checkpoint"), run(UPSTREAM_PY, "checkpoint"), run(UPSTREAM_PY, "checkpoint", "--float64")


@pytest.mark.parametrize("mode", ["reentrant", "non_reentrant"])
def test_checkpoint_gradients_identical_to_plain(mode, checkpoint_runs):
    ours, up, _ = checkpoint_runs
    assert up[mode]["grads"] == up["plain"]["grads"]
    assert len(ours[mode]["grads"]) == len(ours["plain"]["grads"]) == 21
    for name, g in ours["plain"]["grads"].items():
        assert ours[mode]["grads"][name] == g, f"{mode}: {name} differs from the run without checkpointing"


@pytest.mark.parametrize("mode", ["plain", "reentrant", "non_reentrant"])
def test_checkpoint_gradients_agree_with_upstream(mode, checkpoint_runs):
    ours, up, up64 = checkpoint_runs
    assert sorted(ours[mode]["grads"]) == sorted(up[mode]["grads"])
    for name in up[mode]["grads"]:
        errs, _ = sweep.tensor_errors(ours[mode]["grads"][name], up[mode]["grads"][name], up64[mode]["grads"][name],
                                      f"{mode}:{name}")
        assert errs == [], errs[:3]
