"""Test-time adaptation (issue 11), the same python/torchnative code on both sides:
SmolLM2-135M-Instruct with Tent (10 steps) and LowRank, tiny GPT-2 and BERT (LayerNorm models)
and all-MiniLM-L6-v2 with a seeded classification head with Tent, in .eval() and in .train()
(dropout active, seeded: the same masks on both sides); adapted weights within the derived
tolerance of upstream's (upstream's float64 run gives the tolerance), controls that must move
(sign flipped: entropy rises), controls that must not (lr=0: every weight bit-identical), a
detached objective refused; after every run, every parameter's bytes equal those before wrap()
(sha256 over all of them, taken by tools/adapt.py outside the package) and the base copy's size
is exactly the adapted tensors' bytes.

Upstream's runs are cached in build/golden/ by a hash of the code that made them; a clean
checkout runs them once (docs/ADAPT.md gives the time)."""
from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, UPSTREAM_PY

OURS_PY = ROOT / ".venv" / "bin" / "python"
TOOL = ROOT / "tools" / "adapt.py"
sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tools"))
import compare  # noqa: E402


RUNS: dict = {}  # (python, flags) -> answer: each run happens once per session


def run_tool(python: Path, *flags) -> dict:
    """tools/adapt.py --json on one side, once per session; upstream's answers are also cached
    on disk by the code that made them."""
    if (python, flags) not in RUNS:
        RUNS[python, flags] = _run_tool(python, *flags)
    return RUNS[python, flags]


def _run_tool(python: Path, *flags) -> dict:
    key = hashlib.sha256(TOOL.read_bytes() + (ROOT / "python" / "torchnative" / "adapt.py").read_bytes()
                         + (ROOT / "python" / "torchnative" / "delta.py").read_bytes()
                         + " ".join(flags).encode()).hexdigest()[:16]
    cache = ROOT / "build" / "golden" / f"adapt-{key}.json"
    if python == UPSTREAM_PY and cache.exists():
        return json.loads(cache.read_text())
    out = ROOT / "build" / "golden" / f"adapt-run-{python.parent.parent.name}-{key}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([str(python), str(TOOL), "--json", str(out), *flags], capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    if python == UPSTREAM_PY:
        assert "/.venv-upstream/" in doc["torch_file"]
        out.rename(cache)
    else:
        assert doc["torch_file"].startswith(str(ROOT / "build" / "site"))
    return doc


def assert_reverted(doc: dict, moved: bool = True) -> None:
    """Every parameter bit-identical after revert; `moved`: the adaptation did change the base
    weights it adapts (else the revert check proves nothing)."""
    assert doc["after_sha"] == doc["before_sha"]
    assert (doc["adapted_sha"] != doc["before_sha"]) == moved
    assert doc["reverted"] == doc["before"]


def agreement(ours: dict, up: dict, up64: dict) -> tuple[list[str], float, float]:
    """Per adapted tensor: the derived rule; overall: the largest relative error and the share of
    elements (those upstream moved by more than 1e-3 of its largest move) whose change from the
    base has upstream's sign."""
    errs, worst, same, total = [], 0.0, 0, 0
    moves = [abs(y - b) for n in up["adapted"] for y, b in zip(up["adapted"][n], up["base"][n])]
    floor = 1e-3 * max(moves, default=0.0)
    for name, a in ours["adapted"].items():
        b, b64, base = up["adapted"][name], up64["adapted"][name], up["base"][name]
        errs += compare.compare_values(a, b, b64, "derived", name)
        for x, y, z in zip(a, b, base):
            worst = max(worst, abs(x - y) / max(abs(y), 1e-12))
            if abs(y - z) > floor:
                total += 1
                same += (x - z > 0) == (y - z > 0)
    return errs, worst, same / max(total, 1)


def rms_error(side: dict, up64: dict, name: str) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(side["adapted"][name], up64["adapted"][name]))
                     / len(up64["adapted"][name]))


@pytest.fixture(scope="module")
def tent():
    return {"ours": run_tool(OURS_PY), "up": run_tool(UPSTREAM_PY), "up64": run_tool(UPSTREAM_PY, "--float64")}


def test_tent_smollm2_entropy_falls_on_the_text_and_held_out(tent):
    o = tent["ours"]
    assert o["after"] < o["before"], (o["before"], o["after"])
    assert o["held_after"] < o["held_before"], (o["held_before"], o["held_after"])
    assert len(o["steps"]) == 10


def test_tent_smollm2_base_copy_is_the_norm_weights(tent):
    """61 RMSNorm weights of 576 float32: the base copy, against the 513 MiB model."""
    o = tent["ours"]
    assert len(o["adapted"]) == 61 and o["base_bytes"] == 61 * 576 * 4
    assert o["model_bytes"] == 134515008 * 4


def test_tent_smollm2_weights_agree_with_upstream(tent):
    errs, worst, signs = agreement(tent["ours"], tent["up"], tent["up64"])
    print(f"Tent SmolLM2: {len(tent['ours']['adapted'])} tensors, max relative error {worst:.3g}, "
          f"sign agreement {signs:.6f}")
    assert errs == [] and signs == 1.0


