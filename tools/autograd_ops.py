"""The ATen ops the backward formulas reach, for docs/AUTOGRAD_OPS.md.

    python tools/autograd_ops.py trace build/autograd_reach.json   # upstream torch + expecttest
    .venv/bin/python tools/autograd_ops.py table build/autograd_reach.json   # ours: the table

`trace` runs forward and torch.autograd.grad on the OpInfo samples (float64, float32; up to 8
per OpInfo) plus the hand-written calls below, with a pre/post hook on every graph node: a
TorchDispatchMode records each op (by overload) under the node executing it, and a profiler run
records the ops each node calls directly (CompositeImplicitAutograd ones included). It needs an
interpreter with upstream torch 2.13.0 and `expecttest` (the OpInfo database imports it), e.g. a
venv whose .pth points at .venv-upstream's site-packages. `table` (in .venv) keeps the nodes of
overloads with a kernel here, asks torch._C._torchnative.route for each op, and prints the
markdown table that ends docs/AUTOGRAD_OPS.md.
"""
from __future__ import annotations

import collections
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def flat(x):
    import torch
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for y in x for t in flat(y)]
    return []


def hand_calls():
    """What the OpInfo samples do not reach on CPU (flash attention, linear's decomposition, ...)."""
    import torch
    import torch.nn.functional as F
    q, k, v = torch.randn(2, 4, 5, 8), torch.randn(2, 2, 6, 8), torch.randn(2, 2, 6, 8)
    return [
        (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True), (q, k, v)),
        (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True), (q, k, v)),
        (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=torch.rand(5, 6) > 0.3, enable_gqa=True),
         (q, k, v)),
        (lambda x, w, b: F.linear(x, w, b), (torch.randn(2, 3, 4), torch.randn(5, 4), torch.randn(5))),
        (lambda x, w: x @ w, (torch.randn(2, 3, 4), torch.randn(4, 5))),
        (lambda x, w: F.rms_norm(x, (4,), w), (torch.randn(3, 4), torch.randn(4))),
        (lambda x, w, b: F.layer_norm(x, (4,), w, b), (torch.randn(3, 4), torch.randn(4), torch.randn(4))),
        (lambda x: F.dropout(x, 0.3, True), (torch.randn(3, 4),)),
        (lambda w: F.embedding(torch.tensor([[0, 2], [1, 2]]), w, padding_idx=1), (torch.randn(4, 3),)),
        (lambda x: F.cross_entropy(x, torch.tensor([0, 2, 1])), (torch.randn(3, 4),)),
        (lambda x: F.cross_entropy(x, torch.tensor([0, 2, 1]), label_smoothing=0.1), (torch.randn(3, 4),)),
        (lambda x: F.cross_entropy(x, torch.tensor([[0, 2], [1, 1]])), (torch.randn(2, 4, 2),)),
        (lambda x: F.cross_entropy(x, torch.tensor([[[0, 2], [1, 1]]])), (torch.randn(1, 4, 2, 2),)),
        (lambda x, w, b: F.conv2d(x, w, b, padding=1), (torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3),
                                                        torch.randn(3))),
        (lambda x, y: F.mse_loss(x, y), (torch.randn(4, 4), torch.randn(4, 4))),
        (lambda x: torch.norm(x), (torch.randn(3, 4),)),
    ]


