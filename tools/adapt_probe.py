"""Where ours and upstream differ in a LowRank adaptation of SmolLM2, against which reference:
the factor gradients of every step and the final factors, saved per side, then compared under
tests/python/golden/compare.py's derived rule (docs/ADAPT.md, "The tolerance").

    .venv/bin/python tools/adapt_probe.py --out build/probe/p-ours.npz
    .venv-upstream/bin/python tools/adapt_probe.py --out build/probe/p-up.npz
    .venv-upstream/bin/python tools/adapt_probe.py --float64 --out build/probe/p-up64.npz
    .venv-upstream/bin/python tools/adapt_probe.py --float64 --keep-float32-casts --out build/probe/p-up64-casts.npz
    .venv-upstream/bin/python tools/adapt_probe.py --exact-trig --out build/probe/p-up-trig.npz
    .venv-upstream/bin/python tools/adapt_probe.py --compare build/probe/p-{ours,up,up64}.npz
    .venv/bin/python tools/adapt_probe.py --trig build/probe/trig-ours.npz     # SmolLM2's rotary cos/sin
    .venv-upstream/bin/python tools/adapt_probe.py --trig build/probe/trig-up.npz
    .venv-upstream/bin/python tools/adapt_probe.py --compare-trig build/probe/trig-{ours,up}.npz

--keep-float32-casts is the float64 run as it was before tools/adapt.py's float64_throughout
(the model's float32 casts left in place); --exact-trig rounds cos/sin from float64 (upstream's
float32 run with other cos/sin roundings, as ours has). Each side runs tools/adapt.py's LowRank
setting (3 SGD steps, lr 1e-2) on its text; about a minute per run.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))


def run(args) -> None:
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import adapt as tool
    import models
    from torchnative import adapt

    torch.set_num_threads(1)
    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32).eval()
    text = tok(tool.TEXT, return_tensors="pt")
    batch = {"input_ids": text.input_ids, "attention_mask": text.attention_mask}
    if args.float64:
        model = model.double()
        if not args.keep_float32_casts:
            tool.float64_throughout(torch)
    if args.exact_trig:
        class ExactTrig(torch.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, fargs=(), kwargs=None):
                if func in (torch.Tensor.cos, torch.Tensor.sin) and fargs[0].dtype == torch.float32:
                    return func(fargs[0].double()).float()
                return func(*fargs, **(kwargs or {}))
        ExactTrig().__enter__()
    a = adapt.wrap(model, method=adapt.LowRank(), lr=args.lr)
    out, step = {}, [0]
    sgd_step = a.optimizer.step

    def record():  # each step's gradients, before SGD applies them
        step[0] += 1
        for n, p in zip(a.names, a.params):
            out[f"step{step[0]}/{n}"] = np.array(p.grad.double().reshape(-1).tolist())
        sgd_step()

    a.optimizer.step = record
    losses = [a.step(**batch) for _ in range(args.steps)]
    for n, p in zip(a.names, a.params):
        out[f"final/{n}"] = np.array(p.detach().double().reshape(-1).tolist())
    np.savez(args.out, **out)
    print(f"torch {torch.__file__}: losses {losses}; {len(out)} arrays -> {args.out}")


def trig(out: Path) -> None:
    """cos/sin of SmolLM2's rotary table for positions 0-63, as transformers computes them
    (float32 angles inv_freq * position, then cos and sin in float32)."""
    import numpy as np
    import torch

    theta, dim = 100000.0, 64  # SmolLM2-135M's rope_theta and head_dim
    inv = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))
    angles = (inv[None, :, None] @ torch.arange(64, dtype=torch.float32)[None, None, :]).transpose(1, 2)
    emb = torch.cat((angles, angles), dim=-1)
    np.savez(out, **{k: np.array(v.reshape(-1).tolist(), dtype=np.float32)
                     for k, v in (("angles", emb), ("cos", emb.cos()), ("sin", emb.sin()))})


def compare_trig(ours: str, up: str) -> None:
    import numpy as np

    o, u = np.load(ours), np.load(up)
    assert np.array_equal(o["angles"], u["angles"]), "the float32 angles differ"
    exact = {"cos": np.cos(o["angles"].astype(np.float64)), "sin": np.sin(o["angles"].astype(np.float64))}
    for k in ("cos", "sin"):
        ulp = np.spacing(np.abs(exact[k]).astype(np.float32)).astype(np.float64)
        err = {side: np.abs(d[k] - exact[k]) / ulp for side, d in (("ours", o), ("upstream", u))}
        print(f"{k}: {int(np.sum(o[k] != u[k]))} of {o[k].size} values differ; max error ours "
              f"{err['ours'].max():.2f} ulp, upstream {err['upstream'].max():.2f} ulp")


def compare(ours: str, up: str, ref: str) -> None:
    """Per group (step1, step2, ..., final): elements outside the derived bound, and per tensor
    the ratio of ours' rms error to upstream's (both against `ref`)."""
    import numpy as np

    import compare as golden

    o, u, r = np.load(ours), np.load(up), np.load(ref)
    groups: dict[str, list] = {}
    for name in r.files:
        group = name.split("/")[0]
        c = r[name]
        if not np.any(c):
            continue  # step 1's A gradients are exactly 0 (B = 0) on every side
        bad = golden.derived_errors(o[name], u[name], c, golden.ULP32, name)
        n_bad = sum(int(m.split("... ")[1].split()[0]) if "... " in m else 1 for m in bad)
        ratio = np.sqrt(np.mean((o[name] - c) ** 2)) / max(np.sqrt(np.mean((u[name] - c) ** 2)), 1e-300)
        groups.setdefault(group, []).append((name, n_bad, ratio))
    for group in sorted(groups, key=lambda g: (g == "final", g)):
        rows = groups[group]
        ratios = np.array([x[2] for x in rows])
        worst = sorted(rows, key=lambda x: -x[1])[:3]
        print(f"{group}: {sum(x[1] for x in rows)} elements outside the bound in {len(rows)} tensors; "
              f"rms error ours/upstream per tensor min {ratios.min():.2f} median {np.median(ratios):.2f} "
              f"max {ratios.max():.2f}" + "".join(f"; {re.sub('model.layers.', 'L', n)} {b}" for n, b, _ in worst if b))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--float64", action="store_true")
    ap.add_argument("--keep-float32-casts", action="store_true")
    ap.add_argument("--exact-trig", action="store_true")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--compare", nargs=3, metavar=("OURS", "UP", "REF"))
    ap.add_argument("--trig", type=Path, metavar="OUT")
    ap.add_argument("--compare-trig", nargs=2, metavar=("OURS", "UP"))
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.compare_trig:
        compare_trig(*args.compare_trig)
    elif args.trig:
        trig(args.trig)
    elif args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        run(args)
    else:
        ap.error("--out or --compare")
    return 0


if __name__ == "__main__":
    sys.exit(main())
