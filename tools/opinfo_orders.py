"""One OpInfo sample recomputed with its sums in other orders (Note [One order is one sample] in
docs/TESTING.md, as for SmolLM2's gradients): the same function of the same float32 inputs, the
inputs permuted along a dimension the op sums over and the result permuted back, then measured
with the derived rule against upstream's answers in the OpInfo oracle (tools/opinfo.py's cache):

    .venv-upstream/bin/python tools/opinfo_orders.py nn.functional.multi_head_attention_forward 159
    .venv/bin/python tools/opinfo_orders.py pca_lowrank 3

Per order it prints, for each floating result, ratio = max |x - up64| / (2 E + ulp |up64|), E being
upstream's largest float32 error on that result in the oracle's own run (> 1: outside the derived
bound). Run on .venv-upstream, it shows how far upstream's float32 itself moves when only the
order of its sums changes; on .venv, the same for ours. Orders: multi_head_attention_forward's
embedding features (query, key, value and the in-projection weights' columns: every projection
sums in another order); pca_lowrank's features (the columns of a @ b.mT; V's rows permuted back).
"""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "python" / "golden"))
from opinfo_oracle import CANONICAL, Rebuilt, load_samples, op_key, oracle_dir  # noqa: E402


def permuted_call(name, args, kwargs, perm):
    """(args, kwargs, unpermute) for one order of the op's sums."""
    import torch
    p = torch.tensor(perm)
    if name == "nn.functional.multi_head_attention_forward":
        a = list(args)
        a[0], a[1], a[2] = a[0][..., p], a[1][..., p], a[2][..., p]
        if a[5] is not None:
            a[5] = a[5][:, p]
        kw = dict(kwargs)
        for w in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
            if kw.get(w) is not None:
                kw[w] = kw[w][:, p]
        return a, kw, lambda r: r
    if name == "pca_lowrank":
        a = list(args)
        a[1] = a[1][p]  # b's rows: the columns of a @ b.mT
        inv = torch.argsort(p)
        return a, kwargs, lambda r: (r[0], r[1], r[2][..., inv, :])
    raise SystemExit(f"no orders defined for {name}")


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("op", help="the OpInfo's name (pca_lowrank, nn.functional.multi_head_attention_forward)")
    ap.add_argument("sample", type=int, help="the sample's index in the oracle")
    args = ap.parse_args()
    import numpy as np
    import torch
    import compare
    import runner
    from torch.testing._internal.common_methods_invocations import op_db

    name, index = args.op, args.sample
    path = oracle_dir()
    entry = json.loads((path / "index.json").read_text())["ops"][name]
    rec = load_samples(path, entry)[index]
    op = {op_key(o): o for o in op_db}[name]
    built = Rebuilt(rec["sample"])
    args, kwargs = built.decode(rec["args"]), built.decode(rec["kwargs"])
    ups, up64s = [], []

    def tensors(desc, out):
        if isinstance(desc, dict) and "data" in desc and "dtype" in desc:
            out.append(desc)
        elif isinstance(desc, dict):
            for v in desc.values():
                tensors(v, out)
        elif isinstance(desc, list):
            for v in desc:
                tensors(v, out)
        return out
    tensors(rec["result"], ups)
    tensors(rec["float64"], up64s)
    n = args[0].shape[-1] if name != "pca_lowrank" else args[1].shape[-2]
    print(f"{name} sample {index} on {torch.__file__}")
    worst = 0.0
    for k, perm in enumerate(itertools.permutations(range(n))):
        a, kw, back = permuted_call(name, args, kwargs, list(perm))
        torch.manual_seed(0)
        r = back(op(*a, **kw))
        if name in CANONICAL:
            r = CANONICAL[name](r)

        class Ctx:
            inputs = []
        ours = tensors(runner.Describer(Ctx(), {})(r), [])
        cols = []
        for o, u, r64 in zip(ours, ups, up64s):
            if not u["dtype"].startswith("torch.float"):
                continue
            xo, xu, xr = (compare.as_real(compare.array(d)) for d in (o, u, r64))
            bound = 2 * np.max(np.abs(xu - xr)) + compare.ULP[u["dtype"]] * np.abs(xr)
            with np.errstate(divide="ignore", invalid="ignore"):
                q = float(np.max(np.where(bound > 0, np.abs(xo - xr) / bound, 0.0)))
            cols.append(f"{q:6.3f}")
            worst = max(worst, q)
        print(f"  order {k:2d} {perm}: ratio per result " + " ".join(cols))
    print(f"worst ratio over {k + 1} orders: {worst:.3f}")


if __name__ == "__main__":
    main()