def trace(out_path: str) -> None:
    import torch
    from torch.profiler import ProfilerActivity, profile
    from torch.testing._internal.common_methods_invocations import op_db
    from torch.utils._python_dispatch import TorchDispatchMode
    warnings.filterwarnings("ignore")
    leaves = collections.defaultdict(collections.Counter)
    direct = collections.defaultdict(collections.Counter)
    cur = [None]

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            leaves[cur[0] or "<engine>"][str(func)] += 1
            return func(*args, **(kwargs or {}))

    def hook(outs):
        stack, done = [o.grad_fn for o in outs if o.grad_fn is not None], set()
        while stack:
            f = stack.pop()
            if f is None or f in done:
                continue
            done.add(f)
            f.register_prehook(lambda g, name=f.name(): cur.__setitem__(0, name))
            f.register_hook(lambda gi, go: cur.__setitem__(0, None))
            stack.extend(nf for nf, _ in f.next_functions)

    def walk(ev, node, top):
        for c in ev.cpu_children:
            if c.name.startswith("aten::"):
                if top:
                    direct[node][c.name] += 1
                walk(c, node, False)
            else:
                walk(c, node, top)

    def run(fn, ins):
        try:
            out = fn(*ins)
            outs = [o for o in flat(out) if o.requires_grad and o.dtype.is_floating_point]
            if not outs:
                return
            req = [t for t in flat(list(ins)) if t.requires_grad]
            hook(outs)
            gs = [torch.randn_like(o) for o in outs]
            with Log():
                torch.autograd.grad(outs, req, gs, allow_unused=True, retain_graph=True)
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                torch.autograd.grad(outs, req, gs, allow_unused=True)
            for ev in prof.events():
                if ev.name.startswith("autograd::engine::evaluate_function: "):
                    walk(ev, ev.name.split(": ", 1)[1], True)
        except Exception:  # a sample upstream itself rejects says nothing about the formulas
            pass

    for dt in (torch.float64, torch.float32):
        for op in op_db:
            if not op.supports_autograd:
                continue
            try:
                samples = list(op.sample_inputs("cpu", dt, requires_grad=True))[:8]
            except Exception:
                continue
            for s in samples:
                run(lambda *a, s=s, op=op: op(*a, **s.kwargs), (s.input, *s.args))
    for fn, ins in hand_calls():
        run(fn, [t.clone().requires_grad_() for t in ins])
    Path(out_path).write_text(json.dumps({"leaves": leaves, "direct": direct}, indent=1, sort_keys=True))


def table(in_path: str) -> None:
    import torch
    sys.path.insert(0, str(ROOT / "codegen"))
    import model
    from torchgen.packaged.autograd.load_derivatives import load_derivatives
    m = model.Model()
    infos, _ = load_derivatives(str(m.native_yaml.parent.parent.parent / "autograd/derivatives.yaml"),
                                str(m.native_yaml), str(m.tags_yaml))
    by_name = {str(i.func.func.name): i for d in infos.values() if (i := d.get("Default")) is not None}
    ours = set()
    for o in m.ops:
        if not o.kernel:
            continue
        info = by_name.get(o.qualified) or (by_name.get(m.by_cname[o.functional].qualified) if o.functional else None)
        if info is not None and info.op:
            ours.add(info.op)
    data = json.loads(Path(in_path).read_text())
    need = collections.defaultdict(set)
    for cls in ours:
        for op in data["leaves"].get(cls, {}):
            _, name, ov = op.split(".")
            need[f"aten::{name}" + ("" if ov == "default" else "." + ov)].add(cls)
    leaf_names = {op.split("::")[1].split(".")[0] for op in need}
    for cls in ours:  # direct calls by name: the CompositeImplicitAutograd ops the formulas name
        for op in data["direct"].get(cls, {}):
            if op.split("::")[1] not in leaf_names:
                need[op].add(cls)
    rows, counts = [], collections.Counter()
    for op in sorted(need):
        try:
            route = torch._C._torchnative.route(op)
        except KeyError:
            continue
        counts[route] += 1
        cl = sorted(need[op])
        more = f" (+{len(cl) - 6} more)" if len(cl) > 6 else ""
        rows.append(f"| `{op}` | {route} | {', '.join(cl[:6])}{more} |")
    print(f"<!-- {len(ours)} backward nodes of overloads with kernels; {sum(counts.values())} ops: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + " -->")
    print("| op | in torchnative | backward nodes that reach it |\n|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("trace", "table"), help="trace: upstream + expecttest; table: ours")
    ap.add_argument("json", help="the reach file trace writes and table reads")
    a = ap.parse_args()
    {"trace": trace, "table": table}[a.command](a.json)
