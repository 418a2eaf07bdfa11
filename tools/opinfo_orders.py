"""One OpInfo sample recomputed with its sums in other orders (Note [One order is one sample] in
docs/TESTING.md, as for SmolLM2's gradients): the same function of the same float32 inputs, the
inputs permuted along a dimension the op sums over and the result permuted back, then measured
with the derived rule against upstream's answers in the OpInfo oracle (tools/opinfo.py's cache):

    .venv-upstream/bin/python tools/opinfo_orders.py nn.functional.multi_head_attention_forward 159
    .venv/bin/python tools/opinfo_orders.py pca_lowrank 3

Per order it prints, for each floating result, ratio = max |x - up64| / (2 E + ulp |up64|), E being
upstream's largest float32 error on that result in the oracle's own run (> 1: outside the bound of
one run), and beside it (after "orders:") the ratio to the bound the comparison uses, E being
upstream's error over its own run and every order (the oracle's `orders` record). Run on
.venv-upstream, it shows how far upstream's float32 itself moves when only the order of its sums
changes; on .venv, the same for ours. The orders are the oracle's (ORDERS and permutations in
tools/opinfo_oracle.py, Note [Upstream's error over orders]): multi_head_attention_forward's
embedding features (query, key, value and the in-projection weights' columns: every projection
sums in another order); pca_lowrank's A = a @ b.mT along the dimension its random basis is not
drawn along (rows when m >= n, U's rows permuted back; else columns, V's rows permuted back).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "python" / "golden"))
from opinfo_oracle import (CANONICAL, ORDERS, Rebuilt, load_samples, op_key, oracle_dir, permutations,  # noqa: E402
                           tensor_leaves)


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("op", help=f"the OpInfo's name ({', '.join(sorted(ORDERS))})")
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
    ups, up64s = dict(tensor_leaves(rec["result"])), dict(tensor_leaves(rec["float64"]))
    if name not in ORDERS:
        raise SystemExit(f"no orders defined for {name}")
    width, call = ORDERS[name]
    spread = (rec.get("orders") or {}).get("E", {})
    print(f"{name} sample {index} on {torch.__file__}")
    worst = worst_orders = 0.0
    for k, perm in enumerate(permutations(width(args))):
        fresh = Rebuilt(rec["sample"])
        a, kw, back = call(fresh.decode(rec["args"]), fresh.decode(rec["kwargs"]), list(perm))
        torch.manual_seed(0)
        r = op(*a, **kw)
        if name in CANONICAL:
            r = CANONICAL[name](r)
        if back is not None:
            r = back(r)

        class Ctx:
            inputs = []
        cols, cols_orders = [], []
        for path, o in tensor_leaves(runner.Describer(Ctx(), {})(r)):
            u, r64 = ups[path], up64s[path]
            if not u["dtype"].startswith("torch.float"):
                continue
            xo, xu, xr = (compare.as_real(compare.array(d)) for d in (o, u, r64))
            own = float(np.max(np.abs(xu - xr)))
            ulp = compare.ULP[u["dtype"]] * np.abs(xr)
            with np.errstate(divide="ignore", invalid="ignore"):
                q, qo = (float(np.max(np.where(2 * e + ulp > 0, np.abs(xo - xr) / (2 * e + ulp), 0.0)))
                         for e in (own, max(own, spread.get(path, 0.0))))
            cols.append(f"{q:6.3f}")
            cols_orders.append(f"{qo:6.3f}")
            worst, worst_orders = max(worst, q), max(worst_orders, qo)
        print(f"  order {k:2d} {perm}: ratio per result " + " ".join(cols) + "   orders: " + " ".join(cols_orders))
    print(f"worst ratio over {k + 1} orders: {worst:.3f} to one run's bound, "
          f"{worst_orders:.3f} to the bound over orders"
          + ("" if spread else " (the oracle recorded no orders for this sample)"))


if __name__ == "__main__":
    main()
