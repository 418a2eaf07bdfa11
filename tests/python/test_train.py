"""Training agrees with upstream (issue 10), through tools/train_check.py:
- every architecture of the sweep (the ten, ViT, Whisper): one backward of cross-entropy (an MSE of
  the encoder output for ViT and Whisper) on the tiny config; every parameter's gradient within
  the derived tolerance of tests/python/golden/compare.py (upstream's float64 run gives it);
- 10 AdamW steps on tiny Llama, GPT-2 and BERT: every parameter after every step, the same rule;
- SmolLM2-135M-Instruct's real weights: one AdamW step on a fixed text; every gradient under
  the derived rule, the loss before and after the step and every norm weight after it; prints
  the count, the largest relative error and the sign agreement.

Upstream's answers are cached in build/golden (train-*.json, train-real-*/) by a hash of
tools/train_check.py and tools/sweep.py; our side runs in one .venv subprocess per fixture.
"""
from __future__ import annotations

import copy
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import sweep  # noqa: E402
import train_check  # noqa: E402

CACHE = ROOT / "build" / "golden"
ADAMW_ARCHS = ["llama", "gpt2", "bert"]


@pytest.fixture(scope="module")
def jobs(torch):
    """Both kinds of job in one of our processes; upstream's from the cache."""
    names = [f"grads:{a}" for a in sweep.ARCHS] + [f"adamw:{a}" for a in ADAMW_ARCHS]
    up = train_check.oracle(names, CACHE)
    ours = train_check.candidate(names)
    return {"up": up, "ours": ours}


def row(jobs, job):
    r = train_check.judge(job, jobs["ours"][job], jobs["up"][job])
    print(f"{job}: {r['verdict']}")
    return r


@pytest.mark.parametrize("arch", list(sweep.ARCHS))
def test_every_gradient_agrees(arch, jobs):
    r = row(jobs, f"grads:{arch}")
    assert r["ok"], "\n".join([r["verdict"]] + r.get("bad", []) + [r.get("detail", "")])
    up = jobs["up"][f"grads:{arch}"]["float32"]["ok"]["grads"]
    assert r["tensors"] == sum(g is not None for g in up.values())  # ViT's pooler, Whisper's decoder: None


@pytest.mark.parametrize("arch", ADAMW_ARCHS)
def test_adamw_ten_steps_agree(arch, jobs):
    r = row(jobs, f"adamw:{arch}")
    assert r["ok"], "\n".join([r["verdict"]] + r.get("bad", []) + [r.get("detail", "")])
    up = jobs["up"][f"adamw:{arch}"]["float32"]["ok"]["steps"]
    assert len(up) == train_check.STEPS and r["tensors"] == train_check.STEPS * len(up[0]["params"])
    assert up[-1]["loss"] < up[0]["loss"]  # the steps train


def nudge(ours: dict, up: dict, up64: dict, i: int) -> None:
    """Move element i of ours (a described tensor) just outside the derived bound: three times
    upstream's own float32 error of the tensor plus 4 float32 ulps of its largest value."""
    u, r = sweep.values(up), sweep.values(up64)
    err = max(abs(a - b) for a, b in zip(u, r))
    ours["values"][i] += 3 * err + 4 * 2.0 ** -23 * max(abs(v) for v in r)


def test_a_wrong_gradient_or_step_is_caught(jobs):
    """judge() flags one gradient element just outside the bound, a missing gradient, and one
    parameter just outside the bound at the last AdamW step; upstream's own run passes."""
    job, name = "grads:llama", "model.norm.weight"
    up = jobs["up"][job]
    ours = copy.deepcopy(up)
    del ours["float64"]
    assert train_check.judge(job, ours, up)["ok"]
    nudge(ours["float32"]["ok"]["grads"][name], up["float32"]["ok"]["grads"][name],
          up["float64"]["ok"]["grads"][name], 3)
    assert not train_check.judge(job, ours, up)["ok"]
    ours = copy.deepcopy(up)
    ours["float32"]["ok"]["grads"]["lm_head.weight"] = None
    assert "missing" in train_check.judge(job, ours, up)["bad"][0]
    job, name = "adamw:gpt2", "transformer.ln_f.bias"
    up = jobs["up"][job]
    ours = copy.deepcopy(up)
    nudge(ours["float32"]["ok"]["steps"][-1]["params"][name], up["float32"]["ok"]["steps"][-1]["params"][name],
          up["float64"]["ok"]["steps"][-1]["params"][name], 0)
    assert not train_check.judge(job, ours, up)["ok"]


@pytest.fixture(scope="module")
def smollm2(torch):
    r = train_check.real_check(CACHE)
    print(f"SmolLM2-135M-Instruct, {r.get('tokens')} tokens: {r.get('tensors')} parameter gradients, max relative "
          f"error {r.get('max_rel_error', float('nan')):.3g}, sign agreement "
          f"{r.get('sign_agreement', float('nan')):.6f} of {r.get('compared_elements')} elements; "
          f"{len(r.get('grad_bad', []))} gradients outside the derived bound")
    return r


def test_smollm2_one_adamw_step_agrees(smollm2):
    """Every gradient is computed (none missing), every element upstream's gradient moves by
    more than 1e-3 of its tensor's largest has upstream's sign, and the loss before and after
    the step and every norm weight after it are within the derived tolerance."""
    r = smollm2
    assert "grad_bad" in r, r["verdict"]
    assert r["tensors"] == 272 and r["norms_after_step"] == 61
    assert r["sign_agreement"] == 1.0
    assert r["loss_bad"] == [] and r["norm_bad"] == [], r["loss_bad"] + r["norm_bad"]


def test_smollm2_every_gradient_within_derived_tolerance(smollm2):
    """Every gradient within the derived bound of train_check (a float64 reference that is float64
    throughout, upstream's float32 error over two summation orders: Note [Float64 means float64],
    Note [Upstream's error on SmolLM2]). Red before those notes: 29 of 272 outside."""
    assert smollm2["grad_bad"] == [], "\n".join(smollm2["grad_bad"])


def test_smollm2_judge_catches_a_wrong_gradient(smollm2):
    """real_judge passes upstream's own float32 run and flags one gradient element moved just
    outside the bound (three times upstream's largest error on that tensor over both orders)."""
    import numpy as np

    up, up_dir = train_check.real_oracle(CACHE)
    g32 = np.load(up_dir / "grads-float32.npy")
    assert train_check.real_judge(up, g32, up, up_dir)["grad_bad"] == []
    name, shape, start = next(e for e in up["float32"]["index"] if e[0] == "model.layers.0.input_layernorm.weight")
    n = int(np.prod(shape))
    ref = np.load(up_dir / "grads-float64.npy", mmap_mode="r")[start:start + n]
    perm = np.load(up_dir / "grads-permuted.npy", mmap_mode="r")[start:start + n]
    err = max(np.max(np.abs(g32[start:start + n] - ref)), np.max(np.abs(perm - ref)))
    g32[start + 7] = ref[7] + 3 * err + 4 * 2.0 ** -23 * np.max(np.abs(ref))
    bad = train_check.real_judge(up, g32, up, up_dir)["grad_bad"]
    assert len(bad) == 1 and f"{name}[7]" in bad[0], bad