# the LayerNorm models: (arch, number of LayerNorm weight + bias tensors)
LAYERNORM = {"gpt2": 2 * (2 * 2 + 1), "bert": 2 * (1 + 2 * 2 + 1), "minilm": 2 * (1 + 2 * 6)}
HIDDEN = {"gpt2": 64, "bert": 64, "minilm": 384}


def layernorm_run(arch: str, train: bool) -> tuple[dict, dict, dict]:
    flags = ("--arch", arch, "--lr", "1e-2", "--steps", "5") + (("--train",) if train else ())
    return run_tool(OURS_PY, *flags), run_tool(UPSTREAM_PY, *flags), run_tool(UPSTREAM_PY, *flags, "--float64")


@pytest.mark.parametrize("mode", ["eval", "train"])
@pytest.mark.parametrize("arch", ["gpt2", "bert", "minilm"])
def test_tent_layernorm_models_agree_with_upstream(arch, mode):
    """LayerNorm weight and bias adapt (the prior art refused these models), on causal LMs and
    encoders; in .train() dropout is active and seeded, so upstream draws the same masks."""
    o, u, u64 = layernorm_run(arch, mode == "train")
    assert sum(n.endswith(".bias") for n in o["adapted"]) == LAYERNORM[arch] // 2, "LayerNorm biases adapt too"
    assert len(o["adapted"]) == LAYERNORM[arch] and o["base_bytes"] == LAYERNORM[arch] * HIDDEN[arch] * 4
    assert o["after"] < o["before"] and o["held_after"] < o["held_before"]
    assert_reverted(o)
    errs, worst, signs = agreement(o, u, u64)
    print(f"Tent {arch} .{mode}(): max relative error {worst:.3g}, sign agreement {signs:.6f}")
    assert errs == [] and signs == 1.0


@pytest.mark.parametrize("arch", ["gpt2", "bert", "minilm"])
def test_train_mode_drops_out(arch):
    """.train() adapts to other weights than .eval() (dropout is active), the same on both sides."""
    train, evl = layernorm_run(arch, True)[0], layernorm_run(arch, False)[0]
    assert train["adapted_sha"] != evl["adapted_sha"]


def test_tent_revert_is_exact(tent):
    assert_reverted(tent["ours"])


def test_tent_sign_flipped_raises_entropy():
    o = run_tool(OURS_PY, "--sign", "-1", "--steps", "3")
    assert o["after"] > o["before"]


def test_tent_lr_zero_keeps_every_weight():
    o = run_tool(OURS_PY, "--lr", "0", "--steps", "2")
    assert_reverted(o, moved=False)   # the adapted model's parameters hash as before wrap()
    assert o["after"] == o["before"] and o["held_after"] == o["held_before"]


def test_detached_objective_is_refused(torch):
    from torchnative import adapt

    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.LayerNorm(4))

    class Detached(adapt.Tent):
        def objective(self, model, batch):
            return adapt.entropy(model(batch["x"]).detach(), torch.ones(2))

    a = adapt.wrap(model, method=Detached(), lr=0.1)
    with pytest.raises(adapt.ObjectiveError, match="does not depend on the adapted parameters"):
        a.step(x=torch.randn(2, 4))
    a.revert()


LOWRANK = ("--method", "lowrank", "--steps", "3", "--lr", "1e-2")


def test_lowrank_lowers_the_text_loss_and_reverts():
    """Rank-4 factors on q/k/v/o of SmolLM2's 30 layers; the base weights never move, revert
    removes the factors and every parameter hashes as before."""
    o = run_tool(OURS_PY, *LOWRANK)
    assert o["after"] < o["before"]
    assert len(o["adapted"]) == 30 * 4 * 2
    assert o["base_bytes"] == 30 * 4 * (4 * 576 * 4 + (576 + 192 + 192 + 576) * 4)
    assert_reverted(o, moved=False)


def test_lowrank_agrees_with_upstream():
    """The factors after 3 steps, within the derived tolerance of upstream's, against a float64
    run that is float64 throughout: tools/adapt.py --float64 keeps the model's 63 float32 casts
    per forward (61 RMSNorms, the rotary embedding, the objective's logits.float()) float64, 8
    forwards. With those casts left in, upstream's float32 run shared their roundings with its
    reference bit for bit and the bound left them out (docs/ADAPT.md, "The tolerance")."""
    o, u, u64 = run_tool(OURS_PY, *LOWRANK), run_tool(UPSTREAM_PY, *LOWRANK), run_tool(UPSTREAM_PY, *LOWRANK, "--float64")
    assert u["float32_casts_kept_float64"] == 0 and u64["float32_casts_kept_float64"] == 8 * 63
    errs, worst, signs = agreement(o, u, u64)
    ratios = sorted(rms_error(o, u64, n) / rms_error(u, u64, n) for n in u64["adapted"])
    print(f"LowRank SmolLM2: max relative error {worst:.3g}, sign agreement {signs:.6f}; per tensor, ours' rms "
          f"error / upstream's (against float64) {ratios[0]:.2f} to {ratios[-1]:.2f}")
    assert errs == [] and signs == 1.0
