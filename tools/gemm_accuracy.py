"""Float32 matmul error against float64, ours (.venv) beside upstream torch 2.13.0 (.venv-upstream),
on SmolLM2-135M's training shapes (38 tokens) and one deep product, each with a massive-activation
channel in A (as SmolLM2's residual channel 507: Note [GEMM accuracy] in kernels/matmul.c).

    .venv/bin/python tools/gemm_accuracy.py            # a table: mean and max |C32 - C64| per shape
    .venv/bin/python tools/gemm_accuracy.py --json     # the same as JSON (tests/python/test_gemm_accuracy.py)

A and B are drawn in float64 from seeded generators (3 draws per shape, B both row-major and as a
Linear weight's transpose), column 7 of A scaled by 200; C64 = A @ B in float64, C32 the float32
product of the rounded operands on one thread. Each side runs in its own process (`--worker`).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"ours": ROOT / ".venv/bin/python", "upstream": ROOT / ".venv-upstream/bin/python"}
# (m, k, n): down_proj, gate/up_proj, q/o_proj, a weight gradient (k = tokens), a deep product
SHAPES = [(38, 1536, 576), (38, 576, 1536), (38, 576, 576), (576, 38, 1536), (200, 4096, 256)]
DRAWS = 3
MASSIVE = 200.0


def worker() -> None:
    import torch

    torch.set_num_threads(1)
    out = {"torch": torch.__file__, "shapes": {}}
    for m, k, n in SHAPES:
        means, maxes = [], []
        for draw in range(DRAWS):
            g = torch.Generator().manual_seed(draw)
            a = torch.randn(m, k, generator=g, dtype=torch.float64)
            a[:, 7] *= MASSIVE
            b = torch.randn(k, n, generator=g, dtype=torch.float64) / k ** 0.5
            ref = a @ b
            for b32 in (b.float(), b.t().contiguous().float().t()):
                err = ((a.float() @ b32).double() - ref).abs()
                means.append(err.mean().item())
                maxes.append(err.max().item())
        out["shapes"][f"{m}x{k}x{n}"] = {"mean": sum(means) / len(means), "max": max(maxes)}
    json.dump(out, sys.stdout)


def measure() -> dict:
    """{side: worker output} for both sides."""
    res = {}
    for side, py in PYTHONS.items():
        p = subprocess.run([str(py), __file__, "--worker"], capture_output=True, text=True, check=True)
        res[side] = json.loads(p.stdout)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.worker:
        return worker()
    res = measure()
    if args.json:
        return json.dump(res, sys.stdout, indent=1)
    print("| m×k×n | mean ours | mean upstream | ratio | max ours | max upstream |\n|---|---|---|---|---|---|")
    for shape, o in res["ours"]["shapes"].items():
        u = res["upstream"]["shapes"][shape]
        print(f"| {shape} | {o['mean']:.3g} | {u['mean']:.3g} | {o['mean'] / u['mean']:.2f} | {o['max']:.3g} | {u['max']:.3g} |")


if __name__ == "__main__":
    main()
