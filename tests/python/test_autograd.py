"""Autograd beyond single ops, each side in its own subprocess (tests/python/models/autograd_checks.py):

- torch.autograd.gradcheck (float64, upstream's default checks including undefined-gradient
  support through torch._C._functions.UndefinedGrad) on a representative list of differentiable
  kernels (autograd_checks.GRADCHECK): passes on upstream and on ours, function by function;
- torch.autograd.gradcheck (float64) for every differentiable overload with a C kernel
  (models/gradcheck_samples.py): exact counts of samples and of exclusions by reason, every
  outcome on both sides equal to its pin (True unless pinned with its failure text);
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

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, UPSTREAM_PY

CHECKS = ROOT / "tests" / "python" / "models" / "autograd_checks.py"
OURS_PY = ROOT / ".venv" / "bin" / "python"
sys.path.insert(0, str(CHECKS.parent))
sys.path.insert(0, str(ROOT / "tools"))
import autograd_checks  # noqa: E402
import gradcheck_samples as gs  # noqa: E402
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


def upstream_cached(job: str, inputs) -> dict:
    """upstream's answer for job, cached under build/ by the inputs that decide it."""
    digest = hashlib.sha256()
    for f in sorted(set(inputs)):
        digest.update(f.name.encode() + f.read_bytes())
    cache = ROOT / "build" / "autograd_checks" / f"{job}-{digest.hexdigest()[:16]}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    res = run(UPSTREAM_PY, job)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(res))
    return res


@pytest.fixture(scope="module")
def gradcheck_all():
    golden = ROOT / "tests" / "python" / "golden"
    inputs = [CHECKS, Path(gs.__file__), gs.TABLE, golden / "spell.py", golden / "runner.py",
              ROOT / "schemas" / "kernels.yaml", *golden.glob("cases_op_*.py"), golden / "cases_decompositions.py",
              ROOT / "runtime" / "py" / "tn_decompose.py"]
    ours = run(OURS_PY, "gradcheck_all")
    up = upstream_cached("gradcheck_all", inputs)
    return {k: v[0] for k, v in ours.items()}, {k: v[0] for k, v in up.items()}


GRADCHECK_SAMPLES = gs.samples()


def test_gradcheck_covers_every_differentiable_kernel():
    """Every overload with a C kernel that the door differentiates, and every one it computes by a
    decomposition and records or refuses (gradcheck_samples.decomposed_at_door), has a sample or an
    excluded reason, never both; exact counts, so a new kernel without a gradcheck is red, and a
    decomposition whose derivative is refused counts among the excluded (REFUSED_AT_DOOR)."""
    import torch

    assert sorted(f"aten::{o}" for o in gs.CLAIMS) == sorted(torch._C._torchnative.implemented())
    diff = gs.differentiable()
    missing = sorted(set(diff) - set(GRADCHECK_SAMPLES) - set(gs.EXCLUDED))
    assert not missing, f"differentiable kernels without a gradcheck sample: {missing}"
    assert not set(GRADCHECK_SAMPLES) & set(gs.EXCLUDED)
    assert set(GRADCHECK_SAMPLES) | set(gs.EXCLUDED) == set(diff)
    for ov, why in gs.EXCLUDED.items():
        if why == gs.INTEGER_ONLY:
            assert not any(d.startswith(("float", "bfloat", "complex")) for d in gs.CLAIMS[ov]), ov
    reasons = {}
    for why in gs.EXCLUDED.values():
        reasons[why] = reasons.get(why, 0) + 1
    assert (len(diff), len(GRADCHECK_SAMPLES), len(gs.EXCLUDED)) == (669, 578, 91), reasons
    assert (len(gs.UPSTREAM_FAILS), len(gs.OURS_PINNED)) == (18, 19)


def test_complex_autograd_refuses_unchecked_node_kinds_by_name():
    """Note [Complex autograd] (runtime/autograd.c): a generated node kind that
    schemas/autograd_complex.yaml does not list refuses a complex tensor requiring grad, as an
    input (abs: its output is real) or an output, naming the node and the op; a hand-written kind
    (an autograd.Function) refuses a complex output; listed kinds record; without requires_grad
    nothing changes."""
    import torch

    z = torch.complex(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 3.0])).requires_grad_()
    with pytest.raises(NotImplementedError, match=r"complex64 tensors is not implemented for AbsBackward0 "
                                                  r"\(aten::abs\) \(a complex input\)"):
        torch.abs(z)
    assert torch.abs(z.detach()).tolist() == pytest.approx([1.118033988749895, 3.605551275463989])
    assert (z * z).grad_fn.name() == "MulBackward0"
    assert torch.view_as_real(z).grad_fn.name() == "ViewAsRealBackward0"

    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with pytest.raises(NotImplementedError, match=r"complex64 tensors is not implemented for TwiceBackward "
                                                  r"\(a complex output\)"):
        Twice.apply(z)


@pytest.mark.parametrize("overload", list(GRADCHECK_SAMPLES))
def test_gradcheck_kernel(overload, gradcheck_all):
    """gradcheck's outcome on each side is its pin: True, or the pinned first line of the failure."""
    ours, up = gradcheck_all
    assert up[overload] == gs.UPSTREAM_FAILS.get(overload, True), f"upstream: {up[overload]}"
    assert ours[overload] == gs.OURS_PINNED.get(overload, True), f"ours: {ours[overload]}"


def test_gradcheck_all_ran_every_sample(gradcheck_all):
    ours, up = gradcheck_all
    assert sorted(ours) == sorted(up) == sorted(GRADCHECK_SAMPLES)
    passed = sum(v is True for v in ours.values())
    both = sum(ours[k] is True and up[k] is True for k in up)
    # silu_backward and mish_backward refuse on both sides (their CPU kernel sits beside a
    # CompositeImplicitAutograd one: the Autograd key keeps the kernel, TN_AG_CIA_KERNEL)
    assert (passed, both) == (559, 559), (passed, both)


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


CYCLE_WARNING = """
import torch, warnings
warnings.simplefilter("always")
a = torch.tensor(3., requires_grad=True)
counts = []
for f in (lambda: torch.autograd.grad(a * a, a, create_graph=True), lambda: (a * a).backward(),
          lambda: (a * a).backward(create_graph=True), lambda: (a * a).backward(create_graph=True)):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    counts.append(sum("reference cycle" in str(x.message) for x in w))
print(counts)
"""


def test_backward_create_graph_warns_once_as_upstream():
    """backward(create_graph=True) warns of the grad/leaf reference cycle once per process; grad()
    and a plain backward() never do (upstream's engine)."""
    out = [subprocess.run([str(py), "-c", CYCLE_WARNING], capture_output=True, text=True, check=True).stdout
           for py in (OURS_PY, UPSTREAM_PY)]
    assert out[0] == out[1] == "[0, 0, 1, 0]\n", out
