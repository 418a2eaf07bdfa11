"""Two measurements behind golden-case choices, each run on both sides (.venv and .venv-upstream):

    .venv/bin/python tools/bound_study.py attention [L S]   # Note [Attention backward sizes]
    .venv/bin/python tools/bound_study.py conv_transpose    # convolution/transposed_bias_float16

attention: the flash-attention backward of cases_conv_attention_backward.py ("plain": 4 heads;
"gqa_causal": 6 query heads over 2, causal) at L queries and S keys, E = 8, over 15 seeds; for
each of the 3 gradients the derived rule's ratio max|ours - up64| / (2 max|up32 - up64| + ulp|up64|)
(> 1: outside the bound); prints the worst per configuration.
conv_transpose: the float16/bfloat16 conv_transpose2d of convolution/transposed_bias_*; how many
results are not the float64 answer correctly rounded, per side.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"ours": ROOT / ".venv/bin/python", "upstream": ROOT / ".venv-upstream/bin/python"}
SEEDS = range(0, 60, 4)
CONFIGS = {"plain": (4, 4, False), "gqa_causal": (6, 2, True)}


def make(torch, shape, dt, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=g).to(dt)


def worker(what: str, L: int, S: int) -> None:
    import torch

    A = torch.ops.aten
    res = {"torch": torch.__file__}
    if what == "attention":
        for cfg, (hq, hkv, causal) in CONFIGS.items():
            for seed in SEEDS:
                for dt in (torch.float32, torch.float64):
                    q, k, v = (make(torch, (2, h, n, 8), dt, seed + i)
                               for i, (h, n) in enumerate([(hq, L), (hkv, S), (hkv, S)], 1))
                    o, lse = A._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, causal)
                    r = A._scaled_dot_product_flash_attention_for_cpu_backward(
                        make(torch, tuple(o.shape), dt, seed + 4), q, k, v, o, lse, 0.0, causal)
                    res[f"{cfg}/{seed}/{dt}"] = [t.double().flatten().tolist() for t in r]
    else:
        for dt in (torch.float16, torch.bfloat16):
            x, w, b = make(torch, (2, 4, 5, 6), dt, 1), make(torch, (4, 3, 3, 2), dt, 2), make(torch, (3,), dt, 3)
            o = torch.nn.functional.conv_transpose2d(x, w, b, stride=2)
            r = torch.nn.functional.conv_transpose2d(x.double(), w.double(), b.double(), stride=2).to(dt)
            res[str(dt)] = [int((o != r).sum()), o.numel()]
    json.dump(res, sys.stdout)


def run(side: str, args: list[str]) -> dict:
    p = subprocess.run([str(PYTHONS[side]), __file__, *args, "--worker"], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", default="attention", choices=("attention", "conv_transpose"))
    ap.add_argument("L", nargs="?", type=int, default=5)
    ap.add_argument("S", nargs="?", type=int, default=6)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a.what, a.L, a.S)
    args = [a.what, str(a.L), str(a.S)]
    ours, up = run("ours", args), run("upstream", args)
    if a.what != "attention":
        for dt in ("torch.float16", "torch.bfloat16"):
            print(f"{dt}: not correctly rounded: ours {ours[dt][0]} of {ours[dt][1]}, upstream {up[dt][0]} of {up[dt][1]}")
        return
    for cfg in CONFIGS:
        worst = 0.0
        for seed in SEEDS:
            for t in range(3):
                r = up[f"{cfg}/{seed}/torch.float64"][t]
                u, o = up[f"{cfg}/{seed}/torch.float32"][t], ours[f"{cfg}/{seed}/torch.float32"][t]
                err = max(abs(x - y) for x, y in zip(u, r))
                worst = max(worst, max(abs(x - y) / (2 * err + 2.0 ** -23 * abs(y)) for x, y in zip(o, r)))
        print(f"{cfg} at {a.L} x {a.S}: worst derived ratio over {len(SEEDS)} seeds x 3 gradients: {worst:.2f}")


if __name__ == "__main__":
    main()
