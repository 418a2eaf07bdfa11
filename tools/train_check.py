"""Training agreement: gradients and optimiser steps of tiny transformers models on torchnative
against upstream torch 2.13.0, on the architecture sweep's weights (tools/sweep.py).

    .venv/bin/python tools/train_check.py                  # gradients, every sweep architecture
    .venv/bin/python tools/train_check.py llama gpt2       # some of them
    .venv/bin/python tools/train_check.py --adamw llama    # 10 AdamW steps, parameters after each

Per architecture, each side loads the same safetensors directory in its own subprocess and runs a
loss with backward (dropout off, model.eval()): cross-entropy against the tokens for causal LMs
and BERT (labels=input_ids, padding ignored), for ViT and Whisper a mean of squares of the
encoder output (the issue's MSE). Upstream also runs the model in float64 (model.double()).
Every parameter's gradient is compared under the derived tolerance of
tests/python/golden/compare.py (|ours - up64| <= 2*max|up32 - up64| + ulp32, per tensor), as the
forward sweep compares module outputs. With --adamw both sides take 10 steps of
AdamW(lr=1e-3, weight_decay=0.01) on the same loss and every parameter is compared after every
step (the float64 trajectory gives the tolerance).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import sweep  # noqa: E402

STEPS = 10


def loss_of(torch, model, arch: str):
    inputs = sweep.model_inputs(torch, arch, model)
    if arch in sweep.CAUSAL or arch == "bert":
        labels = inputs["input_ids"].masked_fill(inputs["attention_mask"] == 0, -100)
        return model(**inputs, labels=labels).loss
    out = model(**inputs)
    hidden = out.encoder_last_hidden_state if arch == "whisper" else out.last_hidden_state
    return (hidden ** 2).mean()


def grads(torch, model, arch: str) -> dict:
    model.zero_grad(set_to_none=True)
    loss = loss_of(torch, model, arch)
    loss.backward()
    out = {"loss": loss.item(), "grads": {}}
    for name, p in model.named_parameters():
        out["grads"][name] = sweep.describe(p.grad) if p.grad is not None else None
    return out


def adamw(torch, model, arch: str) -> dict:
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    steps = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = loss_of(torch, model, arch)
        loss.backward()
        opt.step()
        steps.append({"loss": loss.item(),
                      "params": {n: sweep.describe(p) for n, p in model.named_parameters()}})
    return {"steps": steps}


def worker(arch: str, role: str, mode: str) -> dict:
    import torch
    import transformers

    torch.set_num_threads(1)
    cls = getattr(transformers, sweep.ARCHS[arch][0])
    where = sweep.weights_dir(arch)
    job = grads if mode == "grads" else adamw
    res: dict = {"torch_file": torch.__file__}

    def run(double: bool):
        try:
            m = cls.from_pretrained(where, dtype=torch.float32).eval()
            if double:
                m = m.double()
            return {"ok": job(torch, m, arch)}
        except Exception as e:
            return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                    "trace": traceback.format_exc()[-2000:]}

    res["float32"] = run(False)
    if role == "oracle":
        res["float64"] = run(True)
    return res


def run_worker(python: Path, arch: str, role: str, mode: str) -> dict:
    proc = subprocess.run([str(python), __file__, "--worker", role, mode, arch], capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode:
        return {"crashed": f"exit {proc.returncode}", "stderr": proc.stderr[-3000:]}
    return json.loads(proc.stdout)


def compare_tensors(ours: dict, up: dict, up64: dict, what: str) -> tuple[list[str], float]:
    return sweep.tensor_errors(ours, up, up64, what)


def check(arch: str, mode: str, python: Path = sweep.OURS_PY) -> dict:
    sweep.ensure_weights(arch)
    up = run_worker(sweep.UPSTREAM_PY, arch, "oracle", mode)
    if "crashed" in up or "error" in up["float32"] or "error" in up["float64"]:
        return {"arch": arch, "ok": False, "verdict": f"upstream failed: {up.get('stderr') or up}"}
    assert "/.venv-upstream/" in up["torch_file"], up["torch_file"]
    ours = run_worker(python, arch, "candidate", mode)
    if "crashed" in ours:
        return {"arch": arch, "ok": False, "verdict": f"crashed: {ours['stderr'][-500:]}"}
    assert "/.venv-upstream/" not in ours["torch_file"], ours["torch_file"]
    if "error" in ours["float32"]:
        return {"arch": arch, "ok": False, "verdict": f"refused: {ours['float32']['error']}",
                "detail": ours["float32"]["trace"]}
    o, u, u64 = ours["float32"]["ok"], up["float32"]["ok"], up["float64"]["ok"]
    bad, worst, count = [], 0.0, 0
    if mode == "grads":
        pairs = [(n, o["grads"][n], u["grads"][n], u64["grads"][n]) for n in u["grads"]]
        losses = [(o["loss"], u["loss"])]
    else:
        pairs = [(f"step{k}:{n}", so["params"][n], su["params"][n], s64["params"][n])
                 for k, (so, su, s64) in enumerate(zip(o["steps"], u["steps"], u64["steps"])) for n in su["params"]]
        losses = [(so["loss"], su["loss"]) for so, su in zip(o["steps"], u["steps"])]
    for name, a, b, b64 in pairs:
        if (a is None) != (b is None):
            bad.append(f"{name}: gradient {'missing' if a is None else 'unexpected'}")
            continue
        if a is None:
            continue
        errs, e = compare_tensors(a, b, b64, name)
        count += 1
        worst = max(worst, e)
        bad += errs[:1]
    ok = not bad
    verdict = (f"agrees: {count} tensors, max |ours - upstream| {worst:.3g}" if ok
               else f"disagrees: {len(bad)} of {count} tensors, first {bad[0]}")
    return {"arch": arch, "ok": ok, "verdict": verdict, "tensors": count, "max_error": worst,
            "loss": losses, "bad": bad[:10]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archs", nargs="*", metavar="ARCH")
    ap.add_argument("--adamw", action="store_true", help="10 AdamW steps instead of one gradient")
    ap.add_argument("--worker", nargs=3, metavar=("ROLE", "MODE", "ARCH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        role, mode, arch = args.worker
        json.dump(worker(arch, role, mode), sys.stdout)
        return 0
    archs = args.archs or list(sweep.ARCHS)
    mode = "adamw" if args.adamw else "grads"
    rows = [check(a, mode) for a in archs]
    print(f"| arch | {mode} |\n|---|---|")
    for r in rows:
        print(f"| {r['arch']} | {r['verdict']} |")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
